"""One attack from card to wound: the six steps of 000's Resolution Flow.

1. hit or miss (the pool read plus the result modifiers against the TN; a CF misses
   and is a calamity);
2. number of hits (burst weapons and fan firing read the card's burst section);
3. hit location (the stack, free fixed-modifier bumps, the Judge's bump spends);
4. cover: PV = Pen + shield + penetration bumps against each covering AV — P full
   DMG, A reduced damage (and the AV drops by 1 where the edition says so), D stops
   it; no cover and no natural armor means deadly weapons always penetrate;
5. damage: the DMG or RD effect with its damage bumps, applied by
   :func:`~twtw_desktop.rules.damage.apply_damage`, then the stun check drawn from
   the deck;
6. ancillary effects: equipment failure, unintended targets, where a missed throw
   lands, and any stowed, fully loaded gun of the attacker the card sets off (000
   Carrying Loaded Weapons; :func:`~.ancillary.check_discharges`, recorded in
   ``AttackRecord.discharges`` and written to the sheet with
   :func:`~.ancillary.apply_discharges`).

Steps 4 and 5 are :func:`strike`, shared with the blast of an explosive
(:mod:`.blast`). A fan-firing series is :func:`resolve_fan`.

Nothing passed in is changed: :func:`resolve_attack` returns the record and a new
target character. A refused request raises :class:`RulesError`; bump spends are
checked before any card beyond the cause reads is drawn.

Decisions where the pages are vague:

* Several covers over one location are met in order from the firer: an ablation
  turns the rest of the shot to reduced damage, a deflection stops it.
* 000 Armor Penetration/Ablation: "Attacks that penetrate do full damage (DMG).
  Attacks that ablate do reduced damage (RD). In both cases, the protection value is
  decremented." Cover Penetration names the drop only under A but does not say P
  leaves the AV: both P and A lower it by 1 (a deflection leaves it).
* Reduced damage printed as the DMG cell one column to the left is read as a
  negative column shift, so it always stays below full damage (002 rule 2).
* Flat damage (brawling: 5 + DB) takes +1 per damage bump, as bumps past row 7 do.
* Phases' prone rule (003) reads the prone attribute of the stack entry the hit ends
  on; a called shot (off the stack) reads the standard entry.
* Under the hacking options, the cards for location and damage are drawn only when
  the attack hits (000 Action Card Hacking).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal, TypedDict, Unpack, cast

from pydantic import Field

from ...errors import RulesError
from ..base import DIE_TYPES, Effect, HitLocation, Pool, Strict
from ..card import STANDARD_HIT_INDEX, Card
from ..character import CarriedWeapon, Character
from ..checks import simple_check
from ..damage import DamageResult, StunResult, apply_damage, location_damage_bumps, stun_check
from ..deck import CardSource, PoolRead, read_effect, read_pool
from ..editions import Edition, OptionalRules
from ..gear import Weapon
from .ancillary import check_discharges, equipment_failure, stray_shot_count, unintended_targets
from .bumps import Allocation, BumpPool, BumpSpends, allocate_spends, default_location_index
from .ranged import (
    FAN_BURST,
    FanPlan,
    ShotSpec,
    attack_pool,
    check_shot,
    fan_shot_tn,
    range_steps,
    shot_pool,
)
from .records import (
    ApBreakdown,
    AttackRecord,
    CoverHit,
    DischargeResult,
    EffectResult,
    FailureResult,
    HitCheck,
    LocationResult,
    ScatterResult,
    SpendRecord,
    StrayResult,
    TnBreakdown,
)
from .situation import Cover, ShotSituation
from .thrown import scatter_throw, throw_range

#: Hit-location modifiers (001/003): point blank is one free bump up (down when
#: aiming low), punch one up, height one up, kick one down.
POINT_BLANK_SHIFT = 1
PUNCH_SHIFT = 1
HEIGHT_SHIFT = 1
KICK_SHIFT = -1


class AttackProfile(Strict):
    """What the resolution needs to know about the attack itself (built by
    :func:`ranged_profile` or by :mod:`.melee`)."""

    attack_kind: Literal["ranged", "thrown", "melee"]
    weapon_id: str | None = None
    weapon_name: str = "bare hands"
    pool: Pool
    dmg: Effect | None = None
    rd: Effect | None = None
    #: brawling damage that is a number, not an effect cell (000: quick attack 5 + DB)
    flat_damage: int | None = None
    #: DB added to a hand-to-hand attack's damage (000 Hand to Hand Combat)
    damage_bonus: int = 0
    #: effect rows added (+) or taken away (−) before the bumps (attack type, dominance)
    row_shift: int = 0
    row_shift_reasons: tuple[str, ...] = ()
    damage_kind: Literal["deadly", "impact"] = "deadly"
    impact_attribute: bool = False
    pen: int = 0
    rel: int | None = None
    rel_reasons: tuple[str, ...] = ()
    #: free hit location bumps: + up, − down (001/003 Hit Location Modifiers)
    free_shift: int = 0
    free_shift_reasons: tuple[str, ...] = ()
    scatter_weapon: bool = False
    burst: int | None = None
    #: projectiles actually fired when fewer than the burst (003 fan firing)
    max_hits: int | None = None
    #: 003 fan firing: bumps buy extra hits and secondary targets cost a bump
    fan_burst: bool = False
    #: the hit goes here whatever the card says (called shot, blocked to the arm)
    forced_location: HitLocation | None = None
    forced_reason: str = ""
    #: full dominance: the attacker names the hit location (000)
    may_choose_location: bool = False
    #: Phases prone target rule (003): the hit needs the prone attribute
    prone_attribute_rule: bool = False
    covers: tuple[Cover, ...] = ()
    strays_enabled: bool = False
    range_band: Annotated[int, Field(ge=1)] = 1
    into_melee: bool = False
    unintended_candidates: tuple[str, ...] = ()
    scatter_on_miss: bool = False
    throw_distance: float = 0
    explosive: bool = False
    blast_radius: int | None = None


# =============================================================================
# Building the profile of a shot
# =============================================================================


def ranged_profile(
    attacker: Character,
    weapon: Weapon,
    edition: Edition,
    situation: ShotSituation,
    shot: ShotSpec,
    *,
    options: OptionalRules | None = None,
    burst: int | None = None,
    fan: FanPlan | None = None,
) -> AttackProfile:
    """The profile of a ranged shot or a throw."""
    options = options or OptionalRules()
    s = situation
    pool, _ = shot_pool(attacker, weapon, shot, options)
    free = 0
    free_reasons: list[str] = []
    if s.point_blank:
        if s.point_blank_low:
            free -= POINT_BLANK_SHIFT
            free_reasons.append("point blank, aimed low: one bump down (003 Point Blank)")
        else:
            free += POINT_BLANK_SHIFT
            free_reasons.append("point blank: one bump up (001/003 Hit Location Modifiers)")
    rel = weapon.rel
    rel_reasons: list[str] = []
    max_hits = None
    fan_burst = False
    if fan is not None:
        if fan.rel != weapon.rel:
            rel = fan.rel
            rel_reasons.append(f"pushing the limit: Rel {weapon.rel} → {fan.rel} (000 Fan Firing)")
        if fan.mode == "burst3":
            burst = FAN_BURST
            max_hits = fan.shots
            fan_burst = True
    elif burst is None and weapon.burst is not None:
        burst = getattr(weapon, "default_burst", None) or weapon.burst
    if burst is not None and burst not in (3, 5, 10):
        raise RulesError(f"The card shows bursts of 3, 5 and 10, not {burst}.")
    modes = getattr(weapon, "burst_modes", None) or ([weapon.burst] if weapon.burst else [])
    if burst is not None and not fan_burst and burst not in modes:
        raise RulesError(f"The {weapon.name} cannot fire a burst of {burst}.")
    band = s.range_band
    if band is None:
        if shot.thrown:
            increment = throw_range(attacker, weapon, edition).increment
        else:
            increment = weapon.range_increment or 1
        band = 1 + range_steps(s.range_paces, increment, edition.range_rounding)
    prone_rule = (
        s.target_prone
        and edition.prone_target.rule == "hit_location_attribute"
        and s.range_paces > edition.prone_target.ignore_within
    )
    called = s.called_hit
    return AttackProfile(
        attack_kind="thrown" if shot.thrown else "ranged",
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        pool=pool,
        dmg=weapon.dmg,
        rd=weapon.rd,
        damage_kind=weapon.damage_kind,
        impact_attribute="impact" in weapon.attributes,
        pen=weapon.pen,
        rel=rel,
        rel_reasons=tuple(rel_reasons),
        free_shift=free,
        free_shift_reasons=tuple(free_reasons),
        scatter_weapon=weapon.scatter,
        burst=burst,
        max_hits=max_hits,
        fan_burst=fan_burst,
        forced_location=called,
        forced_reason=f"called shot at the {called.value.replace('_', ' ')} (001)"
        if called
        else "",
        prone_attribute_rule=prone_rule,
        covers=s.covers,
        strays_enabled=options.unintended_targets and not shot.thrown,
        range_band=band,
        into_melee=s.target_in_melee,
        unintended_candidates=s.unintended_candidates,
        scatter_on_miss=shot.thrown,
        throw_distance=s.range_paces,
        explosive=weapon.kind == "explosive",
        blast_radius=weapon.blast_radius,
    )


# =============================================================================
# Resolution
# =============================================================================


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


def _stack_entry(card: Card, spends: BumpSpends, free_shift: int) -> tuple[int, HitLocation]:
    """The stack entry a hit ends on: the one the Judge paid for, else where the free
    shifts take it from the standard entry."""
    index = (
        spends.hit_location_index
        if spends.hit_location_index is not None
        else default_location_index(card, free_shift)
    )
    return index, card.hit_locations[index].location


#: the note for a hit on a prone target that misses the entry's prone attribute (003)
PRONE_MISS_NOTE = (
    "prone target and no prone attribute on the hit location: a miss (003 Prone Targets)"
)


def _location_bump_reason(location: HitLocation, bumps: int) -> str:
    """Why a hit location adds damage bumps (000 Hit Location and Damage)."""
    return (
        f"a hit to the {location.value} gives {bumps} damage bump(s) (000 Hit Location and Damage)"
    )


class _RecordHead(TypedDict):
    """The :class:`AttackRecord` fields every attack fills in before its hits are known."""

    attacker_id: str
    target_id: str
    weapon_id: str | None
    attack_kind: Literal["ranged", "thrown", "melee"]
    tn: TnBreakdown
    hit: HitCheck
    burst: int | None


class _ShotHead(_RecordHead):
    """The head of one resolved attack (:func:`resolve_profile`)."""

    ap: ApBreakdown | None
    equipment_failure: FailureResult | None
    discharges: tuple[DischargeResult, ...]


class _ShotHits(_ShotHead):
    """The fields known once the hits and their location are."""

    cards: tuple[int, ...]
    hits: int
    hits_for_other_targets: int
    location: LocationResult | None
    spends: SpendRecord | None
    strays: StrayResult | None


class _RideHead(_RecordHead):
    """The head of a hit that rides on another attack's check."""

    location: LocationResult


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


