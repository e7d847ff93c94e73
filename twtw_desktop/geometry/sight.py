"""Line of sight and cover lines: what stands between a shooter and a target.

000 Hit Location and Cover says a target may be shot at while any part of it can be
seen (a target that cannot be seen at all takes the edition's "not visible"
penalty), and that the Judge names the covered hit locations before the card is
drawn. The pages never say how to read that off a map; the rules used here are:

**Visibility** — the shooter looks from the centre of his hex. The target hex is
sampled at its centre and its six corners pulled in to :data:`SAMPLE_INSET` of the
hex radius (so a wall drawn along the target's own hexside does not touch them).
The target is *visible* when all seven sight lines are clear of sight-blocking
features, *partly* visible when some but not all are blocked, and *not visible*
when all seven are blocked. Low cover never blocks sight; nor do glass or
unshuttered windows (``Feature.blocks_sight``).

**Which locations a feature covers** (``covers``, as card hit locations):

* *Low cover* counts only near the target: a crossing no more than
  :data:`LOW_COVER_REACH_PACES` (1½ paces: half the target's hex plus one pace)
  from the target's centre, so a knee-high fence beside the shooter does not hide a
  man thirty paces off. It must also lie across most of the target
  (:data:`LOW_COVER_MIN_LINES` of the seven lines). It then covers by the target's
  posture (:data:`LOW_COVER_COVERS`): standing — both legs and the belly; ducked —
  everything but the head; prone — everything. A *prone shooter* fires along the
  ground, so for him low cover anywhere on the line counts this way (house rule).
* *Full-height features* (walls, closed doors and windows, full cover, glass):
  met by all seven lines — everything; met on one side only (the centre line
  clear) — that side's arm and leg (002's Felicia, left half behind the saloon
  corner: a left-arm hit strikes the wall); any other partial meeting — everything
  but the head.
* Sides are the target's own: unless told the target's facing, the target is taken
  to face the shooter, so the shooter's left is the target's right.

Open doors and windows are not in the line of fire at all. Elevation is not used.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..hexgrid import Hex
from ..model.map import CoverHeight, Map, Material
from ..rules.base import HitLocation
from ..rules.character import Posture
from ..rules.combat.situation import Cover
from ..rules.editions import Edition
from .walls import PACE, Crossing, WallIndex, _centres

VisibilityName = Literal["visible", "partly", "not_visible"]

#: corner samples sit at this fraction of the hex radius (house: "slightly inside")
SAMPLE_INSET = 0.85
#: low cover must be this close to the target's centre, in paces (house: the target
#: hex's half pace plus one pace — "within 1 pace of the target hex")
LOW_COVER_REACH_PACES = 1.5
#: low cover must meet at least this many of the seven sight lines (house: a majority)
LOW_COVER_MIN_LINES = 4

ALL_LOCATIONS: frozenset[HitLocation] = frozenset(HitLocation)
ALL_BUT_HEAD: frozenset[HitLocation] = ALL_LOCATIONS - {HitLocation.HEAD}

#: what low cover near the target hides, by the target's posture (house reading of
#: 000 Hit Location and Cover; CoverHeight's docstring: legs and belly when standing)
LOW_COVER_COVERS: dict[Posture, frozenset[HitLocation]] = {
    Posture.STANDING: frozenset({HitLocation.LEFT_LEG, HitLocation.RIGHT_LEG, HitLocation.BELLY}),
    Posture.DUCKED: ALL_BUT_HEAD,
    Posture.PRONE: ALL_LOCATIONS,
}

#: a full-height feature hiding one side of the target (002 Felicia example)
SIDE_COVERS: dict[str, frozenset[HitLocation]] = {
    "left": frozenset({HitLocation.LEFT_ARM, HitLocation.LEFT_LEG}),
    "right": frozenset({HitLocation.RIGHT_ARM, HitLocation.RIGHT_LEG}),
}

_SIDE_EPS = 1e-6
_HIT_ORDER = list(HitLocation)


def _loc_names(locs: Iterable[HitLocation]) -> str:
    ordered = [h for h in _HIT_ORDER if h in set(locs)]
    return ", ".join(h.value for h in ordered) if ordered else "nothing"


@dataclass(frozen=True, slots=True)
class SightSample:
    """One of the seven sight lines to the target hex."""

    name: str  # "centre" or "corner 0".."corner 5"
    point: tuple[float, float]
    #: -1 shooter's left of the centre line, +1 right, 0 on it
    side: int
    blocked_by: tuple[str, ...]

    @property
    def clear(self) -> bool:
        return not self.blocked_by


@dataclass(frozen=True, slots=True)
class CoverCrossing:
    """A feature on the line of fire and the hit locations it covers."""

    crossing: Crossing
    covers: frozenset[HitLocation]
    #: how many of the seven sight lines meet this feature
    lines_met: int
    reason: str

    @property
    def feature_id(self) -> str:
        return self.crossing.feature_id

    @property
    def material(self) -> Material:
        return self.crossing.material

    @property
    def av(self) -> int:
        return self.crossing.av


@dataclass(frozen=True, slots=True)
class CoverLine:
    """Everything between a shooter and a target, with the reasons."""

    shooter: Hex
    target: Hex
    range_paces: int
    visibility: VisibilityName
    #: every feature on the line of fire, from the shooter out (covers may be empty
    #: when, e.g., low cover is too far from the target)
    crossings: tuple[CoverCrossing, ...]
    samples: tuple[SightSample, ...]
    reasons: tuple[str, ...] = field(default=())

    @property
    def covering(self) -> tuple[CoverCrossing, ...]:
        """Only the crossings that cover something."""
        return tuple(c for c in self.crossings if c.covers)

    @property
    def covered_locations(self) -> frozenset[HitLocation]:
        out: set[HitLocation] = set()
        for c in self.crossings:
            out |= c.covers
        return frozenset(out)

    def to_covers(self) -> tuple[Cover, ...]:
        """The covers as the combat engine's plain inputs
        (``rules.combat.situation.Cover``), from the shooter out."""
        return tuple(
            Cover(feature_id=c.feature_id, material=c.material.value, av=c.av, covers=c.covers)
            for c in self.covering
        )

    def to_visibility(self) -> VisibilityName:
        """The combat engine's ``Visibility`` value (a plain string literal)."""
        return self.visibility


