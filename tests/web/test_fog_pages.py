"""The phones keep the fog (issue 36): a character's page holds nothing of a hex its
character has not seen this session — terrain, wall, door state, label, marker,
picture — over a whole scripted fight on the Laroq hacienda; a door opened or closed
out of sight sends that page nothing, and shows its state then when the character
next sees it; a Judge-only edit sends nothing to any page; with names hidden, an NPC
back in sight gets a new alias; ``serve``'s table page has the fog on.

The hexes a character has seen are worked out here on their own (its token's sight
after every step, :func:`~twtw_desktop.geometry.visibility.visible_mask`), not read
from the table's record the pages are built from."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import shutil
import subprocess
import sys
import time

import aiohttp
import numpy as np
import pytest
import shapely

from twtw_desktop.geometry.hexcut import hexes_touching, polygons_of
from twtw_desktop.geometry.visibility import SightSnapshot, visible_mask
from twtw_desktop.hexgrid import Hex
from twtw_desktop.model.map import BackgroundImage, Label, Marker
from twtw_desktop.play.actions import Place
from twtw_desktop.play.session import open_table
from twtw_desktop.play.visibility import POSSE_SIDE, PlayersOptions, character_viewers
from twtw_desktop.resources import maps_dir
from twtw_desktop.web.state import TABLE_PAGE, FrameMaker, PageBuilder, apply_patch, merge_patch

from .conftest import WAIT, served
from .test_background import png
from .test_browser import CHROMIUM, FLAGS

HACIENDA = "laroq_hacienda"
JONAH = "jonah_benton"
NAMES_OFF = PlayersOptions(names=False)


@pytest.fixture
def hacienda(tmp_path):
    """The hacienda with a background picture the players may see."""
    for f in maps_dir().glob(f"{HACIENDA}*"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "plan.png").write_bytes(png(700, 450))
    opened = open_table(tmp_path / f"{HACIENDA}.encounter.json")
    opened.table.map.background = BackgroundImage(
        path="plan.png", x=0.0, y=0.0, scale=0.1, width=700, height=450, visible_to_players=True
    )
    return opened.table


def check_picture(table, ever: np.ndarray, data: bytes) -> None:
    """``data`` (a page's picture) is the map's picture, transparent on every hex
    outside ``ever`` and the picture's own colour inside (a pixel's centre 0.15 map
    units or more from the edge of the seen hexes; the pixels are 0.1 wide)."""
    from PySide6.QtGui import QImage

    b = table.map.background
    img = QImage.fromData(data)
    assert (img.width(), img.height()) == (b.width, b.height)
    area = shapely.union_all(polygons_of(table.map, np.flatnonzero(ever.ravel())))
    a = np.radians(b.rotation)
    px, py = np.meshgrid(np.arange(0, b.width, 3), np.arange(0, b.height, 3))
    u, v = (px.ravel() + 0.5) * b.scale, (py.ravel() + 0.5) * b.scale
    x = b.x + u * np.cos(a) - v * np.sin(a)
    y = b.y + u * np.sin(a) + v * np.cos(a)
    pts = shapely.points(x, y)
    d = shapely.distance(area, pts)
    edge = shapely.distance(area.boundary, pts)
    kept = cut = 0
    for i, (i_x, i_y) in enumerate(zip(px.ravel(), py.ravel(), strict=True)):
        c = img.pixelColor(int(i_x), int(i_y))
        if d[i] > 0.15:  # well outside every seen hex
            assert c.alpha() == 0, (i_x, i_y)
            cut += 1
        elif d[i] == 0 and edge[i] > 0.15:
            assert c.getRgb() == (0x80, 0x40, 0x20, 255), (i_x, i_y)
            kept += 1
    assert kept > 50 and cut > 1000, (kept, cut)


def posse(table) -> list[str]:
    return [c.id for c in table.encounter.characters if c.side == POSSE_SIDE]


class Oracle:
    """What each posse character has seen, step by step, and each door's state as
    each character last saw it."""

    def __init__(self, table) -> None:
        self.ever: dict[str, np.ndarray] = {}
        self.doors: dict[str, dict[str, bool]] = {}
        self.look(table)

    def look(self, table) -> None:
        m = table.map
        snap = SightSnapshot.of(m, table.walls())
        for cid in posse(table):
            now = np.zeros((m.rows, m.cols), dtype=bool)
            for v in character_viewers(table.encounter, m, cid):
                now |= visible_mask(snap, [v])
            self.ever[cid] = self.ever.get(cid, np.zeros_like(now)) | now
            for f in m.features:
                if f.kind in ("door", "window") and now.ravel()[hexes_touching(m, f.points)].any():
                    self.doors.setdefault(cid, {})[f.id] = f.is_open


def step(table, oracle: Oracle, label: str, go, areas=("map",)) -> None:
    table.run(label, go, areas)
    oracle.look(table)


def put(table, token: str, h: Hex) -> None:
    """A Place step (its hex as the map labels it: column and row from 1)."""
    col, row = table.map.offset(h)
    table.apply(Place(who=token, to=(col + 1, row + 1)))


def place(table, oracle: Oracle, token: str, h: Hex) -> None:
    put(table, token, h)
    oracle.look(table)


def toggle(table, oracle: Oracle, door_id: str) -> None:
    f = next(x for x in table.map.features if x.id == door_id)

    def go() -> None:
        f.is_open = not f.is_open

    step(table, oracle, "door", go)


def fight(table, oracle: Oracle, publish) -> None:
    """A scripted fight: the posse walks in, the hombres move, doors open and close
    (in sight and out of it), the Judge edits his own label, a public marker and a
    label appear far off; every step is published."""
    m = table.map

    def add_far_things() -> None:
        m.markers.append(Marker(id="mk-far", hex=(30, 3), kind="other", text="far cache",
                                judge_only=False))  # fmt: skip
        m.labels.append(Label(id="lab-far", at=m.layout().hex_to_pixel(Hex(31, 2)),
                              text="far hideout"))  # fmt: skip

    step(table, oracle, "far things", add_far_things)
    publish()
    doors = [f.id for f in m.features if f.kind == "door"]
    col, row = m.offset(table.token(f"token-{JONAH}").at)
    for i in range(14):
        h = m.hex_at(col + i + 1, row - 1)
        if m.contains(h) and table.encounter.token_at(h) is None:
            place(table, oracle, f"token-{JONAH}", h)
        publish()
        pete = table.token("token-pete_perkins").at
        nxt = Hex(pete.q + (1 if i % 2 else -1), pete.r)
        if m.contains(nxt) and table.encounter.token_at(nxt) is None:
            place(table, oracle, "token-pete_perkins", nxt)
        publish()
        if i % 2 == 0:
            toggle(table, oracle, doors[(i * 5) % len(doors)])
            publish()
        if i == 7:
            secret = next(x for x in m.labels if x.judge_only)

            def retype(lab=secret) -> None:
                lab.text = lab.text + " (branded)"

            step(table, oracle, "retype", retype)
            publish()


def in_area(area, x: float, y: float) -> bool:
    return area is not None and shapely.distance(area, shapely.Point(x, y)) < 1e-3


def check_page(
    table, cid: str, state: dict, oracle: Oracle, raw: bytes, final: bool = True
) -> None:
    """Nothing of a hex ``cid`` has not seen is in its page ``state`` or its bytes;
    in the ``final`` state, each door shows the state ``cid`` last saw."""
    m = table.map
    ever = oracle.ever[cid]
    sm = state["map"]
    grid = np.array([list(row) for row in sm["terrain"]])
    assert (grid[~ever] == " ").all(), "terrain of an unseen hex"
    codes = np.array([list(row) for row in m.terrain])
    shown = grid != " "
    assert (grid[shown] == codes[shown]).all()
    polys = polygons_of(m, np.flatnonzero(ever.ravel()))
    area = shapely.union_all(shapely.buffer(polys, 1e-6)) if len(polys) else None
    doors = {f.id: f for f in m.features if f.kind in ("door", "window")}
    for kind, is_open, _h, pts in sm["walls"]:
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            assert in_area(area, x0, y0) and in_area(area, x1, y1), "a wall in an unseen hex"
            assert in_area(area, (x0 + x1) / 2, (y0 + y1) / 2), "a wall across an unseen hex"
        if final and kind in ("door", "window"):
            line = shapely.LineString(pts)
            mine = [d for d in doors.values() if shapely.LineString(d.points).distance(line) < 1e-6
                    and d.kind == kind and shapely.LineString(d.points).buffer(1e-6).covers(line)]  # fmt: skip
            assert mine, "a door that is not on the map"
            assert any(oracle.doors.get(cid, {}).get(d.id) == bool(is_open) for d in mine), (
                "a door's state is not the one its character last saw"
            )
    for x, y, text, _size in sm["labels"]:
        assert in_area(area, x, y), text
    for q, r, _kind, text in sm["markers"]:
        assert in_area(area, *m.layout().hex_to_pixel(Hex(q, r))), text
    for lab in m.labels:
        if not in_area(area, *lab.at) and lab.text not in {x[2] for x in sm["labels"]}:
            assert lab.text.encode() not in raw, lab.text
    for mk in m.markers:
        if mk.text and not in_area(area, *m.layout().hex_to_pixel(Hex(*mk.hex))):
            assert mk.text.encode() not in raw, mk.text


@pytest.mark.slow(minutes=1)
@pytest.mark.parametrize("cut", [False, True], ids=["no-cutter", "qt-cutter"])
def test_a_page_holds_nothing_of_a_hex_its_character_has_not_seen_over_a_fight(hacienda, cut):
    """Every message to every character's page over the fight, applied in order: no
    state holds anything of a hex its character had not seen by the end; the picture
    is cut to the hexes seen (with the window's cutter) or not sent at all."""
    from twtw_desktop.ui.devices.picture_cut import cut_picture
    from twtw_desktop.web.server import DeviceService

    table = hacienda
    oracle = Oracle(table)
    seqs: dict[str, int] = {}
    maker = FrameMaker()
    svc = DeviceService(cutter=cut_picture if cut else None)
    svc.start(maker(table), "127.0.0.1", 0)
    pictures: dict[str, bytes] = {}
    try:
        svc.on_update = lambda key, seq, _n: seqs.__setitem__(key, seq)
        pages = {a.key: a.url for a in svc.addresses() if a.key != TABLE_PAGE}

        async def go() -> dict[str, tuple[list[dict], bytes]]:
            got: dict[str, tuple[list[dict], bytes]] = {}
            async with aiohttp.ClientSession() as s:
                sockets = {k: await s.ws_connect(u + "ws") for k, u in pages.items()}
                fight(table, oracle, lambda: svc.publish(maker(table)))
                quiet = time.monotonic()
                last = dict(seqs)
                while time.monotonic() - quiet < 1.0:  # the service has sent everything
                    await asyncio.sleep(0.1)
                    if seqs != last:
                        last, quiet = dict(seqs), time.monotonic()
                for k, ws in sockets.items():
                    states, raw, seq = [], b"", 0
                    state: dict = {}
                    while seq < last.get(k, 1):
                        data = (await asyncio.wait_for(ws.receive(), WAIT)).data
                        raw += data.encode()
                        msg = json.loads(data)
                        seq = msg["seq"]
                        state = msg["full"] if "full" in msg else apply_patch(state, msg["patch"])
                        states.append(state)
                    async with s.get(pages[k] + "background") as r:
                        assert r.status == (200 if cut else 404), k
                        pictures[k] = await r.read()
                    got[k] = (states, raw)
                    await ws.close()
            return got

        got = asyncio.run(go())
    finally:
        svc.stop()
    picture = (table.source.parent / "plan.png").read_bytes()
    assert 0 < oracle.ever[JONAH].sum() < oracle.ever[JONAH].size  # not all of it
    for cid, (states, raw) in got.items():
        assert len(states) > 3, cid
        assert picture not in pictures[cid]
        if cut:
            check_picture(table, oracle.ever[cid], pictures[cid])
        else:
            assert all("bg" not in st["map"] for st in states)  # no cutter: no picture at all
        assert picture not in raw
        for state in states:
            check_page(table, cid, state, oracle, raw, final=state is states[-1])
        seen_terrain = sum(row.count(" ") for row in states[-1]["map"]["terrain"])
        assert seen_terrain == (~oracle.ever[cid]).sum(), cid  # and all it has seen is there


def builders(table, options=None) -> tuple[FrameMaker, dict[str, PageBuilder], dict[str, dict]]:
    maker = FrameMaker()
    keys = [*posse(table), TABLE_PAGE]
    bs = {k: PageBuilder(k, pictures=True) for k in keys}  # the picture, cut, on every page
    frame = maker(table, options)
    return maker, bs, {k: b.state(frame) for k, b in bs.items()}


def patches(maker, bs, states, table, options=None, **kw) -> dict[str, dict]:
    frame = maker(table, options, **kw)
    out = {}
    for k, b in bs.items():
        new = b.state(frame)
        out[k] = merge_patch(states[k], new)
        states[k] = new
    return out


def door_out_of_sight(table, cid: str, oracle: Oracle) -> str:
    m = table.map
    ever = oracle.ever[cid].ravel()
    return next(
        f.id for f in m.features if f.kind == "door" and not ever[hexes_touching(m, f.points)].any()
    )


def hex_seeing(table, door_id: str) -> Hex:
    """A free hex from which the door is in sight."""
    m = table.map
    f = next(x for x in m.features if x.id == door_id)
    touched = hexes_touching(m, f.points)
    snap = SightSnapshot.of(m, table.walls())
    for row in range(m.rows):
        for col in range(m.cols):
            h = m.hex_at(col, row)
            if (
                table.encounter.token_at(h) is None
                and visible_mask(snap, [h]).ravel()[touched].any()
            ):
                return h
    raise AssertionError("no hex sees the door")


def test_a_door_out_of_sight_sends_nothing_and_shows_its_state_when_next_seen(hacienda):
    table = hacienda
    oracle = Oracle(table)
    maker, bs, states = builders(table)
    door = door_out_of_sight(table, JONAH, oracle)
    start = table.token(f"token-{JONAH}").at
    was = next(f for f in table.map.features if f.id == door).is_open
    toggle(table, oracle, door)
    out = patches(maker, bs, states, table)
    assert out[JONAH] == {}, "an unseen door's change reached Jonah's page"
    for k, p in out.items():
        if k != TABLE_PAGE and door not in oracle.doors.get(k, {}):
            assert "map" not in p, k
    h = hex_seeing(table, door)
    place(table, oracle, f"token-{JONAH}", h)
    patches(maker, bs, states, table)
    assert oracle.doors[JONAH][door] is (not was)
    check_page(table, JONAH, states[JONAH], oracle, b"")
    # seen, then out of sight again: a toggle sends nothing, the page keeps the old state
    place(table, oracle, f"token-{JONAH}", start)
    patches(maker, bs, states, table)
    before = json.dumps(states[JONAH]["map"])
    toggle(table, oracle, door)
    assert patches(maker, bs, states, table)[JONAH] == {}
    assert json.dumps(states[JONAH]["map"]) == before
    assert oracle.doors[JONAH][door] is (not was)  # the state he last saw


def test_a_judge_only_edit_sends_nothing_to_any_page(hacienda):
    table = hacienda
    for options in (PlayersOptions(), PlayersOptions(fog=True)):
        maker, bs, states = builders(table, options)
        assert all("bg" in st["map"] for st in states.values())
        secret = next(x for x in table.map.labels if x.judge_only)

        def retype(lab=secret) -> None:
            lab.text = lab.text + "!"

        table.run("retype", retype, ("map",))
        table.map_changed()  # the editor says so too
        out = patches(maker, bs, states, table, options, map_changed=True)
        assert out == {k: {} for k in bs}, out
        note = table.map.notes[0]

        def renote(n=note) -> None:
            n.text = n.text + "?"

        table.run("note", renote, ("map",))
        assert patches(maker, bs, states, table, options, map_changed=True) == {k: {} for k in bs}


def test_with_names_hidden_an_npc_back_in_sight_gets_a_new_alias(hacienda):
    table = hacienda
    m = table.map
    me = table.token(f"token-{JONAH}").at
    snap = SightSnapshot.of(m, table.walls())
    sees = visible_mask(snap, [me])
    npc = "token-pete_perkins"
    free = [
        m.hex_at(c, r)
        for r in range(m.rows)
        for c in range(m.cols)
        if table.encounter.token_at(m.hex_at(c, r)) is None
    ]
    inside = next(h for h in free if sees[m.offset(h)[1], m.offset(h)[0]] and h != me)
    outside = next(h for h in free if not sees[m.offset(h)[1], m.offset(h)[0]])

    def alias_of(states) -> str | None:
        found = [
            a
            for a, t in states[JONAH]["tokens"].items()
            if (t["q"], t["r"]) == (inside.q, inside.r)
        ]
        return found[0] if found else None

    for options, renamed in ((NAMES_OFF, True), (PlayersOptions(), False)):
        put(table, npc, inside)
        maker, bs, states = builders(table, options)
        first = alias_of(states)
        assert first is not None
        put(table, npc, outside)
        patches(maker, bs, states, table, options)
        assert alias_of(states) is None
        put(table, npc, inside)
        patches(maker, bs, states, table, options)
        again = alias_of(states)
        assert again is not None and (again != first) is renamed, (first, again)


def test_serve_s_table_page_has_the_fog_on_unless_told(tmp_path):
    """The installed command, as a process: the table page's first state has the fog
    and no NPC the posse does not see; ``--no-fog`` shows them."""
    src = maps_dir() / f"{HACIENDA}.encounter.json"
    table = open_table(src).table
    oracle = Oracle(table)
    seen_now = np.zeros_like(next(iter(oracle.ever.values())))
    snap = SightSnapshot.of(table.map, table.walls())
    for cid in posse(table):
        for v in character_viewers(table.encounter, table.map, cid):
            seen_now |= visible_mask(snap, [v])
    unseen_npcs = [
        t.at for t in table.encounter.tokens
        if not t.hidden and table.encounter.character(t.character_id).side != POSSE_SIDE
        and not seen_now[table.map.offset(t.at)[1], table.map.offset(t.at)[0]]
    ]  # fmt: skip
    assert unseen_npcs
    exe = shutil.which("twtw-desktop", path=str(__import__("pathlib").Path(sys.executable).parent))
    assert exe is not None
    for extra, fogged in (([], True), (["--no-fog"], False)):
        proc = subprocess.Popen(
            [exe, "serve", str(src), "--port", "0", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            url = None
            deadline = time.monotonic() + WAIT
            while url is None and time.monotonic() < deadline:
                line = proc.stdout.readline()
                if line.startswith("Table "):
                    url = line.split()[-1]
            assert url, proc.stderr.read() if proc.poll() is not None else "no table address"

            async def first(u=url) -> dict:
                async with aiohttp.ClientSession() as s, s.ws_connect(u + "ws") as ws:
                    return json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)["full"]

            state = asyncio.run(first())
        finally:
            proc.terminate()
            proc.wait(WAIT)
        shown = {(t["q"], t["r"]) for t in state["tokens"].values()}
        assert ("fog" in state) is fogged
        assert any((h.q, h.r) in shown for h in unseen_npcs) is not fogged


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_jonah_s_page_in_chromium_draws_only_what_he_has_seen(hacienda, tmp_path):
    """Jonah has seen 29 of the hacienda's 1,200 hexes: his page, as Chromium draws
    it, has no "guard room" to read through the fog, only the walls he has seen, and
    his hexes drawn."""
    table = hacienda
    oracle = Oracle(table)
    with served(table) as (svc, _):
        url = next(a.url for a in svc.addresses() if a.key == JONAH)
        state = asyncio.run(_first(url))
        out = subprocess.run(
            [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path}", "--virtual-time-budget=5000",
             "--dump-dom", url],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    dom = out.stdout
    assert '<svg id="map"' in dom, out.stderr[-2000:]
    assert "<title>Jonah Benton — TWTW</title>" in dom
    for lab in table.map.labels:
        if lab.text not in {x[2] for x in state["map"]["labels"]}:
            assert f">{lab.text}<" not in dom, lab.text
    assert ">guard room<" not in dom
    assert dom.count('class="wall"') == len(state["map"]["walls"]) < 30
    hexes = re.search(r'<g id="ground">(.*?)</g>', dom, re.S)
    assert hexes is not None
    drawn = sum(d.count("M") for d in re.findall(r'd="([^"]*)"[^>]*class="hexes"', hexes.group(1)))
    assert drawn == oracle.ever[JONAH].sum()
    assert 'class="background"' not in dom
    check_page(table, JONAH, state, oracle, dom.encode())


async def _first(url: str) -> dict:
    async with aiohttp.ClientSession() as s, s.ws_connect(url + "ws") as ws:
        return json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)["full"]


@pytest.mark.parametrize("rotation", [0, 60])
def test_the_picture_a_page_gets_is_cut_to_the_hexes_its_character_has_seen(hacienda, rotation):
    """With the window's cutter (Qt), Jonah's page gets the background picture as a
    PNG transparent on every hex he has not seen, and the picture's own pixels on
    the hexes he has; it changes (``v``) only when he sees more."""
    pytest.importorskip("PySide6.QtGui")  # the cutter is Qt's
    from twtw_desktop.ui.devices.picture_cut import cut_picture
    from twtw_desktop.web.server import DeviceService

    table = hacienda
    table.map.background = BackgroundImage(
        path="plan.png", x=10.0, y=-20.0 if rotation else 0.0, scale=0.1, width=700,
        height=450, rotation=rotation, visible_to_players=True,
    )  # fmt: skip
    (table.source.parent / "plan.png").write_bytes(png(700, 450))
    oracle = Oracle(table)
    maker = FrameMaker()
    svc = DeviceService(cutter=cut_picture)
    svc.start(maker(table), "127.0.0.1", 0)
    try:
        url = next(a.url for a in svc.addresses() if a.key == JONAH)

        async def go() -> tuple[dict, bytes, str]:
            async with aiohttp.ClientSession() as s:
                async with s.ws_connect(url + "ws") as ws:
                    state = json.loads((await asyncio.wait_for(ws.receive(), WAIT)).data)
                async with s.get(url + "background") as r:
                    assert r.status == 200
                    return state["full"], await r.read(), r.headers["Content-Type"]

        state, data, kind = asyncio.run(go())
    finally:
        svc.stop()
    assert kind == "image/png"
    assert data != (table.source.parent / "plan.png").read_bytes()
    check_picture(table, oracle.ever[JONAH], data)
    assert "bg" in state["map"]
