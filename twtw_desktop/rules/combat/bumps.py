"""Spending the bumps of an attack (002 Escalating Success: Bumps; 000/001 Hit Location).

Standard bumps come from beating the TN (one per full 4). Conditional bumps are kept
apart and can only buy what their kind allows (002 Conditional Bumps):

* ``damage_only`` — vitals (+1) and head (+2) hits, edges: one effect row each;
* ``penetration_only`` — +1 PV each;
* ``burst`` — extra hits of a burst or a fan (000 Burst Fire): damage *or*
  penetration, the player's choice (by default all go to damage, which is the same
  as 000's "one effect row per extra hit in a location").

Standard bumps buy (002 Spending Bumps): a hit location move (costing the entry's
triangles), penetration, damage, a stray-shot figure ±1, taking a bonus counter, a
secondary target (003 fan firing), an extra fan hit (003) or a level of dominance
(000 Asserting Dominance). Conditional bumps that nobody redirects are applied
automatically, since they "add directly" (001 Damage Bumps).

Fixed hit-location modifiers (001/003 Hit Location Modifiers: punch, height and
point blank one bump up, kick one down) are *free* bumps in their direction. House
reading for the cases the pages skip: moving the other way (or back to the standard
entry once a free bump has moved the hit) costs one extra bump per free bump.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ...errors import RulesError
from ..base import HitLocation, Strict
from ..card import STANDARD_HIT_INDEX, Card
from .records import SpendRecord

#: Stack indices above the standard entry are "up" (toward the head), below "down".
UP, DOWN = 1, -1


class BumpPool(Strict):
    """Bumps available to one attack, standard and conditional kept apart."""

    standard: Annotated[int, Field(ge=0)] = 0
    damage_only: Annotated[int, Field(ge=0)] = 0
    penetration_only: Annotated[int, Field(ge=0)] = 0
    burst: Annotated[int, Field(ge=0)] = 0

    def __add__(self, other: BumpPool) -> BumpPool:
        return BumpPool(
            standard=self.standard + other.standard,
            damage_only=self.damage_only + other.damage_only,
            penetration_only=self.penetration_only + other.penetration_only,
            burst=self.burst + other.burst,
        )

    def conditional(self) -> dict[str, int]:
        return {
            k: v
            for k, v in (
                ("damage_only", self.damage_only),
                ("penetration_only", self.penetration_only),
                ("burst", self.burst),
            )
            if v
        }


class StraySpend(Strict):
    """Move one unintended-target figure by one (002 Stray shot spend)."""

    figure_index: Annotated[int, Field(ge=0, le=2)]
    delta: Literal[-1, 1]


class BumpSpends(Strict):
    """The Judge's choice of spends for one attack. Every count is in bumps."""

    #: move the hit to this entry of the card's stack (0 top … 3 bottom)
    hit_location_index: Annotated[int, Field(ge=0, le=3)] | None = None
    penetration: Annotated[int, Field(ge=0)] = 0
    damage: Annotated[int, Field(ge=0)] = 0
    #: burst bumps turned to penetration instead of damage
    burst_to_penetration: Annotated[int, Field(ge=0)] = 0
    stray: tuple[StraySpend, ...] = ()
    bonus_counter: bool = False
    secondary_targets: Annotated[int, Field(ge=0)] = 0
    extra_hits: Annotated[int, Field(ge=0)] = 0
    dominance: Annotated[int, Field(ge=0)] = 0

    @property
    def empty(self) -> bool:
        return self == BumpSpends()


class LocationOption(Strict):
    """One entry of the hit location stack and what it costs to land there."""

    index: int
    location: HitLocation
    triangles: int
    cost: int
    prone: bool = False


class SpendOptions(Strict):
    """What the UI may offer the Judge for one attack."""

    standard: int
    conditional: dict[str, int] = {}
    hit_locations: tuple[LocationOption, ...] = ()
    default_location_index: int = STANDARD_HIT_INDEX
    free_shift: int = 0
    can_spend_stray: bool = False
    figures: tuple[int, int, int] | None = None
    can_take_counter: bool = True
    secondary_targets_max: int = 0
    extra_hits_max: int = 0
    can_assert_dominance: bool = False
    reasons: tuple[str, ...] = ()


