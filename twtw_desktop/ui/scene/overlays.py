"""Overlays on the map, each switched on from the toolbar or its shortcut:

* ``reachable`` — where the selected token can go, each hex coloured by its AP cost
  (hatched where it needs more counters than the track holds now);
* ``field_of_fire`` — the selected token's arc: 60° for long arms, 120° for handguns
  (``Weapon.field_of_fire``, 003 Fields of Fire);
* ``corridor`` — the unintended-target corridor of a shot from the selected token to
  its target (the last target picked or cover-lined), and who stands in it;
* ``dodge_front`` — the 120° front a dodge covers (000 Hand to Hand Combat).

The last throw's scatter clock is drawn too (not a toggle: it shows the most recent
throw in the log until dismissed or undone).

Stray-shot flags (not a toggle either): the attack panel rings the possible
unintended targets of the shot being planned — dashed orange, "stray?" — and after
the shot the ones a stray hit — solid red, "stray hit" (000 Ancillary Effects: the
Judge tells the table who could be hit before the shot). They stay until the next
attack replaces them or :meth:`Overlays.clear_stray_flags` (the ``clear_flags_action``)
takes them down, and follow their tokens when they move.

The numbers come from the geometry (reach, arcs, corridor, scatter); this module only
draws them. Overlay items cache their pixels (DeviceCoordinateCache), so panning does
not repaint thousands of hexes.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
import threading
from typing import Any

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem

from ...errors import RulesError
from ...hexgrid import Hex
from . import style
from .grid_painter import TILE, TiledLayer, bucket_scale
from .map_items import Z_OVERLAY, Z_TOOL
from .map_scene import MapScene

log = logging.getLogger(__name__)

#: the inputs of a reach search: a result for other inputs is stale
ReachKey = tuple[object, ...]

OVERLAY_NAMES = ("reachable", "field_of_fire", "corridor", "dodge_front")
#: a reach whose step table covers at most this many hexes runs on the GUI thread (a
#: few ms, the table included); a bigger one runs in a worker thread
REACH_SYNC_HEXES = 20_000
#: the field-of-fire wedge reaches this many range increments (display only)
ARC_INCREMENTS = 3
#: … but at least / at most this many paces
ARC_MIN_PACES = 12
ARC_MAX_PACES = 40
#: dodge front drawn this far (paces)
DODGE_PACES = 3
#: dodge covers 120° (000 Hand to Hand Combat: "usually 120 degrees")
DODGE_DEGREES = 120
#: tiles kept per overlay
OVERLAY_MAX_TILES = 48
#: AP cost numbers are written in hexes from this on-screen hex radius up
COST_TEXT_MIN_HEX_PX = 14.0


class _CellTiles(TiledLayer):
    """The cells of one overlay rendered into transparent tiles (so a reach of ten
    thousand hexes pans as fast as the grid)."""

    def __init__(self, frame) -> None:
        super().__init__(frame, max_tiles=OVERLAY_MAX_TILES)
        self.cells: dict[Hex, tuple[QColor, str, bool]] = {}
        self.area = QRectF()

    def _render_tile(self, k: int, tx: int, ty: int) -> QPixmap | None:
        rect = self.tile_rect(k, tx, ty)
        if not self.cells or not rect.intersects(self.area):
            return None
        fr = self.frame
        here = [h for h in fr.hexes_in(rect) if h in self.cells]
        if not here:
            return None
        b = bucket_scale(k)
        img = QImage(TILE, TILE, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.setTransform(QTransform(b, 0, 0, b, -tx * TILE, -ty * TILE))
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(Qt.PenStyle.NoPen)
        hatch = QBrush(QColor(60, 60, 60, 110), Qt.BrushStyle.BDiagPattern)
        hatch.setTransform(QTransform.fromScale(1 / b, 1 / b))
        for h in here:
            colour, _text, now = self.cells[h]
            poly = fr.polygon(h, 0.96)
            p.setBrush(colour)
            p.drawPolygon(poly)
            if not now:
                p.setBrush(hatch)
                p.drawPolygon(poly)
        u = fr.unit
        if u * b >= COST_TEXT_MIN_HEX_PX:
            font = QFont()
            font.setPixelSize(max(1, int(0.42 * u * b)))
            font.setBold(True)
            p.setTransform(QTransform())
            p.setFont(font)
            p.setPen(QColor(20, 20, 20, 150))
            for h in here:
                text = self.cells[h][1]
                if text:
                    cx, cy = fr.center_xy(h)
                    x, y = cx * b - tx * TILE, cy * b - ty * TILE
                    p.drawText(
                        QRectF(x - u * b, y - u * b / 2, 2 * u * b, u * b),
                        Qt.AlignmentFlag.AlignCenter,
                        text,
                    )
        p.end()
        return QPixmap.fromImage(img)


class HexFillItem(QGraphicsItem):
    """Hexes filled with colours (hatched where ``now`` is False), optionally with a
    number in each, and an outline path."""

    def __init__(self, frame) -> None:
        super().__init__()
        self.frame = frame
        self.setZValue(Z_OVERLAY)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._tiles = _CellTiles(frame)
        self._rect = QRectF()
        self.outline: QPainterPath | None = None
        self.outline_colour = QColor(0, 0, 0)

    @property
    def cells(self) -> dict[Hex, tuple[QColor, str, bool]]:
        return self._tiles.cells

    def set_cells(self, cells: dict[Hex, tuple[QColor, str, bool]]) -> None:
        self.prepareGeometryChange()
        self._tiles.clear()
        self._tiles.cells = cells
        if cells:
            lay = self.frame.layout
            xs, ys = zip(*(lay.hex_to_pixel(h) for h in cells), strict=True)
            u = self.frame.unit
            self._rect = QRectF(
                min(xs) - u, min(ys) - u, max(xs) - min(xs) + 2 * u, max(ys) - min(ys) + 2 * u
            )
        else:
            self._rect = QRectF()
        self._tiles.area = self._rect
        self.update()

    def boundingRect(self) -> QRectF:
        r = self._rect
        if self.outline is not None:
            r = r.united(self.outline.boundingRect())
        return r.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.cells:
            self._tiles.paint(painter, option.exposedRect)
        if self.outline is not None:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            pen = QPen(self.outline_colour, 2.0)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self.outline)


class ThrowItem(QGraphicsItem):
    """The scatter clock of a missed throw: centred on the target, 6 toward the
    thrower, the hour hand, the path and the landing hex."""

    def __init__(self, frame, detail: dict) -> None:
        super().__init__()
        self.frame = frame
        self.setZValue(Z_TOOL - 1)
        self.detail = detail
        u = frame.unit
        self.target = Hex(*detail["target"])
        self.thrower = Hex(*detail["thrower"])
        self.landing = Hex(*detail["landing"])
        self.hit = bool(detail.get("hit"))
        self.hour = detail.get("hour")
        self.path = [Hex(*p) for p in detail.get("path", [])]
        c = frame.center(self.target)
        t = frame.center(self.thrower)
        # 12 o'clock points away from the thrower; hours go clockwise on screen
        self._up = math.atan2(c.y() - t.y(), c.x() - t.x())
        self._c = c
        self._r = 1.6 * u
        land = frame.center(self.landing)
        pts = [c, land, t]
        x0 = min(p.x() for p in pts) - 2 * u
        y0 = min(p.y() for p in pts) - 2 * u
        x1 = max(p.x() for p in pts) + 2 * u
        y1 = max(p.y() for p in pts) + 2 * u
        self._rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        self.setToolTip("\n".join(detail.get("scatter_reasons", [])))

    def hour_angle(self, hour: float) -> float:
        """Screen angle (radians, y down) of a clock hour on this throw's clock."""
        return self._up + math.radians((hour % 12) * 30)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        c, r = self._c, self._r
        land = self.frame.center(self.landing)
        if not self.hit:
            painter.setPen(QPen(QColor(90, 60, 20), 0.06 * u))
            painter.setBrush(QColor(255, 250, 235, 200))
            painter.drawEllipse(c, r, r)
            font = QFont()
            font.setPixelSize(max(1, int(0.3 * u)))
            font.setBold(True)
            painter.setFont(font)
            for hr in range(1, 13):
                a = self.hour_angle(hr)
                p = QPointF(c.x() + math.cos(a) * r * 0.8, c.y() + math.sin(a) * r * 0.8)
                painter.setPen(QColor(200, 30, 30) if hr == self.hour else QColor(70, 50, 20))
                painter.drawText(
                    QRectF(p.x() - 0.3 * u, p.y() - 0.2 * u, 0.6 * u, 0.4 * u),
                    Qt.AlignmentFlag.AlignCenter,
                    str(hr),
                )
            if self.hour:
                a = self.hour_angle(self.hour)
                painter.setPen(
                    QPen(
                        QColor(200, 30, 30), 0.1 * u, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
                    )
                )
                painter.drawLine(
                    c, QPointF(c.x() + math.cos(a) * r * 0.6, c.y() + math.sin(a) * r * 0.6)
                )
            if self.path:
                pen = QPen(QColor(200, 30, 30), 0.07 * u, Qt.PenStyle.DashLine)
                painter.setPen(pen)
                pts = [c] + [self.frame.center(h) for h in self.path]
                for a_, b_ in itertools.pairwise(pts):
                    painter.drawLine(a_, b_)
        # the landing hex
        painter.setPen(QPen(QColor(200, 30, 30), 0.1 * u))
        painter.setBrush(QColor(255, 120, 0, 110))
        painter.drawPolygon(self.frame.polygon(self.landing, 0.9))
        star = QPolygonF()
        for i in range(16):
            rr = (0.55 if i % 2 == 0 else 0.25) * u
            a = math.pi * i / 8
            star.append(QPointF(land.x() + math.cos(a) * rr, land.y() + math.sin(a) * rr))
        painter.setBrush(QColor(255, 200, 0))
        painter.setPen(QPen(QColor(160, 30, 0), 0.04 * u))
        painter.drawPolygon(star)


