"""The players' map: a read-only view over a public :class:`MapScene`.

It is deliberately *not* a :class:`MapView` (a MapView registers itself as the
document's map view and forwards input to the tools). Here:

What shows is decided by one Qt-free rule, :mod:`twtw_desktop.play.visibility`;
this view draws only what it returns, and works the answer out *before* anything is
drawn — in the same call as the change that asked for it (no timer), so no frame
ever shows more:

* the scene is built with ``public=True``, so hidden tokens, Judge notes, Judge-only
  labels, features and markers, and a private background never get an item; a token
  the rule refuses now (under the fog) is created invisible (``token_filter``);
* tokens are drawn with the players' :class:`TokenLook` (no tooltips, no selection
  ring; conditions — the knocked-out look included — and names as the Judge
  chooses), and tooltips are swallowed for the whole view;
* mouse, wheel and keys do nothing: the Judge drives the camera;
* an optional line-of-sight fog (:mod:`twtw_desktop.play.fog`) hides what the posse
  cannot see and the tokens standing there. Its sight is worked out in a worker
  thread (:class:`.fog.FogRunner`); until the answer comes the fog keeps its last
  picture (a resized map starts all unknown but for the remembered areas, which move
  with the map's content) and only tokens *known* to be seen show;
* pushed resolutions (cover line, scatter clock, a focus ring) are drawn on top, and
  never point at a token the players do not see (one that becomes hidden takes them
  down).

The camera (modes, miniature scale, the Judge's hand) is the base class,
:class:`.camera.PlayersCamera`; the pushed drawings are :mod:`.push_items`.

A ``ping`` push rings a hex for :data:`PING_MS` (the Judge's Alt+click): a ring on a
hex, never the token standing there if the rule hides it.
"""

from __future__ import annotations

import contextlib
import logging
import math

import numpy as np
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QFrame, QGraphicsItem, QGraphicsPathItem, QGraphicsView, QWidget

from ...geometry.visibility import SightSnapshot
from ...hexgrid import Hex
from ...play.fog import FogOfWar, SeenMemory
from ...play.visibility import (
    PlayersOptions,
    PlayersSight,
    players_sight,
    posse_viewers,
    push_allowed,
)
from ..scene import style
from ..scene.grid_painter import bucket_scale
from ..scene.map_scene import MapScene
from ..scene.map_view import MapView
from ..scene.token_item import PLAYERS_LOOK, POSSE_SIDE, TokenLook
from .camera import DEFAULT_CAMERA, PlayersCamera
from .fog import FogItem, FogRunner
from .push_items import (
    CAPTION_FRACTION,
    CAPTION_MIN_PX,
    Caption,
    FocusRing,
    PingRing,
    as_hex,
    scatter_detail,
)

log = logging.getLogger(__name__)

#: the focus ring stays this long
FOCUS_RING_MS = 5000
#: a ping rings its hex this long
PING_MS = 2000


class _NoTips(QObject):
    """Swallows tooltip events (nothing on the players' screen explains itself)."""

    def eventFilter(self, obj, ev) -> bool:
        return ev.type() in (QEvent.Type.ToolTip, QEvent.Type.WhatsThis)