def draw_for(more: CardSource, purpose: str) -> Card:
    """Draw the next card from ``more`` for ``purpose`` (e.g. "Felicia's stun
    check"). A source that wants to know what each card is for — the typed-in cards
    of a printed deck, where the Judge is asked for every card — offers a
    ``name_next(purpose)`` method and is told first; any other callable just draws."""
    name_next = getattr(more, "name_next", None)
    if callable(name_next):
        name_next(purpose)
    return more()


class FanKw(TypedDict, total=False):
    """The keywords of :class:`ResolveKw` that a fan passes on to each of its shots
    unchanged (:func:`resolve_fan` sets the others shot by shot)."""

    options: OptionalRules | None
    damage_card: Card | None
    stun_card: Card | None
    discard: Sequence[Card]
    hits_on_target: int | None
    extra_bumps: BumpPool | None
    auto_hit: bool
    effect_bonus: int
    risking_death: bool
    #: the attacker tries to miss (000 Action Sabotage)
    sabotage: bool
    #: a bonus counter's +2 on the cause grid: more bumps, never a success (002 Right on!)
    cause_bonus: int
    #: the action involves movement (a discharge needs it); resolve_attack reads it
    #: off the situation, resolve_melee takes hand to hand as movement
    action_moves: bool


class ResolveKw(FanKw, total=False):
    """The keywords every resolution takes, whatever the attack (see
    :func:`resolve_profile`); :func:`resolve_attack` and
    :func:`~.melee.resolve_melee` pass them through unchanged."""

    spends: BumpSpends | None
    more: CardSource | None
    rank: int
    pool_read: PoolRead | None
    location_card: Card | None
    ap: ApBreakdown | None
    #: stowed, fully loaded guns of the attacker by carried index (000 Carrying Loaded
    #: Weapons; :func:`~.ancillary.discharge_candidates`)
    discharge_weapons: Mapping[int, Weapon] | None


