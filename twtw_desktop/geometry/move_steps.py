"""The whole-area reach search (000 Movement AP Cost): a table of every step of the
map or of a window of it (:class:`_StepTable`, built once per map, walls and rate)
and :func:`_bucket_search`, a bucket-queue Dijkstra in numpy that settles every
(hex, facing) state of one cost at once. :func:`.movement.reachable` reads the
costs back into a :class:`.movement.ReachArea`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..hexgrid import (
    DIRECTIONS,
    Hex,
    Orientation,
    hex_to_offset,
    offset_to_hex,
)
from ..model.map import CODE_TERRAIN, Map
from ..rules.actions import (
    TURN_IN_MOVE_AP,
)
from .move_cost import TERRAIN_COSTS
from .walls import WallIndex

#: the reach search's step weights: ``units << 36 | halves << 24 | turns << 14 | paces``
#: (exact in a float64 while units < 2**17): among paths of equal unrounded cost the
#: one with the fewest half-AP extras, then the fewest paid turns, wins
_T_SHIFT, _H_SHIFT, _U_SHIFT = 14, 24, 36
#: the reach search looks no further than this many AP or paces
MAX_REACH_AP = 1000
MAX_REACH_PACES = (1 << _T_SHIFT) - 1
#: the step table's edges of a state facing f: its three free directions (within 60°,
#: ascending), then the facing a paid turn (an about-face) leads to
_EDGE_DIRS = np.array([[*sorted({(f - 1) % 6, f, (f + 1) % 6}), (f + 3) % 6] for f in range(6)])
_BLOCKED = 1 << 62  # an edge weight past any limit: the step is not taken
#: the step table's kinds of edge: no step (weight _BLOCKED), a paid turn, then a pace
#: into each terrain extra the window has, from 0 half-AP up
_NO_STEP, _TURN, _PACE = 0, 1, 2
#: ``_EDGE_SLOT[f][d]``: the slot of a state facing f whose free pace goes direction d
_EDGE_SLOT = [{int(d): k for k, d in enumerate(_EDGE_DIRS[f][:3])} for f in range(6)]
_HALVES_LUT = np.full(256, -1, dtype=np.int64)
_UPHILL_LUT = np.zeros(256, dtype=bool)
for _code, _t in CODE_TERRAIN.items():
    if TERRAIN_COSTS[_t].enterable:
        _HALVES_LUT[ord(_code)] = TERRAIN_COSTS[_t].halves
        _UPHILL_LUT[ord(_code)] = TERRAIN_COSTS[_t].uphill_only and TERRAIN_COSTS[_t].halves > 0


def _key_deltas(orient: Orientation, width: int) -> np.ndarray:
    """``(2, 6)``: the key offset of each direction's neighbour, by the parity of the
    cell's absolute row (pointy) or column (flat), for rows ``width`` keys wide."""
    out = np.zeros((2, 6), dtype=np.int64)
    for parity in (0, 1):
        col, row = (2, 2 + parity) if orient is Orientation.POINTY else (2 + parity, 2)
        h = offset_to_hex(col, row, orient)
        for d, delta in enumerate(DIRECTIONS):
            c2, r2 = hex_to_offset(h + delta, orient)
            out[parity, d] = (c2 - col) + (r2 - row) * width
    return out


