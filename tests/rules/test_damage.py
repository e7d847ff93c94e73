"""Damage, wounds, stun, recovery, bleeding and the risk rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.character import Character
from twtw_desktop.rules.damage import (
    apply_damage,
    bleed,
    deadly_split,
    impact_split,
    location_damage_bumps,
    recovery_check,
    stun_check,
)
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.samples import sample_characters

AP_V2 = load_edition("ap_v2")
PHASES = load_edition("phases")


def person(cid: str = "hank_daggett", **wounds: int) -> Character:
    c = sample_characters()[cid]
    if wounds:
        c.wounds = {**c.wounds, **{WoundLocation(k): n for k, n in wounds.items()}}
    return c


# -- splits -------------------------------------------------------------------------


def test_peacemaker_deadly_rules_example_7():
    """RULES example 7 — 000 Deadly Damage: Miranda's Peacemaker hit of 10 vs Size 6 is
    1 wound + 4 Conc; bumped to 14 it is 2 wounds + 2 Conc."""
    assert deadly_split(10, 6) == (1, 4)
    assert deadly_split(14, 6) == (2, 2)


def test_sharps_left_leg_rules_example_8():
    """RULES example 8 — 000 Combat Example vs Miners / Dealing Damage: the Sharps deals
    (5)8 = 14 to the miner's left leg: 2 wounds and 2 Conc."""
    miner = person("lead_miner")
    hurt, res = apply_damage(miner, AP_V2, effect=14, hit=HitLocation.LEFT_LEG, kind="deadly")
    assert (res.wounds_dealt, res.conc_dealt) == (2, 2)
    assert hurt.wounds[WoundLocation.LEFT_LEG] == 2
    assert hurt.conc == miner.conc - 2
    assert res.stun_check_required


def test_angus_quick_attack_rules_example_9():
    """RULES example 9 — 000 Impact Damage: Angus' quick attack 5 + DB 3 = 8 impact vs
    Hank's Size 6 is below 2×Size: 8 Conc, no wound; Hank keeps 6 of 14 Conc."""
    angus, hank = person("angus_laroq"), person("hank_daggett")
    effect = 5 + angus.damage_bonus
    assert impact_split(effect, hank.size, AP_V2) == (0, 8)
    hurt, res = apply_damage(hank, AP_V2, effect=effect, hit=HitLocation.CHEST, kind="impact")
    assert res.wounds_dealt == 0 and res.conc_dealt == 8
    assert hurt.conc == 6
    assert hurt.wound_level == 0


def test_impact_escalating_wounds():
    """000 Impact Damage: the first wound costs 2×Size, each further wound Size."""
    assert impact_split(11, 6, AP_V2) == (0, 11)
    assert impact_split(12, 6, AP_V2) == (1, 0)
    assert impact_split(17, 6, AP_V2) == (1, 5)
    assert impact_split(18, 6, AP_V2) == (2, 0)
    assert impact_split(25, 6, AP_V2) == (3, 1)


def test_impact_brawling_phases():
    """001/003 Brawling: 3 Conc per full Size, 1 wound per full 2×Size (fractions
    dropped); an impact-attribute weapon deals those wounds plus 1 Conc per point."""
    assert impact_split(8, 6, PHASES) == (0, 3)
    assert impact_split(12, 6, PHASES) == (1, 6)
    assert impact_split(25, 6, PHASES) == (2, 12)
    assert impact_split(8, 6, PHASES, impact_attribute=True) == (0, 8)
    assert impact_split(13, 6, PHASES, impact_attribute=True) == (1, 13)
    assert impact_split(13, 6, "phases") == (1, 6)


def test_location_damage_bumps():
    """000 Hit Location and Damage: vitals +1 damage bump, head +2, elsewhere none."""
    assert location_damage_bumps(HitLocation.VITALS) == 1
    assert location_damage_bumps(HitLocation.HEAD) == 2
    for hit in (HitLocation.CHEST, HitLocation.BELLY, HitLocation.LEFT_ARM):
        assert location_damage_bumps(hit) == 0