# -- sampling ----------------------------------------------------------------------------


def target_samples(index: WallIndex, target: Hex) -> list[tuple[str, tuple[float, float]]]:
    """The target hex's centre and its six corners pulled in to :data:`SAMPLE_INSET`."""
    cx, cy = index.centre(target)
    out = [("centre", (cx, cy))]
    for i in range(6):
        ox, oy = index.layout.corner_offset(i)
        out.append((f"corner {i}", (cx + ox * SAMPLE_INSET, cy + oy * SAMPLE_INSET)))
    return out


def _side(sx: float, sy: float, tx: float, ty: float, px: float, py: float) -> int:
    """-1 when p is left of the line s→t as the shooter sees it, +1 right, 0 on it
    (screen y grows downward, so a positive cross product is clockwise = right)."""
    vx, vy = tx - sx, ty - sy
    cross = vx * (py - ty) - vy * (px - tx)
    scale = math.hypot(vx, vy) or 1.0
    if abs(cross) / scale <= _SIDE_EPS:
        return 0
    return 1 if cross > 0 else -1


def _body_side(shooter_side: int, faces_shooter: bool) -> str:
    """The target's own side for a side of the line as the shooter sees it."""
    left_for_shooter = shooter_side < 0
    if faces_shooter:
        return "right" if left_for_shooter else "left"
    return "left" if left_for_shooter else "right"


def _faces_shooter(index: WallIndex, shooter: Hex, target: Hex, target_facing: int | None) -> bool:
    if target_facing is None:
        return True
    ang = math.radians(index.layout.facing_angle(target_facing))
    ux, uy = math.cos(ang), -math.sin(ang)  # screen y down
    sx, sy = index.centre(shooter)
    tx, ty = index.centre(target)
    return ux * (sx - tx) + uy * (sy - ty) >= -1e-9


# -- the cover line ----------------------------------------------------------------------


