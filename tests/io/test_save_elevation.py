"""Saving a map with elevation: the grid goes to the file as the model holds it (not
copied value by value) and is still checked whole, so an in-place edit that bypassed
pydantic is refused with a clear reason and the file on disk stays as it was."""

from __future__ import annotations

import pytest

from twtw_desktop.io.atomic import SaveError
from twtw_desktop.io.files import load_map, save_map, snapshot_bytes
from twtw_desktop.io.jsonsafe import dumps_pretty
from twtw_desktop.model.map import MAX_ELEVATION, Map


def _hilly() -> Map:
    m = Map.blank(30, 20)
    m.elevation = [[(c * r) % 7 - 3 for c in range(30)] for r in range(20)]
    return m


def test_the_saved_bytes_are_the_plain_dump_laid_out(tmp_path):
    m = _hilly()
    assert snapshot_bytes(m, tmp_path / "a.map.json") == dumps_pretty(
        m.model_dump(mode="json")
    ).encode("utf-8")
    save_map(m, tmp_path / "a.map.json")
    assert load_map(tmp_path / "a.map.json").elevation == m.elevation


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (MAX_ELEVATION + 1, "within"),
        (-MAX_ELEVATION - 5, "within"),
        (1.5, "whole number"),
        ("3", "whole number"),
        ([1], "whole number"),
    ],
)
def test_an_in_place_edit_deep_in_the_grid_is_refused(tmp_path, value, reason):
    m = _hilly()
    path = tmp_path / "a.map.json"
    save_map(m, path)
    before = path.read_bytes()
    m.elevation[17][23] = value  # type: ignore[index]  # bypasses pydantic
    with pytest.raises(SaveError) as e:
        save_map(m, path)
    assert reason in str(e.value) and "\n" not in str(e.value)
    assert path.read_bytes() == before


def test_a_short_row_is_refused(tmp_path):
    m = _hilly()
    m.elevation[5].pop()  # type: ignore[index]
    with pytest.raises(SaveError, match="same rows × cols"):
        save_map(m, tmp_path / "a.map.json")
