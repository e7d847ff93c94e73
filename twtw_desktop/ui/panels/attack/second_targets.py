"""The second (and third) targets of a fan or a burst."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
    QWidget,
)

from .controls import (
    _first_second,
    _second_target_row,
    _spin,
)
from .host import AttackHost


class SecondTargetRows(QWidget):
    """The second (and third) targets of a fan or a burst."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        self.fan_shots_spin = _spin(
            1, 6, tip="Shots fanned at the target (at most the pistol skill)"
        )
        self.fan_shots_spin.setValue(2)
        self.fan_shots_spin.setSuffix(" shots")
        self.fan_row, self.fan_second_combo, self.fan_second_spin = _second_target_row(
            self.fan_shots_spin,
            "Then fan at a second target (one target switch, +1 AP)",
            5,
            "Shots at the second target",
        )
        self.fan_shots_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        self.fan_second_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        self.fan_second_combo.activated.connect(lambda _i: panel._fan_second_chosen())
        lay.addWidget(self.fan_row)
        self.fan_row.hide()

        # a burst spreading its hits (000 Hitting Multiple Targets)
        self.burst_second_label = QLabel("2nd target")
        self.burst_row, self.burst_second_combo, self.burst_second_spin = _second_target_row(
            self.burst_second_label,
            "000 Hitting Multiple Targets: each success after the first may send one of "
            "the burst's hits to another target instead (the card's burst hits in all)",
            9,
            "Hits to send on to the second target (at most)",
        )
        self.burst_second_combo.activated.connect(lambda _i: panel._burst_second_chosen())
        self.burst_second_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        lay.addWidget(self.burst_row)
        self.burst_row.hide()
        self.burst_third_label = QLabel("3rd target")
        self.burst_third_row, self.burst_third_combo, self.burst_third_spin = _second_target_row(
            self.burst_third_label,
            "000 Hitting Multiple Targets: a third success in the pool may send hits to a "
            "third target",
            9,
            "Hits to send on to the third target (at most)",
        )
        self.burst_third_combo.activated.connect(lambda _i: panel._burst_third_chosen())
        self.burst_third_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        lay.addWidget(self.burst_third_row)
        self.burst_third_row.hide()


def _sync_burst_row(panel: AttackHost) -> None:
    """The 2nd-target row, for a burst weapon's normal shots (not a fan)."""
    show = panel.mode() == "ranged" and panel.shot_kind() != "fan" and panel._has_burst()
    panel.burst_row.setVisible(show)
    # a third target once a second is named (each needs a success of its own)
    panel.burst_third_row.setVisible(show and panel.burst_second_combo.currentData() is not None)
    panel._sync_series_row()


def _burst_second_chosen(panel: AttackHost) -> None:
    _first_second(panel.burst_second_combo, panel.burst_second_spin)
    panel._sync_burst_row()
    panel._inputs_changed()


def _burst_third_chosen(panel: AttackHost) -> None:
    _first_second(panel.burst_third_combo, panel.burst_third_spin)
    panel._inputs_changed()


def set_burst_third(panel: AttackHost, token_id: str | None, hits: int = 1) -> None:
    """Send up to ``hits`` more of the burst's hits on to a third target (a third
    success in the pool needed); None: no third target."""
    panel._busy = True
    try:
        i = panel.burst_third_combo.findData(token_id) if token_id else 0
        panel.burst_third_combo.setCurrentIndex(max(i, 0))
        panel.burst_third_spin.setValue(hits if token_id else 0)
    finally:
        panel._busy = False
    panel._sync_burst_row()
    panel._inputs_changed()


def set_burst_second(panel: AttackHost, token_id: str | None, hits: int = 1) -> None:
    """Send up to ``hits`` of the burst's hits on to ``token_id`` (000 Hitting
    Multiple Targets); None keeps every hit on the target."""
    panel._busy = True
    try:
        i = panel.burst_second_combo.findData(token_id) if token_id else 0
        panel.burst_second_combo.setCurrentIndex(max(i, 0))
        panel.burst_second_spin.setValue(hits if token_id else 0)
    finally:
        panel._busy = False
    panel._sync_burst_row()
    panel._inputs_changed()


def set_burst(panel: AttackHost, burst: int) -> None:
    i = panel.burst_combo.findData(burst)
    if i >= 0:
        panel.burst_combo.setCurrentIndex(i)
    panel._inputs_changed()
