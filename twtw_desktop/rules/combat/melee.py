"""Hand to hand combat (000 Hand to Hand Combat, Advantage, Position; 001 Melee Combat;
003 Melee Combat, Entanglement).

* Defense is the TN: AP v2 4 + half the skill level rounded up; Phases 3 + the level,
  +1 armed against an unarmed foe, +1 for a Defend weapon (edition data).
* Attack types are data (:data:`ATTACK_TYPES`). 000 prints only the quick attack's
  damage (5 + DB); every other number is a marked house value.
* Block (2 AP) and dodge (3 AP), advantage, dominance and escaping it, breaking
  engagement, standing still, entanglement.
* Advantage, dominance and escaping it, breaking engagement, moving while engaged
  and entanglement live in :mod:`.melee_position`; their names are re-exported here.

Decisions where the pages are vague (house values, also in the docstrings):

* Attack types — quick 2 AP, 5 + DB unarmed, weapons one effect row less; standard
  3 AP, 7 + DB unarmed, the weapon's DMG; heavy 4 AP, −1 to the result, 9 + DB
  unarmed, weapons one row more; shove 2 AP, no damage, a success is one bump toward
  dominance. Unarmed attacks are punches (one free hit location bump up) unless a
  kick is declared (one bump down).
* AD (the dodge's downgrades, never defined on the page) is the defender's level in
  the hand-to-hand skill they defend with, at least 1 (:func:`active_defense`).
* A weapon block that ties the attack result stops the blow with the weapon, which
  is checked for breakage at Rel +1 (000: "increase the Rel by 1 instead of changing
  the hit location"); a block that beats it stops the blow with a normal breakage check.
* Two Defend weapons: the one with the higher advantage value keeps its +1 (003
  speaks of "the higher DV weapon"); Defend and armed-vs-unarmed never stack (003).
* "Half the level of the opponent" in the escape TNs rounds up, like 000's defense.
* Entanglement: the attacker must beat the defender's Coordination (Dexterity) result
  to entangle; breaking free with Strength needs the weapon's entangle TN or more
  (the game's usual "meets or beats"); wriggling free must beat the attacker's skill.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal, Unpack

from pydantic import Field

from ...errors import RulesError
from ..base import HitLocation, Strict
from ..card import Card
from ..character import Character
from ..checks import simple_check
from ..deck import CardSource, PoolRead, read_pool
from ..editions import Edition
from ..gear import Weapon
from .ancillary import equipment_failure
from .melee_position import (
    CAREFUL_DISENGAGE_AP,
    DOMINANCE_DEFENSE,
    DOMINANCE_PACES_PER_BUMP,
    DOMINATED_ROW_SHIFT,
    ENGAGED_MANEUVER_AP,
    ENGAGED_MANEUVER_MAX_PACES,
    ESCAPE,
    FREE_ATTACK_AP_DISCOUNT,
    SRC_WEAPON_LENGTH,
    UNARMED_SKILL,
    AdvantageResult,
    BreakEngagement,
    BreakFreeResult,
    Dominance,
    DominanceChange,
    EntangleResult,
    EscapeRequirement,
    Fighter,
    _half_up,
    assert_dominance,
    break_engagement,
    break_entanglement,
    engaged_maneuver_ap,
    entangle,
    escape_requirement,
    free_attack_ap,
    holds_length,
    melee_advantage,
    weapon_reach,
)
from .ranged import attack_limit, attack_pool
from .records import ApBreakdown, AttackRecord, FailureResult, Modifier, TnBreakdown, mod
from .resolve import (
    HEIGHT_SHIFT,
    KICK_SHIFT,
    PUNCH_SHIFT,
    AttackProfile,
    ResolveKw,
    resolve_profile,
)

#: the public names, with those of :mod:`.melee_position` re-exported
__all__ = [
    "ATTACK_TYPES",
    "BLOCK_AP",
    "BLOCK_TIE_REL",
    "CAREFUL_AP",
    "CAREFUL_BONUS",
    "CAREFUL_DISENGAGE_AP",
    "DODGE_AP",
    "DODGE_VS_RANGED_SWITCH",
    "DOMINANCE_DEFENSE",
    "DOMINANCE_PACES_PER_BUMP",
    "DOMINATED_ROW_SHIFT",
    "ENGAGED_MANEUVER_AP",
    "ENGAGED_MANEUVER_MAX_PACES",
    "ENGAGEMENT_PACES",
    "ESCAPE",
    "FORGONE_DEFENSE_TN",
    "FREE_ATTACK_AP_DISCOUNT",
    "SRC_ADVANTAGE_BONUS",
    "SRC_WEAPON_LENGTH",
    "STOOD_STILL_DEFENSE",
    "STOOD_STILL_ROUNDS",
    "UNARMED_SKILL",
    "AdvantageResult",
    "BlockResult",
    "BreakEngagement",
    "BreakFreeResult",
    "DodgeSpec",
    "Dominance",
    "DominanceChange",
    "EntangleResult",
    "EscapeRequirement",
    "Fighter",
    "MeleeAttackType",
    "active_defense",
    "assert_dominance",
    "attack_result",
    "attack_type",
    "break_engagement",
    "break_entanglement",
    "check_engaged",
    "check_melee_series",
    "defense_ap_cost",
    "dodge_allowed",
    "dodge_items",
    "engaged_maneuver_ap",
    "entangle",
    "escape_requirement",
    "free_attack_ap",
    "holds_length",
    "melee_advantage",
    "melee_ap_cost",
    "melee_defense",
    "melee_profile",
    "melee_tn",
    "resolve_block",
    "resolve_melee",
    "weapon_reach",
]

#: Engagement: within this many paces (000 Hand to Hand Combat).
ENGAGEMENT_PACES = 1
#: 000 Hand to Hand Combat: a careful attack costs 2 AP more and adds 1, once.
CAREFUL_AP = 2
CAREFUL_BONUS = 1
#: 000: a block costs 2 AP, a dodge 3 AP.
BLOCK_AP = 2
DODGE_AP = 3
#: 000: not moving for two rounds running lowers defense by 1.
STOOD_STILL_ROUNDS = 2
STOOD_STILL_DEFENSE = -1
#: Weapon blocks that tie the attack put this much on the weapon's Rel (000).
BLOCK_TIE_REL = 1
#: 000 counts the advantage but leaves what it is worth open; 001 gives the +1
SRC_ADVANTAGE_BONUS = "000 Determining Advantage; the +1: 001 Advantage"


class MeleeAttackType(Strict):
    """One of the four hand-to-hand attack types (000 Hand to Hand Combat)."""

    id: str
    name: str
    ap: Annotated[int, Field(ge=0)]
    result_modifier: int = 0
    #: unarmed damage before DB (None: this attack deals no damage)
    unarmed_damage: int | None
    #: effect rows added to an armed attack's DMG (+ more, − less)
    weapon_row_shift: int = 0
    #: a success is one bump toward dominance instead of damage
    dominance_only: bool = False
    source: str = ""
    house_values: dict[str, str] = {}


ATTACK_TYPES: dict[str, MeleeAttackType] = {
    t.id: t
    for t in (
        MeleeAttackType(
            id="quick",
            name="Quick attack",
            ap=2,
            unarmed_damage=5,
            weapon_row_shift=-1,
            source="000 Impact Damage (Angus' quick attack: 5 + DB)",
            house_values={
                "ap": "000's attack table is missing: 2 AP",
                "weapon_row_shift": "a quick blow with a weapon: one effect row less",
            },
        ),
        MeleeAttackType(
            id="standard",
            name="Standard attack",
            ap=3,
            unarmed_damage=7,
            source="000 Hand to Hand Weapon Damage (the gear DMG is a standard attack's)",
            house_values={"ap": "3 AP", "unarmed_damage": "7 + DB"},
        ),
        MeleeAttackType(
            id="heavy",
            name="Heavy attack (bull rush)",
            ap=4,
            result_modifier=-1,
            unarmed_damage=9,
            weapon_row_shift=1,
            source="000 Asserting Dominance (Dave's bull rush is a heavy attack)",
            house_values={
                "ap": "4 AP",
                "result_modifier": "a wild swing: −1",
                "unarmed_damage": "9 + DB",
                "weapon_row_shift": "one effect row more",
            },
        ),
        MeleeAttackType(
            id="shove",
            name="Shove (for dominance)",
            ap=2,
            unarmed_damage=None,
            dominance_only=True,
            source="000 Asserting Dominance (Clem shoves Hank: a success is one bump toward dominance)",
            house_values={"ap": "2 AP"},
        ),
    )
}


def attack_type(type_id: str) -> MeleeAttackType:
    try:
        return ATTACK_TYPES[type_id]
    except KeyError:
        known = ", ".join(ATTACK_TYPES)
        raise RulesError(f"{type_id!r} is not an attack type; use one of {known}.") from None


def _skill_of(weapon: Weapon | None) -> str:
    return weapon.skill if weapon is not None else UNARMED_SKILL


def check_engaged(distance_paces: float) -> None:
    """Refuse a hand-to-hand attack beyond one pace (000 Hand to Hand Combat)."""
    if distance_paces > ENGAGEMENT_PACES:
        raise RulesError(
            f"Hand to hand needs the fighters within {ENGAGEMENT_PACES} pace; they are "
            f"{distance_paces:g} apart."
        )


# =============================================================================
# Defense and the TN
# =============================================================================


def _defend_applies(defender_weapon: Weapon | None, attacker_weapon: Weapon | None) -> bool:
    if defender_weapon is None or "defend" not in defender_weapon.attributes:
        return False
    if attacker_weapon is not None and "defend" in attacker_weapon.attributes:
        return defender_weapon.advantage > attacker_weapon.advantage
    return True


def melee_defense(
    defender: Character,
    edition: Edition,
    *,
    defender_weapon: Weapon | None = None,
    attacker_weapon: Weapon | None = None,
    held_at: int = Dominance.NONE,
    stood_still: bool = False,
    advantage: bool = False,
    skill: str | None = None,
) -> TnBreakdown:
    """The defender's Defense — the TN of a hand-to-hand attack on them.

    AP v2 (000): 4 + half the skill level, rounded up (skill 1 → 5, skill 3 → 6).
    Phases (001): 3 + the level (Hank, Brawl 1 → 4), +1 armed against an unarmed
    foe and +1 with a Defend weapon (003), never both. Then −1/−2 when held at
    partial/full dominance, −1 after standing still two rounds, +1 with advantage.
    """
    md = edition.melee_defense
    skill = skill or _skill_of(defender_weapon)
    level = defender.skill_level(skill)
    items: list[Modifier] = []
    if md.rule == "half_up":
        items.append(
            mod(f"half of {skill} {level}, rounded up", _half_up(level), "000 Determining Results")
        )
    else:
        items.append(mod(f"{skill} {level}", level, "001 Determining Defense"))
    armed = defender_weapon is not None and attacker_weapon is None and md.armed_vs_unarmed
    defend = _defend_applies(defender_weapon, attacker_weapon) and md.defend_attribute
    if armed and defend:
        items.append(
            mod(
                "armed vs unarmed / Defend (do not stack)",
                max(md.armed_vs_unarmed, md.defend_attribute),
                "003 Determining Defense",
            )
        )
    elif armed:
        items.append(
            mod("armed against an unarmed attacker", md.armed_vs_unarmed, "003 Determining Defense")
        )
    elif defend and defender_weapon is not None:
        items.append(
            mod(f"Defend ({defender_weapon.name})", md.defend_attribute, "003 Determining Defense")
        )
    if held_at:
        name = Dominance(held_at).name.lower().replace("_", " ")
        items.append(
            mod(f"held at {name}", DOMINANCE_DEFENSE[held_at], "000 Position in Hand-to-Hand")
        )
    if stood_still:
        items.append(
            mod(
                f"did not move for {STOOD_STILL_ROUNDS} rounds",
                STOOD_STILL_DEFENSE,
                "000 Maneuvering During Engagement",
            )
        )
    if advantage:
        items.append(mod("defender has the advantage", 1, SRC_ADVANTAGE_BONUS))
    return TnBreakdown.build(md.base, "Defense", f"{edition.name}: melee defense", items)


class DodgeSpec(Strict):
    """A declared dodge (000: 3 AP, active defense, only with no attacks made)."""

    from_front: bool = True
    #: AD override; None uses :func:`active_defense`
    ad: Annotated[int, Field(ge=0)] | None = None


def active_defense(defender: Character, skill: str = UNARMED_SKILL) -> int:
    """AD, the downgrades a dodge gives (house: the defender's hand-to-hand skill
    level, at least 1 — the page never defines AD)."""
    return max(1, defender.skill_level(skill))


#: 001 Movement Actions: a defender who moved forgoing defence is hit on TN 3
FORGONE_DEFENSE_TN = 3


def melee_tn(
    attacker: Character,
    defender: Character,
    edition: Edition,
    *,
    attack: str | MeleeAttackType = "standard",
    attacker_weapon: Weapon | None = None,
    defender_weapon: Weapon | None = None,
    careful: bool = False,
    advantage: Literal["attacker", "defender"] | None = None,
    defender_held_at: int = Dominance.NONE,
    defender_stood_still: bool = False,
    dodge: DodgeSpec | None = None,
    defender_attacked_this_round: bool = False,
    defender_forgoes_defense: bool = False,
    defender_forgoes_moving: bool = False,
) -> TnBreakdown:
    """The TN (the defender's Defense) and the attacker's result modifiers.
    ``defender_forgoes_defense``: the defender moves as a continuous action (002: "the
    TN for all attacks targeting them is reduced by 1"). ``defender_forgoes_moving``:
    the defender moved forgoing defence this round (001 Movement Actions: "their
    defense is 0; the TN to hit them is 3 and they forfeit any advantage")."""
    at = attack if isinstance(attack, MeleeAttackType) else attack_type(attack)
    if defender_forgoes_moving and advantage == "defender":
        advantage = None
    tn = melee_defense(
        defender,
        edition,
        defender_weapon=defender_weapon,
        attacker_weapon=attacker_weapon,
        held_at=defender_held_at,
        stood_still=defender_stood_still,
        advantage=advantage == "defender",
    )
    res: list[Modifier] = []
    if at.result_modifier:
        res.append(mod(at.name, at.result_modifier, "house value"))
    if careful:
        res.append(mod("careful attack", CAREFUL_BONUS, "000 Hand to Hand Combat"))
    if advantage == "attacker":
        res.append(mod("attacker has the advantage", 1, SRC_ADVANTAGE_BONUS))
    notes: list[str] = []
    if dodge is not None:
        items, why = dodge_items(
            defender,
            dodge,
            defender_weapon=defender_weapon,
            defender_attacked_this_round=defender_attacked_this_round,
        )
        res += items
        notes += why
    forgo = (
        [mod("defender moves continuously: forgoes its defence", -1, "002 Continuous Actions")]
        if defender_forgoes_defense
        else []
    )
    if defender_forgoes_moving:
        return TnBreakdown.build(
            FORGONE_DEFENSE_TN,
            f"{defender.name} moved forgoing defence: Defense 0, TN 3, no advantage",
            "001 Movement Actions",
            [],
            res,
            notes,
        )
    return tn.with_items(tn_items=forgo, result_items=res, notes=notes)


#: The switch that lets a dodge count against shots and throws too (house, off by
#: default; see :func:`dodge_allowed`).
DODGE_VS_RANGED_SWITCH = "dodge_vs_ranged"


def dodge_allowed(kind: Literal["melee", "ranged", "thrown"], options: object | None) -> bool:
    """Whether a declared dodge may be set against an attack of ``kind``.

    000 puts the dodge in its Hand to Hand Combat section, next to the block, and
    says it covers every attack from one direction (120°: two hexsides). Read with
    the section it stands in, that means every *hand-to-hand* attack from that
    front, and that is the default. The sentence itself does not say "hand to
    hand", so a Judge may turn on the ``dodge_vs_ranged`` switch (OptionalRules) to
    let a dodge work against shots and throws from the same front too — the
    downgrades to the attacker's result are the same AD (house reading)."""
    if kind == "melee":
        return True
    return bool(getattr(options, DODGE_VS_RANGED_SWITCH, False))


def dodge_items(
    defender: Character,
    dodge: DodgeSpec,
    *,
    defender_weapon: Weapon | None = None,
    defender_attacked_this_round: bool = False,
    source: str = "000 Hand to Hand Combat",
) -> tuple[list[Modifier], list[str]]:
    """The result modifiers and notes a declared dodge gives the attacker: AD
    downgrades when the attack comes from inside the dodge's front, nothing (and a
    note saying so) from outside it. Refused for a defender who has attacked this
    round (000: a dodge is an active defence)."""
    if defender_attacked_this_round:
        raise RulesError(f"{defender.name} has attacked this round and cannot dodge.")
    if not dodge.from_front:
        return [], ["the attack comes from outside the dodge's 120° front: no effect"]
    ad = dodge.ad if dodge.ad is not None else active_defense(defender, _skill_of(defender_weapon))
    return [mod(f"{defender.name} dodges (AD {ad})", -ad, source)], []


def melee_ap_cost(attack: str | MeleeAttackType, *, careful: bool = False) -> ApBreakdown:
    """AP of one hand-to-hand attack (house values; careful +2, 000)."""
    at = attack if isinstance(attack, MeleeAttackType) else attack_type(attack)
    items = [mod(at.name, at.ap, "house value (000's table is missing)")]
    if careful:
        items.append(mod("careful attack", CAREFUL_AP, "000 Hand to Hand Combat"))
    return ApBreakdown.build(items)


def defense_ap_cost(kind: Literal["block", "dodge"]) -> ApBreakdown:
    """AP of a block (2) or a dodge (3) (000 Hand to Hand Combat)."""
    value = BLOCK_AP if kind == "block" else DODGE_AP
    return ApBreakdown.build([mod(kind, value, "000 Hand to Hand Combat")])


def check_melee_series(attacker: Character, weapon: Weapon | None, attacks: int) -> int:
    """The skill level (trait rank unskilled) of a hand-to-hand series: the attacks
    past it are declared, paid and miss automatically (000 Multiple Attacks:
    "Attacks in excess of the level of the appropriate skill miss automatically
    (but may have other effects)"); returns the limit."""
    if attacks < 1:
        raise RulesError("Declare at least one hand-to-hand attack.")
    return attack_limit(attacker, weapon, skill=_skill_of(weapon))


# =============================================================================
# Blocks
# =============================================================================


class BlockResult(Strict):
    """A block against one incoming attack (000 Hand to Hand Combat)."""

    outcome: Literal["failed", "to_arm", "blocked"]
    attack_result: int
    block_result: int | None
    arm: HitLocation | None = None
    weapon_id: str | None = None
    breakage: FailureResult | None = None
    reasons: tuple[str, ...] = ()

    @property
    def weapon_broke(self) -> bool:
        return self.breakage is not None and self.breakage.failed


def resolve_block(
    defender: Character,
    attack_result: int,
    card: Card,
    edition: Edition,
    *,
    weapon: Weapon | None = None,
    arm: HitLocation = HitLocation.LEFT_ARM,
    more: CardSource | None = None,
    discard: Sequence[Card] = (),
) -> BlockResult:
    """The defender's block test against the attack's result as TN.

    Unarmed (Brawl): equal moves the hit to the blocking ``arm``; more stops it.
    With a weapon (its skill): equal stops it but the weapon is checked for breakage
    at Rel +1; more stops it with a normal breakage check.
    """
    if arm not in (HitLocation.LEFT_ARM, HitLocation.RIGHT_ARM):
        raise RulesError("A block is made with an arm.")
    skill = _skill_of(weapon)
    pool, why = attack_pool(defender, weapon, skill=skill)
    read = read_pool(card, pool, more)
    reasons = [*why, *read.reasons]
    best = read.result(0)
    check = simple_check(best, attack_result, cf=read.is_cf, bump_every=edition.bump_every)
    reasons += list(check.reasons)
    breakage = None
    if read.is_cf or best is None or best < attack_result:
        outcome: Literal["failed", "to_arm", "blocked"] = "failed"
        reasons.append("the block fails")
        if weapon is not None:
            breakage = equipment_failure(card.wrench, weapon.rel, discard, card_number=card.number)
    elif best == attack_result:
        if weapon is None:
            outcome = "to_arm"
            reasons.append(
                f"a tie: the blow lands on the {arm.value.replace('_', ' ')} instead (000)"
            )
        else:
            outcome = "blocked"
            rel = None if weapon.rel is None else weapon.rel + BLOCK_TIE_REL
            breakage = equipment_failure(card.wrench, rel, discard, card_number=card.number)
            reasons.append(
                f"a tie: the {weapon.name} takes the blow, Rel +{BLOCK_TIE_REL} for breakage (000)"
            )
    else:
        outcome = "blocked"
        reasons.append("the block beats the attack: no effect (000)")
        if weapon is not None:
            breakage = equipment_failure(card.wrench, weapon.rel, discard, card_number=card.number)
    if breakage is not None:
        reasons += list(breakage.reasons)
    return BlockResult(
        outcome=outcome,
        attack_result=attack_result,
        block_result=best,
        arm=arm if outcome == "to_arm" else None,
        weapon_id=weapon.id if weapon else None,
        breakage=breakage,
        reasons=tuple(reasons),
    )


def attack_result(pool_read: PoolRead, tn: TnBreakdown, rank: int = 0) -> int | None:
    """The modified result an attack scored (what a block must match); None on a CF."""
    raw = pool_read.result(rank)
    return None if raw is None else raw + tn.result_modifier


# =============================================================================
# Resolving a hand-to-hand attack
# =============================================================================


def melee_profile(
    attacker: Character,
    edition: Edition,
    *,
    attack: str | MeleeAttackType = "standard",
    weapon: Weapon | None = None,
    kick: bool = False,
    height_advantage: bool = False,
    attacker_dominance: int = Dominance.NONE,
    attacker_held_at: int = Dominance.NONE,
    forced_location: HitLocation | None = None,
    forced_reason: str = "",
) -> AttackProfile:
    """The profile of one hand-to-hand attack."""
    at = attack if isinstance(attack, MeleeAttackType) else attack_type(attack)
    if weapon is not None and not weapon.is_melee and "improvised" not in weapon.attributes:
        raise RulesError(f"The {weapon.name} is not a hand-to-hand weapon.")
    if weapon is not None and weapon.kind == "entangle":
        raise RulesError(f"The {weapon.name} entangles; use entangle() instead of an attack.")
    skill = _skill_of(weapon)
    pool, _ = attack_pool(attacker, weapon, skill=skill)
    shift = 0
    shift_reasons: list[str] = []
    punch = (weapon is None and not kick) or (weapon is not None and "punch" in weapon.attributes)
    kicking = kick or (weapon is not None and "kick" in weapon.attributes)
    if punch and not kicking:
        shift += PUNCH_SHIFT
        shift_reasons.append("a punch: one bump up (001/003 Hit Location Modifiers)")
    if kicking:
        shift += KICK_SHIFT
        shift_reasons.append("a kick: one bump down (001/003 Hit Location Modifiers)")
    if height_advantage:
        shift += HEIGHT_SHIFT
        shift_reasons.append("height advantage: one bump up (001/003 Hit Location Modifiers)")
    rows = 0
    row_reasons: list[str] = []
    flat = None
    if weapon is None:
        flat = at.unarmed_damage
        kind: Literal["deadly", "impact"] = "impact"
        dmg = rd = None
    elif weapon.improvised_damage is not None:
        # 000 Improvised Weapons: the attack type's own damage plus the weapon's;
        # a sharp one makes it deadly
        kind = weapon.damage_kind
        dmg = rd = None
        flat = None if at.unarmed_damage is None else at.unarmed_damage + weapon.improvised_damage
        if flat is not None:
            row_reasons.append(
                f"{weapon.name}: {at.name} {at.unarmed_damage} + {weapon.improvised_damage} "
                f"{kind} (000 Improvised Weapons)"
            )
    else:
        kind = weapon.damage_kind
        dmg, rd = weapon.dmg, weapon.rd
        if at.weapon_row_shift:
            rows += at.weapon_row_shift
            row_reasons.append(f"{at.name}: {at.weapon_row_shift:+d} effect row (house value)")
    held = DOMINATED_ROW_SHIFT.get(int(attacker_held_at), 0)
    if held:
        rows += held
        row_reasons.append(f"attacker is dominated: damage one row up, {held:+d} (000 Position)")
    return AttackProfile(
        attack_kind="melee",
        weapon_id=weapon.id if weapon else None,
        weapon_name=weapon.name if weapon else "bare hands",
        pool=pool,
        dmg=dmg,
        rd=rd,
        flat_damage=flat,
        damage_bonus=attacker.damage_bonus,
        row_shift=rows,
        row_shift_reasons=tuple(row_reasons),
        damage_kind=kind,
        impact_attribute=weapon is not None and "impact" in weapon.attributes,
        pen=weapon.pen if weapon else 0,
        rel=weapon.rel if weapon else None,
        free_shift=shift,
        free_shift_reasons=tuple(shift_reasons),
        forced_location=forced_location,
        forced_reason=forced_reason,
        may_choose_location=int(attacker_dominance) >= Dominance.FULL,
    )


def resolve_melee(
    attacker: Character,
    defender: Character,
    edition: Edition,
    tn: TnBreakdown,
    card: Card,
    *,
    attack: str | MeleeAttackType = "standard",
    weapon: Weapon | None = None,
    kick: bool = False,
    height_advantage: bool = False,
    attacker_dominance: int = Dominance.NONE,
    attacker_held_at: int = Dominance.NONE,
    block: BlockResult | None = None,
    chosen_location: HitLocation | None = None,
    distance_paces: float = 0,
    **kw: Unpack[ResolveKw],
) -> tuple[AttackRecord, Character]:
    """Resolve one hand-to-hand attack from the card to the wound.

    ``block`` is the defender's :func:`resolve_block` against this attack's result:
    ``blocked`` stops it, ``to_arm`` moves the hit to the blocking arm. A shove
    (dominance only) deals no damage; its success is one bump toward dominance plus
    any bumps spent on dominance. With full dominance the attacker may name
    ``chosen_location``. The keywords of :class:`~.resolve.ResolveKw` go to
    :func:`~.resolve.resolve_profile`; a hand-to-hand attack counts as an action with
    movement for a stowed gun going off unless ``action_moves`` says otherwise.
    """
    check_engaged(distance_paces)
    at = attack if isinstance(attack, MeleeAttackType) else attack_type(attack)
    if weapon is not None:
        carried = [w for w in attacker.weapons if w.weapon_id == weapon.id]
        if carried and not any(w.readied for w in carried):
            raise RulesError(
                f"{attacker.name}'s {weapon.name} is not readied; ready it first "
                f"({weapon.ready_ap} AP)."
            )
    forced = None
    forced_reason = ""
    if block is not None and block.outcome == "to_arm":
        forced = block.arm
        forced_reason = f"the block moves the hit to the {block.arm.value.replace('_', ' ')} (000)"  # type: ignore[union-attr]
        if chosen_location is not None:
            raise RulesError("The block has already decided where the blow lands.")
    profile = melee_profile(
        attacker,
        edition,
        attack=at,
        weapon=weapon,
        kick=kick,
        height_advantage=height_advantage,
        attacker_dominance=attacker_dominance,
        attacker_held_at=attacker_held_at,
        forced_location=forced,
        forced_reason=forced_reason,
    )
    blocked = block is not None and block.outcome == "blocked"
    kw.setdefault("action_moves", True)
    record, new_defender = resolve_profile(
        profile,
        attacker=attacker,
        target=defender,
        edition=edition,
        tn=tn,
        card=card,
        chosen_location=chosen_location,
        blocked=blocked or at.dominance_only,
        block_reasons=block.reasons if block is not None else (),
        **kw,
    )
    if block is not None:
        record = record.model_copy(update={"block_outcome": block.outcome})
    if at.dominance_only:
        gained = 0
        notes = list(record.notes)
        if record.hit.success and not blocked:
            gained = 1 + (record.spends.dominance if record.spends else 0)
            notes.append(f"{at.name}: a success is one bump toward dominance (000)")
        record = record.model_copy(
            update={"blocked": blocked, "dominance_bumps": gained, "notes": tuple(notes)}
        )
    elif record.spends is not None and record.spends.dominance:
        record = record.model_copy(update={"dominance_bumps": record.spends.dominance})
    return record, new_defender
