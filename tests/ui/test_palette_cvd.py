"""The colour-blind-safe side palette, checked the way a viewer with deuteranopia
sees it: the simulated colours of the sides stay far apart, on paper and in a real
grab of the map."""

from __future__ import annotations

import numpy as np
import pytest

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.window.preferences import SIDE_PALETTES, apply_palette

from .colour_vision import _qimage_to_array, distance, simulate_deuteranopia
from .conftest import fresh_window

SIDES = ("posse", "hombres", "neutral")


def _simulated(palette: str) -> dict[str, np.ndarray]:
    cols = np.array([SIDE_PALETTES[palette][s].getRgb()[:3] for s in SIDES], np.uint8)
    return dict(zip(SIDES, simulate_deuteranopia(cols), strict=True))


def _min_gap(palette: str) -> float:
    sim = _simulated(palette)
    return min(distance(sim[a], sim[b]) for a in SIDES for b in SIDES if a < b)


def test_the_simulation_keeps_greys_and_merges_red_with_green():
    grey = np.array([[128, 128, 128]], np.uint8)
    assert np.abs(simulate_deuteranopia(grey).astype(int) - 128).max() <= 2
    red_green = simulate_deuteranopia(np.array([[200, 60, 40], [90, 120, 30]], np.uint8))
    assert distance(*red_green) < 60  # the confusion the palette must avoid


def test_okabe_ito_sides_stay_apart_under_deuteranopia():
    assert _min_gap("okabe_ito") >= 100
    assert _min_gap("okabe_ito") > _min_gap("standard")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    yield win
    apply_palette("standard")


def test_a_grab_of_the_map_keeps_the_sides_apart(window):
    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    window.settings.set_side_palette("okabe_ito")
    window.preferences.apply()
    mv = window.map_view
    enc = window.document.encounter
    fr = mv.map_scene.frame
    seen = {}
    for cid in ("miranda_valentine", "angus_laroq"):
        h = enc.token_for(cid).at
        mv.center_on_hex(h)
        img = _qimage_to_array(mv.viewport().grab().toImage())
        p = mv.mapFromScene(fr.center(h))
        # a pixel inside the disc, left of the initials
        x, y = int(p.x() - 0.45 * fr.unit * mv.zoom), int(p.y())
        seen[cid] = simulate_deuteranopia(img[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3)).mean(0)
    assert distance(seen["miranda_valentine"], seen["angus_laroq"]) >= 150
