"""Many points to hexes at once (numpy): which map hex each sample point falls in.

The scalar :meth:`Layout.pixel_to_hex` rounds one point; the tiled grid painter's
far-zoom image and the players' fog sample thousands of points per tile, so they
share this vectorised version of the same cube rounding (Red Blob Games' hex guide).
"""

from __future__ import annotations

import numpy as np

from ..hexgrid import Orientation
from ..model.map import Map


def offsets_at(game_map: Map, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, ...]:
    """(col, row, inside) arrays for points ``px``, ``py`` in map units: the offset
    column and row of the hex under each point, and whether it lies on the map."""
    mat = game_map.layout()._m  # the matrix Layout.pixel_to_hex uses
    fq = mat.b0 * px + mat.b1 * py
    fr = mat.b2 * px + mat.b3 * py
    fs = -fq - fr
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    qi = np.where(fix_q, -r - s, q).astype(np.int64)
    ri = np.where(fix_r, -qi - s, r).astype(np.int64)
    if game_map.orientation is Orientation.POINTY:
        col, row = qi + (ri - (ri & 1)) // 2, ri
    else:
        col, row = qi, ri + (qi - (qi & 1)) // 2
    inside = (col >= 0) & (col < game_map.cols) & (row >= 0) & (row < game_map.rows)
    return col, row, inside
