"""First aid and rest from the window (001 Healing; 000/001 Wound Effects).

* **First aid…** (Encounter menu, a token's right-click menu, the sheet's Wounds box):
  who treats whom — a wound (the location, or the worst not yet treated), Conc or an
  unconscious patient — with the pool, the TN and what a success does shown before
  any card is drawn. It builds the table's ``first_aid`` action
  (:mod:`twtw_desktop.play.care_actions`).
* **Rest and heal…** (Encounter menu): between fights, the chosen characters rest for
  a while and, with a healer, get the scene's healing checks; the table shows each
  one's wound level and Conc before and after. One ``rest`` action.

Each is one undo step with its log line; a refusal stays in the dialog and changes
nothing. With a printed deck the Judge types the cards drawn, in order.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...play.care_actions import MAX_REST_MINUTES, FirstAid, Rest, duration_text
from ...rules import healing as H
from ...rules.character import Character
from ..core.document import EncounterDocument
from .action_dialog import ActionDialog, first_line, pool_lines, selected_character

#: what the treatment box offers: (label, the action's ``treat``)
TREATMENTS = (
    ("A wound (Medicine, the skilled only)", "wound"),
    ("Conc (anyone, Simple 3; narrative time)", "conc"),
    ("Revive the unconscious (anyone, Standard 5)", "revive"),
)
#: the rest's length: (label, minutes); the spin box takes any other
DURATIONS = (
    ("10 minutes", 10),
    ("1 hour", 60),
    ("A night (8 hours)", 480),
    ("A day", 24 * 60),
    ("Other (minutes)", 0),
)


def _cards_typed(text: str) -> tuple[int, ...]:
    """Card numbers typed as "12, 40" (ValueError naming what is wrong)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not all(p.isdigit() for p in parts):
        raise ValueError("Cards are the numbers of the cards drawn, separated by commas.")
    return tuple(int(p) for p in parts)


def _medicine(c: Character, skill: str) -> int:
    rating = c.skills.get(skill)
    return rating.level if rating is not None else 0


def wound_text(c: Character, edition) -> str:
    """ "Heavy (3): torso 3, left arm 1" — the wound level and the wounded areas."""
    if c.dead:
        return "dead"
    areas = ", ".join(f"{H.where(loc)} {n}" for loc, n in H.wounded_locations(c))
    if not areas:
        return "unhurt"
    return f"{c.wound_level_name(edition)} ({c.wound_level}): {areas}"


def state_text(c: Character) -> str:
    flags = [
        name
        for name, on in (
            ("dead", c.dead),
            ("unconscious", c.unconscious),
            ("concussed", c.concussed),
            ("stunned", c.stunned),
            ("out of scene", c.out_of_scene),
        )
        if on
    ]
    if c.bleeding:
        flags.append(f"bleeding {c.bleeding}")
    return ", ".join(flags) or "—"


