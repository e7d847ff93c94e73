"""Where a missed throw lands on the map (000 Missed Throws; 001 Scatter).

The card's clock is laid on the target with 6 pointing back at the thrower, so 12
points straight on, away from him, and the hours run clockwise as the map is seen
from above (3 o'clock is to the thrower's right). The throw goes ``distance``
paces from the target toward the hour shown. How far comes from the rules model
(:func:`twtw_desktop.rules.combat.thrown.scatter_throw`: the step in AP v2;
TN − result + step, at most half the throw, in Phases); on a Phases calamity the
scatter is measured from the thrower instead (``from_thrower``), with the clock
still turned along the line of the throw.

On the map the paces are counted hex by hex along the straight line in that
direction (the same line drawing, and tie-breaking, as :func:`hexgrid.hex_walk`),
so the landing hex is exactly ``distance`` paces away. The object stops in the
last hex before the first full-height wall, closed door or window in the way (it
flies over low cover and through open doors and windows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import RulesError
from ..hexgrid import Hex, hex_walk
from ..model.map import CoverHeight, Map
from ..rules.combat.thrown import clock_bearing
from .walls import PACE, WallIndex

#: How far out the direction is fixed before line drawing (paces); far enough that
#: rounding the far hex bends the line by well under a thousandth of a radian.
_FAR_PACES = 2000


@dataclass(frozen=True, slots=True)
class ScatterLanding:
    """Where a thrown object ends up, and why."""

    centre: Hex  # the hex the scatter is measured from (target, or thrower on a CF)
    clock_hour: int
    distance: int
    landing: Hex
    #: where it would have landed with nothing in the way
    intended: Hex
    #: hexes from the centre to the landing hex, inclusive
    path: tuple[Hex, ...]
    stopped_by: str | None
    off_map: bool
    reasons: tuple[str, ...]


def scatter_direction(
    index: WallIndex, thrower_hex: Hex, target_hex: Hex, clock_hour: int
) -> tuple[float, float]:
    """Unit vector (map units, y down) for a clock hour, 12 pointing from the thrower
    through the target."""
    if thrower_hex == target_hex:
        raise RulesError(
            "The thrower and the target share a hex, so the scatter clock has no direction."
        )
    tx, ty = index.centre(thrower_hex)
    gx, gy = index.centre(target_hex)
    d = math.hypot(gx - tx, gy - ty)
    ux, uy = (gx - tx) / d, (gy - ty) / d
    a = math.radians(clock_bearing(clock_hour))
    # with y pointing down, this rotation turns clockwise on screen
    return (ux * math.cos(a) - uy * math.sin(a), ux * math.sin(a) + uy * math.cos(a))


def scatter(
    game_map: Map,
    index: WallIndex,
    thrower_hex: Hex,
    target_hex: Hex,
    clock_hour: int,
    distance: int,
    *,
    from_thrower: bool = False,
) -> ScatterLanding:
    """Land a missed throw ``distance`` paces toward ``clock_hour`` (see module doc)."""
    if distance < 0:
        raise RulesError("A scatter distance cannot be negative.")
    dx, dy = scatter_direction(index, thrower_hex, target_hex, clock_hour)
    centre = thrower_hex if from_thrower else target_hex
    who = "the thrower" if from_thrower else "the target"
    reasons = [
        f"clock {clock_hour} with 6 pointing back at the thrower, {distance} paces from {who} "
        "(000 Missed Throws)"
    ]
    if distance == 0:
        reasons.append("a step of 0: it lands right there")
        off = not game_map.contains(centre)
        return ScatterLanding(
            centre, clock_hour, 0, centre, centre, (centre,), None, off, tuple(reasons)
        )
    cx, cy = index.centre(centre)
    far = index.layout.pixel_to_hex(cx + dx * _FAR_PACES * PACE, cy + dy * _FAR_PACES * PACE)
    path = hex_walk(centre, far, distance)
    intended = path[-1]
    stopped_by = None
    landing = intended
    for i in range(distance):
        a, b = path[i], path[i + 1]
        barrier = next(
            (
                c
                for c in index.crossings(index.centre(a), index.centre(b))
                if c.height is CoverHeight.FULL and c.in_line_of_fire
            ),
            None,
        )
        if barrier is not None:
            stopped_by = barrier.feature_id
            landing = a
            path = path[: i + 1]
            reasons.append(
                f"{barrier.kind} {barrier.feature_id} is in the way after {i} pace(s): it drops "
                f"at {a.q},{a.r}"
            )
            break
    else:
        reasons.append(f"it lands at {landing.q},{landing.r}")
    off = not game_map.contains(landing)
    if off:
        reasons.append("that is off the map: the Judge places it at the edge or lets it go")
    return ScatterLanding(
        centre,
        clock_hour,
        distance,
        landing,
        intended,
        tuple(path),
        stopped_by,
        off,
        tuple(reasons),
    )
