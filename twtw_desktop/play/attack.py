"""The attack flow behind the attack panel: plan, preview, apply.

* :func:`plan_attack` — the attack before any card: the situation read off the map
  (range, cover line, visibility, relative speed, firer movement, unintended-target
  candidates, the defender's dodge front), the TN with every modifier, the AP cost
  (the defender's block or dodge itemised apart) and the action it declares. A fan
  firing series plans every shot: its target, its TN with its downgrades.
* :func:`preview` — draw the card on a *copy* of the deck and resolve with the
  Judge's bump spends. Nothing in the table changes, so the Judge can try spends
  freely; the real deck will deal the same cards because it is in the same state.
* :func:`write_attack` — inside one table step (the attack actions' ``apply`` in
  :mod:`.combat_actions`): draw for real, resolve, write wounds / Conc / stun to
  every sheet the resolution touched (targets, everyone in a blast, the attacker
  whose holstered gun went off), fire the shooter's weapon, lower ablated covers'
  AV on the map, spend the AP on the track (action time) and log one summary line
  per shot with the whole record as its detail. The table's undo puts the cards
  back.

The flow lives in parts, its names kept importable from here: the request and plan
values in :mod:`.attack_request`, planning in :mod:`.attack_plan` (a blow) and
:mod:`.attack_ranged` (a shot or a throw), resolving against a card in
:mod:`.attack_resolve`; this module keeps the preview, the write and the choices the
panel offers (weapons, the nearest foe, a declared shot, the card to read).

Decisions (the pages leave these to the table):

* The default target is the nearest token of another side the shooter can see, so a
  routine shot needs no target click at all; the Judge can pick another on the map.
* Unintended-target candidates are the other tokens within one pace of the line of
  fire (000 Ancillary Effects: "within one meter of the firing path"), nearest to the
  shooter first (the geometry's corridor when it is there).
* A shot already declared on the track this round (through the track panel) is
  used instead of paying again; the log line keeps which declaration it used, so
  the next attack does not use it twice (and undo gives it back).
* A defender's block or dodge is charged to the defender's counters on the track;
  when the track refuses (too few counters) the attack still resolves and the log
  says the defence was not paid for — the Judge decides (000 says "don't forget to
  pay the AP").
* A block is made with the defender's readied hand-to-hand weapon if there is one,
  else bare-handed; the block card is drawn only when the attack would hit (000:
  the test is against the attack's result).
* A fan-firing series at two targets fires the shots at the first target, then at
  the second (one target switch).
* Phases fan (003 Secondary Targets): the targets a bump may add after the draw are
  the other tokens within one pace of the first target or of the line of fire (the
  page sends the reader to the unintended-target rule, and its example asks whether
  the two targets stand within a meter of each other).
* With a printed deck (physical-card mode) a block's test card is typed in like the
  attack's; until it is, the block stays open and Apply is refused.
* A dodge covers every attack from its front for the rest of the round (000: it
  works against all attacks from a direction), so its 3 AP are charged once a round;
  a fighter who dodged makes no attack that round (000: active defence).
* The dodge is read as a hand-to-hand defence (it sits in 000's Hand to Hand Combat
  section beside the block); the ``dodge_vs_ranged`` switch lets it downgrade shots
  and throws from the same 120° front too (see
  :func:`~twtw_desktop.rules.combat.melee.dodge_allowed`). A shot is never blocked.
* With a printed deck every further card the resolution needs (a stun check, each
  fan shot's hit location after the first, an exceptional cell or increased effect
  reading on, the card-hacking draws, a blast's victims) is typed in, asked for one
  at a time and named (:class:`TypedCards`); until it is, the preview is
  provisional and Apply is refused. The cards are read in the order drawn, as the
  generated deck deals them.
* A burst weapon may send some of its hits to a second target (000 Hitting
  Multiple Targets): the Judge names the target and the hits before the draw; the
  card decides how many can go (a second success in the pool, at least one hit kept
  on the first target). The second target's hits read the standard location of a
  card of their own, each further hit a damage bump
  (:func:`~twtw_desktop.rules.combat.resolve.resolve_spread_hits`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..model.encounter import Token
from ..rules.actions import SHOT_KINDS, ActionKind, ActionSpec
from ..rules.base import EFFECT_ROWS, Effect, Speed
from ..rules.card import Card
from ..rules.character import CarriedWeapon, Character
from ..rules.combat.ancillary import after_failure
from ..rules.combat.records import AttackRecord
from ..rules.combat.resolve import after_shot
from ..rules.combat.thrown import is_throwable
from ..rules.deck import read_pool
from ..rules.gear import Weapon
from .attack_plan import plan_attack
from .attack_request import (
    AttackPlan,
    AttackRequest,
    CalledKey,
    Defense,
    Geometry,
    Mode,
    _action_spec,
    attacked_this_round,
    blocking_declared,
    display_name,
    dodging_this_round,
    out_of_sight,
    the_fight,
)
from .attack_resolve import Outcome, Spends, resolve
from .bonus_actions import spend_counter_on
from .cards import CardNeeded, TypedCards, scratch_deck
from .throw import ablate_covers, assign_character, blast_lines, consume_thrown

if TYPE_CHECKING:
    from .table import Table

#: the attack flow's names, with those that live in its parts (kept importable from here)
__all__ = [
    "AttackPlan",
    "AttackRequest",
    "CalledKey",
    "CardNeeded",
    "Defense",
    "Geometry",
    "Mode",
    "Outcome",
    "Preview",
    "Spends",
    "attack_label",
    "attacked_this_round",
    "blocking_declared",
    "bumps_left",
    "checked_shots",
    "cock_first_needed",
    "declared_shot",
    "default_weapon_index",
    "display_name",
    "dodging_this_round",
    "fan_secondary_choices",
    "highlights_for",
    "named_summary",
    "nearest_enemy",
    "out_of_sight",
    "plan_attack",
    "preview",
    "resolution_card",
    "rushed_refusal",
    "stack_card",
    "stack_turn_refusal",
    "the_fight",
    "track_refusal",
    "usable_weapons",
    "write_attack",
]


@dataclass
class Preview:
    """A resolution seen on a copy of the deck, with what to highlight on the card."""

    card: Card
    outcome: Outcome
    cause_cells: list[tuple[int, int]]
    chosen: tuple[int, int] | None
    effect_cell: tuple[int, int] | None
    hit_index: int | None
    sections: set[str]
    burst: int | None

    @property
    def record(self) -> AttackRecord:
        return self.outcome.records[0]

    @property
    def records(self) -> list[AttackRecord]:
        return self.outcome.records

    @property
    def new_target(self) -> Character | None:
        return self.outcome.characters.get(self.record.target_id)


def usable_weapons(table: Table, shooter: Character, mode: Mode) -> list[tuple[int, Weapon]]:
    """The shooter's carried weapons that fit the mode, as (carried index, weapon)."""
    out = []
    for i, cw in enumerate(shooter.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None:
            continue
        if (
            (mode == "ranged" and w.is_ranged)
            or (mode == "thrown" and is_throwable(w))
            or (mode == "melee" and (w.is_melee or "improvised" in w.attributes))
        ):
            out.append((i, w))
    return out


def default_weapon_index(
    table: Table, shooter: Character, token: Token | None, mode: Mode
) -> int | None:
    """The weapon in hand if it fits, else a readied, loaded and cocked one, else the first."""
    usable = usable_weapons(table, shooter, mode)
    if not usable:
        return None
    if token is not None and token.weapon_in_hand:
        for i, w in usable:
            if w.id == token.weapon_in_hand:
                return i

    def score(item: tuple[int, Weapon]) -> tuple[int, int, int, int]:
        i, w = item
        cw = shooter.weapons[i]
        ready = cw.readied
        loaded = cw.loaded > 0 or not w.is_ranged
        cocked = cw.cocked or not w.needs_cocking
        return (-int(ready), -int(loaded), -int(cocked), i)

    return sorted(usable, key=score)[0][0]


def nearest_enemy(
    table: Table, shooter_token: Token, geometry: Geometry | None = None
) -> str | None:
    """The closest token of another side in sight, else the closest out of sight
    (the target list says why: :func:`out_of_sight`)."""
    try:
        me = table.character(shooter_token.character_id)
    except KeyError:
        return None
    best: list[tuple[int, int, str]] = []
    for t in table.encounter.tokens:
        if t.id == shooter_token.id:
            continue
        try:
            c = table.character(t.character_id)
        except KeyError:
            continue
        if c.side == me.side or c.out_of_action:
            continue
        hidden = 1 if out_of_sight(shooter_token, t, geometry) else 0
        best.append((hidden, shooter_token.at.distance(t.at), t.id))
    best.sort()
    return best[0][2] if best else None


def bumps_left(record: AttackRecord) -> tuple[int, int]:
    """The standard bumps a hit earned and how many the spends leave (000 Bumps)."""
    total = record.hit.bumps
    sp = record.spends
    used = 0
    if sp is not None:
        used = (
            sp.hit_location
            + sp.penetration
            + sp.damage
            + sp.stray
            + sp.extra_hits
            + sp.secondary_targets
            + sp.dominance
        )
    return total, max(total - used, 0)


def checked_shots(plan: AttackPlan, records: int) -> int:
    """How many of a resolution's ``records`` are checked shots that take bump
    spends of their own: a Phases fan's secondary targets, a burst's second
    target and the unintended targets of stray shots take hits bought or sent on,
    with no bumps of their own."""
    return min(records, max(len(plan.series), 1))


def fan_secondary_choices(plan: AttackPlan) -> list[tuple[str, list[str]]]:
    """What a Phases fan's bump may buy after the draw (003 Secondary Targets): none,
    one of the candidates, or — with three shots or more — two of them."""
    if plan.fan is None or plan.fan.mode != "burst3":
        return []
    ids = list(plan.fan_secondary)
    names = {t: c.name for t, (c, _s) in plan.fan_secondary.items()}
    out: list[tuple[str, list[str]]] = [("— none —", [])]
    out += [(names[t], [t]) for t in ids]
    if plan.fan.shots >= 3:
        out += [
            (f"{names[a]} + {names[b]}", [a, b]) for i, a in enumerate(ids) for b in ids[i + 1 :]
        ]
    return out


def cock_first_needed(weapon: Weapon, carried: CarriedWeapon) -> bool:
    """Whether a shot with the gun must cock it first (a single-action gun not
    cocked, 000 Cocking and Readying)."""
    return weapon.needs_cocking and not carried.cocked


def highlights_for(plan: AttackPlan, card: Card, record: AttackRecord) -> dict[str, Any]:
    """Which cells of the card the resolution read."""
    pool = plan.pool
    cells = [(r, pool.die) for r in range(1, pool.count + 1)]
    read = read_pool(card, pool)
    chosen = None
    if not read.is_cf and read.cells:
        rank = max(0, record.hit.rank - 1)
        if rank < len(read.cells):
            chosen = (read.cells[rank].row, pool.die)
    elif read.is_cf:
        cf_rows = [c.row for c in read.cells if c.total is None]
        chosen = (cf_rows[0], pool.die) if cf_rows else None
    effect_cell = None
    if record.effect is not None and record.effect.source in ("DMG", "RD"):
        eff = Effect.model_validate(record.effect.effect)
        effect_cell = (max(1, min(EFFECT_ROWS, eff.row + record.effect.row_bumps)), eff.die)
    sections: set[str] = set()
    if record.covers:
        sections.add("shield")
    if record.strays is not None and record.strays.stray_shots:
        sections.add("figures")
    if record.equipment_failure is not None and record.equipment_failure.wrench is not None:
        sections.add("wrench")
    if record.scatter is not None:
        sections |= {"clock", "step"}
    if record.damage is not None and record.damage.toggle_read is not None:
        sections.add("toggle")
    return {
        "cause_cells": cells,
        "chosen": chosen,
        "effect_cell": effect_cell,
        "hit_index": record.location.stack_index if record.location is not None else None,
        "sections": sections,
        "burst": record.burst if record.burst else None,
    }


def preview(
    table: Table,
    plan: AttackPlan,
    spends: Spends | Sequence[Spends],
    typed: Card | None = None,
    shot: int = 0,
    typed_block: Card | None = None,
    typed_more: Sequence[Card] = (),
    held: Card | None = None,
) -> Preview:
    """Read the attack's card and resolve; the card
    highlights follow shot ``shot`` of a series. ``typed_block`` is the card typed
    in for the defender's block and ``typed_more`` the further cards typed in, in
    the order drawn (physical-card mode). When the resolution needs a card not yet
    typed in, the outcome's ``card_needed`` says what for and the records shown are
    provisional (read as if no further card could be drawn). The card read is
    :func:`resolution_card`'s; only when there is none (no stack card, no card held
    or typed) is it drawn on a copy of the deck — the window never does that: its
    Draw commits the card first (:class:`~twtw_desktop.play.combat_actions.AttackCard`)."""
    deck = table.deck
    discard = deck.discard_pile()
    first = resolution_card(table, plan, typed, held)
    typed_path = deck.physical or (first is not None and first is typed)
    if first is not None and not typed_path:
        scratch = scratch_deck(deck)
        card = first
        out = resolve(table, plan, card, spends, scratch.draw, discard, typed_block)
    elif typed_path:
        if first is None:
            raise RulesError("The deck is in physical-card mode: type in the card drawn.")
        card = first
        numbers = [card.number] + ([typed_block.number] if typed_block is not None else [])
        for c in typed_more:
            if c.number in numbers:
                raise RulesError(f"Card {c.number} was typed in twice for one attack.")
            numbers.append(c.number)
        source = TypedCards(typed_more)
        try:
            out = resolve(table, plan, card, spends, source, discard, typed_block)
            out.typed_used = source.used
        except CardNeeded as need:
            out = resolve(table, plan, card, spends, None, discard, typed_block)
            out.card_needed = need.purpose
            out.typed_used = need.index
    else:
        scratch = scratch_deck(deck)
        card = scratch.draw()
        out = resolve(table, plan, card, spends, scratch.draw, discard, typed_block)
    rec = out.records[min(max(shot, 0), len(out.records) - 1)]
    return Preview(card=card, outcome=out, **highlights_for(plan, card, rec))


def _charge_defense(table: Table, plan: AttackPlan) -> str | None:
    """Charge the defender's block or dodge on the track; a note for the log."""
    req = plan.request
    if plan.defender_ap is None or req.defense is None:
        return None
    if table.time is None or not table.in_action:
        return None
    if not req.charge_ap:
        return f"{plan.target.name}'s {req.defense}: AP not charged (the Judge's choice)"
    if req.defense == "dodge" and dodging_this_round(table, plan.target.id):
        return (
            f"{plan.target.name} is already dodging this round: no more AP "
            "(000: a dodge covers every attack from its front)"
        )
    if req.defense == "block" and blocking_declared(table, plan.target.id):
        return f"{plan.target.name}'s block was declared and paid for before the attack"
    kind = ActionKind.BLOCK if req.defense == "block" else ActionKind.DODGE
    spec = _action_spec(kind, plan.defender_ap, Speed.FAST, plan.block_weapon, [plan.shooter.id])
    try:
        return table.time.pay_reaction(plan.target.id, spec).summary
    except RulesError as e:
        return f"{plan.target.name}'s {req.defense} was not paid for: {e}"


def write_attack(
    table: Table,
    plan: AttackPlan,
    spends: Spends | Sequence[Spends],
    expected_card: int | None = None,
    typed: Card | None = None,
    typed_block: Card | None = None,
    typed_more: Sequence[Card] = (),
    held: Card | None = None,
) -> Outcome:
    """Resolve for real — call it inside one table step (the attack actions'
    ``apply``, :mod:`.combat_actions`): draw (or enter the typed cards), pay the AP,
    resolve, write wounds / Conc / stun to every sheet the resolution touched, fire
    the shooter's weapon, take a thrown thing out of the kit, lower ablated covers'
    AV and log one line per shot with the whole record as its detail.
    ``typed_block`` is the typed-in card of the defender's block and ``typed_more``
    the further cards typed in, in the order drawn (physical mode); a resolution
    that needs a card not typed in is refused (and the step changes nothing).
    ``held`` is the card the window's Draw took off the deck for this attack
    (in play until now). The card read first is :func:`resolution_card`'s."""
    deck = table.deck
    discard = deck.discard_pile()
    in_play_before = {c.number for c in deck.in_play}
    first = resolution_card(table, plan, typed, held)
    typed_path = deck.physical or (first is not None and first is typed)
    more: Any = TypedCards(typed_more, enter=deck.enter_physical) if typed_path else deck.draw
    if first is not None and first is not typed:
        card = first  # on the table already: the stack's card, or the one Draw took
        if held is not None and first is held:
            in_play_before.discard(card.number)  # read now: discarded with the others
    elif typed_path:
        if typed is None:
            raise RulesError("The deck is in physical-card mode: type in the card drawn.")
        card = deck.enter_physical(typed)
    else:
        card = deck.draw()
    if expected_card is not None and card.number != expected_card:
        raise RulesError(
            f"The deck has changed since the draw (card {card.number}, not "
            f"{expected_card}); draw again."
        )
    block_card = None
    if typed_block is not None:
        block_card = deck.enter_physical(typed_block)
    track_note, declared = _charge_track(table, plan)
    defense_note = _charge_defense(table, plan)
    try:
        out = resolve(table, plan, card, spends, more, discard, block_card)
    except CardNeeded as need:
        raise RulesError(f"Type in the card drawn for {need.purpose} first.") from None
    if out.needs_block_card:
        raise RulesError("Type in the card drawn for the block first.")
    for cid, ch in out.characters.items():
        if cid == plan.shooter.id and plan.request.skill_advantage:
            # the levels spent on advantage were for this blow only (001)
            ch = ch.model_copy(update={"skills": table.character(cid).skills})
        assign_character(table.character(cid), ch)
    if table.in_action and table.time is not None:
        # a stun or a fall acts on the track at once (000 Wound Effects)
        synced = table.time.sync_status(table.encounter.characters)
        if synced is not None:
            table.log(synced.summary, "track")
    notes: list[str] = []
    # a planned weapon always comes with its index on the sheet (plan_attack)
    if plan.mode == "ranged" and plan.weapon is not None and plan.request.weapon_index is not None:
        shooter = table.character(plan.shooter.id)
        loaded = shooter.weapons[plan.request.weapon_index].loaded
        fired = after_shot(
            shooter,
            plan.weapon,
            rounds=max(1, min(plan.rounds, loaded)),
            carried_index=plan.request.weapon_index,
        )
        idx = plan.request.weapon_index
        failed = [
            r.equipment_failure
            for r in out.records
            if r.equipment_failure is not None and r.equipment_failure.failed
        ]
        if failed and idx is not None:
            # the wrench beat the gun's Rel: it is jammed on the sheet until cleared
            fired.weapons[idx] = after_failure(fired.weapons[idx], failed[0])
            if fired.weapons[idx].failure:
                notes.append(
                    f"{shooter.name}'s {plan.weapon.name} is {fired.weapons[idx].failure} "
                    "(equipment failure): clear it before it fires again"
                )
        if plan.request.draw_first and plan.request.weapon_index is not None:
            drawn = fired.weapons[plan.request.weapon_index]  # drawn and fired in one go
            drawn.readied = True
            notes.append(f"{shooter.name} draws the {plan.weapon.name} and shoots")
        assign_character(shooter, fired)
    if plan.mode == "thrown" and plan.weapon is not None:
        gone = consume_thrown(
            table, table.character(plan.shooter.id), plan.weapon, plan.request.weapon_index
        )
        if gone:
            notes.append(gone)
    if plan.request.counter is not None:  # spent: back in the pool (002)
        notes.append(spend_counter_on(table.character(plan.shooter.id), plan.request.counter))
    if table.edition.ablation_lowers_av:
        covers: list[tuple[str, int]] = []
        for r in out.records:
            covers += list(r.ablated_covers)
            if r.blast is not None:
                covers += [c for c in r.blast.ablated_covers if c not in covers]
        ablate_covers(table, covers, notes)
    for c in list(deck.in_play):
        if c.number not in in_play_before:
            out.drawn.append(c.number)
            deck.discard(c)
    for i, record in enumerate(out.records):
        detail: dict[str, Any] = {"record": record.model_dump(mode="json")}
        if i == 0:
            detail["situation"] = list(plan.geometry)
            detail["track"] = track_note
            if declared is not None:
                detail["declared"] = list(declared)
            if defense_note:
                detail["defense"] = defense_note
            if plan.request.defense == "dodge":
                detail["dodge_by"] = plan.target.id
            if plan.request.defense == "block":
                detail["block_by"] = plan.target.id
            if notes:
                detail["effects"] = notes
            if out.landing is not None:
                detail["landing"] = [out.landing.q, out.landing.r]
        if len(out.records) > 1:
            detail["series"] = f"shot {i + 1} of {len(out.records)}"
        if record.strays is not None and record.strays.candidates_hit:
            detail["stray_candidates_hit"] = list(record.strays.candidates_hit)
        if record.blast is not None:
            detail["blast"] = blast_lines(table, record.blast)
        table.log(named_summary(table, record), "attack", detail)
    return out


def attack_label(plan: AttackPlan) -> str:
    """The undo step's name for an attack."""
    if plan.fan is not None:
        return f"{plan.shooter.name} fans {plan.fan.shots} shot(s)"
    return f"{plan.shooter.name} attacks {plan.target.name}"


def named_summary(table: Table, record: AttackRecord) -> str:
    """The record's one-line summary with names instead of ids."""
    text = record.summary()
    names = {c.id: c.name for c in table.encounter.characters}
    for t in table.encounter.tokens:
        if t.character_id in names:
            names[t.id] = names[t.character_id]
    for key in sorted(names, key=len, reverse=True):  # "token-x" before "x"
        if key in text:
            text = text.replace(key, names[key])
    if record.weapon_id:
        w = table.gear.weapons.get(record.weapon_id)
        if w is not None:
            text = text.replace(f"({record.weapon_id})", f"({w.name})")
    return text


def _declared_keys_used(table: Table) -> set[tuple[int, int, int]]:
    """The track entries (round, segment, seq) attacks of this round already used
    instead of paying again (read off the log, so undo gives them back)."""
    out: set[tuple[int, int, int]] = set()
    if not table.in_action:
        return out
    rnd, _seg = table.now()
    for entry in reversed(table.encounter.log):
        if entry.round != rnd:
            break
        key = (entry.detail or {}).get("declared") if entry.kind == "attack" else None
        if key:
            out.add((int(key[0]), int(key[1]), int(key[2])))
    return out


def declared_shot(table: Table, plan: AttackPlan) -> tuple[Any, tuple[int, int, int]] | None:
    """A shot (or blow) the shooter already declared on the AP v2 track this round
    and no attack has used yet: (its stack entry, its key), or None."""
    time = table.time
    if time is None or not table.in_action or time.kind != "segments" or plan.spec is None:
        return None
    track = time.engine
    used = _declared_keys_used(table)
    for e in track.stack():
        key = (track.round, e.segment, e.seq)
        if e.character_id != plan.shooter.id or key in used or e.performed:
            continue
        same = e.action.kind in SHOT_KINDS | {ActionKind.MELEE_ATTACK, ActionKind.OTHER}
        if same and (e.action.weapon_id in (None, plan.spec.weapon_id)):
            return e, key
    return None


def stack_card(table: Table, plan: AttackPlan) -> Card | None:
    """The card flipped for the shooter's declared action when this segment's stack
    resolved (000 Initiative Stack: a character's card "will determine the order in
    the stack they will perform their action, as well as the effects of that
    action"), or None: no declared action, an unresolved stack (a single action
    needs no flip) or AP not charged (the declaration is then not used)."""
    if not plan.request.charge_ap:
        return None
    found = declared_shot(table, plan)
    if found is None:
        return None
    e, _key = found
    return e.card if e.resolved and e.card is not None else None


def resolution_card(
    table: Table, plan: AttackPlan, typed: Card | None = None, held: Card | None = None
) -> Card | None:
    """The card that resolves the attack, when it is already known: the initiative
    stack's card (see :func:`stack_card`), else the card the window's Draw took off
    the deck (``held``, in play), else the card typed in. None: the deck deals it.
    A typed or held card that is not the stack's is refused, naming the stack's."""
    flipped = stack_card(table, plan)
    if flipped is not None:
        other = held if held is not None else typed
        if other is not None and other.number != flipped.number:
            raise RulesError(
                f"Card {flipped.number} was flipped for this action on the initiative "
                f"stack and resolves it (000 Initiative Stack), not card {other.number}."
            )
        return flipped
    if held is not None:
        if held.number not in {c.number for c in table.deck.in_play}:
            raise RulesError(
                f"Card {held.number} is not in play: it was not drawn for this attack; draw again."
            )
        return held
    return typed


def track_refusal(table: Table, plan: AttackPlan) -> str | None:
    """Why the attack's AP cannot be paid now (None: it can, it is already declared,
    or nothing is charged)."""
    if table.time is None or not table.in_action or not plan.request.charge_ap:
        return None
    if plan.spec is None:
        return None
    found = declared_shot(table, plan)
    if found is not None:
        return stack_turn_refusal(table, found[0]) or rushed_refusal(found[0], plan.spec)
    return table.time.why_not_pay(plan.shooter.id, plan.spec)


SRC_STACK_ORDER = (
    '000 The Initiative Stack: "actions are resolved in descending order on the current card"'
)
SRC_AP_LOST = '000 Action Time: "Once spent, APs are lost, even if the action never resolves"'


def stack_turn_refusal(table: Table, entry: Any) -> str | None:
    """Why a declared action cannot be carried out yet, once its segment's stack is
    flipped: its actor was downed or stunned before its place (the action is lost,
    its AP stay spent), or an action ahead of it on the stack, whose actor can still
    act, has not been carried out (None: its turn has come, or the stack is not
    flipped). The order the stack shows is the order the table takes."""
    if table.time is None:
        return None
    track = table.time.engine
    c = table.character(entry.character_id)
    if not entry.resolved and entry.segment == track.state.segment:
        others = [track.row(o).name for o in track.pending_declarers() if o != c.id]
        if others:
            return (
                f"{', '.join(others)} may still declare on segment {entry.segment}: "
                f"{c.name}'s action waits on its stack until they have (000 Action Timing: "
                '"After all players eligible to place a counter have done so, players may '
                'declare actions for their character").'
            )
        if track._pending_stack():
            return (
                f"Segment {entry.segment}'s initiative stack is not resolved yet: a card is "
                f"flipped for each action first (F8; {SRC_STACK_ORDER})."
            )
    if not entry.resolved or entry.position is None:
        return None
    if c.out_of_action or c.stunned:
        state = "stunned" if c.stunned and not c.out_of_action else "down"
        return (
            f"{c.name} is {state} before their place on the stack: "
            f"{entry.action.describe()} is lost and its AP stay spent ({SRC_AP_LOST})."
        )
    track = table.time.engine
    used = _declared_keys_used(table)
    attack_kinds = SHOT_KINDS | {ActionKind.MELEE_ATTACK}
    for e in track.stack(entry.segment):
        if e.position is None or e.position >= entry.position or e.performed:
            continue
        if e.intent is None and (
            e.action.kind not in attack_kinds or (track.round, e.segment, e.seq) in used
        ):
            continue  # nothing of it left to carry out
        first = table.character(e.character_id)
        if first.out_of_action or first.stunned:
            continue  # its action is lost: its place passes
        assert e.card is not None and entry.card is not None
        return (
            f"{first.name} goes first: place {e.position} on the stack (card {e.card.number}, "
            f"{e.card.fragment + e.bonus}) before {c.name}'s place {entry.position} (card "
            f"{entry.card.number}, {entry.card.fragment + entry.bonus}); carry out "
            f"{first.name}'s {e.action.describe()} first ({SRC_STACK_ORDER})."
        )
    return None


def rushed_refusal(entry: Any, spec: ActionSpec) -> str | None:
    """Why a rushed stack entry does not allow this shot (000 Rushing Actions): a
    rushed shot is a snap shot (1), and a fully paid rush keeps only the aims its
    counters finished (3)."""
    if entry.resolves_as_snap and spec.kind in (ActionKind.NORMAL_SHOT, ActionKind.AIMED_SHOT):
        return (
            'The shot was rushed: it is a snap shot (000 Rushing Actions 1: "any shot that is '
            'taken after a rush is always a snap shot").'
        )
    if entry.rush_kept_aims is not None and spec.aims > entry.rush_kept_aims:
        return (
            f"The rush kept {entry.rush_kept_aims} finished aim(s); the unfinished one is lost "
            "(000 Rushing Actions 3)."
        )
    return None


def _charge_track(table: Table, plan: AttackPlan) -> tuple[str, tuple[int, int, int] | None]:
    """Spend the attack's AP on the track (action time): a note for the log, and the
    key of the declared track entry used instead of paying (None: paid now)."""
    if table.time is None or not table.in_action:
        return "narrative time: no AP charged", None
    if not plan.request.charge_ap:
        return "AP not charged (the Judge's choice)", None
    found = declared_shot(table, plan)
    if found is not None:
        e, key = found
        if e.intent is not None:  # a declared action carried out in its place
            table.time.engine.perform_entry(e.seq)
        return f"already declared on segment {e.segment}: {e.action.describe()}", key
    return table.time.pay(plan.shooter.id, plan.spec).summary, None