class FirstAidDialog(ActionDialog):
    """Who treats whom, and what; the preview before the card."""

    def __init__(
        self,
        document: EncounterDocument,
        patient: str | None = None,
        healer: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(document, "First aid", "first_aid_dialog", parent)
        table = document.table
        skill = table.edition.healing.skill
        chars = list(document.encounter.characters)
        patient_id = table.actor(patient)[0].id if patient else None
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.patient = QComboBox()
        for c in chars:
            self.patient.addItem(c.name, c.id)
        if patient_id is not None:
            self.patient.setCurrentIndex(self.patient.findData(patient_id))
        form.addRow("Patient", self.patient)
        self.healer = QComboBox()
        for c in sorted(chars, key=lambda c: -_medicine(c, skill)):
            level = _medicine(c, skill)
            self.healer.addItem(f"{c.name} ({skill.title()} {level})" if level else c.name, c.id)
        if healer is not None:
            self.healer.setCurrentIndex(self.healer.findData(table.actor(healer)[0].id))
        elif (
            self.healer.count() > 1
            and patient_id is not None
            and self.healer.currentData() == patient_id
            and _medicine(table.character(patient_id), skill) == 0
        ):
            self.healer.setCurrentIndex(1)  # an unskilled patient: someone else treats
        form.addRow("Healer", self.healer)
        self.treat = QComboBox()
        for label, value in TREATMENTS:
            self.treat.addItem(label, value)
        form.addRow("Treat", self.treat)
        self.location = QComboBox()
        self.location.setToolTip("The area treated: one first aid check per wounded area (001)")
        form.addRow("Where", self.location)
        self.cards = QLineEdit()
        self.cards.setPlaceholderText("drawn from the deck")
        self.cards.setToolTip("With a printed deck: the numbers of the cards drawn, in order")
        form.addRow("Cards", self.cards)
        lay.addLayout(form)
        self._finish(lay, "Give first aid", "care")
        self.go.clicked.connect(self.give)
        self.patient.currentIndexChanged.connect(self._pick_treatment)
        self.patient.currentIndexChanged.connect(self._fill_locations)
        for sig in (
            self.healer.currentIndexChanged,
            self.treat.currentIndexChanged,
            self.location.currentIndexChanged,
            self.cards.textChanged,
        ):
            sig.connect(self.refresh)
        self._pick_treatment()
        self._fill_locations()

    def _pick_treatment(self) -> None:
        """An unconscious patient is revived first; one with no wound gets Conc."""
        cid = self.patient.currentData()
        if cid is None:
            return
        c = self.document.character(cid)
        value = "revive" if c.unconscious else ("wound" if c.wound_level else "conc")
        self.treat.setCurrentIndex(self.treat.findData(value))

    def _fill_locations(self) -> None:
        cid = self.patient.currentData()
        self.location.blockSignals(True)
        self.location.clear()
        self.location.addItem("The worst not yet treated", None)
        if cid is not None:
            c = self.document.character(cid)
            for loc, n in H.wounded_locations(c):
                care = c.wound_care.get(loc)
                note = f", {care}" if care else ""
                self.location.addItem(
                    f"{H.where(loc).capitalize()} — {n} wound(s){note}", loc.value
                )
        self.location.blockSignals(False)
        self.refresh()

    def action(self) -> FirstAid:
        healer, patient = self.healer.currentData(), self.patient.currentData()
        if healer is None or patient is None:
            raise ValueError("There is nobody to give or take first aid.")
        fields: dict[str, Any] = {
            "who": healer,
            "patient": patient,
            "treat": self.treat.currentData(),
        }
        if self.treat.currentData() == "wound" and self.location.currentData():
            fields["location"] = self.location.currentData()
        cards = _cards_typed(self.cards.text())
        if cards:
            fields["typed_cards"] = cards
        return FirstAid.model_validate(fields)

    def refresh(self) -> None:
        self.location.setEnabled(self.treat.currentData() == "wound")
        p = self._preview()
        if p is None:
            return
        parts = pool_lines(p)
        parts.append(f"On a success: {p['on_success']}")
        parts.append(f"Cost: {p['cost']}")
        self._show("\n".join(parts), p.get("why_not"))

    def give(self) -> None:
        """Apply the first aid as one undo step; a refusal stays in the dialog."""
        if self.apply_action():
            self.accept()


class RestDialog(ActionDialog):
    """Between fights: who rests, how long, who heals; before and after per character."""

    COLUMNS = ("Character", "Wounds before", "Wounds after", "Conc", "State after")

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, "Rest and heal", "rest_dialog", parent)
        self.done_ = False
        self.before: dict[str, Character] = {}
        lay = QVBoxLayout(self)
        intro = QLabel(
            "Between fights (001 Healing): Conc comes back 1 a minute, stuns are over, the "
            "unconscious wake after 6 hours and wounds are bound (house). With a healer "
            "skilled in Medicine, each wounded area gets the scene's check: a success "
            "improves it one level."
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.duration = QComboBox()
        for label, minutes in DURATIONS:
            self.duration.addItem(label, minutes)
        self.duration.setCurrentIndex(1)
        self.minutes = QSpinBox()
        self.minutes.setRange(1, MAX_REST_MINUTES)
        self.minutes.setValue(60)
        self.minutes.setSuffix(" min")
        form.addRow("How long", self.duration)
        form.addRow("Minutes", self.minutes)
        self.healer = QComboBox()
        self.healer.addItem("Nobody (no healing checks)", None)
        skill = document.table.edition.healing.skill
        for c in document.encounter.characters:
            level = _medicine(c, skill)
            if level and not c.out_of_action:
                self.healer.addItem(f"{c.name} ({skill.title()} {level})", c.id)
        if self.healer.count() > 1:
            self.healer.setCurrentIndex(1)
        form.addRow("Healer", self.healer)
        self.cards = QLineEdit()
        self.cards.setPlaceholderText("drawn from the deck")
        self.cards.setToolTip("With a printed deck: the cards drawn for the checks, in order")
        form.addRow("Cards", self.cards)
        lay.addLayout(form)

        self.grid = QTableWidget(0, len(self.COLUMNS))
        self.grid.setObjectName("rest_table")
        self.grid.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.grid.verticalHeader().setVisible(False)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        hdr = self.grid.horizontalHeader()
        hdr.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hdr.setStretchLastSection(True)
        lay.addWidget(self.grid, 1)
        self._finish(lay, "Rest", "care")
        self.go.clicked.connect(self.rest)
        self.duration.currentIndexChanged.connect(self._duration_chosen)
        self.minutes.valueChanged.connect(self.refresh)
        self.healer.currentIndexChanged.connect(self.refresh)
        self.cards.textChanged.connect(self.refresh)
        self.grid.itemChanged.connect(lambda _item: self.refresh())
        self._fill()
        self.resize(940, 500)

    def _fill(self) -> None:
        chars = [c for c in self.document.encounter.characters if not c.dead]
        posse = [c.id for c in chars if c.side == "posse"] or [c.id for c in chars]
        self.grid.blockSignals(True)
        self.grid.setRowCount(len(chars))
        for row, c in enumerate(chars):
            item = QTableWidgetItem(c.name)
            item.setData(Qt.ItemDataRole.UserRole, c.id)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            on = c.id in posse
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.grid.setItem(row, 0, item)
            for col in range(1, len(self.COLUMNS)):
                self.grid.setItem(row, col, QTableWidgetItem(""))
        self.grid.blockSignals(False)
        self.refresh()

    def _duration_chosen(self) -> None:
        minutes = self.duration.currentData()
        self.minutes.setEnabled(not minutes)
        if minutes:
            self.minutes.setValue(minutes)
        self.refresh()

    def chosen(self) -> list[str]:
        out = []
        for row in range(self.grid.rowCount()):
            item = self._item(row, 0)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(item.data(Qt.ItemDataRole.UserRole))
        return out

    def set_chosen(self, ids: list[str]) -> None:
        for row in range(self.grid.rowCount()):
            item = self._item(row, 0)
            on = item.data(Qt.ItemDataRole.UserRole) in ids
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def action(self) -> Rest:
        who = self.chosen()
        if not who:
            raise ValueError("Tick the characters who rest.")
        fields: dict[str, Any] = {"patients": who, "minutes": self.minutes.value()}
        if self.healer.currentData():
            fields["healer"] = self.healer.currentData()
        cards = _cards_typed(self.cards.text())
        if cards:
            fields["typed_cards"] = cards
        return Rest.model_validate(fields)

    def _item(self, row: int, col: int) -> QTableWidgetItem:
        item = self.grid.item(row, col)
        assert item is not None  # every cell is filled in _fill
        return item

    def _row_of(self, cid: str) -> int:
        for row in range(self.grid.rowCount()):
            if self._item(row, 0).data(Qt.ItemDataRole.UserRole) == cid:
                return row
        return -1

    def _set(self, row: int, col: int, text: str) -> None:
        self.grid.blockSignals(True)
        self._item(row, col).setText(text)
        self.grid.blockSignals(False)

    def refresh(self) -> None:
        """Each character's wounds and Conc now and after the rest (the healing
        checks' outcome is known only once the cards are drawn)."""
        if self.done_:
            return
        ed = self.document.table.edition
        chosen = set(self.chosen())
        healer = self.healer.currentData()
        minutes = self.minutes.value()
        for row in range(self.grid.rowCount()):
            cid = self._item(row, 0).data(Qt.ItemDataRole.UserRole)
            c = self.document.character(cid)
            self._set(row, 1, wound_text(c, ed))
            if cid not in chosen:
                for col in (2, 3, 4):
                    self._set(row, col, "")
                continue
            after, _why = H.rest(c, minutes, ed)
            checks = len(H.healable(after)) if healer else 0
            self._set(
                row, 2, wound_text(after, ed) + (f" — {checks} healing check(s)" if checks else "")
            )
            self._set(row, 3, f"{c.conc} → {after.conc} / {c.conc_max}")
            self._set(row, 4, state_text(after))
        try:
            act = self.action()
        except ValueError as e:
            self._show(None, first_line(e))
            return
        why = self.document.table.why_not(act)
        self._show(f"Rest {duration_text(minutes)} for {len(chosen)} character(s).", why)

    def rest(self) -> None:
        """Apply the rest as one undo step and show what it did; a second click closes."""
        if self.done_:
            self.accept()
            return
        try:
            act = self.action()
        except ValueError as e:
            self.message.setText(first_line(e))
            return
        self.before = {
            cid: self.document.character(cid).model_copy(deep=True) for cid in act.patients
        }
        if not self.apply_action(act):
            return
        self.done_ = True
        ed = self.document.table.edition
        for cid, old in self.before.items():
            row = self._row_of(cid)
            c = self.document.character(cid)
            self._set(row, 1, wound_text(old, ed))
            self._set(row, 2, wound_text(c, ed))
            self._set(row, 3, f"{old.conc} → {c.conc} / {c.conc_max}")
            self._set(row, 4, state_text(c))
        self.preview_label.setText(self.event.text)
        self.message.setText("")
        self.go.setText("Close")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setEnabled(False)
        for w in (self.duration, self.minutes, self.healer, self.cards):
            w.setEnabled(False)
        self.grid.blockSignals(True)
        for row in range(self.grid.rowCount()):  # the ticks are spent: read-only now
            item = self._item(row, 0)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsUserCheckable)
        self.grid.blockSignals(False)


