"""The wall index: blocked steps, sight yes/no, crossings with identities, edits."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.geometry.conftest import line_feature, side_wall
from twtw_desktop.bench.geometry import make_bench_map
from twtw_desktop.geometry import walls as walls_mod
from twtw_desktop.geometry.sight import visible
from twtw_desktop.geometry.walls import PACE, WallIndex
from twtw_desktop.hexgrid import Hex, Orientation
from twtw_desktop.model.map import Feature, Map


def _map(orientation=Orientation.POINTY, *features):
    m = Map.blank(12, 12, orientation)
    m.features = list(features)
    return m


@pytest.mark.parametrize("facing", range(6))
def test_a_wall_on_a_hexside_blocks_that_step_both_ways_and_no_other(orientation, facing):
    m = Map.blank(12, 12, orientation)
    h = m.hex_at(5, 5)
    m.features = [side_wall(m, h, facing, "w1")]
    idx = WallIndex(m)
    for d in range(6):
        n = h.neighbor(d)
        expected = "w1" if d == facing else None
        assert idx.movement_blocked(h, n) == expected
        assert idx.movement_blocked(n, h) == expected


@pytest.mark.parametrize(
    ("kw", "blocks"),
    [
        ({"kind": "wall"}, True),
        ({"kind": "wall", "height": "low"}, True),
        ({"kind": "cover", "height": "low"}, False),
        ({"kind": "cover", "height": "full"}, True),
        ({"kind": "door", "is_open": False}, True),
        ({"kind": "door", "is_open": True}, False),
        ({"kind": "window", "material": "glass"}, True),
        ({"kind": "window", "is_open": True}, True),
    ],
)
def test_what_blocks_a_step(orientation, kw, blocks):
    """Walls and closed doors block movement, open doors don't (model.map.Feature)."""
    m = Map.blank(8, 8, orientation)
    h = m.hex_at(3, 3)
    m.features = [side_wall(m, h, 0, "f", **kw)]
    idx = WallIndex(m)
    assert (idx.movement_blocked(h, h.neighbor(0)) == "f") is blocks


def test_opening_a_door_unblocks_after_update_feature():
    m = Map.blank(8, 8)
    h = m.hex_at(3, 3)
    door = side_wall(m, h, 0, "door1", kind="door")
    m.features = [door]
    idx = WallIndex(m)
    before = idx.version
    assert idx.movement_blocked(h, h.neighbor(0)) == "door1"
    a, b = idx.centre(h), idx.centre(h.neighbor(0))
    assert idx.blocks_sight(a, b)
    door.is_open = True
    idx.update_feature(door)
    assert idx.version > before
    assert idx.movement_blocked(h, h.neighbor(0)) is None
    assert not idx.blocks_sight(a, b)
    assert idx.crossings(a, b)[0].in_line_of_fire is False


def test_moving_and_removing_a_wall():
    m = Map.blank(8, 8)
    h = m.hex_at(3, 3)
    wall = side_wall(m, h, 0, "w")
    m.features = [wall]
    idx = WallIndex(m)
    moved = side_wall(m, h, 2, "w")
    wall.points = moved.points
    idx.update_feature(wall)
    assert idx.movement_blocked(h, h.neighbor(0)) is None
    assert idx.movement_blocked(h, h.neighbor(2)) == "w"
    m.features.remove(wall)
    idx.remove_feature("w")
    assert idx.movement_blocked(h, h.neighbor(2)) is None
    assert idx.blocked_links() == {}


def test_two_features_on_one_hexside():
    m = Map.blank(8, 8)
    h = m.hex_at(3, 3)
    m.features = [side_wall(m, h, 1, "b"), side_wall(m, h, 1, "a", kind="door")]
    idx = WallIndex(m)
    assert idx.movement_blocked(h, h.neighbor(1)) == "a"
    idx.remove_feature("a")
    assert idx.movement_blocked(h, h.neighbor(1)) == "b"


