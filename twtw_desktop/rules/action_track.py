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

Decisions where 000 is vague (the lead lists these in the README):

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

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from ..errors import RulesError
from .actions import ActionKind, ActionSpec, single_action_tie_key, with_aims
from .base import MAX_COUNT, CardNo, Count, Id, Name, Pool, SmallInt, Strict, Text
from .card import Card
from .character import Character
from .checks import CheckResult
from .deck import DeckState
from .gear import default_gear
from .timecommon import (
    SURPRISE_BRAVERY_TN,
    SURPRISE_EXPECTING_TN,
    SURPRISE_UNEXPECTING_TN,
    BleedRecord,
    RowStatus,
    SurpriseResult,
    TimeEngine,
    UndoableEngine,
    split_evenly,
    surprise_check,
)

#: 000 Action Time: a round has 20 segments.
ROUND_SEGMENTS = 20
#: 000 The Initiative Test: an Easy (3) Quickness test.
INITIATIVE_TN = 3
#: 000 Determine Bonus: a TN 5 Quick Draw check.
QUICK_DRAW_TN = 5
#: 000 Simultaneous Actions: placing an action onto the stack costs 1 AP.
STACK_ENTRY_AP = 1

SOURCE_INITIATIVE = "000 The Initiative Test"
SOURCE_TIMING = "000 Action Timing"
SOURCE_STACK = "000 The Initiative Stack"
SOURCE_SIMULTANEOUS = "000 Simultaneous Actions"
SOURCE_END = "000 Ending the Round"
SOURCE_RUSH = "000 Rushing Actions"
SOURCE_SKILLS = "000 Skills During Action Time"
SOURCE_CONTINUOUS = "000 Continuous Action Movement"


# =============================================================================
# Pure helpers
# =============================================================================


def continuous_schedule(total_paces: int, segments: int = ROUND_SEGMENTS) -> list[int]:
    """Paces moved in each of the 20 segments by a continuous mover (000 "Continuous
    Action Movement"): the parts add up to the round's movement and the slowest
    segment is within one pace of the fastest."""
    return split_evenly(total_paces, segments)


def initiative_segment(
    initiative: int, check: CheckResult, step: int
) -> tuple[int, tuple[str, ...]]:
    """Segment of the first counter after the initiative test (000): success puts it
    at IN shifted one segment earlier per bump (never before 1); failure one later; a
    calamity the card's step plus one later."""
    if check.calamity:
        seg = initiative + step + 1
        why = f"calamity: IN {initiative} + step {step} + 1 = segment {seg}"
    elif check.success:
        seg = max(1, initiative - check.bumps)
        why = f"success with {check.bumps} bump(s): IN {initiative} − {check.bumps} = segment {seg}"
        if initiative - check.bumps < 1:
            why += " (never before segment 1)"
    else:
        seg = initiative + 1
        why = f"failure: IN {initiative} + 1 = segment {seg}"
    reasons = (*check.reasons, why + f" ({SOURCE_INITIATIVE})")
    if seg > ROUND_SEGMENTS:
        reasons = (*reasons, f"segment {seg} is past {ROUND_SEGMENTS}: no counters this round")
    return seg, reasons


def quickness_key(character: Character) -> tuple[int, int, str]:
    """Sort key for "ascending order of Quickness" (000): die type, then dice, then
    name (the page gives no further tie-break)."""
    q = character.traits.get("quickness")
    return (q.die if q else 0, q.count if q else 0, character.name)


# =============================================================================
# State
# =============================================================================


class TrackStage(StrEnum):
    IDLE = "idle"  # no round started yet
    RUNNING = "running"  # segments 0..20
    OVERTIME = "overtime"  # after segment 20 (000 Ending the Round)
    ENDED = "ended"  # between rounds


class SkillProgress(Strict):
    """AP paid so far toward a multi-round skill (000 Skills During Action Time)."""

    action: ActionSpec
    paid: Count
    started_round: Count

    @property
    def remaining(self) -> int:
        return max(0, self.action.ap - self.paid)


class Standing(Strict):
    """A standing declaration: what a character will do as soon as the counters in
    front of them cover it (000 Action Timing: an action is declared on the segment
    its counters pay for it; the table keeps the intention until then and declares
    it then, in its place among the segment's declarations). ``act`` is the table
    action (its journal form) and ``ap`` its cost when it was given; ``wait_until``
    instead holds the character until that many counters are in front of them."""

    act: dict[str, Any] | None = None
    ap: Count = 0
    label: Text = ""
    wait_until: Count | None = None


class TrackRow(Strict):
    """One character's line of the action track for the current round."""

    character_id: Id
    name: Name
    quickness: Pool | None = None
    status: RowStatus = RowStatus.WAITING
    status_reason: Text = ""
    initiative_card: CardNo | None = None
    initiative_result: SmallInt | None = None
    initiative_calamity: bool = False
    #: segment of the first counter (may be past 20: no counters this round)
    first_segment: Count | None = None
    initiative_reasons: tuple[Text, ...] = ()
    round_ap: Count = 0
    ap_reasons: tuple[Text, ...] = ()
    #: counters placed on the track this round
    placed: Count = 0
    #: counters in front of the character now
    counters: Count = 0
    #: AP paid toward actions (counters and pool)
    spent: Count = 0
    #: AP lost: counters removed beyond an action's cost, and AP unused at round end
    lost: Count = 0
    #: AP taken straight from the pool (stack entry, stack bonus, rushing, tax)
    pool_spent: Count = 0
    #: AP this round took from the next round's AP
    borrowed: Count = 0
    running: bool = False
    #: moved forgoing defence this round (001 Movement Actions)
    forgoing_defence: bool = False
    progress: SkillProgress | None = None
    #: "surprised": cannot act next initiative step; "bravery": needs the Easy check
    surprise: Literal["none", "surprised", "bravery"] = "none"
    #: still acting after segment 20, and whether that last action is declared
    overtime: bool = False
    done: bool = False
    #: has had the chance to declare (declared or passed) since counters last came
    #: in front of them (000 Action Timing: "players may declare actions")
    offered: bool = False

    @property
    def pool(self) -> int:
        """AP of the round not yet placed on the track and not spent from the pool."""
        return max(0, self.round_ap - self.placed - self.pool_spent)


