"""Position in hand to hand combat (000 Determining Advantage, Position in
Hand-to-Hand, Breaking Engagement, Maneuvering During Engagement; 003
Entanglement): who holds the advantage (:func:`melee_advantage`, with 000's optional
weapon length), the levels of dominance and escaping them, breaking engagement and
moving while engaged, entangling a foe and breaking free. The attack itself, its
defense and TN live in :mod:`.melee`, which re-exports these names."""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import IntEnum
from typing import Annotated, Literal

from pydantic import Field

from ...errors import RulesError
from ..base import Pool, Strict
from ..card import Card
from ..character import Character
from ..checks import simple_check
from ..deck import CardSource, PoolRead, read_pool
from ..editions import Edition, OptionalRules
from ..gear import Weapon
from .ranged import attack_pool

#: The skill used for unarmed fighting (001 "Fighting: Brawl").
UNARMED_SKILL = "fighting_brawl"
#: 000 Breaking Engagement: a careful disengage costs 2 AP; moving away instead gives
#: the opponent an attack for 1 AP less (minimum 0).
CAREFUL_DISENGAGE_AP = 2
FREE_ATTACK_AP_DISCOUNT = 1
#: 000 Maneuvering During Engagement: 1 AP a pace, at most one pace.
ENGAGED_MANEUVER_AP = 1
ENGAGED_MANEUVER_MAX_PACES = 1
#: 000 Asserting Dominance: movement allowed per bump spent on dominance.
DOMINANCE_PACES_PER_BUMP = 2


class Dominance(IntEnum):
    """Levels of dominance one fighter holds over another (000 Position)."""

    NONE = 0
    PARTIAL = 1
    DOMINANCE = 2
    FULL = 3


#: Defense change of a fighter held at each level (000 Position in Hand-to-Hand).
DOMINANCE_DEFENSE: dict[int, int] = {0: 0, 1: -1, 2: -2, 3: -2}
#: Effect rows lost by the attacks of a fighter held at each level (000: dominated
#: attacks have their damage shifted up a row).
DOMINATED_ROW_SHIFT: dict[int, int] = {0: 0, 1: 0, 2: -1, 3: -1}
#: (AP per attempt, base TN) to escape each level (000 Breaking Engagements When
#: Dominated); the TN adds half the opponent's level, rounded up.
ESCAPE: dict[int, tuple[int, int]] = {1: (1, 3), 2: (2, 5), 3: (3, 7)}


def _half_up(n: int) -> int:
    return math.ceil(n / 2)


# =============================================================================
# Advantage
# =============================================================================


class Fighter(Strict):
    """One fighter's side of the advantage count (000 Determining Advantage)."""

    name: str
    weapon: Weapon | None = None
    size: Annotated[int, Field(ge=0)] = 6
    #: at least a foot higher: mounted, up a slope… (000)
    height: bool = False
    #: trapping the foe, mud, a corner… (000)
    position: bool = False
    #: has closed the distance: hit the torso or head of a foe with a longer weapon,
    #: so the weapon-length advantage switches to this fighter (optional rule, 000)
    closed_in: bool = False
    #: skill levels spent on advantage, one factor each (001 Advantage)
    skill_spent: Annotated[int, Field(ge=0)] = 0


class AdvantageResult(Strict):
    """Who holds the advantage this round and why."""

    winner: Literal["a", "b"] | None
    totals: tuple[int, int]
    reasons: tuple[str, ...] = ()

    def bonus_for(self, side: Literal["a", "b"]) -> int:
        """+1 for the side with the advantage (to the result attacking, to Defense
        defending, 001 Advantage)."""
        return 1 if self.winner == side else 0


#: 000 Optional Rule: Weapon Length
SRC_WEAPON_LENGTH = "000 Optional Rule: Weapon Length"


