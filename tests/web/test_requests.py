"""Players' requests (issue 39): a page asks for its own character's action over its
WebSocket; the table's side checks it and answers. A page may ask only for its own
character, only about what it shows (refusals in the words of a figure or hex that
does not exist), and no message, flood or oversized request harms the table or the
other pages. ``serve --approve all`` applies requests at once; the default holds them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp
import numpy as np
import pytest

from twtw_desktop.play.player_requests import NO_FIGURE, NO_HEX, RequestDesk
from twtw_desktop.play.visibility import PlayersOptions
from twtw_desktop.resources import maps_dir
from twtw_desktop.web.headless import serve_request
from twtw_desktop.web.server import NOT_A_REQUEST, REQUEST_BURST, TOO_MANY

from .conftest import WAIT, sample_table, served

HANK = "hank_daggett"
HANK_TOKEN = "token-hank_daggett"
JONAH = "jonah_benton"


def _refs(table, cid):
    """A hex next to ``cid`` it has seen, and one it has never seen ([col, row])."""
    m = table.map
    table.sight.look(table)
    ever = table.sight.seen(cid, (m.rows, m.cols)).ever
    col, row = m.offset(table.token(f"token-{cid}").at)
    near = next(
        [c + 1, r + 1]
        for c, r in ((col, row + 1), (col, row - 1), (col + 1, row), (col - 1, row))
        if ever[r, c] and table.encounter.token_at(m.hex_at(c, r)) is None
    )
    r, c = np.argwhere(~ever)[0]
    return near, [int(c) + 1, int(r) + 1]


@contextlib.contextmanager
def table_side(table, svc, maker, options=None, approve_all=True):
    """The table's thread of a test: checks each request, answers, publishes."""
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    svc.on_request = inbox.put
    desk = RequestDesk(table.apply, approve_all=approve_all)
    stop = threading.Event()
    seen_threads: set[str] = set()

    def run() -> None:
        while not stop.is_set():
            try:
                req = inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            seen_threads.add(threading.current_thread().name)
            serve_request(table, svc, desk, req, lambda: svc.publish(maker(table, options)))

    t = threading.Thread(target=run, name="table-side", daemon=True)
    t.start()
    try:
        yield desk, seen_threads
    finally:
        stop.set()
        t.join(WAIT)


async def _ask(ws, declares: list) -> list[dict]:
    """Send each message; the answers, in order (updates skipped)."""
    for d in declares:
        await ws.send_str(d if isinstance(d, str) else json.dumps(d))
    out = []
    while len(out) < len(declares):
        msg = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
        if "request" in msg:
            out.append(msg)
    return out


async def _first(ws) -> dict:
    return json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)["full"]


def _url(svc, key):
    return next(a.url for a in svc.addresses() if a.key == key)


def test_a_page_moves_its_own_character_and_the_table_takes_it_on_its_own_thread():
    table = sample_table()
    near, _ = _refs(table, HANK)
    with served(table) as (svc, maker), table_side(table, svc, maker) as (_desk, threads):

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(_url(svc, HANK) + "ws") as ws:
                await _first(ws)
                [a] = await _ask(ws, [{"declare": {"do": "move", "who": "me", "to": near}}])
                upd = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                return a, upd

        a, upd = asyncio.run(go())
    assert a["status"] == "approved", a
    assert isinstance(a["request"], int) and "Hank" in a["why"]
    assert "patch" in upd
    assert list(table.map.offset(table.token(HANK_TOKEN).at)) == [near[0] - 1, near[1] - 1]
    assert threads == {"table-side"}  # never applied on the service's thread


