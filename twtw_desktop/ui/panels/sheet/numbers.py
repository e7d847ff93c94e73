"""The sheet's simple fields: name and side, the numbers, the state switches, extras and notes."""

from __future__ import annotations

import json

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
)

from ....errors import RulesError
from ....rules.character import TEMPERAMENTS, Character, Posture
from .fields import (
    _HANDLED,
    BOOL_FIELDS,
    INT_FIELDS,
    _FocusOut,
    _spin,
)
from .host import SheetHost


# -- building ---------------------------------------------------------------------
def _identity_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Identity")
    g = QGridLayout(box)
    g.setContentsMargins(6, 4, 6, 4)
    panel.name_edit = QLineEdit()
    panel.name_edit.editingFinished.connect(
        lambda: panel._commit("name", panel.name_edit.text().strip(), "name")
    )
    panel.editors["name"] = panel.name_edit
    panel.id_edit = QLineEdit()
    panel.id_edit.setToolTip("The sheet's id (tokens refer to it); renaming updates them")
    panel.id_edit.editingFinished.connect(lambda: panel.rename_id(panel.id_edit.text().strip()))
    panel.editors["id"] = panel.id_edit
    panel.side_combo = QComboBox()
    for s in ("posse", "hombres", "neutral"):
        panel.side_combo.addItem(s, s)
    panel.side_combo.activated.connect(
        lambda: panel._commit("side", panel.side_combo.currentData(), "side")
    )
    panel.editors["side"] = panel.side_combo
    panel.posture_combo = QComboBox()
    for p in Posture:
        panel.posture_combo.addItem(p.value, p.value)
    panel.posture_combo.setToolTip(
        "Standing, ducked or prone: the token on the map changes with the sheet. In "
        "action time declare Drop prone / Stand up / Duck on the track to pay the AP "
        "(000 Movement AP Cost); this box is the Judge's free correction."
    )
    panel.posture_combo.activated.connect(
        lambda: panel.set_posture(Posture(panel.posture_combo.currentData()))
    )
    panel.editors["posture"] = panel.posture_combo
    panel.temperament_combo = QComboBox()
    for t in TEMPERAMENTS:
        panel.temperament_combo.addItem(t, t)
    panel.temperament_combo.setToolTip(
        "How the NPC autopilot plays this character: closing in, holding cover, withdrawing "
        "when badly wounded or alone. A house design (the pages have no morale rules): it "
        "changes what the autopilot prefers, never a rule."
    )
    panel.temperament_combo.activated.connect(
        lambda: panel._commit("temperament", panel.temperament_combo.currentData(), "temperament")
    )
    panel.editors["temperament"] = panel.temperament_combo
    g.addWidget(QLabel("Name"), 0, 0)
    g.addWidget(panel.name_edit, 0, 1, 1, 3)
    g.addWidget(QLabel("Id"), 1, 0)
    g.addWidget(panel.id_edit, 1, 1, 1, 3)
    g.addWidget(QLabel("Side"), 2, 0)
    g.addWidget(panel.side_combo, 2, 1)
    g.addWidget(QLabel("Posture"), 2, 2)
    g.addWidget(panel.posture_combo, 2, 3)
    g.addWidget(QLabel("Temperament"), 3, 0)
    g.addWidget(panel.temperament_combo, 3, 1)
    g.setColumnStretch(1, 1)
    g.setColumnStretch(3, 1)
    return box


def _numbers_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Numbers")
    g = QGridLayout(box)
    g.setContentsMargins(6, 4, 6, 4)
    g.setHorizontalSpacing(6)
    panel.int_spins = {}
    for i, (field, (label, tip)) in enumerate(INT_FIELDS.items()):
        s = _spin()
        s.setToolTip(tip)
        s.valueChanged.connect(lambda v, f=field, lab=label: panel._commit(f, v, lab))
        panel.int_spins[field] = s
        panel.editors[field] = s
        lab = QLabel(label)
        lab.setToolTip(tip)
        r, c = divmod(i, 3)
        g.addWidget(lab, r, c * 2)
        g.addWidget(s, r, c * 2 + 1)
    return box


def _state_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("State")
    g = QGridLayout(box)
    g.setContentsMargins(6, 4, 6, 4)
    panel.bool_checks = {}
    for i, (field, label) in enumerate(BOOL_FIELDS.items()):
        cb = QCheckBox(label)
        cb.toggled.connect(lambda on, f=field, lab=label: panel._commit(f, on, lab))
        panel.bool_checks[field] = cb
        panel.editors[field] = cb
        r, c = divmod(i, 3)
        g.addWidget(cb, r, c)
    return box


def _extra_box(panel: SheetHost) -> QGroupBox | None:
    """Generic JSON editors for any sheet field without its own editor."""
    extra = [f for f in Character.model_fields if f not in _HANDLED]
    if not extra:
        return None
    box = QGroupBox("Other fields")
    g = QGridLayout(box)
    panel.extra_edits = {}
    for i, f in enumerate(extra):
        e = QLineEdit()
        e.editingFinished.connect(lambda f=f: panel._set_json(f))
        panel.extra_edits[f] = e
        panel.editors[f] = e
        g.addWidget(QLabel(f.replace("_", " ")), i, 0)
        g.addWidget(e, i, 1)
    return box


def _notes_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Notes")
    v = QVBoxLayout(box)
    v.setContentsMargins(6, 4, 6, 4)
    panel.notes_edit = QPlainTextEdit()
    panel.notes_edit.setMaximumHeight(70)
    panel.notes_edit.installEventFilter(
        _FocusOut(
            lambda: panel._commit("notes", panel.notes_edit.toPlainText(), "notes"),
            panel.notes_edit,
        )
    )
    panel.editors["notes"] = panel.notes_edit
    v.addWidget(panel.notes_edit)
    hv = QLabel("House values — one per line, field: why the number was invented")
    hv.setWordWrap(True)
    v.addWidget(hv)
    panel.house_edit = QPlainTextEdit()
    panel.house_edit.setMaximumHeight(60)
    panel.house_edit.installEventFilter(_FocusOut(panel._set_house_values, panel.house_edit))
    panel.editors["house_values"] = panel.house_edit
    v.addWidget(panel.house_edit)
    return box


def _set_house_values(panel: SheetHost) -> None:
    c = panel.character()
    if c is None or panel._refreshing:
        return
    out: dict[str, str] = {}
    for line in panel.house_edit.toPlainText().splitlines():
        if not line.strip():
            continue
        if ":" not in line:
            panel._refuse(
                "House values",
                RulesError(f"'{line.strip()}' needs the form field: reason."),
                panel.house_edit,
            )
            return
        k, v = line.split(":", 1)
        out[k.strip()] = v.strip()
    panel._commit("house_values", out, "house values", panel.house_edit)


def _set_json(panel: SheetHost, field: str) -> None:
    e = panel.extra_edits[field]
    try:
        value = json.loads(e.text())
    except ValueError as exc:
        panel._refuse(field, RulesError(f"not a value ({getattr(exc, 'msg', exc)})"), e)
        return
    panel._commit(field, value, field.replace("_", " "), e)
