"""Fast fog of war: one visibility polygon per viewer, laid over the hex grid at once.

:func:`twtw_desktop.geometry.sight.visible_hexes` answers "which hexes can the posse
see" with a sight line per sample point (a hex's centre and its six pulled-in
corners, "any part of the hex"). That is exact but costs one shapely query per point
and viewer. :func:`fast_visible_hexes` gives the *same answer* much faster:

1. **The walls, noded once** (cached per wall-index version): every sight-blocking
   segment, split where segments cross, so no two pieces cross inside.
2. **One visibility polygon per viewer** — the angular sweep of Red Blob Games'
   "2D visibility": the angles of every segment end, seen from the viewer, cut the
   full turn into wedges; no segment starts, ends or crosses another inside a wedge,
   so the segment nearest the viewer at the wedge's middle is nearest across the
   whole wedge (found for all wedges in one vectorised pass). A box just outside the
   map closes every wedge. Along each cutting ray the polygon dips to the nearest
   thing touching that ray (a wall end), so a wall pointing straight at the viewer
   still casts its one-line shadow.
3. **The polygon over the grid in one pass per sample kind** — the centres (and each
   of the six corner kinds) of a map row lie on one horizontal line at a fixed
   spacing, so the polygon is rasterised scan-line fashion: its edges' crossings of
   every row line toggle a parity array whose running sum is "inside" for every
   sample at once.
4. **Exact where it is close**: a sample within a hair (:data:`EPS`) of the polygon's
   edge — a sight line grazing a wall end, a sample on a wall — is decided by the
   same exact sight line as before (touching blocks). So the two methods agree on
   every hex, not only nearly (the tests check the sample maps hex by hex).

A viewer standing on a wall line, or a map the sweep cannot handle, falls back to
the exact method for that viewer. No Qt here: the players' screen runs this in a
worker thread.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import shapely

from ..hexgrid import Hex, Layout, Orientation, hex_to_offset
from ..model.map import Map
from .sight import SAMPLE_INSET, map_hex_arrays
from .walls import WallIndex

#: samples closer than this (map units) to the polygon's edge are checked exactly
EPS = 1e-6
#: the closing box lies this far (map units) outside the map's hexes
BOX_MARGIN = 8.0
TWO_PI = 2.0 * math.pi


@dataclass(frozen=True, eq=False)
class SightSnapshot:
    """What the fog needs of a map and its walls, frozen: safe to hand to a worker
    thread while the Judge goes on editing (the wall index replaces its sight
    geometry on every change rather than altering it)."""

    cols: int
    rows: int
    orientation: Orientation
    hex_layout: Layout
    #: every sight-blocking segment as one shapely geometry (None: no walls)
    sight: shapely.MultiLineString | None
    #: the wall index's version when taken
    version: int = 0
    _noded: list = field(default_factory=list, repr=False)
    _key: list = field(default_factory=list, repr=False)

    @classmethod
    def of(cls, game_map: Map, index: WallIndex) -> SightSnapshot:
        return cls(
            game_map.cols,
            game_map.rows,
            game_map.orientation,
            index.layout,
            index.sight_lines(),
            index.version,
        )

    @property
    def key(self) -> tuple:
        """Equal for two snapshots of the same grid and the same sight-blocking
        segments (a rebuilt index of unchanged walls keeps its key), so sights
        worked out for one hold for the other."""
        if not self._key:
            coords = (
                shapely.get_coordinates(self.sight).tobytes() if self.sight is not None else b""
            )
            self._key.append(
                (self.rows, self.cols, self.orientation.value, hashlib.blake2b(coords).digest())
            )
        return self._key[0]

    def layout(self) -> Layout:
        return self.hex_layout

    def contains(self, h: Hex) -> bool:
        col, row = hex_to_offset(h, self.orientation)
        return 0 <= col < self.cols and 0 <= row < self.rows

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.hex_layout.hex_to_pixel(h)

    def blocks_sight_many(self, a_xy: np.ndarray, b_xy: np.ndarray) -> np.ndarray:
        """Exact sight lines (touching blocks), as ``WallIndex.blocks_sight_many``."""
        a_xy, b_xy = np.broadcast_arrays(np.asarray(a_xy, float), np.asarray(b_xy, float))
        if self.sight is None or len(b_xy) == 0:
            return np.zeros(len(b_xy), dtype=bool)
        lines = shapely.linestrings(np.stack([a_xy, b_xy], 1))
        return shapely.intersects(self.sight, lines)  # type: ignore[return-value]  # stubs: array in, array out

    def segments(self) -> np.ndarray:
        """The sight-blocking segments, noded (split where they cross), ``(n, 2, 2)``;
        worked out once per snapshot."""
        if not self._noded:
            self._noded.append(_noded_segments(self.sight))
        return self._noded[0]


def _noded_segments(geom: shapely.Geometry | None) -> np.ndarray:
    if geom is None:
        return np.empty((0, 2, 2))
    out = []
    for part in shapely.get_parts(shapely.node(geom)):
        c = shapely.get_coordinates(part)
        if len(c) >= 2:
            out.append(np.stack([c[:-1], c[1:]], axis=1))
    if not out:
        return np.empty((0, 2, 2))
    segs = np.concatenate(out)
    return segs[np.any(segs[:, 0] != segs[:, 1], axis=1)]


def sight_segments(index: WallIndex) -> np.ndarray:
    """The sight-blocking segments of ``index``, noded, cached until the index
    changes."""
    return index.memo(("fog_sight_segments",), lambda: _noded_segments(index.sight_lines()))


def snapshot(game_map: Map, index: WallIndex) -> SightSnapshot:
    """A :class:`SightSnapshot` sharing the index's cached noded walls."""
    snap = SightSnapshot.of(game_map, index)
    snap._noded.append(sight_segments(index))
    return snap