class _FlagLabel(QGraphicsItem):
    """The words under a stray-shot ring, the same size on screen at any zoom."""

    def __init__(self, text: str, colour: QColor, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.text = text
        self.colour = colour
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.font = QFont()
        self.font.setPixelSize(12)
        self.font.setBold(True)
        self._rect = QRectF(-36, 0, 72, 17)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(self.colour, 1))
        painter.setBrush(QColor(255, 255, 255, 225))
        painter.drawRoundedRect(self._rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
        painter.setFont(self.font)
        painter.setPen(self.colour)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


class StrayFlagItem(QGraphicsItem):
    """A ring and a label around a token: a possible unintended target (dashed
    orange, "stray?") or one a stray shot hit (solid red, "stray hit"). The ring is
    drawn at least 3 screen pixels wide and the label keeps its size when zoomed out,
    so the flags read at any zoom."""

    CANDIDATE = QColor(235, 120, 0)
    HIT = QColor(205, 20, 20)

    def __init__(self, frame, token_id: str, hit: bool) -> None:
        super().__init__()
        self.frame = frame
        self.token_id = token_id
        self.hit = hit
        self.label = "stray hit" if hit else "stray?"
        self.setZValue(Z_TOOL - 2)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip(
            "A stray shot hit this figure (000 Ancillary Effects)"
            if hit
            else "Possible unintended target: within a pace of the line of fire (000)"
        )
        self.label_item = _FlagLabel(self.label, self.colour, self)
        self.label_item.setPos(0, 1.1 * frame.unit)

    @property
    def colour(self) -> QColor:
        return self.HIT if self.hit else self.CANDIDATE

    def place(self, h: Hex) -> None:
        self.setPos(self.frame.center(h))

    def boundingRect(self) -> QRectF:
        u = self.frame.unit
        return QRectF(-1.3 * u, -1.3 * u, 2.6 * u, 2.6 * u)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        style_ = Qt.PenStyle.SolidLine if self.hit else Qt.PenStyle.DashLine
        scale = painter.worldTransform().m11() or 1.0
        width = max(0.14 * u, 3.0 / abs(scale))
        painter.setPen(QPen(self.colour, width, style_))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(0, 0), 1.05 * u, 1.05 * u)


