"""Spatial index of a map's walls, cover, doors and windows.

A :class:`WallIndex` answers three questions the map keeps asking, fast enough to
ask them for every hex under the mouse:

* does anything opaque stand between two points (:meth:`WallIndex.blocks_sight`) —
  one prepared shapely geometry of every sight-blocking segment;
* which features does a line cross, where, and what are they made of
  (:meth:`WallIndex.crossings`) — a shapely ``STRtree`` over every wall segment,
  each segment remembering the feature it belongs to;
* can a figure step from one hex into its neighbour
  (:meth:`WallIndex.movement_blocked`) — a table of the hex-to-hex links each
  movement-blocking feature cuts, kept per feature so one edit touches only its own
  links.

Coordinates are map units (see :mod:`twtw_desktop.model.map`): hex radius 1, hex
``[0, 0]`` at the origin, neighbouring centres :data:`PACE` apart.

Touching counts as crossing: a line that grazes the end of a wall is blocked by it.
Sight lines between hex centres therefore give the same answer both ways round.

The index keeps references to the map's :class:`~twtw_desktop.model.map.Feature`
objects. After editing a feature call :meth:`WallIndex.update_feature` (or
:meth:`WallIndex.remove_feature`); after bulk changes call :meth:`WallIndex.rebuild`.
A feature's AV is read when asked, so ablation needs no rebuild.

Edits are incremental: the sight geometry and the segment tree are built for the
features as they stood at the last rebuild (the *base*); an edited or removed
feature's base segments are marked dead and its new ones kept in a small *delta*
that queries test directly. The base is rebuilt once the delta holds
:data:`DELTA_LIMIT` features, so one edit costs a few of them, not the whole map.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar, cast

import numpy as np
import shapely
from shapely import STRtree

from ..hexgrid import DIRECTIONS, Hex, Layout, neighbor_direction
from ..model.map import CoverHeight, Feature, Map, Material
from ..rules.editions import Edition

T = TypeVar("T")
#: a coordinate, or an array of them (the vectorised helpers take either)
Coord = float | np.ndarray

#: Map units per pace: the distance between neighbouring hex centres (model.map).
PACE = math.sqrt(3.0)

Point = tuple[float, float]

_TOUCH_EPS = 1e-9
#: edited features kept beside the base before the base is rebuilt
DELTA_LIMIT = 48
_NO_NAN = np.intc(0)  # shapely.lib's handle_nan "allow"


class Crossing(NamedTuple):
    """One place where a line crosses a wall, piece of cover, door or window."""

    feature_id: str
    kind: str
    material: Material
    #: the feature's AV now (edition AV less ablation, 000 Armor Penetration/Ablation)
    av: int
    height: CoverHeight
    point: Point
    #: map units from the line's start
    distance: float
    blocks_sight: bool
    blocks_movement: bool
    is_open: bool

    @property
    def paces(self) -> float:
        """Distance from the line's start in paces."""
        return self.distance / PACE

    @property
    def in_line_of_fire(self) -> bool:
        """Whether a shot along the line meets it (an open door or window lets it by)."""
        return not (self.kind in ("door", "window") and self.is_open)


def feature_segments(feature: Feature) -> np.ndarray:
    """The feature's polyline as an ``(n, 2, 2)`` array of segments (repeated points
    dropped)."""
    pts = np.asarray(feature.points, dtype=float)
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    pts = pts[keep]
    return np.stack([pts[:-1], pts[1:]], axis=1)


@dataclass(slots=True)
class _Entry:
    feature: Feature
    segs: np.ndarray  # (n, 2, 2)
    lines: np.ndarray  # shapely LineStrings, one per segment
    sight: bool
    links: frozenset[tuple[int, int, int]]
    #: what a crossing reports, read once per edit (the AV is read live)
    info: tuple


