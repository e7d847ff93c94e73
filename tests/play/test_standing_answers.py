"""The run-on answers from what was given ahead (Qt-free): a standing pass lets the
segment go when the character is next able (000 Action Timing: "players may declare
actions" — may), a standing bid answers the stack's offer of AP from the pool (000
Determine Bonus); both are ordinary table steps, checked and undone like the rest."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import StartActionTime, StartRound
from twtw_desktop.play.declarations import RunOn, WhenAble, how
from twtw_desktop.play.session import open_table
from twtw_desktop.play.standing_actions import StandingBid, StandingPass

from .test_declarations import ANGUS, MIRANDA, SAMPLE, _move

CLEM = "clem_perkins"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    for cid in (MIRANDA, ANGUS):
        c = t.character(cid)
        c.weapons[0].readied = True
        c.weapons[0].cocked = True
    t.apply(StartActionTime())
    t.apply(StartRound())
    return t


def _labels(table, cid: str) -> list[str]:
    return [s.label for s in table.track.state.standing.get(cid, ())]


def _stops(table) -> list[str]:
    return [e.text for e in table.encounter.log if "stopped because" in e.text]


def test_a_standing_pass_waits_for_the_counters_then_passes_without_a_stop(table):
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    steps = table.position
    table.apply(StandingPass(who=MIRANDA))
    assert _labels(table, MIRANDA)[-1] == "pass when next able"
    for _ in range(6):
        table.apply(RunOn(passing=table.track.pending_declarers()))
        if any("Miranda Valentine pass" in e.text for e in table.encounter.log):
            break
    texts = [e.text for e in table.encounter.log]
    # her move on segment 1, then on segment 2, able again, she lets it go by herself
    assert "Segment 2: Miranda Valentine pass (they keep their counters)" in texts
    assert not any("Miranda Valentine can act" in t for t in _stops(table))
    assert not table.track.state.standing.get(MIRANDA) and table.track.row(MIRANDA).offered
    while table.position > steps:
        table.undo()
    assert _labels(table, MIRANDA) and _labels(table, MIRANDA)[-1] != "pass when next able"


def test_the_judges_action_goes_before_the_standing_pass(table):
    table.apply(StandingPass(who=MIRANDA))
    assert how(table, MIRANDA, 1) == "standing"  # segment 0: nothing is counted yet
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    labels = _labels(table, MIRANDA)
    assert len(labels) == 2 and labels[-1] == "pass when next able"
    assert "already" in (table.why_not(StandingPass(who=MIRANDA)) or "")
    # the run declares her move on segment 1, then she passes when next able
    table.apply(RunOn())
    assert not _labels(table, MIRANDA)
    assert "Segment 2: Miranda Valentine pass (they keep their counters)" in [
        e.text for e in table.encounter.log
    ]


def test_a_dropped_declaration_takes_the_pass_with_it_and_asks_again(table):
    shot = {"do": "normal_shot", "who": ANGUS, "target": MIRANDA, "weapon": "colt_walker"}
    table.apply(WhenAble(who=ANGUS, then=shot))
    table.apply(StandingPass(who=ANGUS))
    table.character(MIRANDA).dead = True  # down before Angus's counters cover the shot
    for _ in range(10):
        ev = table.apply(RunOn(passing=[c for c in table.track.pending_declarers()]))
        if "no longer applies" in ev.text:
            break
    assert "Angus Laroq's declaration" in ev.text and "no longer applies" in ev.text
    assert not table.track.state.standing.get(ANGUS)
    assert ANGUS in table.track.pending_declarers()  # asked again: the stop names him


def test_a_standing_bid_is_checked_by_the_table_and_withdrawn_like_a_declaration(table):
    assert "at most 0 AP" in (table.why_not(StandingBid(who=CLEM, ap=1)) or "")
    assert table.why_not(StandingBid(who=CLEM, ap=0)) is None
    assert "no standing bid" in (table.why_not(StandingBid(who=ANGUS)) or "")
    table.apply(StandingBid(who=ANGUS, ap=1))
    assert table.track.state.bids == {ANGUS: 1}
    table.apply(StandingBid(who=ANGUS))
    assert table.track.state.bids == {}
    table.undo()
    assert table.track.state.bids == {ANGUS: 1}
    pre = StandingBid(who=ANGUS, ap=0).preview(table)
    assert pre["cost"] == "free" and pre["why_not"] is None
