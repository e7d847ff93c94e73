""" "Is it any good": seeded fights of the samples, played to the end by script.

``twtw-desktop bench --fights N`` plays N fights of each sample for each
pairing — the hombres on the autopilot against a naive posse, the posse on the
autopilot against naive hombres, the autopilot on both sides, and the naive
opponent on both sides (the yardstick: a sample may favour one side whoever plays
it) — with no window, and reports side by side: wins, damage dealt per damage
taken, rounds per fight, and the planning time per NPC per round. Fight ``i`` of a
sample uses deck seed ``i`` (the same cards for every pairing); the same seed plays
the same fight.

The driver is the Judge's hand, and it decides only what the table leaves to the
Judge: every figure is shown at the start (no Judge is there to reveal a hidden one
when it is seen); whoever can act with nothing declared gets their side's plan (and passes
when there is none); the offer of AP from the pool for the stack is declined; an
attack waiting for its bumps spends them all on damage. A fight ends when one side
has nobody standing, or after :data:`MAX_ROUNDS` rounds (a draw); a refusal from
the table, or a round that does not end within :data:`MAX_STEPS` steps, is counted
and reported (the benchmark fails when there is one).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesError
from ..play.actions import Move, parse_action
from ..play.attack import bumps_left, preview
from ..play.attack_base import SpendRef
from ..play.declarations import decision_waiting
from ..play.session import open_table
from ..play.table import Table
from ..resources import maps_dir
from ..tactics.naive import NaivePlanner
from ..tactics.planner import Planner, plan_round

#: the samples played (Laroq Hacienda in the Phases edition)
FIGHT_SAMPLES = ("main_street", "legless_gulch", "longhorn_saloon", "laroq_hacienda")
MAX_ROUNDS = 10
MAX_STEPS = 300
SIDES = ("hombres", "posse")


@dataclass
class Fight:
    """One fight's outcome."""

    winner: str | None
    rounds: int
    #: damage taken, by side: Conc lost plus one Size per wound
    taken: dict[str, int]
    refusals: list[str] = field(default_factory=list)
    hung: bool = False
    plan_s: float = 0.0
    plans: int = 0
    #: planned actions the table no longer took when given (the plan ends there)
    cut: int = 0


def _standing(table: Table, side: str) -> list[str]:
    return [
        c.id
        for c in table.encounter.characters
        if c.side == side and not c.out_of_action and table.token_for(c.id) is not None
    ]


def _harm(table: Table) -> dict[str, int]:
    out = dict.fromkeys(SIDES, 0)
    for c in table.encounter.characters:
        if c.side in out:
            out[c.side] += -c.conc + c.size * sum(c.wounds.values())
    return out


