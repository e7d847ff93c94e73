"""Throwing at a hex, and blasts on the map (000 Throwing Things, Missed Throws).

:func:`plan_throw` works out the throw before any card (the TN, the pool, what it
costs); :func:`check_throw_cards` tries a printed deck's typed cards on a copy of the
deck (raising :class:`~twtw_desktop.play.attack.CardNeeded` naming the card still
missing); :func:`apply_throw` — inside one table step — draws (or enters the typed
cards), reads the card for the thrower's pool, scatters a miss by the card's clock and
step (000 Missed Throws: the clock turned so 6 points back at the thrower, the landing
short of the first wall in the way), sets an explosive off where it lands, writes the
wounds, ablates the covers, takes the thrown thing out of the thrower's kit and logs
the throw.

:func:`blast_exposures`, :func:`explode` and :func:`blast_lines` are shared with the
attack's thrown attacks (:mod:`.attack`), and :func:`consume_thrown` is the one rule
for what leaves the thrower's hand, whichever way the throw was made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..geometry.scatter import scatter
from ..geometry.sight import cover_line
from ..hexgrid import Hex
from ..rules.actions import normal_shot
from ..rules.card import Card
from ..rules.character import Character, Posture
from ..rules.checks import check_pool
from ..rules.combat.blast import BlastExposure, in_blast, resolve_blast
from ..rules.combat.ranged import ShotSpec, attack_pool, ranged_tn
from ..rules.combat.records import BlastResult
from ..rules.combat.situation import ShotSituation
from ..rules.combat.thrown import is_throwable, scatter_throw
from ..rules.deck import CardSource, Deck
from ..rules.gear import Weapon
from .cards import CardNeeded, TypedCards, already_typed, scratch_deck
from .risk_actions import risking_death

if TYPE_CHECKING:
    from .table import Table


@dataclass
class ThrowOutcome:
    hit: bool
    landing: Hex
    detail: dict
    text: str
    thrower: Hex | None = None
    target: Hex | None = None
    #: the explosion's result (explosives only)
    blast: object = None
    lines: list[str] = field(default_factory=list)


# =============================================================================
# Blasts on the map (shared with the attack)
# =============================================================================


def blast_exposures(
    table: Table,
    centre: Hex,
    radius: int,
    *,
    exclude: Iterable[str] = (),
    characters: dict[str, Character] | None = None,
) -> list[BlastExposure]:
    """Everyone on the map within ``radius`` paces of ``centre``, with the cover on
    the line from the blast to them (the geometry's cover line, 000 Cover
    Penetration), nearest first. ``exclude`` holds token ids left out (the one a
    throw hit directly); ``characters`` overrides sheets already changed in the same
    resolution."""
    characters = characters or {}
    skip = set(exclude)
    index = table.walls()
    out = []
    for tok in table.encounter.tokens:
        if tok.id in skip:
            continue
        d = centre.distance(tok.at)
        if not in_blast(d, radius):
            continue
        try:
            ch = characters.get(tok.character_id) or table.character(tok.character_id)
        except KeyError:
            continue
        covers: tuple = ()
        if d:
            line = cover_line(
                table.map,
                index,
                centre,
                tok.at,
                tok.posture,
                table.edition,
                Posture.STANDING,
                target_facing=tok.facing,
            )
            covers = tuple(line.to_covers())
        out.append(BlastExposure(character=ch, distance=d, covers=covers, token_id=tok.id))
    out.sort(key=lambda e: (e.distance, e.character.id))
    return out


def explode(
    table: Table,
    weapon: Weapon,
    centre: Hex,
    draw: Callable[[], Card],
    more: Callable[[], Card] | None,
    *,
    exclude: Iterable[str] = (),
    characters: dict[str, Character] | None = None,
) -> tuple[BlastResult, dict[str, Character]]:
    """Resolve ``weapon``'s blast at ``centre`` on the map (changes nothing):
    returns the :class:`~twtw_desktop.rules.combat.records.BlastResult` and the
    damaged characters by id."""
    exposures = blast_exposures(
        table, centre, weapon.blast_radius or 0, exclude=exclude, characters=characters
    )
    return resolve_blast(
        weapon,
        table.edition,
        exposures,
        draw,
        more=more,
        options=table.encounter.options,
        centre=(centre.q, centre.r),
        risking={ex.character.id for ex in exposures if risking_death(table, ex.character.id)},
    )


def blast_lines(table: Table, blast: BlastResult) -> list[str]:
    """One line per person caught in a blast, for the log and the panel."""
    lines = []
    for v in blast.victims:
        try:
            name = table.character(v.character_id).name
        except KeyError:
            name = v.character_id
        if v.deflected:
            what = "shielded by cover"
        elif v.damage is None:
            what = "unhurt"
        else:
            d = v.damage
            where = d.location.value.replace("_", " ")
            what = f"{d.wounds_added} wound(s) to the {where}, {d.conc_dealt} Conc"
            if d.killed:
                what += ", killed"
            elif d.unconscious:
                what += ", unconscious"
        lines.append(f"{name} ({v.distance} p): {what}")
    return lines


def assign_character(target: Character, new: Character) -> None:
    """Make ``target`` equal to ``new`` in place (views keep their reference)."""
    target.assign_from(new)


def ablate_covers(table: Table, covers: Sequence[tuple[str, int]], notes: list[str]) -> None:
    """Lower each (feature id, new AV) cover's AV on the map by one ablation (000:
    it stays lowered), with a note per feature."""
    for fid, new_av in covers:
        try:
            f = table.map.feature(fid)
        except KeyError:
            continue
        f.ablation = min(f.ablation + 1, 10)
        notes.append(f"{f.name or fid}: AV now {new_av}")


def write_blast(table: Table, blast: BlastResult, characters: dict[str, Character]) -> list[str]:
    """Write a resolved blast onto the table (inside a step): the sheets, the covers
    it ablated; returns notes for the log."""
    for cid, ch in characters.items():
        try:
            assign_character(table.character(cid), ch)
        except KeyError:
            continue
    notes: list[str] = []
    if table.edition.ablation_lowers_av:
        ablate_covers(table, blast.ablated_covers, notes)
    return notes


def scatter_landing(
    table: Table, thrower: Hex, target: Hex, hour: int, distance: int, from_thrower: bool
) -> tuple[Hex, str | None, list[Hex]]:
    """Where a scattered throw lands: (hex, id of the wall that stopped it or None,
    the hexes it passed). The geometry does the work (000 Missed Throws)."""
    res = scatter(
        table.map, table.walls(), thrower, target, hour, distance, from_thrower=from_thrower
    )
    return res.landing, res.stopped_by, list(res.path[1:])


def consume_thrown(table: Table, ch: Character, w: Weapon, index: int | None = None) -> str | None:
    """Take the thrown thing out of the thrower's kit (house: a thrown stick or knife
    has left the hand; one carried entry each — the entry ``index`` when it holds the
    weapon, else a readied one first). The token's weapon in hand goes too when no
    other of it is carried. Inside the throw's step, so undo gives it back. Returns
    the note for the log (None: nothing of it was carried)."""
    entries = [i for i, cw in enumerate(ch.weapons) if cw.weapon_id == w.id]
    if not entries:
        return None
    if index is not None and index in entries:
        idx = index
    else:
        readied = [i for i in entries if ch.weapons[i].readied]
        idx = (readied or entries)[0]
    weapons = [cw.model_copy() for cw in ch.weapons]
    weapons.pop(idx)
    ch.weapons = weapons
    tok = table.token_for(ch.id)
    if (
        tok is not None
        and tok.weapon_in_hand == w.id
        and not any(cw.weapon_id == w.id for cw in weapons)
    ):
        tok.weapon_in_hand = None
    return f"the {w.name} has left {ch.name}'s hand"


# =============================================================================
# A throw at a hex
# =============================================================================


def throwing_weapon(table: Table, token_id: str) -> Weapon:
    """The weapon the token would throw: the one in hand if it can be thrown, else the
    first carried explosive, else the first carried throwing weapon."""
    tok = table.token(token_id)
    ch = table.character(tok.character_id)
    gear = table.gear.weapons
    cands = []
    if tok.weapon_in_hand:
        cands.append(tok.weapon_in_hand)
    cands += [
        w.weapon_id
        for w in ch.weapons
        if gear.get(w.weapon_id) and gear[w.weapon_id].kind == "explosive"
    ]
    cands += [w.weapon_id for w in ch.weapons]
    for wid in cands:
        w = gear.get(wid)
        if w is not None and is_throwable(w):
            return w
    raise RulesError(f"{ch.name} carries nothing to throw.")


def throw_purpose(ch: Character, w: Weapon) -> str:
    """What the throw's own card is for, as the printed-card question names it: the
    check, and on a miss the scatter, which reads the same card's clock and step
    (000 Missed Throws)."""
    return f"{ch.name}'s throw of the {w.name} (a miss scatters by its clock and step)"


def typed_card_refusal(deck: Deck, cards: Sequence[Card], card: Card) -> str | None:
    """Why ``card``, typed in next for a throw that already read ``cards`` from the
    printed deck, cannot be used — a number already part of this throw, or a printed
    card the deck holds in play or discarded — or None when it can."""
    refusal = already_typed(cards, card, "this throw")
    if refusal:
        return refusal
    scratch = scratch_deck(deck)
    try:
        for c in (*cards, card):
            scratch.enter_physical(c)
    except RulesError as e:
        return str(e)
    return None


@dataclass
class ThrowPlan:
    """A throw at a hex before any card: who, what, where, the TN and the pool."""

    token_id: str
    thrower: Character
    weapon: Any
    origin: Hex
    target: Hex
    #: the token standing on the target hex (None: an empty hex)
    target_token: Any
    tn: Any
    pool: Any
    pool_why: list[str]
    #: what the throw puts on the track (AP v2), itemised
    spec: Any

    def label(self, table: Table, h: Hex) -> str:
        return table.hex_label(h)


def plan_throw(table: Table, token_id: str, target: Hex, weapon_id: str | None = None) -> ThrowPlan:
    """The throw before the card: the TN (000 Throwing Things: increment 10, the
    edition's maximum range), the pool and the AP. RulesError when the rules refuse
    it (the weapon not readied, the hex beyond range or off the map…)."""
    tok = table.token(token_id)
    ch = table.character(tok.character_id)
    w = table.gear.weapon(weapon_id) if weapon_id else throwing_weapon(table, token_id)
    if not table.map.contains(target):
        raise RulesError("That hex is off the map.")
    origin = tok.at
    d = origin.distance(target)
    if d == 0:
        raise RulesError(f"{ch.name} cannot throw at his own feet; pick another hex.")
    t_tok = table.encounter.token_at(target)
    t_ch = table.character(t_tok.character_id) if t_tok is not None else None
    situation = ShotSituation(range_paces=d)
    shot = ShotSpec(kind="normal", thrown=True)
    tn = ranged_tn(
        ch, w, table.edition, situation, shot, target=t_ch, options=table.encounter.options
    )
    pool, pool_why = attack_pool(ch, w)
    spec = normal_shot(w, (t_tok.id,) if t_tok else ())
    return ThrowPlan(token_id, ch, w, origin, target, t_tok, tn, pool, list(pool_why), spec)


@dataclass
class _Resolved:
    """A throw read off its cards, before anything is written."""

    hit: bool
    landing: Hex
    detail: dict
    text: str
    blast: Any = None
    hurt: dict = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def _resolve_throw(table: Table, plan: ThrowPlan, card: Card, more: CardSource) -> _Resolved:
    """Read the throw on ``card`` (``more`` deals every further card: an exceptional
    cell, the blast victims' cards, their stun checks). Changes nothing."""
    ch, w, pool, tn = plan.thrower, plan.weapon, plan.pool, plan.tn
    origin, target = plan.origin, plan.target
    label = table.hex_label
    check = check_pool(
        card, pool, tn.tn, more, [(m.label, m.value, m.source) for m in tn.result_items]
    )
    detail = {
        "thrower": [origin.q, origin.r],
        "target": [target.q, target.r],
        "weapon": w.id,
        "card": card.number,
        "tn": tn.tn,
        "result": check.result,
        "calamity": check.calamity,
        "tn_reasons": tn.reasons(),
        "pool": str(pool),
        "check": list(check.reasons),
    }
    if check.success:
        detail.update(hit=True, landing=[target.q, target.r])
        text = (
            f"{ch.name} throws the {w.name} at {label(target)}: card {card.number}, "
            f"{check.result} vs TN {tn.tn} — on target."
        )
        landing = target
    else:
        sc = scatter_throw(
            card,
            table.edition,
            tn=tn.tn,
            result=check.result,
            cf=check.calamity,
            throw_distance=origin.distance(target),
        )
        landing, stopped_by, path = scatter_landing(
            table, origin, target, sc.clock_hour, sc.distance, sc.from_thrower
        )
        detail.update(
            hit=False,
            hour=sc.clock_hour,
            distance=sc.distance,
            from_thrower=sc.from_thrower,
            landing=[landing.q, landing.r],
            stopped_by=stopped_by,
            path=[[h.q, h.r] for h in path],
            scatter_reasons=list(sc.reasons),
        )
        res = "CF" if check.calamity else str(check.result)
        text = (
            f"{ch.name} throws the {w.name} at {label(target)}: card {card.number}, {res} vs "
            f"TN {tn.tn} — misses; it scatters {sc.distance} paces toward {sc.clock_hour} o'clock "
            f"and lands at {label(landing)}"
            + (f", stopped by {stopped_by}" if stopped_by else "")
            + "."
        )
    out = _Resolved(check.success, landing, detail, text)
    if w.kind == "explosive":
        out.blast, out.hurt = explode(table, w, landing, more, more)
        out.lines = blast_lines(table, out.blast)
        detail["blast"] = out.blast.model_dump(mode="json")
        out.text += (
            " It goes off: " + ("; ".join(out.lines) if out.lines else "no one is near") + "."
        )
    return out


def check_throw_cards(
    table: Table, plan: ThrowPlan, typed: Card | None, typed_more: Sequence[Card] = ()
) -> None:
    """With a printed deck: read the throw on a copy of the deck with the cards typed
    so far. Raises :class:`~twtw_desktop.play.attack.CardNeeded` naming the next card
    still missing, RulesError for a card typed twice or already held by the printed
    deck; changes nothing. Without a printed deck (and no typed card) it does nothing."""
    if typed is None and not table.deck.physical:
        return
    if typed is None:
        raise CardNeeded(throw_purpose(plan.thrower, plan.weapon), 0)
    numbers = [typed.number]
    for c in typed_more:
        if c.number in numbers:
            raise RulesError(f"Card {c.number} was typed in twice for one throw.")
        numbers.append(c.number)
    scratch = scratch_deck(table.deck)
    _resolve_throw(
        table,
        plan,
        scratch.enter_physical(typed),
        TypedCards(typed_more, enter=scratch.enter_physical),
    )


def throw_cost_applies(table: Table) -> bool:
    """Whether a throw is paid on the action track now (AP v2 in action time; the
    Phases round takes its declared speed, 004)."""
    return table.in_action and table.time is not None and table.time.kind == "segments"


def apply_throw(
    table: Table,
    plan: ThrowPlan,
    typed: Card | None = None,
    typed_more: Sequence[Card] = (),
) -> ThrowOutcome:
    """Resolve the throw for real — call it inside one table step: pay it on the
    track, draw (or enter the typed cards), read, scatter, explode, write the wounds
    and the ablated covers, take the thrown thing out of the kit, and log it."""
    deck = table.deck
    ch, w = plan.thrower, plan.weapon
    in_play_before = {c.number for c in deck.in_play}
    if throw_cost_applies(table):
        assert table.time is not None
        table.time.pay(ch.id, plan.spec)
    printed = typed is not None or deck.physical
    if printed:
        if typed is None:
            raise RulesError(f"Type in the card drawn for {throw_purpose(ch, w)} first.")
        card = deck.enter_physical(typed)
        more: Any = TypedCards(typed_more, enter=deck.enter_physical)
    else:
        card = deck.draw()
        more = deck.draw
    try:
        r = _resolve_throw(table, plan, card, more)
    except CardNeeded as need:
        raise RulesError(f"Type in the card drawn for {need.purpose} first.") from None
    r.detail["pool_reasons"] = plan.pool_why
    if r.blast is not None:
        notes = write_blast(table, r.blast, r.hurt)
        if notes:
            r.detail["effects"] = notes
    new = [c for c in deck.in_play if c.number not in in_play_before]
    r.detail["cards"] = [c.number for c in new]
    for c in new:
        deck.discard(c)
    gone = consume_thrown(table, table.character(ch.id), w)
    if gone:
        r.detail.setdefault("effects", []).append(gone)
    table.log(r.text, "throw", r.detail)
    return ThrowOutcome(
        r.hit,
        r.landing,
        r.detail,
        r.text,
        thrower=plan.origin,
        target=plan.target,
        blast=r.blast,
        lines=r.lines,
    )


__all__ = [
    "ThrowOutcome",
    "ThrowPlan",
    "apply_throw",
    "blast_exposures",
    "blast_lines",
    "check_throw_cards",
    "consume_thrown",
    "explode",
    "plan_throw",
    "scatter_landing",
    "throw_purpose",
    "throwing_weapon",
    "typed_card_refusal",
    "write_blast",
]
