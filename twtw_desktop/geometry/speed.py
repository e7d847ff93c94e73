"""Target speed for the ranged-attack penalty (000/001/003 Target Speed).

The penalty is 1 for every full ``speed_per_penalty`` paces (5 in both editions) of
the *relative* speed between firer and target: the length of the difference of
their velocity vectors, in paces per round (a wagon going east at 18 and a vaquero
going west at 8 close at 26 → −5). The optional rule (000: "total movement") adds
the two speeds whatever their directions.

Velocities are ``(x, y)`` in paces per round along the map's axes (x east, y south),
as :attr:`twtw_desktop.model.encounter.Token.velocity` stores them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ..model.encounter import Token
from ..rules.editions import Edition, OptionalRules

Velocity = tuple[float, float]

#: paces of speed per point of penalty when no edition is given (000 Target Speed)
DEFAULT_PACES_PER_PENALTY = 5


@dataclass(frozen=True, slots=True)
class TargetSpeed:
    """Relative and total speed, the one the rules use, and the penalty."""

    relative: float
    total: float
    rule: Literal["relative", "total"]
    speed: float  # the one used
    penalty: int  # to the result (0 or negative)
    reasons: tuple[str, ...]


def relative_speed(firer_velocity: Velocity, target_velocity: Velocity) -> float:
    """Length of the difference of two velocities (paces per round)."""
    return math.hypot(
        target_velocity[0] - firer_velocity[0], target_velocity[1] - firer_velocity[1]
    )


def total_speed(firer_velocity: Velocity, target_velocity: Velocity) -> float:
    """Sum of the two speeds, directions ignored (the optional total-speed rule)."""
    return math.hypot(*firer_velocity) + math.hypot(*target_velocity)


def target_speed(
    firer_velocity: Velocity,
    target_velocity: Velocity,
    *,
    edition: Edition | None = None,
    options: OptionalRules | None = None,
) -> TargetSpeed:
    """The target-speed penalty with its reasons."""
    per = edition.speed_per_penalty if edition is not None else DEFAULT_PACES_PER_PENALTY
    rel = relative_speed(firer_velocity, target_velocity)
    tot = total_speed(firer_velocity, target_velocity)
    use_total = bool(options and options.total_speed)
    speed = tot if use_total else rel
    # float noise (26.000000001) must not cost or save a point
    penalty = -math.floor(speed / per + 1e-9)
    rule: Literal["relative", "total"] = "total" if use_total else "relative"
    reasons = (
        f"firer {math.hypot(*firer_velocity):g}, target {math.hypot(*target_velocity):g} "
        "paces per round",
        f"relative speed {rel:g}, total {tot:g}; the {rule} speed is used"
        + (" (optional rule, 000 Target Speed)" if use_total else " (000 Target Speed)"),
        f"−1 per full {per} paces: {penalty}",
    )
    return TargetSpeed(rel, tot, rule, speed, penalty, reasons)


def token_target_speed(
    firer: Token,
    target: Token,
    *,
    edition: Edition | None = None,
    options: OptionalRules | None = None,
) -> TargetSpeed:
    """:func:`target_speed` from two tokens' stored velocities."""
    return target_speed(firer.velocity, target.velocity, edition=edition, options=options)
