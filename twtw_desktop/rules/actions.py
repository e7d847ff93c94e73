"""The action catalogue: what an action costs in AP (AP v2) and how fast it is (Phases).

Every constructor returns an :class:`ActionSpec` whose ``breakdown`` itemises the AP
cost as ``(label, ap, source)`` entries, so the action track and the UI can show the
Judge where each AP comes from. AP numbers are the 000 values (Conflict – AP v2,
"Movement AP Cost", "Aim and Snap Shots", "Cocking and Readying", "Skills During
Action Time", "Hand to Hand Combat", "Breaking Engagement", "Multiple Attacks",
"Fan Firing"); Phases speeds follow 004 "Example Action Speeds".

House values (the pages are silent or only hint) are collected in
:data:`HOUSE_SPEEDS` and explained where they are used:

* An aimed shot's speed combines the shot and its aim actions under 004's combination
  rules (a Peacemaker's Quick shot + one Quick aim = Half, as 004's "regular Joe"
  says); a gear entry without an aim speed makes it one speed slower than the shot.
* 004 Maneuver names four moves (Step, Quick, Half, Full) and says a Full move goes
  further than a Quick one; its distance table (Tacticalmove.JPG) is missing. In the
  Phases edition the move's speed is read from its paces (:func:`phase_move`): a Step
  is one pace, a Quick move up to half the Move value (rounded up), a Half move up to
  the Move value (003: walking), a Full move up to the Run value (003: running beyond
  the speed value). The AP v2 catalogue's own ``move_action`` keeps Half, a run Full.
* Posture changes, ducking and facing are Quick (Fast); standing up, blocking,
  dodging (004's Miranda example resolves her dodging move as Half) and a careful
  disengage are Half (Normal); recovering from stun uses the whole round (Full).
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..errors import RulesError
from .base import Count, Id, Name, SmallInt, Speed, Strict, Text
from .character import Character
from .gear import Weapon

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


# -- weapons ----------------------------------------------------------------------


def _handling_speed(weapon: Weapon, field: str) -> Speed:
    """A weapon's Phases speed for cocking/readying/reloading from the gear file; where
    the entry has none, 004's list: handguns and Fast weapons Quick, other items Half."""
    speed = getattr(weapon, field, None)
    if speed is not None:
        return Speed(speed)
    if weapon.kind == "handgun" or weapon.speed == Speed.FAST:
        return Speed.FAST
    return Speed.NORMAL


def draw_action(weapon: Weapon, quick_draw_level: int = 0) -> ActionSpec:
    """Draw (ready) a weapon: the gear model's draw cost (a holstered handgun drawn with
    Quick Draw costs less) where it has one, else the weapon's ready cost (000)."""
    draw_cost = getattr(weapon, "draw_cost", None)
    if callable(draw_cost):
        _ap, rows = draw_cost(quick_draw_level)
        items = [CostItem(label=label, ap=ap, source=src) for label, ap, src in rows]
    else:
        items = [
            CostItem(
                label=f"draw {weapon.name} (size {weapon.size})",
                ap=weapon.ready_ap,
                source=SOURCE_READY,
            )
        ]
    return _spec(
        ActionKind.DRAW,
        items,
        _handling_speed(weapon, "ready_speed"),
        SOURCE_READY,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
    )


def ready_action(weapon: Weapon) -> ActionSpec:
    """Ready an item: 2 AP up to size 5, +1 per size above (000)."""
    return _spec(
        ActionKind.READY,
        [
            CostItem(
                label=f"ready {weapon.name} (size {weapon.size})",
                ap=weapon.ready_ap,
                source=SOURCE_READY,
            )
        ],
        _handling_speed(weapon, "ready_speed"),
        SOURCE_READY,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
    )


def cock_action(weapon: Weapon) -> ActionSpec:
    """Cock a weapon: its C column (000). Refused for weapons that never cock."""
    if weapon.cock_ap is None:
        raise RulesError(f"The {weapon.name} has no hammer to cock.")
    return _spec(
        ActionKind.COCK,
        [CostItem(label=f"cock {weapon.name}", ap=weapon.cock_ap, source=SOURCE_READY)],
        _handling_speed(weapon, "cock_speed"),
        SOURCE_READY,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
    )


