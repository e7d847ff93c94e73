"""The action catalogue's vocabulary: 000's AP numbers and page names, the kinds of
action, the Phases speeds and how they combine (004 Freestyle Action Speeds), and the
:class:`ActionSpec` every constructor of :mod:`.actions` returns (its AP itemised).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..errors import RulesError
from .base import Count, Id, Name, SmallInt, Speed, Strict, Text

# -- 000 numbers ------------------------------------------------------------------

#: 000 Movement AP Cost
DROP_PRONE_AP = 1
STAND_UP_AP = 2
DUCK_AP = 1
EMERGE_AP = 1
FACE_ONE_HEXSIDE_AP = 1  # change facing 60° without moving
FACE_MORE_AP = 2  # change facing more than 60° without moving
TURN_IN_MOVE_AP = 1  # change facing 120° during a move
#: 000 Movement AP Cost: terrain extras as (AP, per this many paces)
STEEP_GRADE = (1, 1)
GENTLE_GRADE = (1, 2)
LADDER = (1, 1)
STAIRS = (1, 2)
CLIMB_WALL = (2, 1)
#: 000 Skills During Action Time: 4 AP, or 8 for a task needing full attention
SKILL_AP = 4
SKILL_FULL_ATTENTION_AP = 8
SKILL_COSTS = (SKILL_AP, SKILL_FULL_ATTENTION_AP)
#: 000 Hand to Hand Combat
CAREFUL_ATTACK_EXTRA_AP = 2
CAREFUL_ATTACK_BONUS = 1
BLOCK_AP = 2
DODGE_AP = 3
#: 000 Breaking Engagement
CAREFUL_DISENGAGE_AP = 2
#: 000 Multiple Attacks: switching targets; +1 more outside the field of fire
TARGET_SWITCH_AP = 1
OUTSIDE_FIELD_OF_FIRE_AP = 1
#: 000 Fan Firing: 1 AP per shot (cocking ignored)
FAN_SHOT_AP = 1
#: 000 Aim and Snap Shots: at most two aim actions (the edition file holds the same value)
MAX_AIMS = 2
#: the most aim actions any edition allows for one shot (001/003: the first, which
#: removes the snap penalty, and two more); ``Edition.aim.max`` is the encounter's own
MOST_AIMS = 3

SOURCE_MOVE = "000 Movement AP Cost"
SOURCE_SHOTS = "000 Aim and Snap Shots"
SOURCE_READY = "000 Cocking and Readying"
SOURCE_TWO_WEAPONS = "000 Two Weapons"
SOURCE_SKILLS = "000 Skills During Action Time"
SOURCE_MELEE = "000 Hand to Hand Combat"
SOURCE_DISENGAGE = "000 Breaking Engagement"
SOURCE_MULTI = "000 Multiple Attacks"
SOURCE_FAN = "000 Fan Firing"
SOURCE_STUN = "000 Stun"
SOURCE_SPEEDS = "004 Example Action Speeds"
SOURCE_COMBINE = "004 Freestyle Action Speeds"
SOURCE_GEAR = "000 gear (R column)"


class ActionKind(StrEnum):
    """What an action is, in the game's words."""

    DRAW = "draw"
    READY = "ready"
    COCK = "cock"
    SNAP_SHOT = "snap_shot"
    NORMAL_SHOT = "normal_shot"
    AIMED_SHOT = "aimed_shot"
    FAN_FIRE = "fan_fire"
    AIM = "aim"
    RELOAD = "reload"
    MOVE = "move"
    RUN = "run"
    DROP_PRONE = "drop_prone"
    STAND_UP = "stand_up"
    DUCK = "duck"
    EMERGE = "emerge"
    FACE = "face"
    TURN_IN_MOVE = "turn_in_move"
    SWITCH_TARGET = "switch_target"
    SKILL = "skill"
    MELEE_ATTACK = "melee_attack"
    BLOCK = "block"
    DODGE = "dodge"
    RECOVER = "recover"
    DISENGAGE = "disengage"
    CLEAR_JAM = "clear_jam"
    MOUNT = "mount"
    DISMOUNT = "dismount"
    COVERING_FIRE = "covering_fire"
    OTHER = "other"


