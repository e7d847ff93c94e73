"""Moving in the action catalogue: 000's movement AP (terrain extras, walking and
running, facing, posture), 001's forgoing defence, and the Phases moves (004 Maneuver
and Tactical Move; 003 Movement: a move's speed read from its paces). Re-exported by
:mod:`.actions`.
"""

from __future__ import annotations

import math

from ..errors import RulesError
from .action_spec import (
    CLIMB_WALL,
    DROP_PRONE_AP,
    DUCK_AP,
    EMERGE_AP,
    FACE_MORE_AP,
    FACE_ONE_HEXSIDE_AP,
    GENTLE_GRADE,
    LADDER,
    SHOT_KINDS,
    SOURCE_MOVE,
    STAIRS,
    STAND_UP_AP,
    STEEP_GRADE,
    TURN_IN_MOVE_AP,
    ActionKind,
    ActionSpec,
    CostItem,
    Tactical,
    _spec,
    speed_name,
)
from .base import Speed, Strict
from .character import Character
from .gear import Weapon

# -- movement ---------------------------------------------------------------------


class TerrainExtra(Strict):
    """Extra AP for terrain along a move (000 Movement AP Cost), with its breakdown."""

    ap: int
    breakdown: tuple[CostItem, ...]


def terrain_extra_ap(
    *, steep: int = 0, gentle: int = 0, ladder: int = 0, stairs: int = 0, climb: int = 0
) -> TerrainExtra:
    """Extra AP for the paces of a move spent on each kind of terrain.

    Steep grade +1/pace, gentle grade +1 per 2 paces, ladder +1/pace, stairs +1 per
    2 paces, wall or cliff +2/pace (000). The half-AP extras of the "per 2" rates add
    up over the whole move and round up once (1 gentle pace + 1 stair = 1 AP), the same
    reading the map geometry's path costs use, so the track and the map agree.
    The map geometry counts the paces; this turns them into AP.
    """
    table = (
        ("up a steep grade", steep, STEEP_GRADE),
        ("up a gentle grade", gentle, GENTLE_GRADE),
        ("up a ladder", ladder, LADDER),
        ("up stairs", stairs, STAIRS),
        ("climbing a wall or cliff", climb, CLIMB_WALL),
    )
    items: list[CostItem] = []
    halves = 0  # the "per 2 paces" extras, in half AP
    shown = 0  # the whole AP of those already itemised per terrain type
    for label, paces, (ap, per) in table:
        if paces < 0:
            raise RulesError("Terrain paces cannot be negative.")
        if not paces:
            continue
        if per == 1:
            items.append(
                CostItem(label=f"{paces} pace(s) {label}", ap=ap * paces, source=SOURCE_MOVE)
            )
        else:
            halves += ap * paces
            shown += (ap * paces) // per
            items.append(
                CostItem(
                    label=f"{paces} pace(s) {label}", ap=(ap * paces) // per, source=SOURCE_MOVE
                )
            )
    # the half-AP extras left over by each type combine, and the total rounds up once
    leftover = math.ceil(halves / 2) - shown
    if leftover:
        items.append(
            CostItem(
                label="half-AP terrain extras, combined and rounded up",
                ap=leftover,
                source=SOURCE_MOVE,
            )
        )
    return TerrainExtra(ap=sum(i.ap for i in items), breakdown=tuple(items))


def _movement(
    kind: ActionKind,
    rate: int,
    rate_name: str,
    character: Character,
    paces: int,
    extra: TerrainExtra | int,
    turns: int,
    speed: Speed,
) -> ActionSpec:
    if paces < 1:
        raise RulesError("A move needs at least one pace.")
    if rate < 1:
        raise RulesError(f"{character.name} has no {rate_name} and cannot move that way.")
    if turns < 0:
        raise RulesError("Turns during a move cannot be negative.")
    base = math.ceil(paces / rate)
    items = [
        CostItem(label=f"{paces} pace(s) at {rate_name} {rate} per AP", ap=base, source=SOURCE_MOVE)
    ]
    if isinstance(extra, TerrainExtra):
        items.extend(extra.breakdown)
    elif extra:
        if extra < 0:
            raise RulesError("Terrain AP cannot be negative.")
        items.append(CostItem(label="terrain", ap=extra, source=SOURCE_MOVE))
    if turns:
        items.append(
            CostItem(
                label=f"{turns} turn(s) of 120° while moving",
                ap=turns * TURN_IN_MOVE_AP,
                source=SOURCE_MOVE,
            )
        )
    return _spec(
        kind,
        items,
        speed,
        SOURCE_MOVE,
        paces=paces,
        running=kind == ActionKind.RUN,
    )


