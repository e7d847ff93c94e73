"""Checks, bumps, victories, adjustments and bonus counters (002 Action Resolution)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import Effect, Pool
from twtw_desktop.rules.checks import (
    Adjustment,
    AdjustmentKind,
    BonusPool,
    BonusSpend,
    ComplexCheck,
    Grid,
    apply_effect_row_adjustment,
    apply_row_adjustment,
    check_pool,
    column_adjustment_allowed,
    difficulty_tn,
    right_on,
    simple_check,
    split_adjustments,
    victories,
)
from twtw_desktop.rules.deck import standard_deck


def deck_card(number: int):
    return next(c for c in standard_deck() if c.number == number)


# -- difficulty, success and bumps -------------------------------------------------


def test_difficulty_names():
    """002 "Setting Difficulty": Easy 3, Standard 5, Challenging 7, Difficult 9,
    Incredible 11."""
    assert [difficulty_tn(n) for n in ("Easy", "standard", " CHALLENGING ", "Difficult")] == [
        3,
        5,
        7,
        9,
    ]
    assert difficulty_tn("incredible") == 11
    with pytest.raises(RulesError):
        difficulty_tn("Impossible")


@pytest.mark.parametrize(("result", "bumps"), [(9, 1), (8, 0), (13, 2), (5, 0), (12, 1)])
def test_bumps_per_full_four(result, bumps):
    """002 "Escalating Success: Bumps": a bump for each full 4 over the TN (TN 5)."""
    out = simple_check(result, 5)
    assert out.success and out.bumps == bumps and not out.calamity


def test_failure_and_cf():
    out = simple_check(4, 5)
    assert not out.success and out.bumps == 0
    cf = simple_check(99, 3, cf=True)
    assert not cf.success and cf.calamity and cf.bumps == 0
    assert any("CF" in r for r in cf.reasons)
    assert not simple_check(None, 3).success


def test_bumps_with_impetus_every_three():
    """002: with impetus a bump can come every 3 instead of 4."""
    assert simple_check(11, 5, bump_every=3).bumps == 2
    with pytest.raises(RulesError):
        simple_check(11, 5, bump_every=0)


@given(st.integers(-5, 40), st.integers(1, 20))
def test_cf_always_fails(result, tn):
    assert not simple_check(result, tn, cf=True).success


@given(st.integers(-5, 40), st.integers(1, 20))
def test_bumps_never_negative_and_only_on_success(result, tn):
    out = simple_check(result, tn)
    assert out.success == (result >= tn)
    assert out.bumps == ((result - tn) // 4 if out.success else 0)


def test_check_pool_on_card_50_with_itemised_modifier():
    """000 "Combat Example, Miranda vs Miners": 3d10 on card 50 gives 8; the rider's
    speed costs −3, so 5 meets TN 5: a hit, no bump."""
    out = check_pool(deck_card(50), "3d10", 5, result_modifier=[("target moving 18", -3, "000")])
    assert out.success and out.result == 5 and out.bumps == 0
    assert any("target moving 18 -3 (000)" in r for r in out.reasons)
    assert out.read is not None and out.read.result() == 8
    second = check_pool(deck_card(50), "3d10", 3, k=1)
    assert second.result == 3 and second.success
    with pytest.raises(RulesError):
        check_pool(deck_card(50), "3d10", 3, k=3)


def test_check_pool_cf_card_42():
    """004 "Initiative Example": the brothers' 2d6 on card 42 is CF."""
    out = check_pool(deck_card(42), "2d6", 1)
    assert not out.success and out.calamity and out.result is None


# -- complex checks ----------------------------------------------------------------


def test_victories_per_full_threshold():
    assert [victories(v) for v in (0, 5, 6, 11, 12, 13, 18)] == [0, 0, 1, 1, 2, 2, 3]
    assert victories(13, threshold=5) == 2
    with pytest.raises(RulesError):
        victories(10, threshold=0)


def test_hank_demolitions_example():
    """RULES.md example 13, 002 "Complex Checks" (Hank's dynamite device): TN 7,
    result 8 is a success with no bump; effect 13 gives 2 victories of the 3 needed,
    one more to go."""
    check = ComplexCheck(tn=7, needed=3)
    after, res = check.advance(8, 13)
    assert res.success and res.bumps == 0
    assert res.victories_gained == 2 and res.progress == 2 and res.remaining == 1
    assert not res.complete and after.progress == 2 and check.progress == 0
    # A failed action adds nothing; a later success finishes the device.
    after2, res2 = after.advance(5, 20)
    assert not res2.success and after2.progress == 2
    done, res3 = after2.advance(9, 6)
    assert res3.complete and done.complete and done.remaining == 0
    with pytest.raises(RulesError):
        done.advance(10, 10)


