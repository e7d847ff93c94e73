"""The map's background picture on the pages: served (read through io's one safe
picture path) only while the players may see it; a private background is neither
described in any state nor served."""

from __future__ import annotations

import asyncio
import json
import shutil
import struct
import urllib.error
import urllib.request
import zlib

import aiohttp
import pytest

from twtw_desktop.model.map import BackgroundImage
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.web.state import TABLE_PAGE

from .conftest import WAIT, all_bytes, served


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def pictured(tmp_path):
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "secret-plan.png").write_bytes(png(8, 6))
    opened = open_table(tmp_path / "main_street.encounter.json")
    return opened, (tmp_path / "secret-plan.png").read_bytes()


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            return r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        return e.code, "", e.read()


def first(url: str) -> dict:
    async def go():
        async with aiohttp.ClientSession() as s, s.ws_connect(url + "ws") as ws:
            return json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)["full"]

    return asyncio.run(go())


@pytest.mark.parametrize("public", [True, False])
def test_background_only_when_the_players_may_see_it(pictured, public):
    """The whole picture only to the table page with the fog off; a character's page
    (whose map is cut to what its character has seen) never gets it."""
    opened, data = pictured
    table = opened.table
    table.map.background = BackgroundImage(
        path="secret-plan.png", x=1.0, y=2.0, scale=0.5, width=8, height=6,
        visible_to_players=public,
    )  # fmt: skip
    with served(table) as (svc, _):
        for a in svc.addresses():
            state = first(a.url)
            status, kind, body = get(a.url + "background")
            if public and a.key == TABLE_PAGE:  # the table page without the fog
                assert state["map"]["bg"]["w"] == 4.0 and state["map"]["bg"]["y"] == 2.0
                assert (status, kind, body) == (200, "image/png", data), a.key
            else:  # a character's page: the picture is never sent whole (issue 36)
                assert "bg" not in state["map"]
                assert (status, body) == (404, b""), a.key
        blobs = all_bytes(svc)
        status, _kind, body = get(svc.addresses()[0].url.rsplit("/", 2)[0] + "/x/background")
    assert (status, body) == (403, b"")
    for key, blob in blobs.items():
        if not public or key != TABLE_PAGE:
            assert b"secret-plan" not in blob and data not in blob, key
    assert TABLE_PAGE in blobs
