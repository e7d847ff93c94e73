"""Encounter ▸ Set speed… (Ctrl+Shift+M): the Judge gives a figure a speed.

000 Target is moving: the ranged TN takes −1 per full 5 paces of relative speed
between firer and target, read from each token's velocity. A rider, a wagon or a
runner from the round before moves at a speed the map does not show; this dialog
builds the table's ``set_speed`` (:mod:`twtw_desktop.play.speed_actions`) — paces per
round and a heading (one of the six hexsides, or the way the token faces), or 0 to
stop — and applies it as one undo step. A refusal stays in the dialog.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...model.encounter import MAX_PACES
from ...play.speed_actions import SRC_SPEED, SetSpeed, direction_name


class SpeedDialog(QDialog):
    """Who, how fast, which way."""

    def __init__(self, document, who: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Set speed")
        self.setObjectName("speed_dialog")
        self.document = document
        self.event: Any = None
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.who = QComboBox()
        for tok in document.encounter.tokens:
            self.who.addItem(document.character(tok.character_id).name, tok.character_id)
        if who is not None and self.who.findData(who) >= 0:
            self.who.setCurrentIndex(self.who.findData(who))
        form.addRow("Who", self.who)
        self.speed = QDoubleSpinBox()
        self.speed.setRange(0, MAX_PACES)
        self.speed.setDecimals(1)
        self.speed.setSuffix(" paces per round")
        self.speed.setSpecialValueText("stopped (0)")
        form.addRow("Speed", self.speed)
        self.heading = QComboBox()
        self.heading.addItem("the way it faces", None)
        for f in range(6):
            self.heading.addItem(direction_name(document.table, f), f)
        form.addRow("Heading", self.heading)
        lay.addLayout(form)
        self.now = QLabel()
        self.now.setWordWrap(True)
        lay.addWidget(self.now)
        note = QLabel(f"−1 to hit per full 5 paces of relative speed ({SRC_SPEED}).")
        note.setWordWrap(True)
        lay.addWidget(note)
        self.message = QLabel()
        self.message.setObjectName("speed_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.set_speed)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.who.currentIndexChanged.connect(self._show_current)
        self._show_current()

    def _show_current(self) -> None:
        cid = self.who.currentData()
        tok = self.document.token_for(cid) if cid is not None else None
        if tok is None:
            self.now.setText("")
            return
        vx, vy = tok.velocity
        self.now.setText(f"Now: {math.hypot(vx, vy):g} paces per round")
        self.speed.setValue(math.hypot(vx, vy))

    def action(self) -> SetSpeed:
        cid = self.who.currentData()
        if cid is None:
            raise ValueError("There is no figure on the map to give a speed.")
        return SetSpeed(who=cid, speed=self.speed.value(), facing=self.heading.currentData())

    def set_speed(self) -> None:
        """Apply as one undo step; a refusal stays in the dialog."""
        try:
            self.event = self.document.apply(self.action())
        except (RulesError, ValueError) as e:
            self.message.setText(str(e))  # whole: the label wraps
            return
        self.accept()


def open_speed_dialog(document, who: str | None = None, parent: QWidget | None = None) -> bool:
    if document is None:
        return False
    return SpeedDialog(document, who, parent).exec() == QDialog.DialogCode.Accepted


def install_speed_dialog(window) -> QAction:
    """Encounter ▸ Set speed… (Ctrl+Shift+M), for the selected token's figure."""
    act = QAction("Set &speed…", window)
    act.setObjectName("act_set_speed")
    act.setShortcut(QKeySequence("Ctrl+Shift+M"))
    act.setStatusTip("A figure's speed and heading for the target-speed penalty (000)")

    def go() -> None:
        doc = window.document
        if doc is None:
            return
        who = None
        if doc.selected_token_id is not None:
            who = doc.token(doc.selected_token_id).character_id
        open_speed_dialog(doc, who, window)

    act.triggered.connect(go)
    window.addAction(act)
    window.encounter_menu.addAction(act)
    window.act_set_speed = act
    return act
