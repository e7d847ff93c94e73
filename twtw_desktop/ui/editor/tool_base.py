"""What every editor tool stands on (:mod:`.tools`, :mod:`.hexside_tools`): the base
that knows the controller and refuses a locked layer, the outline a brush or a moved
region draws over hexes, and the preview line of a wall being drawn."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent

from ...hexgrid import Hex
from ...model import edit as ed
from ..scene.map_scene import LAYER_TITLES
from ..tools.base import Tool
from .items import BRUSH_COLOUR, HexSetItem, PolylineItem, remove

#: the editor that owns these tools (ui.editor.controller, which imports this module:
#: not imported back, so there is no cycle)
EditorController = Any

#: a press and release further apart than this (map units) is a drag, not a click
DRAG_MIN = 0.35
#: the eraser takes a wall when the mouse is this close to it (map units)
ERASE_REACH = 0.35


def shift_held(ev) -> bool:
    return bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)


def ctrl_held(ev) -> bool:
    return bool(ev.modifiers() & Qt.KeyboardModifier.ControlModifier)


class EditorTool(Tool):
    """Base of the editor tools: knows the controller, checks layer locks."""

    #: the layer this tool changes (None: decided per action)
    layer: str | None = "terrain"
    cursor = Qt.CursorShape.CrossCursor
    #: the feature kind whose material the palette shows while this tool is active
    palette_kind = "wall"

    def __init__(self, view, controller: EditorController) -> None:
        super().__init__(view)
        self.ctl = controller

    @property
    def palette(self):
        return self.ctl.palette

    def activate(self) -> None:
        super().activate()
        self.ctl.tool_activated(self)
        if self.tooltip:
            self.say(self.tooltip)

    def editable(self, layer: str | None = None) -> bool:
        """Whether this tool may change ``layer`` now (says why not)."""
        layer = layer or self.layer
        if not self.ctl.mode:
            self.say("Turn on Map > Edit map (Ctrl+E) to edit the map.")
            return False
        sc = self.scene
        if sc is not None and layer is not None and sc.layer_locked(layer):
            self.say(
                f"The {LAYER_TITLES.get(layer, layer)} layer is locked — unlock it in the "
                "Layers panel to edit it."
            )
            return False
        return True

    def map_point(self, pos: QPointF) -> ed.Point:
        return self.scene.frame.to_map(pos)

    def scene_point(self, p: ed.Point) -> QPointF:
        return self.scene.frame.to_scene(p)

    def push(self, cmd) -> bool:
        return self.ctl.push(cmd, quiet=False)

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        """A left press goes to :meth:`press` when this tool may edit now (otherwise
        :meth:`editable` has said why); other buttons are left to the view."""
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        if self.editable():
            self.press(ev, pos, h)
        return True

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        """A left press this tool may act on."""


class HexOutline:
    """The outline a tool draws over hexes: the hexes a brush would touch (only those
    on the map), or with ``ghost`` the dashed outline of hexes being moved or pasted
    (wherever they fall)."""

    def __init__(self, tool: EditorTool, ghost: bool = False) -> None:
        self.tool = tool
        self.ghost = ghost
        self.item: HexSetItem | None = None

    def show(self, hexes) -> None:
        sc = self.tool.scene
        if sc is None:
            return
        # the frame first: an ``is`` test on the scene would narrow it to a bare QGraphicsScene
        if self.item is None or self.item.frame is not sc.frame or self.item.scene() is not sc:
            remove(self.item)
            self.item = HexSetItem(sc.frame, BRUSH_COLOUR, dashed=self.ghost)
            sc.addItem(self.item)
        self.item.set_hexes(hexes if self.ghost else ed.on_map(sc.document.map, hexes))

    def clear(self) -> None:
        remove(self.item)
        self.item = None


def preview_line(item: PolylineItem | None, sc, width: float) -> PolylineItem:
    """``item`` while it is still on ``sc``, else a new preview line ``width`` hexes
    wide added to ``sc``."""
    if item is None or item.scene() is not sc:
        item = PolylineItem(sc.frame.unit * width)
        sc.addItem(item)
    return item
