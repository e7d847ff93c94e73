"""A test's way to choose the next card: put it on top of the generated deck."""

from __future__ import annotations


def put_on_top(deck, number: int) -> None:
    """Card ``number`` is dealt next (taken out of the discard pile if it is there)."""
    st = deck.snapshot()
    pile = (number, *[n for n in st.draw_pile if n != number])
    discard = tuple(n for n in st.discard if n != number)
    deck.restore(st.model_copy(update={"draw_pile": pile, "discard": discard}))