def snap_shot(weapon: Weapon, target_ids: tuple[str, ...] | list[str] = ()) -> ActionSpec:
    """A snap shot: the weapon's snap cost, fired at its snap penalty (000)."""
    if weapon.snap_ap is None:
        raise RulesError(f"The {weapon.name} cannot fire a snap shot.")
    return _spec(
        ActionKind.SNAP_SHOT,
        [CostItem(label=f"snap shot, {weapon.name}", ap=weapon.snap_ap, source=SOURCE_SHOTS)],
        weapon.speed,
        SOURCE_SHOTS,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        target_ids=tuple(target_ids),
    )


def normal_shot(weapon: Weapon, target_ids: tuple[str, ...] | list[str] = ()) -> ActionSpec:
    """A normal shot: the weapon's normal cost, no snap penalty (000)."""
    if weapon.normal_ap is None:
        raise RulesError(f"The {weapon.name} cannot be fired.")
    return _spec(
        ActionKind.NORMAL_SHOT,
        [CostItem(label=f"normal shot, {weapon.name}", ap=weapon.normal_ap, source=SOURCE_SHOTS)],
        weapon.speed,
        SOURCE_SHOTS,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        target_ids=tuple(target_ids),
    )


def aimed_shot(
    weapon: Weapon,
    aims: int = 1,
    target_ids: tuple[str, ...] | list[str] = (),
    *,
    two_weapons: bool = False,
    two_weapon_aim_extra: int = 2,
    max_aims: int = MAX_AIMS,
) -> ActionSpec:
    """A normal shot followed by 1 or 2 aim actions (000 Aim and Snap Shots).

    Each aim costs the weapon's aim AP; aiming two weapons held together costs
    ``two_weapon_aim_extra`` more per aim (000 Two Weapons; the edition file holds
    the number). Cyril's Schofield: 3 + 2 × 2 = 7 AP; the Sharps: 7 + 4 = 11 AP.
    """
    if weapon.normal_ap is None or weapon.aim_ap is None:
        raise RulesError(f"The {weapon.name} cannot be aimed.")
    if not 1 <= aims <= max_aims:
        raise RulesError(f"An aimed shot takes 1 to {max_aims} aim actions, not {aims}.")
    items = [
        CostItem(label=f"normal shot, {weapon.name}", ap=weapon.normal_ap, source=SOURCE_SHOTS)
    ]
    for n in range(1, aims + 1):
        items.append(CostItem(label=f"aim {n}", ap=weapon.aim_ap, source=SOURCE_SHOTS))
        if two_weapons:
            items.append(
                CostItem(
                    label=f"aim {n}: two weapons together",
                    ap=two_weapon_aim_extra,
                    source=SOURCE_TWO_WEAPONS,
                )
            )
    return _spec(
        ActionKind.AIMED_SHOT,
        items,
        aimed_shot_speed(weapon, aims),
        SOURCE_SHOTS,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        target_ids=tuple(target_ids),
        aims=aims,
    )


_AIM_ITEM = re.compile(r"^aim (?:action )?(\d+)\b")


def with_aims(spec: ActionSpec, aims: int) -> ActionSpec | None:
    """The aimed shot ``spec`` with only its first ``aims`` aim actions (0: the normal
    shot), its AP itemised the same way; None when the breakdown cannot say which AP
    are which aim (aims paid before the shot, a spec without aim lines)."""
    if spec.kind != ActionKind.AIMED_SHOT or not 0 <= aims < spec.aims:
        return None
    kept: list[CostItem] = []
    seen: set[int] = set()
    for item in spec.breakdown:
        if item.ap < 0:
            return None
        m = _AIM_ITEM.match(item.label)
        if m:
            seen.add(int(m.group(1)))
            if int(m.group(1)) > aims:
                continue
        kept.append(item)
    if seen != set(range(1, spec.aims + 1)):
        return None
    return spec.model_copy(
        update={
            "kind": ActionKind.AIMED_SHOT if aims else ActionKind.NORMAL_SHOT,
            "aims": aims,
            "ap": sum(i.ap for i in kept),
            "breakdown": tuple(kept),
        }
    )


def aim_action(
    weapon: Weapon,
    target_ids: tuple[str, ...] | list[str] = (),
    *,
    nth: int = 1,
    extra_ap_each: int = 0,
    source: str = SOURCE_SHOTS,
    edition_id: str | None = None,
) -> ActionSpec:
    """One aim action taken ahead of the shot (000 Aim and Snap Shots: an aimed shot is a
    normal shot followed by aim actions; 001/003: the aim before a shot): the weapon's
    aim AP, its Phases aim speed. The ``nth`` aim at the target costs ``extra_ap_each``
    more per aim before it (001: each aim after the first costs one more AP)."""
    if weapon.normal_ap is None or weapon.aim_ap is None:
        raise RulesError(f"The {weapon.name} cannot be aimed.")
    base = weapon.aim_ap if edition_id is None else weapon.aim_ap_in(edition_id)
    ap = (base or 0) + (nth - 1) * extra_ap_each
    label = f"aim, {weapon.name}" if nth == 1 else f"aim {nth}, {weapon.name}"
    return _spec(
        ActionKind.AIM,
        [CostItem(label=label, ap=ap, source=source)],
        _handling_speed(weapon, "aim_speed"),
        source,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        target_ids=tuple(target_ids),
    )


