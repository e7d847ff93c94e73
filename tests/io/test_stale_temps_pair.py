"""Temp files a crashed save left beside either file of an encounter's pair are
cleared by every save and every open (issue 28)."""

from __future__ import annotations

import shutil

from twtw_desktop.io import load_encounter, open_any, save_encounter_with_map
from twtw_desktop.resources import maps_dir


def _pair(tmp_path):
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / "main_street.encounter.json", tmp_path / "main_street.map.json"


def _leftovers(tmp_path):
    stale = [
        tmp_path / ".main_street.map.json.0badc0de.tmp.json",
        tmp_path / ".main_street.encounter.json.0badc0de.tmp.json",
    ]
    for p in stale:
        p.write_text("half a save")
    other = tmp_path / ".someone_else.txt.0badc0de.tmp"
    other.write_text("not ours")
    return stale, other


def test_a_save_that_does_not_rewrite_the_map_clears_both_files_temps(tmp_path):
    enc, map_path = _pair(tmp_path)
    stale, other = _leftovers(tmp_path)
    loaded = load_encounter(enc)
    save_encounter_with_map(loaded.encounter, loaded.map, enc, map_path=map_path, write_map=False)
    assert not any(p.exists() for p in stale)
    assert other.exists()


def test_opening_clears_both_files_temps(tmp_path):
    enc, _ = _pair(tmp_path)
    stale, other = _leftovers(tmp_path)
    open_any(enc)
    assert not any(p.exists() for p in stale)
    assert other.exists()
