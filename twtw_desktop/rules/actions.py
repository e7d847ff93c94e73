"""The action catalogue: what an action costs in AP (AP v2) and how fast it is (Phases).

Every constructor returns an :class:`ActionSpec` whose ``breakdown`` itemises the AP
cost as ``(label, ap, source)`` entries, so the action track and the UI can show the
Judge where each AP comes from. AP numbers are the 000 values (Conflict – AP v2,
"Movement AP Cost", "Aim and Snap Shots", "Cocking and Readying", "Skills During
Action Time", "Hand to Hand Combat", "Breaking Engagement", "Multiple Attacks",
"Fan Firing"); Phases speeds follow 004 "Example Action Speeds".

The vocabulary (000's numbers, the kinds, the Phases speeds and their combination,
:class:`ActionSpec`) lives in :mod:`.action_spec` and is re-exported here. House values
(the pages are silent or only hint) are collected in :data:`HOUSE_SPEEDS` and
explained where they are used:

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

import re

from ..errors import RulesError
from .action_moves import (
    PHASE_MOVE_READING,
    SOURCE_FORGO,
    SOURCE_MANEUVER,
    SOURCE_TACTICAL,
    STEP_PACES,
    TerrainExtra,
    _simple,
    change_facing,
    drop_prone,
    duck,
    emerge,
    forgo_move,
    move_action,
    phase_move,
    phase_move_speed,
    run_action,
    stand_up,
    tactical_of,
    terrain_extra_ap,
    turn_during_move,
)
from .action_spec import (
    BLOCK_AP,
    CAREFUL_ATTACK_BONUS,
    CAREFUL_ATTACK_EXTRA_AP,
    CAREFUL_DISENGAGE_AP,
    CLIMB_WALL,
    COMBAT_KINDS,
    DODGE_AP,
    DROP_PRONE_AP,
    DUCK_AP,
    EMERGE_AP,
    FACE_MORE_AP,
    FACE_ONE_HEXSIDE_AP,
    FAN_SHOT_AP,
    GENTLE_GRADE,
    HOUSE_SPEEDS,
    LADDER,
    MAX_AIMS,
    MOST_AIMS,
    OUTSIDE_FIELD_OF_FIRE_AP,
    SHOT_KINDS,
    SKILL_AP,
    SKILL_COSTS,
    SKILL_FULL_ATTENTION_AP,
    SOURCE_COMBINE,
    SOURCE_DISENGAGE,
    SOURCE_FAN,
    SOURCE_GEAR,
    SOURCE_MELEE,
    SOURCE_MOVE,
    SOURCE_MULTI,
    SOURCE_READY,
    SOURCE_SHOTS,
    SOURCE_SKILLS,
    SOURCE_SPEEDS,
    SOURCE_STUN,
    SOURCE_TWO_WEAPONS,
    STAIRS,
    STAND_UP_AP,
    STEEP_GRADE,
    TARGET_SWITCH_AP,
    TURN_IN_MOVE_AP,
    ActionKind,
    ActionSpec,
    CostItem,
    SpeedCombination,
    Tactical,
    _spec,
    combine_speeds,
    faster,
    simultaneous_speed,
    slower,
    speed_name,
    speed_rank,
)
from .base import Speed
from .gear import Weapon

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


#: what the catalogue offers: its own constructors and, re-exported, its vocabulary
#: (action_spec) and its moves (action_moves)
__all__ = [
    "BLOCK_AP",
    "CAREFUL_ATTACK_BONUS",
    "CAREFUL_ATTACK_EXTRA_AP",
    "CAREFUL_DISENGAGE_AP",
    "CLEAR_JAM_AP",
    "CLIMB_WALL",
    "COMBAT_KINDS",
    "DISMOUNT_AP",
    "DODGE_AP",
    "DROP_PRONE_AP",
    "DUCK_AP",
    "EMERGE_AP",
    "FACE_MORE_AP",
    "FACE_ONE_HEXSIDE_AP",
    "FAN_SHOT_AP",
    "GENTLE_GRADE",
    "HOUSE_SPEEDS",
    "LADDER",
    "MAX_AIMS",
    "MOST_AIMS",
    "MOUNT_AP",
    "OUTSIDE_FIELD_OF_FIRE_AP",
    "PHASE_MOVE_READING",
    "SHOT_KINDS",
    "SKILL_AP",
    "SKILL_COSTS",
    "SKILL_FULL_ATTENTION_AP",
    "SOURCE_COMBINE",
    "SOURCE_DISENGAGE",
    "SOURCE_FAILURE",
    "SOURCE_FAN",
    "SOURCE_FORGO",
    "SOURCE_GEAR",
    "SOURCE_MANEUVER",
    "SOURCE_MELEE",
    "SOURCE_MOUNT",
    "SOURCE_MOVE",
    "SOURCE_MULTI",
    "SOURCE_READY",
    "SOURCE_SHOTS",
    "SOURCE_SKILLS",
    "SOURCE_SPEEDS",
    "SOURCE_STUN",
    "SOURCE_TACTICAL",
    "SOURCE_TWO_WEAPONS",
    "STAIRS",
    "STAND_UP_AP",
    "STEEP_GRADE",
    "STEP_PACES",
    "TARGET_SWITCH_AP",
    "TURN_IN_MOVE_AP",
    "ActionKind",
    "ActionSpec",
    "CostItem",
    "SpeedCombination",
    "Tactical",
    "TerrainExtra",
    "aim_action",
    "aimed_shot",
    "aimed_shot_speed",
    "block",
    "careful_disengage",
    "change_facing",
    "clear_jam",
    "cock_action",
    "combine_speeds",
    "dismount",
    "dodge",
    "draw_action",
    "drop_prone",
    "duck",
    "emerge",
    "escape_hold",
    "fan_fire",
    "faster",
    "forgo_move",
    "has_single_action_trait",
    "melee_attack",
    "mount",
    "move_action",
    "normal_shot",
    "other_action",
    "phase_move",
    "phase_move_speed",
    "ready_action",
    "recover",
    "reload_action",
    "run_action",
    "shot_speed",
    "simultaneous_speed",
    "single_action_tie_key",
    "skill_action",
    "slower",
    "snap_shot",
    "speed_name",
    "speed_rank",
    "stand_up",
    "switch_target",
    "tactical_of",
    "terrain_extra_ap",
    "turn_during_move",
    "with_aims",
]