def move_action(
    character: Character,
    paces: int,
    extra: TerrainExtra | int = 0,
    *,
    turns: int = 0,
    speed: Speed = Speed.NORMAL,
) -> ActionSpec:
    """Walk ``paces``: 1 AP per Move paces (rounded up), plus terrain AP (a
    :class:`TerrainExtra` or an AP number precomputed from the map) and 1 AP per
    120° turn. Facing changes of one hexside per pace are free (000)."""
    return _movement(ActionKind.MOVE, character.move, "Move", character, paces, extra, turns, speed)


def run_action(
    character: Character,
    paces: int,
    extra: TerrainExtra | int = 0,
    *,
    turns: int = 0,
    speed: Speed = Speed.SLOW,
) -> ActionSpec:
    """Run ``paces``: 1 AP per Run paces; the character counts as running for the
    whole round (000 Movement)."""
    return _movement(ActionKind.RUN, character.run, "Run", character, paces, extra, turns, speed)


#: 001 Movement Actions: "Characters who wish to forgo defense may pay 1/2 AP per pace."
SOURCE_FORGO = "001 Movement Actions"


def forgo_move(character: Character, paces: int, extra_ap: int = 0) -> ActionSpec:
    """A move forgoing defence (001 Movement Actions): ½ AP a pace, rounded up over the
    move, plus the terrain and turn AP of the path (000). 000 is silent on forgoing
    defence, so 001's price is used as printed. Until the round ends a shot at the
    mover halves the range before the TN and a blow meets Defense 0 (TN 3) with no
    advantage for them (see the combat model)."""
    if paces < 1:
        raise RulesError("A move needs at least one pace.")
    if character.move < 1 and character.run < 1:
        raise RulesError(f"{character.name} cannot move.")
    if extra_ap < 0:
        raise RulesError("Terrain AP cannot be negative.")
    items = [
        CostItem(
            label=f"{paces} pace(s) forgoing defence at ½ AP a pace",
            ap=math.ceil(paces / 2),
            source=SOURCE_FORGO,
        )
    ]
    if extra_ap:
        items.append(CostItem(label="terrain and turns", ap=extra_ap, source=SOURCE_MOVE))
    return _spec(
        ActionKind.MOVE, items, Speed.NORMAL, SOURCE_FORGO, paces=paces, forgo_defence=True
    )


# -- Phases moves (004 Maneuver and Tactical Move; 003 Movement) --------------------

#: 004 Maneuver: "Step is a special case of combining a Quick action with a movement".
#: House: a Step is one pace (the page's distance table is missing).
STEP_PACES = 1
SOURCE_MANEUVER = "004 Maneuver"
SOURCE_TACTICAL = "004 Tactical Move"
#: the house reading of 004's missing move distances, for the log and the Rules reference
PHASE_MOVE_READING = (
    "004 Maneuver names Step, Quick, Half and Full moves and says a Full move goes further "
    "than a Quick one; its distance table is missing, so (house) a Step is 1 pace, a Quick "
    "move up to half the Move value, a Half move up to the Move value (003: walking) and a "
    "Full move up to the Run value (003: running)"
)


def phase_move_speed(
    character: Character, paces: int, *, run: bool = False
) -> tuple[str, Speed, int]:
    """The Phases move that covers ``paces`` (terrain included): its name, speed and
    most paces (004 Maneuver, house distances: :data:`PHASE_MOVE_READING`). A run is a
    Full move whatever its length. RulesError beyond the Run value."""
    if paces < 1:
        raise RulesError("A move needs at least one pace.")
    if character.run < 1 and character.move < 1:
        raise RulesError(f"{character.name} cannot move.")
    quick = math.ceil(character.move / 2)
    moves = (
        ("Step", Speed.FAST, STEP_PACES),
        ("Quick move", Speed.FAST, quick),
        ("Half move", Speed.NORMAL, character.move),
        ("Full move", Speed.SLOW, max(character.run, character.move)),
    )
    for name, speed, most in moves[3:] if run else moves:
        if paces <= most:
            return name, speed, most
    raise RulesError(
        f"{character.name} moves at most {max(character.run, character.move)} paces in a "
        f"round (a Full move, Run {character.run}); {paces} is too far ({SOURCE_MANEUVER})."
    )


