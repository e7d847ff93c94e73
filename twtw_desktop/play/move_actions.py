"""Moving a figure: walk, run, place, face and the postures (prone, stand, duck, emerge).

House reading (the pages are silent): in narrative time nothing costs AP, as the
Judge moves figures by hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..hexgrid import facing_turn
from ..model.encounter import MAX_PACES
from ..rules import actions as A
from ..rules.character import Posture
from .action_base import SRC_MOVE, Action, HexRef, Who, _log_event, hex_of, ref_of
from .catalogue import set_posture
from .engagement import after_move, move_refusal, touched_by_move
from .movement import carry_riders, plan_move, rider_refusal, with_riders
from .table import TableEvent

if TYPE_CHECKING:  # annotations only
    from ..model.encounter import Token
    from .table import Table


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
        # the hexes passed this round (001 Declare Target: a target token on the way)
        tok.trail = [*tok.trail, *((h.q, h.r) for h in plan.path[1:])][-MAX_PACES:]
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
