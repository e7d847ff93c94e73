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

from PySide6.QtCore import QSize
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...play.catalogue import posture_mismatch
from ...rules.base import WoundLocation
from ...rules.character import Character
from ..dialogs.care_dialog import open_first_aid
from ..dialogs.check_dialog import open_check_dialog
from ..widgets.body_diagram import BodyDiagram
from ._common import MessageLabel, VerticalScroll
from .sheet import edits, numbers, roster, skills, weapons, wounds
from .sheet.fields import (
    _compact,
    _plain,
    _show,
)


class SheetPanel(QWidget):
    """One character's sheet, chosen from a list or by selecting its token."""

    # built by the parts (sheet/numbers.py, sheet/wounds.py, sheet/weapons.py,
    # sheet/skills.py): the boxes of the sheet
    name_edit: QLineEdit
    id_edit: QLineEdit
    side_combo: QComboBox
    temperament_combo: QComboBox
    posture_combo: QComboBox
    int_spins: dict[str, QSpinBox]
    bool_checks: dict[str, QCheckBox]
    body_diagram: BodyDiagram
    wound_info: QLabel
    wound_spins: dict[WoundLocation, QSpinBox]
    first_aid_button: QPushButton
    weapons_table: QTableWidget
    add_weapon_combo: QComboBox
    reload_button: QPushButton
    clear_jam_button: QPushButton
    trait_edits: dict[str, QLineEdit]
    skills_table: QTableWidget
    new_skill: QLineEdit
    extra_edits: dict[str, QLineEdit]
    notes_edit: QPlainTextEdit
    house_edit: QPlainTextEdit
    #: what the skills and weapons tables were last built from (a change rebuilds them)
    _skills_key: Any = None
    _weapons_key: Any = None
    #: a refresh waits until the sheet is shown (it was behind another tab, or its dock
    #: closed, when the table or the selection moved)
    _stale = False
    _dock: QDockWidget | None = None

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

    def _open_first_aid(self) -> None:
        """First aid for the character on show (001 First Aid)."""
        open_first_aid(self.document, self._cid, self.window())

    def sizeHint(self) -> QSize:
        return QSize(362, 560)

    # The handlers of each part: functions of the panel, one idea a file under sheet/
    _identity_box = numbers._identity_box
    _numbers_box = numbers._numbers_box
    _state_box = numbers._state_box
    _extra_box = numbers._extra_box
    _notes_box = numbers._notes_box
    _set_house_values = numbers._set_house_values
    _set_json = numbers._set_json

    _wounds_box = wounds._wounds_box
    _refresh_wound_info = wounds._refresh_wound_info
    _wound_clicked = wounds._wound_clicked
    _set_wound = wounds._set_wound

    _weapons_box = weapons._weapons_box
    _reload_selected = weapons._reload_selected
    _refresh_weapons = weapons._refresh_weapons
    set_weapon = weapons.set_weapon
    add_weapon = weapons.add_weapon
    _weapon_name = weapons._weapon_name
    _remove_selected_weapon = weapons._remove_selected_weapon
    reload_weapon = weapons.reload_weapon
    _clear_jam_selected = weapons._clear_jam_selected

    _traits_box = skills._traits_box
    _skills_box = skills._skills_box
    _refresh_skills = skills._refresh_skills
    _set_trait = skills._set_trait
    _set_skill = skills._set_skill
    add_skill = skills.add_skill
    _remove_selected_skill = skills._remove_selected_skill

    _fill_templates = roster._fill_templates
    _free_hex = roster._free_hex
    _unique_id = roster._unique_id
    _unique_name = roster._unique_name
    _insert = roster._insert
    add_character = roster.add_character
    duplicate_character = roster.duplicate_character
    remove_character = roster.remove_character
    rename_id = roster.rename_id

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
        # a table step's "characters" signal follows its ids: refreshed there once
        if cid == self._cid and not self.document.announcing_step:
            self.refresh()

    # -- model → widgets -------------------------------------------------------------
    def _out_of_sight(self) -> bool:
        """Hidden inside a shown window: behind another tab of its dock area (the
        Attack panel's, while F6 runs the round on) or in a closed dock. Filling two
        hundred boxes nobody sees took about 12 ms of each step that moved the
        selection; the sheet refreshes when it is shown instead (a sheet on its own,
        not shown, refreshes at once as before)."""
        return self.window().isVisible() and self.visibleRegion().isEmpty()

    def showEvent(self, event: QShowEvent) -> None:
        self._watch_dock()
        if self._stale:
            self.refresh()  # before the sheet is painted: never a stale frame
        super().showEvent(event)

    def _watch_dock(self) -> None:
        """A tab behind another in a dock area stays "visible" to Qt (placed off the
        window): its dock's visibilityChanged says when its tab comes in front."""
        dock = self.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None and dock is not self._dock:
            self._dock = dock
            dock.visibilityChanged.connect(self._dock_shown)

    def _dock_shown(self, visible: bool) -> None:
        if visible and self._stale:
            self.refresh()

    def refresh(self) -> None:
        if self._out_of_sight():
            self._stale = True
            return
        self._stale = False
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
            self.temperament_combo.setCurrentIndex(self.temperament_combo.findData(c.temperament))
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

    _clear_marks = edits._clear_marks
    _refuse = edits._refuse
    _commit = edits._commit
    set_posture = edits.set_posture
    _cross_check = edits._cross_check
