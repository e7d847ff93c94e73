"""set_speed (000 Target is moving): the Judge gives a figure a speed and heading,
and the attack's TN preview takes −1 per full 5 paces of relative speed."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import Draw, parse_action
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.play.speed_actions import SetSpeed
from twtw_desktop.resources import maps_dir

MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


@pytest.fixture
def table():
    return open_table(maps_dir() / "main_street.encounter.json").table


def _speed_items(p):
    return [i for i in p["tn_items"] if "speed" in i]


def test_the_tn_follows_the_speed_the_judge_sets(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    still = table.preview(shot)
    ev = table.apply(SetSpeed(who=ANGUS, speed=12, facing=0))
    assert table.token_for(ANGUS).velocity == (12.0, 0.0)
    assert "12 paces per round, east" in ev.text
    moving = table.preview(shot)
    assert moving["result_modifier"] == still["result_modifier"] - 2  # 12 paces: −2
    assert any("relative speed 12" in i for i in _speed_items(moving))
    # the firer running the same way at the same speed: relative speed 0 again
    table.apply(SetSpeed(who=MIRANDA, speed=12, facing=0))
    assert table.preview(shot)["result_modifier"] == still["result_modifier"]
    table.apply(parse_action({"do": "set_speed", "who": MIRANDA, "speed": 0}))
    assert table.preview(shot)["result_modifier"] == still["result_modifier"] - 2
    table.undo()
    table.undo()
    table.undo()
    assert table.preview(shot)["result_modifier"] == still["result_modifier"]


def test_the_wagon_example_from_the_page():
    """000: the wagon at 18 east and the vaquero at 8 west close at 26, −5; with the
    vaquero stopped by the Judge it is 18, −3."""
    t = open_table(maps_dir() / "legless_gulch.encounter.json").table
    cyril, octavio = "cyril_wellington", "octavio_vaquero"
    t.apply(Draw(who=cyril, weapon="sw_schofield"))
    shot = SnapShot(who=cyril, target=octavio)
    assert any("relative speed 26 paces: result -5" in i for i in _speed_items(t.preview(shot)))
    t.apply(SetSpeed(who=octavio, speed=0))
    assert any("relative speed 18 paces: result -3" in i for i in _speed_items(t.preview(shot)))
    # toward a hex straight west of him: 8 paces west again
    tok = t.token_for(octavio)
    col, row = t.map.offset(tok.at)
    t.apply(SetSpeed(who=octavio, speed=8, toward=(col - 2, row + 1)))
    assert t.token_for(octavio).velocity == (-8.0, 0.0)


def test_refusals_change_nothing(table):
    before = table.state_fingerprint()
    tok = table.token_for(ANGUS)
    col, row = table.map.offset(tok.at)
    here = SetSpeed(who=ANGUS, speed=5, toward=(col + 1, row + 1))
    assert "already" in (table.why_not(here) or "")
    with pytest.raises(RulesError):
        table.apply(here)
    both = SetSpeed(who=ANGUS, speed=5, facing=1, toward=(1, 1))
    assert "not both" in (table.why_not(both) or "")
    with pytest.raises(ValueError, match="speed"):
        parse_action({"do": "set_speed", "who": ANGUS, "speed": -3})
    assert table.state_fingerprint() == before
