"""With a printed deck: the cards the Judge types in (the attack's, a block's, every further one the resolution needs)."""

from __future__ import annotations

from ....play.cards import already_typed
from ....rules.card import Card
from ...widgets.card_entry import PhysicalCardDialog
from .host import AttackHost


def _typed_card(panel: AttackHost, card: Card | None) -> None:
    if card is None:
        return
    panel._typed = card
    panel._typed_block = None
    panel._typed_more = []
    panel._reset_spends()
    panel._preview()


# ------------------------------------------------------------- the block's card
def needs_block_card(panel: AttackHost) -> bool:
    """A declared block waits for its typed-in card (physical-card mode)."""
    return panel.current is not None and panel.current.outcome.needs_block_card


def _ask_block_card_if_needed(panel: AttackHost) -> bool:
    """With a printed deck, a block that must be tested asks for its own card the
    way the attack's draw does (000 Hand to Hand Combat: the block is a test of
    its own against the attack's result)."""
    if not (panel.document.deck.physical and panel.needs_block_card()):
        return False
    assert panel.plan is not None
    who = panel.plan.target.name
    dlg = PhysicalCardDialog(panel.widget, title=f"Type the card drawn for {who}'s block")
    dlg.accepted.connect(lambda: panel._typed_block_card(dlg.card))
    dlg.open()
    panel._dialog = dlg
    panel.message.note(f"The attack hits: draw a card for {who}'s block and type it in.")
    return True


def needs_more_card(panel: AttackHost) -> str | None:
    """What the next typed-in card is for (a stun check, a fan shot's hit
    location…), or None when the resolution has every card it needs."""
    if panel.current is None or not panel.document.deck.physical:
        return None
    return panel.current.outcome.card_needed


def _ask_cards_if_needed(panel: AttackHost) -> bool:
    """With a printed deck, ask for the next card the resolution needs: the
    block's first (its result decides the blow), then every further card in the
    order the resolution draws them."""
    if panel._dialog is not None and panel._dialog.isVisible():
        return True  # one question at a time
    return panel._ask_block_card_if_needed() or panel._ask_more_card_if_needed()


def _ask_more_card_if_needed(panel: AttackHost) -> bool:
    """Ask for the further card the resolution needs (physical-card mode); the
    preview stays provisional until it is typed in."""
    purpose = panel.needs_more_card()
    if purpose is None or panel.needs_block_card():
        return False
    dlg = PhysicalCardDialog(panel.widget, title=f"Type the card drawn for {purpose}")
    dlg.accepted.connect(lambda: panel._typed_more_card(dlg.card))
    dlg.open()
    panel._dialog = dlg
    panel.message.note(f"Draw a card for {purpose} and type it in.")
    return True


def _typed_more_card(panel: AttackHost, card: Card | None) -> None:
    if card is None or panel.current is None:
        return
    typed = [panel.current.card, *panel._typed_more]
    if panel._typed_block is not None:
        typed.append(panel._typed_block)
    refusal = already_typed(typed, card, "this attack")
    if refusal:
        panel.message.error(refusal)
        return
    # cards typed for an earlier set of spends and not read now stay in order
    panel._typed_more = [*panel._typed_more[: panel.current.outcome.typed_used], card]
    if not panel._respend(panel.spends.copy()):
        panel._typed_more.pop()


def _typed_block_card(panel: AttackHost, card: Card | None) -> None:
    if card is None or panel.current is None:
        return
    panel._typed_block = card
    if not panel._respend(panel.spends.copy()):
        panel._typed_block = None