def weapon_reach(weapon: Weapon | None) -> int:
    """How long a hand-to-hand weapon is, for the weapon-length rule: 0 for a short
    weapon (or none: fists reach no further than a knife), 2 for a long one, 1 for
    the rest. 001 counts length once, whatever the gap ("a long weapon has a single
    advantage versus a normal weapon and a short weapon")."""
    if weapon is None or "short" in weapon.attributes:
        return 0
    return 2 if "long" in weapon.attributes else 1


def holds_length(f: Fighter, foe: Fighter) -> bool:
    """Whether ``f`` holds the weapon-length advantage over ``foe`` (000 Optional Rule:
    Weapon Length): the longer weapon holds it from the start of the engagement; it
    switches to the shorter weapon once that fighter has closed in (hit the torso or
    head of the longer weapon's wielder). Equal lengths give it to no one."""
    mine, theirs = weapon_reach(f.weapon), weapon_reach(foe.weapon)
    if mine == theirs:
        return False
    if mine > theirs:
        return not foe.closed_in
    return f.closed_in


def _fighter_value(f: Fighter, foe: Fighter, options: OptionalRules, reasons: list[str]) -> int:
    value = 0
    parts: list[str] = []
    if f.weapon is not None and f.weapon.advantage:
        value += f.weapon.advantage
        parts.append(f"{f.weapon.name} {f.weapon.advantage:+d}")
    if f.height:
        value += 1
        parts.append("height +1")
    if f.size > foe.size:
        diff = f.size - foe.size
        value += diff
        parts.append(f"size {f.size} vs {foe.size}: +{diff}")
    if f.position:
        value += 1
        parts.append("position +1")
    if f.weapon is not None and foe.weapon is None:
        value += 1
        parts.append("armed vs unarmed +1")
    if f.skill_spent:
        value += f.skill_spent
        parts.append(f"{f.skill_spent} skill level(s) spent on advantage (001 Advantage)")
    if options.weapon_length and holds_length(f, foe):
        value += 1
        how = "closed in on the longer weapon" if f.closed_in else "the longer weapon"
        parts.append(f"weapon length +1: {how} ({SRC_WEAPON_LENGTH})")
    reasons.append(f"{f.name}: {value}" + (f" ({', '.join(parts)})" if parts else ""))
    return value


def melee_advantage(
    side_a: Sequence[Fighter], side_b: Sequence[Fighter], options: OptionalRules | None = None
) -> AdvantageResult:
    """Advantage for the round (000 Determining Advantage): each fighter's weapon
    advantage plus height (and size), position and armed-vs-unarmed; a side of
    several fighters adds their values and +1 per other fighter on the side for each
    member. The larger total wins +1; a tie gives no one the advantage."""
    options = options or OptionalRules()
    if not side_a or not side_b:
        raise RulesError("Advantage needs a fighter on each side.")
    reasons: list[str] = []
    totals = []
    for side, foes in ((side_a, side_b), (side_b, side_a)):
        foe = foes[0]
        total = sum(_fighter_value(f, foe, options, reasons) for f in side)
        if len(side) > 1:
            gang = len(side) * (len(side) - 1)
            total += gang
            reasons.append(
                f"ganging up: +{len(side) - 1} for each of {len(side)} fighters = +{gang}"
            )
        totals.append(total)
    a, b = totals
    winner: Literal["a", "b"] | None = "a" if a > b else "b" if b > a else None
    reasons.append(
        f"{a} vs {b}: "
        + ("no advantage" if winner is None else f"side {winner} has the advantage (+1)")
    )
    return AdvantageResult(winner=winner, totals=(a, b), reasons=tuple(reasons))


# =============================================================================
# Dominance and breaking engagement
# =============================================================================


class DominanceChange(Strict):
    level: Dominance
    movement_paces: int = 0
    reasons: tuple[str, ...] = ()


