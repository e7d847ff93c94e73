"""Thrown weapons: range increment, maximum range, and where a missed throw lands.

* AP v2 (000 Throwing Things): every thrown weapon has a 10 pace increment; the
  page leaves the maximum range open ("NEEDS WORK"), so the edition file's house
  value (001's Strength die × 5 paces) is used.
* Phases (001 Throwing Things): increment = Strength die / 2 + 2, maximum range =
  Strength die × 5.
* A miss scatters (000 Missed Throws / 001 Scatter): the card's clock gives the hour
  with 6 pointing back at the thrower; AP v2 moves ``step`` paces, Phases moves
  ``TN − result + step`` paces, at most half the throw, and from the thrower on a CF.

Both editions' numbers come from :class:`~twtw_desktop.rules.editions.Throwing`.
"""

from __future__ import annotations

from ...errors import RulesError
from ..base import Strict
from ..card import Card
from ..character import Character
from ..editions import Edition
from ..gear import Weapon
from .records import Modifier, ScatterResult, mod

#: Degrees per clock hour; hour 12 points straight on, away from the thrower.
DEGREES_PER_HOUR = 30


class ThrowRange(Strict):
    """A thrower's range increment and maximum range for one weapon, with reasons."""

    increment: int
    max_range: int
    items: tuple[Modifier, ...] = ()
    reasons: tuple[str, ...] = ()


def is_throwable(weapon: Weapon) -> bool:
    """Whether the weapon is made to be thrown (knives, dynamite, a lasso…)."""
    return weapon.throwable or weapon.kind in ("thrown", "explosive")


def check_throwable(weapon: Weapon) -> None:
    """Refuse throwing a weapon that is not made for it (e.g. a Sharps)."""
    if not is_throwable(weapon):
        raise RulesError(f"The {weapon.name} is not a throwing weapon.")


def throw_range(thrower: Character, weapon: Weapon, edition: Edition) -> ThrowRange:
    """Range increment and maximum range of ``thrower`` throwing ``weapon``."""
    check_throwable(weapon)
    t = edition.throwing
    strength = thrower.trait_pool("strength")
    reasons: list[str] = []
    if t.increment == "fixed":
        if t.fixed_increment is None:  # pragma: no cover - guarded by the edition data
            raise RulesError("This edition names no fixed throwing increment.")
        increment = t.fixed_increment
        reasons.append(
            f"thrown weapons have a {increment} pace range increment (000 Throwing Things)"
        )
    else:
        increment = strength.die // 2 + t.strength_add
        reasons.append(
            f"Strength {strength}: d{strength.die} / 2 + {t.strength_add} = {increment} paces per "
            "increment (001 Throwing Things)"
        )
    max_range = strength.die * t.max_range_per_die
    reasons.append(
        f"maximum range: Strength die {strength.die} × {t.max_range_per_die} = {max_range} paces"
        + (
            " (house value, 000 leaves it open)"
            if "throwing.max_range_per_die" in edition.house_values
            else " (001)"
        )
    )
    items = (
        mod("range increment", increment, "000/001 Throwing Things"),
        mod("maximum range", max_range, "001 Throwing Things"),
    )
    return ThrowRange(increment=increment, max_range=max_range, items=items, reasons=tuple(reasons))


def scatter_throw(
    card: Card,
    edition: Edition,
    *,
    tn: int,
    result: int | None,
    cf: bool = False,
    throw_distance: float = 0,
) -> ScatterResult:
    """Where a missed throw lands (000 Missed Throws; 001 Scatter).

    ``result`` is the throw's modified result (None on a CF counts as 0, a house
    reading: 001 gives no result for a calamity). ``throw_distance`` is the range of
    the throw in paces, used by the edition's half-the-throw cap.
    """
    t = edition.throwing
    hour = card.clock
    reasons = [f"card {card.number}: clock {hour}, step {card.step} (6 points back at the thrower)"]
    if t.scatter == "step":
        distance = card.step
        reasons.append(f"the throw goes {distance} paces toward {hour} o'clock (000 Missed Throws)")
    else:
        r = 0 if result is None else result
        distance = max(0, tn - r) + card.step
        reasons.append(f"TN {tn} − result {r} + step {card.step} = {distance} paces (001 Scatter)")
    if t.scatter_max_half_throw:
        cap = int(throw_distance // 2)
        if distance > cap:
            reasons.append(f"at most half the throw: {cap} paces (001 Scatter)")
            distance = cap
    from_thrower = bool(cf and t.cf_scatters_from_thrower)
    if from_thrower:
        reasons.append("a calamity: the scatter is measured from the thrower (001 Scatter)")
    return ScatterResult(
        clock_hour=hour, distance=distance, from_thrower=from_thrower, reasons=tuple(reasons)
    )


def clock_bearing(hour: int) -> int:
    """Degrees clockwise from the thrower→target direction for a clock hour
    (12 → 0°, straight on; 3 → 90°; 6 → 180°, back at the thrower; 9 → 270°)."""
    if not 1 <= hour <= 12:
        raise RulesError(f"A clock hour runs from 1 to 12, not {hour}.")
    return (hour % 12) * DEGREES_PER_HOUR
