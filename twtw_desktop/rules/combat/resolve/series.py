"""Attacks made of several shots and the hits that ride along on one check: a
fan-firing series (:func:`resolve_fan`, :func:`resolve_series`), a spread weapon's
further hits (:func:`resolve_spread_hits`), stray shots on unintended targets
(:func:`resolve_stray_hits`), and :func:`after_shot`."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Unpack, cast

from ....errors import RulesError
from ...card import STANDARD_HIT_INDEX, Card
from ...character import CarriedWeapon, Character
from ...damage import location_damage_bumps
from ...deck import CardSource, PoolRead, read_pool
from ...editions import Edition, OptionalRules
from ...gear import Weapon
from ..bumps import BumpSpends
from ..ranged import (
    FanPlan,
    ShotSpec,
    attack_pool,
    fan_shot_tn,
)
from ..records import (
    ApBreakdown,
    AttackRecord,
    LocationResult,
    TnBreakdown,
)
from ..situation import ShotSituation
from .flow import PRONE_MISS_NOTE, FanKw, _location_bump_reason, _RideHead, resolve_attack
from .profile import AttackProfile, draw_for, ranged_profile
from .strike import _strike_fields, strike


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
    :func:`~..ranged.ranged_tn` with ``fan=True``) belong to shot ``i``. AP v2
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
