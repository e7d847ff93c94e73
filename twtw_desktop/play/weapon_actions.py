"""Handling a weapon: draw, ready, cock, holster and reload (000 Cocking and Readying).

House reading (the pages are silent): holstering a gun costs what drawing it costs
(000 gives no holster cost; putting a gun away is the same motion reversed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..rules import actions as A
from ..rules.character import Character
from ..rules.gear import Weapon
from .action_base import SRC_READY, Action, Who, _log_event
from .catalogue import apply_action_effects
from .table import TableEvent

if TYPE_CHECKING:  # annotations only
    from .table import Table


# =============================================================================
# Weapons
# =============================================================================


class _WeaponAction(Action):
    """An action with one of the actor's weapons (``weapon``: its gear id; default the
    first that fits; ``slot``: which carried entry, 0-based, when the sheet carries
    two of it)."""

    weapon: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    slot: Annotated[int, Field(ge=0, le=100)] | None = None
    page: ClassVar[str] = SRC_READY

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        w = self.gear(table)
        return f"{c.name}: {self.do} the {w.name}"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "tokens", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "track"})

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return True

    def carried(self, table: Table) -> tuple[int, Weapon]:
        c, _ = self.actor(table)
        if self.slot is not None:
            if self.slot >= len(c.weapons):
                raise RulesError(f"{c.name} carries no weapon in slot {self.slot}.")
            cw = c.weapons[self.slot]
            if self.weapon is not None and cw.weapon_id != self.weapon:
                raise RulesError(f"{c.name}'s slot {self.slot} holds no {self.weapon!r}.")
            return self.slot, table.gear.weapon(cw.weapon_id)
        for i, cw in enumerate(c.weapons):
            w = table.gear.weapons.get(cw.weapon_id)
            if w is None:
                continue
            if self.weapon is not None:
                if cw.weapon_id == self.weapon:
                    return i, w
                continue
            if self.fits(table, w, cw.readied, cw.cocked, cw.loaded):
                return i, w
        if self.weapon is not None:
            raise RulesError(f"{c.name} carries no {self.weapon!r}.")
        raise RulesError(f"{c.name} has no weapon to {self.do.replace('_', ' ')}.")

    def gear(self, table: Table) -> Weapon:
        return self.carried(table)[1]

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        spec = self.spec(table)
        _details, event = self.pay(table)
        slot = self.carried(table)[0]
        notes = apply_action_effects(table, c.id, spec, slot) if spec is not None else []
        text = f"{c.name}: {spec.describe() if spec else self.do}" + (
            f" — {'; '.join(notes)}" if notes else ""
        )
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Draw(_WeaponAction):
    do: Literal["draw"] = "draw"
    who: Who
    summary: ClassVar[str] = "draw a weapon into hand (Quick Draw lowers the cost)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return not readied

    def spec(self, table: Table) -> A.ActionSpec | None:
        c, _ = self.actor(table)
        return A.draw_action(self.gear(table), c.quick_draw)

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if c.weapons[i].readied:
            return f"{c.name}'s {w.name} is already in hand ({SRC_READY})."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        if not table.in_action:
            c, _ = self.actor(table)
            i, w = self.carried(table)
            _set_weapon(c, i, readied=True)
            return TableEvent(f"{c.name}'s {w.name} is ready")
        return super().apply(table)


class Ready(Draw):
    do: Literal["ready"] = "ready"  # type: ignore[assignment]
    summary: ClassVar[str] = "ready a long arm or item (its readying cost)"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.ready_action(self.gear(table))


class Cock(_WeaponAction):
    do: Literal["cock"] = "cock"
    who: Who
    summary: ClassVar[str] = "cock a single-action gun"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return readied and w.cock_ap is not None and not cocked

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.cock_action(self.gear(table))

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        cw = c.weapons[i]
        if not cw.readied:
            return f"{w.name} not in hand: draw it first ({SRC_READY})."
        if w.cock_ap is None:
            return f"The {w.name} needs no cocking ({SRC_READY})."
        if cw.cocked:
            return f"The {w.name} is already cocked."
        return super().why_not(table)


class Holster(_WeaponAction):
    do: Literal["holster"] = "holster"
    who: Who
    summary: ClassVar[str] = "put a weapon away (house: the cost of drawing it)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return readied

    def spec(self, table: Table) -> A.ActionSpec | None:
        c, _ = self.actor(table)
        return A.draw_action(self.gear(table), c.quick_draw)

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if not c.weapons[i].readied:
            return f"{c.name}'s {w.name} is not in hand."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        _details, event = self.pay(table)
        _set_weapon(c, i, readied=False, cocked=False)
        text = f"{c.name} puts the {w.name} away"
        _log_event(table, text, "action", event)
        return TableEvent(text)


class Reload(_WeaponAction):
    do: Literal["reload"] = "reload"
    who: Who
    summary: ClassVar[str] = "reload one cartridge (or the whole weapon, as its gear says)"

    def fits(self, table: Table, w: Weapon, readied: bool, cocked: bool, loaded: int) -> bool:
        return bool(w.capacity) and loaded < w.capacity

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.reload_action(self.gear(table))

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        i, w = self.carried(table)
        if not w.capacity or c.weapons[i].loaded >= w.capacity:
            return f"The {w.name} is fully loaded."
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        if not table.in_action:
            c, _ = self.actor(table)
            spec = self.spec(table)
            assert spec is not None
            notes = apply_action_effects(table, c.id, spec, self.carried(table)[0])
            return TableEvent("; ".join(notes) or f"{c.name} reloads")
        return super().apply(table)


def _set_weapon(c: Character, index: int, **fields: Any) -> None:
    weapons = [w.model_copy() for w in c.weapons]
    weapons[index] = weapons[index].model_copy(update=fields)
    c.weapons = weapons
