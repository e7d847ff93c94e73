"""Loading and saving maps and encounters: round trips, refusals, atomic saves."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import twtw_desktop.io.files as files_mod
from twtw_desktop.errors import LoadError
from twtw_desktop.io import (
    MAX_FILE_BYTES,
    LoadedEncounter,
    SaveError,
    detect_kind,
    load_encounter,
    load_map,
    save_encounter,
    save_map,
    validate_file,
)
from twtw_desktop.model import Encounter, Feature, LogEntry, Map, Token
from twtw_desktop.rules.samples import sample_characters

from .strategies import maps, png_header


def small_map() -> Map:
    m = Map.blank(6, 4, name="Test street")
    m.features += [
        Feature(id=f"w{i}", points=[(0.0, float(i)), (3.5, float(i) + 0.25)]) for i in range(5)
    ]
    return m


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def map_data() -> dict:
    return small_map().model_dump(mode="json")


def stray_files(folder: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


# --- round trips -----------------------------------------------------------------------


@settings(max_examples=40)
@given(maps())
def test_any_map_round_trips_unchanged(m):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.map.json"
        save_map(m, path)
        assert load_map(path) == m
        assert detect_kind(path) == "map"
        first = path.read_bytes()
        save_map(load_map(path), path)
        assert path.read_bytes() == first, "saving a loaded map must give the same bytes"
        assert os.listdir(tmp) == ["m.map.json"]


def test_saved_map_is_compact_json_with_one_terrain_row_per_line(tmp_path):
    path = tmp_path / "m.map.json"
    save_map(small_map(), path)
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    lines = text.splitlines()
    assert lines.count('  "......",') == 3 and '  "......"' in lines
    assert lines[1] == ' "format_version": 1,'
    assert json.loads(text)["terrain"] == ["......"] * 4


def test_encounter_with_map_ref_loads_with_its_map(tmp_path):
    m = small_map()
    save_map(m, tmp_path / "street.map.json")
    chars = list(sample_characters().values())[:2]
    enc = Encounter(
        map_ref="street.map.json",
        characters=chars,
        tokens=[Token(id="t1", character_id=chars[0].id, hex=(1, 1))],
    )
    save_encounter(enc, tmp_path / "fight.encounter.json")
    loaded = load_encounter(tmp_path / "fight.encounter.json")
    assert isinstance(loaded, LoadedEncounter)
    assert loaded.encounter == enc
    assert loaded.encounter.map_ref == "street.map.json" and loaded.encounter.map is None
    assert loaded.map == m
    assert loaded.map_path == (tmp_path / "street.map.json").absolute()
    assert detect_kind(tmp_path / "fight.encounter.json") == "encounter"


def test_map_ref_may_climb_to_a_sibling_folder(tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "encounters").mkdir()
    save_map(small_map(), tmp_path / "maps" / "street.map.json")
    enc = Encounter(map_ref="../maps/street.map.json")
    save_encounter(enc, tmp_path / "encounters" / "e.encounter.json")
    assert load_encounter(tmp_path / "encounters" / "e.encounter.json").map == small_map()


def test_save_as_into_another_folder_rewrites_map_ref(tmp_path):
    save_map(small_map(), tmp_path / "street.map.json")
    save_encounter(Encounter(map_ref="street.map.json"), tmp_path / "e.encounter.json")
    loaded = load_encounter(tmp_path / "e.encounter.json")
    (tmp_path / "later").mkdir()
    written = save_encounter(loaded, tmp_path / "later" / "e.encounter.json")
    assert written.map_ref == "../street.map.json"
    assert loaded.encounter.map_ref == "street.map.json", "the caller's encounter is untouched"
    again = load_encounter(tmp_path / "later" / "e.encounter.json")
    assert again.map == small_map()


def test_encounter_with_embedded_map_round_trips(tmp_path):
    chars = list(sample_characters().values())[:3]
    enc = Encounter(
        map=small_map(),
        characters=chars,
        tokens=[Token(id=f"t{i}", character_id=c.id, hex=(i, 0)) for i, c in enumerate(chars)],
        log=[LogEntry(text="Angus draws", detail={"cards": [1, 2], "why": {"tn": 5}})],
        deck_seed=99,
    )
    save_encounter(enc, tmp_path / "e.encounter.json")
    loaded = load_encounter(tmp_path / "e.encounter.json")
    assert loaded.encounter == enc and loaded.map == enc.map and loaded.map_path is None


# --- refusals: every failure is one LoadError naming file and field ---------------------


def test_ten_thousand_deep_nesting_is_refused_clearly(tmp_path):
    path = tmp_path / "deep.map.json"
    path.write_text("[" * 10_000 + "]" * 10_000)
    with pytest.raises(LoadError, match="nested more than 64 levels") as e:
        load_map(path)
    assert str(path) in str(e.value)
    path.write_text('{"a": ' * 10_000 + "1" + "}" * 10_000)
    with pytest.raises(LoadError, match="nested"):
        load_encounter(path)


def test_nan_coordinate_is_refused_naming_the_field(tmp_path):
    text = json.dumps(map_data()).replace("3.5", "NaN", 1)
    path = tmp_path / "nan.map.json"
    path.write_text(text)
    with pytest.raises(LoadError) as e:
        load_map(path)
    assert e.value.where == "features.0.points.1.0"
    assert "finite" in e.value.reason and str(path) in str(e.value)
    for token in ("Infinity", "-Infinity", "1e999"):
        path.write_text(json.dumps(map_data()).replace("3.5", token, 1))
        with pytest.raises(LoadError, match=r"features\.0\.points\.1\.0"):
            load_map(path)


def test_wrong_type_and_unknown_field_name_the_field(tmp_path):
    data = map_data()
    data["cols"] = "6"
    with pytest.raises(LoadError) as e:
        load_map(write_json(tmp_path / "a.map.json", data))
    assert e.value.where == "cols"
    data = map_data()
    data["features"][3]["points"][0] = ["x", 1]
    with pytest.raises(LoadError) as e:
        load_map(write_json(tmp_path / "b.map.json", data))
    assert e.value.where == "features.3.points.0.0"
    assert f"{tmp_path / 'b.map.json'} at features.3.points.0.0: " in str(e.value)
    data = map_data()
    data["features"][1]["colour"] = "red"
    with pytest.raises(LoadError, match="unknown field") as e:
        load_map(write_json(tmp_path / "c.map.json", data))
    assert e.value.where == "features.1.colour"


def test_model_level_problems_are_reported(tmp_path):
    data = map_data()
    data["terrain"][2] = ".x...."
    with pytest.raises(LoadError, match="row 3 has unknown code"):
        load_map(write_json(tmp_path / "a.map.json", data))
    data = map_data()
    data["features"][1]["id"] = "w0"
    with pytest.raises(LoadError, match="duplicate id"):
        load_map(write_json(tmp_path / "b.map.json", data))


def test_several_problems_are_counted_and_listed(tmp_path):
    data = map_data()
    data["cols"] = "6"
    data["name"] = 7
    data["features"][0]["kind"] = "moat"
    path = write_json(tmp_path / "a.map.json", data)
    with pytest.raises(LoadError, match=r"\(and 2 more problems\)"):
        load_map(path)
    problems = validate_file(path)
    assert len(problems) == 3
    assert {p.split(" at ")[1].split(":")[0] for p in problems} == {
        "name",
        "cols",
        "features.0.kind",
    }


def test_newer_format_is_refused_with_the_versions(tmp_path):
    data = map_data()
    data["format_version"] = 7
    with pytest.raises(LoadError) as e:
        load_map(write_json(tmp_path / "a.map.json", data))
    assert e.value.reason == "made by a newer TWTW Desktop (format 7); this version reads up to 1"


def test_missing_or_odd_format_version(tmp_path):
    data = map_data()
    del data["format_version"]
    with pytest.raises(LoadError, match="no format_version"):
        load_map(write_json(tmp_path / "a.map.json", data))
    for bad in (True, "1", 1.0, None):
        data["format_version"] = bad
        with pytest.raises(LoadError, match="whole number"):
            load_map(write_json(tmp_path / "a.map.json", data))


def test_duplicate_keys_bom_and_encodings(tmp_path):
    path = tmp_path / "a.map.json"
    text = json.dumps(map_data())
    path.write_text(text.replace('"rows": 4', '"rows": 4, "rows": 5'))
    with pytest.raises(LoadError, match="'rows' appears twice"):
        load_map(path)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_map(path) == small_map()
    path.write_bytes(text.encode("utf-16"))
    with pytest.raises(LoadError, match="UTF-16"):
        load_map(path)
    path.write_bytes(text.replace("Test street", "Caf\xe9").encode("latin-1"))
    with pytest.raises(LoadError, match="not UTF-8"):
        load_map(path)


def test_files_that_are_not_files(tmp_path, monkeypatch):
    with pytest.raises(LoadError, match="not found"):
        load_map(tmp_path / "nowhere.map.json")
    with pytest.raises(LoadError, match="folder"):
        load_map(tmp_path)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.map.json")
        with pytest.raises(LoadError, match="not a regular file"):
            load_map(tmp_path / "pipe.map.json")
    big = tmp_path / "big.map.json"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(LoadError, match=r"the limit is 200\.0 MB"):
        load_map(big)
    import twtw_desktop.io.files as files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 100)
    save_path = tmp_path / "small.map.json"
    with pytest.raises(SaveError, match="too large"):
        save_map(small_map(), save_path)
    assert not save_path.exists()


def test_kinds_are_told_apart(tmp_path):
    save_map(small_map(), tmp_path / "renamed.json")
    assert detect_kind(tmp_path / "renamed.json") == "map"
    with pytest.raises(LoadError, match="map file, not an encounter"):
        load_encounter(tmp_path / "renamed.json")
    save_encounter(Encounter(map=small_map()), tmp_path / "e.json")
    with pytest.raises(LoadError, match="encounter file, not a map"):
        load_map(tmp_path / "e.json")
    write_json(tmp_path / "other.json", {"hello": 1})
    with pytest.raises(LoadError, match="neither"):
        detect_kind(tmp_path / "other.json")
    write_json(tmp_path / "empty.encounter.json", {})
    assert detect_kind(tmp_path / "empty.encounter.json") == "encounter"
    assert validate_file(tmp_path / "other.json")[0].endswith(
        "neither a TWTW map nor an encounter file"
    )


def test_far_off_coordinates_are_refused(tmp_path):
    data = map_data()
    data["features"][2]["points"][1] = [1e300, 0.0]
    with pytest.raises(LoadError, match="far off the map") as e:
        load_map(write_json(tmp_path / "a.map.json", data))
    assert e.value.where == "features.2.points.1"


# --- encounters: references and cross-checks -------------------------------------------


def test_map_ref_problems(tmp_path):
    path = tmp_path / "e.encounter.json"
    write_json(path, Encounter(map_ref="gone.map.json").model_dump(mode="json"))
    with pytest.raises(LoadError) as e:
        load_encounter(path)
    assert e.value.where == "map_ref" and "not found" in e.value.reason
    for absolute in ("/etc/street.map.json", "C:\\maps\\street.map.json", "\\\\srv\\x.map.json"):
        write_json(path, Encounter(map_ref=absolute).model_dump(mode="json"))
        with pytest.raises(LoadError, match="relative") as e:
            load_encounter(path)
        assert e.value.where == "map_ref"
        with pytest.raises(SaveError, match="relative"):
            save_encounter(Encounter(map_ref=absolute), tmp_path / "x.encounter.json")
    write_json(tmp_path / "bad.map.json", {"format_version": 1, "cols": 0})
    write_json(path, Encounter(map_ref="bad.map.json").model_dump(mode="json"))
    with pytest.raises(LoadError, match=r"the map it refers to cannot be loaded.*bad\.map\.json"):
        load_encounter(path)


def test_tokens_must_be_on_the_referenced_map(tmp_path):
    save_map(small_map(), tmp_path / "s.map.json")
    chars = list(sample_characters().values())[:1]
    enc = Encounter(
        map_ref="s.map.json",
        characters=chars,
        tokens=[Token(id="t1", character_id=chars[0].id, hex=(40, 40))],
    )
    save_encounter(enc, tmp_path / "e.encounter.json")
    with pytest.raises(LoadError, match="token 't1' is off the map") as e:
        load_encounter(tmp_path / "e.encounter.json")
    assert e.value.where == "tokens.0.hex"


def test_carried_weapons_must_be_in_the_gear_catalog(tmp_path):
    miranda = sample_characters()["miranda_valentine"]
    miranda.weapons[0].weapon_id = "ray_gun"
    save_encounter(Encounter(map=small_map(), characters=[miranda]), tmp_path / "e.json")
    with pytest.raises(LoadError, match="'ray_gun', which is not in the gear catalog") as e:
        load_encounter(tmp_path / "e.json")
    assert e.value.where == "characters.0.weapons.0.weapon_id"


def test_validate_file_lists_background_problems(tmp_path):
    m = small_map()
    m.background = {"path": "../../etc/secret.png", "width": 10, "height": 10}
    save_map(m, tmp_path / "a.map.json")
    load_map(tmp_path / "a.map.json")  # loading never opens the picture
    problems = validate_file(tmp_path / "a.map.json")
    assert len(problems) == 1 and "background.path" in problems[0] and "'..'" in problems[0]
    (tmp_path / "bg.png").write_bytes(png_header(10, 12))
    m.background = {"path": "bg.png", "width": 10, "height": 10}
    save_encounter(Encounter(map=m), tmp_path / "e.encounter.json")
    problems = validate_file(tmp_path / "e.encounter.json")
    assert len(problems) == 1 and "map.background.width" in problems[0]


# --- random and mutated files give LoadError only --------------------------------------


@settings(max_examples=150)
@given(st.binary(max_size=400))
def test_random_bytes_give_only_load_error(blob):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.map.json"
        path.write_bytes(blob)
        for load in (load_map, load_encounter):
            with pytest.raises(LoadError):
                load(path)
        with contextlib.suppress(LoadError):  # "{}" is told apart by the file name alone
            assert detect_kind(path) == "map"
        problems = validate_file(path)
        assert problems and all(isinstance(p, str) for p in problems)


_SAMPLE = json.dumps(
    Encounter(
        map=small_map(),
        characters=[sample_characters()["hank_daggett"]],
        tokens=[Token(id="t", character_id="hank_daggett", hex=(1, 1))],
    ).model_dump(mode="json")
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _mutate(data, path, how):
    *parents, last = path
    target = data
    for p in parents:
        target = target[p]
    if how == "delete":
        del target[last]
    else:
        target[last] = how


_ALL_PATHS = [p for p in _paths(json.loads(_SAMPLE)) if p]


@settings(max_examples=150)
@given(
    st.sampled_from(_ALL_PATHS),
    st.sampled_from(["delete", None, True, -1, 2**40, 1.5, "", "x", [], {}, [[]], {"a": 1}]),
)
def test_mutated_structure_gives_map_or_load_error(path, how):
    data = json.loads(_SAMPLE)
    _mutate(data, path, how)
    with tempfile.TemporaryDirectory() as tmp:
        file = write_json(Path(tmp) / "e.encounter.json", data)
        try:
            loaded = load_encounter(file)
        except LoadError as e:
            assert str(file) in str(e)
        else:
            assert isinstance(loaded.encounter, Encounter)


@settings(max_examples=150)
@given(
    st.integers(0, len(_SAMPLE)),
    st.sampled_from(["truncate", "garbage", "delete"]),
    st.text(max_size=8),
)
def test_mutated_text_gives_map_or_load_error(pos, how, garbage):
    if how == "truncate":
        text = _SAMPLE[:pos]
    elif how == "garbage":
        text = _SAMPLE[:pos] + garbage + _SAMPLE[pos:]
    else:
        text = _SAMPLE[:pos] + _SAMPLE[pos + 1 :]
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "e.encounter.json"
        file.write_text(text, encoding="utf-8", errors="surrogatepass")
        with contextlib.suppress(LoadError):
            load_encounter(file)
        assert isinstance(validate_file(file), list)


# --- failed saves never touch the original ---------------------------------------------


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "keep.map.json"
    save_map(small_map(), path)
    return path, path.read_bytes()


def _untouched(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert stray_files(path.parent, {path.name}) == []


def test_unserialisable_data_never_touches_the_file(saved):
    path, before = saved
    enc = Encounter(map=small_map(), log=[LogEntry(text="x", detail={"v": "lone \ud800"})])
    with pytest.raises(SaveError, match="UTF-8"):
        save_encounter(enc, path)
    _untouched(path, before)
    enc = Encounter(map=small_map(), log=[LogEntry(text="x", detail={"v": [float("nan")]})])
    with pytest.raises(SaveError, match="not finite") as e:
        save_encounter(enc, path)
    assert e.value.where == "log.0.detail.v.0"
    _untouched(path, before)
    enc = Encounter(map=small_map(), log=[LogEntry(text="x", detail={"v": object()})])
    with pytest.raises(SaveError):
        save_encounter(enc, path)
    _untouched(path, before)


def test_invalid_in_place_edit_is_not_saved(saved):
    path, before = saved
    m = small_map()
    m.terrain.append("......")  # list edits bypass pydantic's assignment check
    with pytest.raises(SaveError, match="not valid and was not saved: terrain has 5 rows"):
        save_map(m, path)
    _untouched(path, before)
    m = small_map()
    m.features[0].points.append((1e300, 0.0))
    with pytest.raises(SaveError, match="far off the map"):
        save_map(m, path)
    _untouched(path, before)


@pytest.mark.parametrize("fails", ["open", "write", "fsync", "replace"])
def test_disk_errors_never_touch_the_file(saved, monkeypatch, fails):
    path, before = saved
    real = {"open": os.open, "fsync": os.fsync, "replace": os.replace}

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    if fails == "write":  # the atomic write writes in chunks with os.write
        real_write = os.write

        def full(fd, data):
            real_write(fd, bytes(data[:10]))
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "write", full)
    else:
        assert real[fails]
        monkeypatch.setattr(os, fails, boom)
    m = small_map()
    m.name = "changed"
    with pytest.raises(SaveError, match=r"No space left on device.*unchanged"):
        save_map(m, path)
    monkeypatch.undo()
    _untouched(path, before)


def test_corruption_on_disk_is_caught_before_the_rename(saved, monkeypatch):
    """A file that reads back differently (a flipped byte) never replaces the original."""
    path, before = saved
    real_fsync = os.fsync
    m = small_map()
    m.name = "Main Street"
    blob_pos = files_mod.dumps_pretty(m.model_dump(mode="json")).encode().index(b"Main Street")
    corrupted = []

    def corrupting_fsync(fd):
        os.pwrite(fd, b"Mean", blob_pos)
        corrupted.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", corrupting_fsync)
    with pytest.raises(SaveError, match="reads back differently"):
        save_map(m, path)
    monkeypatch.undo()
    assert corrupted
    _untouched(path, before)


def test_read_only_targets(saved, monkeypatch):
    path, before = saved
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    with pytest.raises(SaveError, match="read-only"):
        save_map(small_map(), path)
    monkeypatch.undo()
    _untouched(path, before)

    def denied(p, flags, mode=0o777, **kw):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(SaveError, match="Permission denied"):
        save_map(small_map(), path)
    monkeypatch.undo()
    _untouched(path, before)
    with pytest.raises(SaveError, match="does not exist"):
        save_map(small_map(), path.parent / "no" / "such.map.json")
    with pytest.raises(SaveError, match="folder or a special file"):
        save_map(small_map(), path.parent)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores modes")
def test_read_only_folder(saved):
    path, before = saved
    path.parent.chmod(0o555)
    try:
        with pytest.raises(SaveError):
            save_map(small_map(), path)
    finally:
        path.parent.chmod(0o755)
    _untouched(path, before)


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes and symlinks")
def test_save_keeps_the_mode_and_writes_through_symlinks(tmp_path):
    real = tmp_path / "real.map.json"
    save_map(small_map(), real)
    real.chmod(0o640)
    link = tmp_path / "link.map.json"
    link.symlink_to(real)
    m = small_map()
    m.name = "via the link"
    save_map(m, link)
    assert link.is_symlink()
    assert load_map(real).name == "via the link"
    assert real.stat().st_mode & 0o777 == 0o640