def phase_move(
    character: Character, paces: int, extra_paces: int = 0, *, run: bool = False
) -> ActionSpec:
    """A move in the Phases edition: its speed from the paces it covers, terrain and
    paid turns counted as extra paces (house: each AP 000 charges for them is a pace),
    running when beyond the Move value (003 Movement) or a run (004 Maneuver; see
    :func:`phase_move_speed`). The spec carries no AP (the Phases edition has none)."""
    if extra_paces < 0:
        raise RulesError("Terrain paces cannot be negative.")
    total = paces + extra_paces
    name, speed, most = phase_move_speed(character, total, run=run)
    running = run or total > character.move
    label = f"{name}: {paces} pace(s)"
    if extra_paces:
        label += f" + {extra_paces} for terrain and turns"
    label += f", up to {most} ({speed_name(speed)})"
    if running:
        label += "; running (003 Movement)"
    return _spec(
        ActionKind.RUN if run else ActionKind.MOVE,
        [CostItem(label=label, ap=0, source=SOURCE_MANEUVER)],
        speed,
        SOURCE_MANEUVER,
        paces=paces,
        running=running,
        step=name == "Step",
    )


def tactical_of(weapon: Weapon | None, kind: ActionKind, aims: int) -> Tactical:
    """What a shot allows as a tactical move (004 Tactical Move): "half" for a snap
    shot without aim from a single or double action pistol ("The only tactical moves
    that can be performed with a Half action"), "slow" for Slow gear ("Tactical actions
    cannot be performed with gear that has the Slow attribute"), "full" otherwise
    ("Most tactical moves are Full actions"); "" for what is not a shot."""
    if weapon is None or kind not in SHOT_KINDS:
        return ""
    if Speed(weapon.speed) == Speed.SLOW:
        return "slow"
    if (
        kind in (ActionKind.SNAP_SHOT, ActionKind.NORMAL_SHOT)
        and aims == 0
        and weapon.kind == "handgun"
        and weapon.action in ("single", "double")
    ):
        return "half"
    return "full"


def _simple(kind: ActionKind, label: str, ap: int, speed: Speed, source: str) -> ActionSpec:
    return _spec(kind, [CostItem(label=label, ap=ap, source=source)], speed, source)


def drop_prone() -> ActionSpec:
    """Drop prone: 1 AP (000)."""
    return _simple(ActionKind.DROP_PRONE, "drop prone", DROP_PRONE_AP, Speed.FAST, SOURCE_MOVE)


def stand_up() -> ActionSpec:
    """Stand up: 2 AP (000)."""
    return _simple(ActionKind.STAND_UP, "stand up", STAND_UP_AP, Speed.NORMAL, SOURCE_MOVE)


def duck() -> ActionSpec:
    """Duck behind cover: 1 AP (000)."""
    return _simple(ActionKind.DUCK, "duck behind cover", DUCK_AP, Speed.FAST, SOURCE_MOVE)


def emerge() -> ActionSpec:
    """Emerge from cover: 1 AP (000)."""
    return _simple(ActionKind.EMERGE, "emerge from cover", EMERGE_AP, Speed.FAST, SOURCE_MOVE)


def change_facing(hexsides: int) -> ActionSpec:
    """Turn in place: one hexside (60°) 1 AP, more 2 AP (000). ``hexsides`` is the
    turn in either direction, 1–3."""
    if not 1 <= hexsides <= 3:
        raise RulesError("A facing change turns 1 to 3 hexsides (60° to 180°).")
    ap = FACE_ONE_HEXSIDE_AP if hexsides == 1 else FACE_MORE_AP
    return _simple(ActionKind.FACE, f"turn {60 * hexsides}° in place", ap, Speed.FAST, SOURCE_MOVE)


def turn_during_move() -> ActionSpec:
    """A 120° turn in the middle of a move: 1 AP (000)."""
    return _simple(
        ActionKind.TURN_IN_MOVE, "turn 120° while moving", TURN_IN_MOVE_AP, Speed.FAST, SOURCE_MOVE
    )
