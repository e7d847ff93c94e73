"""First aid, rest and healing as pure rules (001 Healing): the TN table per
edition, bound locations and bleeding, and the invariants of any mix of wounds,
first aid and rest."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules import healing as H
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.damage import apply_damage, bleed, bleed_rate
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.samples import sample_characters

AP_V2 = load_edition("ap_v2")
PHASES = load_edition("phases")


def person(**wounds: int):
    c = sample_characters()["hank_daggett"]
    c.wounds = {**c.wounds, **{WoundLocation(k): n for k, n in wounds.items()}}
    return c


@pytest.mark.parametrize(
    ("edition", "count", "tn"),
    [(PHASES, 1, 3), (PHASES, 2, 5), (PHASES, 3, 7), (PHASES, 4, 9), (AP_V2, 5, 11)],
)
def test_the_healing_table(edition, count, tn):
    """001 Healing: Wind 3, Light 5, Serious 7, Critical 9 (the Phases edition's own
    wound names); AP v2's fifth level reads its stun column."""
    assert H.wound_tn(edition, count)[0] == tn
    with pytest.raises(RulesError):
        H.wound_tn(edition, 0)


def test_a_bound_location_stops_bleeding_and_a_new_wound_opens_it():
    c = person(torso=4, left_leg=3)
    assert bleed_rate(c)[0] == 2  # 001: the serious torso bleeds 2
    c.wound_care = {WoundLocation.TORSO: "bound"}
    assert bleed_rate(c)[0] == 1  # the heavy leg still bleeds 1
    c.wound_care = {WoundLocation.TORSO: "bound", WoundLocation.LEFT_LEG: "bound"}
    rate, why = bleed_rate(c)
    assert rate == 0 and "bound" in why
    same, lost, _ = bleed(c, AP_V2)
    assert lost == 0 and same.conc == c.conc
    hit, _ = apply_damage(c, AP_V2, effect=6, hit=HitLocation.CHEST, kind="deadly")
    assert hit.wound_care == {WoundLocation.LEFT_LEG: "bound"}
    assert bleed_rate(hit)[0] == 3  # five torso wounds, open again


def test_rest_without_wounds_leaves_no_care_and_the_dead_stay_dead():
    c = person()
    assert H.rest(c, 60, AP_V2)[0].wound_care == {}
    c.dead = True
    new, why = H.rest(c, 600, AP_V2)
    assert new.dead and why == [f"{c.name} is dead"]
    with pytest.raises(RulesError):
        H.rest(person(), 0, AP_V2)


steps = st.lists(
    st.one_of(
        st.tuples(st.just("hit"), st.integers(0, 30), st.sampled_from(list(HitLocation))),
        st.tuples(st.just("aid"), st.booleans(), st.sampled_from(list(WoundLocation))),
        st.tuples(st.just("heal"), st.booleans(), st.sampled_from(list(WoundLocation))),
        st.tuples(st.just("rest"), st.integers(1, 600), st.just(None)),
    ),
    min_size=1,
    max_size=15,
)


@settings(max_examples=60)
@given(steps=steps, edition=st.sampled_from([AP_V2, PHASES]))
def test_any_mix_of_wounds_first_aid_and_rest_keeps_the_invariants(steps, edition):
    """Care never adds a wound or takes Conc; wounds stay 0..5; only wounded areas
    carry care; the sheet passed in is never changed."""
    c = person()
    opts = OptionalRules(bleeding=True)
    for kind, value, where in steps:
        snapshot = c.model_dump()
        if kind == "hit":
            new, _ = apply_damage(
                c, edition, effect=value, hit=where, kind="deadly", toggle=False, options=opts
            )
        elif c.dead:
            continue
        elif kind == "rest":
            new, _ = H.rest(c, value, edition)
            assert new.conc >= c.conc and new.wounds == c.wounds
        elif c.wounds[where] == 0:
            continue
        elif kind == "aid":
            new, _ = H.treat_wound(c, where, value, edition)
            assert new.wounds[where] in (c.wounds[where], c.wounds[where] - 1)
            assert new.conc == c.conc
        else:
            new, _ = H.heal_wound(c, where, value, edition)
            assert new.wounds[where] in (c.wounds[where], c.wounds[where] - 1)
        assert c.model_dump() == snapshot
        assert all(0 <= n <= 5 for n in new.wounds.values())
        assert all(new.wounds[loc] > 0 for loc in new.wound_care)
        c = new
