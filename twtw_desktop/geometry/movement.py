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
numpy that settles every state of one cost at once (:func:`.move_steps._bucket_search`).
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

Where it lives: this module holds the public face (:func:`reachable`,
:func:`cheapest_path`, :func:`step_cost`, engagement) and re-exports the prices;
:mod:`.move_cost` prices a path, :mod:`.move_search` is the A* search for one hex,
:mod:`.move_steps` the step table and bucket queue behind :func:`reachable`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from ..errors import RulesError
from ..hexgrid import (
    Hex,
    facing_turn,
    hex_to_offset,
    neighbor_direction,
)
from ..model.map import Map
from ..rules.actions import (
    TURN_IN_MOVE_AP,
)
from .move_cost import (
    FREE_HEXSIDES_PER_PACE,
    ROUGH_GROUND,
    TERRAIN_COSTS,
    MoveMode,
    PathCost,
    StepCost,
    TerrainCost,
    _check_rate,
    move_ap,
    path_cost,
    turn_in_place_ap,
)
from .move_search import _Search
from .move_steps import (
    _H_SHIFT,
    _T_SHIFT,
    _U_SHIFT,
    MAX_REACH_AP,
    MAX_REACH_PACES,
    _reach_limit,
    _step_table,
    _StepTable,
)
from .walls import WallIndex

# -- reachable area ----------------------------------------------------------------------------


class Reach(NamedTuple):
    """How a hex is reached most cheaply."""

    cost: int  # AP
    facing: int  # facing on arrival
    previous: Hex | None  # the hex before it on that cheapest path
    paces: int
    #: payable with the counters on the action track now (000 Action Timing)
    now: bool


#: maps with more hexes than this search a window around the figure, not the whole map
WHOLE_MAP_CELLS = 300_000
#: a window's edges are rounded out to multiples of this many hexes
WINDOW_STEP = 64


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


__all__ = [
    "FREE_HEXSIDES_PER_PACE",
    "MAX_REACH_AP",
    "MAX_REACH_PACES",
    "ROUGH_GROUND",
    "TERRAIN_COSTS",
    "WHOLE_MAP_CELLS",
    "WINDOW_STEP",
    "MoveMode",
    "PathCost",
    "Reach",
    "ReachArea",
    "StepCost",
    "TerrainCost",
    "cheapest_path",
    "engaged",
    "engagement_break_hexes",
    "move_ap",
    "path_cost",
    "reachable",
    "step_cost",
    "turn_in_place_ap",
]
