"""The ``autopilot`` table action and the ``plan`` command.

``{"do": "autopilot", "who": [...], "seed": N}`` gives the NPCs named (default: every
NPC on the map) the planner's plan for the round. It stands for the ordinary table
actions it produces (``when_able`` declarations in AP v2; the speed, then the
phase's move or shot, in Phases): the table applies each as its own step, so the
journal holds those and a replay never needs the planner. Each is checked by the
table's ``why_not`` as it comes; an NPC whose next action the table refuses keeps
what it was given before it.

    twtw-desktop plan ENCOUNTER [--who ID,…] [--seed N] [--json]

prints each NPC's plan and its reasons without a window (``--json``: one object per
NPC per line, ``{"who", "actions", "reasons"}``, the actions in their journal form).
An encounter in narrative time is planned as if action time and its first round
began now (on a copy: the file is not changed).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..errors import LoadError, RulesError
from ..play.actions import Action, Who, parse_action, register
from ..play.session import open_table
from .planner import Plan, npc_ids, plan_round

if TYPE_CHECKING:
    from ..play.table import Table, TableEvent

SRC_AUTOPILOT = "house: the NPC autopilot (no seed page; it plays by the table's rules)"


@register
class Autopilot(Action):
    """The planner's plan for the round for each NPC named (see the module docstring)."""

    do: Literal["autopilot"] = "autopilot"
    who: list[Who] = Field(default_factory=list, max_length=200)
    seed: Annotated[int, Field(ge=0, le=2**32)] = 0
    page: ClassVar[str] = SRC_AUTOPILOT
    summary: ClassVar[str] = (
        "give NPCs (all, or those named) the autopilot's plan for the round, as standing "
        "declarations"
    )
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Autopilot"

    def _ids(self, table: Table) -> list[str]:
        return [table.actor(w)[0].id for w in self.who] if self.who else npc_ids(table)

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None:
            return "Not in action time: declare action time first (Ctrl+T)."
        if table.time.kind == "segments" and not table.time.round_running():
            return "No round is running: start one first (F5)."
        try:
            ids = self._ids(table)
        except RulesError as e:
            return str(e)
        if not ids:
            return "There is no NPC on the map to plan for."
        return None

    def plans(self, table: Table) -> list[Plan]:
        return plan_round(table, self._ids(table), self.seed)

    def expand(self, table: Table) -> Iterator[Action]:
        """The plans' actions in order, each yielded only while the table allows it
        as it stands then (the ones before it applied)."""
        for plan in self.plans(table):
            for act in plan.actions:
                if table.why_not(act) is not None:
                    break
                yield act

    def apply(self, table: Table) -> TableEvent:
        return table.apply(self)  # the table applies what it expands to


def _ready(table: Table) -> str:
    """Start action time and a round on the table (a copy) when none is running;
    returns the note saying so ("" when one was running)."""
    if table.in_action and table.time is not None:
        if table.time.kind != "segments" or table.time.round_running():
            return ""
        table.apply(parse_action({"do": "start_round"}))
        return "no round was running: planned for the next round as if it began now"
    table.apply(parse_action({"do": "start_action_time"}))
    table.apply(parse_action({"do": "start_round"}))
    return "the encounter is in narrative time: planned as if action time and round 1 began now"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="twtw-desktop plan",
        description="Print each NPC's plan for the round and its reasons, without a window.",
    )
    p.add_argument("encounter", help="the .encounter.json to plan for")
    p.add_argument("--who", metavar="ID,…", help="only these characters (ids, comma-separated)")
    p.add_argument("--seed", type=int, default=0, help="the planner's seed (ties; default 0)")
    p.add_argument("--json", action="store_true", help="one JSON object per NPC per line")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if args.seed < 0 or args.seed > 2**32:
        print("error: --seed is a whole number from 0 to 4294967296", file=sys.stderr)
        return 2
    try:
        table = open_table(args.encounter).table
        note = _ready(table)
        who = [w.strip() for w in args.who.split(",") if w.strip()] if args.who else None
        plans = plan_round(table, who, args.seed)
    except (LoadError, RulesError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if note:
        print(f"note: {note}", file=sys.stderr)
    for plan in plans:
        if args.json:
            print(json.dumps(plan.as_json(), sort_keys=True))
            continue
        name = table.character(plan.who).name
        print(f"{name} ({plan.who}):")
        for reason in plan.reasons:
            print(f"  why: {reason}")
        for act in plan.actions:
            print(f"  {json.dumps(act.journal_form(), sort_keys=True)}")
    return 0