def resolve_profile(
    profile: AttackProfile,
    *,
    attacker: Character,
    target: Character,
    edition: Edition,
    tn: TnBreakdown,
    card: Card,
    options: OptionalRules | None = None,
    spends: BumpSpends | None = None,
    more: CardSource | None = None,
    rank: int = 0,
    pool_read: PoolRead | None = None,
    location_card: Card | None = None,
    damage_card: Card | None = None,
    stun_card: Card | None = None,
    discard: Sequence[Card] = (),
    ap: ApBreakdown | None = None,
    hits_on_target: int | None = None,
    extra_bumps: BumpPool | None = None,
    auto_hit: bool = False,
    effect_bonus: int = 0,
    risking_death: bool = False,
    sabotage: bool = False,
    cause_bonus: int = 0,
    discharge_weapons: Mapping[int, Weapon] | None = None,
    action_moves: bool = False,
    chosen_location: HitLocation | None = None,
    blocked: bool = False,
    block_reasons: Sequence[str] = (),
    notes: Sequence[str] = (),
) -> tuple[AttackRecord, Character]:
    """Resolve one attack described by ``profile`` (see the module docstring)."""
    options = options or OptionalRules()
    spends = spends or BumpSpends()
    if rank < 0:
        raise RulesError("An attack's rank in its series starts at 0.")
    #: 000 Multiple Attacks: "Attacks in excess of the level of the appropriate skill
    #: miss automatically (but may have other effects)" — the pool has one result per
    #: skill level, so an attack past them has none: a miss, its strays still flying
    beyond_skill = rank >= profile.pool.count
    if chosen_location is not None and not profile.may_choose_location:
        raise RulesError("Only an attacker with full dominance may choose the hit location.")
    if hits_on_target is not None and hits_on_target < 0:
        raise RulesError("Hits on the target cannot be negative.")
    notes = list(notes)
    cards_used: list[int] = [card.number]

    # -- 1. hit or miss ---------------------------------------------------------------
    if pool_read is None:
        # an automatic hit reads the card only for the record: no extension draws
        pool_read = read_pool(card, profile.pool, None if auto_hit else more)
    elif pool_read.card_number != card.number:
        raise RulesError("The pool read given comes from another card.")
    cards_used += list(pool_read.cards_drawn)
    reasons = list(pool_read.reasons)
    raw: int | None
    result: int | None
    if auto_hit:
        check = simple_check(tn.tn, tn.tn, bump_every=edition.bump_every)
        raw = result = tn.tn
        reasons.append("an automatic hit: the target's CF on the Bravery check (002 Covering Fire)")
        cf = False
        bumps = 0
    else:
        cf = pool_read.is_cf
        raw = pool_read.result(rank)
        result = None if raw is None else raw + tn.result_modifier
        check = simple_check(result, tn.tn, cf=cf, bump_every=edition.bump_every)
        if raw is not None:
            which = "best result" if rank == 0 else f"result number {rank + 1}"
            reasons.append(f"{which} {raw} {tn.result_modifier:+d} = {result}")
        elif beyond_skill:
            reasons.append(
                f"attack {rank + 1} is beyond the skill level ({profile.pool.count}): it "
                "misses automatically, its other effects stand (000 Multiple Attacks)"
            )
        reasons += list(check.reasons)
        bumps = check.bumps
    success = check.success
    if cause_bonus and success and result is not None and not auto_hit:
        # 002 Right on!: +2 in the cause grid only adds bumps; it never makes a success
        more_bumps = simple_check(result + cause_bonus, tn.tn, bump_every=edition.bump_every)
        reasons.append(
            f"bonus counter (Right on!, 002): +{cause_bonus} in the cause grid, "
            f"{more_bumps.bumps - bumps} more bump(s)"
        )
        bumps = more_bumps.bumps
    elif cause_bonus and not auto_hit:
        reasons.append("bonus counter (Right on!, 002): a failure stays a failure")
    if sabotage and not auto_hit:
        # 000 Action Sabotage: trying to fail, the attempt fails unless a calamity (the
        # target is hit after all) or the unintended targets show someone who is there
        success = cf
        bumps = 0
        reasons.append(
            "trying to fail (000 Action Sabotage): "
            + ("a calamity, so the target is hit after all" if cf else "it fails, as intended")
        )
    hit = HitCheck(
        cells=_cells(pool_read),
        rank=rank + 1,
        raw_result=raw or 0,
        result=result or 0,
        tn=tn.tn,
        success=success,
        cf=cf,
        calamity=check.calamity,
        bumps=bumps,
        reasons=tuple(reasons),
    )
    rel = profile.rel
    fail = None
    if profile.weapon_id is not None:
        fail = equipment_failure(card.wrench, rel, discard, card_number=card.number)
        if profile.rel_reasons:
            fail = fail.model_copy(update={"reasons": profile.rel_reasons + fail.reasons})
    successes = 0
    if not pool_read.is_cf:
        successes = sum(
            1
            for c in pool_read.cells
            if c.total is not None and c.total + tn.result_modifier >= tn.tn
        )
    discharges: tuple[DischargeResult, ...] = ()
    if discharge_weapons:
        _, discharges = check_discharges(
            attacker,
            discharge_weapons,
            card,
            edition,
            cf=cf,
            action_moves=action_moves,
            more=more,
            options=options,
        )
    base_record: _ShotHead = {
        "discharges": discharges,
        "attacker_id": attacker.id,
        "target_id": target.id,
        "weapon_id": profile.weapon_id,
        "attack_kind": profile.attack_kind,
        "tn": tn,
        "ap": ap,
        "hit": hit,
        "burst": profile.burst,
        "equipment_failure": fail,
    }

    projectiles = 1
    if profile.burst is not None:
        projectiles = profile.max_hits if profile.max_hits is not None else profile.burst

    if not success:
        if not spends.empty:
            raise RulesError("A miss has no bumps to spend.")
        if cf:
            notes.append(
                "a calamity (CF): the Judge may add a mishap; the weapon is checked for failure"
            )
        strays = None
        if profile.strays_enabled:
            n, why = stray_shot_count(
                projectiles=projectiles,
                hits=0,
                scatter=profile.scatter_weapon,
                range_band=profile.range_band,
                into_melee=profile.into_melee,
            )
            found = unintended_targets(
                n, card.figures, profile.unintended_candidates, card_number=card.number
            )
            strays = found.model_copy(update={"reasons": tuple(why) + found.reasons})
        scatter: ScatterResult | None = None
        if profile.scatter_on_miss:
            best = result
            if best is None:
                totals = [c.total for c in pool_read.cells if c.total is not None]
                best = (max(totals) + tn.result_modifier) if totals else None
            scatter = scatter_throw(
                card, edition, tn=tn.tn, result=best, cf=cf, throw_distance=profile.throw_distance
            )
            if profile.explosive:
                notes.append(
                    f"explosive: the blast ({profile.blast_radius} paces) goes off where it lands"
                )
        record = AttackRecord(
            **base_record,
            cards=tuple(cards_used),
            hits=0,
            strays=strays,
            scatter=scatter,
            notes=tuple(notes),
        )
        return record, target

    # -- 2. number of hits ------------------------------------------------------------
    extra_hits_max = 0
    if profile.burst is not None:
        printed = card.burst_hits(profile.burst)
        base_hits = min(printed, projectiles)
        if profile.fan_burst:
            extra_hits_max = projectiles - base_hits
        notes.append(
            f"burst {profile.burst}: the card shows {printed} hit(s)"
            + (
                f", at most {projectiles} for {projectiles} shot(s)"
                if projectiles < profile.burst
                else ""
            )
        )
    else:
        base_hits = 1
    secondary_max = max(successes - 1, 0) if profile.fan_burst else 0
    if spends.extra_hits > extra_hits_max:
        raise RulesError(f"Only {extra_hits_max} extra hit(s) can be bought on this attack.")
    hits = base_hits + spends.extra_hits
    if hits_on_target is None and profile.fan_burst and spends.secondary_targets:
        # 003 Secondary Targets: each secondary target bought takes one of the hits
        hits_on_target = hits - spends.secondary_targets
        if hits_on_target < 1:
            raise RulesError(
                f"The fan scored {hits} hit(s): each secondary target takes one, and one "
                "must stay on the first target — buy an extra hit first (003)."
            )
    on_target = hits if hits_on_target is None else hits_on_target
    if on_target > hits:
        raise RulesError(f"The attack scored {hits} hit(s); {on_target} cannot land on the target.")
    others = hits - on_target
    if others:
        max_other_targets = max(successes - 1, 0)
        if max_other_targets < 1:
            raise RulesError("Only one success in the pool: every hit lands on the first target.")
        if profile.fan_burst and spends.secondary_targets != others:
            raise RulesError(
                "When fan firing, each secondary target costs a bump and takes one hit (003)."
            )
        notes.append(
            f"{others} hit(s) go to other targets (up to {max_other_targets} more target(s), "
            "000 Hitting Multiple Targets / 003 Secondary Targets)"
        )

    # -- 3. hit location ----------------------------------------------------------------
    loc_card = location_card or card
    dmg_card = damage_card or loc_card
    location_fixed = profile.forced_location is not None or chosen_location is not None
    stack_index: int | None = None
    loc_reasons: list[str] = []
    if on_target:
        if profile.forced_location is not None:
            location = profile.forced_location
            loc_reasons.append(profile.forced_reason or "the hit location is fixed")
        elif chosen_location is not None:
            location = chosen_location
            loc_reasons.append("full dominance: the attacker chooses the hit location (000)")
        else:
            stack_index, location = _stack_entry(loc_card, spends, profile.free_shift)
    else:
        location = loc_card.standard_hit.location

    def allocate(loc_bumps: int, on: Card) -> Allocation:
        """The spends paid from the bumps, with ``loc_bumps`` for the location hit."""
        pool = BumpPool(standard=bumps) + (extra_bumps or BumpPool())
        pool = pool + BumpPool(damage_only=loc_bumps, burst=max(on_target - 1, 0))
        return allocate_spends(
            pool,
            spends,
            on,
            free_shift=profile.free_shift,
            strays_possible=profile.strays_enabled,
            secondary_targets_max=secondary_max,
            extra_hits_max=extra_hits_max,
            melee=profile.attack_kind == "melee",
            location_fixed=location_fixed,
        )

    loc_bumps = location_damage_bumps(location) if on_target else 0
    alloc = allocate(loc_bumps, loc_card)
    # -- extra cards for the hacking options (only now that the spends are valid) ----
    if on_target and location_card is None and damage_card is None and more is not None:
        if options.hit_location_damage_draw:
            loc_card = draw_for(more, f"the hit location on {target.name} (card hacking)")
            dmg_card = draw_for(more, f"the damage to {target.name} (card hacking)")
            cards_used += [loc_card.number, dmg_card.number]
            notes.append(
                f"hit-location-damage draw: card {loc_card.number} for location and "
                f"penetration, card {dmg_card.number} for damage (000)"
            )
        elif options.cause_effect_uncoupling:
            loc_card = dmg_card = draw_for(more, f"the effects on {target.name} (card hacking)")
            cards_used.append(loc_card.number)
            notes.append(f"cause/effect uncoupling: card {loc_card.number} for the effects (000)")
        if loc_card is not card and profile.forced_location is None and chosen_location is None:
            stack_index, location = _stack_entry(loc_card, spends, profile.free_shift)
            if location_damage_bumps(location) != loc_bumps:
                loc_bumps = location_damage_bumps(location)
                alloc = allocate(loc_bumps, loc_card)
    elif location_card is not None:
        cards_used.append(location_card.number)
        if damage_card is not None and damage_card is not location_card:
            cards_used.append(damage_card.number)
    loc_result = None
    missed_prone = False
    if on_target:
        loc_reasons += list(profile.free_shift_reasons)
        if stack_index is not None:
            e = loc_card.hit_locations[stack_index]
            loc_reasons.insert(
                0,
                f"card {loc_card.number}: standard location "
                f"{loc_card.standard_hit.location.value.replace('_', ' ')}"
                + (
                    f"; entry {stack_index + 1} ({e.location.value.replace('_', ' ')}) for "
                    f"{alloc.location_cost} bump(s)"
                    if stack_index != STANDARD_HIT_INDEX
                    else ""
                ),
            )
        if loc_bumps:
            loc_reasons.append(_location_bump_reason(location, loc_bumps))
        prone_entry = loc_card.hit_locations[
            stack_index if stack_index is not None else STANDARD_HIT_INDEX
        ]
        if profile.prone_attribute_rule:
            if prone_entry.prone:
                loc_reasons.append(
                    "the entry shows the prone attribute: the prone target is hit (003)"
                )
            else:
                missed_prone = True
                loc_reasons.append(PRONE_MISS_NOTE)
        loc_result = LocationResult(
            location=location,
            stack_index=stack_index,
            bumps_spent=alloc.location_cost,
            free_shift=profile.free_shift,
            damage_bumps=loc_bumps,
            prone_attribute=prone_entry.prone,
            reasons=tuple(loc_reasons),
        )

    # -- 6a. stray shots (known once the hits are) --------------------------------------
    landed = 0 if missed_prone else hits
    strays = None
    if profile.strays_enabled:
        n, why = stray_shot_count(
            projectiles=max(projectiles, hits),
            hits=landed,
            scatter=profile.scatter_weapon,
            range_band=profile.range_band,
            into_melee=profile.into_melee,
        )
        found = unintended_targets(
            n, card.figures, profile.unintended_candidates, alloc.stray, card_number=card.number
        )
        strays = found.model_copy(update={"reasons": tuple(why) + found.reasons})

    effective_hits = 0 if missed_prone else on_target
    record_kwargs: _ShotHits = {
        **base_record,
        "cards": tuple(cards_used),
        "hits": hits if not missed_prone else 0,
        "hits_for_other_targets": others,
        "location": loc_result,
        "spends": alloc.record,
        "strays": strays,
    }
    if blocked:
        notes += list(block_reasons)
        return AttackRecord(**record_kwargs, blocked=True, notes=tuple(notes)), target
    notes += list(block_reasons)
    if not effective_hits:
        return AttackRecord(**record_kwargs, notes=tuple(notes)), target

    if profile.explosive:
        notes.append(
            f"explosive: the blast ({profile.blast_radius} paces) goes off at the target; "
            "the others within it are resolved separately"
        )

    # -- 4. cover and 5. damage ---------------------------------------------------------
    st = strike(
        profile,
        target=target,
        location=location,
        loc_card=loc_card,
        dmg_card=dmg_card,
        edition=edition,
        options=options,
        penetration=alloc.penetration,
        damage_bumps=alloc.damage,
        more=more,
        stun_card=stun_card,
        effect_bonus=effect_bonus,
        risking_death=risking_death,
    )
    notes += st.notes
    cards_used += st.cards
    record_kwargs["cards"] = tuple(dict.fromkeys(cards_used))
    record = AttackRecord(
        **record_kwargs,
        **_strike_fields(st),
        notes=tuple(notes),
    )
    return record, st.target


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


