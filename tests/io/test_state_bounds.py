"""Saved action time and deck state are bounded too (#15: numbers the game can mean)."""

from __future__ import annotations

import json

import pytest

from twtw_desktop.io import validate_file
from twtw_desktop.play.actions import EndSegment, StartActionTime, StartRound
from twtw_desktop.play.session import open_table, save_table
from twtw_desktop.resources import maps_dir


@pytest.fixture
def saved(tmp_path):
    opened = open_table(maps_dir() / "main_street.encounter.json")
    for a in (StartActionTime(), StartRound(), EndSegment()):
        opened.table.apply(a)
    out = tmp_path / "fight.encounter.json"
    save_table(opened, out)
    assert validate_file(out) == []
    return out


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        (("action_state", "rows", "miranda_valentine", "counters"), 10**18, "counters"),
        (("action_state", "round"), 10**12, "round"),
        (("deck_state", "draw_pile", 0), 99, "draw_pile"),
        (("deck_state", "reshuffles"), -1, "reshuffles"),
    ],
)
def test_absurd_saved_state_is_refused_with_its_field(saved, where, value, field):
    data = json.loads(saved.read_text())
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    saved.write_text(json.dumps(data))
    problems = validate_file(saved)
    assert problems and any(field in p for p in problems), problems
