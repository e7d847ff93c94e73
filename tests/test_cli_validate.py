"""``twtw-desktop validate``: one line per file, OK or exactly what is wrong, and a
non-zero exit when any file fails. Every bundled map must validate (CI runs this)."""

from __future__ import annotations

import json
import shutil

import pytest

from twtw_desktop.cli import main
from twtw_desktop.resources import maps_dir

BUNDLED = sorted(p for p in maps_dir().iterdir() if p.name.endswith(".json"))


def _lines(capsys) -> list[str]:
    return capsys.readouterr().out.splitlines()


def test_every_bundled_map_and_encounter_validates(capsys):
    assert BUNDLED, "maps/ holds the sample files"
    assert main(["validate", *map(str, BUNDLED)]) == 0
    lines = _lines(capsys)
    assert lines == [f"OK   {p}" for p in BUNDLED]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_each_bundled_file_validates_alone(path, capsys):
    assert main(["validate", str(path)]) == 0
    assert _lines(capsys) == [f"OK   {path}"]


@pytest.fixture
def sample_map():
    return json.loads((maps_dir() / "main_street.map.json").read_text(encoding="utf-8"))


def test_a_broken_map_names_the_field_and_fails(tmp_path, sample_map, capsys):
    sample_map["features"][3]["material"] = "cheese"
    sample_map["cols"] = "40"
    bad = tmp_path / "bad.map.json"
    bad.write_text(json.dumps(sample_map), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    lines = _lines(capsys)
    assert len(lines) == 2 and all(line.startswith(f"FAIL {bad}") for line in lines)
    assert any(" at cols: " in line and "integer" in line for line in lines)
    assert any(" at features.3.material: " in line and "'brick'" in line for line in lines)
    # the file is named once per line, not twice
    assert all(line.count(str(bad)) == 1 for line in lines)


def test_bad_terrain_says_which_row(tmp_path, sample_map, capsys):
    row = sample_map["terrain"][2]
    sample_map["terrain"][2] = row[:5] + "X" + row[6:]
    bad = tmp_path / "terrain.map.json"
    bad.write_text(json.dumps(sample_map), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    (line,) = _lines(capsys)
    assert line.startswith(f"FAIL {bad}") and "terrain row 3" in line and "'X'" in line


def test_good_and_broken_files_together(tmp_path, capsys):
    good = tmp_path / "good.map.json"
    shutil.copy(maps_dir() / "main_street.map.json", good)
    broken = tmp_path / "broken.map.json"
    broken.write_text('{"format_version": 1,', encoding="utf-8")
    missing = tmp_path / "missing.map.json"
    assert main(["validate", str(good), str(broken), str(missing)]) == 1
    lines = _lines(capsys)
    assert lines[0] == f"OK   {good}"
    assert lines[1].startswith(f"FAIL {broken} at line 1") and "not valid JSON" in lines[1]
    assert lines[2] == f"FAIL {missing}: file not found"


def test_an_encounter_whose_map_is_missing_fails(tmp_path, capsys):
    enc = tmp_path / "main_street.encounter.json"
    shutil.copy(maps_dir() / "main_street.encounter.json", enc)  # without its map file
    assert main(["validate", str(enc)]) == 1
    (line, *_) = _lines(capsys)
    assert line.startswith(f"FAIL {enc}") and "main_street.map.json" in line


def test_not_a_twtw_file(tmp_path, capsys):
    other = tmp_path / "other.json"
    other.write_text('{"hello": "world"}', encoding="utf-8")
    assert main(["validate", str(other)]) == 1
    (line,) = _lines(capsys)
    assert line == f"FAIL {other}: this is neither a TWTW map nor an encounter file"


def test_no_files_is_a_usage_error(capsys):
    assert main(["validate"]) == 2
    assert "name at least one" in capsys.readouterr().err


def test_validate_knows_every_file_type_the_app_writes(tmp_path, capsys):
    """A legal party file, a session journal, a play script and a recovery copy are
    each OK, named by type; a broken one of each FAILs on one line."""
    from twtw_desktop.io.files import load_encounter
    from twtw_desktop.io.journal import JournalWriter
    from twtw_desktop.io.party import save_party
    from twtw_desktop.model.party import party_from

    enc = maps_dir() / "main_street.encounter.json"
    party = tmp_path / "posse.party.json"
    save_party(party_from(load_encounter(enc).encounter, None, "Posse"), party)
    journal = tmp_path / "x.encounter.journal.jsonl"
    JournalWriter(journal, {"encounter": "x.encounter.json"}).close()
    script = tmp_path / "s.jsonl"
    script.write_text('{"do": "start_action_time"}\n')
    copy = tmp_path / "main_street.map.json.autosave"
    shutil.copy(maps_dir() / "main_street.map.json", copy)
    assert main(["validate", str(party), str(journal), str(script), str(copy)]) == 0
    out = _lines(capsys)
    assert any("(party)" in ln for ln in out) and any("(session journal)" in ln for ln in out)
    assert any("(play script)" in ln for ln in out)
    bad_party = tmp_path / "bad.party.json"
    bad_party.write_text('{"format_version": 1, "characters": []}')
    bad_script = tmp_path / "bad.jsonl"
    bad_script.write_bytes(b"\xe9\xff\n")
    for bad in (bad_party, bad_script):
        assert main(["validate", str(bad)]) == 1
        out = _lines(capsys)
        assert len(out) == 1 and out[0].startswith("FAIL")