class PlayersView(PlayersCamera):
    """The map as the players see it."""

    #: the set of tokens on screen changed (fog, hiding): the strip re-reads it
    shownChanged = Signal()

    def __init__(
        self,
        document,
        remembered: SeenMemory | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("players_view")
        self.document = None
        self.map_scene: MapScene | None = None
        self.look: TokenLook = PLAYERS_LOOK
        self.fog = FogOfWar(remembered)
        self.fog_on = False
        self.fog_dim = False
        self.fog_item: FogItem | None = None
        self.camera = DEFAULT_CAMERA
        self.judge_rect: QRectF | None = None
        #: (pixels per inch, inches per hex) at miniature scale, else None
        self.miniature: tuple[float, float] | None = None
        #: how long a ping rings (tests shorten it)
        self.ping_ms = PING_MS
        self._hand: QPointF | None = None
        self.pushed: dict[str, list[QGraphicsItem]] = {}
        #: what each push points at, re-checked whenever the sight changes
        self._push_args: dict[str, tuple[str, object]] = {}
        self._pending_push: tuple[str, object] = ("clear", None)
        self._remember = True
        self._shown: frozenset[str] = frozenset()
        self.sight: PlayersSight | None = None
        self._snap: SightSnapshot | None = None
        #: a table step's signals asked for a refresh (see :meth:`_after_step`)
        self._refresh_due = False
        self._snap_key: tuple | None = None
        self._runner = FogRunner(self)
        self._runner.finished.connect(self._fog_result)
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
        self._ring_timer = QTimer(self)
        self._ring_timer.setSingleShot(True)
        self._ring_timer.setInterval(FOCUS_RING_MS)
        self._ring_timer.timeout.connect(lambda: self._drop_push("focus"))
        self._ping_timer = QTimer(self)
        self._ping_timer.setSingleShot(True)
        self._ping_timer.timeout.connect(lambda: self._drop_push("ping"))
        self.horizontalScrollBar().valueChanged.connect(self._moved)
        self.verticalScrollBar().valueChanged.connect(self._moved)
        self.set_document(document, remembered)

    # -- document -------------------------------------------------------------------

    def set_document(self, document, remembered: SeenMemory | None = None) -> None:
        """Show another document (the Judge opened another encounter)."""
        old_doc, old_scene = self.document, self.map_scene
        if old_doc is not None:
            for sig, slot in self._doc_links(old_doc):
                with contextlib.suppress(RuntimeError, TypeError):
                    sig.disconnect(slot)
        self.pushed = {}
        self._push_args = {}
        self._ring_timer.stop()
        self._ping_timer.stop()
        self.document = document
        self.fog = FogOfWar(remembered if remembered is not None else SeenMemory())
        self.fog.remember = self._remember
        self.fog.memory.follow(document.encounter, document.map)
        self._snap = self._snap_key = None
        self.sight = None  # nothing shows until the rule has answered
        # the tokens are created with this view's look (names, badges): a new
        # encounter never shows what the Judge turned off, not for a frame
        sc = MapScene(
            document, self, public=True, token_filter=self._token_allowed, token_look=self.look
        )
        self.map_scene = sc
        self.fog_item = None
        self._ensure_fog_item()
        self.refresh()
        self.setScene(sc)
        if old_scene is not None:
            old_scene.deleteLater()
        sc.tokensRebuilt.connect(self._restyle_tokens)
        for sig, slot in self._doc_links(document):
            sig.connect(slot)
        if self.camera == "lock":
            self.fit_posse()  # a locked camera starts a new map on the posse, then stays
        self.apply_camera()

    def _doc_links(self, doc):
        return (
            (doc.tokenChanged, self._changed),
            (doc.changed, self._doc_changed),
            (doc.featureChanged, self._changed),
            (doc.characterChanged, self._changed),
            (doc.stepAnnounced, self._after_step),
        )

    def _ensure_fog_item(self) -> None:
        """One fog item, on the scene's current frame (a rebuilt scene after a map
        resize has a new frame: the old item goes). A new item starts unknown
        everywhere, then takes the states the fog knows now — before any frame."""
        sc = self.map_scene
        if sc is None:
            return
        it = self.fog_item
        if it is not None and it.scene() is sc and it.frame is sc.frame:
            return
        if it is not None and it.scene() is not None:
            it.scene().removeItem(it)
        self.fog_item = FogItem(sc.frame)
        self.fog_item.set_dim(self.fog_dim)
        self.fog_item.setVisible(self.fog_on)
        sc.addItem(self.fog_item)

    def _doc_changed(self, area: str) -> None:
        if area in ("map", "all"):
            self._ensure_fog_item()
            self._restyle_tokens()
        if area in ("map", "all", "tokens", "characters", "track", "mode"):
            self._changed()

    def _changed(self, *_args) -> None:
        if self.document is not None and self.document.announcing_step:
            self._refresh_due = True  # once, when the step's signals are all out
            return
        self.refresh()

    def _after_step(self) -> None:
        """A table step named each token, sheet and area it changed: the fog's
        request, the tokens shown and the camera worked out once for all of them."""
        if self._refresh_due:
            self._refresh_due = False
            self.refresh()

    def _snapshot(self) -> SightSnapshot:
        """The walls as the fog sees them, frozen for the worker (kept while the
        walls and the map's shape stay the same, so the noded walls are reused)."""
        doc = self.document
        walls = doc.walls()
        m = doc.map
        # the index itself is held in the key, so its id cannot be reused meanwhile
        key = (walls, walls.version, m.rows, m.cols, m.orientation)
        old = self._snap_key
        if self._snap is None or old is None or old[0] is not walls or old[1:] != key[1:]:
            snap = SightSnapshot.of(m, walls)
            if self._snap is not None and snap.key == self._snap.key:
                snap._noded[:] = self._snap._noded  # the same walls: keep them noded
            self._snap = snap
            self._snap_key = key
        return self._snap

    def refresh(self, *, wait: bool = False) -> None:
        """Apply the rule now: the fog's request for the current posse and walls
        (answered at once from the cache, else by the worker — or on this thread
        with ``wait``), the fog's picture and which tokens show."""
        doc, sc = self.document, self.map_scene
        if doc is None or sc is None:
            return
        self.fog.memory.follow(doc.encounter, doc.map)
        if self.fog_on:
            self._ensure_fog_item()
            snap = self._snapshot()
            viewers = posse_viewers(doc.encounter, doc.map)
            if wait:
                self.fog.compute_now(snap, viewers)
            else:
                job = self.fog.job(snap, viewers)
                if job is not None:
                    self._runner.submit(job)
            self._draw_fog()
        self._apply_token_visibility()
        if self.camera == "fit_posse":
            self.fit_posse()

    def refresh_now(self) -> None:
        """:meth:`refresh`, working the fog out on this thread (tests, one-off
        pictures)."""
        self.refresh(wait=True)

    @property
    def fog_pending(self) -> bool:
        """Whether the fog is waiting for the worker's answer."""
        return self.fog_on and self.fog.pending

    def wait_for_fog(self, msecs: int = 5000) -> bool:
        """Process events until the worker's answer is applied (tests)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        dl = QDeadlineTimer(msecs)
        while self.fog_pending and not dl.hasExpired():
            self._runner.wait(50)
            QCoreApplication.processEvents()
        return not self.fog_pending

    def _fog_result(self, job, result) -> None:
        if isinstance(result, Exception):
            log.warning("the players' fog could not be worked out: %s", result)
            return
        if self.fog.accept(job, result) or not self.fog.pending:
            self._draw_fog()
            self._apply_token_visibility()
            if self.camera == "fit_posse":
                self.fit_posse()
            self.viewport().update()

    def _draw_fog(self) -> None:
        if self.fog_item is None or self.document is None:
            return
        m = self.document.map
        states = self.fog.states((m.rows, m.cols))
        if not np.array_equal(states, self.fog_item.states):
            self.fog_item.set_states(states)

    # -- tokens ---------------------------------------------------------------------

    def set_look(self, look: TokenLook) -> None:
        """Token drawing choices (conditions, names…); the look stays public."""
        if not look.public:
            raise ValueError("the players' screen only draws tokens with a public look")
        self.look = look
        if self.map_scene is not None:
            self.map_scene.token_look = look
        self._restyle_tokens()

    def _restyle_tokens(self) -> None:
        sc = self.map_scene
        if sc is None:
            return
        for it in sc.tokens.values():
            it.set_look(self.look)
        self._apply_token_visibility()

    def options(self) -> PlayersOptions:
        return PlayersOptions(
            conditions=self.look.conditions, names=self.look.names, fog=self.fog_on
        )

    def _token_allowed(self, token_id: str) -> bool:
        s = self.sight
        return s is not None and token_id in s.tokens

    def token_shown(self, token_id: str) -> bool:
        """Whether a token is on the players' screen now (public, and known to be
        seen when the fog is on; the posse is always shown)."""
        sc = self.map_scene
        return sc is not None and token_id in sc.tokens and self._token_allowed(token_id)

    def _apply_token_visibility(self) -> None:
        """Ask the rule (:func:`players_sight`) and show exactly what it allows;
        drop pushes that point at what the players no longer see."""
        sc, doc = self.map_scene, self.document
        if sc is None or doc is None:
            return
        know = self.fog.knowledge() if self.fog_on else None
        before = self.sight
        self.sight = players_sight(doc.encounter, doc.map, self.options(), know)
        layer_on = sc.layer_visible("tokens")
        shown = set()
        for tid, it in sc.tokens.items():
            vis = layer_on and tid in self.sight.tokens
            it.setVisible(vis)
            if vis:
                shown.add(tid)
        for key, (kind, payload) in list(self._push_args.items()):
            if not push_allowed(kind, payload, doc.encounter, self.sight):
                self._drop_push(key)
        fs = frozenset(shown)
        # names readable on the TV and never over each other: initials where they
        # would collide. Laid out again when what shows, or how, changed; a token that
        # only moved had its plate moved by the scene (MapScene._on_token)
        if fs != self._shown or before is None or before.marks != self.sight.marks:
            sc.layout_plates()
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
        self.refresh()
        if self.fog_item is not None:
            self.fog_item.setVisible(self.fog_on)

    def set_fog_dim(self, dim: bool) -> None:
        """Dim never-seen hexes instead of covering them (the Judge's preference)."""
        self.fog_dim = bool(dim)
        if self.fog_item is not None:
            self.fog_item.set_dim(self.fog_dim)

    def set_remember(self, on: bool) -> None:
        self._remember = bool(on)
        self.fog.remember = self._remember
        self.refresh()
        self._draw_fog()

    def forget(self) -> None:
        """Forget the remembered hexes (the Judge's "reset the fog")."""
        self.fog.forget()
        self._draw_fog()

    # -- pushes ---------------------------------------------------------------------

    def caption_px(self) -> int:
        return max(CAPTION_MIN_PX, round(self.viewport().height() * CAPTION_FRACTION))

    def show_push(self, kind: str, payload) -> None:
        """Draw something the Judge pushed (``cover_line``, ``scatter``, ``focus``) or
        take everything down (``clear``). ``card`` is the window's business. A push
        pointing at a token the players do not see is refused (and one already up
        goes when its token is hidden)."""
        if kind == "clear":
            for k in list(self.pushed):
                self._drop_push(k)
            return
        if kind == "ping":  # a ring on a hex: it shows no token the rule hides
            self._show_ping(as_hex(payload))
            return
        if kind == "scatter":
            payload = scatter_detail(self.document, payload)
        if self.sight is None or not push_allowed(
            kind, payload, self.document.encounter, self.sight
        ):
            return
        self._pending_push = (kind, payload)
        if kind == "cover_line":
            self._show_cover_line(*[as_hex(h) for h in payload])
        elif kind == "scatter":
            self._show_scatter(payload)
        elif kind == "focus":
            self._show_focus(payload)
        elif kind == "covering":
            self._show_covering(payload)

    def _drop_push(self, key: str) -> None:
        self._push_args.pop(key, None)
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
        self._push_args[key] = self._pending_push

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

    def _show_covering(self, payload) -> None:
        """A covered area the Judge shows (002 Covering Fire): the hexes, shaded."""
        if self.map_scene is None:
            return
        fr = self.map_scene.frame
        path = QPainterPath()
        for h in (as_hex(x) for x in payload.get("hexes", ())):
            if fr.contains(h):
                path.addPolygon(fr.polygon(h))
                path.closeSubpath()
        if path.isEmpty():
            return
        item = QGraphicsPathItem(path)
        item.setBrush(QColor(230, 120, 20, 70))
        pen = QPen(QColor(200, 90, 0), 2.0)
        pen.setCosmetic(True)
        item.setPen(pen)
        item.setZValue(3)
        self._add_push("covering", [item])

    def _show_focus(self, payload) -> None:
        doc = self.document
        if isinstance(payload, str):
            try:
                t = doc.token(payload)
            except KeyError:
                return
            h = t.at
        else:
            h = as_hex(payload)
        if not doc.map.contains(h):
            return
        self._add_push("focus", [FocusRing(self.map_scene.frame, h)])
        self._ring_timer.start()
        self.set_camera("lock")
        self.center_on_hex(h)

    def _show_ping(self, h: Hex) -> None:
        doc = self.document
        if doc is None or self.map_scene is None or not doc.map.contains(h):
            return
        self._pending_push = ("ping", h)
        self._add_push("ping", [PingRing(self.map_scene.frame, h)])
        self._ping_timer.start(self.ping_ms)
        self._bring_into_view([self.map_scene.frame.center(h)])

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
