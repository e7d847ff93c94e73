"""mount / dismount (000 Firer is mounted −2, used only when worse than the firer's
movement penalty): the attack's TN follows the rider's state; the mount carries its
rider wherever it goes (000 Continuous Action Movement: the rider pays no AP for it)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import (
    Draw,
    DropProne,
    EndSegment,
    Move,
    Place,
    StartActionTime,
    StartRound,
    parse_action,
    ref_of,
)
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.mount_actions import Dismount, Mount
from twtw_desktop.play.session import open_table
from twtw_desktop.play.speed_actions import SetSpeed
from twtw_desktop.play.track_actions import Continuous
from twtw_desktop.resources import maps_dir

from .deck_support import next_segment

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


def _horse_beside_miranda(t):
    rider = t.token_for(MIRANDA)
    col, row = t.map.offset(rider.at)
    t.apply(Place(who=HANK, to=[col + 2, row + 1]))  # the next hex east: Hank is the horse
    t.apply(Mount(who=MIRANDA, horse=HANK))
    return rider, t.token_for(HANK), col, row


def test_the_mount_carries_its_rider_and_undo_takes_both_back(table):
    rider, horse, col, row = _horse_beside_miranda(table)
    assert rider.riding == horse.id
    before = table.state_fingerprint()
    ev = table.apply(Move(who=HANK, to=[col + 5, row + 1]))
    assert rider.at == horse.at and rider.facing == horse.facing
    assert "Hank Daggett moves to" in ev.text
    table.undo()
    assert table.state_fingerprint() == before
    # the Judge's hand (a drag in narrative time) carries the rider as well
    table.apply(Place(who=HANK, to=[col + 2, row + 3]))
    assert rider.at == horse.at
    # the mount's speed is the rider's
    table.apply(SetSpeed(who=HANK, speed=18, facing=0))
    assert rider.velocity == horse.velocity == (18.0, 0.0)
    # the rider is not moved on their own
    for refused in (
        Move(who=MIRANDA, to=[col + 1, row + 1]),
        Place(who=MIRANDA, to=[col + 1, row + 1]),
        SetSpeed(who=MIRANDA, speed=5),
    ):
        assert "rides Hank Daggett" in (table.why_not(refused) or "")
    table.apply(Dismount(who=MIRANDA))
    assert rider.riding is None
    table.apply(Move(who=HANK, to=[col + 6, row + 1]))
    assert rider.at != horse.at  # on foot now: the horse goes alone


def test_in_action_time_the_mount_pays_and_the_rider_moves_with_its_paces(table):
    rider, horse, col, row = _horse_beside_miranda(table)
    table.apply(StartActionTime())
    table.apply(StartRound())
    ride = Move(who=HANK, to=[col + 3, row + 1])
    for _ in range(25):
        if table.why_not(ride) is None:
            break
        next_segment(table)
    spent = table.track.row(MIRANDA).spent
    ev = table.apply(ride)
    assert "carrying Miranda Valentine" in ev.text
    assert rider.at == horse.at and rider.moved == horse.moved == len(ev.record["path"]) - 1
    assert table.track.row(MIRANDA).spent == spent  # 000: the rider pays no AP for the mount
    # the mounted firer's −2 beats the walking mount's −1 (000 Move and Fire)
    items = table.preview(SnapShot(who=MIRANDA, target=ANGUS))["tn_items"]
    assert any("mounted" in i and "-2" in i for i in items)
    table.undo()
    assert rider.moved == 0 and rider.at == horse.at


def test_a_continuous_mover_carries_its_rider_each_segment_and_stops_short(table):
    # 000 Continuous Action Movement: 20 paces a round is one pace a segment
    rider, horse, _col, _row = _horse_beside_miranda(table)
    table.apply(SetSpeed(who=HANK, speed=20, facing=0))  # east, the horse's heading
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.apply(Continuous(mover=HANK, paces=20, name="Hank's horse"))
    start = horse.at
    ev = table.apply(EndSegment())
    assert "moves on 1 pace(s)" in ev.text and "carrying Miranda Valentine" in ev.text
    assert "moves on 1 pace(s)" in table.encounter.log[-1].detail["map"][0]  # the step's line
    assert horse.at == start.neighbor(0) and rider.at == horse.at
    assert rider.moved == horse.moved == 1
    table.undo()
    assert horse.at == rider.at == start
    # a figure in the way: the mover stops short of it
    ahead = start.neighbor(0).neighbor(0)
    table.apply(Place(who=ANGUS, to=ref_of(table, ahead)))
    next_segment(table)
    ev = table.apply(EndSegment())
    assert "stopped by another figure" in ev.text
    assert horse.at == start.neighbor(0) == rider.at