def resolve_attack(
    attacker: Character,
    target: Character,
    weapon: Weapon,
    edition: Edition,
    tn: TnBreakdown,
    card: Card,
    *,
    situation: ShotSituation,
    shot: ShotSpec | None = None,
    burst: int | None = None,
    fan: FanPlan | None = None,
    carried: CarriedWeapon | None = None,
    **kw: Unpack[ResolveKw],
) -> tuple[AttackRecord, Character]:
    """Resolve a ranged shot or a throw from the drawn ``card`` to the wound.

    ``tn`` comes from :func:`~.ranged.ranged_tn` (fan shots: :func:`~.ranged.fan_shot_tn`).
    ``burst`` picks a burst weapon's mode (default: its smallest). ``fan`` is a
    :class:`~.ranged.FanPlan` (003's burst-3 fan is one call; a per-shot series is
    :func:`resolve_fan`). The keywords of :class:`ResolveKw` go to
    :func:`resolve_profile`: ``more`` draws further cards (open-ended cells,
    increased effect, the stun check unless ``stun_card`` is given); ``rank`` picks
    the pool result (0 = best) for later attacks of a series, with the same
    ``pool_read``; ``discard`` is the discard pile (001's Rel 1 rule); ``spends`` the
    Judge's bump spends; ``hits_on_target`` keeps some hits of a burst for other
    targets; ``auto_hit`` resolves covering fire's automatic hit;
    ``discharge_weapons`` are the firer's stowed, fully loaded guns, which may go off
    when the firer moved this round (``action_moves`` defaults to that). Returns the
    record and the damaged copy of ``target``.
    """
    shot = shot or ShotSpec()
    if fan is not None and not shot.fan:
        shot = shot.model_copy(update={"kind": "snap", "aims": 0, "fan": True, "cock_first": False})
    options = kw.get("options")
    check_shot(attacker, weapon, shot, edition, carried=carried, options=options)
    profile = ranged_profile(
        attacker, weapon, edition, situation, shot, options=options, burst=burst, fan=fan
    )
    kw.setdefault("action_moves", firer_moves(situation))
    return resolve_profile(
        profile, attacker=attacker, target=target, edition=edition, tn=tn, card=card, **kw
    )


