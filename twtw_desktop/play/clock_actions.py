"""The clock's actions: action time on and off, a new round, the end of a segment or a
round, and declaring a Phases speed (000 Action Time, 004 Taking Actions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..rules.base import Speed
from .action_base import SRC_TIME, Action, Who
from .aim import held_aim_tokens, recentre_held_aims
from .catalogue import apply_bleeding
from .engagement import touched_by_move
from .movement import continuous_tokens, move_continuous
from .table import TableEvent

if TYPE_CHECKING:  # annotations only
    from .table import Table


# =============================================================================
# Action time
# =============================================================================


class StartActionTime(Action):
    do: Literal["start_action_time"] = "start_action_time"
    page: ClassVar[str] = SRC_TIME
    summary: ClassVar[str] = "declare action time: the track (or Phases round) takes over"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Start action time"

    def why_not(self, table: Table) -> str | None:
        if table.in_action:
            return "Action time is already running."
        return None

    def apply(self, table: Table) -> TableEvent:
        table.begin_action_time()
        table.log("Action time declared.", "round")
        return TableEvent("Action time declared.")


class EndActionTime(Action):
    do: Literal["end_action_time"] = "end_action_time"
    page: ClassVar[str] = SRC_TIME
    summary: ClassVar[str] = "return to narrative time"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Return to narrative time"

    def why_not(self, table: Table) -> str | None:
        if not table.in_action and table.encounter.mode != "action":
            return "The encounter is already in narrative time."
        return None

    def apply(self, table: Table) -> TableEvent:
        table.finish_action_time()
        table.log("Back to narrative time.", "round")
        return TableEvent("Back to narrative time.")


class _ClockStep(Action):
    """A step of the clock itself (no actor)."""

    needs_actor: ClassVar[bool] = False
    log_kind: ClassVar[str] = "round"

    def why_not(self, table: Table) -> str | None:
        if not table.in_action:
            return "Not in action time: declare action time first (Ctrl+T)."
        return None

    def kind_of_log(self, table: Table) -> str:
        return self.log_kind

    # a sheet bled is announced by its id
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "deck", "log"})

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        # the clock's steps change no sheet, token or wall (only the end of a round
        # bleeds: EndRound, and Phases' last phase, copy the sheets)
        return NOTHING_ON_THE_MAP

    def engine_step(self, table: Table) -> Any:
        raise NotImplementedError

    def apply(self, table: Table) -> TableEvent:
        assert table.time is not None
        table.time.update_characters(table.encounter.characters)  # bleeding reads them
        result = self.engine_step(table)
        events = [ev for ev in (result if isinstance(result, list | tuple) else [result]) if ev]
        # continuous movers with a token go on the map; the step's last line says where
        moved = move_continuous(table, events)
        texts = []
        for i, ev in enumerate(events):
            detail = {
                k: v
                for k, v in ev.model_dump(mode="json", exclude={"bleeding"}).items()
                if v not in (None, [], (), {}, "") and k not in ("summary", "step")
            }
            if moved and i == len(events) - 1:
                detail["map"] = moved
            table.log(ev.summary, self.kind_of_log(table), detail or None)
            apply_bleeding(table, ev)
            texts.append(" · ".join([ev.summary, *(getattr(ev, "details", ()) or ())]))
        texts += moved
        cards = tuple(n for ev in events for n in (getattr(ev, "cards", ()) or ()))
        return TableEvent(" · ".join(texts), {"events": len(events)}, cards, tuple(events))


#: a step that touches no sheet, token or wall (its snapshot copies none of them)
NOTHING_ON_THE_MAP: dict[str, set[str]] = {"tokens": set(), "characters": set(), "map": set()}


def with_mover_tokens(table: Table) -> set[str]:
    """The tokens a clock step may move: continuous movers on the map, their riders
    and the foes they may leave behind (:func:`~.movement.move_continuous`)."""
    ids = continuous_tokens(table)
    return touched_by_move(table, ids) if ids else ids


def moved_tokens(table: Table) -> set[str]:
    return {t.id for t in table.encounter.tokens if t.moved or t.running}


def new_round_tokens(table: Table) -> None:
    """What the rules count "this round" starts again (000 Move and Fire: the firer's
    movement is this round's; 000 Movement: running lasts "for the entire round")."""
    for t in table.encounter.tokens:
        if t.moved or t.running:
            t.moved = 0
            t.running = False
        t.dominance_paces = 0  # a blow's dominance movement is taken with it
        t.trail = []  # this round's path (001 Declare Target)
        t.target_mark_on = t.target_mark_at = None


class StartRound(_ClockStep):
    do: Literal["start_round"] = "start_round"
    page: ClassVar[str] = "000 Action Time / 004 Initiative"
    summary: ClassVar[str] = "start the next round (AP counters out, or declarations open)"

    def label(self, table: Table) -> str:
        return "Start round"

    def why_not(self, table: Table) -> str | None:
        why = super().why_not(table)
        if why:
            return why
        assert table.time is not None
        if table.time.round_running():
            return "A round is still running: end it first (F9)."
        return None

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return {**NOTHING_ON_THE_MAP, "tokens": moved_tokens(table) | held_aim_tokens(table)}

    def engine_step(self, table: Table) -> Any:
        assert table.time is not None
        new_round_tokens(table)
        return table.time.start_round()

    def apply(self, table: Table) -> TableEvent:
        ev = super().apply(table)
        lines = recentre_held_aims(table)  # 003 Procedure: each declaration phase
        if not lines:
            return ev
        return TableEvent(" · ".join([ev.text, *lines]), ev.record, ev.cards, ev.raw)


class EndSegment(_ClockStep):
    do: Literal["end_segment"] = "end_segment"
    #: Phases: past every phase nobody acts in as well, each closed with a line saying
    #: it was skipped (004 Taking Actions: "If no characters act in a phase it can be
    #: skipped"; :meth:`~twtw_desktop.rules.phases.PhaseRound.skippable`)
    skip_empty: bool = False
    page: ClassVar[str] = "000 Action Time / 004 Taking Actions"
    summary: ClassVar[str] = (
        "count the next segment (AP v2) or close the phase (Phases; skip_empty: and "
        "every phase after it where nobody acts)"
    )

    def label(self, table: Table) -> str:
        return "Next segment" if table.time and table.time.kind == "segments" else "Next phase"

    def kind_of_log(self, table: Table) -> str:
        return "track" if table.time and table.time.kind == "segments" else "round"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        movers = with_mover_tokens(table)
        if table.time is not None and table.time.kind == "phases":
            return {"tokens": movers, "map": set()}  # the round may end and bleed
        return {**NOTHING_ON_THE_MAP, "tokens": movers}

    def why_not(self, table: Table) -> str | None:
        why = super().why_not(table)
        if why:
            return why
        assert table.time is not None
        return table.time.why_not_advance()

    def engine_step(self, table: Table) -> Any:
        assert table.time is not None
        first = table.time.advance()
        if not self.skip_empty or table.time.kind != "phases":
            return first
        events = [first]
        while table.track.skippable():
            events.append(table.track.skip_phase())
        return events


class EndRound(_ClockStep):
    do: Literal["end_round"] = "end_round"
    page: ClassVar[str] = "000 Ending the Round"
    summary: ClassVar[str] = "end the round (unused AP are lost; bleeding when switched on)"

    def label(self, table: Table) -> str:
        return "End round"

    def why_not(self, table: Table) -> str | None:
        why = super().why_not(table)
        if why:
            return why
        assert table.time is not None
        if not table.time.round_running():
            return "No round is running."
        return None

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        return {"tokens": with_mover_tokens(table), "map": set()}  # bleeding changes sheets

    def engine_step(self, table: Table) -> Any:
        assert table.time is not None
        return table.time.end_round()


class Declare(Action):
    """Phases: declare the speed of this round's action (004 Declaring Actions)."""

    do: Literal["declare"] = "declare"
    who: Who
    speed: Speed
    page: ClassVar[str] = "004 Declaring Actions"
    summary: ClassVar[str] = "Phases: declare a Quick (fast), Half (normal) or Full (slow) action"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} declares {self.speed.value}"

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None or table.time.kind != "phases":
            return "Declaring a speed belongs to the Phases edition in action time (004)."
        c, _ = self.actor(table)
        return table.track._refusal(
            lambda: table.track._declare(c.id, self.speed, (f"declares {self.speed.value}",), False)
        )

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        ev = table.track.declare_speed(c.id, self.speed)
        table.log(ev.summary, "track")
        return TableEvent(ev.summary, raw=(ev,))