@pytest.mark.parametrize("names", [True, False])
def test_a_request_names_only_what_the_page_shows_and_a_refusal_says_no_more(names):
    """Another character, a token the page does not see (real id, another page's
    alias, a guess), a hex never seen: all refused in the words of what does not
    exist, and the table unchanged. Jonah does not see Octavio, whom Hank's page
    shows."""
    table = sample_table()
    opts = PlayersOptions(names=names)
    near, unseen = _refs(table, JONAH)
    before = table.encounter.model_dump_json()
    with served(table, opts) as (svc, maker), table_side(table, svc, maker, opts):

        async def go():
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(_url(svc, HANK) + "ws") as ws:
                    hank = await _first(ws)
                async with s.ws_connect(_url(svc, JONAH) + "ws") as ws:
                    jonah = await _first(ws)
                    mine = {a for a, t in jonah["tokens"].items() if t.get("me")}
                    other_alias = next(a for a in hank["tokens"] if a not in jonah["tokens"])
                    miranda = next(
                        a for a, t in jonah["tokens"].items() if t["side"] == "posse" and
                        not t.get("me")
                    )  # fmt: skip
                    asks = [
                        {"do": "move", "who": "miranda_valentine", "to": near},
                        {"do": "move", "who": "token-miranda_valentine", "to": near},
                        {"do": "move", "who": miranda, "to": near},
                        {"do": "aim", "target": "token-octavio_vaquero"},
                        {"do": "aim", "target": other_alias},
                        {"do": "aim", "target": "t99"},
                        {"do": "aim", "target": "octavio_vaquero"},
                        {"do": "move", "to": unseen},
                        {"do": "move", "to": [999, 999]},
                    ]
                    names = ("miranda_valentine", "token-miranda_valentine", miranda,
                             "token-octavio_vaquero", other_alias, "t99", "octavio_vaquero")  # fmt: skip
                    return mine, names, await _ask(ws, [{"declare": d} for d in asks])

        mine, names, answers = asyncio.run(go())
    assert len(mine) == 1
    whys = [a["why"] for a in answers]
    assert all(a["status"] == "refused" for a in answers)
    assert whys[:7] == [NO_FIGURE.format(name=f"'{x}'") for x in names]
    assert whys[7] == NO_HEX.format(ref=f"[{unseen[0]}, {unseen[1]}]")
    assert whys[8] == NO_HEX.format(ref="[999, 999]")
    assert table.encounter.model_dump_json() == before


def test_a_refusal_from_the_table_names_hidden_figures_by_their_alias():
    """With names hidden, what the table says about a target (its why_not, the label of
    a waiting request) comes back naming it as the page does (its alias), never by its
    name or id."""
    table = sample_table()
    opts = PlayersOptions(names=False)
    with (
        served(table, opts) as (svc, maker),
        table_side(table, svc, maker, opts, approve_all=False),
    ):

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(_url(svc, HANK) + "ws") as ws:
                hank = await _first(ws)
                npc = next(a for a, t in hank["tokens"].items() if t["side"] == "hombres")
                asks = [{"declare": {"do": "aimed_shot", "target": npc, "aims": 9}}]
                asks += [{"declare": {"do": "snap_shot", "target": npc, "weapon": "nothing"}}]
                asks += [{"declare": {"do": "snap_shot", "target": npc, "draw_first": True}}]
                return npc, await _ask(ws, asks)

        npc, answers = asyncio.run(go())
    assert [a["status"] for a in answers] == ["refused", "refused", "waiting"]
    assert answers[2]["why"] == f"Hank Daggett attacks {npc}"
    names = [c.name for c in table.encounter.characters if c.side == "hombres"]
    ids = [t.id for t in table.encounter.tokens] + [c.id for c in table.encounter.characters]
    for a in answers:
        for secret in names + ids:
            assert secret not in a["why"] or secret in ("hank_daggett",), (secret, a["why"])