#: Kinds that are shots (rushing turns them into snap shots, 000 Rushing Actions 1).
SHOT_KINDS = frozenset(
    {ActionKind.SNAP_SHOT, ActionKind.NORMAL_SHOT, ActionKind.AIMED_SHOT, ActionKind.FAN_FIRE}
)
#: Kinds that are combat actions (004: non-combat skill use does not combine with them).
COMBAT_KINDS = SHOT_KINDS | {
    ActionKind.MELEE_ATTACK,
    ActionKind.BLOCK,
    ActionKind.DODGE,
    ActionKind.SWITCH_TARGET,
    ActionKind.DISENGAGE,
}

#: Phases speeds the pages do not give, with the reason (see the module docstring).
HOUSE_SPEEDS: dict[str, str] = {
    "aimed_shot": "shot + aims combined (004); one speed slower than the shot without an"
    " aim speed in the gear entry; Full when the combination is not allowed",
    "move": "Phases: by its paces (004 Maneuver; its distance table is missing): a Step"
    " one pace, Quick up to half the Move value, Half up to Move, Full up to Run",
    "run": "Full (running all round)",
    "drop_prone/duck/emerge/face/turn_in_move": "Quick",
    "stand_up/block/dodge/disengage": "Half (004's dodging Miranda moves as a Half action)",
    "recover": "Full (the stunned character spends the round)",
    "reload/cock/draw": "from the gear entry; where it has none, Quick for handguns, Fast"
    " weapons and cartridge reloads, Half for other items, Full for muzzle loaders (004)",
    "only a free action": "Quick",
}

_SPEED_ORDER = (Speed.FAST, Speed.NORMAL, Speed.SLOW)


def speed_rank(speed: Speed) -> int:
    """0 for Fast (Quick), 1 for Normal (Half), 2 for Slow (Full)."""
    return _SPEED_ORDER.index(speed)


def faster(speed: Speed) -> Speed:
    """One speed category faster, never beyond Fast (004 hesitation)."""
    return _SPEED_ORDER[max(0, speed_rank(speed) - 1)]


def slower(speed: Speed) -> Speed:
    """One speed category slower, never beyond Slow."""
    return _SPEED_ORDER[min(2, speed_rank(speed) + 1)]


def speed_name(speed: Speed) -> str:
    """004's action word for a speed: Quick, Half or Full."""
    return {Speed.FAST: "Quick", Speed.NORMAL: "Half", Speed.SLOW: "Full"}[speed]


class SpeedCombination(Strict):
    """The declared speed of several actions combined, and why (004)."""

    speed: Speed
    reasons: tuple[str, ...]


def combine_speeds(speeds: list[Speed] | tuple[Speed, ...], free: int = 0) -> SpeedCombination:
    """Combine the speeds of a round's actions into one declared speed (004 Freestyle
    Action Speeds).

    A Full action stands alone; at most three actions plus one free action (further
    free actions count as Quick); three Quick make a Full; two Half make a Full; a
    Quick and a Half make a Half; two Quick make a Half; no other three-action mix is
    allowed (the numbered rules win over the page's "two Half and one Quick" intro,
    which they contradict). Only a free action counts as Quick (house).
    """
    if free < 0:
        raise RulesError("The number of free actions cannot be negative.")
    actions = list(speeds)
    reasons: list[str] = []
    if free > 1:
        actions += [Speed.FAST] * (free - 1)
        reasons.append(f"{free - 1} free action(s) beyond the first count as Quick")
    if free:
        reasons.append("one free action is allowed on top")
    if not actions:
        if free:
            return SpeedCombination(
                speed=Speed.FAST, reasons=(*reasons, "only a free action: Quick")
            )
        raise RulesError("Declare at least one action.")
    names = " + ".join(speed_name(s) for s in actions)
    if len(actions) > 3:
        raise RulesError(
            "No more than three actions (plus one free action) can be combined in a round."
        )
    if Speed.SLOW in actions and len(actions) > 1:
        raise RulesError("A Full action cannot be combined with any other action.")
    if len(actions) == 1:
        return SpeedCombination(speed=actions[0], reasons=(*reasons, f"one {names} action"))
    if len(actions) == 3:
        if all(s == Speed.FAST for s in actions):
            return SpeedCombination(
                speed=Speed.SLOW, reasons=(*reasons, "three Quick actions make a Full action")
            )
        raise RulesError(f"Only three Quick actions can be combined; {names} is not allowed.")
    if actions.count(Speed.NORMAL) == 2:
        return SpeedCombination(
            speed=Speed.SLOW, reasons=(*reasons, "two Half actions make a Full action")
        )
    if actions.count(Speed.NORMAL) == 1:
        return SpeedCombination(
            speed=Speed.NORMAL, reasons=(*reasons, "a Quick and a Half action make a Half action")
        )
    return SpeedCombination(
        speed=Speed.NORMAL, reasons=(*reasons, "two Quick actions make a Half action")
    )


