"""Cutting a map to its hexes (geometry/hexcut.py): the hexes a door or wall touches
are found from the hexes near it, never by building every hex of a large map (a
200×200 map's 40,000 polygons took about 2 s on the window's thread, the first
time a door was cut on the players' screen)."""

from __future__ import annotations

import numpy as np
import shapely

from twtw_desktop.geometry import hexcut
from twtw_desktop.model import Map


def _big_map() -> Map:
    return Map(name="big", cols=200, rows=200, terrain=["." * 200] * 200)


def test_a_polylines_hexes_are_cut_from_the_hexes_near_it_alone() -> None:
    m = _big_map()
    hexcut._POLY_CACHE.clear()
    line = [(100.0, 100.0), (140.0, 130.0), (141.5, 160.0)]
    touched = hexcut.hexes_touching(m, line)
    _polys, built = hexcut._POLY_CACHE[(m.cols, m.rows, m.orientation)]
    assert 0 < built.sum() < 2_000  # the bounding box's hexes, not 40,000
    every = hexcut.polygons_of(m, np.arange(m.cols * m.rows))
    assert built.all()
    expected = np.flatnonzero(shapely.intersects(every, shapely.linestrings(line)))
    assert np.array_equal(touched, expected) and len(expected) > 10


def test_a_polyline_off_the_map_touches_no_hex() -> None:
    m = _big_map()
    assert hexcut.hexes_touching(m, [(-500.0, -500.0), (-400.0, -450.0)]).size == 0


def test_the_region_of_some_hexes_is_their_union() -> None:
    m = _big_map()
    mask = np.zeros((m.rows, m.cols), dtype=bool)
    mask[10, 10:13] = True
    area = hexcut.region(m, mask)
    polys = hexcut.polygons_of(m, np.flatnonzero(mask.ravel()))
    assert area is not None and abs(area.area - sum(p.area for p in polys)) < 1e-6
    assert hexcut.region(m, np.zeros_like(mask)) is None
