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

from importlib import import_module
from typing import TYPE_CHECKING

# the names below are the package's; each module is imported when one of its names is
# first asked for (``__getattr__``, after ``_HOME``), so that importing one module of
# the package — the walls, the sight for the window's first frame — loads no other
if TYPE_CHECKING:
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


#: the module each name lives in, imported when the name is first asked for (the
#: window's first frame needs the walls and the sight, not the reach, the fields of
#: fire, the scatter and the rules they load)
_HOME = {
    "Corridor": "corridor",
    "UnintendedCandidate": "corridor",
    "unintended_targets": "corridor",
    "Arc": "fields",
    "ArcCheck": "fields",
    "FieldExit": "fields",
    "FieldOfFire": "fields",
    "dodge_front": "fields",
    "field_of_fire": "fields",
    "in_field_of_fire": "fields",
    "left_field_of_fire": "fields",
    "PathCost": "movement",
    "Reach": "movement",
    "ReachArea": "movement",
    "StepCost": "movement",
    "cheapest_path": "movement",
    "engaged": "movement",
    "engagement_break_hexes": "movement",
    "path_cost": "movement",
    "reachable": "movement",
    "turn_in_place_ap": "movement",
    "ScatterLanding": "scatter",
    "scatter": "scatter",
    "CoverCrossing": "sight",
    "CoverLine": "sight",
    "cover_line": "sight",
    "visible": "sight",
    "visible_hexes": "sight",
    "TargetSpeed": "speed",
    "relative_speed": "speed",
    "target_speed": "speed",
    "total_speed": "speed",
    "PACE": "walls",
    "Crossing": "walls",
    "WallIndex": "walls",
}


def __getattr__(name: str) -> object:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
