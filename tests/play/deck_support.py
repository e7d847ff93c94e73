"""A test's way to choose the next card: put it on top of the generated deck."""

from __future__ import annotations


def put_on_top(deck, number: int) -> None:
    """Card ``number`` is dealt next (taken out of the discard pile if it is there)."""
    st = deck.snapshot()
    pile = (number, *[n for n in st.draw_pile if n != number])
    discard = tuple(n for n in st.discard if n != number)
    deck.restore(st.model_copy(update={"draw_pile": pile, "discard": discard}))


def next_segment(table) -> None:
    """Shift+F6: the next segment (or phase); on the AP v2 track, whoever can newly act
    there lets it go (a pass), so an action given next is the segment's lone one (000
    Action Timing: "After all players eligible to place a counter have done so,
    players may declare actions for their character")."""
    from twtw_desktop.play.actions import EndSegment

    table.apply(EndSegment())
    pass_pending(table)


def pass_pending(table) -> None:
    """Everyone who can newly act on this AP v2 segment lets it go (one step)."""
    time = table.time
    if time is not None and time.kind == "segments" and table.track.pending_declarers():
        from twtw_desktop.play.declarations import PassTurn

        table.apply(PassTurn())
