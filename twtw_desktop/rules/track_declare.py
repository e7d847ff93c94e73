"""The AP v2 action track's declaring steps: paying for an action with the counters
present, joining a segment's stack, rushing (000 "Rushing Actions"), skills paid over
several rounds and abandoning them (000 "Skills During Action Time").
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesError
from .actions import ActionKind, ActionSpec, with_aims
from .track_base import TrackBase
from .track_models import (
    SOURCE_RUSH,
    SOURCE_SIMULTANEOUS,
    SOURCE_SKILLS,
    SOURCE_TIMING,
    STACK_ENTRY_AP,
    SkillProgress,
    StackEntry,
    TrackEvent,
    TrackRow,
    TrackStage,
    TrackState,
)


class TrackDeclarations(TrackBase):
    """Declaring actions on the AP v2 action track (a mixin of
    :class:`~twtw_desktop.rules.action_track.ActionTrack`)."""

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
