"""The attack panel's cover lines, remembered while the walls stay as they are.

Selecting a shooter reads the line to every other figure three times: for the
nearest enemy in sight, for the target list's "out of sight" marks, then for the
plan's cover. A cover line depends on the two hexes, the two postures and the
target's facing, and on the wall index (the map's walls, doors and windows, rebuilt
or versioned on every change), so the panel keeps each one under those until the
index changes (:meth:`WallIndex.memo`).
"""

from __future__ import annotations

from ....geometry.sight import CoverLine
from ....model.encounter import Token
from ....play.attack_request import Geometry
from ....rules.character import Posture

#: more lines than this (a long evening with the walls unchanged): start again
MOST_LINES = 4096


class RememberedLines(Geometry):
    """:class:`Geometry` whose cover lines are kept until the wall index changes."""

    def cover_line(
        self, shooter: Token, target: Token, target_posture: Posture, shooter_posture: Posture
    ) -> CoverLine:
        lines: dict[tuple[object, ...], CoverLine] = self.index().memo(
            ("attack-panel-cover-lines",), dict
        )
        key = (
            shooter.at,
            target.at,
            target_posture,
            shooter_posture,
            target.facing,
            id(self.table.edition),
        )
        line = lines.get(key)
        if line is None:
            if len(lines) >= MOST_LINES:
                lines.clear()
            line = lines[key] = super().cover_line(shooter, target, target_posture, shooter_posture)
        return line
