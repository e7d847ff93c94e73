"""Resolving a planned attack against a card (preview on a copy of the deck, then for real).

:class:`Spends` (the Judge's bump spends), :class:`Outcome` (the records and the sheets
the resolution touched) and :func:`resolve`: a shot, a firing series, a burst's split,
stray rounds and a blow with its block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..hexgrid import Hex
from ..rules.base import HitLocation
from ..rules.card import Card
from ..rules.character import Character
from ..rules.combat.ancillary import apply_discharges
from ..rules.combat.bumps import BumpSpends, StraySpend
from ..rules.combat.melee import attack_result, resolve_block, resolve_melee
from ..rules.combat.records import AttackRecord
from ..rules.combat.resolve import (
    firer_moves,
    resolve_attack,
    resolve_fan,
    resolve_series,
    resolve_spread_hits,
    resolve_stray_hits,
)
from ..rules.combat.situation import ShotSituation
from ..rules.deck import CardSource, read_pool
from .attack_ranged import _situation
from .attack_request import AttackPlan, Geometry, display_name
from .bonus_actions import SPENDS
from .risk_actions import risking_death
from .throw import explode, scatter_landing

if TYPE_CHECKING:
    from .table import Table


# =============================================================================
# Resolving (preview on a copy of the deck, then for real)
# =============================================================================


@dataclass
class Spends:
    """The Judge's bump spends on one attack (one shot of a series), as clicked."""

    hit_index: int | None = None
    penetration: int = 0
    damage: int = 0
    stray: list[tuple[int, int]] = field(default_factory=list)
    extra_hits: int = 0
    #: Phases fan: token ids of the secondary targets bought, one bump each (003)
    secondary: list[str] = field(default_factory=list)
    #: hand to hand: bumps spent toward dominance (000 Asserting Dominance)
    dominance: int = 0
    #: a burst's or fan's extra-hit bumps turned to penetration (002 Burst bumps)
    burst_pen: int = 0

    def to_bump_spends(self) -> BumpSpends:
        return BumpSpends(
            hit_location_index=self.hit_index,
            penetration=self.penetration,
            damage=self.damage,
            stray=tuple(StraySpend(figure_index=i, delta=d) for i, d in self.stray),  # type: ignore[arg-type]
            extra_hits=self.extra_hits,
            secondary_targets=len(self.secondary),
            dominance=self.dominance,
            burst_to_penetration=self.burst_pen,
        )

    def empty(self) -> bool:
        return self.to_bump_spends().empty

    def copy(self) -> Spends:
        return Spends(
            self.hit_index,
            self.penetration,
            self.damage,
            list(self.stray),
            self.extra_hits,
            list(self.secondary),
            self.dominance,
            self.burst_pen,
        )


@dataclass
class Outcome:
    """A whole resolution: one record per shot, and every sheet it changed."""

    records: list[AttackRecord]
    #: the changed characters' new copies by id (targets, blast victims, the attacker
    #: whose stowed gun went off)
    characters: dict[str, Character] = field(default_factory=dict)
    #: where a throw came down (thrown attacks)
    landing: Hex | None = None
    #: the defender's block (hand to hand)
    block: Any = None
    #: a declared block waits for its card to be typed in (physical-card mode)
    needs_block_card: bool = False
    #: what the next card must be typed in for (physical-card mode), e.g. a stun
    #: check; while set the records are provisional and Apply is refused
    card_needed: str | None = None
    #: how many of the further typed-in cards the resolution read
    typed_used: int = 0
    #: the numbers of the cards drawn or typed in, in order (set when applied)
    drawn: list[int] = field(default_factory=list)

    @property
    def record(self) -> AttackRecord:
        return self.records[0]


def _spends_list(spends: Spends | Sequence[Spends]) -> list[Spends]:
    return [spends] if isinstance(spends, Spends) else list(spends)