def open_first_aid(
    document: EncounterDocument | None, patient: str | None = None, parent: QWidget | None = None
) -> bool:
    """Show the first aid dialog (``patient``: a token or character id); True when given."""
    if document is None:
        return False
    return FirstAidDialog(document, patient, parent=parent).exec() == QDialog.DialogCode.Accepted


def open_rest(document: EncounterDocument | None, parent: QWidget | None = None) -> bool:
    """Show the rest dialog; True when the posse rested."""
    if document is None:
        return False
    return RestDialog(document, parent).exec() == QDialog.DialogCode.Accepted


def first_aid_action(parent: Any, document: Any, who: str) -> QAction:
    """A token's (or track row's) "First aid…" entry: ``who`` is the patient."""
    act = QAction("First aid…", parent)
    act.setObjectName("act_token_first_aid")
    act.setStatusTip("Treat this character's wounds, Conc or unconsciousness (001 Healing)")
    act.triggered.connect(lambda: open_first_aid(document, who))
    return act


def install_care_dialogs(window) -> tuple[QAction, QAction]:
    """Encounter ▸ First aid… and Encounter ▸ Rest and heal…"""
    aid = QAction("&First aid…", window)
    aid.setObjectName("act_first_aid")
    aid.setStatusTip("Treat a wound, Conc or an unconscious character (001 Healing)")
    aid.triggered.connect(
        lambda: (
            open_first_aid(window.document, selected_character(window.document), window)
            if window.document is not None
            else None
        )
    )
    rest = QAction("Rest and &heal…", window)
    rest.setObjectName("act_rest")
    rest.setStatusTip("Between fights: Conc back, stuns over, wounds bound and healed (001)")
    rest.triggered.connect(lambda: open_rest(window.document, window))
    window.encounter_menu.addSeparator()
    window.encounter_menu.addAction(aid)
    window.encounter_menu.addAction(rest)
    window.act_first_aid = aid
    window.act_rest = rest
    return aid, rest
