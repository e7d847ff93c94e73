"""The fast fog (one visibility polygon per viewer) against the exact one (a sight
line per sample point): the same hexes, every hex, on the sample maps and on
awkward generated walls."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.bench.geometry import make_bench_map, make_tokens
from twtw_desktop.geometry.sight import visible_hexes
from twtw_desktop.geometry.visibility import (
    fast_visible_hexes,
    fast_visible_mask,
    sight_segments,
    visibility_polygon,
)
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import Hex, Orientation
from twtw_desktop.io.files import load_map
from twtw_desktop.model import Feature, Map

MAPS = sorted((Path(__file__).resolve().parents[2] / "maps").glob("*.map.json"))


def _viewers(m: Map, stride: int) -> list[Hex]:
    return [m.hex_at(c, r) for r in range(1, m.rows, stride) for c in range(1, m.cols, stride)]


@pytest.mark.parametrize("path", MAPS, ids=[p.name for p in MAPS])
def test_fast_fog_agrees_with_the_sight_lines_on_every_hex_of_the_sample_maps(path):
    m = load_map(path)
    index = WallIndex(m)
    assert len(MAPS) == 4
    for v in _viewers(m, 6):
        exact = visible_hexes(m, index, [v], any_part=True)
        fast = fast_visible_hexes(m, index, [v])
        assert fast == exact, (v, sorted(fast ^ exact, key=lambda h: (h.q, h.r))[:5])
    # several viewers at once (the posse): the union
    vs = _viewers(m, 13)[:4]
    assert fast_visible_hexes(m, index, vs) == visible_hexes(m, index, vs, any_part=True)


def test_the_mask_is_in_rows_and_columns():
    m = Map.blank(12, 9)
    m.features = [Feature(id="w", points=[(8.0, -2.0), (8.0, 30.0)], material="brick")]
    index = WallIndex(m)
    mask = fast_visible_mask(m, index, [m.hex_at(1, 4)])
    assert mask.shape == (9, 12)
    assert mask[4, 1] and mask[4, 3] and not mask[4, 10]


@pytest.mark.parametrize("orientation", [Orientation.POINTY, Orientation.FLAT])
def test_fast_fog_agrees_on_a_busy_generated_map(orientation):
    m = make_bench_map(50, 160, seed=7, orientation=orientation)
    index = WallIndex(m)
    for t in make_tokens(m, 8, seed=3):
        assert fast_visible_hexes(m, index, [t.at]) == visible_hexes(
            m, index, [t.at], any_part=True
        ), t.at


def test_max_range_and_no_walls():
    m = Map.blank(15, 15)
    index = WallIndex(m)
    v = m.hex_at(7, 7)
    assert fast_visible_hexes(m, index, [v]) == visible_hexes(m, index, [v], any_part=True)
    assert fast_visible_hexes(m, index, [v], max_range=3) == visible_hexes(
        m, index, [v], any_part=True, max_range=3
    )
    assert fast_visible_hexes(m, index, []) == set()


def test_awkward_walls_grazing_radial_crossing_and_through_the_viewer():
    """Walls along hex edges, a wall pointing straight at the viewer, crossing walls,
    a wall ending exactly on a sight line, and a viewer standing on a wall."""
    m = Map.blank(24, 20)
    lay = m.layout()
    v = m.hex_at(8, 9)
    vx, vy = lay.hex_to_pixel(v)
    far = lay.hex_to_pixel(m.hex_at(16, 9))
    m.features = [
        # radial: points straight at the viewer's centre, ends short of it
        Feature(id="radial", points=[(vx + 3.0, vy), (vx + 9.0, vy)], material="brick"),
        # an X of two crossing walls
        Feature(id="x1", points=[(vx - 9.0, vy - 6.0), (vx - 3.0, vy + 6.0)], material="brick"),
        Feature(id="x2", points=[(vx - 9.0, vy + 6.0), (vx - 3.0, vy - 6.0)], material="brick"),
        # a wall along hex edges (corners of the hexes below the viewer)
        Feature(
            id="edges",
            points=[lay.polygon_corners(m.hex_at(c, 13))[1] for c in range(4, 14)],
            material="adobe",
        ),
        # a wall whose end lies exactly on the sight line to a far hex centre
        Feature(
            id="graze",
            points=[((vx + far[0]) / 2, (vy + far[1]) / 2), ((vx + far[0]) / 2, vy - 6.0)],
            material="adobe",
        ),
    ]
    index = WallIndex(m)
    viewers = [v, m.hex_at(3, 3), m.hex_at(20, 17), m.hex_at(12, 9)]
    for w in viewers:
        assert fast_visible_hexes(m, index, [w]) == visible_hexes(m, index, [w], any_part=True), w
    # a viewer whose centre lies on a wall: the exact answer (his own hex at least)
    m.features.append(Feature(id="on", points=[(vx - 1.0, vy), (vx + 1.0, vy)], material="brick"))
    index = WallIndex(m)
    assert fast_visible_hexes(m, index, [v]) == visible_hexes(m, index, [v], any_part=True)


def test_the_polygon_is_none_for_a_viewer_on_a_wall_and_closed_by_the_box():
    segs = np.array([[[0.0, -1.0], [0.0, 1.0]]])
    assert visibility_polygon(segs, (0.0, 0.0), (-5, -5, 5, 5)) is None
    poly = visibility_polygon(np.empty((0, 2, 2)), (0.0, 0.0), (-5, -5, 5, 5))
    assert np.abs(poly).max() == pytest.approx(5.0)


def test_noded_segments_are_cached_per_index_version():
    m = Map.blank(10, 10)
    m.features = [Feature(id="a", points=[(0.0, 0.0), (10.0, 10.0)], material="brick")]
    m.features.append(Feature(id="b", points=[(0.0, 10.0), (10.0, 0.0)], material="brick"))
    index = WallIndex(m)
    segs = sight_segments(index)
    assert len(segs) == 4  # split where they cross
    assert sight_segments(index) is segs


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(*[st.floats(-2.0, 30.0, allow_nan=False)] * 4), min_size=1, max_size=12),
    st.integers(0, 15 * 13 - 1),
    st.booleans(),
)
def test_random_walls_agree(walls, at, flat):
    m = Map.blank(15, 13, orientation=Orientation.FLAT if flat else Orientation.POINTY)
    m.features = [
        Feature(id=f"w{i}", points=[(a, b), (c, d)], material="brick")
        for i, (a, b, c, d) in enumerate(walls)
        if math.hypot(c - a, d - b) > 1e-3
    ]
    index = WallIndex(m)
    v = m.hex_at(at % 15, at // 15)
    assert fast_visible_hexes(m, index, [v]) == visible_hexes(m, index, [v], any_part=True)
