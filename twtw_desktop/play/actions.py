"""Every table action as a typed value: its cost, ``why_not``, preview and apply.

An action is a small frozen pydantic model named by ``do`` (the journal's and a
script's field) with ``who`` (a token or character id) and what the action needs.
The table asks it, without changing anything and without drawing a card:

* :meth:`Action.cost` — AP (AP v2) and speed (Phases), itemised, with the seed page;
* :meth:`Action.why_not` — None, or a sentence naming the rule and the page and what
  would make the action legal;
* :meth:`Action.preview` — what the Judge sees before committing (cost, TN…);

and :meth:`Action.apply` (inside one table step) pays, changes state and returns the
:class:`~twtw_desktop.play.table.TableEvent` — the one-line log entry and the record.

Hexes are given as ``[col, row]``: the column and row the map shows (a hex labelled
``0412`` is ``[4, 12]``).

House readings (the pages are silent):

* Holstering a gun costs what drawing it costs (000 gives no holster cost; putting a
  gun away is the same motion reversed).
* In narrative time nothing costs AP: moves, turns and postures are free, as the Judge
  moves figures by hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import RulesError
from ..hexgrid import Hex, facing_turn
from ..rules import actions as A
from ..rules.base import Speed
from ..rules.character import Character, Posture
from ..rules.editions import EditionId, OptionalRules
from ..rules.gear import Weapon
from .aim import held_aim_tokens, recentre_held_aims
from .catalogue import apply_action_effects, apply_bleeding, set_posture
from .engagement import after_move, move_refusal, touched_by_move
from .movement import (
    carry_riders,
    continuous_tokens,
    move_continuous,
    plan_move,
    rider_refusal,
    with_riders,
)
from .snapshot import ALL_AREAS, apply_patch
from .table import TableEvent

if TYPE_CHECKING:  # annotations only
    from ..model.encounter import Token
    from .table import Table

#: a hex as the map shows it: [column, row], both from 1
HexRef = tuple[Annotated[int, Field(ge=1, le=1000)], Annotated[int, Field(ge=1, le=1000)]]
Who = Annotated[str, Field(min_length=1, max_length=64)]

SRC_MOVE = "000 Movement AP Cost"
SRC_READY = "000 Cocking and Readying"
SRC_TIME = "000 Action Time"
SRC_SKILLS = "000 Skills During Action Time"
SRC_STUN = "000 Wound Effects (stun)"
SRC_PHASES = "004 Taking Actions"


def hex_of(table: Table, ref: HexRef) -> Hex:
    """The hex at a map's [col, row] (1-based, as labelled)."""
    col, row = ref
    h = table.map.hex_at(col - 1, row - 1)
    if not table.map.contains(h):
        raise RulesError(
            f"Hex [{col}, {row}] is off the map ({table.map.cols}×{table.map.rows} hexes)."
        )
    return h


def ref_of(table: Table, h: Hex) -> tuple[int, int]:
    """A hex as the map shows it: (column, row), both from 1."""
    col, row = table.map.offset(h)
    return (col + 1, row + 1)


