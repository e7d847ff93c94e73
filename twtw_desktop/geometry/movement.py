"""Movement on the map: what a path costs in AP, where a figure can get to, and
who is engaged with whom (000 Movement AP Cost).

How a move is priced
--------------------
* **Paces.** One AP buys the character's Move (walking) or Run paces; the paces of a
  move are paid together, ``ceil(paces / rate)`` AP (000 Movement). ``move_rate`` is
  the rate of the chosen mode — pass the Run value with ``mode="run"``.
* **Terrain** extras are charged for the hex being entered: steep grade +1 AP per
  pace, gentle grade +1 per 2 paces, ladder +1 per pace, stairs +1 per 2 paces,
  climbing a wall or cliff +2 per pace (000; the numbers are the rules model's
  constants in :mod:`twtw_desktop.rules.actions`). The extras are counted in half
  AP over the whole move and rounded up once at the end, so a pace of gentle grade
  and a pace of stairs cost 1 AP together, not 2 (house reading of "per 2 paces").
  Grades are only climbed going up: when the map has elevation and the step goes
  down, a grade costs nothing extra (000 says "up a steep grade"). Ladders, stairs
  and climbing cost the same both ways. Rough ground, which 000 does not list,
  costs as a gentle grade (house value, :data:`ROUGH_GROUND`). Water and impassable
  hexes cannot be walked into (house: swimming is 002's continuous action, not a
  step), nor can hexes off the map or held by another figure.
* **Walls**: a step is refused when a wall, closed door, window or full-height
  cover cuts the line between the two hex centres (:meth:`WallIndex.movement_blocked`).
* **Facing**: a walking figure faces the way it steps. Turning one hexside (60°)
  per pace is free (000); a sharper turn between two paces — 120°, or an about-face
  (the free 60° plus the paid 120°) — costs 1 AP (000: change facing 120° during a
  move). The first pace turns from the starting facing the same way. An
  ``end_facing`` different from the last step's direction is a turn in place after
  the move: 1 AP for 60°, 2 AP for more (000).

Each step of a :class:`PathCost` carries the AP it adds (the difference of the
rounded totals before and after it), so the steps always sum to the path's AP.

Searching
---------
:func:`reachable` is a bounded Dijkstra over (hex, facing) states on a table of
every step of the map (built once per map, walls and rate; a window around the
figure on maps of more than :data:`WHOLE_MAP_CELLS` hexes), run as a bucket queue in
numpy that settles every state of one cost at once (:func:`_bucket_search`).
:func:`cheapest_path` is the same search aimed at one hex (A*, in Python: it stops
early). Both minimise the unrounded AP (paces / rate + terrain + turns); among equal
ones :func:`cheapest_path` takes the lower rounded AP and :func:`reachable` the path
with fewer half-AP extras, then fewer paid turns, then fewer paces (its step weights
carry the extras, turns and paces in their low bits, so one search yields every
path's parts); each hex is reported in its facing with the lowest rounded AP.
Because paces and half-AP extras are rounded up separately, a path that is slightly
dearer unrounded can, rarely, round to 1 AP less; the search does not hunt for
those. Every cost it reports is the exact :func:`path_cost` of the path it found
(:meth:`ReachArea.path_to`, read back from the search's costs: where several paths
cost exactly the same, the one stepping straight on is taken first).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

import numpy as np

from ..errors import RulesError
from ..hexgrid import (
    DIRECTIONS,
    Hex,
    Orientation,
    facing_turn,
    hex_to_offset,
    neighbor_direction,
    offset_to_hex,
)
from ..model.map import CODE_TERRAIN, Map, Terrain
from ..rules.actions import (
    CLIMB_WALL,
    FACE_MORE_AP,
    FACE_ONE_HEXSIDE_AP,
    GENTLE_GRADE,
    LADDER,
    SOURCE_MOVE,
    STAIRS,
    STEEP_GRADE,
    TURN_IN_MOVE_AP,
)
from .walls import WallIndex

MoveMode = Literal["move", "run"]

#: Rough ground is not in 000's table; it costs as a gentle grade (house value).
ROUGH_GROUND = GENTLE_GRADE
#: Free facing change per pace moved, in hexsides (000 Movement AP Cost).
FREE_HEXSIDES_PER_PACE = 1


def _halves(extra: tuple[int, int]) -> int:
    """A terrain extra ``(AP, per paces)`` as half-AP per pace."""
    ap, per = extra
    return (2 * ap) // per


@dataclass(frozen=True, slots=True)
class TerrainCost:
    """What entering a hex of one terrain costs beyond the pace itself."""

    enterable: bool
    #: extra AP per pace, in half AP (gentle grade 1, steep grade 2, climbing 4)
    halves: int
    label: str
    source: str
    #: grades only cost going up (000: "up a steep grade")
    uphill_only: bool = False


TERRAIN_COSTS: dict[Terrain, TerrainCost] = {
    Terrain.OPEN: TerrainCost(True, 0, "open ground", SOURCE_MOVE),
    Terrain.ROUGH: TerrainCost(
        True, _halves(ROUGH_GROUND), "rough ground", "house value (as a gentle grade)"
    ),
    Terrain.STEEP: TerrainCost(True, _halves(STEEP_GRADE), "steep grade", SOURCE_MOVE, True),
    Terrain.GENTLE: TerrainCost(True, _halves(GENTLE_GRADE), "gentle grade", SOURCE_MOVE, True),
    Terrain.STAIRS: TerrainCost(True, _halves(STAIRS), "stairs", SOURCE_MOVE),
    Terrain.LADDER: TerrainCost(True, _halves(LADDER), "ladder", SOURCE_MOVE),
    Terrain.CLIMB: TerrainCost(True, _halves(CLIMB_WALL), "climbing a wall or cliff", SOURCE_MOVE),
    Terrain.WATER: TerrainCost(
        False, 0, "water", "house: water is swum (002 continuous action), not walked"
    ),
    Terrain.IMPASSABLE: TerrainCost(False, 0, "impassable ground", "map"),
}


# -- results -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StepCost:
    """One pace of a path."""

    from_hex: Hex
    to_hex: Hex
    #: the facing after the step (the direction stepped)
    facing: int
    #: AP this pace adds to the move (rounded totals after minus before)
    ap: int
    #: hexsides turned before stepping (0–3) and whether that turn was paid
    turn: int
    turn_paid: bool
    #: terrain extra for the hex entered, in half AP
    terrain_halves: int
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PathCost:
    """The AP price of a path, step by step, with an itemised breakdown."""

    start: Hex
    start_facing: int
    hexes: tuple[Hex, ...]  # the hexes entered, in order (start excluded)
    facing: int  # facing at the end
    mode: MoveMode
    move_rate: int
    paces: int
    ap: int
    pace_ap: int
    terrain_ap: int
    turn_ap: int
    end_turn_ap: int
    steps: tuple[StepCost, ...]
    #: (label, AP, source) lines that sum to ``ap``
    breakdown: tuple[tuple[str, int, str], ...]

    @property
    def end(self) -> Hex:
        return self.hexes[-1] if self.hexes else self.start

    @property
    def running(self) -> bool:
        """Run movement marks the character as running for the whole round (000)."""
        return self.mode == "run"

    @property
    def turns_paid(self) -> int:
        """How many paid turns during the move (for ``rules.actions.move_action``)."""
        return sum(1 for s in self.steps if s.turn_paid)

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(f"{label}: {ap} AP ({src})" for label, ap, src in self.breakdown)


def move_ap(paces: int, terrain_halves: int, turns_paid: int, rate: int) -> int:
    """The rounded AP of a move: paces by the rate, terrain halves, paid turns."""
    pace_ap = -(-paces // rate)  # ceil
    return pace_ap + (terrain_halves + 1) // 2 + turns_paid * TURN_IN_MOVE_AP


def turn_in_place_ap(from_facing: int, to_facing: int) -> int:
    """Turning without moving: 60° costs 1 AP, more 2 AP, none 0 (000)."""
    k = facing_turn(from_facing, to_facing)
    if k == 0:
        return 0
    return FACE_ONE_HEXSIDE_AP if k == 1 else FACE_MORE_AP


def _check_rate(move_rate: int, mode: str) -> None:
    if mode not in ("move", "run"):
        raise RulesError(f"A move is walked ('move') or run ('run'), not {mode!r}.")
    if move_rate < 1:
        raise RulesError("This character cannot move that way (its rate is 0 paces per AP).")


class _Terrain:
    """Per-query cache of terrain and elevation lookups."""

    __slots__ = ("cache", "elev", "map", "orient")

    def __init__(self, game_map: Map) -> None:
        self.map = game_map
        self.orient = game_map.orientation
        self.elev = game_map.elevation
        self.cache: dict[tuple[int, int], tuple[TerrainCost, int] | None] = {}

    def info(self, q: int, r: int) -> tuple[TerrainCost, int] | None:
        """(cost, elevation) or None when off the map."""
        key = (q, r)
        if key in self.cache:
            return self.cache[key]
        col, row = hex_to_offset(Hex(q, r), self.orient)
        m = self.map
        if 0 <= col < m.cols and 0 <= row < m.rows:
            t = CODE_TERRAIN[m.terrain[row][col]]
            out = (TERRAIN_COSTS[t], self.elev[row][col] if self.elev is not None else 0)
        else:
            out = None
        self.cache[key] = out
        return out

    def step_halves(self, cost: TerrainCost, from_elev: int, to_elev: int) -> int:
        if cost.uphill_only and self.elev is not None and to_elev < from_elev:
            return 0
        return cost.halves


# -- path cost ------------------------------------------------------------------------------


def path_cost(
    game_map: Map,
    index: WallIndex,
    start: Hex,
    facing: int,
    path: Sequence[Hex],
    move_rate: int,
    mode: MoveMode = "move",
    *,
    occupied: Iterable[Hex] = (),
    end_facing: int | None = None,
) -> PathCost:
    """Price a path of neighbouring hexes (``path`` may begin with ``start``).

    Raises :class:`RulesError` for a step that is not to a neighbour, into water,
    impassable ground, off the map or an occupied hex, or through a wall.
    """
    _check_rate(move_rate, mode)
    hexes = list(path)
    if hexes and hexes[0] == start:
        hexes = hexes[1:]
    blocked = set(occupied) - {start}
    terrain = _Terrain(game_map)
    start_info = terrain.info(start.q, start.r)
    elev = start_info[1] if start_info else 0

    steps: list[StepCost] = []
    paces = halves = turns = 0
    ap_before = 0
    cur, cur_f = start, facing % 6
    rate_name = "Run" if mode == "run" else "Move"
    turn_labels = {0: "straight on", 1: "a free 60° turn"}
    for h in hexes:
        d = neighbor_direction(cur, h)
        if d is None:
            raise RulesError(
                f"Hex {h.q},{h.r} is not next to {cur.q},{cur.r}: a path goes pace by pace."
            )
        info = terrain.info(h.q, h.r)
        if info is None:
            raise RulesError(f"Hex {h.q},{h.r} is off the map.")
        cost, to_elev = info
        if not cost.enterable:
            raise RulesError(f"Nobody walks into {cost.label} (hex {h.q},{h.r}).")
        if h in blocked:
            raise RulesError(f"Hex {h.q},{h.r} is taken by another figure.")
        wall = index.movement_blocked(cur, h)
        if wall is not None:
            raise RulesError(f"{wall} stands between {cur.q},{cur.r} and {h.q},{h.r}.")
        k = facing_turn(cur_f, d)
        paid = k > FREE_HEXSIDES_PER_PACE
        extra = terrain.step_halves(cost, elev, to_elev)
        paces += 1
        halves += extra
        turns += paid
        ap_now = move_ap(paces, halves, turns, move_rate)
        reasons = [f"pace {paces} into {h.q},{h.r} ({cost.label})"]
        if paces % move_rate == 1 or move_rate == 1:
            reasons.append(f"starts a new AP of movement ({rate_name} {move_rate} paces per AP)")
        if paid:
            reasons.append(f"turns {60 * k}° while moving: {TURN_IN_MOVE_AP} AP ({SOURCE_MOVE})")
        else:
            reasons.append(turn_labels[k])
        if extra:
            reasons.append(f"{cost.label}: +{extra / 2:g} AP ({cost.source})")
        elif cost.halves and cost.uphill_only:
            reasons.append(f"{cost.label} taken downhill: no extra")
        steps.append(StepCost(cur, h, d, ap_now - ap_before, k, paid, extra, tuple(reasons)))
        ap_before = ap_now
        cur, cur_f, elev = h, d, to_elev

    end_turn = 0
    final_f = cur_f
    if end_facing is not None:
        end_turn = turn_in_place_ap(cur_f, end_facing)
        final_f = end_facing % 6

    pace_ap = -(-paces // move_rate) if paces else 0
    terrain_ap = (halves + 1) // 2
    turn_ap = turns * TURN_IN_MOVE_AP
    total = pace_ap + terrain_ap + turn_ap + end_turn
    breakdown: list[tuple[str, int, str]] = []
    if paces:
        breakdown.append(
            (f"{paces} pace(s) at {rate_name} {move_rate} per AP", pace_ap, SOURCE_MOVE)
        )
    if halves:
        breakdown.append((f"terrain extras {halves / 2:g} AP, rounded up", terrain_ap, SOURCE_MOVE))
    if turns:
        breakdown.append((f"{turns} turn(s) of 120° or more while moving", turn_ap, SOURCE_MOVE))
    if end_turn:
        k = facing_turn(cur_f, final_f)
        breakdown.append((f"turn {60 * k}° in place at the end", end_turn, SOURCE_MOVE))
    return PathCost(
        start=start,
        start_facing=facing % 6,
        hexes=tuple(hexes),
        facing=final_f,
        mode=mode,
        move_rate=move_rate,
        paces=paces,
        ap=total,
        pace_ap=pace_ap,
        terrain_ap=terrain_ap,
        turn_ap=turn_ap,
        end_turn_ap=end_turn,
        steps=tuple(steps),
        breakdown=tuple(breakdown),
    )


# -- reachable area ----------------------------------------------------------------------------


class Reach(NamedTuple):
    """How a hex is reached most cheaply."""

    cost: int  # AP
    facing: int  # facing on arrival
    previous: Hex | None  # the hex before it on that cheapest path
    paces: int
    #: payable with the counters on the action track now (000 Action Timing)
    now: bool


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


#: maps with more hexes than this search a window around the figure, not the whole map
WHOLE_MAP_CELLS = 300_000
#: a window's edges are rounded out to multiples of this many hexes
WINDOW_STEP = 64
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


def _window(game_map: Map, start: Hex, paces: int) -> tuple[int, int, int, int]:
    """The part of the map a search of ``paces`` from ``start`` needs: the whole map,
    or on a big one a square around the start (rounded out to :data:`WINDOW_STEP`
    hexes, so nearby starts share it) of at most about :data:`WHOLE_MAP_CELLS` hexes:
    a longer reach on a big map is searched that far only (its table would not fit
    in memory)."""
    if game_map.cols * game_map.rows <= WHOLE_MAP_CELLS:
        return (0, 0, game_map.cols, game_map.rows)
    col, row = hex_to_offset(start, game_map.orientation)
    reach = min(paces + 2, math.isqrt(WHOLE_MAP_CELLS) // 2)

    def span(x: int, size: int) -> tuple[int, int]:
        lo = max(0, (x - reach) // WINDOW_STEP * WINDOW_STEP)
        hi = min(size, -(-(x + reach + 1) // WINDOW_STEP) * WINDOW_STEP)
        return lo, hi

    c0, c1 = span(col, game_map.cols)
    r0, r1 = span(row, game_map.rows)
    return (c0, r0, c1, r1)


class ReachArea(Mapping):
    """``{hex: Reach}`` for every hex within reach, read from the search's arrays (the
    :class:`Reach` of a hex is made when asked), plus :meth:`path_to`: the exact path
    each :class:`Reach` was priced on."""

    def __init__(
        self,
        table: _StepTable,
        cells: np.ndarray,
        states: np.ndarray,
        cost: np.ndarray,
        paces: np.ndarray,
        dist: np.ndarray,
        kinds: np.ndarray,
        counters_present: int,
    ) -> None:
        self._table = table
        self._cells = cells  # reached cell keys, ascending
        self._states = states  # each cell's chosen state
        self._cost = cost
        self._paces = paces
        self._dist = dist  # the search's distances and edge kinds, to read paths back
        self._kinds = kinds
        self._now = counters_present
        self._hexes: list[Hex] | None = None

    def _find(self, h: object) -> int:
        if not isinstance(h, Hex):
            return -1
        k = self._table.key(h)
        if k is None:
            return -1
        i = int(np.searchsorted(self._cells, k))
        return i if i < len(self._cells) and self._cells[i] == k else -1

    def __getitem__(self, h: Hex) -> Reach:
        i = self._find(h)
        if i < 0:
            raise KeyError(h)
        st = int(self._states[i])
        p = self._table.previous(self._dist, self._kinds, st)
        cost = int(self._cost[i])
        return Reach(
            cost,
            st % 6,
            self._table.hexes(np.array([p // 6]))[0] if p >= 0 else None,
            int(self._paces[i]),
            cost <= self._now,
        )

    def __contains__(self, h: object) -> bool:
        return self._find(h) >= 0

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Hex]:
        if self._hexes is None:
            self._hexes = self._table.hexes(self._cells)
        return iter(self._hexes)

    def costs(self) -> tuple[list[Hex], np.ndarray]:
        """Every hex within reach and its AP, as a list and an array (no Reach made)."""
        return list(self), self._cost

    def path_to(self, h: Hex) -> list[Hex]:
        """The hexes entered on the cheapest path to ``h`` (start excluded)."""
        i = self._find(h)
        if i < 0:
            raise KeyError(f"hex {h.q},{h.r} is out of reach")
        cells: list[int] = []
        st = int(self._states[i])
        while st >= 0:
            if not cells or cells[-1] != st // 6:  # a paid turn stays in its cell
                cells.append(st // 6)
            st = self._table.previous(self._dist, self._kinds, st)
        cells.pop()  # the start
        cells.reverse()
        return self._table.hexes(np.array(cells, dtype=np.int64))


def reachable(
    game_map: Map,
    index: WallIndex,
    start: Hex,
    facing: int,
    ap_available: int,
    counters_present: int,
    move_rate: int,
    occupied: Iterable[Hex] = (),
    mode: MoveMode = "move",
) -> ReachArea:
    """Every hex the figure can walk to for at most ``ap_available`` AP (searched to
    :data:`MAX_REACH_AP` AP and :data:`MAX_REACH_PACES` paces at most).

    ``counters_present`` is how many counters sit on the action track now: a hex
    whose cost is no more is reachable at once (``Reach.now``), the rest only after
    more counters are placed (000 Action Timing). The start hex is included at
    cost 0. ``occupied`` hexes (other figures) can be neither entered nor crossed.
    """
    _check_rate(move_rate, mode)
    if ap_available < 0:
        raise RulesError("AP available cannot be negative.")
    if not game_map.contains(start):
        raise RulesError(f"Hex {start.q},{start.r} is off the map.")
    rate = move_rate
    ap_limit = min(ap_available, MAX_REACH_AP, MAX_REACH_PACES // rate)
    table = _step_table(game_map, index, rate, _window(game_map, start, ap_limit * rate))
    k0 = table.key(start)
    if k0 is None:
        raise RulesError(f"Hex {start.q},{start.r} is outside the searched window.")
    taken = {k for k in (table.key(h) for h in occupied) if k is not None} - {k0}
    max_units = ap_limit * 2 * rate
    dist, kinds = table.search(game_map, k0 * 6 + facing % 6, taken, max_units)
    reached = np.flatnonzero(dist <= _reach_limit(max_units))
    packed = dist[reached]
    paces = packed & ((1 << _T_SHIFT) - 1)
    turns = (packed >> _T_SHIFT) & ((1 << (_H_SHIFT - _T_SHIFT)) - 1)
    halves = (packed >> _H_SHIFT) & ((1 << (_U_SHIFT - _H_SHIFT)) - 1)
    ap = -(-paces // rate) + ((halves + 1) >> 1) + turns * TURN_IN_MOVE_AP
    ok = ap <= ap_limit
    reached, units, ap = reached[ok], (packed >> _U_SHIFT)[ok], ap[ok]
    # each cell in its state of lowest rounded AP, then lowest unrounded cost, among
    # the states less than a paid turn dearer than its cheapest (a dearer one could
    # only round better by chance: the search it replaced did not keep those).
    # ``reached`` ascends, so each cell's states are one run of it.
    cell_of = reached // 6
    starts = np.flatnonzero(np.r_[True, cell_of[1:] != cell_of[:-1]])
    sizes = np.diff(np.r_[starts, len(reached)])
    low = np.repeat(np.minimum.reduceat(units, starts), sizes)
    useful = units < low + TURN_IN_MOVE_AP * 2 * rate
    face = reached - cell_of * 6  # (an int64 % is slow)
    rank = np.where(useful, (((ap << 20) | units) << 3) | face, np.iinfo(np.int64).max)
    best = np.minimum.reduceat(rank, starts)
    cells = cell_of[starts]
    states = cells * 6 + (best & 7)
    # the chosen state's AP is in its rank; its paces in its distance
    paces = dist[states] & ((1 << _T_SHIFT) - 1)
    return ReachArea(table, cells, states, best >> 23, paces, dist, kinds, counters_present)


def step_cost(
    game_map: Map,
    index: WallIndex,
    start: Hex,
    facing: int,
    goal: Hex,
    move_rate: int,
    mode: MoveMode = "move",
    occupied: Iterable[Hex] = (),
) -> PathCost | None:
    """One pace to a neighbouring hex (None when ``goal`` is not a neighbour, or the
    step is not allowed: a wall, water, another figure).

    House reading (000 Movement AP Cost prices *changing* facing — "Characters may
    change facing up to 60 degrees (one hexside) per pace of movement for free",
    "Change facing 120 degrees during a move: 1 AP" — and says nowhere that a figure
    must face the way it steps): a step to the front or a front side turns the figure
    that way for free, as every pace does; a step aside or back keeps its facing. One
    pace, never a loop of free turns round the start (which the walking penalty would
    count as paces moved)."""
    d = neighbor_direction(start, goal)
    if d is None:
        return None
    free = facing_turn(facing, d) <= FREE_HEXSIDES_PER_PACE
    try:
        pc = path_cost(
            game_map,
            index,
            start,
            facing if free else d,
            [goal],
            move_rate,
            mode,
            occupied=occupied,
        )
    except RulesError:
        return None
    if free:
        return pc
    st = pc.steps[0]
    kept = "a step aside or back: the facing is kept"
    step = replace(st, reasons=tuple(kept if r == "straight on" else r for r in st.reasons))
    return replace(pc, start_facing=facing % 6, facing=facing % 6, steps=(step,))


def cheapest_path(
    game_map: Map,
    index: WallIndex,
    start: Hex,
    facing: int,
    goal: Hex,
    move_rate: int,
    occupied: Iterable[Hex] = (),
    mode: MoveMode = "move",
    *,
    max_ap: int | None = None,
) -> PathCost | None:
    """The cheapest path from ``start`` to ``goal`` (None when there is none within
    ``max_ap``), priced by :func:`path_cost`. A neighbour is one pace away:
    :func:`step_cost` (never a loop round the start to save a turn)."""
    _check_rate(move_rate, mode)
    occ = list(occupied)
    if goal == start:
        return path_cost(game_map, index, start, facing, [], move_rate, mode)
    if not game_map.contains(goal) or goal in set(occ):
        return None
    step = step_cost(game_map, index, start, facing, goal, move_rate, mode, occ)
    if step is not None and (max_ap is None or step.ap <= max_ap):
        return step
    search = _Search(game_map, index, start, facing, move_rate, occ, max_ap, goal)
    gk = search.grid.key(goal)
    ends = [st for st in search.best if st >> 3 == gk]
    if not ends:
        return None
    end = min(ends, key=lambda st: (search.ap(st), search.best[st]))
    return path_cost(
        game_map, index, start, facing, search.path(end), move_rate, mode, occupied=occ
    )


# -- engagement -------------------------------------------------------------------------------


def engaged(a_hex: Hex, b_hex: Hex, index: WallIndex | None = None) -> bool:
    """Two figures within one pace of each other are engaged in hand-to-hand (000
    Breaking Engagement). With an index, a wall between them keeps them apart."""
    d = a_hex.distance(b_hex)
    if d > 1:
        return False
    walled = d == 1 and index is not None and index.movement_blocked(a_hex, b_hex) is not None
    return not walled


def engagement_break_hexes(
    game_map: Map,
    index: WallIndex,
    mover: Hex,
    enemies: Iterable[Hex],
    occupied: Iterable[Hex] = (),
) -> list[Hex]:
    """Hexes next to ``mover`` it can step into that are more than one pace from
    every enemy (where a disengaging figure can go, 000 Breaking Engagement)."""
    foes = list(enemies)
    taken = set(occupied) | set(foes)
    out = []
    for d in range(6):
        h = mover.neighbor(d)
        if h in taken or not game_map.contains(h):
            continue
        if not TERRAIN_COSTS[game_map.terrain_at(h)].enterable:
            continue
        if index.movement_blocked(mover, h) is not None:
            continue
        if any(engaged(h, e, index) for e in foes):
            continue
        out.append(h)
    return out
