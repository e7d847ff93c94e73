"""Action time behind one small protocol: AP v2's action track and the Phases round.

The table never asks which edition it runs: it asks the :class:`Clock` what an actor
may still pay (and why not), pays, and advances. The two engines stay in ``rules/``
with their own state models; this module is the one place that knows their
constructors, their state models and which of their steps mean "pay" and "advance".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import io as io_mod
from ..errors import LoadError, RulesError
from ..rules.actions import ActionSpec
from ..rules.card import Card
from ..rules.character import Character
from ..rules.deck import Deck
from ..rules.editions import Edition, OptionalRules


class Clock:
    """An action-time engine seen by the table (see the module docstring)."""

    #: "segments" (AP v2) or "phases"
    kind: str = ""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    # -- state ------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.engine.state

    def snapshot(self) -> Any:
        """The engine's frozen state (restorable exactly; the deck is kept apart)."""
        return self.engine.state

    def restore(self, state: Any) -> None:
        self.engine.restore(state)

    def state_dict(self) -> dict[str, Any]:
        return dict(self.engine.state.model_dump(mode="json"))

    def update_characters(self, characters: Sequence[Character]) -> None:
        self.engine.update_characters(characters)

    def sync_status(self, characters: Sequence[Character]) -> Any:
        """Read stun and incapacity off the sheets at once (AP v2: the event, or None
        when nobody's status changes; Phases reads them at its own steps)."""
        return None

    def now(self) -> tuple[int, int]:
        """(round, segment or phase) for log lines."""
        st = self.engine.state
        return int(st.round or 0), int(self._moment(st) or 0)

    def _moment(self, st: Any) -> int:
        raise NotImplementedError

    # -- paying -----------------------------------------------------------------------
    def counters(self, character_id: str) -> int | None:
        """AP the character can spend now (None where the edition counts no AP)."""
        return None

    def why_not_pay(self, character_id: str, spec: ActionSpec) -> str | None:
        raise NotImplementedError

    def pay(self, character_id: str, spec: ActionSpec) -> Any:
        raise NotImplementedError

    def pay_reaction(self, character_id: str, spec: ActionSpec) -> Any:
        return self.pay(character_id, spec)

    # -- the clock ----------------------------------------------------------------------
    def start_round(self, cards: Mapping[str, Card] | None = None) -> Any:
        return self.engine.start_round(cards)

    def advance(self) -> Any:
        raise NotImplementedError

    def end_round(self) -> Any:
        raise NotImplementedError

    def why_not_advance(self) -> str | None:
        raise NotImplementedError

    def round_running(self) -> bool:
        raise NotImplementedError


class SegmentClock(Clock):
    """AP v2: counters on a 20-segment action track (000 Conflict – AP v2)."""

    kind = "segments"

    def __init__(self, engine: Any) -> None:
        super().__init__(engine)
        #: the declared action being carried out in its place (already paid)
        self.performing: Any = None

    def _moment(self, st: Any) -> int:
        return int(st.segment)

    def sync_status(self, characters: Sequence[Character]) -> Any:
        if not self.round_running():
            return None
        self.engine.update_characters(characters)
        return self.engine.sync_status()

    def _paid(self, character_id: str) -> Any:
        p = self.performing
        return p if p is not None and p.character_id == character_id else None

    def counters(self, character_id: str) -> int | None:
        try:
            return int(self.engine.counters(character_id))
        except (KeyError, RulesError):
            return None

    def why_not_pay(self, character_id: str, spec: ActionSpec) -> str | None:
        if self._paid(character_id) is not None:
            return None
        return self.engine.declare_refusal(character_id, spec)

    def pay(self, character_id: str, spec: ActionSpec) -> Any:
        entry = self._paid(character_id)
        if entry is not None:  # declared and paid on the stack: carried out in its place
            return self.engine.perform_entry(entry.seq)
        # the segment's lone action: carried out as it is paid, with its own card
        return self.engine.declare(character_id, spec, performed=True)

    def pay_reaction(self, character_id: str, spec: ActionSpec) -> Any:
        """A defence paid as part of the attack it meets (000 Hand to Hand Combat)."""
        return self.engine.declare(character_id, spec, performed=True, reaction=True)

    def advance(self) -> Any:
        return self.engine.advance_segment()

    def end_round(self) -> Any:
        return self.engine.end_round()

    def round_running(self) -> bool:
        from ..rules.action_track import TrackStage  # lazy: start-up (the engine has it)

        return self.engine.state.stage in (TrackStage.RUNNING, TrackStage.OVERTIME)

    def why_not_advance(self) -> str | None:
        if not self.round_running():
            return "no round is running: start one first (000 Conflict – AP v2)"
        return self.engine.advance_refusal()


class PhaseClock(Clock):
    """The Phases edition: declared speeds acted out in phases I–IV (003/004)."""

    kind = "phases"

    def _moment(self, st: Any) -> int:
        return int(st.phase)

    def why_not_pay(self, character_id: str, spec: ActionSpec) -> str | None:
        return self.engine.act_refusal(character_id, spec)

    def pay(self, character_id: str, spec: ActionSpec) -> Any:
        return self.engine.act(character_id, spec)

    def advance(self) -> Any:
        return self.engine.advance_phase()

    def end_round(self) -> Any:
        from ..rules.phases import PhaseStage  # lazy: start-up (the engine has it)

        # a Phases round ends after phase IV's continuous step: advance until it does
        events = []
        while self.engine.state.stage == PhaseStage.ACTING:
            events.append(self.engine.advance_phase())
        if not events:
            raise RulesError("No phases are being acted out (004 Taking Actions).")
        return events

    def round_running(self) -> bool:
        from ..rules.phases import PhaseStage  # lazy: start-up

        return self.engine.state.stage in (
            PhaseStage.DECLARE,
            PhaseStage.RESOLVED,
            PhaseStage.ACTING,
        )

    def why_not_advance(self) -> str | None:
        return self.engine._refusal(self.engine._advance)


def make_clock(
    edition: Edition,
    characters: Sequence[Character],
    deck: Deck,
    options: OptionalRules,
    state: Mapping[str, Any] | None,
    where: str = "encounter",
) -> Clock:
    """The action-time engine for ``edition`` (as the open path checks it), restored
    from a saved ``state``."""
    engine_cls, state_model = io_mod.time_engine(edition)
    st = None
    if state:
        try:
            st = state_model.model_validate(state)
        except ValueError as e:
            raise LoadError(
                where, f"saved action-time state is not valid ({e})", "action_state"
            ) from e
    engine = engine_cls(list(characters), edition, deck, options, state=st)
    return SegmentClock(engine) if edition.time == "segments" else PhaseClock(engine)
