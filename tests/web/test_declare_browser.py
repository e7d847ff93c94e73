"""Declaring from a character's page in headless Chromium (issue 39), tapping as a
person would (mouse presses at screen points, through the DevTools protocol): the page
shows the reach the table worked out, a tap on a reached hex offers the move with its
AP, a tap on the button sends the request and the page shows it waiting; a tap on a
figure shows the shot's TN and its breakdown. Nothing changes on the table. At the
run's stops for the player's own choices, the page's turn box says so and offers
Pass, or No bid / Bid N for the stack, a tap asking for it."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from .conftest import sample_table, served
from .test_browser import CHROMIUM, _eval, chromium_with_devtools, devtools_page, tap_at, until
from .test_requests import table_side

#: the turn box's text once it shows; the first request held for the Judge, once listed
TURN = "!document.getElementById('turn').hidden && document.getElementById('turn').innerText"
WAITING = (
    "document.querySelector('#requests li.waiting') && "
    "document.querySelector('#requests li.waiting').innerText"
)

pytestmark = [
    pytest.mark.slow(minutes=1),
    pytest.mark.skipif(
        CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
    ),
]
WHO = "hank_daggett"


#: the first element matching a selector whose middle is on the map in view
IN_VIEW = (
    "(function(sel){var m=document.getElementById('map').getBoundingClientRect();"
    "var es=document.querySelectorAll(sel); for(var i=0;i<es.length;i++){"
    "var r=es[i].getBoundingClientRect(), x=r.left+r.width/2, y=r.top+r.height/2;"
    "if(x>m.left+40&&x<m.right-60&&y>m.top+10&&y<m.bottom-10) return [x,y];}"
    "var e=es[0]; if(!e) return null; r=e.getBoundingClientRect();"
    "return [r.left+r.width/2, r.top+r.height/2];})"
)


async def _tap(ws, ids, selector: str) -> bool:
    """Press and release the mouse at the middle of the first element ``selector``
    shows in view."""
    box = await _eval(ws, ids, f"{IN_VIEW}({selector!r})")
    if not box:
        return False
    await tap_at(ws, ids, *box)
    return True


def test_a_player_taps_a_hex_then_move_and_sees_the_request_waiting(tmp_path):
    table = sample_table()
    before = table.encounter.model_dump_json()
    with (
        served(table) as (svc, maker),
        table_side(table, svc, maker, approve_all=False) as (desk, _threads),
    ):
        url = next(a.url for a in svc.addresses() if a.key == WHO)

        async def play(ws, ids):
            n = await until(ws, ids, "document.querySelectorAll('#reach text').length")
            assert n, "the page never showed the reach"
            acts = await _eval(ws, ids, "document.getElementById('acts').innerText")
            # a figure: its shot's TN and breakdown, as the table priced it
            assert await _tap(ws, ids, "#tokens g.token:not(.me) circle:last-of-type")
            shot = await until(
                ws, ids,
                "document.getElementById('btn-shoot') && "
                "document.getElementById('picked').innerText",
            )  # fmt: skip
            # a hex of the reach: the move and its AP, then the request
            assert await _tap(ws, ids, "#reach text")
            move = await until(
                ws, ids,
                "document.getElementById('btn-move') && "
                "document.getElementById('btn-move').innerText",
            )  # fmt: skip
            assert await _tap(ws, ids, "#btn-move")
            waiting = await until(ws, ids, WAITING)
            return acts, shot, move, waiting

        acts, shot, move, waiting = _page_session(url, tmp_path, play)
        held = list(desk.waiting.values())
    assert "Draw the" in acts and "AP" in acts
    assert shot and "TN" in shot and "Range" in shot and "AP" in shot
    assert move and move.startswith("Move to [") and "AP" in move
    assert waiting and waiting.startswith("waiting") and "Hank Daggett" in waiting
    assert len(held) == 1 and held[0].action.do == "move"
    assert table.encounter.model_dump_json() == before  # held: the table is unchanged


def _page_session(url: str, tmp_path, play):
    """Chromium on ``url``; ``play(ws, ids)`` run against its DevTools socket."""
    proc, port = chromium_with_devtools(url, tmp_path)
    try:

        async def go():
            async with devtools_page(port, url) as ws:
                return await play(ws, itertools.count(1))

        return asyncio.run(go())
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_page_says_it_is_the_player_s_turn_and_a_tap_on_pass_asks_for_it(tmp_path):
    """The run stands for Miranda (able with nothing declared, 000 Action Timing): her
    page says so in its turn box with Pass; a tap on Pass sends the request, held
    for the Judge."""
    from .test_requests_turn import M, _able_stop

    table = _able_stop()
    with (
        served(table) as (svc, maker),
        table_side(table, svc, maker, approve_all=False) as (desk, _threads),
    ):
        url = next(a.url for a in svc.addresses() if a.key == M)

        async def play(ws, ids):
            said = await until(ws, ids, TURN)
            assert await _tap(ws, ids, "#btn-pass")
            return said, await until(ws, ids, WAITING)

        said, waiting = _page_session(url, tmp_path, play)
        held = list(desk.waiting.values())
    assert said and said.startswith("Your turn: you can act now with nothing declared")
    assert "Pass" in said
    assert waiting and waiting.startswith("waiting")
    assert len(held) == 1 and held[0].action.do == "pass"
    assert table.track.pending_declarers() == [M]  # held: nothing changed


def test_the_page_offers_the_bid_and_a_tap_asks_for_it(tmp_path):
    """The run stands to offer Miranda AP from the pool for the stack (000 Determine
    Bonus): her turn box says up to 2, with No bid and Bid 1 / Bid 2; a tap on Bid 2
    asks for the table's stack_bonus of 2 AP."""
    from .test_requests_turn import M, _bid_stop

    table = _bid_stop()
    with (
        served(table) as (svc, maker),
        table_side(table, svc, maker, approve_all=False) as (desk, _threads),
    ):
        url = next(a.url for a in svc.addresses() if a.key == M)

        async def play(ws, ids):
            said = await until(ws, ids, TURN)
            assert await _tap(ws, ids, "#btn-bid-2")
            return said, await until(ws, ids, WAITING)

        said, waiting = _page_session(url, tmp_path, play)
        held = list(desk.waiting.values())
    assert said and "AP from the pool for the stack: up to 2" in said
    assert "No bid" in said and "Bid 1 AP for the stack" in said and "Bid 2 AP" in said
    assert waiting and "2 AP for the stack" in waiting
    assert len(held) == 1 and held[0].action.do == "stack_bonus" and held[0].action.ap == 2
