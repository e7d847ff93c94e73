"""One painter for the hex grid: terrain, elevation and grid lines into cached tiles.

A 200×200 map has 40,000 hexes; one scene item per hex makes every frame walk them.
Instead the view's background is drawn from square pixmap tiles (``TILE`` device
pixels) rendered once per zoom bucket and kept in a small LRU cache; a terrain edit
drops only the tiles it touches. Zoom steps land on the buckets (2^(k/4)), so tiles
are blitted 1:1 at integer device positions — the fast path of the raster engine.

Inside a tile:

* grid lines come from a texture brush holding one period of the hex lattice, so their
  cost does not depend on how many hexes are in view;
* terrain and elevation are filled hex by hex (only hexes that differ from open,
  level ground are drawn), or — when hexes are under :data:`LOD_HEX_PX` on screen —
  from a whole-map image sampled through the layout (:meth:`GridPainter._ground_image`);
* offset labels and elevation numbers appear when hexes are large enough to read them.

Edits: the painter keeps a copy of the terrain and elevation it last drew.
:meth:`GridPainter.invalidate` without arguments compares the map with that copy and
drops only the tiles holding changed hexes (a brush stroke on a 200×200 map redraws
a tile or two, not the screen); the far-zoom image is recoloured in place.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QTransform,
)

from ...geometry.raster import offsets_at
from ...hexgrid import Hex, Orientation, offset_to_hex
from ...model.map import CODE_TERRAIN
from . import style
from .frame import MapFrame

#: tile side in device pixels
TILE = 512
#: tiles kept in memory (1 MB each)
MAX_TILES = 160
#: zoom buckets are ZOOM_BASE ** k; wheel/key zoom steps by one bucket
ZOOM_STEPS_PER_DOUBLING = 4
ZOOM_BASE = 2.0 ** (1.0 / ZOOM_STEPS_PER_DOUBLING)
#: below this on-screen hex radius the terrain comes from the whole-map image
LOD_HEX_PX = 12.0
#: the far-zoom ground image samples the map every this many map units (hex radius 1)
GROUND_SAMPLE = 0.3
#: … in at most this many samples (8 MB): a bigger map is sampled more coarsely, and
#: a tile zoomed in past the image's resolution samples its own ground instead
MAX_GROUND_SAMPLES = 2_000_000
#: a map whose whole image, sampled finely enough for every far zoom (no tile then
#: samples its own ground: a sample map opened just under LOD_HEX_PX spent ~100 ms at
#: start-up sampling four tiles pixel by pixel), takes at most this many samples is
#: sampled that finely
SMALL_MAP_SAMPLES = 400_000
#: a tile samples its own ground when the image's samples would be wider than this
#: many device pixels; it then samples every GROUND_TILE_PX pixels
GROUND_COARSE_PX = 2.0
GROUND_TILE_PX = 1.0
#: samples located per numpy pass (bounds the temporary memory to a few MB)
SAMPLE_CHUNK = 262_144
#: grid lines are drawn from this on-screen hex radius up (from a texture brush) …
GRID_MIN_HEX_PX = 4.0
#: … and hex by hex from this radius up, where a tile holds few hexes
GRID_PATH_MIN_HEX_PX = 20.0
#: offset labels and elevation numbers from this on-screen hex radius up
LABEL_MIN_HEX_PX = 50.0
#: an edit touching more hexes than this drops every tile (a flood fill of the map)
BULK_EDIT_HEXES = 2000


def bucket_index(scale: float) -> int:
    """The zoom bucket whose scale is nearest ``scale``."""
    return round(math.log(max(scale, 1e-6), ZOOM_BASE))


def bucket_scale(k: int) -> float:
    return ZOOM_BASE**k


class TiledLayer:
    """Square pixmap tiles of a layer, rendered once per zoom bucket and kept in an
    LRU cache; :meth:`paint` blits those covering the exposed rectangle."""

    def __init__(self, frame: MapFrame, max_tiles: int = MAX_TILES) -> None:
        self.frame = frame
        self.max_tiles = max_tiles
        self._tiles: OrderedDict[tuple[int, int, int], QPixmap | None] = OrderedDict()
        self.tiles_rendered = 0  # for the benchmark and tests

    def clear(self) -> None:
        self._tiles.clear()

    def invalidate_rect(self, area: QRectF) -> None:
        """Forget the tiles touching the scene rectangle ``area``."""
        for key in list(self._tiles):
            if self.tile_rect(*key).intersects(area):
                del self._tiles[key]

    def tile_rect(self, k: int, tx: int, ty: int) -> QRectF:
        b = bucket_scale(k)
        return QRectF(tx * TILE / b, ty * TILE / b, TILE / b, TILE / b)

    def tile(self, k: int, tx: int, ty: int) -> QPixmap | None:
        key = (k, tx, ty)
        if key in self._tiles:
            self._tiles.move_to_end(key)
            return self._tiles[key]
        self.tiles_rendered += 1
        pm = self._render_tile(k, tx, ty)
        self._tiles[key] = pm
        if len(self._tiles) > self.max_tiles:
            self._tiles.popitem(last=False)
        return pm

    @property
    def cached_tiles(self) -> int:
        return len(self._tiles)

    def _render_tile(self, k: int, tx: int, ty: int) -> QPixmap | None:
        """The tile's pixmap, or None when the tile is empty (nothing to draw)."""
        raise NotImplementedError

    def covers(self, painter: QPainter) -> bool:
        """Whether :meth:`paint` with this painter covers the exposed rectangle with
        opaque pixels (then nothing needs drawing under it)."""
        return False

    def paint(self, painter: QPainter, exposed: QRectF) -> None:
        """Draw the tiles covering the scene rectangle ``exposed``.

        ``painter`` carries the view transform (scale and translation only).
        """
        t = painter.worldTransform()
        scale = t.m11()
        k = bucket_index(scale)
        b = bucket_scale(k)
        tx0 = math.floor(exposed.left() * b / TILE)
        tx1 = math.floor(exposed.right() * b / TILE)
        ty0 = math.floor(exposed.top() * b / TILE)
        ty1 = math.floor(exposed.bottom() * b / TILE)
        painter.save()
        exact = abs(scale / b - 1.0) < 1e-6
        if exact:
            ox, oy = round(t.m31()), round(t.m32())
            painter.setWorldTransform(QTransform())
            for ty in range(ty0, ty1 + 1):
                for tx in range(tx0, tx1 + 1):
                    pm = self.tile(k, tx, ty)
                    if pm is not None:
                        painter.drawPixmap(tx * TILE + ox, ty * TILE + oy, pm)
        else:
            f = scale / b
            painter.setWorldTransform(QTransform(f, 0, 0, f, t.m31(), t.m32()))
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            for ty in range(ty0, ty1 + 1):
                for tx in range(tx0, tx1 + 1):
                    pm = self.tile(k, tx, ty)
                    if pm is not None:
                        painter.drawPixmap(QPointF(tx * TILE, ty * TILE), pm)
        painter.restore()


