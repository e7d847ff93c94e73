"""Tactical aiming and covering fire (000/001 Tactical Aiming, Aim and Cover; 002
Covering Fire)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.combat.aiming import (
    AimThreat,
    begin_covering_fire,
    bravery_tn,
    covering_fire_reaction,
    next_round,
    place_marker,
    shot_after_aim_check,
    tactical_aim_check,
)
from twtw_desktop.rules.combat.ranged import ShotSpec, ranged_tn
from twtw_desktop.rules.combat.resolve import resolve_attack
from twtw_desktop.rules.combat.situation import ShotSituation

from .cardkit import armed, make_card, person


def _aimer():
    return person("aimer", traits={"bravery": "2d8"})


def test_bravery_tn_under_fire(ap_v2):
    """000 Tactical Aiming: Standard (5) after ranged attacks, −1 per shot after the
    first, −2 per hit; behind cover all turn adds the (lowest) AV."""
    tn = bravery_tn(_aimer(), ap_v2, AimThreat(ranged_shots=3, ranged_hits=1), cover_avs=(3, 2))
    assert tn.tn == 5
    assert tn.result_modifier == -2 - 2 + 2
    assert {m.label for m in tn.result_items} == {
        "2 shot(s) after the first",
        "hit 1 time(s)",
        "behind cover all turn (lowest AV)",
    }


def test_bravery_tn_in_melee(ap_v2, phases):
    """000: Difficult (7 in 000) after a melee attack; 001: Difficult (9)."""
    assert bravery_tn(_aimer(), ap_v2, AimThreat(melee_attacked=True)).tn == 7
    assert bravery_tn(_aimer(), phases, AimThreat(melee_attacked=True)).tn == 9


def test_no_threat_no_check(ap_v2):
    check = tactical_aim_check(_aimer(), ap_v2, AimThreat())
    assert not check.required and check.aim_kept


def test_hit_in_melee_loses_all_aim(ap_v2):
    """000: hit in melee — no aiming at all, any aim is lost."""
    check = tactical_aim_check(_aimer(), ap_v2, AimThreat(melee_hit=True))
    assert not check.aim_kept and check.snap_only and check.no_more_aim_this_round
    shot = shot_after_aim_check(ShotSpec(kind="aimed", aims=2), check)
    assert shot.kind == "snap" and shot.aims == 0


def test_failed_check_turns_the_shot_to_a_snap(ap_v2):
    """000: failure — AP spent, aim lost, the shot is a snap shot, no aim this round."""
    threat = AimThreat(ranged_shots=1)
    fail = tactical_aim_check(_aimer(), ap_v2, threat, make_card(cause={8: [4, 2]}))
    assert fail.required and not fail.aim_kept and fail.result == 4
    assert shot_after_aim_check(ShotSpec(kind="aimed", aims=1), fail).kind == "snap"
    keep = tactical_aim_check(_aimer(), ap_v2, threat, make_card(cause={8: [5, 2]}))
    assert keep.aim_kept and shot_after_aim_check(ShotSpec(kind="aimed", aims=1), keep).aims == 1


def test_cover_saves_the_aim(ap_v2):
    """000 Aim and Cover: a 3 behind a hardwood wall (AV 3) makes a 6 vs TN 5."""
    check = tactical_aim_check(
        _aimer(), ap_v2, AimThreat(ranged_shots=1), make_card(cause={8: [3, 2]}), cover_avs=(3,)
    )
    assert check.aim_kept and check.result == 6


def test_a_check_needs_a_card(ap_v2):
    with pytest.raises(RulesError, match="Bravery"):
        tactical_aim_check(_aimer(), ap_v2, AimThreat(ranged_shots=1))


# -- covering fire ----------------------------------------------------------------------


def _gunman(loaded=6, readied=True):
    return person(
        "gunman",
        skills={"shooting_rifle": (2, "coordination")},
        weapons=[armed("winchester_rifle", loaded=loaded, readied=readied)],
    )


def test_covering_fire_needs_four_rounds(gear):
    """002: 4 or more rounds loaded to begin; a readied firearm."""
    w = gear.weapon("winchester_rifle")
    with pytest.raises(RulesError, match="4 or more"):
        begin_covering_fire(_gunman(loaded=3), w)
    with pytest.raises(RulesError, match="not readied"):
        begin_covering_fire(_gunman(readied=False), w)
    with pytest.raises(RulesError, match="firearm"):
        begin_covering_fire(person("k", weapons=[armed("bowie_knife")]), gear.weapon("bowie_knife"))
    state = begin_covering_fire(_gunman(), w)
    assert state.markers_left == 4 and not state.covered


def test_four_markers_one_round_each(gear):
    """002: each continuous action phase a marker, a malfunction check, one round."""
    w = gear.weapon("winchester_rifle")
    gunman = _gunman(loaded=5)
    state = begin_covering_fire(gunman, w)
    for i, place in enumerate(["door", "window", "alley", "roof"]):
        state, gunman, res = place_marker(state, gunman, w, place, make_card(10 + i))
        assert res.covered and res.rounds_used == 1
    assert state.covered == ("door", "window", "alley", "roof")
    assert gunman.weapons[0].loaded == 1 and state.markers_left == 0
    with pytest.raises(RulesError, match="All four"):
        place_marker(state, gunman, w, "barn", make_card(20))


def test_malfunction_before_or_after_the_shot(gear):
    """002: a malfunction resolves before the shot (nothing covered) or after (covered)
    at the Judge's choice; covering fire then ends."""
    w = gear.weapon("winchester_rifle")  # Rel 2: a wrench 1 fails
    gunman = _gunman()
    state = begin_covering_fire(gunman, w)
    before, g1, res = place_marker(state, gunman, w, "door", make_card(wrench=1))
    assert not res.covered and res.malfunction.failed and before.ended and g1.weapons[0].loaded == 6
    after, g2, res = place_marker(
        state, gunman, w, "door", make_card(wrench=1), malfunction_after=True
    )
    assert res.covered and after.ended and g2.weapons[0].loaded == 5
    with pytest.raises(RulesError, match="ended"):
        place_marker(after, g2, w, "window", make_card(2))
    assert gunman.weapons[0].loaded == 6  # the input is untouched