def test_bad_numbers_are_refused():
    with pytest.raises(RulesError):
        deadly_split(-1, 6)
    with pytest.raises(RulesError):
        deadly_split(5, 0)
    with pytest.raises(RulesError):
        apply_damage(person(), AP_V2, effect=-3, hit=HitLocation.HEAD, kind="deadly")
    with pytest.raises(RulesError):
        apply_damage(person(), AP_V2, effect=3, hit="tail", kind="deadly")  # type: ignore[arg-type]


# -- wounds per location ------------------------------------------------------------


def test_torso_is_chest_belly_and_vitals():
    """000 Hit Location: chest, belly and vitals wounds add up in one torso location."""
    c = person()
    for hit in (HitLocation.CHEST, HitLocation.BELLY, HitLocation.VITALS):
        c, res = apply_damage(c, AP_V2, effect=6, hit=hit, kind="deadly")
        assert res.location is WoundLocation.TORSO
    assert c.wounds[WoundLocation.TORSO] == 3
    assert c.wound_level == 3
    assert sum(c.wounds.values()) == 3


def test_input_character_is_not_modified():
    c = person()
    snapshot = c.model_dump()
    hurt, _ = apply_damage(c, AP_V2, effect=30, hit=HitLocation.CHEST, kind="deadly")
    assert c.model_dump() == snapshot
    assert hurt is not c and hurt.dead


def test_fifth_wound_disables_a_limb_and_extra_wounds_are_ignored():
    """000 Hit Location and Damage: a 5th wound disables a limb; 001 Wound Markers:
    further wounds to it are ignored but their Conc still applies."""
    c = person(left_arm=4)
    c, res = apply_damage(c, AP_V2, effect=20, hit=HitLocation.LEFT_ARM, kind="deadly")
    assert (res.wounds_dealt, res.wounds_added, res.wounds_ignored) == (3, 1, 2)
    assert res.disabled and res.newly_disabled and not res.killed
    assert c.wounds[WoundLocation.LEFT_ARM] == 5 and not c.dead
    assert c.conc == 14 - 2
    c, res = apply_damage(c, AP_V2, effect=9, hit=HitLocation.LEFT_ARM, kind="deadly")
    assert res.wounds_added == 0 and res.wounds_ignored == 1 and not res.newly_disabled
    assert c.conc == 14 - 2 - 3
    assert WoundLocation.LEFT_ARM in c.disabled_locations


def test_fifth_torso_wound_from_deadly_damage_kills():
    """000 Hit Location and Damage / RULES decision: a deadly 5th torso wound kills."""
    c = person(torso=4)
    c, res = apply_damage(c, AP_V2, effect=6, hit=HitLocation.BELLY, kind="deadly")
    assert res.killed and c.dead and res.location_wounds == 5
    assert not res.stun_check_required


@pytest.mark.parametrize(
    ("toggle", "dead", "unconscious"), [(True, True, False), (False, False, True)]
)
def test_fifth_head_wound_from_impact_reads_the_toggle(toggle, dead, unconscious):
    """000 Impact Damage: a final impact wound to the head reads the card's toggle —
    YES killed, NO unconscious."""
    c = person(head=4)
    c, res = apply_damage(c, AP_V2, effect=12, hit=HitLocation.HEAD, kind="impact", toggle=toggle)
    assert res.toggle_read is toggle
    assert c.dead is dead and c.unconscious is unconscious
    assert c.wounds[WoundLocation.HEAD] == 5


def test_impact_critical_without_toggle_is_refused_and_changes_nothing():
    c = person(head=4)
    snapshot = c.model_dump()
    with pytest.raises(RulesError, match="toggle"):
        apply_damage(c, AP_V2, effect=12, hit=HitLocation.HEAD, kind="impact")
    assert c.model_dump() == snapshot


def test_phases_head_torso_fifth_is_fatal_even_for_impact():
    """001/003 Hit Location and Damage: disabling the head or torso is death."""
    c = person(torso=4)
    c, res = apply_damage(c, PHASES, effect=12, hit=HitLocation.CHEST, kind="impact")
    assert res.killed and c.dead and res.toggle_read is None


