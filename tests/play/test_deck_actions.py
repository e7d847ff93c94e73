"""The deck's own steps as table actions (the Deck panel's buttons): each one
undoable step, refused with the reason, and journaled so a card drawn by hand
replays card for card."""

from __future__ import annotations

from twtw_desktop.play.actions import parse_action
from twtw_desktop.play.deck_actions import (
    DeckSeed,
    DiscardInPlay,
    DrawCard,
    EnterCard,
    PhysicalCards,
    Reshuffle,
)
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.deck import standard_deck

SAMPLE = maps_dir() / "main_street.encounter.json"


def test_draw_discard_reshuffle_and_seed_each_one_step():
    t = open_table(SAMPLE).table
    top = t.deck.snapshot().draw_pile[0]
    assert t.why_not(DiscardInPlay()) == "No card is in play."
    ev = t.apply(DrawCard())
    assert ev.cards == (top,) and [c.number for c in t.deck.in_play] == [top]
    assert t.encounter.log[-1].text.startswith(f"Drew card {top} ")
    t.apply(DiscardInPlay())
    assert not t.deck.in_play and t.deck.discard_count == 1
    t.apply(Reshuffle())
    assert t.deck.draw_count == 54 and t.deck.reshuffles == 1
    order = t.deck.snapshot().draw_pile
    t.apply(DeckSeed(seed=42))
    assert t.deck.seed == 42 and t.encounter.deck_seed == 42
    assert t.deck.snapshot().draw_pile != order
    t.undo()
    assert t.deck.snapshot().draw_pile == order
    for _ in range(3):
        t.undo()
    assert t.deck.snapshot().draw_pile[0] == top and not t.deck.in_play


def test_the_printed_deck_takes_typed_cards_only():
    t = open_table(SAMPLE).table
    t.apply(PhysicalCards(on=True))
    assert "physical-card mode" in (t.why_not(DrawCard()) or "")
    card = standard_deck()[4]
    t.apply(EnterCard(card=card.model_dump(mode="json")))
    assert [c.number for c in t.deck.in_play] == [card.number]
    t.undo()
    assert not t.deck.in_play


def test_the_steps_read_back_from_their_journal_form():
    for action in (DrawCard(), Reshuffle(), DeckSeed(seed=7), PhysicalCards(on=True)):
        assert parse_action(action.journal_form()) == action
