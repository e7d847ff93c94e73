"""Where a missed throw lands (000 Missed Throws; RULES.md example 12)."""

from __future__ import annotations

import math

import pytest

from tests.geometry.conftest import side_wall
from twtw_desktop.errors import RulesError
from twtw_desktop.geometry.scatter import scatter
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import DIRECTIONS, Hex
from twtw_desktop.model.map import Map


def _bearing(m: Map, thrower: Hex, target: Hex, landing: Hex) -> float:
    """Degrees clockwise on screen from the thrower→target line to target→landing."""
    lay = m.layout()
    (hx, hy), (tx, ty), (lx, ly) = (lay.hex_to_pixel(h) for h in (thrower, target, landing))
    a = math.degrees(math.atan2(ty - hy, tx - hx))
    b = math.degrees(math.atan2(ly - ty, lx - tx))
    return (b - a) % 360


def _angle_gap(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


def test_rules_example_12_hank_misses_with_the_dynamite(orientation):
    """RULES.md example 12 (000 Missed Throws): TN 6, result 4, the card shows clock 9
    and step 3 — the bundle lands 3 paces from the target toward 9 o'clock, with 6
    pointing back at Hank (9 o'clock is Hank's left)."""
    m = Map.blank(30, 30, orientation)
    idx = WallIndex(m)
    hank = m.hex_at(5, 15)
    target = hank + DIRECTIONS[0].scale(6)
    assert hank.distance(target) == 6
    s = scatter(m, idx, hank, target, 9, 3)
    assert target.distance(s.landing) == 3
    assert s.stopped_by is None and not s.off_map
    # 9 o'clock is 270° clockwise (= 90° anticlockwise) from straight on; a hex
    # map puts the nearest hex within half a hexside of that
    assert _angle_gap(_bearing(m, hank, target, s.landing), 270) <= 15
    assert s.path[0] == target and len(s.path) == 4
    assert "000 Missed Throws" in s.reasons[0]


@pytest.mark.parametrize(
    ("hour", "bearing"), [(12, 0), (2, 60), (4, 120), (6, 180), (8, 240), (10, 300)]
)
def test_even_hours_fall_along_hexside_directions(orientation, hour, bearing):
    """With the throw along a hex row, the even hours point straight along hex rows."""
    m = Map.blank(30, 30, orientation)
    idx = WallIndex(m)
    thrower = m.hex_at(10, 15)
    target = thrower + DIRECTIONS[0].scale(4)
    s = scatter(m, idx, thrower, target, hour, 5)
    assert target.distance(s.landing) == 5
    assert _bearing(m, thrower, target, s.landing) == pytest.approx(bearing, abs=1e-6)
    if hour == 6:  # straight back toward the thrower, past him
        assert s.landing == thrower + DIRECTIONS[3]


@pytest.mark.parametrize("hour", range(1, 13))
def test_every_hour_lands_the_full_distance_near_its_bearing(orientation, hour):
    m = Map.blank(40, 40, orientation)
    idx = WallIndex(m)
    thrower = m.hex_at(12, 20)
    target = m.hex_at(20, 17)
    s = scatter(m, idx, thrower, target, hour, 4)
    assert target.distance(s.landing) == 4
    assert _angle_gap(_bearing(m, thrower, target, s.landing), (hour % 12) * 30) < 30


def test_a_wall_stops_the_throw_but_low_cover_and_open_doors_do_not():
    m = Map.blank(20, 10)
    thrower = m.hex_at(2, 4)
    target = m.hex_at(6, 4)
    beyond = [target + DIRECTIONS[0].scale(i) for i in range(1, 5)]
    m.features = [
        side_wall(m, beyond[0], 0, "fence", kind="cover", height="low"),
        side_wall(m, beyond[1], 0, "door", kind="door", is_open=True),
        side_wall(m, beyond[2], 0, "wall", material="brick"),
    ]
    idx = WallIndex(m)
    s = scatter(m, idx, thrower, target, 12, 5)
    assert s.stopped_by == "wall"
    assert s.landing == beyond[2]
    assert s.intended == target + DIRECTIONS[0].scale(5)
    assert s.path[-1] == s.landing
    assert "wall wall is in the way" in s.reasons[-1]


def test_scatter_from_the_thrower_on_a_phases_calamity():
    """001 Scatter: on a CF the throw scatters from the thrower (clock still turned
    along the line of the throw)."""
    m = Map.blank(20, 10)
    idx = WallIndex(m)
    thrower, target = m.hex_at(4, 4), m.hex_at(10, 4)
    s = scatter(m, idx, thrower, target, 12, 2, from_thrower=True)
    assert s.centre == thrower and s.landing == thrower + DIRECTIONS[0].scale(2)


def test_edge_cases():
    m = Map.blank(8, 8)
    idx = WallIndex(m)
    a, b = m.hex_at(1, 1), m.hex_at(4, 1)
    assert scatter(m, idx, a, b, 3, 0).landing == b
    off = scatter(m, idx, a, b, 12, 10)
    assert off.off_map and "off the map" in off.reasons[-1]
    with pytest.raises(RulesError):
        scatter(m, idx, a, a, 3, 2)
    with pytest.raises(RulesError):
        scatter(m, idx, a, b, 13, 2)
    with pytest.raises(RulesError):
        scatter(m, idx, a, b, 3, -1)
