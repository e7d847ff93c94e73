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

The actions live in parts, their names kept importable from here: the base
(:class:`Action`, :class:`Cost`, hex refs) in :mod:`.action_base`, the clock in
:mod:`.clock_actions`, moving and postures in :mod:`.move_actions`, weapon handling in
:mod:`.weapon_actions` (each with its house readings); this module keeps the other
basic actions (skill, recover, wait, rules, the Judge's ruling) and the registry
(:data:`ACTIONS`, :func:`register`, :func:`parse_action`) that the other action modules
add to.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, TypeAdapter, ValidationError

from ..rules import actions as A
from ..rules.editions import EditionId, OptionalRules
from . import load_families
from .action_base import (
    SRC_READY,
    SRC_SKILLS,
    SRC_STUN,
    Action,
    Cost,
    HexRef,
    RuledAction,
    Who,
    _log_event,
    hex_of,
    ref_of,
)
from .clock_actions import Declare, EndActionTime, EndRound, EndSegment, StartActionTime, StartRound
from .move_actions import DropProne, Duck, Emerge, Face, Move, Place, Run, StandUp
from .snapshot import apply_patch
from .table import TableEvent
from .weapon_actions import Cock, Draw, Holster, Ready, Reload

if TYPE_CHECKING:  # annotations only
    from .table import Table

#: the actions' names, with those that live in their parts (kept importable from here)
__all__ = [
    "ACTIONS",
    "SRC_READY",
    "Action",
    "Cock",
    "Cost",
    "Declare",
    "Draw",
    "DropProne",
    "Duck",
    "Emerge",
    "EndActionTime",
    "EndRound",
    "EndSegment",
    "Face",
    "HexRef",
    "Holster",
    "Judge",
    "Move",
    "Place",
    "Ready",
    "Recover",
    "Reload",
    "RuledAction",
    "Run",
    "SetRules",
    "Skill",
    "StandUp",
    "StartActionTime",
    "StartRound",
    "Wait",
    "Who",
    "all_actions",
    "by_name",
    "hex_of",
    "parse_action",
    "ref_of",
    "register",
]


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


def all_actions() -> tuple[type[Action], ...]:
    """Every action: the action families imported first (:func:`~twtw_desktop.play.load_families`),
    then :data:`ACTIONS` as registered by now (an action registered from above ``play``,
    the autopilot's, is in it too)."""
    load_families()
    return ACTIONS


#: the name table of :data:`ACTIONS` as last read (each journal line and stacked
#: declaration parses an action: reading the ~150 classes' fields again took 0.5 ms)
_BY_NAME: tuple[tuple[type[Action], ...], Mapping[str, type[Action]]] | None = None


def by_name() -> Mapping[str, type[Action]]:
    """Every action class by its ``do`` name (read again once one is registered)."""
    global _BY_NAME
    actions = all_actions()
    if _BY_NAME is None or _BY_NAME[0] is not actions:
        names = {cls.model_fields["do"].default: cls for cls in actions}
        _BY_NAME = (actions, MappingProxyType(names))
    return _BY_NAME[1]


def parse_action(data: dict[str, Any]) -> Action:
    """An action from its journal/script form; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError('an action is a JSON object with a "do" field')
    name = data.get("do")
    classes = by_name()
    if not isinstance(name, str) or name not in classes:
        known = ", ".join(sorted(classes))
        raise ValueError(f"unknown action {name!r} (known: {known})")
    try:
        return classes[name].model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        raise ValueError(f"{name}: {where}: {first['msg']}") from None
