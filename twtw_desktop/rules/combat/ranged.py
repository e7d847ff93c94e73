"""Ranged attacks before the card: the TN breakdown, shot types and their AP cost,
multiple attacks from one pool, and fan firing.

* :func:`ranged_tn` — base Standard (5) plus full range increments, or point blank,
  and every modifier itemised with its page (000 Range, Modifiers, Target Size,
  Target Speed, Aim and Snap Shots, Two Weapons …). TN items and result items are
  kept apart (RULES.md "Resolution decisions").
* :func:`shot_ap_cost` — snap, normal and aimed shots, cocking first (000 Aim and Snap
  Shots, Cocking and Readying).
* :func:`check_shot` — the refusals: an uncocked single-action gun, an aimed snap
  shot, too many aims, a weapon not readied or not loaded, throwing a rifle.
* :func:`plan_attacks` — several attacks from one pool (000 Multiple Attacks).
* :func:`plan_fan_fire` — fan firing (000/001/003 Fan Firing).

Decisions where the pages are vague (each also in the docstring that uses it):

* A double-action revolver fired uncocked keeps its printed snap penalty, which
  includes the heavier pull (:data:`DOUBLE_ACTION_PULL`, house); cocked first it
  drops that part for the shot (000 Cocking and Readying).
* Fan firing downgrades (000: "for each shot … starting with the first", 001
  "successively") are read as cumulative: shot *n* of the series takes −n, and the
  *k*-th target after the first a further −k. The Phases edition instead follows
  003 (one check at TN + shots, burst 3 read for hits).
* Under the optional total-speed rule the speed penalty uses ``firer_speed +
  target_speed`` instead of the relative speed (000/001 Target Speed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from ...errors import RulesError
from ..base import Pool, Strict
from ..character import SKILLS as _SKILL_TRAITS
from ..character import CarriedWeapon, Character
from ..editions import Edition, OptionalRules
from ..gear import GearCatalog, Weapon
from .records import ApBreakdown, Modifier, TnBreakdown, mod
from .situation import ShotSituation
from .thrown import check_throwable, is_throwable, throw_range

#: House: the part of a double-action revolver's snap penalty that comes from the
#: heavier trigger pull; cocking the revolver first drops it for that shot (000
#: Cocking and Readying says cocking trades the double-action traits away).
DOUBLE_ACTION_PULL = -1
#: AP to switch targets during a series of attacks (000 Multiple Attacks).
SWITCH_TARGET_AP = 1
#: Extra AP when the new target is outside the field of fire (000 Multiple Attacks).
OUTSIDE_FIELD_OF_FIRE_AP = 1
#: Fan firing: AP per shot and per target switch (000 Fan Firing).
FAN_AP_PER_SHOT = 1
FAN_AP_PER_SWITCH = 1
#: Pushing the limit: a revolver's Rel rises by this when fan firing (000/001).
PUSHING_THE_LIMIT_REL = 1
#: Fan firing in the Phases edition reads this burst value (003 Fan Firing).
FAN_BURST = 3
#: Which fan-firing procedure an edition follows until the edition file names it
#: (``Edition.fan_firing``): 000's per-shot downgrades, or 003's burst 3 check.
ShotKind = Literal["snap", "normal", "aimed"]
FanMode = Literal["per_shot", "burst3"]


class ShotSpec(Strict):
    """What kind of shot the firer declares (000 Aim and Snap Shots).

    ``aims`` counts the aim actions of an aimed shot (1–2). ``cock_first`` pays to
    cock the weapon as part of this action (cocking comes before aiming);
    ``draw_first`` pays to draw it out of the holster first ("draw and shoot").
    ``use_acuity`` is the optional aim-with-Acuity rule. ``thrown`` marks a throw.
    """

    kind: ShotKind = "normal"
    aims: Annotated[int, Field(ge=0)] = 0
    cock_first: bool = False
    #: draw (or ready) the weapon as part of this action, for ``draw_ap`` AP (its draw
    #: cost for the shooter's Quick Draw: 000 Cocking and Readying)
    draw_first: bool = False
    draw_ap: Annotated[int, Field(ge=0, le=40)] = 0
    thrown: bool = False
    use_acuity: bool = False
    #: one shot of a fan-firing series (always a snap shot; cocking ignored)
    fan: bool = False


def fan_mode(edition: Edition) -> FanMode:
    """The edition's fan-firing procedure (edition data ``fan_firing``)."""
    return edition.fan_firing


# =============================================================================
# Pools and limits
# =============================================================================


def _skill_trait(attacker: Character, skill: str) -> str:
    s = attacker.skills.get(skill)
    if s is not None:
        return s.trait
    return _SKILL_TRAITS.get(skill, "coordination")


