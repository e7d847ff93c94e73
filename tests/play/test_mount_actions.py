"""mount / dismount (000 Firer is mounted −2, used only when worse than the firer's
movement penalty): the attack's TN follows the rider's state."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import Draw, DropProne, Place, StartActionTime, parse_action
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.mount_actions import Dismount, Mount
from twtw_desktop.play.session import open_table
from twtw_desktop.play.speed_actions import SetSpeed
from twtw_desktop.resources import maps_dir

MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"
HANK = "hank_daggett"


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    return t


def _mounted_items(p):
    return [i for i in p["tn_items"] if "mounted" in i]


def test_a_mounted_firer_takes_the_modifier_until_she_gets_down(table):
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    on_foot = table.preview(shot)
    assert not _mounted_items(on_foot)
    table.apply(Mount(who=MIRANDA))
    mounted = table.preview(shot)
    assert any("-2" in i and "000 Modifiers" in i for i in _mounted_items(mounted))
    assert mounted["result_modifier"] == on_foot["result_modifier"] - 2
    table.apply(parse_action({"do": "dismount", "who": MIRANDA}))
    assert table.preview(shot)["result_modifier"] == on_foot["result_modifier"]


def test_mounting_a_horse_token_takes_its_hex_and_speed(table):
    rider = table.token_for(MIRANDA)
    col, row = table.map.offset(rider.at)  # 0-based; a hex ref is 1-based
    table.apply(Place(who=HANK, to=[col + 4, row + 1]))  # three hexes east
    table.apply(SetSpeed(who=HANK, speed=10, facing=0))
    assert "next to" in (table.why_not(Mount(who=MIRANDA, horse=HANK)) or "")
    table.apply(Place(who=HANK, to=[col + 2, row + 1]))  # the next hex east
    horse = table.token_for(HANK)
    assert horse.at.distance(rider.at) == 1 and horse.velocity == (10.0, 0.0)
    table.apply(Mount(who=MIRANDA, horse=HANK))
    assert rider.at == horse.at and rider.velocity == horse.velocity and rider.mounted
    table.apply(Dismount(who=MIRANDA))
    assert rider.velocity == (0.0, 0.0) and not rider.mounted


def test_costs_and_refusals(table):
    table.apply(StartActionTime())
    assert table.cost(Mount(who=MIRANDA)).ap == 4
    assert table.cost(Dismount(who=MIRANDA)).ap == 2
    before = table.state_fingerprint()
    assert "not mounted" in (table.why_not(Dismount(who=MIRANDA)) or "")
    with pytest.raises(RulesError, match="not mounted"):
        table.apply(Dismount(who=MIRANDA))
    assert "not another token" in (table.why_not(Mount(who=MIRANDA, horse=MIRANDA)) or "")
    assert table.state_fingerprint() == before


def test_a_prone_rider_stands_first():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(DropProne(who=MIRANDA))
    assert "stand up first" in (t.why_not(Mount(who=MIRANDA)) or "")
