"""Traits and skills: each trait's pool, the skills with their levels."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ....errors import RulesError
from ....rules.base import Pool
from ....rules.character import TRAITS, Character, SkillRating
from .fields import (
    _compact,
    _first_error,
    _show,
    _spin,
)
from .host import SheetHost


def _traits_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Traits (pools like 3d10)")
    box.setToolTip("Each trait is a dice pool such as 3d10; leave it empty for none")
    g = QGridLayout(box)
    g.setContentsMargins(6, 4, 6, 4)
    panel.trait_edits = {}
    for i, t in enumerate(TRAITS):
        e = QLineEdit()
        e.setMaximumWidth(70)
        e.editingFinished.connect(lambda t=t: panel._set_trait(t))
        panel.trait_edits[t] = e
        panel.editors[f"traits.{t}"] = e
        r, c = divmod(i, 2)
        g.addWidget(QLabel(t.title()), r, c * 2)
        g.addWidget(e, r, c * 2 + 1)
    panel.editors["traits"] = panel.trait_edits[TRAITS[0]]
    return box


def _skills_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Skills")
    v = QVBoxLayout(box)
    v.setContentsMargins(6, 4, 6, 4)
    panel.skills_table = QTableWidget(0, 4)
    panel.skills_table.setHorizontalHeaderLabels(["Skill", "Level", "Trait", "Pool"])
    panel.skills_table.verticalHeader().hide()
    panel.skills_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    panel.skills_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    hh = panel.skills_table.horizontalHeader()
    hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for c in (1, 2, 3):
        hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
    panel.skills_table.setMinimumHeight(90)
    panel.editors["skills"] = panel.skills_table
    v.addWidget(panel.skills_table)
    row = QHBoxLayout()
    panel.new_skill = QLineEdit()
    panel.new_skill.setPlaceholderText("new skill, e.g. shooting_pistol")
    row.addWidget(panel.new_skill, 1)
    b = QPushButton("Add skill")
    b.clicked.connect(lambda: panel.add_skill(panel.new_skill.text().strip()))
    row.addWidget(b)
    b = QPushButton("Remove")
    b.clicked.connect(panel._remove_selected_skill)
    row.addWidget(b)
    v.addLayout(row)
    return box


def _refresh_skills(panel: SheetHost, c: Character) -> None:
    t = panel.skills_table
    key = (c.id, tuple(sorted(c.skills)))
    if key == getattr(panel, "_skills_key", None):
        # same rows: update in place (rebuilding would delete the box being clicked)
        for r, (name, s) in enumerate(sorted(c.skills.items())):
            lvl = cast(QSpinBox, t.cellWidget(r, 1))  # (what the rows were built with)
            trait = cast(QComboBox, t.cellWidget(r, 2))
            for w in (lvl, trait):
                w.blockSignals(True)
            _show(lvl, s.level)
            trait.setCurrentIndex(trait.findData(s.trait))
            for w in (lvl, trait):
                w.blockSignals(False)
            cell = t.item(r, 3)
            if cell is None:
                continue
            try:
                cell.setText(str(c.skill_pool(name)))
            except RulesError:
                cell.setText("—")
        return
    panel._skills_key = key
    t.setRowCount(0)  # drops the old cell widgets at once
    t.setRowCount(len(c.skills))
    for r, (name, s) in enumerate(sorted(c.skills.items())):
        item = QTableWidgetItem(name.replace("_", " "))
        item.setData(Qt.ItemDataRole.UserRole, name)
        t.setItem(r, 0, item)
        lvl = _spin(-9, 99)
        _show(lvl, s.level)
        lvl.valueChanged.connect(lambda v, n=name: panel._set_skill(n, level=v))
        t.setCellWidget(r, 1, lvl)
        trait = _compact(QComboBox(), 8)
        for tr in TRAITS:
            trait.addItem(tr, tr)
        trait.setCurrentIndex(trait.findData(s.trait))
        trait.activated.connect(
            lambda _i, n=name, cb=trait: panel._set_skill(n, trait=cb.currentData())
        )
        t.setCellWidget(r, 2, trait)
        try:
            pool = str(c.skill_pool(name))
        except RulesError:
            pool = "—"
        t.setItem(r, 3, QTableWidgetItem(pool))
    t.setFixedHeight(min(200, 28 + 30 * max(1, len(c.skills))))


def _set_trait(panel: SheetHost, trait: str) -> None:
    c = panel.character()
    if c is None or panel._refreshing:
        return
    text = panel.trait_edits[trait].text().strip()
    traits = dict(c.traits)
    try:
        if text:
            traits[trait] = Pool.model_validate(text)
        else:
            traits.pop(trait, None)
    except ValueError as e:
        panel._refuse(trait.title(), _first_error(e), panel.trait_edits[trait])
        return
    if traits != c.traits:
        panel._commit("traits", traits, trait.title(), panel.trait_edits[trait])


def _set_skill(
    panel: SheetHost, name: str, level: int | None = None, trait: str | None = None
) -> None:
    c = panel.character()
    if c is None or panel._refreshing:
        return
    skills = {k: v.model_copy() for k, v in c.skills.items()}
    old = skills[name]
    try:
        skills[name] = SkillRating(
            level=old.level if level is None else level,
            trait=old.trait if trait is None else trait,
        )
    except ValueError as e:
        panel._refuse(f"Skill {name}", _first_error(e), panel.skills_table)
        return
    panel._commit("skills", skills, f"skill {name}", panel.skills_table)


def add_skill(panel: SheetHost, name: str, level: int = 1, trait: str = "coordination") -> bool:
    c = panel.character()
    if c is None:
        return False
    key = name.strip().lower().replace(" ", "_")
    if not key:
        panel._refuse("Skill", RulesError("Type the skill's name first."), panel.new_skill)
        return False
    if key in c.skills:
        panel._refuse("Skill", RulesError(f"{c.name} already has {name}."), panel.new_skill)
        return False
    skills = dict(c.skills)
    skills[key] = SkillRating(level=level, trait=trait)
    ok = panel._commit("skills", skills, f"add skill {key}", panel.skills_table)
    if ok:
        panel.new_skill.clear()
    return ok


def _remove_selected_skill(panel: SheetHost) -> None:
    c = panel.character()
    rows = {i.row() for i in panel.skills_table.selectedIndexes()}
    if c is None or not rows:
        return
    items = [panel.skills_table.item(r, 0) for r in rows]
    names = [i.data(Qt.ItemDataRole.UserRole) for i in items if i is not None]
    skills = {k: v for k, v in c.skills.items() if k not in names}
    panel._commit("skills", skills, "remove skill", panel.skills_table)
