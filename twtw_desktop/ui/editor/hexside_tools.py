"""The editor's hexside tools: walls and cover from corner to corner along the
hexsides (Shift at a click for a free point off the grid), and doors and windows on
one hexside, cutting the wall beneath them."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from ...hexgrid import Hex
from ...model import edit as ed
from ...model.map import Feature, FeatureKind
from .commands import ObjectsCommand, SetFieldCommand
from .items import PolylineItem, remove
from .tool_base import DRAG_MIN, EditorTool, preview_line, shift_held


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
    kind: FeatureKind = "wall"
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
        self._item = preview_line(self._item, sc, 0.12)
        done = [self.scene_point(p) for p in self.polyline()]
        preview: list[QPointF] = []
        if self._hover is not None and self._verts:
            full = self.polyline((self._hover, self._hover_free))
            preview = [self.scene_point(p) for p in full[len(self.polyline()) - 1 :]]
        self._item.set_points(done, preview)

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        free = shift_held(ev)
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
        free = shift_held(ev)
        self._hover = self._snap(self.map_point(pos), free)
        self._hover_free = free
        self._show()
        return True

    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if self._press is None:
            return False
        start, self._press = self._press, None
        here = self.map_point(pos)
        free = shift_held(ev)
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
        free = shift_held(ev)
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
    kind: FeatureKind = "cover"
    palette_kind = "cover"


class DoorTool(EditorTool):
    """Click near a hexside to put a door there (it cuts the wall under it); click a
    door again to open or close it. Shift+drag: a free door between two points."""

    name = "ed_door"
    title = "Door"
    shortcut = "O"
    tooltip = "Put a door on the nearest hexside (cuts the wall); click it again to open/close"
    layer = "objects"
    kind: FeatureKind = "door"
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
        self._item = preview_line(self._item, self.scene, 0.16)
        self._item.set_points([], [self.scene_point(p) for p in pts])

    def press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> None:
        self._press = self.map_point(pos)

    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        p = self.map_point(pos)
        if self._press is not None and shift_held(ev):
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
        if shift_held(ev) and math.dist(start, here) > DRAG_MIN:
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
    kind: FeatureKind = "window"
    palette_kind = "window"
