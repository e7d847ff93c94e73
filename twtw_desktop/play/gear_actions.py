"""Weapon state at the table: ``clear_jam`` (000 Ancillary Effects, equipment failure).

A failed equipment check (the card's wrench against the weapon's Rel) leaves the
weapon jammed on the sheet (:func:`~twtw_desktop.rules.combat.ancillary.after_failure`);
clearing it costs what the gear entry says (``clear_ap``), or the house default of a
simple skill action. A broken weapon cannot be cleared at the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..errors import RulesError
from ..rules import actions as A
from ..rules.gear import Weapon
from .action_base import _log_event
from .actions import Who, register
from .table import TableEvent
from .weapon_actions import _WeaponAction

if TYPE_CHECKING:
    from .table import Table


@register
class ClearJam(_WeaponAction):
    """Clear a jammed weapon (the first jammed one, or ``weapon`` / ``slot``)."""

    do: Literal["clear_jam"] = "clear_jam"
    who: Who
    page: ClassVar[str] = A.SOURCE_FAILURE
    summary: ClassVar[str] = "clear a jammed weapon (its gear's clearing AP; house 4)"

    def carried(self, table: Table) -> tuple[int, Weapon]:
        """The slot named, else the first jammed one (of ``weapon`` when named)."""
        if self.slot is None:
            c, _ = self.actor(table)
            for i, cw in enumerate(c.weapons):
                wanted = self.weapon is None or cw.weapon_id == self.weapon
                if wanted and cw.failure == "jammed" and cw.weapon_id in table.gear.weapons:
                    return i, table.gear.weapon(cw.weapon_id)
        return super().carried(table)

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return False  # only a jammed slot fits (found above)

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.clear_jam(self.gear(table))

    def why_not(self, table: Table) -> str | None:
        try:
            slot, w = self.carried(table)
        except RulesError as e:
            return str(e)
        c, _ = self.actor(table)
        state = c.weapons[slot].failure
        if state is None:
            return f"{c.name}'s {w.name} is not jammed."
        if state == "broken":
            return f"{c.name}'s {w.name} is broken: it cannot be cleared at the table."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        slot, w = self.carried(table)
        spec = self.spec(table)
        _details, event = self.pay(table)
        weapons = list(c.weapons)
        weapons[slot] = weapons[slot].model_copy(update={"failure": None})
        c.weapons = weapons
        cost = f" ({spec.ap} AP)" if spec is not None and table.in_action else ""
        text = f"{c.name} clears the {w.name}'s jam{cost}"
        _log_event(table, text, "action", event)
        return TableEvent(text)
