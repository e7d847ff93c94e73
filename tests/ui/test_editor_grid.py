"""The grid painter under editing: it finds the changed hexes itself, drops only
their tiles, and recolours the far-zoom image in place."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter, QTransform

from twtw_desktop.model import edit as ed
from twtw_desktop.model.map import Map, Terrain
from twtw_desktop.ui.scene import style
from twtw_desktop.ui.scene.frame import MapFrame
from twtw_desktop.ui.scene.grid_painter import GridPainter


def _paint(gp: GridPainter, w: int = 1400, h: int = 1000) -> None:
    img = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    p = QPainter(img)
    p.setWorldTransform(QTransform.fromScale(1.0, 1.0))
    gp.paint(p, QRectF(0, 0, w, h))
    p.end()


def _colour_at(gp: GridPainter, h):
    img, target = gp._ground_image()
    c = gp.frame.center(h)
    x = int((c.x() - target.left()) / target.width() * img.width())
    y = int((c.y() - target.top()) / target.height() * img.height())
    return img.pixelColor(x, y)


def test_invalidate_finds_changed_hexes_and_drops_only_their_tiles(qapp):
    m = Map.blank(60, 40)
    gp = GridPainter(MapFrame(m))
    _paint(gp)
    cached = gp.cached_tiles
    assert cached > 4
    gp.invalidate()  # nothing changed: nothing dropped
    assert gp.cached_tiles == cached
    h = m.hex_at(5, 5)
    ed.write_ground(m, ed.terrain_change(m, [h], Terrain.WATER).after)
    gp.invalidate()
    assert 0 < cached - gp.cached_tiles <= 4
    # elevation changes are found the same way (the grid appears on the first raise)
    _paint(gp)
    cached = gp.cached_tiles
    ed.write_ground(m, ed.elevation_change(m, [m.hex_at(10, 12)], 2).after)
    gp.invalidate()
    assert 0 < cached - gp.cached_tiles <= 4
    # a size change redraws everything
    _paint(gp)
    m.__dict__.update(Map.blank(30, 20).__dict__)
    gp.invalidate()
    assert gp.cached_tiles == 0


def test_far_zoom_image_is_recoloured_in_place(qapp):
    m = Map.blank(40, 30)
    gp = GridPainter(MapFrame(m))
    h = m.hex_at(12, 9)
    assert _colour_at(gp, h) == style.GROUND
    ed.write_ground(m, ed.terrain_change(m, [h], Terrain.WATER).after)
    gp.invalidate()
    assert gp._colours is not None  # kept, only the changed hex recoloured
    assert _colour_at(gp, h) == style.terrain_colour(Terrain.WATER)
    assert _colour_at(gp, m.hex_at(13, 9)) == style.GROUND
    # a bulk edit recolours the whole map at once
    ed.write_ground(m, ed.terrain_change(m, m.hexes(), Terrain.ROUGH).after)
    gp.invalidate()
    assert _colour_at(gp, m.hex_at(30, 20)) == style.terrain_colour(Terrain.ROUGH)


def test_explicit_hexes_mark_them_drawn(qapp):
    m = Map.blank(20, 20)
    gp = GridPainter(MapFrame(m))
    _paint(gp)
    h = m.hex_at(3, 3)
    ed.write_ground(m, ed.terrain_change(m, [h], Terrain.ROUGH).after)
    gp.invalidate([h])
    _paint(gp)
    cached = gp.cached_tiles
    gp.invalidate()  # already accounted for
    assert gp.cached_tiles == cached