def assert_dominance(current: int, bumps: int, opponent_bumps: int = 0) -> DominanceChange:
    """New dominance level after bumps spent on it (one level per bump) and the
    opponent's bumps cancelling them one for one (000 Asserting Dominance)."""
    if bumps < 0 or opponent_bumps < 0:
        raise RulesError("Bumps spent on dominance cannot be negative.")
    level = max(Dominance.NONE, min(Dominance.FULL, int(current) + bumps - opponent_bumps))
    reasons = [
        f"dominance {Dominance(current).name.lower()} + {bumps} bump(s) − {opponent_bumps} "
        f"cancelled → {Dominance(level).name.lower()} (000)"
    ]
    return DominanceChange(
        level=Dominance(level),
        movement_paces=DOMINANCE_PACES_PER_BUMP * bumps,
        reasons=tuple(reasons),
    )


class EscapeRequirement(Strict):
    """What escaping a level of dominance costs (000 Breaking Engagements When Dominated)."""

    level: Dominance
    ap: int
    tn: int
    skill: str = UNARMED_SKILL
    reasons: tuple[str, ...] = ()


def escape_requirement(held_at: int, opponent_level: int) -> EscapeRequirement:
    """AP per attempt and the Unarmed Combat TN to get out from under dominance:
    partial 1 AP, TN 3; dominance 2 AP, TN 5; full 3 AP, TN 7 — each + half the
    opponent's level, rounded up."""
    if held_at not in ESCAPE:
        raise RulesError("There is no dominance to escape from.")
    ap, base = ESCAPE[held_at]
    half = _half_up(opponent_level)
    tn = base + half
    lvl = Dominance(held_at)
    return EscapeRequirement(
        level=lvl,
        ap=ap,
        tn=tn,
        reasons=(
            f"{lvl.name.lower()}: {ap} AP per attempt, TN {base} + half of level "
            f"{opponent_level} ({half}) = {tn} (000)",
        ),
    )


class BreakEngagement(Strict):
    """How a fighter leaves an engagement (000 Breaking Engagement)."""

    ap: int
    opponent_free_attack: bool
    reasons: tuple[str, ...] = ()


def break_engagement(careful: bool, *, held_at: int = Dominance.NONE) -> BreakEngagement:
    """2 AP to disengage carefully, or move away and give the opponent an attack at
    1 AP less (minimum 0). A fighter under dominance must escape first; one under
    partial dominance must also pass the partial escape check."""
    if held_at >= Dominance.DOMINANCE:
        raise RulesError("A dominated fighter must escape the hold before leaving the fight.")
    reasons = []
    if held_at == Dominance.PARTIAL:
        reasons.append("under partial dominance: pass the escape check first (000)")
    if careful:
        reasons.append(f"careful disengage: {CAREFUL_DISENGAGE_AP} AP on top of the move (000)")
        return BreakEngagement(
            ap=CAREFUL_DISENGAGE_AP, opponent_free_attack=False, reasons=tuple(reasons)
        )
    reasons.append("moving away: the opponent may attack at once for 1 AP less (000)")
    return BreakEngagement(ap=0, opponent_free_attack=True, reasons=tuple(reasons))


def free_attack_ap(attack_ap: int) -> int:
    """AP of the free attack on a fighter who walks away (000: 1 less, minimum 0)."""
    return max(0, attack_ap - FREE_ATTACK_AP_DISCOUNT)


def engaged_maneuver_ap(paces: int) -> int:
    """AP to shift while staying engaged: 1 AP a pace, at most one pace (000)."""
    if paces > ENGAGED_MANEUVER_MAX_PACES:
        raise RulesError("Moving more than one pace breaks the engagement.")
    if paces < 0:
        raise RulesError("A move cannot be negative.")
    return paces * ENGAGED_MANEUVER_AP


# =============================================================================
# Entanglement (003)
# =============================================================================


class EntangleResult(Strict):
    success: bool
    attacker_result: int | None
    defender_result: int | None
    reasons: tuple[str, ...] = ()


def _best(read: PoolRead, modifier: int) -> int | None:
    r = read.result(0)
    return None if r is None else r + modifier


