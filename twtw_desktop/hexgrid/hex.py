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


_DIRECTION_INDEX: dict[tuple[int, int], int] = {(d.q, d.r): i for i, d in enumerate(DIRECTIONS)}


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


#: Line-drawing nudge in cube coordinates (q, r, s) = (+1e-6, +2e-6, −3e-6). The
#: three must differ: a nudge that moves q and r alike leaves q-versus-r ties to
#: float rounding, and the line then changes sides when both ends are shifted.
_EPS_Q = 1e-6
_EPS_R = 2e-6


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the line from ``a`` to ``b`` inclusive.

    Both ends are nudged by a tiny epsilon (the same way, always) so a line that runs
    exactly along a hexside picks one side consistently instead of flickering.
    """
    return hex_walk(a, b, a.distance(b))


def hex_walk(a: Hex, b: Hex, steps: int) -> list[Hex]:
    """``steps + 1`` hexes along the straight line from ``a`` through ``b``.

    The first ``a.distance(b) + 1`` hexes are exactly :func:`hex_line`; a longer walk
    carries on past ``b`` in the same direction. Each hex is one pace further from
    ``a`` than the one before (straight lines in cube coordinates are monotone), so
    ``hex_walk(a, b, n)[n]`` is exactly ``n`` paces from ``a``. Uses the same
    epsilon nudge as :func:`hex_line`.
    """
    if steps < 0:
        raise ValueError("a walk needs zero or more steps")
    n = a.distance(b)
    if n == 0:
        if steps == 0:
            return [a]
        raise ValueError("a walk from a hex to itself has no direction")
    aq, ar = a.q + _EPS_Q, a.r + _EPS_R
    dq, dr = (b.q - a.q) / n, (b.r - a.r) / n
    return [hex_round(aq + dq * i, ar + dr * i) for i in range(steps + 1)]


def neighbor_direction(a: Hex, b: Hex) -> int | None:
    """The facing (0–5) that steps from ``a`` into ``b``, or None if not neighbours."""
    return _DIRECTION_INDEX.get((b.q - a.q, b.r - a.r))


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
    the six directions is the same in both orientations (a flat-top layout is the
    pointy one turned by 30°). When ``b`` lies exactly between two hexside
    directions (along a hex corner, e.g. ``Hex(2, -1)`` from the origin) the tie
    always goes to the counter-clockwise facing. ``a == b`` gives 0.
    """
    if a == b:
        return 0
    d = b - a
    x = math.sqrt(3) * (d.q + d.r / 2.0)
    y = -1.5 * d.r  # y up
    ang = math.degrees(math.atan2(y, x)) % 360.0
    # floor(x + 0.5) instead of round(): Python's round() sends ties to the even
    # number, which would break ties clockwise for some corners and
    # counter-clockwise for others. The tiny epsilon absorbs atan2's float error.
    return math.floor(ang / 60.0 + 0.5 + 1e-9) % 6
