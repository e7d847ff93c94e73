"""Possible unintended targets along the line of fire (000/001 Unintended Targets)."""

from __future__ import annotations

import pytest
from shapely.geometry import Point

from twtw_desktop.geometry.corridor import unintended_targets
from twtw_desktop.hexgrid import DIRECTIONS, Hex
from twtw_desktop.model.encounter import Token
from twtw_desktop.model.map import Map


def _tok(tid: str, h: Hex) -> Token:
    return Token(id=tid, character_id=tid, hex=(h.q, h.r))


def test_candidates_near_the_line_nearest_the_shooter_first(orientation):
    m = Map.blank(20, 9, orientation)
    s = m.hex_at(2, 4)
    t = s + DIRECTIONS[0].scale(8)
    on_line = s + DIRECTIONS[0].scale(3)
    beside = s + DIRECTIONS[0].scale(5) + DIRECTIONS[1]  # one row over: 0.87 paces off
    two_rows = s + DIRECTIONS[0].scale(4) + DIRECTIONS[1].scale(2)  # 1.7 paces off
    by_target = t + DIRECTIONS[2]
    behind_shooter = s + DIRECTIONS[3]
    tokens = [
        _tok("shooter", s),
        _tok("target", t),
        _tok("by_target", by_target),
        _tok("beside", beside),
        _tok("on_line", on_line),
        _tok("far", two_rows),
        _tok("behind", behind_shooter),
    ]
    c = unintended_targets(m, s, t, tokens)
    assert c.ids == ("on_line", "beside", "by_target")
    assert [x.in_melee for x in c.candidates] == [False, False, True]
    assert c.target_in_melee
    assert c.candidates[0].off_paces == pytest.approx(0, abs=1e-9)
    assert c.candidates[0].along_paces == pytest.approx(3)
    assert c.candidates[1].off_paces < 1
    lay = m.layout()
    for x in c.candidates:
        assert c.polygon.buffer(1e-6).contains(Point(lay.hex_to_pixel(x.hex)))
    assert not c.polygon.contains(Point(lay.hex_to_pixel(behind_shooter)))
    assert "Unintended Targets" in c.reasons[0]


def test_excluded_ids_and_the_line_beyond_the_target():
    m = Map.blank(20, 5)
    s, t = m.hex_at(1, 2), m.hex_at(6, 2)
    past = t + DIRECTIONS[0].scale(3)
    tokens = [_tok("a", s + DIRECTIONS[0]), _tok("b", past)]
    assert unintended_targets(m, s, t, tokens).ids == ("a",)
    assert unintended_targets(m, s, t, tokens, exclude_ids=["a"]).ids == ()
    assert unintended_targets(m, s, t, tokens, beyond_paces=3).ids == ("a", "b")
    alone = unintended_targets(m, s, t, [])
    assert alone.ids == () and not alone.target_in_melee