def firer_moves(situation: ShotSituation) -> bool:
    """Whether a shot counts as an action with movement (000 Carrying Loaded Weapons):
    the firer walked or ran this round, or rides a moving mount."""
    return situation.firer_movement != "still" or (
        situation.firer_mounted and situation.mount_movement != "still"
    )


def _with_ablation(situation: ShotSituation, lowered: Mapping[str, int]) -> ShotSituation:
    """``situation`` with each cover an earlier shot of the series ablated at its
    lowered AV (000 Armor Penetration/Ablation: the AV stays lowered)."""
    if not lowered or not any(c.feature_id in lowered for c in situation.covers):
        return situation
    covers = tuple(
        c.model_copy(update={"av": min(c.av, lowered[c.feature_id])})
        if c.feature_id in lowered
        else c
        for c in situation.covers
    )
    return situation.model_copy(update={"covers": covers})


def _shot_hits(read: PoolRead, tn: TnBreakdown, rank: int) -> bool:
    """Whether result number ``rank + 1`` of the pool beats the TN (no CF)."""
    raw = None if read.is_cf else read.result(rank)
    return raw is not None and raw + tn.result_modifier >= tn.tn


def _risk(kw: FanKw, risking: bool) -> FanKw:
    """``kw`` with the shot's own ``risking_death`` (001 Risk: the target's declaration)."""
    return cast(FanKw, {**kw, "risking_death": risking})


