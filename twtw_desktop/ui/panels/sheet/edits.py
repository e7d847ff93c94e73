"""Every edit of the sheet: one undoable command, or the reason it is refused (the box turns red)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QWidget,
)

from ....errors import RulesError
from ....play.catalogue import posture_mismatch
from ....rules.character import Character, Posture
from ...core.commands import (
    ChangePostureCommand,
    ChangeValueCommand,
)
from .._common import USER_ERRORS, error_text
from .fields import (
    _BAD,
)
from .host import SheetHost


# -- widgets → model (one command per edit) --------------------------------------
def _clear_marks(panel: SheetHost) -> None:
    for w in panel.editors.values():
        w.setStyleSheet("")
    for s in panel.wound_spins.values():
        s.setStyleSheet("")


def _refuse(panel: SheetHost, label: str, exc: BaseException, widget: QWidget | None) -> None:
    panel.message.error(f"{label}: {error_text(exc)} — nothing changed.")
    panel.refresh()
    if widget is not None:
        widget.setStyleSheet(_BAD)


def _commit(
    panel: SheetHost, field: str, value: Any, label: str, widget: QWidget | None = None
) -> bool:
    """Set ``field`` to ``value`` as one undoable command; refuse bad values."""
    if panel._refreshing:
        return False
    c = panel.character()
    if c is None:
        return False
    if field == "posture":
        return panel.set_posture(value)
    widget = widget or panel.editors.get(field)
    if getattr(c, field) == value:
        return True
    try:
        panel._cross_check(c, field, value)
        cmd = ChangeValueCommand(
            panel.document, c, field, value, "characters", text=f"{c.name}: {label}"
        )
        panel.document.push(cmd)
    except USER_ERRORS as e:
        panel._refuse(label, e, widget)
        return False
    panel.message.clear()
    panel._clear_marks()
    return True


def set_posture(panel: SheetHost, posture: Posture | str) -> bool:
    """Change the shown character's posture on the sheet and on its token together
    (one undoable step; the sheet is the truth the token mirrors)."""
    c = panel.character()
    if c is None or panel._refreshing:
        return False
    try:
        new = Posture(posture)
        if c.posture is new and not posture_mismatch(panel.document, c.id):
            return True
        panel.document.push(
            ChangePostureCommand(panel.document, c.id, new, text=f"{c.name}: posture {new.value}")
        )
    except USER_ERRORS as e:
        panel._refuse("Posture", e, panel.posture_combo)
        return False
    panel.message.clear()
    panel._clear_marks()
    return True


def _cross_check(panel: SheetHost, c: Character, field: str, value: Any) -> None:
    """Checks that need more than one field (the schema checks one at a time)."""
    if field == "conc" and isinstance(value, int) and value > c.conc_max:
        raise RulesError(f"Conc cannot exceed the maximum of {c.conc_max}.")
    if field == "conc_max" and isinstance(value, int) and value < c.conc and value >= 0:
        raise RulesError(f"Conc max cannot be below the current Conc {c.conc}; lower Conc first.")
    if field == "name" and not str(value).strip():
        raise RulesError("A character needs a name.")
    if field == "skills":
        for name, s in value.items():
            if s.trait not in c.traits:
                raise RulesError(f"Skill {name} rolls with {s.trait}, which is not on the sheet.")
    if field == "traits":
        for name, s in c.skills.items():
            if s.trait not in value:
                raise RulesError(
                    f"Skill {name} rolls with {s.trait}; keep that trait on the sheet."
                )
    if field == "weapons":
        gear = panel.document.gear.weapons
        for cw in value:
            w = gear.get(cw.weapon_id)
            if w is None:
                raise RulesError(f"There is no {cw.weapon_id} in the gear catalog.")
            if cw.loaded > w.capacity:
                raise RulesError(f"A {w.name} holds at most {w.capacity} rounds.")
            if cw.cocked and w.cock_ap is None:
                raise RulesError(f"A {w.name} is never cocked.")