def entangle(
    attacker: Character,
    defender: Character,
    weapon: Weapon,
    attacker_card: Card,
    defender_card: Card,
    *,
    more: CardSource | None = None,
    attacker_modifier: int = 0,
    defender_modifier: int = 0,
) -> EntangleResult:
    """An entangling or tripping attempt: the attacker's weapon skill against the
    defender's Coordination (003's Dexterity); the attacker must beat it."""
    if weapon.kind != "entangle" and "entangle" not in weapon.attributes:
        raise RulesError(f"The {weapon.name} cannot entangle.")
    apool, why = attack_pool(attacker, weapon)
    dpool = defender.trait_pool("coordination")
    aread = read_pool(attacker_card, apool, more)
    dread = read_pool(defender_card, dpool, more)
    a = _best(aread, attacker_modifier)
    d = _best(dread, defender_modifier)
    reasons = [*why, *aread.reasons, f"{defender.name}: Coordination {dpool}", *dread.reasons]
    if a is None:
        success = False
        reasons.append("the attacker's CF: the attempt fails")
    elif d is None:
        success = True
        reasons.append(f"the defender's CF: {defender.name} is entangled")
    else:
        success = a > d
        reasons.append(
            f"{a} vs {d}: "
            + (f"{defender.name} is entangled" if success else "the attempt fails")
            + " (003 Entanglement)"
        )
    return EntangleResult(
        success=success, attacker_result=a, defender_result=d, reasons=tuple(reasons)
    )


class BreakFreeResult(Strict):
    freed: bool
    weapon_broken: bool = False
    method: Literal["strength", "wriggle"]
    reasons: tuple[str, ...] = ()


def break_entanglement(
    victim: Character,
    weapon: Weapon,
    card: Card,
    edition: Edition,
    *,
    method: Literal["strength", "wriggle"] = "strength",
    attacker: Character | None = None,
    attacker_card: Card | None = None,
    more: CardSource | None = None,
    modifier: int = 0,
) -> BreakFreeResult:
    """Getting out of an entanglement (003): a Strength check against the weapon's
    entangle TN (a fragile weapon breaks), or wriggling out — Coordination opposed
    by the attacker's skill with the weapon."""
    if method == "strength":
        if weapon.entangle_tn is None:
            raise RulesError(f"The {weapon.name} lists no entangle TN.")
        pool: Pool = victim.trait_pool("strength")
        read = read_pool(card, pool, more)
        result = _best(read, modifier)
        check = simple_check(
            result, weapon.entangle_tn, cf=read.is_cf, bump_every=edition.bump_every
        )
        reasons = [
            f"Strength {pool} vs the {weapon.name}'s TN {weapon.entangle_tn}",
            *read.reasons,
            *check.reasons,
        ]
        broken = check.success and "fragile" in weapon.attributes
        if broken:
            reasons.append(f"the {weapon.name} is fragile and breaks (003)")
        return BreakFreeResult(
            freed=check.success, weapon_broken=broken, method=method, reasons=tuple(reasons)
        )
    if attacker is None or attacker_card is None:
        raise RulesError(
            "Wriggling free is opposed by the attacker: give the attacker and their card."
        )
    vread = read_pool(card, victim.trait_pool("coordination"), more)
    apool, _ = attack_pool(attacker, weapon)
    aread = read_pool(attacker_card, apool, more)
    v = _best(vread, modifier)
    a = _best(aread, 0)
    reasons = [*vread.reasons, *aread.reasons]
    if v is None:
        freed = False
    elif a is None:
        freed = True
    else:
        freed = v > a
    reasons.append(
        f"{v if v is not None else 'CF'} vs {a if a is not None else 'CF'}: "
        + ("wriggles free" if freed else "still entangled")
        + " (003 Entanglement)"
    )
    return BreakFreeResult(freed=freed, method=method, reasons=tuple(reasons))