def attack_pool(
    attacker: Character,
    weapon: Weapon | None,
    *,
    use_acuity: bool = False,
    skill: str | None = None,
) -> tuple[Pool, list[str]]:
    """The cause pool for an attack: ``level d(trait die)``, or the trait pool when
    unskilled. ``use_acuity`` swaps in the Acuity die (optional aimed-shot rule).
    ``skill`` overrides the weapon's skill (needed when ``weapon`` is None)."""
    skill = skill or (weapon.skill if weapon is not None else None)
    if skill is None:
        raise RulesError("Name the skill of an attack made without a weapon.")
    level = attacker.skill_level(skill)
    trait = "acuity" if use_acuity else _skill_trait(attacker, skill)
    tpool = attacker.trait_pool(trait)
    if level >= 1:
        pool = Pool(count=level, die=tpool.die)
        why = f"{skill} {level} with {trait.title()} d{tpool.die}: {pool}"
    else:
        pool = tpool
        why = f"unskilled in {skill}: {trait.title()} {pool}"
    return pool, [why]


#: the seed pages of the optional aiming rule (000 calls the trait Coordination, 001
#: Dexterity: the same sheet trait)
SRC_AIM_ACUITY = "000 Aim and Snap Shots (optional rule) / 001 Optional Aiming Rule"


def shot_pool(
    attacker: Character,
    weapon: Weapon,
    shot: ShotSpec,
    options: OptionalRules | None = None,
) -> tuple[Pool, list[str]]:
    """The cause pool of one shot, with the optional aiming rule applied.

    With ``aim_with_acuity`` on, an aimed shot may read Acuity instead of the skill's
    trait (000/001: the firer chooses, shot by shot). ``shot.use_acuity`` is the
    Judge's explicit choice of Acuity; otherwise the firer is taken to choose the
    better pool of the two (the larger die; house: a firer picks the trait that helps).
    Off, or for a snap/normal shot, the pool is the skill's own (:func:`attack_pool`).
    """
    options = options or OptionalRules()
    own, why = attack_pool(attacker, weapon, use_acuity=shot.use_acuity)
    if shot.use_acuity or not options.aim_with_acuity or shot.kind != "aimed":
        if shot.use_acuity:
            why.append(f"aimed with Acuity, the Judge's choice ({SRC_AIM_ACUITY})")
        return own, why
    if "acuity" not in attacker.traits:
        return own, why
    acuity, acuity_why = attack_pool(attacker, weapon, use_acuity=True)
    if (acuity.die, acuity.count) > (own.die, own.count):
        return acuity, [
            *acuity_why,
            f"aimed: Acuity d{acuity.die} is better than {own} ({SRC_AIM_ACUITY})",
        ]
    return own, [*why, f"aimed: Acuity d{acuity.die} is no better ({SRC_AIM_ACUITY})"]


def one_hand_only(
    shooter: Character, weapon_index: int | None, gear: GearCatalog, *, two_weapons: bool = False
) -> str | None:
    """Why a two-handed gun is used with one hand: an arm disabled, another item in
    hand (a readied weapon other than the one fired), or a second gun fired with it;
    None when both hands are free for it (000 Two handed ranged weapons: "Apply a
    penalty of 2 downgrades to any two-handed ranged weapon being used with one
    hand"). 000 Hit Location and Damage: "Anytime a location takes a 5th wound it is
    disabled. For a limb, such as arm or leg, the location is either severed or
    otherwise rendered useless" — a disabled arm leaves one hand."""
    arms = [loc for loc in shooter.disabled_locations if loc.value.endswith("_arm")]
    if arms:
        arm = arms[0].value.replace("_", " ")
        return (
            f"the {arm} is disabled, 'severed or otherwise rendered useless' "
            "(000 Hit Location and Damage)"
        )
    if two_weapons:
        return "the other hand holds a second weapon fired with it"
    for i, cw in enumerate(shooter.weapons):
        if i == weapon_index or not cw.readied:
            continue
        w = gear.weapons.get(cw.weapon_id)
        return f"the other holds {w.name if w is not None else cw.weapon_id}"
    return None


def auto_miss_note(limit: int, attacks: int) -> str:
    """Why attacks ``limit + 1 .. attacks`` of a series miss (000 Multiple Attacks)."""
    which = f"attack {limit + 1}" if attacks == limit + 1 else f"attacks {limit + 1}–{attacks}"
    return (
        f"{which} beyond the skill level ({limit}) miss automatically, paying their AP "
        "and keeping their other effects: stray shots, noise (000 Multiple Attacks)"
    )


def attack_limit(attacker: Character, weapon: Weapon | None, skill: str | None = None) -> int:
    """Most attacks in one series: the skill level, or the trait rank (dice in the
    trait pool) when unskilled (000 Multiple Attacks)."""
    skill = skill or (weapon.skill if weapon is not None else None)
    if skill is None:
        raise RulesError("Name the skill of an attack made without a weapon.")
    level = attacker.skill_level(skill)
    if level >= 1:
        return level
    return attacker.trait_pool(_skill_trait(attacker, skill)).count


# =============================================================================
# Refusals and AP cost
# =============================================================================


def _carried(shooter: Character, weapon: Weapon, carried: CarriedWeapon | None) -> CarriedWeapon:
    if carried is not None:
        if carried.weapon_id != weapon.id:
            raise RulesError(f"That carried weapon is a {carried.weapon_id}, not a {weapon.name}.")
        return carried
    return shooter.carried(weapon.id)


