"""Line-of-sight fog for the players' screen.

A hex is *seen* when a member of the posse can see it now, *remembered* when one
saw it earlier this session, and *unknown* otherwise. The players' screen darkens
unknown hexes heavily, remembered ones less, and hides tokens that stand outside
the seen hexes (the posse itself is always seen).

* Who looks: the posse's tokens on the map (``Character.side == "posse"``) that the
  players may see (not hidden) and whose character can still look (not dead or
  unconscious) — :func:`posse_viewers`.
* What they see: :func:`twtw_desktop.geometry.visible_hexes` with the "any part of
  the hex" reading, from each viewer separately and cached per viewer hex, so a
  posse member stepping to a new hex costs one viewer's sight, not four. The cache
  is dropped whenever the document rebuilds its wall index (a door opened, a wall
  drawn).
* Sight uses every feature of the map, the Judge's secret ones too: a hidden wall
  blocks the posse's eyes whether or not the players know of it.
* Remembered hexes live as long as the document is open (the controller keeps them
  across closing and reopening the players' screen); they are not saved in the
  encounter file.

The fog is drawn by :class:`FogItem` as one cached tiled layer: each tile is an
image whose pixels look up the state of the hex under them (vectorised hex
rounding through the map's layout), so there is no item per hex and no seam
between neighbouring dark hexes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem

from ...geometry.raster import offsets_at
from ...geometry.sight import visible_hexes
from ...hexgrid import Hex, hex_to_offset
from ..scene.grid_painter import TILE, TiledLayer, bucket_scale
from ..scene.map_items import Z_NOTE, Z_TOKEN
from ..scene.token_item import POSSE_SIDE

#: hex states in :meth:`FogOfWar.states`
UNKNOWN, REMEMBERED, SEEN = 0, 1, 2
#: darkness of hexes nobody in the posse has seen, and of remembered ones (ARGB)
FOG_UNKNOWN = QColor(14, 11, 8, 238)
FOG_REMEMBERED = QColor(14, 11, 8, 150)
#: fog tiles sample the map every this many device pixels (then scale up smoothly)
FOG_SAMPLE_PX = 2
#: viewer hexes whose sight is kept in the cache
SIGHT_CACHE_SIZE = 64
#: the fog lies over walls, labels and markers but under the tokens
Z_FOG = (Z_NOTE + Z_TOKEN) / 2


def posse_viewers(document) -> list[Hex]:
    """Hexes of the posse members who look: on the map, not hidden from the players,
    and neither dead nor unconscious."""
    out: list[Hex] = []
    enc = document.encounter
    for t in enc.tokens:
        if t.hidden:
            continue
        try:
            ch = enc.character(t.character_id)
        except KeyError:
            continue
        if ch.side != POSSE_SIDE or ch.dead or ch.unconscious:
            continue
        if document.map.contains(t.at):
            out.append(t.at)
    return out


class FogOfWar:
    """What the posse sees now and remembers; no Qt, no drawing."""

    def __init__(self, remembered: set[Hex] | None = None) -> None:
        #: hexes seen now
        self.seen: frozenset[Hex] = frozenset()
        #: hexes seen at some time this session (shared with the controller)
        self.remembered: set[Hex] = remembered if remembered is not None else set()
        self.remember = True
        self.viewers: tuple[Hex, ...] = ()
        self._walls = None
        self._walls_version = -1
        self._cache: OrderedDict[Hex, frozenset[Hex]] = OrderedDict()
        #: sight computations run (tests read this to check the cache works)
        self.computed = 0

    def sight_from(self, game_map, walls, viewer: Hex) -> frozenset[Hex]:
        if walls is not self._walls or walls.version != self._walls_version:
            self._cache.clear()
            self._walls = walls
            self._walls_version = walls.version
        hit = self._cache.get(viewer)
        if hit is not None:
            self._cache.move_to_end(viewer)
            return hit
        self.computed += 1
        seen = frozenset(visible_hexes(game_map, walls, [viewer], any_part=True))
        self._cache[viewer] = seen
        if len(self._cache) > SIGHT_CACHE_SIZE:
            self._cache.popitem(last=False)
        return seen

    def update(self, game_map, walls, viewers: Iterable[Hex]) -> bool:
        """Recompute what the viewers see; True when the seen or remembered hexes
        changed."""
        vs = tuple(sorted(set(viewers), key=lambda h: (h.q, h.r)))
        seen: set[Hex] = set()
        for v in vs:
            seen |= self.sight_from(game_map, walls, v)
        new = frozenset(seen)
        self.viewers = vs
        grew = False
        if self.remember and not new <= self.remembered:
            self.remembered |= new
            grew = True
        if new == self.seen and not grew:
            return False
        self.seen = new
        return True

    def forget(self) -> None:
        """Forget the remembered hexes (those seen now stay seen)."""
        self.remembered.clear()
        self.remembered |= self.seen

    def drop_cache(self) -> None:
        self._cache.clear()
        self._walls = None

    def states(self, game_map) -> np.ndarray:
        """The state of every hex as a (rows, cols) array of UNKNOWN / REMEMBERED /
        SEEN."""
        out = np.zeros((game_map.rows, game_map.cols), dtype=np.uint8)
        o = game_map.orientation

        def mark(hexes: Iterable[Hex], value: int) -> None:
            for h in hexes:
                col, row = hex_to_offset(h, o)
                if 0 <= row < game_map.rows and 0 <= col < game_map.cols:
                    out[row, col] = value

        if self.remember:
            mark(self.remembered, REMEMBERED)
        mark(self.seen, SEEN)
        return out

    def is_seen(self, h: Hex) -> bool:
        return h in self.seen


class _FogTiles(TiledLayer):
    """The fog rendered into image tiles (see the module docstring)."""

    def __init__(self, frame) -> None:
        super().__init__(frame)
        self.colours = np.zeros((frame.map.rows, frame.map.cols), dtype=np.uint32)

    def set_states(self, states: np.ndarray) -> None:
        lut = np.array(
            [FOG_UNKNOWN.rgba(), FOG_REMEMBERED.rgba(), 0],
            dtype=np.uint32,
        )
        self.colours = lut[states]
        self.clear()

    def _render_tile(self, k: int, tx: int, ty: int) -> QPixmap | None:
        fr = self.frame
        rect = self.tile_rect(k, tx, ty)
        if not rect.intersects(fr.bounds()):
            return None
        m = fr.map
        b = bucket_scale(k)
        n = TILE // FOG_SAMPLE_PX
        step = FOG_SAMPLE_PX / b  # scene units per sample
        xs = (rect.left() + (np.arange(n) + 0.5) * step) / fr.unit
        ys = (rect.top() + (np.arange(n) + 0.5) * step) / fr.unit
        px, py = np.meshgrid(xs, ys)
        col, row, inside = offsets_at(m, px, py)
        if not inside.any():
            return None
        out = np.zeros((n, n), dtype=np.uint32)
        out[inside] = self.colours[row[inside], col[inside]]
        if not out.any():
            return None
        out = np.ascontiguousarray(out)
        small = QImage(out.data, n, n, n * 4, QImage.Format.Format_ARGB32).copy()
        img = small.scaled(
            TILE,
            TILE,
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        return QPixmap.fromImage(img)


class FogItem(QGraphicsItem):
    """The fog over the whole map: one item, drawn from cached tiles."""

    def __init__(self, frame) -> None:
        super().__init__()
        self.frame = frame
        self.setZValue(Z_FOG)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._tiles = _FogTiles(frame)
        self._rect = frame.bounds()
        #: the states last drawn (tests read this)
        self.states: np.ndarray = np.zeros((frame.map.rows, frame.map.cols), dtype=np.uint8)

    def set_states(self, states: np.ndarray) -> None:
        self.states = states
        self._tiles.set_states(states)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        self._tiles.paint(painter, option.exposedRect)