def aimed_shot_speed(weapon: Weapon, aims: int) -> Speed:
    """Phases speed of a shot plus ``aims`` aim actions: the shot and each aim combine
    under 004's rules (a Peacemaker's Quick shot + one Quick aim = Half, 004's "regular
    Joe"). Where the gear entry has no aim speed, or the combination is not allowed,
    the shot counts as Full (house)."""
    aim_speed = getattr(weapon, "aim_speed", None)
    if aim_speed is None:
        return slower(weapon.speed)
    try:
        return combine_speeds([weapon.speed] + [Speed(aim_speed)] * aims).speed
    except RulesError:
        return Speed.SLOW


def shot_speed(
    weapon: Weapon, *, aims: int = 0, cock_first: bool = False, draw_first: bool = False
) -> SpeedCombination:
    """Phases speed of one shot with what it folds in: drawing the gun first (its
    ready speed), cocking it first (its cock speed), the shot, and its aims (004
    Freestyle Action Speeds: "When combining two actions, the resulting speed is one
    slower than the slowest action in the group. Three Quick actions can be combined
    to be Full. No other three action combination is allowed."). A Peacemaker drawn
    (Half), cocked (Quick) and fired (Quick) is three actions with a Half among them:
    not allowed in one declaration (RulesError, 004's reason). A shot with aims only
    keeps :func:`aimed_shot_speed`."""
    if not (cock_first or draw_first):
        speed = aimed_shot_speed(weapon, aims) if aims else Speed(weapon.speed)
        return SpeedCombination(speed=speed, reasons=(f"the shot: {speed_name(speed)}",))
    parts: list[Speed] = []
    if draw_first:
        parts.append(_handling_speed(weapon, "ready_speed"))
    if cock_first:
        parts.append(_handling_speed(weapon, "cock_speed"))
    parts.append(Speed(weapon.speed))
    aim_speed = getattr(weapon, "aim_speed", None)
    parts += [Speed(aim_speed) if aim_speed is not None else Speed.FAST] * aims
    what = " + ".join(
        (["draw"] if draw_first else [])
        + (["cock"] if cock_first else [])
        + ["shot"]
        + ["aim"] * aims
    )
    try:
        combo = combine_speeds(parts)
    except RulesError as e:
        raise RulesError(f"{what} cannot be one declaration: {e} (004)") from None
    return SpeedCombination(speed=combo.speed, reasons=tuple(f"{what}: {r}" for r in combo.reasons))


def has_single_action_trait(weapon: Weapon | None, *, cocked: bool = False) -> bool:
    """Does a shot with this gun carry the single action trait? A single-action gun
    does; a double-action revolver does when it was cocked for the shot (000 Cocking
    and Readying: "it loses all negative double action traits and replaces them with
    the single action trait (wins initiative-based ties) for that shot")."""
    if weapon is None:
        return False
    if weapon.action == "single" or "single_action" in weapon.attributes:
        return True
    return cocked and weapon.action == "double"


def single_action_tie_key(
    action: ActionSpec, weapon: Weapon | None, *, cocked: bool = False
) -> int:
    """A sort-key part for every initiative-based tie-break (0 sorts first): a shot
    whose gun carries the single action trait wins the tie ("wins initiative-based
    ties", 000 Cocking and Readying; 004: "Winning initiative based ties with other
    firearms"). Put it right after the initiative value and before any other
    tie-break, e.g. the AP v2 stack's ``(-(fragment + bonus), single_action_tie_key(..),
    -card number, seq)``. Anything that is not a shot sorts as 1."""
    if action.kind not in SHOT_KINDS:
        return 1
    return 0 if has_single_action_trait(weapon, cocked=cocked) else 1