def cover_line(
    game_map: Map,
    index: WallIndex,
    shooter_hex: Hex,
    target_hex: Hex,
    target_posture: Posture = Posture.STANDING,
    edition: Edition | None = None,
    shooter_posture: Posture = Posture.STANDING,
    *,
    target_facing: int | None = None,
) -> CoverLine:
    """Visibility, range and cover between two hexes (rules in the module docstring).

    ``edition`` supplies the cover AVs when the index was built without them; when
    both have them the index's are used.
    """
    del game_map  # the index carries the map; kept for a uniform call shape
    av_table = index.cover_av or (dict(edition.cover_av) if edition else {})
    rng = shooter_hex.distance(target_hex)
    reasons = [f"range {rng} paces (hex count, 000 Range)"]
    if rng == 0:
        reasons.append("shooter and target share a hex: nothing stands between them")
        return CoverLine(shooter_hex, target_hex, 0, "visible", (), (), tuple(reasons))

    s_pt = index.centre(shooter_hex)
    t_pt = index.centre(target_hex)
    faces = _faces_shooter(index, shooter_hex, target_hex, target_facing)

    samples: list[SightSample] = []
    met: dict[str, set[int]] = {}  # feature id → sample indices meeting it
    per_sample: list[list[Crossing]] = []
    for i, (name, pt) in enumerate(target_samples(index, target_hex)):
        crossings = [c for c in index.crossings(s_pt, pt) if c.in_line_of_fire]
        per_sample.append(crossings)
        blockers = tuple(sorted({c.feature_id for c in crossings if c.blocks_sight}))
        side = 0 if i == 0 else _side(*s_pt, *t_pt, *pt)
        samples.append(SightSample(name, pt, side, blockers))
        for c in crossings:
            met.setdefault(c.feature_id, set()).add(i)

    n_blocked = sum(1 for s in samples if not s.clear)
    if n_blocked == 0:
        visibility: VisibilityName = "visible"
        reasons.append("all 7 sight lines to the target hex are clear: visible")
    elif n_blocked == len(samples):
        visibility = "not_visible"
        reasons.append(
            "all 7 sight lines to the target hex are blocked: not visible "
            "(the edition's not-visible penalty applies, 000/001 Hit Location and Cover)"
        )
    else:
        visibility = "partly"
        reasons.append(
            f"{len(samples) - n_blocked} of 7 sight lines to the target hex are clear: "
            "partly visible"
        )

    out: list[CoverCrossing] = []
    for fid, idxs in met.items():
        # the layers of this feature: its crossings of the centre line if met there,
        # else of the first sample line meeting it
        ref = 0 if 0 in idxs else min(idxs)
        layers = [c for c in per_sample[ref] if c.feature_id == fid]
        if av_table and layers and not index.cover_av:
            f = index.feature(fid)
            layers = [c._replace(av=f.av(av_table)) for c in layers]
        for c in layers:
            covers, why = _covers_for(
                c, idxs, samples, t_pt, target_posture, shooter_posture, faces
            )
            out.append(CoverCrossing(c, covers, len(idxs), why))
    out.sort(key=lambda cc: (cc.crossing.distance, cc.feature_id))
    reasons.extend(cc.reason for cc in out)
    return CoverLine(
        shooter_hex, target_hex, rng, visibility, tuple(out), tuple(samples), tuple(reasons)
    )


def _describe(c: Crossing) -> str:
    label = "low " + c.kind if c.height is CoverHeight.LOW else c.kind
    return f"{label} {c.feature_id} ({c.material.value.replace('_', ' ')}, AV {c.av})"


def _covers_for(
    c: Crossing,
    idxs: set[int],
    samples: list[SightSample],
    t_pt: tuple[float, float],
    target_posture: Posture,
    shooter_posture: Posture,
    faces_shooter: bool,
) -> tuple[frozenset[HitLocation], str]:
    what = _describe(c)
    n = len(samples)
    if c.height is CoverHeight.LOW:
        gap = math.dist(c.point, t_pt) / PACE
        prone_shooter = shooter_posture is Posture.PRONE
        if gap > LOW_COVER_REACH_PACES + 1e-9 and not prone_shooter:
            return frozenset(), (
                f"{what} is {gap:.1f} paces from the target: low cover only counts within "
                f"{LOW_COVER_REACH_PACES:g} paces of the target's centre (house rule)"
            )
        if len(idxs) < LOW_COVER_MIN_LINES:
            return frozenset(), (
                f"{what} only clips the edge of the target hex ({len(idxs)} of {n} lines): "
                "no cover (house rule)"
            )
        covers = LOW_COVER_COVERS[target_posture]
        where = "on the line of a prone shooter" if gap > LOW_COVER_REACH_PACES + 1e-9 else "near"
        return covers, (
            f"{what} {where} the {target_posture.value} target covers {_loc_names(covers)}"
        )
    if len(idxs) == n:
        return ALL_LOCATIONS, f"{what} stands across the whole target: covers every location"
    sides = {samples[i].side for i in idxs}
    if 0 not in idxs and len(sides) == 1 and 0 not in sides:
        body = _body_side(next(iter(sides)), faces_shooter)
        covers = SIDE_COVERS[body]
        seen = "left" if next(iter(sides)) < 0 else "right"
        return covers, (
            f"{what} hides the target's {body} side (the shooter's {seen}): covers "
            f"{_loc_names(covers)} (002 Felicia behind the saloon corner)"
        )
    return ALL_BUT_HEAD, (
        f"{what} hides part of the target ({len(idxs)} of {n} lines): covers everything "
        "but the head (house rule)"
    )


