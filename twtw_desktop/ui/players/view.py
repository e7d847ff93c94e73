"""The players' map: a read-only view over a public :class:`MapScene`.

It is deliberately *not* a :class:`MapView` (a MapView registers itself as the
document's map view and forwards input to the tools). Here:

* the scene is built with ``public=True``, so hidden tokens, Judge notes, Judge-only
  labels, features and markers, and a private background never get an item;
* tokens are drawn with the players' :class:`TokenLook` (no tooltips, no selection
  ring, conditions and names as the Judge chooses), and tooltips are swallowed for
  the whole view;
* mouse, wheel and keys do nothing: the Judge drives the camera;
* an optional line-of-sight fog (:mod:`.fog`) darkens what the posse cannot see and
  hides tokens standing there;
* pushed resolutions (cover line, scatter clock, a focus ring) are drawn on top.

Camera modes (:data:`CAMERA_MODES`): ``follow`` shows what the Judge's map view shows
(scaled to this window, on the zoom steps the tiles are cached for), ``fit_map`` the
whole map, ``fit_posse`` the posse's tokens with a margin (kept as they move),
``lock`` stays put. "Show this to the players" (a ``focus`` push) centres on a hex
and switches the camera to ``lock`` so the next pan of the Judge's view does not take
it away again.
"""

from __future__ import annotations

import contextlib
import math

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QTransform
from PySide6.QtWidgets import QFrame, QGraphicsItem, QGraphicsView, QWidget

from ...hexgrid import Hex
from ..scene import style
from ..scene.grid_painter import bucket_index, bucket_scale
from ..scene.map_items import Z_TOOL
from ..scene.map_scene import MapScene, is_public
from ..scene.map_view import MAX_ZOOM_K, MIN_ZOOM_K, MapView
from ..scene.token_item import PLAYERS_LOOK, POSSE_SIDE, TokenLook
from .fog import FogItem, FogOfWar, posse_viewers

CAMERA_MODES = ("follow", "fit_map", "fit_posse", "lock")
CAMERA_TITLES = {
    "follow": "Follow the Judge's view",
    "fit_map": "Fit the map",
    "fit_posse": "Fit the posse",
    "lock": "Locked",
}
#: "fit the posse" leaves this many hexes round the posse's tokens
FIT_POSSE_MARGIN_HEXES = 4
#: the fog and the strip wait this long after the last change before recomputing
FOG_DEBOUNCE_MS = 120
#: the focus ring stays this long
FOCUS_RING_MS = 5000
#: pushed captions are this fraction of the view's height tall per line
CAPTION_FRACTION = 1 / 22
CAPTION_MIN_PX = 20


class Caption(QGraphicsItem):
    """A few lines of large text in a box, the same size on screen at any zoom."""

    def __init__(self, text: str, colour: QColor, px: int) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(Z_TOOL + 2)
        self.text = text
        self._colour = colour
        self._font = QFont()
        self._font.setPixelSize(max(CAPTION_MIN_PX, px))
        self._font.setBold(True)
        fm = QFontMetricsF(self._font)
        lines = text.split("\n")
        pad = px * 0.4
        w = max(fm.horizontalAdvance(x) for x in lines) + 2 * pad
        h = fm.height() * len(lines) + 2 * pad
        self._rect = QRectF(px * 0.8, px * 0.6, w, h)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(self._colour, 3))
        painter.setBrush(QColor(255, 252, 240, 240))
        painter.drawRoundedRect(self._rect, 8, 8)
        painter.setFont(self._font)
        painter.setPen(QColor(30, 20, 10))
        pad = self._font.pixelSize() * 0.4
        painter.drawText(
            self._rect.adjusted(pad, pad, -pad, -pad),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
            self.text,
        )


