"""Thrown weapons (000 Throwing Things, Missed Throws; 001 Throwing Things, Scatter)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import WoundLocation
from twtw_desktop.rules.combat.ranged import ShotSpec, ranged_tn
from twtw_desktop.rules.combat.resolve import resolve_attack
from twtw_desktop.rules.combat.situation import ShotSituation
from twtw_desktop.rules.combat.thrown import clock_bearing, scatter_throw, throw_range

from .cardkit import CardSupply, armed, make_card, person, ready


def test_hank_dynamite_miss_scatter(ap_v2):
    """000 Missed Throws (RULES example 12): TN 6, result 4, clock 9, step 3 — the
    bundle lands 3 paces toward 9 o'clock, with 6 pointing back at Hank."""
    card = make_card(clock=9, step=3)
    s = scatter_throw(card, ap_v2, tn=6, result=4, throw_distance=12)
    assert (s.clock_hour, s.distance, s.from_thrower) == (9, 3, False)
    assert clock_bearing(s.clock_hour) == 270  # to the thrower's left
    assert clock_bearing(6) == 180 and clock_bearing(12) == 0


def test_hank_dynamite_end_to_end(gear, ap_v2, samples):
    """000 Missed Throws: Hank's throw at the wagon 12 paces off is TN 6; his 4 misses
    and the record carries the scatter."""
    hank = ready(samples["hank_daggett"], "dynamite")
    dyn = gear.weapon("dynamite")
    situation = ShotSituation(range_paces=12)
    shot = ShotSpec(kind="normal", thrown=True)
    tn = ranged_tn(hank, dyn, ap_v2, situation, shot)
    assert tn.tn == 6
    card = make_card(cause={8: [4, 2]}, clock=9, step=3)
    rec, target = resolve_attack(
        hank, person("wagon"), dyn, ap_v2, tn, card, situation=situation, shot=shot
    )
    assert not rec.hit.success and rec.hit.result == 4
    assert rec.attack_kind == "thrown"
    assert (rec.scatter.clock_hour, rec.scatter.distance) == (9, 3)
    assert rec.strays is None  # a throw scatters instead
    assert any("blast" in n for n in rec.notes)
    assert target == person("wagon")
    assert "scatters 3 paces toward 9 o'clock" in rec.summary()


def test_phases_scatter_formula(phases):
    """001 Scatter: TN − result + step paces, at most half the throw; a CF scatters from
    the thrower."""
    card = make_card(clock=4, step=3)
    s = scatter_throw(card, phases, tn=6, result=4, throw_distance=20)
    assert s.distance == 6 - 4 + 3 and not s.from_thrower
    capped = scatter_throw(card, phases, tn=9, result=2, throw_distance=8)
    assert capped.distance == 4
    cf = scatter_throw(card, phases, tn=6, result=None, cf=True, throw_distance=30)
    assert cf.from_thrower and cf.distance == 6 + 3


def test_ap_v2_cf_scatters_from_the_target(ap_v2):
    s = scatter_throw(make_card(step=2), ap_v2, tn=6, result=None, cf=True, throw_distance=10)
    assert not s.from_thrower and s.distance == 2


def test_throw_ranges(gear, ap_v2, phases):
    """000: increment 10 for all thrown weapons; 001: Strength die / 2 + 2 (2d8 → 6);
    maximum Strength die × 5 (house value in AP v2)."""
    thrower = person("t", traits={"strength": "2d8"})
    knife = gear.weapon("bowie_knife")
    a = throw_range(thrower, knife, ap_v2)
    p = throw_range(thrower, knife, phases)
    assert (a.increment, a.max_range) == (10, 40)
    assert (p.increment, p.max_range) == (6, 40)


def test_thrown_tn_uses_the_throwing_increment(gear, phases):
    thrower = person("t", traits={"strength": "2d8"}, weapons=[armed("bowie_knife", loaded=0)])
    tn = ranged_tn(
        thrower,
        gear.weapon("bowie_knife"),
        phases,
        ShotSituation(range_paces=10),
        ShotSpec(thrown=True),
    )
    assert tn.tn == 6  # increment 6, one increment begun after the first


def test_beyond_the_maximum_range_is_refused(gear, ap_v2):
    thrower = person("t", traits={"strength": "2d6"}, weapons=[armed("bowie_knife", loaded=0)])
    with pytest.raises(RulesError, match="beyond"):
        ranged_tn(
            thrower,
            gear.weapon("bowie_knife"),
            ap_v2,
            ShotSituation(range_paces=31),
            ShotSpec(thrown=True),
        )


def test_thrown_knife_hits(gear, ap_v2):
    thrower = person(
        "t", skills={"throwing": (2, "coordination")}, weapons=[armed("bowie_knife", loaded=0)]
    )
    knife = gear.weapon("bowie_knife")
    shot = ShotSpec(thrown=True)
    situation = ShotSituation(range_paces=4)
    tn = ranged_tn(thrower, knife, ap_v2, situation, shot)
    card = make_card(cause={10: [8, 2]}, effects={(2, 6): 7})
    rec, hurt = resolve_attack(
        thrower,
        person("v"),
        knife,
        ap_v2,
        tn,
        card,
        situation=situation,
        shot=shot,
        more=CardSupply(make_card(2)),
    )
    assert rec.hit.success and rec.scatter is None
    assert rec.effect.value == 7 and rec.damage.wounds_added == 1
    assert hurt.wounds[WoundLocation.TORSO] == 1


def test_clock_hour_out_of_range():
    with pytest.raises(RulesError):
        clock_bearing(13)
