"""Unintended targets resolved against their victims (000/001 Unintended Targets):
a stray shot that hits a figure near the line of fire wounds it through the table,
with a card of its own, and undo takes it back."""

from __future__ import annotations

import pytest

from twtw_desktop.play.attack import Spends, preview
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

from .deck_support import put_on_top

SAMPLE = maps_dir() / "main_street.encounter.json"


def _a_shot_with_a_stray_hit(table):
    """(shooter, target, card) of a snap shot in the sample whose stray shots hit
    someone near the line of fire."""
    shooters = [c.id for c in table.encounter.characters]
    for who in shooters:
        if not any(w.weapon_id in table.gear.weapons for w in table.character(who).weapons):
            continue
        for tok in table.encounter.tokens:
            if tok.character_id == who:
                continue
            shot = SnapShot(who=who, target=tok.id, cock_first=True)
            try:
                plan = shot.plan(table)
            except Exception:
                continue
            if plan.situation is None or not plan.situation.unintended_candidates:
                continue
            start = table.deck.snapshot()
            try:
                for n in range(1, 55):
                    put_on_top(table.deck, n)
                    rec = preview(table, plan, Spends()).record
                    if rec.strays is not None and rec.strays.candidates_hit:
                        return who, tok.id, n
            finally:
                table.deck.restore(start)
    return None


def test_a_stray_hit_wounds_the_unintended_target_and_undo_takes_it_back():
    table = open_table(SAMPLE).table
    for c in table.encounter.characters:
        for w in c.weapons:
            w.readied = True
    found = _a_shot_with_a_stray_hit(table)
    if found is None:
        pytest.skip("no shot in the sample has a stray hit")
    who, target, n = found
    put_on_top(table.deck, n)
    before = table.state_fingerprint()
    ev = table.apply(SnapShot(who=who, target=target, cock_first=True))
    out = ev.raw[0]
    strays = [r for r in out.records if r.stray_of is not None]
    first = out.records[0]
    assert strays and [r.target_id for r in strays] == [
        table.encounter.token(t).character_id for t in first.strays.candidates_hit
    ]
    for r in strays:
        assert r.hits == 1 and r.location is not None and r.cards[0] != n
        assert r.stray_of == first.target_id
    assert any("stray shot" in e.text for e in table.encounter.log[-len(out.records) :])
    table.undo()
    assert table.state_fingerprint() == before
