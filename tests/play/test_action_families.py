"""The action families load when the catalogue or the table's hooks are first asked
for, not with the package (play/__init__.py ``load_families``): the window's first
frame does without them, and no action is ever checked, applied or parsed with a
family's actions or hooks missing.

Each check runs in a fresh interpreter: this test session has imported every family
already."""

from __future__ import annotations

import subprocess
import sys

from twtw_desktop.play import FAMILIES

PRELUDE = f"""
import sys
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
FAMILIES = {FAMILIES!r}
def loaded():
    return [f for f in FAMILIES if 'twtw_desktop.play.' + f in sys.modules]
table = open_table(maps_dir() / 'main_street.encounter.json').table
"""


def _run(body: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + body],
        capture_output=True,
        text=True,
        timeout=120,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_table_opens_without_the_families_and_checking_an_action_loads_them_all():
    out = _run(
        "print(len(loaded()))\n"
        "from twtw_desktop.play.actions import StartActionTime\n"
        "from twtw_desktop.play.table import AFTER_ACTION, ROUTE_ACTION\n"
        "assert table.why_not(StartActionTime()) is None\n"
        "print(len(loaded()), [h.__module__ for h in ROUTE_ACTION],"
        " [h.__module__ for h in AFTER_ACTION])\n"
    )
    before, after = out.splitlines()
    assert int(before) < len(FAMILIES)  # the sample's table needs few of them
    assert after == (
        f"{len(FAMILIES)} ['twtw_desktop.play.declarations'] ['twtw_desktop.play.cover_state']"
    )


def test_parsing_an_action_knows_every_family():
    out = _run(
        "from twtw_desktop.play.actions import all_actions, parse_action\n"
        "a = parse_action({'do': 'when_able', 'who': 'angus_laroq',"
        " 'then': {'do': 'wait', 'who': 'angus_laroq'}})\n"
        "print(type(a).__name__, len(loaded()), len(all_actions()))\n"
    )
    name, families, actions = out.split()
    assert (name, int(families)) == ("WhenAble", len(FAMILIES))
    assert int(actions) > 60  # the clock, moves and weapons and every family's


def test_an_aim_asks_the_covering_fire_even_with_nothing_else_loaded():
    out = _run(
        "from twtw_desktop.play.combat_actions import AIM_REFUSALS, aim_refusal\n"
        "aim_refusal(table, 'angus_laroq')\n"
        "print([h.__module__ for h in AIM_REFUSALS])\n"
    )
    assert out == "['twtw_desktop.play.cover_state']"


def test_the_journaled_autopilot_setting_parses_without_the_planner():
    """``autopilot_fight`` is journaled (issue 38): a replay or a recovery reads it
    with the table's own families, the planner (twtw_desktop.tactics) never imported."""
    out = _run(
        "from twtw_desktop.play.actions import parse_action\n"
        "a = parse_action({'do': 'autopilot_fight', 'on': True})\n"
        "print(type(a).__name__, any(m.startswith('twtw_desktop.tactics') for m in sys.modules))\n"
    )
    assert out == "AutopilotFight False"