def _uses_cock(weapon: Weapon, carried: CarriedWeapon, shot: ShotSpec) -> bool:
    """True when this shot fires from a cocked hammer (cocked already or first)."""
    return weapon.cock_ap is not None and (carried.cocked or shot.cock_first)


def check_shot(
    shooter: Character,
    weapon: Weapon,
    shot: ShotSpec,
    edition: Edition,
    *,
    carried: CarriedWeapon | None = None,
    options: OptionalRules | None = None,
) -> None:
    """Raise :class:`RulesError` if the rules refuse this shot; change nothing."""
    options = options or OptionalRules()
    fan = shot.fan
    if fan and shot.kind != "snap":
        raise RulesError("Fan firing is always a snap shot.")
    if fan and not is_fan_capable(weapon):
        raise RulesError(f"Only a single-action revolver can fan fire, not the {weapon.name}.")
    if shot.thrown:
        check_throwable(weapon)
    elif not weapon.is_ranged:
        raise RulesError(f"The {weapon.name} is not a firearm; throw it or use it hand to hand.")
    c = _carried(shooter, weapon, carried)
    if not c.readied and not shot.draw_first:
        raise RulesError(
            f"{shooter.name}'s {weapon.name} is not readied; ready it first ({weapon.ready_ap} AP)."
        )
    if c.readied and shot.draw_first:
        raise RulesError(f"{shooter.name}'s {weapon.name} is in hand already; nothing to draw.")
    if shot.kind == "snap" and shot.aims:
        raise RulesError("A snap shot cannot be aimed; only a normal shot can be aimed.")
    if shot.kind == "normal" and shot.aims:
        raise RulesError("A shot with aim actions is an aimed shot; declare it as aimed.")
    if shot.kind == "aimed" and not shot.aims:
        raise RulesError("An aimed shot needs at least one aim action.")
    if shot.aims > edition.aim.max:
        raise RulesError(
            f"No more than {edition.aim.max} aim actions may be taken for one shot "
            f"({edition.aim.source})."
        )
    if shot.use_acuity and not options.aim_with_acuity:
        raise RulesError("Aiming with Acuity is an optional rule that is off for this encounter.")
    if shot.use_acuity and shot.kind != "aimed":
        raise RulesError("Only an aimed shot may use Acuity.")
    if shot.kind == "snap" and weapon.snap_ap is None and not fan:
        raise RulesError(f"The {weapon.name} cannot fire a snap shot.")
    if shot.kind == "aimed" and weapon.aim_ap is None:
        raise RulesError(f"The {weapon.name} cannot be aimed.")
    if shot.kind != "snap" and weapon.normal_ap is None:
        raise RulesError(f"The {weapon.name} has no normal shot.")
    if weapon.is_ranged and not shot.thrown and c.loaded < 1:
        raise RulesError(f"{shooter.name}'s {weapon.name} is not loaded.")
    if shot.cock_first:
        if fan:
            raise RulesError("Fan firing works the hammer itself; there is nothing to cock first.")
        if weapon.cock_ap is None:
            raise RulesError(f"The {weapon.name} has no hammer to cock.")
        if c.cocked:
            raise RulesError(f"{shooter.name}'s {weapon.name} is already cocked.")
    if weapon.needs_cocking and not fan and not shot.thrown and not (c.cocked or shot.cock_first):
        kind = "snap shot" if shot.kind == "snap" else "shot"
        raise RulesError(
            f"{shooter.name}'s {weapon.name} is not cocked; a {kind} needs it cocked first "
            f"({weapon.cock_ap} AP)."
        )


def shot_ap_cost(
    weapon: Weapon,
    shot: ShotSpec,
    edition: Edition,
    *,
    two_weapons_aimed: bool = False,
    prepaid_aims: int = 0,
) -> ApBreakdown:
    """AP of one shot (000 Aim and Snap Shots; Cocking and Readying; Two Weapons).

    Sharps: snap 3, normal 7, aimed with one aim 11. Schofield: normal 3 plus two
    aims of 2 = 7. In the Phases edition each aim after the first costs one more
    (001: a Schofield's aims at 1 AP cost 3 for two, 6 for three). Cocking first adds
    the weapon's cock cost. Aiming two weapons together costs
    :attr:`TwoWeapons.aim_extra_ap` more per aim. ``prepaid_aims`` aims were taken
    ahead with the aim action and paid then: they are listed and taken off again.
    """
    items: list[Modifier] = []
    if shot.draw_first:
        items.append(mod(f"draw the {weapon.name}", shot.draw_ap, "000 Cocking and Readying"))
    if shot.cock_first and weapon.cock_ap is not None:
        items.append(mod(f"cock the {weapon.name}", weapon.cock_ap, "000 Cocking and Readying"))
    verb = "throw" if shot.thrown else "shot"
    src = edition.aim.source
    if shot.kind == "snap":
        if weapon.snap_ap is None:
            raise RulesError(f"The {weapon.name} cannot fire a snap shot.")
        items.append(mod(f"snap {verb}", weapon.snap_ap, "000 Aim and Snap Shots"))
    else:
        if weapon.normal_ap is None:
            raise RulesError(f"The {weapon.name} has no normal shot.")
        items.append(mod(f"normal {verb}", weapon.normal_ap, "000 Aim and Snap Shots"))
        if shot.aims:
            if weapon.aim_ap is None:
                raise RulesError(f"The {weapon.name} cannot be aimed.")
            paid = 0
            for i in range(1, shot.aims + 1):
                ap = edition.aim.aim_ap(weapon.aim_ap_in(edition.id) or 0, i)
                items.append(mod(f"aim action {i}", ap, src))
                if i <= prepaid_aims:
                    paid += ap
                if two_weapons_aimed:
                    items.append(
                        mod(
                            f"aim action {i}: two weapons aimed together",
                            edition.two_weapons.aim_extra_ap,
                            "000 Two Weapons",
                        )
                    )
            if paid:
                n = min(prepaid_aims, shot.aims)
                items.append(mod(f"{n} aim(s) taken before, already paid", -paid, src))
    return ApBreakdown.build(items)


