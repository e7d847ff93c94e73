"""The attack panel: the heart of the table (000 "Combat Actions", "Action Cards in
Combat").

Select the shooter (the map's selected token), the target (the nearest enemy is
pre-chosen; pick another on the map or in the list), the weapon and the shot type:
the panel shows the TN with every modifier itemised and the AP cost before anything
is drawn. **Draw** shows the card with the cells the resolution read; the Judge
spends bumps with clicks; **Apply** writes it all as one undoable step (see
:mod:`twtw_desktop.play.attack`). A routine snap shot from a selected shooter is Snap → Draw →
Apply. Hand-to-hand and thrown attacks use the same flow (the mode buttons).

The less common choices sit where they apply: **Fan** (single-action revolvers:
shots, and a second target), the burst of a weapon with several, a called shot's
location (under *Situation*), and the defender's block or dodge (hand to hand).
Possible unintended targets are ringed on the map before the draw, and the ones a
stray shot hit after Apply; **Show players** sends the card (or a throw's scatter)
to the players' screen. In the Phases edition a fan that scores two successes may
buy a secondary target with a bump (003 Secondary Targets: the *2nd target* row
under the spends). With a printed deck, a declared block asks for its own typed
card once the attack is known to hit, as the attack's draw does, and so does every
further card the resolution needs (a stun check, a fan shot's hit location…): the
result stays provisional and Apply is refused until each is typed in. A burst
weapon's *2nd target* row sends some of the burst's hits on to another target (000
Hitting Multiple Targets). Under the ``dodge_vs_ranged`` rule the defender's dodge
is offered against shots too. Draw and Apply stay disabled, saying why, until there
is an attacker and a target.

The panel holds no rules: the choices become the table's typed attack action
(:func:`twtw_desktop.play.combat_actions.attack_action`), whose plan gives the TN
and the AP; **Draw** resolves it on a copy of the deck
(:func:`twtw_desktop.play.attack.preview`) and **Apply** hands the action, with the
spends and the typed cards, to the table (``document.apply``).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid as shiboken_valid

from ...errors import RulesError
from ...play.attack import (
    AttackPlan,
    AttackRequest,
    Geometry,
    Outcome,
    Preview,
    Spends,
    bumps_left,
    checked_shots,
    cock_first_needed,
    declared_shot,
    default_weapon_index,
    display_name,
    fan_secondary_choices,
    named_summary,
    nearest_enemy,
    preview,
    stack_card,
    usable_weapons,
)
from ...play.bonus_actions import SPENDS
from ...play.cards import already_typed
from ...play.combat_actions import Aim, AttackCard, attack_action
from ...play.declarations import WhenAble, how, segments
from ...play.throw import blast_lines
from ...rules.base import HitLocation
from ...rules.card import Card
from ...rules.combat.situation import CALLED_SHOT_DEFAULT, CALLED_SHOT_LOCATIONS
from ..widgets.card_entry import PhysicalCardDialog
from ..widgets.card_view import CardDialog, CardView
from ._common import USER_ERRORS, MessageLabel, VerticalScroll, error_text, find_map_view

_CALLED = (
    ("no called shot", None),
    ("torso (−2)", "torso"),
    ("limb (−4)", "limb"),
    ("head / hand / foot (−6)", "head_hand_foot"),
    ("eye / heart (−10)", "eye_heart"),
)
_DEFENSES = (
    ("no defence", None),
    ("block (2 AP)", "block"),
    ("dodge (3 AP)", "dodge"),
)
#: the stack order of the called-shot locations, top (head) to bottom
_LOCATION_ORDER = (
    HitLocation.HEAD,
    HitLocation.CHEST,
    HitLocation.VITALS,
    HitLocation.BELLY,
    HitLocation.LEFT_ARM,
    HitLocation.RIGHT_ARM,
    HitLocation.LEFT_LEG,
    HitLocation.RIGHT_LEG,
)
#: the Judge's call on the firer's movement (None: read off the token)
_FIRER_MOVES: tuple[tuple[str, str | None], ...] = (
    ("firer: as moved", None),
    ("firer: still", "still"),
    ("firer: walking (−1)", "walking"),
    ("firer: running (−4)", "running"),
)
_MELEE_TYPES = (
    ("Quick attack", "quick"),
    ("Standard attack", "standard"),
    ("Heavy attack", "heavy"),
    ("Shove (dominance)", "shove"),
)


_DRAW_TIP = (
    "Draw the action card: it leaves the deck now (the journal keeps it) and the result "
    "is read; spend the bumps, then Apply. The card the initiative stack flipped for "
    "this action is read instead of drawing (000 Initiative Stack)."
)
_PUT_BACK_TIP = "Undo the draw: the card goes back on top of the deck (the journal keeps both)"
_APPLY_TIP = "Write the result to the sheets, the map, the track and the log (undoable)"
_AIM_TIP = (
    "Aim at the target with this gun now (paid now); the next shot at them counts it "
    "(000 / 001 / 003 Aim and Snap Shots)"
)


def _fan_capable(weapon) -> bool:
    from ...rules.combat.ranged import is_fan_capable

    return weapon is not None and is_fan_capable(weapon)


def _button(text: str, tip: str = "", checkable: bool = False) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.setCheckable(checkable)
    return b


def _combo(min_length: int, tip: str = "") -> QComboBox:
    """A combo box that may shrink to ``min_length`` characters (a narrow dock)."""
    c = QComboBox()
    c.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    c.setMinimumContentsLength(min_length)
    if tip:
        c.setToolTip(tip)
    return c


def _spin(low: int, high: int, *, prefix: str = "", tip: str = "") -> QSpinBox:
    s = QSpinBox()
    s.setRange(low, high)
    if prefix:
        s.setPrefix(prefix)
    if tip:
        s.setToolTip(tip)
    return s


def _row(spacing: int | None = None) -> tuple[QWidget, QHBoxLayout]:
    """A widget holding one row of controls, without margins."""
    row = QWidget()
    h = QHBoxLayout(row)
    h.setContentsMargins(0, 0, 0, 0)
    if spacing is not None:
        h.setSpacing(spacing)
    return row, h


def _second_target_row(
    lead: QWidget, combo_tip: str, spin_high: int, spin_tip: str
) -> tuple[QWidget, QComboBox, QSpinBox]:
    """A *2nd target* row: ``lead``, the target's combo and how many shots or hits
    go to it (the fan's second target, a burst's other target)."""
    row, h = _row(3)
    combo = _combo(4, combo_tip)
    spin = _spin(0, spin_high, prefix="× ", tip=spin_tip)
    h.addWidget(lead)
    h.addWidget(combo, 1)
    h.addWidget(spin)
    return row, combo, spin


def _fill_second(combo: QComboBox, targets: QComboBox, nobody: str, prefix: str = "") -> None:
    """List the targets of ``targets`` in a 2nd-target ``combo``, keeping its choice."""
    keep = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(nobody, None)
    for j in range(1, targets.count()):
        combo.addItem(prefix + targets.itemText(j), targets.itemData(j))
    k = combo.findData(keep) if keep else -1
    combo.setCurrentIndex(max(k, 0))
    combo.blockSignals(False)


def _first_second(combo: QComboBox, spin: QSpinBox) -> None:
    """A 2nd target chosen with no shots or hits for it gets one."""
    if combo.currentData() and not spin.value():
        spin.blockSignals(True)
        spin.setValue(1)
        spin.blockSignals(False)


class AttackPanel(QWidget):
    """Shooter → target → weapon and shot → TN → Draw → spends → Apply."""

    #: emitted after an attack is applied (its record)
    attackApplied = Signal(object)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("AttackPanel")
        self.plan: AttackPlan | None = None
        self.current: Preview | None = None
        #: why the table would refuse the attack now (Draw waits until it is payable)
        self.refusal: str | None = None
        #: (AP, segment): the attacker's counters cover the attack only once the track
        #: has counted on to that segment, which Draw does first (a ``when_able`` step)
        #: AP v2: how Draw goes on the track now — "now" (the segment's lone action,
        #: drawn at once), "stack" or "standing" (Draw declares it: 000 Action Timing)
        self.declare_mode: str = "now"
        #: the undo stack's index right after the last Apply (its result is on show)
        self._applied_at: int | None = None
        #: the spends of each shot of the previewed series (one for a single attack)
        self.series_spends: list[Spends] = [Spends()]
        self.shot_index = 0
        self.last_outcome: Outcome | None = None
        self._strays_hit_shown = False
        self._typed: Card | None = None
        self._shooter: str | None = None
        self._busy = False
        self._dialog: PhysicalCardDialog | None = None
        #: the typed-in card of the defender's block (physical-card mode)
        self._typed_block: Card | None = None
        #: the further typed-in cards (stun checks, fan shots' locations…), in order
        self._typed_more: list[Card] = []
        #: the card Draw took off the deck for this attack, and its step's merge key
        self._held: Card | None = None
        self._held_key: str | None = None

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        body = QWidget()
        scroll = VerticalScroll(body)
        outer.addWidget(scroll, 1)
        self.scroll = scroll
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)

        # -- who -------------------------------------------------------------------
        g = QGridLayout()
        g.setHorizontalSpacing(4)
        self.shooter_label = QLabel()
        self.shooter_label.setStyleSheet("font-weight: bold;")
        g.addWidget(QLabel("Attacker"), 0, 0)
        g.addWidget(self.shooter_label, 0, 1, 1, 2)
        self.mode_group = QButtonGroup(self)
        modes = QHBoxLayout()
        modes.setSpacing(2)
        self.mode_buttons: dict[str, QToolButton] = {}
        for mode, text in (("ranged", "Shoot"), ("thrown", "Throw"), ("melee", "Hand to hand")):
            b = QToolButton()
            b.setText(text)
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, m=mode: self.set_mode(m))
            self.mode_group.addButton(b)
            self.mode_buttons[mode] = b
            modes.addWidget(b)
        self.mode_buttons["ranged"].setChecked(True)
        modes.addStretch(1)
        g.addLayout(modes, 1, 0, 1, 3)
        self.target_combo = _combo(10)
        self.target_combo.activated.connect(lambda _i: self._inputs_changed())
        self.pick_button = _button("Pick…", "Click the target's token on the map")
        self.pick_button.clicked.connect(self.pick_on_map)
        g.addWidget(QLabel("Target"), 2, 0)
        g.addWidget(self.target_combo, 2, 1)
        g.addWidget(self.pick_button, 2, 2)
        self.weapon_combo = _combo(10)
        self.weapon_combo.activated.connect(lambda _i: self._weapon_changed())
        self.weapon_state = QLabel()
        self.weapon_state.setStyleSheet("color: #555;")
        self.weapon_state.setWordWrap(True)
        g.addWidget(QLabel("Weapon"), 3, 0)
        g.addWidget(self.weapon_combo, 3, 1, 1, 2)
        self.cock_check = QCheckBox("cock first")
        self.cock_check.setToolTip("Cock the hammer as part of this action (its AP is added)")
        self.cock_check.toggled.connect(lambda _v: self._inputs_changed())
        self.draw_check = QCheckBox("draw first")
        self.draw_check.setToolTip(
            "Draw and shoot: draw the gun as part of this action (the draw's AP is added)"
        )
        self.draw_check.toggled.connect(lambda _v: self._inputs_changed())
        self.burst_combo = QComboBox()
        self.burst_combo.setToolTip(
            "Burst fired: the card's burst section gives the hits; the rest are stray shots "
            "(000 Burst Fire)"
        )
        self.burst_combo.activated.connect(lambda _i: self._inputs_changed())
        self.burst_combo.hide()
        state_row = QHBoxLayout()
        state_row.addWidget(self.weapon_state, 1)
        state_row.addWidget(self.burst_combo)
        checks = QVBoxLayout()  # stacked: a 300-pixel dock keeps them in view
        checks.setSpacing(0)
        checks.addWidget(self.draw_check)
        checks.addWidget(self.cock_check)
        state_row.addLayout(checks)
        g.addLayout(state_row, 4, 1, 1, 2)
        g.setColumnStretch(1, 1)
        lay.addLayout(g)

        # -- shot type -------------------------------------------------------------
        self.shot_row, h = _row(3)
        self.shot_group = QButtonGroup(self)
        self.shot_buttons: dict[str, QToolButton] = {}
        for kind, text, tip in (
            ("snap", "Snap", "Snap shot: fewer AP, the weapon's snap penalty (000)"),
            ("normal", "Normal", "Normal shot (000)"),
            (
                "aimed",
                "Aimed",
                "Aim actions paid in the shot: 000, a normal shot after 1–2 aims, +1 each; "
                "001/003, the first aim removes the snap penalty, up to two more +1 each",
            ),
            ("fan", "Fan", "Fan firing a single-action revolver: 1 AP a shot (000 Fan Firing)"),
        ):
            b = QToolButton()
            b.setText(text)
            b.setToolTip(tip)
            b.setCheckable(True)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, k=kind: self.set_shot(k))
            self.shot_group.addButton(b)
            self.shot_buttons[kind] = b
            h.addWidget(b)
        self.aims_spin = _spin(1, 2, prefix="aims ")
        self.aims_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.aims_spin)
        lay.addWidget(self.shot_row)
        # the routine shot is chosen from the start (the group keeps the last one chosen)
        self.shot_buttons["snap"].setChecked(True)
        self.aims_spin.setEnabled(False)
        # an aim action taken now, ahead of the shot (its own row: the dock is narrow)
        self.aim_row, h = _row(3)
        self.aim_button = QToolButton()
        self.aim_button.setText("Aim at the target now")
        self.aim_button.clicked.connect(lambda _=False: self.aim_ahead())
        h.addWidget(self.aim_button)
        self.aim_hold_check = QCheckBox("hold")
        self.aim_hold_check.setToolTip(
            "003 Procedure (Phases): the aim held as a continuous action over the rounds; "
            "each round after the first adds the gun's Accurate bonus"
        )
        self.aim_hold_check.toggled.connect(lambda _v: self._update_aim_button())
        h.addWidget(self.aim_hold_check)
        h.addStretch(1)
        lay.addWidget(self.aim_row)

        self.fan_shots_spin = _spin(
            1, 6, tip="Shots fanned at the target (at most the pistol skill)"
        )
        self.fan_shots_spin.setValue(2)
        self.fan_shots_spin.setSuffix(" shots")
        self.fan_row, self.fan_second_combo, self.fan_second_spin = _second_target_row(
            self.fan_shots_spin,
            "Then fan at a second target (one target switch, +1 AP)",
            5,
            "Shots at the second target",
        )
        self.fan_shots_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        self.fan_second_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        self.fan_second_combo.activated.connect(lambda _i: self._fan_second_chosen())
        lay.addWidget(self.fan_row)
        self.fan_row.hide()

        # a burst spreading its hits (000 Hitting Multiple Targets)
        self.burst_second_label = QLabel("2nd target")
        self.burst_row, self.burst_second_combo, self.burst_second_spin = _second_target_row(
            self.burst_second_label,
            "000 Hitting Multiple Targets: each success after the first may send one of "
            "the burst's hits to another target instead (the card's burst hits in all)",
            9,
            "Hits to send on to the second target (at most)",
        )
        self.burst_second_combo.activated.connect(lambda _i: self._burst_second_chosen())
        self.burst_second_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        lay.addWidget(self.burst_row)
        self.burst_row.hide()
        self.burst_third_label = QLabel("3rd target")
        self.burst_third_row, self.burst_third_combo, self.burst_third_spin = _second_target_row(
            self.burst_third_label,
            "000 Hitting Multiple Targets: a third success in the pool may send hits to a "
            "third target",
            9,
            "Hits to send on to the third target (at most)",
        )
        self.burst_third_combo.activated.connect(lambda _i: self._burst_third_chosen())
        self.burst_third_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        lay.addWidget(self.burst_third_row)
        self.burst_third_row.hide()

        # several attacks from one pool (000 Multiple Attacks), declared before the card
        self._series: list[tuple[str, str]] = []
        self.series_row, h = _row(3)
        self.series_combo = _combo(
            4,
            "000 Multiple Attacks: a further attack from the same pool, declared before the "
            "card; it reads the pool's next best result (1 AP per switch of target, −1 per "
            "target after the first; at most the skill level)",
        )
        self.series_kind = QComboBox()
        self.series_kind.addItem("snap", "snap")
        self.series_kind.addItem("normal", "normal")
        self.series_add = QToolButton()
        self.series_add.setText("+")
        self.series_add.setToolTip("Add this attack to the series")
        self.series_add.clicked.connect(self._add_series_attack)
        self.series_clear = QToolButton()
        self.series_clear.setText("×")
        self.series_clear.setToolTip("No further attacks: a single shot")
        self.series_clear.clicked.connect(lambda: self.set_series([]))
        h.addWidget(QLabel("then"))
        h.addWidget(self.series_combo, 1)
        h.addWidget(self.series_kind)
        h.addWidget(self.series_add)
        h.addWidget(self.series_clear)
        self.series_label = QLabel()
        self.series_label.setWordWrap(True)
        self.series_label.hide()
        lay.addWidget(self.series_row)
        lay.addWidget(self.series_label)

        self.melee_row, h = _row()
        self.melee_combo = QComboBox()
        for text, key in _MELEE_TYPES:
            self.melee_combo.addItem(text, key)
        self.melee_combo.setCurrentIndex(1)
        self.melee_combo.activated.connect(lambda _i: self._inputs_changed())
        h.addWidget(self.melee_combo)
        self.careful_check = QCheckBox("careful")
        self.careful_check.setToolTip("A careful attack: +2 AP, +1 (000 Hand to Hand Combat)")
        self.careful_check.toggled.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.careful_check)
        self.kick_check = QCheckBox("kick")
        self.kick_check.toggled.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.kick_check)
        self.skill_adv_spin = _spin(
            0,
            5,
            tip="001 Advantage: skill levels spent on advantage, one factor each; the blow's "
            "pool reads the skill that much lower (never below 1)",
        )
        self.skill_adv_spin.valueChanged.connect(lambda _v: self._inputs_changed())
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
        # what comes to hand: an improvised weapon instead of the one chosen above
        self.improvised_row, h = _row()
        h.addWidget(QLabel("Improvised"))
        self.improvised_combo = _combo(
            8,
            "000 Improvised Weapons: a chair, a bottle, a pistol grip — its damage adds "
            "to the attack's",
        )
        self.improvised_combo.addItem("nothing at hand", None)
        for gear_weapon in document.gear.weapons.values():
            if gear_weapon.improvised_damage is not None:
                self.improvised_combo.addItem(gear_weapon.name, gear_weapon.id)
        self.improvised_combo.activated.connect(lambda _i: self._inputs_changed())
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
        self.choose_loc_combo.activated.connect(lambda _i: self._inputs_changed())
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
        self.defense_combo.activated.connect(lambda _i: self._defense_changed())
        h.addWidget(self.defense_combo, 1)
        self.arm_combo = QComboBox()
        self.arm_combo.addItem("left arm", "left_arm")
        self.arm_combo.addItem("right arm", "right_arm")
        self.arm_combo.setToolTip("The arm that blocks (a tie lands the blow on it)")
        self.arm_combo.activated.connect(lambda _i: self._inputs_changed())
        h.addWidget(self.arm_combo)
        self.arm_combo.hide()
        lay.addWidget(self.defense_row)
        self.defense_row.hide()

        # -- situation (the Judge's calls the map cannot make) ---------------------------
        self.situation_toggle = QToolButton()
        self.situation_toggle.setText("Situation: the Judge's calls")
        self.situation_toggle.setCheckable(True)
        self.situation_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.situation_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.situation_toggle.setAutoRaise(True)
        self.situation_widgets = QWidget()
        sw = QGridLayout(self.situation_widgets)
        sw.setContentsMargins(0, 0, 0, 0)
        self.point_blank_check = QCheckBox("point blank")
        self.point_blank_check.setToolTip("Weapon touching the target: TN 3 (000 Point Blank)")
        self.appearing_check = QCheckBox("appearing")
        self.appearing_check.setToolTip(
            "The target is appearing or disappearing behind cover: −1 (000 Modifiers)"
        )
        self.melee_target_check = QCheckBox("in a melee")
        self.melee_target_check.setTristate(True)
        self.melee_target_check.setCheckState(Qt.CheckState.PartiallyChecked)
        self.melee_target_check.setToolTip(
            "Partly checked: read from the map (someone beside the target)"
        )
        self.two_weapons_check = QCheckBox("two weapons")
        self.off_hand_check = QCheckBox("off hand")
        self.sabotage_check = QCheckBox("trying to miss")
        self.sabotage_check.setToolTip(
            "Action Sabotage (000): the shot fails unless the card is a calamity (the "
            "target is hit after all) or a stray shot finds an unintended target"
        )
        self.charge_check = QCheckBox("charge AP")
        self.charge_check.setToolTip("Spend the attack's AP on the action track (action time)")
        self.charge_check.setChecked(True)
        self.called_combo = _combo(8, "A called shot (001 Called Shots)")
        for text, key in _CALLED:
            self.called_combo.addItem(text, key)
        self.called_loc_combo = _combo(6, "The spot the called shot aims at (001 Called Shots)")
        self.called_loc_combo.activated.connect(lambda _i: self._inputs_changed())
        self.called_loc_combo.hide()
        self.secondary_spin = _spin(0, 9, prefix="target #")
        self.secondary_spin.setSpecialValueText("first target")
        self.firer_move_combo = _combo(
            8,
            "The firer's movement this round: −1 walking, −4 running (000 Modifiers: Move "
            "and Fire). As moved: read off the token",
        )
        for text, move in _FIRER_MOVES:
            self.firer_move_combo.addItem(text, move)
        self.firer_move_combo.activated.connect(lambda _i: self._inputs_changed())
        self.size_spin = _spin(
            -1,
            40,
            prefix="target Size ",
            tip="The target's Size: 4 or less +1 TN, 2 or less +2; +1 to the result per 2 "
            "above 6 (000 Target Size). Lowest: the target's sheet",
        )
        self.size_spin.setSpecialValueText("Size: the sheet's")
        self.size_spin.setValue(-1)
        self.size_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        for i, w in enumerate(
            (
                self.point_blank_check,
                self.appearing_check,
                self.melee_target_check,
                self.two_weapons_check,
                self.off_hand_check,
                self.charge_check,
                self.sabotage_check,
            )
        ):
            sw.addWidget(w, i // 2, i % 2)
            w.toggled.connect(lambda _v: self._inputs_changed())
        self.melee_target_check.stateChanged.connect(lambda _v: self._inputs_changed())
        sw.addWidget(self.called_combo, 4, 0)
        sw.addWidget(self.called_loc_combo, 4, 1)
        sw.addWidget(self.secondary_spin, 5, 0)
        sw.addWidget(self.firer_move_combo, 6, 0)
        sw.addWidget(self.size_spin, 6, 1)
        self.called_combo.activated.connect(lambda _i: self._called_changed())
        self.secondary_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        self.situation_widgets.hide()
        self.situation_toggle.toggled.connect(self._toggle_situation)
        lay.addWidget(self.situation_toggle)
        lay.addWidget(self.situation_widgets)

        # -- the TN before the draw ---------------------------------------------------------
        head = QHBoxLayout()
        self.tn_headline = QLabel()
        self.tn_headline.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.tn_headline.setWordWrap(True)
        head.addWidget(self.tn_headline, 1)
        self.tn_toggle = QToolButton()
        self.tn_toggle.setCheckable(True)
        self.tn_toggle.setChecked(True)
        self.tn_toggle.setAutoRaise(True)
        self.tn_toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.tn_toggle.setToolTip("Show or hide every modifier of the TN and the AP")
        self.tn_toggle.toggled.connect(self._show_tn_items)
        head.addWidget(self.tn_toggle)
        lay.addLayout(head)
        self.tn_label = QLabel()
        self.tn_label.setWordWrap(True)
        self.tn_label.setTextFormat(Qt.TextFormat.RichText)
        self.tn_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tn_label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        lay.addWidget(self.tn_label)

        row = QHBoxLayout()
        self.draw_button = _button("Draw", _DRAW_TIP)
        self.draw_button.setStyleSheet("font-weight: bold;")
        self.draw_button.clicked.connect(self.draw)
        self.apply_button = _button("Apply", _APPLY_TIP)
        self.apply_button.setStyleSheet("font-weight: bold;")
        self.apply_button.clicked.connect(self.apply)
        self.clear_button = _button("Put back", _PUT_BACK_TIP)
        self.clear_button.clicked.connect(self.put_back)
        row.addWidget(self.draw_button)
        row.addWidget(self.apply_button)
        row.addWidget(self.clear_button)
        # pinned under the scrolling part: Draw, Apply and Put back are in view at any
        # height, before and after a draw (a laptop's 768 pixels included)
        outer.addLayout(row)
        row2 = QHBoxLayout()
        row2.setSpacing(3)
        self.show_card_button = QToolButton()
        self.show_card_button.setText("card")
        self.show_card_button.setToolTip("Show the players the drawn card (their screen)")
        self.show_card_button.clicked.connect(self.show_card)
        self.show_scatter_button = QToolButton()
        self.show_scatter_button.setText("throw")
        self.show_scatter_button.setToolTip(
            "Show the players the throw: thrower, target and where it landed (their screen)"
        )
        self.show_scatter_button.clicked.connect(self.show_scatter)
        self.clear_flags_button = QToolButton()
        self.clear_flags_button.setText("Clear rings")
        self.clear_flags_button.setToolTip("Take the unintended-target rings off the map")
        self.clear_flags_button.clicked.connect(self.clear_stray_flags)
        row2.addWidget(QLabel("Show players:"))
        row2.addWidget(self.show_card_button)
        row2.addWidget(self.show_scatter_button)
        row2.addStretch(1)
        row2.addWidget(self.clear_flags_button)
        lay.addLayout(row2)
        self.message = MessageLabel()
        outer.addWidget(self.message)

        # -- the result, the spends and the card ------------------------------------------
        self.result_label = QLabel()
        self.result_label.setWordWrap(True)
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.result_label)

        self.spend_box = QWidget()
        sp = QGridLayout(self.spend_box)
        sp.setContentsMargins(0, 0, 0, 0)
        sp.setVerticalSpacing(2)
        sp.setHorizontalSpacing(3)
        self.bumps_label = QLabel()
        self.bumps_label.setWordWrap(True)
        self.shot_spin = _spin(
            1, 1, prefix="shot ", tip="The shot of the series whose bumps you are spending"
        )
        self.shot_spin.valueChanged.connect(self._shot_chosen)
        self.shot_spin.hide()
        sp.addWidget(self.bumps_label, 0, 0, 1, 3)
        sp.addWidget(self.shot_spin, 0, 3)
        sp.addWidget(QLabel("Hit location"), 1, 0)
        self.loc_up = _button("▲ up", "Spend bumps to move the hit up the stack")
        self.loc_down = _button("▼ down", "Spend bumps to move the hit down the stack")
        for b in (self.loc_up, self.loc_down):
            b.setMinimumWidth(52)  # below the style's 80 px push-button minimum: a 300 px dock
        self.loc_up.clicked.connect(lambda: self.move_location(-1))
        self.loc_down.clicked.connect(lambda: self.move_location(1))
        sp.addWidget(self.loc_up, 1, 1)
        sp.addWidget(self.loc_down, 1, 2)
        self.loc_label = QLabel()
        sp.addWidget(self.loc_label, 1, 3)
        self.spin_rows: dict[str, tuple[QPushButton, QPushButton, QLabel]] = {}
        for r, (key, text) in enumerate(
            (("penetration", "Penetration"), ("damage", "Damage"), ("extra_hits", "Extra hits")), 2
        ):
            minus = _button("−")
            plus = _button("+")
            minus.setFixedWidth(28)
            plus.setFixedWidth(28)
            val = QLabel("0")
            minus.clicked.connect(lambda _=False, k=key: self.change_spend(k, -1))
            plus.clicked.connect(lambda _=False, k=key: self.change_spend(k, 1))
            sp.addWidget(QLabel(text), r, 0)
            sp.addWidget(minus, r, 1)
            sp.addWidget(plus, r, 2)
            sp.addWidget(val, r, 3)
            self.spin_rows[key] = (minus, plus, val)
            if key == "extra_hits":
                self.extra_hits_widgets = [sp.itemAtPosition(r, c).widget() for c in range(4)]
                for w in self.extra_hits_widgets:
                    w.setToolTip("003 Fan Firing: a bump buys one more hit, up to the shots fired")
                    w.hide()
        # hand to hand: bumps toward dominance (000 Asserting Dominance)
        minus, plus, val = _button("−"), _button("+"), QLabel("0")
        minus.setFixedWidth(28)
        plus.setFixedWidth(28)
        minus.clicked.connect(lambda: self.change_spend("dominance", -1))
        plus.clicked.connect(lambda: self.change_spend("dominance", 1))
        self.spin_rows["dominance"] = (minus, plus, val)
        # a burst's (or fan's) extra-hit bumps: damage by default, penetration by choice
        bminus, bplus, bval = _button("−"), _button("+"), QLabel("0")
        bminus.setFixedWidth(28)
        bplus.setFixedWidth(28)
        bminus.clicked.connect(lambda: self.change_spend("burst_pen", -1))
        bplus.clicked.connect(lambda: self.change_spend("burst_pen", 1))
        self.spin_rows["burst_pen"] = (bminus, bplus, bval)
        self.burst_pen_widgets = [QLabel("Burst → Pen"), bminus, bplus, bval]
        for c, widget in enumerate(self.burst_pen_widgets):
            widget.setToolTip(
                "002 Bump Types: a burst bump (an extra hit of a burst or a fan) is a damage "
                "or a penetration bump, the player's choice: here, how many go to penetration"
            )
            sp.addWidget(widget, 9, c)
            widget.hide()
        self.dominance_widgets = [QLabel("Dominance"), minus, plus, val]
        for c, widget in enumerate(self.dominance_widgets):
            widget.setToolTip(
                "000 Asserting Dominance: each bump one level of hold on the defender "
                "(or cancels one level of theirs); kept on the tokens"
            )
            sp.addWidget(widget, 8, c)
            widget.hide()
        sp.addWidget(QLabel("Stray shot"), 5, 0)
        stray = QHBoxLayout()
        self.stray_buttons: list[QToolButton] = []
        for i in range(3):
            b = QToolButton()
            b.setToolTip(f"Figure {i + 1}: left click −1, right click +1 (one bump each)")
            b.clicked.connect(lambda _=False, k=i: self.stray_spend(k, -1))
            b.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            b.customContextMenuRequested.connect(lambda _p, k=i: self.stray_spend(k, 1))
            self.stray_buttons.append(b)
            stray.addWidget(b)
        self.stray_reset = QToolButton()
        self.stray_reset.setText("reset")
        self.stray_reset.clicked.connect(self._reset_stray)
        stray.addWidget(self.stray_reset)
        stray.addStretch(1)
        sp.addLayout(stray, 5, 1, 1, 3)
        self.secondary_label = QLabel("2nd target")
        self.secondary_combo = _combo(
            6,
            "003 Secondary Targets: with a second success in the pool, a bump lets one "
            "of the fan's hits strike someone within a pace of the target or the line of fire",
        )
        self.secondary_combo.activated.connect(lambda _i: self._secondary_chosen())
        sp.addWidget(self.secondary_label, 6, 0)
        sp.addWidget(self.secondary_combo, 6, 1, 1, 3)
        self.secondary_label.hide()
        self.secondary_combo.hide()
        # a held bonus counter spent on this result (002 Spending the Counter)
        self._counter: str | None = None
        self.counter_label = QLabel("Bonus counter")
        self.counter_combo = _combo(
            8,
            "002 Spending the Counter: the attacker's bonus counter on this result; it goes "
            "back to the pool on Apply",
        )
        self.counter_combo.addItem("keep it", None)
        for key, (name, value, where) in SPENDS.items():
            self.counter_combo.addItem(f"{name} +{value} ({where})", key)
        self.counter_combo.activated.connect(lambda _i: self._counter_chosen())
        sp.addWidget(self.counter_label, 7, 0)
        sp.addWidget(self.counter_combo, 7, 1, 1, 3)
        self.counter_label.hide()
        self.counter_combo.hide()
        lay.addWidget(self.spend_box)

        self.card_view = CardView()
        self.card_view.setMinimumSize(180, 300)
        self.card_view.setMaximumHeight(440)
        self.card_view.clicked.connect(self._open_card)
        self.card_view.setToolTip("Click for a larger card")
        lay.addWidget(self.card_view)
        lay.addStretch(1)

        document.selectionChanged.connect(self._on_selection)
        document.attackDue.connect(self._attack_due)
        document.changed.connect(self._on_changed)
        document.undo_stack.indexChanged.connect(self._on_undo_index)
        self._on_selection(document.selected_token_id)
        self.recompute()  # no attacker yet: Draw and Apply start disabled, saying why

    @property
    def table(self):
        """The table the panel's document plays on."""
        return self.document.table

    @property
    def geometry_cache(self) -> Geometry:
        """Cover lines over the table's map (the table caches its wall index)."""
        return Geometry(self.table)

    @property
    def spends(self) -> Spends:
        """The spends of the shot being edited (the only one for a single attack)."""
        return self.series_spends[self.shot_index]

    @spends.setter
    def spends(self, value: Spends) -> None:
        self.series_spends[self.shot_index] = value

    def _reset_spends(self) -> None:
        self.series_spends = [Spends()]
        self.shot_index = 0

    def _show_tn_items(self, on: bool) -> None:
        self.tn_label.setVisible(on)
        self.tn_toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)

    def _toggle_situation(self, on: bool) -> None:
        self.situation_widgets.setVisible(on)
        self.situation_toggle.setArrowType(
            Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow
        )

    # ======================================================================= inputs
    def shooter_token(self) -> str | None:
        return self._shooter

    def target_token(self) -> str | None:
        return self.target_combo.currentData()

    def mode(self) -> str:
        for m, b in self.mode_buttons.items():
            if b.isChecked():
                return m
        return "ranged"

    def shot_kind(self) -> str | None:
        for k, b in self.shot_buttons.items():
            if b.isChecked():
                return k
        return None

    def _fill_targets(self, keep: str | None) -> None:
        doc = self.document
        self.target_combo.blockSignals(True)
        self.target_combo.clear()
        self.target_combo.addItem("— choose a target —", None)
        me = None
        if self._shooter:
            try:
                me = doc.character_of(self._shooter)
            except KeyError:
                me = None
        # enemies first, then the shooter's own side, each nearest first; sides marked
        here = doc.token(self._shooter).at if me is not None and self._shooter else None
        listed = []
        for t in doc.encounter.tokens:
            if t.id == self._shooter:
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
            self.target_combo.addItem(label, tid)
        i = self.target_combo.findData(keep) if keep else -1
        self.target_combo.setCurrentIndex(max(i, 0))
        self.target_combo.blockSignals(False)
        _fill_second(self.fan_second_combo, self.target_combo, "then nobody", "then ")
        _fill_second(self.burst_second_combo, self.target_combo, "nobody")
        _fill_second(self.burst_third_combo, self.target_combo, "nobody")
        _fill_second(self.series_combo, self.target_combo, "— next target —")

    def _fill_weapons(self, keep: int | None = None) -> None:
        doc = self.document
        self.weapon_combo.blockSignals(True)
        self.weapon_combo.clear()
        shooter = None
        if self._shooter:
            try:
                shooter = doc.character_of(self._shooter)
            except KeyError:
                shooter = None
        if shooter is not None:
            mode = self.mode()
            if mode == "melee":
                self.weapon_combo.addItem("bare hands", None)
            for i, w in usable_weapons(doc.table, shooter, mode):  # type: ignore[arg-type]
                self.weapon_combo.addItem(w.name, i)
            if keep is None:
                keep = default_weapon_index(doc.table, shooter, doc.token(self._shooter), mode)  # type: ignore[arg-type]
            j = self.weapon_combo.findData(keep)
            self.weapon_combo.setCurrentIndex(max(j, 0))
        self.weapon_combo.blockSignals(False)
        self._auto_cock()

    def _auto_cock(self) -> None:
        """Tick "cock first" when the chosen gun needs its hammer cocked and is not."""
        plan_weapon = self._weapon()
        self.cock_check.blockSignals(True)
        self.draw_check.blockSignals(True)
        if plan_weapon is None:
            self.cock_check.setChecked(False)
            self.cock_check.setEnabled(False)
            self.draw_check.setChecked(False)
            self.draw_check.setEnabled(False)
        else:
            w, cw = plan_weapon
            self.cock_check.setEnabled(w.cock_ap is not None and not cw.cocked)
            self.cock_check.setChecked(cock_first_needed(w, cw) and self.mode() == "ranged")
            holstered = not cw.readied and self.mode() == "ranged"
            self.draw_check.setEnabled(holstered)
            self.draw_check.setChecked(holstered)  # draw and shoot: one action, one cost
            self._fill_bursts(w)
            self.shot_buttons["fan"].setEnabled(_fan_capable(w))
            state = []
            if w.is_ranged:
                state.append(f"{cw.loaded}/{w.capacity} loaded")
                if w.cock_ap is not None:
                    state.append("cocked" if cw.cocked else "uncocked")
            if not cw.readied:
                state.append("not readied")
            self.weapon_state.setText(", ".join(state))
        if plan_weapon is None:
            self.weapon_state.setText("")
            self._fill_bursts(None)
        self.cock_check.blockSignals(False)
        self.draw_check.blockSignals(False)

    def _fill_bursts(self, weapon) -> None:
        """The burst choice, shown for a weapon with more than one burst (000)."""
        modes = list(getattr(weapon, "burst_modes", None) or []) if weapon is not None else []
        keep = self.burst_combo.currentData()
        self.burst_combo.blockSignals(True)
        self.burst_combo.clear()
        for m in sorted(modes):
            self.burst_combo.addItem(f"burst {m}", m)
        i = self.burst_combo.findData(keep)
        self.burst_combo.setCurrentIndex(max(i, 0))
        self.burst_combo.blockSignals(False)
        self.burst_combo.setVisible(len(modes) > 1 and self.mode() == "ranged")
        self._sync_burst_row()

    def _has_burst(self) -> bool:
        plan_weapon = self._weapon()
        if plan_weapon is None:
            return False
        w = plan_weapon[0]
        return bool(w.burst_modes or w.burst)

    def _sync_burst_row(self) -> None:
        """The 2nd-target row, for a burst weapon's normal shots (not a fan)."""
        show = self.mode() == "ranged" and self.shot_kind() != "fan" and self._has_burst()
        self.burst_row.setVisible(show)
        # a third target once a second is named (each needs a success of its own)
        self.burst_third_row.setVisible(show and self.burst_second_combo.currentData() is not None)
        self._sync_series_row()

    def _series_open(self) -> bool:
        """A series from one pool: snap or normal shots with a single-shot gun."""
        return (
            self.mode() == "ranged"
            and self.shot_kind() in ("snap", "normal")
            and not self._has_burst()
        )

    def _sync_series_row(self) -> None:
        show = self._series_open()
        self.series_row.setVisible(show)
        names = [f"{kind} at {self._name(tid)}" for tid, kind in self._series]
        self.series_label.setText(
            ("Then, from the same pool: " + "; ".join(names)) if names else ""
        )
        self.series_label.setVisible(show and bool(names))
        self.series_clear.setEnabled(bool(self._series))

    def _add_series_attack(self) -> None:
        tid = self.series_combo.currentData()
        if tid is None:
            self.message.error("Choose the target of the next attack first.")
            return
        self.set_series([*self._series, (tid, self.series_kind.currentData())])

    def set_series(self, attacks: list[tuple[str, str]]) -> None:
        """Declare the further attacks of a series: (target token, "snap" | "normal")."""
        self._series = list(attacks)
        self._sync_series_row()
        self._inputs_changed()

    def _burst_second_chosen(self) -> None:
        _first_second(self.burst_second_combo, self.burst_second_spin)
        self._sync_burst_row()
        self._inputs_changed()

    def _burst_third_chosen(self) -> None:
        _first_second(self.burst_third_combo, self.burst_third_spin)
        self._inputs_changed()

    def set_burst_third(self, token_id: str | None, hits: int = 1) -> None:
        """Send up to ``hits`` more of the burst's hits on to a third target (a third
        success in the pool needed); None: no third target."""
        self._busy = True
        try:
            i = self.burst_third_combo.findData(token_id) if token_id else 0
            self.burst_third_combo.setCurrentIndex(max(i, 0))
            self.burst_third_spin.setValue(hits if token_id else 0)
        finally:
            self._busy = False
        self._sync_burst_row()
        self._inputs_changed()

    def set_burst_second(self, token_id: str | None, hits: int = 1) -> None:
        """Send up to ``hits`` of the burst's hits on to ``token_id`` (000 Hitting
        Multiple Targets); None keeps every hit on the target."""
        self._busy = True
        try:
            i = self.burst_second_combo.findData(token_id) if token_id else 0
            self.burst_second_combo.setCurrentIndex(max(i, 0))
            self.burst_second_spin.setValue(hits if token_id else 0)
        finally:
            self._busy = False
        self._sync_burst_row()
        self._inputs_changed()

    def _weapon(self):
        idx = self.weapon_combo.currentData()
        if idx is None or self._shooter is None:
            return None
        try:
            shooter = self.document.character_of(self._shooter)
            cw = shooter.weapons[idx]
            return self.document.gear.weapon(cw.weapon_id), cw
        except (KeyError, IndexError):
            return None

    def request(self) -> AttackRequest | None:
        if self._shooter is None or self.target_token() is None:
            return None
        st = self.melee_target_check.checkState()
        in_melee = None if st == Qt.CheckState.PartiallyChecked else st == Qt.CheckState.Checked
        return AttackRequest(
            shooter_token=self._shooter,
            target_token=self.target_token(),
            mode=self.mode(),  # type: ignore[arg-type]
            weapon_index=self.weapon_combo.currentData(),
            shot_kind=self.shot_kind() or "snap",  # type: ignore[arg-type]
            aims=self.aims_spin.value(),
            cock_first=self.cock_check.isChecked() and self.cock_check.isEnabled(),
            draw_first=self.draw_check.isChecked() and self.draw_check.isEnabled(),
            melee_attack=self.melee_combo.currentData(),
            careful=self.careful_check.isChecked(),
            kick=self.kick_check.isChecked(),
            skill_advantage=self.skill_adv_spin.value() if self.mode() == "melee" else 0,
            improvised=self.improvised_combo.currentData() if self.mode() == "melee" else None,
            point_blank=self.point_blank_check.isChecked(),
            appearing=self.appearing_check.isChecked(),
            called_shot=self.called_combo.currentData(),
            secondary_index=self.secondary_spin.value(),
            two_weapons=self.two_weapons_check.isChecked(),
            off_hand=self.off_hand_check.isChecked(),
            target_in_melee=in_melee,
            firer_movement=self.firer_move_combo.currentData(),
            target_size=self.size_spin.value() if self.size_spin.value() >= 0 else None,
            sabotage=self.sabotage_check.isChecked() and self.mode() == "ranged",
            counter=self._counter if self._holds_counter() else None,  # type: ignore[arg-type]
            charge_ap=self.charge_check.isChecked(),
            called_location=self.choose_loc_combo.currentData()
            if self.mode() == "melee"
            else self.called_loc_combo.currentData()
            if self.called_combo.currentData()
            else None,
            burst=self.burst_combo.currentData() if self.burst_combo.isVisibleTo(self) else None,
            fan_shots=self.fan_shots_spin.value(),
            fan_second_target=self.fan_second_combo.currentData(),
            fan_second_shots=self.fan_second_spin.value(),
            defense=self._defense(),
            block_arm=self.arm_combo.currentData(),
            burst_second_target=self.burst_second_combo.currentData()
            if self.burst_row.isVisibleTo(self)
            else None,
            burst_second_hits=self.burst_second_spin.value(),
            burst_more=(
                ((self.burst_third_combo.currentData(), self.burst_third_spin.value()),)
                if self.burst_third_row.isVisibleTo(self)
                and self.burst_third_combo.currentData() is not None
                and self.burst_third_spin.value() > 0
                else ()
            ),
            more_attacks=tuple(self._series) if self._series_open() else (),
        )

    def _dodge_vs_ranged(self) -> bool:
        """The Judge's switch letting a dodge count against shots and throws (see
        :func:`~twtw_desktop.rules.combat.melee.dodge_allowed`)."""
        from ...rules.combat.melee import dodge_allowed

        return self.mode() != "melee" and dodge_allowed(
            self.mode(), self.document.encounter.options
        )  # type: ignore[arg-type]

    def _defense(self) -> str | None:
        kind = self.defense_combo.currentData()
        if self.mode() == "melee":
            return kind
        return kind if kind == "dodge" and self._dodge_vs_ranged() else None

    def _sync_defense_row(self) -> None:
        """The defence row: every defence against hand to hand; only the dodge against
        shots, and only under the dodge_vs_ranged switch."""
        melee = self.mode() == "melee"
        show = melee or self._dodge_vs_ranged()
        item = self.defense_combo.model().item(self.defense_combo.findData("block"))
        if item is not None:
            item.setEnabled(melee)
        if not melee and self.defense_combo.currentData() == "block":
            self.defense_combo.setCurrentIndex(0)
            self.arm_combo.hide()
        self.defense_row.setVisible(show)

    # ======================================================================= actions
    def set_shooter(self, token_id: str | None) -> None:
        if token_id != self._shooter and self._held is not None and self.current is not None:
            self.put_back()  # another figure chosen before Apply: that attack is not made
        self._held = None
        self._held_key = None
        if token_id != self._shooter:
            self._series = []  # another shooter: a new declaration
        self._shooter = token_id
        doc = self.document
        name = "— select a token on the map —"
        if token_id is not None:
            try:
                name = doc.character_of(token_id).name
            except KeyError:
                self._shooter = None
        self.shooter_label.setText(name if self._shooter else "— select a token on the map —")
        # a new shooter gets the nearest enemy in sight, never the last shooter's target
        keep = None
        if self._shooter is not None:
            keep = nearest_enemy(doc.table, doc.token(self._shooter), self.geometry_cache)
        self._fill_targets(keep)
        self._fill_weapons()
        self._strays_hit_shown = False
        self.last_outcome = None
        self._sync_series_row()
        self.clear_preview()
        self.recompute()

    def set_target(self, token_id: str | None) -> None:
        i = self.target_combo.findData(token_id) if token_id else 0
        self.target_combo.setCurrentIndex(max(i, 0))
        self._inputs_changed()

    def set_mode(self, mode: str) -> None:
        self.mode_buttons[mode].setChecked(True)
        self.shot_row.setVisible(mode != "melee")
        self.aim_row.setVisible(mode == "ranged")
        self.melee_row.setVisible(mode == "melee")
        self.skill_adv_row.setVisible(mode == "melee")
        self.improvised_row.setVisible(mode == "melee")
        self.choose_loc_row.setVisible(mode == "melee")
        self._sync_defense_row()
        self.fan_row.setVisible(mode == "ranged" and self.shot_kind() == "fan")
        self._fill_weapons()
        self._inputs_changed()

    def set_shot(self, kind: str) -> None:
        self.shot_buttons[kind].setChecked(True)
        self.aims_spin.setEnabled(kind == "aimed")
        self.aims_spin.setVisible(kind != "fan")
        self.fan_row.setVisible(kind == "fan" and self.mode() == "ranged")
        self._sync_burst_row()
        self._inputs_changed()

    def set_fan(self, shots: int, second: str | None = None, second_shots: int = 0) -> None:
        """Declare a fan: ``shots`` at the target, then ``second_shots`` at ``second``."""
        self._busy = True
        try:
            self.fan_shots_spin.setValue(shots)
            i = self.fan_second_combo.findData(second) if second else 0
            self.fan_second_combo.setCurrentIndex(max(i, 0))
            self.fan_second_spin.setValue(second_shots if second else 0)
        finally:
            self._busy = False
        self.set_shot("fan")

    def _fan_second_chosen(self) -> None:
        _first_second(self.fan_second_combo, self.fan_second_spin)
        self._inputs_changed()

    def set_defense(self, kind: str | None, arm: str = "left_arm") -> None:
        """The defender's declared defence: None, ``"block"`` or ``"dodge"``."""
        self.defense_combo.setCurrentIndex(max(self.defense_combo.findData(kind), 0))
        self.arm_combo.setCurrentIndex(max(self.arm_combo.findData(arm), 0))
        self._defense_changed()

    def _defense_changed(self) -> None:
        self.arm_combo.setVisible(self.defense_combo.currentData() == "block")
        self._inputs_changed()

    def set_called_shot(self, key: str | None, location: str | None = None) -> None:
        """A called shot (001): the key of the table and the location aimed at."""
        self.called_combo.setCurrentIndex(max(self.called_combo.findData(key), 0))
        self._fill_called_locations(location)
        self._inputs_changed()

    def _called_changed(self) -> None:
        self._fill_called_locations(None)
        self._inputs_changed()

    def _fill_called_locations(self, keep: str | None) -> None:
        key = self.called_combo.currentData()
        c = self.called_loc_combo
        c.blockSignals(True)
        c.clear()
        if key is not None:
            allowed = CALLED_SHOT_LOCATIONS[key]
            for loc in _LOCATION_ORDER:
                if loc in allowed:
                    c.addItem(loc.value.replace("_", " "), loc.value)
            default = CALLED_SHOT_DEFAULT.get(key)
            want = keep or (default.value if default is not None else None)
            c.setCurrentIndex(max(c.findData(want), 0))
        c.blockSignals(False)
        c.setVisible(key is not None)

    def set_burst(self, burst: int) -> None:
        i = self.burst_combo.findData(burst)
        if i >= 0:
            self.burst_combo.setCurrentIndex(i)
        self._inputs_changed()

    def _weapon_changed(self) -> None:
        self._auto_cock()
        self._inputs_changed()

    def _inputs_changed(self) -> None:
        if self._busy:
            return
        self._strays_hit_shown = False  # a new attack starts: old rings go
        self.last_outcome = None
        self.clear_preview()
        self.recompute()

    def pick_on_map(self) -> bool:
        """Ask the map view to let the Judge click the target (A's ``pick_target``)."""
        view = find_map_view(self.document)
        if view is None or not hasattr(view, "pick_target"):
            self.message.note("No map to pick from here: choose the target in the list.")
            return False
        self.message.note("Click the target on the map (Esc cancels).")
        view.pick_target(self._picked)
        return True

    def _picked(self, token_id: str | None) -> None:
        if token_id is None:
            self.message.clear()
            return
        if token_id == self._shooter:
            self.message.error("That is the attacker; pick someone else.")
            return
        self.message.clear()
        self.set_target(token_id)

    # ======================================================================= the TN
    def recompute(self) -> AttackPlan | None:
        """Rebuild the plan (TN, AP, situation) and show it; None when refused. The
        possible unintended targets of the planned shot are ringed on the map."""
        self.plan = self._plan()
        self._update_buttons()
        if not self._strays_hit_shown:
            self._flag_candidates(self.plan)
        return self.plan

    def _plan(self) -> AttackPlan | None:
        self.plan = None
        self._sync_defense_row()
        req = self.request()
        self._update_buttons()
        if req is None:
            self.tn_headline.setText("")
            if self._shooter is None:
                self.tn_label.setText("<i>Select the attacker's token on the map.</i>")
            else:
                self.tn_label.setText("<i>Choose a target.</i>")
            return None
        if req.mode != "melee" and self.shot_kind() is None:
            self.tn_headline.setText("")
            self.tn_label.setText("<i>Choose Snap, Normal, Aimed or Fan.</i>")
            return None
        try:
            action = attack_action(self.table, req)
            refusal = action.readiness(self.table)
            if refusal:
                raise RulesError(refusal)
            plan = action.plan(self.table, self.geometry_cache)
        except USER_ERRORS as e:
            self.tn_headline.setText("Not possible")
            self.tn_label.setText(
                f"<span style='color:#b00020'>{html.escape(error_text(e))}</span>"
            )
            return None
        self._show_plan(plan)
        # the TN stays in view; what the table would still refuse (the AP) is said
        why = action.refusal_before_draw(self.table)
        self.declare_mode = "now"
        if (
            segments(self.table)
            and plan.spec is not None
            and plan.request.charge_ap
            and declared_shot(self.table, plan) is None
        ):
            mode = how(self.table, plan.shooter.id, plan.spec.ap)
            if mode != "now":
                declare = WhenAble(who=plan.request.shooter_token, then=action.journal_form())
                why = self.table.why_not(declare)
                if why is None:
                    self.declare_mode = mode
                    when = (
                        "goes on this segment's stack with the others'"
                        if mode == "stack"
                        else f"is carried out when {plan.shooter.name}'s counters cover its "
                        f"{plan.spec.ap} AP"
                    )
                    self.tn_label.setText(
                        self.tn_label.text() + f"<div>Declare: the attack {when} "
                        "(000 Action Timing); its card is drawn when it resolves.</div>"
                    )
        self.refusal = why  # Draw waits: no card is shown for an attack the table refuses
        self.draw_button.setText("Draw" if self.declare_mode == "now" else "Declare")
        flipped = stack_card(self.table, plan)
        if flipped is not None and not why:
            self.tn_label.setText(
                self.tn_label.text()
                + f"<div>Card {flipped.number}, flipped for this action on the initiative "
                "stack, resolves it: Draw reads it (000 Initiative Stack).</div>"
            )
        if why:
            self.tn_label.setText(
                self.tn_label.text()
                + f"<div style='color:#b00020'>Not payable now: {html.escape(why)}</div>"
            )
        return plan

    def _show_plan(self, plan: AttackPlan) -> None:
        tn = plan.tn
        ap = plan.ap
        res = f", result {tn.result_modifier:+d}" if tn.result_modifier else ""
        first = "shot 1: " if len(plan.series) > 1 else ""
        defender = ""
        if plan.defender_ap is not None:
            defender = f" (+{plan.defender_ap.total} {plan.target.name.split()[0]})"
        self.tn_headline.setText(f"{first}TN {tn.tn}{res} · {ap.total} AP{defender} · {plan.pool}")

        def line(value: str, label: str, src: str = "") -> str:
            s = (
                f" <span style='color:#888; font-size:small'>{html.escape(src)}</span>"
                if src
                else ""
            )
            return f"<b>{value}</b> {html.escape(label)}{s}"

        rows = [line(f"TN {tn.base}", tn.base_label, tn.base_source)]
        rows += [line(f"TN {m.value:+d}", m.label, m.source) for m in tn.tn_items]
        rows += [line(f"{m.value:+d}", m.label, m.source) for m in tn.result_items]
        rows += [line(f"{m.value} AP", m.label, m.source) for m in ap.items]
        if plan.defender_ap is not None:
            rows += [line(f"{m.value} AP", m.label, m.source) for m in plan.defender_ap.items]
        text = "<br>".join(rows)
        notes = list(tn.notes) + list(plan.geometry)
        if notes:
            text += (
                "<div style='color:#555'>" + "<br>".join(html.escape(n) for n in notes) + "</div>"
            )
        self.tn_label.setText(text)

    def tn_items(self) -> list[str]:
        """The itemised TN lines as plain text (what the Judge sees before drawing)."""
        if self.plan is None:
            return []
        out = self.plan.tn.reasons() + self.plan.ap.reasons()
        if self.plan.defender_ap is not None:
            out += self.plan.defender_ap.reasons()
        return out

    def _missing_choice(self) -> str | None:
        """Why there is nothing to draw for yet (no attacker, no target), or None."""
        if self._shooter is None:
            return "Select the attacker's token on the map first."
        if self.target_token() is None:
            return "Choose a target first (the list or Pick…)."
        return None

    def _holds_counter(self) -> bool:
        """The attacker holds a bonus counter and the attack can take it (shots, throws)."""
        if self._shooter is None or self.mode() == "melee":
            return False
        try:
            return bool(self.document.character_of(self._shooter).bonus_counter)
        except KeyError:
            return False

    def _counter_chosen(self) -> None:
        """Spend (or keep) the attacker's bonus counter on the card on show."""
        self._counter = self.counter_combo.currentData()
        if self.current is None:
            return
        old = self.spends.copy()
        self.plan = self._plan()
        if self.plan is None or not self._respend(old):
            self._counter = None
            self.counter_combo.setCurrentIndex(0)

    def _aim_action(self) -> Aim | None:
        """The aim ahead at the chosen target with the chosen gun (None: no ranged
        attacker, target or gun chosen)."""
        req = self.request()
        if req is None or req.mode != "ranged" or req.weapon_index is None:
            return None
        try:
            gun = self.document.character_of(req.shooter_token).weapons[req.weapon_index]
        except (KeyError, IndexError):
            return None
        hold = self.aim_hold_check.isChecked() and self.aim_hold_check.isVisibleTo(self)
        return Aim(who=req.shooter_token, target=req.target_token, weapon=gun.weapon_id, hold=hold)

    def aim_ahead(self):
        """Take one aim action at the target now (one undo step); the shot previewed
        next counts it. Returns the table's event, or None when refused."""
        action = self._aim_action()
        if action is None:
            return None
        try:
            event = self.document.apply(action)
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        self.message.note(event.text)
        self.recompute()
        return event

    def _update_aim_button(self) -> None:
        self.aims_spin.setMaximum(self.table.edition.aim.max)
        self.aim_hold_check.setVisible(self.table.edition.aim.across_rounds)
        action = self._aim_action()
        why = "Choose a ranged attacker, a gun and a target." if action is None else None
        if action is not None:
            try:
                why = self.table.why_not(action)
            except USER_ERRORS as e:
                why = error_text(e)
        self.aim_button.setEnabled(why is None)
        if why is None and action is not None:
            why = f"{_AIM_TIP}. Now: {self.table.preview(action)['note']}"
        self.aim_button.setToolTip(why or _AIM_TIP)

    def _update_buttons(self) -> None:
        self._update_aim_button()
        has_plan = self.plan is not None
        missing = self._missing_choice()
        refused = self.refusal if has_plan else None
        self.draw_button.setEnabled(
            has_plan and self.current is None and missing is None and not refused
        )
        self.apply_button.setEnabled(self.current is not None and missing is None)
        self.draw_button.setToolTip(missing or refused or _DRAW_TIP)
        self.apply_button.setToolTip(missing or _APPLY_TIP)
        self.clear_button.setEnabled(self.current is not None)
        rec = self._shown_record()
        self.spend_box.setEnabled(self.current is not None and rec is not None and rec.hit.success)
        show_counter = self._holds_counter()
        self.counter_label.setVisible(show_counter)
        self.counter_combo.setVisible(show_counter)
        self.show_card_button.setEnabled(self.card_view.card() is not None)
        self.show_scatter_button.setEnabled(self._scatter_payload() is not None)

    # ======================================================================= draw
    def draw(self) -> Preview | None:
        """Read the next card (on a copy of the deck) and show the resolution."""
        if self.plan is None and self.recompute() is None:
            return None
        self._typed_block = None
        assert self.plan is not None
        if self.declare_mode != "now":
            self._declare()
            return None
        stacked = stack_card(self.table, self.plan)
        if self.document.deck.physical and stacked is None:
            dlg = PhysicalCardDialog(self, title="Type the card drawn for this attack")
            dlg.accepted.connect(lambda: self._typed_card(dlg.card))
            dlg.open()
            self._dialog = dlg
            return None
        self._typed = None
        self._reset_spends()
        self._strays_hit_shown = False
        if stacked is None and not self._draw_held():
            return None
        return self._preview()

    def _declare(self) -> None:
        """Declare the attack (``when_able``): on the segment's stack, or standing
        until the counters cover it (000 Action Timing). One undo step."""
        assert self.plan is not None
        action = attack_action(self.table, self.plan.request)
        try:
            event = self.document.apply(
                WhenAble(who=self.plan.request.shooter_token, then=action.journal_form())
            )
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        self.message.note(f"Declared: {event.text}")
        self.recompute()
        self._back_to_the_map()
        return None

    def _attack_due(self, intent: object) -> None:
        """A run stopped at a declared attack with choices: show it (its shooter is
        selected already), with the target, weapon and shot declared."""
        if not isinstance(intent, dict):
            return
        kind = str(intent.get("do", ""))
        shots = {
            "snap_shot": "snap",
            "normal_shot": "normal",
            "aimed_shot": "aimed",
            "fan_fire": "fan",
        }
        shot = shots.get(kind)
        if shot is not None and shot in self.shot_buttons:
            self.set_shot(shot)
        target = intent.get("target")
        if isinstance(target, str):
            tok = self.document.token_for(target)
            try:
                tid = tok.id if tok is not None else self.document.token(target).id
            except KeyError:
                tid = None
            if tid is not None:
                self.set_target(tid)
        self.message.note("The run waits for this attack: spend its bumps, then Apply.")
        if self.current is None and self.draw_button.isEnabled() and self.declare_mode == "now":
            self.draw()  # the card the stack flipped for it (or its own): read it now

    def _draw_held(self) -> bool:
        """Take the attack's card off the deck as a table step (``attack_card``): no
        card is shown that the deck has not dealt. Apply joins that step."""
        if self._held is not None and self._held_in_play():
            return True  # drawn already for this attack (a respend, a changed choice)
        shooter = self.shooter_token()
        assert shooter is not None
        key = f"attack-card:{shooter}:{self.document.undo_stack.index()}"
        self._busy = True
        try:
            event = self.document.apply(AttackCard(who=shooter), merge_key=key)
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return False
        finally:
            self._busy = False
        self._held = self.table.deck.card(event.cards[0])
        self._held_key = key
        return True

    def _held_in_play(self) -> bool:
        held = self._held
        return held is not None and any(c.number == held.number for c in self.table.deck.in_play)

    def put_back(self) -> None:
        """Forget the preview; a card Draw took is put back by undoing its step."""
        stack = self.document.undo_stack
        if self._held is not None and self._held_in_play() and stack.index() > 0:
            top = stack.command(stack.index() - 1)
            action = getattr(top, "action", None)
            if isinstance(action, AttackCard):
                self._busy = True
                try:
                    stack.undo()
                finally:
                    self._busy = False
        self._held = None
        self._held_key = None
        self.clear_preview()
        self.recompute()

    def _typed_card(self, card: Card | None) -> None:
        if card is None:
            return
        self._typed = card
        self._typed_block = None
        self._typed_more = []
        self._reset_spends()
        self._preview()

    def _resolve_now(self) -> Preview:
        """Resolve the current plan with the spends and the cards typed so far."""
        return preview(
            self.table,
            self.plan,
            self.series_spends,
            self._typed,
            self.shot_index,
            self._typed_block,
            self._typed_more,
            self._held,
        )

    def _preview(self) -> Preview | None:
        assert self.plan is not None
        try:
            self.current = self._resolve_now()
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        self._fit_series(self.current)
        self.message.clear()
        self._show_preview(self.current)
        self._update_buttons()
        self.tn_toggle.setChecked(False)  # make room for the result and the card
        self.scroll.ensureWidgetVisible(self.card_view, 0, 0)
        self.scroll.ensureWidgetVisible(self.tn_headline, 0, 4)
        self._ask_cards_if_needed()
        return self.current

    # ------------------------------------------------------------- the block's card
    def needs_block_card(self) -> bool:
        """A declared block waits for its typed-in card (physical-card mode)."""
        return self.current is not None and self.current.outcome.needs_block_card

    def _ask_block_card_if_needed(self) -> bool:
        """With a printed deck, a block that must be tested asks for its own card the
        way the attack's draw does (000 Hand to Hand Combat: the block is a test of
        its own against the attack's result)."""
        if not (self.document.deck.physical and self.needs_block_card()):
            return False
        assert self.plan is not None
        who = self.plan.target.name
        dlg = PhysicalCardDialog(self, title=f"Type the card drawn for {who}'s block")
        dlg.accepted.connect(lambda: self._typed_block_card(dlg.card))
        dlg.open()
        self._dialog = dlg
        self.message.note(f"The attack hits: draw a card for {who}'s block and type it in.")
        return True

    def needs_more_card(self) -> str | None:
        """What the next typed-in card is for (a stun check, a fan shot's hit
        location…), or None when the resolution has every card it needs."""
        if self.current is None or not self.document.deck.physical:
            return None
        return self.current.outcome.card_needed

    def _ask_cards_if_needed(self) -> bool:
        """With a printed deck, ask for the next card the resolution needs: the
        block's first (its result decides the blow), then every further card in the
        order the resolution draws them."""
        if self._dialog is not None and self._dialog.isVisible():
            return True  # one question at a time
        return self._ask_block_card_if_needed() or self._ask_more_card_if_needed()

    def _ask_more_card_if_needed(self) -> bool:
        """Ask for the further card the resolution needs (physical-card mode); the
        preview stays provisional until it is typed in."""
        purpose = self.needs_more_card()
        if purpose is None or self.needs_block_card():
            return False
        dlg = PhysicalCardDialog(self, title=f"Type the card drawn for {purpose}")
        dlg.accepted.connect(lambda: self._typed_more_card(dlg.card))
        dlg.open()
        self._dialog = dlg
        self.message.note(f"Draw a card for {purpose} and type it in.")
        return True

    def _typed_more_card(self, card: Card | None) -> None:
        if card is None or self.current is None:
            return
        typed = [self.current.card, *self._typed_more]
        if self._typed_block is not None:
            typed.append(self._typed_block)
        refusal = already_typed(typed, card, "this attack")
        if refusal:
            self.message.error(refusal)
            return
        # cards typed for an earlier set of spends and not read now stay in order
        self._typed_more = [*self._typed_more[: self.current.outcome.typed_used], card]
        if not self._respend(self.spends.copy()):
            self._typed_more.pop()

    def _typed_block_card(self, card: Card | None) -> None:
        if card is None or self.current is None:
            return
        self._typed_block = card
        if not self._respend(self.spends.copy()):
            self._typed_block = None

    def _fit_series(self, p: Preview) -> None:
        """One spends entry and one shot number per checked shot of the series (a
        Phases fan's secondary targets have no check, so no spends of their own)."""
        n = checked_shots(self.plan, len(p.records)) if self.plan is not None else len(p.records)
        while len(self.series_spends) < n:
            self.series_spends.append(Spends())
        self.shot_spin.blockSignals(True)
        self.shot_spin.setRange(1, n)
        self.shot_spin.setValue(self.shot_index + 1)
        self.shot_spin.blockSignals(False)
        self.shot_spin.setVisible(n > 1)

    def _shown_record(self):
        if self.current is None:
            return None
        recs = self.current.records
        return recs[min(self.shot_index, len(recs) - 1)]

    def _shot_chosen(self, value: int) -> None:
        """Spend the bumps of another shot of the series."""
        if self.current is None:
            return
        self.shot_index = max(0, min(value - 1, len(self.series_spends) - 1))
        self._respend(self.spends.copy())

    def _show_preview(self, p: Preview) -> None:
        v = self.card_view
        v.set_card(p.card)
        v.highlight_cause_cells(p.cause_cells, p.chosen)
        v.highlight_effect_cell(*(p.effect_cell or (None, None)))
        v.highlight_hit_location(p.hit_index)
        v.highlight_sections(p.sections)
        v.highlight_burst(p.burst)
        rec = self._shown_record()
        fan3 = self.plan is not None and self.plan.fan is not None and rec.burst is not None
        for w in getattr(self, "extra_hits_widgets", []):
            w.setVisible(bool(fan3))
        sp = rec.spends
        total, left = bumps_left(rec)
        self.bumps_label.setText(
            f"{total} standard bump(s), {left} left"
            + (
                " · conditional: "
                + ", ".join(f"{v} {k}" for k, v in sp.conditional_available.items())
                if sp is not None and sp.conditional_available
                else ""
            )
        )
        loc = rec.location
        if loc is not None:
            self.loc_label.setText(loc.location.value.replace("_", " "))
        else:
            self.loc_label.setText("—")
        for key in ("penetration", "damage", "extra_hits", "dominance", "burst_pen"):
            self.spin_rows[key][2].setText(str(getattr(self.spends, key)))
        for widget in self.dominance_widgets:
            widget.setVisible(self.mode() == "melee")
        has_burst = bool(sp is not None and sp.conditional_available.get("burst"))
        for widget in self.burst_pen_widgets:
            widget.setVisible(has_burst or self.spends.burst_pen > 0)
        figs = list(p.card.figures)
        for i, d in self.spends.stray:
            figs[i] += d
        for i, b in enumerate(self.stray_buttons):
            b.setText(str(figs[i]))
        self._fill_secondary(rec)
        records = p.records
        parts = []
        spread = self.plan is not None and bool(self.plan.burst_others)
        shots = checked_shots(self.plan, len(records)) if self.plan is not None else len(records)
        for i, r in enumerate(records):
            head = f"<u>Shot {i + 1} of {shots}</u><br>" if shots > 1 and i < shots else ""
            if spread and len(records) > 1:
                head = "<u>The burst</u><br>" if i == 0 else "<u>Sent on</u><br>"
            if r.stray_of is not None:
                head = "<u>A stray shot</u><br>"
            parts.append(head + self._result_html(r))
        if p.outcome.card_needed and self.document.deck.physical:
            parts.insert(
                0,
                "<span style='color:#b00020'>Provisional — waiting for the card drawn for "
                f"{html.escape(p.outcome.card_needed)}</span>",
            )
        self.result_label.setText("<br>".join(parts))

    # ------------------------------------------------- 003 fan: secondary targets
    def _secondary_choices(self) -> list[tuple[str, list[str]]]:
        return fan_secondary_choices(self.plan) if self.plan is not None else []

    def _fill_secondary(self, rec) -> None:
        choices = self._secondary_choices() if self.shot_index == 0 else []
        show = bool(choices) and len(choices) > 1 and rec is not None and rec.hit.success
        c = self.secondary_combo
        c.blockSignals(True)
        c.clear()
        if show:
            for text, ids in choices:
                c.addItem(text, ",".join(ids))
            c.setCurrentIndex(max(c.findData(",".join(self.spends.secondary)), 0))
        c.blockSignals(False)
        c.setVisible(show)
        self.secondary_label.setVisible(show)

    def set_fan_secondary(self, token_ids: list[str]) -> bool:
        """Buy secondary targets for the previewed Phases fan (one bump each, 003)."""
        if self.current is None:
            return False
        self.shot_index = 0
        old = self.spends.copy()
        self.spends.secondary = list(token_ids)
        return self._respend(old)

    def _secondary_chosen(self) -> None:
        data = self.secondary_combo.currentData() or ""
        if not self.set_fan_secondary([t for t in data.split(",") if t]):
            c = self.secondary_combo
            c.setCurrentIndex(max(c.findData(",".join(self.spends.secondary)), 0))

    def _result_html(self, rec) -> str:
        doc = self.document
        head = html.escape(named_summary(doc.table, rec))
        lines = [f"<b>{head}</b>"]
        h = rec.hit
        lines.append(
            ("CF — calamity" if h.cf else ("Hit" if h.success else "Miss"))
            + f": result {h.result} vs TN {h.tn}"
        )
        for c in rec.covers:
            lines.append(
                f"Cover {html.escape(c.material.replace('_', ' '))}: PV {c.pv} vs AV {c.av} → {c.outcome}"
            )
        if rec.damage is not None:
            d = rec.damage
            lines.append(
                f"{d.wounds_added} wound(s) to the {d.location.value.replace('_', ' ')}, "
                f"{d.conc_dealt} Conc; wound level {d.wound_level} ({html.escape(d.wound_level_name)})"
            )
            if d.killed:
                lines.append("<span style='color:#b00020'><b>Killed</b></span>")
            elif d.unconscious:
                lines.append("<b>Unconscious</b>")
        if rec.stun is not None:
            lines.append("Stunned" if getattr(rec.stun, "stunned", False) else "Not stunned")
        if rec.equipment_failure is not None and rec.equipment_failure.failed:
            lines.append("<span style='color:#b00020'>Equipment failure</span>")
        if rec.strays is not None and rec.strays.stray_shots:
            hit = (
                ", ".join(html.escape(self._name(c)) for c in rec.strays.candidates_hit) or "no one"
            )
            lines.append(f"{rec.strays.stray_shots} stray shot(s): hits {hit}")
        if rec.scatter is not None:
            s = rec.scatter
            lines.append(f"Scatters {s.distance} paces toward {s.clock_hour} o'clock")
        if rec.block_outcome is not None:
            what = {
                "failed": "the block fails",
                "to_arm": "the block ties: the blow lands on the arm",
                "blocked": "blocked",
            }[rec.block_outcome]
            lines.append(f"{html.escape(self._name(rec.target_id))}: {what}")
        if rec.blast is not None:
            blast = blast_lines(doc.table, rec.blast) or ["no one else within it"]
            lines.append(
                f"<b>Blast ({rec.blast.radius} p)</b>: " + "; ".join(html.escape(x) for x in blast)
            )
        for d in rec.discharges:
            if not d.discharged:
                continue
            w = doc.gear.weapons.get(d.weapon_id or "")
            what = f"{w.name if w else 'a stowed gun'} goes off in its holster"
            if d.damage is not None:
                what += (
                    f": {d.damage.wounds_added} wound(s) to the "
                    f"{d.damage.location.value.replace('_', ' ')}, {d.damage.conc_dealt} Conc"
                )
            else:
                what += ": the round misses"
            lines.append(f"<span style='color:#b00020'>{html.escape(what)}</span>")
        return "<br>".join(lines)

    def _name(self, key: str) -> str:
        """The name behind a character id or a token id."""
        return display_name(self.table, key)

    def clear_preview(self) -> None:
        self.tn_toggle.setChecked(True)
        self.current = None
        self._counter = None
        self.counter_combo.setCurrentIndex(0)
        self._typed = None
        self._typed_block = None
        self._typed_more = []
        self._reset_spends()
        self.shot_spin.hide()
        self.secondary_combo.hide()
        self.secondary_label.hide()
        self.card_view.set_card(None)
        self.result_label.setText("")
        self.bumps_label.setText("")
        self.loc_label.setText("")
        for b in self.stray_buttons:
            b.setText("")
        self._update_buttons()

    def _open_card(self) -> None:
        if self.card_view.card() is not None:
            CardDialog(self.card_view.card(), self.card_view.highlights(), parent=self).open()

    # ======================================================================= spends
    def _respend(self, old: Spends) -> bool:
        """Resolve again with the new spends; a refused spend is undone with its reason."""
        assert self.plan is not None
        try:
            self.current = self._resolve_now()
        except USER_ERRORS as e:
            self.spends = old
            self.message.error(error_text(e))
            return False
        self._fit_series(self.current)
        self.message.clear()
        self._show_preview(self.current)
        self._update_buttons()
        self._ask_cards_if_needed()
        return True

    def move_location(self, step: int) -> bool:
        """Move the hit one entry up (−1) or down (+1) the stack, paying its bumps."""
        p = self.current
        rec = self._shown_record()
        if p is None or rec is None or rec.location is None or rec.location.stack_index is None:
            return False
        old = self.spends.copy()
        cur = self.spends.hit_index
        if cur is None:
            cur = rec.location.stack_index
        new = cur + step
        if not 0 <= new <= 3:
            self.message.error("The hit location stack has no further entry that way.")
            return False
        self.spends.hit_index = new
        ok = self._respend(old)
        shown = self._shown_record()
        if ok and shown is not None and shown.location is not None:
            cost = shown.location.bumps_spent
            self.message.note(f"Hit location entry {new + 1}: {cost} bump(s).")
        return ok

    def change_spend(self, key: str, delta: int) -> bool:
        if self.current is None:
            return False
        old = self.spends.copy()
        value = getattr(self.spends, key) + delta
        if value < 0:
            return False
        setattr(self.spends, key, value)
        return self._respend(old)

    def stray_spend(self, figure: int, delta: int) -> bool:
        if self.current is None:
            return False
        old = self.spends.copy()
        self.spends.stray.append((figure, delta))
        return self._respend(old)

    def _reset_stray(self) -> None:
        if self.current is None or not self.spends.stray:
            return
        self.spends.stray = []
        self._respend(self.spends.copy())

    # ======================================================================= apply
    def apply(self):
        """Apply the previewed attack as one undoable step; returns its (first) record."""
        if self.current is None or self.plan is None:
            return None
        plan = self.recompute()
        if plan is None:
            return None
        if self.document.deck.physical and self.needs_block_card():
            self._ask_block_card_if_needed()
            self.message.error("Type in the card drawn for the block before applying.")
            return None
        purpose = self.needs_more_card()
        if purpose is not None:
            self._ask_more_card_if_needed()
            self.message.error(f"Type in the card drawn for {purpose} before applying.")
            return None
        expected = self.current.card.number
        self._busy = True  # the document's signals during the push must not clear the card
        try:
            action = attack_action(
                self.table,
                plan.request,
                self.series_spends,
                typed=self._typed,
                typed_block=self._typed_block,
                typed_more=self._typed_more,
                expect_card=expected,
                held_card=self._held.number if self._held is not None else None,
            )
            key = self._held_key if self._held is not None else None
            event = self.document.apply(action, merge_key=key)
            outcome = event.raw[0]
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        finally:
            self._busy = False
        self.last_outcome = outcome
        self._applied_at = self.document.undo_stack.index()
        # said in the message line, which stays when the selection moves on to whoever
        # is due next (Preferences) and the card and result make way for their attack
        self.message.note(f"Applied: {event.text} (Ctrl+Z undoes it and puts the card back).")
        self.current = None  # the card and the result stay in view until the next change
        self._held = None
        self._held_key = None
        self._typed = None
        self._typed_block = None
        self._typed_more = []
        self._series = []  # the series is made: the next attack is declared anew
        self._sync_series_row()
        self._reset_spends()
        self._refill()
        self.recompute()
        self._flag_strays(outcome)
        self._update_buttons()
        self._back_to_the_map()
        self.attackApplied.emit(outcome.record)
        return outcome.record

    def _back_to_the_map(self) -> None:
        """After Apply the keyboard goes back to the map with the shooter still
        selected, so the next key (a turn, F6, F7) or click acts on the table at once."""
        view = find_map_view(self.document)
        if view is None:
            return
        if self._shooter is not None and self.document.selected_token() is None:
            self.document.select(self._shooter)
        view.setFocus(Qt.FocusReason.OtherFocusReason)

    # ======================================================================= the map
    def _overlays(self):
        return getattr(find_map_view(self.document), "overlays", None)

    def _token_ids(self, keys) -> list[str]:
        """Token ids for a list of token or character ids."""
        out = []
        for key in keys:
            try:
                out.append(self.document.token(key).id)
                continue
            except KeyError:
                pass
            tok = self.document.token_for(key)
            if tok is not None:
                out.append(tok.id)
        return out

    def _flag_candidates(self, plan: AttackPlan | None) -> None:
        """Ring the possible unintended targets of the planned shot (000: the Judge
        tells the table before the shot)."""
        ov = self._overlays()
        if ov is None or not hasattr(ov, "flag_stray_targets"):
            return
        ids: list[str] = []
        if plan is not None:
            sits = [s.situation for s in plan.series] or [plan.situation]
            for sit in sits:
                if sit is not None:
                    ids += [t for t in sit.unintended_candidates if t not in ids]
        ov.flag_stray_targets(self._token_ids(ids))

    def _flag_strays(self, outcome: Outcome) -> None:
        """After Apply: the candidates a stray shot hit, ringed in red until the next
        attack starts."""
        hit: list[str] = []
        cands: list[str] = []
        for rec in outcome.records:
            if rec.strays is not None:
                hit += list(rec.strays.candidates_hit)
        if self.plan is not None:
            sits = [s.situation for s in self.plan.series] or [self.plan.situation]
            for sit in sits:
                if sit is not None:
                    cands += list(sit.unintended_candidates)
        ov = self._overlays()
        if ov is None or not hasattr(ov, "flag_stray_targets") or not (hit or cands):
            return
        ov.flag_stray_targets(self._token_ids(cands), hit=self._token_ids(hit))
        self._strays_hit_shown = bool(hit)

    def clear_stray_flags(self) -> None:
        """Take the unintended-target rings off the map."""
        self._strays_hit_shown = False
        ov = self._overlays()
        if ov is not None and hasattr(ov, "clear_stray_flags"):
            ov.clear_stray_flags()

    def show_card(self) -> bool:
        """Put the card on show (the drawn one, or the last applied) on the players'
        screen."""
        card = self.card_view.card()
        if card is None:
            return False
        self.document.show_players("card", card)
        self.message.note(f"Card {card.number} is on the players' screen.")
        return True

    def _scatter_payload(self):
        out = self.current.outcome if self.current is not None else self.last_outcome
        if out is None or out.landing is None or self.plan is None:
            return None
        rec = out.record
        if rec.attack_kind != "thrown":
            return None
        try:
            thrower = self.document.token_for(rec.attacker_id)
            target = self.document.token_for(rec.target_id)
        except KeyError:
            return None
        if thrower is None or target is None:
            return None
        return (thrower.at, target.at, out.landing)

    def show_scatter(self) -> bool:
        """Put the throw (thrower, target, landing hexes) on the players' screen."""
        payload = self._scatter_payload()
        if payload is None:
            return False
        self.document.show_players("scatter", payload)
        self.message.note("The throw is on the players' screen.")
        return True

    # ======================================================================= document
    def _on_selection(self, token_id: object) -> None:
        if token_id == self._shooter:
            return
        self.set_shooter(token_id)  # type: ignore[arg-type]

    def _on_undo_index(self, index: int) -> None:
        """The panel follows undo and redo: an applied attack taken back leaves the card
        and result it showed (the card is back on the pile), and the plan is read
        again for the state as it is now."""
        if self._busy or self._applied_at is None or index >= self._applied_at:
            return
        if not shiboken_valid(self.document) or not shiboken_valid(self):
            return  # the stack is being cleared as the document or the panel goes
        self._applied_at = None
        self.last_outcome = None
        self.clear_preview()
        self.message.note("The attack was undone; its card is back on the pile.")
        self.recompute()

    def _on_changed(self, area: str) -> None:
        if self._busy:
            return
        if area in ("deck",) and self.current is not None and self._typed is None:
            # the deck moved under the preview (undo, another draw): read again
            self.clear_preview()
        if area in ("tokens", "characters", "map", "all", "file", "track", "mode"):
            if area in ("tokens", "characters", "all", "file"):
                self._refill()
            if self.current is None:
                self.recompute()

    def _refill(self) -> None:
        """Re-read the target list and the weapons, keeping the choices."""
        keep = self.target_token()
        wkeep = self.weapon_combo.currentData()
        if self._shooter is not None:
            try:
                self.document.token(self._shooter)
            except KeyError:
                self._shooter = None
                self.shooter_label.setText("— select a token on the map —")
        self._busy = True
        try:
            self._fill_targets(keep)
            self._fill_weapons(wkeep)
        finally:
            self._busy = False


__all__ = ["AttackPanel"]
