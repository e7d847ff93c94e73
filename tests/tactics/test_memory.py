"""The autopilot's memory of foes it no longer sees: the table's own record
(play/seen.py, FoeSightings), kept after every step, rebuilt by a replay, and read
alike by the window's scratch copy, the ``autopilot`` action and the benchmark."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from twtw_desktop.play.actions import parse_action
from twtw_desktop.play.session import open_table
from twtw_desktop.play.table import Table
from twtw_desktop.tactics.autopilot import Autopilot
from twtw_desktop.tactics.planner import plan_on, plan_round
from twtw_desktop.tactics.view import npc_sight, scratch_of

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "twtw-desktop"
MAIN_STREET = ROOT / "maps" / "main_street.encounter.json"
#: Cyril Wellington walks from (7, 19), in Angus Laroq's sight, behind a wall
SCRIPT: list[dict[str, Any]] = [
    {"do": "move", "who": "token-cyril_wellington", "to": [18, 21]},
    {"do": "start_action_time"},
    {"do": "start_round"},
]


def _played(lines: list[dict[str, Any]]) -> Table:
    table = open_table(MAIN_STREET).table
    for line in lines:
        table.apply(parse_action(line))
    return table


def test_the_table_remembers_where_an_npc_last_saw_a_foe() -> None:
    table = _played(SCRIPT)
    assert table.sight.foes.last_seen(table)["angus_laroq"]["cyril_wellington"] == (7, 19)
    sight = npc_sight(scratch_of(table), "angus_laroq")
    assert "token-cyril_wellington" not in sight.seen
    assert ("cyril_wellington", (7, 19)) in [(c, (h.q, h.r)) for c, h in sight.remembered]
    # a threat to take cover from, never a target
    for plan in plan_round(table, seed=3):
        assert "cyril_wellington" not in json.dumps(plan.journal())


def test_the_memory_changes_a_plan_and_a_replay_rebuilds_it() -> None:
    table = _played(SCRIPT)
    with_memory = plan_round(table, ["angus_laroq", "octavio_vaquero"], seed=3)
    scratch = scratch_of(table)
    scratch.sight.foes.adopt({})
    without = plan_on(scratch, ["angus_laroq", "octavio_vaquero"], seed=3)
    # Angus walks elsewhere, Octavio takes cover from the foe last seen
    assert with_memory[0].journal() != without[0].journal()
    assert "last seen" in with_memory[1].reasons[0]
    assert "last seen" not in without[1].reasons[0]
    # a journal replayed step by step rebuilds the same record, so the same plans
    replayed = _played([s.action for s in table.steps if s.action is not None])
    assert replayed.sight.foes.last_seen(replayed) == table.sight.foes.last_seen(table)
    again = plan_round(replayed, ["angus_laroq", "octavio_vaquero"], seed=3)
    assert [p.as_json() for p in again] == [p.as_json() for p in with_memory]


def test_a_foe_seen_down_is_forgotten() -> None:
    table = _played(SCRIPT)
    assert "cyril_wellington" in table.sight.foes.last_seen(table)["angus_laroq"]
    # down and back in sight (changed outside a step: noted when the record is read)
    table.character("cyril_wellington").unconscious = True
    table.token("token-cyril_wellington").hex = (7, 19)
    assert "cyril_wellington" not in table.sight.foes.last_seen(table)["angus_laroq"]


def test_the_autopilot_action_in_a_play_script_plans_with_the_memory(tmp_path: Path) -> None:
    """The same script, as a process and in this one, gives the same standing
    declarations: the memory is the table's, not the caller's."""
    lines = [*SCRIPT, Autopilot(who=["clem_perkins"], seed=3).journal_form()]
    script = tmp_path / "round.jsonl"
    script.write_text("".join(json.dumps(a) + "\n" for a in lines))
    out = tmp_path / "after.encounter.json"
    run = subprocess.run(
        [str(CLI), "play", str(MAIN_STREET), "--script", str(script), "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    saved = json.loads(out.read_text())["action_state"]["standing"]
    here = _played(lines)
    here.sync_to_model()
    assert saved["clem_perkins"] == here.encounter.action_state["standing"]["clem_perkins"]
    # and it is the plan made with the memory (cover from Cyril where he was last seen)
    planned = plan_round(_played(SCRIPT), ["clem_perkins"], seed=3)[0]
    # (the action's plan ends with its standing pass, which plan_round leaves out)
    given = [d["act"] for d in saved["clem_perkins"] if d["act"]["do"] != "pass"]
    assert given and given == [a["then"] for a in planned.journal() if a["do"] == "when_able"]
