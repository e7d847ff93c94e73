"""Pure map editing operations (twtw_desktop.model.edit): ground changes, flood fill,
hexside routes, door cuts, regions, resize and background alignment."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex, Orientation
from twtw_desktop.model import edit as ed
from twtw_desktop.model.map import BackgroundImage, Feature, Label, Map, Marker, Note, Terrain

ORIENTATIONS = [Orientation.POINTY, Orientation.FLAT]


def _map(orientation=Orientation.POINTY, cols=12, rows=10) -> Map:
    return Map.blank(cols, rows, orientation)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_terrain_change_keeps_only_real_changes_and_merges(orientation):
    m = _map(orientation)
    h = m.hex_at(4, 4)
    ch = ed.terrain_change(m, ed.brush(h, 2), Terrain.WATER)
    assert len(ch) == 7
    ed.write_ground(m, ch.after)
    assert m.terrain_at(h) is Terrain.WATER
    again = ed.terrain_change(m, ed.brush(h, 2), Terrain.WATER)
    assert not again  # nothing left to change
    # a second step of the same stroke, partly overlapping, merges into one change
    step = ed.terrain_change(m, ed.brush(m.hex_at(5, 4), 2), Terrain.ROUGH)
    merged = ch.then(step)
    assert merged.before[ed.cell_of(m, m.hex_at(5, 4))] == (".", 0)
    assert merged.after[ed.cell_of(m, m.hex_at(5, 4))] == ("r", 0)
    # undoing the merged change restores open ground everywhere it touched
    ed.write_ground(m, step.after)
    ed.write_ground(m, merged.before)
    assert all(row == "." * m.cols for row in m.terrain)


def test_elevation_grid_appears_on_first_raise_and_is_clamped():
    m = _map()
    assert m.elevation is None
    h = m.hex_at(2, 2)
    ch = ed.elevation_change(m, [h], 3)
    ed.write_ground(m, ch.after)
    assert m.elevation is not None and m.elevation_at(h) == 3
    ch = ed.elevation_change(m, [h], 5000)
    ed.write_ground(m, ch.after)
    assert m.elevation_at(h) == ed.MAX_ELEVATION
    with pytest.raises(ValueError):
        ed.elevation_set(m, [h], 2000)


def test_brush_sizes():
    c = Hex(3, 3)
    assert [len(ed.brush(c, n)) for n in ed.BRUSH_SIZES] == [1, 7, 19]
    with pytest.raises(ValueError):
        ed.brush(c, 4)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_rect_hexes_is_an_offset_rectangle_clipped_to_the_map(orientation):
    m = _map(orientation)
    hexes = ed.rect_hexes(m, m.hex_at(2, 3), m.hex_at(5, 1))
    cells = {ed.cell_of(m, h) for h in hexes}
    assert cells == {(c, r) for c in range(2, 6) for r in range(1, 4)}
    big = ed.rect_hexes(m, m.hex_at(0, 0), Hex(100, 100))
    assert len(big) <= m.cols * m.rows and all(m.contains(h) for h in big)


def test_flood_fill_stays_inside_walls_and_same_ground():
    m = _map(cols=10, rows=6)
    # a wall of impassable down column 5 splits the map
    for r in range(m.rows):
        m.set_terrain(m.hex_at(5, r), Terrain.IMPASSABLE)
    left = ed.flood_region(m, m.hex_at(0, 0))
    assert len(left) == 5 * m.rows
    assert all(ed.cell_of(m, h)[0] < 5 for h in left)
    # a "blocked" callback (the editor passes the map's walls) stops the fill too
    stop = {(h.q, h.r) for h in left if ed.cell_of(m, h)[0] == 2}
    fenced = ed.flood_region(m, m.hex_at(0, 0), blocked=lambda a, b: (b.q, b.r) in stop)
    assert all(ed.cell_of(m, h)[0] < 2 for h in fenced)
    assert ed.flood_region(m, Hex(-50, 0)) == []


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_corners_snap_and_routes_follow_hexsides(orientation):
    m = _map(orientation)
    h = m.hex_at(3, 3)
    corners = ed.corner_points(m, h)
    for c in corners:
        assert ed.snap_corner(m, (c[0] + 0.05, c[1] - 0.04)) == c
        nb = ed.corner_neighbours(m, c)
        assert len(nb) == 3 and all(math.dist(c, x) == pytest.approx(1.0) for x in nb)
    a, b = corners[0], ed.corner_points(m, m.hex_at(7, 6))[3]
    route = ed.hexside_route(m, a, b)
    assert route[0] == a and route[-1] == b
    # every stretch is a whole number of hexsides long and lies along hex edges
    for p, q in itertools.pairwise(route):
        n = math.dist(p, q)
        assert n == pytest.approx(round(n), abs=1e-5) and n >= 1 - 1e-5


@settings(max_examples=40)
@given(
    st.integers(0, 11),
    st.integers(0, 9),
    st.integers(0, 5),
    st.integers(0, 11),
    st.integers(0, 9),
    st.integers(0, 5),
    st.sampled_from(ORIENTATIONS),
)
def test_hexside_route_always_arrives(c0, r0, k0, c1, r1, k1, orientation):
    m = _map(orientation)
    a = ed.corner_points(m, m.hex_at(c0, r0))[k0]
    b = ed.corner_points(m, m.hex_at(c1, r1))[k1]
    route = ed.hexside_route(m, a, b)
    assert route[0] == a and route[-1] == b


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_point_in_hex_sides_and_corners(orientation):
    m = _map(orientation)
    h = m.hex_at(4, 4)
    cx, cy = m.layout().hex_to_pixel(h)
    assert ed.point_in_hex(m, (cx, cy), h)
    corner = ed.corner_points(m, h)[0]
    assert len(ed.hexes_at_point(m, corner)) == 3
    side_mid = tuple((a + b) / 2 for a, b in zip(*ed.corner_points(m, h)[:2], strict=True))
    assert len(ed.hexes_at_point(m, side_mid)) == 2
    assert not ed.point_on_map(m, (-50.0, -50.0))


def test_a_door_cuts_the_wall_it_sits_on():
    m = _map()
    a = ed.corner_points(m, m.hex_at(2, 4))[0]
    b = ed.corner_points(m, m.hex_at(7, 4))[0]
    m.features.append(Feature(id="wall-1", points=ed.hexside_route(m, a, b)))
    wall = m.features[0].points
    # click just beside the third stretch of the wall: that hexside is the one found
    mid = ((wall[2][0] + wall[3][0]) / 2, (wall[2][1] + wall[3][1]) / 2 + 0.1)
    side = ed.nearest_hexside(m, mid)
    assert set(side) == {wall[2], wall[3]}
    cut = ed.cut_walls(m, *side)
    assert len(cut) == 1
    old, pieces = cut[0]
    assert old.id == "wall-1" and len(pieces) == 2
    assert pieces[0].id == "wall-1" and pieces[1].id != "wall-1"
    assert pieces[0].points[-1] in side and pieces[1].points[0] in side
    total = sum(
        math.dist(p, q) for f in pieces for p, q in zip(f.points, f.points[1:], strict=False)
    )
    whole = sum(math.dist(p, q) for p, q in zip(old.points, old.points[1:], strict=False))
    assert total == pytest.approx(whole - 1.0)  # one hexside taken out


def _busy_map(orientation=Orientation.POINTY) -> Map:
    m = _map(orientation)
    for c in range(2, 5):
        for r in range(2, 4):
            m.set_terrain(m.hex_at(c, r), Terrain.ROUGH)
    ed.write_ground(m, ed.elevation_change(m, [m.hex_at(3, 3)], 2).after)
    h = m.hex_at(3, 2)
    cs = ed.corner_points(m, h)
    m.features.append(Feature(id="wall-1", points=[cs[0], cs[1]], material="adobe"))
    far = ed.corner_points(m, m.hex_at(9, 8))
    m.features.append(Feature(id="wall-far", points=[far[0], far[1]]))
    m.labels.append(Label(id="label-1", at=m.layout().hex_to_pixel(m.hex_at(3, 3)), text="Shed"))
    m.notes.append(Note(id="note-1", hex=m.hex_at(2, 2).to_list(), text="cash box"))
    m.markers.append(Marker(id="trap-1", hex=m.hex_at(4, 3).to_list(), kind="trap"))
    return m


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_copy_and_paste_a_region_with_everything_in_it(orientation):
    m = _busy_map(orientation)
    region = ed.rect_hexes(m, m.hex_at(2, 2), m.hex_at(4, 3))
    clip = ed.copy_region(m, region)
    assert len(clip.cells) == 6
    assert {f.id for f in clip.features} == {"wall-1"}
    assert [x.id for x in clip.labels] == ["label-1"]
    assert [x.id for x in clip.notes] == ["note-1"] and [x.id for x in clip.markers] == ["trap-1"]
    at = m.hex_at(6, 6)
    before_ids = {f.id for f in m.features}
    rep = ed.paste_clip(m, clip, at)
    assert rep.cells == 6 and not rep.dropped
    assert m.terrain_at(at) is Terrain.ROUGH
    # the raised hex kept its place relative to the anchor
    d = m.hex_at(3, 3) - m.hex_at(2, 2)
    assert m.elevation_at(at + d) == 2
    new_feats = [f for f in m.features if f.id not in before_ids]
    assert len(new_feats) == 1 and new_feats[0].material.value == "adobe"
    assert len(m.labels) == 2 and len(m.notes) == 2 and len(m.markers) == 2
    Map.model_validate(m.model_dump())  # ids still unique, pins on the map


def test_paste_off_the_edge_keeps_what_lands_on_the_map():
    m = _busy_map()
    clip = ed.copy_region(m, ed.rect_hexes(m, m.hex_at(2, 2), m.hex_at(4, 3)))
    rep = ed.paste_clip(m, clip, m.hex_at(m.cols - 1, m.rows - 1))
    assert rep.cells_off_map > 0 and rep.cells + rep.cells_off_map == 6
    assert all(m.contains(Hex(*n.hex)) for n in m.notes)
    flat = Map.blank(8, 8, Orientation.FLAT)
    with pytest.raises(RulesError, match="pointy"):
        ed.paste_clip(flat, clip, Hex(0, 0))


def test_move_region_keeps_ids_and_clears_the_old_place():
    m = _busy_map()
    region = ed.rect_hexes(m, m.hex_at(2, 2), m.hex_at(4, 3))
    to = m.hex_at(6, 6)
    rep = ed.move_region(m, region, to)
    assert "wall-1" in rep.added and "note-1" in rep.added
    assert m.terrain_at(m.hex_at(2, 2)) is Terrain.OPEN
    assert m.terrain_at(to) is Terrain.ROUGH
    assert Hex(*m.notes[0].hex) == to
    assert {f.id for f in m.features} == {"wall-1", "wall-far"}


def test_delete_region():
    m = _busy_map()
    rep = ed.delete_region(m, ed.rect_hexes(m, m.hex_at(2, 2), m.hex_at(4, 3)))
    assert rep.cells == 6
    assert set(rep.removed) == {"wall-1", "label-1", "note-1", "trap-1"}
    assert [f.id for f in m.features] == ["wall-far"]
    assert not m.labels and not m.notes and not m.markers


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_resize_keeps_what_fits(orientation):
    m = _busy_map(orientation)
    small, rep = ed.resize(m, 6, 5)
    assert (small.cols, small.rows) == (6, 5)
    assert small.terrain_at(small.hex_at(3, 3)) is Terrain.ROUGH
    assert small.elevation_at(small.hex_at(3, 3)) == 2
    assert rep.features_dropped == ["wall-far"]
    assert [f.id for f in small.features] == ["wall-1"]
    assert m.cols == 12  # the original is untouched
    big, rep2 = ed.resize(m, 20, 15)
    assert not rep2.lines() and len(big.features) == 2
    assert big.terrain_at(big.hex_at(19, 14)) is Terrain.OPEN


@pytest.mark.parametrize("orientation", ORIENTATIONS)
def test_resize_with_a_shift_moves_everything_by_whole_hexes(orientation):
    m = _busy_map(orientation)
    moved, rep = ed.resize(m, 14, 12, shift=(2, 2))
    t = ed.translation(m, 2, 2)
    assert not rep.lines()
    assert moved.terrain_at(m.hex_at(2, 2) + t) is Terrain.ROUGH
    assert Hex(*moved.notes[0].hex) == Hex(*m.notes[0].hex) + t
    tx, ty = m.layout().hex_to_pixel(t)
    a, b = m.features[0].points[0], moved.features[0].points[0]
    assert (b[0] - a[0], b[1] - a[1]) == pytest.approx((tx, ty))
    with pytest.raises(RulesError):
        ed.resize(m, 0, 5)


def _bg(**kw) -> BackgroundImage:
    base = {"path": "bg.png", "width": 400, "height": 300, "scale": 0.05}
    base.update(kw)
    return BackgroundImage(**base)


@settings(max_examples=40)
@given(
    st.floats(-50, 50),
    st.floats(-50, 50),
    st.floats(0.01, 2.0),
    st.sampled_from([0, 60, 120, 180, 240, 300]),
    st.floats(0, 400),
    st.floats(0, 300),
)
def test_image_map_round_trip(x, y, scale, rot, ix, iy):
    bg = _bg(x=x, y=y, scale=scale, rotation=rot)
    mx, my = ed.image_to_map(bg, ix, iy)
    back = ed.map_to_image(bg, mx, my)
    assert back == pytest.approx((ix, iy), abs=1e-6)


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("rotation", [0, 60, 180])
def test_align_to_hexes_puts_both_points_on_their_hex_centres(orientation, rotation):
    m = _map(orientation, 20, 16)
    lay = m.layout()
    # a picture whose hexes are 40 px apart, turned by `rotation`, placed somewhere
    truth = _bg(scale=math.sqrt(3) / 40, rotation=rotation, x=3.0, y=-2.0)
    ha, hb = m.hex_at(2, 3), m.hex_at(9, 7)
    img_a = ed.map_to_image(truth, *lay.hex_to_pixel(ha))
    img_b = ed.map_to_image(truth, *lay.hex_to_pixel(hb))
    start = _bg()
    fitted = ed.align_to_hexes(m, start, img_a, img_b, ha, hb)
    assert fitted.rotation == rotation
    assert fitted.scale == pytest.approx(truth.scale)
    assert ed.image_to_map(fitted, *img_a) == pytest.approx(lay.hex_to_pixel(ha))
    assert ed.image_to_map(fitted, *img_b) == pytest.approx(lay.hex_to_pixel(hb))
    with pytest.raises(RulesError):
        ed.align_to_hexes(m, start, img_a, img_a, ha, hb)


def test_align_to_distance_scales_and_snaps_the_first_point():
    m = _map(cols=20, rows=16)
    bg = _bg(scale=0.01)
    img_a, img_b = (100.0, 100.0), (300.0, 100.0)  # 200 px apart
    fitted = ed.align_to_distance(m, bg, img_a, img_b, 5)
    assert fitted.scale == pytest.approx(5 * math.sqrt(3) / 200)
    a = ed.image_to_map(fitted, *img_a)
    centre = ed.snap_centre(m, a)
    assert a == pytest.approx(centre)
    with pytest.raises(RulesError):
        ed.align_to_distance(m, bg, img_a, img_b, 0)


def test_fit_background_covers_the_map_width():
    m = _map(cols=10, rows=8)
    fit = ed.fit_background(m, 500, 400)
    left, top, right, _ = ed.map_bounds(m)
    assert fit["x"] == pytest.approx(left) and fit["y"] == pytest.approx(top)
    assert fit["scale"] * 500 == pytest.approx(right - left)


def test_remove_and_find_objects():
    m = _busy_map()
    assert isinstance(ed.find_object(m, "trap-1"), Marker)
    assert ed.list_name(ed.find_object(m, "label-1")) == "labels"
    assert set(ed.remove_objects(m, ["trap-1", "wall-1", "nope"])) == {"trap-1", "wall-1"}
    with pytest.raises(KeyError):
        ed.find_object(m, "trap-1")


def test_a_free_door_dropped_near_a_free_wall_lands_on_it_and_cuts_it():
    m = _map()
    m.features.append(Feature(id="w", points=[(1.1, 3.75), (12.3, 3.75)]))
    a, b = ed.onto_wall(m, (5.0, 3.6), (6.6, 3.9))
    assert a == pytest.approx((5.0, 3.75)) and b == pytest.approx((6.6, 3.75))
    ((_old, pieces),) = ed.cut_walls(m, a, b)
    assert [p.points for p in pieces] == [
        [(1.1, 3.75), pytest.approx(a)],
        [pytest.approx(b), (12.3, 3.75)],
    ]
    assert ed.onto_wall(m, (5.0, 6.0), (6.0, 6.0)) is None