def resolve(
    table: Table,
    plan: AttackPlan,
    card: Card,
    spends: Spends | Sequence[Spends],
    more: CardSource | None,
    discard: list[Card],
    block_card: Card | None = None,
) -> Outcome:
    """Resolve ``plan`` with ``card`` (no table change). ``block_card`` is the
    card typed in for the defender's block (physical-card mode)."""
    ed = table.edition
    options = table.encounter.options
    sp = _spends_list(spends)
    if plan.mode == "melee":
        out = _resolve_melee(table, plan, card, sp, more, discard, block_card)
    elif plan.multi is not None:
        assert plan.weapon is not None
        records, hurt = resolve_series(
            plan.shooter,
            [s.target for s in plan.series],
            plan.weapon,
            ed,
            [s.tn for s in plan.series],
            card,
            situations=[s.situation for s in plan.series],
            shots=[shot for shot, _c in plan.multi],
            carried=[c for _shot, c in plan.multi],
            spends=[s.to_bump_spends() for s in sp],
            more=more,
            ap=plan.ap,
            options=options,
            discard=discard,
            discharge_weapons=plan.discharge,
            action_moves=firer_moves(plan.series[0].situation),
            risking=_risking(table, [s.target for s in plan.series]),
        )
        out = Outcome(records, dict(hurt))
    elif plan.fan is not None:
        assert plan.weapon is not None
        secondary = []
        for tid in sp[0].secondary if sp else ():
            if tid not in plan.fan_secondary:
                raise RulesError(
                    f"{display_name(table, tid)} is not within a pace of the target or "
                    "the line of fire: not a secondary target (003)."
                )
            secondary.append(plan.fan_secondary[tid])
        records, hurt = resolve_fan(
            plan.shooter,
            [s.target for s in plan.series],
            plan.weapon,
            ed,
            plan.fan,
            [s.base_tn for s in plan.series],
            card,
            situations=[s.situation for s in plan.series],
            carried=plan.carried,
            spends=[s.to_bump_spends() for s in sp],
            more=more,
            options=options,
            discard=discard,
            discharge_weapons=plan.discharge,
            action_moves=firer_moves(plan.series[0].situation),
            secondary=secondary,
            risking=_risking(table, [s.target for s in plan.series] + [c for c, _sit in secondary]),
        )
        out = Outcome(records, dict(hurt))
    else:
        out = _resolve_shot(table, plan, card, sp, more, discard)
    discharged = [d for r in out.records for d in r.discharges if d.discharged]
    if discharged:
        base = out.characters.get(plan.shooter.id, plan.shooter)
        out.characters[plan.shooter.id] = apply_discharges(base, discharged, ed, options=options)
    return out


def _burst_split(
    plan: AttackPlan, card: Card, more: CardSource | None
) -> tuple[int | None, Any, list[str], list[tuple[Character, ShotSituation, int]]]:
    """How a burst's hits spread when the Judge sends some on (000 Hitting Multiple
    Targets): (hits on the first target or None, the pool read to resolve with,
    notes, each other target with the hits it takes). The card decides: one other
    target per success after the first, and the card's burst hits in all, one kept
    for the first target."""
    if not plan.burst_others or plan.burst is None:
        return None, None, [], []
    tn = plan.tn
    read = read_pool(card, plan.pool, more)
    successes = 0
    if not read.is_cf:
        successes = sum(
            1 for c in read.cells if c.total is not None and c.total + tn.result_modifier >= tn.tn
        )
    if successes == 0:
        return None, read, [], []
    hits = min(card.burst_hits(plan.burst), plan.burst)
    left = hits - 1
    notes: list[str] = []
    given: list[tuple[Character, ShotSituation, int]] = []
    for n, (_tok, ch, sit, wanted) in enumerate(plan.burst_others, 2):
        if n > successes:
            notes.append(f"no success number {n} in the pool: no hit goes on to {ch.name}")
            continue
        k = min(wanted, left)
        if k < 1:
            notes.append(f"the card shows {hits} hit(s): none left over for {ch.name}")
            continue
        if k < wanted:
            notes.append(
                f"the card shows {hits} hit(s): {k} of the {wanted} asked go on to {ch.name}"
            )
        given.append((ch, sit, k))
        left -= k
    if not given:
        return None, read, notes, []
    return hits - sum(k for *_rest, k in given), read, notes, given