class Cost(BaseModel):
    """What an action costs now: AP on the track (AP v2) or a speed (Phases)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    ap: int | None = None
    speed: str | None = None
    breakdown: tuple[str, ...] = ()
    source: str = ""

    def describe(self) -> str:
        if self.ap is None and self.speed is None:
            return "free"
        parts = []
        if self.ap is not None:
            parts.append(f"{self.ap} AP")
        if self.speed is not None:
            parts.append(self.speed)
        return " / ".join(parts)


class Action(BaseModel):
    """Base of every table action (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    do: str
    #: the seed page the action comes from (``play --actions`` lists it)
    page: ClassVar[str] = ""
    #: one line for ``play --actions``
    summary: ClassVar[str] = ""
    #: whether the action needs an actor (``who``)
    needs_actor: ClassVar[bool] = True

    # -- what the window and the journal read -----------------------------------------

    def label(self, table: Table) -> str:
        return self.do.replace("_", " ")

    #: the areas one step of this action may change (copied for undo): a class sets
    #: these two instead of writing :meth:`capture` and :meth:`areas` again
    undo_areas: ClassVar[frozenset[str]] = ALL_AREAS
    #: the areas the window is told changed ("all": everything)
    shown_areas: ClassVar[frozenset[str]] = frozenset({"all"})

    def capture(self) -> Iterable[str]:
        """The areas one step of this action may change (copied for undo)."""
        return self.undo_areas

    def areas(self) -> Iterable[str]:
        """The areas the window is told a step of this action changed."""
        return self.shown_areas

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        """The ids a step of this action may change, by area, when it changes only
        those (and adds or removes nothing): its snapshot copies just them. None: the
        whole areas of :meth:`capture`."""
        return None

    def journal_form(self) -> dict[str, Any]:
        """The action as a journal or script line."""
        return self.model_dump(mode="json", exclude_none=True, exclude_defaults=True) | {
            "do": self.do
        }

    # -- the questions ----------------------------------------------------------------

    def spec(self, table: Table) -> A.ActionSpec | None:
        """The rules catalogue's action (its AP and speed), or None when it costs none."""
        return None

    def cost(self, table: Table) -> Cost:
        spec = self.spec(table) if table.in_action else None
        if spec is None:
            return Cost()
        breakdown = tuple(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown)
        if table.time is not None and table.time.kind == "phases":
            breakdown = tuple(
                f"{i.label}: {i.ap} AP ({i.source})" if i.ap else f"{i.label} ({i.source})"
                for i in spec.breakdown
            )
            return Cost(speed=spec.speed.value, breakdown=breakdown, source=spec.source)
        return Cost(ap=None if spec.all_ap else spec.ap, breakdown=breakdown, source=spec.source)

    def why_not(self, table: Table) -> str | None:
        if self.needs_actor:
            c, _tok = self.actor(table)
            if c.out_of_action:
                return f"{c.name} is out of action and cannot act (000 Wound Effects)."
        spec = self.spec(table) if table.in_action else None
        if spec is not None and table.time is not None:
            c, _tok = self.actor(table)
            why = table.time.why_not_pay(c.id, spec)
            if why:
                return f"{spec.describe()}: {why}"
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        cost = self.cost(table)
        return {
            "action": self.journal_form(),
            "cost": cost.describe(),
            "breakdown": list(cost.breakdown),
            "why_not": self.why_not(table),
        }

    def apply(self, table: Table) -> TableEvent:
        raise NotImplementedError

    # -- helpers ----------------------------------------------------------------------

    def actor(self, table: Table) -> tuple[Character, Token | None]:
        who = getattr(self, "who", None)
        if not who:
            raise RulesError(f"'{self.do}' needs \"who\": a token or character id.")
        return table.actor(who)

    def pay(self, table: Table) -> tuple[list[str], Any]:
        """Put the action on the track (action time); returns log details and the
        engine's event."""
        spec = self.spec(table) if table.in_action else None
        if spec is None or table.time is None:
            return [], None
        c, _tok = self.actor(table)
        event = table.time.pay(c.id, spec)
        details = list(getattr(event, "details", ()) or ())
        return details, event


class RuledAction(Action):
    """An action whose own rules are asked by :meth:`refusal` — a reason, or a
    :class:`RulesError` raised on the way — before the base ``why_not`` (the actor,
    the AP).

    A family whose own checks must come first (the clock's, the track's) overrides
    ``why_not`` and ends it with :meth:`own_refusal`: its actions then write only
    :meth:`refusal`, not the ``why = super().why_not(table)`` block again."""

    def refusal(self, table: Table) -> str | None:
        """Why the action's own rules refuse it now (None: they allow it)."""
        return None

    def own_refusal(self, table: Table) -> str | None:
        """:meth:`refusal`, with a :class:`RulesError` raised on the way as its reason."""
        try:
            return self.refusal(table)
        except RulesError as e:
            return str(e)

    def why_not(self, table: Table) -> str | None:
        return self.own_refusal(table) or super().why_not(table)


def _log_event(table: Table, text: str, kind: str, event: Any, extra: dict | None = None) -> None:
    detail: dict[str, Any] = dict(extra or {})
    summary = getattr(event, "summary", None)
    if summary:
        detail["track"] = summary
    table.log(text, kind, detail or None)


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
    page: ClassVar[str] = "000 Action Time / 004 Taking Actions"
    summary: ClassVar[str] = "count the next segment (AP v2) or close the phase (Phases)"

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
        return table.time.advance()


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


# =============================================================================
# Movement
# =============================================================================


class Move(Action):
    """Walk (or, as ``run``, run) a token to a hex by the cheapest legal path."""

    do: Literal["move"] = "move"
    who: Who
    to: HexRef
    facing: Annotated[int, Field(ge=0, le=5)] | None = None
    #: AP v2: forgo defence for the move (001 Movement Actions: ½ AP a pace; until the
    #: round ends shots at the mover halve the range, blows meet Defense 0)
    forgo_defence: bool = False
    page: ClassVar[str] = SRC_MOVE
    summary: ClassVar[str] = "walk to a hex by the cheapest path (AP by terrain and turns)"
    running: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        return f"Move {c.name} to {table.hex_label(hex_of(table, self.to))}"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        _c, tok = self.actor(table)
        if tok is None:
            return None
        return {"tokens": touched_by_move(table, with_riders(table, tok.id))}

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track"})

    def _token(self, table: Table) -> Token:
        c, tok = self.actor(table)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map: place one first.")
        return tok

    def plan(self, table: Table) -> Any:
        tok = self._token(table)
        return plan_move(
            table, tok.id, hex_of(table, self.to), run=self.running, forgo=self.forgo_defence
        )

    def spec(self, table: Table) -> A.ActionSpec | None:
        return self.plan(table).action

    def why_not(self, table: Table) -> str | None:
        tok = self._token(table)
        dest = hex_of(table, self.to)
        other = table.encounter.token_at(dest)
        if other is not None and other.id != tok.id and other.riding != tok.id:
            return f"{table.character_of(other.id).name} already stands there."
        why = rider_refusal(table, tok) or move_refusal(table, tok)
        if why:
            return why
        if not table.in_action:
            return None
        if table.time is not None and table.time.kind == "phases":
            c, _ = self.actor(table)
            if c.out_of_action:
                return f"{c.name} is out of action and cannot act (000 Wound Effects)."
            plan = self.plan(table)  # its reason names the page (004/001/003)
            return None if plan.allowed else plan.reason
        why = super().why_not(table)
        if why:
            return why
        plan = self.plan(table)
        if not plan.allowed:
            return f"{plan.reason} ({SRC_MOVE})"
        return None

    def apply(self, table: Table) -> TableEvent:
        tok = self._token(table)
        dest = hex_of(table, self.to)
        c = table.character(tok.character_id)
        if not table.in_action:
            paces = tok.at.distance(dest)
            tok.hex = (dest.q, dest.r)
            if self.facing is not None:
                tok.facing = self.facing
            text = f"{c.name} moves to {table.hex_label(dest)}"
            notes = after_move(table, [tok, *carry_riders(table, tok)], paces=paces)
            for line in notes:
                table.log(line, "move")
            return TableEvent(" · ".join([text, *notes]), {"to": list(self.to)})
        plan = self.plan(table)
        _details, event = self.pay(table)
        record = {
            "path": [list(ref_of(table, h)) for h in plan.path],
            "ap": plan.ap,
            "breakdown": plan.breakdown,
        }
        tok.hex = (dest.q, dest.r)
        facing = self.facing if self.facing is not None else plan.facing
        if facing is not None:
            tok.facing = facing % 6
        tok.moved = tok.moved + plan.paces
        spec = plan.action
        tok.running = tok.running or self.running or bool(spec is not None and spec.running)
        carried = carry_riders(table, tok, plan.paces)
        what = spec.describe() if spec is not None else f"{plan.paces} paces"
        if plan.move_name:
            what = f"{plan.move_name}, {plan.paces} pace(s)"
        text = f"{c.name}: {what} to {plan.end_label}"
        if carried:
            names = ", ".join(table.character_of(r.id).name for r in carried)
            text += f", carrying {names}"
        _log_event(table, text, "move", event, record)
        notes = after_move(table, [tok, *carried], paces=plan.paces)
        for line in notes:
            table.log(line, "move")
        return TableEvent(" · ".join([text, *notes]), record)


class Place(Action):
    """The Judge puts a token on a hex (free, no path): a drag in narrative time, or
    a figure set down where the story puts it."""

    do: Literal["place"] = "place"
    who: Who
    to: HexRef
    facing: Annotated[int, Field(ge=0, le=5)] | None = None
    page: ClassVar[str] = "the Judge's call"
    summary: ClassVar[str] = "put a token on a hex, free (the Judge's hand)"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        return f"Move {c.name} to {table.hex_label(hex_of(table, self.to))}"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        _c, tok = self.actor(table)
        if tok is None:
            return None
        return {"tokens": touched_by_move(table, with_riders(table, tok.id))}

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens"})

    def why_not(self, table: Table) -> str | None:
        c, tok = self.actor(table)
        if tok is None:
            return f"{c.name} has no token on the map."
        try:
            dest = hex_of(table, self.to)
        except RulesError:
            return f"{c.name} cannot leave the map."
        other = table.encounter.token_at(dest)
        if other is not None and other.id != tok.id and other.riding != tok.id:
            return f"{table.character_of(other.id).name} already stands there."
        return rider_refusal(table, tok)

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        assert tok is not None
        dest = hex_of(table, self.to)
        tok.hex = (dest.q, dest.r)
        if self.facing is not None:
            tok.facing = self.facing
        after_move(table, [tok, *carry_riders(table, tok)], free_blow=False)
        return TableEvent(f"{c.name} is put on {table.hex_label(dest)}", {"to": list(self.to)})


class Run(Move):
    do: Literal["run"] = "run"  # type: ignore[assignment]
    summary: ClassVar[str] = "run to a hex (run rate; running all round, 000 Movement)"
    running: ClassVar[bool] = True


class Face(Action):
    """Turn in place to a facing (0–5, hexsides counter-clockwise from east/north-east)."""

    do: Literal["face"] = "face"
    who: Who
    facing: Annotated[int, Field(ge=0, le=5)]
    page: ClassVar[str] = SRC_MOVE
    summary: ClassVar[str] = "turn in place: 1 AP for 60°, 2 AP for more (AP v2)"

    def label(self, table: Table) -> str:
        return f"Turn {self.actor(table)[0].name}"

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        _c, tok = self.actor(table)
        return {"tokens": {tok.id}} if tok is not None else None

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track"})

    def turn(self, table: Table) -> int:
        _c, tok = self.actor(table)
        if tok is None:
            raise RulesError("Only a token on the map has a facing.")
        return facing_turn(tok.facing, self.facing)

    def spec(self, table: Table) -> A.ActionSpec | None:
        if table.time is None or table.time.kind != "segments":
            return None  # Phases: facing is part of a declared action (004)
        turn = self.turn(table)
        return A.change_facing(turn) if turn else None

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        assert tok is not None
        spec = self.spec(table) if table.in_action else None
        _details, event = self.pay(table)
        tok.facing = self.facing
        text = f"{c.name}: {spec.describe()}" if spec is not None else f"{c.name} turns"
        if spec is not None:
            _log_event(table, text, "move", event)
        return TableEvent(text, {"facing": self.facing})


class _PostureAction(Action):
    posture: ClassVar[Posture]
    make: ClassVar[Any]
    page: ClassVar[str] = SRC_MOVE

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.do.replace('_', ' ')}"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return type(self).make()

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if c.posture is self.posture:
            return f"{c.name} is already {self.posture.value}."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        _details, event = self.pay(table)
        lines = set_posture(table, c.id, self.posture)
        text = "; ".join(lines) or f"{c.name} stays {self.posture.value}"
        _log_event(table, text, "move", event)
        return TableEvent(text)


