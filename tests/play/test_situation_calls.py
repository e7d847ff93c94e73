"""The Judge's situation calls in the attack (000 Modifiers), itemised before any
card is drawn: the firer's movement (walk −1, run −4: Move and Fire) and the target's
Size (000 Target Size), each read off the map or the sheet unless the Judge says
otherwise."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import Draw
from twtw_desktop.play.combat_actions import NormalShot
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

from .deck_support import put_on_top

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    t.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    return t


def _shot(table, **kw):
    return table.preview(NormalShot(who=MIRANDA, target=ANGUS, **kw))


def test_the_firer_called_running_takes_minus_four_and_walking_minus_one(table):
    still = _shot(table)
    walk = _shot(table, firer_movement="walking")
    run = _shot(table, firer_movement="running")
    assert walk["result_modifier"] == still["result_modifier"] - 1
    assert run["result_modifier"] == still["result_modifier"] - 4
    assert any("Judge calls the firer running" in g for g in run["situation"])
    assert len(run["tn_items"]) == len(still["tn_items"]) + 1  # one itemised line more


def test_a_small_target_raises_the_tn_and_a_big_one_adds_to_the_result(table):
    base = _shot(table)
    sheet = table.character(ANGUS).size
    assert sheet > 4
    assert _shot(table, target_size=4)["tn"] == base["tn"] + 1
    assert _shot(table, target_size=2)["tn"] == base["tn"] + 2
    big = _shot(table, target_size=10)
    assert big["result_modifier"] == base["result_modifier"] + 2
    assert any("Size 10" in g for g in big["situation"])
    same = _shot(table, target_size=sheet)
    assert (same["tn"], same["result_modifier"], same["tn_items"]) == (
        base["tn"],
        base["result_modifier"],
        base["tn_items"],
    )


def test_two_weapons_aimed_together_pay_the_extra_aim_ap(table):
    """000 Two Weapons: −1 to each attack; aiming the two together at one target
    costs the edition's extra AP per aim action (000: +2)."""
    from twtw_desktop.play.combat_actions import AimedShot

    one = table.preview(AimedShot(who=MIRANDA, target=ANGUS, aims=1))
    two = table.preview(AimedShot(who=MIRANDA, target=ANGUS, aims=1, two_weapons=True))
    extra = table.edition.two_weapons.aim_extra_ap
    assert extra == 2 and two["ap"] == one["ap"] + extra
    assert any("two weapons aimed together" in i for i in two["ap_items"])
    assert two["result_modifier"] == one["result_modifier"] - 1


def test_trying_to_miss_fails_unless_a_calamity(table):
    """000 Action Sabotage: a shot meant to miss fails unless the card is a calamity,
    when the target is hit after all."""
    from twtw_desktop.play.attack import Spends, preview

    shot = NormalShot(who=MIRANDA, target=ANGUS, sabotage=True)
    plan = shot.plan(table)
    start = table.deck.snapshot()
    seen_cf = seen_plain = False
    for n in range(1, 55):
        put_on_top(table.deck, n)
        rec = preview(table, plan, Spends()).record
        table.deck.restore(start)
        assert rec.hit.success == rec.hit.cf
        assert any("000 Action Sabotage" in r for r in rec.hit.reasons)
        seen_cf |= rec.hit.cf
        seen_plain |= not rec.hit.cf
    assert seen_cf and seen_plain