def fan_fire(
    weapon: Weapon, shots: int, target_ids: tuple[str, ...] | list[str] = ()
) -> ActionSpec:
    """Fan firing a single-action revolver: 1 AP per shot plus 1 per target switch,
    cocking ignored (000 Fan Firing)."""
    if weapon.kind != "handgun" or weapon.action != "single":
        raise RulesError(f"Only single-action revolvers can be fanned, not the {weapon.name}.")
    if shots < 1:
        raise RulesError("Fan firing needs at least one shot.")
    targets = tuple(target_ids)
    switches = max(0, len(targets) - 1)
    items = [CostItem(label=f"{shots} fanned shot(s)", ap=shots * FAN_SHOT_AP, source=SOURCE_FAN)]
    if switches:
        items.append(
            CostItem(
                label=f"{switches} target switch(es)",
                ap=switches * TARGET_SWITCH_AP,
                source=SOURCE_FAN,
            )
        )
    return _spec(
        ActionKind.FAN_FIRE,
        items,
        Speed.FAST,
        SOURCE_FAN,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        target_ids=targets,
    )


def reload_action(weapon: Weapon, cartridges: int = 1) -> ActionSpec:
    """Reload: the weapon's reload AP per cartridge, or once for weapons whose gear
    entry reloads them whole (000 gear R column). Phases speed from the gear entry,
    else Quick for cartridges and Full for muzzle loaders (004)."""
    if weapon.reload_ap is None:
        raise RulesError(f"The {weapon.name} cannot be reloaded.")
    if cartridges < 1:
        raise RulesError("Reloading needs at least one cartridge.")
    if weapon.capacity and cartridges > weapon.capacity:
        raise RulesError(f"The {weapon.name} holds only {weapon.capacity} rounds.")
    speed = getattr(weapon, "reload_speed", None)
    if speed is None:
        speed = Speed.SLOW if weapon.action == "muzzle" else Speed.FAST
    if getattr(weapon, "reload_unit", "cartridge") == "full":
        item = CostItem(label=f"reload the {weapon.name}", ap=weapon.reload_ap, source=SOURCE_GEAR)
    else:
        item = CostItem(
            label=f"reload {cartridges} × {weapon.reload_ap} AP",
            ap=weapon.reload_ap * cartridges,
            source=SOURCE_GEAR,
        )
    return _spec(
        ActionKind.RELOAD,
        [item],
        Speed(speed),
        SOURCE_GEAR,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
    )


def switch_target(outside_field_of_fire: bool = False) -> ActionSpec:
    """Change targets during a series of attacks: 1 AP, +1 outside the field of fire (000)."""
    items = [CostItem(label="switch target", ap=TARGET_SWITCH_AP, source=SOURCE_MULTI)]
    if outside_field_of_fire:
        items.append(
            CostItem(
                label="outside the field of fire", ap=OUTSIDE_FIELD_OF_FIRE_AP, source=SOURCE_MULTI
            )
        )
    return _spec(ActionKind.SWITCH_TARGET, items, Speed.FAST, SOURCE_MULTI)


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


# -- skills, melee, defence -------------------------------------------------------


def skill_action(
    skill: str, ap: int = SKILL_AP, *, multi_round: bool = True, noncombat: bool = True
) -> ActionSpec:
    """Use a skill: 4 AP, or 8 for a task that needs full attention (000).

    ``multi_round`` lets the AP be paid over several rounds (picking a lock, not
    sneaking); the attempt resolves when the last AP is paid. Phases: skill use is
    Half (004), an 8-AP task is Full (an extended action).
    """
    if ap not in SKILL_COSTS:
        raise RulesError(f"A skill costs {SKILL_AP} or {SKILL_FULL_ATTENTION_AP} AP, not {ap}.")
    speed = Speed.SLOW if ap == SKILL_FULL_ATTENTION_AP else Speed.NORMAL
    return _spec(
        ActionKind.SKILL,
        [
            CostItem(
                label=f"{skill} ({'full attention' if ap == SKILL_FULL_ATTENTION_AP else 'simple'})",
                ap=ap,
                source=SOURCE_SKILLS,
            )
        ],
        speed,
        SOURCE_SKILLS,
        note=skill,
        multi_round=multi_round,
        noncombat=noncombat,
    )


