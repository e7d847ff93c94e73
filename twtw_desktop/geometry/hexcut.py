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

_POLY_CACHE: dict[tuple, np.ndarray] = {}
#: map units: the hexes' corners are snapped to this grid
GRID = 1e-6


def hex_polygons(game_map: Map) -> np.ndarray:
    """Every hex of the map as a shapely polygon in map units, row by row (cached per
    shape and orientation)."""
    key = (game_map.cols, game_map.rows, game_map.orientation)
    hit = _POLY_CACHE.get(key)
    if hit is not None:
        return hit
    layout = game_map.layout()
    centres = map_hex_arrays(game_map).xy
    corners = np.array([layout.corner_offset(i) for i in range(6)])
    rings = centres[:, None, :] + corners[None, :, :]
    # on a fine grid, so that neighbours share their corners exactly (a coverage)
    hit = shapely.set_precision(shapely.polygons(rings), GRID)
    if len(_POLY_CACHE) > 8:
        _POLY_CACHE.clear()
    _POLY_CACHE[key] = hit
    return hit


def hexes_touching(game_map: Map, points: Sequence[Sequence[float]]) -> np.ndarray:
    """The flat (row-major) indices of the hexes a polyline touches."""
    polys = hex_polygons(game_map)
    line = shapely.linestrings(np.asarray(points, dtype=float))
    return np.flatnonzero(shapely.intersects(polys, line))


def region(game_map: Map, mask: np.ndarray) -> shapely.Geometry | None:
    """The area of the hexes of ``mask`` as one geometry (None: no hex)."""
    sel = mask.ravel()
    if not sel.any():
        return None
    polys = hex_polygons(game_map)[sel]
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
    polys = hex_polygons(game_map)[mask.ravel()]
    return [[(float(x), float(y)) for x, y in shapely.get_coordinates(p)] for p in polys]
