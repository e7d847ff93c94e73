"""Picking a target token on the map for another part of the window (the attack panel
asks through :meth:`MapView.pick_target`)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ...hexgrid import Hex
from .base import Tool


class PickTargetTool(Tool):
    name = "pick_target"
    title = "Pick target"
    tooltip = "Click the target's token (Esc cancels)"
    cursor = Qt.CursorShape.CrossCursor

    def activate(self) -> None:
        super().activate()
        self.say("Click the target's token on the map (Esc cancels).")

    def deactivate(self) -> None:
        super().deactivate()
        # chosen another tool while picking: the pick is cancelled
        if self.view._pick_callback is not None and self.view.tool is not self:
            cb, self.view._pick_callback = self.view._pick_callback, None
            self.view._pick_previous = None
            cb(None)

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        tok = self.document.encounter.token_at(h)
        if tok is None:
            self.say("No token there: click the target's token (Esc cancels).")
            return True
        self.view._finish_pick(tok.id)
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.view._finish_pick(None)
            return True
        return False
