"""#16 A round without grinding, at the table (AP v2).

* Counting on (``count_on``, ``when_able``): acting with a character whose counters do
  not cover the action yet counts the segments until they do, in the same step —
  nobody's counters are removed, one undo takes it all back, the journal replays it.
* An action carried out as it is paid waits for no initiative stack (house reading of
  000 Simultaneous Actions); actions declared on the track to wait for it still do.
* Who is due next: the character whose counters are fewest short of their cheapest
  shot, blow or draw, then ascending Quickness.
"""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.actions import (
    EndSegment,
    Move,
    StartActionTime,
    StartRound,
    parse_action,
    ref_of,
)
from twtw_desktop.play.combat_actions import AttackCard, SnapShot
from twtw_desktop.play.journal import replay
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import (
    CountOn,
    DeclareAction,
    NextDue,
    Resolve,
    WhenAble,
    due_next,
    is_due,
)
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    t.apply(StartActionTime())
    t.apply(StartRound())  # segment 0: nobody has a counter yet
    return t


def _free_step(table, cid: str) -> Hex:
    tok = table.token_for(cid)
    for i in range(6):
        n = tok.at.neighbor(i)
        if table.map.contains(n) and table.encounter.token_at(n) is None:
            return n
    raise AssertionError("no free hex")


# -- the engine ---------------------------------------------------------------------


def test_count_until_counts_to_the_first_segment_with_enough_counters(table):
    track = table.track
    row = track.row(MIRANDA)
    events = track.count_until(MIRANDA, 2)
    assert track.row(MIRANDA).counters == 2
    assert [e.segment for e in events] == list(range(1, track.state.segment + 1))
    assert track.state.segment == row.first_segment + 1
    with pytest.raises(RulesError, match="can be paid now"):
        track.count_until(MIRANDA, 2)


def test_a_count_that_cannot_be_reached_changes_nothing(table):
    track = table.track
    state = track.state
    row = track.row(MIRANDA)
    too_many = row.round_ap + 1
    why = track.count_until_refusal(MIRANDA, too_many)
    assert why and f"at most {row.round_ap} counter" in why
    with pytest.raises(RulesError):
        track.count_until(MIRANDA, too_many)
    assert track.state == state


def test_counted_shows_the_track_as_it_would_stand_and_puts_it_back(table):
    track = table.track
    state = track.state
    with track.counted(MIRANDA, 3) as segment:
        assert track.state.segment == segment and track.row(MIRANDA).counters == 3
    assert track.state == state
    assert track.count_until_refusal(MIRANDA, 3) is None and track.state == state


# -- the table actions ----------------------------------------------------------------


def test_count_on_is_one_step_and_names_who_could_have_acted(table):
    before = table.track.state
    ev = table.apply(CountOn(who=MIRANDA, ap=4))
    assert ev.text.startswith("Counted segment")
    assert table.track.row(MIRANDA).counters == 4
    assert "could act too" in ev.text  # others' counters kept building
    table.undo()
    assert table.track.state == before


def test_when_able_counts_on_then_moves_as_one_step(table):
    dest = _free_step(table, MIRANDA)
    move = Move(who=MIRANDA, to=list(ref_of(table, dest)))
    assert "counter" in (table.why_not(move) or "") or table.why_not(move)
    ap = move.spec(table).ap
    act = WhenAble(who=MIRANDA, ap=ap, then=move.journal_form())
    assert table.why_not(act) is None
    assert act.cost(table).ap == ap
    steps = len(table.steps)
    ev = table.apply(act)
    assert table.token_for(MIRANDA).at == dest
    assert "Counted segment" in ev.text and "Miranda" in ev.text
    assert len(table.steps) == steps + 1
    assert table.track.row(MIRANDA).spent == ap
    table.undo()
    assert table.token_for(MIRANDA).at != dest and table.track.state.segment == 0


def test_when_able_is_the_action_itself_where_nothing_needs_counting(table):
    table.apply(CountOn(who=MIRANDA, ap=2))
    segment = table.track.state.segment
    dest = _free_step(table, MIRANDA)
    move = Move(who=MIRANDA, to=list(ref_of(table, dest)))
    table.apply(WhenAble(who=MIRANDA, ap=1, then=move.journal_form()))
    assert table.track.state.segment == segment  # no segment counted
    assert table.token_for(MIRANDA).at == dest


