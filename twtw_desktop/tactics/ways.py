"""The ways an NPC walks: which of them it sees, and the path drawn on the map.

The planner reads the reach area its search left (``ReachArea.path_to``): the exact
path each destination was priced on. A figure the NPC does not see may stand on a
hex it does not see, and the table would refuse the walk through it; the planner
cannot know that (it does not cheat), so it walks only where it sees the way — or,
for a blade, as far as it sees it.
"""

from __future__ import annotations

from typing import Any

from ..errors import RulesError
from ..geometry.sight import visible
from ..hexgrid import Hex
from ..play.actions import Move, hex_of
from ..play.table import Table


def sees_the_way(table: Table, start: Hex, area: Any, dest: Hex) -> bool:
    """Whether every hex of the way from ``start`` to ``dest`` is in sight of
    ``start`` (the reach area's path; ``dest`` alone without one)."""
    try:
        path = area.path_to(dest) if area is not None else [dest]
    except KeyError:
        path = [dest]
    index = table.walls()
    return all(visible(table.map, index, start, h) for h in path)


def seen_part(table: Table, start: Hex, area: Any, dest: Hex) -> tuple[Hex, int]:
    """The farthest hex of the way to ``dest`` up to which every hex is in sight of
    ``start``, and its AP (``start`` and 0 when the first step is not)."""
    index = table.walls()
    last, ap = start, 0
    for h in area.path_to(dest):
        if not visible(table.map, index, start, h):
            break
        last, ap = h, int(area[h].cost)
    return last, ap


def seen_ways(
    table: Table, start: Hex, area: Any, costs: list[tuple[Hex, int]], blade: bool
) -> list[tuple[Hex, int]]:
    """The destinations whose way the NPC sees. A blade's is cut short where it
    stops seeing its way: it walks as far as it sees, to the corner, and looks again
    from there (the hacienda's brawlers, out of sight of their foes, had stood still
    for whole fights); a gun keeps to the ways it sees (walked to a corner, it gave
    up the shots it had from where it stood). Duplicates dropped, the order kept."""
    out: list[tuple[Hex, int]] = []
    seen: set[Hex] = set()
    for dest, ap in costs:
        if ap and not sees_the_way(table, start, area, dest):
            if not blade:
                continue
            dest, ap = seen_part(table, start, area, dest)
        if dest not in seen:
            seen.add(dest)
            out.append((dest, ap))
    return out


def path_refs(table: Table, area: Any, move: Move | None) -> tuple[tuple[int, int], ...]:
    """The move's path as map references (column, row from 1), for the map's ghost:
    the reach area's path, else the table's own plan of the move."""
    if move is None:
        return ()
    dest = hex_of(table, move.to)
    try:
        path = area.path_to(dest) if area is not None else []
    except KeyError:
        path = []
    if not path:
        try:
            path = move.plan(table).path
        except RulesError:
            return (tuple(move.to),)  # type: ignore[return-value]
    refs = []
    for h in path:
        col, row = table.map.offset(h)
        refs.append((col + 1, row + 1))
    return tuple(refs)
