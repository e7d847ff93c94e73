"""Encounter > Rules and options: the edition and the optional rules of this encounter.

The pages mark several rules optional (rushing, bleeding, the risk rule, card
hacking…); each is a switch in :class:`~twtw_desktop.rules.editions.OptionalRules`,
saved with the encounter. This dialog is where the Judge turns them on and off. A
change is one undoable step. The edition can only change in narrative time: the
action track of one edition cannot be carried into the other.
"""

from __future__ import annotations

from typing import get_args

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...play.actions import SetRules
from ...rules.editions import EditionId, OptionalRules, load_edition
from ..core.commands import TableActionCommand

#: (field, label, tooltip naming the page) for every on/off switch, in dialog order
SWITCHES: tuple[tuple[str, str, str], ...] = (
    ("rushing", "Rushing actions", "000 Rushing Actions: pay part of an action from the pool"),
    ("bleeding", "Bleeding", "001 Optional Bleeding: 3+ wounds lose Conc every round"),
    ("risk", "Risk rule", "001: a 5th head/torso wound only if the player declared the risk"),
    (
        "total_speed",
        "Total target speed",
        "RULES.md option: the speed penalty (000 Target is moving) counts the firer's and "
        "the target's speeds added, not their relative speed",
    ),
    (
        "weapon_length",
        "Weapon length",
        "000 Optional Rule: Weapon Length: the longer weapon adds 1 to its side's advantage "
        "until the shorter one has hit its wielder's torso or head",
    ),
    ("fields_of_fire", "Fields of fire", "003 (advanced): arcs and the +1 AP switch rule"),
    ("arc_edges", "Arc edges by toggle", "003: a hex half inside an arc reads the card's toggle"),
    (
        "aim_with_acuity",
        "Aim with Acuity",
        "000/001 optional aiming rule: an aimed shot reads Acuity instead of "
        "Coordination (Dexterity) when that pool is better",
    ),
    (
        "pushing_the_limit",
        "Pushing the limit",
        "001 Advanced Rule: fan firing raises a revolver's Rel by 1 (always on in AP v2: "
        "000 Pushing the Limit is not optional)",
    ),
    (
        "cause_effect_uncoupling",
        "Card hacking: uncouple cause and effect",
        "000 card hacking: effect read on a second card",
    ),
    (
        "hit_location_damage_draw",
        "Card hacking: separate hit location card",
        "000 card hacking: hit location read on its own card",
    ),
    (
        "unintended_targets",
        "Unintended targets",
        "000: stray shots may hit others near the line (optional there; on by default)",
    ),
    (
        "dodge_vs_ranged",
        "Dodge against shots",
        "House rule: a dodge also counts against shots and throws from its front "
        "(000 describes it under hand to hand)",
    ),
)

PHASES_CARD_PER = {
    "all": "One card for everyone",
    "side": "One card per side",
    "character": "One card per character",
}


class RulesDialog(QDialog):
    """The edition and the optional rules, with the page each comes from."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules and options")
        self.document = document
        enc = document.encounter
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.edition = QComboBox()
        for eid in get_args(EditionId):
            self.edition.addItem(load_edition(eid).name, eid)
        self.edition.setCurrentIndex(self.edition.findData(enc.edition))
        if document.in_action:
            self.edition.setEnabled(False)
            self.edition.setToolTip("Return to narrative time to change the edition.")
        form.addRow("Edition", self.edition)
        lay.addLayout(form)
        box = QGroupBox("Optional rules")
        grid = QVBoxLayout(box)
        self.checks: dict[str, QCheckBox] = {}
        for name, label, tip in SWITCHES:
            cb = QCheckBox(label)
            cb.setToolTip(tip)
            cb.setChecked(bool(getattr(enc.options, name)))
            self.checks[name] = cb
            grid.addWidget(cb)
        lay.addWidget(box)
        more = QFormLayout()
        self.victory = QSpinBox()
        self.victory.setRange(1, 20)  # the lowest value stands for the page's default
        self.victory.setSpecialValueText("page default (6)")
        self.victory.setValue(enc.options.victory_threshold or 1)
        self.victory.setToolTip(
            "002 Setting Victory Threshold (optional): effect needed per victory of a "
            "complex check (the lowest value means the page's 6)"
        )
        more.addRow("Victory threshold", self.victory)
        self.card_per = QComboBox()
        for key, text in PHASES_CARD_PER.items():
            self.card_per.addItem(text, key)
        self.card_per.setCurrentIndex(self.card_per.findData(enc.options.phases_card_per))
        self.card_per.setToolTip("004 optional resolution: who shares an initiative card")
        more.addRow("Phases initiative", self.card_per)
        self.bonus_pool = QSpinBox()
        self.bonus_pool.setRange(0, 20)
        self.bonus_pool.setSpecialValueText("none")
        self.bonus_pool.setSuffix(" counter(s)")
        self.bonus_pool.setValue(enc.options.bonus_pool)
        posse = sum(1 for c in enc.characters if getattr(c, "side", "") == "posse")
        self.bonus_pool.setToolTip(
            "002 The Bonus Counter: the group's shared counters for the session, generally "
            f"one less than the number of players ({max(posse - 1, 0)} for this posse). "
            "A player holds one at most; spent ones go back at once."
        )
        more.addRow("Bonus pool (002)", self.bonus_pool)
        lay.addLayout(more)
        note = QLabel("Changes are one undo step (Ctrl+Z) and are saved with the encounter.")
        note.setWordWrap(True)
        lay.addWidget(note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def chosen(self) -> tuple[str, OptionalRules]:
        """(edition id, options) as the dialog shows them."""
        values: dict[str, object] = {name: cb.isChecked() for name, cb in self.checks.items()}
        v = self.victory.value()
        values["victory_threshold"] = None if v == self.victory.minimum() else v
        values["phases_card_per"] = self.card_per.currentData()
        values["bonus_pool"] = self.bonus_pool.value()
        options = self.document.encounter.options.model_copy(update=values)
        return self.edition.currentData(), OptionalRules.model_validate(options.model_dump())


class ChangeRulesCommand(TableActionCommand):
    """Set the encounter's edition and optional rules: the table's ``set_rules``
    action, one undoable (and journaled) step. An edition change in action time is
    refused before anything changes."""

    def __init__(self, document, edition_id: str, options: OptionalRules) -> None:
        # validated as the table reads it: an unknown edition id is refused here
        rules = SetRules.model_validate({"edition": edition_id, "options": options})
        super().__init__(document, rules)

    def announce(self) -> None:
        self.document.changed.emit("all")


def edit_rules(window) -> bool:
    """Show the dialog for the window's encounter; True when something changed."""
    doc = window.document
    if doc is None:
        return False
    dlg = RulesDialog(doc, window)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return False
    edition_id, options = dlg.chosen()
    if edition_id == doc.encounter.edition and options == doc.encounter.options:
        return False
    return window._guarded(lambda: doc.push(ChangeRulesCommand(doc, edition_id, options)))
