"""The weapons carried: their state, Reload and Clear jam, adding and removing."""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ....play.actions import Reload
from ....play.gear_actions import ClearJam
from ....rules.character import CarriedWeapon, Character
from .._common import USER_ERRORS
from .fields import (
    _W_COLS,
    _centred,
    _compact,
    _first_error,
    _show,
    _spin,
)
from .host import SheetHost


def _weapons_box(panel: SheetHost) -> QGroupBox:
    box = QGroupBox("Weapons")
    v = QVBoxLayout(box)
    v.setContentsMargins(6, 4, 6, 4)
    panel.weapons_table = QTableWidget(0, len(_W_COLS))
    panel.weapons_table.setHorizontalHeaderLabels(list(_W_COLS))
    panel.weapons_table.verticalHeader().hide()
    panel.weapons_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    panel.weapons_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    hh = panel.weapons_table.horizontalHeader()
    hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for c in range(1, len(_W_COLS)):
        hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
    panel.weapons_table.setMinimumHeight(90)
    panel.editors["weapons"] = panel.weapons_table
    v.addWidget(panel.weapons_table)
    row = QHBoxLayout()
    panel.add_weapon_combo = QComboBox()
    for w in sorted(panel.document.gear.weapons.values(), key=lambda w: w.name):
        panel.add_weapon_combo.addItem(w.name, w.id)
    row.addWidget(panel.add_weapon_combo, 1)
    b = QPushButton("Add weapon")
    b.clicked.connect(lambda: panel.add_weapon(panel.add_weapon_combo.currentData()))
    row.addWidget(b)
    v.addLayout(row)
    row = QHBoxLayout()
    panel.reload_button = QPushButton("Reload")
    panel.reload_button.setToolTip(
        "Load the selected weapon: one cartridge, or all of it for weapons reloaded whole"
        " (in action time the reload is declared on the track)"
    )
    panel.reload_button.clicked.connect(panel._reload_selected)
    row.addWidget(panel.reload_button)
    panel.clear_jam_button = QPushButton("Clear jam")
    panel.clear_jam_button.setToolTip("Clear the selected jammed weapon (000; the gear's AP)")
    panel.clear_jam_button.clicked.connect(panel._clear_jam_selected)
    row.addWidget(panel.clear_jam_button)
    b = QPushButton("Remove weapon")
    b.setToolTip("Remove the selected weapon")
    b.clicked.connect(panel._remove_selected_weapon)
    row.addWidget(b)
    row.addStretch(1)
    v.addLayout(row)
    return box


def _reload_selected(panel: SheetHost) -> None:
    rows = sorted({i.row() for i in panel.weapons_table.selectedIndexes()})
    if not rows:
        panel.message.error("Select a weapon row to reload.")
        return
    panel.reload_weapon(rows[0])


def _refresh_weapons(panel: SheetHost, c: Character) -> None:
    t = panel.weapons_table
    key = (c.id, tuple((w.weapon_id, w.failure) for w in c.weapons))
    if key == getattr(panel, "_weapons_key", None):
        # same rows: update in place (rebuilding would delete the box being clicked)
        for r, cw in enumerate(c.weapons):
            # (the cells hold what _refresh_weapons put there below)
            widgets: list[tuple[Any, str, object]] = []
            for col, field in ((1, "readied"), (2, "cocked"), (5, "fully_loaded")):
                cb = t.cellWidget(r, col).findChild(QCheckBox)
                widgets.append((cb, "setChecked", bool(getattr(cw, field))))
            widgets.append((t.cellWidget(r, 3), "setValue", cw.loaded))
            hand = cast(QComboBox, t.cellWidget(r, 4))
            widgets.append((hand, "setCurrentIndex", hand.findData(cw.hand)))
            for w, setter, value in widgets:
                w.blockSignals(True)
                getattr(w, setter)(value)
                w.blockSignals(False)
        return
    panel._weapons_key = key
    t.setRowCount(0)  # drops the old cell widgets at once
    t.setRowCount(len(c.weapons))
    gear = panel.document.gear.weapons
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
            cb.toggled.connect(lambda on, i=r, f=field: panel.set_weapon(i, f, on))
            t.setCellWidget(r, col, _centred(cb))
        loaded = _spin(-9, 999)
        _show(loaded, cw.loaded)
        loaded.valueChanged.connect(lambda v, i=r: panel.set_weapon(i, "loaded", v))
        t.setCellWidget(r, 3, loaded)
        hand = _compact(QComboBox(), 4)
        hand.addItem("—", None)
        hand.addItem("main", "main")
        hand.addItem("off", "off")
        hand.setCurrentIndex(hand.findData(cw.hand))
        hand.activated.connect(
            lambda _i, i=r, cb=hand: panel.set_weapon(i, "hand", cb.currentData())
        )
        t.setCellWidget(r, 4, hand)
    t.setFixedHeight(min(220, 28 + 32 * max(1, len(c.weapons))))


