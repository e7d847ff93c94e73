"""The track's small dialogs: a stack action's modifiers and a continuous mover."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from ....rules.action_track import continuous_schedule
from ....rules.phases import CONTINUOUS_STEPS, maneuver_phases, roman
from ....rules.timecommon import split_evenly


class ModifiersDialog(QDialog):
    """The Judge's stack modifiers for one action: gear, and wounds or the
    environment (000 Determine Bonus 1–2 name them but give no numbers)."""

    def __init__(self, parent: QWidget | None, entry=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Stack modifiers")
        form = QFormLayout(self)
        self.gear = QSpinBox()
        self.gear.setRange(-10, 10)
        self.environment = QSpinBox()
        self.environment.setRange(-10, 10)
        self.note = QLineEdit()
        self.note.setPlaceholderText("why (shown in the log)")
        if entry is not None:
            self.gear.setValue(entry.gear_modifier)
            self.environment.setValue(entry.environment_modifier)
            self.note.setText(entry.modifier_note)
        form.addRow("Gear", self.gear)
        form.addRow("Wounds / environment", self.environment)
        form.addRow("Note", self.note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[int, int, str]:
        return self.gear.value(), self.environment.value(), self.note.text().strip()


class ContinuousDialog(QDialog):
    """Start or change a continuous mover: a character riding or driving, or an
    automated mover the Judge names (a train, a runaway wagon). Shows how the round's
    paces are shared out before anything changes."""

    def __init__(
        self, parent: QWidget | None, document, track, mover_id: str | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Continuous mover")
        self.document = document
        self.phases = document.edition.time == "phases"
        movers = {m.mover_id: m for m in track.state.movers}
        form = QFormLayout(self)
        self.who = QComboBox()
        self.who.setEditable(True)
        self.who.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        edit = self.who.lineEdit()
        if edit is not None:  # (an editable combo has one)
            edit.setPlaceholderText("a character, or name a wagon or a train")
        for c in document.encounter.characters:
            self.who.addItem(c.name, c.id)
        for m in movers.values():
            if self.who.findData(m.mover_id) < 0:
                self.who.addItem(m.name, m.mover_id)
        self.paces = QSpinBox()
        self.paces.setRange(0, 999)
        self.paces.setSuffix(" paces a round")
        self.automated = QCheckBox("moved by the Judge (no rider)")
        self.skill = QSpinBox()
        self.skill.setRange(0, 10)
        self.skill.setToolTip("The rider's or driver's skill level (002)")
        self.handling = QSpinBox()
        self.handling.setRange(0, 10)
        self.handling.setToolTip("The mount's or vehicle's handling (002)")
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        form.addRow("Who", self.who)
        form.addRow("Movement", self.paces)
        form.addRow("", self.automated)
        if self.phases:
            form.addRow("Skill", self.skill)
            form.addRow("Handling", self.handling)
        form.addRow(self.preview)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._movers = movers
        self._matched: object = ()
        self.who.editTextChanged.connect(lambda _t: self._text_changed())
        for w in (self.paces, self.skill, self.handling):
            w.valueChanged.connect(lambda _v: self._update())
        self.automated.toggled.connect(lambda _on: self._update())
        i = self.who.findData(mover_id) if mover_id else -1
        self.who.setCurrentIndex(max(i, 0))
        self._text_changed()

    def _text_changed(self) -> None:
        """Picking (or typing) another name loads that mover's values."""
        mid = self._matched_id()
        if mid != self._matched:
            self._matched = mid
            self._picked()
        else:
            self._update()

    def _is_character(self) -> bool:
        cid = self._matched_id()
        return cid is not None and any(c.id == cid for c in self.document.encounter.characters)

    def _matched_id(self) -> str | None:
        text = self.who.currentText().strip()
        i = self.who.findText(text)
        return self.who.itemData(i) if i >= 0 else None

    def _picked(self) -> None:
        mid = self._matched_id()
        m = self._movers.get(mid) if mid else None
        self.paces.setValue(m.paces if m is not None else 0)
        self.automated.setChecked(bool(m.automated) if m is not None else not self._is_character())
        if m is not None and self.phases:
            self.skill.setValue(getattr(m, "skill", 0))
            self.handling.setValue(getattr(m, "handling", 0))
        self._update()

    def _update(self) -> None:
        is_char = self._is_character()
        if not is_char:
            self.automated.setChecked(True)
        self.automated.setEnabled(is_char)
        for w in (self.skill, self.handling):
            w.setEnabled(not self.automated.isChecked())
        paces = self.paces.value()
        if paces <= 0:
            self.preview.setText("0 paces: stops the mover.")
            return
        if self.phases:
            shares = split_evenly(paces, CONTINUOUS_STEPS)
            text = "After each phase: " + ", ".join(
                f"{roman(i + 1)} {n}" for i, n in enumerate(shares)
            )
            if not self.automated.isChecked():
                man = maneuver_phases(self.skill.value(), self.handling.value())
                ok = ", ".join(roman(i + 1) for i, on in enumerate(man) if on) or "none"
                text += f"; maneuvers after phase {ok} (002)"
            else:
                text += "; automated movers go first (002)"
        else:
            per = continuous_schedule(paces)
            text = (
                f"Per segment: {min(per)}–{max(per)} paces (segments 1–20: "
                + " ".join(str(n) for n in per)
                + "); before anyone acts, slowest Quickness first (000)"
            )
        self.preview.setText(text)

    def values(self) -> dict[str, Any]:
        """What the Judge chose: mover id, name, paces, automated, skill, handling."""
        text = self.who.currentText().strip()
        mid = self._matched_id()
        if mid is None:
            slug = "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")
            mid = f"mover_{slug or 'unnamed'}"
        is_char = self._is_character()
        return {
            "mover_id": mid,
            "name": None if is_char else (text or mid),
            "paces": self.paces.value() or None,
            "automated": self.automated.isChecked() or not is_char,
            "skill": self.skill.value(),
            "handling": self.handling.value(),
        }