def simultaneous_speed(speeds: list[Speed] | tuple[Speed, ...]) -> Speed:
    """Two actions done at once (one per hand) count as one action at the speed of the
    slower (004 Simultaneous Actions)."""
    if not speeds:
        raise RulesError("Simultaneous actions need at least one action.")
    return max(speeds, key=speed_rank)


class CostItem(Strict):
    """One line of an AP breakdown."""

    label: Text
    ap: SmallInt
    source: Text


#: how a shot goes with a move (004 Tactical Move; see :func:`tactical_of`)
Tactical = Literal["", "half", "full", "slow"]


class ActionSpec(Strict):
    """One action a character declares: its AP cost, its Phases speed and its targets.

    ``ap`` is what the action track removes (for ``recover`` the track takes all the
    round's AP, flagged by ``all_ap``). ``multi_round`` actions (000 skills) may be
    paid over several rounds. ``running`` marks the character running for the whole
    round (000 Movement).
    """

    kind: ActionKind
    ap: Count
    weapon_id: Id | None = None
    #: the weapon's name for log lines (empty in specs saved before it existed)
    weapon_name: Name = ""
    target_ids: tuple[Id, ...] = ()
    paces: Count = 0
    note: Text = ""
    speed: Speed = Speed.NORMAL
    aims: Annotated[int, Field(ge=0, le=MOST_AIMS)] = 0
    all_ap: bool = False
    multi_round: bool = False
    running: bool = False
    noncombat: bool = False
    result_bonus: SmallInt = 0  # careful attacks (+1); aim bonuses are the combat model's
    breakdown: tuple[CostItem, ...] = ()
    source: Text = ""
    #: Phases: a one-pace Step, which rides along with a Quick action (004 Maneuver)
    step: bool = False
    #: a move forgoing defence (001 Movement Actions): until the round ends shots at the
    #: mover halve the range for the TN and blows at them meet Defense 0 (TN 3)
    forgo_defence: bool = False
    #: Phases shots: the shot takes the firer-movement penalty (003 Move and Fire: only
    #: then may the firer move after it)
    firer_moving: bool = False
    #: Phases shots combined with a move (004 Tactical Move): "half" (a pistol's snap
    #: shot without aim), "full" (any other shot) or "slow" (Slow gear: no tactical move)
    tactical: Tactical = ""

    @model_validator(mode="after")
    def _breakdown_adds_up(self) -> ActionSpec:
        if self.breakdown and sum(i.ap for i in self.breakdown) != self.ap:
            raise ValueError("the AP breakdown does not add up to the action's cost")
        return self

    @property
    def is_combat(self) -> bool:
        return self.kind in COMBAT_KINDS

    @property
    def is_shot(self) -> bool:
        return self.kind in SHOT_KINDS

    def describe(self) -> str:
        """A short line for the log: "normal shot with Colt Peacemaker (3 AP)"."""
        what = self.kind.value.replace("_", " ")
        if self.weapon_id:
            what += f" with {self.weapon_name or self.weapon_id}"
        cost = "all AP" if self.all_ap else f"{self.ap} AP"
        return f"{what} ({cost})"


def _spec(
    kind: ActionKind, items: list[CostItem], speed: Speed, source: str, **fields: object
) -> ActionSpec:
    return ActionSpec(
        kind=kind,
        ap=sum(i.ap for i in items),
        breakdown=tuple(items),
        speed=speed,
        source=source,
        **fields,  # type: ignore[arg-type]
    )