class _Segments:
    """The segments of some features as one searchable set: a tree over every
    segment, each remembering its feature, and one prepared geometry of the
    sight-blocking ones."""

    __slots__ = ("info", "lines", "sight", "sight_ids", "tree", "xy")

    def __init__(self, entries: list[_Entry]) -> None:
        seg_lists = [e.segs for e in entries if len(e.segs)]
        segs = np.concatenate(seg_lists) if seg_lists else np.empty((0, 2, 2))
        self.xy: list[list[float]] = segs.reshape(-1, 4).tolist()
        self.info: list[tuple] = [e.info for e in entries for _ in range(len(e.segs))]
        geoms = [e.lines for e in entries if len(e.lines)]
        self.lines = np.concatenate(geoms) if geoms else np.empty(0, dtype=object)
        self.tree = STRtree(self.lines)
        sight = [e.lines for e in entries if e.sight and len(e.lines)]
        self.sight_ids = {e.feature.id for e in entries if e.sight and len(e.lines)}
        if sight:
            self.sight = shapely.multilinestrings(np.concatenate(sight))
            shapely.prepare(self.sight)
        else:
            self.sight = None  # type: ignore[assignment]  # stubs: no Optional geometry

    def has_sight(self, feature_id: str) -> bool:
        return feature_id in self.sight_ids


