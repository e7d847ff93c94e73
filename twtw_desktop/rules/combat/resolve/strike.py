"""Steps 4 and 5 of 000's Resolution Flow for one hit (:func:`strike`): the covers met
in order from the firer (P full DMG, A reduced damage, D stops it), a creature's
natural armor, the damage effect read with its bumps, the damage applied and the
stun check. Shared by every attack and by the blast of an explosive (:mod:`..blast`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypedDict

from ....errors import RulesError
from ...base import DIE_TYPES, HitLocation
from ...card import Card
from ...character import Character
from ...damage import DamageResult, StunResult, apply_damage, stun_check
from ...deck import CardSource, PoolRead, read_effect, read_pool
from ...editions import Edition, OptionalRules
from ..records import (
    CoverHit,
    EffectResult,
)
from .profile import AttackProfile, draw_for


def _cells(read: PoolRead) -> tuple[int | Literal["CF"], ...]:
    return tuple("CF" if c.total is None else c.total for c in read.cells)


def _read_damage(
    card: Card,
    profile: AttackProfile,
    source: Literal["DMG", "RD"],
    bumps: int,
    more: CardSource | None,
) -> EffectResult:
    reasons: list[str] = list(profile.row_shift_reasons)
    rows = bumps + profile.row_shift
    if profile.flat_damage is not None:
        base = profile.flat_damage
        value = base
        if source == "RD":
            value = base // 2
            reasons.append(f"reduced damage of a flat {base}: half, {value} (house)")
        value = max(0, value + rows + profile.damage_bonus)
        reasons.append(
            f"flat damage {base}"
            + (f" {rows:+d} for bumps/row shifts" if rows else "")
            + (f" + DB {profile.damage_bonus}" if profile.damage_bonus else "")
            + f" = {value}"
        )
        return EffectResult(
            source="flat", effect=str(base), row_bumps=rows, value=value, reasons=tuple(reasons)
        )
    eff = profile.dmg if source == "DMG" else profile.rd
    if eff is None and source == "RD":
        eff = profile.dmg
        reasons.append("no RD printed: full damage row used (house)")
    if eff is None:
        raise RulesError(f"The {profile.weapon_name} deals no damage.")
    if (
        source == "RD"
        and profile.dmg is not None
        and eff.row == profile.dmg.row
        and eff.die < profile.dmg.die
    ):
        shift = DIE_TYPES.index(eff.die) - DIE_TYPES.index(profile.dmg.die)
        read = read_effect(card, profile.dmg, damage_bumps=rows, more=more, column_shift=shift)
        reasons.append(f"RD {eff} read as DMG {profile.dmg} shifted {shift} column(s) (002 rule 2)")
    else:
        read = read_effect(card, eff, damage_bumps=rows, more=more)
    reasons += list(read.reasons)
    value = read.value
    if profile.damage_bonus:
        value = max(0, value + profile.damage_bonus)
        reasons.append(f"+ DB {profile.damage_bonus} = {value} (000 Hand to Hand Combat)")
    return EffectResult(
        source=source,
        effect=str(eff),
        row_bumps=rows,
        value=value,
        cards=read.extra_cards,
        reasons=tuple(reasons),
    )


class _StrikeFields(TypedDict):
    """The :class:`AttackRecord` fields steps 4 and 5 fill in."""

    covers: tuple[CoverHit, ...]
    ablated_cover: tuple[str, int] | None
    ablated_covers: tuple[tuple[str, int], ...]
    deflected: bool
    effect: EffectResult | None
    damage: DamageResult | None
    stun: StunResult | None
    stun_pending: bool


def _strike_fields(st: Strike) -> _StrikeFields:
    """The record fields steps 4 and 5 fill in, from one :class:`Strike`."""
    return {
        "covers": st.covers,
        "ablated_cover": st.ablated[0] if st.ablated else None,
        "ablated_covers": st.ablated,
        "deflected": st.deflected,
        "effect": st.effect,
        "damage": st.damage,
        "stun": st.stun,
        "stun_pending": st.stun_pending,
    }


#: the id a creature's natural armour goes by in a record's covers (never a map feature)
NATURAL_ARMOR_ID = "natural-armor"


def _natural_armor(
    profile: AttackProfile, target: Character, extra: int, edition: Edition
) -> CoverHit:
    """A creature's natural armour met after any cover, as cover is met (000 Armor
    Penetration/Ablation: natural armor "works like cover"): PV = Pen + shield +
    penetration bumps against its AV; P full DMG, A reduced damage, D no effect; P and
    A lower it by 1 where the edition lowers a cover's AV, and it stays lowered on the
    sheet. House: it covers every location and is met by blows and blasts as well as
    shots (it is the creature's hide, not something between firer and target)."""
    av = target.natural_armor
    pv = profile.pen + extra
    outcome = _cover_outcome(pv, av)
    new_av = av - 1 if outcome in ("P", "A") and edition.ablation_lowers_av else av
    why = [
        f"PV {pv} = Pen {profile.pen} {extra:+d} vs {target.name}'s natural armour AV {av}: {outcome}"
    ]
    if outcome == "D":
        why.append("deflected: no effect (000 Armor Penetration/Ablation)")
    else:
        word = "ablated: reduced damage" if outcome == "A" else "penetrated: full damage"
        why.append(
            f"{word}; the natural armour drops to AV {new_av} (000)" if new_av != av else word
        )
    return CoverHit(
        feature_id=NATURAL_ARMOR_ID,
        material="natural armour",
        av=av,
        pv=pv,
        outcome=outcome,
        new_av=new_av,
        reasons=tuple(why),
    )


def _cover_outcome(pv: int, av: int) -> Literal["P", "A", "D"]:
    if pv >= av + 2:
        return "P"
    if pv >= av:
        return "A"
    return "D"


@dataclass
class Strike:
    """Steps 4 and 5 for one hit: the covers met, the effect read, the damage dealt."""

    target: Character
    covers: tuple[CoverHit, ...] = ()
    #: covers ablated, in order from the firer: (feature id, new AV)
    ablated: tuple[tuple[str, int], ...] = ()
    deflected: bool = False
    effect: EffectResult | None = None
    damage: DamageResult | None = None
    stun: StunResult | None = None
    stun_pending: bool = False
    #: cards drawn on the way (increased effect, the stun check)
    cards: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def strike(
    profile: AttackProfile,
    *,
    target: Character,
    location: HitLocation,
    loc_card: Card,
    dmg_card: Card,
    edition: Edition,
    options: OptionalRules,
    penetration: int = 0,
    damage_bumps: int = 0,
    more: CardSource | None = None,
    stun_card: Card | None = None,
    effect_bonus: int = 0,
    risking_death: bool = False,
) -> Strike:
    """Cover (PV = Pen + shield + penetration bumps against each AV over ``location``,
    000 Cover Penetration), then the DMG or RD effect and its damage, then the stun
    check. Used for every hit: shots, blows and each person caught in a blast."""
    notes: list[str] = []
    cards: list[int] = []
    source: Literal["DMG", "RD"] = "DMG"
    cover_hits: list[CoverHit] = []
    ablated: list[tuple[str, int]] = []
    covering = [c for c in profile.covers if location in c.covers]
    if covering:
        pv = profile.pen + loc_card.shield + penetration
        for c in covering:
            outcome = _cover_outcome(pv, c.av)
            new_av = c.av
            why = [
                f"PV {pv} = Pen {profile.pen} + shield {loc_card.shield:+d}"
                + (f" + {penetration} penetration bump(s)" if penetration else "")
                + f" vs {c.material} AV {c.av}: {outcome}"
            ]
            if outcome in ("P", "A"):
                # 000: "In both cases, the protection value is decremented."
                word = "ablated: reduced damage" if outcome == "A" else "penetrated: full damage"
                if outcome == "A":
                    source = "RD"
                if edition.ablation_lowers_av and c.av > 0:
                    new_av = c.av - 1
                    ablated.append((c.feature_id, new_av))
                    why.append(f"{word}; the {c.material}'s AV drops to {new_av} (000)")
                else:
                    why.append(word)
            elif outcome == "D":
                why.append("deflected: no effect (000 Cover Penetration)")
            cover_hits.append(
                CoverHit(
                    feature_id=c.feature_id,
                    material=c.material,
                    av=c.av,
                    pv=pv,
                    outcome=outcome,
                    new_av=new_av,
                    reasons=tuple(why),
                )
            )
            if outcome == "D":
                return Strike(
                    target=target,
                    covers=tuple(cover_hits),
                    ablated=tuple(ablated),
                    deflected=True,
                    notes=notes,
                )
    if target.natural_armor > 0:
        hide = _natural_armor(profile, target, loc_card.shield + penetration, edition)
        cover_hits.append(hide)
        if hide.outcome == "A":
            source = "RD"
        if hide.new_av != target.natural_armor:
            target = target.model_copy(update={"natural_armor": hide.new_av})
        if hide.outcome == "D":
            return Strike(
                target=target,
                covers=tuple(cover_hits),
                ablated=tuple(ablated),
                deflected=True,
                notes=notes,
            )
    elif not covering and profile.attack_kind != "melee" and profile.damage_kind == "deadly":
        notes.append("no cover over the hit: deadly damage penetrates (no natural armor, 000)")

    eff = _read_damage(dmg_card, profile, source, damage_bumps, more)
    cards += list(eff.cards)
    if effect_bonus:
        eff = eff.model_copy(
            update={
                "value": eff.value + effect_bonus,
                "reasons": (
                    *eff.reasons,
                    f"bonus counter +{effect_bonus} → {eff.value + effect_bonus} (002)",
                ),
            }
        )
    out = Strike(
        target=target,
        covers=tuple(cover_hits),
        ablated=tuple(ablated),
        effect=eff,
        cards=cards,
        notes=notes,
    )
    if eff.value <= 0:
        return out
    new_target, dmg_result = apply_damage(
        target,
        edition,
        effect=eff.value,
        hit=location,
        kind=profile.damage_kind,
        toggle=dmg_card.toggle,
        impact_attribute=profile.impact_attribute,
        options=options,
        risking_death=risking_death,
    )
    out.target, out.damage = new_target, dmg_result
    if not dmg_result.stun_check_required:
        return out
    sc = stun_card
    if sc is None and more is not None:
        sc = draw_for(more, f"{target.name}'s stun check (Fortitude)")
    if sc is None:
        out.stun_pending = True
        notes.append("a stun check is due: draw a card for the target's Fortitude")
        return out
    cards.append(sc.number)
    fort = new_target.trait_pool("fortitude")
    sread = read_pool(sc, fort, more)
    cards += list(sread.cards_drawn)
    out.target, stun = stun_check(new_target, edition, sread.result(0), sread.is_cf)
    out.stun = stun.model_copy(
        update={
            "reasons": [f"Fortitude {fort} on card {sc.number}", *sread.reasons[1:], *stun.reasons]
        }
    )
    return out
