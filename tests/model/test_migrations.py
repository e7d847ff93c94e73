"""Format versions and migrations (twtw_desktop.model.migrations)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from twtw_desktop.errors import LoadError
from twtw_desktop.io import load_encounter, load_map, save_map
from twtw_desktop.model import CoverHeight, Map, Material, Terrain
from twtw_desktop.model.migrations import (
    CURRENT_VERSIONS,
    MigrationError,
    NewerFormatError,
    migrate,
    migration,
    oldest_version,
)

FIXTURE = Path(__file__).parent / "fixtures" / "draft_v0.map.json"


def v0() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_registry_knows_the_chains():
    assert CURRENT_VERSIONS == {"map": 1, "encounter": 1}
    assert oldest_version("map") == 0
    assert oldest_version("encounter") == 1


def test_v0_fixture_loads_as_a_current_map():
    m = load_map(FIXTURE)
    assert isinstance(m, Map) and m.format_version == 1
    assert (m.name, m.cols, m.rows) == ("Main Street (draft)", 8, 5)
    assert m.terrain[2] == ".....ggg"
    assert m.terrain[3] == "r.s.w..r"
    assert m.terrain[4] == "rrr#rrrr"
    assert m.elevation[2] == [0, 0, 0, 0, 0, 1, 1, 2]
    assert [f.id for f in m.features] == ["w1", "w2", "w3", "w4"]
    assert all(f.kind == "wall" for f in m.features)
    assert m.features[1].material is Material.BRICK
    assert m.features[2].points == [(10.0, 0.0), (10.0, 0.75)]
    assert m.features[0].height is CoverHeight.FULL
    assert m.features[3].height is CoverHeight.LOW
    assert [(lab.id, lab.text) for lab in m.labels] == [("l1", "Longhorn"), ("l2", "Bank")]
    assert m.terrain_at(m.hex_at(4, 3)) is Terrain.WATER
    assert m.description.startswith("The first sketch")


def test_migrated_map_saves_as_current_format(tmp_path):
    save_map(load_map(FIXTURE), tmp_path / "m.map.json")
    data = json.loads((tmp_path / "m.map.json").read_text())
    assert data["format_version"] == 1 and "walls" not in data
    assert load_map(tmp_path / "m.map.json") == load_map(FIXTURE)


def test_migrate_leaves_its_input_alone():
    raw = v0()
    before = copy.deepcopy(raw)
    data, passed = migrate("map", raw)
    assert raw == before
    assert passed == [0] and data["format_version"] == 1
    again, passed = migrate("map", data)
    assert again == data and passed == []


def test_encounter_embedding_a_v0_map_is_migrated(tmp_path):
    path = tmp_path / "e.encounter.json"
    path.write_text(json.dumps({"format_version": 1, "map": v0()}))
    loaded = load_encounter(path)
    assert loaded.map == load_map(FIXTURE)


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (
            lambda d: d["terrain"][1].__setitem__(2, "swamp"),
            "terrain.1.2",
            "'swamp' is not a terrain",
        ),
        (lambda d: d["terrain"][3].pop(), "terrain.3", "row has 7 hexes, the first row has 8"),
        (lambda d: d.__setitem__("terrain", []), "terrain", "non-empty list"),
        (lambda d: d["walls"][2].__setitem__("a", [1, "x"]), "walls.2.a", "point [x, y]"),
        (
            lambda d: d["walls"][0].__setitem__("material", "stone"),
            "walls.0.material",
            "not a material",
        ),
        (
            lambda d: d["walls"][0].__setitem__("material", ["brick"]),
            "walls.0.material",
            "not a material",
        ),
        (
            lambda d: d["walls"][1].__setitem__("height", "knee"),
            "walls.1.height",
            "'low' or 'full'",
        ),
        (lambda d: d["walls"][1].pop("b"), "walls.1.b", "required field is missing"),
        (lambda d: d["walls"][1].__setitem__("kind", "door"), "walls.1.kind", "unknown field"),
        (lambda d: d.__setitem__("features", []), "features", "unknown field for a format-0 map"),
        (lambda d: d["labels"][0].pop("at"), "labels.0", "needs 'text' and 'at'"),
    ],
)
def test_broken_v0_files_name_the_old_field(tmp_path, change, where, message):
    data = v0()
    change(data)
    path = tmp_path / "bad.map.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LoadError) as e:
        load_map(path)
    assert e.value.where == where
    assert message in e.value.reason


def test_v0_values_checked_by_the_current_model_still_name_the_field(tmp_path):
    data = v0()
    data["orientation"] = "sideways"
    path = tmp_path / "bad.map.json"
    path.write_text(json.dumps(data))
    with pytest.raises(LoadError) as e:
        load_map(path)
    assert e.value.where == "orientation"


def test_newer_and_too_old_formats():
    with pytest.raises(NewerFormatError) as e:
        migrate("map", {"format_version": 2})
    assert str(e.value) == "made by a newer TWTW Desktop (format 2); this version reads up to 1"
    with pytest.raises(
        MigrationError, match="too old: this version reads encounter formats 1 to 1"
    ):
        migrate("encounter", {"format_version": 0})
    with pytest.raises(MigrationError, match="too old"):
        migrate("map", {"format_version": -1})
    with pytest.raises(NewerFormatError) as e:
        migrate("encounter", {"format_version": 1, "map": {"format_version": 5}})
    assert e.value.where == "map.format_version"


def test_registering_twice_or_at_the_current_version_is_a_programming_error():
    with pytest.raises(RuntimeError):
        migration("map", 0)(lambda d: d)
    with pytest.raises(RuntimeError):
        migration("encounter", 1)(lambda d: d)