def test_movement_blocked_needs_neighbours():
    idx = WallIndex(Map.blank(4, 4))
    with pytest.raises(ValueError):
        idx.movement_blocked(Hex(0, 0), Hex(2, 0))


def test_crossings_are_sorted_from_the_shooter_with_identities(ap_v2):
    m = Map.blank(20, 5)
    row = [m.hex_at(c, 2) for c in range(20)]
    m.features = [
        side_wall(m, row[8], 0, "far", material="brick"),
        side_wall(m, row[2], 0, "near", kind="cover", height="low", material="thin_wood"),
        side_wall(m, row[5], 0, "mid", kind="window", material="glass"),
    ]
    idx = WallIndex.for_edition(m, ap_v2)
    cs = idx.crossings(idx.centre(row[0]), idx.centre(row[12]))
    assert [c.feature_id for c in cs] == ["near", "mid", "far"]
    assert [c.av for c in cs] == [2, 1, 4]
    assert [c.paces for c in cs] == pytest.approx([2.5, 5.5, 8.5])
    assert cs[0].height.value == "low" and not cs[0].blocks_sight
    assert cs[1].kind == "window" and not cs[1].blocks_sight and cs[1].blocks_movement
    assert cs[2].blocks_sight
    assert cs[2].point == pytest.approx((idx.centre(row[8])[0] + PACE / 2, idx.centre(row[0])[1]))
    # the AV is read live: ablation needs no rebuild
    m.features[0].ablation = 2
    assert idx.crossings(idx.centre(row[0]), idx.centre(row[12]))[-1].av == 2


def test_a_building_is_crossed_twice():
    m = Map.blank(20, 8)
    lay = m.layout()
    x0, y0 = lay.hex_to_pixel(m.hex_at(5, 2))
    x1, y1 = lay.hex_to_pixel(m.hex_at(9, 5))
    box = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    m.features = [Feature(id="house", points=box, material="adobe")]
    idx = WallIndex(m)
    a, b = idx.centre(m.hex_at(2, 4)), idx.centre(m.hex_at(14, 4))
    cs = idx.crossings(a, b)
    assert [c.feature_id for c in cs] == ["house", "house"]
    assert cs[0].distance < cs[1].distance
    assert idx.blocks_sight(a, b)


def test_no_features_means_nothing_in_the_way():
    m = Map.blank(6, 6)
    idx = WallIndex(m)
    assert idx.crossings((0, 0), (10, 10)) == []
    assert not idx.blocks_sight((0, 0), (10, 10))
    assert idx.blocks_sight_many([0.0, 0.0], [[1.0, 1.0], [5.0, 5.0]]).tolist() == [False, False]


def test_vectorised_sight_matches_single_queries():
    m = Map.blank(12, 12)
    m.features = [line_feature(m, m.hex_at(2, 2), m.hex_at(8, 9), "diag")]
    idx = WallIndex(m)
    a = idx.centre(m.hex_at(0, 6))
    targets = [idx.centre(h) for h in m.hexes()]
    many = idx.blocks_sight_many(a, targets).tolist()
    assert many == [idx.blocks_sight(a, t) for t in targets]
    assert any(many) and not all(many)


