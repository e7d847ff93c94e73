"""The editor's tools: one active at a time, each stroke one undoable command.

Terrain: brush (sizes 1–3), flood fill, rectangle fill, raise/lower ground. Stairs,
ladders and cliff faces are terrain too — the brush paints the codes ``s``, ``l`` and
``c`` (000 Movement AP Cost: stairs +1 AP per 2 paces, a ladder +1 AP per pace, and a
wall or cliff face to climb +2 AP per pace, so a cliff edge is a line of climb hexes).

Walls and cover run along hexsides from corner to corner; hold Shift at a click for
a free point (a straight stretch off the grid). Doors and windows take one hexside and
cut the wall beneath them. Labels go anywhere, Judge notes and markers on a hex. The
eraser removes what is under it (or clears the ground when nothing is). The region
tool selects hexes (drag a rectangle, Shift adds), picks single objects for the
properties panel, and moves a region with everything in it (Ctrl+drag copies).

A locked layer (Layers panel) refuses the tools that would change it, with a status
message.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ...hexgrid import Hex, hex_line
from ...model import edit as ed
from ...model.map import Label, Marker, Note
from .commands import GroundCommand, ObjectsCommand, SetFieldCommand, new_stroke
from .hexside_tools import CoverTool, DoorTool, WallTool, WindowTool
from .items import remove
from .palette import TERRAIN_WORDS
from .tool_base import DRAG_MIN, EditorTool, HexOutline, ctrl_held, shift_held


class _StrokeTool(EditorTool):
    """A brush tool whose press, drag and release make one stroke (one undo step),
    with the brush outline following the mouse."""

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._stroke: int | None = None
        self._last: Hex | None = None
        self._cursor = HexOutline(self)

    def clear(self) -> None:
        self._cursor.clear()
        self._stroke = None

    def _brush(self, h: Hex) -> list[Hex]:
        return ed.brush(h, self.palette.brush_size)

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        self._stroke = new_stroke()
        self._last = h

    def _passed(self, h: Hex) -> list[Hex]:
        """Every hex after the last one up to ``h`` (so a quick drag leaves no gaps);
        ``h`` becomes the last one."""
        last, self._last = self._last, h
        return hex_line(last, h)[1:] if last is not None else [h]

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._stroke is None:
            return False
        self._stroke = None
        self._last = None
        return True


class TerrainBrushTool(_StrokeTool):
    name = "ed_brush"
    title = "Terrain brush"
    shortcut = "B"
    tooltip = "Paint the palette's terrain; brush size 1, 2 or 3 (keys 1–3)"

    def _paint(self, hexes: list[Hex]) -> None:
        doc = self.document
        t = self.palette.terrain
        change = ed.terrain_change(doc.map, hexes, t)
        if change:
            word = TERRAIN_WORDS[t][0].lower()
            self.push(GroundCommand(doc, change, f"Paint {word}", stroke=self._stroke))

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        super().press(ev, pos, h)
        self._paint(self._brush(h))

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        self._cursor.show(self._brush(h))
        if self._stroke is None or h == self._last:
            return self._stroke is not None
        self._paint([x for step in self._passed(h) for x in self._brush(step)])
        return True


class ElevationTool(TerrainBrushTool):
    name = "ed_elevation"
    title = "Raise/lower ground"
    shortcut = "H"
    tooltip = "Raise the ground one level under the brush; hold Shift to lower it"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._delta = 1
        self._done: set[Hex] = set()

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() == Qt.MouseButton.LeftButton:
            self._delta = -1 if shift_held(ev) else 1
            self._done = set()
        return super().mouse_press(ev, pos, h)

    def _paint(self, hexes: list[Hex]) -> None:
        # each hex moves one level per stroke however often the brush passes it
        fresh = [x for x in hexes if x not in self._done]
        self._done.update(fresh)
        doc = self.document
        change = ed.elevation_change(doc.map, fresh, self._delta)
        if change:
            text = "Raise ground" if self._delta > 0 else "Lower ground"
            self.push(GroundCommand(doc, change, text, stroke=self._stroke))


class FloodFillTool(EditorTool):
    name = "ed_fill"
    title = "Flood fill"
    shortcut = "G"
    tooltip = "Fill the connected hexes of the same terrain and height with the palette's terrain"

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        self.fill(h)

    def fill(self, h: Hex) -> int:
        """Flood-fill from ``h``; returns the number of hexes changed."""
        doc = self.document
        m = doc.map
        blocked = None
        if self.palette.stop_at_walls:
            walls = doc.walls()

            def blocked(a: Hex, b: Hex) -> bool:
                return walls.movement_blocked(a, b) is not None

        region = ed.flood_region(m, h, blocked=blocked)
        change = ed.terrain_change(m, region, self.palette.terrain)
        if not change:
            self.say("Nothing to fill: those hexes already have that terrain.")
            return 0
        word = TERRAIN_WORDS[self.palette.terrain][0].lower()
        if self.push(GroundCommand(doc, change, f"Fill {len(change)} hexes with {word}")):
            self.say(f"Filled {len(change)} hexes with {word}.")
            return len(change)
        return 0


class RectFillTool(EditorTool):
    name = "ed_rect"
    title = "Rectangle fill"
    shortcut = "Shift+R"
    tooltip = "Drag a rectangle of hexes to fill with the palette's terrain"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._from: Hex | None = None
        self._cursor = HexOutline(self)

    def clear(self) -> None:
        self._cursor.clear()
        self._from = None

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        self._from = h
        self._cursor.show([h])

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None:
            self._cursor.show([h])
            return False
        self._cursor.show(ed.rect_hexes(self.document.map, self._from, h))
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._from is None:
            return False
        a, self._from = self._from, None
        doc = self.document
        hexes = ed.rect_hexes(doc.map, a, h)
        self._cursor.show([h])
        change = ed.terrain_change(doc.map, hexes, self.palette.terrain)
        if change:
            word = TERRAIN_WORDS[self.palette.terrain][0].lower()
            self.push(GroundCommand(doc, change, f"Fill rectangle with {word}"))
        return True


class LabelTool(EditorTool):
    """Click to place a label (asks its text); drag a label to move it."""

    name = "ed_label"
    title = "Label"
    shortcut = "L"
    tooltip = "Click to place a label; drag one to move it; the palette sets Judge-only"
    layer = "labels"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._drag: str | None = None
        self._from: ed.Point | None = None
        self._moved = False
        self._stroke: int | None = None

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        hit = self.ctl.object_at(pos, layers=("labels",))
        self._from = self.map_point(pos)
        self._moved = False
        self._drag = hit
        self._stroke = new_stroke()
        if hit is None:
            self._from = None
            self.place(self.map_point(pos))
        else:
            self.ctl.select_object(hit)

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._drag is None:
            return False
        p = self.map_point(pos)
        if not self._moved and self._from is not None and math.dist(p, self._from) < DRAG_MIN:
            return True
        self._moved = True
        lab = ed.find_object(self.document.map, self._drag)
        at = (round(p[0], 3), round(p[1], 3))
        self.push(
            SetFieldCommand(self.document, lab, "at", at, text="Move label", stroke=self._stroke)
        )
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._drag is None:
            return False
        self._drag = None
        return True

    def place(self, p: ed.Point, text: str | None = None) -> Label | None:
        m = self.document.map
        if not ed.point_on_map(m, p):
            self.say("Labels go on the map.")
            return None
        if text is None:
            text = self.ctl.ask_text("New label", "Label text:")
        if not text or not text.strip():
            return None
        pal = self.palette
        lab = Label(
            id=m.new_id("label-"),
            at=(round(p[0], 3), round(p[1], 3)),
            text=text.strip(),
            judge_only=pal.judge_only,
            size=pal.label_size,
        )
        who = " (Judge only)" if lab.judge_only else ""
        if self.push(ObjectsCommand(self.document, f"Add label{who}", add=[lab])):
            self.ctl.select_object(lab.id)
            return lab
        return None


class NoteTool(EditorTool):
    """Click a hex to pin a Judge-only note or a trap/ambush/objective marker there."""

    name = "ed_note"
    title = "Judge note"
    shortcut = "N"
    tooltip = "Click a hex to pin a Judge-only note or marker (palette chooses which)"
    layer = "notes"

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        hit = self.ctl.object_at(pos, layers=("notes",))
        if hit is not None:
            self.ctl.select_object(hit)
        else:
            self.place(h)

    def place(self, h: Hex, text: str | None = None) -> Note | Marker | None:
        m = self.document.map
        if not m.contains(h):
            self.say("Notes go on the map.")
            return None
        kind = self.palette.note_kind
        word = "note" if kind == "note" else f"{kind} marker"
        if text is None:
            text = self.ctl.ask_text(f"New {word}", "Text (only the Judge sees it):", True)
        if text is None:
            return None
        if kind == "note":
            if not text.strip():
                return None
            obj: Note | Marker = Note(id=m.new_id("note-"), hex=(h.q, h.r), text=text.strip())
        else:
            obj = Marker(id=m.new_id(f"{kind}-"), hex=(h.q, h.r), kind=kind, text=text.strip())
        if self.push(ObjectsCommand(self.document, f"Add {word}", add=[obj])):
            self.ctl.select_object(obj.id)
            return obj
        return None


class EraseTool(_StrokeTool):
    """Press on a wall, door, label or note and drag to erase such things; press on
    bare ground and drag to clear it back to open, level ground (brush size)."""

    name = "ed_erase"
    title = "Erase"
    shortcut = "E"
    tooltip = "Erase walls, doors, labels and notes under the mouse, or clear the ground"
    layer = None

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._mode = ""

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        super().press(ev, pos, h)
        hit = self.ctl.object_at(pos)
        self._mode = "objects" if hit is not None else "ground"
        self._erase_at(pos, h)

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._mode != "objects":
            self._cursor.show(self._brush(h))
        if self._stroke is None:
            return False
        if self._mode == "ground" and h != self._last:
            for step in self._passed(h):
                self._erase_at(pos, step)
        elif self._mode == "objects":
            self._erase_at(pos, h)
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if not super().mouse_release(ev, pos, h):
            return False
        self._mode = ""
        return True

    def _erase_at(self, pos: QPointF, h: Hex) -> None:
        doc = self.document
        if self._mode == "objects":
            hit = self.ctl.object_at(pos)
            if hit is None:
                return
            layer = self.ctl.layer_of(hit)
            if not self.editable(layer):
                return
            obj = ed.find_object(doc.map, hit)
            self.push(ObjectsCommand(doc, "Erase", remove=[obj], stroke=self._stroke))
            if self.ctl.selected_id == hit:
                self.ctl.select_object(None)
        else:
            if not self.editable("terrain"):
                self._stroke = None
                return
            change = ed.clear_change(doc.map, self._brush(h))
            if change:
                self.push(GroundCommand(doc, change, "Clear ground", stroke=self._stroke))


class RegionTool(EditorTool):
    """Select hexes (drag a rectangle; Shift adds to the selection), click a wall,
    door, label or note to pick it for the properties panel, drag the selection to
    move it with everything in it (Ctrl+drag copies it). Esc clears; while pasting,
    the copied hexes follow the mouse until a click puts them down."""

    name = "ed_region"
    title = "Select region"
    shortcut = "Shift+S"
    tooltip = (
        "Drag to select hexes (Shift adds); click a wall, door, label or note to edit "
        "it; drag a selection to move it (Ctrl copies)"
    )
    layer = None
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._press_hex: Hex | None = None
        self._press_hit: str | None = None
        self._mode = ""  # "", "select", "move"
        self._base: set[Hex] = set()
        self._copy = False
        self._ghost = HexOutline(self, ghost=True)
        self.pasting = False

    def clear(self) -> None:
        self._ghost.clear()
        self._mode = ""
        self._press_hex = None
        self.pasting = False

    def deactivate(self) -> None:
        super().deactivate()

    def start_paste(self) -> None:
        self.pasting = True
        h = self.view.hovered_hex()
        if h is not None and self.ctl.clipboard is not None:
            self._ghost.show(self.ctl.clipboard.hexes_at(h))
        self.say("Click where the copied hexes' top-left corner goes; Esc cancels.")

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        if self.pasting:
            self.pasting = False
            self._ghost.clear()
            self.ctl.paste_at(h)
            return True
        self._press_hex = h
        self._press_hit = self.ctl.object_at(pos)
        self._mode = ""
        self._copy = ctrl_held(ev)
        self._base = set(self.ctl.region) if shift_held(ev) else set()
        return True

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self.pasting and self.ctl.clipboard is not None:
            self._ghost.show(self.ctl.clipboard.hexes_at(h))
            return True
        if self._press_hex is None:
            return False
        if not self._mode:
            if h == self._press_hex:
                return True
            inside = self._press_hex in self.ctl.region and not self._base
            self._mode = "move" if inside else "select"
        m = self.document.map
        if self._mode == "select":
            self.ctl.set_region(self._base | set(ed.rect_hexes(m, self._press_hex, h)))
        else:
            d = h - self._press_hex
            self._ghost.show([x + d for x in self.ctl.region])
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._press_hex is None:
            return False
        start, self._press_hex = self._press_hex, None
        mode, self._mode = self._mode, ""
        self._ghost.clear()
        if mode == "move":
            d = h - start
            if d != Hex(0, 0):
                self.ctl.move_region(d, copy=self._copy)
            return True
        if mode == "select":
            return True
        # a click
        if self._press_hit is not None and not shift_held(ev):
            self.ctl.set_region(())
            self.ctl.select_object(self._press_hit)
            return True
        self.ctl.select_object(None)
        if shift_held(ev):
            self.ctl.set_region(set(self.ctl.region) ^ {h})
        else:
            self.ctl.set_region({h})
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            if self.pasting:
                self.clear()
                self.say("Paste cancelled.")
                return True
            if self.ctl.region or self.ctl.selected_id:
                self.ctl.set_region(())
                self.ctl.select_object(None)
                return True
        return False


class AlignTool(EditorTool):
    """Two clicks on the background picture, then the Judge says which hexes they
    are (or how many hexes apart they lie); the picture is scaled and shifted so the
    grid fits it."""

    name = "ed_align"
    title = "Align grid to picture"
    shortcut = ""
    tooltip = "Click two points on the picture (e.g. two hex centres drawn on it)"
    layer = "background"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self.points: list[ed.Point] = []  # picture pixels
        self._hexes: list[Hex] = []
        self._marks: list = []
        self.previous = None

    def activate(self) -> None:
        super().activate()
        self.points = []
        self._hexes = []
        if self.document.map.background is None:
            self.say("Import a background picture first (Map > Background picture > Import…).")
        else:
            self.say("Click the first point on the picture (a hex centre drawn on it).")

    def clear(self) -> None:
        for it in self._marks:
            remove(it)
        self._marks = []

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        if self.document.map.background is None:
            self.say("Import a background picture first.")
        else:
            self.pick(self.map_point(pos))

    def pick(self, p: ed.Point) -> None:
        """Take ``p`` (map units) as the next point on the picture."""
        from .items import CrossItem

        bg = self.document.map.background
        self.points.append(ed.map_to_image(bg, *p))
        self._hexes.append(ed.hex_containing(self.document.map, p))
        sc = self.scene
        mark = CrossItem(len(self.points), sc.frame.unit * 0.5)
        mark.setPos(self.scene_point(p))
        sc.addItem(mark)
        self._marks.append(mark)
        if len(self.points) == 1:
            self.say("Now click a second point, well away from the first.")
            return
        a, b = self.points[:2]
        ha, hb = self._hexes[:2]
        self.points, self._hexes = [], []
        try:
            self.ctl.align_background(a, b, ha, hb)
        finally:
            self.clear()
            self.ctl.end_align()

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() == Qt.Key.Key_Escape:
            self.points, self._hexes = [], []
            self.clear()
            self.ctl.end_align()
            self.say("Alignment cancelled.")
            return True
        return False


def make_editor_tools(view, controller) -> list[EditorTool]:
    """The editor's tools in toolbar order."""
    return [
        RegionTool(view, controller),
        TerrainBrushTool(view, controller),
        FloodFillTool(view, controller),
        RectFillTool(view, controller),
        ElevationTool(view, controller),
        WallTool(view, controller),
        CoverTool(view, controller),
        DoorTool(view, controller),
        WindowTool(view, controller),
        LabelTool(view, controller),
        NoteTool(view, controller),
        EraseTool(view, controller),
        AlignTool(view, controller),
    ]


__all__ = [
    "AlignTool",
    "CoverTool",
    "DoorTool",
    "EditorTool",
    "ElevationTool",
    "EraseTool",
    "FloodFillTool",
    "LabelTool",
    "NoteTool",
    "RectFillTool",
    "RegionTool",
    "TerrainBrushTool",
    "WallTool",
    "WindowTool",
    "make_editor_tools",
]
