"""The vectorised point-to-hex lookup agrees with the scalar layout."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from twtw_desktop.geometry.raster import offsets_at
from twtw_desktop.hexgrid import Orientation
from twtw_desktop.model import Map


@pytest.mark.parametrize("orientation", [Orientation.POINTY, Orientation.FLAT])
@given(
    xs=st.lists(st.floats(-5, 40, allow_nan=False), min_size=1, max_size=30),
    ys=st.lists(st.floats(-5, 40, allow_nan=False), min_size=1, max_size=30),
)
def test_offsets_match_the_layout(orientation, xs, ys):
    m = Map.blank(12, 9, orientation)
    n = min(len(xs), len(ys))
    px, py = np.array(xs[:n]), np.array(ys[:n])
    col, row, inside = offsets_at(m, px, py)
    lay = m.layout()
    for i in range(n):
        h = lay.pixel_to_hex(float(px[i]), float(py[i]))
        c, r = m.offset(h)
        assert (int(col[i]), int(row[i])) == (c, r)
        assert bool(inside[i]) == m.contains(h)
