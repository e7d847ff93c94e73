"""A token's speed set by the Judge: ``set_speed`` (000 Target is moving).

The ranged TN takes −1 per full 5 paces of *relative* speed between firer and target
(000/001/003; :mod:`twtw_desktop.geometry.speed`), read from each token's
``velocity``. A figure's speed often comes from outside what the map shows — a rider
at a gallop, a wagon, a runner still moving from the round before — so the Judge
sets it here: paces per round toward one of the six hexsides (or toward a hex), or 0
to stop. It costs nothing: it records a state, it is not an action of the figure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..hexgrid import Hex, Orientation
from ..model.encounter import MAX_PACES
from .actions import Action, HexRef, Who, hex_of, register
from .movement import rider_refusal, riders, with_riders
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_SPEED = "000 Target is moving (Modifiers; Target Speed)"
#: the six hexside directions named as a compass reads them on a pointy-top map
_COMPASS = ("east", "north-east", "north-west", "west", "south-west", "south-east")
_COMPASS_FLAT = (
    "east-south-east",
    "east-north-east",
    "north",
    "west-north-west",
    "west-south-west",
    "south",
)


def direction_name(table: Table, facing: int) -> str:
    """A hexside as words (the map's orientation decides which)."""
    if table.map.orientation is Orientation.POINTY:
        return _COMPASS[facing % 6]
    return _COMPASS_FLAT[facing % 6]


def velocity_toward(speed: float, angle_deg: float) -> tuple[float, float]:
    """(x east, y south) paces per round for ``speed`` at a screen angle (0 = east,
    counter-clockwise, y up), rounded to 1/1000 of a pace."""
    a = math.radians(angle_deg)
    vx, vy = speed * math.cos(a), -speed * math.sin(a)
    return (round(vx, 3) + 0.0, round(vy, 3) + 0.0)


@register
class SetSpeed(Action):
    """The Judge sets a figure's speed and heading (or stops it)."""

    do: Literal["set_speed"] = "set_speed"
    who: Who
    #: paces per round; 0 stops the figure
    speed: Annotated[float, Field(ge=0, le=MAX_PACES)]
    #: heading: a hexside 0..5 (default: the way the token faces) …
    facing: Annotated[int, Field(ge=0, le=5)] | None = None
    #: … or toward a hex ``[col, row]``
    toward: HexRef | None = None
    page: ClassVar[str] = SRC_SPEED
    summary: ClassVar[str] = (
        "the Judge sets a figure's speed (paces per round) and heading, or 0 to stop"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: speed {self.speed:g}"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "log"})

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        _c, tok = self.actor(table)
        return {"tokens": with_riders(table, tok.id)} if tok is not None else None

    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "log"})

    def heading(self, table: Table) -> tuple[float, str]:
        """The screen angle of the heading and how to say it."""
        c, tok = self.actor(table)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map to give a speed.")
        if self.facing is not None and self.toward is not None:
            raise RulesError("Give the heading as a facing or as a hex to move toward, not both.")
        layout = table.map.layout()
        if self.toward is not None:
            dest: Hex = hex_of(table, self.toward)
            if dest == tok.at:
                raise RulesError(f"{c.name} is in hex {table.hex_label(dest)} already.")
            (x0, y0), (x1, y1) = layout.hex_to_pixel(tok.at), layout.hex_to_pixel(dest)
            return math.degrees(math.atan2(-(y1 - y0), x1 - x0)), f"toward {table.hex_label(dest)}"
        facing = tok.facing if self.facing is None else self.facing
        return layout.facing_angle(facing), direction_name(table, facing)

    def why_not(self, table: Table) -> str | None:
        try:
            self.heading(table)
        except RulesError as e:
            return str(e)
        _c, tok = self.actor(table)
        return None if tok is None else rider_refusal(table, tok)

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        assert tok is not None
        angle, where = self.heading(table)
        before = tok.velocity
        tok.velocity = (0.0, 0.0) if self.speed == 0 else velocity_toward(self.speed, angle)
        for rider in riders(table, tok.id):  # the mount's speed is its riders'
            rider.velocity = tok.velocity
        if self.speed == 0:
            text = f"{c.name} stops (speed 0)"
        else:
            text = f"{c.name} moves at {self.speed:g} paces per round, {where}"
        detail = {
            "velocity": list(tok.velocity),
            "was": list(before),
            "rule": f"−1 to hit per full 5 paces of relative speed ({SRC_SPEED})",
        }
        table.log(text, "move", detail)
        return TableEvent(text, detail)
