"""The table action's base: :class:`Action` and :class:`RuledAction`, the cost and the hex refs.

What every action shares (see :mod:`.actions` for the registry): ``do`` and ``who``,
:meth:`Action.cost`, :meth:`Action.why_not`, :meth:`Action.preview` and
:meth:`Action.apply`, the actor and the AP payment; :class:`Cost`; ``[col, row]`` hex
references (:func:`hex_of`, :func:`ref_of`) and the seed pages the basic actions cite.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RulesError
from ..hexgrid import Hex
from ..rules import actions as A
from ..rules.character import Character
from .snapshot import ALL_AREAS
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
