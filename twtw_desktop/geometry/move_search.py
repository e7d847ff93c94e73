"""The path search aimed at one hex (A*, in Python; 000 Movement AP Cost): the map's
terrain as a bordered flat grid (:class:`_Grid`, cached per map), the steps walls
refuse, and :class:`_Search`, which :func:`.movement.cheapest_path` runs and stops
as soon as the goal is settled.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import RulesError
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

#: directions a figure facing f steps into without a paid turn: f-1, f, f+1
_FREE = [(1 << f) | (1 << ((f + 1) % 6)) | (1 << ((f + 5) % 6)) for f in range(6)]


class _Grid:
    """The map's terrain as a flat list with a one-hex border of impassable cells,
    so a neighbour is one addition away and never needs a bounds check.

    Cell keys are ``(row + 1) * width + (col + 1)`` in offset coordinates; the
    neighbour offsets depend on the parity of the row (pointy) or column (flat).
    """

    __slots__ = (
        "cols",
        "deltas",
        "elev",
        "halves",
        "hex_cache",
        "orient",
        "rows",
        "uphill",
        "width",
    )

    def __init__(self, game_map: Map) -> None:
        self.cols, self.rows = game_map.cols, game_map.rows
        self.orient = game_map.orientation
        self.width = w = self.cols + 2
        self.elev = game_map.elevation
        halves = [-1] * (w * (self.rows + 2))
        uphill: set[int] = set()
        code_cost = {code: TERRAIN_COSTS[t] for code, t in CODE_TERRAIN.items()}
        for row, line in enumerate(game_map.terrain):
            base = (row + 1) * w + 1
            for col, ch in enumerate(line):
                c = code_cost[ch]
                if c.enterable:
                    halves[base + col] = c.halves
                    if c.uphill_only and c.halves:
                        uphill.add(base + col)
        self.halves = halves
        self.uphill = uphill
        self.hex_cache: dict[int, Hex] = {}  # Hex objects are immutable: share them
        self.deltas = []
        for parity in (0, 1):
            col, row = (2, 2 + parity) if self.orient is Orientation.POINTY else (2 + parity, 2)
            h = offset_to_hex(col, row, self.orient)
            row_d = []
            for d in DIRECTIONS:
                c2, r2 = hex_to_offset(h + d, self.orient)
                row_d.append((c2 - col) + (r2 - row) * w)
            self.deltas.append(row_d)

    def key(self, h: Hex) -> int:
        col, row = hex_to_offset(h, self.orient)
        return (row + 1) * self.width + col + 1

    def hex(self, k: int) -> Hex:
        h = self.hex_cache.get(k)
        if h is None:
            row, col = divmod(k, self.width)
            row -= 1
            col -= 1
            if self.orient is Orientation.POINTY:
                h = Hex(col - (row - (row & 1)) // 2, row)
            else:
                h = Hex(col, row - (col - (col & 1)) // 2)
            self.hex_cache[k] = h
        return h

    def parity(self, k: int) -> int:
        if self.orient is Orientation.POINTY:
            return ((k // self.width) - 1) & 1
        return ((k % self.width) - 1) & 1

    def elevation(self, k: int) -> int:
        if self.elev is None:
            return 0
        row, col = divmod(k, self.width)
        return self.elev[row - 1][col - 1]


_GRID_CACHE: dict[tuple, _Grid] = {}


def _grid(game_map: Map) -> _Grid:
    """The cached grid for this map's current terrain (str hashes are cached, so
    the key is cheap to check)."""
    key = (
        id(game_map),
        game_map.cols,
        game_map.rows,
        game_map.orientation,
        tuple(game_map.terrain),
        id(game_map.elevation),
    )
    g = _GRID_CACHE.get(key)
    if g is None:
        if len(_GRID_CACHE) >= 4:
            _GRID_CACHE.clear()
        g = _GRID_CACHE[key] = _Grid(game_map)
    return g


def _wall_steps(index: WallIndex, grid: _Grid) -> frozenset[int]:
    """The index's blocked steps as grid state keys ``cell * 8 + direction``."""

    def build() -> frozenset[int]:
        out = set()
        for q, r, d in index.blocked_step_set():
            col, row = hex_to_offset(Hex(q, r), grid.orient)
            if -1 <= col <= grid.cols and -1 <= row <= grid.rows:
                out.add(((row + 1) * grid.width + col + 1) * 8 + d)
        return frozenset(out)

    return index.memo(("movement-steps", grid.width, grid.orient), build)


