"""The clock's public words (play/public_clock.py): the headline agrees with the
players' screen's strip at every stage tried, for AP v2 and Phases, and each
character's row holds only plain numbers and words."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import EndSegment, StartActionTime, StartRound
from twtw_desktop.play.public_clock import headline, public_clock

from .conftest import sample_table


def stages(name: str):
    table = sample_table(name)
    yield table
    for step in (StartActionTime(), StartRound(), EndSegment(), EndSegment()):
        try:
            table.apply(step)
        except RulesError:
            continue
        yield table


@pytest.mark.parametrize("name", ["main_street.encounter.json", "laroq_hacienda.encounter.json"])
def test_headline_is_the_strips(name):
    strip = pytest.importorskip("twtw_desktop.ui.players.strip")
    seen = []
    for table in stages(name):
        seen.append(headline(table))
        assert seen[-1] == strip.public_track(table, set()).headline
    assert seen[0] == "Narrative time" and len(set(seen)) >= 3


def test_rows_are_plain_data():
    rows = {}
    for table in stages("main_street.encounter.json"):
        _head, rows = public_clock(table)
    posse = [c.id for c in table.encounter.characters if c.side == "posse"]
    assert set(posse) <= set(rows)
    for r in rows.values():
        assert {"ap", "counters", "spent", "status"} <= set(r)
        assert all(isinstance(v, int | str) for v in r.values())
