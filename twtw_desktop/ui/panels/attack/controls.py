"""The attack panel's small pieces: its choice lists, tooltips and control factories
(each section of the panel builds its rows with these)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QWidget,
)

from ....rules.base import HitLocation

_CALLED = (
    ("no called shot", None),
    ("torso (−2)", "torso"),
    ("limb (−4)", "limb"),
    ("head / hand / foot (−6)", "head_hand_foot"),
    ("eye / heart (−10)", "eye_heart"),
)
_DEFENSES = (
    ("no defence", None),
    ("block (2 AP)", "block"),
    ("dodge (3 AP)", "dodge"),
)
#: the stack order of the called-shot locations, top (head) to bottom
_LOCATION_ORDER = (
    HitLocation.HEAD,
    HitLocation.CHEST,
    HitLocation.VITALS,
    HitLocation.BELLY,
    HitLocation.LEFT_ARM,
    HitLocation.RIGHT_ARM,
    HitLocation.LEFT_LEG,
    HitLocation.RIGHT_LEG,
)
#: the Judge's call on the firer's movement (None: read off the token)
_FIRER_MOVES: tuple[tuple[str, str | None], ...] = (
    ("firer: as moved", None),
    ("firer: still", "still"),
    ("firer: walking (−1)", "walking"),
    ("firer: running (−4)", "running"),
)
_MELEE_TYPES = (
    ("Quick attack", "quick"),
    ("Standard attack", "standard"),
    ("Heavy attack", "heavy"),
    ("Shove (dominance)", "shove"),
)


_DRAW_TIP = (
    "Draw the action card: it leaves the deck now (the journal keeps it) and the result "
    "is read; spend the bumps, then Apply. The card the initiative stack flipped for "
    "this action is read instead of drawing (000 Initiative Stack)."
)
_PUT_BACK_TIP = "Undo the draw: the card goes back on top of the deck (the journal keeps both)"
_APPLY_TIP = "Write the result to the sheets, the map, the track and the log (undoable)"
_AIM_TIP = (
    "Aim at the target with this gun now (paid now); the next shot at them counts it "
    "(000 / 001 / 003 Aim and Snap Shots)"
)


def _fan_capable(weapon) -> bool:
    from ....rules.combat.ranged import is_fan_capable

    return weapon is not None and is_fan_capable(weapon)


def _button(text: str, tip: str = "", checkable: bool = False) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.setCheckable(checkable)
    return b


def _combo(min_length: int, tip: str = "") -> QComboBox:
    """A combo box that may shrink to ``min_length`` characters (a narrow dock)."""
    c = QComboBox()
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(min_length)
    if tip:
        c.setToolTip(tip)
    return c


def _spin(low: int, high: int, *, prefix: str = "", tip: str = "") -> QSpinBox:
    s = QSpinBox()
    s.setRange(low, high)
    if prefix:
        s.setPrefix(prefix)
    if tip:
        s.setToolTip(tip)
    return s


def _row(spacing: int | None = None) -> tuple[QWidget, QHBoxLayout]:
    """A widget holding one row of controls, without margins."""
    row = QWidget()
    h = QHBoxLayout(row)
    h.setContentsMargins(0, 0, 0, 0)
    if spacing is not None:
        h.setSpacing(spacing)
    return row, h


def _second_target_row(
    lead: QWidget, combo_tip: str, spin_high: int, spin_tip: str
) -> tuple[QWidget, QComboBox, QSpinBox]:
    """A *2nd target* row: ``lead``, the target's combo and how many shots or hits
    go to it (the fan's second target, a burst's other target)."""
    row, h = _row(3)
    combo = _combo(4, combo_tip)
    spin = _spin(0, spin_high, prefix="× ", tip=spin_tip)
    h.addWidget(lead)
    h.addWidget(combo, 1)
    h.addWidget(spin)
    return row, combo, spin


def _fill_second(combo: QComboBox, targets: QComboBox, nobody: str, prefix: str = "") -> None:
    """List the targets of ``targets`` in a 2nd-target ``combo``, keeping its choice."""
    keep = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(nobody, None)
    for j in range(1, targets.count()):
        combo.addItem(prefix + targets.itemText(j), targets.itemData(j))
    k = combo.findData(keep) if keep else -1
    combo.setCurrentIndex(max(k, 0))
    combo.blockSignals(False)


def _first_second(combo: QComboBox, spin: QSpinBox) -> None:
    """A 2nd target chosen with no shots or hits for it gets one."""
    if combo.currentData() and not spin.value():
        spin.blockSignals(True)
        spin.setValue(1)
        spin.blockSignals(False)