class WallIndex:
    """Walls, cover, doors and windows of one map, indexed for sight and movement."""

    def __init__(self, game_map: Map, cover_av: Mapping[str, int] | None = None) -> None:
        self.map = game_map
        self.layout = game_map.layout()
        #: material → AV; without one every AV reads 0 (geometry-only use)
        self.cover_av: dict[str, int] = dict(cover_av) if cover_av else {}
        #: incremented on every change, so callers can cache results per version
        self.version = 0
        self._entries: dict[str, _Entry] = {}
        self._link_owners: dict[tuple[int, int, int], set[str]] = {}
        self._step_cache: tuple[int, frozenset[tuple[int, int, int]]] | None = None
        self._memo: dict[object, tuple[int, object]] = {}
        self.rebuild()

    @classmethod
    def for_edition(cls, game_map: Map, edition: Edition) -> WallIndex:
        """An index reading AVs from the edition's cover table (000 Cover Penetration)."""
        return cls(game_map, edition.cover_av)

    # -- building -------------------------------------------------------------------

    def rebuild(self) -> None:
        """Re-read every feature of the map."""
        self._entries = {}
        self._link_owners = {}
        for f in self.map.features:
            self._add(f)
        self._refresh()

    def update_feature(self, feature: Feature) -> None:
        """Re-index one added or edited feature (moved, opened, made low…)."""
        self._drop(feature.id)
        self._add(feature)
        self._edited(feature.id)

    def remove_feature(self, feature_id: str) -> None:
        """Forget a deleted feature."""
        self._drop(feature_id)
        self._edited(feature_id)

    def _add(self, f: Feature) -> None:
        segs = feature_segments(f)
        # types-shapely cannot tell an (n, 2, 2) array (an array of lines) from one line
        lines: np.ndarray = shapely.linestrings(segs) if len(segs) else np.empty(0, dtype=object)  # type: ignore[assignment]
        links = frozenset(self._cut_links(segs)) if f.blocks_movement else frozenset()
        for key in links:
            self._link_owners.setdefault(key, set()).add(f.id)
        info = (f.id, f.kind, f.material, f.height, f.blocks_sight, f.blocks_movement, f.is_open, f)
        self._entries[f.id] = _Entry(f, segs, lines, f.blocks_sight, links, info)

    def _drop(self, feature_id: str) -> None:
        old = self._entries.pop(feature_id, None)
        if old is None:
            return
        for key in old.links:
            owners = self._link_owners.get(key)
            if owners is not None:
                owners.discard(feature_id)
                if not owners:
                    del self._link_owners[key]

    def _refresh(self) -> None:
        """Rebuild the base from every feature and empty the delta."""
        entries = list(self._entries.values())
        self._base = _Segments(entries)
        self._base_ids = set(self._entries)
        #: features whose base segments no longer count (edited or removed)
        self._dead: set[str] = set()
        self._dead_sight = False
        self._delta: dict[str, _Entry] = {}
        self._delta_segs = _Segments([])
        self.version += 1

    def _edited(self, feature_id: str) -> None:
        """Move one edited feature out of the base into the delta."""
        if len(self._delta) >= DELTA_LIMIT:
            self._refresh()
            return
        if feature_id in self._base_ids and feature_id not in self._dead:
            self._dead.add(feature_id)
            self._dead_sight = self._dead_sight or self._base.has_sight(feature_id)
        entry = self._entries.get(feature_id)
        if entry is None:
            self._delta.pop(feature_id, None)
        else:
            self._delta[feature_id] = entry
        self._delta_segs = _Segments(list(self._delta.values()))
        self.version += 1

    def _cut_links(self, segs: np.ndarray) -> set[tuple[int, int, int]]:
        """Canonical hex-to-hex links ``(q, r, d)`` (d in 0..2) that ``segs`` cut.

        A link joins two neighbouring hex centres; it is cut when a segment meets it
        (touching included). Both ends of a cut link lie within one pace of the
        segment, so only the links of hexes that close are tested.
        """
        out: set[tuple[int, int, int]] = set()
        lay = self.layout
        for seg in segs:
            (ax, ay), (bx, by) = seg
            xs = (min(ax, bx) - PACE, max(ax, bx) + PACE)
            ys = (min(ay, by) - PACE, max(ay, by) + PACE)
            corners = [lay.fractional_hex(x, y) for x in xs for y in ys]
            q0 = math.floor(min(c[0] for c in corners)) - 1
            q1 = math.ceil(max(c[0] for c in corners)) + 1
            r0 = math.floor(min(c[1] for c in corners)) - 1
            r1 = math.ceil(max(c[1] for c in corners)) + 1
            grids = np.meshgrid(np.arange(q0, q1 + 1), np.arange(r0, r1 + 1), indexing="ij")
            qq, rr = (g.ravel() for g in grids)
            cx, cy = _centres(lay, qq, rr)
            near = _point_segment_distance(cx, cy, ax, ay, bx, by) <= PACE + 1e-6
            qq, rr, cx, cy = qq[near], rr[near], cx[near], cy[near]
            for d in range(3):
                dq, dr = DIRECTIONS[d].q, DIRECTIONS[d].r
                nx, ny = _centres(lay, qq + dq, rr + dr)
                hit = _segments_meet(cx, cy, nx, ny, ax, ay, bx, by)
                out.update((int(q), int(r), d) for q, r in zip(qq[hit], rr[hit], strict=True))
        return out

    # -- queries --------------------------------------------------------------------

    @property
    def features(self) -> Iterable[Feature]:
        return (e.feature for e in self._entries.values())

    def feature(self, feature_id: str) -> Feature:
        return self._entries[feature_id].feature

    def centre(self, h: Hex) -> Point:
        """Centre of a hex in map units."""
        return self.layout.hex_to_pixel(h)

    def blocks_sight(self, a_pt: Point, b_pt: Point) -> bool:
        """True when a sight-blocking feature touches the segment ``a_pt``–``b_pt``."""
        base, delta = self._base, self._delta_segs
        if base.sight is None and delta.sight is None:
            return False
        line = shapely.lib.linestrings((a_pt, b_pt), _NO_NAN)
        if delta.sight is not None and shapely.lib.intersects(delta.sight, line):
            return True
        if base.sight is None or not shapely.lib.intersects(base.sight, line):
            return False
        if not self._dead_sight:
            return True
        return bool(self._alive_sight_hits(base.tree.query(line, predicate="intersects")).size)

    def _alive_sight_hits(self, idx: np.ndarray) -> np.ndarray:
        """The base segment indices in ``idx`` that block sight and are not dead."""
        info = self._base.info
        dead = self._dead
        keep = [i for i in idx.tolist() if info[i][4] and info[i][0] not in dead]
        return np.asarray(keep, dtype=np.intp)

    def blocks_sight_many(self, a_xy: np.ndarray, b_xy: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`blocks_sight` for ``(n, 2)`` arrays of start and end points
        (a single start point broadcasts)."""
        a_xy = np.asarray(a_xy, dtype=float)
        b_xy = np.asarray(b_xy, dtype=float)
        a_xy, b_xy = np.broadcast_arrays(a_xy, b_xy)
        n = len(b_xy)
        base, delta = self._base, self._delta_segs
        out = np.zeros(n, dtype=bool)
        if (base.sight is None and delta.sight is None) or n == 0:
            return out
        lines = shapely.linestrings(np.stack([a_xy, b_xy], axis=1))
        if base.sight is not None:
            # types-shapely: an array of lines gives an array of answers, not one bool
            out = shapely.intersects(base.sight, lines)  # type: ignore[assignment]
            if self._dead_sight and out.any():
                # types-shapely: indexing an array of lines, not a single LineString
                pairs = base.tree.query(lines[out], predicate="intersects")  # type: ignore[index]
                alive = np.isin(pairs[1], self._alive_sight_hits(np.unique(pairs[1])))
                hit = np.zeros(int(out.sum()), dtype=bool)
                hit[pairs[0][alive]] = True
                out[out] = hit
        if delta.sight is not None:
            out |= shapely.intersects(delta.sight, lines)
        return out

    def crossings(self, a_pt: Point, b_pt: Point) -> list[Crossing]:
        """Every feature segment the line ``a_pt``–``b_pt`` meets, nearest ``a_pt`` first.

        A feature met twice (a building entered and left) appears twice; a polyline
        met exactly at one of its corners appears once there.
        """
        base, delta = self._base, self._delta_segs
        if not len(base.lines) and not len(delta.lines):
            return []
        line = shapely.lib.linestrings((a_pt, b_pt), _NO_NAN)
        ax, ay = float(a_pt[0]), float(a_pt[1])
        dx, dy = float(b_pt[0]) - ax, float(b_pt[1]) - ay
        length = math.hypot(dx, dy)
        found: dict[tuple[str, int], Crossing] = {}
        dead = self._dead
        for segs in (base, delta):
            if not len(segs.lines):
                continue
            idx = segs.tree.query(line, predicate="intersects")
            seg_xy = segs.xy
            seg_info = segs.info
            for i in idx.tolist():
                fid, kind, material, height, sight, move, is_open, f = seg_info[i]
                if segs is base and fid in dead:
                    continue
                sx, sy, tx, ty = seg_xy[i]
                t = _crossing_param(ax, ay, dx, dy, sx, sy, tx, ty)
                dist = t * length
                key = (fid, round(dist * 1e6))
                if key in found:
                    continue
                found[key] = Crossing(
                    fid,
                    kind,
                    material,
                    self._av(f),
                    height,
                    (ax + dx * t, ay + dy * t),
                    dist,
                    sight,
                    move,
                    is_open,
                )
        out = list(found.values())
        if len(out) > 1:
            out.sort(key=_crossing_order)
        return out

    def movement_blocked(self, hex_a: Hex, hex_b: Hex) -> str | None:
        """The id of a wall, closed door or window between two neighbouring hexes,
        or None when the step is clear. Raises ValueError for hexes that are not
        neighbours."""
        d = neighbor_direction(hex_a, hex_b)
        if d is None:
            raise ValueError(f"{hex_a} and {hex_b} are not neighbours")
        key = (hex_a.q, hex_a.r, d) if d < 3 else (hex_b.q, hex_b.r, d - 3)
        owners = self._link_owners.get(key)
        return min(owners) if owners else None

    def blocked_step_set(self) -> frozenset[tuple[int, int, int]]:
        """Every blocked step as ``(q, r, d)``: from ``Hex(q, r)`` towards direction
        d (0–5), both ways round; cached until the next change."""
        cached = self._step_cache
        if cached is not None and cached[0] == self.version:
            return cached[1]
        out: set[tuple[int, int, int]] = set()
        for q, r, d in self._link_owners:
            dq, dr = DIRECTIONS[d].q, DIRECTIONS[d].r
            out.add((q, r, d))
            out.add((q + dq, r + dr, d + 3))
        steps = frozenset(out)
        self._step_cache = (self.version, steps)
        return steps

    def sight_lines(self) -> shapely.MultiLineString | None:
        """Every sight-blocking segment now, as one geometry (None: nothing blocks
        sight); built once per version of the index."""

        def build() -> shapely.MultiLineString | None:
            lines = [e.lines for e in self._entries.values() if e.sight and len(e.lines)]
            if not lines:
                return None
            merged: shapely.MultiLineString = shapely.multilinestrings(np.concatenate(lines))  # type: ignore[assignment]  # stubs: an array of lines makes one geometry
            return merged

        return self.memo(("sight_lines",), build)

    def memo(self, key: object, build: Callable[[], T]) -> T:
        """``build()``'s result, cached until the index next changes (for derived
        tables such as the movement search's blocked steps)."""
        hit = self._memo.get(key)
        if hit is not None and hit[0] == self.version:
            return cast(T, hit[1])  # the same key is always built by the same builder
        value = build()
        if hit is None and len(self._memo) > 16:
            self._memo = {k: v for k, v in self._memo.items() if v[0] == self.version}
        self._memo[key] = (self.version, value)
        return value

    def blocked_links(self) -> Mapping[tuple[int, int, int], set[str]]:
        """Read-only view of the cut links ``(q, r, d) → feature ids`` (d in 0..2: the
        link from ``Hex(q, r)`` to its neighbour in direction d)."""
        return self._link_owners

    def _av(self, f: Feature) -> int:
        if not self.cover_av:
            return 0
        return f.av(self.cover_av)


# -- small vectorised helpers ----------------------------------------------------------


def _centres(layout: Layout, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hex centres for arrays of axial coordinates (same arithmetic as Layout)."""
    m = layout._m  # the Layout's own matrix, so the two can never disagree
    x = (m.f0 * q + m.f1 * r) * layout.size + layout.origin_x
    y = (m.f2 * q + m.f3 * r) * layout.size + layout.origin_y
    return x, y


def hex_centres(layout: Layout, hexes: Iterable[Hex]) -> np.ndarray:
    """``(n, 2)`` array of hex centres in the layout's units."""
    hs = list(hexes)
    q = np.fromiter((h.q for h in hs), dtype=float, count=len(hs))
    r = np.fromiter((h.r for h in hs), dtype=float, count=len(hs))
    x, y = _centres(layout, q, r)
    return np.column_stack([x, y])


def _point_segment_distance(
    px: np.ndarray, py: np.ndarray, ax: float, ay: float, bx: float, by: float
) -> np.ndarray:
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / l2, 0.0, 1.0) if l2 > 0 else 0.0
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _crossing_order(c: Crossing) -> tuple[float, str]:
    return (c.distance, c.feature_id)


def _orient(ax: Coord, ay: Coord, bx: Coord, by: Coord, cx: Coord, cy: Coord) -> Coord:
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def _segments_meet(
    p1x: np.ndarray,
    p1y: np.ndarray,
    p2x: np.ndarray,
    p2y: np.ndarray,
    ax: float,
    ay: float,
    bx: float,
    by: float,
) -> np.ndarray:
    """Closed-segment intersection of the links p1–p2 (arrays) with one segment a–b."""
    o1 = _orient(ax, ay, bx, by, p1x, p1y)
    o2 = _orient(ax, ay, bx, by, p2x, p2y)
    o3 = _orient(p1x, p1y, p2x, p2y, ax, ay)
    o4 = _orient(p1x, p1y, p2x, p2y, bx, by)
    eps = _TOUCH_EPS
    proper = (o1 * o2 <= eps) & (o3 * o4 <= eps)
    # collinear pieces: both orientation pairs ~0 → need overlapping extents
    coll = (np.abs(o1) <= eps) & (np.abs(o2) <= eps)
    if np.any(coll):
        lo_x = np.maximum(np.minimum(p1x, p2x), min(ax, bx)) - eps
        hi_x = np.minimum(np.maximum(p1x, p2x), max(ax, bx)) + eps
        lo_y = np.maximum(np.minimum(p1y, p2y), min(ay, by)) - eps
        hi_y = np.minimum(np.maximum(p1y, p2y), max(ay, by)) + eps
        overlap = (lo_x <= hi_x) & (lo_y <= hi_y)
        proper = np.where(coll, overlap, proper)
    return np.asarray(proper)  # (arrays in: already one)


def _crossing_param(
    ax: float, ay: float, dx: float, dy: float, sx: float, sy: float, tx: float, ty: float
) -> float:
    """Where (0..1 along a→a+d) the line meets segment s–t; for an overlap, the
    overlap's nearest point. Assumes the two do meet."""
    ex, ey = tx - sx, ty - sy
    den = dx * ey - dy * ex
    if abs(den) > 1e-12:
        t = ((sx - ax) * ey - (sy - ay) * ex) / den
        return min(1.0, max(0.0, t))
    # parallel (collinear, since they meet): the overlap starts at the nearest end
    l2 = dx * dx + dy * dy
    if l2 == 0:
        return 0.0
    ts = ((sx - ax) * dx + (sy - ay) * dy) / l2
    tt = ((tx - ax) * dx + (ty - ay) * dy) / l2
    return min(1.0, max(0.0, min(ts, tt)))