def visibility_polygon(
    segs: np.ndarray, viewer: tuple[float, float], box: tuple[float, float, float, float]
) -> np.ndarray | None:
    """The visibility polygon around ``viewer`` (absolute coordinates, ``(k, 2)``,
    counter-clockwise in angle order, not closed), or None when the viewer touches a
    segment (the caller then uses the exact method)."""
    vx, vy = viewer
    x0, y0, x1, y1 = box
    boxsegs = np.array(
        [
            [[x0, y0], [x1, y0]],
            [[x1, y0], [x1, y1]],
            [[x1, y1], [x0, y1]],
            [[x0, y1], [x0, y0]],
        ],
        dtype=float,
    )
    s = np.concatenate([segs, boxsegs]) - np.array([vx, vy])
    p, q = s[:, 0], s[:, 1]
    d = q - p
    # a viewer touching a segment: the sweep has no room, let the exact test decide
    ll = np.einsum("ij,ij->i", d, d)
    t = np.clip(-np.einsum("ij,ij->i", p, d) / np.where(ll > 0, ll, 1.0), 0.0, 1.0)
    near = np.hypot(p[:, 0] + t * d[:, 0], p[:, 1] + t * d[:, 1])
    if np.any(near[: len(segs)] < EPS * 10):
        return None
    # split the segments crossing the ray at angle 0 (positive x axis)
    cross0 = (np.sign(p[:, 1]) * np.sign(q[:, 1]) < 0) & (
        p[:, 0] - p[:, 1] * d[:, 0] / np.where(d[:, 1] != 0, d[:, 1], 1.0) > 0
    )
    if np.any(cross0):
        a, b = p[cross0], q[cross0]
        dd = b - a
        xc = a[:, 0] - a[:, 1] * dd[:, 0] / dd[:, 1]
        c = np.column_stack([xc, np.zeros_like(xc)])
        p = np.concatenate([p[~cross0], a, c])
        q = np.concatenate([q[~cross0], c, b])
    ta = np.mod(np.arctan2(p[:, 1], p[:, 0]), TWO_PI)
    tb = np.mod(np.arctan2(q[:, 1], q[:, 0]), TWO_PI)
    # an end exactly on the 0 ray belongs to 2π when the segment lies below the axis
    wrap = np.abs(ta - tb) > math.pi
    if np.any(wrap):
        ta, tb = np.where(wrap & (ta < tb), TWO_PI, ta), np.where(wrap & (tb < ta), TWO_PI, tb)
    lo, hi = np.minimum(ta, tb), np.maximum(ta, tb)
    angles = np.unique(np.concatenate([lo, hi, [0.0, TWO_PI]]))
    m = len(angles) - 1  # wedges
    ilo = np.searchsorted(angles, lo)
    ihi = np.searchsorted(angles, hi)
    span = ihi - ilo
    seg_of = np.repeat(np.arange(len(p)), span)
    starts = np.repeat(ilo - np.cumsum(span) + span, span)
    wedge = starts + np.arange(len(seg_of))
    mid = 0.5 * (angles[wedge] + angles[wedge + 1])
    pp, dd = p[seg_of], q[seg_of] - p[seg_of]
    ux, uy = np.cos(mid), np.sin(mid)
    num = pp[:, 0] * dd[:, 1] - pp[:, 1] * dd[:, 0]
    den = ux * dd[:, 1] - uy * dd[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        dist = np.where(np.abs(den) > 1e-15, num / den, np.inf)
    order = np.lexsort((dist, wedge))
    w_sorted = wedge[order]
    first = np.flatnonzero(np.diff(w_sorted, prepend=-1))
    if len(first) != m:  # a wedge with nothing in front of it: not expected with the box
        return None
    nearest = seg_of[order[first]]
    np_, nd = p[nearest], q[nearest] - p[nearest]
    nnum = np_[:, 0] * nd[:, 1] - np_[:, 1] * nd[:, 0]

    def hit(theta: np.ndarray) -> np.ndarray:
        c, s_ = np.cos(theta), np.sin(theta)
        return nnum / (c * nd[:, 1] - s_ * nd[:, 0])

    t_start = hit(angles[:-1])  # each wedge's near wall at its two bounding rays
    t_end = hit(angles[1:])
    # on each cutting ray: the nearest thing touching it (a wall end may be nearer
    # than both neighbouring wedges' walls)
    ends_hi = np.hypot(q[:, 0], q[:, 1])
    ends_lo = np.hypot(p[:, 0], p[:, 1])
    # the end at angle lo / hi of each segment
    d_lo = np.where(ta <= tb, ends_lo, ends_hi)
    d_hi = np.where(ta <= tb, ends_hi, ends_lo)
    ray = np.full(m + 1, np.inf)
    ray[:-1] = t_start
    ray[1:] = np.minimum(ray[1:], t_end)
    np.minimum.at(ray, ilo, d_lo)
    np.minimum.at(ray, ihi, d_hi)
    ray[0] = ray[-1] = min(ray[0], ray[-1])
    # vertices: for each cutting ray k (0..m-1): the end of wedge k-1, the ray's own
    # nearest point, the start of wedge k
    prev_end = np.roll(t_end, 1)
    rad = np.stack([prev_end, ray[:-1], t_start], axis=1).ravel()
    ang = np.repeat(angles[:-1], 3)
    return np.column_stack([vx + rad * np.cos(ang), vy + rad * np.sin(ang)])


def _scan_inside(
    poly: np.ndarray, level0: float, step: float, nlines: int, x0: np.ndarray, w: float, npts: int
) -> tuple[np.ndarray, np.ndarray]:
    """Rasterise a closed polygon (coordinates with y along the lines' normal) over
    a regular grid of sample points: line ``i`` lies at ``level0 + i*step`` and holds
    ``npts`` samples at ``x0[i] + j*w``. Returns ``(inside, unsure)`` boolean arrays
    of shape ``(nlines, npts)``; ``unsure`` samples lie within :data:`EPS` of an edge."""
    ax, ay = poly[:, 0], poly[:, 1]
    bx, by = np.roll(ax, -1), np.roll(ay, -1)
    ylo, yhi = np.minimum(ay, by), np.maximum(ay, by)
    # lines crossed (half-open in y): level in [ylo, yhi)
    i0 = np.ceil((ylo - level0) / step).astype(np.int64)
    i1 = np.ceil((yhi - level0) / step).astype(np.int64)  # exclusive
    i0 = np.clip(i0, 0, nlines)
    i1 = np.clip(i1, 0, nlines)
    n = np.maximum(i1 - i0, 0)
    inside = np.zeros((nlines, npts + 1), dtype=np.int8)
    unsure = np.zeros((nlines, npts), dtype=bool)
    if n.sum():
        e = np.repeat(np.arange(len(ax)), n)
        line = np.repeat(i0 - np.cumsum(n) + n, n) + np.arange(len(e))
        lev = level0 + line * step
        frac = (lev - ay[e]) / (by[e] - ay[e])
        x = ax[e] + frac * (bx[e] - ax[e])
        col = (x - x0[line]) / w
        j = np.clip(np.ceil(col), 0, npts).astype(np.int64)
        np.add.at(inside, (line, j), 1)
        near = np.abs(col - np.round(col)) * w < EPS
        jr = np.round(col[near]).astype(np.int64)
        ok = (jr >= 0) & (jr < npts)
        unsure[line[near][ok], jr[ok]] = True
    # vertices and horizontal edges lying on a line: every sample they touch is unsure
    on = np.abs((ay - level0) / step - np.round((ay - level0) / step)) * step < EPS
    if np.any(on):
        li = np.round((ay[on] - level0) / step).astype(np.int64)
        good = (li >= 0) & (li < nlines)
        li, xa = li[good], ax[on][good]
        flat = np.abs(by[on][good] - ay[on][good]) < EPS
        xb = np.where(flat, bx[on][good], xa)
        c0 = np.floor((np.minimum(xa, xb) - x0[li]) / w - EPS).astype(np.int64)
        c1 = np.ceil((np.maximum(xa, xb) - x0[li]) / w + EPS).astype(np.int64)
        for a, b, ln in zip(np.clip(c0, 0, npts), np.clip(c1 + 1, 0, npts), li, strict=True):
            unsure[ln, a:b] = True
    parity = np.cumsum(inside[:, :npts], axis=1) & 1
    return parity.astype(bool), unsure


def fast_visible_mask(
    game_map: Map, index: WallIndex, viewers: Iterable[Hex], *, max_range: int | None = None
) -> np.ndarray:
    """Which hexes at least one viewer sees, as a ``(rows, cols)`` boolean array in
    offset coordinates — the same answer as ``visible_hexes(..., any_part=True)``
    (module docstring)."""
    return visible_mask(snapshot(game_map, index), viewers, max_range=max_range)


def visible_mask(
    snap: SightSnapshot, viewers: Iterable[Hex], *, max_range: int | None = None
) -> np.ndarray:
    """:func:`fast_visible_mask` on a :class:`SightSnapshot` (thread-safe)."""
    rows, cols = snap.rows, snap.cols
    hexes = map_hex_arrays(snap)  # type: ignore[arg-type]  # the snapshot has the map's shape fields
    xy = hexes.xy.reshape(rows, cols, 2)
    seen = np.zeros((rows, cols), dtype=bool)
    viewer_list = [v for v in viewers if snap.contains(v)]
    if not viewer_list:
        return seen
    segs = snap.segments()
    pointy = snap.orientation.value == "pointy"
    lay = snap.hex_layout
    offsets = [(0.0, 0.0)] + [
        tuple(c * SAMPLE_INSET for c in lay.corner_offset(i)) for i in range(6)
    ]
    # work in "scan" coordinates: lines along x with y as the level (flat maps swap)
    if pointy:
        grid = xy
    else:
        grid = xy.transpose(1, 0, 2)[:, :, ::-1]
        offsets = [(oy, ox) for ox, oy in offsets]
        seen = seen.T.copy()
    nlines, npts = grid.shape[0], grid.shape[1]
    level0 = grid[0, 0, 1]
    step = (grid[1, 0, 1] - grid[0, 0, 1]) if nlines > 1 else 1.0
    w = (grid[0, 1, 0] - grid[0, 0, 0]) if npts > 1 else 1.0
    allxy = hexes.xy
    box = (
        allxy[:, 0].min() - BOX_MARGIN,
        allxy[:, 1].min() - BOX_MARGIN,
        allxy[:, 0].max() + BOX_MARGIN,
        allxy[:, 1].max() + BOX_MARGIN,
    )
    for v in viewer_list:
        vxy = np.array(snap.centre(v))
        if len(segs) == 0:
            seen[:] = True
            break
        poly = visibility_polygon(segs, tuple(vxy), box)
        spoly = None if poly is None else (poly if pointy else poly[:, ::-1])
        for ox, oy in offsets:
            todo = ~seen
            if not todo.any():
                break
            if spoly is None:  # the viewer stands (nearly) on a wall: every sample exactly
                check = todo
            else:
                inside, unsure = _scan_inside(
                    spoly, level0 + oy, step, nlines, grid[:, 0, 0] + ox, w, npts
                )
                seen |= inside & ~unsure
                check = unsure & ~seen
            if check.any():
                li, pj = np.nonzero(check)
                pts = grid[li, pj] + np.array([ox, oy])
                if not pointy:
                    pts = pts[:, ::-1]
                clear = ~snap.blocks_sight_many(vxy, pts)
                seen[li[clear], pj[clear]] = True
    if not pointy:
        seen = seen.T.copy()
    if max_range is not None:
        q = hexes.q.reshape(rows, cols)
        r = hexes.r.reshape(rows, cols)
        near = np.zeros_like(seen)
        for v in viewer_list:
            dq, dr = q - v.q, r - v.r
            near |= (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 <= max_range
        seen &= near
    for v in viewer_list:  # a viewer's own hex is always seen
        c, r_ = hex_to_offset(v, snap.orientation)
        seen[r_, c] = True
    return seen


def fast_visible_hexes(
    game_map: Map, index: WallIndex, viewers: Iterable[Hex], *, max_range: int | None = None
) -> set[Hex]:
    """:func:`fast_visible_mask` as a set of hexes (what ``visible_hexes`` returns)."""
    mask = fast_visible_mask(game_map, index, viewers, max_range=max_range).ravel()
    hexes = map_hex_arrays(game_map)
    return {Hex(int(q), int(r)) for q, r in zip(hexes.q[mask], hexes.r[mask], strict=True)}
