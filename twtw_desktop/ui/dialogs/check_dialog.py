"""Encounter ▸ Make a check… (Ctrl+K): any check of 002 from the window.

The dialog builds the table's ``check`` action (:mod:`twtw_desktop.play.check_actions`)
— who, trait and skill, the difficulty by name or as a TN, direct and row
adjustments, impetus, and for a complex check the victories needed, the victory
threshold and the task's name — and shows the pool, the TN and the victories already
collected before any card is drawn. With a printed deck the Judge types the card's
number. Making the check is one undo step; the log line says what the card did. A
refusal is shown in the dialog, which stays open, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...play.bonus_actions import SPENDS
from ...play.check_actions import Check
from ...rules.base import DIFFICULTIES
from ...rules.character import TRAITS
from ...rules.editions import victory_threshold
from ..core.document import EncounterDocument
from .action_dialog import ActionDialog, pool_lines, selected_character

#: the difficulty box's last entry: a TN typed in the spin box beside it
OTHER_TN = "Other TN"


def _trait_label(trait: str) -> str:
    return "Coordination (Dexterity)" if trait == "coordination" else trait.title()


class CheckDialog(ActionDialog):
    """Who checks what against which TN; the preview before the card."""

    def __init__(
        self, document: EncounterDocument, who: str | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(document, "Make a check", "check_dialog", parent)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.who = QComboBox()
        for c in document.encounter.characters:
            self.who.addItem(c.name, c.id)
        if who is not None and self.who.findData(who) >= 0:
            self.who.setCurrentIndex(self.who.findData(who))
        form.addRow("Who", self.who)
        self.trait = QComboBox()
        for t in TRAITS:
            self.trait.addItem(_trait_label(t), t)
        form.addRow("Trait", self.trait)
        self.skill = QComboBox()
        self.skill.setEditable(True)
        self.skill.setToolTip("A skill on the sheet, another name (unskilled: the trait's pool)")
        form.addRow("Skill", self.skill)
        self.difficulty = QComboBox()
        for name, tn in DIFFICULTIES.items():
            self.difficulty.addItem(f"{name.title()} ({tn})", name)
        self.difficulty.addItem(OTHER_TN, None)
        self.difficulty.setCurrentIndex(self.difficulty.findData("standard"))
        self.tn = QSpinBox()
        self.tn.setRange(0, 50)
        self.tn.setValue(5)
        self.tn.setToolTip("The TN when the difficulty is not one of 002's names")
        form.addRow("Difficulty (002)", self.difficulty)
        form.addRow("TN", self.tn)
        self.modifier = QSpinBox()
        self.modifier.setRange(-20, 20)
        self.modifier.setToolTip("A direct adjustment to the result (002)")
        form.addRow("Result modifier", self.modifier)
        self.rows = QSpinBox()
        self.rows.setRange(-4, 4)
        self.rows.setToolTip("A row adjustment: dice added to or taken from the pool (002)")
        form.addRow("Row adjustment", self.rows)
        self.columns = QSpinBox()
        self.columns.setRange(-4, 4)
        self.columns.setToolTip(
            "A column adjustment (002): the effect grid's die type shifted for the victories "
            "of a complex check — a lower result stays below the unshifted one, a higher one "
            "above it; never on the cause grid"
        )
        form.addRow("Column adjustment", self.columns)
        self.impetus = QCheckBox("Impetus invoked (a bump per 3 over the TN)")
        form.addRow("", self.impetus)
        self.full_attention = QCheckBox("Needs full attention (8 AP in action time)")
        form.addRow("", self.full_attention)
        self.secondary = QCheckBox("Secondary action: on the card of this character's last action")
        self.secondary.setToolTip(
            "000 Combining Combat and Non-Combat Actions: the secondary action reads the "
            "primary action's card, using the second highest die (no card is drawn)"
        )
        form.addRow("", self.secondary)
        self.moving = QCheckBox("Involves movement (a climb, a ride)")
        self.moving.setToolTip(
            "000 Carrying Loaded Weapons: a stowed, fully loaded gun may go off on this "
            "check's card (a calamity, or a wrench in its malfunction range)"
        )
        form.addRow("", self.moving)
        self.counter = QComboBox()
        self.counter.addItem("keep it", None)
        for key, (name, value, where) in SPENDS.items():
            self.counter.addItem(f"{name} +{value} ({where})", key)
        self.counter.setToolTip(
            "002 Spending the Counter: the character's bonus counter on this check's result "
            "(Aces! and As I planned! need an effect read: a complex check)"
        )
        form.addRow("Bonus counter", self.counter)
        lay.addLayout(form)

        self.complex = QGroupBox("Complex check (002): victories over several actions")
        self.complex.setCheckable(True)
        self.complex.setChecked(False)
        cform = QFormLayout(self.complex)
        self.victories = QSpinBox()
        self.victories.setRange(1, 50)
        self.victories.setValue(3)
        cform.addRow("Victories needed", self.victories)
        self.threshold = QSpinBox()
        self.threshold.setRange(0, 20)
        self.threshold.setToolTip("Effect per victory (002 Setting Victory Threshold)")
        cform.addRow("Victory threshold", self.threshold)
        self.task = QLineEdit()
        self.task.setPlaceholderText("the skill's name")
        self.task.setToolTip("The check's name on the sheet: the same name goes on with it")
        cform.addRow("Task", self.task)
        self.helps = QComboBox()
        self.helps.addItem("their own task", None)
        for other in document.encounter.characters:
            self.helps.addItem(other.name, other.id)
        self.helps.setToolTip(
            "002 Complex Checks: 'multiple characters may collaborate to produce [...] "
            "more victories' — this check's victories count on that character's task"
        )
        cform.addRow("Helping with", self.helps)
        lay.addWidget(self.complex)

        card_form = QFormLayout()
        self.card = QLineEdit()
        self.card.setPlaceholderText("drawn from the deck")
        self.card.setToolTip("The number of the card drawn from a printed deck")
        card_form.addRow("Card", self.card)
        self.more_cards = QLineEdit()
        self.more_cards.setPlaceholderText("when an exceptional cell reads on: 12, 40")
        self.more_cards.setToolTip("The further cards drawn from a printed deck, in order")
        card_form.addRow("Further cards", self.more_cards)
        lay.addLayout(card_form)

        self._finish(lay, "Make the check", "check")
        #: the dialog's button (:attr:`go`) by its name here
        self.make = self.go
        self.make.clicked.connect(self.make_check)

        self.who.currentIndexChanged.connect(self._fill_skills)
        self.skill.currentTextChanged.connect(self._skill_chosen)
        for sig in (
            self.trait.currentIndexChanged,
            self.difficulty.currentIndexChanged,
            self.tn.valueChanged,
            self.modifier.valueChanged,
            self.rows.valueChanged,
            self.columns.valueChanged,
            self.impetus.toggled,
            self.full_attention.toggled,
            self.secondary.toggled,
            self.moving.toggled,
            self.counter.currentIndexChanged,
            self.complex.toggled,
            self.victories.valueChanged,
            self.threshold.valueChanged,
            self.task.textChanged,
            self.helps.currentIndexChanged,
            self.card.textChanged,
            self.more_cards.textChanged,
        ):
            sig.connect(self.refresh)
        self._fill_skills()

    # -- building the action ------------------------------------------------------------

    def _fill_skills(self) -> None:
        cid = self.who.currentData()
        self.skill.blockSignals(True)
        self.skill.clear()
        self.skill.addItem("")
        if cid is not None:
            for name in self.document.character(cid).skills:
                self.skill.addItem(name)
        self.skill.blockSignals(False)
        enc = self.document.encounter
        self.threshold.setSpecialValueText(
            f"the encounter's ({victory_threshold(self.document.edition, enc.options)})"
        )
        self.refresh()

    def _skill_chosen(self, name: str) -> None:
        cid = self.who.currentData()
        if cid is not None:
            rating = self.document.character(cid).skills.get(name.strip())
            if rating is not None:
                self.trait.setCurrentIndex(self.trait.findData(rating.trait))
        self.refresh()

    def action(self) -> Check:
        """The check as the dialog shows it (ValueError naming a bad field)."""
        cid = self.who.currentData()
        if cid is None:
            raise ValueError("There is no character to make the check.")
        fields: dict[str, Any] = {"who": cid, "trait": self.trait.currentData()}
        skill = self.skill.currentText().strip()
        if skill:
            fields["skill"] = skill
        name = self.difficulty.currentData()
        fields["difficulty"] = name if name is not None else self.tn.value()
        if self.modifier.value():
            fields["modifier"] = self.modifier.value()
        if self.rows.value():
            fields["rows"] = self.rows.value()
        if self.columns.value():
            fields["columns"] = self.columns.value()
        fields["impetus"] = self.impetus.isChecked()
        fields["full_attention"] = self.full_attention.isChecked()
        if self.secondary.isChecked():
            fields["secondary"] = True
        if self.moving.isChecked():
            fields["moving"] = True
        if self.counter.currentData() is not None:
            fields["counter"] = self.counter.currentData()
        if self.complex.isChecked():
            fields["victories"] = self.victories.value()
            if self.threshold.value():
                fields["threshold"] = self.threshold.value()
            if self.task.text().strip():
                fields["task"] = self.task.text().strip()
            if self.helps.currentData() is not None:
                fields["helps"] = self.helps.currentData()
        card = self.card.text().strip()
        if card:
            if not card.isdigit():
                raise ValueError(f"The card is a number from the printed deck, not {card!r}.")
            fields["card"] = int(card)
        more = [m.strip() for m in self.more_cards.text().split(",") if m.strip()]
        if more:
            if not all(m.isdigit() for m in more):
                raise ValueError("Further cards are card numbers separated by commas.")
            fields["more_cards"] = [int(m) for m in more]
        return Check.model_validate(fields)

    def refresh(self) -> None:
        """The pool, the TN and the progress so far, before the card."""
        self.tn.setEnabled(self.difficulty.currentData() is None)
        p = self._preview()
        if p is None:
            return
        parts = pool_lines(p)
        if p.get("result_modifier"):
            parts.append(f"· result modifier {p['result_modifier']:+d}")
        parts.append(f"· a bump per full {p['bump_every']} over the TN")
        if "victories_needed" in p:
            parts.append(
                f"Victories: {p['progress']} of {p['victories_needed']} so far, one per "
                f"{p['threshold']} of effect {p['effect']}"
            )
        parts.append(f"Cost: {p['cost']}")
        self._show("\n".join(parts), p.get("why_not"))

    def make_check(self) -> None:
        """Apply the check as one undo step; a refusal stays in the dialog."""
        if self.apply_action():
            self.accept()


def open_check_dialog(
    document: EncounterDocument | None, who: str | None = None, parent: QWidget | None = None
) -> bool:
    """Show the dialog; True when a check was made."""
    if document is None:
        return False
    dlg = CheckDialog(document, who, parent)
    return dlg.exec() == QDialog.DialogCode.Accepted


def install_check_dialog(window) -> QAction:
    """Encounter ▸ Make a check… (Ctrl+K) for the window's document."""
    act = QAction("Make a &check…", window)
    act.setObjectName("act_check")
    act.setShortcut(QKeySequence("Ctrl+K"))
    act.setStatusTip("Any check of 002: trait + skill against a difficulty, complex checks")

    def go() -> None:
        doc = window.document
        if doc is not None:
            open_check_dialog(doc, selected_character(doc), window)

    act.triggered.connect(go)
    window.addAction(act)
    window.encounter_menu.addAction(act)
    window.act_check = act
    return act