def ready_ap_cost(weapon: Weapon, quick_draw_level: int = 0) -> ApBreakdown:
    """AP to ready (draw) a weapon: 2 up to size 5, +1 per size above (000)."""
    draw_cost = getattr(weapon, "draw_cost", None)
    if draw_cost is not None:
        _, rows = draw_cost(quick_draw_level)
        return ApBreakdown.build(mod(label, value, src) for label, value, src in rows)
    return ApBreakdown.build([mod(f"ready {weapon.name}", weapon.ready_ap, "000")])


def cock_ap_cost(weapon: Weapon) -> ApBreakdown:
    """AP to cock a weapon (000 Cocking and Readying)."""
    if weapon.cock_ap is None:
        raise RulesError(f"The {weapon.name} has no hammer to cock.")
    return ApBreakdown.build(
        [mod(f"cock the {weapon.name}", weapon.cock_ap, "000 Cocking and Readying")]
    )


# =============================================================================
# The TN
# =============================================================================


def range_steps(range_paces: float, increment: int, rounding: str) -> int:
    """TN additions for range (000/001 Range).

    ``completed``: +1 per full increment (AP v2: inc 10 → +0 up to 9, +1 up to 19).
    ``started_after_first``: +1 per increment begun after the first (Phases: inc 8 →
    +0 up to 8, +1 up to 16).
    """
    if increment < 1:
        raise RulesError("A range increment must be at least 1 pace.")
    if range_paces <= 0:
        return 0
    if rounding == "completed":
        return int(range_paces // increment)
    return max(0, math.ceil(range_paces / increment) - 1)


class RangeTn(Strict):
    """The range part of a ranged or thrown attack's TN at a distance: Standard plus
    the range steps (000/001 Range, Throwing Things) — what :func:`ranged_tn` starts
    from, and what the map's Measure tool shows."""

    #: the Standard TN (000 Range)
    base: int
    #: +1 a range increment (:func:`range_steps`)
    steps: int
    increment: int
    #: the page the increment comes from
    source: str
    #: a thrown weapon's maximum range in paces (None: a fired weapon)
    max_range: int | None = None

    @property
    def tn(self) -> int:
        return self.base + self.steps


def range_tn(
    shooter: Character, weapon: Weapon, edition: Edition, range_paces: float, *, thrown: bool
) -> RangeTn:
    """Standard plus the range steps for ``shooter`` firing (or with ``thrown``,
    throwing) ``weapon`` ``range_paces`` away. A weapon that neither has a range
    increment nor can be thrown raises :class:`RulesError`; so does a throw this
    character cannot make (:func:`.thrown.throw_range`). Beyond a throwing range is
    not refused here: :attr:`RangeTn.max_range` says where it is."""
    if thrown:
        tr = throw_range(shooter, weapon, edition)
        increment, source, limit = tr.increment, "000/001 Throwing Things", tr.max_range
    elif weapon.range_increment is not None:
        increment, source, limit = weapon.range_increment, "000/001 Range", None
    else:
        raise RulesError(f"The {weapon.name} has no range increment.")
    steps = range_steps(range_paces, increment, edition.range_rounding)
    return RangeTn(
        base=edition.base_ranged_tn,
        steps=steps,
        increment=increment,
        source=source,
        max_range=limit,
    )


def _movement_items(edition: Edition, s: ShotSituation) -> list[Modifier]:
    order = {"still": 0, "walking": 1, "running": 2}
    move = s.firer_movement
    if s.firer_mounted and order[s.mount_movement] > order[move]:
        move = s.mount_movement
    penalty = {"still": 0, "walking": edition.firer_walking, "running": edition.firer_running}[move]
    who = "firer" if move == s.firer_movement else "firer's mount"
    if s.firer_mounted and edition.firer_mounted < penalty:
        return [mod("firer is mounted", edition.firer_mounted, "000 Modifiers, Move and Fire")]
    if penalty:
        return [mod(f"{who} is {move}", penalty, "000 Modifiers, Move and Fire")]
    return []


def size_items(edition: Edition, size: int) -> tuple[list[Modifier], list[Modifier]]:
    """(TN items, result items) for the target's Size (000/001 Target Size)."""
    tn_items: list[Modifier] = []
    result_items: list[Modifier] = []
    small = [step.tn for step in edition.small_targets if size <= step.max_size]
    if small:
        tn_items.append(mod(f"small target (Size {size})", max(small), "000/001 Target Size"))
    lt = edition.large_targets
    if size > lt.above:
        bonus = min((size - lt.above) // lt.per, lt.cap)
        if bonus:
            result_items.append(mod(f"large target (Size {size})", bonus, "000/001 Target Size"))
    return tn_items, result_items


def speed_penalty(edition: Edition, speed: float) -> int:
    """−1 per full ``speed_per_penalty`` paces of speed (000 Target Speed: 26 → −5)."""
    return -int(speed // edition.speed_per_penalty)


def _speed_item(edition: Edition, s: ShotSituation, options: OptionalRules) -> list[Modifier]:
    if options.total_speed:
        speed = s.firer_speed + s.target_speed
        label = f"total speed {speed:g} paces"
        src = "000 Target Speed (optional total movement)"
    else:
        speed = s.target_relative_speed
        label = f"relative speed {speed:g} paces"
        src = "000 Target Speed"
    return [mod(label, speed_penalty(edition, speed), src)]


def _double_action_items(weapon: Weapon, cocked: bool) -> tuple[list[Modifier], list[str]]:
    if weapon.action != "double":
        return [], []
    if cocked:
        return [
            mod(
                "cocked double action: the heavier pull is dropped",
                -DOUBLE_ACTION_PULL,
                "000 Cocking and Readying (house value)",
            )
        ], ["cocked double-action revolver fires as a single action for this shot"]
    return [], ["double-action revolver fired uncocked: heavier pull (in its snap penalty)"]


def ranged_tn(
    shooter: Character,
    weapon: Weapon,
    edition: Edition,
    situation: ShotSituation,
    shot: ShotSpec,
    *,
    target: Character | None = None,
    options: OptionalRules | None = None,
    carried: CarriedWeapon | None = None,
) -> TnBreakdown:
    """The TN of a ranged or thrown attack and every modifier, with its page.

    Base Standard (5) + range steps, or the edition's point-blank TN. TN items: range,
    small target. Result items: movement/mount, prone target (AP v2), large target, speed,
    secondary target, appearing/disappearing, not visible, wounded firer, two
    weapons, two-handed in one hand, called shot, snap penalty, aim and Accurate.
    Phases' prone-target rule (003) is noted here and applied at the hit location.
    A refused shot raises :class:`RulesError` (see :func:`check_shot`).
    """
    options = options or OptionalRules()
    check_shot(shooter, weapon, shot, edition, carried=carried, options=options)
    c = _carried(shooter, weapon, carried)
    s = situation
    tn_items: list[Modifier] = []
    res: list[Modifier] = []
    notes: list[str] = []

    # -- base and range -------------------------------------------------------------
    if s.point_blank:
        base, base_label, base_src = edition.point_blank_tn, "point blank", "000 Point Blank"
    else:
        base, base_label, base_src = edition.base_ranged_tn, "Standard", "000 Range"
        rt = range_tn(shooter, weapon, edition, s.range_paces, thrown=shot.thrown)
        if rt.max_range is not None and s.range_paces > rt.max_range:
            raise RulesError(
                f"{s.range_paces:g} paces is beyond {shooter.name}'s throwing range of "
                f"{rt.max_range} paces."
            )
        paces, halved = s.range_paces, ""
        if s.target_forgoes_defense_moving:
            # 001 Movement Actions: "If targeted in ranged combat, divide the range by 2
            # before determining the TN to hit them."
            paces, halved = s.range_paces / 2, " halved"
            rt = range_tn(shooter, weapon, edition, paces, thrown=shot.thrown)
            notes.append(
                f"the target moves forgoing its defence: range {s.range_paces:g} halved to "
                f"{paces:g} for the TN (001 Movement Actions)"
            )
        if rt.steps:
            tn_items.append(
                mod(
                    f"range {paces:g} paces{halved} (increment {rt.increment})",
                    rt.steps,
                    rt.source,
                )
            )

    # -- the target -------------------------------------------------------------------
    size = s.target_size if s.target_size is not None else (target.size if target else 6)
    t_items, r_items = size_items(edition, size)
    tn_items += t_items
    res += r_items
    if s.target_prone:
        pr = edition.prone_target
        if pr.rule == "result":
            # 000 Modifiers: "Target is prone | +1" sits with "Firer is moving | -1/-4"
            # and "Firer is mounted | -2": a modifier to the result (easier to hit)
            res.append(mod("target is prone", pr.result, "000 Modifiers: 'Target is prone | +1'"))
        elif s.range_paces <= pr.ignore_within:
            notes.append(
                f"prone target within {pr.ignore_within} paces: the prone rule is ignored (003)"
            )
        else:
            notes.append(
                "prone target: a hit must show the prone attribute at its hit location, "
                "or it misses (003 Prone Targets)"
            )
    res += _speed_item(edition, s, options)
    if s.secondary_target_index:
        res.append(
            mod(
                f"secondary target (#{s.secondary_target_index + 1})",
                edition.secondary_target * s.secondary_target_index,
                "000 Modifiers",
            )
        )
    if s.appearing_disappearing:
        res.append(mod("target appearing/disappearing", edition.appearing, "000 Modifiers"))
    if s.visibility == "not_visible":
        res.append(
            mod(
                "target not visible behind cover", edition.not_visible, "000 Hit Location and Cover"
            )
        )
    elif s.visibility == "partly":
        notes.append(
            "target partly behind cover: no penalty; cover is checked after the hit location"
        )
    if s.called_shot is not None:
        aim = s.called_hit
        where = aim.value.replace("_", " ") if aim is not None else ""
        res.append(
            mod(
                f"called shot at the {where} ({s.called_shot.replace('_', '/')})",
                edition.called_shots[s.called_shot],
                "001 Called Shots",
            )
        )

    # -- the firer --------------------------------------------------------------------
    res += _movement_items(edition, s)
    level = shooter.wound_level
    if level >= 1:
        table = edition.wounded_firer
        value = table[min(level, len(table)) - 1]
        res.append(mod(f"firer is wounded (level {level})", value, "000 Modifiers (house table)"))
    if s.two_weapons:
        res.append(mod("two weapons", edition.two_weapons.each, "000 Two Weapons"))
        if s.off_hand:
            res.append(mod("off hand", edition.two_weapons.off_hand_extra, "000 Two Weapons"))
    if s.two_handed_in_one_hand and weapon.two_handed:
        res.append(
            mod(
                "two-handed weapon in one hand",
                edition.two_handed_one_hand,
                "000 Two handed ranged weapons",
            )
        )

    # -- shot type: snap penalty, aim and Accurate ----------------------------------------
    cocked = _uses_cock(weapon, c, shot)
    a_res, a_notes = _aim_items(weapon, edition, s, shot, options, cocked)
    res += a_res
    notes += a_notes

    if s.target_forgoes_defense:
        # 002 Continuous Actions: "A character performing a movement continuous action is
        # forgoing their defense, the TN for all attacks targeting them is reduced by 1."
        tn_items.append(
            mod("target moves continuously: forgoes its defence", -1, "002 Continuous Actions")
        )
    return TnBreakdown.build(base, base_label, base_src, tn_items, res, notes)


def _aim_items(
    weapon: Weapon,
    edition: Edition,
    s: ShotSituation,
    shot: ShotSpec,
    options: OptionalRules,
    cocked: bool,
) -> tuple[list[Modifier], list[str]]:
    """The snap penalty, the aim bonus and Accurate of one shot, as the edition's aim
    rule reads them (``Edition.aim``: 000's normal shot is unpenalised and each aim
    adds +1; 001/003's shot with no aim before it is a snap shot, the first aim only
    removes the penalty and Accurate needs two aims)."""
    rule = edition.aim
    src = rule.source
    res: list[Modifier] = []
    notes: list[str] = []
    kind = shot.kind
    aims = shot.aims if kind == "aimed" else 0
    if aims and s.target_left_field_of_fire and options.fields_of_fire:
        notes.append(
            "the target left the field of fire during the aim: the aim is lost and the shot "
            "is a snap shot (003 Advanced Rule: Fields of Fire)"
        )
        kind, aims = "snap", 0
    if kind == "normal" and rule.unaimed_is_snap:
        if weapon.snap_penalty:
            notes.append(f"no aim action before the shot: a snap shot ({src})")
        kind = "snap"
    if shot.fan and fan_mode(edition) == "burst3":
        notes.append("fan firing (003): the page's TN counts the shots and no snap penalty")
    elif kind == "snap" and weapon.snap_penalty:
        res.append(mod("snap shot penalty (SP)", weapon.snap_penalty, src))
        da, da_notes = _double_action_items(weapon, cocked)
        res += da
        notes += da_notes
    elif weapon.action == "double":
        notes += _double_action_items(weapon, cocked)[1]
    if not aims:
        return res, notes
    if rule.penalty_aims:
        notes.append(
            f"aim action 1 removes the snap penalty ({weapon.snap_penalty:+d}) and adds "
            f"nothing ({src})"
        )
    bonus = rule.bonus(aims)
    if bonus:
        more = aims - rule.penalty_aims
        label = f"{more} more aim action(s)" if rule.penalty_aims else f"{aims} aim action(s)"
        res.append(mod(label, bonus, src))
    if weapon.accurate and aims >= rule.accurate_from:
        res.append(mod(f"Accurate({weapon.accurate})", weapon.accurate, src))
    elif weapon.accurate:
        notes.append(f"Accurate({weapon.accurate}) counts only when aimed more than once ({src})")
    if shot.use_acuity:
        notes.append("aimed with Acuity (optional rule)")
    return res, notes


# =============================================================================
# Several attacks from one pool
# =============================================================================


class PlannedShot(Strict):
    """One attack of a declared series: whom, and what kind of shot."""

    target_id: str
    shot: ShotSpec = ShotSpec()
    #: the new target lies outside the weapon's field of fire (003, optional rule)
    outside_field_of_fire: bool = False


class AttackPlan(Strict):
    """A declared series of attacks: the AP and which pool result each one uses."""

    shots: tuple[PlannedShot, ...]
    #: 0 = best cell for the first attack, 1 = second best … (000 Multiple Attacks)
    ranks: tuple[int, ...]
    limit: int
    ap: ApBreakdown
    reasons: tuple[str, ...] = ()
    #: the reason among ``reasons`` why attacks past ``limit`` miss ("" when none do)
    auto_miss: str = ""


def plan_attacks(
    shooter: Character,
    weapon: Weapon,
    shots: Sequence[PlannedShot],
    edition: Edition,
    *,
    carried: CarriedWeapon | None = None,
    options: OptionalRules | None = None,
) -> AttackPlan:
    """Check and cost a series of attacks from one pool (000 Multiple Attacks).

    At most the skill level (trait rank unskilled); +1 AP per target switch and +1
    more when the new target is outside the field of fire (fields-of-fire rule on).
    Cyril: cock + normal on Pete, cock + snap on Clem, one switch = 7 AP.
    """
    options = options or OptionalRules()
    if not shots:
        raise RulesError("Declare at least one attack.")
    limit = attack_limit(shooter, weapon)
    c = _carried(shooter, weapon, carried)
    items: list[Modifier] = []
    reasons: list[str] = [f"at most {limit} attack(s) (skill level or trait rank)"]
    # 000 Multiple Attacks: "Attacks in excess of the level of the appropriate skill
    # miss automatically (but may have other effects)."
    auto_miss = auto_miss_note(limit, len(shots)) if len(shots) > limit else ""
    if auto_miss:
        reasons.append(auto_miss)
    prev: str | None = None
    for i, p in enumerate(shots):
        check_shot(shooter, weapon, p.shot, edition, carried=c, options=options)
        cost = shot_ap_cost(weapon, p.shot, edition)
        items += [
            mod(f"attack {i + 1} on {p.target_id}: {m.label}", m.value, m.source)
            for m in cost.items
        ]
        if prev is not None and p.target_id != prev:
            items.append(
                mod(f"switch target to {p.target_id}", SWITCH_TARGET_AP, "000 Multiple Attacks")
            )
            if p.outside_field_of_fire and options.fields_of_fire:
                items.append(
                    mod(
                        f"{p.target_id} is outside the field of fire",
                        OUTSIDE_FIELD_OF_FIRE_AP,
                        "000 Multiple Attacks / 003 Fields of Fire",
                    )
                )
        prev = p.target_id
        # the next shot starts from the state this one leaves the weapon in
        update: dict[str, object] = {"cocked": False}
        if weapon.is_ranged and not p.shot.thrown:
            update["loaded"] = c.loaded - 1
        c = c.model_copy(update=update)
    reasons.append(f"{len(shots)} attack(s) use the pool's results best first")
    return AttackPlan(
        shots=tuple(shots),
        ranks=tuple(range(len(shots))),
        limit=limit,
        ap=ApBreakdown.build(items),
        reasons=tuple(reasons),
        auto_miss=auto_miss,
    )


# =============================================================================
# Fan firing
# =============================================================================


class FanPlan(Strict):
    """A declared fan-firing series (000/001/003 Fan Firing).

    ``mode`` ``per_shot`` (AP v2): each shot is its own attack from the same pool,
    best cell first, with ``per_shot_items`` added to that shot's result.
    ``burst3`` (Phases): one check at ``tn_items`` added to the TN; a hit reads the
    card's burst 3 hits, capped at the shots fired.
    """

    mode: FanMode
    shots: Annotated[int, Field(ge=1)]
    targets: tuple[str, ...]
    ap: ApBreakdown
    per_shot_items: tuple[tuple[Modifier, ...], ...] = ()
    tn_items: tuple[Modifier, ...] = ()
    rel: int | None = None
    reasons: tuple[str, ...] = ()
    #: the reason among ``reasons`` why shots past the skill level miss ("" when none do)
    auto_miss: str = ""


def is_fan_capable(weapon: Weapon) -> bool:
    """Single-action revolvers may fan fire (000 Fan Firing)."""
    return weapon.kind == "handgun" and weapon.action == "single"


def plan_fan_fire(
    shooter: Character,
    weapon: Weapon,
    targets: Sequence[str],
    edition: Edition,
    *,
    carried: CarriedWeapon | None = None,
    options: OptionalRules | None = None,
    outside_field_of_fire: Sequence[bool] = (),
) -> FanPlan:
    """Check and cost a fan-firing series: ``targets`` names the target of each shot.

    1 AP per shot and per target switch (+1 outside the field of fire), always a
    snap shot, cocking ignored, at most the pistol skill level in shots, and never
    more shots than rounds loaded. Pushing the limit raises the Rel by 1 (000: always;
    001: the encounter's switch).
    """
    options = options or OptionalRules()
    shots = len(targets)
    if shots < 1:
        raise RulesError("Declare at least one fan-fired shot.")
    if not is_fan_capable(weapon):
        raise RulesError(f"Only a single-action revolver can fan fire, not the {weapon.name}.")
    c = _carried(shooter, weapon, carried)
    check_shot(
        shooter, weapon, ShotSpec(kind="snap", fan=True), edition, carried=c, options=options
    )
    level = shooter.skill_level(weapon.skill)
    mode = fan_mode(edition)
    if shots > level and mode == "burst3":
        # 003 Fan Firing: "Fan firing is limited by the skill level with the
        # appropriate weapon." (one check: no shot of its own to miss)
        raise RulesError(
            f"{shooter.name} may fan fire at most {level} shot(s) (the pistol skill level), "
            f"not {shots} (003 Fan Firing)."
        )
    if shots > c.loaded:
        raise RulesError(f"The {weapon.name} holds only {c.loaded} round(s), not {shots}.")
    outside = list(outside_field_of_fire) + [False] * shots
    items = [mod(f"fan shot {i + 1}", FAN_AP_PER_SHOT, "000 Fan Firing") for i in range(shots)]
    switches = 0
    distinct: list[str] = []
    per_shot: list[tuple[Modifier, ...]] = []
    for i, t in enumerate(targets):
        if i and t != targets[i - 1]:
            switches += 1
            items.append(mod(f"switch target to {t}", FAN_AP_PER_SWITCH, "000 Fan Firing"))
            if outside[i] and options.fields_of_fire:
                items.append(
                    mod(
                        f"{t} is outside the field of fire",
                        OUTSIDE_FIELD_OF_FIRE_AP,
                        "000 Multiple Attacks",
                    )
                )
        if t not in distinct:
            distinct.append(t)
        shot_items = [mod(f"fan firing, shot {i + 1}", -(i + 1), "000 Fan Firing")]
        if switches:
            shot_items.append(
                mod(f"fan firing, target {switches + 1}", -switches, "000 Fan Firing")
            )
        per_shot.append(tuple(shot_items))
    reasons = [f"{shots} shot(s) at {len(distinct)} target(s); always a snap shot; cocking ignored"]
    # 000 Multiple Attacks: each fan shot is an attack of the series
    auto_miss = auto_miss_note(level, shots) if shots > level else ""
    if auto_miss:
        reasons.append(auto_miss)
    rel = weapon.rel
    if (options.pushing_the_limit or edition.pushing_the_limit_always) and rel is not None:
        # 000: "Revolvers are not designed for fan-firing. Increase the Rel of any
        # revolver by 1 when fan-firing." (001: an advanced rule, the switch)
        rel += PUSHING_THE_LIMIT_REL
        where = "000 Pushing the Limit" if edition.pushing_the_limit_always else "001 advanced rule"
        reasons.append(f"pushing the limit: Rel {weapon.rel} → {rel} ({where})")
    if mode == "burst3":
        tn_items = (mod(f"fan firing {shots} shot(s)", shots, "003 Fan Firing"),)
        reasons.append("one check; a hit reads the burst 3 hits, at most one per shot (003)")
        return FanPlan(
            mode=mode,
            shots=shots,
            targets=tuple(targets),
            ap=ApBreakdown.build(items),
            tn_items=tn_items,
            rel=rel,
            reasons=tuple(reasons),
            auto_miss=auto_miss,
        )
    reasons.append("each shot takes the next best result of the pool and its own card (000)")
    return FanPlan(
        mode=mode,
        shots=shots,
        targets=tuple(targets),
        ap=ApBreakdown.build(items),
        per_shot_items=tuple(per_shot),
        rel=rel,
        reasons=tuple(reasons),
        auto_miss=auto_miss,
    )


def fan_shot_tn(base: TnBreakdown, plan: FanPlan, shot_index: int) -> TnBreakdown:
    """The TN breakdown of one fan-fired shot: a snap-shot breakdown plus the plan's
    downgrades for that shot (per_shot) or its TN items (burst3)."""
    if plan.mode == "per_shot":
        if not 0 <= shot_index < plan.shots:
            raise RulesError(
                f"The series has {plan.shots} shot(s); there is no shot {shot_index + 1}."
            )
        return base.with_items(result_items=plan.per_shot_items[shot_index])
    return base.with_items(tn_items=plan.tn_items)


__all__ = [
    "DOUBLE_ACTION_PULL",
    "FAN_BURST",
    "AttackPlan",
    "FanPlan",
    "PlannedShot",
    "RangeTn",
    "ShotSpec",
    "attack_limit",
    "attack_pool",
    "auto_miss_note",
    "check_shot",
    "cock_ap_cost",
    "fan_mode",
    "fan_shot_tn",
    "is_fan_capable",
    "is_throwable",
    "one_hand_only",
    "plan_attacks",
    "plan_fan_fire",
    "range_steps",
    "range_tn",
    "ranged_tn",
    "ready_ap_cost",
    "shot_ap_cost",
    "size_items",
    "speed_penalty",
]
