"""The players' devices service on loopback: addresses and tokens, 403 and 404 with
no data, revoking, never listening while stopped, live updates and catching up, and
the headless ``serve`` command."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import socket
import threading
import urllib.error
import urllib.request

import aiohttp
import pytest

from twtw_desktop import cli
from twtw_desktop.play.actions import Place
from twtw_desktop.resources import maps_dir
from twtw_desktop.web import headless
from twtw_desktop.web.server import CLOSE_REVOKED, HISTORY, TOKEN_BYTES, DeviceService
from twtw_desktop.web.state import TABLE_PAGE, apply_patch, merge_patch

from .conftest import WAIT, served

MOVER = "token-hank_daggett"


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_one_address_per_posse_character_and_the_table(table):
    with served(table) as (svc, _):
        addrs = svc.addresses()
        assert [a.key for a in addrs] == [
            "miranda_valentine",
            "hank_daggett",
            "cyril_wellington",
            "jonah_benton",
            TABLE_PAGE,
        ]
        tokens = set()
        for a in addrs:
            m = re.fullmatch(rf"http://127\.0\.0\.1:{svc.port}/p/([A-Za-z0-9_-]+)/", a.url)
            assert m, a.url
            tokens.add(m.group(1))
            assert len(m.group(1)) * 6 >= 128 and TOKEN_BYTES >= 16
            status, body = get(a.url)
            assert status == 200 and b"app.js" in body
        assert len(tokens) == len(addrs)


def test_without_a_valid_token_403_and_no_data(table):
    with served(table) as (svc, _):
        base = f"http://127.0.0.1:{svc.port}"
        good = svc.addresses()[0].url
        token = good.split("/")[-2]
        for path in (
            "/p/",
            "/p/x/",
            "/p/x/app.js",
            "/p/x/ws",
            f"/p/{token[:-1]}/",
            f"/p/{token}x/",
        ):
            status, body = get(base + path)
            assert (status, body) == (403, b""), path


def test_outside_the_pages_404_and_no_data(table):
    with served(table) as (svc, _):
        base = f"http://127.0.0.1:{svc.port}"
        good = svc.addresses()[0].url
        for path in ("/", "/index.html", "/app.js", "/favicon.ico", "/static/app.js"):
            assert get(base + path) == (404, b""), path
        for name in ("nope", "index.html", "app.js/x", "state.json"):
            assert get(good + name) == (404, b""), name


def test_pages_carry_no_outside_address(table):
    with served(table) as (svc, _):
        url = svc.addresses()[0].url
        for name in ("", "app.js", "app.css", "icon.svg"):
            body = get(url + name)[1].decode()
            assert "https://" not in body and "//cdn" not in body, name
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            assert "default-src 'none'" in r.headers["Content-Security-Policy"]
            assert r.headers["Referrer-Policy"] == "no-referrer"


def test_new_addresses_revoke_the_old_ones_and_close_their_pages(table):
    with served(table) as (svc, _):
        old = svc.addresses()[0].url

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(old + "ws") as ws:
                await asyncio.wait_for(ws.receive(), WAIT)
                svc.new_addresses()
                msg = await asyncio.wait_for(ws.receive(), WAIT)
                return msg.type, ws.close_code

        kind, code = asyncio.run(go())
        assert kind in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert code == CLOSE_REVOKED
        assert get(old) == (403, b"")
        new = svc.addresses()[0].url
        assert new != old and get(new)[0] == 200


def test_stopped_service_does_not_listen_and_its_tokens_are_gone(table):
    svc = DeviceService()
    assert svc.addresses() == []
    with served(table) as (svc, _):
        port = svc.port
        url = svc.addresses()[0].url
        assert get(url)[0] == 200
    assert not svc.running and svc.addresses() == []
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    # started again: new tokens, the old address is refused
    from twtw_desktop.web.state import FrameMaker

    svc.start(FrameMaker()(table), "127.0.0.1", port)
    try:
        assert get(url) == (403, b"")
    finally:
        svc.stop()


def test_a_busy_port_is_a_one_line_error(table):
    with served(table) as (svc, maker):
        other = DeviceService()
        with pytest.raises(Exception, match=r"cannot listen on 127\.0\.0\.1:\d+"):
            other.start(maker(table), "127.0.0.1", svc.port)
        assert not other.running and other.addresses() == []


def test_a_step_reaches_the_page_as_a_small_patch_and_a_late_page_catches_up(table):
    with served(table) as (svc, maker):
        url = next(a.url for a in svc.addresses() if a.key == "miranda_valentine")

        async def go():
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(url + "ws") as ws:
                    first = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                    state, seq = first["full"], first["seq"]
                    start = table.token(MOVER).at
                    table.apply(Place(who=MOVER, to=(start.q + 1, start.r)))
                    svc.publish(maker(table))
                    raw = (await asyncio.wait_for(ws.receive(), WAIT)).data
                    msg = json.loads(raw)
                    assert msg["seq"] == seq + 1 and "patch" in msg
                    assert len(raw) < 400  # a move is a few hundred bytes at most
                    state = apply_patch(state, msg["patch"])
                    seq = msg["seq"]
                # offline: three more steps, then back with ?since=
                for dq in (2, 1, 2):
                    table.apply(Place(who=MOVER, to=(start.q + dq, start.r)))
                    svc.publish(maker(table))
                await asyncio.sleep(0.3)
                async with s.ws_connect(url + f"ws?since={seq}") as ws:
                    for _ in range(3):
                        msg = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                        assert msg["seq"] == seq + 1
                        state, seq = apply_patch(state, msg["patch"]), msg["seq"]
                async with s.ws_connect(url + "ws?since=0") as ws:
                    fresh = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                return state, seq, fresh

        state, seq, fresh = asyncio.run(go())
        assert fresh == {"seq": seq, "full": state}
        assert seq == 5 < HISTORY


def test_merge_patch_round_trip():
    old = {"a": 1, "t": {"x": {"q": 1, "r": 2}, "y": {"q": 0}}, "fog": [0, 3]}
    new = {"a": 1, "t": {"x": {"q": 2, "r": 2}, "z": {"q": 5}}, "card": {"n": 3}}
    patch = merge_patch(old, new)
    assert patch == {"t": {"x": {"q": 2}, "y": None, "z": {"q": 5}}, "fog": None, "card": {"n": 3}}
    assert apply_patch(old, patch) == new
    assert merge_patch(new, new) == {}


def test_serve_prints_name_and_url_per_posse_character_and_stops(capsys):
    stop = threading.Event()
    enc = str(maps_dir() / "main_street.encounter.json")
    out = io.StringIO()
    result: list[int] = []

    def run():
        with contextlib.redirect_stdout(out):
            result.append(headless.main([enc, "--port", "0"], stop))

    t = threading.Thread(target=run)
    t.start()
    try:
        lines: list[str] = []
        for _ in range(200):  # bounded: up to 20 s
            lines = out.getvalue().splitlines()
            if len(lines) >= 5:
                break
            stop.wait(0.1)
        names = [ln.rsplit(" ", 1)[0] for ln in lines]
        assert names == [
            "Miranda Valentine",
            "Hank Daggett",
            "Cyril Wellington",
            "Jonah Benton",
            "Table",
        ]
        port = {re.search(r":(\d+)/p/", ln).group(1) for ln in lines}
        assert len(port) == 1 and port != {"0"}
        assert get(lines[0].rsplit(" ", 1)[1])[0] == 200
    finally:
        stop.set()
        t.join(WAIT)
    assert result == [0]


def test_serve_bad_input_is_one_line_and_changes_nothing(capsys, tmp_path):
    assert cli.main(["serve", str(tmp_path / "missing.encounter.json"), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert cli.main(["serve", "x.json", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err
    assert cli.main(["help", "serve"]) == 0
    assert "--host" in capsys.readouterr().out


def test_a_door_opened_reaches_the_pages_map(table):
    with served(table) as (svc, maker):
        url = next(a.url for a in svc.addresses() if a.key == TABLE_PAGE)

        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(url + "ws") as ws:
                first = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                door = table.map.feature("bank-door")

                def open_it() -> None:
                    door.is_open = True

                table.run("open the bank door", open_it, ("map",))
                table.map_changed()
                svc.publish(maker(table))
                msg = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                return first["full"]["map"]["walls"], msg["patch"]

        walls, patch = asyncio.run(go())
        opened = [w for w in patch["map"]["walls"] if w[0] == "door" and w[1] == 1]
        assert len(opened) == 1 + sum(1 for w in walls if w[0] == "door" and w[1] == 1)
        assert set(patch) == {"map"}  # nothing else changed
