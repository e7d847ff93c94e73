"""The players' camera, the base of :class:`.view.PlayersView`: where the view looks
and at what scale.

Camera modes (:data:`CAMERA_MODES`): ``fit_posse`` (the default) the posse's tokens
with a margin (kept as they move), ``fit_map`` the whole map, ``lock`` stays put,
``follow`` shows what the Judge's map view shows (scaled to this window, on the zoom
steps the tiles are cached for) — only when the Judge chooses it. "Show this to the
players" (a ``focus`` push) centres on a hex and switches the camera to ``lock``.

Miniature scale (:meth:`PlayersCamera.set_miniature`): the scale is fixed so a hex
measures the Judge's inches across its flats on this display (:mod:`.miniature`);
every camera mode then only pans (``fit_*`` and ``follow`` centre on what they would
show), nothing zooms. The Judge moves the view by hand (:meth:`PlayersCamera.pan_to`,
the frame on the Judge's map), which locks the camera. :attr:`PlayersCamera.viewMoved`
says where the view is after every pan, zoom or resize.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsView

from ...hexgrid import Hex
from ..core.document import EncounterDocument
from ..scene.grid_painter import bucket_index, bucket_scale
from ..scene.map_scene import MapScene
from ..scene.map_view import MAX_ZOOM_K, MIN_ZOOM_K
from ..scene.token_item import POSSE_SIDE

CAMERA_MODES = ("fit_posse", "fit_map", "lock", "follow")
CAMERA_TITLES = {
    "fit_posse": "Fit the posse (own camera)",
    "fit_map": "Fit the map",
    "lock": "Locked",
    "follow": "Follow the Judge's view",
}
DEFAULT_CAMERA = "fit_posse"
#: "fit the posse" leaves this many hexes round the posse's tokens
FIT_POSSE_MARGIN_HEXES = 4


class PlayersCamera(QGraphicsView):
    """Where the players' view looks and at what scale (the view's base)."""

    #: the camera mode changed (the focus push locks it)
    cameraChanged = Signal(str)
    #: the part of the scene on screen changed (pan, zoom, resize): the visible rect
    viewMoved = Signal(QRectF)

    document: EncounterDocument | None
    map_scene: MapScene | None
    #: the mode in :data:`CAMERA_MODES`
    camera: str
    #: the Judge's visible scene rect (``follow``)
    judge_rect: QRectF | None
    #: (pixels per inch, inches per hex) at miniature scale, else None
    miniature: tuple[float, float] | None
    _hand: QPointF | None
    _shown: frozenset[str]

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
        """Show at least ``rect`` of the scene, as large as the zoom steps allow (at
        miniature scale: centre on it, the scale fixed)."""
        mini = self.miniature_scale()
        if mini is not None:
            self._set_scale(mini)
            self.centerOn(rect.center())
            return
        vp = self.viewport().rect()
        if rect.width() <= 0 or rect.height() <= 0 or vp.width() < 10 or vp.height() < 10:
            return
        fit = min(vp.width() / rect.width(), vp.height() / rect.height())
        k = bucket_index(fit)
        while k > MIN_ZOOM_K and bucket_scale(k) > fit * 1.0001:
            k -= 1
        k = max(MIN_ZOOM_K, min(MAX_ZOOM_K, k))
        self._set_scale(bucket_scale(k))
        self.centerOn(rect.center())

    def _set_scale(self, s: float) -> None:
        t = self.transform()
        if t.m11() != s or t.m22() != s:
            self.setTransform(QTransform.fromScale(s, s))
            if self.map_scene is not None:
                self.map_scene.set_plate_scale(s)
            self._moved()

    def _moved(self, *_args) -> None:
        self.viewMoved.emit(self.visible_scene_rect())

    # -- miniature scale and the Judge's hand ---------------------------------------

    def set_miniature(self, ppi: float | None, hex_inches: float = 1.0) -> None:
        """Fix the scale so a hex is ``hex_inches`` across its flats on a display of
        ``ppi`` pixels per inch (None: the camera zooms again), keeping the centre."""
        centre = self.centre()
        self.miniature = None if ppi is None else (float(ppi), float(hex_inches))
        mini = self.miniature_scale()
        if mini is not None:
            self._set_scale(mini)
            self.centerOn(centre)
        else:
            self.apply_camera()

    def miniature_scale(self) -> float | None:
        """The fixed scale at miniature scale (None when the camera zooms)."""
        if self.miniature is None or self.map_scene is None:
            return None
        from .miniature import miniature_scale

        ppi, inches = self.miniature
        return miniature_scale(ppi, inches, self.map_scene.frame.unit)

    def centre(self) -> QPointF:
        """The scene point in the middle of the view."""
        return self.mapToScene(self.viewport().rect().center())

    def pan_to(self, centre: QPointF) -> None:
        """The Judge put the view here by hand: centre on ``centre`` (scene) and lock
        the camera (no mode takes it elsewhere)."""
        self.set_camera("lock")
        self.centerOn(centre)
        self._hand = QPointF(centre)
        self._moved()

    def hand_centre(self) -> QPointF:
        """Where the Judge last put the view by hand while it is still there (the
        view itself only stops on whole pixels: steps add up without drifting), else
        :meth:`centre`."""
        now = self.centre()
        hand = self._hand
        if hand is not None and self.camera == "lock":
            px = 2.01 / max(self.transform().m11(), 1e-9)  # centerOn may stop 1-2 px short
            if abs(hand.x() - now.x()) <= px and abs(hand.y() - now.y()) <= px:
                return QPointF(hand)
        return now

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def fit_map(self) -> None:
        if self.map_scene is not None:
            self.show_rect(self.map_scene.frame.bounds())

    def fit_posse(self) -> None:
        sc, doc = self.map_scene, self.document
        if sc is None:
            return
        # the posse's tokens by one walk of each list (a lookup per shown token walked
        # the lists again: a tenth of a drag's frame with 200 tokens), and the hexes'
        # box from their centres (one rectangle, not one united per token)
        posse = {c.id for c in doc.encounter.characters if c.side == POSSE_SIDE}
        tokens = {t.id: t for t in doc.encounter.tokens if t.character_id in posse}
        centres = [sc.frame.center_xy(tokens[tid].at) for tid in self._shown if tid in tokens]
        if not centres:
            self.fit_map()
            return
        xs, ys = [c[0] for c in centres], [c[1] for c in centres]
        s = sc.frame.unit  # a hex's rectangle reaches one unit round its centre
        rect = QRectF(
            min(xs) - s, min(ys) - s, max(xs) - min(xs) + 2 * s, max(ys) - min(ys) + 2 * s
        )
        m = sc.frame.hex_width * FIT_POSSE_MARGIN_HEXES
        self.show_rect(rect.adjusted(-m, -m, m, m))

    def center_on_hex(self, h: Hex) -> None:
        if self.map_scene is not None:
            self.centerOn(self.map_scene.frame.center(h))

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        self.apply_camera()
        self._moved()