class FocusRing(QGraphicsItem):
    """A bright ring round the hex the Judge points the players to."""

    def __init__(self, frame, h: Hex) -> None:
        super().__init__()
        self.frame = frame
        self.hex = h
        self.setZValue(Z_TOOL + 1)
        self.setPos(frame.center(h))

    def boundingRect(self) -> QRectF:
        u = self.frame.unit
        return QRectF(-1.6 * u, -1.6 * u, 3.2 * u, 3.2 * u)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(0, 0, 0, 140), 0.32 * u))
        painter.drawEllipse(QPointF(0, 0), 1.25 * u, 1.25 * u)
        painter.setPen(QPen(style.SELECTION, 0.18 * u))
        painter.drawEllipse(QPointF(0, 0), 1.25 * u, 1.25 * u)


class _NoTips(QObject):
    """Swallows tooltip events (nothing on the players' screen explains itself)."""

    def eventFilter(self, obj, ev) -> bool:
        return ev.type() in (QEvent.Type.ToolTip, QEvent.Type.WhatsThis)


def as_hex(x) -> Hex:
    return x if isinstance(x, Hex) else Hex(*x)


def scatter_detail(document, payload) -> dict:
    """The throw record to draw for a ``scatter`` push: the log's latest throw with
    these hexes (it has the hour and the path), else the bare hexes."""
    if isinstance(payload, dict):
        return payload
    thrower, target, landing = (as_hex(h) for h in payload)
    want = ([thrower.q, thrower.r], [target.q, target.r], [landing.q, landing.r])
    for e in reversed(document.encounter.log):
        d = e.detail
        if e.kind != "throw" or not d:
            continue
        got = (list(d.get("thrower", [])), list(d.get("target", [])), list(d.get("landing", [])))
        if got == want:
            return d
    return {
        "thrower": want[0],
        "target": want[1],
        "landing": want[2],
        "hit": landing == target,
    }


