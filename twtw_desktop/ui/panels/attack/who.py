"""Who attacks whom with what: the attacker, the target, the weapon (its state filled
in the mode row below them)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QWidget,
)

from ....play.attack import (
    cock_first_needed,
    default_weapon_index,
    nearest_enemy,
    out_of_sight,
    usable_weapons,
)
from .._common import find_map_view
from .controls import (
    _button,
    _combo,
    _fan_capable,
    _fill_second,
)
from .host import AttackHost


class WhoTargetBox(QWidget):
    """Who attacks whom with what: the attacker, the target and the weapon — pinned
    above the panel's scrolling part, so they stay in view while the drawn card shows
    (issue #25)."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        g = QGridLayout(self)
        g.setContentsMargins(0, 0, 0, 0)
        g.setHorizontalSpacing(4)
        g.setVerticalSpacing(2)
        self.shooter_label = QLabel()
        self.shooter_label.setStyleSheet("font-weight: bold;")
        g.addWidget(QLabel("Attacker"), 0, 0)
        g.addWidget(self.shooter_label, 0, 1, 1, 2)
        self.target_combo = _combo(10)
        self.target_combo.activated.connect(lambda _i: target_chosen(panel))
        self.pick_button = _button("Pick…", "Click the target's token on the map")
        self.pick_button.clicked.connect(panel.pick_on_map)
        g.addWidget(QLabel("Target"), 1, 0)
        g.addWidget(self.target_combo, 1, 1)
        g.addWidget(self.pick_button, 1, 2)
        self.weapon_combo = _combo(10)
        self.weapon_combo.activated.connect(lambda _i: panel._weapon_changed())
        g.addWidget(QLabel("Weapon"), 2, 0)
        g.addWidget(self.weapon_combo, 2, 1, 1, 2)
        g.setColumnStretch(1, 1)


# ======================================================================= inputs
def shooter_token(panel: AttackHost) -> str | None:
    return panel._shooter


def target_token(panel: AttackHost) -> str | None:
    return panel.target_combo.currentData()


def target_chosen(panel: AttackHost) -> None:
    """The Judge chose the target (the list, Pick…): it stays while figures move."""
    panel._target_by_hand = True
    panel._inputs_changed()


def auto_target(panel: AttackHost) -> str | None:
    """The target the list shows after a change: the Judge's choice, else the
    nearest enemy in sight as the figures stand now (a shooter selected, then moved,
    gets the enemy now nearest, never the one nearest where it stood)."""
    if panel._target_by_hand or panel._shooter is None:
        return panel.target_token()
    try:
        shooter = panel.document.token(panel._shooter)
    except KeyError:
        return None
    return nearest_enemy(panel.document.table, shooter, panel.geometry_cache)


def mode(panel: AttackHost) -> str:
    for m, b in panel.mode_buttons.items():
        if b.isChecked():
            return m
    return "ranged"


def _fill_targets(panel: AttackHost, keep: str | None) -> None:
    doc = panel.document
    panel.target_combo.blockSignals(True)
    panel.target_combo.clear()
    panel.target_combo.addItem("— choose a target —", None)
    me = None
    if panel._shooter:
        try:
            me = doc.character_of(panel._shooter)
        except KeyError:
            me = None
    # enemies first, then the shooter's own side, each nearest first; sides marked
    here = doc.token(panel._shooter).at if me is not None and panel._shooter else None
    shooter = doc.token(panel._shooter) if here is not None and panel._shooter else None
    grey = QColor("#808080")
    listed = []
    for t in doc.encounter.tokens:
        if t.id == panel._shooter:
            continue
        try:
            c = doc.character(t.character_id)
        except KeyError:
            continue
        d = t.at.distance(here) if here is not None else 0
        own = me is not None and c.side == me.side
        listed.append((own, d, c.name, t.id, c))
    listed.sort(key=lambda x: (x[0], x[1], x[2]))
    for own, d, _name, tid, c in listed:
        label = c.name
        if here is not None:
            label += f" ({d} p)"
        if me is not None:
            label += " · ally" if own else f" · {c.side}"
        if c.dead:
            label += " †"
        elif c.out_of_action:
            label += " (down)"
        # an enemy out of sight is listed greyed, saying why (the auto-target skips it)
        hidden = out_of_sight(shooter, doc.token(tid), panel.geometry_cache) if shooter else None
        if hidden is not None and not own:
            label += f" — {hidden}"
        panel.target_combo.addItem(label, tid)
        if hidden is not None and not own:
            at = panel.target_combo.count() - 1
            panel.target_combo.setItemData(at, grey, Qt.ItemDataRole.ForegroundRole)
            panel.target_combo.setItemData(at, hidden, Qt.ItemDataRole.ToolTipRole)
    i = panel.target_combo.findData(keep) if keep else -1
    panel.target_combo.setCurrentIndex(max(i, 0))
    panel.target_combo.blockSignals(False)
    _fill_second(panel.fan_second_combo, panel.target_combo, "then nobody", "then ")
    _fill_second(panel.burst_second_combo, panel.target_combo, "nobody")
    _fill_second(panel.burst_third_combo, panel.target_combo, "nobody")
    _fill_second(panel.series_combo, panel.target_combo, "— next target —")


def _fill_weapons(panel: AttackHost, keep: int | None = None) -> None:
    doc = panel.document
    panel.weapon_combo.blockSignals(True)
    panel.weapon_combo.clear()
    shooter = None
    if panel._shooter:
        try:
            shooter = doc.character_of(panel._shooter)
        except KeyError:
            shooter = None
    if shooter is not None:
        mode = panel.mode()
        if mode == "melee":
            panel.weapon_combo.addItem("bare hands", None)
        for i, w in usable_weapons(doc.table, shooter, mode):  # type: ignore[arg-type]
            panel.weapon_combo.addItem(w.name, i)
        if keep is None:
            keep = default_weapon_index(doc.table, shooter, doc.token(panel._shooter), mode)  # type: ignore[arg-type]
        j = panel.weapon_combo.findData(keep)
        panel.weapon_combo.setCurrentIndex(max(j, 0))
    panel.weapon_combo.blockSignals(False)
    panel._auto_cock()


def _auto_cock(panel: AttackHost) -> None:
    """Tick "cock first" when the chosen gun needs its hammer cocked and is not."""
    plan_weapon = panel._weapon()
    panel.cock_check.blockSignals(True)
    panel.draw_check.blockSignals(True)
    if plan_weapon is None:
        panel.cock_check.setChecked(False)
        panel.cock_check.setEnabled(False)
        panel.draw_check.setChecked(False)
        panel.draw_check.setEnabled(False)
    else:
        w, cw = plan_weapon
        panel.cock_check.setEnabled(w.cock_ap is not None and not cw.cocked)
        panel.cock_check.setChecked(cock_first_needed(w, cw) and panel.mode() == "ranged")
        holstered = not cw.readied and panel.mode() == "ranged"
        panel.draw_check.setEnabled(holstered)
        panel.draw_check.setChecked(holstered)  # draw and shoot: one action, one cost
        panel._fill_bursts(w)
        panel.shot_buttons["fan"].setEnabled(_fan_capable(w))
        state = []
        if w.is_ranged:
            state.append(f"{cw.loaded}/{w.capacity} loaded")
            if w.cock_ap is not None:
                state.append("cocked" if cw.cocked else "uncocked")
        if not cw.readied:
            state.append("not readied")
        panel.weapon_state.setText(", ".join(state))
    if plan_weapon is None:
        panel.weapon_state.setText("")
        panel._fill_bursts(None)
    panel.cock_check.blockSignals(False)
    panel.draw_check.blockSignals(False)


def _fill_bursts(panel: AttackHost, weapon) -> None:
    """The burst choice, shown for a weapon with more than one burst (000)."""
    modes = list(getattr(weapon, "burst_modes", None) or []) if weapon is not None else []
    keep = panel.burst_combo.currentData()
    panel.burst_combo.blockSignals(True)
    panel.burst_combo.clear()
    for m in sorted(modes):
        panel.burst_combo.addItem(f"burst {m}", m)
    i = panel.burst_combo.findData(keep)
    panel.burst_combo.setCurrentIndex(max(i, 0))
    panel.burst_combo.blockSignals(False)
    panel.burst_combo.setVisible(len(modes) > 1 and panel.mode() == "ranged")
    panel._sync_burst_row()


def _has_burst(panel: AttackHost) -> bool:
    plan_weapon = panel._weapon()
    if plan_weapon is None:
        return False
    w = plan_weapon[0]
    return bool(w.burst_modes or w.burst)


def _weapon(panel: AttackHost):
    idx = panel.weapon_combo.currentData()
    if idx is None or panel._shooter is None:
        return None
    try:
        shooter = panel.document.character_of(panel._shooter)
        cw = shooter.weapons[idx]
        return panel.document.gear.weapon(cw.weapon_id), cw
    except (KeyError, IndexError):
        return None


# ======================================================================= actions
def set_shooter(panel: AttackHost, token_id: str | None) -> None:
    if token_id != panel._shooter and panel._held is not None and panel.current is not None:
        panel.put_back()  # another figure chosen before Apply: that attack is not made
    panel._held = None
    panel._held_key = None
    if token_id != panel._shooter:
        panel._series = []  # another shooter: a new declaration
        panel.message.clear()  # "Declared: …" was the last shooter's, not this one's
    panel._shooter = token_id
    panel._target_by_hand = False
    panel._pending = (False, False)  # what a step left to read again is read here
    doc = panel.document
    name = "— select a token on the map —"
    if token_id is not None:
        try:
            name = doc.character_of(token_id).name
        except KeyError:
            panel._shooter = None
    panel.shooter_label.setText(name if panel._shooter else "— select a token on the map —")
    # a new shooter gets the nearest enemy in sight, never the last shooter's target
    keep = None
    if panel._shooter is not None:
        keep = nearest_enemy(doc.table, doc.token(panel._shooter), panel.geometry_cache)
    panel._fill_targets(keep)
    panel._fill_weapons()
    panel._strays_hit_shown = False
    panel.last_outcome = None
    panel._sync_series_row()
    panel.clear_preview()
    panel.recompute()


def set_target(panel: AttackHost, token_id: str | None) -> None:
    i = panel.target_combo.findData(token_id) if token_id else 0
    panel.target_combo.setCurrentIndex(max(i, 0))
    panel._target_by_hand = token_id is not None
    panel._inputs_changed()


def set_mode(panel: AttackHost, mode: str) -> None:
    panel.mode_buttons[mode].setChecked(True)
    panel.shot_row.setVisible(mode != "melee")
    panel.aim_row.setVisible(mode == "ranged")
    panel.melee_row.setVisible(mode == "melee")
    panel.skill_adv_row.setVisible(mode == "melee")
    panel.improvised_row.setVisible(mode == "melee")
    panel.choose_loc_row.setVisible(mode == "melee")
    panel._sync_defense_row()
    panel.fan_row.setVisible(mode == "ranged" and panel.shot_kind() == "fan")
    panel._fill_weapons()
    panel._inputs_changed()


def pick_on_map(panel: AttackHost) -> bool:
    """Ask the map view to let the Judge click the target (A's ``pick_target``)."""
    view = find_map_view(panel.document)
    if view is None or not hasattr(view, "pick_target"):
        panel.message.note("No map to pick from here: choose the target in the list.")
        return False
    panel.message.note("Click the target on the map (Esc cancels).")
    view.pick_target(panel._picked)
    return True


def _picked(panel: AttackHost, token_id: str | None) -> None:
    if token_id is None:
        panel.message.clear()
        return
    if token_id == panel._shooter:
        panel.message.error("That is the attacker; pick someone else.")
        return
    panel.message.clear()
    panel.set_target(token_id)
