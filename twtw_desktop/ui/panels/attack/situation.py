"""The situation: the Judge's calls the map cannot make."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....rules.combat.situation import CALLED_SHOT_DEFAULT, CALLED_SHOT_LOCATIONS
from .controls import (
    _CALLED,
    _FIRER_MOVES,
    _LOCATION_ORDER,
    _combo,
    _spin,
)
from .host import AttackHost


class SituationBox(QWidget):
    """The situation: the Judge's calls the map cannot make."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        # -- situation (the Judge's calls the map cannot make) ---------------------------
        self.situation_toggle = QToolButton()
        self.situation_toggle.setText("Situation: the Judge's calls")
        self.situation_toggle.setCheckable(True)
        self.situation_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.situation_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.situation_toggle.setAutoRaise(True)
        self.situation_widgets = QWidget()
        sw = QGridLayout(self.situation_widgets)
        sw.setContentsMargins(0, 0, 0, 0)
        self.point_blank_check = QCheckBox("point blank")
        self.point_blank_check.setToolTip("Weapon touching the target: TN 3 (000 Point Blank)")
        self.appearing_check = QCheckBox("appearing")
        self.appearing_check.setToolTip(
            "The target is appearing or disappearing behind cover: −1 (000 Modifiers)"
        )
        self.melee_target_check = QCheckBox("in a melee")
        self.melee_target_check.setTristate(True)
        self.melee_target_check.setCheckState(Qt.CheckState.PartiallyChecked)
        self.melee_target_check.setToolTip(
            "Partly checked: read from the map (someone beside the target)"
        )
        self.two_weapons_check = QCheckBox("two weapons")
        self.off_hand_check = QCheckBox("off hand")
        self.sabotage_check = QCheckBox("trying to miss")
        self.sabotage_check.setToolTip(
            "Action Sabotage (000): the shot fails unless the card is a calamity (the "
            "target is hit after all) or a stray shot finds an unintended target"
        )
        self.charge_check = QCheckBox("charge AP")
        self.charge_check.setToolTip("Spend the attack's AP on the action track (action time)")
        self.charge_check.setChecked(True)
        self._build_choices(panel)
        for i, w in enumerate(
            (
                self.point_blank_check,
                self.appearing_check,
                self.melee_target_check,
                self.two_weapons_check,
                self.off_hand_check,
                self.charge_check,
                self.sabotage_check,
            )
        ):
            sw.addWidget(w, i // 2, i % 2)
            w.toggled.connect(lambda _v: panel._inputs_changed())
        self.melee_target_check.stateChanged.connect(lambda _v: panel._inputs_changed())
        sw.addWidget(self.called_combo, 4, 0)
        sw.addWidget(self.called_loc_combo, 4, 1)
        sw.addWidget(self.secondary_spin, 5, 0)
        sw.addWidget(self.firer_move_combo, 6, 0)
        sw.addWidget(self.size_spin, 6, 1)
        self.called_combo.activated.connect(lambda _i: panel._called_changed())
        self.secondary_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        self.situation_widgets.hide()
        self.situation_toggle.toggled.connect(panel._toggle_situation)
        lay.addWidget(self.situation_toggle)
        lay.addWidget(self.situation_widgets)

    def _build_choices(self, panel: AttackHost) -> None:
        """The called shot, a secondary target, the firer's movement and the target's Size."""
        self.called_combo = _combo(8, "A called shot (001 Called Shots)")
        for text, key in _CALLED:
            self.called_combo.addItem(text, key)
        self.called_loc_combo = _combo(6, "The spot the called shot aims at (001 Called Shots)")
        self.called_loc_combo.activated.connect(lambda _i: panel._inputs_changed())
        self.called_loc_combo.hide()
        self.secondary_spin = _spin(0, 9, prefix="target #")
        self.secondary_spin.setSpecialValueText("first target")
        self.firer_move_combo = _combo(
            8,
            "The firer's movement this round: −1 walking, −4 running (000 Modifiers: Move "
            "and Fire). As moved: read off the token",
        )
        for text, move in _FIRER_MOVES:
            self.firer_move_combo.addItem(text, move)
        self.firer_move_combo.activated.connect(lambda _i: panel._inputs_changed())
        self.size_spin = _spin(
            -1,
            40,
            prefix="target Size ",
            tip="The target's Size: 4 or less +1 TN, 2 or less +2; +1 to the result per 2 "
            "above 6 (000 Target Size). Lowest: the target's sheet",
        )
        self.size_spin.setSpecialValueText("Size: the sheet's")
        self.size_spin.setValue(-1)
        self.size_spin.valueChanged.connect(lambda _v: panel._inputs_changed())


def _toggle_situation(panel: AttackHost, on: bool) -> None:
    panel.situation_widgets.setVisible(on)
    panel.situation_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)


def set_called_shot(panel: AttackHost, key: str | None, location: str | None = None) -> None:
    """A called shot (001): the key of the table and the location aimed at."""
    panel.called_combo.setCurrentIndex(max(panel.called_combo.findData(key), 0))
    panel._fill_called_locations(location)
    panel._inputs_changed()


def _called_changed(panel: AttackHost) -> None:
    panel._fill_called_locations(None)
    panel._inputs_changed()


def _fill_called_locations(panel: AttackHost, keep: str | None) -> None:
    key = panel.called_combo.currentData()
    c = panel.called_loc_combo
    c.blockSignals(True)
    c.clear()
    if key is not None:
        allowed = CALLED_SHOT_LOCATIONS[key]
        for loc in _LOCATION_ORDER:
            if loc in allowed:
                c.addItem(loc.value.replace("_", " "), loc.value)
        default = CALLED_SHOT_DEFAULT.get(key)
        want = keep or (default.value if default is not None else None)
        c.setCurrentIndex(max(c.findData(want), 0))
    c.blockSignals(False)
    c.setVisible(key is not None)