def reach_is_instant(game_map, budget: int, move: int) -> bool:
    """Whether the reach search is small enough to run on the GUI thread: the hexes
    its step table covers (the whole map, or on a big map a window around the
    figure; see :mod:`twtw_desktop.geometry.movement`) are few."""
    from ...geometry import movement  # lazy: start-up (the reach)

    cells = game_map.cols * game_map.rows
    if cells > movement.WHOLE_MAP_CELLS:
        side = 2 * max(0, budget) * max(1, move) + 2 * movement.WINDOW_STEP
        cells = min(cells, side * side)
    return cells <= REACH_SYNC_HEXES


def reach_cells(game_map, walls, at, facing, budget, now, move, occupied):
    """The reachable area and the overlay's cells (colour, AP label, payable now) for
    every hex but the start. Safe to run off the GUI thread (QColor is a value)."""
    # lazy: start-up (imported first by reach_is_instant, on the GUI thread)
    from ...geometry import movement

    area = movement.reachable(game_map, walls, at, facing, budget, now, move, occupied)
    hexes, costs = area.costs()
    top = max(1, budget)
    colours: dict[int, tuple[QColor, str]] = {}
    out = {}
    for h, cost in zip(hexes, costs.tolist(), strict=True):
        if h == at:
            continue
        c = colours.get(cost)
        if c is None:
            c = colours[cost] = (style.ap_colour(cost, top), str(cost))
        out[h] = (c[0], c[1], cost <= now)
    return area, out


