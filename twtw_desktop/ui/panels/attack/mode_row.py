"""How the attack is made: shoot, throw or hand to hand, and the chosen weapon's state
with what the action adds to it (draw first, cock first, the burst fired)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .host import AttackHost


class ModeRow(QWidget):
    """The mode buttons, then the weapon's state (loaded, cocked, readied) and its
    checks; the first rows of the panel's scrolling part."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        g = QGridLayout(self)
        g.setContentsMargins(0, 0, 0, 0)
        g.setHorizontalSpacing(4)
        self.mode_group = QButtonGroup(self)
        modes = QHBoxLayout()
        modes.setSpacing(2)
        self.mode_buttons: dict[str, QToolButton] = {}
        for mode, text in (("ranged", "Shoot"), ("thrown", "Throw"), ("melee", "Hand to hand")):
            b = QToolButton()
            b.setText(text)
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, m=mode: panel.set_mode(m))
            self.mode_group.addButton(b)
            self.mode_buttons[mode] = b
            modes.addWidget(b)
        self.mode_buttons["ranged"].setChecked(True)
        modes.addStretch(1)
        g.addLayout(modes, 0, 0, 1, 2)
        self.weapon_state = QLabel()
        self.weapon_state.setStyleSheet("color: #555;")
        self.weapon_state.setWordWrap(True)
        self.cock_check = QCheckBox("cock first")
        self.cock_check.setToolTip("Cock the hammer as part of this action (its AP is added)")
        self.cock_check.toggled.connect(lambda _v: panel._inputs_changed())
        self.draw_check = QCheckBox("draw first")
        self.draw_check.setToolTip(
            "Draw and shoot: draw the gun as part of this action (the draw's AP is added)"
        )
        self.draw_check.toggled.connect(lambda _v: panel._inputs_changed())
        self.burst_combo = QComboBox()
        self.burst_combo.setToolTip(
            "Burst fired: the card's burst section gives the hits; the rest are stray shots "
            "(000 Burst Fire)"
        )
        self.burst_combo.activated.connect(lambda _i: panel._inputs_changed())
        self.burst_combo.hide()
        g.addWidget(self.weapon_state, 1, 0)
        state = QHBoxLayout()
        state.addWidget(self.burst_combo)
        checks = QVBoxLayout()  # stacked: a 300-pixel dock keeps them in view
        checks.setSpacing(0)
        checks.addWidget(self.draw_check)
        checks.addWidget(self.cock_check)
        state.addLayout(checks)
        g.addLayout(state, 1, 1)
        g.setColumnStretch(0, 1)