class _Search:
    """Bounded Dijkstra (Dial's bucket queue) over (hex, facing) states; with a goal,
    A* (the queue adds 2 units per pace still to go, which never overestimates).

    Costs are whole units of ``1 / (2 × rate)`` AP — a pace is 2, a half AP of
    terrain ``rate``, a paid turn ``2 × rate`` — so the buckets order states by the
    exact unrounded AP, and among equal units the lower rounded AP wins.

    Prunings keep the search small without changing any answer: once a hex has been
    settled at cost ``c``, a later state of it costing ``c`` plus a paid turn or more
    is useless (the first could pay that turn to go anywhere); a later state only
    tries the directions no cheaper state of the hex already tried free; and the
    first state's paid turns wait in the queue until their cost comes up, then go
    only where nothing cheaper went free.
    (Both hold under A* too: states of one hex share the same estimate, so they still
    come off the queue cheapest first. A step never lowers the priority, but under A*
    it may keep it, so a bucket is re-read until it stays empty.) States are ints: ``cell * 8 + facing`` (see
    :class:`_Grid`).
    """

    def __init__(
        self,
        game_map: Map,
        index: WallIndex,
        start: Hex,
        facing: int,
        rate: int,
        occupied: Iterable[Hex],
        ap_limit: int | None,
        goal: Hex | None = None,
    ) -> None:
        if not game_map.contains(start):
            raise RulesError(f"Hex {start.q},{start.r} is off the map.")
        grid = self.grid = _grid(game_map)
        self.rate = rate
        k0 = grid.key(start)
        self.s0 = s0 = k0 * 8 + facing % 6
        turn_units = TURN_IN_MOVE_AP * 2 * rate
        if ap_limit is None:
            ap_limit = game_map.cols * game_map.rows * 4  # more than any walk needs
        max_units = ap_limit * 2 * rate
        halves_of = grid.halves
        uphill = grid.uphill
        has_elev = grid.elev is not None
        elevation = grid.elevation
        deltas = grid.deltas
        pointy = grid.orient is Orientation.POINTY
        width = grid.width
        walls = _wall_steps(index, grid)
        taken = {grid.key(h) for h in occupied if game_map.contains(h)} - {k0}
        goal_k = grid.key(goal) if goal is not None and game_map.contains(goal) else -1

        # neighbour lists depend only on terrain and walls, so they are shared by
        # every search on this grid until the index or the terrain changes (the
        # downhill exemption reads the live elevation at each step instead)
        holder: list[Any] = index.memo("movement-neighbours", lambda: [None, {}])
        if holder[0] is not grid:
            holder[0], holder[1] = grid, {}
        nb_cache: dict[int, list[tuple[int, int, int, bool]]] = holder[1]
        best: dict[int, int] = {s0: 0}
        packed: dict[int, int] = {s0: 0}  # paces << 24 | halves << 8 | turns
        aps: dict[int, int] = {s0: 0}  # the rounded AP of each state
        prev: dict[int, int] = {}
        settled: dict[int, tuple[int, int]] = {}
        astar = goal_k >= 0
        if astar and goal is not None:
            to_hex = grid.hex
            gq, gr = goal.q, goal.r
            est: dict[int, int] = {}

            def estimate(cell: int) -> int:
                e = est.get(cell)
                if e is None:
                    h = to_hex(cell)
                    dq, dr = h.q - gq, h.r - gr
                    e = est[cell] = abs(dq) + abs(dr) + abs(dq + dr)  # 2 units a pace
                return e

        else:

            def estimate(cell: int) -> int:
                return 0

        p = estimate(k0)
        buckets: dict[int, list[int]] = {p: [s0]}
        done = False
        while buckets and not done:
            bucket = buckets.pop(p, None)
            if bucket is None:
                p += 1
                continue
            for st in bucket:
                if st < 0:
                    # the deferred paid turns of a hex's first state (see below)
                    st = ~st
                    hk = st >> 3
                    u = best[st]
                    allowed = ~_FREE[st & 7] & ~settled[hk][1] & 63
                    if not allowed:
                        continue
                    add, dt = turn_units, 1
                else:
                    hk = st >> 3
                    u = p - estimate(hk) if astar else p
                    if best[st] != u:
                        continue
                    s = settled.get(hk)
                    if s is None:
                        if hk == goal_k:
                            done = True
                            break
                        u0, mask = u, 0
                        # Paid turns from the first state are needed only where no
                        # state of this hex gets there free for less; that is known
                        # once the queue reaches their cost, so they wait until then.
                        key = u + turn_units + (estimate(hk) if astar else 2)
                        b = buckets.get(key)
                        if b is None:
                            buckets[key] = [~st]
                        else:
                            b.append(~st)
                    else:
                        u0, mask = s
                        if u >= u0 + turn_units:
                            continue
                    fm = _FREE[st & 7]
                    settled[hk] = (u0, mask | fm)
                    allowed = fm & ~mask
                    if not allowed:
                        continue
                    add, dt = 0, 0
                nbrs = nb_cache.get(hk)
                if nbrs is None:
                    par = (((hk // width) - 1) & 1) if pointy else (((hk % width) - 1) & 1)
                    nbrs = []
                    for d, delta in enumerate(deltas[par]):
                        nk = hk + delta
                        extra = halves_of[nk]
                        if extra < 0 or hk * 8 + d in walls:
                            continue
                        nbrs.append((d, nk, extra, has_elev and nk in uphill))
                    nb_cache[hk] = nbrs
                pk = packed[st]
                paces = (pk >> 24) + 1
                halves = (pk >> 8) & 0xFFFF
                nt = (pk & 0xFF) + dt
                pace_ap = -(-paces // rate)
                for d, nk, extra, up in nbrs:
                    if not (allowed >> d) & 1 or nk in taken:
                        continue
                    if up and elevation(nk) < elevation(hk):
                        extra = 0  # a grade taken downhill (000: "up a … grade")
                    nu = u + 2 + extra * rate + add
                    if nu > max_units:
                        continue
                    sn = settled.get(nk)
                    if sn is not None and (nu >= sn[0] + turn_units or not (_FREE[d] & ~sn[1])):
                        continue  # that hex's cheaper states already do all this one could
                    nh = halves + extra
                    nap = pace_ap + (nh + 1) // 2 + nt * TURN_IN_MOVE_AP
                    if nap > ap_limit:
                        continue
                    ns = nk * 8 + d
                    old = best.get(ns)
                    if old is not None:
                        if nu > old:
                            continue
                        if nu == old and nap >= aps[ns]:
                            continue
                    best[ns] = nu
                    packed[ns] = (paces << 24) | (nh << 8) | nt
                    aps[ns] = nap
                    prev[ns] = st
                    key = nu + estimate(nk) if astar else nu
                    b = buckets.get(key)
                    if b is None:
                        buckets[key] = [ns]
                    else:
                        b.append(ns)
            # no p += 1 here: under A* a step can keep the same priority, so the
            # bucket may have been refilled while it was read
        self.best = best
        self.packed = packed
        self.aps = aps
        self.prev = prev

    def ap(self, st: int) -> int:
        return self.aps[st]

    def paces(self, st: int) -> int:
        return self.packed[st] >> 24

    def hex(self, st: int) -> Hex:
        return self.grid.hex(st >> 3)

    def path(self, st: int) -> list[Hex]:
        out: list[Hex] = []
        prev = self.prev
        while st in prev:
            out.append(self.hex(st))
            st = prev[st]
        out.reverse()
        return out
