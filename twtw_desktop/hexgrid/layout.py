"""Hex <-> pixel conversion through one :class:`Layout` object, and offset labels.

Every conversion between map coordinates and pixels in the project goes through a
``Layout`` (DESIGN.md habit 4). Pixel y grows downward, as on screen and paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from .hex import Hex, hex_round

_SQRT3 = math.sqrt(3.0)


class Orientation(StrEnum):
    """Which way the hexes point: a vertex up (pointy) or a flat side up (flat)."""

    POINTY = "pointy"
    FLAT = "flat"


@dataclass(frozen=True, slots=True)
class _Matrix:
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float  # in multiples of 60°


_MATRICES = {
    Orientation.POINTY: _Matrix(
        _SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0, _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5
    ),
    Orientation.FLAT: _Matrix(
        3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0
    ),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Orientation, hex size (centre-to-corner radius, pixels) and origin.

    ``size`` is the outer radius; the distance between neighbouring centres is
    ``size * sqrt(3)``.
    """

    orientation: Orientation = Orientation.POINTY
    size: float = 1.0
    origin_x: float = 0.0
    origin_y: float = 0.0

    @property
    def _m(self) -> _Matrix:
        return _MATRICES[self.orientation]

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        m = self._m
        x = (m.f0 * h.q + m.f1 * h.r) * self.size
        y = (m.f2 * h.q + m.f3 * h.r) * self.size
        return (x + self.origin_x, y + self.origin_y)

    def fractional_hex(self, x: float, y: float) -> tuple[float, float]:
        m = self._m
        px = (x - self.origin_x) / self.size
        py = (y - self.origin_y) / self.size
        return (m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        fq, fr = self.fractional_hex(x, y)
        return hex_round(fq, fr)

    def corner_offset(self, corner: int) -> tuple[float, float]:
        angle = 2.0 * math.pi * (self._m.start_angle + corner) / 6.0
        return (self.size * math.cos(angle), self.size * math.sin(angle))

    def polygon_corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of a hex in pixels (clockwise on screen)."""
        cx, cy = self.hex_to_pixel(h)
        out = []
        for i in range(6):
            ox, oy = self.corner_offset(i)
            out.append((cx + ox, cy + oy))
        return out

    def hexside(self, h: Hex, facing: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of the side of ``h`` shared with ``h.neighbor(facing)``."""
        cx, cy = self.hex_to_pixel(h)
        nx, ny = self.hex_to_pixel(h.neighbor(facing))
        mx, my = (cx + nx) / 2.0, (cy + ny) / 2.0
        # The side is perpendicular to the centre line, half a side long each way.
        dx, dy = nx - cx, ny - cy
        d = math.hypot(dx, dy)
        half = self.size / 2.0
        px, py = -dy / d * half, dx / d * half
        return ((mx - px, my - py), (mx + px, my + py))

    def facing_angle(self, facing: int) -> float:
        """Screen angle in degrees (0 = +x, counter-clockwise positive with y up)."""
        base = 0.0 if self.orientation is Orientation.POINTY else -30.0
        return (base + 60.0 * (facing % 6)) % 360.0


# --- offset coordinates (display only) -------------------------------------------
#
# Maps are rectangles of ``cols x rows`` hexes stored in offset coordinates:
# pointy-top maps shove odd rows right ("odd-r"), flat-top maps shove odd columns
# down ("odd-q"). Labels are 1-based column then row, zero padded: ``0412``.


def offset_to_hex(col: int, row: int, orientation: Orientation) -> Hex:
    if orientation is Orientation.POINTY:
        q = col - (row - (row & 1)) // 2
        return Hex(q, row)
    r = row - (col - (col & 1)) // 2
    return Hex(col, r)


def hex_to_offset(h: Hex, orientation: Orientation) -> tuple[int, int]:
    if orientation is Orientation.POINTY:
        col = h.q + (h.r - (h.r & 1)) // 2
        return (col, h.r)
    row = h.r + (h.q - (h.q & 1)) // 2
    return (h.q, row)


def offset_label(h: Hex, orientation: Orientation, digits: int = 2) -> str:
    """Display label such as ``0412`` (column 4, row 12, both 1-based)."""
    col, row = hex_to_offset(h, orientation)
    return f"{col + 1:0{digits}d}{row + 1:0{digits}d}"
