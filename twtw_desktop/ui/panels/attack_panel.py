"""The attack panel: the heart of the table (000 "Combat Actions", "Action Cards in
Combat").

Select the shooter (the map's selected token), the target (the nearest enemy is
pre-chosen; pick another on the map or in the list), the weapon and the shot type:
the panel shows the TN with every modifier itemised and the AP cost before anything
is drawn. **Draw** shows the card with the cells the resolution read; the Judge
spends bumps with clicks; **Apply** writes it all as one undoable step (see
:mod:`.attack_flow`). A routine snap shot from a selected shooter is Snap → Draw →
Apply. Hand-to-hand and thrown attacks use the same flow (the mode buttons).
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

from ...rules.card import Card
from ...rules.combat.bumps import hit_location_cost
from ..widgets.card_entry import PhysicalCardDialog
from ..widgets.card_view import CardDialog, CardView
from ._common import USER_ERRORS, MessageLabel, VerticalScroll, error_text, find_map_view
from .attack_flow import (
    AttackPlan,
    AttackRequest,
    Geometry,
    Preview,
    Spends,
    apply_attack,
    default_weapon_index,
    named_summary,
    nearest_enemy,
    plan_attack,
    preview,
    usable_weapons,
)

_CALLED = (
    ("no called shot", None),
    ("torso (−2)", "torso"),
    ("limb (−4)", "limb"),
    ("head / hand / foot (−6)", "head_hand_foot"),
    ("eye / heart (−10)", "eye_heart"),
)
_MELEE_TYPES = (
    ("Quick attack", "quick"),
    ("Standard attack", "standard"),
    ("Heavy attack", "heavy"),
    ("Shove (dominance)", "shove"),
)


def _button(text: str, tip: str = "", checkable: bool = False) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.setCheckable(checkable)
    return b


class AttackPanel(QWidget):
    """Shooter → target → weapon and shot → TN → Draw → spends → Apply."""

    #: emitted after an attack is applied (its record)
    attackApplied = Signal(object)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("AttackPanel")
        self.geometry_cache = Geometry(document)
        self.plan: AttackPlan | None = None
        self.current: Preview | None = None
        self.spends = Spends()
        self._typed: Card | None = None
        self._shooter: str | None = None
        self._consumed: set[tuple[int, int, int]] = set()
        self._busy = False
        self._dialog: PhysicalCardDialog | None = None

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
        self.target_combo = QComboBox()
        self.target_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.target_combo.setMinimumContentsLength(10)
        self.target_combo.activated.connect(lambda _i: self._inputs_changed())
        self.pick_button = _button("Pick…", "Click the target's token on the map")
        self.pick_button.clicked.connect(self.pick_on_map)
        g.addWidget(QLabel("Target"), 2, 0)
        g.addWidget(self.target_combo, 2, 1)
        g.addWidget(self.pick_button, 2, 2)
        self.weapon_combo = QComboBox()
        self.weapon_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.weapon_combo.setMinimumContentsLength(10)
        self.weapon_combo.activated.connect(lambda _i: self._weapon_changed())
        self.weapon_state = QLabel()
        self.weapon_state.setStyleSheet("color: #555;")
        g.addWidget(QLabel("Weapon"), 3, 0)
        g.addWidget(self.weapon_combo, 3, 1, 1, 2)
        self.cock_check = QCheckBox("cock first")
        self.cock_check.setToolTip("Cock the hammer as part of this action (its AP is added)")
        self.cock_check.toggled.connect(lambda _v: self._inputs_changed())
        state_row = QHBoxLayout()
        state_row.addWidget(self.weapon_state, 1)
        state_row.addWidget(self.cock_check)
        g.addLayout(state_row, 4, 1, 1, 2)
        g.setColumnStretch(1, 1)
        lay.addLayout(g)

        # -- shot type -------------------------------------------------------------
        self.shot_row = QWidget()
        h = QHBoxLayout(self.shot_row)
        h.setContentsMargins(0, 0, 0, 0)
        h.setSpacing(3)
        self.shot_group = QButtonGroup(self)
        self.shot_buttons: dict[str, QToolButton] = {}
        for kind, text, tip in (
            ("snap", "Snap", "Snap shot: fewer AP, the weapon's snap penalty (000)"),
            ("normal", "Normal", "Normal shot (000)"),
            ("aimed", "Aimed", "Normal shot after 1–2 aim actions (000)"),
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
        self.aims_spin = QSpinBox()
        self.aims_spin.setRange(1, 2)
        self.aims_spin.setPrefix("aims ")
        self.aims_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.aims_spin)
        h.addStretch(1)
        lay.addWidget(self.shot_row)

        self.melee_row = QWidget()
        h = QHBoxLayout(self.melee_row)
        h.setContentsMargins(0, 0, 0, 0)
        self.melee_combo = QComboBox()
        for text, key in _MELEE_TYPES:
            self.melee_combo.addItem(text, key)
        self.melee_combo.setCurrentIndex(1)
        self.melee_combo.activated.connect(lambda _i: self._inputs_changed())
        h.addWidget(self.melee_combo)
        self.careful_check = QCheckBox("careful (+2 AP, +1)")
        self.careful_check.toggled.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.careful_check)
        self.kick_check = QCheckBox("kick")
        self.kick_check.toggled.connect(lambda _v: self._inputs_changed())
        h.addWidget(self.kick_check)
        h.addStretch(1)
        lay.addWidget(self.melee_row)
        self.melee_row.hide()

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
        self.appearing_check = QCheckBox("appearing / disappearing")
        self.melee_target_check = QCheckBox("target in a melee")
        self.melee_target_check.setTristate(True)
        self.melee_target_check.setCheckState(Qt.CheckState.PartiallyChecked)
        self.melee_target_check.setToolTip(
            "Partly checked: read from the map (someone beside the target)"
        )
        self.two_weapons_check = QCheckBox("two weapons")
        self.off_hand_check = QCheckBox("off hand")
        self.charge_check = QCheckBox("charge AP on the track")
        self.charge_check.setChecked(True)
        self.called_combo = QComboBox()
        for text, key in _CALLED:
            self.called_combo.addItem(text, key)
        self.secondary_spin = QSpinBox()
        self.secondary_spin.setRange(0, 9)
        self.secondary_spin.setPrefix("target #")
        self.secondary_spin.setSpecialValueText("first target")
        for i, w in enumerate(
            (
                self.point_blank_check,
                self.appearing_check,
                self.melee_target_check,
                self.two_weapons_check,
                self.off_hand_check,
                self.charge_check,
            )
        ):
            sw.addWidget(w, i // 2, i % 2)
            w.toggled.connect(lambda _v: self._inputs_changed())
        self.melee_target_check.stateChanged.connect(lambda _v: self._inputs_changed())
        sw.addWidget(self.called_combo, 3, 0)
        sw.addWidget(self.secondary_spin, 3, 1)
        self.called_combo.activated.connect(lambda _i: self._inputs_changed())
        self.secondary_spin.valueChanged.connect(lambda _v: self._inputs_changed())
        self.situation_widgets.hide()
        self.situation_toggle.toggled.connect(self._toggle_situation)
        lay.addWidget(self.situation_toggle)
        lay.addWidget(self.situation_widgets)

        # -- the TN before the draw ---------------------------------------------------------
        head = QHBoxLayout()
        self.tn_headline = QLabel()
        self.tn_headline.setStyleSheet("font-size: 15px; font-weight: bold;")
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
        self.draw_button = _button(
            "Draw", "Draw the action card and read it (nothing is applied yet)"
        )
        self.draw_button.setStyleSheet("font-weight: bold;")
        self.draw_button.clicked.connect(self.draw)
        self.apply_button = _button(
            "Apply", "Write the result to the sheets, the map, the track and the log (undoable)"
        )
        self.apply_button.setStyleSheet("font-weight: bold;")
        self.apply_button.clicked.connect(self.apply)
        self.clear_button = _button("Put back", "Forget the drawn card (nothing was applied)")
        self.clear_button.clicked.connect(self.clear_preview)
        row.addWidget(self.draw_button)
        row.addWidget(self.apply_button)
        row.addWidget(self.clear_button)
        lay.addLayout(row)
        self.message = MessageLabel()
        lay.addWidget(self.message)

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
        sp.addWidget(self.bumps_label, 0, 0, 1, 4)
        sp.addWidget(QLabel("Hit location"), 1, 0)
        self.loc_up = _button("▲ up", "Spend bumps to move the hit up the stack")
        self.loc_down = _button("▼ down", "Spend bumps to move the hit down the stack")
        self.loc_up.clicked.connect(lambda: self.move_location(-1))
        self.loc_down.clicked.connect(lambda: self.move_location(1))
        sp.addWidget(self.loc_up, 1, 1)
        sp.addWidget(self.loc_down, 1, 2)
        self.loc_label = QLabel()
        sp.addWidget(self.loc_label, 1, 3)
        self.spin_rows: dict[str, tuple[QPushButton, QPushButton, QLabel]] = {}
        for r, (key, text) in enumerate((("penetration", "Penetration"), ("damage", "Damage")), 2):
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
        sp.addWidget(QLabel("Stray shot"), 4, 0)
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
        sp.addLayout(stray, 4, 1, 1, 3)
        lay.addWidget(self.spend_box)

        self.card_view = CardView()
        self.card_view.setMinimumSize(180, 300)
        self.card_view.setMaximumHeight(440)
        self.card_view.clicked.connect(self._open_card)
        self.card_view.setToolTip("Click for a larger card")
        lay.addWidget(self.card_view)
        lay.addStretch(1)

        document.selectionChanged.connect(self._on_selection)
        document.changed.connect(self._on_changed)
        self._on_selection(document.selected_token_id)

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
        for t in doc.encounter.tokens:
            if t.id == self._shooter:
                continue
            try:
                c = doc.character(t.character_id)
            except KeyError:
                continue
            label = c.name
            if me is not None:
                from ...hexgrid import Hex

                d = Hex(*t.hex).distance(doc.token(self._shooter).at)
                label += f" ({d} p)"
            if c.dead:
                label += " †"
            self.target_combo.addItem(label, t.id)
        i = self.target_combo.findData(keep) if keep else -1
        self.target_combo.setCurrentIndex(max(i, 0))
        self.target_combo.blockSignals(False)

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
            for i, w in usable_weapons(doc, shooter, mode):  # type: ignore[arg-type]
                self.weapon_combo.addItem(w.name, i)
            if keep is None:
                keep = default_weapon_index(doc, shooter, doc.token(self._shooter), mode)  # type: ignore[arg-type]
            j = self.weapon_combo.findData(keep)
            self.weapon_combo.setCurrentIndex(max(j, 0))
        self.weapon_combo.blockSignals(False)
        self._auto_cock()

    def _auto_cock(self) -> None:
        """Tick "cock first" when the chosen gun needs its hammer cocked and is not."""
        plan_weapon = self._weapon()
        self.cock_check.blockSignals(True)
        if plan_weapon is None:
            self.cock_check.setChecked(False)
            self.cock_check.setEnabled(False)
        else:
            w, cw = plan_weapon
            self.cock_check.setEnabled(w.cock_ap is not None and not cw.cocked)
            self.cock_check.setChecked(
                w.needs_cocking and not cw.cocked and self.mode() == "ranged"
            )
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
        self.cock_check.blockSignals(False)

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
            melee_attack=self.melee_combo.currentData(),
            careful=self.careful_check.isChecked(),
            kick=self.kick_check.isChecked(),
            point_blank=self.point_blank_check.isChecked(),
            appearing=self.appearing_check.isChecked(),
            called_shot=self.called_combo.currentData(),
            secondary_index=self.secondary_spin.value(),
            two_weapons=self.two_weapons_check.isChecked(),
            off_hand=self.off_hand_check.isChecked(),
            target_in_melee=in_melee,
            charge_ap=self.charge_check.isChecked(),
        )

    # ======================================================================= actions
    def set_shooter(self, token_id: str | None) -> None:
        self._shooter = token_id
        doc = self.document
        name = "— select a token on the map —"
        if token_id is not None:
            try:
                name = doc.character_of(token_id).name
            except KeyError:
                self._shooter = None
        self.shooter_label.setText(name if self._shooter else "— select a token on the map —")
        keep = self.target_token()
        if keep == token_id:
            keep = None
        if keep is None and self._shooter is not None:
            keep = nearest_enemy(doc, doc.token(self._shooter), self.geometry_cache)
        self._fill_targets(keep)
        self._fill_weapons()
        self.clear_preview()
        self.recompute()

    def set_target(self, token_id: str | None) -> None:
        i = self.target_combo.findData(token_id) if token_id else 0
        self.target_combo.setCurrentIndex(max(i, 0))
        self._inputs_changed()

    def set_mode(self, mode: str) -> None:
        self.mode_buttons[mode].setChecked(True)
        self.shot_row.setVisible(mode != "melee")
        self.melee_row.setVisible(mode == "melee")
        self._fill_weapons()
        self._inputs_changed()

    def set_shot(self, kind: str) -> None:
        self.shot_buttons[kind].setChecked(True)
        self.aims_spin.setEnabled(kind == "aimed")
        self._inputs_changed()

    def _weapon_changed(self) -> None:
        self._auto_cock()
        self._inputs_changed()

    def _inputs_changed(self) -> None:
        if self._busy:
            return
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
        """Rebuild the plan (TN, AP, situation) and show it; None when refused."""
        self.plan = None
        req = self.request()
        doc = self.document
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
            self.tn_label.setText("<i>Choose Snap, Normal or Aimed.</i>")
            return None
        try:
            self.plan = plan_attack(doc, req, self.geometry_cache)
        except USER_ERRORS as e:
            self.tn_headline.setText("Not possible")
            self.tn_label.setText(
                f"<span style='color:#b00020'>{html.escape(error_text(e))}</span>"
            )
            self._update_buttons()
            return None
        self._show_plan(self.plan)
        self._update_buttons()
        return self.plan

    def _show_plan(self, plan: AttackPlan) -> None:
        tn = plan.tn
        ap = plan.ap
        res = f", result {tn.result_modifier:+d}" if tn.result_modifier else ""
        self.tn_headline.setText(f"TN {tn.tn}{res} · {ap.total} AP · {plan.pool}")

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
        return self.plan.tn.reasons() + self.plan.ap.reasons()

    def _update_buttons(self) -> None:
        has_plan = self.plan is not None
        self.draw_button.setEnabled(has_plan and self.current is None)
        self.apply_button.setEnabled(self.current is not None)
        self.clear_button.setEnabled(self.current is not None)
        self.spend_box.setEnabled(self.current is not None and self.current.record.hit.success)

    # ======================================================================= draw
    def draw(self) -> Preview | None:
        """Read the next card (on a copy of the deck) and show the resolution."""
        if self.plan is None and self.recompute() is None:
            return None
        if self.document.deck.physical:
            dlg = PhysicalCardDialog(self, title="Type the card drawn for this attack")
            dlg.accepted.connect(lambda: self._typed_card(dlg.card))
            dlg.open()
            self._dialog = dlg
            return None
        self._typed = None
        self.spends = Spends()
        return self._preview()

    def _typed_card(self, card: Card | None) -> None:
        if card is None:
            return
        self._typed = card
        self.spends = Spends()
        self._preview()

    def _preview(self) -> Preview | None:
        assert self.plan is not None
        try:
            self.current = preview(self.document, self.plan, self.spends, self._typed)
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        self.message.clear()
        self._show_preview(self.current)
        self._update_buttons()
        self.tn_toggle.setChecked(False)  # make room for the result and the card
        self.scroll.ensureWidgetVisible(self.card_view, 0, 0)
        self.scroll.ensureWidgetVisible(self.tn_headline, 0, 4)
        return self.current

    def _show_preview(self, p: Preview) -> None:
        v = self.card_view
        v.set_card(p.card)
        v.highlight_cause_cells(p.cause_cells, p.chosen)
        v.highlight_effect_cell(*(p.effect_cell or (None, None)))
        v.highlight_hit_location(p.hit_index)
        v.highlight_sections(p.sections)
        v.highlight_burst(p.burst)
        rec = p.record
        sp = rec.spends
        total = rec.hit.bumps
        used = 0
        if sp is not None:
            used = sp.hit_location + sp.penetration + sp.damage + sp.stray
        self.bumps_label.setText(
            f"{total} standard bump(s), {max(total - used, 0)} left"
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
        self.spin_rows["penetration"][2].setText(str(self.spends.penetration))
        self.spin_rows["damage"][2].setText(str(self.spends.damage))
        figs = list(p.card.figures)
        for i, d in self.spends.stray:
            figs[i] += d
        for i, b in enumerate(self.stray_buttons):
            b.setText(str(figs[i]))
        self.result_label.setText(self._result_html(rec))

    def _result_html(self, rec) -> str:
        doc = self.document
        head = html.escape(named_summary(doc, rec))
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
        return "<br>".join(lines)

    def _name(self, key: str) -> str:
        """The name behind a character id or a token id."""
        try:
            return self.document.character(key).name
        except KeyError:
            pass
        try:
            return self.document.character_of(key).name
        except KeyError:
            return key

    def clear_preview(self) -> None:
        self.tn_toggle.setChecked(True)
        self.current = None
        self._typed = None
        self.spends = Spends()
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
            self.current = preview(self.document, self.plan, self.spends, self._typed)
        except USER_ERRORS as e:
            self.spends = old
            self.message.error(error_text(e))
            return False
        self.message.clear()
        self._show_preview(self.current)
        self._update_buttons()
        return True

    def move_location(self, step: int) -> bool:
        """Move the hit one entry up (−1) or down (+1) the stack, paying its bumps."""
        p = self.current
        if p is None or p.record.location is None or p.record.location.stack_index is None:
            return False
        old = Spends(
            self.spends.hit_index,
            self.spends.penetration,
            self.spends.damage,
            list(self.spends.stray),
        )
        cur = self.spends.hit_index
        if cur is None:
            cur = p.record.location.stack_index
        new = cur + step
        if not 0 <= new <= 3:
            self.message.error("The hit location stack has no further entry that way.")
            return False
        self.spends.hit_index = new
        ok = self._respend(old)
        if ok:
            cost = hit_location_cost(p.card, new)
            self.message.note(f"Hit location entry {new + 1}: {cost} bump(s).")
        return ok

    def change_spend(self, key: str, delta: int) -> bool:
        if self.current is None:
            return False
        old = Spends(
            self.spends.hit_index,
            self.spends.penetration,
            self.spends.damage,
            list(self.spends.stray),
        )
        value = getattr(self.spends, key) + delta
        if value < 0:
            return False
        setattr(self.spends, key, value)
        return self._respend(old)

    def stray_spend(self, figure: int, delta: int) -> bool:
        if self.current is None:
            return False
        old = Spends(
            self.spends.hit_index,
            self.spends.penetration,
            self.spends.damage,
            list(self.spends.stray),
        )
        self.spends.stray.append((figure, delta))
        return self._respend(old)

    def _reset_stray(self) -> None:
        if self.current is None or not self.spends.stray:
            return
        self.spends.stray = []
        self._preview()

    # ======================================================================= apply
    def apply(self):
        """Apply the previewed attack as one undoable step."""
        if self.current is None or self.plan is None:
            return None
        plan = self.recompute()
        if plan is None:
            return None
        expected = self.current.card.number
        self._busy = True  # the document's signals during the push must not clear the card
        try:
            record = apply_attack(
                self.document, plan, self.spends, expected, self._typed, self._consumed
            )
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return None
        finally:
            self._busy = False
        self.message.note("Applied (Ctrl+Z undoes it and puts the card back).")
        self._flag_strays(record)
        self.current = None  # the card and the result stay in view until the next change
        self._typed = None
        self.spends = Spends()
        self._refill()
        self.recompute()
        self.attackApplied.emit(record)
        return record

    def _flag_strays(self, record) -> None:
        if record.strays is None or not record.strays.candidates_hit:
            return
        view = find_map_view(self.document)
        overlays = getattr(view, "overlays", None)
        tokens = []
        for key in record.strays.candidates_hit:  # token ids (or character ids)
            try:
                tokens.append(self.document.token(key).id)
                continue
            except KeyError:
                pass
            tok = self.document.token_for(key)
            if tok is not None:
                tokens.append(tok.id)
        for name in ("flag_stray_targets", "set_stray_candidates", "flag_tokens"):
            fn = getattr(overlays, name, None)
            if callable(fn):
                fn(tokens)
                return

    # ======================================================================= document
    def _on_selection(self, token_id: object) -> None:
        if token_id == self._shooter:
            return
        self.set_shooter(token_id)  # type: ignore[arg-type]

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
