"""004 hesitation and delaying, played through the table (Qt blocked) from the Main
Street sample in the Phases edition, the numbers checked against the page."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import Declare, EndSegment, SetRules, StartActionTime, StartRound
from twtw_desktop.play.combat_actions import card_of
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import Act, Delay, Interrupt, KeepWaiting, Resolve
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.deck import read_pool

MIRANDA = "miranda_valentine"


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(SetRules(edition="phases", options=t.encounter.options))
    t.apply(StartActionTime())
    t.apply(StartRound())
    return t


def _declare_all(t, speed=Speed.FAST, miranda=Speed.FAST):
    for c in t.encounter.characters:
        s = miranda if c.id == MIRANDA else speed
        if t.why_not(Declare(who=c.id, speed=s)) is None:
            t.apply(Declare(who=c.id, speed=s))


def _card_where(t, wanted):
    """A card number whose flip gives Miranda's row ``wanted(row)`` (tried and undone)."""
    for n in range(1, 55):
        t.apply(Resolve(cards={"all": card_of(t, n)}))
        ok = wanted(t.track.row(MIRANDA))
        t.undo()
        if ok:
            return n
    raise AssertionError("no such card in the deck")


def test_below_phase_iv_she_hesitates_and_next_round_reads_one_speed_faster(table):
    """004 Resolution: a Reflex result under phase IV's TN hesitates — no action this
    round — and next round the action counts one speed category faster."""
    t = table
    _declare_all(t, miranda=Speed.SLOW)
    n = _card_where(t, lambda r: r.hesitated and not r.reflex_cf and r.reflex_result < r.bar[3])
    t.apply(Resolve(cards={"all": card_of(t, n)}))
    row = t.track.row(MIRANDA)
    assert row.hesitated and row.bonus_next_round and row.phase is None
    assert any("hesitates" in e.text for e in t.encounter.log[-3:]) or any(
        "hesitates" in d for d in row.reflex_reasons
    )
    while t.why_not(EndSegment()) is None:
        t.apply(EndSegment())
    t.apply(StartRound())
    t.apply(Declare(who=MIRANDA, speed=Speed.SLOW))
    row = t.track.row(MIRANDA)
    assert row.declared is Speed.SLOW and row.bar_speed is Speed.NORMAL
    assert any("hesitated last round" in r for r in row.bar_reasons)


def test_a_cf_hesitates_with_no_bonus(table):
    """004 Resolution: on a CF the character does not act and gets no speed bonus."""
    t = table
    _declare_all(t)
    n = _card_where(t, lambda r: r.reflex_cf)
    t.apply(Resolve(cards={"all": card_of(t, n)}))
    row = t.track.row(MIRANDA)
    assert row.hesitated and not row.bonus_next_round
    t.apply(EndSegment())  # phase I opens: she still does not act
    assert "hesitates" in (t.why_not(Act(who=MIRANDA, speed=Speed.FAST)) or "")


def test_delaying_for_a_circumstance_and_keeping_on_waiting(table):
    """004 Delaying an Action (Miranda waits for the hombre to show): she delays in her
    phase for a circumstance, may act at a later phase, and a wait carried into the
    next round reads the Fast bar while the action keeps its own speed."""
    t = table
    _declare_all(t, miranda=Speed.NORMAL)
    n = _card_where(t, lambda r: r.phase == 1)
    t.apply(Resolve(cards={"all": card_of(t, n)}))
    t.apply(EndSegment())  # phase I
    while t.why_not(Delay(who=MIRANDA, circumstance="a cowboy shows")):
        nxt = t.track.next_to_act()
        t.apply(Act(who=nxt, speed=Speed.FAST))
    ev = t.apply(Delay(who=MIRANDA, circumstance="a cowboy shows"))
    assert "waiting for a cowboy shows" in ev.text
    assert t.track.row(MIRANDA).delayed
    # the round runs on; the circumstance never comes
    while t.why_not(EndSegment()) is None:
        t.apply(EndSegment())
    t.apply(StartRound())
    assert t.why_not(KeepWaiting(who=MIRANDA)) is None
    t.apply(KeepWaiting(who=MIRANDA))
    row = t.track.row(MIRANDA)
    assert row.bar_speed is Speed.FAST  # "counts as a fast action for readiness"
    assert row.declared is Speed.NORMAL  # "…the speed of the initial action otherwise"