@pytest.mark.parametrize(
    ("level", "ap_v2", "phases"),
    [
        (0, (0, 3), (0, 3)),
        (1, (1, 3), (1, 3)),
        (2, (2, 5), (1, 5)),
        (3, (3, 7), (2, 7)),
        (4, (4, 9), (3, 9)),
        (5, (5, 11), (3, 9)),
    ],
)
def test_wound_level_sets_ap_penalty_and_stun_tn(level, ap_v2, phases):
    """000 Wound Effects table (the table wins: serious costs 4 AP) and 001 Wounds
    table; Conc-only (level 0) uses the first row's Stun TN (001 footnote)."""
    c = person("cyril_wellington", right_leg=level)
    for ed, (pen, tn) in ((AP_V2, ap_v2), (PHASES, phases)):
        _, res = apply_damage(c, ed, effect=1, hit=HitLocation.LEFT_ARM, kind="deadly")
        assert res.wound_level == level
        assert (res.ap_penalty, res.stun_tn) == (pen, tn)


def test_highest_location_sets_the_wound_level():
    """000 Wound Effects: a light and a serious wound → the serious penalty (table: 4)."""
    c = person(left_leg=2)
    c, res = apply_damage(c, AP_V2, effect=24, hit=HitLocation.RIGHT_ARM, kind="deadly")
    assert res.wound_level == 4 and res.ap_penalty == 4 and res.wound_level_name == "Serious"
    assert c.ap_after_wounds(AP_V2) == c.ap - 4


def test_conc_at_zero_concussed():
    """001 Taking Concussion: Conc 0 or lower is concussed, out of the fight."""
    c = person()
    c, res = apply_damage(c, AP_V2, effect=11, hit=HitLocation.CHEST, kind="impact")
    assert c.conc == 3 and not res.concussed
    c, res = apply_damage(c, AP_V2, effect=3, hit=HitLocation.CHEST, kind="impact")
    assert c.conc == 0 and res.concussed and c.concussed and c.out_of_action
    assert not res.stun_check_required


# -- risk rule ----------------------------------------------------------------------


def test_risk_rule_holds_the_critical_wound_at_serious():
    """001 Risk: a wound that would be critical in the head or torso is treated as
    serious and the hero is out of action for the scene."""
    opts = OptionalRules(risk=True)
    c = person(torso=3)
    c, res = apply_damage(c, AP_V2, effect=18, hit=HitLocation.CHEST, kind="deadly", options=opts)
    assert res.held_by_risk and res.out_of_scene
    assert c.wounds[WoundLocation.TORSO] == 4 and not c.dead
    assert c.out_of_scene and c.out_of_action
    assert (res.wounds_dealt, res.wounds_added) == (3, 1)


def test_risking_death_lifts_the_protection():
    """001 Risk: a player who declared the risk of death gets no protection."""
    opts = OptionalRules(risk=True)
    c = person(torso=3)
    c, res = apply_damage(
        c, AP_V2, effect=18, hit=HitLocation.CHEST, kind="deadly", options=opts, risking_death=True
    )
    assert res.killed and not res.held_by_risk


def test_risk_rule_does_not_touch_limbs():
    opts = OptionalRules(risk=True)
    c, res = apply_damage(
        person(left_leg=4), AP_V2, effect=6, hit=HitLocation.LEFT_LEG, kind="deadly", options=opts
    )
    assert res.disabled and not res.held_by_risk and not c.out_of_scene


# -- stun and recovery --------------------------------------------------------------


def test_stun_check_fail_then_recover():
    """000 Wound Effects: failing the stun check stuns until a recovery check succeeds."""
    c = person(left_arm=2)
    c, res = stun_check(c, AP_V2, result=4, cf=False)
    assert res.tn == 5 and not res.success and c.stunned
    c2, res = recovery_check(c, AP_V2, result=4, cf=False)
    assert not res.success and c2.stunned
    c3, res = recovery_check(c, AP_V2, result=5, cf=False)
    assert res.success and not c3.stunned and c.stunned