def test_malformed_oversized_and_floods_leave_the_table_and_the_other_pages_unharmed():
    table = sample_table()
    near, _ = _refs(table, HANK)
    before = table.encounter.model_dump_json()
    with served(table) as (svc, maker), table_side(table, svc, maker, approve_all=False):

        async def go():
            async with aiohttp.ClientSession() as s:
                miranda = await s.ws_connect(_url(svc, "miranda_valentine") + "ws")
                await _first(miranda)
                async with s.ws_connect(_url(svc, HANK) + "ws") as ws:
                    await _first(ws)
                    bad = await _ask(
                        ws,
                        [
                            "not json",
                            "[1, 2]",
                            json.dumps({"declare": {"do": "move"}, "more": 1}),
                            {"declare": "move"},
                            {"declare": {"do": "judge", "reason": "x", "patch": {}}},
                            {"declare": {"do": "move", "to": near, "extra": 1}},
                            {"declare": {"do": "when_able", "then": {"do": "when_able"}}},
                        ],
                    )
                    flood = await _ask(
                        ws, [{"declare": {"do": "face", "facing": 1}}] * (REQUEST_BURST + 8)
                    )
                    big = "x" * 5000
                    await ws.send_str(json.dumps({"declare": {"do": big}}))
                    closed = await asyncio.wait_for(ws.receive(), WAIT)
                # the other page still gets its answers
                [still] = await _ask(miranda, [{"declare": {"do": "face", "facing": 1}}])
                await miranda.close()
                return bad, flood, closed, still

        bad, flood, closed, still = asyncio.run(go())
    assert [a["status"] for a in bad] == ["refused"] * len(bad)
    assert bad[0]["why"] == bad[1]["why"] == bad[2]["why"] == NOT_A_REQUEST
    assert "the action a JSON object" in bad[3]["why"]
    assert "cannot ask for 'judge'" in bad[4]["why"]
    assert "no field 'extra'" in bad[5]["why"]
    assert "not another declaration" in bad[6]["why"]
    statuses = [a["status"] for a in flood]
    assert statuses.count("refused") >= 8
    assert any(a["why"] == TOO_MANY for a in flood)
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert still["status"] == "waiting", still
    assert table.encounter.model_dump_json() == before  # nothing applied while held


def test_the_table_page_cannot_request():
    table = sample_table()
    with served(table) as (svc, maker), table_side(table, svc, maker):

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(_url(svc, "table") + "ws") as ws:
                await _first(ws)
                return await _ask(ws, [{"declare": {"do": "face", "facing": 1}}])

        [a] = asyncio.run(go())
    assert a["status"] == "refused"