def melee_attack(
    base_ap: int,
    *,
    careful: bool = False,
    weapon: Weapon | None = None,
    target_ids: tuple[str, ...] | list[str] = (),
    attack: str = "attack",
) -> ActionSpec:
    """A hand-to-hand attack whose cost the combat model supplies; a careful attack
    costs 2 AP more for +1 to the result (000). Phases speed: the weapon's, Half
    when brawling (004)."""
    if base_ap < 0:
        raise RulesError("An attack cannot cost negative AP.")
    items = [CostItem(label=attack, ap=base_ap, source=SOURCE_MELEE)]
    if careful:
        items.append(CostItem(label="careful", ap=CAREFUL_ATTACK_EXTRA_AP, source=SOURCE_MELEE))
    return _spec(
        ActionKind.MELEE_ATTACK,
        items,
        weapon.speed if weapon is not None else Speed.NORMAL,
        SOURCE_MELEE,
        weapon_id=weapon.id if weapon is not None else None,
        weapon_name=weapon.name if weapon is not None else "",
        target_ids=tuple(target_ids),
        result_bonus=CAREFUL_ATTACK_BONUS if careful else 0,
        note=attack,
    )


def block() -> ActionSpec:
    """Block one incoming attack: 2 AP (000)."""
    return _simple(ActionKind.BLOCK, "block", BLOCK_AP, Speed.NORMAL, SOURCE_MELEE)


def dodge() -> ActionSpec:
    """Dodge everything from one direction: 3 AP (000)."""
    return _simple(ActionKind.DODGE, "dodge", DODGE_AP, Speed.NORMAL, SOURCE_MELEE)


def escape_hold(ap: int, source: str) -> ActionSpec:
    """One attempt to escape a hold (000 Breaking Engagements When Dominated: 1, 2
    or 3 AP by the level held at)."""
    return _simple(ActionKind.DISENGAGE, "escape attempt", ap, Speed.NORMAL, source)


def careful_disengage() -> ActionSpec:
    """Leave an engagement carefully: 2 AP on top of the move (000)."""
    return _simple(
        ActionKind.DISENGAGE,
        "careful disengage",
        CAREFUL_DISENGAGE_AP,
        Speed.NORMAL,
        SOURCE_DISENGAGE,
    )


def recover() -> ActionSpec:
    """A stunned character's Recover action: all the round's AP (000 Stun)."""
    return ActionSpec(
        kind=ActionKind.RECOVER,
        ap=0,
        all_ap=True,
        speed=Speed.SLOW,
        source=SOURCE_STUN,
        note="takes all the round's AP",
    )


#: House: AP to clear a jammed weapon when its gear entry gives none (``clear_ap``).
#: The pages say a weapon fails but not what freeing it costs; the cost of a simple
#: skill action (000 Skills During Action Time) is used.
CLEAR_JAM_AP = SKILL_AP
SOURCE_FAILURE = "000 Ancillary Effects (equipment failure; clearing cost: house)"


def clear_jam(weapon: Weapon) -> ActionSpec:
    """Clear a jammed weapon: the gear's ``clear_ap``, else :data:`CLEAR_JAM_AP`
    (house); a Normal action in the Phases edition (004's skill use)."""
    ap = weapon.clear_ap if weapon.clear_ap is not None else CLEAR_JAM_AP
    item = CostItem(label=f"clear the {weapon.name}'s jam", ap=ap, source=SOURCE_FAILURE)
    return _spec(
        ActionKind.CLEAR_JAM,
        [item],
        Speed.NORMAL,
        SOURCE_FAILURE,
        weapon_id=weapon.id,
        weapon_name=weapon.name,
    )


#: House: the pages price no mounting. Getting into the saddle is read as a Half
#: action like a simple skill use (4 AP); getting down as standing up (2 AP).
MOUNT_AP = SKILL_AP
DISMOUNT_AP = STAND_UP_AP
SOURCE_MOUNT = "000 Modifiers (Firer is mounted); mounting cost: house"


def mount() -> ActionSpec:
    """Get on a horse or a wagon: :data:`MOUNT_AP` (house), a Normal action."""
    return _simple(ActionKind.MOUNT, "mount", MOUNT_AP, Speed.NORMAL, SOURCE_MOUNT)


def dismount() -> ActionSpec:
    """Get down: :data:`DISMOUNT_AP` (house, as standing up), a Normal action."""
    return _simple(ActionKind.DISMOUNT, "dismount", DISMOUNT_AP, Speed.NORMAL, SOURCE_MOUNT)


def other_action(
    label: str, ap: int, speed: Speed = Speed.NORMAL, *, noncombat: bool = False
) -> ActionSpec:
    """Anything else, at the cost and speed the Judge rules (004: the Judge is the final
    authority on speeds not listed)."""
    if ap < 0:
        raise RulesError("An action cannot cost negative AP.")
    return _spec(
        ActionKind.OTHER,
        [CostItem(label=label, ap=ap, source="Judge's ruling")],
        speed,
        "Judge's ruling",
        note=label,
        noncombat=noncombat,
    )