class Allocation(Strict):
    """Spends checked against the pool: the totals each step uses."""

    location_index: int | None
    location_cost: int
    penetration: int  # total PV bumps (standard + penetration-only + burst)
    damage: int  # total damage rows (standard + damage-only + remaining burst)
    stray: tuple[StraySpend, ...] = ()
    bonus_counter: bool = False
    secondary_targets: int = 0
    extra_hits: int = 0
    dominance: int = 0
    record: SpendRecord


def _direction(index: int) -> int:
    if index < STANDARD_HIT_INDEX:
        return UP
    if index > STANDARD_HIT_INDEX:
        return DOWN
    return 0


def default_location_index(card: Card, free_shift: int = 0) -> int:
    """Where the hit lands with no bumps spent: the standard entry, moved as far as
    the free (fixed-modifier) bumps reach in their direction."""
    if not free_shift:
        return STANDARD_HIT_INDEX
    want = UP if free_shift > 0 else DOWN
    best = STANDARD_HIT_INDEX
    best_tri = 0
    for i, e in enumerate(card.hit_locations):
        if _direction(i) == want and e.triangles <= abs(free_shift) and e.triangles > best_tri:
            best, best_tri = i, e.triangles
    return best


def hit_location_cost(card: Card, index: int, free_shift: int = 0) -> int:
    """Standard bumps needed to land on stack entry ``index`` (see module notes)."""
    if not 0 <= index < len(card.hit_locations):
        raise RulesError(f"The hit location stack has entries 1–4, not {index + 1}.")
    tri = card.hit_locations[index].triangles
    d = _direction(index)
    free = abs(free_shift)
    free_dir = UP if free_shift > 0 else DOWN if free_shift < 0 else 0
    if d == 0:
        return 0 if default_location_index(card, free_shift) == STANDARD_HIT_INDEX else free
    if free_dir == 0:
        return tri
    if d == free_dir:
        return max(0, tri - free)
    return tri + free


def available_spends(
    pool: BumpPool,
    card: Card,
    *,
    free_shift: int = 0,
    strays_possible: bool = False,
    secondary_targets_max: int = 0,
    extra_hits_max: int = 0,
    melee: bool = False,
    location_fixed: bool = False,
) -> SpendOptions:
    """The spends the UI may offer for one attack, with their costs."""
    reasons = [f"{pool.standard} standard bump(s)"]
    if pool.conditional():
        reasons.append(
            "conditional: "
            + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in pool.conditional().items())
        )
    options: list[LocationOption] = []
    if not location_fixed:
        for i, e in enumerate(card.hit_locations):
            cost = hit_location_cost(card, i, free_shift)
            options.append(
                LocationOption(
                    index=i, location=e.location, triangles=e.triangles, cost=cost, prone=e.prone
                )
            )
    if free_shift:
        way = "up" if free_shift > 0 else "down"
        reasons.append(f"{abs(free_shift)} free hit location bump(s) {way} (001/003)")
    return SpendOptions(
        standard=pool.standard,
        conditional=pool.conditional(),
        hit_locations=tuple(options),
        default_location_index=default_location_index(card, free_shift),
        free_shift=free_shift,
        can_spend_stray=strays_possible and pool.standard > 0,
        figures=card.figures if strays_possible else None,
        can_take_counter=pool.standard > 0,
        secondary_targets_max=secondary_targets_max,
        extra_hits_max=extra_hits_max,
        can_assert_dominance=melee and pool.standard > 0,
        reasons=tuple(reasons),
    )


