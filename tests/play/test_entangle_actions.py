"""Entangling weapons at the table (003 Entanglement): the lasso's opposed contest,
an entangled figure kept from moving, and breaking free — Strength against a fragile
weapon's TN, which breaks it."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import Draw, Move, Place, ref_of
from twtw_desktop.play.entangle_actions import BreakFree, Entangle, contest
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.combat.ranged import attack_pool

from .deck_support import put_on_top

OCTAVIO, DAVE = "octavio_vaquero", "dave_perkins"


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(Draw(who=OCTAVIO, weapon="lasso"))
    near = t.token(f"token-{OCTAVIO}").at
    spot = next(
        h
        for h in (near.neighbor(i).neighbor(i) for i in range(6))
        if t.map.contains(h) and t.encounter.token_at(h) is None
    )
    t.apply(Place(who=DAVE, to=ref_of(t, spot)))
    return t


def _card_where(t, want):
    """A card on which the lasso's contest comes out as ``want`` (True: entangled)."""
    c, d = t.character(OCTAVIO), t.character(DAVE)
    mine = attack_pool(c, t.gear.weapons["lasso"])[0]
    for n in range(1, 55):
        card = t.deck.card(n)
        _a, _b, wins, _why = contest(card, mine, d.trait_pool("coordination"), None)
        if wins == want:
            return n
    pytest.fail("no such card")


def test_the_lasso_entangles_on_a_won_contest_and_the_figure_cannot_move(table):
    t = table
    put_on_top(t.deck, _card_where(t, True))
    ev = t.apply(Entangle(who=OCTAVIO, target=DAVE))
    assert ev.record["entangled"] and "entangles Dave Perkins" in ev.text
    dave = t.token(f"token-{DAVE}")
    assert dave.entangled_by == f"token-{OCTAVIO}" and dave.entangled_weapon == "lasso"
    step = next(h for h in (dave.at.neighbor(i) for i in range(6)) if t.map.contains(h))
    why = t.why_not(Move(who=DAVE, to=ref_of(t, step)))
    assert why and "entangled" in why and "003 Entanglement" in why
    t.undo()
    assert t.token(f"token-{DAVE}").entangled_by is None


def test_a_lost_or_tied_contest_entangles_no_one(table):
    t = table
    put_on_top(t.deck, _card_where(t, False))
    ev = t.apply(Entangle(who=OCTAVIO, target=DAVE))
    assert not ev.record["entangled"] and t.token(f"token-{DAVE}").entangled_by is None


def test_breaking_a_fragile_lasso_frees_the_figure_and_breaks_the_rope(table):
    t = table
    put_on_top(t.deck, _card_where(t, True))
    t.apply(Entangle(who=OCTAVIO, target=DAVE))
    tn = t.gear.weapons["lasso"].entangle_tn
    for n in range(1, 55):  # a card on which Dave's Strength makes the TN
        put_on_top(t.deck, n)
        ev = t.apply(BreakFree(who=DAVE))
        if ev.record["free"]:
            break
        t.undo()
    else:
        pytest.fail("no card frees Dave")
    assert f"against TN {tn}" in ev.text and "breaks (fragile" in ev.text
    assert t.token(f"token-{DAVE}").entangled_by is None
    lasso = next(w for w in t.character(OCTAVIO).weapons if w.weapon_id == "lasso")
    assert lasso.failure == "broken"
    why = t.why_not(Entangle(who=OCTAVIO, target=DAVE))
    assert why and "no lasso or net in hand" in why


def test_out_of_reach_and_not_entangled_are_refused_by_name(table):
    t = table
    far = t.token("token-miranda_valentine").id
    why = t.why_not(Entangle(who=OCTAVIO, target=far))
    assert why and "reaches" in why and "house" in why
    why = t.why_not(BreakFree(who=DAVE))
    assert why and "not entangled" in why