# -- fast yes/no and fog ---------------------------------------------------------------


def visible(game_map: Map, index: WallIndex, a_hex: Hex, b_hex: Hex) -> bool:
    """Centre-to-centre line of sight, yes or no (touching a blocker blocks)."""
    del game_map
    if a_hex == b_hex:
        return True
    return not index.blocks_sight(index.centre(a_hex), index.centre(b_hex))


@dataclass(frozen=True, slots=True)
class _MapHexes:
    q: np.ndarray
    r: np.ndarray
    xy: np.ndarray


_MAP_HEX_CACHE: dict[tuple, _MapHexes] = {}


def map_hex_arrays(game_map: Map) -> _MapHexes:
    """Axial coordinates and centres of every hex of the map (cached per shape)."""
    key = (game_map.cols, game_map.rows, game_map.orientation)
    hit = _MAP_HEX_CACHE.get(key)
    if hit is not None:
        return hit
    cols, rows = (
        g.ravel() for g in np.meshgrid(np.arange(game_map.cols), np.arange(game_map.rows))
    )
    if game_map.orientation.value == "pointy":
        q = cols - (rows - (rows & 1)) // 2
        r = rows
    else:
        q = cols
        r = rows - (cols - (cols & 1)) // 2
    x, y = _centres(game_map.layout(), q, r)
    hit = _MapHexes(q, r, np.column_stack([x, y]))
    if len(_MAP_HEX_CACHE) > 8:
        _MAP_HEX_CACHE.clear()
    _MAP_HEX_CACHE[key] = hit
    return hit


def visible_hexes(
    game_map: Map,
    index: WallIndex,
    viewers: Iterable[Hex],
    *,
    max_range: int | None = None,
    any_part: bool = False,
) -> set[Hex]:
    """Every map hex at least one viewer can see, by a sight line per sample point.

    The exact reference for the players' fog of war: the screen itself uses
    :func:`twtw_desktop.geometry.visibility.visible_mask` (a visibility polygon per
    viewer, the same answer many times faster; the tests compare the two hex by hex).

    A hex is seen when the line from a viewer's centre to its centre is clear — the
    same test as :func:`visible`. With ``any_part`` a hex also counts when any of its
    pulled-in corners is in view (the "partly visible" reading). ``max_range``
    limits sight to that many paces. Viewers' own hexes are always seen.
    """
    hexes = map_hex_arrays(game_map)
    n = len(hexes.q)
    seen = np.zeros(n, dtype=bool)
    viewer_list = [v for v in viewers if game_map.contains(v)]
    corners = np.array([index.layout.corner_offset(i) for i in range(6)]) * SAMPLE_INSET
    for v in viewer_list:
        todo = ~seen
        if max_range is not None:
            dq = hexes.q - v.q
            dr = hexes.r - v.r
            dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
            todo &= dist <= max_range
        cand = np.flatnonzero(todo)
        if len(cand) == 0:
            continue
        vxy = np.array(index.centre(v))
        blocked = index.blocks_sight_many(vxy, hexes.xy[cand])
        seen[cand[~blocked]] = True
        if any_part:
            rest = cand[blocked]
            for off in corners:
                if len(rest) == 0:
                    break
                b2 = index.blocks_sight_many(vxy, hexes.xy[rest] + off)
                seen[rest[~b2]] = True
                rest = rest[b2]
    out = {Hex(int(q), int(r)) for q, r in zip(hexes.q[seen], hexes.r[seen], strict=True)}
    out.update(viewer_list)
    return out


def visible_from(index: WallIndex, viewer: Hex, hexes: Iterable[Hex]) -> dict[Hex, bool]:
    """Centre-to-centre sight from one hex to many, vectorised."""
    hs = list(hexes)
    if not hs:
        return {}
    q = np.fromiter((h.q for h in hs), dtype=float, count=len(hs))
    r = np.fromiter((h.r for h in hs), dtype=float, count=len(hs))
    x, y = _centres(index.layout, q, r)
    blocked = index.blocks_sight_many(np.array(index.centre(viewer)), np.column_stack([x, y]))
    return {h: (h == viewer) or not b for h, b in zip(hs, blocked.tolist(), strict=True)}