class PlayersView(QGraphicsView):
    """The map as the players see it."""

    #: the set of tokens on screen changed (fog, hiding): the strip re-reads it
    shownChanged = Signal()
    #: the camera mode changed (the focus push locks it)
    cameraChanged = Signal(str)

    def __init__(
        self,
        document,
        remembered: set[Hex] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("players_view")
        self.document = None
        self.map_scene: MapScene | None = None
        self.look: TokenLook = PLAYERS_LOOK
        self.fog = FogOfWar(remembered)
        self.fog_on = False
        self.fog_item: FogItem | None = None
        self.camera = "follow"
        self.judge_rect: QRectF | None = None
        self.pushed: dict[str, list[QGraphicsItem]] = {}
        self._remember = True
        self._fog_dirty = True
        self._shown: frozenset[str] = frozenset()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setInteractive(False)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.setBackgroundBrush(style.OFF_MAP)
        self._no_tips = _NoTips(self)
        self.installEventFilter(self._no_tips)
        self.viewport().installEventFilter(self._no_tips)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(FOG_DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh_now)
        self._ring_timer = QTimer(self)
        self._ring_timer.setSingleShot(True)
        self._ring_timer.setInterval(FOCUS_RING_MS)
        self._ring_timer.timeout.connect(lambda: self._drop_push("focus"))
        self.set_document(document, remembered)

    # -- document -------------------------------------------------------------------

    def set_document(self, document, remembered: set[Hex] | None = None) -> None:
        """Show another document (the Judge opened another encounter)."""
        old_doc, old_scene = self.document, self.map_scene
        if old_doc is not None:
            for sig, slot in self._doc_links(old_doc):
                with contextlib.suppress(RuntimeError, TypeError):
                    sig.disconnect(slot)
        self.pushed = {}
        self._ring_timer.stop()
        self.document = document
        self.fog = FogOfWar(remembered if remembered is not None else set())
        self.fog.remember = self._remember
        self.map_scene = MapScene(document, self, public=True)
        self.setScene(self.map_scene)
        if old_scene is not None:
            old_scene.deleteLater()
        self.fog_item = None
        self._ensure_fog_item()
        self.map_scene.tokensRebuilt.connect(self._restyle_tokens)
        for sig, slot in self._doc_links(document):
            sig.connect(slot)
        self.refresh_now()
        self.apply_camera()

    def _doc_links(self, doc):
        return (
            (doc.tokenChanged, self._token_changed),
            (doc.changed, self._doc_changed),
            (doc.featureChanged, self._schedule),
            (doc.characterChanged, self._schedule),
        )

    def _ensure_fog_item(self) -> None:
        """One fog item, on the scene's current frame (a rebuilt scene after a map
        resize has a new frame: the old item goes)."""
        sc = self.map_scene
        if sc is None:
            return
        it = self.fog_item
        if it is not None and it.scene() is sc and it.frame is sc.frame:
            return
        if it is not None and it.scene() is not None:
            it.scene().removeItem(it)
        self.fog_item = FogItem(sc.frame)
        self.fog_item.setVisible(self.fog_on)
        sc.addItem(self.fog_item)
        self.fog.drop_cache()
        self._fog_dirty = True

    def _doc_changed(self, area: str) -> None:
        if area in ("map", "all"):
            self._ensure_fog_item()
            self._restyle_tokens()
        if area in ("map", "all", "tokens", "characters", "track", "mode"):
            self._schedule()

    def _token_changed(self, _tid: str) -> None:
        # tokens outside the posse show or hide at once against the current fog;
        # the posse's new sight follows after the debounce
        self._apply_token_visibility()
        self._schedule()

    def _schedule(self, *_args) -> None:
        self._timer.start()

    def refresh_now(self) -> None:
        """Recompute the fog and which tokens show (normally debounced)."""
        self._timer.stop()
        doc, sc = self.document, self.map_scene
        if doc is None or sc is None:
            return
        if self.fog_on:
            self._ensure_fog_item()
            changed = self.fog.update(doc.map, doc.walls(), posse_viewers(doc))
            if changed or self._fog_dirty:
                self._draw_fog()
        self._restyle_tokens()
        if self.camera == "fit_posse":
            self.fit_posse()

    def _draw_fog(self) -> None:
        if self.fog_item is None or self.document is None:
            return
        self.fog_item.set_states(self.fog.states(self.document.map))
        self._fog_dirty = False

    # -- tokens ---------------------------------------------------------------------

    def set_look(self, look: TokenLook) -> None:
        """Token drawing choices (conditions, names…); the look stays public."""
        if not look.public:
            raise ValueError("the players' screen only draws tokens with a public look")
        self.look = look
        self._restyle_tokens()

    def _restyle_tokens(self) -> None:
        sc = self.map_scene
        if sc is None:
            return
        for it in sc.tokens.values():
            it.set_look(self.look)
        self._apply_token_visibility()

    def token_shown(self, token_id: str) -> bool:
        """Whether a token is on the players' screen now (public, and seen when the
        fog is on; the posse is always shown)."""
        doc, sc = self.document, self.map_scene
        if sc is None or token_id not in sc.tokens:
            return False
        if not self.fog_on:
            return True
        try:
            t = doc.token(token_id)
            side = doc.character(t.character_id).side
        except KeyError:
            return False
        return side == POSSE_SIDE or self.fog.is_seen(t.at)

    def _apply_token_visibility(self) -> None:
        sc = self.map_scene
        if sc is None:
            return
        layer_on = sc.layer_visible("tokens")
        shown = set()
        for tid, it in sc.tokens.items():
            vis = layer_on and self.token_shown(tid)
            it.setVisible(vis)
            if vis:
                shown.add(tid)
        fs = frozenset(shown)
        if fs != self._shown:
            self._shown = fs
            self.shownChanged.emit()

    def shown_token_ids(self) -> frozenset[str]:
        return self._shown

    def shown_character_ids(self) -> set[str]:
        """Characters the players can see: those whose token is on screen, and posse
        members without a token on the map."""
        doc = self.document
        out = set()
        for tid in self._shown:
            with contextlib.suppress(KeyError):
                out.add(doc.token(tid).character_id)
        on_map = {t.character_id for t in doc.encounter.tokens}
        for c in doc.encounter.characters:
            if c.side == POSSE_SIDE and c.id not in on_map:
                out.add(c.id)
        return out

    # -- fog ------------------------------------------------------------------------

    def set_fog(self, on: bool) -> None:
        self.fog_on = bool(on)
        if self.fog_item is not None:
            self.fog_item.setVisible(self.fog_on)
        self._fog_dirty = True
        self.refresh_now()

    def set_remember(self, on: bool) -> None:
        self._remember = bool(on)
        self.fog.remember = self._remember
        self._fog_dirty = True
        self.refresh_now()

    def forget(self) -> None:
        """Forget the remembered hexes (the Judge's "reset the fog")."""
        self.fog.forget()
        self._fog_dirty = True
        self.refresh_now()

    # -- camera ---------------------------------------------------------------------

    def set_camera(self, mode: str) -> None:
        if mode not in CAMERA_MODES:
            raise ValueError(f"unknown camera mode {mode!r}")
        changed = mode != self.camera
        self.camera = mode
        self.apply_camera()
        if changed:
            self.cameraChanged.emit(mode)

    def apply_camera(self) -> None:
        if self.camera == "follow" and self.judge_rect is not None:
            self.show_rect(self.judge_rect)
        elif self.camera == "fit_map" or (self.camera == "follow" and self.judge_rect is None):
            self.fit_map()
        elif self.camera == "fit_posse":
            self.fit_posse()

    def follow(self, rect: QRectF) -> None:
        """The Judge's view moved (``MapView.viewportChanged``)."""
        self.judge_rect = QRectF(rect)
        if self.camera == "follow":
            self.show_rect(rect)

    def show_rect(self, rect: QRectF) -> None:
        """Show at least ``rect`` of the scene, as large as the zoom steps allow."""
        vp = self.viewport().rect()
        if rect.width() <= 0 or rect.height() <= 0 or vp.width() < 10 or vp.height() < 10:
            return
        fit = min(vp.width() / rect.width(), vp.height() / rect.height())
        k = bucket_index(fit)
        while k > MIN_ZOOM_K and bucket_scale(k) > fit * 1.0001:
            k -= 1
        k = max(MIN_ZOOM_K, min(MAX_ZOOM_K, k))
        s = bucket_scale(k)
        self.setTransform(QTransform.fromScale(s, s))
        self.centerOn(rect.center())

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def fit_map(self) -> None:
        if self.map_scene is not None:
            self.show_rect(self.map_scene.frame.bounds())

    def fit_posse(self) -> None:
        sc, doc = self.map_scene, self.document
        if sc is None:
            return
        rect = None
        for tid in self._shown:
            try:
                t = doc.token(tid)
                if doc.character(t.character_id).side != POSSE_SIDE:
                    continue
            except KeyError:
                continue
            r = sc.frame.hex_rect(t.at)
            rect = r if rect is None else rect.united(r)
        if rect is None:
            self.fit_map()
            return
        m = sc.frame.hex_width * FIT_POSSE_MARGIN_HEXES
        self.show_rect(rect.adjusted(-m, -m, m, m))

    def center_on_hex(self, h: Hex) -> None:
        if self.map_scene is not None:
            self.centerOn(self.map_scene.frame.center(h))

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        self.apply_camera()

    # -- pushes ---------------------------------------------------------------------

    def caption_px(self) -> int:
        return max(CAPTION_MIN_PX, round(self.viewport().height() * CAPTION_FRACTION))

    def show_push(self, kind: str, payload) -> None:
        """Draw something the Judge pushed (``cover_line``, ``scatter``, ``focus``) or
        take everything down (``clear``). ``card`` is the window's business."""
        if kind == "clear":
            for k in list(self.pushed):
                self._drop_push(k)
            return
        if kind == "cover_line":
            self._show_cover_line(*[as_hex(h) for h in payload])
        elif kind == "scatter":
            self._show_scatter(payload)
        elif kind == "focus":
            self._show_focus(payload)

    def _drop_push(self, key: str) -> None:
        items = self.pushed.pop(key, None)
        if items is None:
            return
        for it in items if isinstance(items, list) else [items]:
            sc = it.scene()
            if sc is not None:
                sc.removeItem(it)

    def _add_push(self, key: str, items: list[QGraphicsItem]) -> None:
        self._drop_push(key)
        for it in items:
            self.map_scene.addItem(it)
        self.pushed[key] = items

    def _show_cover_line(self, shooter: Hex, target: Hex) -> None:
        from ..tools.cover import CoverLineItem, compute_cover_line, public_cover_caption

        doc, fr = self.document, self.map_scene.frame
        if shooter == target or not (fr.contains(shooter) and fr.contains(target)):
            return
        cl = compute_cover_line(doc, shooter, target)
        line = CoverLineItem(doc, fr, cl, public=True)
        from ..tools.cover import LINE_COLOUR

        cap = Caption(public_cover_caption(cl), LINE_COLOUR, self.caption_px())
        cap.setPos(fr.center(target))
        self._add_push("cover_line", [line, cap])
        self._bring_into_view([fr.center(shooter), fr.center(target)])

    def _show_scatter(self, payload) -> None:
        from ..scene.overlays import ThrowItem

        detail = scatter_detail(self.document, payload)
        fr = self.map_scene.frame
        item = ThrowItem(fr, detail)
        item.setToolTip("")
        self._add_push("scatter", [item])
        pts = [fr.center(Hex(*detail[k])) for k in ("thrower", "target", "landing")]
        self._bring_into_view(pts)

    def _show_focus(self, payload) -> None:
        doc = self.document
        if isinstance(payload, str):
            try:
                t = doc.token(payload)
            except KeyError:
                return
            if not is_public(t):
                return  # never point at a hidden token
            h = t.at
        else:
            h = as_hex(payload)
        if not doc.map.contains(h):
            return
        self._add_push("focus", [FocusRing(self.map_scene.frame, h)])
        self._ring_timer.start()
        self.set_camera("lock")
        self.center_on_hex(h)

    def _bring_into_view(self, pts: list[QPointF]) -> None:
        """When the camera is locked or fitted elsewhere, make sure a pushed drawing
        is on screen (following the Judge leaves the camera to the Judge)."""
        if self.camera == "follow" or not pts:
            return
        vis = self.visible_scene_rect()
        if all(vis.contains(p) for p in pts):
            return
        xs = [p.x() for p in pts]
        ys = [p.y() for p in pts]
        u = self.map_scene.frame.unit * 3
        want = QRectF(
            min(xs) - u, min(ys) - u, max(xs) - min(xs) + 2 * u, max(ys) - min(ys) + 2 * u
        )
        if want.width() <= vis.width() and want.height() <= vis.height():
            self.centerOn(want.center())
        else:
            self.show_rect(want)

    # -- no input -------------------------------------------------------------------

    #: the Judge's view's own: off-map colour without a scene, else the scene's ground
    drawBackground = MapView.drawBackground

    def mousePressEvent(self, ev) -> None:
        ev.accept()

    def mouseReleaseEvent(self, ev) -> None:
        ev.accept()

    def mouseDoubleClickEvent(self, ev) -> None:
        ev.accept()

    def mouseMoveEvent(self, ev) -> None:
        ev.accept()

    def wheelEvent(self, ev) -> None:
        ev.accept()

    def keyPressEvent(self, ev) -> None:
        ev.ignore()  # the window handles its own keys (full screen)

    def scale_factor(self) -> float:
        return self.transform().m11()

    def zoom_k(self) -> int:
        return round(math.log(self.scale_factor(), bucket_scale(1)))