class _StepTable:
    """Every step of a window of the map as a sparse graph over (cell, facing) states
    (``cell * 6 + facing``), for one move rate.

    Cells are keyed ``(row - r0 + 1) * width + (col - c0 + 1)`` in the window
    ``[c0, c1) × [r0, r1)`` of offset coordinates, with a border of impassable cells.
    A state has four edges: a free pace to the neighbour in each direction within 60°
    of its facing (arriving in that facing), and a paid turn to the opposite facing in
    the same cell. The directions a facing pays to step towards (120° or more) are
    exactly the free ones of the opposite facing, so a paid step is that turn then a
    free pace: the same cost as one edge of both, on two thirds of the edges (the
    search's time goes with them). A state reached only by that turn is never a cell's
    best (it costs a turn more than the one it turned from) and :meth:`ReachArea.path_to`
    drops the repeated cell. Each weight packs the exact unrounded cost with the paces,
    half-AP extras and paid turns it adds (see ``_U_SHIFT``).
    Grades are priced uphill here; :meth:`search` reprices the downhill ones from the
    live elevation, and blocks the steps into occupied cells, on a copy of the edge
    kinds (so searches in several threads share one table).
    """

    def __init__(
        self, game_map: Map, index: WallIndex, rate: int, window: tuple[int, int, int, int]
    ) -> None:
        c0, r0, c1, r1 = window
        cols, rows = c1 - c0, r1 - r0
        self.window = window
        self.orient = orient = game_map.orientation
        self.width = w = cols + 2
        self.ncell = ncell = w * (rows + 2)
        codes = np.zeros((rows + 2, w), dtype=np.uint8)  # 0: off the window, impassable
        text = "".join(line[c0:c1] for line in game_map.terrain[r0:r1])
        codes[1:-1, 1:-1] = np.frombuffer(text.encode("latin-1"), np.uint8).reshape(rows, cols)
        halves = _HALVES_LUT[codes].ravel()
        uphill = _UPHILL_LUT[codes].ravel() & (game_map.elevation is not None)
        inner = np.flatnonzero(codes.ravel() != 0)
        rr, cc = np.divmod(inner, w)
        absr, absc = rr - 1 + r0, cc - 1 + c0
        parity = (absr & 1) if orient is Orientation.POINTY else (absc & 1)
        self.deltas = _key_deltas(orient, w)
        nk = inner[:, None] + self.deltas[parity]  # (S, 6)
        ok = halves[nk] >= 0
        blocked = np.zeros((ncell, 6), dtype=bool)
        for q, r, d in index.blocked_step_set():
            col, row = hex_to_offset(Hex(q, r), orient)
            if c0 <= col < c1 and r0 <= row < r1:
                blocked[(row - r0 + 1) * w + (col - c0 + 1), d] = True
        ok &= ~blocked[inner]
        # (cell, facing, slot): the three free directions, then the turn; sorted by
        # source state
        n = len(inner)
        slot_dir = _EDGE_DIRS[None, :, :]
        step_ok = np.take_along_axis(
            np.broadcast_to(ok[:, None, :], (n, 6, 6)),
            np.broadcast_to(slot_dir[:, :, :3], (n, 6, 3)),
            axis=2,
        )
        valid = np.concatenate((step_ok, np.ones((n, 6, 1), dtype=bool)), axis=2).ravel()
        shape = (n, 6, 4)
        f = np.broadcast_to(np.arange(6)[None, :, None], shape).ravel()[valid]
        slot = np.broadcast_to(np.arange(4)[None, None, :], shape).ravel()[valid]
        d = _EDGE_DIRS[f, slot]  # the arrival facing: the step's direction, or the turn's
        src_cell = np.broadcast_to(inner[:, None, None], shape).ravel()[valid]
        turn = (slot == 3).astype(np.int64)
        dst_cell = np.where(turn == 1, src_cell, nk[np.searchsorted(inner, src_cell), d])
        extra = np.where(turn == 1, 0, halves[dst_cell])
        # Every state owns four edge slots, ``state * 4 + slot``: the state it leads to
        # (int32) and the kind of the edge (uint8), whose weight is ``self.weights[kind]``
        # (small tables, so the search's lookups stay in the cache). A slot without a
        # step (a wall, water, the map's edge) is a self-loop of kind _NO_STEP.
        pos = (src_cell * 6 + f) * 4 + slot
        nstate = ncell * 6
        self.targets = np.repeat(np.arange(nstate, dtype=np.int32), 4)
        self.targets[pos] = dst_cell * 6 + d
        paces_into = np.unique(np.r_[0, extra[turn == 0]])  # the extras of a pace: 0 first
        self.weights = np.r_[
            _BLOCKED,
            self._weights(rate, np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.int64)),
            self._weights(rate, paces_into, np.zeros(len(paces_into), dtype=np.int64)),
        ]
        # the bucket search needs every edge to cost at least one unit
        assert (self.weights >> _U_SHIFT).min() >= 1, "an edge costs nothing"
        self.kinds = np.full(nstate * 4, _NO_STEP, dtype=np.uint8)
        self.kinds[pos] = np.where(turn == 1, _TURN, _PACE + np.searchsorted(paces_into, extra))
        # grades taken downhill cost no extra (a pace of kind _PACE): their edges
        up = np.flatnonzero(uphill[dst_cell] & (turn == 0))
        self.up_edges = pos[up]
        self.up_cells = (src_cell[up], dst_cell[up])
        # the edges into each cell, to block the occupied ones
        order = np.argsort(dst_cell, kind="stable")
        self.in_order = pos[order]
        self.in_start = np.searchsorted(dst_cell[order], np.arange(ncell + 1))
        self.up_level_cells: np.ndarray | None = None

    @staticmethod
    def _weights(rate: int, extra: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """A free pace (``turn`` 0) into a cell of ``extra`` half-AP, or a paid turn."""
        pace = 1 - turn
        units = 2 * pace + extra * rate + turn * (TURN_IN_MOVE_AP * 2 * rate)
        return (units << _U_SHIFT) | (extra << _H_SHIFT) | (turn << _T_SHIFT) | pace

    def key(self, h: Hex) -> int | None:
        col, row = hex_to_offset(h, self.orient)
        c0, r0, c1, r1 = self.window
        if not (c0 <= col < c1 and r0 <= row < r1):
            return None
        return (row - r0 + 1) * self.width + (col - c0 + 1)

    def hexes(self, keys: np.ndarray) -> list[Hex]:
        c0, r0, _c1, _r1 = self.window
        row, col = np.divmod(keys, self.width)
        row, col = row - 1 + r0, col - 1 + c0
        if self.orient is Orientation.POINTY:
            q, r = col - (row - (row & 1)) // 2, row
        else:
            q, r = col, row - (col - (col & 1)) // 2
        return [Hex(a, b) for a, b in zip(q.tolist(), r.tolist(), strict=True)]

    def search(
        self, game_map: Map, s0: int, taken: Iterable[int], max_units: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The packed distance of every state from ``s0`` (past :func:`_reach_limit` of
        ``max_units`` where out of reach, see :func:`_bucket_search`), and the edge
        kinds it was searched on, for :meth:`previous`."""
        kinds = self.kinds.copy()
        if len(self.up_edges):
            src, dst = self.up_cells
            level = self._levels(game_map)
            kinds[self.up_edges[level[dst] < level[src]]] = _PACE
        for k in taken:
            kinds[self.in_order[self.in_start[k] : self.in_start[k + 1]]] = _NO_STEP
        return _bucket_search(self.targets, kinds, self.weights, s0, _reach_limit(max_units)), kinds

    def previous(self, dist: np.ndarray, kinds: np.ndarray, state: int) -> int:
        """The state before ``state`` on a cheapest path of a :meth:`search` (-1 for
        the start): of the edges into it — a pace straight on, a pace turning 60° one
        way or the other, a paid turn in place — the first whose source's distance
        plus its weight is exactly ``state``'s."""
        cell, d = divmod(state, 6)
        back = (d + 3) % 6
        row, col = divmod(cell, self.width)
        c0, r0, _c1, _r1 = self.window
        parity = (row - 1 + r0) & 1 if self.orient is Orientation.POINTY else (col - 1 + c0) & 1
        came_from = cell + int(self.deltas[parity, back])
        want = int(dist[state])
        edges = [(came_from * 6 + f, _EDGE_SLOT[f][d]) for f in (d, (d + 5) % 6, (d + 1) % 6)]
        edges.append((cell * 6 + back, 3))
        for src, slot in edges:
            e = src * 4 + slot
            if (
                int(self.targets[e]) == state
                and int(dist[src]) + int(self.weights[kinds[e]]) == want
            ):
                return src
        return -1

    def _levels(self, game_map: Map) -> np.ndarray:
        """The live elevation of the cells at either end of a grade's edges."""
        src, dst = self.up_cells
        if self.up_level_cells is None:
            self.up_level_cells = np.unique(np.concatenate((src, dst)))
        cells = self.up_level_cells
        c0, r0, _c1, _r1 = self.window
        elev = game_map.elevation
        assert elev is not None  # only maps with elevation have up-level cells
        rows, cols = np.divmod(cells, self.width)
        level = np.zeros(self.ncell, dtype=np.int64)
        level[cells] = [
            elev[r - 1 + r0][c - 1 + c0] for r, c in zip(rows.tolist(), cols.tolist(), strict=True)
        ]
        return level


def _reach_limit(max_units: int) -> int:
    """The largest packed distance of ``max_units`` units (any paces, extras, turns)."""
    return ((max_units + 1) << _U_SHIFT) - 1


_COUNT = np.arange(0)


def _count(n: int) -> np.ndarray:
    """``arange(n)``, a view of one kept array."""
    global _COUNT
    if len(_COUNT) < n:
        _COUNT = np.arange(max(n, 2 * len(_COUNT)))
    return _COUNT[:n]


def _bucket_search(
    targets: np.ndarray, kinds: np.ndarray, weights: np.ndarray, s0: int, limit: int
) -> np.ndarray:
    """Dijkstra from state ``s0`` over the four edge slots of every state (the state
    ``targets[state * 4 + slot]``, at a weight of ``weights[kinds[state * 4 + slot]]``),
    as Dial's bucket queue on the whole units of the packed distances, one bucket per
    numpy step.

    Every edge costs at least one unit (a pace 2, a paid turn ``2 × rate``), so when
    the search comes to bucket ``u`` nothing left can lower a state of ``u`` units:
    the whole bucket is settled at once and its edges relaxed together. The packed
    weights add up exactly (int64), so ``np.minimum.at`` keeps among equal units the
    fewest extras, then turns, then paces — the distances are those of any Dijkstra
    on these weights. Returns each state's packed distance, past ``limit`` where it is
    out of reach; the paths are read back from it (:meth:`_StepTable.previous`).
    """
    n = len(targets) // 4
    to4, kind4 = targets.reshape(n, 4), kinds.reshape(n, 4)
    dist = np.full(n, limit + 1, dtype=np.int64)
    stamp = np.zeros(n, dtype=np.intp)
    top = limit >> _U_SHIFT
    buckets: list[list[np.ndarray]] = [[] for _ in range(top + 1)]
    dist[s0] = 0
    buckets[0].append(np.array([s0]))
    last = 0
    for u in range(top + 1):
        if u > last:
            break
        queued = buckets[u]
        if not queued:
            continue
        buckets[u] = []
        # A state queued here whose distance was lowered since, or queued twice, is
        # relaxed again for nothing: its edges cannot lower anything a second time.
        states = queued[0] if len(queued) == 1 else np.concatenate(queued)
        to = to4[states].ravel().astype(np.intp)
        cand = (dist[states][:, None] + weights[kind4[states]]).ravel()
        better = cand < dist[to]
        to, cand = to[better], cand[better]
        if not len(to):
            continue
        np.minimum.at(dist, to, cand)
        count = _count(len(to))  # each state lowered once
        stamp[to] = count
        to = to[stamp[to] == count]
        # queue the lowered states by their new units (a few distinct values)
        ahead = (dist[to] >> _U_SHIFT) - u
        sizes = np.bincount(ahead)
        steps = sizes.nonzero()[0]
        if len(steps) > 1:
            to = to[np.argsort(ahead.astype(np.uint16), kind="stable")]
        end = 0
        for k in steps.tolist():
            buckets[u + k].append(to[end : end + sizes[k]])
            end += sizes[k]
        last = max(last, u + int(steps[-1]))
    return dist


_TABLES: dict[tuple, _StepTable] = {}


def _step_table(
    game_map: Map, index: WallIndex, rate: int, window: tuple[int, int, int, int]
) -> _StepTable:
    """The cached step table of this window, map terrain, walls and rate."""
    key = (
        id(game_map),
        game_map.orientation,
        tuple(game_map.terrain),
        id(index),
        index.version,
        rate,
        window,
    )
    t = _TABLES.get(key)
    if t is None:
        if len(_TABLES) >= 4:
            _TABLES.clear()
        t = _TABLES[key] = _StepTable(game_map, index, rate, window)
    return t
