"""Draw, Apply and Put back: pinned under the scrolling part of the panel."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from ....play.attack import (
    Preview,
    preview,
    stack_card,
)
from ....play.combat_actions import AttackCard, attack_action
from ....play.declarations import WhenAble
from ...widgets.card_entry import PhysicalCardDialog
from .._common import USER_ERRORS, error_text, find_map_view
from .controls import (
    _APPLY_TIP,
    _DRAW_TIP,
    _PUT_BACK_TIP,
    _button,
)
from .host import AttackHost


class ActionRow(QWidget):
    """Draw, Apply and Put back: pinned under the scrolling part of the panel."""

    def __init__(self, panel: AttackHost) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        row = QHBoxLayout()
        self.draw_button = _button("Draw", _DRAW_TIP)
        self.draw_button.setStyleSheet("font-weight: bold;")
        self.draw_button.clicked.connect(panel.draw)
        self.apply_button = _button("Apply", _APPLY_TIP)
        self.apply_button.setStyleSheet("font-weight: bold;")
        self.apply_button.clicked.connect(panel.apply)
        self.clear_button = _button("Put back", _PUT_BACK_TIP)
        self.clear_button.clicked.connect(panel.put_back)
        row.addWidget(self.draw_button)
        row.addWidget(self.apply_button)
        row.addWidget(self.clear_button)
        # pinned under the scrolling part: Draw, Apply and Put back are in view at any
        # height, before and after a draw (a laptop's 768 pixels included)
        lay.addLayout(row)


def _update_buttons(panel: AttackHost) -> None:
    panel._update_aim_button()
    has_plan = panel.plan is not None
    missing = panel._missing_choice()
    refused = panel.refusal if has_plan else None
    panel.draw_button.setEnabled(
        has_plan and panel.current is None and missing is None and not refused
    )
    panel.apply_button.setEnabled(panel.current is not None and missing is None)
    panel.draw_button.setToolTip(missing or refused or _DRAW_TIP)
    panel.apply_button.setToolTip(missing or _APPLY_TIP)
    panel.clear_button.setEnabled(panel.current is not None)
    rec = panel._shown_record()
    panel.spend_box.setEnabled(panel.current is not None and rec is not None and rec.hit.success)
    show_counter = panel._holds_counter()
    panel.counter_label.setVisible(show_counter)
    panel.counter_combo.setVisible(show_counter)
    panel.show_card_button.setEnabled(panel.card_view.card() is not None)
    panel.show_scatter_button.setEnabled(panel._scatter_payload() is not None)


# ======================================================================= draw
def draw(panel: AttackHost) -> Preview | None:
    """Read the next card (on a copy of the deck) and show the resolution."""
    if panel.plan is None and panel.recompute() is None:
        return None
    panel._typed_block = None
    assert panel.plan is not None
    if panel.declare_mode != "now":
        panel._declare()
        return None
    stacked = stack_card(panel.table, panel.plan)
    if panel.document.deck.physical and stacked is None:
        dlg = PhysicalCardDialog(panel.widget, title="Type the card drawn for this attack")
        dlg.accepted.connect(lambda: panel._typed_card(dlg.card))
        dlg.open()
        panel._dialog = dlg
        return None
    panel._typed = None
    panel._reset_spends()
    panel._strays_hit_shown = False
    if stacked is None and not panel._draw_held():
        return None
    return panel._preview()


def _declare(panel: AttackHost) -> None:
    """Declare the attack (``when_able``): on the segment's stack, or standing
    until the counters cover it (000 Action Timing). One undo step."""
    assert panel.plan is not None
    action = attack_action(panel.table, panel.plan.request)
    try:
        event = panel.document.apply(
            WhenAble(who=panel.plan.request.shooter_token, then=action.journal_form())
        )
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return None
    panel.message.note(f"Declared: {event.text}")
    panel.recompute()
    panel._back_to_the_map()
    return None


def _draw_held(panel: AttackHost) -> bool:
    """Take the attack's card off the deck as a table step (``attack_card``): no
    card is shown that the deck has not dealt. Apply joins that step."""
    if panel._held is not None and panel._held_in_play():
        return True  # drawn already for this attack (a respend, a changed choice)
    shooter = panel.shooter_token()
    assert shooter is not None
    key = f"attack-card:{shooter}:{panel.document.undo_stack.index()}"
    panel._busy = True
    try:
        event = panel.document.apply(AttackCard(who=shooter), merge_key=key)
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return False
    finally:
        panel._busy = False
    panel._held = panel.table.deck.card(event.cards[0])
    panel._held_key = key
    return True


def _held_in_play(panel: AttackHost) -> bool:
    held = panel._held
    return held is not None and any(c.number == held.number for c in panel.table.deck.in_play)


def put_back(panel: AttackHost) -> None:
    """Forget the preview; a card Draw took is put back by undoing its step."""
    stack = panel.document.undo_stack
    if panel._held is not None and panel._held_in_play() and stack.index() > 0:
        top = stack.command(stack.index() - 1)
        action = getattr(top, "action", None)
        if isinstance(action, AttackCard):
            panel._busy = True
            try:
                stack.undo()
            finally:
                panel._busy = False
    panel._held = None
    panel._held_key = None
    panel.clear_preview()
    panel.recompute()


def _resolve_now(panel: AttackHost) -> Preview:
    """Resolve the current plan with the spends and the cards typed so far."""
    assert panel.plan is not None  # (Draw waits for a plan)
    return preview(
        panel.table,
        panel.plan,
        panel.series_spends,
        panel._typed,
        panel.shot_index,
        panel._typed_block,
        panel._typed_more,
        panel._held,
    )


def _preview(panel: AttackHost) -> Preview | None:
    assert panel.plan is not None
    try:
        panel.current = panel._resolve_now()
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return None
    panel._fit_series(panel.current)
    panel.message.clear()
    panel._show_preview(panel.current)
    panel._update_buttons()
    panel.tn_toggle.setChecked(False)  # make room for the result and the card
    panel._show_result_and_card()
    panel._ask_cards_if_needed()
    return panel.current


# ======================================================================= apply
def apply(panel: AttackHost):
    """Apply the previewed attack as one undoable step; returns its (first) record."""
    if panel.current is None or panel.plan is None:
        return None
    plan = panel.recompute()
    if plan is None:
        return None
    if panel.document.deck.physical and panel.needs_block_card():
        panel._ask_block_card_if_needed()
        panel.message.error("Type in the card drawn for the block before applying.")
        return None
    purpose = panel.needs_more_card()
    if purpose is not None:
        panel._ask_more_card_if_needed()
        panel.message.error(f"Type in the card drawn for {purpose} before applying.")
        return None
    expected = panel.current.card.number
    panel._busy = True  # the document's signals during the push must not clear the card
    try:
        action = attack_action(
            panel.table,
            plan.request,
            panel.series_spends,
            typed=panel._typed,
            typed_block=panel._typed_block,
            typed_more=panel._typed_more,
            expect_card=expected,
            held_card=panel._held.number if panel._held is not None else None,
        )
        key = panel._held_key if panel._held is not None else None
        event = panel.document.apply(action, merge_key=key)
        outcome = event.raw[0]
    except USER_ERRORS as e:
        panel.message.error(error_text(e))
        return None
    finally:
        panel._busy = False
    panel.last_outcome = outcome
    panel._applied_at = panel.document.undo_stack.index()
    # said in the message line, which stays when the selection moves on to whoever
    # is due next (Preferences) and the card and result make way for their attack
    panel.message.note(f"Applied: {event.text} (Ctrl+Z undoes it and puts the card back).")
    panel.current = None  # the card and the result stay in view until the next change
    panel._held = None
    panel._held_key = None
    panel._typed = None
    panel._typed_block = None
    panel._typed_more = []
    panel._series = []  # the series is made: the next attack is declared anew
    panel._sync_series_row()
    panel._reset_spends()
    panel._refill()
    panel.recompute()
    panel._flag_strays(outcome)
    panel._update_buttons()
    panel._back_to_the_map()
    panel.attackApplied.emit(outcome.record)
    return outcome.record


def _back_to_the_map(panel: AttackHost) -> None:
    """After Apply the keyboard goes back to the map with the shooter still
    selected, so the next key (a turn, F6, F7) or click acts on the table at once."""
    view = find_map_view(panel.document)
    if view is None:
        return
    if panel._shooter is not None and panel.document.selected_token() is None:
        panel.document.select(panel._shooter)
    view.setFocus(Qt.FocusReason.OtherFocusReason)