class DropProne(_PostureAction):
    do: Literal["drop_prone"] = "drop_prone"
    who: Who
    posture: ClassVar[Posture] = Posture.PRONE
    make: ClassVar[Any] = staticmethod(A.drop_prone)
    summary: ClassVar[str] = "drop prone (1 AP)"


class StandUp(_PostureAction):
    do: Literal["stand_up"] = "stand_up"
    who: Who
    posture: ClassVar[Posture] = Posture.STANDING
    make: ClassVar[Any] = staticmethod(A.stand_up)
    summary: ClassVar[str] = "stand up (2 AP)"


class Duck(_PostureAction):
    do: Literal["duck"] = "duck"
    who: Who
    posture: ClassVar[Posture] = Posture.DUCKED
    make: ClassVar[Any] = staticmethod(A.duck)
    summary: ClassVar[str] = "duck behind cover (1 AP)"


class Emerge(_PostureAction):
    do: Literal["emerge"] = "emerge"
    who: Who
    posture: ClassVar[Posture] = Posture.STANDING
    make: ClassVar[Any] = staticmethod(A.emerge)
    summary: ClassVar[str] = "emerge from cover (1 AP)"

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if c.posture is not Posture.DUCKED:
            return f"{c.name} is not ducked behind cover."
        return super().why_not(table)


