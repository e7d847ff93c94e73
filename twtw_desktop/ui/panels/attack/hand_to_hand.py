"""Hand to hand: the blow, careful or kick, advantage, an improvised weapon, the defender."""

from __future__ import annotations

from typing import Literal

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ....rules.base import HitLocation
from .controls import (
    _DEFENSES,
    _MELEE_TYPES,
    _combo,
    _row,
    _spin,
)
from .host import AttackHost


class HandToHandRows(QWidget):
    """Hand to hand: the blow, careful or kick, advantage, an improvised weapon, the defender."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)

        self.melee_row, h = _row()
        self.melee_combo = QComboBox()
        for text, key in _MELEE_TYPES:
            self.melee_combo.addItem(text, key)
        self.melee_combo.setCurrentIndex(1)
        self.melee_combo.activated.connect(lambda _i: panel._inputs_changed())
        h.addWidget(self.melee_combo)
        self.careful_check = QCheckBox("careful")
        self.careful_check.setToolTip("A careful attack: +2 AP, +1 (000 Hand to Hand Combat)")
        self.careful_check.toggled.connect(lambda _v: panel._inputs_changed())
        h.addWidget(self.careful_check)
        self.kick_check = QCheckBox("kick")
        self.kick_check.toggled.connect(lambda _v: panel._inputs_changed())
        h.addWidget(self.kick_check)
        self.skill_adv_spin = _spin(
            0,
            5,
            tip="001 Advantage: skill levels spent on advantage, one factor each; the blow's "
            "pool reads the skill that much lower (never below 1)",
        )
        self.skill_adv_spin.valueChanged.connect(lambda _v: panel._inputs_changed())
        h.addStretch(1)
        lay.addWidget(self.melee_row)
        # its own row: the hand-to-hand row is full in a 300-pixel dock
        self.skill_adv_row, h2 = _row(3)
        h2.addWidget(QLabel("Skill spent on advantage"))
        h2.addWidget(self.skill_adv_spin)
        h2.addStretch(1)
        lay.addWidget(self.skill_adv_row)
        self.skill_adv_row.hide()
        self.melee_row.hide()
        self._build_more_rows(panel, lay)
        self.defense_row.hide()

    def _build_more_rows(self, panel: AttackHost, lay: QVBoxLayout) -> None:
        """An improvised weapon, where a dominant blow lands, the defender's defence."""
        # what comes to hand: an improvised weapon instead of the one chosen above
        self.improvised_row, h = _row()
        h.addWidget(QLabel("Improvised"))
        self.improvised_combo = _combo(
            8,
            "000 Improvised Weapons: a chair, a bottle, a pistol grip — its damage adds "
            "to the attack's",
        )
        self.improvised_combo.addItem("nothing at hand", None)
        for gear_weapon in panel.document.gear.weapons.values():
            if gear_weapon.improvised_damage is not None:
                self.improvised_combo.addItem(gear_weapon.name, gear_weapon.id)
        self.improvised_combo.activated.connect(lambda _i: panel._inputs_changed())
        h.addWidget(self.improvised_combo, 1)
        lay.addWidget(self.improvised_row)
        self.improvised_row.hide()
        self.choose_loc_row, h = _row()
        h.addWidget(QLabel("Blow lands on"))
        self.choose_loc_combo = _combo(
            6,
            "000 Position: holding the foe at full dominance, the attacker chooses where "
            "the blow lands instead of reading the card",
        )
        self.choose_loc_combo.addItem("card's location", None)
        for loc in HitLocation:
            self.choose_loc_combo.addItem(loc.value.replace("_", " "), loc.value)
        self.choose_loc_combo.activated.connect(lambda _i: panel._inputs_changed())
        h.addWidget(self.choose_loc_combo, 1)
        lay.addWidget(self.choose_loc_row)
        self.choose_loc_row.hide()
        self.defense_row, h = _row()
        h.addWidget(QLabel("Defender"))
        self.defense_combo = _combo(8)
        for text, key in _DEFENSES:
            self.defense_combo.addItem(text, key)
        self.defense_combo.setToolTip(
            "The defender's declared defence (000 Hand to Hand Combat): a block tests a "
            "card against the attack's result; a dodge takes AD downgrades off the attack "
            "from the defender's 120° front"
        )
        self.defense_combo.activated.connect(lambda _i: panel._defense_changed())
        h.addWidget(self.defense_combo, 1)
        self.arm_combo = QComboBox()
        self.arm_combo.addItem("left arm", "left_arm")
        self.arm_combo.addItem("right arm", "right_arm")
        self.arm_combo.setToolTip("The arm that blocks (a tie lands the blow on it)")
        self.arm_combo.activated.connect(lambda _i: panel._inputs_changed())
        h.addWidget(self.arm_combo)
        self.arm_combo.hide()
        lay.addWidget(self.defense_row)


def _dodge_vs_ranged(panel: AttackHost) -> bool:
    """The Judge's switch letting a dodge count against shots and throws (see
    :func:`~twtw_desktop.rules.combat.melee.dodge_allowed`)."""
    from ....rules.combat.melee import dodge_allowed

    return panel.mode() != "melee" and dodge_allowed(panel.mode(), panel.document.encounter.options)  # type: ignore[arg-type]


def _defense(panel: AttackHost) -> Literal["block", "dodge"] | None:
    """The defender's declared defence, where it applies (the combo's data: None,
    "block" or "dodge")."""
    kind = panel.defense_combo.currentData()
    if panel.mode() == "melee":
        return kind
    return kind if kind == "dodge" and panel._dodge_vs_ranged() else None


def _sync_defense_row(panel: AttackHost) -> None:
    """The defence row: every defence against hand to hand; only the dodge against
    shots, and only under the dodge_vs_ranged switch."""
    melee = panel.mode() == "melee"
    show = melee or panel._dodge_vs_ranged()
    model = panel.defense_combo.model()  # the combo's own: a QStandardItemModel
    assert isinstance(model, QStandardItemModel)
    item = model.item(panel.defense_combo.findData("block"))
    if item is not None:
        item.setEnabled(melee)
    if not melee and panel.defense_combo.currentData() == "block":
        panel.defense_combo.setCurrentIndex(0)
        panel.arm_combo.hide()
    panel.defense_row.setVisible(show)


def set_defense(panel: AttackHost, kind: str | None, arm: str = "left_arm") -> None:
    """The defender's declared defence: None, ``"block"`` or ``"dodge"``."""
    panel.defense_combo.setCurrentIndex(max(panel.defense_combo.findData(kind), 0))
    panel.arm_combo.setCurrentIndex(max(panel.arm_combo.findData(arm), 0))
    panel._defense_changed()


def _defense_changed(panel: AttackHost) -> None:
    panel.arm_combo.setVisible(panel.defense_combo.currentData() == "block")
    panel._inputs_changed()
