"""Big maps: the far-zoom ground image stays within its sample budget, tiles zoomed
in past its resolution sample their own ground, and the colours match the hexes."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QTransform

from twtw_desktop.model.map import Map, Terrain
from twtw_desktop.ui.scene import grid_painter, style
from twtw_desktop.ui.scene.frame import MapFrame
from twtw_desktop.ui.scene.grid_painter import GridPainter, bucket_index, bucket_scale


def _wet_map(side: int = 60) -> tuple[Map, object]:
    m = Map.blank(side, side)
    wet = m.hex_at(20, 17)
    m.set_terrain(wet, Terrain.WATER)
    m.elevation = [[(c // 7) % 3 for c in range(side)] for _ in range(side)]
    return m, wet


def test_the_ground_image_keeps_to_its_sample_budget(qapp, monkeypatch):
    monkeypatch.setattr(grid_painter, "MAX_GROUND_SAMPLES", 5000)
    m, _wet = _wet_map()
    gp = GridPainter(MapFrame(m))
    img, _target = gp._ground_image()
    assert img.width() * img.height() <= 5000 * 1.05
    assert gp._sample[4] > grid_painter.GROUND_SAMPLE  # coarser than on a small map


def test_a_tile_past_the_image_resolution_samples_its_own_ground(qapp, monkeypatch):
    monkeypatch.setattr(grid_painter, "MAX_GROUND_SAMPLES", 5000)
    m, wet = _wet_map()
    fr = MapFrame(m)
    gp = GridPainter(fr)
    gp.show_grid = False
    gp._ground_image()
    calls = []
    own = gp._hex_index
    monkeypatch.setattr(gp, "_hex_index", lambda xs, ys: calls.append(len(xs)) or own(xs, ys))
    k = bucket_index(8.0 / fr.unit)  # hexes 8 px across: below LOD_HEX_PX, image used
    b = bucket_scale(k)
    centre = fr.center(wet)
    w = h = 300
    img = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    p.setWorldTransform(QTransform(b, 0, 0, b, w / 2 - centre.x() * b, h / 2 - centre.y() * b))
    gp.paint(p, QRectF(centre.x() - w / 2 / b, centre.y() - h / 2 / b, w / b, h / b))
    p.end()
    assert calls  # the tiles sampled their own ground
    assert img.pixel(w // 2, h // 2) == style.terrain_colour(Terrain.WATER, 2).rgba()
    beside = fr.center(m.hex_at(22, 17))
    px = int(w / 2 + (beside.x() - centre.x()) * b)
    other = m.hex_at(22, 17)
    assert (
        img.pixel(px, h // 2)
        == style.terrain_colour(m.terrain_at(other), m.elevation_at(other)).rgba()
    )


def test_hex_colours_are_each_hexes_own(qapp):
    m, _wet = _wet_map(25)
    gp = GridPainter(MapFrame(m))
    colours = gp._hex_colours()
    for r in range(m.rows):
        for c in range(m.cols):
            want = style.terrain_colour(m.terrain_at(m.hex_at(c, r)), m.elevation[r][c])
            assert int(colours[r, c]) == want.rgba()
    assert colours.dtype == np.uint32


def test_a_small_maps_image_is_fine_enough_for_every_far_zoom(qapp, monkeypatch):
    """A sample-sized map opened just under LOD_HEX_PX (its figures fitted at a
    readable zoom) draws the image scaled: no tile samples its own ground pixel by
    pixel (that cost ~100 ms at start-up)."""
    m = Map.blank(40, 30)
    fr = MapFrame(m)
    gp = GridPainter(fr)
    gp._ground_image()
    step = gp._sample[4]
    assert step < grid_painter.GROUND_SAMPLE
    assert step * grid_painter.LOD_HEX_PX <= grid_painter.GROUND_COARSE_PX
    calls = []
    monkeypatch.setattr(gp, "_hex_index", lambda xs, ys: calls.append(len(xs)))
    k = bucket_index(11.5 / fr.unit)  # just under LOD_HEX_PX
    b = bucket_scale(k)
    assert fr.unit * b < grid_painter.LOD_HEX_PX
    img = QImage(300, 300, QImage.Format.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    p.setWorldTransform(QTransform(b, 0, 0, b, 0, 0))
    gp.paint(p, QRectF(0, 0, 300 / b, 300 / b))
    p.end()
    assert not calls