# =============================================================================
# Weapons
# =============================================================================


class _WeaponAction(Action):
    """An action with one of the actor's weapons (``weapon``: its gear id; default the
    first that fits; ``slot``: which carried entry, 0-based, when the sheet carries
    two of it)."""

    weapon: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    slot: Annotated[int, Field(ge=0, le=100)] | None = None
    page: ClassVar[str] = SRC_READY

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        w = self.gear(table)
        return f"{c.name}: {self.do} the {w.name}"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "tokens", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "track"})

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return True

    def carried(self, table: Table) -> tuple[int, Weapon]:
        c, _ = self.actor(table)
        if self.slot is not None:
            if self.slot >= len(c.weapons):
                raise RulesError(f"{c.name} carries no weapon in slot {self.slot}.")
            cw = c.weapons[self.slot]
            if self.weapon is not None and cw.weapon_id != self.weapon:
                raise RulesError(f"{c.name}'s slot {self.slot} holds no {self.weapon!r}.")
            return self.slot, table.gear.weapon(cw.weapon_id)
        for i, cw in enumerate(c.weapons):
            w = table.gear.weapons.get(cw.weapon_id)
            if w is None:
                continue
            if self.weapon is not None:
                if cw.weapon_id == self.weapon:
                    return i, w
                continue
            if self.fits(table, w, cw.readied, cw.cocked, cw.loaded):
                return i, w
        if self.weapon is not None:
            raise RulesError(f"{c.name} carries no {self.weapon!r}.")
        raise RulesError(f"{c.name} has no weapon to {self.do.replace('_', ' ')}.")

    def gear(self, table: Table) -> Weapon:
        return self.carried(table)[1]

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        spec = self.spec(table)
        _details, event = self.pay(table)
        slot = self.carried(table)[0]
        notes = apply_action_effects(table, c.id, spec, slot) if spec is not None else []
        text = f"{c.name}: {spec.describe() if spec else self.do}" + (
            f" — {'; '.join(notes)}" if notes else ""
        )
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Draw(_WeaponAction):
    do: Literal["draw"] = "draw"
    who: Who
    summary: ClassVar[str] = "draw a weapon into hand (Quick Draw lowers the cost)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return not readied

    def spec(self, table: Table) -> A.ActionSpec | None:
        c, _ = self.actor(table)
        return A.draw_action(self.gear(table), c.quick_draw)

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if c.weapons[i].readied:
            return f"{c.name}'s {w.name} is already in hand ({SRC_READY})."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        if not table.in_action:
            c, _ = self.actor(table)
            i, w = self.carried(table)
            _set_weapon(c, i, readied=True)
            return TableEvent(f"{c.name}'s {w.name} is ready")
        return super().apply(table)


