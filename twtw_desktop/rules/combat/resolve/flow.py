"""One attack from card to its record (:func:`resolve_profile`): hit or miss, the
number of hits, the hit location with its bumps, then :func:`~.strike.strike` and the
ancillary effects; :func:`resolve_attack` builds a shot's or a throw's profile and
resolves it. See :mod:`twtw_desktop.rules.combat.resolve` for the decisions where the
pages are vague."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict, Unpack

from ....errors import RulesError
from ...base import HitLocation
from ...card import STANDARD_HIT_INDEX, Card
from ...character import CarriedWeapon, Character
from ...checks import simple_check
from ...damage import location_damage_bumps
from ...deck import CardSource, PoolRead, read_pool
from ...editions import Edition, OptionalRules
from ...gear import Weapon
from ..ancillary import check_discharges, equipment_failure, stray_shot_count, unintended_targets
from ..bumps import Allocation, BumpPool, BumpSpends, allocate_spends, default_location_index
from ..ranged import (
    FanPlan,
    ShotSpec,
    check_shot,
)
from ..records import (
    ApBreakdown,
    AttackRecord,
    DischargeResult,
    FailureResult,
    HitCheck,
    LocationResult,
    ScatterResult,
    SpendRecord,
    StrayResult,
    TnBreakdown,
)
from ..situation import ShotSituation
from ..thrown import scatter_throw
from .profile import AttackProfile, draw_for, ranged_profile
from .strike import _cells, _strike_fields, strike


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


class FanKw(TypedDict, total=False):
    """The keywords of :class:`ResolveKw` that a fan passes on to each of its shots
    unchanged (:func:`~.series.resolve_fan` sets the others shot by shot)."""

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
    :func:`~..melee.resolve_melee` pass them through unchanged."""

    spends: BumpSpends | None
    more: CardSource | None
    rank: int
    pool_read: PoolRead | None
    location_card: Card | None
    ap: ApBreakdown | None
    #: stowed, fully loaded guns of the attacker by carried index (000 Carrying Loaded
    #: Weapons; :func:`~..ancillary.discharge_candidates`)
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

    ``tn`` comes from :func:`~..ranged.ranged_tn` (fan shots: :func:`~..ranged.fan_shot_tn`).
    ``burst`` picks a burst weapon's mode (default: its smallest). ``fan`` is a
    :class:`~..ranged.FanPlan` (003's burst-3 fan is one call; a per-shot series is
    :func:`~.series.resolve_fan`). The keywords of :class:`ResolveKw` go to
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