def _resolve_shot(
    table: Table,
    plan: AttackPlan,
    card: Card,
    sp: list[Spends],
    more: CardSource | None,
    discard: list[Card],
) -> Outcome:
    assert plan.weapon is not None and plan.situation is not None
    on_target, pool_read, split_notes, spread = _burst_split(plan, card, more)
    extra: dict[str, Any] = {}
    if pool_read is not None:
        extra["pool_read"] = pool_read
    if on_target is not None:
        extra["hits_on_target"] = on_target
    cause_bonus, effect_bonus = _counter_bonus(plan.request.counter)
    rec, new_target = resolve_attack(
        plan.shooter,
        plan.target,
        plan.weapon,
        table.edition,
        plan.tn,
        card,
        situation=plan.situation,
        shot=plan.shot,
        burst=plan.burst,
        carried=plan.carried,
        options=table.encounter.options,
        spends=sp[0].to_bump_spends() if sp else None,
        more=more,
        discard=discard,
        ap=plan.ap,
        discharge_weapons=plan.discharge,
        sabotage=plan.request.sabotage,
        cause_bonus=cause_bonus,
        effect_bonus=effect_bonus,
        auto_hit=plan.request.auto_hit,
        risking_death=risking_death(table, plan.target.id),
        **extra,
    )
    if split_notes:
        rec = rec.model_copy(update={"notes": (*rec.notes, *split_notes)})
    out = Outcome([rec], {new_target.id: new_target})
    if rec.hits_for_other_targets and spread:
        recs, hurt = resolve_spread_hits(
            plan.shooter,
            plan.weapon,
            table.edition,
            rec,
            card,
            [(out.characters.get(ch.id, ch), sit, k) for ch, sit, k in spread],
            shot=plan.shot,
            burst=plan.burst,
            more=more,
            options=table.encounter.options,
            risking=_risking(table, [ch for ch, _sit, _k in spread]),
        )
        out.records += recs
        out.characters.update(hurt)
    _resolve_strays(table, plan, rec, card, more, out)
    if plan.mode != "thrown":
        return out

    stok, ttok = plan.shooter_token, plan.target_token
    landing = ttok.at
    if rec.scatter is not None:
        s = rec.scatter
        landing, _stopped, _path = scatter_landing(
            table, stok.at, ttok.at, s.clock_hour, s.distance, s.from_thrower
        )
    out.landing = landing
    if plan.weapon.kind == "explosive":
        blast, hurt = explode(
            table,
            plan.weapon,
            landing,
            more or (lambda: card),
            more,
            exclude={ttok.id} if rec.hits else (),
            characters=out.characters,
        )
        out.records[0] = rec.model_copy(update={"blast": blast})
        out.characters.update(hurt)
    return out


def _risking(table: Table, characters: Sequence[Character]) -> set[str]:
    """The ids of those among ``characters`` who declared they risk death (001 Risk)."""
    return {c.id for c in characters if risking_death(table, c.id)}


def _counter_bonus(spend: str | None) -> tuple[int, int]:
    """A bonus counter's value where it goes (002 Spending the Counter), as (cause
    bonus, effect bonus): Right on! +2 in the cause grid (bumps only), Aces! +2 and
    As I planned! +3 on the effect."""
    if spend is None:
        return 0, 0
    value = SPENDS[spend][1]
    return (value, 0) if spend == "right_on" else (0, value)