class BonusItem(Strict):
    """One line of an initiative-stack bonus."""

    label: str
    value: int
    source: str


class QuickDrawRoll(Strict):
    """A Quick Draw check for a better place on the stack (000 Determine Bonus)."""

    card_number: CardNo
    result: SmallInt | None
    success: bool
    bumps: Count
    calamity: bool
    bonus: SmallInt
    reasons: tuple[Text, ...]


class StackEntry(Strict):
    """An action that resolves on a segment (the segment's initiative stack)."""

    seq: Count
    character_id: Id
    segment: Count
    action: ActionSpec
    paid_counters: Count
    lost: Count = 0
    joined: bool = False
    join_borrowed: bool = False
    rushed: Count = 0
    resolves_as_snap: bool = False
    #: a fully paid rush of an aimed shot kept this many finished aims (000 Rushing
    #: Actions 3); None when nothing was cut
    rush_kept_aims: Count | None = None
    gear_modifier: SmallInt = 0
    environment_modifier: SmallInt = 0
    modifier_note: Text = ""
    quick_draw: QuickDrawRoll | None = None
    bonus_ap: Count = 0
    card: Card | None = None
    card_from_deck: bool = False
    rush_tax: SmallInt | None = None
    rush_tax_borrowed: Count = 0
    position: Count | None = None
    resolved: bool = False
    #: carried out (a lone action when it was paid; a stacked one in its place)
    performed: bool = False
    #: the table action to carry out when the entry resolves (its journal form)
    intent: dict[str, Any] | None = None
    #: why it never happened (its actor down or stunned first, its target gone…)
    skipped: Text = ""
    #: the Judge was told this character may spend AP from the pool for the stack
    #: (000 Determine Bonus), so an automatic run flips the cards next time
    bonus_offered: bool = False

    def bonus_items(self) -> tuple[BonusItem, ...]:
        """The itemised bonus added to the resolution card's fragment (000)."""
        items: list[BonusItem] = []
        if self.gear_modifier:
            items.append(BonusItem(label="gear", value=self.gear_modifier, source=SOURCE_STACK))
        if self.environment_modifier:
            items.append(
                BonusItem(
                    label="wounds / environment",
                    value=self.environment_modifier,
                    source=SOURCE_STACK,
                )
            )
        if self.quick_draw is not None and self.quick_draw.bonus:
            items.append(
                BonusItem(
                    label="Quick Draw check", value=self.quick_draw.bonus, source=SOURCE_STACK
                )
            )
        if self.bonus_ap:
            items.append(
                BonusItem(label="AP spent from the pool", value=self.bonus_ap, source=SOURCE_STACK)
            )
        if self.rushed:
            items.append(BonusItem(label="rushed", value=self.rushed, source=SOURCE_RUSH))
        return tuple(items)

    @property
    def bonus(self) -> int:
        return sum(i.value for i in self.bonus_items())


class Mover(Strict):
    """Something moving continuously through the round (000 Continuous Action
    Movement): a rider, a wagon, a train."""

    mover_id: Id
    name: Name
    paces: Count
    automated: bool = False
    quickness: Pool | None = None


class TrackState(Strict):
    """The whole action track: saved in encounter files, restored exactly by undo."""

    round: Count = 0
    segment: Count = 0
    stage: TrackStage = TrackStage.IDLE
    rows: dict[str, TrackRow] = {}
    entries: tuple[StackEntry, ...] = ()
    movers: tuple[Mover, ...] = ()
    next_seq: Annotated[int, Field(ge=1, le=MAX_COUNT)] = 1
    ended_early: bool = False
    #: the current segment's declarations are closed: its actions have resolved
    closed: bool = False
    #: standing declarations by character id, first to fire first
    standing: dict[str, tuple[Standing, ...]] = {}
    #: the deck after the track's last draw
    deck: DeckState | None = None


# -- events -------------------------------------------------------------------------


class StackPlace(Strict):
    """One action's place in a resolved initiative stack."""

    position: int
    character_id: str
    seq: int
    action: str
    card_number: int
    fragment: int
    bonus: tuple[BonusItem, ...]
    total: int
    rush_tax: int | None = None


class ContinuousMove(Strict):
    mover_id: str
    paces: int


class TrackEvent(Strict):
    """What a step did and why, for the encounter log."""

    step: str
    round: int
    segment: int
    character_id: str | None = None
    summary: str
    details: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    entry: StackEntry | None = None
    stack: tuple[StackPlace, ...] = ()
    moves: tuple[ContinuousMove, ...] = ()
    placed: tuple[str, ...] = ()
    bleeding: tuple[BleedRecord, ...] = ()
    surprise: SurpriseResult | None = None


# =============================================================================
# The track
# =============================================================================


