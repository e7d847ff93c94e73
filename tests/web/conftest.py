"""Shared pieces of the players' devices tests: a sample table, the service on
loopback, and a small client (aiohttp's) that reads every byte a page is served."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator

import aiohttp
import pytest

from twtw_desktop.play.session import open_table
from twtw_desktop.play.visibility import PlayersOptions
from twtw_desktop.resources import maps_dir
from twtw_desktop.web.server import ASSETS, DeviceService
from twtw_desktop.web.state import FrameMaker

SAMPLES = sorted(p.name for p in maps_dir().glob("*.encounter.json"))
#: a bound on every wait in these tests (seconds)
WAIT = 20


def sample_table(name: str = "main_street.encounter.json"):
    return open_table(maps_dir() / name).table


def move(table, token_id: str, q: int, r: int) -> None:
    """One table step: a token to another hex."""
    tok = table.token(token_id)

    def go() -> None:
        tok.hex = (q, r)

    table.run("move", go, ("tokens",))


@contextlib.contextmanager
def served(
    table, options: PlayersOptions | None = None
) -> Iterator[tuple[DeviceService, FrameMaker]]:
    maker = FrameMaker()
    svc = DeviceService()
    svc.start(maker(table, options), "127.0.0.1", 0)
    try:
        yield svc, maker
    finally:
        svc.stop()


async def page_bytes(session: aiohttp.ClientSession, url: str) -> list[bytes]:
    """Every file of one page and its first WebSocket message."""
    out = []
    for name in ASSETS:
        async with session.get(url + name) as r:
            assert r.status == 200
            out.append(await r.read())
    async with session.ws_connect(url + "ws") as ws:
        msg = await asyncio.wait_for(ws.receive(), WAIT)
        out.append(msg.data.encode())
    return out


def all_bytes(svc: DeviceService) -> dict[str, bytes]:
    """Page key -> everything served to that page (files and the first state)."""

    async def go():
        async with aiohttp.ClientSession() as s:
            return {a.key: b"\n".join(await page_bytes(s, a.url)) for a in svc.addresses()}

    return asyncio.run(go())


def first_state(svc: DeviceService, key: str) -> dict:
    url = next(a.url for a in svc.addresses() if a.key == key)

    async def go():
        async with aiohttp.ClientSession() as s, s.ws_connect(url + "ws") as ws:
            msg = await asyncio.wait_for(ws.receive(), WAIT)
            return json.loads(msg.data)

    return asyncio.run(go())


@pytest.fixture
def table():
    return sample_table()