def test_a_delayed_character_acts_in_a_later_phase_and_interrupts_at_minus_two(table):
    t = table
    _declare_all(t)
    n = _card_where(t, lambda r: r.phase == 1)
    t.apply(Resolve(cards={"all": card_of(t, n)}))
    t.apply(EndSegment())
    while t.why_not(Delay(who=MIRANDA)):
        t.apply(Act(who=t.track.next_to_act(), speed=Speed.FAST))
    t.apply(Delay(who=MIRANDA))
    assert t.track.next_to_act() is not None
    card = next(
        card_of(t, k)
        for k in range(1, 55)
        if not read_pool(card_of(t, k), t.character(MIRANDA).trait_pool("reflex"), None).is_cf
        and not read_pool(
            card_of(t, k), t.character(t.track.next_to_act()).trait_pool("reflex"), None
        ).is_cf
    )
    ev = t.apply(Interrupt(who=MIRANDA, card=card))
    contest = ev.raw[0].contest
    raw = read_pool(card, t.character(MIRANDA).trait_pool("reflex"), None).result(0)
    assert contest.interrupter_result == raw - 2  # 004: the interrupter at −2
    ev = t.apply(Act(who=MIRANDA, speed=Speed.FAST))
    assert "acting on a delay" in ev.text


def _phases_of(t) -> set[int]:
    return {r.phase for r in t.track.state.rows.values() if r.phase and not r.hesitated}


def test_next_phase_skips_every_phase_nobody_acts_in_saying_so(table):
    """004 Taking Actions: "If no characters act in a phase it can be skipped". The
    journal's end_segment with skip_empty goes on to the next phase anyone acts in,
    each skipped phase's continuous step run and a log line saying it was skipped;
    plain end_segment keeps one phase a step (the seed scripts)."""
    t = table
    _declare_all(t)
    for n in range(1, 55):  # a card on which nobody acts in phase I
        t.apply(Resolve(cards={"all": card_of(t, n)}))
        if _phases_of(t) and min(_phases_of(t)) > 1:
            break
        t.undo()
    else:
        raise AssertionError("no such card in the deck")
    used = _phases_of(t)
    first = min(used)
    log = len(t.encounter.log)
    ev = t.apply(EndSegment(skip_empty=True))
    assert t.track.state.phase == first
    lines = " ".join(e.text + str(e.detail or "") for e in t.encounter.log[log:])
    for p in range(1, first):
        roman = "I" * p if p < 4 else "IV"
        assert f"Phase {roman}: nobody acts — skipped" in lines
        assert "If no characters act in a phase it can be skipped" in lines
    assert "skipped" in ev.text
    # one undo step takes it all back
    t.undo()
    assert t.track.state.stage.value == "resolved"
    # the plain step opens phase I whoever acts in it
    t.apply(EndSegment())
    assert t.track.state.phase == 1
    # and the round ends through skip_empty steps with a step per phase acted in
    t.undo()
    steps = 0
    while t.track.state.stage.value != "ended":
        t.apply(EndSegment(skip_empty=True))
        steps += 1
    assert steps == len(used) + 1


def test_a_phase_with_a_delayed_character_is_not_skipped(table):
    """A character who delayed may act at any later moment (004 Delaying an Action):
    a phase nobody else acts in is kept for them."""
    t = table
    _declare_all(t)
    n = _card_where(t, lambda r: r.phase == 1)
    t.apply(Resolve(cards={"all": card_of(t, n)}))
    t.apply(EndSegment(skip_empty=True))
    assert t.track.state.phase == 1
    while t.track.next_to_act() not in (None, MIRANDA):
        t.apply(Act(who=t.track.next_to_act(), speed=Speed.FAST))
    if t.track.next_to_act() != MIRANDA:
        pytest.skip("Miranda has had her turn on this card")
    t.apply(Delay(who=MIRANDA))
    later = _phases_of(t) - {1}
    t.apply(EndSegment(skip_empty=True))
    assert t.track.state.phase == 2  # kept for Miranda's delayed action
    assert t.track.skippable() is False
    if 2 not in later:
        assert t.track.acting_order() == []