def set_weapon(panel: SheetHost, index: int, field: str, value: Any) -> bool:
    """Change one state of carried weapon ``index`` (one command on the sheet)."""
    c = panel.character()
    if c is None or panel._refreshing:
        return False
    weapons = [w.model_copy() for w in c.weapons]
    try:
        setattr(weapons[index], field, value)
    except (ValueError, IndexError) as e:
        panel._refuse("Weapon", _first_error(e), panel.weapons_table)
        return False
    label = f"{panel._weapon_name(weapons[index].weapon_id)} {field.replace('_', ' ')}"
    return panel._commit("weapons", weapons, label, panel.weapons_table)


def add_weapon(panel: SheetHost, weapon_id: str | None) -> bool:
    c = panel.character()
    if c is None or not weapon_id:
        return False
    w = panel.document.gear.weapons.get(weapon_id)
    weapons = [x.model_copy() for x in c.weapons]
    weapons.append(CarriedWeapon(weapon_id=weapon_id, loaded=w.capacity if w else 0, readied=False))
    name = w.name if w else weapon_id
    return panel._commit("weapons", weapons, f"add {name}", panel.weapons_table)


def _weapon_name(panel: SheetHost, weapon_id: str) -> str:
    """The catalog's name of a weapon (its id when the catalog has none)."""
    w = panel.document.gear.weapons.get(weapon_id)
    return w.name if w else weapon_id


def _remove_selected_weapon(panel: SheetHost) -> None:
    c = panel.character()
    rows = sorted({i.row() for i in panel.weapons_table.selectedIndexes()})
    if c is None or not rows:
        return
    weapons = [w.model_copy() for i, w in enumerate(c.weapons) if i not in rows]
    panel._commit("weapons", weapons, "remove weapon", panel.weapons_table)


def reload_weapon(panel: SheetHost, index: int) -> bool:
    """Load carried weapon ``index`` through the table's ``reload`` action: one
    cartridge, or the whole weapon when its gear reloads it whole; in action time
    paid on the track. One undoable step; refused with the table's reason."""
    c = panel.character()
    if c is None:
        return False
    try:
        cw = c.weapons[index]
        panel.document.apply(Reload(who=c.id, weapon=cw.weapon_id, slot=index))
    except (*USER_ERRORS, IndexError) as e:
        panel._refuse("Reload", e, panel.weapons_table)
        return False
    panel.message.clear()
    return True


def _clear_jam_selected(panel: SheetHost) -> None:
    c = panel.character()
    rows = sorted({i.row() for i in panel.weapons_table.selectedIndexes()})
    if c is None or not rows:
        panel.message.error("Select a jammed weapon row to clear.")
        return
    try:
        panel.document.apply(ClearJam(who=c.id, slot=rows[0]))
    except USER_ERRORS as e:
        panel._refuse("Clear jam", e, panel.weapons_table)
        return
    panel.message.clear()