def test_when_able_refuses_what_counting_cannot_make_possible(table):
    dest = _free_step(table, MIRANDA)
    move = Move(who=MIRANDA, to=list(ref_of(table, dest)))
    act = WhenAble(who=MIRANDA, ap=40, then=move.journal_form())
    why = table.why_not(act)
    assert why and "at most" in why
    with pytest.raises(RulesError):
        table.apply(act)
    assert table.track.state.segment == 0


def test_when_able_takes_an_action_not_another_count():
    with pytest.raises(ValueError, match="not another count"):
        WhenAble(who=MIRANDA, ap=2, then={"do": "count_on", "who": MIRANDA, "ap": 2})
    with pytest.raises(ValueError, match="unknown action"):
        WhenAble(who=MIRANDA, ap=2, then={"do": "no_such_thing"})


def test_a_counted_draw_and_its_shot_replay_from_the_journal(table):
    """The window's Draw for a shooter short of counters: ``when_able`` around
    ``attack_card``, then the shot reading the held card; the journal's lines
    replay to the same table."""
    shot = SnapShot(who=MIRANDA, target=ANGUS, draw_first=True)
    ap = shot.plan(table).spec.ap
    when = WhenAble(who=MIRANDA, ap=ap, then=AttackCard(who=MIRANDA).journal_form())
    drawn = table.apply(when, merge_key="k")
    assert drawn.cards  # the card taken off the deck comes through
    held = SnapShot(who=MIRANDA, target=ANGUS, draw_first=True, held_card=drawn.cards[0])
    table.apply(held, merge_key="k")
    assert len(table.steps) == 3  # action time, the round, and count + card + shot
    lines = [
        StartActionTime().journal_form(),
        StartRound().journal_form(),
        when.journal_form(),
        held.journal_form(),
    ]
    assert parse_action(lines[2]) == when
    fresh = open_table(SAMPLE).table
    result = replay(fresh, lines)
    assert result.stopped is None, result
    assert fresh.track.state == table.track.state
    assert fresh.encounter.characters == table.encounter.characters


# -- the stack ----------------------------------------------------------------------


def test_actions_carried_out_as_paid_wait_for_no_stack(table):
    """Two moves on one segment: each happened as it was paid; F6 goes on at once."""
    other = ANGUS
    table.apply(CountOn(who=MIRANDA, ap=1))
    while (table.time.counters(other) or 0) < 1:
        table.apply(EndSegment())
    for cid in (MIRANDA, other):
        if (table.time.counters(cid) or 0) < 1:
            continue
        dest = _free_step(table, cid)
        table.apply(Move(who=cid, to=list(ref_of(table, dest))))
    assert len([e for e in table.track.stack() if not e.resolved]) == 2
    assert all(e.performed for e in table.track.stack())
    assert table.why_not(NextDue()) is None


def test_actions_declared_to_wait_still_need_the_stack(table):
    m = DeclareAction(who=MIRANDA, action="move")
    a = DeclareAction(who=ANGUS, action="move")
    for _ in range(20):
        if table.why_not(m) is None and table.why_not(a) is None:
            break
        table.apply(EndSegment())
    table.apply(m)
    table.apply(a)
    assert not any(e.performed for e in table.track.stack())
    why = table.why_not(NextDue())
    assert why and "stack" in why
    table.apply(Resolve())
    assert table.why_not(NextDue()) is None


# -- who is due next ----------------------------------------------------------------


def test_due_next_is_the_fewest_counters_short_then_quickness(table):
    track = table.track
    first = due_next(table)
    assert first is not None
    assert not is_due(table, first)  # segment 0: nobody has counters
    table.apply(CountOn(who=first, ap=1))
    # whoever is due now has the fewest counters missing of anyone
    nxt = due_next(table)
    short = {
        cid: max(0, (min_ap or 99) - r.counters)
        for cid, r in track.state.rows.items()
        for min_ap in [_cheapest(table, cid)]
    }
    assert short[nxt] == min(short.values())


def _cheapest(table, cid):
    from twtw_desktop.play.track_actions import _cheapest_attack

    return _cheapest_attack(table, cid)
