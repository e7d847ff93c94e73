"""Result records: every number a combat resolution used, with the reason for it.

All records are frozen, strict pydantic models that serialise to JSON, so the action
log can store them and the UI can show the Judge *why* a shot came out as it did.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ..base import HitLocation, Strict
from ..damage import DamageResult, StunResult


class Modifier(Strict):
    """One itemised line of a breakdown: what, how much, and which page says so."""

    label: str
    value: int
    source: str = ""

    def as_tuple(self) -> tuple[str, int, str]:
        return (self.label, self.value, self.source)


def mod(label: str, value: int, source: str = "") -> Modifier:
    """Shorthand for :class:`Modifier`."""
    return Modifier(label=label, value=value, source=source)


class TnBreakdown(Strict):
    """A TN and the modifiers to the result, itemised and kept apart (RULES.md:
    "−N" table entries apply to the result, "add N to the TN" entries to the TN).

    Invariant: ``tn == base + sum(tn_items)`` and
    ``result_modifier == sum(result_items)``.
    """

    base: int
    base_label: str
    base_source: str = ""
    tn_items: tuple[Modifier, ...] = ()
    result_items: tuple[Modifier, ...] = ()
    tn: int
    result_modifier: int
    #: rules that apply later, at resolution (e.g. 003's prone attribute rule)
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _sums(self) -> TnBreakdown:
        if self.tn != self.base + sum(m.value for m in self.tn_items):
            raise ValueError("TN does not equal the base plus its TN items")
        if self.result_modifier != sum(m.value for m in self.result_items):
            raise ValueError("result modifier does not equal the sum of its items")
        return self

    @classmethod
    def build(
        cls,
        base: int,
        base_label: str,
        base_source: str = "",
        tn_items: Iterable[Modifier] = (),
        result_items: Iterable[Modifier] = (),
        notes: Iterable[str] = (),
    ) -> TnBreakdown:
        """Make a breakdown whose totals are computed from its items."""
        tn_items = tuple(m for m in tn_items if m.value != 0)
        result_items = tuple(m for m in result_items if m.value != 0)
        return cls(
            base=base,
            base_label=base_label,
            base_source=base_source,
            tn_items=tn_items,
            result_items=result_items,
            tn=base + sum(m.value for m in tn_items),
            result_modifier=sum(m.value for m in result_items),
            notes=tuple(notes),
        )

    def with_items(
        self,
        tn_items: Iterable[Modifier] = (),
        result_items: Iterable[Modifier] = (),
        notes: Iterable[str] = (),
    ) -> TnBreakdown:
        """A copy with more items added (the totals follow)."""
        return TnBreakdown.build(
            self.base,
            self.base_label,
            self.base_source,
            (*self.tn_items, *tn_items),
            (*self.result_items, *result_items),
            (*self.notes, *notes),
        )

    def reasons(self) -> list[str]:
        """One line per item, for the UI."""
        lines = [f"{self.base_label}: TN {self.base}" + _src(self.base_source)]
        lines += [f"{m.label}: TN {m.value:+d}" + _src(m.source) for m in self.tn_items]
        lines += [f"{m.label}: result {m.value:+d}" + _src(m.source) for m in self.result_items]
        lines += list(self.notes)
        return lines

    def summary(self) -> str:
        return f"TN {self.tn}, result {self.result_modifier:+d}"


class ApBreakdown(Strict):
    """An AP cost and its parts. Invariant: ``total == sum(items)``."""

    items: tuple[Modifier, ...] = ()
    total: Annotated[int, Field(ge=0)]

    @model_validator(mode="after")
    def _sums(self) -> ApBreakdown:
        if self.total != sum(m.value for m in self.items):
            raise ValueError("AP total does not equal the sum of its items")
        return self

    @classmethod
    def build(cls, items: Iterable[Modifier]) -> ApBreakdown:
        items = tuple(items)
        return cls(items=items, total=sum(m.value for m in items))

    def __add__(self, other: ApBreakdown) -> ApBreakdown:
        return ApBreakdown.build((*self.items, *other.items))

    def reasons(self) -> list[str]:
        return [f"{m.label}: {m.value} AP" + _src(m.source) for m in self.items]


def _src(source: str) -> str:
    return f" ({source})" if source else ""


# -- the attack record -----------------------------------------------------------------


class HitCheck(Strict):
    """Step 1: hit or miss."""

    cells: tuple[int | Literal["CF"], ...] = ()
    rank: Annotated[int, Field(ge=1)] = 1
    raw_result: int = 0
    result: int = 0  # raw result + result modifier
    tn: int
    success: bool
    cf: bool = False
    calamity: bool = False
    bumps: Annotated[int, Field(ge=0)] = 0
    reasons: tuple[str, ...] = ()


class LocationResult(Strict):
    """Step 3: where the hit landed and what it cost."""

    location: HitLocation
    stack_index: int | None = None  # None when the location was chosen off the stack
    standard_index: int = 2
    bumps_spent: Annotated[int, Field(ge=0)] = 0
    free_shift: int = 0  # + up, − down (punch, height, point blank; kick)
    damage_bumps: Annotated[int, Field(ge=0)] = 0  # vitals +1, head +2
    prone_attribute: bool = False
    reasons: tuple[str, ...] = ()


class CoverHit(Strict):
    """Step 4 against one cover: PV vs AV and the P/A/D letter."""

    feature_id: str
    material: str
    av: int
    pv: int
    outcome: Literal["P", "A", "D"]
    new_av: int
    reasons: tuple[str, ...] = ()


class EffectResult(Strict):
    """Step 5: the effect read from the card (or a flat value for brawling)."""

    source: Literal["DMG", "RD", "flat"]
    effect: str  # "(5)8", or the flat number
    row_bumps: int = 0
    value: Annotated[int, Field(ge=0)]
    #: extra cards drawn for increased effect
    cards: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()


class StrayResult(Strict):
    """Step 6: unintended targets."""

    stray_shots: Annotated[int, Field(ge=0)]
    figures: tuple[int, int, int]
    figures_hit: tuple[int, ...] = ()
    candidates_hit: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()


class FailureResult(Strict):
    """Step 6: equipment failure (wrench vs Rel)."""

    wrench: int | None
    rel: int | None
    failed: bool
    reasons: tuple[str, ...] = ()


class ScatterResult(Strict):
    """Where a missed throw lands, relative to the thrower→target bearing.

    ``clock_hour`` 12 points away from the thrower, 6 back at the thrower (000
    Missed Throws); ``distance`` is in paces from the target, or from the thrower
    when ``from_thrower`` (Phases, on a CF). The map geometry places it.
    """

    clock_hour: Annotated[int, Field(ge=1, le=12)]
    distance: Annotated[int, Field(ge=0)]
    from_thrower: bool = False
    reasons: tuple[str, ...] = ()


class SpendRecord(Strict):
    """How the bumps of one attack were spent and paid."""

    standard_available: int = 0
    conditional_available: dict[str, int] = {}
    hit_location: int = 0
    penetration: int = 0
    damage: int = 0
    stray: int = 0
    bonus_counter: int = 0
    secondary_targets: int = 0
    dominance: int = 0
    extra_hits: int = 0
    paid_from: dict[str, int] = {}
    unspent_standard: int = 0
    reasons: tuple[str, ...] = ()


class DischargeResult(Strict):
    """A fully loaded weapon going off while carried (000 Carrying Loaded Weapons)."""

    discharged: bool
    cause: Literal["calamity_on_movement", "malfunction"] | None = None
    #: the weapon that went off and where the carrier keeps it (index into ``weapons``)
    weapon_id: str | None = None
    carried_index: int | None = None
    damage_kind: Literal["deadly", "impact"] = "deadly"
    toggle: bool | None = None
    hit: bool = False
    location: HitLocation | None = None
    effect: int = 0
    damage: DamageResult | None = None
    reasons: tuple[str, ...] = ()


class BlastVictim(Strict):
    """One person caught in an explosion: the card read for them, the cover between
    them and the blast, and the damage (see :mod:`.blast`)."""

    character_id: str
    token_id: str | None = None
    distance: Annotated[int, Field(ge=0)]
    card: int
    location: HitLocation
    covers: tuple[CoverHit, ...] = ()
    deflected: bool = False
    effect: EffectResult | None = None
    damage: DamageResult | None = None
    stun: StunResult | None = None
    stun_pending: bool = False
    cards: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()


class BlastResult(Strict):
    """An explosion: who was within its radius and what it did to each of them."""

    weapon_id: str
    radius: Annotated[int, Field(ge=0)]
    #: where it went off (axial q, r), when the map placed it
    centre: tuple[int, int] | None = None
    victims: tuple[BlastVictim, ...] = ()
    #: covers lowered by the blast: (feature id, its new AV), each feature once
    ablated_covers: tuple[tuple[str, int], ...] = ()
    reasons: tuple[str, ...] = ()


class AttackRecord(Strict):
    """One attack from card to wound: every number and why (000 Resolution Flow)."""

    attacker_id: str
    target_id: str
    weapon_id: str | None
    attack_kind: Literal["ranged", "thrown", "melee"]
    tn: TnBreakdown
    ap: ApBreakdown | None = None
    cards: tuple[int, ...] = ()
    hit: HitCheck
    hits: Annotated[int, Field(ge=0)] = 0
    burst: int | None = None
    hits_for_other_targets: Annotated[int, Field(ge=0)] = 0
    location: LocationResult | None = None
    spends: SpendRecord | None = None
    covers: tuple[CoverHit, ...] = ()
    #: the first cover this attack ablated: (feature id, its new AV) for the map
    ablated_cover: tuple[str, int] | None = None
    #: every cover ablated, in order from the firer
    ablated_covers: tuple[tuple[str, int], ...] = ()
    deflected: bool = False
    effect: EffectResult | None = None
    damage: DamageResult | None = None
    stun: StunResult | None = None
    stun_pending: bool = False
    blocked: bool = False
    #: bumps toward dominance this attack earned (000 Asserting Dominance)
    dominance_bumps: Annotated[int, Field(ge=0)] = 0
    equipment_failure: FailureResult | None = None
    strays: StrayResult | None = None
    scatter: ScatterResult | None = None
    #: the defender's block against this attack (000 Hand to Hand Combat)
    block_outcome: Literal["failed", "to_arm", "blocked"] | None = None
    #: fully loaded weapons the attacker carries that went off (000 Carrying Loaded Weapons)
    discharges: tuple[DischargeResult, ...] = ()
    #: an explosive's blast on everyone else within its radius
    blast: BlastResult | None = None
    #: a stray shot of another record hit this unintended target (000 Unintended Targets)
    stray_of: str | None = None
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line for the action log."""
        h = self.hit
        parts = [f"{self.attacker_id} → {self.target_id}"]
        if self.weapon_id:
            parts.append(f"({self.weapon_id})")
        if self.stray_of is not None:
            parts.append(f"a stray shot aimed at {self.stray_of} hits (unintended target)")
        else:
            verdict = "CF" if h.cf else ("hit" if h.success else "miss")
            parts.append(f"TN {h.tn}, result {h.result}: {verdict}")
        if h.success and h.bumps:
            parts.append(f"{h.bumps} bump{'s' if h.bumps != 1 else ''}")
        if self.burst:
            parts.append(f"{self.hits}/{self.burst} hits")
        if self.location is not None:
            parts.append(self.location.location.value.replace("_", " "))
        for c in self.covers:
            parts.append(f"{c.material} AV {c.av} vs PV {c.pv}: {c.outcome}")
        if self.blocked:
            parts.append("blocked")
        if self.effect is not None:
            parts.append(f"{self.effect.source} {self.effect.effect} = {self.effect.value}")
        if self.damage is not None:
            d = self.damage
            parts.append(f"{d.wounds_added} wound(s), {d.conc_dealt} Conc")
            if d.killed:
                parts.append("killed")
            elif d.unconscious:
                parts.append("unconscious")
        if self.stun is not None and self.stun.needed:
            # the state after the check, as the sheet shows it: a passed check does
            # not clear an earlier stun (000), so never "not stunned" above "Stunned"
            if not self.stun.stunned:
                parts.append("not stunned")
            elif self.stun.success:
                parts.append("still stunned from before")
            else:
                parts.append("stunned")
        if self.equipment_failure is not None and self.equipment_failure.failed:
            parts.append("equipment failure")
        if self.strays is not None and self.strays.candidates_hit:
            parts.append("stray hits " + ", ".join(self.strays.candidates_hit))
        if self.scatter is not None:
            s = self.scatter
            origin = "thrower" if s.from_thrower else "target"
            parts.append(
                f"scatters {s.distance} paces toward {s.clock_hour} o'clock from the {origin}"
            )
        if self.blast is not None:
            hurt = [v.character_id for v in self.blast.victims if v.damage is not None]
            parts.append(
                f"blast {self.blast.radius} paces: "
                + (", ".join(hurt) + " hurt" if hurt else "no one else hurt")
            )
        for dis in self.discharges:
            if dis.discharged:
                what = f"{dis.weapon_id or 'a carried gun'} goes off"
                if dis.damage is not None:
                    what += f", {dis.damage.wounds_added} wound(s) to {self.attacker_id}"
                elif not dis.hit:
                    what += ", the round misses"
                parts.append(what)
        return "; ".join(parts)
