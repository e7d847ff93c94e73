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
from typing import Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ...hexgrid import Hex, hex_line
from ...model import edit as ed
from ...model.map import Feature, Label, Marker, Note
from ..scene.map_scene import LAYER_TITLES
from ..tools.base import Tool
from .commands import GroundCommand, ObjectsCommand, SetFieldCommand, new_stroke
from .items import BRUSH_COLOUR, HexSetItem, PolylineItem, remove
from .palette import TERRAIN_WORDS

#: the editor that owns these tools (ui.editor.controller, which imports this module:
#: not imported back, so there is no cycle)
EditorController = Any

#: a press and release further apart than this (map units) is a drag, not a click
DRAG_MIN = 0.35
#: the eraser takes a wall when the mouse is this close to it (map units)
ERASE_REACH = 0.35


def _shift(ev) -> bool:
    return bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)


def _ctrl(ev) -> bool:
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


class _HexOutline:
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
        if self.item is None or self.item.scene() is not sc or self.item.frame is not sc.frame:
            remove(self.item)
            self.item = HexSetItem(sc.frame, BRUSH_COLOUR, dashed=self.ghost)
            sc.addItem(self.item)
        self.item.set_hexes(hexes if self.ghost else ed.on_map(sc.document.map, hexes))

    def clear(self) -> None:
        remove(self.item)
        self.item = None


def _preview_line(item: PolylineItem | None, sc, width: float) -> PolylineItem:
    """``item`` while it is still on ``sc``, else a new preview line ``width`` hexes
    wide added to ``sc``."""
    if item is None or item.scene() is not sc:
        item = PolylineItem(sc.frame.unit * width)
        sc.addItem(item)
    return item


class _StrokeTool(EditorTool):
    """A brush tool whose press, drag and release make one stroke (one undo step),
    with the brush outline following the mouse."""

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._stroke: int | None = None
        self._last: Hex | None = None
        self._cursor = _HexOutline(self)

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
        steps = hex_line(self._last, h)[1:]
        self._last = h
        return steps

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
            self._delta = -1 if _shift(ev) else 1
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
        self._cursor = _HexOutline(self)

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


