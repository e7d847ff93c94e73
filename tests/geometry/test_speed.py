"""Target speed (000/001/003 Target Speed; RULES.md example 6)."""

from __future__ import annotations

import pytest

from twtw_desktop.geometry.speed import relative_speed, target_speed, token_target_speed
from twtw_desktop.model.encounter import Token
from twtw_desktop.rules.editions import OptionalRules, load_edition


@pytest.mark.parametrize("edition_id", ["ap_v2", "phases"])
def test_rules_example_6_the_wagon_and_the_vaquero(edition_id):
    """RULES.md example 6 (000/001 Target Speed): Hank's wagon goes east at 18 paces,
    the vaquero west at 8: relative speed 26, −5 to the result."""
    ts = target_speed((18.0, 0.0), (-8.0, 0.0), edition=load_edition(edition_id))
    assert ts.relative == pytest.approx(26)
    assert ts.penalty == -5
    assert ts.rule == "relative"
    assert ts.reasons[-1].endswith("-5")


def test_chasing_at_the_same_speed_is_no_penalty():
    """000: Miranda (Move 8) chasing a bandit (Move 8) — relative speed 0."""
    assert target_speed((8, 0), (8, 0)).penalty == 0
    # 001: speeds 12 and 8 the same way → 4, no penalty; both running → 8, −1
    assert target_speed((12, 0), (8, 0)).penalty == 0
    assert target_speed((24, 0), (16, 0)).penalty == -1


def test_total_speed_option():
    opts = OptionalRules(total_speed=True)
    ts = target_speed((8, 0), (8, 0), options=opts)
    assert ts.rule == "total" and ts.speed == 16 and ts.penalty == -3
    assert "optional rule" in ts.reasons[1]


def test_vectors_at_an_angle_and_tokens():
    assert relative_speed((3, 0), (0, 4)) == pytest.approx(5)
    a = Token(id="a", character_id="a", hex=(0, 0), velocity=(0.0, 10.0))
    b = Token(id="b", character_id="b", hex=(3, 0), velocity=(0.0, -10.0))
    assert token_target_speed(a, b).penalty == -4
