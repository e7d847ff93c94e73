"""The tool protocol: one active tool at a time receives the map view's mouse and key
events (Tiled's habit: ``activate``/``deactivate``/``mouse_*``).

Each handler gets the Qt event, the scene position and the hex under it, and returns
True when it used the event (the view then stops there).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QWheelEvent

from ...hexgrid import Hex

#: the view a tool works in (ui.scene.map_view, which imports the tools: not imported
#: here, so there is no cycle)
MapView = Any


class Tool(QObject):
    """Base class of the map tools."""

    #: short id, also the action's objectName
    name = "tool"
    title = "Tool"
    shortcut = ""
    tooltip = ""
    cursor = Qt.CursorShape.ArrowCursor

    #: a line for the status bar (what the tool is showing or asking for)
    statusMessage = Signal(str)

    def __init__(self, view: MapView) -> None:
        super().__init__(view)
        self.view = view
        self.active = False

    @property
    def document(self):
        return self.view.document

    @property
    def scene(self):
        return self.view.map_scene

    def activate(self) -> None:
        self.active = True
        self.view.viewport().setCursor(self.cursor)

    def deactivate(self) -> None:
        self.active = False
        self.clear()

    def clear(self) -> None:
        """Remove anything the tool drew on the map."""

    def document_changed(self) -> None:
        """The view switched documents (or rebuilt the scene): drop references."""
        self.clear()

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        return False

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        return False

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        return False

    def mouse_double_click(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        return False

    def key_press(self, ev: QKeyEvent) -> bool:
        return False

    def wheel(self, ev: QWheelEvent) -> bool:
        return False

    def say(self, text: str) -> None:
        self.statusMessage.emit(text)
