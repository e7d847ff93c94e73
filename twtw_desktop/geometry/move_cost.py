"""What a move costs (000 Movement AP Cost): the terrain table, the AP of paces, turns
and extras, and :func:`path_cost`, the exact price of one given path with each step's
share. The rules of the pricing are told in :mod:`.movement`'s opening docstring;
:mod:`.movement` searches with these prices and re-exports the public names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..errors import RulesError
from ..hexgrid import (
    Hex,
    facing_turn,
    hex_to_offset,
    neighbor_direction,
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
