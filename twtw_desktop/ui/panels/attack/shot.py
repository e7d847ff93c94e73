"""The shot: snap, normal, aimed or fan, and an aim taken ahead of it."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ....play.combat_actions import Aim
from .._common import USER_ERRORS, error_text
from .controls import (
    _AIM_TIP,
    _first_second,
    _row,
    _spin,
)
from .host import AttackHost


class ShotRow(QWidget):
    """The shot: snap, normal, aimed or fan, and an aim taken ahead of it."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        # -- shot type -------------------------------------------------------------
        self.shot_row, h = _row(3)
        self.shot_group = QButtonGroup(self)
        self.shot_buttons: dict[str, QToolButton] = {}
        for kind, text, tip in (
            ("snap", "Snap", "Snap shot: fewer AP, the weapon's snap penalty (000)"),
            ("normal", "Normal", "Normal shot (000)"),
            (
                "aimed",
                "Aimed",
                "Aim actions paid in the shot: 000, a normal shot after 1–2 aims, +1 each; "
                "001/003, the first aim removes the snap penalty, up to two more +1 each",
            ),
            ("fan", "Fan", "Fan firing a single-action revolver: 1 AP a shot (000 Fan Firing)"),
        ):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.setCheckable(True)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, k=kind: panel.set_shot(k))
            self.shot_group.addButton(b)
            self.shot_buttons[kind] = b
            h.addWidget(b)
        self.aims_spin = _spin(1, 2, prefix="aims ")
        self.aims_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        h.addWidget(self.aims_spin)
        lay.addWidget(self.shot_row)
        # the routine shot is chosen from the start (the group keeps the last one chosen)
        self.shot_buttons["snap"].setChecked(True)
        self.aims_spin.setEnabled(False)
        # an aim action taken now, ahead of the shot (its own row: the dock is narrow)
        self.aim_row, h = _row(3)
        self.aim_button = QToolButton()
        self.aim_button.setText("Aim at the target now")
        self.aim_button.clicked.connect(lambda _=False: panel.aim_ahead())
        h.addWidget(self.aim_button)
        self.aim_hold_check = QCheckBox("hold")
        self.aim_hold_check.setToolTip(
            "003 Procedure (Phases): the aim held as a continuous action over the rounds; "
            "each round after the first adds the gun's Accurate bonus"
        )
        self.aim_hold_check.toggled.connect(lambda _v: panel._update_aim_button())
        h.addWidget(self.aim_hold_check)
        h.addStretch(1)
        lay.addWidget(self.aim_row)


def shot_kind(panel: AttackHost) -> str | None:
    for k, b in panel.shot_buttons.items():
        if b.isChecked():
            return k
    return None


def set_shot(panel: AttackHost, kind: str) -> None:
    panel.shot_buttons[kind].setChecked(True)
    panel.aims_spin.setEnabled(kind == "aimed")
    panel.aims_spin.setVisible(kind != "fan")
    panel.fan_row.setVisible(kind == "fan" and panel.mode() == "ranged")
    panel._sync_burst_row()
    panel._inputs_changed()


def set_fan(
    panel: AttackHost, shots: int, second: str | None = None, second_shots: int = 0
) -> None:
    """Declare a fan: ``shots`` at the target, then ``second_shots`` at ``second``."""
    panel._busy = True
    try:
        panel.fan_shots_spin.setValue(shots)
        i = panel.fan_second_combo.findData(second) if second else 0
        panel.fan_second_combo.setCurrentIndex(max(i, 0))
        panel.fan_second_spin.setValue(second_shots if second else 0)
    finally:
        panel._busy = False
    panel.set_shot("fan")


def _fan_second_chosen(panel: AttackHost) -> None:
    _first_second(panel.fan_second_combo, panel.fan_second_spin)
    panel._inputs_changed()


def _aim_action(panel: AttackHost) -> Aim | None:
    """The aim ahead at the chosen target with the chosen gun (None: no ranged
    attacker, target or gun chosen)."""
    req = panel.request()
    if req is None or req.mode != "ranged" or req.weapon_index is None:
        return None
    try:
        gun = panel.document.character_of(req.shooter_token).weapons[req.weapon_index]
    except (KeyError, IndexError):
        return None
    hold = panel.aim_hold_check.isChecked() and panel.aim_hold_check.isVisibleTo(panel.widget)
    return Aim(who=req.shooter_token, target=req.target_token, weapon=gun.weapon_id, hold=hold)


def aim_ahead(panel: AttackHost):
    """Take one aim action at the target now (one undo step); the shot previewed
    next counts it. Returns the table's event, or None when refused."""
    action = panel._aim_action()
    if action is None:
        return None
    try:
        event = panel.document.apply(action)
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return None
    panel.message.note(event.text)
    panel.recompute()
    return event


def _update_aim_button(panel: AttackHost) -> None:
    panel.aims_spin.setMaximum(panel.table.edition.aim.max)
    panel.aim_hold_check.setVisible(panel.table.edition.aim.across_rounds)
    action = panel._aim_action()
    why = "Choose a ranged attacker, a gun and a target." if action is None else None
    if action is not None:
        try:
            why = panel.table.why_not(action)
        except USER_ERRORS as e:
            why = error_text(e)
    panel.aim_button.setEnabled(why is None)
    if why is None and action is not None:
        why = f"{_AIM_TIP}. Now: {panel.table.preview(action)['note']}"
    panel.aim_button.setToolTip(why or _AIM_TIP)