class Ready(Draw):
    do: Literal["ready"] = "ready"  # type: ignore[assignment]
    summary: ClassVar[str] = "ready a long arm or item (its readying cost)"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.ready_action(self.gear(table))


class Cock(_WeaponAction):
    do: Literal["cock"] = "cock"
    who: Who
    summary: ClassVar[str] = "cock a single-action gun"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return readied and w.cock_ap is not None and not cocked

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.cock_action(self.gear(table))

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        cw = c.weapons[i]
        if not cw.readied:
            return f"{w.name} not in hand: draw it first ({SRC_READY})."
        if w.cock_ap is None:
            return f"The {w.name} needs no cocking ({SRC_READY})."
        if cw.cocked:
            return f"The {w.name} is already cocked."
        return super().why_not(table)


class Holster(_WeaponAction):
    do: Literal["holster"] = "holster"
    who: Who
    summary: ClassVar[str] = "put a weapon away (house: the cost of drawing it)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return readied

    def spec(self, table: Table) -> A.ActionSpec | None:
        c, _ = self.actor(table)
        return A.draw_action(self.gear(table), c.quick_draw)

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if not c.weapons[i].readied:
            return f"{c.name}'s {w.name} is not in hand."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        _details, event = self.pay(table)
        _set_weapon(c, i, readied=False, cocked=False)
        text = f"{c.name} puts the {w.name} away"
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Reload(_WeaponAction):
    do: Literal["reload"] = "reload"
    who: Who
    summary: ClassVar[str] = "reload one cartridge (or the whole weapon, as its gear says)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return bool(w.capacity) and loaded < w.capacity

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.reload_action(self.gear(table))

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if not w.capacity or c.weapons[i].loaded >= w.capacity:
            return f"The {w.name} is fully loaded."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        if not table.in_action:
            c, _ = self.actor(table)
            spec = self.spec(table)
            assert spec is not None
            notes = apply_action_effects(table, c.id, spec, self.carried(table)[0])
            return TableEvent("; ".join(notes) or f"{c.name} reloads")
        return super().apply(table)


