"""Cards typed in from a printed deck, and a scratch copy of the deck.

With a printed deck (the Deck panel's physical-card mode) the Judge types in every
card a resolution reads. :class:`TypedCards` deals the typed cards in the order the
resolution needs them and raises :class:`CardNeeded`, naming what the next card is
for, when the Judge has typed no more; :func:`scratch_deck` is a copy of the deck to
try a resolution on without changing anything. Shared by the attack
(:mod:`.attack`) and the throw (:mod:`.throw`). A table action names a typed card as
a :data:`CardRef` (:func:`card_ref` writes one, :func:`card_of` reads it back).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from ..errors import RulesError
from ..rules.card import Card
from ..rules.deck import Deck, parse_card

if TYPE_CHECKING:
    from .table import Table

#: what an unnamed further card is for (an open-ended cell or an increased effect)
FURTHER_CARD = "the next card (an exceptional cell or an increased effect reads on)"


class CardNeeded(Exception):
    """The resolution needs a card the Judge has not typed in yet (physical-card
    mode). Not a :class:`RulesError`: nothing was refused, a card is missing."""

    def __init__(self, purpose: str, index: int) -> None:
        super().__init__(f"Type in the card drawn for {purpose}.")
        self.purpose = purpose
        self.index = index


class TypedCards:
    """The further cards of a resolution with a printed deck, in the order they
    were drawn: a card source (``more``) that deals them one by one and raises
    :class:`CardNeeded` — naming what the card is for — when the Judge has typed no
    more. The cards come off the printed deck in the order the resolution needs
    them, whatever they are for, exactly as the generated deck deals them.
    ``enter`` (the deck's ``enter_physical``) records each card as it is read."""

    typed = True

    def __init__(
        self, cards: Sequence[Card] = (), enter: Callable[[Card], Card] | None = None
    ) -> None:
        self.cards = list(cards)
        self.used = 0
        self.enter = enter
        self._purpose = FURTHER_CARD

    def name_next(self, purpose: str) -> None:
        self._purpose = purpose

    def __call__(self) -> Card:
        purpose, self._purpose = self._purpose, FURTHER_CARD
        if self.used >= len(self.cards):
            raise CardNeeded(purpose, self.used)
        card = self.cards[self.used]
        self.used += 1
        return self.enter(card) if self.enter is not None else card


def scratch_deck(deck: Deck) -> Deck:
    """A copy of the deck in its current state (drawing from it changes nothing)."""
    return Deck(deck.cards, state=deck.snapshot(), name=deck.name)


def already_typed(cards: Sequence[Card], card: Card, what: str) -> str | None:
    """Why ``card`` cannot be typed in next for ``what`` (e.g. "this attack"): a card
    of that number is already part of it. None when it can."""
    if any(c.number == card.number for c in cards):
        return f"Card {card.number} is already part of {what}; type the card drawn next."
    return None


#: a typed card: its number (the deck's own card) or the whole card as typed
CardRef = Annotated[int, Field(ge=1, le=1000)] | dict[str, Any]


def card_of(table: Table, ref: CardRef) -> Card:
    """The card a line names: the deck's card by number, or a card as typed."""
    if isinstance(ref, int):
        return table.deck.card(ref)
    try:
        return parse_card(ref, "typed card")
    except ValueError as e:
        raise RulesError(f"The typed card is wrong: {e}") from None


def card_ref(table: Table, card: Card) -> CardRef:
    """How a line names a typed card: its number when the deck's own card of that
    number is the same, else the whole card."""
    try:
        if table.deck.card(card.number) == card:
            return card.number
    except RulesError:
        pass
    return card.model_dump(mode="json")
