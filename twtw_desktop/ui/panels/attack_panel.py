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
    QDockWidget,
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
    declared_shot,
    stack_card,
)
from ...play.combat_actions import attack_action
from ...play.declarations import WhenAble, how, segments
from ...rules.card import Card
from ..widgets.card_entry import PhysicalCardDialog
from ._common import USER_ERRORS, MessageLabel, VerticalScroll, error_text
from .attack import (
    action_row,
    card_spends,
    hand_to_hand,
    second_targets,
    series,
    shot,
    show_players,
    situation,
    tn_box,
    typed_cards,
    who,
)
from .attack.action_row import ActionRow
from .attack.card_spends import CardSpendsBox
from .attack.hand_to_hand import HandToHandRows
from .attack.lines import RememberedLines
from .attack.mode_row import ModeRow
from .attack.second_targets import SecondTargetRows
from .attack.series import SeriesRow
from .attack.shot import ShotRow
from .attack.show_players import ShowPlayersRow
from .attack.situation import SituationBox
from .attack.tn_box import TnBox
from .attack.who import WhoTargetBox


class AttackPanel(QWidget):
    """Shooter → target → weapon and shot → TN → Draw → spends → Apply."""

    #: emitted after an attack is applied (its record)
    attackApplied = Signal(object)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("AttackPanel")
        self._init_state()

        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        # pinned above the scrolling part: who attacks whom with what stays in view
        # while the drawn card shows (as Draw, Apply and Put back do, pinned below)
        self.who = WhoTargetBox(self)
        outer.addWidget(self.who)
        self._adopt_who()
        body = QWidget()
        scroll = VerticalScroll(body)
        outer.addWidget(scroll, 1)
        self.scroll = scroll
        lay = QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)

        # the sections, top to bottom: each one idea, in its own file under attack/
        self.mode_row = ModeRow(self)
        lay.addWidget(self.mode_row)
        self._adopt_mode_row()
        self.shot_box = ShotRow(self)
        lay.addWidget(self.shot_box)
        self._adopt_shot_box()
        self.second_targets = SecondTargetRows(self)
        lay.addWidget(self.second_targets)
        self._adopt_second_targets()
        self.series_box = SeriesRow(self)
        lay.addWidget(self.series_box)
        self._adopt_series_box()
        self.hand_to_hand = HandToHandRows(self)
        lay.addWidget(self.hand_to_hand)
        self._adopt_hand_to_hand()
        self.situation = SituationBox(self)
        lay.addWidget(self.situation)
        self._adopt_situation()
        self.tn_box = TnBox(self)
        lay.addWidget(self.tn_box)
        self._adopt_tn_box()
        # the message (wrapping over as many lines as it needs) sits above Draw, Apply
        # and Put back: the buttons stay at the panel's foot, in one place whoever
        # shoots and whatever was said (#37)
        self.message = MessageLabel()
        outer.addWidget(self.message)
        self.action_row = ActionRow(self)
        outer.addWidget(self.action_row)
        self._adopt_action_row()
        self.show_row = ShowPlayersRow(self)
        lay.addWidget(self.show_row)
        self._adopt_show_row()
        self.card_spends = CardSpendsBox(self)
        lay.addWidget(self.card_spends)
        self._adopt_card_spends()
        lay.addStretch(1)

        document.selectionChanged.connect(self._on_selection)
        document.attackDue.connect(self._attack_due)
        document.changed.connect(self._on_changed)
        document.stepAnnounced.connect(self._after_step)
        document.stopShown.connect(self._after_step)
        document.undo_stack.indexChanged.connect(self._on_undo_index)
        self._on_selection(document.selected_token_id)
        self.recompute()  # no attacker yet: Draw and Apply start disabled, saying why

    def _init_state(self) -> None:
        """What the panel holds between the clicks: the plan, the preview, the draw."""
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
        #: the Judge chose the target (else the nearest enemy in sight, re-read on moves)
        self._target_by_hand = False
        self._typed: Card | None = None
        self._shooter: str | None = None
        self._busy = False
        #: (refill the lists, plan again) once the step being announced is all out
        self._pending = (False, False)
        self._dialog: PhysicalCardDialog | None = None
        #: the typed-in card of the defender's block (physical-card mode)
        self._typed_block: Card | None = None
        #: the further typed-in cards (stun checks, fan shots' locations…), in order
        self._typed_more: list[Card] = []
        #: the card Draw took off the deck for this attack, and its step's merge key
        self._held: Card | None = None
        self._held_key: str | None = None
        #: the further attacks of a series (target, shot kind), declared before the card
        self._series: list[tuple[str, str]] = []
        #: a held bonus counter spent on this result (002 Spending the Counter)
        self._counter: str | None = None

    def _adopt_card_spends(self) -> None:
        """The card_spends section's controls, named on the panel."""
        box = self.card_spends
        self.result_label = box.result_label
        self.spend_box = box.spend_box
        self.bumps_label = box.bumps_label
        self.shot_spin = box.shot_spin
        self.loc_up = box.loc_up
        self.loc_down = box.loc_down
        self.loc_label = box.loc_label
        self.spin_rows = box.spin_rows
        self.burst_pen_widgets = box.burst_pen_widgets
        self.dominance_widgets = box.dominance_widgets
        self.stray_buttons = box.stray_buttons
        self.stray_reset = box.stray_reset
        self.secondary_label = box.secondary_label
        self.secondary_combo = box.secondary_combo
        self.counter_label = box.counter_label
        self.counter_combo = box.counter_combo
        self.card_view = box.card_view
        self.extra_hits_widgets = box.extra_hits_widgets

    def _adopt_show_row(self) -> None:
        """The show_row section's controls, named on the panel."""
        box = self.show_row
        self.show_card_button = box.show_card_button
        self.show_scatter_button = box.show_scatter_button
        self.clear_flags_button = box.clear_flags_button

    def _adopt_action_row(self) -> None:
        """The action_row section's controls, named on the panel."""
        box = self.action_row
        self.draw_button = box.draw_button
        self.apply_button = box.apply_button
        self.clear_button = box.clear_button

    def _adopt_tn_box(self) -> None:
        """The tn_box section's controls, named on the panel."""
        box = self.tn_box
        self.tn_headline = box.tn_headline
        self.tn_toggle = box.tn_toggle
        self.tn_label = box.tn_label

    def _adopt_situation(self) -> None:
        """The situation section's controls, named on the panel."""
        box = self.situation
        self.situation_toggle = box.situation_toggle
        self.situation_widgets = box.situation_widgets
        self.point_blank_check = box.point_blank_check
        self.appearing_check = box.appearing_check
        self.melee_target_check = box.melee_target_check
        self.two_weapons_check = box.two_weapons_check
        self.off_hand_check = box.off_hand_check
        self.sabotage_check = box.sabotage_check
        self.charge_check = box.charge_check
        self.called_combo = box.called_combo
        self.called_loc_combo = box.called_loc_combo
        self.secondary_spin = box.secondary_spin
        self.firer_move_combo = box.firer_move_combo
        self.size_spin = box.size_spin

    def _adopt_hand_to_hand(self) -> None:
        """The hand_to_hand section's controls, named on the panel."""
        box = self.hand_to_hand
        self.melee_row = box.melee_row
        self.melee_combo = box.melee_combo
        self.careful_check = box.careful_check
        self.kick_check = box.kick_check
        self.skill_adv_spin = box.skill_adv_spin
        self.skill_adv_row = box.skill_adv_row
        self.improvised_row = box.improvised_row
        self.improvised_combo = box.improvised_combo
        self.choose_loc_row = box.choose_loc_row
        self.choose_loc_combo = box.choose_loc_combo
        self.defense_row = box.defense_row
        self.defense_combo = box.defense_combo
        self.arm_combo = box.arm_combo

    def _adopt_series_box(self) -> None:
        """The series_box section's controls, named on the panel."""
        box = self.series_box
        self.series_row = box.series_row
        self.series_combo = box.series_combo
        self.series_kind = box.series_kind
        self.series_add = box.series_add
        self.series_clear = box.series_clear
        self.series_label = box.series_label

    def _adopt_second_targets(self) -> None:
        """The second_targets section's controls, named on the panel."""
        box = self.second_targets
        self.fan_shots_spin = box.fan_shots_spin
        self.fan_row = box.fan_row
        self.fan_second_combo = box.fan_second_combo
        self.fan_second_spin = box.fan_second_spin
        self.burst_second_label = box.burst_second_label
        self.burst_row = box.burst_row
        self.burst_second_combo = box.burst_second_combo
        self.burst_second_spin = box.burst_second_spin
        self.burst_third_label = box.burst_third_label
        self.burst_third_row = box.burst_third_row
        self.burst_third_combo = box.burst_third_combo
        self.burst_third_spin = box.burst_third_spin

    def _adopt_shot_box(self) -> None:
        """The shot_box section's controls, named on the panel."""
        box = self.shot_box
        self.shot_row = box.shot_row
        self.shot_group = box.shot_group
        self.shot_buttons = box.shot_buttons
        self.aims_spin = box.aims_spin
        self.aim_row = box.aim_row
        self.aim_button = box.aim_button
        self.aim_hold_check = box.aim_hold_check

    def _adopt_who(self) -> None:
        """The who section's controls, named on the panel."""
        box = self.who
        self.shooter_label = box.shooter_label
        self.target_combo = box.target_combo
        self.pick_button = box.pick_button
        self.weapon_combo = box.weapon_combo

    def _adopt_mode_row(self) -> None:
        """The mode row's controls, named on the panel."""
        box = self.mode_row
        self.mode_group = box.mode_group
        self.mode_buttons = box.mode_buttons
        self.weapon_state = box.weapon_state
        self.cock_check = box.cock_check
        self.draw_check = box.draw_check
        self.burst_combo = box.burst_combo

    @property
    def widget(self) -> QWidget:
        """The panel as a widget: the parent of its parts' dialogs, menus and keys."""
        return self

    @property
    def table(self):
        """The table the panel's document plays on."""
        return self.document.table

    @property
    def geometry_cache(self) -> Geometry:
        """Cover lines over the table's map (the table caches its wall index), each
        kept until the walls change (a new shooter reads them three times)."""
        return RememberedLines(self.table)

    @property
    def spends(self) -> Spends:
        """The spends of the shot being edited (the only one for a single attack)."""
        return self.series_spends[self.shot_index]

    @spends.setter
    def spends(self, value: Spends) -> None:
        self.series_spends[self.shot_index] = value

    # The handlers of each part: functions of the panel, one idea a file under attack/
    _reset_spends = card_spends._reset_spends
    _respend = card_spends._respend
    move_location = card_spends.move_location
    change_spend = card_spends.change_spend
    stray_spend = card_spends.stray_spend
    _reset_stray = card_spends._reset_stray
    _shot_chosen = card_spends._shot_chosen
    _secondary_choices = card_spends._secondary_choices
    _fill_secondary = card_spends._fill_secondary
    set_fan_secondary = card_spends.set_fan_secondary
    _secondary_chosen = card_spends._secondary_chosen
    _holds_counter = card_spends._holds_counter
    _counter_chosen = card_spends._counter_chosen
    _open_card = card_spends._open_card
    _result_html = card_spends._result_html
    _show_preview = card_spends._show_preview
    _shown_record = card_spends._shown_record
    clear_preview = card_spends.clear_preview
    _show_result_and_card = card_spends._show_result_and_card
    _name = card_spends._name

    _show_tn_items = tn_box._show_tn_items
    _show_plan = tn_box._show_plan
    tn_items = tn_box.tn_items
    _missing_choice = tn_box._missing_choice

    _toggle_situation = situation._toggle_situation
    set_called_shot = situation.set_called_shot
    _called_changed = situation._called_changed
    _fill_called_locations = situation._fill_called_locations

    shooter_token = who.shooter_token
    target_token = who.target_token
    mode = who.mode
    _fill_targets = who._fill_targets
    _fill_weapons = who._fill_weapons
    _auto_cock = who._auto_cock
    _fill_bursts = who._fill_bursts
    _has_burst = who._has_burst
    set_shooter = who.set_shooter
    set_target = who.set_target
    auto_target = who.auto_target
    set_mode = who.set_mode
    _weapon = who._weapon
    pick_on_map = who.pick_on_map
    _picked = who._picked

    shot_kind = shot.shot_kind
    set_shot = shot.set_shot
    set_fan = shot.set_fan
    _fan_second_chosen = shot._fan_second_chosen
    _aim_action = shot._aim_action
    aim_ahead = shot.aim_ahead
    _update_aim_button = shot._update_aim_button

    _sync_burst_row = second_targets._sync_burst_row
    _burst_second_chosen = second_targets._burst_second_chosen
    _burst_third_chosen = second_targets._burst_third_chosen
    set_burst_third = second_targets.set_burst_third
    set_burst_second = second_targets.set_burst_second
    set_burst = second_targets.set_burst

    _series_open = series._series_open
    _sync_series_row = series._sync_series_row
    _add_series_attack = series._add_series_attack
    set_series = series.set_series
    _fit_series = series._fit_series

    def request(self) -> AttackRequest | None:
        target = self.target_token()
        if self._shooter is None or target is None:
            return None
        st = self.melee_target_check.checkState()
        in_melee = None if st == Qt.CheckState.PartiallyChecked else st == Qt.CheckState.Checked
        return AttackRequest(
            shooter_token=self._shooter,
            target_token=target,
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

    _dodge_vs_ranged = hand_to_hand._dodge_vs_ranged
    _defense = hand_to_hand._defense
    _sync_defense_row = hand_to_hand._sync_defense_row
    set_defense = hand_to_hand.set_defense
    _defense_changed = hand_to_hand._defense_changed

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

    _update_buttons = action_row._update_buttons
    draw = action_row.draw
    _declare = action_row._declare
    _draw_held = action_row._draw_held
    _held_in_play = action_row._held_in_play
    put_back = action_row.put_back
    _resolve_now = action_row._resolve_now
    _preview = action_row._preview
    apply = action_row.apply
    _back_to_the_map = action_row._back_to_the_map

    def _attack_due(self, intent: object) -> None:
        """A run stopped at a declared attack with choices: show it (its shooter is
        selected already), with the target, weapon and shot declared."""
        if not isinstance(intent, dict):
            return
        self._come_forward()
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

    def _come_forward(self) -> None:
        """The run waits for Apply here: the panel's tab comes in front of the others
        in its dock area (the Log, the sheet…), unless the Judge closed the panel."""
        w = self.parentWidget()
        while w is not None and not isinstance(w, QDockWidget):
            w = w.parentWidget()
        if isinstance(w, QDockWidget) and not w.isHidden():
            w.raise_()

    _typed_card = typed_cards._typed_card
    needs_block_card = typed_cards.needs_block_card
    _ask_block_card_if_needed = typed_cards._ask_block_card_if_needed
    needs_more_card = typed_cards.needs_more_card
    _ask_cards_if_needed = typed_cards._ask_cards_if_needed
    _ask_more_card_if_needed = typed_cards._ask_more_card_if_needed
    _typed_more_card = typed_cards._typed_more_card
    _typed_block_card = typed_cards._typed_block_card

    _overlays = show_players._overlays
    _token_ids = show_players._token_ids
    _flag_candidates = show_players._flag_candidates
    _flag_strays = show_players._flag_strays
    clear_stray_flags = show_players.clear_stray_flags
    show_card = show_players.show_card
    _scatter_payload = show_players._scatter_payload
    show_scatter = show_players.show_scatter

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
            refill = area in ("tokens", "characters", "all", "file")
            if self.document.announcing_step:  # once when the step's signals are out
                self._pending = (self._pending[0] or refill, True)
                return
            self._read_again(refill)

    def _after_step(self) -> None:
        """A table step named what it changed (tokens, characters, the track…): the
        targets and the plan read again once, not once per area."""
        if self.document.stop_due:
            # F6's stop is selected next: the panel reads the table once, for that
            # figure (a new shooter reads everything; the same one reads here again)
            return
        refill, again = self._pending
        self._pending = (False, False)
        if not self._busy and again:
            self._read_again(refill)

    def _read_again(self, refill: bool) -> None:
        """The table moved: the target list and weapons (``refill``) and the plan read
        again, unless a result is on show."""
        if refill:
            self._refill()
        if self.current is None:
            self.recompute()

    def _refill(self) -> None:
        """Re-read the target list and the weapons, keeping the Judge's choices (an
        automatic target follows the figures: the nearest enemy in sight now)."""
        keep = self.auto_target()
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