def _serve(*extra: str) -> tuple[subprocess.Popen, dict[str, str]]:
    exe = shutil.which("twtw-desktop", path=str(Path(sys.executable).parent))
    assert exe is not None
    src = maps_dir() / "main_street.encounter.json"
    proc = subprocess.Popen(
        [exe, "serve", str(src), "--port", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    urls: dict[str, str] = {}
    deadline = time.monotonic() + WAIT
    while "Table" not in urls and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("http") or " http" in line:
            name, url = line.rsplit(" ", 1)
            urls[name] = url.strip()
    assert "Table" in urls, proc.stderr.read() if proc.poll() is not None else urls
    return proc, urls


@pytest.mark.slow(minutes=1)
def test_serve_approve_all_applies_requests_and_the_default_holds_them():
    table = sample_table()
    near, _ = _refs(table, HANK)
    results = {}
    for extra in ([], ["--approve", "all"]):
        proc, urls = _serve(*extra)
        try:

            async def go(u=urls["Hank Daggett"]):
                async with aiohttp.ClientSession() as s, s.ws_connect(u + "ws") as ws:
                    first = await _first(ws)
                    [a] = await _ask(ws, [{"declare": {"do": "move", "to": near}}])
                    upd = None
                    with contextlib.suppress(asyncio.TimeoutError):
                        upd = json.loads((await asyncio.wait_for(ws.receive(), 2)).data)
                    return first, a, upd

            results[tuple(extra)] = asyncio.run(go())
        finally:
            proc.terminate()
            proc.wait(WAIT)
    first, held, upd = results[()]
    assert held["status"] == "waiting" and upd is None
    first, done, upd = results[("--approve", "all")]
    assert done["status"] == "approved"
    me = next(a for a, t in first["tokens"].items() if t.get("me"))
    assert upd["patch"]["tokens"][me]["q"] != first["tokens"][me]["q"] or (
        upd["patch"]["tokens"][me].get("r") != first["tokens"][me]["r"]
    )


def test_the_bench_s_request_run_loses_nothing():
    """The run behind the bench's request figures: every request reaches the table's
    side and every approval the phone, with six pages open (latencies are the
    bench's, never asserted here)."""
    from twtw_desktop.bench.web import request_run

    run = request_run(6)
    assert run.lost == 0
    assert len(run.to_table) == len(run.to_phone) == 6


def test_the_options_a_page_gets_are_cut_to_what_it_shows():
    """Jonah's page asks what it may offer: the targets are the figures his page shows
    (by their aliases there), the reach only hexes he has seen, and with names hidden
    no hombre's name or id is anywhere in it; costs and reasons are the table's."""
    table = sample_table()
    opts = PlayersOptions(names=False)
    with served(table, opts) as (svc, maker), table_side(table, svc, maker, opts):

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(_url(svc, JONAH) + "ws") as ws:
                jonah = await _first(ws)
                me = next(a for a, t in jonah["tokens"].items() if t.get("me"))
                others = [a for a in jonah["tokens"] if a != me]
                asked = [
                    {},
                    *({"target": a} for a in [*others, me, "t99", "token-octavio_vaquero"]),
                ]
                got = []
                for x in asked:
                    await ws.send_str(json.dumps({"options": x}))
                    while True:
                        msg = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                        if "options" in msg:
                            got.append(msg)
                            break
                return others, got

        others, answers = asyncio.run(go())
    msg = answers[0]
    got = msg["options"]
    assert got["targets"] == {}
    for a, m in zip(others, answers[1:], strict=False):
        assert set(m["options"]["targets"]) == {a}
    assert all(m["options"]["targets"] == {} for m in answers[len(others) + 1 :])
    m = table.map
    ever = table.sight.seen(JONAH, (m.rows, m.cols)).ever
    assert got["reach"] and all(ever[r - 1, c - 1] for c, r, _ap in got["reach"])
    assert all(isinstance(ap, int) for _c, _r, ap in got["reach"])
    text = json.dumps(answers)
    for c in table.encounter.characters:
        if c.side == "hombres":
            assert c.name not in text and c.id not in text, c.name
    draw = next(a for a in got["actions"] if a["declare"]["do"] == "draw")
    assert draw["ap"] > 0 and draw["why"] is None
    shot = next(t for m in answers for t in m["options"]["targets"].values() if "tn" in t)
    assert shot["tn"] > 0 and shot["tn_items"] and shot["ap"] > 0


def test_in_phases_the_page_declares_its_speed():
    """Phases action time: the options offer the round's speeds, and a request for
    one, approved, is the table's own declare step."""
    from twtw_desktop.play.actions import SetRules, StartActionTime, StartRound
    from twtw_desktop.play.player_options import options
    from twtw_desktop.play.player_requests import PageView

    table = sample_table()
    table.apply(SetRules(edition="phases", options=table.encounter.options))
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.sight.look(table)
    view = PageView(HANK, {"t2": HANK_TOKEN}, frozenset({HANK_TOKEN}))
    got = {a["label"]: a for a in options(table, view)["actions"]}
    assert {"Declare Quick", "Declare Half", "Declare Full"} <= set(got)
    assert got["Declare Half"]["why"] is None
    desk = RequestDesk(table.apply, approve_all=True)
    reply = desk.receive(table, 1, view, got["Declare Half"]["declare"])
    assert reply["status"] == "approved", reply
    assert table.track.row(HANK).declared == "normal"


def test_in_action_time_a_request_is_declared_as_the_window_declares_it():
    """AP v2 action time: a page's move becomes the window's own ``when_able`` step
    (now, on the stack, or standing), journaled as such, and undone like one."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.play.journal import line_for
    from twtw_desktop.play.player_requests import PageView

    table = sample_table()
    table.apply(StartActionTime())
    table.apply(StartRound())
    near, _ = _refs(table, HANK)
    view = PageView(HANK, {"t2": HANK_TOKEN}, frozenset({HANK_TOKEN}))
    lines = []
    table.listeners.append(lambda what, step: lines.append((what, line_for(step))))
    desk = RequestDesk(table.apply)
    reply = desk.receive(table, 1, view, {"do": "move", "to": near})
    assert reply["status"] == "waiting" and not lines
    (req,) = desk.waiting.values()
    assert req.action.do == "when_able" and req.action.then["do"] == "move"
    before = table.encounter.model_dump_json()
    assert desk.approve(table, 1)["status"] == "approved"
    assert lines[-1][0] == "do" and lines[-1][1]["do"] == "when_able"
    assert lines[-1][1]["then"] == {"do": "move", "who": HANK, "to": near}
    table.undo()
    assert table.encounter.model_dump_json() == before