def _resolve_strays(
    table: Table,
    plan: AttackPlan,
    rec: AttackRecord,
    card: Card,
    more: CardSource | None,
    out: Outcome,
) -> None:
    """The unintended targets the shot's stray shots hit, resolved against them
    (:func:`~twtw_desktop.rules.combat.resolve.resolve_stray_hits`): each from the
    shooter's hex, over its own line of fire and cover."""
    hit = rec.strays.candidates_hit if rec.strays is not None else ()
    if not hit or plan.mode != "ranged" or plan.weapon is None:
        return
    geometry = Geometry(table)
    victims = []
    for tid in hit:
        try:
            vtok = table.encounter.token(tid)
        except KeyError:
            continue
        base = table.character(vtok.character_id)
        victim = out.characters.get(base.id, base)
        req = replace(
            plan.request,
            target_token=tid,
            called_shot=None,
            called_location=None,
            point_blank=False,
            appearing=False,
            target_in_melee=False,
            target_size=None,
        )
        sit, _cover, _lines = _situation(
            table, req, plan.shooter_token, vtok, victim, geometry, thrown=False, secondary_index=0
        )
        victims.append((victim, sit))
    recs, hurt = resolve_stray_hits(
        plan.shooter,
        plan.weapon,
        table.edition,
        rec,
        card,
        victims,
        shot=plan.shot,
        more=more,
        options=table.encounter.options,
        risking=_risking(table, [v for v, _sit in victims]),
    )
    out.records += recs
    out.characters.update(hurt)


def _resolve_melee(
    table: Table,
    plan: AttackPlan,
    card: Card,
    sp: list[Spends],
    more: CardSource | None,
    discard: list[Card],
    typed_block: Card | None = None,
) -> Outcome:
    ed = table.edition
    req = plan.request
    block = None
    pool_read = None
    block_card = None
    needs_block_card = False
    if typed_block is not None and req.defense != "block":
        raise RulesError("No block was declared; there is no block card to read.")
    if req.defense == "block":
        pool_read = read_pool(card, plan.pool, more)
        result = attack_result(pool_read, plan.tn)
        hits = result is not None and result >= plan.tn.tn
        if hits and typed_block is not None:
            if typed_block.number == card.number:
                raise RulesError(
                    f"Card {card.number} is the attack's card; the block needs another card."
                )
            block_card = typed_block
        elif hits and more is not None and not getattr(more, "typed", False):
            # a printed deck's block card comes through its own entry (typed_block)
            block_card = more()
        needs_block_card = hits and block_card is None
        if block_card is not None and result is not None:
            block = resolve_block(
                plan.target,
                result,
                block_card,
                ed,
                weapon=plan.block_weapon,
                arm=HitLocation(req.block_arm),
                more=more,
                discard=discard,
            )
    rec, new = resolve_melee(
        plan.shooter,
        plan.target,
        ed,
        plan.tn,
        card,
        attack=req.melee_attack,
        weapon=plan.weapon,
        kick=req.kick,
        height_advantage=plan.melee.height if plan.melee else False,
        attacker_dominance=plan.melee.attacker_dominance if plan.melee else 0,
        attacker_held_at=plan.melee.attacker_held_at if plan.melee else 0,
        block=block,
        chosen_location=_chosen_location(plan),
        options=table.encounter.options,
        spends=sp[0].to_bump_spends() if sp else None,
        more=more,
        pool_read=pool_read,
        discard=discard,
        ap=plan.ap,
        distance_paces=0 if plan.melee and plan.melee.free_attack else plan.distance,
        discharge_weapons=plan.discharge,
        risking_death=risking_death(table, plan.target.id),
    )
    notes = list(rec.notes)
    if block_card is not None:
        notes.insert(0, f"{plan.target.name} blocks: card {block_card.number}")
        rec = rec.model_copy(
            update={"cards": (*rec.cards, block_card.number), "notes": tuple(notes)}
        )
    elif req.defense == "block" and rec.hit.success:
        rec = rec.model_copy(
            update={"notes": (*notes, "the block waits for its card: type in the card drawn")}
        )
    elif req.defense == "block":
        rec = rec.model_copy(update={"notes": (*notes, "the attack misses: no block needed")})
    return Outcome([rec], {new.id: new}, block=block, needs_block_card=needs_block_card)


def _chosen_location(plan: AttackPlan) -> HitLocation | None:
    """The location a fighter holding the foe at full dominance names (000 Position:
    the card's hit location is ignored; :func:`_plan_melee` refuses it otherwise)."""
    loc = plan.request.called_location
    return HitLocation(loc) if loc is not None else None