def test_stun_check_pass_and_conc_only_tn():
    """001 footnote: Conc-only damage uses the first row's Stun TN (3)."""
    c = person()
    c2, res = stun_check(c, AP_V2, result=3, cf=False)
    assert res.tn == 3 and res.success and not c2.stunned


def test_stun_check_cf_fails():
    c, res = stun_check(person(), AP_V2, result=None, cf=True)
    assert not res.success and c.stunned


def test_recovery_cf_knocks_out():
    """000/001: a CF on a recovery check knocks the character unconscious."""
    c = person()
    c.stunned = True
    c2, res = recovery_check(c, PHASES, result=None, cf=True)
    assert c2.unconscious and not res.success and not c.unconscious


def test_recovery_refused_when_not_stunned():
    with pytest.raises(RulesError, match="not stunned"):
        recovery_check(person(), AP_V2, result=9, cf=False)


def test_stun_check_needs_a_result():
    with pytest.raises(RulesError):
        stun_check(person(), AP_V2, result=None, cf=False)


def test_stun_check_moot_for_the_dead():
    c = person()
    c.dead = True
    c2, res = stun_check(c, AP_V2, result=1, cf=False)
    assert not res.needed and not c2.stunned


# -- bleeding -----------------------------------------------------------------------


@pytest.mark.parametrize(("worst", "rate"), [(2, 0), (3, 1), (4, 2), (5, 3)])
def test_bleeding_rates(worst, rate):
    """001 Optional Bleeding: heavy 1 Conc a round, serious 2, critical limb 3."""
    c = person(right_leg=worst, left_arm=1)
    c2, lost, reasons = bleed(c, AP_V2)
    assert lost == rate and c2.conc == c.conc - rate and c2.bleeding == rate
    assert reasons


def test_bled_to_death():
    """001 Optional Bleeding: reduced to minus the starting Conc is death."""
    c = person(left_leg=5)
    c.conc = -11
    c, lost, _ = bleed(c, AP_V2)
    assert lost == 3 and c.conc == -14 and c.dead


def test_apply_damage_sets_bleeding_only_with_the_option():
    c = person()
    c1, res = apply_damage(c, AP_V2, effect=18, hit=HitLocation.LEFT_LEG, kind="deadly")
    assert res.bleeding == 0 and c1.bleeding == 0
    c2, res = apply_damage(
        c,
        AP_V2,
        effect=18,
        hit=HitLocation.LEFT_LEG,
        kind="deadly",
        options=OptionalRules(bleeding=True),
    )
    assert res.bleeding == 1 and c2.bleeding == 1


# -- property -----------------------------------------------------------------------

hits = st.sampled_from(list(HitLocation))
kinds = st.sampled_from(["deadly", "impact"])
editions = st.sampled_from([AP_V2, PHASES])
blows = st.lists(
    st.tuples(st.integers(0, 40), hits, kinds, st.booleans(), st.booleans()),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60)
@given(blows=blows, edition=editions, risk=st.booleans(), bleeding=st.booleans())
def test_any_sequence_of_damage_keeps_the_invariants(blows, edition, risk, bleeding):
    """Wounds stay within 0..5 per location, Conc never rises from damage, and the
    character passed in is never changed."""
    opts = OptionalRules(risk=risk, bleeding=bleeding)
    c = person("miranda_valentine")
    for effect, hit, kind, toggle, impact_attr in blows:
        snapshot = c.model_dump()
        new, res = apply_damage(
            c,
            edition,
            effect=effect,
            hit=hit,
            kind=kind,
            toggle=toggle,
            impact_attribute=impact_attr,
            options=opts,
        )
        assert c.model_dump() == snapshot
        assert all(0 <= n <= 5 for n in new.wounds.values())
        assert new.conc <= c.conc
        assert res.conc_after == new.conc
        assert all(new.wounds[loc] >= c.wounds[loc] for loc in WoundLocation)
        assert res.wound_level == new.wound_level
        if c.dead:
            assert new.dead
        c = new
