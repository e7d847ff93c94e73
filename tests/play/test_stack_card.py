"""The initiative-stack card is the resolution card (000 Initiative Stack: a
character's card "will determine the order in the stack they will perform their
action, as well as the effects of that action"), and the window's Draw commits the
card it shows (``attack_card``): no card is read that the deck has not dealt."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import Draw, EndSegment, StartActionTime, StartRound
from twtw_desktop.play.attack import stack_card
from twtw_desktop.play.combat_actions import AttackCard, SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import DeclareAction, Resolve
from twtw_desktop.resources import maps_dir

from .deck_support import pass_pending

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


@pytest.fixture
def table():
    return open_table(SAMPLE).table


def _both_declare_and_resolve(table):
    """Miranda and Angus declare snap shots on one segment and the stack resolves:
    the event and the cards flipped, by character."""
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    table.apply(Draw(who=ANGUS))
    table.apply(StartActionTime())
    table.apply(StartRound())
    m = DeclareAction(who=MIRANDA, action="snap_shot", weapon="colt_peacemaker")
    a = DeclareAction(who=ANGUS, action="snap_shot")
    for _ in range(20):
        if table.why_not(m) is None and table.why_not(a) is None:
            break
        table.apply(EndSegment())
    table.apply(m)
    table.apply(a)
    pass_pending(table)  # the others let the segment go before the flip (000 Action Timing)
    table.apply(Resolve())
    flipped = {e.character_id: e.card for e in table.track.stack()}
    assert flipped[MIRANDA] is not None and flipped[ANGUS] is not None
    return flipped


def test_the_card_flipped_for_the_stack_resolves_the_shot(table):
    flipped = _both_declare_and_resolve(table)
    # the stack's first place fires first (000 The Initiative Stack: "actions are
    # resolved in descending order on the current card"): the second is refused
    first, second = (e.character_id for e in table.track.stack())
    why = table.why_not(SnapShot(who=second, target=first))
    assert why and f"{table.character(first).name} goes first" in why
    mine = flipped[first]
    draws_before = table.deck.draw_count
    shot = SnapShot(who=first, target=second)
    assert stack_card(table, shot.plan(table)) == mine
    ev = table.apply(shot)
    assert ev.record["cards"][0] == mine.number
    # no second card for the shot itself (a stun check or an open-ended cell may still draw)
    assert mine.number not in ev.cards
    assert table.deck.draw_count >= draws_before - len(ev.cards)
    assert "already declared" in table.encounter.log[-1].detail["track"]


def test_a_typed_card_that_is_not_the_stacks_is_refused(table):
    flipped = _both_declare_and_resolve(table)
    other = next(n for n in range(1, 55) if n != flipped[MIRANDA].number)
    shot = SnapShot(who=MIRANDA, target=ANGUS, card=other)
    why = table.why_not(shot)
    assert why and "Initiative Stack" in why and str(flipped[MIRANDA].number) in why


def test_without_a_stack_flip_the_deck_deals_the_card(table):
    """A lone action needs no flip (000): its card comes off the deck at the shot."""
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    assert stack_card(table, shot.plan(table)) is None
    top = table.deck.snapshot().draw_pile[0]
    ev = table.apply(shot)
    assert ev.record["cards"][0] == top


def test_draw_commits_the_card_and_the_shot_reads_it_in_one_undo_step(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    top = table.deck.snapshot().draw_pile[0]
    steps = len(table.steps)
    key = "attack-card:test"
    ev = table.apply(AttackCard(who=MIRANDA), merge_key=key)
    assert ev.cards == (top,) and top in table.deck.snapshot().in_play
    assert table.deck.snapshot().draw_pile[0] != top  # the card has left the deck
    shot = SnapShot(who=MIRANDA, target=ANGUS, held_card=top)
    out = table.apply(shot, merge_key=key)
    assert out.record["cards"][0] == top
    assert top in table.deck.snapshot().discard and top not in table.deck.snapshot().in_play
    assert len(table.steps) == steps + 1  # the draw and the shot are one step
    table.undo()
    assert table.deck.snapshot().draw_pile[0] == top  # one undo puts the card back


def test_a_held_card_not_in_play_is_refused(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    top = table.deck.snapshot().draw_pile[0]
    why = table.why_not(SnapShot(who=MIRANDA, target=ANGUS, held_card=top))
    assert why and "not in play" in why
    with pytest.raises(RulesError):
        table.apply(SnapShot(who=MIRANDA, target=ANGUS, held_card=top))


def test_attack_card_waits_for_the_printed_deck_to_be_typed(table):
    table.deck.physical = True
    why = table.why_not(AttackCard(who=MIRANDA))
    assert why and "physical-card mode" in why


def test_the_journal_replays_a_draw_and_its_shot_as_one_step(tmp_path):
    """The window's Draw (attack_card) and the Apply that joins it are two journal
    lines, the second marked as joining the first: replayed, they make the same one
    step, card for card."""
    import shutil

    from twtw_desktop.io.journal import journal_path
    from twtw_desktop.play.journal import Journal, pending_journal, replay

    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "main_street.encounter.json"
    table = open_table(path).table
    journal = Journal(table, journal_path(path), path)
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    key = "attack-card:token-miranda_valentine:1"
    ev = table.apply(AttackCard(who=MIRANDA), merge_key=key)
    table.apply(SnapShot(who=MIRANDA, target=ANGUS, held_card=ev.cards[0]), merge_key=key)
    expected = table.state_fingerprint()
    steps = len(table.steps)
    journal.close()
    pending = pending_journal(path)
    assert pending is not None
    assert [ln.get("do") for ln in pending.lines][-2:] == ["attack_card", "snap_shot"]
    assert pending.lines[-1].get("merge") is True
    fresh = open_table(path).table
    result = replay(fresh, pending.lines)
    assert result.stopped is None, result.messages
    assert fresh.state_fingerprint() == expected and len(fresh.steps) == steps
