"""The bundled sample maps and encounters in maps/: they load, they are rebuilt
byte for byte by ``python -m twtw_desktop.samples_build``, and each one is a sensible
table: tokens on free passable hexes, walls meeting, doors in wall gaps, notes and
Judge-only markers, and the features its story needs."""

from __future__ import annotations

import itertools
import math
import shutil
from collections import deque

import numpy as np
import pytest

from twtw_desktop.geometry.movement import TERRAIN_COSTS
from twtw_desktop.geometry.speed import token_target_speed
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import Hex
from twtw_desktop.io import load_encounter, validate_file
from twtw_desktop.model.map import CoverHeight, Material, Terrain
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.editions import load_edition
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.sample_maps import ENCOUNTER_ORDER, SAMPLES
from twtw_desktop.samples_build import build, main

KEYS = [s.key for s in SAMPLES]
BY_KEY = {s.key: s for s in SAMPLES}
#: a hex centre closer than this to a wall segment would stand "in" the wall (walls
#: run along hex edges, 0.43 map units from the nearest centres)
CLEAR = 0.4
EPS = 1e-3


@pytest.fixture(scope="module")
def loaded():
    return {s.key: load_encounter(maps_dir() / s.encounter_file) for s in SAMPLES}


def _segments(features) -> np.ndarray:
    rows = [
        (*a, *b) for f in features for a, b in zip(f.points, f.points[1:], strict=False) if a != b
    ]
    return np.array(rows, dtype=float).reshape(-1, 4)


