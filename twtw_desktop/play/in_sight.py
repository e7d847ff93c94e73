"""Who is in sight on the table: :class:`Geometry` (cover lines through the table's
cached wall index), :func:`out_of_sight` (the attack's target list says why) and
:func:`the_fight` (the figures a view opens on).

The window's first frame reads :func:`the_fight` (its opening view), so this module
needs only the walls and the sight lines — not the attack's requests, plans and
records (:mod:`.attack_request`, which names these three among its own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry.sight import CoverLine, cover_line
from ..geometry.walls import WallIndex
from ..model.encounter import Token
from ..rules.character import Posture

if TYPE_CHECKING:
    from .table import Table


class Geometry:
    """Cover lines over the table's map, through the table's wall index (which the
    table rebuilds after any map change)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def index(self) -> WallIndex:
        return self.table.walls()

    def cover_line(
        self, shooter: Token, target: Token, target_posture: Posture, shooter_posture: Posture
    ) -> CoverLine:
        return cover_line(
            self.table.map,
            self.index(),
            shooter.at,
            target.at,
            target_posture,
            self.table.edition,
            shooter_posture,
            target_facing=target.facing,
        )


def out_of_sight(
    shooter_token: Token, target_token: Token, geometry: Geometry | None
) -> str | None:
    """Why the shooter cannot see the target: "out of sight (wall back-room-west)" —
    every sight line to the target's hex is blocked (000/001 Hit Location and Cover);
    None when in sight, or with no map to tell."""
    if geometry is None:
        return None
    try:
        cl = geometry.cover_line(
            shooter_token, target_token, target_token.posture, shooter_token.posture
        )
    except Exception:  # geometry is advisory here
        return None
    if cl.visibility != "not_visible":
        return None
    blockers = [c.feature_id for c in cl.crossings if c.lines_met and c.covers]
    return f"out of sight ({', '.join(blockers[:2])})" if blockers else "out of sight"


def the_fight(table: Table, posse_side: str = "posse", *, only_posse: bool = False) -> list[Token]:
    """The figures a view opens on: the posse and every figure of another side one of
    them can see (all the figures when there is no posse on the map); ``only_posse``:
    the posse's alone."""
    posse: list[Token] = []
    others: list[Token] = []
    for t in table.encounter.tokens:
        try:
            side = table.character(t.character_id).side
        except KeyError:
            side = None
        (posse if side == posse_side else others).append(t)
    if only_posse or not posse:
        return posse if only_posse else list(table.encounter.tokens)
    geometry = Geometry(table)
    # the nearest of the posse first: a figure one of them sees is found after a
    # check or two (a map of 1000×1000 with a hundred a side: 0.4 s, not 3.4 s)
    seen = [
        o
        for o in others
        if any(
            out_of_sight(p, o, geometry) is None
            for p in sorted(posse, key=lambda p: (p.at.distance(o.at), p.id))
        )
    ]
    return posse + seen
