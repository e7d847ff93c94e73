"""Tactical geometry on the hex map, in plain Python (shapely + numpy, no Qt).

Every function that answers a rules question returns its reasons with the answer.

* :mod:`.walls`    — :class:`WallIndex`: sight-blocking yes/no, cover crossings,
  blocked steps; rebuilt per edited feature.
* :mod:`.sight`    — :func:`cover_line` (visibility, range, covers per hit location),
  :func:`visible`, :func:`visible_hexes` (fog of war).
* :mod:`.movement` — :func:`path_cost`, :func:`reachable`, :func:`cheapest_path`,
  engagement (000 Movement AP Cost); behind it :mod:`.move_cost` (what a path costs),
  :mod:`.move_search` (the A* for one hex) and :mod:`.move_steps` (the step table and
  bucket queue of the whole reach).
* :mod:`.fields`   — fields of fire, arc edges, the perpendicular test, dodge front (003).
* :mod:`.scatter`  — where a missed throw lands (000 Missed Throws).
* :mod:`.corridor` — possible unintended targets along the line of fire.
* :mod:`.speed`    — relative / total target speed (000 Target Speed).
* :mod:`.visibility` — fast fog of war: one visibility polygon per viewer over the grid.
* :mod:`.raster`   — many points to hexes at once (numpy), for the painters and the fog.

What these answers mean in the rules (a TN, an AP cost) is :mod:`twtw_desktop.rules`';
putting them together for a token on the table is :mod:`twtw_desktop.play`'s.
"""

from .corridor import Corridor, UnintendedCandidate, unintended_targets
from .fields import (
    Arc,
    ArcCheck,
    FieldExit,
    FieldOfFire,
    dodge_front,
    field_of_fire,
    in_field_of_fire,
    left_field_of_fire,
)
from .movement import (
    PathCost,
    Reach,
    ReachArea,
    StepCost,
    cheapest_path,
    engaged,
    engagement_break_hexes,
    path_cost,
    reachable,
    turn_in_place_ap,
)
from .scatter import ScatterLanding, scatter
from .sight import CoverCrossing, CoverLine, cover_line, visible, visible_hexes
from .speed import TargetSpeed, relative_speed, target_speed, total_speed
from .walls import PACE, Crossing, WallIndex

__all__ = [
    "PACE",
    "Arc",
    "ArcCheck",
    "Corridor",
    "CoverCrossing",
    "CoverLine",
    "Crossing",
    "FieldExit",
    "FieldOfFire",
    "PathCost",
    "Reach",
    "ReachArea",
    "ScatterLanding",
    "StepCost",
    "TargetSpeed",
    "UnintendedCandidate",
    "WallIndex",
    "cheapest_path",
    "cover_line",
    "dodge_front",
    "engaged",
    "engagement_break_hexes",
    "field_of_fire",
    "in_field_of_fire",
    "left_field_of_fire",
    "path_cost",
    "reachable",
    "relative_speed",
    "scatter",
    "target_speed",
    "total_speed",
    "turn_in_place_ap",
    "unintended_targets",
    "visible",
    "visible_hexes",
]