def _distances(points: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Distance from each point (n × 2) to each segment (m × 4): an n × m array."""
    px, py = points[:, 0:1], points[:, 1:2]
    ax, ay, bx, by = (segs[:, i][None, :] for i in range(4))
    dx, dy = bx - ax, by - ay
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _on_segment(p, a, b) -> bool:
    return _distances(np.array([p]), np.array([[*a, *b]]))[0, 0] < EPS


def _reachable(game_map, start: Hex) -> set[Hex]:
    """Hexes a figure can walk to from ``start`` (terrain and walls, no AP limit)."""
    index = WallIndex(game_map)
    seen, todo = {start}, deque([start])
    while todo:
        h = todo.popleft()
        for n in h.neighbors():
            if n in seen or not game_map.contains(n):
                continue
            if not TERRAIN_COSTS[game_map.terrain_at(n)].enterable:
                continue
            if index.movement_blocked(h, n):
                continue
            seen.add(n)
            todo.append(n)
    return seen


# --- the files --------------------------------------------------------------------------


def test_every_file_in_maps_validates():
    files = sorted(maps_dir().glob("*.json"))
    assert len(files) >= 8
    for path in files:
        assert validate_file(path) == [], path.name


def test_maps_holds_exactly_the_bundled_samples():
    expected = {name for s in SAMPLES for name in (s.map_file, s.encounter_file)}
    assert {p.name for p in maps_dir().glob("*.json")} == expected
    assert len(SAMPLES) >= 4
    assert ENCOUNTER_ORDER[0] == "main_street.encounter.json"


def test_the_generator_is_deterministic(tmp_path):
    first, second = build(tmp_path / "a"), build(tmp_path / "b")
    assert [p.name for p in first] == [p.name for p in second]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
        assert a.read_bytes() == (maps_dir() / a.name).read_bytes(), (
            f"{a.name} is stale: run python -m twtw_desktop.samples_build"
        )
    assert main(["--check"]) == 0


def test_check_names_the_one_stale_file(tmp_path, capsys):
    for s in SAMPLES:
        for name in (s.map_file, s.encounter_file):
            shutil.copy(maps_dir() / name, tmp_path / name)
    assert main(["--check", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    stale = tmp_path / "legless_gulch.map.json"
    stale.write_bytes(stale.read_bytes().replace(b'"Legless Gulch"', b'"Legless Gulch!"', 1))
    before = stale.read_bytes()
    assert main(["--check", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "legless_gulch.map.json is out of date" in out
    assert out.count("is out of date") == 1
    assert stale.read_bytes() == before, "--check writes nothing"


# --- every sample -------------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_table_sized_map_with_its_encounter(loaded, key):
    sample, le = BY_KEY[key], loaded[key]
    m, enc = le.map, le.encounter
    assert 20 <= m.cols <= 40 and 20 <= m.rows <= 40
    assert enc.map_ref == sample.map_file and enc.map is None
    assert le.map_path.name == sample.map_file
    assert enc.name and m.description


@pytest.mark.parametrize("key", KEYS)
def test_notes_markers_and_labels(loaded, key):
    m = loaded[key].map
    assert len(m.notes) >= 2 and all(n.text for n in m.notes)
    assert {mk.kind for mk in m.markers} & {"trap", "ambush"}
    assert all(mk.judge_only and mk.text for mk in m.markers)
    public = [lab for lab in m.labels if not lab.judge_only]
    assert len(public) >= 5


@pytest.mark.parametrize("key", KEYS)
def test_tokens_stand_on_free_passable_hexes(loaded, key):
    m, enc = loaded[key].map, loaded[key].encounter
    layout = m.layout()
    hexes = [t.at for t in enc.tokens]
    assert len(set(hexes)) == len(hexes), "two tokens on one hex"
    assert {t.character_id for t in enc.tokens} == {c.id for c in enc.characters}
    sides = {c.side for c in enc.characters}
    assert {"posse", "hombres"} <= sides
    for t in enc.tokens:
        assert m.contains(t.at), t.id
        assert TERRAIN_COSTS[m.terrain_at(t.at)].enterable, (t.id, m.terrain_at(t.at))
    centres = np.array([layout.hex_to_pixel(h) for h in hexes], dtype=float)
    d = _distances(centres, _segments(m.features))
    worst = d.min(axis=1)
    for t, gap in zip(enc.tokens, worst, strict=True):
        assert gap >= CLEAR, f"{t.id} stands in a wall or on a piece of cover ({gap:.2f})"


@pytest.mark.parametrize("key", KEYS)
def test_walls_run_between_hex_centres(loaded, key):
    """Walls, doors and windows follow hex edges, so every hex centre is clearly on
    one side of each of them."""
    m = loaded[key].map
    layout = m.layout()
    walls = [f for f in m.features if f.kind in ("wall", "door", "window")]
    centres = np.array([layout.hex_to_pixel(h) for h in m.hexes()], dtype=float)
    d = _distances(centres, _segments(walls))
    assert d.min() >= CLEAR


@pytest.mark.parametrize("key", KEYS)
def test_walls_meet_and_doors_sit_in_gaps(loaded, key):
    """Each end of a full-height wall, door or window touches another one (corners
    and T-junctions meet; only low railings may end free), and no wall runs or ends
    inside a door or window opening."""
    m = loaded[key].map
    structural = [f for f in m.features if f.kind in ("wall", "door", "window")]
    x_max, y_max = math.sqrt(3) * (m.cols - 1), 1.5 * (m.rows - 1)

    def off_map(p) -> bool:  # a wall may run off the edge of the map
        return not (0 < p[0] < x_max and 0 < p[1] < y_max)

    for f in structural:
        if f.kind == "wall" and f.height is CoverHeight.LOW:
            continue
        for end in (f.points[0], f.points[-1]):
            if off_map(end):
                continue
            others = [g for g in m.features if g is not f]
            assert any(
                _on_segment(end, a, b)
                for g in others
                for a, b in zip(g.points, g.points[1:], strict=False)
            ), f"{f.id} ends in mid-air at {end}"
    openings = [f for f in structural if f.kind in ("door", "window")]
    for o in openings:
        (ax, ay), (bx, by) = o.points[0], o.points[-1]
        inner = [(ax + (bx - ax) * t, ay + (by - ay) * t) for t in (0.1, 0.5, 0.9)]
        for g in structural:
            if g is o:
                continue
            for a, b in zip(g.points, g.points[1:], strict=False):
                assert not any(_on_segment(p, a, b) for p in inner), (
                    f"{g.id} runs through the opening {o.id}"
                )
            for end in (g.points[0], g.points[-1]):
                on = _on_segment(end, o.points[0], o.points[-1])
                at_end = min(math.dist(end, o.points[0]), math.dist(end, o.points[-1])) < EPS
                assert not on or at_end, f"{g.id} ends inside the opening {o.id}"


@pytest.mark.parametrize("key", [k for k in KEYS if k != "main_street"])
def test_sheets_are_the_bundled_samples_or_named_copies(loaded, key):
    sheets = sample_characters()
    for c in loaded[key].encounter.characters:
        if c.id in sheets:
            assert c.name == sheets[c.id].name
        else:  # an extra hand made from a template: same numbers, own id and name
            template = next(s for s in sheets.values() if s.traits == c.traits)
            assert c.name != template.name and c.skills == template.skills


# --- the Longhorn saloon ---------------------------------------------------------------


def test_the_longhorn_saloon(loaded):
    m = loaded["longhorn_saloon"].map
    f = {x.id: x for x in m.features}
    stairs = [h for h in m.hexes() if m.terrain_at(h) is Terrain.STAIRS]
    assert stairs and {m.elevation_at(h) for h in stairs} == {1, 2}
    gallery = [h for h in m.hexes() if m.elevation_at(h) == 3]
    assert len(gallery) >= 30
    rail = f["gallery-rail"]
    assert rail.kind == "wall" and rail.height is CoverHeight.LOW and not rail.blocks_sight
    assert f["batwing-doors"].kind == "door" and f["batwing-doors"].is_open
    assert f["back-door"].kind == "door" and not f["back-door"].is_open
    assert f["back-room-door"].kind == "door"
    windows = [x for x in m.features if x.kind == "window"]
    assert sum(w.material is Material.GLASS for w in windows) >= 6
    bar, piano = f["bar-counter"], f["piano"]
    assert (bar.kind, bar.material, bar.height) == ("cover", Material.HARDWOOD, CoverHeight.LOW)
    assert (piano.kind, piano.material, piano.height) == (
        "cover",
        Material.HARDWOOD,
        CoverHeight.FULL,
    )
    tables = [x for x in m.features if x.id.startswith("table-")]
    assert len(tables) >= 6
    assert all(t.height is CoverHeight.LOW and t.material is Material.HARDWOOD for t in tables)


def test_upstairs_is_reached_only_by_the_stairs(loaded):
    """The gallery is one storey up: from the floor a figure gets there by the stairs,
    never by stepping over the railing."""
    m = loaded["longhorn_saloon"].map
    index = WallIndex(m)
    for h in m.hexes():
        if m.elevation_at(h) != 3:
            continue
        for n in h.neighbors():
            if m.contains(n) and m.elevation_at(n) == 0 and not index.movement_blocked(h, n):
                pytest.fail(f"gallery hex {h} steps straight down to the floor at {n}")
    felicia = loaded["longhorn_saloon"].encounter.token("token-felicia_laroq")
    miranda = loaded["longhorn_saloon"].encounter.token("token-miranda_valentine")
    assert miranda.at in _reachable(m, felicia.at)


# --- Legless Gulch -----------------------------------------------------------------------


def test_legless_gulch_terrain(loaded):
    m = loaded["legless_gulch"].map
    used = {m.terrain_at(h) for h in m.hexes()}
    assert {Terrain.STEEP, Terrain.GENTLE, Terrain.WATER, Terrain.CLIMB} <= used
    elev = [m.elevation_at(h) for h in m.hexes()]
    assert min(elev) == -1 and max(elev) == 6
    boulders = [f for f in m.features if f.id.startswith(("boulder-", "rocks-"))]
    assert {b.material for b in boulders} == {Material.BRICK}
    assert {b.height for b in boulders} == {CoverHeight.LOW, CoverHeight.FULL}
    for b in boulders:
        if b.height is CoverHeight.FULL:  # a boulder fills its hex
            assert b.points[0] == b.points[-1]
            centre = np.mean(np.array(b.points[:-1]), axis=0)
            h = m.layout().pixel_to_hex(*centre)
            assert m.terrain_at(h) is Terrain.IMPASSABLE


def test_the_mountain_trail_is_a_gentle_grade(loaded):
    """000 Movement AP Cost: the trail down the slope is gentle (height drops one pace
    at most per step) and every step of it is walkable."""
    from twtw_desktop.sample_maps.legless_gulch import trail

    m = loaded["legless_gulch"].map
    cells = [m.hex_at(c, r) for (c, r), _, _ in trail()]
    for a, b in itertools.pairwise(cells):
        assert a.distance(b) == 1
        assert 0 <= m.elevation_at(a) - m.elevation_at(b) <= 1
    downhill = [h for h in cells if m.terrain_at(h) is Terrain.GENTLE]
    assert len(downhill) >= 10
    assert m.elevation_at(cells[0]) == 6 and m.elevation_at(cells[-1]) == 0
    assert cells[-1] in _reachable(m, cells[0])


def test_the_creek_is_crossed_by_the_bridge_and_the_ford(loaded):
    m = loaded["legless_gulch"].map
    west, east = m.hex_at(2, 12), m.hex_at(37, 12)
    assert east in _reachable(m, west), "the road crosses on the bridge"
    # without the bridge (its deck turned back to water) the ford still gets across
    no_bridge = m.model_copy(deep=True)
    for row in (12, 13):
        for col in range(no_bridge.cols):
            h = no_bridge.hex_at(col, row)
            if no_bridge.elevation_at(h) == 0 and col in range(17, 22):
                no_bridge.set_terrain(h, Terrain.WATER)
    reach = _reachable(no_bridge, west)
    assert east in reach
    ford = [h for h in reach if no_bridge.elevation_at(h) == -1]
    assert ford and all(no_bridge.terrain_at(h) is Terrain.ROUGH for h in ford)


def test_the_wagon_and_the_vaquero_carry_000s_speeds(loaded):
    """000 Target Speed: Hank's wagon east at 18, the vaquero west down the trail at
    8; relative speed 26 gives −5 to Cyril's shot."""
    enc = loaded["legless_gulch"].encounter
    cyril, octavio = enc.token("token-cyril_wellington"), enc.token("token-octavio_vaquero")
    speed = token_target_speed(cyril, octavio, edition=load_edition("ap_v2"))
    assert speed.relative == pytest.approx(26.0)
    assert speed.penalty == -5
    assert octavio.mounted
    assert enc.token("token-hank_daggett").velocity == cyril.velocity == (18.0, 0.0)


# --- the Laroq hacienda -----------------------------------------------------------------


def test_the_laroq_hacienda(loaded):
    le = loaded["laroq_hacienda"]
    m, enc = le.map, le.encounter
    f = {x.id: x for x in m.features}
    walls = [x for x in m.features if x.kind == "wall" and x.height is CoverHeight.FULL]
    assert walls and {w.material for w in walls} == {Material.ADOBE}
    for leaf in ("gate-west-leaf", "gate-east-leaf"):
        assert f[leaf].kind == "door" and not f[leaf].is_open
    assert f["postern"].kind == "door"
    cell_door, bars = f["cell-door"], f["cell-bars"]
    assert (cell_door.kind, cell_door.material, cell_door.is_open) == (
        "door",
        Material.THICK_IRON,
        False,
    )
    assert bars.kind == "window" and bars.material is Material.THICK_IRON
    assert bars.blocks_movement and not bars.blocks_sight
    assert sum(x.kind == "window" for x in m.features) >= 8
    tower = [h for h in m.hexes() if m.elevation_at(h) == 3]
    assert len(tower) >= 12
    assert any(m.terrain_at(h) is Terrain.LADDER for h in m.hexes())
    assert enc.edition == "phases"
    octavio = enc.character("octavio_vaquero")
    assert "gatling_gun" in [w.weapon_id for w in octavio.weapons]


def test_the_cell_holds_jonah_until_the_door_opens(loaded):
    """The thick-iron cell door is shut: Jonah cannot leave the cell. Open it and he
    can reach Cyril and the horses outside the postern (which the posse left open)."""
    le = loaded["laroq_hacienda"]
    m, enc = le.map, le.encounter
    jonah, miranda = enc.token("token-jonah_benton"), enc.token("token-miranda_valentine")
    cyril = enc.token("token-cyril_wellington")
    cell = _reachable(m, jonah.at)
    assert 4 <= len(cell) <= 12 and miranda.at not in cell
    opened = m.model_copy(deep=True)
    opened.feature("cell-door").is_open = True
    way_out = _reachable(opened, jonah.at)
    assert miranda.at in way_out and cyril.at in way_out
    opened.feature("postern").is_open = False
    assert cyril.at not in _reachable(opened, jonah.at)
