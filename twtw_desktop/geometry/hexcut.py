"""Cutting a map to a set of its hexes (issue 36: a player's page holds only the hexes
its character has seen).

Hex sets are ``(rows, cols)`` boolean masks in offset coordinates, row by row, the
same as the fog's (:mod:`twtw_desktop.play.fog`). The hexes are closed polygons: a
line on the edge between a seen and an unseen hex belongs to the seen one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely

from ..hexgrid import hex_to_offset
from ..model import Map
from .sight import map_hex_arrays

#: per map shape and orientation: each hex's polygon (None until first asked for) —
#: built only for the hexes asked about, so a door's first cut on a 200×200 map does
#: not build 40,000 polygons on the window's thread (about 2 s)
_POLY_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
#: map units: the hexes' corners are snapped to this grid
GRID = 1e-6


def polygons_of(game_map: Map, flat: np.ndarray) -> np.ndarray:
    """The polygons of the hexes at the flat (row-major) indices ``flat``, in map
    units, snapped to :data:`GRID` so that neighbours share their corners exactly (a
    coverage). Each is built once per map shape and orientation, when first asked for."""
    key = (game_map.cols, game_map.rows, game_map.orientation)
    hit = _POLY_CACHE.get(key)
    if hit is None:
        if len(_POLY_CACHE) > 8:
            _POLY_CACHE.clear()
        n = game_map.cols * game_map.rows
        hit = _POLY_CACHE[key] = (np.full(n, None, dtype=object), np.zeros(n, dtype=bool))
    polys, built = hit
    flat = np.asarray(flat, dtype=np.intp)
    missing = flat[~built[flat]]
    if missing.size:
        missing = np.unique(missing)
        centres = map_hex_arrays(game_map).xy[missing]
        rings = centres[:, None, :] + _corners(game_map)[None, :, :]
        polys[missing] = shapely.set_precision(shapely.polygons(rings), GRID)
        built[missing] = True
    return polys[flat]


def _corners(game_map: Map) -> np.ndarray:
    layout = game_map.layout()
    return np.array([layout.corner_offset(i) for i in range(6)])


def hexes_touching(game_map: Map, points: Sequence[Sequence[float]]) -> np.ndarray:
    """The flat (row-major) indices of the hexes a polyline touches: only the hexes
    whose centres lie within a hex's reach of the polyline's bounding box are cut."""
    pts = np.asarray(points, dtype=float)
    centres = map_hex_arrays(game_map).xy
    reach = float(np.abs(_corners(game_map)).max()) + GRID
    lo, hi = pts.min(axis=0) - reach, pts.max(axis=0) + reach
    near = np.flatnonzero(((centres >= lo) & (centres <= hi)).all(axis=1))
    if not near.size:
        return near
    line = shapely.linestrings(pts)
    return near[shapely.intersects(polygons_of(game_map, near), line)]


def region(game_map: Map, mask: np.ndarray) -> shapely.Geometry | None:
    """The area of the hexes of ``mask`` as one geometry (None: no hex)."""
    sel = mask.ravel()
    if not sel.any():
        return None
    polys = polygons_of(game_map, np.flatnonzero(sel))
    try:
        return shapely.coverage_union_all(polys)
    except shapely.errors.GEOSException:  # two corners snapped apart: the slower union
        return shapely.union_all(polys, grid_size=GRID)


def clip_polyline(
    area: shapely.Geometry | None, points: Sequence[Sequence[float]]
) -> list[list[tuple[float, float]]]:
    """The pieces of a polyline inside ``area`` (its boundary included), each as a
    list of points; a piece that is a single point is dropped."""
    if area is None:
        return []
    line = shapely.linestrings(np.asarray(points, dtype=float))
    lines = []
    for part in shapely.get_parts(shapely.intersection(line, area)):
        if part.geom_type == "MultiLineString":
            lines += list(shapely.get_parts(part))
        elif part.geom_type == "LineString":
            lines.append(part)
    if len(lines) > 1:
        lines = list(shapely.get_parts(shapely.line_merge(shapely.multilinestrings(lines))))
    return [[(float(x), float(y)) for x, y in part.coords] for part in lines if part.length > 1e-9]


def point_in(game_map: Map, mask: np.ndarray, x: float, y: float) -> bool:
    """Whether the point ``(x, y)`` (map units) lies in a hex of ``mask``."""
    col, row = hex_to_offset(game_map.layout().pixel_to_hex(x, y), game_map.orientation)
    return 0 <= row < mask.shape[0] and 0 <= col < mask.shape[1] and bool(mask[row, col])


def hex_rings(game_map: Map, mask: np.ndarray) -> list[list[tuple[float, float]]]:
    """The corners of each hex of ``mask``, in map units."""
    polys = polygons_of(game_map, np.flatnonzero(mask.ravel()))
    return [[(float(x), float(y)) for x, y in shapely.get_coordinates(p)] for p in polys]