class Overlays(QObject):
    """The overlay switches of one map view and the items that draw them."""

    toggled = Signal(str, bool)
    message = Signal(str)
    #: a reach worked out in a worker thread (delivered on the GUI thread)
    _reachReady = Signal(object)

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.scene: MapScene | None = None
        self.enabled: dict[str, bool] = dict.fromkeys(OVERLAY_NAMES, False)
        self.items: dict[str, HexFillItem] = {}
        self.target_token_id: str | None = None
        self.throw_item: ThrowItem | None = None
        self._dismissed_throw: int | None = None
        #: stray-shot flags: token id → hit by a stray (True) or a candidate (False)
        self.stray_flags: dict[str, bool] = {}
        self.flag_items: dict[str, StrayFlagItem] = {}
        self.clear_flags_action = QAction("Clear stray-shot rings", self)
        self.clear_flags_action.setObjectName("act_clear_stray_flags")
        self.clear_flags_action.setToolTip(
            "Take the unintended-target rings of the last shot off the map"
        )
        self.clear_flags_action.triggered.connect(self.clear_stray_flags)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)
        self._announce = False
        #: (inputs, cells, area) of the last reach search
        self._reach_cache: tuple[ReachKey, Any, Any] | None = None
        #: the inputs of the search running in a worker
        self._reach_pending: ReachKey | None = None
        self._reachReady.connect(self._on_reach_ready, Qt.ConnectionType.QueuedConnection)
        #: what each overlay last computed (tests and the status bar read these)
        self.data: dict[str, object] = {}

    def attach(self, scene) -> None:
        self.scene = scene
        self.items = {}
        self.throw_item = None
        self.target_token_id = None
        self.stray_flags = {}
        self.flag_items = {}
        doc = scene.document
        doc.selectionChanged.connect(self._schedule)
        doc.tokenChanged.connect(self._schedule)
        doc.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, area: str) -> None:
        self._schedule()

    def _schedule(self, *_args) -> None:
        self._timer.start()

    # -- switches ----------------------------------------------------------------------

    def set_enabled(self, name: str, on: bool) -> None:
        if name not in self.enabled:
            raise KeyError(f"no overlay called {name!r}")
        if self.enabled[name] == on:
            return
        self.enabled[name] = on
        self.toggled.emit(name, on)
        self._announce = on
        self.refresh((name,))
        self._announce = False

    def is_enabled(self, name: str) -> bool:
        return self.enabled.get(name, False)

    def set_target(self, token_id: str | None) -> None:
        self.target_token_id = token_id
        if self.enabled.get("corridor"):
            self._announce = True
            self.refresh(("corridor",))
            self._announce = False

    def say(self, text: str) -> None:
        if self._announce:
            self.message.emit(text)

    def flag_stray_targets(self, token_ids, hit=()) -> None:
        """Ring ``token_ids`` as possible unintended targets and ``hit`` as hit by a
        stray shot, replacing the previous flags (the attack panel calls this when a
        shot is planned and after it is applied)."""
        flags = dict.fromkeys(token_ids, False)
        flags.update(dict.fromkeys(hit, True))
        self.stray_flags = flags
        self._refresh_flags()

    def clear_stray_flags(self) -> None:
        """Take every stray-shot flag off the map."""
        self.stray_flags = {}
        self._refresh_flags()

    def _refresh_flags(self) -> None:
        if self.scene is None:
            return
        doc = self.scene.document
        for tid in list(self.flag_items):
            it = self.flag_items[tid]
            if tid not in self.stray_flags or it.hit != self.stray_flags[tid]:
                if it.scene() is not None:
                    it.scene().removeItem(it)
                del self.flag_items[tid]
        for tid, hit in self.stray_flags.items():
            try:
                tok = doc.token(tid)
            except KeyError:
                continue
            flag = self.flag_items.get(tid)
            if flag is None or flag.scene() is not self.scene:
                flag = StrayFlagItem(self.scene.frame, tid, hit)
                self.scene.addItem(flag)
                self.flag_items[tid] = flag
            flag.place(tok.at)

    def dismiss_throw(self) -> None:
        if self.throw_item is not None:
            self._dismissed_throw = id(self.throw_item.detail)
        self.refresh()

    # -- computing -----------------------------------------------------------------------------

    def _attached(self) -> MapScene:
        """The scene the overlays draw on (they compute only once attached to one)."""
        if self.scene is None:
            raise RuntimeError("the overlays are not attached to a scene")
        return self.scene

    def _item(self, name: str) -> HexFillItem:
        it = self.items.get(name)
        sc = self._attached()
        if it is None or it.scene() is not sc:
            it = HexFillItem(sc.frame)
            sc.addItem(it)
            self.items[name] = it
        return it

    def refresh(self, names: tuple[str, ...] = OVERLAY_NAMES) -> None:
        """Recompute the overlays that are on (and the throw clock)."""
        if names == OVERLAY_NAMES:
            self._timer.stop()
        if self.scene is None:
            return
        doc = self.scene.document
        tok = doc.selected_token()
        for name in names:
            it = self._item(name)
            if (
                not self.enabled[name]
                and not it.isVisible()
                and not it.cells
                and it.outline is None
            ):
                # off and empty already: emptying it again asked the view to paint
                # (every segment counted, for each overlay that is off)
                self.data[name] = None
                continue
            cells: dict[Hex, tuple[QColor, str, bool]] = {}
            it.outline = None
            self.data[name] = None
            if self.enabled[name] and tok is not None:
                try:
                    cells = getattr(self, f"_compute_{name}")(doc, tok, it)
                except (RulesError, ImportError, KeyError, ValueError) as e:
                    log.info("overlay %s: %s", name, e)
                    self.say(f"{name.replace('_', ' ')}: {e}")
                    cells = {}
            it.set_cells(cells)
            it.setVisible(self.enabled[name])
        self._refresh_throw(doc)
        self._refresh_flags()

    def _compute_reachable(self, doc, tok, it):
        from ...play.movement import occupied_hexes, reach_budget

        ch = doc.character(tok.character_id)
        budget, counters = reach_budget(doc, ch.id)
        occupied = occupied_hexes(doc, tok.id)
        walls = doc.walls()
        now = counters if counters is not None else budget
        ground = hash(tuple(doc.map.terrain))
        key = (
            tok.at, tok.facing, budget, now, ch.move, tuple(occupied), id(walls),
            walls.version, ground,
        )  # fmt: skip
        cached = self._reach_cache
        if cached is not None and cached[0] == key:
            self.data["reachable"] = cached[2]
            return cached[1]
        args = (doc.map, walls, tok.at, tok.facing, budget, now, ch.move, occupied)
        if reach_is_instant(doc.map, budget, ch.move):
            self._reach_pending = None
            area, out = reach_cells(*args)
            self._reach_cache = (key, out, area)
            self.data["reachable"] = area
            return out
        # a big reach is worked out in a worker; the overlay fills in when it is done
        # and a result for a token or state that changed meanwhile is dropped
        if self._reach_pending != key:
            self._reach_pending = key
            threading.Thread(
                target=self._reach_worker, args=(key, args), name="reach", daemon=True
            ).start()
        return {}

    def _reach_worker(self, key, args) -> None:
        try:
            area, out = reach_cells(*args)
            result: tuple[ReachKey, Any, Any, Exception | None] = (key, out, area, None)
        except Exception as e:  # the map changed under the search: dropped as stale
            result = (key, None, None, e)
        with contextlib.suppress(RuntimeError):  # the view closed meanwhile
            self._reachReady.emit(result)

    def _on_reach_ready(self, result) -> None:
        key, out, area, error = result
        if key != self._reach_pending:
            return  # stale: the token, its AP or the map changed meanwhile
        self._reach_pending = None
        if error is not None:
            if isinstance(error, RulesError):
                self.say(f"reachable: {error}")
            else:
                log.info("reach search dropped: %s", error)
                self._schedule()
            return
        self._reach_cache = (key, out, area)
        self.refresh(("reachable",))

    def _shape(self, poly) -> QPainterPath:
        """A shapely polygon in map units as a scene path."""
        fr = self._attached().frame
        path = QPainterPath()
        if poly is None or poly.is_empty:
            return path
        for g in getattr(poly, "geoms", [poly]):
            path.addPolygon(QPolygonF([fr.to_scene(p) for p in g.exterior.coords]))
            path.closeSubpath()
        # an arc reaching past the edge is drawn only over the map
        return path.intersected(fr.outline())

    def _arc_cells(self, doc, tok, degrees: int, paces: int, colour: QColor, edge: QColor):
        from ...geometry.fields import field_of_fire

        fof = field_of_fire(
            doc.map,
            doc.walls(),
            tok.at,
            tok.facing,
            degrees,
            paces,
            arc_edges=doc.encounter.options.arc_edges,
        )
        cells = {}
        for h, status in fof.hexes.items():
            if h == tok.at:
                continue
            seen = h in fof.visible
            cells[h] = (edge if status == "edge" else colour, "", seen)
        return fof, cells

    def _compute_field_of_fire(self, doc, tok, it):
        from ...play.catalogue import weapon_in_hand  # lazy: start-up

        w = weapon_in_hand(doc, tok.id)
        degrees = w.field_of_fire if w is not None else 60
        inc = (w.range_increment or 10) if w is not None else 10
        paces = max(ARC_MIN_PACES, min(ARC_MAX_PACES, inc * ARC_INCREMENTS))
        fof, cells = self._arc_cells(
            doc, tok, degrees, paces, QColor(60, 120, 220, 60), QColor(160, 60, 220, 70)
        )
        it.outline = self._shape(fof.polygon)
        it.outline_colour = QColor(30, 80, 180)
        self.data["field_of_fire"] = fof
        self.say(
            f"Field of fire: {w.name if w else 'no weapon'} {degrees}° (hatched: out of sight)"
        )
        return cells

    def _compute_dodge_front(self, doc, tok, it):
        fof, cells = self._arc_cells(
            doc, tok, DODGE_DEGREES, DODGE_PACES, QColor(40, 180, 100, 70), QColor(40, 180, 100, 40)
        )
        it.outline = self._shape(fof.polygon)
        it.outline_colour = QColor(20, 140, 80)
        self.data["dodge_front"] = fof
        return {h: (c, t, True) for h, (c, t, _n) in cells.items()}

    def _compute_corridor(self, doc, tok, it):
        from ...geometry.corridor import unintended_targets

        tid = self.target_token_id
        if tid is None or tid == tok.id:
            self.say("Unintended targets: pick a target (cover line tool or the attack panel).")
            return {}
        target = doc.token(tid)
        res = unintended_targets(doc.map, tok.at, target.at, doc.encounter.tokens)
        self.data["corridor"] = res
        it.outline = self._shape(res.polygon)
        it.outline_colour = QColor(220, 120, 0)
        cells = {}
        for c in res.candidates:
            cells[c.hex] = (
                QColor(255, 90, 0, 140) if c.in_melee else QColor(255, 170, 0, 120),
                "!",
                True,
            )
        names = []
        for c in res.candidates:
            try:
                names.append(doc.character_of(c.token_id).name)
            except KeyError:
                names.append(c.token_id)
        self.say(
            "Unintended targets: " + (", ".join(names) if names else "nobody near the line of fire")
        )
        return cells

    def _refresh_throw(self, doc) -> None:
        entry = None
        for e in reversed(doc.encounter.log):
            if e.kind == "throw" and e.detail and "landing" in e.detail:
                entry = e
                break
        if entry is not None and id(entry.detail) == self._dismissed_throw:
            entry = None
        if self.throw_item is not None:
            if entry is not None and self.throw_item.detail is entry.detail:
                return
            if self.throw_item.scene() is not None:
                self.throw_item.scene().removeItem(self.throw_item)
            self.throw_item = None
        if entry is None:
            return
        sc = self._attached()
        self.throw_item = ThrowItem(sc.frame, entry.detail)
        sc.addItem(self.throw_item)
