"""Axial hex coordinates with cube helpers (after Red Blob Games' hex guide).

One hex is one pace. ``Hex(q, r)`` is immutable and hashable; ``s = -q - r`` is
derived. Facings are the integers 0–5, one per hexside, in the same order as
:data:`DIRECTIONS`; increasing the facing turns counter-clockwise on screen (y down).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """A hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def length(self) -> int:
        return (abs(self.q) + abs(self.r) + abs(self.s)) // 2

    def distance(self, other: Hex) -> int:
        """Distance in paces (hex steps)."""
        return (self - other).length()

    def neighbor(self, facing: int) -> Hex:
        return self + DIRECTIONS[facing % 6]

    def neighbors(self) -> list[Hex]:
        return [self + d for d in DIRECTIONS]

    def rotate_left(self) -> Hex:
        """Rotate 60° counter-clockwise about the origin."""
        return Hex(-self.s, -self.q)

    def rotate_right(self) -> Hex:
        """Rotate 60° clockwise about the origin."""
        return Hex(-self.r, -self.s)

    def to_list(self) -> list[int]:
        return [self.q, self.r]


#: Neighbour offsets; index = facing 0..5.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)

#: Diagonal offsets (two hexes across a vertex).
DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1),
    Hex(1, -2),
    Hex(-1, -1),
    Hex(-2, 1),
    Hex(-1, 2),
    Hex(1, 1),
)


def hex_direction(facing: int) -> Hex:
    return DIRECTIONS[facing % 6]


def rotate_facing(facing: int, steps: int) -> int:
    """Turn a facing by ``steps`` hexsides (positive = counter-clockwise)."""
    return (facing + steps) % 6


def facing_turn(from_facing: int, to_facing: int) -> int:
    """Smallest number of hexsides (0–3) between two facings."""
    d = (to_facing - from_facing) % 6
    return min(d, 6 - d)


def hex_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the containing hex."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_lerp(a: Hex, b: Hex, t: float) -> tuple[float, float]:
    return (a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t)


_EPS = 1e-6


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the line from ``a`` to ``b`` inclusive.

    Both ends are nudged by a tiny epsilon (the same way, always) so a line that runs
    exactly along a hexside picks one side consistently instead of flickering.
    """
    n = a.distance(b)
    if n == 0:
        return [a]
    aq, ar = a.q + _EPS, a.r + _EPS
    bq, br = b.q + _EPS, b.r + _EPS
    out = []
    step = 1.0 / n
    for i in range(n + 1):
        t = step * i
        out.append(hex_round(aq + (bq - aq) * t, ar + (br - ar) * t))
    return out


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` paces from ``center`` (radius 0 = the centre)."""
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def hex_spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """All hexes within ``radius`` paces, ring by ring from the centre outward."""
    for k in range(radius + 1):
        yield from hex_ring(center, k)


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes within ``radius`` paces (unordered beyond ring order)."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


def facing_toward(a: Hex, b: Hex) -> int:
    """The facing (0–5) whose hexside direction points most nearly from ``a`` to ``b``.

    Uses the layout-independent axial angle (pointy-top frame); the angular order of
    the six directions is the same in both orientations.
    """
    if a == b:
        return 0
    d = b - a
    x = math.sqrt(3) * (d.q + d.r / 2.0)
    y = -1.5 * d.r  # y up
    ang = math.degrees(math.atan2(y, x)) % 360.0
    return round(ang / 60.0) % 6
