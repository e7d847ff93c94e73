"""Hex ↔ pixel conversion and offset labels, for pointy and flat maps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twtw_desktop.hexgrid import (
    DIRECTIONS,
    Hex,
    Layout,
    Orientation,
    hex_range,
    hex_to_offset,
    offset_label,
    offset_to_hex,
)

BOTH = list(Orientation)
SQRT3 = math.sqrt(3)


@pytest.mark.parametrize("orientation", BOTH)
@pytest.mark.parametrize("size", [1.0, 32.0])
def test_neighbour_centres_are_one_pace_apart(orientation, size):
    lay = Layout(orientation, size, 10.0, -4.0)
    c = Hex(2, -3)
    cx, cy = lay.hex_to_pixel(c)
    for n in c.neighbors():
        nx, ny = lay.hex_to_pixel(n)
        assert math.hypot(nx - cx, ny - cy) == pytest.approx(size * SQRT3)


@pytest.mark.parametrize(
    ("orientation", "h", "xy"),
    [
        (Orientation.POINTY, Hex(0, 0), (0.0, 0.0)),
        (Orientation.POINTY, Hex(1, 0), (SQRT3, 0.0)),
        (Orientation.POINTY, Hex(0, 1), (SQRT3 / 2, 1.5)),
        (Orientation.POINTY, Hex(1, -1), (SQRT3 / 2, -1.5)),
        (Orientation.FLAT, Hex(1, 0), (1.5, SQRT3 / 2)),
        (Orientation.FLAT, Hex(0, 1), (0.0, SQRT3)),
        (Orientation.FLAT, Hex(1, -1), (1.5, -SQRT3 / 2)),
    ],
)
def test_hex_to_pixel_table(orientation, h, xy):
    assert Layout(orientation).hex_to_pixel(h) == pytest.approx(xy)


@pytest.mark.parametrize("orientation", BOTH)
@given(
    q=st.integers(-50, 50),
    r=st.integers(-50, 50),
    fx=st.floats(-0.8, 0.8),
    fy=st.floats(-0.8, 0.8),
)
def test_pixel_to_hex_round_trip(orientation, q, r, fx, fy):
    """Any point within the inner circle of a hex (radius √3/2) maps back to it."""
    lay = Layout(orientation, 20.0, 7.0, 3.0)
    h = Hex(q, r)
    x, y = lay.hex_to_pixel(h)
    inner = lay.size * SQRT3 / 2 * 0.99
    scale = min(1.0, 1.0 / max(1e-9, math.hypot(fx, fy)))
    px, py = x + fx * scale * inner, y + fy * scale * inner
    assert lay.pixel_to_hex(px, py) == h
    fq, fr = lay.fractional_hex(x, y)
    assert (fq, fr) == pytest.approx((q, r), abs=1e-9)


@pytest.mark.parametrize("orientation", BOTH)
def test_corners_lie_on_the_radius_and_are_shared(orientation):
    lay = Layout(orientation, 2.0)
    h = Hex(1, 2)
    cx, cy = lay.hex_to_pixel(h)
    corners = lay.polygon_corners(h)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(2.0)
    # each corner belongs to three hexes: this one and two neighbours
    for x, y in corners:
        owners = [
            n
            for n in hex_range(h, 1)
            if any(math.dist((x, y), c) < 1e-9 for c in lay.polygon_corners(n))
        ]
        assert len(owners) == 3


@pytest.mark.parametrize("orientation", BOTH)
@pytest.mark.parametrize("facing", range(6))
def test_hexside_and_facing_angle_agree_with_directions(orientation, facing):
    lay = Layout(orientation, 1.0)
    h = Hex(0, 0)
    n = h.neighbor(facing)
    a, b = lay.hexside(h, facing)
    assert math.dist(a, b) == pytest.approx(1.0)  # a side is one radius long
    shared = set(map(lambda p: (round(p[0], 9), round(p[1], 9)), lay.polygon_corners(h)))
    shared &= set(map(lambda p: (round(p[0], 9), round(p[1], 9)), lay.polygon_corners(n)))
    assert {(round(a[0], 9), round(a[1], 9)), (round(b[0], 9), round(b[1], 9))} == shared
    nx, ny = lay.hex_to_pixel(n)
    assert math.degrees(math.atan2(-ny, nx)) % 360 == pytest.approx(lay.facing_angle(facing))
    # facings go counter-clockwise on screen: the next one is 60° further round
    assert (lay.facing_angle(facing + 1) - lay.facing_angle(facing)) % 360 == pytest.approx(60)


@pytest.mark.parametrize(
    ("orientation", "col", "row", "h"),
    [
        (Orientation.POINTY, 0, 0, Hex(0, 0)),
        (Orientation.POINTY, 0, 1, Hex(0, 1)),
        (Orientation.POINTY, 0, 2, Hex(-1, 2)),
        (Orientation.POINTY, 3, 11, Hex(-2, 11)),
        (Orientation.FLAT, 0, 1, Hex(0, 1)),
        (Orientation.FLAT, 1, 0, Hex(1, 0)),
        (Orientation.FLAT, 2, 0, Hex(2, -1)),
        (Orientation.FLAT, 3, 11, Hex(3, 10)),
    ],
)
def test_offset_table(orientation, col, row, h):
    assert offset_to_hex(col, row, orientation) == h
    assert hex_to_offset(h, orientation) == (col, row)


@pytest.mark.parametrize(
    ("orientation", "col", "row", "label"),
    [
        (Orientation.POINTY, 0, 0, "0101"),
        (Orientation.POINTY, 3, 11, "0412"),
        (Orientation.FLAT, 3, 11, "0412"),
        (Orientation.FLAT, 19, 9, "2010"),
    ],
)
def test_offset_labels(orientation, col, row, label):
    assert offset_label(offset_to_hex(col, row, orientation), orientation) == label


def test_offset_label_digits():
    assert (
        offset_label(offset_to_hex(123, 4, Orientation.POINTY), Orientation.POINTY, 3) == "124005"
    )


@pytest.mark.parametrize("orientation", BOTH)
@given(col=st.integers(0, 399), row=st.integers(0, 399))
def test_offset_round_trip(orientation, col, row):
    h = offset_to_hex(col, row, orientation)
    assert hex_to_offset(h, orientation) == (col, row)


def test_odd_rows_shove_right_and_odd_columns_shove_down():
    pointy = Layout(Orientation.POINTY)
    x0, _ = pointy.hex_to_pixel(offset_to_hex(0, 0, Orientation.POINTY))
    x1, _ = pointy.hex_to_pixel(offset_to_hex(0, 1, Orientation.POINTY))
    assert x1 - x0 == pytest.approx(SQRT3 / 2)
    flat = Layout(Orientation.FLAT)
    _, y0 = flat.hex_to_pixel(offset_to_hex(0, 0, Orientation.FLAT))
    _, y1 = flat.hex_to_pixel(offset_to_hex(1, 0, Orientation.FLAT))
    assert y1 - y0 == pytest.approx(SQRT3 / 2)


def test_directions_are_unit_steps():
    assert all(d.length() == 1 for d in DIRECTIONS)