walls_strategy = st.lists(
    st.tuples(
        st.integers(0, 14), st.integers(0, 14), st.integers(0, 14), st.integers(0, 14)
    ).filter(lambda t: t[:2] != t[2:]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40)
@given(
    walls=walls_strategy,
    a=st.tuples(st.integers(0, 14), st.integers(0, 14)),
    b=st.tuples(st.integers(0, 14), st.integers(0, 14)),
    flat=st.booleans(),
)
def test_line_of_sight_is_symmetric_between_hex_centres(walls, a, b, flat):
    """Full-height walls: A sees B exactly when B sees A."""
    m = Map.blank(15, 15, Orientation.FLAT if flat else Orientation.POINTY)
    lay = m.layout()
    feats = []
    for i, (c0, r0, c1, r1) in enumerate(walls):
        # corner to corner, as a Judge draws walls along hexsides
        p = lay.polygon_corners(m.hex_at(c0, r0))[i % 6]
        q = lay.polygon_corners(m.hex_at(c1, r1))[(i + 3) % 6]
        if p != q:
            feats.append(Feature(id=f"w{i}", points=[p, q]))
    m.features = feats
    idx = WallIndex(m)
    ha, hb = m.hex_at(*a), m.hex_at(*b)
    assert visible(m, idx, ha, hb) == visible(m, idx, hb, ha)
    blocked = any(c.blocks_sight for c in idx.crossings(idx.centre(ha), idx.centre(hb)))
    assert blocked == (not visible(m, idx, ha, hb)) or ha == hb


@settings(max_examples=30)
@given(walls=walls_strategy, flat=st.booleans())
def test_blocked_steps_match_a_direct_segment_test(walls, flat):
    """Every link the index marks as cut really meets the wall, and vice versa."""
    from shapely.geometry import LineString

    m = Map.blank(15, 15, Orientation.FLAT if flat else Orientation.POINTY)
    lay = m.layout()
    feats = []
    for i, (c0, r0, c1, r1) in enumerate(walls):
        p, q = lay.hex_to_pixel(m.hex_at(c0, r0)), lay.hex_to_pixel(m.hex_at(c1, r1))
        p = (p[0] + 0.37, p[1] - 0.21)  # off the centres, so no exact touching
        feats.append(Feature(id=f"w{i}", points=[p, q]))
    m.features = feats
    idx = WallIndex(m)
    geoms = [LineString(f.points) for f in feats]
    for h in m.hexes():
        for d in range(3):
            n = h.neighbor(d)
            link = LineString([lay.hex_to_pixel(h), lay.hex_to_pixel(n)])
            expect = any(g.intersects(link) for g in geoms)
            assert (idx.movement_blocked(h, n) is not None) == expect


def test_pace_is_the_distance_between_neighbouring_centres():
    lay = Map.blank(3, 3).layout()
    (x0, y0), (x1, y1) = lay.hex_to_pixel(Hex(0, 0)), lay.hex_to_pixel(Hex(1, 0))
    assert ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 == pytest.approx(PACE)


@pytest.mark.parametrize("seed", range(4))
def test_incremental_edits_answer_as_a_fresh_index(seed):
    """Edits kept beside the base (moved, opened, removed, added, past the delta
    limit) answer every query exactly as an index built from scratch."""
    rng = random.Random(seed)
    m = make_bench_map(24, 40, seed=seed)
    idx = WallIndex(m)
    lay = m.layout()
    pts = [lay.hex_to_pixel(m.hex_at(rng.randrange(24), rng.randrange(24))) for _ in range(40)]
    lines = [(a, b) for a in pts[:8] for b in pts[8:]]
    for step in range(walls_mod.DELTA_LIMIT + 12):
        f = rng.choice(m.features)
        roll = rng.random()
        if roll < 0.4:
            f.points = [(x + rng.uniform(-2, 2), y + rng.uniform(-2, 2)) for x, y in f.points]
            idx.update_feature(f)
        elif roll < 0.6:
            f.is_open = not f.is_open
            idx.update_feature(f)
        elif roll < 0.8 and len(m.features) > 5:
            m.features.remove(f)
            idx.remove_feature(f.id)
        else:
            new = Feature(id=f"n{step}", kind="wall", points=[pts[step % 40], pts[(step + 7) % 40]])
            m.features.append(new)
            idx.update_feature(new)
        fresh = WallIndex(m)
        for a, b in lines[:: 1 + step % 5]:
            assert idx.blocks_sight(a, b) == fresh.blocks_sight(a, b)
            assert idx.crossings(a, b) == fresh.crossings(a, b)
        a_xy = np.array([a for a, _ in lines])
        b_xy = np.array([b for _, b in lines])
        assert (idx.blocks_sight_many(a_xy, b_xy) == fresh.blocks_sight_many(a_xy, b_xy)).all()
        assert idx.blocked_step_set() == fresh.blocked_step_set()