def _set_weapon(c: Character, index: int, **fields: Any) -> None:
    weapons = [w.model_copy() for w in c.weapons]
    weapons[index] = weapons[index].model_copy(update=fields)
    c.weapons = weapons


# =============================================================================
# Other actions
# =============================================================================


class Skill(Action):
    do: Literal["skill"] = "skill"
    who: Who
    skill: Annotated[str, Field(min_length=1, max_length=60)] = "skill"
    full_attention: bool = False
    page: ClassVar[str] = SRC_SKILLS
    summary: ClassVar[str] = "use a skill: 4 AP, 8 for a task needing full attention"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.skill}"

    def spec(self, table: Table) -> A.ActionSpec | None:
        ap = A.SKILL_FULL_ATTENTION_AP if self.full_attention else A.SKILL_AP
        return A.skill_action(self.skill, ap)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        _details, event = self.pay(table)
        text = f"{c.name} uses {self.skill}"
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Recover(Action):
    do: Literal["recover"] = "recover"
    who: Who
    page: ClassVar[str] = SRC_STUN
    summary: ClassVar[str] = "a stunned character spends the round recovering (all AP)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: recover"

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if not c.stunned:
            return f"{c.name} is not stunned ({SRC_STUN})."
        return super().why_not(table)

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.recover()

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        _details, event = self.pay(table)
        text = f"{c.name} spends the round recovering"
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Wait(Action):
    """Do nothing now: AP v2 keeps the counters; Phases delays the turn (004)."""

    do: Literal["wait"] = "wait"
    who: Who
    page: ClassVar[str] = "000 Action Time / 004 Delaying an Action"
    summary: ClassVar[str] = "hold: keep the counters (AP v2) or delay the turn (Phases)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} waits"

    def why_not(self, table: Table) -> str | None:
        if table.time is not None and table.time.kind == "phases":
            c, _ = self.actor(table)
            return table.track._refusal(lambda: table.track._delay(c.id, None))
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        if table.time is not None and table.time.kind == "phases":
            ev = table.track.delay(c.id)
            table.log(ev.summary, "track")
            return TableEvent(ev.summary)
        text = f"{c.name} waits"
        table.log(text, "action")
        return TableEvent(text)


class SetRules(Action):
    """The edition and the optional rules of the encounter (Encounter ▸ Rules and
    options). The edition changes only in narrative time: one edition's action track
    cannot be carried into the other."""

    do: Literal["set_rules"] = "set_rules"
    edition: EditionId
    options: OptionalRules
    page: ClassVar[str] = "RULES.md (editions and optional rules)"
    summary: ClassVar[str] = "the edition and the optional rules (the Rules dialog)"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Change the rules and options"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"rules", "log"})

    def why_not(self, table: Table) -> str | None:
        if self.edition != table.encounter.edition and table.in_action:
            return "Return to narrative time before changing the edition."
        if self.edition == table.encounter.edition and self.options == table.encounter.options:
            return "Nothing changes."
        return None

    def apply(self, table: Table) -> TableEvent:
        before = table.encounter.options
        changed = [
            name
            for name in type(self.options).model_fields
            if getattr(self.options, name) != getattr(before, name)
        ]
        old_edition = table.encounter.edition
        table.set_rules(self.edition, self.options)
        parts = []
        if self.edition != old_edition:
            parts.append(f"edition {table.edition.name}")
        parts += [f"{n.replace('_', ' ')}: {getattr(self.options, n)}" for n in changed]
        text = "Rules changed: " + ", ".join(parts)
        table.log(text, "rules")
        return TableEvent(text)