def resolve_fan(
    attacker: Character,
    targets: Sequence[Character],
    weapon: Weapon,
    edition: Edition,
    plan: FanPlan,
    base_tns: Sequence[TnBreakdown],
    card: Card,
    *,
    situations: Sequence[ShotSituation],
    carried: CarriedWeapon | None = None,
    spends: Sequence[BumpSpends | None] = (),
    more: CardSource | None = None,
    secondary: Sequence[tuple[Character, ShotSituation]] = (),
    pool_read: PoolRead | None = None,
    ap: ApBreakdown | None = None,
    discharge_weapons: Mapping[int, Weapon] | None = None,
    risking: Collection[str] = (),
    **kw: Unpack[FanKw],
) -> tuple[list[AttackRecord], dict[str, Character]]:
    """A declared fan-firing series from one card (000/001/003 Fan Firing).

    ``targets[i]``, ``situations[i]`` and ``base_tns[i]`` (a snap-shot
    :func:`~.ranged.ranged_tn` with ``fan=True``) belong to shot ``i``. AP v2
    (``per_shot``): each shot takes the next best result of the one pool read, its
    own downgrades, and from the second shot on a fresh card for its hit location
    and damage (000: successive shots are resolved apart; drawn only for a hit;
    with no deck to draw from, the same card). A cover an earlier shot ablated
    meets the later shots at its lowered AV (000 Armor Penetration/Ablation).
    Phases (``burst3``): one check at TN + shots on the first target; each of
    ``secondary`` (a character and the situation of the shot at them) is a
    secondary target bought with a bump (003 Secondary Targets): it takes one of
    the hits, read on a card of its own (see :func:`_secondary_hit`). A target hit
    twice takes the second shot on its already wounded sheet. Only the first record
    carries the AP and the equipment-failure check (one card, one wrench, 000
    Ancillary Effects), and only the first card can set off a stowed gun. Returns the
    records in order and each target's damaged copy by id.
    """
    everyone = bool(kw.get("risking_death", False))  # one flag for every target
    n = plan.shots if plan.mode == "per_shot" else 1
    if len(targets) < n or len(situations) < n or len(base_tns) < n:
        raise RulesError("Give a target, a situation and a TN for every fan-fired shot.")
    if secondary and plan.mode != "burst3":
        raise RulesError(
            "Secondary targets bought with a bump belong to the Phases fan (003); "
            "in AP v2 declare each shot's target instead."
        )
    current: dict[str, Character] = {}
    records: list[AttackRecord] = []
    ap = ap or plan.ap
    options = kw.get("options")
    if plan.mode == "per_shot" and pool_read is None:
        pool, _ = attack_pool(attacker, weapon)
        pool_read = read_pool(card, pool, more)
    lowered: dict[str, int] = {}
    for i in range(n):
        tgt = current.get(targets[i].id, targets[i])
        tn = fan_shot_tn(base_tns[i], plan, i)
        loc_card = None
        if (
            i
            and plan.mode == "per_shot"
            and more is not None
            and pool_read is not None
            and _shot_hits(pool_read, tn, i)
        ):
            loc_card = draw_for(more, f"shot {i + 1}'s hit location on {tgt.name}")
        sp = spends[i] if i < len(spends) else None
        if secondary and i == 0:
            sp = (sp or BumpSpends()).model_copy(update={"secondary_targets": len(secondary)})
        rec, new = resolve_attack(
            attacker,
            tgt,
            weapon,
            edition,
            tn,
            card,
            situation=_with_ablation(situations[i], lowered),
            fan=plan,
            carried=carried,
            spends=sp,
            more=more,
            rank=i if plan.mode == "per_shot" else 0,
            pool_read=pool_read,
            location_card=loc_card,
            ap=ap if i == 0 else None,
            discharge_weapons=discharge_weapons if i == 0 else None,
            **_risk(kw, everyone or tgt.id in risking),
        )
        if i and loc_card is None and plan.mode == "per_shot" and rec.hit.success:
            rec = rec.model_copy(
                update={"notes": (*rec.notes, "no card to draw: the first card's location is read")}
            )
        if i and rec.equipment_failure is not None:
            # one card, one wrench: the series is checked once, on the first record
            rec = rec.model_copy(update={"equipment_failure": None})
        for fid, av in rec.ablated_covers:
            lowered[fid] = av
        records.append(rec)
        current[new.id] = new
    for who, sit in secondary:
        if not records[0].hit.success:
            raise RulesError("The fan missed: no secondary target can be hit.")
        tgt = current.get(who.id, who)
        rec, new = _secondary_hit(
            attacker,
            tgt,
            weapon,
            edition,
            plan,
            _with_ablation(sit, lowered),
            records[0],
            card,
            more=more,
            options=options,
            risking_death=everyone or tgt.id in risking,
        )
        for fid, av in rec.ablated_covers:
            lowered[fid] = av
        records.append(rec)
        current[new.id] = new
    return records, current