class GridPainter(TiledLayer):
    """Renders and caches the grid tiles of one map."""

    def __init__(self, frame: MapFrame) -> None:
        super().__init__(frame)
        self._brick: tuple[QImage, QRectF] | None = None
        self._patterns: dict[int, QBrush] = {}
        self._half_outline: QPainterPath | None = None
        self.transparent_ground = False  # True when a background image shows through
        self.show_grid = True
        self.show_labels = True
        #: False draws every hex as open ground (the editor's "terrain" layer hidden)
        self.show_terrain = True
        #: what the tiles show: (cols, rows, terrain rows, elevation rows or None)
        self._seen: tuple[int, int, list[str], list[list[int]] | None] | None = None
        #: far-zoom sampling: (the hex index of every sample, nx, ny, target rect,
        #: step in map units) and the ARGB colour of every hex
        self._sample: tuple | None = None
        self._colours: np.ndarray | None = None
        self._snapshot()

    def covers(self, painter: QPainter) -> bool:
        # every tile position has a tile (off the map too), opaque unless a picture
        # shows through; blitted 1:1 they leave no seam. A painter of its own (paper)
        # says nothing.
        if self.transparent_ground or type(self).paint is not TiledLayer.paint:
            return False
        scale = painter.worldTransform().m11()
        return abs(scale / bucket_scale(bucket_index(scale)) - 1.0) < 1e-6

    def reset(self) -> None:
        """Forget everything: tiles and the far-zoom ground image (new map, new
        terrain, a background picture switching the ground transparent)."""
        super().clear()
        self._brick = None
        self._sample = None
        self._colours = None
        self._snapshot()

    def prepare(self) -> None:
        """Build the far-zoom ground image ahead of need (called when idle)."""
        self._ground_image()

    def invalidate(self, hexes: Iterable[Hex] | None = None) -> None:
        """Forget the tiles touching ``hexes``; without ``hexes``, those touching the
        hexes whose terrain or elevation changed since they were drawn (everything
        when the map's size changed)."""
        if hexes is None:
            cells = self._changed_cells()
            if cells is None:
                self.reset()
                return
            o = self.frame.orientation
            hexes = [offset_to_hex(c, r, o) for c, r in cells]
        else:
            hexes = list(hexes)
            cells = [self.frame.offset(h) for h in hexes]
            self._note_seen(cells)
        if not hexes:
            return
        self._drop_tiles(hexes)
        self._recolour(cells)

    # -- what changed ------------------------------------------------------------------

    def _snapshot(self) -> None:
        m = self.frame.map
        elev = [list(r) for r in m.elevation] if m.elevation is not None else None
        self._seen = (m.cols, m.rows, list(m.terrain), elev)

    def _changed_cells(self) -> list[tuple[int, int]] | None:
        """Cells whose terrain or elevation differ from what the tiles show (and the
        copy brought up to date); None when the map's size changed."""
        m = self.frame.map
        if self._seen is None:
            self._snapshot()
            return None
        cols, rows, terrain, elev = self._seen
        if (cols, rows) != (m.cols, m.rows):
            self._snapshot()
            return None
        out: set[tuple[int, int]] = set()
        for r in range(rows):
            a, b = terrain[r], m.terrain[r]
            if a != b:
                out.update((c, r) for c in range(cols) if a[c] != b[c])
                terrain[r] = b
        me = m.elevation
        if me is not None or elev is not None:
            zero = [0] * cols
            if elev is None:
                elev = [list(zero) for _ in range(rows)]
            for r in range(rows):
                shown = elev[r]
                now = me[r] if me is not None else zero
                if shown != now:
                    out.update((c, r) for c in range(cols) if shown[c] != now[c])
                    elev[r] = list(now)
            self._seen = (cols, rows, terrain, elev)
        return sorted(out)

    def _note_seen(self, cells: list[tuple[int, int]]) -> None:
        """The tiles of these cells are redrawn: they now show the map's values."""
        m = self.frame.map
        if self._seen is None or (self._seen[0], self._seen[1]) != (m.cols, m.rows):
            self._snapshot()
            return
        cols, rows, terrain, elev = self._seen
        for r in {r for _c, r in cells}:
            if 0 <= r < rows:
                terrain[r] = m.terrain[r]
                if m.elevation is not None:
                    if elev is None:
                        elev = [[0] * cols for _ in range(rows)]
                    elev[r] = list(m.elevation[r])
                elif elev is not None:
                    elev[r] = [0] * cols
        self._seen = (cols, rows, terrain, elev)

    def _drop_tiles(self, hexes: list[Hex]) -> None:
        """Forget the cached tiles (of every zoom bucket) under these hexes."""
        self._brick = None
        if not self._tiles:
            return
        if len(hexes) > BULK_EDIT_HEXES:
            self._tiles.clear()
            return
        fr = self.frame
        s = fr.unit
        lay = fr.layout
        centres = [lay.hex_to_pixel(h) for h in hexes]
        drop: set[tuple[int, int, int]] = set()
        for k in {key[0] for key in self._tiles}:
            b = bucket_scale(k)
            pad = s + 2.0 / b  # the hex's box and two device pixels of antialiasing
            f = b / TILE
            for x, y in centres:
                for tx in range(math.floor((x - pad) * f), math.floor((x + pad) * f) + 1):
                    for ty in range(math.floor((y - pad) * f), math.floor((y + pad) * f) + 1):
                        drop.add((k, tx, ty))
        for key in drop:
            self._tiles.pop(key, None)

    def _recolour(self, cells: list[tuple[int, int]]) -> None:
        """Bring the far-zoom colours of these cells up to date."""
        self._brick = None
        if self._colours is None:
            return
        if len(cells) > BULK_EDIT_HEXES:
            self._colours = None  # cheaper to colour the whole map again with numpy
            return
        m = self.frame.map
        elev = m.elevation
        known: dict[tuple[str, int], int] = {}
        for c, r in cells:
            if 0 <= r < m.rows and 0 <= c < m.cols:
                key = (m.terrain[r][c], elev[r][c] if elev is not None else 0)
                argb = known.get(key)
                if argb is None:
                    argb = known[key] = self._colour_of(*key)
                self._colours[r, c] = argb

    def _render_tile(self, k: int, tx: int, ty: int) -> QPixmap:
        fr = self.frame
        b = bucket_scale(k)
        rect = self.tile_rect(k, tx, ty)
        # opaque tiles (no picture under the ground) are blitted as plain copies
        fmt = (
            QImage.Format.Format_ARGB32_Premultiplied
            if self.transparent_ground
            else QImage.Format.Format_RGB32
        )
        img = QImage(TILE, TILE, fmt)
        img.fill(style.OFF_MAP)
        bounds = fr.bounds()
        if not rect.intersects(bounds):
            return QPixmap.fromImage(img)
        p = QPainter(img)
        p.setTransform(QTransform(b, 0, 0, b, -tx * TILE, -ty * TILE))
        outline = fr.outline()
        inner = bounds.adjusted(fr.unit * 2, fr.unit * 2, -fr.unit * 2, -fr.unit * 2)
        clipped = not inner.contains(rect)
        if clipped:
            p.setClipPath(outline)
        if self.transparent_ground:
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
            p.fillRect(rect, Qt.GlobalColor.transparent)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
        else:
            p.fillRect(rect, style.GROUND)
        hex_px = fr.unit * b
        if not self.show_terrain:
            pass
        elif hex_px < LOD_HEX_PX:
            self._paint_brick(p, rect, hex_px)
        else:
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            self._paint_hexes(p, rect, hex_px)
        if self.show_grid and hex_px >= GRID_PATH_MIN_HEX_PX:
            self._paint_grid_lines(p, rect)
        elif self.show_grid and hex_px >= GRID_MIN_HEX_PX:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.fillRect(rect, self._pattern(k))
        if self.show_labels and hex_px >= LABEL_MIN_HEX_PX:
            self._paint_labels(p, rect, hex_px)
        if clipped:
            p.setClipping(False)
            p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            pen = QPen(style.MAP_EDGE, 2.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(outline)
        p.end()
        return QPixmap.fromImage(img)

    def _paint_hexes(self, p: QPainter, rect: QRectF, hex_px: float) -> None:
        """Fill the hexes that differ from open level ground, one colour at a time."""
        fr = self.frame
        m = fr.map
        c0, c1, r0, r1 = fr.offset_range(rect)
        elev = m.elevation
        o = fr.orientation
        lay = fr.layout
        groups: dict[tuple[str, int], list[tuple[float, float]]] = {}
        for row in range(r0, r1 + 1):
            line = m.terrain[row][c0 : c1 + 1]
            erow = elev[row][c0 : c1 + 1] if elev is not None else None
            if line.count(".") == len(line) and (erow is None or not any(erow)):
                continue
            for i, code in enumerate(line):
                e = erow[i] if erow is not None else 0
                if code == "." and not e:
                    continue
                groups.setdefault((code, e), []).append(
                    lay.hex_to_pixel(offset_to_hex(c0 + i, row, o))
                )
        if not groups:
            return
        tpl = fr.polygon(Hex(0, 0))
        p.setPen(Qt.PenStyle.NoPen)
        for (code, e), centres in groups.items():
            p.setBrush(style.terrain_colour(CODE_TERRAIN[code], e))
            for cx, cy in centres:
                p.drawPolygon(tpl.translated(cx, cy))

    def _paint_grid_lines(self, p: QPainter, rect: QRectF) -> None:
        """Grid lines hex by hex (few hexes per tile when zoomed in): three sides of
        every hex, which together draw each shared side exactly once."""
        fr = self.frame
        if self._half_outline is None:
            c = fr._corners
            half = QPainterPath(QPointF(*c[0]))
            for i in (1, 2, 3):
                half.lineTo(QPointF(*c[i]))
            self._half_outline = half
        tpl = self._half_outline
        lay = fr.layout
        path = QPainterPath()
        for h in fr.hexes_in(rect):
            cx, cy = lay.hex_to_pixel(h)
            path.addPath(tpl.translated(cx, cy))
        pen = QPen(style.GRID_LINE, 1.0)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)

    def _paint_labels(self, p: QPainter, rect: QRectF, hex_px: float) -> None:
        fr = self.frame
        m = fr.map
        font = QFont()
        font.setPixelSize(max(7, int(hex_px * 0.22)))
        p.save()
        p.setWorldTransform(QTransform())  # text in device pixels
        p.setFont(font)
        elev = m.elevation
        s = fr.unit
        for h in fr.hexes_in(rect):
            cx, cy = fr.center_xy(h)
            dx = (cx - rect.left()) * hex_px / s
            dy = (cy - rect.top()) * hex_px / s
            p.setPen(QColor(110, 96, 74, 170))
            label = fr.label(h)
            p.drawText(
                QRectF(dx - hex_px, dy - hex_px * 0.82, 2 * hex_px, hex_px * 0.4),
                Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                label,
            )
            if elev is not None:
                col, row = fr.offset(h)
                e = elev[row][col]
                if e:
                    p.setPen(QColor(60, 40, 20, 220))
                    p.drawText(
                        QRectF(dx - hex_px, dy + hex_px * 0.42, 2 * hex_px, hex_px * 0.4),
                        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                        f"{e:+d}",
                    )
        p.restore()

    def _paint_brick(self, p: QPainter, rect: QRectF, hex_px: float) -> None:
        img, target = self._ground_image()
        assert self._sample is not None  # taken by _ground_image
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        if self._sample[4] * hex_px <= GROUND_COARSE_PX:
            p.drawImage(target, img)
            return
        # zoomed in past the image's resolution (a big map): sample this tile alone
        fr = self.frame
        u = fr.unit
        n = max(1, math.ceil(TILE / GROUND_TILE_PX))
        tile_step = rect.width() / u / n
        xs = rect.left() / u + (np.arange(n) + 0.5) * tile_step
        ys = rect.top() / u + (np.arange(n) + 0.5) * tile_step
        index = self._hex_index(xs, ys)
        out = self._colours_at(index)
        tile_img = QImage(out.data, n, n, n * 4, QImage.Format.Format_ARGB32)
        p.drawImage(rect, tile_img)

    def _ground_image(self) -> tuple[QImage, QRectF]:
        """The whole map's terrain as one image sampled every :data:`GROUND_SAMPLE`
        map units (coarser on a map so big it would exceed :data:`MAX_GROUND_SAMPLES`),
        each sample taking the colour of the hex holding it (found through the layout's
        own pixel→hex matrix), and where it goes in scene units.

        Built once (a few tens of ms on a 200×200 map) and kept until the terrain
        changes; far zooms draw it scaled instead of tens of thousands of hexes."""
        if self._brick is not None:
            return self._brick
        if self._sample is None:
            self._sample = self._sample_grid()
        index, nx, ny, target, _step = self._sample
        out = self._colours_at(index)
        img = QImage(out.data, nx, ny, nx * 4, QImage.Format.Format_ARGB32).copy()
        self._brick = (img, target)
        return self._brick

    def _colours_at(self, index: np.ndarray) -> np.ndarray:
        """ARGB of the hexes at flat indices ``index`` (-1: off the map, transparent)."""
        if self._colours is None:
            self._colours = self._hex_colours()
        flat = self._colours.ravel()
        out = np.zeros(index.shape, dtype=np.uint32)
        on = index >= 0
        out[on] = flat[index[on]]
        return out

    def _sample_grid(self) -> tuple:
        """Which hex each far-zoom sample falls in (kept while the map's shape stays)."""
        fr = self.frame
        u = fr.unit
        b = fr.bounds()
        x0, y0 = b.left() / u, b.top() / u
        w, h = b.width() / u, b.height() / u
        fine = GROUND_COARSE_PX / LOD_HEX_PX  # fine enough for every far zoom
        if w * h / fine**2 <= min(SMALL_MAP_SAMPLES, MAX_GROUND_SAMPLES):
            step = fine  # a small map: no tile ever samples its own ground
        else:
            step = max(GROUND_SAMPLE, math.sqrt(w * h / MAX_GROUND_SAMPLES))
        nx = max(1, int(np.ceil(w / step)))
        ny = max(1, int(np.ceil(h / step)))
        xs = x0 + (np.arange(nx) + 0.5) * step
        ys = y0 + (np.arange(ny) + 0.5) * step
        target = QRectF(x0 * u, y0 * u, nx * step * u, ny * step * u)
        return (self._hex_index(xs, ys), nx, ny, target, step)

    def _hex_index(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """``(len(ys), len(xs))`` int32: the flat index ``row * cols + col`` of the hex
        under each point of the grid ``xs × ys`` (map units), -1 off the map; worked
        out a few rows at a time so the temporaries stay small."""
        m = self.frame.map
        out = np.empty((len(ys), len(xs)), dtype=np.int32)
        rows_per = max(1, SAMPLE_CHUNK // max(1, len(xs)))
        for i in range(0, len(ys), rows_per):
            px, py = np.meshgrid(xs, ys[i : i + rows_per])
            col, row, inside = offsets_at(m, px, py)
            out[i : i + rows_per] = np.where(inside, row * m.cols + col, -1)
        return out

    def _colour_of(self, code: str, elevation: int) -> int:
        if self.transparent_ground and code == "." and not elevation:
            return 0
        return style.terrain_colour(CODE_TERRAIN[code], int(elevation)).rgba() & 0xFFFFFFFF

    def _hex_colours(self) -> np.ndarray:
        """ARGB colour of every hex (rows × cols), open level ground transparent when
        a background picture shows through."""
        m = self.frame.map
        text = "".join(m.terrain).encode("latin-1")
        codes = np.frombuffer(text, dtype=np.uint8).reshape(m.rows, m.cols).astype(np.int64)
        elev = (
            np.array(m.elevation, dtype=np.int64)
            if m.elevation is not None
            else np.zeros((m.rows, m.cols), dtype=np.int64)
        )
        low = int(elev.min()) if elev.size else 0
        keys = (elev - low) * 256 + codes
        lut = np.zeros(int(keys.max()) + 1 if keys.size else 1, dtype=np.uint32)
        for k in np.flatnonzero(np.bincount(keys.ravel(), minlength=len(lut))).tolist():
            lut[k] = self._colour_of(chr(k % 256), k // 256 + low)
        return lut[keys]

    def _pattern(self, k: int) -> QBrush:
        """A texture brush holding one period of the grid lines at bucket ``k``."""
        br = self._patterns.get(k)
        if br is not None:
            return br
        fr = self.frame
        b = bucket_scale(k)
        w, s = fr.hex_width, fr.unit
        if fr.orientation is Orientation.POINTY:
            cw, ch = w, 3 * s
        else:
            cw, ch = 3 * s, w
        pw, ph = max(2, round(cw * b)), max(2, round(ch * b))
        img = QImage(pw, ph, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(Qt.GlobalColor.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        # the cell starts a quarter period off the lattice so no hexside lies on its edge
        ox, oy = cw / 4, ch / 12
        p.setTransform(QTransform(pw / cw, 0, 0, ph / ch, 0, 0))
        pen = QPen(style.GRID_LINE, 1.0)
        pen.setCosmetic(True)
        p.setPen(pen)
        lay = fr.layout
        for r in range(-3, 5):
            for q in range(-5, 6):
                h = Hex(q, r)
                cx, cy = lay.hex_to_pixel(h)
                cx -= ox
                cy -= oy
                if -2 * s <= cx <= cw + 2 * s and -2 * s <= cy <= ch + 2 * s:
                    pts = [QPointF(cx + dx, cy + dy) for dx, dy in fr._corners]
                    for i in range(6):
                        p.drawLine(pts[i], pts[(i + 1) % 6])
        p.end()
        br = QBrush(QPixmap.fromImage(img))
        br.setTransform(QTransform(cw / pw, 0, 0, ch / ph, ox, oy))
        self._patterns[k] = br
        return br
