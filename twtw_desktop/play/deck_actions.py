"""The deck's own steps (the Deck panel): draw a card, discard the cards in play,
reshuffle, a fresh deck from a seed, the printed deck switched on or off, and a
card typed in from the printed deck. Each is one undoable, journaled step, so a
card the Judge draws by hand replays card for card like any other."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..rules.deck import Deck
from .actions import Action, register
from .cards import CardRef, card_of
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_DECK = "000 Action Cards (the deck)"


class _DeckAction(Action):
    """A step on the deck alone: only the deck and the log change."""

    needs_actor: ClassVar[bool] = False
    page: ClassVar[str] = SRC_DECK

    undo_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})

    def _done(self, table: Table, text: str, cards: tuple[int, ...] = ()) -> TableEvent:
        table.log(text, "deck")
        return TableEvent(text, {}, cards)


@register
class DrawCard(_DeckAction):
    """Draw the top card into play (the Deck panel's Draw)."""

    do: Literal["draw_card"] = "draw_card"
    summary: ClassVar[str] = "draw the top card of the deck into play"

    def label(self, table: Table) -> str:
        return "Draw a card"

    def why_not(self, table: Table) -> str | None:
        if table.deck.physical:
            return "The deck is in physical-card mode: type in the card drawn."
        return None

    def apply(self, table: Table) -> TableEvent:
        card = table.deck.draw()
        toggle = "YES" if card.toggle else "NO"
        return self._done(table, f"Drew card {card.number} (toggle {toggle}).", (card.number,))


@register
class DiscardInPlay(_DeckAction):
    do: Literal["discard_in_play"] = "discard_in_play"
    summary: ClassVar[str] = "discard every card in play"

    def label(self, table: Table) -> str:
        return "Discard cards in play"

    def why_not(self, table: Table) -> str | None:
        return None if table.deck.in_play else "No card is in play."

    def apply(self, table: Table) -> TableEvent:
        n = len(table.deck.in_play)
        table.deck.discard_in_play()
        return self._done(table, f"Discarded {n} card(s) in play.")


@register
class Reshuffle(_DeckAction):
    do: Literal["reshuffle"] = "reshuffle"
    summary: ClassVar[str] = "reshuffle the whole deck"

    def label(self, table: Table) -> str:
        return "Reshuffle the deck"

    def apply(self, table: Table) -> TableEvent:
        table.deck.reshuffle()
        return self._done(table, "Reshuffled the deck.")


@register
class DeckSeed(_DeckAction):
    """A fresh deck of the same cards shuffled by ``seed``."""

    do: Literal["deck_seed"] = "deck_seed"
    seed: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
    summary: ClassVar[str] = "a fresh deck of the same cards shuffled by a seed"

    def label(self, table: Table) -> str:
        return f"Deck seed {self.seed}"

    def apply(self, table: Table) -> TableEvent:
        deck = table.deck
        deck.restore(Deck(deck.cards, seed=self.seed, name=deck.name).snapshot())
        table.encounter.deck_seed = self.seed
        return self._done(table, f"New deck shuffled with seed {self.seed}.")


@register
class PhysicalCards(_DeckAction):
    """The printed deck on (the Judge types in each card drawn) or off."""

    do: Literal["physical_cards"] = "physical_cards"
    on: bool
    summary: ClassVar[str] = "the printed deck on (cards typed in) or off"

    def label(self, table: Table) -> str:
        return "Physical cards on" if self.on else "Physical cards off"

    def apply(self, table: Table) -> TableEvent:
        table.deck.physical = self.on
        return self._done(
            table,
            "Physical cards: the Judge types in each card drawn."
            if self.on
            else "Back to the generated deck.",
        )


@register
class EnterCard(_DeckAction):
    """A card drawn from the printed deck, typed in: it goes in play."""

    do: Literal["enter_card"] = "enter_card"
    card: CardRef
    summary: ClassVar[str] = "a card drawn from the printed deck, typed in, goes in play"

    def label(self, table: Table) -> str:
        return "Enter a physical card"

    def apply(self, table: Table) -> TableEvent:
        c = table.deck.enter_physical(card_of(table, self.card))
        return self._done(table, f"Physical card {c.number} entered.")


__all__ = ["DeckSeed", "DiscardInPlay", "DrawCard", "EnterCard", "PhysicalCards", "Reshuffle"]
