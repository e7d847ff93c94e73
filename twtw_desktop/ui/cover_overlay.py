"""Covering fire on the Judge's map: the covered area drawn, hexes picked, a menu.

* :class:`CoverOverlay` draws, for every covering fire going on, the hexes its
  markers have covered (filled), where the next marker goes (dashed outline), the
  figures under that fire (a red ring, "under fire") and an open reaction shot
  ("reaction!"). It lives in the Judge's map scene only: the players' screen builds
  its own scene and never shows it (the players see the shots, not the Judge's
  bookkeeping). It is redrawn from the table after every change, so undo takes it
  back with the step.
* :class:`HexPickTool` — click hexes to add or remove them, Enter (or a double
  click) to finish, Esc to cancel; the view's ``pick_hexes(callback)`` starts it.
* Encounter ▸ Covering fire — the entries of :mod:`.cover_menu` for the selected
  figure (the token's right-click menu has the same).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsSimpleTextItem, QMenu

from ..errors import RulesError
from ..hexgrid import Hex
from ..play.cover_actions import (
    AREA_MAX_HEXES,
    active_covers,
    covered_hexes,
    pending_reactions,
    planned_hexes,
)
from .menus.cover_menu import cover_menu_actions
from .tools.base import Tool

#: above the map's overlays (2), below features (5) and tokens (10)
Z_COVER = 3
#: above the tokens, like a tool's drawing
Z_COVER_RING = 29
COVER_FILL = QColor(230, 120, 20, 70)
COVER_EDGE = QColor(200, 90, 0)
UNDER_FIRE = QColor(200, 20, 20)


def _hexes_path(frame: Any, hexes: set[Hex] | list[Hex]) -> QPainterPath:
    path = QPainterPath()
    for h in hexes:
        path.addPolygon(frame.polygon(h))
        path.closeSubpath()
    return path


class CoverOverlay(QObject):
    """The covered areas of one map view (see the module docstring)."""

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.view = view
        self.items: list[QGraphicsItem] = []
        self.doc: Any = None
        #: what was drawn last (tests read it): shooter id → covered hexes, and the
        #: tokens under fire and with a reaction open
        self.covered: dict[str, set[Hex]] = {}
        self.under_fire: set[str] = set()
        self.reactions: set[str] = set()
        view.documentReplaced.connect(self.attach)
        self.attach()

    def attach(self) -> None:
        self.items = []
        doc = self.view.document
        if doc is self.doc:
            self.refresh()
            return
        if self.doc is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.doc.changed.disconnect(self._changed)
        self.doc = doc
        if doc is not None:
            doc.changed.connect(self._changed)
        self.refresh()

    def _changed(self, *_args: Any) -> None:
        self.refresh()

    def _clear(self) -> None:
        for it in self.items:
            sc = it.scene()
            if sc is not None:
                sc.removeItem(it)
        self.items = []

    def refresh(self) -> None:
        self._clear()
        self.covered = {}
        self.under_fire = set()
        self.reactions = set()
        scene = self.view.map_scene
        doc = self.view.document
        if scene is None or doc is None:
            return
        table = doc.table
        try:
            covers = active_covers(table)
        except (RulesError, KeyError, ValueError):
            return
        if not covers:
            return
        frame = scene.frame
        u = frame.unit
        hot: dict[Hex, set[str]] = {}
        for st in covers:
            hexes = covered_hexes(table, st)
            self.covered[st.shooter] = hexes
            for h in hexes:
                hot.setdefault(h, set()).add(st.shooter)
            if hexes:
                fill = QGraphicsPathItem(_hexes_path(frame, hexes))
                fill.setBrush(QBrush(COVER_FILL))
                pen = QPen(COVER_EDGE, 2.0)
                pen.setCosmetic(True)
                fill.setPen(pen)
                fill.setZValue(Z_COVER)
                name = doc.character(st.shooter).name
                fill.setToolTip(f"Covered by {name}'s covering fire (002)")
                self._add(scene, fill)
                first = min(hexes, key=lambda h: (h.r, h.q))
                label = QGraphicsSimpleTextItem(f"covered: {name}")
                font = QFont()
                font.setPixelSize(max(1, int(0.32 * u)))
                label.setFont(font)
                label.setBrush(QBrush(COVER_EDGE.darker(150)))
                c = frame.center(first)
                label.setPos(c.x() - 0.8 * u, c.y() - 1.15 * u)
                label.setZValue(Z_COVER_RING)
                self._add(scene, label)
            nxt = planned_hexes(table, st)
            if nxt and nxt != hexes:
                plan = QGraphicsPathItem(_hexes_path(frame, nxt))
                pen = QPen(COVER_EDGE, 1.5, Qt.PenStyle.DashLine)
                pen.setCosmetic(True)
                plan.setPen(pen)
                plan.setZValue(Z_COVER)
                plan.setToolTip("Where the next covering-fire marker goes")
                self._add(scene, plan)
        reaction_tokens = {r.target_token for r in pending_reactions(table)}
        for tok in doc.encounter.tokens:
            if not (hot.get(tok.at, set()) - {tok.character_id}):
                continue
            self.under_fire.add(tok.id)
            c = frame.center(tok.at)
            ring = QGraphicsPathItem()
            p = QPainterPath()
            p.addEllipse(c, 0.9 * u, 0.9 * u)
            ring.setPath(p)
            pen = QPen(UNDER_FIRE, 3.0, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            ring.setPen(pen)
            ring.setToolTip("Under covering fire: a Bravery check before aiming (002)")
            ring.setZValue(Z_COVER_RING)
            self._add(scene, ring)
            text = "under fire"
            if tok.id in reaction_tokens:
                text = "reaction shot!"
                self.reactions.add(tok.id)
            label = QGraphicsSimpleTextItem(text)
            font = QFont()
            font.setPixelSize(max(1, int(0.3 * u)))
            font.setBold(True)
            label.setFont(font)
            label.setBrush(QBrush(UNDER_FIRE))
            width = label.boundingRect().width()
            label.setPos(c.x() - width / 2, c.y() - 1.35 * u)
            back = QGraphicsPathItem()
            bp = QPainterPath()
            r = label.boundingRect().translated(label.pos()).adjusted(-2, -1, 2, 1)
            bp.addRoundedRect(r, 3, 3)
            back.setPath(bp)
            back.setBrush(QBrush(QColor(255, 255, 255, 210)))
            back.setPen(QPen(Qt.PenStyle.NoPen))
            back.setZValue(Z_COVER_RING - 0.5)
            self._add(scene, back)
            label.setZValue(Z_COVER_RING)
            self._add(scene, label)

    def _add(self, scene: Any, item: QGraphicsItem) -> None:
        scene.addItem(item)
        self.items.append(item)


class HexPickTool(Tool):
    """Click hexes for a covering-fire area: Enter or a double click finishes."""

    name = "pick_hexes"
    title = "Pick hexes"
    tooltip = "Click hexes, Enter to finish, Esc to cancel"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.picked: list[Hex] = []
        self.callback: Callable[[list[Hex] | None], None] | None = None
        self.previous: Any = None
        self.item: QGraphicsPathItem | None = None

    def start(self, callback: Callable[[list[Hex] | None], None]) -> None:
        if self.callback is not None:
            self.finish(None)
        self.picked = []
        self.callback = callback
        self.previous = self.view.tool if self.view.tool is not self else None
        self.view.set_tool(self)
        self.view.setFocus()
        self._tell()

    def _tell(self) -> None:
        n = len(self.picked)
        self.say(
            f"Covering fire: {n} of at most {AREA_MAX_HEXES} hexes picked — click hexes, "
            "Enter (or double-click) to finish, Esc to cancel."
        )

    def _draw(self) -> None:
        scene = self.view.map_scene
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None
        if scene is None or not self.picked:
            return
        it = QGraphicsPathItem(_hexes_path(scene.frame, self.picked))
        it.setBrush(QBrush(QColor(230, 120, 20, 110)))
        pen = QPen(COVER_EDGE, 2.0)
        pen.setCosmetic(True)
        it.setPen(pen)
        it.setZValue(Z_COVER_RING)
        scene.addItem(it)
        self.item = it

    def clear(self) -> None:
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None

    def deactivate(self) -> None:
        super().deactivate()
        if self.callback is not None:  # another tool chosen while picking: cancelled
            cb, self.callback = self.callback, None
            cb(None)

    def toggle(self, h: Hex) -> None:
        if h in self.picked:
            self.picked.remove(h)
        else:
            self.picked.append(h)
        self._draw()
        self._tell()

    def finish(self, hexes: list[Hex] | None) -> None:
        cb, self.callback = self.callback, None
        prev, self.previous = self.previous, None
        self.clear()
        if self.view.tool is self:
            self.view.set_tool(prev)
        if cb is not None:
            cb(hexes)

    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if ev.button() != Qt.MouseButton.LeftButton:
            return False
        if self.view.map_scene is not None and self.view.map_scene.frame.contains(h):
            self.toggle(h)
        return True

    def mouse_double_click(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool:
        if h not in self.picked and self.view.map_scene.frame.contains(h):
            self.picked.append(h)
        self.finish(list(self.picked))
        return True

    def key_press(self, ev: QKeyEvent) -> bool:
        if ev.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish(list(self.picked) or None)
            return True
        if ev.key() == Qt.Key.Key_Escape:
            self.finish(None)
            return True
        return False


def _fill_menu(window: Any, menu: QMenu) -> None:
    menu.clear()
    doc = window.document
    tok_id = doc.selected_token_id if doc is not None else None
    if doc is None or tok_id is None:
        menu.addAction("Select a figure on the map first").setEnabled(False)
        return
    acts = cover_menu_actions(menu, doc, tok_id)
    if not acts:
        menu.addAction("Nothing to do with covering fire now").setEnabled(False)
    for act in acts:
        menu.addAction(act)


def install_cover_fire(window: Any) -> QMenu:
    """Encounter ▸ Covering fire (filled for the selected figure when opened), the
    covered-area overlay on the Judge's map and the map's hex picking."""
    view = window.map_view
    tool = HexPickTool(view)
    view.register_tool(tool)
    view.pick_hexes = tool.start
    window.cover_overlay = CoverOverlay(view)
    menu = window.encounter_menu.addMenu("Covering &fire")
    menu.setObjectName("cover_menu")
    menu.aboutToShow.connect(lambda: _fill_menu(window, menu))
    window.cover_menu = menu
    return menu


__all__ = ["CoverOverlay", "HexPickTool", "install_cover_fire"]
