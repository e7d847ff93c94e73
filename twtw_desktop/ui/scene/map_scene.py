"""The scene of one encounter's map: feature, label, marker and token items kept in
step with the document (a ``{model id: item}`` map, orange-canvas-core style).

The hexes themselves are not items: :class:`GridPainter` draws them into cached tiles
behind everything (:meth:`MapScene.drawBackground`, which the views and the exporter
share).

Two things decide what a scene shows:

* ``public=True`` (the players' screen, a print without the Judge's layers) never
  *creates* an item for Judge-only content: hidden tokens, notes, Judge-only labels,
  features and markers, and a background image not meant for the players
  (:func:`twtw_desktop.play.visibility.is_public`, the players' one rule). Leaving
  the items out (rather than hiding them) means no render, tooltip or item query can
  leak them. A public scene may also be given a ``token_filter`` (the players'
  screen's fog): a token item it refuses is created invisible and stays so through
  every rebuild and layer switch, so it is never drawn for a frame. Its
  ``token_look`` (the players' screen's names and badges choices) is the look every
  token item is created with.
* Layers (:data:`LAYERS`) can be shown, hidden or locked, the way the editor's
  layers panel asks; a locked layer's items still draw but tools must not edit them
  (tools ask :meth:`MapScene.layer_locked`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsScene

from ...hexgrid import Hex
from ...model.map import Label, Marker, Note
from ...play.visibility import is_public
from ..core.document import EncounterDocument
from . import style
from .frame import MapFrame
from .grid_painter import GridPainter
from .map_items import FeatureItem, LabelItem, MarkerItem
from .picture import PictureLoader
from .plates import PlateLayout
from .token_item import BADGE_FONT, BADGE_MIN_PX, PLAYERS_LOOK, TokenItem, TokenLook

log = logging.getLogger(__name__)

#: margin around the map inside the scene rectangle, in hexes
SCENE_MARGIN_HEXES = 6

#: the map's layers, in the editor's order (and the layers panel's names)
LAYERS = ("terrain", "walls", "objects", "labels", "notes", "background", "tokens")
LAYER_TITLES = {
    "terrain": "Terrain",
    "walls": "Walls and cover",
    "objects": "Doors and windows",
    "labels": "Labels",
    "notes": "Judge notes and markers",
    "background": "Background image",
    "tokens": "Tokens",
}


def feature_layer(kind: str) -> str:
    """The layer a map feature belongs to."""
    return "objects" if kind in ("door", "window") else "walls"


class MapScene(QGraphicsScene):
    """Items for everything on the map except the hexes; listens to the document."""

    tokensRebuilt = Signal()
    #: a layer was shown, hidden, locked or unlocked
    layersChanged = Signal()

    def __init__(
        self,
        document: EncounterDocument,
        parent=None,
        *,
        public: bool = False,
        token_filter: Callable[[str], bool] | None = None,
        token_look: TokenLook | None = None,
    ) -> None:
        super().__init__(parent)
        self.document = document
        #: players' view: Judge-only content gets no item at all (module docstring)
        self.public = public
        #: the look every token item is created with (a public scene's default is
        #: the players' look); the players' screen sets its own before any item exists,
        #: so a token never shows with a look the Judge turned off, not for a frame
        self.token_look: TokenLook | None = token_look or (PLAYERS_LOOK if public else None)
        #: the zoom the name plates are laid out for (the view's; None: the look's size)
        self.plate_scale: float | None = None
        #: the AP badges' figures can be read at the view's zoom (set_plate_scale)
        self.badges_readable = True
        self.plates = PlateLayout()
        #: token id → may it show now (None: every token the scene has an item for)
        self.token_filter = token_filter
        self._visible = dict.fromkeys(LAYERS, True)
        self._locked = dict.fromkeys(LAYERS, False)
        self.frame = MapFrame(document.map)
        self.grid = GridPainter(self.frame)
        self.features: dict[str, FeatureItem] = {}
        self.tokens: dict[str, TokenItem] = {}
        self.others: dict[str, LabelItem | MarkerItem] = {}
        self.background: QPixmap | None = None
        self.background_error: str | None = None
        #: a big background is being decoded in a worker thread
        self.background_loading = False
        self._pictures: PictureLoader | None = None
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.rebuild()
        document.changed.connect(self._on_changed)
        document.tokenChanged.connect(self._on_token)
        document.characterChanged.connect(self._on_character)
        document.featureChanged.connect(self._on_feature)
        document.selectionChanged.connect(self._on_selection)

    # -- building ---------------------------------------------------------------------

    def rebuild(self) -> None:
        """Rebuild every item from the model (after a map change or a new document)."""
        for d in (self.features, self.tokens, self.others):
            for it in d.values():
                self.removeItem(it)
            d.clear()
        self.frame = MapFrame(self.document.map)
        self.grid.frame = self.frame
        self._load_background()
        self.grid.transparent_ground = self.background is not None
        self.grid.reset()
        QTimer.singleShot(0, self._prepare_ground)
        self._sync_objects()  # new items take their layer's visibility
        self.sync_tokens()
        self._sig = self._signature()
        self._ground = self._ground_signature()
        b = self.frame.bounds()
        pad = self.frame.unit * SCENE_MARGIN_HEXES
        self.setSceneRect(b.adjusted(-pad, -pad, pad, pad))

    def _sync_objects(self) -> None:
        """Make the feature, label, note and marker items match the map: new objects
        get items, gone ones lose them, the rest refresh in place (an editor stroke
        adding one wall touches one item, not the scene)."""
        m = self.document.map
        av = self.document.cover_av()
        want_f = {f.id: f for f in m.features if self._shows(f)}
        others: list[Label | Note | Marker] = [*m.labels, *m.notes, *m.markers]
        want_o = {x.id: x for x in others if self._shows(x)}
        for store, want in ((self.features, want_f), (self.others, want_o)):
            for oid in [k for k in store if k not in want]:
                self.removeItem(store.pop(oid))
        for fid, f in want_f.items():
            it = self.features.get(fid)
            if it is None:
                it = FeatureItem(f, self.frame, av)
                it.setData(0, feature_layer(f.kind))
                it.setVisible(self._visible[feature_layer(f.kind)])
                self.features[fid] = it
                self.addItem(it)
            else:
                if it.data(0) != feature_layer(f.kind):
                    it.setData(0, feature_layer(f.kind))
                    it.setVisible(self._visible[feature_layer(f.kind)])
                it.refresh(f)
        for oid, x in want_o.items():
            other = self.others.get(oid)
            if isinstance(x, Label) and isinstance(other, LabelItem):
                other.refresh(x)
                continue
            if not isinstance(x, Label) and isinstance(other, MarkerItem):
                other.refresh(x)
                continue
            if other is not None:  # a label became a note, or the reverse
                self.removeItem(self.others.pop(oid))
            if isinstance(x, Label):
                other, layer = LabelItem(x, self.frame), "labels"
            else:
                other, layer = MarkerItem(x, self.frame), "notes"
            other.setData(0, layer)
            other.setVisible(self._visible[layer])
            self.others[oid] = other
            self.addItem(other)

    def _prepare_ground(self) -> None:
        with contextlib.suppress(RuntimeError):  # the scene went before the timer fired
            self.grid.prepare()

    def sync_tokens(self) -> None:
        enc = self.document.encounter
        seen = set()
        for t in enc.tokens:
            if not self._shows(t):
                continue
            seen.add(t.id)
            ch = _char(self.document, t.character_id)
            it = self.tokens.get(t.id)
            if it is None:
                it = TokenItem(t, ch, self.frame, self.token_look)
                it.badge_readable = self.badges_readable
                it.setData(0, "tokens")
                it.setVisible(self._token_visible(t.id))
                self.tokens[t.id] = it
                self.addItem(it)
            else:
                it.refresh(t, ch)
            it.set_selected(t.id == self.document.selected_token_id)
        for tid in list(self.tokens):
            if tid not in seen:
                self.removeItem(self.tokens.pop(tid))
        self.refresh_ap_badges()
        self.layout_plates()
        self.tokensRebuilt.emit()

    def layout_plates(self) -> None:
        """Lay the shown tokens' name plates out, none over another (initials where
        they would collide, :class:`.plates.PlateLayout`)."""
        self.plates.lay_out(self._shown_items(), self.plate_scale)

    def _shown_items(self) -> list[TokenItem]:
        return [it for it in self.tokens.values() if it.isVisible()]

    def set_plate_scale(self, scale: float | None) -> None:
        """The view's zoom changed: the plates' sizes (made up to a readable size when
        zoomed out) and so their layout may change."""
        if scale != self.plate_scale:
            self.plate_scale = scale
            self.layout_plates()
            readable = scale is None or scale * BADGE_FONT * self.frame.unit >= BADGE_MIN_PX
            self.badges_readable = readable
            for it in self.tokens.values():
                it.set_badge_readable(readable)

    def refresh_ap_badges(self) -> None:
        doc = self.document
        if not doc.in_action:
            for it in self.tokens.values():
                it.set_ap_text(None)
            return
        items = self.tokens
        for t in doc.encounter.tokens:  # (no lookup of each token by its id)
            item = items.get(t.id)
            if item is None:
                continue
            try:
                n = doc.ap_available(t.character_id)
            except KeyError:
                n = None
            item.set_ap_text(None if n is None else str(n))

    # -- layers ----------------------------------------------------------------------------

    def _shows(self, x) -> bool:
        return not self.public or is_public(x)

    def _token_visible(self, tid: str) -> bool:
        f = self.token_filter
        return self._visible["tokens"] and (f is None or bool(f(tid)))

    def layer_visible(self, name: str) -> bool:
        return self._visible[name]

    def layer_locked(self, name: str) -> bool:
        return self._locked[name]

    def set_layer_visible(self, name: str, on: bool) -> None:
        """Show or hide one of :data:`LAYERS` (KeyError for an unknown name)."""
        if self._visible[name] == on:
            return
        self._visible[name] = on
        if name == "terrain":
            self.grid.show_terrain = on
            self.grid.reset()
        self._apply_layers()
        self.update()
        self.layersChanged.emit()

    def set_layer_locked(self, name: str, on: bool) -> None:
        """Lock or unlock a layer; tools check :meth:`layer_locked` before editing."""
        if self._locked[name] == on:
            return
        self._locked[name] = on
        self.layersChanged.emit()

    def _apply_layers(self) -> None:
        for d in (self.features, self.others, self.tokens):
            for it in d.values():
                layer = it.data(0)
                if isinstance(it, TokenItem):  # layer "tokens"
                    it.setVisible(self._token_visible(it.token_id))
                elif layer:
                    it.setVisible(self._visible[layer])

    # -- ground ------------------------------------------------------------------------------

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """Off-map colour, the background picture (when its layer shows) and the hex
        tiles. Views and the exporter both paint the ground through here."""
        rect = QRectF(rect)  # Qt passes a QRectF; its signature allows a QRect too
        if not self.grid.covers(painter):  # (a pan frame fills its pixels once)
            painter.fillRect(rect, style.OFF_MAP)
        self._paint_background_note(painter)
        bg = self.background_rect()
        b = self.document.map.background
        if (
            bg is not None
            and b is not None
            and self.background is not None
            and self._visible["background"]
        ):
            painter.save()
            painter.setOpacity(b.opacity)
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            if b.rotation:
                painter.translate(bg.topLeft())
                painter.rotate(b.rotation)
                painter.translate(-bg.topLeft())
            painter.drawPixmap(bg, self.background, QRectF(self.background.rect()))
            painter.restore()
        self.grid.paint(painter, rect)

    def _load_background(self) -> None:
        """Load the background through the one safe picture loader (io's checks, then
        QImageReader under its allocation limit); a big picture decodes in a worker
        thread while the scene shows a loading note, a refused one shows why."""
        self.background = None
        self.background_error = None
        bg = self.document.map.background
        if bg is None:
            return
        if self.public and not is_public(bg):
            return
        if self._pictures is None:
            self._pictures = PictureLoader(self)
            self._pictures.done.connect(self._background_loaded)
        base = self.document.map_path or self.document.path
        map_file = base if base is not None else Path.cwd() / "unsaved.map.json"
        self.background_loading = self._pictures.start(map_file, bg)

    def wait_for_background(self) -> None:
        """Finish a background load now (the export draws the picture at once)."""
        if self._pictures is not None and self.background_loading:
            self._pictures.wait()
            result = self._pictures.take()
            if result is not None:
                self._background_loaded(*result)

    def _background_loaded(self, generation: int, image: object, error: str) -> None:
        if self._pictures is None or generation != self._pictures.generation:
            return  # a stale result: the map or its picture changed meanwhile
        if not self.background_loading and (self.background or self.background_error):
            return  # already applied (wait_for_background)
        self.background_loading = False
        if error or image is None:
            self.background_error = error or "the background picture could not be read"
            log.warning(self.background_error)
        elif isinstance(image, QImage):
            self.background = QPixmap.fromImage(image)
        self.grid.transparent_ground = self.background is not None
        self.grid.invalidate()
        self.update()

    def _paint_background_note(self, painter: QPainter) -> None:
        """While a big picture decodes, or when it was refused, say so where it goes."""
        bg = self.document.map.background
        if bg is None or not (self.background_loading or self.background_error):
            return
        if not self._visible["background"]:
            return
        u = self.frame.unit
        area = QRectF(bg.x * u, bg.y * u, bg.width * bg.scale * u, bg.height * bg.scale * u)
        text = (
            "Loading the background picture…"
            if self.background_loading
            else f"Background not shown: {self.background_error}"
        )
        painter.save()
        painter.setPen(style.MAP_EDGE)
        painter.drawText(
            area,
            Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            text,
        )
        painter.restore()

    def background_rect(self) -> QRectF | None:
        bg = self.document.map.background
        if bg is None or self.background is None:
            return None
        u = self.frame.unit
        return QRectF(bg.x * u, bg.y * u, bg.width * bg.scale * u, bg.height * bg.scale * u)

    # -- geometry helpers ----------------------------------------------------------------

    def walls(self):
        """The geometry module's wall index for this map (built lazily, dropped on edits)."""
        return self.document.walls()

    def token_item_at(self, h: Hex) -> TokenItem | None:
        t = self.document.encounter.token_at(h)
        return self.tokens.get(t.id) if t is not None else None

    # -- document signals --------------------------------------------------------------------

    def _signature(self) -> tuple:
        """What forces a full rebuild: another map, its size, shape or background."""
        m = self.document.map
        return (
            id(m),
            m.cols,
            m.rows,
            m.orientation,
            m.hex_px,
            m.background.model_dump_json() if m.background else None,
        )

    def _ground_signature(self) -> int:
        m = self.document.map
        elev = tuple(tuple(r) for r in m.elevation) if m.elevation is not None else None
        return hash((tuple(m.terrain), elev))

    def _on_changed(self, area: str) -> None:
        if area in ("map", "all"):
            if self._signature() != self._sig:
                self.rebuild()
            else:
                # same frame: add, drop or refresh items; redraw only the changed ground
                self._sync_objects()
                ground = self._ground_signature()
                if ground != self._ground:
                    self._ground = ground
                    self.grid.invalidate()
                    QTimer.singleShot(0, self._prepare_ground)
                self.sync_tokens()
            self.update()
        elif area in ("tokens", "characters"):
            self.sync_tokens()
        elif area in ("track", "mode"):
            self.refresh_ap_badges()

    def _on_token(self, tid: str) -> None:
        it = self.tokens.get(tid)
        if it is None:
            self.sync_tokens()
            return
        try:
            t = self.document.token(tid)
        except KeyError:
            self.sync_tokens()
            return
        if not self._shows(t):  # hidden from the players since the last sync
            self.sync_tokens()
            return
        it.refresh(t, _char(self.document, t.character_id))
        # it may have moved next to another: the plates it can reach laid out again
        self.plates.moved(self._shown_items(), [tid], self.plate_scale)

    def _on_character(self, cid: str) -> None:
        if self.public:
            self.sync_tokens()
            return
        for t in self.document.encounter.tokens:
            if t.character_id == cid and t.id in self.tokens:
                self.tokens[t.id].refresh(t, _char(self.document, cid))

    def _on_feature(self, fid: str) -> None:
        it = self.features.get(fid)
        try:
            f = self.document.map.feature(fid)
        except KeyError:
            self._sync_objects()
            return
        if it is None or not self._shows(f):
            self._sync_objects()
            return
        it.refresh(f)

    def _on_selection(self, tid) -> None:
        for k, it in self.tokens.items():
            it.set_selected(k == tid)


def _char(document: EncounterDocument, cid: str):
    try:
        return document.character(cid)
    except KeyError:
        return None
