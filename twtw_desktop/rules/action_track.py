"""The AP v2 action track: 20 segments a round, AP counters, the initiative stack
(000 "Action Time" through "Skills During Action Time"), and surprise (001).

How a round runs here:

1. :meth:`ActionTrack.start_round` — the initiative step. Each active character draws
   one card for an Easy (3) Quickness test and gets the segment of their first
   counter: their IN, one segment earlier per bump (never before 1); one later on a
   failure; the card's step + 1 later on a calamity (000 "The Initiative Test").
   The round's AP is AP − the wound penalty (edition table) − AP borrowed from this
   round during the last one.
2. :meth:`ActionTrack.advance_segment` — the Judge counts the next segment; every
   character whose first segment has come and who still has AP to place puts one
   counter on the track (000 "Action Timing"). Continuous movers move first.
3. :meth:`ActionTrack.declare` — pay for an action by removing *all* counters present
   (the excess is lost); an action dearer than the counters present is refused and
   nothing is removed. Declarations go in ascending Quickness
   (:meth:`ActionTrack.declaration_order`). Skills of 4 or 8 AP may be paid over
   several rounds and resolve when the last AP is paid (000 "Skills During Action
   Time").
4. The initiative stack (000 "Simultaneous Actions", "The Initiative Stack"): every
   action resolving on one segment is on the stack. Bonuses are set
   (:meth:`set_stack_modifiers`, :meth:`quick_draw_check`, :meth:`buy_stack_bonus`),
   then :meth:`resolve_stack` flips one resolution card per action and orders them by
   fragment + bonus, highest first.
5. The round ends after segment 20 or once everybody has spent every AP
   (:attr:`round_over`, :meth:`end_round`).

Surprise, continuous movers, bleeding and the undo plumbing are shared with the
Phases edition and live in :mod:`twtw_desktop.rules.timecommon` (re-exported here).
The track's values and pure helpers are in :mod:`.track_models` (re-exported here);
its reading side in :mod:`.track_base`; declaring in :mod:`.track_declare`; the
initiative stack in :mod:`.track_stack`. This module holds the round's steps.

Decisions where 000 is vague (resources/manual/rules-decisions.md lists these):

* **Joining the stack** (:meth:`join_stack`): 000 lets "any character" put an action
  onto a segment's stack for 1 AP from the pool, borrowed from next round when the
  pool is empty. Read here as the way to *react* once a segment's declarations are
  known: only possible when another character's action already waits on this
  segment's stack.
* **Pool**: the AP of the round not yet placed on the track as counters. Counters
  lost to overpaying are not in it (000 "Determine Bonus").
* **Stack ties**: after fragment + bonus, the higher card number goes first (000 says
  only "broken by the Number on the card"); then the earlier declaration.
* **Stack bonus modifiers** from gear, wounds and the environment have no numbers in
  000; the Judge enters them (:meth:`set_stack_modifiers`).
* **Quick Draw check pool**: the sheet's ``quick_draw`` skill if it has one, else the
  Quick Draw level in dice of the Quickness die.
* **After segment 20** (000 "Ending the Round"): characters who still have counters in
  front of them keep placing counters (one a segment, 21, 22, …) until they declare
  one last action or run out of AP; nobody else acts and nothing more is declared
  after that. Continuous movers do not move past segment 20.
* **Rushing** (optional, 000 "Rushing Actions"): the AP taken from the pool is the
  rush amount and also adds that much to the action's place in the stack; the rush
  tax (the resolution card's step) comes from the pool, then from next round.
* **Resolution cards** stay in play after :meth:`resolve_stack` so the combat model can
  read them; the track discards any still in play when it moves to the next segment or
  ends the round. Initiative, Quick Draw, Bravery and surprise cards are discarded at
  once.
* **Debts**: AP borrowed from the next round are paid by reducing that round's AP even
  if the character then spends it stunned or surprised.
* **Surprise** (001/003 "Surprise"): TN 5 when the character expects danger or action
  time is already under way (001's words), else 9. A surprised character cannot act
  that round (surprised mid-round: the rest of it) and must pass an Easy (3) Bravery
  check at the next initiative step; failing keeps them surprised for that round too.
* **Stunned** characters get no counters and spend the round on Recover; the recovery
  check itself belongs to the damage model.
* **Continuous movers** without a Quickness (a runaway wagon, a train) move before
  every character, as 002 does for automated movement.
* **Declaration order** is given by :meth:`ActionTrack.declaration_order` (ties of the
  same Quickness pool alphabetical by name) for the UI to prompt in; the track does
  not refuse a declaration out of that order, since anyone may simply pass.
* **Event cards**: an event's ``cards`` lists every card read for the step, typed-in
  and scripted ones included.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from ..errors import RulesError
from .card import Card
from .character import Character
from .timecommon import (
    SURPRISE_BRAVERY_TN,
    SURPRISE_EXPECTING_TN,
    SURPRISE_UNEXPECTING_TN,
    BleedRecord,
    RowStatus,
    SurpriseResult,
    UndoableEngine,
    split_evenly,
    surprise_check,
)
from .track_declare import TrackDeclarations
from .track_models import (
    INITIATIVE_TN,
    QUICK_DRAW_TN,
    ROUND_SEGMENTS,
    SOURCE_CONTINUOUS,
    SOURCE_END,
    SOURCE_SIMULTANEOUS,
    SOURCE_SKILLS,
    SOURCE_TIMING,
    STACK_ENTRY_AP,
    BonusItem,
    ContinuousMove,
    Mover,
    QuickDrawRoll,
    SkillProgress,
    StackEntry,
    StackPlace,
    Standing,
    TrackEvent,
    TrackRow,
    TrackStage,
    TrackState,
    continuous_schedule,
    initiative_segment,
    quickness_key,
)
from .track_stack import TrackStack

# =============================================================================
# The track
# =============================================================================


class ActionTrack(TrackDeclarations, TrackStack):
    """The AP v2 action track for one encounter (see the module docstring).

    ``characters`` are read, never changed; the track keeps its own row per
    character id. Pass ``state`` to reopen a saved encounter where it was.

    The reading side is :class:`~.track_base.TrackBase`, declaring
    :class:`~.track_declare.TrackDeclarations`, the initiative stack
    :class:`~.track_stack.TrackStack`; the round's steps live here.
    """

    def start_round(self, cards: Mapping[str, Card] | None = None) -> TrackEvent:
        """The initiative step of the next round (000 "Initiative").

        ``cards`` maps a character id to the card to read for them (a printed card
        typed in, or a scripted one); everyone else draws from the deck.
        """
        return self._run(lambda: self._start_round(dict(cards or {})))

    def _start_round(self, cards: dict[str, Card]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError(f"Round {st.round} is still running; end it before starting the next.")
        unknown = sorted(set(cards) - set(self._chars))
        if unknown:
            raise RulesError(f"There is no character {unknown[0]!r} in this encounter.")
        round_no = st.round + 1
        rows: dict[str, TrackRow] = {}
        details: list[str] = []
        drawn: list[int] = []
        for c in self._chars.values():
            old = st.rows.get(c.id)
            row = self._fresh_row(c, old)
            ap = row.round_ap
            row, line, nums = self._round_status(row, c, cards.get(c.id))
            if nums:  # the Bravery check read the card given for this character
                drawn += nums
                cards.pop(c.id, None)
            if line:
                details.append(line)
            if row.status == RowStatus.WAITING:
                row, seg, nums = self._draw_initiative(row, c, cards.get(c.id))
                drawn += nums
                when = f"first counter on segment {seg}" if seg <= ROUND_SEGMENTS else "no counters"
                details.append(f"{c.name}: {when}, {ap} AP this round")
            rows[c.id] = row
        new = TrackState(
            round=round_no,
            segment=0,
            stage=TrackStage.RUNNING,
            rows=rows,
            entries=(),
            movers=st.movers,
            next_seq=1,
            deck=st.deck,
            autopilot=st.autopilot,
        )
        event = self._start_event(round_no, f"Round {round_no}: initiative step", details, drawn)
        return new, event, True

    def _fresh_row(self, c: Character, old: TrackRow | None) -> TrackRow:
        """A character's row for a new round: the round's AP (less what last round
        borrowed), a skill still in progress and a surprise carried over."""
        ap, ap_reasons = self._round_ap(c, old.borrowed if old else 0)
        return TrackRow(
            character_id=c.id,
            name=c.name,
            quickness=c.traits.get("quickness"),
            round_ap=ap,
            ap_reasons=ap_reasons,
            progress=old.progress if old else None,
            surprise=old.surprise if old else "none",
        )

    def _draw_initiative(
        self, row: TrackRow, c: Character, card: Card | None, not_before: int = 1
    ) -> tuple[TrackRow, int, tuple[int, ...]]:
        """The initiative test (000 Initiative): the row made active with its first
        counter's segment (never before ``not_before``), and the cards read."""
        got, check, nums = self._check(card, c.trait_pool("quickness"), INITIATIVE_TN)
        seg, reasons = initiative_segment(c.initiative, check, got.step)
        first = max(seg, not_before)
        if first != seg:
            reasons = (*reasons, f"arrived late: not before segment {first} (house)")
        row = row.model_copy(
            update={
                "status": RowStatus.ACTIVE,
                "initiative_card": got.number,
                "initiative_result": check.result,
                "initiative_calamity": check.calamity,
                "first_segment": first,
                "initiative_reasons": (f"card {got.number}", *reasons),
            }
        )
        return row, first, nums

    def arrive(self, character_id: str, card: Card | None = None) -> TrackEvent:
        """A character who joins the fight during a round (an NPC the Judge adds) gets
        a row. House reading (000 says nothing of late arrivals): between rounds the
        row simply waits for the next initiative step; during a round they make the
        initiative test now, and their first counter comes on the segment it gives
        but never before the next one, with the round's AP as at its start."""
        return self._run(lambda: self._arrive(character_id, card))

    def _arrive(self, character_id: str, card: Card | None) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        c = self._sheet(character_id)
        if character_id in st.rows:
            raise RulesError(f"{c.name} already has a row on the action track.")
        row = self._fresh_row(c, None)
        ap = row.round_ap
        details: list[str] = []
        drawn: tuple[int, ...] = ()
        touched = False
        if st.stage == TrackStage.RUNNING:
            row, line, _nums = self._round_status(row, c, None)
            if line:
                details.append(line)
            if row.status == RowStatus.WAITING:
                row, first, drawn = self._draw_initiative(row, c, card, not_before=st.segment + 1)
                touched = True
                details.append(f"{c.name}: first counter on segment {first}, {ap} AP this round")
        else:
            row = row.model_copy(
                update={"status_reason": "joined between rounds: draws at the next round"}
            )
        event = self._event(
            "arrive",
            character_id=character_id,
            summary=f"{c.name} joins the fight",
            details=tuple(details),
            cards=drawn,
        )
        return st.model_copy(update={"rows": {**st.rows, c.id: row}}), event, touched

    def adjust_counters(self, character_id: str, delta: int, reason: str) -> TrackEvent:
        """The Judge's override: give (``delta`` > 0) or take counters in front of a
        character now, for a reason the log keeps (never below none)."""
        return self._run(lambda: self._adjust(character_id, delta, reason))

    def _adjust(
        self, character_id: str, delta: int, reason: str
    ) -> tuple[TrackState, TrackEvent, bool]:
        row = self.row(character_id)
        if self._state.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("Counters can be given or taken only while a round is running.")
        if not delta:
            raise RulesError("Give or take at least one counter.")
        new = max(0, row.counters + delta)
        verb = f"gives {row.name} {delta}" if delta > 0 else f"takes {min(-delta, row.counters)}"
        who = "" if delta > 0 else f" from {row.name}"
        return self._row_step(
            character_id,
            {"counters": new, "status": RowStatus.ACTIVE}
            if row.status == RowStatus.WAITING and new
            else {"counters": new},
            "adjust_counters",
            summary=f"The Judge {verb} counter(s){who}: {reason}",
        )

    def _round_ap(self, c: Character, debt: int) -> tuple[int, tuple[str, ...]]:
        penalty = self.edition.ap_penalty(c.wound_level)
        reasons = [f"AP {c.ap}"]
        if penalty:
            row = self.edition.wound_row(c.wound_level)
            reasons.append(
                f"wound level {c.wound_level} ({row.name if row else ''}): −{penalty} "
                f"({self.edition.name} wound table)"
            )
        if debt:
            reasons.append(f"borrowed during the last round: −{debt} ({SOURCE_SIMULTANEOUS})")
        ap = max(0, c.ap - penalty - debt)
        reasons.append(
            f"= {ap} AP this round" + (" (never below 0)" if c.ap - penalty - debt < 0 else "")
        )
        return ap, tuple(reasons)

    def advance_segment(self) -> TrackEvent:
        """Count the next segment: continuous movers move, then everyone due places one
        counter (000 "Action Timing"). After segment 20 only characters still holding
        counters go on (000 "Ending the Round")."""
        return self._run(self._advance, self._advance_inputs)

    def advance_refusal(self) -> str | None:
        """Why :meth:`advance_segment` would be refused now, or None; the step built
        to find out is the one a following :meth:`advance_segment` takes, while
        nothing it was built from has changed."""
        return self._refusal(self._advance, self._advance_inputs)

    def _advance_inputs(self) -> tuple[tuple[int, bool, bool, bool, bool], ...]:
        """What :meth:`_advance` reads of the sheets (:meth:`_synced_rows`)."""
        return tuple(
            (id(c), c.out_of_action, c.stunned, c.dead, c.unconscious) for c in self._chars.values()
        )

    def _advance(self) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        pending = self._pending_stack()
        if pending:
            names = ", ".join(st.rows[e.character_id].name for e in pending)
            raise RulesError(
                f"Resolve the initiative stack of segment {st.segment} ({names}) before moving on."
            )
        left = self.unperformed()
        if left:
            names = ", ".join(st.rows[e.character_id].name for e in left)
            raise RulesError(
                f"Carry out the actions declared on segment {st.segment} ({names}) before "
                f"moving on ({SOURCE_SIMULTANEOUS})."
            )
        if self.round_over:
            raise RulesError(f"Round {st.round} is over; end the round.")
        touched = self._discard_resolution_cards(st.segment)
        silent = [st.rows[c].name for c in self.pending_declarers()]
        rows, standing, down = self._synced_rows()
        if silent:  # the Judge called the next segment: they let this one go
            down = [
                f"{', '.join(silent)} declared nothing on segment {st.segment} ({SOURCE_TIMING})",
                *down,
            ]
        details: list[str] = []
        moves: list[ContinuousMove] = []
        placed: list[str] = []
        stage = st.stage
        seg = st.segment + 1
        entering_overtime = stage == TrackStage.RUNNING and seg > ROUND_SEGMENTS
        if entering_overtime:
            stage = TrackStage.OVERTIME
            for cid, r in rows.items():
                if r.status == RowStatus.ACTIVE and r.counters > 0:
                    rows[cid] = r.model_copy(update={"overtime": True})
            details.append(
                f"segment {ROUND_SEGMENTS} is done: only characters with counters in front of "
                f"them go on, one last action each ({SOURCE_END})"
            )
        if stage == TrackStage.OVERTIME:
            due = [
                cid
                for cid, r in rows.items()
                if r.status == RowStatus.ACTIVE and r.overtime and not r.done and r.pool > 0
            ]
            if not due and not entering_overtime:
                raise RulesError(
                    "Nobody can place another counter after segment 20; declare with the "
                    "counters on the track or end the round."
                )
        else:
            due = [
                cid
                for cid, r in rows.items()
                if r.status == RowStatus.ACTIVE
                and r.first_segment is not None
                and r.first_segment <= seg
                and r.pool > 0
            ]
            by_id = {m.mover_id: m for m in st.movers}
            for mid in self.continuous_order():
                paces = continuous_schedule(by_id[mid].paces)[seg - 1]
                moves.append(ContinuousMove(mover_id=mid, paces=paces))
                if paces:
                    details.append(f"{by_id[mid].name} moves {paces} pace(s) ({SOURCE_CONTINUOUS})")
        for cid in sorted(due, key=lambda i: self._order_key(rows[i])):
            r = rows[cid]
            rows[cid] = r.model_copy(update={"placed": r.placed + 1, "counters": r.counters + 1})
            placed.append(cid)
            details.append(f"{r.name} places a counter ({r.counters + 1} in front)")
        new = st.model_copy(
            update={
                "segment": seg,
                "stage": stage,
                "rows": rows,
                "closed": False,
                "standing": standing,
            }
        )
        details = down + details
        label = f"segment {seg}" if seg <= ROUND_SEGMENTS else f"after segment 20 ({seg})"
        event = TrackEvent(
            step="advance_segment",
            round=st.round,
            segment=seg,
            summary=f"Round {st.round}, {label}",
            details=tuple(details),
            moves=tuple(moves),
            placed=tuple(placed),
        )
        return new, event, touched

    def _synced_rows(
        self,
    ) -> tuple[dict[str, TrackRow], dict[str, tuple[Standing, ...]], list[str]]:
        """The rows with the sheets' stun and incapacity read at once (000 Wound
        Effects: a stunned character is "stunned until a successful recovery check
        is made"; the dead, unconscious and concussed take no further part): such a
        character's counters and pool are spent on Recover (stunned) or lost, and
        their standing declarations dropped. Returns rows, standing, log lines."""
        st = self._state
        rows = dict(st.rows)
        standing = dict(st.standing)
        lines: list[str] = []
        for cid, r in st.rows.items():
            c = self._chars.get(cid)
            if c is None or r.status != RowStatus.ACTIVE:
                continue
            if c.out_of_action:
                status = RowStatus.OUT
                why = "dead" if c.dead else ("unconscious" if c.unconscious else "concussed")
                reason = f"{why}: takes no further part"
            elif c.stunned:
                status = RowStatus.STUNNED
                reason = "stunned: the rest of the round goes on Recover (000 Wound Effects)"
            else:
                continue
            rest = r.counters + r.pool
            rows[cid] = r.model_copy(
                update={
                    "status": status,
                    "status_reason": reason,
                    "counters": 0,
                    "pool_spent": r.pool_spent + r.pool,
                    "lost": r.lost + rest,
                }
            )
            standing.pop(cid, None)
            lines.append(f"{r.name} is {reason}" + (f"; {rest} AP go with it" if rest else ""))
        return rows, standing, lines

    def sync_status(self) -> TrackEvent | None:
        """Read stun and incapacity off the sheets now, mid-round (see
        :meth:`_synced_rows`); None when nobody's status changes."""
        if self._state.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            return None
        _rows, _standing, lines = self._synced_rows()
        if not lines:
            return None
        return self._run(self._sync)

    def _sync(self) -> tuple[TrackState, TrackEvent, bool]:
        rows, standing, lines = self._synced_rows()
        event = self._event("sync_status", summary="; ".join(lines), details=tuple(lines))
        return self._state.model_copy(update={"rows": rows, "standing": standing}), event, False

    # -- declarations (000 Action Timing) -----------------------------------------------------

    def pass_turn(self, character_ids: list[str]) -> TrackEvent:
        """The characters let the segment go without declaring: they have had their
        chance, and keep their counters (000 Action Timing). One step for all."""
        return self._run(lambda: self._pass(list(character_ids)))

    def _pass(self, ids: list[str]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME) or st.segment == 0:
            raise RulesError("Nobody can pass: no segment has been counted this round.")
        if not ids:
            raise RulesError("Name at least one character to pass.")
        rows = dict(st.rows)
        names = []
        for cid in dict.fromkeys(ids):
            r = self.row(cid)
            if r.status != RowStatus.ACTIVE or r.counters <= 0:
                raise RulesError(
                    f"{r.name} has no counters in front of them on segment {st.segment}: "
                    "there is nothing to pass."
                )
            rows[cid] = r.model_copy(update={"offered": True})
            names.append(r.name)
        event = self._event(
            "pass",
            summary=f"Segment {st.segment}: {', '.join(names)} pass"
            + " (they keep their counters)",
            details=(f"declaring nothing now ({SOURCE_TIMING})",),
        )
        return st.model_copy(update={"rows": rows}), event, False

    def set_standing(
        self, character_id: str, queue: tuple[Standing, ...], *, offer: bool = False
    ) -> TrackEvent:
        """Replace a character's standing declarations (empty: none). ``offer``: the
        character is offered the segment anew (a wait that has ended, a declaration
        dropped), so a run stops for them if nothing else is declared."""
        return self._run(lambda: self._set_standing(character_id, tuple(queue), offer))

    def set_autopilot(self, on: bool) -> TrackEvent:
        """Put the NPCs on the autopilot for this fight, or take them off (a house
        design: the window proposes their plans by itself; no rule changes)."""

        def build() -> tuple[TrackState, TrackEvent, bool]:
            st = self._state
            if st.autopilot == on:
                raise RulesError(
                    "The NPCs are on the autopilot already."
                    if on
                    else "The NPCs are not on the autopilot."
                )
            summary = (
                "The NPCs are on the autopilot for this fight: their plans are proposed "
                "by themselves, the Judge accepts them"
                if on
                else "The NPCs are off the autopilot: the Judge plans for them"
            )
            event = self._event("autopilot", summary=summary)
            return st.model_copy(update={"autopilot": on}), event, False

        return self._run(build)

    @contextmanager
    def supposing(self, character_id: str, counters: int) -> Iterator[None]:
        """Inside: the track as if ``counters`` were in front of the character now
        on an open segment with nothing standing for them (for asking whether a
        standing declaration could be paid then); put back on leaving."""
        with self.trial():
            st = self._state
            row = self.row(character_id)
            standing = {k: v for k, v in st.standing.items() if k != character_id}
            self._state = st.model_copy(
                update={
                    "rows": {
                        **st.rows,
                        character_id: row.model_copy(
                            update={"counters": max(counters, row.counters)}
                        ),
                    },
                    "closed": False,
                    "segment": max(st.segment, 1),
                    "standing": standing,
                }
            )
            yield

    def _set_standing(
        self, character_id: str, queue: tuple[Standing, ...], offer: bool = False
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        row = self.row(character_id)
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("Standing declarations are kept only while a round is running.")
        if queue and row.status != RowStatus.ACTIVE:
            raise RulesError(f"{row.name} cannot act this round ({row.status_reason}).")
        if len(queue) > 8:
            raise RulesError(f"{row.name} has 8 standing declarations already.")
        standing = dict(st.standing)
        if queue:
            standing[character_id] = queue
        else:
            standing.pop(character_id, None)
        rows = st.rows
        if offer and row.offered:
            rows = {**rows, character_id: row.model_copy(update={"offered": False})}
        what = "; then ".join(q.label for q in queue) if queue else "nothing declared"
        event = self._event(
            "standing",
            character_id=character_id,
            summary=f"{row.name}: {what}",
            details=(f"declared when the counters cover it ({SOURCE_TIMING})",) if queue else (),
        )
        return st.model_copy(update={"standing": standing, "rows": rows}), event, False

    def perform_entry(self, seq: int, skipped: str = "") -> TrackEvent:
        """Mark a declared action as carried out — or, with ``skipped``, as one that
        never happens (its AP stay spent, 000 Action Time: "Once spent, APs are lost,
        even if the action never resolves"). The last one closes the segment."""
        return self._run(lambda: self._perform(seq, skipped))

    def _perform(self, seq: int, skipped: str) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        found = [e for e in st.entries if e.seq == seq and e.segment == st.segment]
        if not found:
            raise RulesError(f"No action {seq} was declared on segment {st.segment}.")
        entry = found[0]
        if entry.performed:
            raise RulesError("That action has already been carried out.")
        if entry.card is None and self._pending_stack():
            raise RulesError(f"Resolve the initiative stack of segment {st.segment} first.")
        entry = entry.model_copy(update={"performed": True, "skipped": skipped})
        entries = self._replace_entry(entry)
        name = st.rows[entry.character_id].name
        closed = not any(
            e.segment == st.segment and e.intent is not None and not e.performed for e in entries
        )
        summary = (
            f"{name}'s {entry.action.describe()} does not happen: {skipped}; its AP stay spent"
            if skipped
            else f"{name} carries out {entry.action.describe()}"
        )
        event = self._event("perform", character_id=entry.character_id, summary=summary)
        return (
            st.model_copy(update={"entries": entries, "closed": st.closed or closed}),
            event,
            False,
        )

    # -- the end of the round ---------------------------------------------------------------

    def end_round(self) -> TrackEvent:
        """End the round (000 "Ending the Round"): unused AP are lost; with the
        bleeding option on, every character bleeds once (the event carries the new
        sheets for the app to apply). The Judge may end a round early."""
        return self._run(self._end_round)

    def _end_round(self) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running.")
        pending = self._pending_stack()
        if pending:
            raise RulesError(f"Resolve the initiative stack of segment {st.segment} first.")
        early = not self.round_over
        touched = self._discard_resolution_cards()
        rows = dict(st.rows)
        details = []
        for cid, r in rows.items():
            if r.status != RowStatus.ACTIVE:
                continue
            unused = r.counters + r.pool
            if unused:
                details.append(f"{r.name} loses {unused} unused AP ({SOURCE_END})")
            rows[cid] = r.model_copy(
                update={"counters": 0, "lost": r.lost + unused, "pool_spent": r.pool_spent + r.pool}
            )
            if r.progress is not None:
                details.append(
                    f"{r.name} has paid {r.progress.paid} of {r.progress.action.ap} AP toward "
                    f"{r.progress.action.describe()} ({SOURCE_SKILLS})"
                )
            if r.borrowed:
                details.append(f"{r.name} owes {r.borrowed} AP to next round")
        bleeding, bleed_lines = self._bleed_all()
        details += bleed_lines
        new = st.model_copy(update={"rows": rows, "stage": TrackStage.ENDED, "ended_early": early})
        event = self._event(
            "end_round",
            summary=f"Round {st.round} ends" + (" early (the Judge's call)" if early else ""),
            details=tuple(details),
            bleeding=bleeding,
        )
        return new, event, touched

    # -- continuous movement ------------------------------------------------------------------

    def set_continuous(
        self,
        mover_id: str,
        paces: int | None,
        *,
        name: str | None = None,
        automated: bool = False,
    ) -> TrackEvent:
        """Start, change or (``paces`` None or 0) stop a continuous mover: a
        character's mount or vehicle, or an automated one (a train). The round's
        ``paces`` are spread over the 20 segments (:func:`continuous_schedule`);
        :meth:`advance_segment` moves them before anyone else acts (000)."""
        return self._set_continuous(mover_id, paces, name, automated)


__all__ = [
    "INITIATIVE_TN",
    "QUICK_DRAW_TN",
    "ROUND_SEGMENTS",
    "STACK_ENTRY_AP",
    "SURPRISE_BRAVERY_TN",
    "SURPRISE_EXPECTING_TN",
    "SURPRISE_UNEXPECTING_TN",
    "ActionTrack",
    "BleedRecord",
    "BonusItem",
    "ContinuousMove",
    "Mover",
    "QuickDrawRoll",
    "RowStatus",
    "SkillProgress",
    "StackEntry",
    "StackPlace",
    "Standing",
    "SurpriseResult",
    "TrackEvent",
    "TrackRow",
    "TrackStage",
    "TrackState",
    "UndoableEngine",
    "continuous_schedule",
    "initiative_segment",
    "quickness_key",
    "split_evenly",
    "surprise_check",
]