def test_complex_check_cf_and_threshold():
    check = ComplexCheck(tn=5, needed=2, threshold=8)
    after, res = check.advance(None, None, cf=True)
    assert res.calamity and not res.success and after.progress == 0
    after, res = check.advance(6, 17)
    assert res.victories_gained == 2 and res.complete


# -- adjustments -------------------------------------------------------------------


def test_row_adjustments_clamp():
    """002 "Applying Bonuses and Penalties": a row adjustment changes the pool size."""
    assert apply_row_adjustment("2d8", 1) == Pool(count=3, die=8)
    assert apply_row_adjustment(Pool(count=5, die=8), 2).count == 5
    assert apply_row_adjustment("1d6", -3).count == 1
    assert apply_effect_row_adjustment("(6)8", 3) == Effect(row=7, die=8)
    assert apply_effect_row_adjustment("(2)8", -4).row == 1


def test_column_adjustments_never_on_the_cause_grid():
    """002 rule 1: never apply column adjustments to cause grid results."""
    with pytest.raises(RulesError):
        column_adjustment_allowed(Grid.CAUSE)
    assert column_adjustment_allowed("effect")
    with pytest.raises(RulesError):
        Adjustment(kind=AdjustmentKind.COLUMN, grid=Grid.CAUSE, amount=1).check()
    direct, rows, cols, reasons = split_adjustments(
        [
            Adjustment(kind="direct", grid="cause", amount=-2, label="walking", source="000"),
            Adjustment(kind="row", grid="effect", amount=1),
            Adjustment(kind="column", grid="effect", amount=-1, label="reduced damage"),
        ]
    )
    assert (direct, rows, cols) == (-2, 1, -1)
    assert reasons[0].startswith("walking -2")


# -- bonus counters ----------------------------------------------------------------


def test_bonus_pool_defaults_to_players_minus_one():
    """002 "The Bonus Counter": one fewer counter than players."""
    pool = BonusPool.new_session(["Ann", "Bob", "Cy", "Di"])
    assert pool.available == 3 and pool.holders == ()


def test_nobody_holds_two_and_spent_counters_return():
    pool = BonusPool.new_session(["Ann", "Bob", "Cy"])
    pool = pool.earn("Ann")
    with pytest.raises(RulesError):
        pool.earn("Ann")
    pool = pool.earn("Bob")
    with pytest.raises(RulesError, match="empty"):
        pool.earn("Cy")
    pool, spent = pool.spend("Ann", BonusSpend.ACES)
    assert spent.effect_bonus == 2 and pool.available == 1 and not pool.holds("Ann")
    pool = pool.earn("Cy")
    ended = pool.end_session()
    assert ended.holders == () and ended.available == 0  # unspent counters are lost
    with pytest.raises(RulesError):
        pool.earn("Zed")


def test_right_on_only_adds_bumps():
    """002 "Spending the Counter": Right on! adds +2 for bumps and never rescues a
    failure."""
    assert right_on(8, 7) == 0
    assert right_on(9, 7) == 1
    assert right_on(11, 5) == 2
    with pytest.raises(RulesError):
        right_on(6, 7)
    pool = BonusPool.new_session(["Ann", "Bob"]).earn("Ann")
    with pytest.raises(RulesError):
        pool.spend("Ann", "right_on", result=4, tn=5)
    assert pool.holds("Ann")  # the refused spend changed nothing
    pool2, spent = pool.spend("Ann", "right_on", result=7, tn=5)
    assert spent.bumps == 1 and pool2.available == 1


def test_as_i_planned_needs_impetus():
    pool = BonusPool.new_session(["Ann", "Bob"]).earn("Bob")
    with pytest.raises(RulesError, match="impetus"):
        pool.spend("Bob", BonusSpend.AS_I_PLANNED)
    _, spent = pool.spend("Bob", BonusSpend.AS_I_PLANNED, impetus=True)
    assert spent.effect_bonus == 3
    with pytest.raises(RulesError):
        BonusPool.new_session(["Ann", "Bob"]).spend("Ann", "aces")


def test_ive_got_your_back():
    """002: the helper hands their counter over; a target already holding one must
    be spending it on this action."""
    pool = BonusPool.new_session(["Ann", "Bob", "Cy"]).earn("Ann").earn("Bob")
    with pytest.raises(RulesError, match="already holds"):
        pool.got_your_back("Ann", "Bob")
    moved, res = pool.got_your_back("Ann", "Bob", target_spends_own=True)
    assert moved.holders == ("Bob",) and moved.available == 1 and res.target == "Bob"
    pool = BonusPool.new_session(["Ann", "Bob", "Cy"]).earn("Ann")
    moved, _ = pool.got_your_back("Ann", "Cy")
    assert moved.holders == ("Cy",) and moved.available == pool.available
    with pytest.raises(RulesError):
        pool.got_your_back("Cy", "Ann")
    with pytest.raises(RulesError):
        pool.got_your_back("Ann", "Ann")
