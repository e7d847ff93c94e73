"""Possible unintended targets: figures near the line of fire (000 Ancillary
Effects; 001 Unintended Targets, Unintended Targets and Melee).

A figure is a candidate when its hex centre lies within one pace of the firing
line — the segment from the shooter's centre to the target's — and not behind the
shooter. The shooter and the target are never candidates. Candidates are listed
nearest the shooter first (000: the closest or most obvious is hit first; the
Judge has the last word). A candidate within one pace of the target is flagged
``in_melee``: 001 doubles stray shots when the target is in contact with others.
``beyond_paces`` carries the line past the target for groups who let a miss fly on
(house option; off by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from shapely.geometry import LineString, Polygon

from ..hexgrid import Hex
from ..model.encounter import Token
from ..model.map import Map
from .walls import PACE

#: 000/001: candidates are within one pace (one metre) of the path of the shot
CORRIDOR_HALF_WIDTH_PACES = 1.0
#: 001 Unintended Targets and Melee: "in physical contact" read as within one pace
MELEE_PACES = 1


@dataclass(frozen=True, slots=True)
class UnintendedCandidate:
    """A figure a stray shot might hit."""

    token_id: str
    hex: Hex
    #: paces from the shooter, measured along the line of fire
    along_paces: float
    #: paces from the line of fire
    off_paces: float
    in_melee: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Corridor:
    """The candidates and the corridor's outline for drawing."""

    shooter: Hex
    target: Hex
    candidates: tuple[UnintendedCandidate, ...]
    polygon: Polygon
    reasons: tuple[str, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        """Candidate token ids, nearest the shooter first (``ShotSituation``'s
        ``unintended_candidates``)."""
        return tuple(c.token_id for c in self.candidates)

    @property
    def target_in_melee(self) -> bool:
        """Someone is within one pace of the target (``ShotSituation.target_in_melee``)."""
        return any(c.in_melee for c in self.candidates)


def unintended_targets(
    game_map: Map,
    shooter_hex: Hex,
    target_hex: Hex,
    tokens: Iterable[Token],
    *,
    exclude_ids: Iterable[str] = (),
    beyond_paces: float = 0.0,
) -> Corridor:
    """Figures within one pace of the line of fire (see the module docstring)."""
    lay = game_map.layout()
    sx, sy = lay.hex_to_pixel(shooter_hex)
    tx, ty = lay.hex_to_pixel(target_hex)
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy)
    if length > 0:
        ux, uy = dx / length, dy / length
    else:
        ux, uy = 1.0, 0.0
    end_len = length + beyond_paces * PACE
    ex, ey = sx + ux * end_len, sy + uy * end_len
    half = CORRIDOR_HALF_WIDTH_PACES * PACE
    skip = set(exclude_ids)
    found: list[UnintendedCandidate] = []
    for tok in tokens:
        h = tok.at
        if tok.id in skip or h in (shooter_hex, target_hex):
            continue
        px, py = lay.hex_to_pixel(h)
        along = (px - sx) * ux + (py - sy) * uy
        if along < -1e-9:
            continue  # behind the shooter
        t = min(max(along, 0.0), end_len)
        off = math.hypot(px - (sx + ux * t), py - (sy + uy * t))
        if off > half + 1e-9:
            continue
        melee = h.distance(target_hex) <= MELEE_PACES
        why = (
            f"{tok.id} is {off / PACE:.1f} paces from the line of fire, "
            f"{along / PACE:.1f} paces out"
        )
        if melee:
            why += "; in contact with the target (001: stray shots double)"
        found.append(UnintendedCandidate(tok.id, h, along / PACE, off / PACE, melee, why))
    found.sort(key=lambda c: (c.along_paces, c.off_paces, c.token_id))
    if length > 0 or beyond_paces > 0:
        band = LineString([(sx, sy), (ex, ey)]).buffer(half)
        # drop the part behind the shooter, which is never in the line of fire
        big = (end_len + 4 * half) * 2
        nx, ny = -uy, ux
        front = Polygon(
            [
                (sx + nx * big, sy + ny * big),
                (sx + nx * big + ux * big, sy + ny * big + uy * big),
                (sx - nx * big + ux * big, sy - ny * big + uy * big),
                (sx - nx * big, sy - ny * big),
            ]
        )
        cut = band.intersection(front)
        # two convex shapes meet in one convex polygon; anything else is degenerate
        poly = cut if isinstance(cut, Polygon) else Polygon()
    else:
        poly = Polygon()
    reasons = [
        f"{len(found)} figure(s) within {CORRIDOR_HALF_WIDTH_PACES:g} pace of the line of fire "
        "(000/001 Unintended Targets)"
    ]
    reasons.extend(c.reason for c in found)
    return Corridor(shooter_hex, target_hex, tuple(found), poly, tuple(reasons))