def allocate_spends(
    pool: BumpPool,
    spends: BumpSpends,
    card: Card | None,
    *,
    free_shift: int = 0,
    strays_possible: bool = False,
    secondary_targets_max: int = 0,
    extra_hits_max: int = 0,
    melee: bool = False,
    location_fixed: bool = False,
) -> Allocation:
    """Check the Judge's spends against the bumps and say how each was paid.

    Raises :class:`RulesError` (nothing changed) when the spends need more bumps
    than there are, or buy something this attack cannot use.
    """
    reasons: list[str] = []
    location_cost = 0
    index = spends.hit_location_index
    if index is not None:
        if location_fixed:
            raise RulesError(
                "The hit location is already fixed for this attack; bumps cannot move it."
            )
        if card is None:
            raise RulesError("There is no hit location stack to move along.")
        location_cost = hit_location_cost(card, index, free_shift)
        e = card.hit_locations[index]
        reasons.append(
            f"hit location → {e.location.value.replace('_', ' ')} (entry {index + 1}): "
            f"{location_cost} bump(s)"
        )
    if spends.stray and not strays_possible:
        raise RulesError("There are no stray shots to move on this attack.")
    if spends.secondary_targets > secondary_targets_max:
        raise RulesError(
            f"Only {secondary_targets_max} secondary target(s) are available on this attack."
        )
    if spends.extra_hits > extra_hits_max:
        raise RulesError(f"Only {extra_hits_max} extra hit(s) can be bought on this attack.")
    if spends.dominance and not melee:
        raise RulesError("Dominance is asserted only in hand-to-hand combat.")
    if spends.burst_to_penetration > pool.burst:
        raise RulesError(
            f"Only {pool.burst} burst bump(s) are available, not {spends.burst_to_penetration}."
        )
    standard_cost = (
        location_cost
        + spends.penetration
        + spends.damage
        + len(spends.stray)
        + int(spends.bonus_counter)
        + spends.secondary_targets
        + spends.extra_hits
        + spends.dominance
    )
    if standard_cost > pool.standard:
        raise RulesError(
            f"Those spends need {standard_cost} standard bump(s); the attack has {pool.standard}."
        )
    penetration = spends.penetration + pool.penetration_only + spends.burst_to_penetration
    burst_to_damage = pool.burst - spends.burst_to_penetration
    damage = spends.damage + pool.damage_only + burst_to_damage
    if spends.penetration:
        reasons.append(f"penetration +{spends.penetration} (standard)")
    if pool.penetration_only:
        reasons.append(f"penetration +{pool.penetration_only} (penetration-only bumps)")
    if spends.burst_to_penetration:
        reasons.append(f"penetration +{spends.burst_to_penetration} (burst bumps)")
    if spends.damage:
        reasons.append(f"damage +{spends.damage} row(s) (standard)")
    if pool.damage_only:
        reasons.append(f"damage +{pool.damage_only} row(s) (damage-only bumps)")
    if burst_to_damage:
        reasons.append(f"damage +{burst_to_damage} row(s) (burst bumps)")
    for s in spends.stray:
        reasons.append(f"stray shot: figure {s.figure_index + 1} {s.delta:+d}")
    if spends.bonus_counter:
        reasons.append("take a bonus counter (002)")
    if spends.secondary_targets:
        reasons.append(f"{spends.secondary_targets} secondary target(s) (003)")
    if spends.extra_hits:
        reasons.append(f"{spends.extra_hits} extra hit(s) (003 Fan Firing)")
    if spends.dominance:
        reasons.append(f"{spends.dominance} bump(s) toward dominance (000)")
    paid = {
        "standard": standard_cost,
        "damage_only": pool.damage_only,
        "penetration_only": pool.penetration_only,
        "burst": pool.burst,
    }
    record = SpendRecord(
        standard_available=pool.standard,
        conditional_available=pool.conditional(),
        hit_location=location_cost,
        penetration=penetration,
        damage=damage,
        stray=len(spends.stray),
        bonus_counter=int(spends.bonus_counter),
        secondary_targets=spends.secondary_targets,
        dominance=spends.dominance,
        extra_hits=spends.extra_hits,
        paid_from={k: v for k, v in paid.items() if v},
        unspent_standard=pool.standard - standard_cost,
        reasons=tuple(reasons),
    )
    return Allocation(
        location_index=index,
        location_cost=location_cost,
        penetration=penetration,
        damage=damage,
        stray=spends.stray,
        bonus_counter=spends.bonus_counter,
        secondary_targets=spends.secondary_targets,
        extra_hits=spends.extra_hits,
        dominance=spends.dominance,
        record=record,
    )