class _Driver:
    def __init__(self, table: Table, planners: dict[str, type[Planner]], seed: int) -> None:
        self.t = table
        self.planners = planners
        self.seed = seed
        self.fight = Fight(None, 0, {})

    def apply(self, data: dict[str, Any]) -> str | None:
        try:
            return self.t.apply(parse_action(data)).text
        except (RulesError, ValueError) as e:
            self.fight.refusals.append(f"{data.get('do')}: {e}")
            return None

    def give_plans(self, ids: list[str], only: type | None = None) -> None:
        """Each side's plans for ``ids`` given as the autopilot action gives them
        (``only``: just the plans whose first action is of that kind)."""
        for side in SIDES:
            who = [c for c in ids if self.t.character(c).side == side]
            if not who:
                continue
            t0 = time.perf_counter()
            plans = plan_round(self.t, who, self.seed, self.planners[side])
            self.fight.plan_s += time.perf_counter() - t0
            self.fight.plans += len(plans)
            for plan in plans:
                if only is not None and not (plan.actions and isinstance(plan.actions[0], only)):
                    continue
                for act in plan.actions:
                    # as the autopilot action gives them: a declaration the table no
                    # longer takes (it carried out others' actions in between) ends
                    # the NPC's plan; counted, never forced
                    if self.t.why_not(act) is not None:
                        self.fight.cut += 1
                        break
                    if self.apply(act.journal_form()) is None:
                        break

    def carry_out_waiting(self) -> bool:
        """The attack waiting for its bumps: all on damage."""
        for entry in self.t.track.unperformed():
            if entry.intent is None:
                continue
            action: Any = parse_action(entry.intent)
            shown = preview(self.t, action.plan(self.t), action.spend_list())
            spends = tuple(SpendRef(damage=bumps_left(r)[1]) for r in shown.outcome.records)
            data = action.model_copy(update={"spends": spends}).journal_form()
            return self.apply(data) is not None
        return False

    def round(self) -> None:
        t = self.t
        if self.apply({"do": "start_round"}) is None:
            return
        if t.time is not None and t.time.kind == "phases":
            self.phases_round()
            return
        self.give_plans(_standing(t, "hombres") + _standing(t, "posse"))
        for _ in range(MAX_STEPS):
            if self.over():
                break
            pending = t.track.pending_declarers()
            if pending:
                self.give_plans(pending)
                pending = t.track.pending_declarers()
            if decision_waiting(t) is not None:
                if not self.carry_out_waiting():
                    return
                continue
            run = {"do": "run_on", "passing": pending}
            why = t.why_not(parse_action(run))
            if why is not None and t.why_not(parse_action({"do": "resolve"})) is None:
                # a stack the run left standing: the Judge flips its cards (000
                # Initiative Stack) before the round can go on or end
                self.apply({"do": "resolve"})
                continue
            if why is not None:
                if t.track.round_over or "F9" in why or "another counter" in why:
                    break
                self.fight.refusals.append(f"run_on: {why}")
                return
            self.apply(run)
        else:
            self.fight.hung = True
        for _ in range(8):  # bounded: a stack left standing is flipped before the round ends
            pending = t.track.pending_declarers()
            if pending:  # the fight is over: whoever may still declare lets it go
                if self.apply({"do": "pass", "who": pending}) is None:
                    break
            elif decision_waiting(t) is not None:
                if not self.carry_out_waiting():
                    break
            elif t.why_not(parse_action({"do": "resolve"})) is None:
                self.apply({"do": "resolve"})
            else:
                break
        self.apply({"do": "end_round"})

    def phases_round(self) -> None:
        """Phases: every side declares its speeds by its planner and the card is
        flipped; each phase opens with its moves, slowest first (001 Movement
        Actions, the table's house order), then whoever is next acts by its plan —
        or, with nothing to do, takes a Quick action — and the phase ends when
        nobody is left."""
        t = self.t
        self.give_plans(_standing(t, "hombres") + _standing(t, "posse"))
        if self.apply({"do": "resolve"}) is None:
            return
        moved_in = 0
        for _ in range(MAX_STEPS):
            if self.over() or t.track.round_over:
                return
            if t.track.current_phase != moved_in:
                moved_in = t.track.current_phase
                for cid in reversed(t.track.acting_order()):
                    self.give_plans([cid], only=Move)
            nxt = t.track.next_to_act()
            if nxt is None:
                if self.apply({"do": "end_segment"}) is None:
                    return
                continue
            before = len(t.steps)
            self.give_plans([nxt])
            idle = len(t.steps) == before and t.track.next_to_act() == nxt
            if idle and self.apply({"do": "act", "who": nxt, "speed": "fast"}) is None:
                return
        self.fight.hung = True

    def over(self) -> bool:
        return not _standing(self.t, "hombres") or not _standing(self.t, "posse")


