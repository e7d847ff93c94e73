"""AP v2 action time as 000 calls it, with the table doing the bookkeeping.

000 Action Timing: "When the Judge calls a segment … that player places a counter …
After all players eligible to place a counter have done so, players may declare
actions for their character … Actions are declared in ascending order of Quickness
but are performed based on simultaneous action". 000 Simultaneous Actions: "When
multiple actions occur on the same segment … Each action that will occur goes onto
the initiative stack", and The Initiative Stack: "a character's card will determine
the order in the stack they will perform their action, as well as the effects of
that action."

The table keeps, for each character, a *standing declaration* — what they will do as
soon as their counters cover it (a move, a shot, "wait until 6 counters") — or
nothing. The steps here:

* :class:`WhenAble` — the Judge acts with a character (a drag, the Attack panel's
  Declare or Draw): carried out at once when it is the segment's only action and
  nobody else may still declare; put on the segment's stack when others act or may
  still declare; otherwise kept as a standing declaration, declared on the first
  segment the counters cover it.
* :func:`as_declaration` — a direct action (a script's plain ``normal_shot``, a
  ``move``) goes through :class:`WhenAble` too whenever it would not be the segment's
  lone action: 000 Action Timing, "After all players eligible to place a counter have
  done so, players may declare actions for their character", and Simultaneous
  Actions, "Each action that will occur goes onto the initiative stack".
* :class:`PassTurn` — characters who could newly act let the segment go (one step).
* :class:`RunOn` — the table counts the segments itself: on each, counters are
  placed, standing declarations covered are declared in ascending Quickness,
  simultaneous ones go through the stack (one card flipped per character resolves
  that character's action), and it stops only where the Judge must decide: someone
  newly able with nothing declared (named; passing them is one key), a declaration
  that no longer applies, a result with choices to apply, the round's end. What a
  character answered ahead (:mod:`.standing_actions`: a standing bid for the
  stack's offer of AP, a standing pass for when next able) it carries out instead
  of stopping.
* :class:`RecoveryCheck` — a stunned character's recovery check, drawn at the table.

An action whose actor is down or stunned before it resolves does not happen; its AP
stay spent (000 Action Time: "Once spent, APs are lost, even if the action never
resolves").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from ..errors import RulesError
from ..rules.action_track import ROUND_SEGMENTS, StackEntry, Standing
from ..rules.card import Card
from ..rules.checks import check_pool
from ..rules.damage import recovery_check, stun_tn
from .actions import Action, RuledAction, Who, parse_action, register
from .attack import bumps_left, declared_shot, preview
from .combat_actions import _AttackAction
from .movement import move_continuous
from .table import AFTER_ACTION, ROUTE_ACTION, TableEvent
from .time import SegmentClock

if TYPE_CHECKING:
    from ..rules.action_track import ActionTrack
    from .table import Table

SRC_TIMING = "000 Action Timing"
SRC_SIMULTANEOUS = "000 Simultaneous Actions"
SRC_STUN = "000 Wound Effects (stun and recovery)"
SRC_BONUS = "000 Determine Bonus"


def segments(table: Table) -> bool:
    """AP v2 action time with a round running."""
    return (
        table.in_action
        and table.time is not None
        and table.time.kind == "segments"
        and table.time.round_running()
    )


def _log_events(table: Table, events: Iterable[Any], kind: str = "track") -> list[str]:
    texts = []
    for ev in events:
        if ev is None:
            continue
        detail = {
            k: v
            for k, v in ev.model_dump(mode="json", exclude={"bleeding"}).items()
            if v not in (None, [], (), {}, "") and k not in ("summary", "step")
        }
        table.log(ev.summary, kind, detail or None)
        texts.append(ev.summary)
    return texts


def sync_status(table: Table) -> list[str]:
    """Inside a step: stun and incapacity act at once on the track (000 Wound
    Effects); the log lines written."""
    if not segments(table):
        return []
    assert table.time is not None
    return _log_events(table, [table.time.sync_status(table.encounter.characters)])


def cost_of(table: Table, action: Action) -> int:
    """The AP the action costs now (the counters it needs)."""
    spec = action.spec(table)
    if spec is None:
        return 0
    if spec.all_ap:
        row = table.track.row(action.actor(table)[0].id)
        return max(1, row.counters + row.pool)
    return int(spec.ap)


def is_pass(standing: Standing) -> bool:
    """A standing pass (:class:`~.standing_actions.StandingPass`): with what stands
    before it declared, the character declares nothing more when next able."""
    return standing.act is not None and standing.act.get("do") == "pass"


def split_passes(queue: Iterable[Standing]) -> tuple[tuple[Standing, ...], tuple[Standing, ...]]:
    """A standing queue as its declarations (and waits), then its standing pass."""
    items = tuple(queue)
    return tuple(q for q in items if not is_pass(q)), tuple(q for q in items if is_pass(q))


def how(table: Table, character_id: str, ap: int) -> Literal["now", "stack", "standing"]:
    """How the Judge's action for a character goes on the track now: ``now`` (the
    segment's lone action: carried out as it is paid), ``stack`` (others act on this
    segment or may still declare: it waits for them) or ``standing`` (the counters do
    not cover it yet, the segment's actions have resolved, or the character has
    standing declarations ahead of it)."""
    t: ActionTrack = table.track
    st = t.state
    row = st.rows[character_id]
    acts, _passes = split_passes(st.standing.get(character_id, ()))
    if st.closed or st.segment == 0 or row.counters < ap or acts:
        return "standing"
    others = [c for c in t.pending_declarers() if c != character_id]
    waiting = [e for e in t.stack() if not e.performed and e.character_id != character_id]
    return "stack" if others or waiting else "now"


def why_not_declaring(table: Table, action: Action) -> str | None:
    """Why the action cannot be declared now, before any card (an attack's card is
    drawn, or typed from a printed deck, when it resolves)."""
    before_draw = getattr(action, "refusal_before_draw", None)
    return before_draw(table) if callable(before_draw) else action.why_not(table)


def why_not_when_paid(table: Table, action: Action, character_id: str, ap: int) -> str | None:
    """``action.why_not`` as it would stand once the counters cover ``ap`` (what a
    standing declaration needs, besides the AP)."""
    t: ActionTrack = table.track
    row = t.row(character_id)
    if row.counters + row.pool < ap:
        return (
            f"{row.name} can have at most {row.counters + row.pool} counter(s) this round "
            f"({row.counters} in front, {row.pool} still to place) and the action needs "
            f"{ap} ({SRC_TIMING})."
        )
    with t.supposing(character_id, ap):
        return why_not_declaring(table, action)


def _decision(table: Table, action: Action) -> str | None:
    """What the Judge must choose before a declared attack is carried out: bumps to
    spend, a printed card to type in (None: nothing, it applies as it is)."""
    if not isinstance(action, _AttackAction):
        return None
    if table.deck.physical:
        return "type in the card drawn"
    plan = action.plan(table)
    shown = preview(table, plan, action.spend_list())
    left = sum(bumps_left(r)[1] for r in shown.outcome.records)
    if left:
        return f"{left} bump(s) to spend"
    if shown.outcome.card_needed:
        return f"a card for {shown.outcome.card_needed}"
    return None


def target_gone(table: Table, action: Action) -> str | None:
    """Why an attack no longer applies because of its target: down, or off the map
    (None: the target is there, or the action has none)."""
    target = getattr(action, "target", None)
    if not isinstance(target, str):
        return None
    try:
        c, tok = table.actor(target)
    except (KeyError, RulesError):
        return f"its target {target!r} is no longer in the encounter"
    if c.out_of_action:
        return f"{c.name} is down"
    if tok is None:
        return f"{c.name} is off the map"
    return None


@contextmanager
def _in_place(table: Table, entry: StackEntry) -> Iterator[tuple[Action, str | None]]:
    """The declared action of ``entry`` read as it stands now, in its place on the
    segment (the clock's ``performing``, so its costs are the declared ones), with why
    it no longer applies (its target gone, or refused as it stands; None: it applies)."""
    clock = table.time
    assert isinstance(clock, SegmentClock) and entry.intent is not None
    action = parse_action(entry.intent)
    clock.performing = entry
    try:
        yield action, target_gone(table, action) or why_not_declaring(table, action)
    finally:
        clock.performing = None


def _waits_for(table: Table, action: Action, need: str) -> str:
    return f"{action.label(table)}: {need} (the Attack panel shows it; Apply carries it out)"


def perform(table: Table, entry: StackEntry) -> str | None:
    """Inside a step: carry out a declared action in its place — or let it not
    happen (its actor down or stunned, its target gone: the AP stay spent). Returns
    why the Judge must decide first (None: done)."""
    t: ActionTrack = table.track
    c = table.character(entry.character_id)
    if c.out_of_action or c.stunned:
        state = "stunned" if c.stunned and not c.out_of_action else "down"
        _log_events(table, [t.perform_entry(entry.seq, skipped=f"{c.name} is {state} first")])
        return None
    with _in_place(table, entry) as (action, why):
        if why:
            _log_events(table, [t.perform_entry(entry.seq, skipped=why)])
            return None
        need = _decision(table, action)
        if need:
            return _waits_for(table, action, need)
        ev = action.apply(table)
        for hook in AFTER_ACTION:
            hook(table, action, ev)
    if not any(e.seq == entry.seq and e.performed for e in t.state.entries):
        _log_events(table, [t.perform_entry(entry.seq)])
    sync_status(table)
    return None


def settle(table: Table) -> str | None:
    """Inside a step: once nobody may still declare on the segment, its declared
    actions resolve — through the initiative stack when there are two or more (a card
    flipped for each, 000 The Initiative Stack) — and are carried out in order. Returns
    why it stopped for the Judge (None: nothing left, or someone may still declare)."""
    t: ActionTrack = table.track
    if not segments(table) or t.pending_declarers() or not t.unperformed():
        return None
    if t._pending_stack():
        # 000 Determine Bonus: "each player with Quick Draw may attempt to use it … This
        # is attempted before spending AP to add to the pool" — the check costs nothing
        # and only helps, so the table makes it for them; then whoever may spend AP
        # from the pool is offered it once (a stop; the next run flips the cards)
        offer = _offer_bonus(table)
        if offer:
            return f"AP from the pool for the stack: {offer}; F6 flips the cards"
        _log_events(table, [t.resolve_stack()])
    for entry in t.unperformed():
        stop = perform(table, entry)
        if stop:
            return stop
    return None


def _offer_bonus(table: Table) -> str:
    """Inside a step, once two or more actions share the segment: the free Quick Draw
    checks, then the offer of AP from the pool to whoever may still spend them (000
    Determine Bonus), marked as made. Returns its words ("": nobody to offer)."""
    t: ActionTrack = table.track
    for entry in t.stack():
        if entry.resolved or entry.quick_draw is not None:
            continue
        if t.quick_draw_refusal(entry.character_id) == "":
            _log_events(table, [t.quick_draw_check(entry.character_id)])
    bidders = t.bonus_bidders()
    bids = t.state.bids
    answered = [(c, n) for c, n in bidders if c in bids]
    if answered:  # a standing bid answers the offer (StandingBid)
        _log_events(table, [t.offer_bonus([c for c, _ in answered])])
        for cid, room in answered:
            _answer_with_bid(table, cid, bids[cid], room)
    asked = [(c, n) for c, n in bidders if c not in bids]
    if not asked:
        return ""
    _log_events(table, [t.offer_bonus([c for c, _ in asked])])
    names = ", ".join(f"{t.row(c).name} up to {n}" for c, n in asked)
    return f"{names} (Alt+Q; 000 Determine Bonus)"


def _answer_with_bid(table: Table, character_id: str, bid: int, room: int) -> None:
    """Inside a step: the character's standing bid answers the stack's offer — that
    many AP from the pool for +1 each, or none (000 Determine Bonus: "Each AP spent
    from the pool grants the character +1"); never more than the pool and the Quick
    Draw level allow now (the log says when that is less than the bid)."""
    t: ActionTrack = table.track
    name = t.row(character_id).name
    ap = min(bid, room)
    if ap:
        _log_events(table, [t.buy_stack_bonus(character_id, ap)])
    less = f" ({bid} bid; {room} is all the pool and Quick Draw allow now)" if ap < bid else ""
    what = f"{ap} AP from the pool" if ap else "no AP"
    table.log(
        f"{name}'s standing bid answers the stack's offer: {what}{less} ({SRC_BONUS})",
        "track",
        {"bid": bid, "spent": ap},
    )


def decision_waiting(table: Table) -> str | None:
    """The declared action of this segment next in order that waits for the Judge's
    choices (None: none waits)."""
    t: ActionTrack = table.track
    if not segments(table) or t.pending_declarers() or t._pending_stack():
        return None
    for entry in t.unperformed():
        c = table.character(entry.character_id)
        if c.out_of_action or c.stunned or entry.intent is None:
            return None
        with _in_place(table, entry) as (action, why):
            need = None if why else _decision(table, action)
        return _waits_for(table, action, need) if need else None
    return None


def _settled(table: Table, texts: list[str]) -> TableEvent:
    """A step's event: its lines, then the segment settled (and why it stopped)."""
    stop = settle(table)
    return TableEvent(" · ".join([*texts, stop] if stop else texts))


def _pending_text(table: Table) -> str:
    names = [table.track.row(c).name for c in table.track.pending_declarers()]
    seg = table.track.state.segment
    return (
        f"{', '.join(names)} can act on segment {seg} with nothing declared: declare for "
        f"them, or pass ({SRC_TIMING})"
    )


class _TrackStep(RuledAction):
    """An AP v2 step of the declarations (see the module docstring): the track's own
    checks first, then the step's :meth:`refusal`."""

    page: ClassVar[str] = SRC_TIMING

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None:
            return "Not in action time: declare action time first (Ctrl+T)."
        if table.time.kind != "segments":
            return f"'{self.do}' belongs to the AP v2 action track ({self.page})."
        if not table.time.round_running():
            return "No round is running: start one first (F5)."
        table.time.update_characters(table.encounter.characters)
        return self.own_refusal(table)


@register
class WhenAble(_TrackStep):
    """The Judge acts with a character: ``then`` is carried out now when it is the
    segment's lone action, goes on the stack when others act on the segment or may
    still declare, and is otherwise kept as a standing declaration, declared on the
    first segment the counters cover it (000 Action Timing)."""

    do: Literal["when_able"] = "when_able"
    who: Who
    #: the action to take (its journal form)
    then: dict[str, Any]
    summary: ClassVar[str] = "act: now, on the segment's stack, or when the counters cover it"

    @model_validator(mode="after")
    def _then_is_an_action(self) -> WhenAble:
        inner = parse_action(self.then)  # ValueError naming what is wrong
        if isinstance(inner, _TrackStep):
            raise ValueError('"then" is the action to take, not another declaration step')
        return self

    def inner(self) -> Action:
        return parse_action(self.then)

    def label(self, table: Table) -> str:
        return self.inner().label(table)

    def cost(self, table: Table) -> Any:
        return self.inner().cost(table)

    def why_not(self, table: Table) -> str | None:
        if not segments(table):
            return self.inner().why_not(table)
        return super().why_not(table)

    def refusal(self, table: Table) -> str | None:
        inner = self.inner()
        c, _ = self.actor(table)
        if c.out_of_action or c.stunned:
            return f"{c.name} is {'stunned' if c.stunned else 'out of action'} and cannot act ({SRC_STUN})."
        try:
            ap = cost_of(table, inner)
        except RulesError as e:
            return str(e)
        mode = how(table, c.id, ap)
        if mode == "standing":
            return why_not_when_paid(table, inner, c.id, ap)
        if mode == "stack":
            return why_not_declaring(table, inner)
        return inner.why_not(table)

    def apply(self, table: Table) -> TableEvent:
        inner = self.inner()
        if not segments(table):
            ev = inner.apply(table)
            for hook in AFTER_ACTION:
                hook(table, inner, ev)
            return ev
        t: ActionTrack = table.track
        c, _ = self.actor(table)
        ap = cost_of(table, inner)
        mode = how(table, c.id, ap)
        if mode == "now":
            ev = inner.apply(table)
            for hook in AFTER_ACTION:
                hook(table, inner, ev)
            sync_status(table)
            return ev
        label = inner.label(table)
        if mode == "stack":
            spec = inner.spec(table)
            assert spec is not None
            texts = _log_events(table, [t.declare(c.id, spec, intent=inner.journal_form())])
        else:
            # a standing pass stays last: declaring nothing more comes after this
            acts, passes = split_passes(t.state.standing.get(c.id, ()))
            queue = (*acts, Standing(act=inner.journal_form(), ap=ap, label=label), *passes)
            texts = _log_events(table, [t.set_standing(c.id, queue)])
        stop = settle(table)
        if stop:
            texts.append(stop)
        elif t.pending_declarers():
            texts.append(_pending_text(table))
        return TableEvent(" · ".join(texts), {"mode": mode})


def _own_entry_waits(table: Table, character_id: str) -> bool:
    """The character has a declared action of this segment not yet carried out (a
    direct action then carries it out, or is refused by it; it is not declared again)."""
    return any(e.character_id == character_id and not e.performed for e in table.track.stack())


def as_declaration(table: Table, action: Any) -> Any:
    """The action as AP v2 action time takes it: a direct action that pays on the track
    where another character may still declare on the segment, or another's action waits
    on its stack, becomes the :class:`WhenAble` the window's drag builds — it goes on the
    segment's initiative stack and never closes the segment before the others had their
    chance (000 Action Timing: "After all players eligible to place a counter have done
    so, players may declare actions for their character"; 000 Simultaneous Actions:
    "Each action that will occur goes onto the initiative stack"). The segment's lone
    action, a step of the track itself, an action carried out in its place or one that
    uses a declaration already made, is taken as it is."""
    if not segments(table) or isinstance(action, _TrackStep) or not getattr(action, "who", None):
        return action
    clock = table.time
    if not isinstance(clock, SegmentClock) or clock.performing is not None:
        return action
    try:
        spec = action.spec(table)
        if spec is None or getattr(action, "charge_ap", True) is False:
            return action
        c, _ = action.actor(table)
        if c.out_of_action or c.stunned or _own_entry_waits(table, c.id):
            return action
        if isinstance(action, _AttackAction) and declared_shot(table, action.plan(table)):
            return action
        if how(table, c.id, cost_of(table, action)) != "stack":
            return action
        return WhenAble(who=c.id, then=action.journal_form())
    except (RulesError, ValueError, KeyError):
        return action  # its own why_not names what is wrong


if as_declaration not in ROUTE_ACTION:
    ROUTE_ACTION.append(as_declaration)


@register
class PassTurn(_TrackStep):
    """Characters who can act on this segment declare nothing and keep their counters
    (000 Action Timing); ``who`` empty: everyone who could newly act. One step."""

    do: Literal["pass"] = "pass"
    who: list[Who] = Field(default_factory=list, max_length=200)
    summary: ClassVar[str] = "declare nothing this segment (everyone newly able, or those named)"
    needs_actor: ClassVar[bool] = False

    def _ids(self, table: Table) -> list[str]:
        if self.who:
            return [table.actor(w)[0].id for w in self.who]
        return table.track.pending_declarers()

    def label(self, table: Table) -> str:
        return "Pass"

    def refusal(self, table: Table) -> str | None:
        ids = self._ids(table)
        if not ids:
            return "Nobody can newly act on this segment: there is nobody to pass."
        return table.track.refusal(lambda: table.track.pass_turn(ids))

    def apply(self, table: Table) -> TableEvent:
        return _settled(table, _log_events(table, [table.track.pass_turn(self._ids(table))]))


@register
class RunOn(_TrackStep):
    """The table counts the segments itself and stops where the Judge must decide
    (see the module docstring). ``passing``: who lets the current segment go first
    (the names the last stop gave: one key passes them all)."""

    do: Literal["run_on"] = "run_on"
    passing: list[Who] = Field(default_factory=list, max_length=200)
    summary: ClassVar[str] = "count segments; declare and resolve; stop where the Judge decides"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Run on" if not self.passing else "Pass and run on"

    def refusal(self, table: Table) -> str | None:
        t: ActionTrack = table.track
        if self.passing:
            ids = [table.actor(w)[0].id for w in self.passing]
            return t.refusal(lambda: t.pass_turn(ids))
        if t.pending_declarers():
            return _pending_text(table)
        waiting = decision_waiting(table)
        if waiting:
            return waiting
        if not t.unperformed() and not t._pending_stack():
            if t.round_over:
                return f"Round {t.state.round} has run its segments: end it (F9)."
            why = t.refusal(lambda: t.advance_segment())
            if why:
                return f"{why} (F9 ends the round)"
        return None

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return None

    def apply(self, table: Table) -> TableEvent:
        t: ActionTrack = table.track
        assert table.time is not None
        texts: list[str] = []
        if self.passing:
            ids = [table.actor(w)[0].id for w in self.passing]
            texts += _log_events(table, [t.pass_turn(ids)])
        first = t.state.segment
        stop = None
        for _ in range(3 * ROUND_SEGMENTS + 10):  # a round and a short overtime
            if t.pending_declarers():
                stop = _pending_text(table)
                break
            stop = settle(table)
            if stop:
                break
            if t.round_over:
                stop = f"round {t.state.round} has run its segments: F9 ends it"
                break
            why = t.refusal(lambda: t.advance_segment())
            if why:
                stop = why
                break
            ev = t.advance_segment()
            _log_events(table, [ev])
            moved = move_continuous(table, [ev])
            for line in moved:
                table.log(line, "move")
            sync_status(table)
            stop = self._declare_standing(table)
            if stop:
                break
        else:
            stop = "counted as far as a round goes"
        last = t.state.segment
        span = f"segment {last}" if first + 1 >= last else f"segments {first + 1}–{last}"
        text = f"Ran {span}: stopped because {stop}" if last != first else f"Stopped: {stop}"
        table.log(text, "track", {"stop": stop})
        texts.append(text)
        return TableEvent(" · ".join(texts), {"segments": [first, last], "stop": stop})

    @staticmethod
    def _declare_standing(table: Table) -> str | None:
        """Declare, in ascending Quickness, every standing declaration the counters
        now cover (000 Action Timing); a declaration that no longer applies is
        dropped and stops the run, saying why."""
        t: ActionTrack = table.track
        for cid in t.declaration_order():
            queue = t.state.standing.get(cid, ())
            if not queue:
                continue
            row = t.row(cid)
            while queue and queue[0].act is None:  # waiting for a number of counters
                wait = queue[0].wait_until
                if wait is not None and row.counters < wait:
                    break
                queue = queue[1:]
                _log_events(table, [t.set_standing(cid, queue, offer=True)])
            if not queue or queue[0].act is None:
                continue
            head, rest = queue[0], queue[1:]
            assert head.act is not None
            if is_pass(head):
                _standing_pass(table, cid, rest)
                continue
            action = parse_action(head.act)
            try:
                ap = cost_of(table, action)
                why = target_gone(table, action)
                if why is None and row.counters >= ap:
                    why = why_not_declaring(table, action)
            except RulesError as e:
                why = str(e)
            if why:
                # the plan it belonged to is broken: its standing pass goes with it, and
                # the character is offered the segment anew
                _log_events(table, [t.set_standing(cid, split_passes(rest)[0], offer=True)])
                return (
                    f"{row.name}'s declaration ({head.label}) no longer applies: {why} — "
                    "it is dropped"
                )
            if row.counters < ap:
                continue
            spec = action.spec(table)
            assert spec is not None
            _log_events(table, [t.declare(cid, spec, intent=head.act)])
            _log_events(table, [t.set_standing(cid, rest)])
        return None


def _standing_pass(table: Table, character_id: str, rest: tuple[Standing, ...]) -> None:
    """Inside a step: a standing pass at the head of the character's queue. Once
    counters are in front of them again (able, with nothing else declared) they let
    the segment go as :class:`PassTurn` does, and keep their counters (000 Action
    Timing: "players may declare actions" — declaring nothing is theirs to choose);
    until then it waits."""
    t: ActionTrack = table.track
    row = t.row(character_id)
    if row.counters <= 0:
        return
    _log_events(table, [t.set_standing(character_id, rest)])
    if not row.offered:
        _log_events(table, [t.pass_turn([character_id])])


@register
class ClearStanding(_TrackStep):
    """Drop a character's standing declarations: they have nothing declared."""

    do: Literal["clear_standing"] = "clear_standing"
    who: Who
    summary: ClassVar[str] = "drop a character's standing declarations"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: nothing declared"

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if not table.track.state.standing.get(c.id):
            return f"{c.name} has no standing declaration."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        texts = _log_events(table, [table.track.set_standing(c.id, (), offer=True)])
        return TableEvent(" · ".join(texts))


@register
class WaitUntil(_TrackStep):
    """Hold a character until ``counters`` are in front of them (a standing
    declaration): the run stops for them then."""

    do: Literal["wait_until"] = "wait_until"
    who: Who
    counters: Annotated[int, Field(ge=1, le=40)]
    summary: ClassVar[str] = "a standing declaration: wait until N counters"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: wait until {self.counters} counters"

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        row = table.track.row(c.id)
        if row.counters + row.pool < self.counters:
            return (
                f"{c.name} can have at most {row.counters + row.pool} counter(s) this round "
                f"({SRC_TIMING})."
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        t: ActionTrack = table.track
        queue = (
            *t.state.standing.get(c.id, ()),
            Standing(wait_until=self.counters, label=f"wait until {self.counters} counters"),
        )
        return _settled(table, _log_events(table, [t.set_standing(c.id, queue)]))


@register
class RecoveryCheck(Action):
    """A stunned character's recovery check (000 Wound Effects: "Each round, stunned
    characters use their action (Recover, all APs) to attempt a recovery check";
    001 Recovery: the TN is the stun TN of the highest wound). Fortitude on a card
    drawn through the table (or ``card``, typed in from a printed deck)."""

    do: Literal["recovery_check"] = "recovery_check"
    who: Who
    card: Card | None = None
    page: ClassVar[str] = SRC_STUN
    summary: ClassVar[str] = "a stunned character's recovery check (Fortitude, the stun TN)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: recovery check"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if c.dead or c.unconscious:
            return f"{c.name} is {'dead' if c.dead else 'unconscious'}: no recovery check."
        if not c.stunned:
            return f"{c.name} is not stunned: there is nothing to recover from ({SRC_STUN})."
        if table.deck.physical and self.card is None:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        deck = table.deck
        card = deck.enter_physical(self.card) if self.card is not None else deck.draw()
        more = None if deck.physical else deck.draw
        tn, _why = stun_tn(c, table.edition)
        check = check_pool(card, c.trait_pool("fortitude"), tn, more)
        new, result = recovery_check(c, table.edition, check.result, check.calamity)
        drawn = (card.number, *(check.read.cards_drawn if check.read is not None else ()))
        for n in drawn:
            deck.discard(n)
        table.character(c.id).stunned = new.stunned
        table.character(c.id).unconscious = new.unconscious
        verdict = (
            "no longer stunned"
            if result.success
            else ("unconscious (a calamity)" if new.unconscious else "still stunned")
        )
        text = f"{c.name}'s recovery check: {verdict}"
        table.log(
            text,
            "check",
            {"cards": list(drawn), "reasons": [*check.reasons, *result.reasons]},
        )
        return TableEvent(text, result.model_dump(mode="json"), drawn)


def due_recovery(table: Table) -> list[str]:
    """Characters whose recovery check is due now: stunned, not down, and no check
    made this round yet (000: one a round, with the round's action)."""
    if not table.in_action:
        return []
    rnd, _seg = table.now()
    made = {
        entry.text.split("'s recovery check")[0]
        for entry in table.encounter.log
        if entry.round == rnd and entry.kind == "check" and "'s recovery check" in entry.text
    }
    return [
        c.id
        for c in table.encounter.characters
        if c.stunned and not c.out_of_action and c.name not in made
    ]


__all__ = [
    "ClearStanding",
    "PassTurn",
    "RecoveryCheck",
    "RunOn",
    "WaitUntil",
    "WhenAble",
    "as_declaration",
    "due_recovery",
    "how",
    "perform",
    "settle",
    "sync_status",
]
