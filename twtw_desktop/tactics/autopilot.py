"""The ``autopilot`` table action and the ``plan`` command.

``{"do": "autopilot", "who": [...], "seed": N}`` gives the NPCs named (default: every
NPC on the map) the planner's plan for the round. It stands for the ordinary table
actions it produces (``when_able`` declarations in AP v2; the speed, then the
phase's move or shot, in Phases): the table applies each as its own step, so the
journal holds those and a replay never needs the planner. Each is checked by the
table's ``why_not`` as it comes; an NPC whose next action the table refuses keeps
what it was given before it.

    twtw-desktop plan ENCOUNTER [--who ID,…] [--seed N] [--json]

AP v2: each plan ends with its standing answers (:func:`with_answers`): the
``standing_bid`` the NPC offers when a stack asks it for AP from the pool — the AP its
plan leaves unspent, up to its Quick Draw level, else none —, a ``standing_bumps``
(the bumps its attacks earn go to damage: the run does not stop for its spends) and a
``standing_pass``:
once the plan is declared it declares nothing more, so the run stops for it only
where the plan breaks (a declaration dropped takes the pass with it).

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
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..errors import LoadError, RulesError
from ..play.actions import Action, Who, parse_action, register
from ..play.declarations import WhenAble, cost_of, segments
from ..play.session import open_table
from ..play.standing_actions import (
    SRC_AUTOPILOT,
    StandingBid,
    StandingBumps,
    StandingPass,
    on_autopilot,
)
from ..play.table import TableEvent
from ..rules.timecommon import RowStatus
from .planner import Plan, npc_ids, plan_on, plan_round

if TYPE_CHECKING:
    from ..play.table import Table


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
        return [with_answers(table, p) for p in plan_round(table, self._ids(table), self.seed)]

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


def due_for_a_plan(table: Table) -> list[str]:
    """On the autopilot: the NPCs whose plan is due now — those a run stopped for
    (able with nothing declared: a declaration dropped, say), else every NPC at a
    round's start (segment 0) while none of them has anything standing. Empty when
    nothing is due or the fight is not on the autopilot."""
    if not on_autopilot(table) or not table.time.round_running():  # type: ignore[union-attr]
        return []
    t = table.track
    npcs = npc_ids(table)
    stopped = [c for c in t.pending_declarers() if c in npcs]
    if stopped:
        return stopped
    if t.state.segment == 0 and not any(t.state.standing.get(c) for c in npcs):
        return npcs
    return []


def with_answers(table: Table, plan: Plan) -> Plan:
    """AP v2: the plan with its standing answers and a reason line for them (see the
    module docstring); as it was in Phases, or for an NPC who cannot act this round.
    The bid is what the plan leaves unspent of the round's AP (counters and pool), up
    to the Quick Draw level: AP that would be lost at the round's end anyway buy a
    better place on a stack (000 Determine Bonus), and the plan still has every AP it
    needs."""
    if not segments(table):
        return plan
    c = table.character(plan.who)
    row = table.track.state.rows.get(plan.who)
    if row is None or row.status != RowStatus.ACTIVE or c.out_of_action or c.stunned:
        return plan
    try:
        need = sum(cost_of(table, a.inner()) for a in plan.actions if isinstance(a, WhenAble))
    except RulesError:
        need = row.counters + row.pool  # priced where it stands: bid nothing
    bid = max(0, min(c.quick_draw, row.counters + row.pool - need, row.pool))
    if bid:
        offer = (
            f"at a stack it offers {bid} AP from the pool (its plan leaves them unspent; "
            f"Quick Draw {c.quick_draw})"
        )
    elif c.quick_draw:
        offer = "at a stack it offers no AP (its plan needs every AP it has)"
    else:
        offer = "at a stack it offers no AP (no Quick Draw)"
    why = f"{offer}; its bumps go to damage; its plan declared, it passes when next able"
    bumps = StandingBumps(who=c.id, on="damage")
    answers = (StandingBid(who=c.id, ap=bid), bumps, StandingPass(who=c.id))
    return replace(plan, actions=(*plan.actions, *answers), reasons=(*plan.reasons, why))


def plans_on(scratch: Table, who: list[str], seed: int) -> list[Plan]:
    """:func:`~.planner.plan_on` with each plan's standing answers (the window plans
    on a worker, on a scratch copy of the table)."""
    return [with_answers(scratch, p) for p in plan_on(scratch, who, seed)]


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
        plans = [with_answers(table, p) for p in plan_round(table, who, args.seed)]
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