def test_next_round_refreshes_markers(gear):
    w = gear.weapon("winchester_rifle")
    gunman = _gunman()
    state = begin_covering_fire(gunman, w)
    state, gunman, _ = place_marker(state, gunman, w, "door", make_card())
    assert next_round(state).markers_left == 4 and next_round(state).covered == ()


def test_failed_bravery_draws_a_snap_shot(ap_v2, gear):
    """002: someone in a covered area who fails the Bravery check draws an immediate
    snap shot from the covering shooter."""
    w = gear.weapon("winchester_rifle")
    state = begin_covering_fire(_gunman(), w)
    fail = tactical_aim_check(
        _aimer(), ap_v2, AimThreat(ranged_shots=1), make_card(cause={8: [2, 2]})
    )
    reaction = covering_fire_reaction(state, fail, in_covered_area=True)
    assert reaction.kind == "snap_shot" and reaction.shot.kind == "snap"
    assert covering_fire_reaction(state, fail, in_covered_area=False).kind == "none"


def test_cf_on_bravery_is_an_automatic_hit(ap_v2, gear):
    """002: a CF on the Bravery check is hit automatically, resolved with that card."""
    w = gear.weapon("winchester_rifle")
    gunman = _gunman()
    state = begin_covering_fire(gunman, w)
    cf_card = make_card(33, cause={8: ["CF", 2]}, effects={(3, 8): 13})
    target = _aimer()
    check = tactical_aim_check(target, ap_v2, AimThreat(ranged_shots=2), cf_card)
    assert check.cf and not check.aim_kept
    reaction = covering_fire_reaction(state, check, in_covered_area=True)
    assert reaction.kind == "auto_hit" and reaction.card_number == 33
    gunman.weapons[0].cocked = True
    tn = ranged_tn(gunman, w, ap_v2, ShotSituation(range_paces=15), reaction.shot)
    rec, hurt = resolve_attack(
        gunman,
        target,
        w,
        ap_v2,
        tn,
        cf_card,
        situation=ShotSituation(range_paces=15),
        shot=reaction.shot,
        auto_hit=True,
        stun_card=make_card(34, cause={8: [6, 6]}),
    )
    assert rec.hit.success and rec.effect.value == 13 and rec.cards[0] == 33
    assert hurt.wound_level == 2
