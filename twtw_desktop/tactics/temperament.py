"""Temperaments: how an NPC weighs attacking, cover and closing in (a house design).

The seed pages have no morale rules; a temperament never changes a rule, only what
the planner prefers among legal plans. ``Character.temperament`` names one (default
"steady"); the NPC library's entries carry one each.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.character import Character


@dataclass(frozen=True)
class Weights:
    """What a plan's score counts, and when the NPC withdraws."""

    #: per expected hit
    attack: float
    #: per unit of exposure to the foes it knows of
    safety: float
    #: per pace nearer its preferred distance from the nearest foe
    closing: float
    #: preferred distance (paces) from the nearest foe; None: as near as it can
    distance: int | None
    #: withdraws from this wound level on (None: never for wounds)
    withdraw_wounds: int | None
    #: withdraws when this many allies or fewer still stand (None: never)
    withdraw_alone: int | None
    #: withdraws when its Conc is down to this share of its full Conc (None: never)
    withdraw_conc: float | None = None


TEMPERAMENTS: dict[str, Weights] = {
    "reckless": Weights(1.6, 0.25, 0.06, None, None, None),
    "steady": Weights(1.0, 0.8, 0.02, 8, 4, None, 0.25),
    "cautious": Weights(0.8, 1.5, 0.01, 14, 2, 0, 0.5),
    "cowardly": Weights(0.5, 2.5, 0.0, 20, 1, 1, 0.75),
}


def weights_of(c: Character) -> Weights:
    return TEMPERAMENTS.get(c.temperament, TEMPERAMENTS["steady"])


def withdrawing(c: Character, w: Weights, allies: int) -> str | None:
    """Why the NPC withdraws now (None: it fights)."""
    if w.withdraw_wounds is not None and c.wound_level >= w.withdraw_wounds:
        return f"{c.temperament}: withdraws at wound level {c.wound_level}"
    if w.withdraw_conc is not None and c.conc_max and c.conc <= w.withdraw_conc * c.conc_max:
        return f"{c.temperament}: withdraws with Conc {c.conc} of {c.conc_max}"
    if w.withdraw_alone is not None and allies <= w.withdraw_alone:
        return f"{c.temperament}: withdraws with {allies} all(y/ies) still standing"
    return None
