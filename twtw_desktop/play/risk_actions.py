"""The optional risk rule's declaration (001 Risk): ``risk_death``.

With the risk rule on (Encounter ▸ Rules and options), a wound that would be critical
in the head or torso is held at serious and the Hero is out of action for the scene —
unless the player declared that the Hero risks death. That declaration is made
during (or very near) the first round of combat, at most once a session, and earns
one experience point at the session's end if the Hero lives. The attack reads it
(:func:`risking_death`) when it writes the wounds.

House readings: "very near the first round" is the first two rounds of action time
(or before action time is declared); "a session" is the encounter's log — the
declaration is kept there, so undo and the journal keep it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from .actions import Action, Who, register
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_RISK = "001 Risk"
#: house: "during (or very near) the first round of combat"
RISK_LAST_ROUND = 2


def risking_death(table: Table, character_id: str) -> bool:
    """Has the player declared that this Hero risks death (001 Risk)?"""
    for e in table.encounter.log:
        if e.kind == "rules" and (e.detail or {}).get("risk_death") == character_id:
            return True
    return False


@register
class RiskDeath(Action):
    """A player declares that their Hero risks death this scene (001 Risk)."""

    do: Literal["risk_death"] = "risk_death"
    who: Who
    page: ClassVar[str] = SRC_RISK
    summary: ClassVar[str] = (
        "risk rule: the player declares the Hero risks death (a critical head/torso wound "
        "is not held at serious); once a session, near the first round"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} risks death"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"log"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if not table.encounter.options.risk:
            return (
                f"The risk rule is off: switch it on in Encounter ▸ Rules and options "
                f"({SRC_RISK}); without it every Hero can always die."
            )
        if risking_death(table, c.id):
            return f"{c.name} already risks death this session ({SRC_RISK})."
        rnd, _ = table.now()
        if rnd > RISK_LAST_ROUND:
            return (
                f"The risk is declared during (or very near) the first round of combat "
                f"({SRC_RISK}; house: by round {RISK_LAST_ROUND}); this is round {rnd}."
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        text = (
            f"{c.name} risks death this scene: a critical head or torso wound is no longer "
            f"held at serious; one extra experience point at the session's end if they "
            f"live ({SRC_RISK})"
        )
        table.log(text, "rules", {"risk_death": c.id})
        return TableEvent(text)
