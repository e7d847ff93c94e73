"""The sheet's fields and its small helpers: which fields are numbers or switches, and the boxes that edit them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QSpinBox,
    QWidget,
)

from ....rules.base import WoundLocation

_BAD = "background: #f8c8c8;"


#: Whole-number fields, with their label and tooltip.
INT_FIELDS: dict[str, tuple[str, str]] = {
    "ap": ("AP", "Action points per round (000)"),
    "initiative": ("IN", "Initiative number: the segment of the first counter (000)"),
    "move": ("Move", "Paces for 1 AP walking (000 Movement)"),
    "run": ("Run", "Paces for 1 AP running (000 Movement)"),
    "size": ("Size", "A wound per full Size of deadly damage (000)"),
    "conc_max": ("Conc max", "Concussion when unhurt"),
    "conc": ("Conc", "Concussion left; 0 or less is concussed (001)"),
    "damage_bonus": ("DB", "Damage bonus added to hand-to-hand effects (000)"),
    "quick_draw": ("Quick draw", "Quick Draw level (000 initiative stack bonus)"),
    "bleeding": ("Bleeding", "Conc lost per round (optional bleeding rule, 001)"),
    "natural_armor": (
        "Natural AV",
        "A creature's natural armour: works like cover, met after any cover and lowered "
        "by 1 on a penetrating or ablating hit (000 Armor Penetration/Ablation)",
    ),
}


BOOL_FIELDS: dict[str, str] = {
    "stunned": "Stunned",
    "unconscious": "Unconscious",
    "concussed": "Concussed",
    "dead": "Dead",
    "out_of_scene": "Out of scene",
    "behind_cover": "Behind cover",
}


#: Fields with a dedicated editor (everything else gets a generic JSON box).
_HANDLED = {
    "id",
    "name",
    "side",
    "posture",
    "temperament",
    "traits",
    "skills",
    "wounds",
    "weapons",
    "notes",
    "house_values",
    *INT_FIELDS,
    *BOOL_FIELDS,
}


_WOUND_NAMES = {
    WoundLocation.HEAD: "Head",
    WoundLocation.TORSO: "Torso",
    WoundLocation.RIGHT_ARM: "R arm",
    WoundLocation.LEFT_ARM: "L arm",
    WoundLocation.RIGHT_LEG: "R leg",
    WoundLocation.LEFT_LEG: "L leg",
}


_W_COLS = ("Weapon", "Rdy", "Cock", "Loaded", "Hand", "Full")


class _FocusOut(QObject):
    """Calls back when a text box loses focus (plain text edits have no editingFinished)."""

    def __init__(self, callback, parent: QObject) -> None:
        super().__init__(parent)
        self._cb = callback

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.FocusOut:
            self._cb()
        return False


def _show(spin: QSpinBox, value: int) -> None:
    """Show a model value, clamped to the spin box's range (a value past a 32-bit
    int would raise OverflowError in Qt; the schemas bound them well inside)."""
    spin.setValue(max(spin.minimum(), min(spin.maximum(), int(value))))


def _spin(lo: int = -999, hi: int = 999) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setKeyboardTracking(False)
    s.setAccelerated(True)
    s.setMinimumWidth(44)
    s.setMaximumWidth(56)
    return s


def _compact(combo: QComboBox, chars: int = 8) -> QComboBox:
    """Let a combo box shrink to a few characters (long names would widen the dock)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    return combo


def _centred(w: QWidget) -> QWidget:
    box = QWidget()
    h = QHBoxLayout(box)
    h.setContentsMargins(0, 0, 0, 0)
    h.setAlignment(Qt.AlignmentFlag.AlignCenter)
    h.addWidget(w)
    return box


def _first_error(e: BaseException) -> BaseException:
    """A pydantic error as one plain sentence."""
    errs = getattr(e, "errors", None)
    if callable(errs):
        try:
            err = errs()[0]
            return ValueError(str(err.get("msg", e)).removeprefix("Value error, "))
        except (IndexError, TypeError):
            pass
    return e


def _plain(v: Any) -> Any:
    if hasattr(v, "model_dump"):
        return v.model_dump(mode="json")
    return v
