"""The character sheet: every field of :class:`~twtw_desktop.rules.character.Character`
editable with validation, a body diagram of wounds, weapons with their state and
Reload, and add / duplicate / remove characters (NPC templates from the samples).

Each field edit is one :class:`ChangeValueCommand` on the character (nested values —
traits, skills, wounds, weapons — are replaced whole; the command finds the sheet
again by its id, so older edits still undo after a removed character came back).
Posture is the exception: it is one :class:`ChangePostureCommand` for the sheet and
its token together, so the map always shows what the sheet says. A bad value shows the reason above the
sheet, turns the box red, and changes nothing. Adding, duplicating, removing and
renaming touch characters and tokens together, so they are one
:class:`SnapshotCommand` each.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...hexgrid import Hex
from ...hexgrid.hex import hex_spiral
from ...model.encounter import Token
from ...model.map import Terrain
from ...play.actions import Reload
from ...play.catalogue import posture_mismatch
from ...play.gear_actions import ClearJam
from ...rules.base import Pool, WoundLocation
from ...rules.character import TRAITS, CarriedWeapon, Character, Posture, SkillRating
from ..care_dialog import open_first_aid
from ..check_dialog import open_check_dialog
from ..commands import (
    ChangePostureCommand,
    ChangeValueCommand,
    SnapshotCommand,
)
from ..widgets.body_diagram import BodyDiagram
from ._common import USER_ERRORS, MessageLabel, VerticalScroll, error_text

_BAD = "background: #f8c8c8;"

#: Whole-number fields, with their label and tooltip.
INT_FIELDS: dict[str, tuple[str, str]] = {
    "ap": ("AP", "Action points per round (000)"),
    "initiative": ("IN", "Initiative number: the segment of the first counter (000)"),
    "move": ("Move", "Paces for 1 AP walking (000 Movement)"),
    "run": ("Run", "Paces for 1 AP running (000 Movement)"),
    "size": ("Size", "A wound per full Size of deadly damage (000)"),
    "conc_max": ("Conc max", "Concussion when unhurt"),
    "conc": ("Conc", "Concussion left; 0 or less is concussed (001)"),
    "damage_bonus": ("DB", "Damage bonus added to hand-to-hand effects (000)"),
    "quick_draw": ("Quick draw", "Quick Draw level (000 initiative stack bonus)"),
    "bleeding": ("Bleeding", "Conc lost per round (optional bleeding rule, 001)"),
}
BOOL_FIELDS: dict[str, str] = {
    "stunned": "Stunned",
    "unconscious": "Unconscious",
    "concussed": "Concussed",
    "dead": "Dead",
    "out_of_scene": "Out of scene",
    "behind_cover": "Behind cover",
}
#: Fields with a dedicated editor (everything else gets a generic JSON box).
_HANDLED = {
    "id",
    "name",
    "side",
    "posture",
    "traits",
    "skills",
    "wounds",
    "weapons",
    "notes",
    "house_values",
    *INT_FIELDS,
    *BOOL_FIELDS,
}
_WOUND_NAMES = {
    WoundLocation.HEAD: "Head",
    WoundLocation.TORSO: "Torso",
    WoundLocation.RIGHT_ARM: "R arm",
    WoundLocation.LEFT_ARM: "L arm",
    WoundLocation.RIGHT_LEG: "R leg",
    WoundLocation.LEFT_LEG: "L leg",
}
_W_COLS = ("Weapon", "Rdy", "Cock", "Loaded", "Hand", "Full")


class _FocusOut(QObject):
    """Calls back when a text box loses focus (plain text edits have no editingFinished)."""

    def __init__(self, callback, parent: QObject) -> None:
        super().__init__(parent)
        self._cb = callback

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.FocusOut:
            self._cb()
        return False


def _show(spin: QSpinBox, value: int) -> None:
    """Show a model value, clamped to the spin box's range (a value past a 32-bit
    int would raise OverflowError in Qt; the schemas bound them well inside)."""
    spin.setValue(max(spin.minimum(), min(spin.maximum(), int(value))))


def _spin(lo: int = -999, hi: int = 999) -> QSpinBox:
    s = QSpinBox()
    s.setRange(lo, hi)
    s.setKeyboardTracking(False)
    s.setAccelerated(True)
    s.setMinimumWidth(44)
    s.setMaximumWidth(56)
    return s


class SheetPanel(QWidget):
    """One character's sheet, chosen from a list or by selecting its token."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("SheetPanel")
        self._cid: str | None = None
        self._refreshing = False
        self.editors: dict[str, QWidget] = {}

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        head = QHBoxLayout()
        self.chooser = _compact(QComboBox(), 12)
        self.chooser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.chooser.activated.connect(self._chosen)
        head.addWidget(self.chooser, 1)
        self.add_button = QToolButton()
        self.add_button.setText("Add")
        self.add_button.setToolTip("Add a character from the NPC templates")
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_menu = QMenu(self.add_button)
        self.add_button.setMenu(self.add_menu)
        self._fill_templates()
        head.addWidget(self.add_button)
        self.dup_button = QToolButton()
        self.dup_button.setText("Duplicate")
        self.dup_button.clicked.connect(lambda: self.duplicate_character())
        head.addWidget(self.dup_button)
        self.remove_button = QToolButton()
        self.remove_button.setText("Remove")
        self.remove_button.clicked.connect(lambda: self.remove_character())
        head.addWidget(self.remove_button)
        self.check_button = QToolButton()
        self.check_button.setText("Check…")
        self.check_button.setToolTip("Make a check for this character (002; Ctrl+K)")
        self.check_button.clicked.connect(
            lambda: open_check_dialog(self.document, self._cid, self.window())
        )
        head.addWidget(self.check_button)
        outer.addLayout(head)
        self.message = MessageLabel()
        outer.addWidget(self.message)

        self.body = QWidget()
        scroll = VerticalScroll(self.body)
        outer.addWidget(scroll, 1)
        lay = QVBoxLayout(self.body)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(6)

        lay.addWidget(self._identity_box())
        lay.addWidget(self._numbers_box())
        lay.addWidget(self._wounds_box())
        lay.addWidget(self._state_box())
        lay.addWidget(self._weapons_box())
        lay.addWidget(self._traits_box())
        lay.addWidget(self._skills_box())
        extra = self._extra_box()
        if extra is not None:
            lay.addWidget(extra)
        lay.addWidget(self._notes_box())
        lay.addStretch(1)
        for combo in self.findChildren(QComboBox):
            _compact(combo, 6)

        document.changed.connect(self._on_changed)
        document.characterChanged.connect(self._on_character_changed)
        document.selectionChanged.connect(self._on_selection)
        self.refresh_list()
        sel = document.selected_token_id
        if sel is not None:
            self._on_selection(sel)
        elif document.encounter.characters:
            self.show_character(document.encounter.characters[0].id)
        else:
            self.refresh()

    def sizeHint(self) -> QSize:
        return QSize(362, 560)

    # -- building ---------------------------------------------------------------------
    def _identity_box(self) -> QGroupBox:
        box = QGroupBox("Identity")
        g = QGridLayout(box)
        g.setContentsMargins(6, 4, 6, 4)
        self.name_edit = QLineEdit()
        self.name_edit.editingFinished.connect(
            lambda: self._commit("name", self.name_edit.text().strip(), "name")
        )
        self.editors["name"] = self.name_edit
        self.id_edit = QLineEdit()
        self.id_edit.setToolTip("The sheet's id (tokens refer to it); renaming updates them")
        self.id_edit.editingFinished.connect(lambda: self.rename_id(self.id_edit.text().strip()))
        self.editors["id"] = self.id_edit
        self.side_combo = QComboBox()
        for s in ("posse", "hombres", "neutral"):
            self.side_combo.addItem(s, s)
        self.side_combo.activated.connect(
            lambda: self._commit("side", self.side_combo.currentData(), "side")
        )
        self.editors["side"] = self.side_combo
        self.posture_combo = QComboBox()
        for p in Posture:
            self.posture_combo.addItem(p.value, p.value)
        self.posture_combo.setToolTip(
            "Standing, ducked or prone: the token on the map changes with the sheet. In "
            "action time declare Drop prone / Stand up / Duck on the track to pay the AP "
            "(000 Movement AP Cost); this box is the Judge's free correction."
        )
        self.posture_combo.activated.connect(
            lambda: self.set_posture(Posture(self.posture_combo.currentData()))
        )
        self.editors["posture"] = self.posture_combo
        g.addWidget(QLabel("Name"), 0, 0)
        g.addWidget(self.name_edit, 0, 1, 1, 3)
        g.addWidget(QLabel("Id"), 1, 0)
        g.addWidget(self.id_edit, 1, 1, 1, 3)
        g.addWidget(QLabel("Side"), 2, 0)
        g.addWidget(self.side_combo, 2, 1)
        g.addWidget(QLabel("Posture"), 2, 2)
        g.addWidget(self.posture_combo, 2, 3)
        g.setColumnStretch(1, 1)
        g.setColumnStretch(3, 1)
        return box

    def _numbers_box(self) -> QGroupBox:
        box = QGroupBox("Numbers")
        g = QGridLayout(box)
        g.setContentsMargins(6, 4, 6, 4)
        g.setHorizontalSpacing(6)
        self.int_spins: dict[str, QSpinBox] = {}
        for i, (field, (label, tip)) in enumerate(INT_FIELDS.items()):
            s = _spin()
            s.setToolTip(tip)
            s.valueChanged.connect(lambda v, f=field, lab=label: self._commit(f, v, lab))
            self.int_spins[field] = s
            self.editors[field] = s
            lab = QLabel(label)
            lab.setToolTip(tip)
            r, c = divmod(i, 3)
            g.addWidget(lab, r, c * 2)
            g.addWidget(s, r, c * 2 + 1)
        return box

    def _wounds_box(self) -> QGroupBox:
        box = QGroupBox("Wounds")
        h = QHBoxLayout(box)
        h.setContentsMargins(6, 4, 6, 4)
        self.body_diagram = BodyDiagram()
        self.body_diagram.woundClicked.connect(self._wound_clicked)
        self.editors["wounds"] = self.body_diagram
        h.addWidget(self.body_diagram)
        right = QVBoxLayout()
        self.wound_info = QLabel()
        self.wound_info.setWordWrap(True)
        self.wound_info.setStyleSheet("font-weight: bold;")
        right.addWidget(self.wound_info)
        g = QGridLayout()
        self.wound_spins: dict[WoundLocation, QSpinBox] = {}
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
            s.valueChanged.connect(lambda v, lc=loc: self._set_wound(lc, v))
            self.wound_spins[loc] = s
            r, c = divmod(i, 2)
            g.addWidget(QLabel(_WOUND_NAMES[loc]), r, c * 2)
            g.addWidget(s, r, c * 2 + 1)
        right.addLayout(g)
        self.first_aid_button = QPushButton("First aid…")
        self.first_aid_button.setToolTip("Treat this character's wounds, Conc or a faint (001)")
        self.first_aid_button.clicked.connect(
            lambda: open_first_aid(self.document, self._cid, self.window())
        )
        right.addWidget(self.first_aid_button)
        right.addStretch(1)
        h.addLayout(right, 1)
        return box

    def _state_box(self) -> QGroupBox:
        box = QGroupBox("State")
        g = QGridLayout(box)
        g.setContentsMargins(6, 4, 6, 4)
        self.bool_checks: dict[str, QCheckBox] = {}
        for i, (field, label) in enumerate(BOOL_FIELDS.items()):
            cb = QCheckBox(label)
            cb.toggled.connect(lambda on, f=field, lab=label: self._commit(f, on, lab))
            self.bool_checks[field] = cb
            self.editors[field] = cb
            r, c = divmod(i, 3)
            g.addWidget(cb, r, c)
        return box

    def _weapons_box(self) -> QGroupBox:
        box = QGroupBox("Weapons")
        v = QVBoxLayout(box)
        v.setContentsMargins(6, 4, 6, 4)
        self.weapons_table = QTableWidget(0, len(_W_COLS))
        self.weapons_table.setHorizontalHeaderLabels(list(_W_COLS))
        self.weapons_table.verticalHeader().hide()
        self.weapons_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.weapons_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        hh = self.weapons_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(_W_COLS)):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.weapons_table.setMinimumHeight(90)
        self.editors["weapons"] = self.weapons_table
        v.addWidget(self.weapons_table)
        row = QHBoxLayout()
        self.add_weapon_combo = QComboBox()
        for w in sorted(self.document.gear.weapons.values(), key=lambda w: w.name):
            self.add_weapon_combo.addItem(w.name, w.id)
        row.addWidget(self.add_weapon_combo, 1)
        b = QPushButton("Add weapon")
        b.clicked.connect(lambda: self.add_weapon(self.add_weapon_combo.currentData()))
        row.addWidget(b)
        v.addLayout(row)
        row = QHBoxLayout()
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip(
            "Load the selected weapon: one cartridge, or all of it for weapons reloaded whole"
            " (in action time the reload is declared on the track)"
        )
        self.reload_button.clicked.connect(self._reload_selected)
        row.addWidget(self.reload_button)
        self.clear_jam_button = QPushButton("Clear jam")
        self.clear_jam_button.setToolTip("Clear the selected jammed weapon (000; the gear's AP)")
        self.clear_jam_button.clicked.connect(self._clear_jam_selected)
        row.addWidget(self.clear_jam_button)
        b = QPushButton("Remove weapon")
        b.setToolTip("Remove the selected weapon")
        b.clicked.connect(self._remove_selected_weapon)
        row.addWidget(b)
        row.addStretch(1)
        v.addLayout(row)
        return box

    def _reload_selected(self) -> None:
        rows = sorted({i.row() for i in self.weapons_table.selectedIndexes()})
        if not rows:
            self.message.error("Select a weapon row to reload.")
            return
        self.reload_weapon(rows[0])

    def _traits_box(self) -> QGroupBox:
        box = QGroupBox("Traits (pools like 3d10)")
        box.setToolTip("Each trait is a dice pool such as 3d10; leave it empty for none")
        g = QGridLayout(box)
        g.setContentsMargins(6, 4, 6, 4)
        self.trait_edits: dict[str, QLineEdit] = {}
        for i, t in enumerate(TRAITS):
            e = QLineEdit()
            e.setMaximumWidth(70)
            e.editingFinished.connect(lambda t=t: self._set_trait(t))
            self.trait_edits[t] = e
            self.editors[f"traits.{t}"] = e
            r, c = divmod(i, 2)
            g.addWidget(QLabel(t.title()), r, c * 2)
            g.addWidget(e, r, c * 2 + 1)
        self.editors["traits"] = self.trait_edits[TRAITS[0]]
        return box

    def _skills_box(self) -> QGroupBox:
        box = QGroupBox("Skills")
        v = QVBoxLayout(box)
        v.setContentsMargins(6, 4, 6, 4)
        self.skills_table = QTableWidget(0, 4)
        self.skills_table.setHorizontalHeaderLabels(["Skill", "Level", "Trait", "Pool"])
        self.skills_table.verticalHeader().hide()
        self.skills_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.skills_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        hh = self.skills_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in (1, 2, 3):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.skills_table.setMinimumHeight(90)
        self.editors["skills"] = self.skills_table
        v.addWidget(self.skills_table)
        row = QHBoxLayout()
        self.new_skill = QLineEdit()
        self.new_skill.setPlaceholderText("new skill, e.g. shooting_pistol")
        row.addWidget(self.new_skill, 1)
        b = QPushButton("Add skill")
        b.clicked.connect(lambda: self.add_skill(self.new_skill.text().strip()))
        row.addWidget(b)
        b = QPushButton("Remove")
        b.clicked.connect(self._remove_selected_skill)
        row.addWidget(b)
        v.addLayout(row)
        return box

    def _extra_box(self) -> QGroupBox | None:
        """Generic JSON editors for any sheet field without its own editor."""
        extra = [f for f in Character.model_fields if f not in _HANDLED]
        if not extra:
            return None
        box = QGroupBox("Other fields")
        g = QGridLayout(box)
        self.extra_edits: dict[str, QLineEdit] = {}
        for i, f in enumerate(extra):
            e = QLineEdit()
            e.editingFinished.connect(lambda f=f: self._set_json(f))
            self.extra_edits[f] = e
            self.editors[f] = e
            g.addWidget(QLabel(f.replace("_", " ")), i, 0)
            g.addWidget(e, i, 1)
        return box

    def _notes_box(self) -> QGroupBox:
        box = QGroupBox("Notes")
        v = QVBoxLayout(box)
        v.setContentsMargins(6, 4, 6, 4)
        self.notes_edit = QPlainTextEdit()
        self.notes_edit.setMaximumHeight(70)
        self.notes_edit.installEventFilter(
            _FocusOut(
                lambda: self._commit("notes", self.notes_edit.toPlainText(), "notes"),
                self.notes_edit,
            )
        )
        self.editors["notes"] = self.notes_edit
        v.addWidget(self.notes_edit)
        hv = QLabel("House values — one per line, field: why the number was invented")
        hv.setWordWrap(True)
        v.addWidget(hv)
        self.house_edit = QPlainTextEdit()
        self.house_edit.setMaximumHeight(60)
        self.house_edit.installEventFilter(_FocusOut(self._set_house_values, self.house_edit))
        self.editors["house_values"] = self.house_edit
        v.addWidget(self.house_edit)
        return box

    def _fill_templates(self) -> None:
        self.add_menu.clear()
        try:
            from ...rules.samples import sample_characters

            templates = sample_characters()
        except Exception as e:  # a broken samples file must not break the sheet
            act = self.add_menu.addAction(f"(templates unavailable: {e})")
            act.setEnabled(False)
            templates = {}
        for tid, c in templates.items():
            act = self.add_menu.addAction(f"{c.name} ({c.side})")
            act.triggered.connect(lambda _=False, t=tid: self.add_character(t))

    # -- which character -------------------------------------------------------------
    def character(self) -> Character | None:
        if self._cid is None:
            return None
        try:
            return self.document.character(self._cid)
        except KeyError:
            return None

    def refresh_list(self) -> None:
        self.chooser.blockSignals(True)
        self.chooser.clear()
        for c in self.document.encounter.characters:
            flag = " †" if c.dead else (" (out)" if c.out_of_action else "")
            self.chooser.addItem(f"{c.name} — {c.side}{flag}", c.id)
        i = self.chooser.findData(self._cid)
        self.chooser.setCurrentIndex(i)
        self.chooser.blockSignals(False)

    def show_character(self, cid: str | None) -> None:
        self._cid = cid
        i = self.chooser.findData(cid)
        self.chooser.blockSignals(True)
        self.chooser.setCurrentIndex(i)
        self.chooser.blockSignals(False)
        self.message.clear()
        self._clear_marks()
        self.refresh()

    def _chosen(self, index: int) -> None:
        cid = self.chooser.itemData(index)
        self.show_character(cid)
        tok = self.document.token_for(cid) if cid else None
        if tok is not None and self.document.selected_token_id != tok.id:
            self.document.select(tok.id)

    def _on_selection(self, token_id: object) -> None:
        if token_id is None:
            return
        try:
            cid = self.document.token(token_id).character_id
        except KeyError:
            return
        if cid != self._cid:
            self.show_character(cid)

    def _on_changed(self, area: str) -> None:
        if area in ("characters", "all", "file"):
            if self.character() is None:
                chars = self.document.encounter.characters
                self._cid = chars[0].id if chars else None
            self.refresh_list()
            self.refresh()

    def _on_character_changed(self, cid: str) -> None:
        if cid == self._cid:
            self.refresh()

    # -- model → widgets -------------------------------------------------------------
    def refresh(self) -> None:
        c = self.character()
        self.body.setEnabled(c is not None)
        self.dup_button.setEnabled(c is not None)
        self.remove_button.setEnabled(c is not None)
        if c is None:
            return
        self._refreshing = True
        try:
            widgets = [*self.editors.values(), *self.wound_spins.values()]
            for w in widgets:
                w.blockSignals(True)
            self.name_edit.setText(c.name)
            self.id_edit.setText(c.id)
            self.side_combo.setCurrentIndex(self.side_combo.findData(c.side))
            self.posture_combo.setCurrentIndex(self.posture_combo.findData(c.posture.value))
            if posture_mismatch(self.document, c.id) and not self.message.text():
                tok = self.document.token_for(c.id)
                self.message.note(
                    f"The token shows {c.name} {tok.posture.value if tok else '?'}; choose the "
                    "posture again to put the map in step with the sheet."
                )
            for f, s in self.int_spins.items():
                _show(s, getattr(c, f))
            for f, cb in self.bool_checks.items():
                cb.setChecked(bool(getattr(c, f)))
            for t, e in self.trait_edits.items():
                e.setText(str(c.traits[t]) if t in c.traits else "")
            for loc, s in self.wound_spins.items():
                _show(s, c.wounds.get(loc, 0))
            self.body_diagram.set_wounds(c.wounds)
            self._refresh_wound_info(c)
            self._refresh_skills(c)
            self._refresh_weapons(c)
            if not self.notes_edit.hasFocus():
                self.notes_edit.setPlainText(c.notes)
            if not self.house_edit.hasFocus():
                self.house_edit.setPlainText(
                    "\n".join(f"{k}: {v}" for k, v in c.house_values.items())
                )
            for f, e in getattr(self, "extra_edits", {}).items():
                e.setText(json.dumps(_plain(getattr(c, f))))
        finally:
            for w in widgets:
                w.blockSignals(False)
            self._refreshing = False

    def _refresh_wound_info(self, c: Character) -> None:
        ed = self.document.edition
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
        self.wound_info.setText(text)
        self.wound_info.setToolTip(f"From the {ed.name} wound table")

    def _refresh_skills(self, c: Character) -> None:
        t = self.skills_table
        key = (c.id, tuple(sorted(c.skills)))
        if key == getattr(self, "_skills_key", None):
            # same rows: update in place (rebuilding would delete the box being clicked)
            for r, (name, s) in enumerate(sorted(c.skills.items())):
                lvl = t.cellWidget(r, 1)
                trait = t.cellWidget(r, 2)
                for w in (lvl, trait):
                    w.blockSignals(True)
                _show(lvl, s.level)
                trait.setCurrentIndex(trait.findData(s.trait))
                for w in (lvl, trait):
                    w.blockSignals(False)
                try:
                    t.item(r, 3).setText(str(c.skill_pool(name)))
                except RulesError:
                    t.item(r, 3).setText("—")
            return
        self._skills_key = key
        t.setRowCount(0)  # drops the old cell widgets at once
        t.setRowCount(len(c.skills))
        for r, (name, s) in enumerate(sorted(c.skills.items())):
            item = QTableWidgetItem(name.replace("_", " "))
            item.setData(Qt.ItemDataRole.UserRole, name)
            t.setItem(r, 0, item)
            lvl = _spin(-9, 99)
            _show(lvl, s.level)
            lvl.valueChanged.connect(lambda v, n=name: self._set_skill(n, level=v))
            t.setCellWidget(r, 1, lvl)
            trait = _compact(QComboBox(), 8)
            for tr in TRAITS:
                trait.addItem(tr, tr)
            trait.setCurrentIndex(trait.findData(s.trait))
            trait.activated.connect(
                lambda _i, n=name, cb=trait: self._set_skill(n, trait=cb.currentData())
            )
            t.setCellWidget(r, 2, trait)
            try:
                pool = str(c.skill_pool(name))
            except RulesError:
                pool = "—"
            t.setItem(r, 3, QTableWidgetItem(pool))
        t.setFixedHeight(min(200, 28 + 30 * max(1, len(c.skills))))

    def _refresh_weapons(self, c: Character) -> None:
        t = self.weapons_table
        key = (c.id, tuple((w.weapon_id, w.failure) for w in c.weapons))
        if key == getattr(self, "_weapons_key", None):
            # same rows: update in place (rebuilding would delete the box being clicked)
            for r, cw in enumerate(c.weapons):
                widgets = []
                for col, field in ((1, "readied"), (2, "cocked"), (5, "fully_loaded")):
                    cb = t.cellWidget(r, col).findChild(QCheckBox)
                    widgets.append((cb, "setChecked", bool(getattr(cw, field))))
                widgets.append((t.cellWidget(r, 3), "setValue", cw.loaded))
                hand = t.cellWidget(r, 4)
                widgets.append((hand, "setCurrentIndex", hand.findData(cw.hand)))
                for w, setter, value in widgets:
                    w.blockSignals(True)
                    getattr(w, setter)(value)
                    w.blockSignals(False)
            return
        self._weapons_key = key
        t.setRowCount(0)  # drops the old cell widgets at once
        t.setRowCount(len(c.weapons))
        gear = self.document.gear.weapons
        for r, cw in enumerate(c.weapons):
            w = gear.get(cw.weapon_id)
            name = w.name if w else f"{cw.weapon_id} (not in the gear catalog)"
            name += f" — {cw.failure}" if cw.failure else ""  # 000 equipment failure
            item = QTableWidgetItem(name)
            tip = cw.weapon_id
            if w is not None:
                tip = f"{w.name}: capacity {w.capacity}, reload {w.reload_ap} AP ({w.reload_unit})"
            item.setToolTip(tip)
            t.setItem(r, 0, item)
            for col, field in ((1, "readied"), (2, "cocked"), (5, "fully_loaded")):
                cb = QCheckBox()
                cb.setChecked(bool(getattr(cw, field)))
                if field == "cocked" and w is not None and w.cock_ap is None:
                    cb.setEnabled(False)
                    cb.setToolTip("This weapon never needs cocking")
                cb.toggled.connect(lambda on, i=r, f=field: self.set_weapon(i, f, on))
                t.setCellWidget(r, col, _centred(cb))
            loaded = _spin(-9, 999)
            _show(loaded, cw.loaded)
            loaded.valueChanged.connect(lambda v, i=r: self.set_weapon(i, "loaded", v))
            t.setCellWidget(r, 3, loaded)
            hand = _compact(QComboBox(), 4)
            hand.addItem("—", None)
            hand.addItem("main", "main")
            hand.addItem("off", "off")
            hand.setCurrentIndex(hand.findData(cw.hand))
            hand.activated.connect(
                lambda _i, i=r, cb=hand: self.set_weapon(i, "hand", cb.currentData())
            )
            t.setCellWidget(r, 4, hand)
        t.setFixedHeight(min(220, 28 + 32 * max(1, len(c.weapons))))

    # -- widgets → model (one command per edit) --------------------------------------
    def _clear_marks(self) -> None:
        for w in self.editors.values():
            w.setStyleSheet("")
        for s in self.wound_spins.values():
            s.setStyleSheet("")

    def _refuse(self, label: str, exc: BaseException, widget: QWidget | None) -> None:
        self.message.error(f"{label}: {error_text(exc)} — nothing changed.")
        self.refresh()
        if widget is not None:
            widget.setStyleSheet(_BAD)

    def _commit(self, field: str, value: Any, label: str, widget: QWidget | None = None) -> bool:
        """Set ``field`` to ``value`` as one undoable command; refuse bad values."""
        if self._refreshing:
            return False
        c = self.character()
        if c is None:
            return False
        if field == "posture":
            return self.set_posture(value)
        widget = widget or self.editors.get(field)
        if getattr(c, field) == value:
            return True
        try:
            self._cross_check(c, field, value)
            cmd = ChangeValueCommand(
                self.document, c, field, value, "characters", text=f"{c.name}: {label}"
            )
            self.document.push(cmd)
        except USER_ERRORS as e:
            self._refuse(label, e, widget)
            return False
        self.message.clear()
        self._clear_marks()
        return True

    def set_posture(self, posture: Posture | str) -> bool:
        """Change the shown character's posture on the sheet and on its token together
        (one undoable step; the sheet is the truth the token mirrors)."""
        c = self.character()
        if c is None or self._refreshing:
            return False
        try:
            new = Posture(posture)
            if c.posture is new and not posture_mismatch(self.document, c.id):
                return True
            self.document.push(
                ChangePostureCommand(
                    self.document, c.id, new, text=f"{c.name}: posture {new.value}"
                )
            )
        except USER_ERRORS as e:
            self._refuse("Posture", e, self.posture_combo)
            return False
        self.message.clear()
        self._clear_marks()
        return True

    def _cross_check(self, c: Character, field: str, value: Any) -> None:
        """Checks that need more than one field (the schema checks one at a time)."""
        if field == "conc" and isinstance(value, int) and value > c.conc_max:
            raise RulesError(f"Conc cannot exceed the maximum of {c.conc_max}.")
        if field == "conc_max" and isinstance(value, int) and value < c.conc and value >= 0:
            raise RulesError(
                f"Conc max cannot be below the current Conc {c.conc}; lower Conc first."
            )
        if field == "name" and not str(value).strip():
            raise RulesError("A character needs a name.")
        if field == "skills":
            for name, s in value.items():
                if s.trait not in c.traits:
                    raise RulesError(
                        f"Skill {name} rolls with {s.trait}, which is not on the sheet."
                    )
        if field == "traits":
            for name, s in c.skills.items():
                if s.trait not in value:
                    raise RulesError(
                        f"Skill {name} rolls with {s.trait}; keep that trait on the sheet."
                    )
        if field == "weapons":
            gear = self.document.gear.weapons
            for cw in value:
                w = gear.get(cw.weapon_id)
                if w is None:
                    raise RulesError(f"There is no {cw.weapon_id} in the gear catalog.")
                if cw.loaded > w.capacity:
                    raise RulesError(f"A {w.name} holds at most {w.capacity} rounds.")
                if cw.cocked and w.cock_ap is None:
                    raise RulesError(f"A {w.name} is never cocked.")

    def _set_trait(self, trait: str) -> None:
        c = self.character()
        if c is None or self._refreshing:
            return
        text = self.trait_edits[trait].text().strip()
        traits = dict(c.traits)
        try:
            if text:
                traits[trait] = Pool.model_validate(text)
            else:
                traits.pop(trait, None)
        except ValueError as e:
            self._refuse(trait.title(), _first_error(e), self.trait_edits[trait])
            return
        if traits != c.traits:
            self._commit("traits", traits, trait.title(), self.trait_edits[trait])

    def _set_skill(self, name: str, level: int | None = None, trait: str | None = None) -> None:
        c = self.character()
        if c is None or self._refreshing:
            return
        skills = {k: v.model_copy() for k, v in c.skills.items()}
        old = skills[name]
        try:
            skills[name] = SkillRating(
                level=old.level if level is None else level,
                trait=old.trait if trait is None else trait,
            )
        except ValueError as e:
            self._refuse(f"Skill {name}", _first_error(e), self.skills_table)
            return
        self._commit("skills", skills, f"skill {name}", self.skills_table)

    def add_skill(self, name: str, level: int = 1, trait: str = "coordination") -> bool:
        c = self.character()
        if c is None:
            return False
        key = name.strip().lower().replace(" ", "_")
        if not key:
            self._refuse("Skill", RulesError("Type the skill's name first."), self.new_skill)
            return False
        if key in c.skills:
            self._refuse("Skill", RulesError(f"{c.name} already has {name}."), self.new_skill)
            return False
        skills = dict(c.skills)
        skills[key] = SkillRating(level=level, trait=trait)
        ok = self._commit("skills", skills, f"add skill {key}", self.skills_table)
        if ok:
            self.new_skill.clear()
        return ok

    def _remove_selected_skill(self) -> None:
        c = self.character()
        rows = {i.row() for i in self.skills_table.selectedIndexes()}
        if c is None or not rows:
            return
        names = [self.skills_table.item(r, 0).data(Qt.ItemDataRole.UserRole) for r in rows]
        skills = {k: v for k, v in c.skills.items() if k not in names}
        self._commit("skills", skills, "remove skill", self.skills_table)

    def _wound_clicked(self, loc: str, delta: int) -> None:
        c = self.character()
        if c is None:
            return
        wl = WoundLocation(loc)
        self._set_wound(wl, c.wounds.get(wl, 0) + delta)

    def _set_wound(self, loc: WoundLocation, value: int) -> None:
        c = self.character()
        if c is None or self._refreshing:
            return
        wounds = dict(c.wounds)
        wounds[loc] = value
        self._commit("wounds", wounds, f"{_WOUND_NAMES[loc]} wounds", self.wound_spins[loc])

    def set_weapon(self, index: int, field: str, value: Any) -> bool:
        """Change one state of carried weapon ``index`` (one command on the sheet)."""
        c = self.character()
        if c is None or self._refreshing:
            return False
        weapons = [w.model_copy() for w in c.weapons]
        try:
            setattr(weapons[index], field, value)
        except (ValueError, IndexError) as e:
            self._refuse("Weapon", _first_error(e), self.weapons_table)
            return False
        label = f"{self._weapon_name(weapons[index].weapon_id)} {field.replace('_', ' ')}"
        return self._commit("weapons", weapons, label, self.weapons_table)

    def add_weapon(self, weapon_id: str | None) -> bool:
        c = self.character()
        if c is None or not weapon_id:
            return False
        w = self.document.gear.weapons.get(weapon_id)
        weapons = [x.model_copy() for x in c.weapons]
        weapons.append(
            CarriedWeapon(weapon_id=weapon_id, loaded=w.capacity if w else 0, readied=False)
        )
        name = w.name if w else weapon_id
        return self._commit("weapons", weapons, f"add {name}", self.weapons_table)

    def _weapon_name(self, weapon_id: str) -> str:
        """The catalog's name of a weapon (its id when the catalog has none)."""
        w = self.document.gear.weapons.get(weapon_id)
        return w.name if w else weapon_id

    def _remove_selected_weapon(self) -> None:
        c = self.character()
        rows = sorted({i.row() for i in self.weapons_table.selectedIndexes()})
        if c is None or not rows:
            return
        weapons = [w.model_copy() for i, w in enumerate(c.weapons) if i not in rows]
        self._commit("weapons", weapons, "remove weapon", self.weapons_table)

    def reload_weapon(self, index: int) -> bool:
        """Load carried weapon ``index`` through the table's ``reload`` action: one
        cartridge, or the whole weapon when its gear reloads it whole; in action time
        paid on the track. One undoable step; refused with the table's reason."""
        c = self.character()
        if c is None:
            return False
        try:
            cw = c.weapons[index]
            self.document.apply(Reload(who=c.id, weapon=cw.weapon_id, slot=index))
        except (*USER_ERRORS, IndexError) as e:
            self._refuse("Reload", e, self.weapons_table)
            return False
        self.message.clear()
        return True

    def _clear_jam_selected(self) -> None:
        c = self.character()
        rows = sorted({i.row() for i in self.weapons_table.selectedIndexes()})
        if c is None or not rows:
            self.message.error("Select a jammed weapon row to clear.")
            return
        try:
            self.document.apply(ClearJam(who=c.id, slot=rows[0]))
        except USER_ERRORS as e:
            self._refuse("Clear jam", e, self.weapons_table)
            return
        self.message.clear()

    def _set_house_values(self) -> None:
        c = self.character()
        if c is None or self._refreshing:
            return
        out: dict[str, str] = {}
        for line in self.house_edit.toPlainText().splitlines():
            if not line.strip():
                continue
            if ":" not in line:
                self._refuse(
                    "House values",
                    RulesError(f"'{line.strip()}' needs the form field: reason."),
                    self.house_edit,
                )
                return
            k, v = line.split(":", 1)
            out[k.strip()] = v.strip()
        self._commit("house_values", out, "house values", self.house_edit)

    def _set_json(self, field: str) -> None:
        e = self.extra_edits[field]
        try:
            value = json.loads(e.text())
        except ValueError as exc:
            self._refuse(field, RulesError(f"not a value ({exc.msg})"), e)
            return
        self._commit(field, value, field.replace("_", " "), e)

    # -- characters and their tokens (snapshot commands) ------------------------------
    def _free_hex(self) -> Hex | None:
        doc = self.document
        m = doc.map
        sel = doc.selected_token()
        start = sel.at if sel is not None else m.hex_at(m.cols // 2, m.rows // 2)
        for h in hex_spiral(start, max(m.cols, m.rows)):
            if not m.contains(h) or m.terrain_at(h) is Terrain.IMPASSABLE:
                continue
            if doc.encounter.token_at(h) is None:
                return h
        return None

    def _unique_id(self, base: str) -> str:
        taken = {c.id for c in self.document.encounter.characters}
        if base not in taken:
            return base
        i = 2
        while f"{base}-{i}" in taken:
            i += 1
        return f"{base}-{i}"

    def _unique_name(self, base: str) -> str:
        taken = {c.name for c in self.document.encounter.characters}
        if base not in taken:
            return base
        i = 2
        while f"{base} {i}" in taken:
            i += 1
        return f"{base} {i}"

    def _insert(self, c: Character, text: str) -> bool:
        doc = self.document
        token_ids = {t.id for t in doc.encounter.tokens}

        def go() -> None:
            h = self._free_hex()
            doc.encounter.characters.append(c)
            if h is not None:
                tid = f"t_{c.id}"
                while tid in token_ids:
                    tid += "_"
                doc.encounter.tokens.append(Token(id=tid, character_id=c.id, hex=(h.q, h.r)))
            # the action-time engine reads the new sheet from its next round on
            update = getattr(doc.track, "update_characters", None) if doc.track else None
            if callable(update):
                update(doc.encounter.characters)
            doc.log(f"{c.name} joins the encounter.", "sheet")

        try:
            doc.push(SnapshotCommand(doc, text, go, {"characters", "tokens"}))
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return False
        self.message.clear()
        tok = doc.token_for(c.id)
        self.show_character(c.id)
        if tok is not None:
            doc.select(tok.id)
        return True

    def add_character(self, template_id: str) -> bool:
        """Add a fresh copy of an NPC template (one undoable step)."""
        from ...rules.samples import npc_template

        try:
            c = npc_template(template_id)
        except KeyError as e:
            self.message.error(error_text(e))
            return False
        c.name = self._unique_name(c.name)
        return self._insert(c, f"Add {c.name}")

    def duplicate_character(self) -> bool:
        src = self.character()
        if src is None:
            return False
        c = src.model_copy(deep=True)
        c.id = self._unique_id(f"{src.id}-copy")
        c.name = self._unique_name(src.name)
        return self._insert(c, f"Duplicate {src.name}")

    def remove_character(self) -> bool:
        """Remove the shown character and its token (one undoable step)."""
        c = self.character()
        if c is None:
            return False
        doc = self.document
        if getattr(doc, "in_action", False):
            self.message.error(
                "Characters cannot leave during action time; mark them dead or out of the "
                "scene instead, or return to narrative time first."
            )
            return False
        cid = c.id

        def go() -> None:
            enc = doc.encounter
            enc.characters[:] = [x for x in enc.characters if x.id != cid]
            enc.tokens[:] = [t for t in enc.tokens if t.character_id != cid]
            doc.log(f"{c.name} leaves the encounter.", "sheet")

        sel = doc.selected_token()
        if sel is not None and sel.character_id == cid:
            doc.select(None)
        try:
            doc.push(SnapshotCommand(doc, f"Remove {c.name}", go, {"characters", "tokens"}))
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return False
        chars = doc.encounter.characters
        self.show_character(chars[0].id if chars else None)
        return True

    def rename_id(self, new_id: str) -> bool:
        """Change the sheet's id and every token pointing at it (one undoable step)."""
        c = self.character()
        if c is None or self._refreshing or new_id == c.id:
            return False
        doc = self.document
        try:
            if not new_id:
                raise RulesError("An id cannot be empty.")
            if any(x.id == new_id for x in doc.encounter.characters):
                raise RulesError(f"Another character already has the id {new_id}.")
            if getattr(doc, "in_action", False):
                raise RulesError("Ids cannot change during action time (the track keys on them).")
        except RulesError as e:
            self._refuse("Id", e, self.id_edit)
            return False
        old = c.id

        def go() -> None:
            c.id = new_id
            for t in doc.encounter.tokens:
                if t.character_id == old:
                    t.character_id = new_id

        doc.push(SnapshotCommand(doc, f"Rename {old} to {new_id}", go, {"characters", "tokens"}))
        self._cid = new_id
        self.refresh_list()
        self.refresh()
        return True


def _compact(combo: QComboBox, chars: int = 8) -> QComboBox:
    """Let a combo box shrink to a few characters (long names would widen the dock)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    return combo


def _centred(w: QWidget) -> QWidget:
    box = QWidget()
    h = QHBoxLayout(box)
    h.setContentsMargins(0, 0, 0, 0)
    h.setAlignment(Qt.AlignmentFlag.AlignCenter)
    h.addWidget(w)
    return box


def _first_error(e: BaseException) -> BaseException:
    """A pydantic error as one plain sentence."""
    errs = getattr(e, "errors", None)
    if callable(errs):
        try:
            err = errs()[0]
            return ValueError(str(err.get("msg", e)).removeprefix("Value error, "))
        except (IndexError, TypeError):
            pass
    return e


def _plain(v: Any) -> Any:
    if hasattr(v, "model_dump"):
        return v.model_dump(mode="json")
    return v