class Judge(Action):
    """The Judge's override, with a reason: a patch of any values (the journal keeps
    every change made by hand as one of these), counters given or taken on the AP v2
    track, a token taken off the map."""

    do: Literal["judge"] = "judge"
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    #: what changed, as :func:`~twtw_desktop.play.snapshot.patch_between` writes it
    patch: dict[str, Any] | None = None
    #: whose counters or token (a token or character id)
    who: Who | None = None
    #: counters to give (positive) or take (negative) now (AP v2 action time)
    counters: Annotated[int, Field(ge=-40, le=40)] = 0
    #: take ``who``'s token off the map (the sheet stays)
    remove_token: bool = False
    page: ClassVar[str] = "the Judge's call"
    summary: ClassVar[str] = "the Judge's override: give/take counters, remove a token, any value"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return f"Judge: {self.reason}"

    def why_not(self, table: Table) -> str | None:
        if (self.counters or self.remove_token) and not self.who:
            return "Say whose counters or token (who)."
        if self.counters:
            if table.time is None or table.time.kind != "segments":
                return "Counters exist on the AP v2 action track in action time (000)."
            c, _ = self.actor(table)
            return table.track.refusal(
                lambda: table.track.adjust_counters(c.id, self.counters, self.reason)
            )
        if self.remove_token:
            c, tok = self.actor(table)
            if tok is None:
                return f"{c.name} has no token on the map."
        return None

    def apply(self, table: Table) -> TableEvent:
        if self.patch:
            apply_patch(table, self.patch)  # the log lines are in the patch
            return TableEvent(self.reason)
        lines: list[str] = []
        if self.counters:
            c, _ = self.actor(table)
            ev = table.track.adjust_counters(c.id, self.counters, self.reason)
            lines.append(ev.summary)
        if self.remove_token:
            c, tok = self.actor(table)
            assert tok is not None
            table.encounter.tokens[:] = [t for t in table.encounter.tokens if t is not tok]
            lines.append(f"The Judge takes {c.name}'s token off the map: {self.reason}")
        if not lines:
            lines.append(f"The Judge: {self.reason}")
        for line in lines:
            table.log(line, "judge")
        return TableEvent(" · ".join(lines))


#: every action, for parsing journal and script lines by their "do"
ACTIONS: tuple[type[Action], ...] = (
    StartActionTime,
    EndActionTime,
    StartRound,
    EndSegment,
    EndRound,
    Declare,
    Move,
    Place,
    Run,
    Face,
    DropProne,
    StandUp,
    Duck,
    Emerge,
    Draw,
    Ready,
    Cock,
    Holster,
    Reload,
    Skill,
    Recover,
    Wait,
    SetRules,
    Judge,
)


def register(cls: type[Action]) -> type[Action]:
    """Add an action class defined elsewhere in ``play`` (the attack actions)."""
    global ACTIONS, _ADAPTER
    if cls not in ACTIONS:
        ACTIONS = (*ACTIONS, cls)
        _ADAPTER = None
    return cls


_ADAPTER: TypeAdapter[Any] | None = None


def by_name() -> dict[str, type[Action]]:
    return {cls.model_fields["do"].default: cls for cls in ACTIONS}


def parse_action(data: dict[str, Any]) -> Action:
    """An action from its journal/script form; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError('an action is a JSON object with a "do" field')
    name = data.get("do")
    classes = by_name()
    if name not in classes:
        known = ", ".join(sorted(classes))
        raise ValueError(f"unknown action {name!r} (known: {known})")
    try:
        return classes[name].model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        raise ValueError(f"{name}: {where}: {first['msg']}") from None
