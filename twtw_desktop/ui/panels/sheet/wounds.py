"""The wounds: the body diagram, each location's wounds and First aid (000 Wounds)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
)

from ....rules.base import WoundLocation
from ....rules.character import Character
from ...widgets.body_diagram import BodyDiagram
from .fields import (
    _WOUND_NAMES,
    _spin,
)
from .host import SheetHost


def _wounds_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Wounds")
    h = QHBoxLayout(box)
    h.setContentsMargins(6, 4, 6, 4)
    panel.body_diagram = BodyDiagram()
    panel.body_diagram.woundClicked.connect(panel._wound_clicked)
    panel.editors["wounds"] = panel.body_diagram
    h.addWidget(panel.body_diagram)
    right = QVBoxLayout()
    panel.wound_info = QLabel()
    panel.wound_info.setWordWrap(True)
    panel.wound_info.setStyleSheet("font-weight: bold;")
    right.addWidget(panel.wound_info)
    g = QGridLayout()
    panel.wound_spins = {}
    for i, loc in enumerate(
        (
            WoundLocation.HEAD,
            WoundLocation.TORSO,
            WoundLocation.RIGHT_ARM,
            WoundLocation.LEFT_ARM,
            WoundLocation.RIGHT_LEG,
            WoundLocation.LEFT_LEG,
        )
    ):
        s = _spin(-9, 99)
        s.setToolTip(f"Wounds in the {loc.value.replace('_', ' ')} (0–5)")
        s.valueChanged.connect(lambda v, lc=loc: panel._set_wound(lc, v))
        panel.wound_spins[loc] = s
        r, c = divmod(i, 2)
        g.addWidget(QLabel(_WOUND_NAMES[loc]), r, c * 2)
        g.addWidget(s, r, c * 2 + 1)
    right.addLayout(g)
    panel.first_aid_button = QPushButton("First aid…")
    panel.first_aid_button.setToolTip("Treat this character's wounds, Conc or a faint (001)")
    panel.first_aid_button.clicked.connect(lambda: panel._open_first_aid())
    right.addWidget(panel.first_aid_button)
    right.addStretch(1)
    h.addLayout(right, 1)
    return box


def _refresh_wound_info(panel: SheetHost, c: Character) -> None:
    ed = panel.document.edition
    level = c.wound_level
    row = ed.wound_row(level)
    if row is None:
        text = f"Unhurt\nAP −0 · Stun TN {ed.stun_tn(0)}"
    else:
        text = f"Wound level {level}: {row.name}\nAP −{row.ap_penalty} · Stun TN {row.stun_tn}"
    disabled = [_WOUND_NAMES[loc] for loc in c.disabled_locations]
    if disabled:
        text += "\nDisabled: " + ", ".join(disabled)
    text += f"\nConc {c.conc}/{c.conc_max}"
    panel.wound_info.setText(text)
    panel.wound_info.setToolTip(f"From the {ed.name} wound table")


def _wound_clicked(panel: SheetHost, loc: str, delta: int) -> None:
    c = panel.character()
    if c is None:
        return
    wl = WoundLocation(loc)
    panel._set_wound(wl, c.wounds.get(wl, 0) + delta)


def _set_wound(panel: SheetHost, loc: WoundLocation, value: int) -> None:
    c = panel.character()
    if c is None or panel._refreshing:
        return
    wounds = dict(c.wounds)
    wounds[loc] = value
    panel._commit("wounds", wounds, f"{_WOUND_NAMES[loc]} wounds", panel.wound_spins[loc])