def play_fight(
    sample: str, seed: int, planners: dict[str, type[Planner]], max_rounds: int = MAX_ROUNDS
) -> Fight:
    """One seeded fight of a sample (see the module docstring)."""
    opened = open_table(maps_dir() / f"{sample}.encounter.json")
    enc = opened.table.encounter
    enc.deck_seed = seed
    enc.deck_state = None
    # a fight in the open: the Judge shows every figure (a hidden token is hidden from
    # the other side's eyes, and no Judge is here to reveal it when it is seen)
    for tok in enc.tokens:
        tok.hidden = False
    table = Table(enc, opened.table.map, source=opened.path, gear=opened.table.gear)
    before = _harm(table)
    d = _Driver(table, planners, seed)
    d.apply({"do": "start_action_time"})
    for n in range(1, max_rounds + 1):
        d.fight.rounds = n
        d.round()
        if d.over() or d.fight.refusals or d.fight.hung:
            break
    after = _harm(table)
    d.fight.taken = {s: after[s] - before[s] for s in SIDES}
    alive = {s: bool(_standing(table, s)) for s in SIDES}
    if alive["hombres"] != alive["posse"]:
        d.fight.winner = "hombres" if alive["hombres"] else "posse"
    return d.fight


PAIRINGS: dict[str, dict[str, type[Planner]]] = {
    "autopilot hombres v naive posse": {"hombres": Planner, "posse": NaivePlanner},
    "naive hombres v autopilot posse": {"hombres": NaivePlanner, "posse": Planner},
    "autopilot v autopilot": {"hombres": Planner, "posse": Planner},
    # the yardstick: how the sample goes when neither side thinks (a sample may
    # favour one side whoever plays it)
    "naive v naive": {"hombres": NaivePlanner, "posse": NaivePlanner},
}


@dataclass
class Row:
    sample: str
    pairing: str
    fights: int = 0
    wins: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    draws: int = 0
    taken: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    rounds: int = 0
    refusals: int = 0
    hung: int = 0
    plan_s: float = 0.0
    plans: int = 0
    cut: int = 0
    first_refusal: str = ""

    def add(self, f: Fight) -> None:
        self.fights += 1
        if f.winner is None:
            self.draws += 1
        else:
            self.wins[f.winner] += 1
        for s in SIDES:
            self.taken[s] += f.taken.get(s, 0)
        self.rounds += f.rounds
        self.refusals += len(f.refusals)
        self.hung += int(f.hung)
        self.plan_s += f.plan_s
        self.plans += f.plans
        self.cut += f.cut
        if f.refusals and not self.first_refusal:
            self.first_refusal = f.refusals[0]

    def ratio(self, side: str) -> float:
        other = SIDES[1 - SIDES.index(side)]
        return self.taken[other] / max(1, self.taken[side])

    def as_json(self) -> dict[str, Any]:
        return {
            "sample": self.sample,
            "pairing": self.pairing,
            "fights": self.fights,
            "wins": self.wins,
            "draws": self.draws,
            "dealt_per_taken": {s: round(self.ratio(s), 2) for s in SIDES},
            "rounds_per_fight": round(self.rounds / max(1, self.fights), 2),
            "plan_ms_per_npc": round(1e3 * self.plan_s / max(1, self.plans), 1),
            "refusals": self.refusals,
            "hung": self.hung,
            "plans_cut_short": self.cut,
        }


def run_fights(
    fights: int,
    samples: tuple[str, ...] = FIGHT_SAMPLES,
    progress: Callable[[str], None] | None = None,
) -> list[Row]:
    rows = []
    for sample in samples:
        for name, planners in PAIRINGS.items():
            row = Row(sample, name)
            for seed in range(fights):
                row.add(play_fight(sample, seed, planners))
            rows.append(row)
            if progress is not None:
                progress(describe(row))
    return rows


def describe(r: Row) -> str:
    return (
        f"{r.sample:16} {r.pairing:34} fights {r.fights:4}  wins hombres {r.wins['hombres']:4} "
        f"posse {r.wins['posse']:4} draws {r.draws:4}  dealt/taken hombres "
        f"{r.ratio('hombres'):5.2f} posse {r.ratio('posse'):5.2f}  rounds "
        f"{r.rounds / max(1, r.fights):4.1f}  plan {1e3 * r.plan_s / max(1, r.plans):5.1f} ms/NPC"
        f"  refusals {r.refusals} hung {r.hung} cut {r.cut}"
        + (f"  (first: {r.first_refusal})" if r.first_refusal else "")
    )
