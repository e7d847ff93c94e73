"""A character's page in a real headless browser (Debian's Chromium), served by the
service on loopback: the map is drawn (its SVG hexes, walls and tokens, the
character's own token marked), the sheet shows that character's wounds, and a step
applied to the table reaches the page without reloading. Skipped, with the reason,
where Chromium is not installed (``apt-get install chromium``)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import shutil
import subprocess
import time

import aiohttp
import pytest

from twtw_desktop.play.actions import Place
from twtw_desktop.rules.base import WoundLocation

from .conftest import WAIT, served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)"
    ),
]
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=412,915",
]
WHO = "miranda_valentine"
TOKEN = "token-miranda_valentine"


def wounded(table):
    """Miranda with two wounds in the left arm and stunned (one step)."""
    ch = table.character(WHO)

    def hurt() -> None:
        ch.wounds[WoundLocation.LEFT_ARM] = 2
        ch.stunned = True

    table.run("hurt", hurt, ("characters",))
    return table


def page_url(svc) -> str:
    return next(a.url for a in svc.addresses() if a.key == WHO)


def dump_dom(svc, tmp_path) -> subprocess.CompletedProcess:
    """Miranda's page as Chromium has drawn it after five seconds of its time."""
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path}", "--virtual-time-budget=5000",
         "--dump-dom", page_url(svc)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_dump_dom_shows_the_map_and_the_sheet(table, tmp_path):
    with served(wounded(table)) as (svc, _):
        out = dump_dom(svc, tmp_path)
    dom = out.stdout
    assert '<svg id="map"' in dom, out.stderr[-2000:]
    ground = re.search(r'<g id="ground">(.*?)</g>', dom, re.S)
    assert ground and ground.group(1).count('class="hexes"') >= 1
    assert dom.count('class="wall"') > 10
    assert dom.count('<g class="token') >= 4
    assert dom.count('<g class="token me"') == 1
    assert 'class="fog-unknown"' in dom  # her own sight: the buildings' insides are dark
    assert "<title>Miranda Valentine — TWTW</title>" in dom
    assert re.search(r"<td[^>]*>Left arm</td><td[^>]*>●●</td><td[^>]*>2</td>", dom)
    assert re.search(r"<td[^>]*>Head</td><td[^>]*>–</td><td[^>]*>0</td>", dom)
    assert "<span>stunned</span>" in dom
    assert "Colt Peacemaker" in dom


async def _cdp(ws, ids, method: str, **params):
    n = next(ids)
    await ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
    while True:
        msg = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
        if msg.get("id") == n:
            return msg.get("result", {})


async def _eval(ws, ids, expr: str):
    r = await _cdp(ws, ids, "Runtime.evaluate", expression=expr, returnByValue=True)
    return r.get("result", {}).get("value")


def chromium_with_devtools(url: str, profile) -> tuple[subprocess.Popen, str]:
    """Chromium showing ``url`` with its DevTools open on a free port: (process, port).
    The caller ends the process."""
    proc = subprocess.Popen(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    for line in itertools.islice(proc.stderr, 200):  # bounded
        m = re.search(r"DevTools listening on (ws://\S+)", line)
        if m:
            return proc, re.search(r":(\d+)/", m.group(1)).group(1)
    proc.terminate()
    proc.wait(30)
    raise AssertionError("Chromium did not print its DevTools address")


@contextlib.asynccontextmanager
async def devtools_page(port: str, url: str):
    """The DevTools socket of the Chromium page showing ``url`` (Chromium started by
    :func:`chromium_with_devtools` on ``port``), waiting up to 10 s for the page."""
    async with aiohttp.ClientSession() as s:
        target = None
        for _ in range(100):  # bounded: up to 10 s
            async with s.get(f"http://127.0.0.1:{port}/json/list") as r:
                pages = [p for p in await r.json() if p.get("url") == url]
            if pages:
                target = pages[0]["webSocketDebuggerUrl"]
                break
            await asyncio.sleep(0.1)
        assert target, "the page did not open"
        async with s.ws_connect(target, max_msg_size=0) as ws:
            yield ws


async def tap_at(ws, ids, x: float, y: float) -> None:
    """Press and release the mouse at page point ``(x, y)``, as a finger taps."""
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        await _cdp(
            ws, ids, "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
            clickCount=1, pointerType="mouse",
        )  # fmt: skip


async def until(ws, ids, expr: str, tries: int = 200, pause: float = 0.1):
    """``expr`` evaluated in the page until it is truthy (None after ``tries``)."""
    for _ in range(tries):  # bounded: up to tries × pause
        v = await _eval(ws, ids, expr)
        if v:
            return v
        await asyncio.sleep(pause)
    return None


def test_a_step_reaches_the_open_page_without_reloading(table, tmp_path, capsys):
    with served(wounded(table)) as (svc, maker):
        url = page_url(svc)
        proc, port = chromium_with_devtools(url, tmp_path)
        try:
            me = "document.querySelector('#tokens g.token.me circle:last-of-type')"

            async def go():
                async with devtools_page(port, url) as ws:
                    ids = itertools.count(1)
                    before = await until(ws, ids, f"{me} && {me}.getAttribute('cx')")
                    assert before, "the page never drew its token"
                    assert (
                        await _eval(ws, ids, "document.querySelectorAll('#ground path').length") > 0
                    )
                    sheet = await _eval(ws, ids, "document.getElementById('sheet').innerText")
                    assert "Left arm" in sheet and "stunned" in sheet
                    start = table.token(TOKEN).at
                    t0 = time.perf_counter()
                    table.apply(Place(who=TOKEN, to=(start.q + 1, start.r)))
                    svc.publish(maker(table))
                    after = before
                    for _ in range(2000):  # bounded: up to 20 s
                        after = await _eval(ws, ids, f"{me}.getAttribute('cx')")
                        if after != before:
                            break
                        await asyncio.sleep(0.01)
                    seconds = time.perf_counter() - t0
                    loads = await _eval(
                        ws, ids, "performance.getEntriesByType('navigation').length"
                    )
                    return before, after, seconds, loads

            before, after, seconds, loads = asyncio.run(go())
        finally:
            proc.terminate()
            proc.wait(30)
    assert after != before
    assert loads == 1  # the same page: no reload
    with capsys.disabled():
        print(f"\nstep -> Chromium page updated in {seconds * 1e3:.0f} ms (loopback)")


def test_dump_dom_shows_the_pushed_card_and_the_rung_hex(table, tmp_path):
    """The Judge's pushes a phone shows: the last card, and the hex the Judge rings."""
    from types import SimpleNamespace

    at = table.token(TOKEN).at
    with served(table) as (svc, maker):
        card = SimpleNamespace(number=7, shield=1)  # what a frame reads of a card
        svc.publish(maker(table, card=card, ring=("ping", at.q + 1, at.r)))
        out = dump_dom(svc, tmp_path)
    dom = out.stdout
    assert dom.count('class="ring"') == 3, out.stderr[-2000:]
    assert re.search(r'<div id="card">Card 7 · shield 1</div>', dom)
