"""The group's bonus counters at the table (002 The Bonus Counter, Spending the
Counter): the pool the Judge sets, one counter a player at most, spent counters back
in the pool at once, Right on! adds bumps but never a success, Aces! +2 and As I
planned! +3 on an effect, I've got your back! hands one on, and the end of the
session takes the rest."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import Draw, SetRules
from twtw_desktop.play.bonus_actions import (
    GiveCounter,
    LoseCounters,
    SpendCounter,
    TakeCounter,
    counters_free,
)
from twtw_desktop.play.check_actions import Check
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

from .deck_support import put_on_top

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA, HANK, CYRIL, ANGUS = "miranda_valentine", "hank_daggett", "cyril_wellington", "angus_laroq"


def _pool(table, n: int) -> None:
    options = table.encounter.options.model_copy(update={"bonus_pool": n})
    table.apply(SetRules(edition=table.encounter.edition, options=options))


@pytest.fixture
def table():
    return open_table(SAMPLE).table


def test_no_pool_no_counter_and_one_counter_a_player(table):
    why = table.why_not(TakeCounter(who=MIRANDA))
    assert why and "no bonus pool" in why
    _pool(table, 2)
    table.apply(TakeCounter(who=MIRANDA))
    assert table.character(MIRANDA).bonus_counter and counters_free(table) == 1
    why = table.why_not(TakeCounter(who=MIRANDA))
    assert why and "no one holds more than one" in why
    table.apply(TakeCounter(who=HANK))
    why = table.why_not(TakeCounter(who=CYRIL))
    assert why and "Every counter of the pool is held" in why
    table.apply(SpendCounter(who=HANK, spend="aces"))  # back in the pool at once (rule 2)
    assert counters_free(table) == 1 and table.why_not(TakeCounter(who=CYRIL)) is None
    table.undo()
    assert table.character(HANK).bonus_counter and counters_free(table) == 0


def test_ive_got_your_back_hands_the_counter_on(table):
    _pool(table, 2)
    table.apply(TakeCounter(who=MIRANDA))
    table.apply(TakeCounter(who=HANK))
    why = table.why_not(GiveCounter(who=MIRANDA, to=HANK))
    assert why and "may not take another" in why
    table.apply(SpendCounter(who=HANK, spend="right_on"))
    table.apply(GiveCounter(who=MIRANDA, to=HANK))
    assert not table.character(MIRANDA).bonus_counter and table.character(HANK).bonus_counter


def test_the_end_of_the_session_takes_unspent_counters(table):
    _pool(table, 3)
    table.apply(TakeCounter(who=MIRANDA))
    table.apply(LoseCounters())
    assert not table.character(MIRANDA).bonus_counter and counters_free(table) == 3


def test_a_shot_spends_aces_on_its_effect_and_the_counter_goes_back(table):
    _pool(table, 1)
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    why = table.why_not(SnapShot(who=MIRANDA, target=ANGUS, counter="aces"))
    assert why and "holds no bonus counter" in why
    table.apply(TakeCounter(who=MIRANDA))
    # a card that hits, so the effect is read
    from twtw_desktop.play.attack import Spends, preview

    shot = SnapShot(who=MIRANDA, target=ANGUS, counter="aces")
    plain = SnapShot(who=MIRANDA, target=ANGUS)
    start = table.deck.snapshot()
    for n in range(1, 55):
        put_on_top(table.deck, n)
        with_counter = preview(table, shot.plan(table), Spends()).record
        without = preview(table, plain.plan(table), Spends()).record
        if with_counter.effect is not None and without.effect is not None:
            assert with_counter.effect.value == without.effect.value + 2
            break
        table.deck.restore(start)
    else:
        pytest.fail("no card hits")
    table.apply(shot)
    assert not table.character(MIRANDA).bonus_counter
    assert any("Aces! +2" in e for e in table.encounter.log[-1].detail["effects"])


def test_right_on_adds_bumps_to_a_success_only(table):
    _pool(table, 1)
    table.apply(TakeCounter(who=HANK))
    why = table.why_not(Check(who=HANK, trait="acuity", counter="aces"))
    assert why and "simple check reads none" in why
    ev = table.apply(Check(who=HANK, trait="acuity", counter="right_on"))
    assert not table.character(HANK).bonus_counter
    reasons = ev.record["reasons"]
    if ev.record["success"]:
        assert any("Right on!" in r and "more bump" in r for r in reasons)
    else:
        assert any("a failure stays a failure" in r for r in reasons)
    with pytest.raises(RulesError):
        table.apply(Check(who=HANK, trait="acuity", counter="right_on"))
