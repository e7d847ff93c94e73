"""The AP v2 action track's engine base: the hooks of the shared timecommon steps and
the reading side (counters, pools, declaration order, the stack of a segment, whether
the round is over), plus the few lookups the declaring and stack steps share (the
acting row, a stack entry, discarding resolution cards).

:class:`TrackBase` is the common base of the mixins in :mod:`.track_declare` and
:mod:`.track_stack`, which :class:`~twtw_desktop.rules.action_track.ActionTrack`
combines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from .character import Character
from .timecommon import (
    RowStatus,
    TimeEngine,
)
from .track_models import (
    ROUND_SEGMENTS,
    BonusItem,
    Mover,
    StackEntry,
    TrackEvent,
    TrackRow,
    TrackStage,
    TrackState,
    continuous_schedule,
)


class TrackBase(TimeEngine[TrackState, TrackEvent]):
    """The state and the reading side of the AP v2 action track (see
    :mod:`twtw_desktop.rules.action_track`)."""

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

    def _replace_entry(self, entry: StackEntry) -> tuple[StackEntry, ...]:
        return tuple(entry if e.seq == entry.seq else e for e in self._state.entries)