def resolve_series(
    attacker: Character,
    targets: Sequence[Character],
    weapon: Weapon,
    edition: Edition,
    tns: Sequence[TnBreakdown],
    card: Card,
    *,
    situations: Sequence[ShotSituation],
    shots: Sequence[ShotSpec],
    carried: Sequence[CarriedWeapon],
    spends: Sequence[BumpSpends | None] = (),
    more: CardSource | None = None,
    ap: ApBreakdown | None = None,
    discharge_weapons: Mapping[int, Weapon] | None = None,
    risking: Collection[str] = (),
    **kw: Unpack[FanKw],
) -> tuple[list[AttackRecord], dict[str, Character]]:
    """A declared series of attacks from one pool (000 Multiple Attacks, Resolving
    Multiple Attacks: "flip the card and use the highest result in the pool for the
    first attack, the second highest for the second, etc.").

    ``targets[i]``, ``situations[i]``, ``tns[i]`` (each with its own secondary-target
    penalty), ``shots[i]`` and ``carried[i]`` (the weapon as the earlier shots
    left it) belong to attack ``i``. One pool read; attack ``i`` reads result
    ``i``. As successive fan shots (000), each later attack that hits reads its
    hit location and damage on a fresh card (the first card with no deck to draw
    from); a cover an earlier attack ablated meets the later ones lowered; a
    target hit twice takes the second attack on its wounded sheet. Only the first
    record carries the AP and the equipment-failure check (one card, one wrench),
    and only the first can set off a stowed gun. Returns the records in order and
    each target's damaged copy by id."""
    everyone = bool(kw.get("risking_death", False))  # one flag for every target
    n = len(targets)
    if not n or not (len(situations) == len(tns) == len(shots) == len(carried) == n):
        raise RulesError("Give a target, a situation, a TN and a shot for every attack.")
    pool, _ = attack_pool(attacker, weapon)
    # attacks past the pool's results miss automatically (000 Multiple Attacks)
    pool_read = read_pool(card, pool, more)
    current: dict[str, Character] = {}
    records: list[AttackRecord] = []
    lowered: dict[str, int] = {}
    for i in range(n):
        tgt = current.get(targets[i].id, targets[i])
        loc_card = None
        if i and more is not None and _shot_hits(pool_read, tns[i], i):
            loc_card = draw_for(more, f"attack {i + 1}'s hit location on {tgt.name}")
        rec, new = resolve_attack(
            attacker,
            tgt,
            weapon,
            edition,
            tns[i],
            card,
            situation=_with_ablation(situations[i], lowered),
            shot=shots[i],
            carried=carried[i],
            spends=spends[i] if i < len(spends) else None,
            more=more,
            rank=i,
            pool_read=pool_read,
            location_card=loc_card,
            ap=ap if i == 0 else None,
            discharge_weapons=discharge_weapons if i == 0 else None,
            **_risk(kw, everyone or tgt.id in risking),
        )
        if i:
            notes = [f"attack {i + 1} of the series: result number {i + 1} of the pool (000)"]
            if loc_card is None and rec.hit.success:
                notes.append("no card to draw: the first card's location is read")
            rec = rec.model_copy(update={"notes": (*rec.notes, *notes), "equipment_failure": None})
        for fid, av in rec.ablated_covers:
            lowered[fid] = av
        records.append(rec)
        current[new.id] = new
    return records, current


def resolve_spread_hits(
    attacker: Character,
    weapon: Weapon,
    edition: Edition,
    first: AttackRecord,
    card: Card,
    others: Sequence[tuple[Character, ShotSituation, int]],
    *,
    shot: ShotSpec | None = None,
    burst: int | None = None,
    more: CardSource | None = None,
    options: OptionalRules | None = None,
    risking: Collection[str] = (),
) -> tuple[list[AttackRecord], dict[str, Character]]:
    """The hits of a burst the attacker sent to other targets (000 Hitting Multiple
    Targets): ``first`` is the record of the first target, resolved with
    ``hits_on_target`` so it kept some of the hits; ``others`` gives each other
    target, the situation of a shot at them and the hits they take (together
    ``first.hits_for_other_targets``, one target per further success at most).

    House readings (000 is silent past the hit count): each other target is hit at
    the standard location of a card of its own (the one card when there is no deck
    to draw from), as successive fan shots are; its cover is met from its own
    situation; each hit past the first on the same target is a burst bump spent on
    damage, and the first target's bumps stay with the first target. Returns one
    record per other target and the damaged copies by id."""
    if not first.hit.success:
        raise RulesError("The burst missed: no other target can be hit.")
    wanted = sum(k for _c, _s, k in others)
    if any(k < 1 for _c, _s, k in others) or wanted != first.hits_for_other_targets:
        raise RulesError(
            f"The burst kept {first.hits_for_other_targets} hit(s) for other targets; "
            f"{wanted} were given out."
        )
    options = options or OptionalRules()
    shot = shot or ShotSpec()
    records: list[AttackRecord] = []
    hurt: dict[str, Character] = {}
    ride = _RideAlong(attacker, weapon, edition, options, first, more)
    for target, situation, k in others:
        tgt = hurt.get(target.id, target)
        profile = ranged_profile(
            attacker, weapon, edition, situation, shot, options=options, burst=burst
        )
        loc_card = draw_for(more, f"the burst's hit on {tgt.name}") if more is not None else card
        notes = [f"{k} hit(s) of the burst sent on to {tgt.name} (000 Hitting Multiple Targets)"]
        if loc_card is card:
            notes.append("no card to draw: the burst's card is read for this target")
        further = (
            [f"{k - 1} further hit(s): {k - 1} damage bump(s) (000 Burst Fire)"] if k > 1 else []
        )
        rec, new = ride.hit(
            profile,
            tgt,
            loc_card,
            hits=k,
            notes=notes,
            further=further,
            risking_death=tgt.id in risking,
        )
        records.append(rec)
        if rec.hits:
            hurt[new.id] = new
    return records, hurt