class WallTool(EditorTool):
    """Click corner after corner (the wall follows the hexsides between them),
    double-click or Enter to finish, Esc to drop it, Backspace to take back a corner.
    A single drag draws a one-stretch wall. Shift at a click: a free point."""

    name = "ed_wall"
    title = "Wall"
    shortcut = "W"
    tooltip = (
        "Draw a wall along hexsides: click corners, double-click or Enter to finish; "
        "Shift for a free point"
    )
    layer = "walls"
    kind = "wall"
    palette_kind = "wall"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._verts: list[tuple[ed.Point, bool]] = []  # (point, free)
        self._press: ed.Point | None = None
        self._press_free = False
        self._item: PolylineItem | None = None
        self._hover: ed.Point | None = None
        self._hover_free = False

    def clear(self) -> None:
        remove(self._item)
        self._item = None
        self._verts = []
        self._press = None

    @property
    def drawing(self) -> bool:
        return bool(self._verts)

    def _snap(self, p: ed.Point, free: bool) -> ed.Point:
        return p if free else ed.snap_corner(self.document.map, p)

    def polyline(self, extra: tuple[ed.Point, bool] | None = None) -> list[ed.Point]:
        """The wall's points so far (plus an optional next corner)."""
        verts = self._verts + ([extra] if extra is not None else [])
        m = self.document.map
        pts: list[ed.Point] = []
        for i, (v, free) in enumerate(verts):
            if i == 0 or free or verts[i - 1][1]:
                pts.append(v)
            else:
                pts += ed.hexside_route(m, pts[-1], v)[1:]
        return ed.simplify(pts)

    def _show(self) -> None:
        sc = self.scene
        if sc is None:
            return
        self._item = _preview_line(self._item, sc, 0.12)
        done = [self.scene_point(p) for p in self.polyline()]
        preview: list[QPointF] = []
        if self._hover is not None and self._verts:
            full = self.polyline((self._hover, self._hover_free))
            preview = [self.scene_point(p) for p in full[len(self.polyline()) - 1 :]]
        self._item.set_points(done, preview)

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        free = _shift(ev)
        p = self._snap(self.map_point(pos), free)
        self._press = self.map_point(pos)
        self._press_free = free
        if not self._verts:
            self._verts = [(p, free)]
            self._hover = p
            self._hover_free = free
            self._show()

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if not self._verts:
            return False
        free = _shift(ev)
        self._hover = self._snap(self.map_point(pos), free)
        self._hover_free = free
        self._show()
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._press is None:
            return False
        start, self._press = self._press, None
        here = self.map_point(pos)
        free = _shift(ev)
        p = self._snap(here, free)
        dragged = math.dist(start, here) > DRAG_MIN
        if len(self._verts) == 1 and dragged:
            self.add_corner(p, free)
            self.finish()
            return True
        if len(self._verts) >= 1 and not dragged and p != self._verts[-1][0]:
            self.add_corner(p, free)
        self._show()
        return True

    def mouse_double_click(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton or not self._verts:
            return False
        free = _shift(ev)
        p = self._snap(self.map_point(pos), free)
        if p != self._verts[-1][0]:
            self.add_corner(p, free)
        self._press = None
        self.finish()
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        k = ev.key()
        if k in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._verts:
            self.finish()
            return True
        if k == Qt.Key.Key_Escape and self._verts:
            self.clear()
            self.say("Wall dropped.")
            return True
        if k == Qt.Key.Key_Backspace and self._verts:
            self._verts.pop()
            if not self._verts:
                self.clear()
            else:
                self._show()
            return True
        return False

    # -- building -------------------------------------------------------------------

    def start(self, p: ed.Point, free: bool = False) -> None:
        """Begin a wall at ``p`` (map units; snapped unless ``free``)."""
        self.clear()
        self._verts = [(self._snap(p, free), free)]

    def add_corner(self, p: ed.Point, free: bool = False) -> None:
        self._verts.append((self._snap(p, free), free))

    def finish(self) -> Feature | None:
        """Turn the corners so far into a wall (one undo step)."""
        pts = self.polyline()
        self.clear()
        if len(pts) < 2:
            self.say("A wall needs two different corners.")
            return None
        m = self.document.map
        if not all(ed.point_on_map(m, p) for p in pts):
            self.say("A wall must stay on the map.")
            return None
        f = Feature(
            id=m.new_id(f"{self.kind}-"),
            kind=self.kind,
            points=pts,
            material=self.palette.material_for(self.kind),
            height=self.palette.height,
        )
        if self.push(ObjectsCommand(self.document, f"Draw {self.kind}", add=[f])):
            self.ctl.select_object(f.id)
            return f
        return None


class CoverTool(WallTool):
    name = "ed_cover"
    title = "Cover"
    shortcut = "Shift+W"
    tooltip = (
        "Draw cover (fences, barrels, troughs) along hexsides: click corners, "
        "double-click or Enter to finish; Shift for a free point"
    )
    kind = "cover"
    palette_kind = "cover"


class DoorTool(EditorTool):
    """Click near a hexside to put a door there (it cuts the wall under it); click a
    door again to open or close it. Shift+drag: a free door between two points."""

    name = "ed_door"
    title = "Door"
    shortcut = "O"
    tooltip = "Put a door on the nearest hexside (cuts the wall); click it again to open/close"
    layer = "objects"
    kind = "door"
    palette_kind = "door"

    def __init__(self, view, controller) -> None:
        super().__init__(view, controller)
        self._press: ed.Point | None = None
        self._item: PolylineItem | None = None

    def clear(self) -> None:
        remove(self._item)
        self._item = None
        self._press = None

    def _show_side(self, pts: list[ed.Point]) -> None:
        self._item = _preview_line(self._item, self.scene, 0.16)
        self._item.set_points([], [self.scene_point(p) for p in pts])

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        self._press = self.map_point(pos)

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        p = self.map_point(pos)
        if self._press is not None and _shift(ev):
            self._show_side([self._press, p])
        else:
            a, b = ed.nearest_hexside(self.document.map, p)
            self._show_side([a, b])
        return self._press is not None

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._press is None:
            return False
        start, self._press = self._press, None
        here = self.map_point(pos)
        if _shift(ev) and math.dist(start, here) > DRAG_MIN:
            # dropped along a free-drawn wall: sit exactly on it, so it cuts the wall
            on = ed.onto_wall(self.document.map, start, here)
            self.place(*(on or (start, here)))
        else:
            self.place_on_hexside(start)
        return True

    def place_on_hexside(self, p: ed.Point) -> Feature | None:
        """A door on the hexside nearest ``p`` — or, if one is there, open/close it."""
        a, b = ed.nearest_hexside(self.document.map, p)
        for f in self.document.map.features:
            on_side = {ed.round_point(x) for x in f.points} == {a, b}
            if f.kind in ("door", "window") and len(f.points) == 2 and on_side:
                new = not f.is_open
                word = "Open" if new else "Close"
                self.push(
                    SetFieldCommand(
                        self.document, f, "is_open", new, text=f"{word} {f.kind}", merge=False
                    )
                )
                self.ctl.select_object(f.id)
                return None
        return self.place(a, b)

    def place(self, a: ed.Point, b: ed.Point) -> Feature | None:
        doc = self.document
        m = doc.map
        if math.dist(a, b) < 1e-6:
            return None
        if not (ed.point_on_map(m, a) and ed.point_on_map(m, b)):
            self.say(f"A {self.kind} must stay on the map.")
            return None
        f = Feature(
            id=m.new_id(f"{self.kind}-"),
            kind=self.kind,
            points=[a, b],
            material=self.palette.material_for(self.kind),
            is_open=self.palette.opening_open,
        )
        cut = ed.cut_walls(m, a, b)
        replace, add, gone = [], [f], []
        for old, pieces in cut:
            if pieces:
                replace.append((old, pieces[0]))
                add += pieces[1:]
            else:
                gone.append(old)
        text = f"Put a {self.kind}" + (" into the wall" if cut else "")
        if self.push(ObjectsCommand(doc, text, add=add, remove=gone, replace=replace)):
            self.ctl.select_object(f.id)
            return f
        return None


class WindowTool(DoorTool):
    name = "ed_window"
    title = "Window"
    shortcut = "Shift+O"
    tooltip = "Put a window on the nearest hexside (cuts the wall); click it again to open/close"
    kind = "window"
    palette_kind = "window"


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
        if not self._moved and math.dist(p, self._from) < DRAG_MIN:
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
            obj = Note(id=m.new_id("note-"), hex=(h.q, h.r), text=text.strip())
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
        self._ghost = _HexOutline(self, ghost=True)
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
        self._copy = _ctrl(ev)
        self._base = set(self.ctl.region) if _shift(ev) else set()
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
        if self._press_hit is not None and not _shift(ev):
            self.ctl.set_region(())
            self.ctl.select_object(self._press_hit)
            return True
        self.ctl.select_object(None)
        if _shift(ev):
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
