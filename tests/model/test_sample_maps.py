"""The bundled sample map and encounter (maps/) and their generator."""

from __future__ import annotations

import math

import pytest

from twtw_desktop.hexgrid import DIRECTIONS, Hex, Orientation
from twtw_desktop.io import load_encounter, load_map, validate_file
from twtw_desktop.model import CoverHeight, Material, Terrain
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.samples_build import ENCOUNTER_FILE, MAP_FILE, build, main

MAP = maps_dir() / MAP_FILE
ENCOUNTER = maps_dir() / ENCOUNTER_FILE
POSSE = {"miranda_valentine", "hank_daggett", "cyril_wellington", "jonah_benton"}
GANG = {"angus_laroq", "felicia_laroq", "dave_perkins", "clem_perkins", "octavio_vaquero"}


@pytest.fixture(scope="module")
def loaded():
    return load_encounter(ENCOUNTER)


def test_sample_files_load_and_validate():
    assert validate_file(MAP) == []
    assert validate_file(ENCOUNTER) == []
    assert load_map(MAP).name == "Main Street"


def test_rebuilding_gives_identical_bytes(tmp_path):
    for path in build(tmp_path):
        assert path.read_bytes() == (maps_dir() / path.name).read_bytes(), (
            f"{path.name} is stale: run python -m twtw_desktop.samples_build"
        )
    assert main(["--check"]) == 0


def test_check_mode_reports_stale_files(tmp_path, capsys):
    assert main(["--check", "--out", str(tmp_path)]) == 1
    assert "is out of date" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


def test_the_map_is_main_street(loaded):
    m = loaded.map
    assert (m.cols, m.rows, m.orientation) == (40, 30, Orientation.POINTY)
    assert loaded.map_path == MAP.absolute()
    used = {t for row in m.terrain for t in row}
    for t in (Terrain.OPEN, Terrain.ROUGH, Terrain.GENTLE, Terrain.STAIRS):
        assert any(m.terrain_at(h) is t for h in m.hexes()), t
    assert used <= {".", "r", "g", "s"}
    materials = {f.material for f in m.features}
    assert {
        Material.HARDWOOD,
        Material.GLASS,
        Material.BRICK,
        Material.THIN_WOOD,
        Material.ADOBE,
        Material.THICK_IRON,
    } <= materials
    doors = [f for f in m.features if f.kind == "door"]
    windows = [f for f in m.features if f.kind == "window"]
    assert any(d.is_open for d in doors) and any(not d.is_open for d in doors)
    assert any(w.material is Material.GLASS and not w.is_open for w in windows)
    assert any(w.is_open for w in windows)
    assert m.feature("wagon").height is CoverHeight.LOW and m.feature("wagon").kind == "cover"
    assert m.feature("bank-vault").material is Material.THICK_IRON
    assert {"water-trough", "horse-trough", "barrel-1"} <= {f.id for f in m.features}
    texts = {lab.text for lab in m.labels}
    assert {"Longhorn Saloon", "Bank", "Livery Stable", "Cantina del Sol", "Main Street"} <= texts
    assert len(m.notes) == 2 and any("Felicia waits upstairs" in n.text for n in m.notes)
    assert [mk.kind for mk in m.markers] == ["ambush"] and m.markers[0].judge_only
    balcony = m.hex_at(6, 11)
    assert m.elevation_at(balcony) == 3
    assert m.background is None


def test_the_encounter_is_the_posse_against_the_laroqs(loaded):
    enc = loaded.encounter
    assert enc.map_ref == "main_street.map.json" and enc.map is None
    assert enc.edition == "ap_v2" and enc.deck_seed == 1873
    sheets = sample_characters()
    assert {c.id for c in enc.characters} == POSSE | GANG
    for c in enc.characters:
        assert c == sheets[c.id], "sheets are copied from the bundled samples"
        assert c.weapons and all(w.weapon_id in default_gear().weapons for w in c.weapons)
        assert c.side == ("posse" if c.id in POSSE else "hombres")
    hidden = [t.character_id for t in enc.tokens if t.hidden]
    assert hidden == ["felicia_laroq"]
    assert len(enc.tokens) == 9 and len({t.hex for t in enc.tokens}) == 9


def test_tokens_face_each_other_across_the_street(loaded):
    m, enc = loaded.map, loaded.encounter
    for t in enc.tokens:
        _col, row = m.offset(t.at)
        step = DIRECTIONS[t.facing]
        if t.character_id in GANG:
            assert row <= 13 and step.r >= 0, t.character_id  # north side, facing south-ish
        else:
            assert row >= 15 and step.r <= 0, t.character_id  # south side, facing north-ish
        assert m.terrain_at(t.at) is not Terrain.IMPASSABLE


def test_some_tokens_shelter_behind_low_cover(loaded):
    layout = loaded.map.layout()
    covers = [f for f in loaded.map.features if f.kind == "cover"]

    def near_cover(h: Hex) -> bool:
        centre = layout.hex_to_pixel(h)
        return any(
            _segment_distance(centre, a, b) < 1.0
            for f in covers
            for a, b in zip(f.points, f.points[1:], strict=False)
        )

    sheltered = {t.character_id for t in loaded.encounter.tokens if near_cover(t.at)}
    assert {
        "hank_daggett",
        "dave_perkins",
        "clem_perkins",
        "octavio_vaquero",
        "cyril_wellington",
    } <= sheltered
    assert "miranda_valentine" not in sheltered


def _segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))
