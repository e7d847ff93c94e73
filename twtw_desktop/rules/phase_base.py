"""The Phases edition engine's base: the hooks of the shared timecommon steps, the
reading side (the current phase, the acting order, the continuous steps) and the
lookups the acting steps share (the order of a phase, the acting row, whose turn it
is).

:class:`PhaseBase` is the base of :class:`~.phase_acting.PhaseActing`, which
:class:`~twtw_desktop.rules.phases.PhaseRound` extends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from .base import Speed
from .character import Character
from .phase_models import (
    CONTINUOUS_STEPS,
    ContinuousMover,
    PhaseEvent,
    PhaseMove,
    PhaseRow,
    PhaseStage,
    PhaseState,
    further_action,
    maneuver_phases,
    reflex_key,
    roman,
)
from .timecommon import (
    RowStatus,
    TimeEngine,
    split_evenly,
)


class PhaseBase(TimeEngine[PhaseState, PhaseEvent]):
    """The state and the reading side of the Phases edition's round (see
    :mod:`twtw_desktop.rules.phases`)."""

    event_type = PhaseEvent
    rows_where = "in this round"
    #: 003 Surprise (the phase edition's own page): Standard (5) when expecting danger,
    #: Difficult (9) otherwise, whether or not action time is already under way
    surprise_alert_in_action_time = False

    def _initial_state(self) -> PhaseState:
        return PhaseState(rows={c.id: self._fresh_row(c) for c in self._chars.values()})

    @staticmethod
    def _fresh_row(c: Character) -> PhaseRow:
        return PhaseRow(character_id=c.id, name=c.name, side=c.side, reflex=c.traits.get("reflex"))

    # -- hooks of the shared steps (timecommon) -------------------------------------------

    def _clock(self) -> dict[str, int]:
        return {"round": self._state.round, "phase": self._state.phase}

    def _under_way(self) -> bool:
        return self._state.stage in (PhaseStage.DECLARE, PhaseStage.RESOLVED, PhaseStage.ACTING)

    def _sit_out(self, row: PhaseRow) -> dict[str, object] | None:
        # surprised before acting: no phase this round (001/003)
        if row.status not in (RowStatus.ACTIVE, RowStatus.WAITING):
            return None
        return {"phase": None}

    def _check_mover_extra(self, extra: Mapping[str, Any]) -> None:
        if extra.get("skill", 0) < 0 or extra.get("handling", 0) < 0:
            raise RulesError("Skill and handling cannot be negative.")

    def _new_mover(
        self,
        mover_id: str,
        label: str,
        paces: int,
        automated: bool,
        sheet: Character | None,
        extra: Mapping[str, Any],
    ) -> tuple[ContinuousMover, tuple[str, ...]]:
        skill, handling = extra.get("skill", 0), extra.get("handling", 0)
        mover = ContinuousMover(
            mover_id=mover_id,
            name=label,
            paces=paces,
            automated=automated,
            reflex=sheet.traits.get("reflex") if sheet and not automated else None,
            side=sheet.side if sheet else "hombres",
            skill=skill,
            handling=handling,
        )
        man = maneuver_phases(skill, handling)
        details = (
            f"per continuous step: {split_evenly(paces, CONTINUOUS_STEPS)}",
            "maneuvers after phase "
            + (", ".join(roman(i + 1) for i, ok in enumerate(man) if ok) or "none")
            if not automated
            else "automated: moves before every other continuous action",
        )
        return mover, details

    # -- reading -----------------------------------------------------------------------

    @property
    def current_phase(self) -> int:
        """The phase being played (1–4), 0 before phase I opens."""
        return self._state.phase

    @property
    def round_over(self) -> bool:
        """True when no round is under way (before the first, or after phase IV)."""
        return self._state.stage in (PhaseStage.IDLE, PhaseStage.ENDED)

    def qualifying_phases(self, character_id: str) -> tuple[int, ...]:
        """Phases the character's Reflex result lets them act in (004 Resolution)."""
        return self.row(character_id).qualifying

    def acting_order(self, phase: int | None = None) -> list[str]:
        """Who acts in ``phase`` (default: the current one), in order (004 Taking
        Actions): Reflex die type, number of dice, the posse, then name."""
        ph = self._state.phase if phase is None else phase
        # one put out of action during the round takes no part in it from then on
        # (000 Wound Effects), so its turn holds nobody up
        rows = [
            r
            for r in self._state.rows.values()
            if r.status == RowStatus.ACTIVE
            and not r.hesitated
            and r.phase == ph
            and not self._out_now(r.character_id)
        ]
        return [r.character_id for r in sorted(rows, key=reflex_key)]

    def _out_now(self, character_id: str) -> bool:
        c = self._chars.get(character_id)
        return c is not None and c.out_of_action

    def next_to_act(self) -> str | None:
        """The character whose turn it is in the current phase (None when the phase's
        regular turns are done)."""
        if self._state.stage != PhaseStage.ACTING:
            return None
        for cid in self.acting_order():
            r = self._state.rows[cid]
            if not (self._turn_taken(r) or r.delayed or r.passed):
                return cid
        return None

    def continuous_order(self) -> list[str]:
        """Continuous movers in moving order: automated first (002: as if faster than
        d12), then by Reflex like the acting order."""
        movers = sorted(
            self._state.movers,
            key=lambda m: (
                0 if m.automated else 1,
                -(m.reflex.die if m.reflex else 0),
                -(m.reflex.count if m.reflex else 0),
                0 if m.side == "posse" else 1,
                m.name,
            ),
        )
        return [m.mover_id for m in movers]

    def continuous_step(self, phase: int) -> list[PhaseMove]:
        """What the continuous step after ``phase`` does, in order (a preview)."""
        by_id = {m.mover_id: m for m in self._state.movers}
        out = []
        for mid in self.continuous_order():
            m = by_id[mid]
            paces = split_evenly(m.paces, CONTINUOUS_STEPS)[phase - 1]
            if m.still_phase == phase:
                paces = 0
            can = not m.automated and maneuver_phases(m.skill, m.handling)[phase - 1]
            out.append(PhaseMove(mover_id=mid, paces=paces, maneuver=can))
        return out

    @staticmethod
    def _order_for(state: PhaseState, phase: int) -> list[str]:
        rows = [
            r
            for r in state.rows.values()
            if r.status == RowStatus.ACTIVE and not r.hesitated and r.phase == phase
        ]
        return [r.character_id for r in sorted(rows, key=reflex_key)]

    def _acting_row(self, character_id: str, *, again: bool = False) -> PhaseRow:
        """The row of a character who may act now; ``again``: one who has acted may
        still add an action the declaration leaves room for (checked by the caller)."""
        st = self._state
        row = self.row(character_id)
        if st.stage in (PhaseStage.DECLARE, PhaseStage.RESOLVED):
            raise RulesError(f"{row.name} cannot act before phase I begins.")
        if st.stage != PhaseStage.ACTING:
            raise RulesError("No round is under way.")
        if row.status != RowStatus.ACTIVE:
            raise RulesError(f"{row.name} cannot act this round ({row.status_reason}).")
        if row.hesitated:
            raise RulesError(f"{row.name} hesitates this round and cannot act.")
        if row.acted and not again:
            raise RulesError(f"{row.name} has already acted this round.")
        if row.phase is None:
            raise RulesError(f"{row.name} has no phase this round.")
        if row.phase > st.phase:
            raise RulesError(f"{row.name} cannot act before phase {roman(row.phase)}.")
        if row.passed:
            raise RulesError(f"{row.name} let phase {roman(row.phase)} go by without acting.")
        return row

    def _turn_blocker(self, row: PhaseRow) -> PhaseRow | None:
        """Who must act or delay before ``row`` in the current phase (None if nobody)."""
        st = self._state
        if row.delayed or row.preempting or row.phase != st.phase:
            return None
        for cid in self._order_for(st, st.phase):
            if cid == row.character_id:
                return None
            if self._out_now(cid):
                continue  # out of action since: takes no part (000 Wound Effects)
            r = st.rows[cid]
            if not (self._turn_taken(r) or r.delayed or r.passed):
                return r
        return None

    @staticmethod
    def _turn_taken(r: PhaseRow) -> bool:
        """Has ``r`` had its turn in the phase's action step? Yes after an action other
        than a move, or a move that leaves no room in the declaration for more."""
        if r.acted_other:
            return True
        if not r.acted:
            return False
        declared = r.waiting_speed or r.declared or Speed.FAST
        try:
            further_action(r.name, r.acted_speeds or (Speed.FAST,), Speed.FAST, declared)
        except RulesError:
            return True
        return False
