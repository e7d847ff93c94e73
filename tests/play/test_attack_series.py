"""Several attacks from one pool (000 Multiple Attacks, Resolving Multiple Attacks):
all declared before the card, one card, the best result for the first attack, the
second best for the second; 1 AP per switch of target, −1 per target after the
first; at most the skill level. Cyril's example: cock + normal on one Perkins, cock
+ snap on the other, one switch = 7 AP."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import Draw
from twtw_desktop.play.combat_actions import NormalShot, SeriesAttack, SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"
CYRIL, DAVE, CLEM = "cyril_wellington", "dave_perkins", "clem_perkins"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    t.apply(Draw(who=CYRIL, weapon="sw_schofield"))
    return t


def _cyrils_two_shots():
    return NormalShot(who=CYRIL, target=DAVE, then=(SeriesAttack(target=CLEM, shot="snap"),))


def test_cyrils_example_costs_seven_ap(table):
    p = table.preview(_cyrils_two_shots())
    assert p["ap"] == 7
    items = p["ap_items"]
    assert sum("cock the Smith & Wesson" in i for i in items) == 2
    assert any("switch target to Clem Perkins: 1 AP (000 Multiple Attacks)" in i for i in items)
    first, second = p["shots"]
    assert first["target"] == DAVE and second["target"] == CLEM
    single = table.preview(SnapShot(who=CYRIL, target=CLEM, cock_first=True))
    # the second attack: the snap penalty and −1 for a second target (000 Modifiers)
    assert second["result_modifier"] == single["result_modifier"] - 1


def test_one_card_best_result_first_and_one_undo_step(table):
    loaded = table.character(CYRIL).weapons[0].loaded
    steps = len(table.steps)
    ev = table.apply(_cyrils_two_shots())
    records = ev.raw[0].records
    assert [r.target_id for r in records] == [DAVE, CLEM]
    assert [r.hit.rank for r in records] == [1, 2]
    assert records[0].cards[0] == records[1].cards[0]  # one card for the series
    assert records[1].equipment_failure is None  # one card, one wrench
    assert table.character(CYRIL).weapons[0].loaded == loaded - 2
    assert len(table.steps) == steps + 1
    table.undo()
    assert table.character(CYRIL).weapons[0].loaded == loaded


def test_attacks_beyond_the_skill_level_miss_automatically(table):
    """000 Multiple Attacks: "Attacks in excess of the level of the appropriate skill
    miss automatically (but may have other effects)." The extra attack is declared,
    paid and fired (a round spent, its stray shot flying) and misses; the preview says
    so. (This test pinned a refusal before.)"""
    level = table.character(CYRIL).skill_level("shooting_pistol")
    then = tuple(SeriesAttack(target=CLEM) for _ in range(level))
    shot = NormalShot(who=CYRIL, target=DAVE, then=then)
    assert table.why_not(shot) is None
    p = table.preview(shot)
    assert any("miss automatically" in g for g in p["situation"])
    assert any(f"attack {level + 1}" in g and "misses automatically" in g for g in p["situation"])
    loaded = table.character(CYRIL).weapons[0].loaded
    records = table.apply(shot).raw[0].records
    assert len(records) == level + 1
    extra = records[-1]
    assert not extra.hit.success
    assert any("beyond the skill level" in r for r in extra.hit.reasons)
    assert extra.strays is not None and extra.strays.stray_shots == 1
    assert table.character(CYRIL).weapons[0].loaded == loaded - level - 1


def test_a_series_is_snap_or_normal_shots(table):
    from twtw_desktop.play.combat_actions import AimedShot

    why = table.why_not(
        AimedShot(who=CYRIL, target=DAVE, aims=1, then=(SeriesAttack(target=CLEM),))
    )
    assert why and "snap or normal" in why
