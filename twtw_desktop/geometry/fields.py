"""Fields of fire and the dodge front (003 Advanced Rule: Fields of Fire; 000 dodge).

* Most weapons cover 60° — one hexside — about the line the firer faces; handguns
  cover 120° (003). A dodge covers attacks from a 120° front (000, "two hexsides").
* The centre line is the firer's facing (:meth:`Arc.from_facing`) or the line to
  the hex the aim was taken at (:meth:`Arc.toward`, 003: trace the line to the
  target's original position).
* **Arc edges.** A hex whose centre lies inside the arc is in it. A hex that
  straddles an edge (part inside, part outside) counts as in for arcs of 120° or
  more — 003's 120° figure colours the border hexes — and only if its centre is
  inside for narrower arcs (its 60° figure colours only the true angle; a centre
  exactly on the edge counts as inside). With ``OptionalRules.arc_edges`` every
  straddling hex is ``"edge"`` instead: the Judge draws a card and reads its toggle
  (003 Optional Rule: Arc edges).
* **Leaving the field while aiming.** 003 gives a map-free test: a target that
  has moved more than half the range perpendicular to the line of fire has left a
  60° field; more than the whole range, a 120° field. :func:`left_field_of_fire`
  applies it by default (the page's own example depends on it: with true angles,
  Miranda's 12-pace dash would still be inside the 120° field), or the exact angle
  on request.

Angles are measured in map units, so the answers are the same for pointy and flat
maps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from shapely.geometry import Polygon

from ..errors import RulesError
from ..hexgrid import Hex, Layout, Orientation
from ..model.map import Map
from .walls import PACE, WallIndex, _centres

ArcStatus = Literal["in", "edge", "out"]
#: the status of each code :meth:`Arc.classify_many` returns (0 out, 1 in, 2 edge)
_STATUS_OF_CODE: tuple[ArcStatus, ...] = ("out", "in", "edge")

#: 003 Fields of Fire: most weapons 60° (one hexside), handguns 120°
RIFLE_ARC = 60
HANDGUN_ARC = 120
#: 000 Hand to Hand Combat: a dodge covers attacks from 120° (two hexsides)
DODGE_ARC = 120
#: arcs at least this wide count hexes straddling their edges as inside (003 figure)
BORDER_HEXES_IN_FROM = 120
#: 003: leaving a field while aimed at — perpendicular movement as a share of range
PERPENDICULAR_SHARE: dict[int, float] = {60: 0.5, 120: 1.0}

_ANGLE_TOL = 1e-7  # degrees
_SIDE_TOL = 1e-7  # map units


@dataclass(frozen=True, slots=True)
class ArcCheck:
    """Whether a hex is in an arc, with the reasons."""

    status: ArcStatus
    angle: float  # degrees between the centre line and the hex's centre
    reasons: tuple[str, ...]

    @property
    def inside(self) -> bool:
        return self.status == "in"


@dataclass(frozen=True, slots=True)
class Arc:
    """A field of fire (or dodge front): an apex hex, a centre line and a width."""

    apex: Hex
    #: unit vector of the centre line in map units (screen y down)
    axis: tuple[float, float]
    arc_deg: float
    orientation: Orientation = Orientation.POINTY

    def __post_init__(self) -> None:
        if not 0 < self.arc_deg < 360:
            raise RulesError(
                f"An arc is wider than 0° and narrower than 360°, not {self.arc_deg}°."
            )

    @classmethod
    def from_facing(
        cls, apex: Hex, facing: int, arc_deg: float, orientation: Orientation = Orientation.POINTY
    ) -> Arc:
        """The arc about a figure's facing."""
        ang = math.radians(Layout(orientation).facing_angle(facing))
        return cls(apex, (math.cos(ang), -math.sin(ang)), arc_deg, orientation)

    @classmethod
    def toward(
        cls, apex: Hex, target: Hex, arc_deg: float, orientation: Orientation = Orientation.POINTY
    ) -> Arc:
        """The arc centred on the line to ``target`` (003: the aim's original line)."""
        if apex == target:
            raise RulesError("An arc needs a target in another hex to point at.")
        lay = Layout(orientation)
        ax, ay = lay.hex_to_pixel(apex)
        tx, ty = lay.hex_to_pixel(target)
        d = math.hypot(tx - ax, ty - ay)
        return cls(apex, ((tx - ax) / d, (ty - ay) / d), arc_deg, orientation)

    @property
    def half(self) -> float:
        return self.arc_deg / 2.0

    @property
    def layout(self) -> Layout:
        return Layout(self.orientation)

    def _edges(self) -> list[tuple[float, float]]:
        """Unit vectors of the two edge rays."""
        ax, ay = self.axis
        out = []
        for sgn in (1, -1):
            a = math.radians(self.half) * sgn
            c, s = math.cos(a), math.sin(a)
            out.append((ax * c - ay * s, ax * s + ay * c))
        return out

    def classify_many(
        self, q: np.ndarray, r: np.ndarray, arc_edges: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised classification: (status codes 0 out / 1 in / 2 edge, angles)."""
        lay = self.layout
        q = np.asarray(q, dtype=float)
        r = np.asarray(r, dtype=float)
        apx, apy = lay.hex_to_pixel(self.apex)
        cx, cy = _centres(lay, q, r)
        vx, vy = cx - apx, cy - apy
        ax, ay = self.axis
        dot = vx * ax + vy * ay
        cross = ax * vy - ay * vx
        ang = np.degrees(np.abs(np.arctan2(cross, dot)))
        centre_in = ang <= self.half + _ANGLE_TOL
        corners = np.array([lay.corner_offset(i) for i in range(6)])  # (6, 2)
        px = vx[:, None] + corners[None, :, 0]
        py = vy[:, None] + corners[None, :, 1]
        straddle = np.zeros(len(q), dtype=bool)
        for ex, ey in self._edges():
            side = ex * py - ey * px  # signed distance of corners from the edge line
            ahead = (vx * ex + vy * ey) > 0
            straddle |= ahead & (side.min(axis=1) < -_SIDE_TOL) & (side.max(axis=1) > _SIDE_TOL)
        at_apex = (q == self.apex.q) & (r == self.apex.r)
        status = np.where(centre_in, 1, 0)
        if arc_edges:
            status = np.where(straddle, 2, status)
        elif self.arc_deg >= BORDER_HEXES_IN_FROM:
            status = np.where(straddle, 1, status)
        status = np.where(at_apex, 0, status)
        return status, ang

    def classify(self, h: Hex, arc_edges: bool = False) -> ArcCheck:
        """Is ``h`` in the arc? (The apex hex itself is not.)"""
        if h == self.apex:
            return ArcCheck("out", 0.0, ("the firer's own hex is not in his field of fire",))
        codes, angs = self.classify_many(np.array([h.q]), np.array([h.r]), arc_edges)
        code, ang = int(codes[0]), float(angs[0])
        straddles = int(self.classify_many(np.array([h.q]), np.array([h.r]), True)[0][0]) == 2
        status = _STATUS_OF_CODE[code]
        reasons = [
            f"hex {h.q},{h.r} is {self.apex.distance(h)} paces off, {ang:.0f}° from the centre "
            f"line; the {self.arc_deg:g}° field reaches {self.half:g}° either side "
            "(003 Fields of Fire)"
        ]
        wide = self.arc_deg >= BORDER_HEXES_IN_FROM
        if status == "edge":
            reasons.append(
                "the hex straddles the arc's edge: draw a card and read its toggle "
                "(003 Optional Rule: Arc edges)"
            )
        elif status == "in" and straddles and wide:
            reasons.append(
                f"part of the hex lies outside, but a {self.arc_deg:g}° field counts its "
                "border hexes (003 figure)"
            )
        elif status == "in" and straddles:
            reasons.append("its centre is inside the field (on the edge counts as inside)")
        elif status == "in":
            reasons.append("its centre is inside the field")
        elif straddles:
            reasons.append(
                f"part of the hex is inside, but a {self.arc_deg:g}° field only counts hexes "
                "whose centre is inside (003 figure)"
            )
        else:
            reasons.append("its centre is outside the field")
        return ArcCheck(status, ang, tuple(reasons))

    def contains(self, h: Hex) -> bool:
        """Plain membership (border hexes by the arc-width rule, no toggle)."""
        return self.classify(h).inside

    def hexes(
        self, range_paces: int, arc_edges: bool = False, game_map: Map | None = None
    ) -> dict[Hex, ArcStatus]:
        """Every hex within ``range_paces`` that is in the arc (``"in"``) or on its
        edge (``"edge"``, only with ``arc_edges``), clipped to ``game_map`` if given."""
        q, r = _range_arrays(self.apex, range_paces)
        if game_map is not None:
            keep = _on_map(game_map, q, r)
            q, r = q[keep], r[keep]
        codes, _ = self.classify_many(q, r, arc_edges)
        return {
            Hex(int(a), int(b)): _STATUS_OF_CODE[c]
            for a, b, c in zip(q.tolist(), r.tolist(), codes.tolist(), strict=True)
            if c
        }

    def polygon(self, range_paces: float, segments_per_60: int = 8) -> Polygon:
        """The arc as a sector polygon in map units, out to ``range_paces``."""
        cx, cy = self.layout.hex_to_pixel(self.apex)
        rad = range_paces * PACE
        base = math.atan2(self.axis[1], self.axis[0])
        n = max(2, math.ceil(self.arc_deg / 60.0 * segments_per_60))
        half = math.radians(self.half)
        pts = [(cx, cy)]
        for i in range(n + 1):
            a = base - half + 2 * half * i / n
            pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return Polygon(pts)


def _range_arrays(center: Hex, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """Axial coordinates of every hex within ``radius`` of ``center``."""
    dq, dr = (
        g.ravel()
        for g in np.meshgrid(np.arange(-radius, radius + 1), np.arange(-radius, radius + 1))
    )
    keep = np.abs(dq + dr) <= radius
    return dq[keep] + center.q, dr[keep] + center.r


def _on_map(game_map: Map, q: np.ndarray, r: np.ndarray) -> np.ndarray:
    if game_map.orientation is Orientation.POINTY:
        col, row = q + (r - (r & 1)) // 2, r
    else:
        col, row = q, r + (q - (q & 1)) // 2
    return (col >= 0) & (col < game_map.cols) & (row >= 0) & (row < game_map.rows)


def in_field_of_fire(
    shooter_hex: Hex,
    facing: int,
    arc_deg: float,
    target_hex: Hex,
    *,
    arc_edges: bool = False,
    orientation: Orientation = Orientation.POINTY,
) -> ArcCheck:
    """Is the target in the firer's field of fire about his facing?"""
    return Arc.from_facing(shooter_hex, facing, arc_deg, orientation).classify(
        target_hex, arc_edges
    )


def dodge_front(hex_: Hex, facing: int, orientation: Orientation = Orientation.POINTY) -> Arc:
    """The 120° front a dodge protects (000 Hand to Hand Combat: two hexsides)."""
    return Arc.from_facing(hex_, facing, DODGE_ARC, orientation)


@dataclass(frozen=True, slots=True)
class FieldOfFire:
    """A field of fire drawn on the map: its hexes, which of them the firer sees,
    and the sector outline."""

    arc: Arc
    range_paces: int
    hexes: dict[Hex, ArcStatus]
    visible: frozenset[Hex]
    polygon: Polygon
    reasons: tuple[str, ...] = field(default=())


def field_of_fire(
    game_map: Map,
    index: WallIndex,
    shooter_hex: Hex,
    facing: int,
    arc_deg: float,
    range_paces: int,
    *,
    arc_edges: bool = False,
    with_sight: bool = True,
    toward: Hex | None = None,
) -> FieldOfFire:
    """The hexes of a field of fire out to ``range_paces`` and, with ``with_sight``,
    which of them the firer can see (centre-to-centre, as :func:`sight.visible`).
    ``toward`` centres the field on the line to that hex instead of the facing."""
    if toward is not None:
        arc = Arc.toward(shooter_hex, toward, arc_deg, game_map.orientation)
    else:
        arc = Arc.from_facing(shooter_hex, facing, arc_deg, game_map.orientation)
    q, r = _range_arrays(shooter_hex, range_paces)
    keep = _on_map(game_map, q, r)
    q, r = q[keep], r[keep]
    codes, _ = arc.classify_many(q, r, arc_edges)
    sel = codes > 0
    q, r, codes = q[sel], r[sel], codes[sel]
    hexes = [Hex(a, b) for a, b in zip(q.tolist(), r.tolist(), strict=True)]
    status = {h: _STATUS_OF_CODE[c] for h, c in zip(hexes, codes.tolist(), strict=True)}
    seen: frozenset[Hex] = frozenset()
    if with_sight and hexes:
        cx, cy = _centres(index.layout, q.astype(float), r.astype(float))
        blocked = index.blocks_sight_many(
            np.array(index.centre(shooter_hex)), np.column_stack([cx, cy])
        )
        seen = frozenset(h for h, b in zip(hexes, blocked.tolist(), strict=True) if not b)
    reasons = (
        f"{arc_deg:g}° field of fire out to {range_paces} paces: {len(status)} hexes"
        + (f", {len(seen)} in sight" if with_sight else ""),
        "003 Advanced Rule: Fields of Fire",
    )
    return FieldOfFire(arc, range_paces, status, seen, arc.polygon(range_paces), reasons)


# -- leaving the field while aiming ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldExit:
    """Has a target left an aimed firer's field of fire?"""

    left: bool
    range_paces: int
    perpendicular_paces: float
    threshold_paces: float | None
    method: Literal["perpendicular", "angle"]
    reasons: tuple[str, ...]


def perpendicular_paces(
    shooter_hex: Hex, aimed_at: Hex, target_now: Hex, orientation: Orientation = Orientation.POINTY
) -> float:
    """How far (paces) ``target_now`` lies off the line from the firer through the
    hex the aim was taken at."""
    lay = Layout(orientation)
    sx, sy = lay.hex_to_pixel(shooter_hex)
    ax, ay = lay.hex_to_pixel(aimed_at)
    tx, ty = lay.hex_to_pixel(target_now)
    dx, dy = ax - sx, ay - sy
    length = math.hypot(dx, dy)
    if length == 0:
        raise RulesError("The aim needs a target in another hex.")
    return abs(dx * (ty - sy) - dy * (tx - sx)) / length / PACE


def left_field_of_fire(
    shooter_hex: Hex,
    aimed_at: Hex,
    target_now: Hex,
    arc_deg: int,
    *,
    method: Literal["perpendicular", "angle"] = "perpendicular",
    arc_edges: bool = False,
    orientation: Orientation = Orientation.POINTY,
) -> FieldExit:
    """Did a target aimed at in ``aimed_at`` leave the field by moving to
    ``target_now``? (003: if so the shot can still be taken, as a snap shot.)

    ``perpendicular`` is 003's rule of thumb (more than half the range sideways
    leaves 60°, more than the range leaves 120°); ``angle`` tests the true arc
    about the original line, with the arc-edge rules of :class:`Arc`.
    """
    rng = shooter_hex.distance(aimed_at)
    off = perpendicular_paces(shooter_hex, aimed_at, target_now, orientation)
    reasons = [
        f"aimed at {rng} paces; the target is now {off:.1f} paces off the original line of fire"
    ]
    if method == "perpendicular":
        share = PERPENDICULAR_SHARE.get(int(arc_deg))
        if share is None:
            raise RulesError(
                f"003's perpendicular test covers 60° and 120° fields, not {arc_deg}°."
            )
        limit = share * rng
        left = off > limit + 1e-9
        reasons.append(
            f"a {arc_deg}° field is left after more than {limit:g} paces sideways "
            f"({'half the range' if share == 0.5 else 'the whole range'}, 003 Fields of Fire): "
            + ("left the field — the shot becomes a snap shot" if left else "still inside")
        )
        return FieldExit(left, rng, off, limit, "perpendicular", tuple(reasons))
    check = Arc.toward(shooter_hex, aimed_at, arc_deg, orientation).classify(target_now, arc_edges)
    left = check.status == "out"
    reasons.extend(check.reasons)
    return FieldExit(left, rng, off, None, "angle", tuple(reasons))