class ActionTrack(TimeEngine[TrackState, TrackEvent]):
    """The AP v2 action track for one encounter (see the module docstring).

    ``characters`` are read, never changed; the track keeps its own row per
    character id. Pass ``state`` to reopen a saved encounter where it was.
    """

    event_type = TrackEvent
    rows_where = "on the action track"
    stunned_reason = "stunned: spends the round on Recover, all AP (000 Stun)"

    def _initial_state(self) -> TrackState:
        return TrackState(
            rows={
                c.id: TrackRow(character_id=c.id, name=c.name, quickness=c.traits.get("quickness"))
                for c in self._chars.values()
            }
        )

    # -- hooks of the shared steps (timecommon) -------------------------------------

    def _clock(self) -> dict[str, int]:
        return {"round": self._state.round, "segment": self._state.segment}

    def _under_way(self) -> bool:
        return self._state.stage in (TrackStage.RUNNING, TrackStage.OVERTIME)

    def _sit_out(self, row: TrackRow) -> dict[str, object] | None:
        # surprised mid-round: the counters in front and the pool are lost (001)
        if row.status != RowStatus.ACTIVE:
            return None
        return {
            "lost": row.lost + row.counters + row.pool,
            "pool_spent": row.pool_spent + row.pool,
            "counters": 0,
        }

    def _new_mover(
        self,
        mover_id: str,
        label: str,
        paces: int,
        automated: bool,
        sheet: Character | None,
        extra: Mapping[str, Any],
    ) -> tuple[Mover, tuple[str, ...]]:
        quickness = sheet.trait_pool("quickness") if sheet is not None and not automated else None
        mover = Mover(
            mover_id=mover_id, name=label, paces=paces, automated=automated, quickness=quickness
        )
        return mover, (f"per segment: {continuous_schedule(paces)}",)

    # -- reading ------------------------------------------------------------------

    @property
    def current_segment(self) -> int:
        """The segment being counted (0 before segment 1; above 20 after it)."""
        return self._state.segment

    def counters(self, character_id: str) -> int:
        return self.row(character_id).counters

    def pool(self, character_id: str) -> int:
        return self.row(character_id).pool

    def _order_key(self, row: TrackRow) -> tuple[int, int, str]:
        q = row.quickness
        return (q.die if q else 0, q.count if q else 0, row.name)

    def declaration_order(self, segment: int | None = None) -> list[str]:
        """Who declares on ``segment`` (default: the current one), in ascending
        Quickness (000 Action Timing). On the current segment only characters with
        counters in front of them are listed."""
        st = self._state
        seg = st.segment if segment is None else segment
        rows = []
        for r in st.rows.values():
            if r.status != RowStatus.ACTIVE:
                continue
            if st.stage == TrackStage.OVERTIME and seg == st.segment:
                if r.overtime and not r.done and r.counters > 0:
                    rows.append(r)
            elif seg == st.segment and st.stage == TrackStage.RUNNING:
                if r.counters > 0:
                    rows.append(r)
            elif r.first_segment is not None and r.first_segment <= seg <= ROUND_SEGMENTS:
                rows.append(r)
        return [r.character_id for r in sorted(rows, key=self._order_key)]

    def continuous_order(self) -> list[str]:
        """Continuous movers in moving order: automated movers first, then from the
        slowest Quickness to the fastest (000 Continuous Action Movement)."""
        movers = sorted(
            self._state.movers,
            key=lambda m: (
                0 if m.quickness is None else 1,
                m.quickness.die if m.quickness else 0,
                m.quickness.count if m.quickness else 0,
                m.name,
            ),
        )
        return [m.mover_id for m in movers]

    def stack(self, segment: int | None = None) -> list[StackEntry]:
        """The actions resolving on ``segment`` (default: the current one), in
        declaration order, or in stack order once resolved."""
        seg = self._state.segment if segment is None else segment
        entries = [e for e in self._state.entries if e.segment == seg]
        if entries and all(e.position is not None for e in entries):
            entries.sort(key=lambda e: e.position or 0)
        return entries

    def stack_bonus(self, character_id: str, segment: int | None = None) -> tuple[BonusItem, ...]:
        """The itemised bonus ``character_id``'s action has on the stack of ``segment``
        (the resolution card's fragment is added when the stack resolves)."""
        return self._entry(character_id, segment).bonus_items()

    def _entry(self, character_id: str, segment: int | None = None) -> StackEntry:
        seg = self._state.segment if segment is None else segment
        mine = [
            e for e in self._state.entries if e.segment == seg and e.character_id == character_id
        ]
        if not mine:
            name = (
                self._state.rows[character_id].name
                if character_id in self._state.rows
                else character_id
            )
            raise RulesError(f"{name} has no action on the stack of segment {seg}.")
        return mine[-1]

    def _pending_stack(self) -> list[StackEntry]:
        """Unresolved entries of the current segment that need :meth:`resolve_stack`:
        two or more actions on one segment, or a rushed one (its tax needs the card)
        (000 Simultaneous Actions: "Each action that will occur goes onto the
        initiative stack"). A lone action carried out as it was paid (``performed``)
        resolved with its own card and closed the segment."""
        st = self._state
        waiting = [
            e for e in st.entries if e.segment == st.segment and not e.resolved and not e.performed
        ]
        if len(waiting) >= 2 or any(e.rushed for e in waiting):
            return waiting
        return []

    def unperformed(self) -> list[StackEntry]:
        """This segment's declared actions still to carry out (those given with a
        table action, ``intent``), in stack order once the stack is resolved."""
        return [e for e in self.stack() if e.intent is not None and not e.performed]

    def pending_declarers(self) -> list[str]:
        """Who can newly act on the current segment with nothing declared (000 Action
        Timing: once the counters are placed, "players may declare actions"): active,
        counters in front of them, no standing declaration, and not yet declared or
        passed since those counters came. Ascending Quickness. Empty once the
        segment's declarations are closed."""
        st = self._state
        if (
            st.closed
            or st.segment == 0
            or st.stage
            not in (
                TrackStage.RUNNING,
                TrackStage.OVERTIME,
            )
        ):
            return []
        out = []
        for r in st.rows.values():
            if r.status != RowStatus.ACTIVE or r.counters <= 0 or r.offered:
                continue
            if st.standing.get(r.character_id):
                continue
            if st.stage == TrackStage.OVERTIME and (not r.overtime or r.done):
                continue
            out.append(r)
        return [r.character_id for r in sorted(out, key=self._order_key)]

    @property
    def round_over(self) -> bool:
        """True when no round is running, or the running one cannot go on: segment 20
        is done with nobody left to act after it, or every character has spent every
        AP (000 Ending the Round). A stack waiting to resolve keeps the round open."""
        st = self._state
        if st.stage in (TrackStage.IDLE, TrackStage.ENDED):
            return True
        if self._pending_stack() or self.unperformed():
            return False
        active = [r for r in st.rows.values() if r.status == RowStatus.ACTIVE]
        if st.stage == TrackStage.OVERTIME:
            return not any(r.overtime and not r.done and (r.counters or r.pool) for r in active)
        if all(r.counters == 0 and (r.pool == 0 or not self._can_still_place(r)) for r in active):
            return True
        return st.segment >= ROUND_SEGMENTS and not any(r.counters for r in active)

    def _can_still_place(self, row: TrackRow) -> bool:
        return row.first_segment is not None and row.first_segment <= ROUND_SEGMENTS

    # -- steps ----------------------------------------------------------------------

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
        return self._run(self._advance)

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

    def _discard_resolution_cards(self, segment: int | None = None) -> bool:
        """Discard resolution cards the track drew that are still in play."""
        in_play = set(self._deck.snapshot().in_play)
        touched = False
        for e in self._state.entries:
            if segment is not None and e.segment != segment:
                continue
            if e.card is not None and e.card_from_deck and e.card.number in in_play:
                self._deck.discard(e.card.number)
                in_play.discard(e.card.number)
                touched = True
        return touched

    # -- paying for actions ------------------------------------------------------------

    def _acting_row(self, character_id: str) -> TrackRow:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        if st.segment == 0:
            raise RulesError("Count segment 1 before declaring actions.")
        row = self.row(character_id)
        if row.status != RowStatus.ACTIVE:
            raise RulesError(f"{row.name} cannot act this round ({row.status_reason}).")
        if st.stage == TrackStage.OVERTIME:
            if not row.overtime:
                raise RulesError(
                    f"Segment 20 is over: only characters who still had counters in front of "
                    f"them may act, and {row.name} had none."
                )
            if row.done:
                raise RulesError(f"{row.name} has already taken a last action after segment 20.")
        elif self.round_over:
            raise RulesError(f"Round {st.round} is over; nothing more can be declared.")
        return row

    def _need(self, row: TrackRow, action: ActionSpec) -> tuple[int, str]:
        """AP still to pay for ``action`` (less for a skill already under way)."""
        if action.all_ap:
            return row.counters + row.pool, "all AP"
        prog = row.progress
        if prog is not None and action.multi_round and prog.action == action:
            return prog.remaining, f"{prog.remaining} AP still owed of {action.ap}"
        if prog is not None and action.multi_round:
            raise RulesError(
                f"{row.name} is still paying toward {prog.action.describe()} "
                f"({prog.paid} of {prog.action.ap} AP); abandon it first."
            )
        return action.ap, f"{action.ap} AP"

    @staticmethod
    def _require_counters(row: TrackRow, action: ActionSpec, need: int) -> None:
        if not action.all_ap and row.counters < need:
            raise RulesError(
                f"{row.name} has {row.counters} counter(s) on the track and "
                f"{action.describe()} needs {need}; nothing was removed."
            )

    def _pay(self, row: TrackRow, action: ActionSpec, need: int) -> tuple[TrackRow, int, list[str]]:
        """Remove every counter present to pay ``need`` AP (000): returns the new row,
        the AP lost to overpaying, and the reasons."""
        details = []
        if action.all_ap:
            lost = 0
            new = row.model_copy(
                update={
                    "counters": 0,
                    "spent": row.spent + row.counters + row.pool,
                    "pool_spent": row.pool_spent + row.pool,
                }
            )
            details.append(f"{action.describe()}: every counter and the whole pool")
        else:
            lost = row.counters - need
            new = row.model_copy(
                update={"counters": 0, "spent": row.spent + need, "lost": row.lost + lost}
            )
            details.append(
                f"removes all {row.counters} counter(s) for {need} AP"
                + (f"; {lost} lost ({SOURCE_TIMING})" if lost else "")
            )
        updates: dict[str, object] = {}
        if action.running:
            updates["running"] = True
            details.append("running for the whole round (000 Movement)")
        if action.forgo_defence:
            updates["forgoing_defence"] = True
            details.append(
                "forgoes its defence until the round ends: shots at them halve the range for "
                "the TN, blows meet Defense 0 (001 Movement Actions)"
            )
        if action.multi_round and new.progress is not None and new.progress.action == action:
            updates["progress"] = None
        if self._state.stage == TrackStage.OVERTIME:
            updates["done"] = True
        updates["offered"] = False  # the next counter brings a new chance to declare
        return new.model_copy(update=updates), lost, details

    def _put_on_stack(
        self,
        step: str,
        row: TrackRow,
        new_row: TrackRow,
        action: ActionSpec,
        paid: int,
        lost: int,
        summary: str,
        details: list[str],
        **extra: object,
    ) -> tuple[TrackState, TrackEvent, bool]:
        """The shared end of declaring, joining and rushing: ``new_row`` replaces the
        character's row, the action goes on this segment's stack as the next entry
        (``extra`` fills the entry's join / rush fields), and the event says so."""
        st = self._state
        entry = StackEntry(
            seq=st.next_seq,
            character_id=row.character_id,
            segment=st.segment,
            action=action,
            paid_counters=paid,
            lost=lost,
            **extra,  # type: ignore[arg-type]
        )
        event = self._event(
            step,
            character_id=row.character_id,
            summary=summary,
            details=tuple(details),
            entry=entry,
        )
        state = st.model_copy(
            update={
                "rows": {**st.rows, row.character_id: new_row},
                "entries": (*st.entries, entry),
                "next_seq": st.next_seq + 1,
            }
        )
        return state, event, False

    def declare_refusal(self, character_id: str, action: ActionSpec) -> str | None:
        """Why :meth:`declare` would refuse ``action`` now (None: it can be paid)."""
        return self._refusal(lambda: self._declare(character_id, action))

    def declare(
        self,
        character_id: str,
        action: ActionSpec,
        *,
        performed: bool = False,
        intent: dict[str, Any] | None = None,
        reaction: bool = False,
    ) -> TrackEvent:
        """Declare ``action`` and pay for it with the counters in front of the
        character: all are removed, the excess lost; too few counters and nothing
        happens (RulesError). A multi-round skill short of counters takes them all as
        progress and resolves when the last AP is paid (000).

        ``performed``: the action is carried out as it is paid — a lone action of
        the segment, resolved with its own card; it closes the segment's
        declarations, and whoever had not declared yet has let it pass (refused
        while another character's action waits on the segment's stack).
        ``intent``: the table action to carry out when the segment's declarations
        close and its stack resolves (000 Simultaneous Actions). ``reaction``: a
        defence paid as part of the attack it meets (a block, a dodge): carried out
        with it, whatever else the segment holds."""
        return self._run(lambda: self._declare(character_id, action, performed, intent, reaction))

    def _declare(
        self,
        character_id: str,
        action: ActionSpec,
        performed: bool = False,
        intent: dict[str, Any] | None = None,
        reaction: bool = False,
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        row = self._acting_row(character_id)
        if st.closed and not reaction:
            raise RulesError(
                f"Segment {st.segment}'s actions have resolved: nothing more can be declared on "
                f"it; {row.name} declares on a later segment ({SOURCE_SIMULTANEOUS})."
            )
        if performed and not reaction:
            waiting = [
                e
                for e in st.entries
                if e.segment == st.segment
                and not e.performed
                and not e.resolved
                and e.character_id != character_id
            ]
            if waiting:
                names = ", ".join(st.rows[e.character_id].name for e in waiting)
                raise RulesError(
                    f"{names}'s action waits on segment {st.segment}'s stack: {row.name}'s "
                    f"action goes on the stack with it ({SOURCE_SIMULTANEOUS})."
                )
        need, need_text = self._need(row, action)
        if action.multi_round and not action.all_ap and row.counters < need:
            if row.counters == 0:
                raise RulesError(f"{row.name} has no counters to pay toward {action.describe()}.")
            prog = row.progress or SkillProgress(action=action, paid=0, started_round=st.round)
            prog = prog.model_copy(update={"paid": prog.paid + row.counters})
            rows = dict(st.rows)
            rows[character_id] = row.model_copy(
                update={
                    "counters": 0,
                    "spent": row.spent + row.counters,
                    "progress": prog,
                    "offered": False,
                }
            )
            event = self._event(
                "declare",
                character_id=character_id,
                summary=f"{row.name} pays {row.counters} AP toward {action.describe()}: "
                f"{prog.paid} of {action.ap}",
                details=(f"resolves when the last AP is paid ({SOURCE_SKILLS})",),
            )
            return st.model_copy(update={"rows": rows}), event, False
        self._require_counters(row, action, need)
        new_row, lost, details = self._pay(row, action, need)
        if row.progress is not None and action.multi_round:
            details.insert(0, f"completes {action.describe()} ({need_text})")
        state, event, touched = self._put_on_stack(
            "declare",
            row,
            new_row,
            action,
            row.counters,
            lost,
            f"{row.name} declares {action.describe()} on segment {st.segment}",
            details,
            performed=performed,
            intent=intent,
        )
        if performed and not reaction:
            rows = dict(state.rows)
            passed = []
            for cid in self.pending_declarers():
                if cid != character_id:
                    rows[cid] = rows[cid].model_copy(update={"offered": True})
                    passed.append(rows[cid].name)
            if passed:
                line = (
                    f"{', '.join(passed)} declared nothing: {row.name}'s action resolves alone "
                    f"with its own card ({SOURCE_SIMULTANEOUS})"
                )
                event = event.model_copy(update={"details": (*event.details, line)})
            state = state.model_copy(update={"rows": rows, "closed": True})
        return state, event, touched

    def join_stack(self, character_id: str, action: ActionSpec) -> TrackEvent:
        """Put an action onto this segment's stack beside another character's (000
        "Simultaneous Actions"): paid with the counters present as usual, plus 1 AP
        from the pool, or from next round's AP when the pool is empty."""
        return self._run(lambda: self._join(character_id, action))

    def _join(self, character_id: str, action: ActionSpec) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        row = self._acting_row(character_id)
        others = [
            e
            for e in st.entries
            if e.segment == st.segment and not e.resolved and e.character_id != character_id
        ]
        if not others:
            raise RulesError(
                f"No other action waits on the stack of segment {st.segment}; declare normally."
            )
        need, _ = self._need(row, action)
        self._require_counters(row, action, need)
        paid = row.counters
        new_row, lost, details = self._pay(row, action, need)
        if new_row.pool >= STACK_ENTRY_AP:
            new_row = new_row.model_copy(
                update={
                    "pool_spent": new_row.pool_spent + STACK_ENTRY_AP,
                    "spent": new_row.spent + STACK_ENTRY_AP,
                }
            )
            borrowed = False
            details.append(f"1 AP from the pool to join the stack ({SOURCE_SIMULTANEOUS})")
        else:
            new_row = new_row.model_copy(update={"borrowed": new_row.borrowed + STACK_ENTRY_AP})
            borrowed = True
            details.append(
                f"the pool is empty: 1 AP borrowed from next round to join the stack "
                f"({SOURCE_SIMULTANEOUS})"
            )
        return self._put_on_stack(
            "join_stack",
            row,
            new_row,
            action,
            paid,
            lost,
            f"{row.name} joins the stack of segment {st.segment} with {action.describe()}",
            details,
            joined=True,
            join_borrowed=borrowed,
        )

    def rush(self, character_id: str, action: ActionSpec) -> TrackEvent:
        """Rush an action (optional rule, 000 "Rushing Actions"): pay it with every
        counter present (at least one) and the rest from the pool; the AP from the
        pool is the rush amount, at most half the action's cost (rounded down). A
        rushed shot is a snap shot. The rush tax, the step of the action's resolution
        card, is paid when the stack resolves. Fully paid actions rush free."""
        return self._run(lambda: self._rush(character_id, action))

    def _rush(self, character_id: str, action: ActionSpec) -> tuple[TrackState, TrackEvent, bool]:
        if not self.options.rushing:
            raise RulesError(
                "Rushing actions is an optional rule, and it is off for this encounter."
            )
        st = self._state
        row = self._acting_row(character_id)
        if action.all_ap:
            raise RulesError(f"{action.describe()} cannot be rushed.")
        if row.counters < 1:
            raise RulesError(f"To rush, {row.name} needs at least one counter on the track.")
        need, _ = self._need(row, action)
        amount = max(0, need - row.counters)
        kept_note = ""
        if amount and action.kind == ActionKind.AIMED_SHOT:
            # 000 Rushing Actions 3: "they could keep the first aim (because it is fully
            # completed and not being rushed) and lose the second"
            kept = self._finished_aims(action, row.counters)
            if kept is not None:
                lost_aims = action.aims - kept.aims
                kept_note = (
                    f"the counters present pay for {kept.describe()}: "
                    + (f"{kept.aims} finished aim(s) kept, " if kept.aims else "")
                    + f'{lost_aims} unfinished aim(s) lost ({SOURCE_RUSH} 3: "they could keep '
                    "the first aim (because it is fully completed and not being rushed) and "
                    'lose the second")'
                )
                action = kept
                need, _ = self._need(row, action)
                amount = 0
        limit = action.ap // 2
        if amount > limit:
            raise RulesError(
                f"An action may be rushed by at most half its cost: {limit} AP for "
                f"{action.describe()}, and this would need {amount}."
            )
        if amount > row.pool:
            raise RulesError(
                f"{row.name} has {row.pool} AP left in the pool; rushing "
                f"{action.describe()} needs {amount}."
            )
        if amount and action.kind == ActionKind.AIMED_SHOT:
            raise RulesError(
                f"Aiming cannot be rushed: a rushed shot is a snap shot, so rush a shot "
                f"without aims instead of {action.describe()} ({SOURCE_RUSH} 1)."
            )
        paid = row.counters
        details: list[str] = []
        if amount == 0:
            new_row, lost, pay_details = self._pay(row, action, need)
            if kept_note:
                details.append(kept_note)
            details += pay_details
            details.append(f"fully paid from the track: rushed for no tax ({SOURCE_RUSH}, 3)")
            snap = False
        else:
            lost = 0
            new_row = row.model_copy(
                update={
                    "counters": 0,
                    "spent": row.spent + need,
                    "pool_spent": row.pool_spent + amount,
                    "running": row.running or action.running,
                    "forgoing_defence": row.forgoing_defence or action.forgo_defence,
                }
            )
            if action.multi_round and row.progress is not None and row.progress.action == action:
                new_row = new_row.model_copy(update={"progress": None})
            if st.stage == TrackStage.OVERTIME:
                new_row = new_row.model_copy(update={"done": True})
            details.append(
                f"{paid} counter(s) from the track and {amount} AP from the pool: rushed by "
                f"{amount} ({SOURCE_RUSH})"
            )
            snap = action.is_shot and action.kind not in (ActionKind.SNAP_SHOT, ActionKind.FAN_FIRE)
            if snap:
                details.append(
                    f"aiming cannot be rushed: the shot is a snap shot ({SOURCE_RUSH}, 1)"
                )
            details.append(
                "rush tax: the step of the resolution card, paid when the stack resolves"
            )
        return self._put_on_stack(
            "rush",
            row,
            new_row,
            action,
            paid,
            lost,
            f"{row.name} rushes {action.describe()} on segment {st.segment}",
            details,
            rushed=amount,
            resolves_as_snap=snap,
            rush_kept_aims=action.aims if kept_note else None,
        )

    @staticmethod
    def _finished_aims(action: ActionSpec, counters: int) -> ActionSpec | None:
        """The aimed shot with as many of its aims as the counters on the track pay in
        full (the normal shot when none), or None when they do not pay the shot."""
        for aims in range(action.aims - 1, -1, -1):
            kept = with_aims(action, aims)
            if kept is not None and kept.ap <= counters:
                return kept
        return None

    def abandon_progress(self, character_id: str) -> TrackEvent:
        """Give up a multi-round skill under way; the AP paid are lost (000)."""
        return self._run(lambda: self._abandon(character_id))

    def _abandon(self, character_id: str) -> tuple[TrackState, TrackEvent, bool]:
        row = self.row(character_id)
        if row.progress is None:
            raise RulesError(f"{row.name} is not paying toward any skill.")
        return self._row_step(
            character_id,
            {"progress": None},
            "abandon_progress",
            summary=f"{row.name} abandons {row.progress.action.describe()}; "
            f"{row.progress.paid} AP paid are lost",
        )

    # -- the initiative stack ------------------------------------------------------------

    def _open_entry(self, character_id: str) -> StackEntry:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        entry = self._entry(character_id)
        if entry.resolved:
            raise RulesError(
                f"The stack of segment {st.segment} has already been resolved; bonuses are set before."
            )
        return entry

    def _bonus_entry(self, character_id: str) -> StackEntry:
        """The entry whose place on the stack a bonus would improve: refused while it
        is the only action of its segment, since there is no order to win (000 The
        Initiative Stack: bonuses are set once several actions share a segment)."""
        entry = self._open_entry(character_id)
        st = self._state
        if not any(
            e.segment == st.segment and not e.resolved and e.seq != entry.seq for e in st.entries
        ):
            raise RulesError(
                f"{st.rows[character_id].name}'s action is alone on segment {st.segment}: "
                "there is no stack to climb."
            )
        return entry

    def _replace_entry(self, entry: StackEntry) -> tuple[StackEntry, ...]:
        return tuple(entry if e.seq == entry.seq else e for e in self._state.entries)

    def set_stack_modifiers(
        self, character_id: str, gear: int = 0, environment: int = 0, note: str = ""
    ) -> TrackEvent:
        """Set the Judge's stack modifiers for a character's action on this segment:
        gear, and wounds or environment (000 Determine Bonus 1–2; the page gives no
        numbers)."""
        return self._run(lambda: self._modifiers(character_id, gear, environment, note))

    def _modifiers(
        self, character_id: str, gear: int, environment: int, note: str
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry = self._open_entry(character_id)
        entry = entry.model_copy(
            update={
                "gear_modifier": gear,
                "environment_modifier": environment,
                "modifier_note": note,
            }
        )
        event = self._event(
            "set_stack_modifiers",
            character_id=character_id,
            summary=f"{st.rows[character_id].name}: stack modifiers gear {gear:+d}, "
            f"wounds/environment {environment:+d}",
            details=(note,) if note else (),
            entry=entry,
        )
        return st.model_copy(update={"entries": self._replace_entry(entry)}), event, False

    def _quick_draw_pool(self, sheet: Character) -> Pool:
        if "quick_draw" in sheet.skills and sheet.skills["quick_draw"].level > 0:
            return sheet.skill_pool("quick_draw", "quickness")
        return Pool(count=sheet.quick_draw, die=sheet.trait_pool("quickness").die)

    def _quick_draw_entry(self, character_id: str) -> tuple[StackEntry, Character]:
        entry = self._bonus_entry(character_id)
        sheet = self._sheet(character_id)
        if sheet.quick_draw < 1:
            raise RulesError(f"{sheet.name} has no Quick Draw skill.")
        if entry.quick_draw is not None:
            raise RulesError(
                f"{sheet.name} has already tried Quick Draw for this action "
                f"({entry.quick_draw.bonus:+d})."
            )
        if entry.bonus_ap:
            raise RulesError("The Quick Draw check comes before spending AP for the bonus (000).")
        return entry, sheet

    def quick_draw_refusal(self, character_id: str) -> str:
        """Why :meth:`quick_draw_check` would be refused now ("" when it would go
        ahead); draws nothing and changes nothing."""
        try:
            self._quick_draw_entry(character_id)
        except RulesError as e:
            return str(e)
        return ""

    def quick_draw_check(self, character_id: str, card: Card | None = None) -> TrackEvent:
        """A TN 5 Quick Draw check for a better place on the stack: +1 for the success
        and +1 per bump; a calamity gives nothing and bars spending AP for the bonus
        (000 Determine Bonus)."""
        return self._run(lambda: self._quick_draw(character_id, card))

    def _quick_draw(
        self, character_id: str, card: Card | None
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry, sheet = self._quick_draw_entry(character_id)
        drawn_card, check, nums = self._check(card, self._quick_draw_pool(sheet), QUICK_DRAW_TN)
        bonus = 1 + check.bumps if check.success else 0
        roll = QuickDrawRoll(
            card_number=drawn_card.number,
            result=check.result,
            success=check.success,
            bumps=check.bumps,
            calamity=check.calamity,
            bonus=bonus,
            reasons=check.reasons,
        )
        entry = entry.model_copy(update={"quick_draw": roll})
        outcome = (
            "calamity: no bonus, and no AP may be spent for one"
            if check.calamity
            else f"+{bonus} to the stack"
        )
        event = self._event(
            "quick_draw_check",
            character_id=character_id,
            summary=f"{sheet.name}'s Quick Draw check: {outcome}",
            details=check.reasons,
            cards=nums,
            entry=entry,
        )
        return st.model_copy(update={"entries": self._replace_entry(entry)}), event, True

    def buy_stack_bonus(self, character_id: str, ap: int) -> TrackEvent:
        """Spend AP from the pool for +1 each on the stack, at most the Quick Draw
        level in all; lost excess counters are not in the pool (000 Determine Bonus)."""
        return self._run(lambda: self._buy(character_id, ap))

    def _buy(self, character_id: str, ap: int) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry = self._bonus_entry(character_id)
        sheet = self._sheet(character_id)
        row = st.rows[character_id]
        if ap < 1:
            raise RulesError("Spend at least 1 AP for a better place on the stack.")
        if entry.quick_draw is not None and entry.quick_draw.calamity:
            raise RulesError(
                f"{sheet.name} rolled a calamity on Quick Draw: no AP may be spent for the bonus."
            )
        if entry.bonus_ap + ap > sheet.quick_draw:
            raise RulesError(
                f"{sheet.name} may spend at most {sheet.quick_draw} AP for the stack "
                f"(Quick Draw {sheet.quick_draw}); {entry.bonus_ap} already spent."
            )
        if ap > row.pool:
            raise RulesError(
                f"{sheet.name} has {row.pool} AP left in the pool (counters lost to overpaying "
                "are not in it)."
            )
        entry = entry.model_copy(update={"bonus_ap": entry.bonus_ap + ap})
        rows = dict(st.rows)
        rows[character_id] = row.model_copy(
            update={"pool_spent": row.pool_spent + ap, "spent": row.spent + ap}
        )
        event = self._event(
            "buy_stack_bonus",
            character_id=character_id,
            summary=f"{sheet.name} spends {ap} AP from the pool: +{ap} on the stack",
            entry=entry,
        )
        return (
            st.model_copy(update={"rows": rows, "entries": self._replace_entry(entry)}),
            event,
            False,
        )

    def bonus_bidders(self, offered: bool = False) -> list[tuple[str, int]]:
        """Who on this segment's unresolved stack may still spend AP from the pool for
        the stack and has not been offered it yet (``offered``: has been, and may
        still spend them until the cards flip), with the most each may add (000
        Determine Bonus: "Each AP spent from the pool grants the character +1 … No
        character may spend more AP for bonus than their level in Quick Draw"; "On a
        Calamity no AP may be spent"). Empty while an action is alone on its segment."""
        st = self._state
        waiting = [
            e for e in st.entries if e.segment == st.segment and not e.resolved and not e.performed
        ]
        if len(waiting) < 2:
            return []
        out: list[tuple[str, int]] = []
        for e in waiting:
            if e.bonus_offered != offered or (e.quick_draw is not None and e.quick_draw.calamity):
                continue
            room = min(
                self._sheet(e.character_id).quick_draw - e.bonus_ap, st.rows[e.character_id].pool
            )
            if room > 0:
                out.append((e.character_id, room))
        return out

    def offer_bonus(self, character_ids: Sequence[str]) -> TrackEvent:
        """Mark that ``character_ids`` were offered AP from the pool for the stack (000
        Determine Bonus); the next automatic run flips the cards with what they bought."""
        return self._run(lambda: self._offer_bonus(list(character_ids)))

    def _offer_bonus(self, ids: list[str]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        offered = {cid: room for cid, room in self.bonus_bidders() if cid in ids}
        if not offered:
            raise RulesError("Nobody on this segment's stack may spend AP for a bonus.")
        entries = tuple(
            e.model_copy(update={"bonus_offered": True})
            if e.segment == st.segment and not e.resolved and e.character_id in offered
            else e
            for e in st.entries
        )
        names = ", ".join(f"{st.rows[c].name} up to {n}" for c, n in offered.items())
        event = self._event(
            "offer_stack_bonus",
            summary=f"AP from the pool for the stack of segment {st.segment}: {names}",
        )
        return st.model_copy(update={"entries": entries}), event, False

    def resolve_stack(
        self, segment: int | None = None, cards: Mapping[str, Card] | None = None
    ) -> TrackEvent:
        """Flip a resolution card for every action on this segment's stack and order
        them by fragment + bonus, highest first; ties go to the higher card number
        (000 "The Initiative Stack"). ``cards`` maps character ids to typed-in or
        scripted cards. The event's ``stack`` is the order with itemised bonuses."""
        if segment is not None and segment != self._state.segment:
            raise RulesError(
                f"Only the stack of the current segment ({self._state.segment}) can be resolved."
            )
        return self._run(lambda: self._resolve(dict(cards or {})))

    def _resolve(self, cards: dict[str, Card]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        waiting = [
            e for e in st.entries if e.segment == st.segment and not e.resolved and not e.performed
        ]
        if not waiting:
            raise RulesError(f"No action waits on the stack of segment {st.segment}.")
        rows = dict(st.rows)
        flipped: list[StackEntry] = []
        drawn: list[int] = []
        details: list[str] = []
        for e in waiting:
            card, from_deck = self._take(cards.pop(e.character_id, None))
            if from_deck:
                drawn.append(card.number)
            update: dict[str, object] = {
                "card": card,
                "card_from_deck": from_deck,
                "resolved": True,
            }
            if e.rushed:
                tax = card.step
                row = rows[e.character_id]
                from_pool = min(tax, row.pool)
                borrowed = tax - from_pool
                rows[e.character_id] = row.model_copy(
                    update={
                        "pool_spent": row.pool_spent + from_pool,
                        "spent": row.spent + from_pool,
                        "borrowed": row.borrowed + borrowed,
                    }
                )
                update.update({"rush_tax": tax, "rush_tax_borrowed": borrowed})
                details.append(
                    f"{row.name} pays rush tax {tax} (card {card.number}'s step): {from_pool} from "
                    f"the pool" + (f", {borrowed} from next round" if borrowed else "")
                )
            flipped.append(e.model_copy(update=update))
        ordered = sorted(
            flipped,
            key=lambda e: (
                -((e.card.fragment if e.card else 0) + e.bonus),
                self._single_action_tie(e),
                -(e.card.number if e.card else 0),
                e.seq,
            ),
        )
        places = []
        final = {}
        for pos, e in enumerate(ordered, 1):
            e = e.model_copy(update={"position": pos})
            final[e.seq] = e
            assert e.card is not None
            places.append(
                StackPlace(
                    position=pos,
                    character_id=e.character_id,
                    seq=e.seq,
                    action=e.action.describe(),
                    card_number=e.card.number,
                    fragment=e.card.fragment,
                    bonus=e.bonus_items(),
                    total=e.card.fragment + e.bonus,
                    rush_tax=e.rush_tax,
                )
            )
            items = "".join(f" {b.value:+d} {b.label}" for b in e.bonus_items())
            details.insert(
                pos - 1,
                f"{pos}. {rows[e.character_id].name}: card {e.card.number} fragment "
                f"{e.card.fragment}{items} = {e.card.fragment + e.bonus}",
            )
        if len(places) > 1:
            details.append(
                "ties go to a single-action gun's shot (000 Cocking and Readying), then to "
                f"the higher card number ({SOURCE_STACK})"
            )
        entries = tuple(final.get(e.seq, e) for e in st.entries)
        details.append(f"declarations for segment {st.segment} are closed ({SOURCE_STACK})")
        event = self._event(
            "resolve_stack",
            summary=f"Segment {st.segment}: the stack resolves in this order",
            details=tuple(details),
            cards=tuple(drawn),
            stack=tuple(places),
        )
        return (
            st.model_copy(update={"rows": rows, "entries": entries, "closed": True}),
            event,
            bool(drawn),
        )

    def _single_action_tie(self, entry: StackEntry) -> int:
        """0 for a shot with a single-action gun (a double-action one cocked for it),
        which "wins initiative-based ties" (000 Cocking and Readying), else 1."""
        weapon_id = entry.action.weapon_id
        weapon = default_gear().weapons.get(weapon_id) if weapon_id else None
        c = self._chars.get(entry.character_id)
        cocked = c is not None and any(cw.weapon_id == weapon_id and cw.cocked for cw in c.weapons)
        return single_action_tie_key(entry.action, weapon, cocked=cocked)

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