def resolve_stray_hits(
    attacker: Character,
    weapon: Weapon,
    edition: Edition,
    first: AttackRecord,
    card: Card,
    victims: Sequence[tuple[Character, ShotSituation]],
    *,
    shot: ShotSpec | None = None,
    more: CardSource | None = None,
    options: OptionalRules | None = None,
    risking: Collection[str] = (),
) -> tuple[list[AttackRecord], dict[str, Character]]:
    """The unintended targets ``first``'s stray shots hit (000/001 Unintended
    Targets: a figure number at or below the stray shots is a hit, the closest or
    most obvious target first), resolved against them in that order.

    House reading (the pages say only that the target "is hit"): the figures decided
    the hit, so there is no check of its own; each victim takes one hit at the
    standard location of a card of its own — the next card, as a burst's other
    targets and successive fan shots read theirs (the shot's card when there is no
    deck to draw from) — meeting the cover of its own line of fire, with the
    weapon's damage and no bumps. Returns one record per victim and the damaged
    copies by id."""
    options = options or OptionalRules()
    shot = shot or ShotSpec()
    records: list[AttackRecord] = []
    hurt: dict[str, Character] = {}
    ride = _RideAlong(attacker, weapon, edition, options, first, more)
    for victim, situation in victims:
        tgt = hurt.get(victim.id, victim)
        profile = ranged_profile(attacker, weapon, edition, situation, shot, options=options)
        loc_card = draw_for(more, f"the stray shot on {tgt.name}") if more is not None else card
        notes = [
            f"a stray shot hits {tgt.name}, an unintended target (000 Unintended Targets); "
            "house reading: one hit at the standard location of its own card, no check"
        ]
        if loc_card is card:
            notes.append("no card to draw: the shot's card is read for this hit")
        rec, new = ride.hit(
            profile, tgt, loc_card, hits=1, notes=notes, risking_death=tgt.id in risking
        )
        rec = rec.model_copy(update={"stray_of": first.target_id})
        records.append(rec)
        if rec.damage is not None:
            hurt[new.id] = new
    return records, hurt


def _secondary_hit(
    attacker: Character,
    target: Character,
    weapon: Weapon,
    edition: Edition,
    plan: FanPlan,
    situation: ShotSituation,
    first: AttackRecord,
    card: Card,
    *,
    more: CardSource | None = None,
    options: OptionalRules | None = None,
    risking_death: bool = False,
) -> tuple[AttackRecord, Character]:
    """One hit on a secondary target of a Phases fan (003 Secondary Targets).

    The bump bought the hit, so there is no check of its own: the record repeats the
    fan's check. House reading (003 is silent on where the hit lands): the hit reads
    the standard hit location, shield and damage of a fresh card — each target is
    its own resolution, as 000 says of successive fan shots — or the fan's card when
    there is no deck to draw from. Cover and the prone rule use the secondary
    target's own situation; the fan's bumps were spent on the first target.
    """
    options = options or OptionalRules()
    profile = ranged_profile(
        attacker,
        weapon,
        edition,
        situation,
        ShotSpec(kind="snap", fan=True),
        options=options,
        fan=plan,
    )
    loc_card = draw_for(more, f"the hit on {target.name}") if more is not None else card
    notes = ["a secondary target bought with a bump: it takes one of the fan's hits (003)"]
    if loc_card is card:
        notes.append("no card to draw: the fan's card is read for this hit")
    ride = _RideAlong(attacker, weapon, edition, options, first, more)
    return ride.hit(
        profile,
        target,
        loc_card,
        hits=1,
        notes=notes,
        prone_on_location=True,
        risking_death=risking_death,
    )


@dataclass(frozen=True)
class _RideAlong:
    """Hits that ride on the check of ``first`` (the other targets of a burst, 000
    Hitting Multiple Targets; a fan's secondary target, 003)."""

    attacker: Character
    weapon: Weapon
    edition: Edition
    options: OptionalRules
    first: AttackRecord
    more: CardSource | None

    def hit(
        self,
        profile: AttackProfile,
        target: Character,
        loc_card: Card,
        *,
        hits: int,
        notes: list[str],
        further: Sequence[str] = (),
        prone_on_location: bool = False,
        risking_death: bool = False,
    ) -> tuple[AttackRecord, Character]:
        """``hits`` hit(s) on ``target`` at the standard location of ``loc_card`` —
        never a called one — each hit past the first a damage bump. ``further`` adds
        reasons to the location; ``prone_on_location`` says whether a miss on a
        prone target (003 Prone Targets) is told among the location's reasons or
        the record's notes. Returns the record and the target's copy (the target
        itself when the hit misses)."""
        profile = profile.model_copy(update={"forced_location": None, "forced_reason": ""})
        entry = loc_card.hit_locations[STANDARD_HIT_INDEX]
        location = entry.location
        loc_bumps = location_damage_bumps(location)
        loc_reasons = [
            f"card {loc_card.number}: standard location {location.value.replace('_', ' ')}"
        ]
        if loc_bumps:
            loc_reasons.append(_location_bump_reason(location, loc_bumps))
        loc_reasons += further
        missed_prone = profile.prone_attribute_rule and not entry.prone
        if missed_prone:
            (loc_reasons if prone_on_location else notes).append(PRONE_MISS_NOTE)
        base: _RideHead = {
            "attacker_id": self.attacker.id,
            "target_id": target.id,
            "weapon_id": self.weapon.id,
            "attack_kind": "ranged",
            "tn": self.first.tn,
            "hit": self.first.hit,
            "burst": self.first.burst,
            "location": LocationResult(
                location=location,
                stack_index=STANDARD_HIT_INDEX,
                damage_bumps=loc_bumps,
                prone_attribute=entry.prone,
                reasons=tuple(loc_reasons),
            ),
        }
        cards = [loc_card.number]
        if missed_prone:
            return AttackRecord(**base, cards=tuple(cards), notes=tuple(notes)), target
        st = strike(
            profile,
            target=target,
            location=location,
            damage_bumps=loc_bumps + hits - 1,
            loc_card=loc_card,
            dmg_card=loc_card,
            edition=self.edition,
            options=self.options,
            more=self.more,
            risking_death=risking_death,
        )
        record = AttackRecord(
            **base,
            cards=tuple(dict.fromkeys([*cards, *st.cards])),
            hits=hits,
            **_strike_fields(st),
            notes=tuple(notes + st.notes),
        )
        return record, st.target


def after_shot(
    shooter: Character, weapon: Weapon, *, rounds: int = 1, carried_index: int | None = None
) -> Character:
    """The shooter's copy after firing: rounds spent, hammer down, aim gone (000)."""
    new = shooter.model_copy(deep=True)
    idx = carried_index
    if idx is None:
        idx = next((i for i, w in enumerate(new.weapons) if w.weapon_id == weapon.id), None)
    if idx is None or new.weapons[idx].weapon_id != weapon.id:
        raise RulesError(f"{shooter.name} does not carry a {weapon.name}.")
    w = new.weapons[idx]
    if weapon.is_ranged:
        if w.loaded < rounds:
            raise RulesError(f"The {weapon.name} holds only {w.loaded} round(s).")
        w.loaded -= rounds
        w.fully_loaded = False
    w.cocked = False
    return new
