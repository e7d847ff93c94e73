"""The players' own choices at the run's stops (issue 39), from their pages: a posse
character able with nothing declared (000 Action Timing) sees it on the page, with
its choices and **Pass**; one offered AP from the pool for the stack (000 Determine
Bonus) sees the offer and **bids** (``{"do": "stack_bonus", "ap": N}``, ``ap`` 0: no
bid). Each is a request checked by the table like any other: its own character
only, refusals scrubbed, held for the Judge unless the posse's requests are
approved."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import StartActionTime, StartRound
from twtw_desktop.play.declarations import RunOn, WhenAble
from twtw_desktop.play.journal import line_for
from twtw_desktop.play.player_options import options
from twtw_desktop.play.player_requests import NO_FIGURE, NoBid, PageView, RequestDesk

from .conftest import sample_table

M, J, H = "miranda_valentine", "jonah_benton", "hank_daggett"


def _view(cid: str, **more: str) -> PageView:
    aliases = {"t1": f"token-{cid}", **{a: f"token-{c}" for a, c in more.items()}}
    return PageView(cid, aliases, frozenset(aliases.values()))


def _in_round():
    table = sample_table()
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.sight.look(table)
    return table


def _able_stop():
    """Main Street's round run to its first stop: Miranda can act on segment 1 with
    nothing declared."""
    table = _in_round()
    table.apply(RunOn())
    assert table.track.pending_declarers() == [M]
    return table


def _bid_stop():
    """Miranda turns about and Jonah turns left, both declared before the run: they
    share segment 2, and the run stops to offer them AP from the pool for the stack
    (Miranda up to 2, Jonah up to 1: their Quick Draw)."""
    table = _in_round()
    for cid, turn in ((M, 3), (J, 1)):
        f = int(table.encounter.token_for(cid).facing)
        table.apply(WhenAble(who=cid, then={"do": "face", "who": cid, "facing": (f + turn) % 6}))
    for _ in range(3):
        table.apply(RunOn(passing=table.track.pending_declarers()))
        if table.track.bonus_bidders(offered=True):
            break
    assert dict(table.track.bonus_bidders(offered=True)) == {M: 2, J: 1}
    return table


def test_the_page_of_a_character_able_with_nothing_declared_says_so_and_offers_pass():
    table = _able_stop()
    mine = options(table, _view(M))
    assert mine["turn"] == {"able": True, "bid": 0}
    passing = next(a for a in mine["actions"] if a["declare"] == {"do": "pass"})
    assert passing["why"] is None
    theirs = options(table, _view(H))
    assert theirs["turn"] == {"able": False, "bid": 0}


def test_a_pass_from_the_page_waits_for_the_judge_then_is_the_table_s_pass():
    table = _able_stop()
    lines: list = []
    table.listeners.append(lambda what, step: lines.append(line_for(step)))
    desk = RequestDesk(table.apply)
    reply = desk.receive(table, 1, _view(M), {"do": "pass"})
    assert reply["status"] == "waiting" and not lines
    assert table.track.pending_declarers() == [M]
    assert desk.approve(table, 1)["status"] == "approved"
    assert lines[-1] == {"do": "pass", "who": [M]}
    assert table.track.pending_declarers() == []


def test_a_page_passes_only_for_its_own_character():
    table = _able_stop()
    desk = RequestDesk(table.apply, approve_all=True)
    reply = desk.receive(table, 1, _view(H, t5=M), {"do": "pass", "who": "t5"})
    assert reply == {"request": 1, "status": "refused", "why": NO_FIGURE.format(name="'t5'")}
    # by its real id (what the page sent, echoed in the words of a figure not there)
    reply = desk.receive(table, 2, _view(H), {"do": "pass", "who": [M]})
    assert reply["status"] == "refused"
    assert reply["why"] == NO_FIGURE.format(name="'" + str([M]) + "'")
    assert table.track.pending_declarers() == [M]


def test_the_page_of_a_character_offered_ap_for_the_stack_offers_the_bid():
    table = _bid_stop()
    got = options(table, _view(M))
    assert got["turn"] == {"able": False, "bid": 2}
    bids = {a["label"]: a for a in got["actions"] if a["declare"]["do"] == "stack_bonus"}
    assert list(bids) == ["No bid", "Bid 1 AP for the stack", "Bid 2 AP for the stack"]
    assert all(a["why"] is None for a in bids.values())
    assert bids["Bid 2 AP for the stack"]["declare"] == {"do": "stack_bonus", "ap": 2}
    hank = options(table, _view(H))
    assert hank["turn"]["bid"] == 0
    assert not [a for a in hank["actions"] if a["declare"]["do"] == "stack_bonus"]


def test_a_bid_from_the_page_is_the_table_s_stack_bonus_once_approved():
    table = _bid_stop()
    lines: list = []
    table.listeners.append(lambda what, step: lines.append(line_for(step)))
    desk = RequestDesk(table.apply)
    assert desk.receive(table, 1, _view(M), {"do": "stack_bonus", "ap": 2})["status"] == "waiting"
    assert not lines
    assert set(desk.unanswered_offers(table)) == {M, J}
    assert desk.approve(table, 1)["status"] == "approved"
    assert lines[-1] == {"do": "stack_bonus", "who": M, "ap": 2}
    entry = next(e for e in table.track.stack() if e.character_id == M)
    assert entry.bonus_ap == 2
    assert desk.unanswered_offers(table) == [J]


def test_no_bid_changes_nothing_and_answers_the_offer():
    table = _bid_stop()
    before = table.encounter.model_dump_json()
    desk = RequestDesk(table.apply, approve_all=True)
    reply = desk.receive(table, 1, _view(J), {"do": "stack_bonus", "ap": 0})
    assert reply["status"] == "approved", reply
    assert table.encounter.model_dump_json() == before
    assert desk.unanswered_offers(table) == [M]
    # a page not offered anything cannot decline either (the table's words)
    reply = desk.receive(table, 2, _view(H), {"do": "stack_bonus", "ap": 0})
    assert reply["status"] == "refused" and "offered" in reply["why"]


@pytest.mark.parametrize(
    "declare",
    [
        {"do": "stack_bonus", "ap": 3},  # more than Miranda's Quick Draw
        {"do": "stack_bonus", "ap": -1},
        {"do": "stack_bonus", "ap": True},
        {"do": "stack_bonus", "ap": "2"},
        {"do": "stack_bonus"},
        {"do": "stack_bonus", "ap": 1, "who": "t5"},
        {"do": "stack_bonus", "ap": 0, "who": "t5"},
        {"do": "stack_bonus", "ap": 1, "card": "AS"},
    ],
)
def test_a_bid_the_table_would_not_take_is_refused_and_changes_nothing(declare):
    table = _bid_stop()
    before = table.encounter.model_dump_json()
    desk = RequestDesk(table.apply, approve_all=True)
    reply = desk.receive(table, 1, _view(M, t5=J), declare)
    assert reply["status"] == "refused", reply
    assert J not in reply["why"] and "Jonah" not in reply["why"]
    assert table.encounter.model_dump_json() == before
    assert not desk.waiting


def test_a_bid_is_not_declared_as_an_action():
    """A bid is spent on the stack now (000 Determine Bonus), never wrapped as a
    declaration to make when able."""
    table = _bid_stop()
    desk = RequestDesk(table.apply)
    desk.receive(table, 1, _view(M), {"do": "stack_bonus", "ap": 1})
    desk.receive(table, 2, _view(J), {"do": "stack_bonus", "ap": 0})
    reqs = [desk.waiting[1].action, desk.waiting[2].action]
    assert reqs[0].do == "stack_bonus" and not isinstance(reqs[0], WhenAble)
    assert isinstance(reqs[1], NoBid) and reqs[1].who == J


def test_in_action_time_a_shot_is_priced_with_its_tn_as_the_attack_panel_prices_it():
    """The page's shot at a figure it shows carries the TN and its breakdown in action
    time too (the request is declared when able; the price is the shot's own)."""
    table = _able_stop()
    foe = next(
        t.id for t in table.encounter.tokens
        if t.character_id and table.character(t.character_id).side == "hombres"
    )  # fmt: skip
    view = _view(M, t9=foe.removeprefix("token-"))
    entry = options(table, view, "t9")["targets"]["t9"]
    assert entry["declare"]["do"] == "normal_shot"
    assert entry.get("tn", 0) > 0 and entry["tn_items"] and entry.get("ap", 0) > 0, entry
