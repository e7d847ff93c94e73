"""Shot types, AP costs, refusals, multiple attacks and fan firing (000 Aim and Snap
Shots, Cocking and Readying, Multiple Attacks, Fan Firing; 001/003 Fan Firing)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.combat.ranged import (
    PlannedShot,
    ShotSpec,
    check_shot,
    cock_ap_cost,
    fan_shot_tn,
    plan_attacks,
    plan_fan_fire,
    ranged_tn,
    ready_ap_cost,
    shot_ap_cost,
)
from twtw_desktop.rules.combat.resolve import after_shot, resolve_attack
from twtw_desktop.rules.combat.situation import ShotSituation
from twtw_desktop.rules.editions import OptionalRules, load_edition

from .cardkit import CardSupply, armed, make_card, person, ready


def _labels(ap):
    return [(m.label, m.value) for m in ap.items]


# -- RULES examples 3, 4, 5 ---------------------------------------------------------


def test_sharps_shot_types(gear, ap_v2):
    """000 Aim and Snap Shots: Sharps snap 3 AP at −3; normal 7 AP; aimed 11 AP at +3
    (+1 aim, +2 Accurate)."""
    sharps = gear.weapon("sharps_rifle")
    shooter = person(
        "m",
        skills={"shooting_rifle": (3, "coordination")},
        weapons=[armed("sharps_rifle", cocked=True)],
    )
    s = ShotSituation(range_paces=10)
    snap, normal, aimed = (
        ShotSpec(kind="snap"),
        ShotSpec(kind="normal"),
        ShotSpec(kind="aimed", aims=1),
    )
    assert shot_ap_cost(sharps, snap, ap_v2).total == 3
    assert ranged_tn(shooter, sharps, ap_v2, s, snap).result_modifier == -3
    assert shot_ap_cost(sharps, normal, ap_v2).total == 7
    assert ranged_tn(shooter, sharps, ap_v2, s, normal).result_modifier == 0
    assert shot_ap_cost(sharps, aimed, ap_v2).total == 11
    assert ranged_tn(shooter, sharps, ap_v2, s, aimed).result_modifier == 3


def test_cyril_aims_his_schofield_twice(gear, ap_v2):
    """000 Aim and Snap Shots: Cyril's Schofield, normal 3 AP + two aims 4 AP = 7 AP, +2."""
    scho = gear.weapon("sw_schofield")
    cyril = person(
        "cyril",
        skills={"shooting_pistol": (2, "coordination")},
        weapons=[armed("sw_schofield", cocked=True)],
    )
    shot = ShotSpec(kind="aimed", aims=2)
    ap = shot_ap_cost(scho, shot, ap_v2)
    assert ap.total == 7
    assert _labels(ap) == [("normal shot", 3), ("aim action 1", 2), ("aim action 2", 2)]
    assert ranged_tn(cyril, scho, ap_v2, ShotSituation(range_paces=5), shot).result_modifier == 2


def test_ready_costs(gear):
    """000 Cocking and Readying: Schofield (size 5) 2 AP, Winchester (size 8) 5 AP."""
    assert ready_ap_cost(gear.weapon("sw_schofield")).total == 2
    assert ready_ap_cost(gear.weapon("winchester_rifle")).total == 5


def test_cocking_comes_first_and_costs(gear, ap_v2):
    """000: cocking is 1 AP and comes before any aim."""
    scho = gear.weapon("sw_schofield")
    ap = shot_ap_cost(scho, ShotSpec(kind="aimed", aims=1, cock_first=True), ap_v2)
    assert _labels(ap)[0] == ("cock the Smith & Wesson Schofield (.44)", 1)
    assert ap.total == 1 + 3 + 2
    assert cock_ap_cost(scho).total == 1
    with pytest.raises(RulesError):
        cock_ap_cost(gear.weapon("double_barrel_shotgun"))


def test_two_weapons_aimed_together_cost_more(gear, ap_v2):
    """000 Two Weapons: aiming two weapons together costs 2 AP more per aim."""
    ap = shot_ap_cost(
        gear.weapon("sw_schofield"), ShotSpec(kind="aimed", aims=2), ap_v2, two_weapons_aimed=True
    )
    assert ap.total == 3 + 2 * (2 + 2)


# -- refusals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon_id", "carried", "shot", "words"),
    [
        ("sw_schofield", {"cocked": False}, ShotSpec(kind="snap"), "not cocked"),
        (
            "sw_schofield",
            {"cocked": True},
            ShotSpec(kind="snap", aims=1),
            "snap shot cannot be aimed",
        ),
        ("sw_schofield", {"cocked": True}, ShotSpec(kind="aimed", aims=3), "No more than 2"),
        (
            "sharps_rifle",
            {"cocked": True},
            ShotSpec(kind="normal", thrown=True),
            "not a throwing weapon",
        ),
        ("sw_schofield", {"cocked": True, "loaded": 0}, ShotSpec(), "not loaded"),
        ("sw_schofield", {"cocked": True, "readied": False}, ShotSpec(), "not readied"),
        ("sw_schofield", {"cocked": True}, ShotSpec(kind="normal", aims=1), "aimed shot"),
        ("sw_schofield", {"cocked": True}, ShotSpec(kind="aimed"), "at least one aim"),
        ("sw_schofield", {"cocked": True}, ShotSpec(cock_first=True), "already cocked"),
        ("double_barrel_shotgun", {}, ShotSpec(cock_first=True), "no hammer"),
        (
            "sw_schofield",
            {"cocked": True},
            ShotSpec(kind="aimed", aims=1, use_acuity=True),
            "optional rule",
        ),
        ("bowie_knife", {}, ShotSpec(), "not a firearm"),
    ],
)
def test_refusals_change_nothing(gear, ap_v2, deck, weapon_id, carried, shot, words):
    """The refused shots raise RulesError naming the problem; the shooter, the target
    and the deck are unchanged."""
    shooter = person(
        "s", skills={"shooting_pistol": (2, "coordination")}, weapons=[armed(weapon_id, **carried)]
    )
    target = person("t")
    before = (shooter.model_dump(), target.model_dump(), deck.snapshot())
    w = gear.weapon(weapon_id)
    with pytest.raises(RulesError, match=words):
        ranged_tn(shooter, w, ap_v2, ShotSituation(), shot)
    with pytest.raises(RulesError, match=words):
        resolve_attack(
            shooter,
            target,
            w,
            ap_v2,
            _any_tn(),
            make_card(),
            situation=ShotSituation(),
            shot=shot,
            more=deck.draw,
        )
    assert (shooter.model_dump(), target.model_dump(), deck.snapshot()) == before


def _schofield_shooter(level: int, *, loaded: int):
    """A shooter "s" with pistol skill ``level`` and a Schofield holding ``loaded``."""
    return person(
        "s",
        skills={"shooting_pistol": (level, "coordination")},
        weapons=[armed("sw_schofield", loaded=loaded)],
    )


def _any_tn():
    from twtw_desktop.rules.combat.records import TnBreakdown

    return TnBreakdown.build(5, "Standard")


def test_double_action_fires_uncocked(gear, ap_v2):
    """000 Cocking and Readying: a double-action revolver needs no cocking."""
    shooter = person("s", weapons=[armed("colt_thunderer", cocked=False)])
    check_shot(shooter, gear.weapon("colt_thunderer"), ShotSpec(kind="snap"), ap_v2)


def test_after_shot_spends_the_round(gear):
    shooter = person("s", weapons=[armed("sw_schofield", cocked=True, loaded=5)])
    after = after_shot(shooter, gear.weapon("sw_schofield"))
    assert after.weapons[0].loaded == 4 and not after.weapons[0].cocked
    assert shooter.weapons[0].loaded == 5 and shooter.weapons[0].cocked


# -- multiple attacks ---------------------------------------------------------------


def test_cyril_two_shots_on_the_perkins_brothers(gear, ap_v2, samples):
    """000 Multiple Attacks: cock twice (2) + normal on Pete (3) + snap on Clem (1) +
    one switch (1) = 7 AP; the first attack uses the best result, the second the next."""
    cyril = ready(samples["cyril_wellington"], "sw_schofield")
    plan = plan_attacks(
        cyril,
        gear.weapon("sw_schofield"),
        [
            PlannedShot(target_id="pete_perkins", shot=ShotSpec(kind="normal", cock_first=True)),
            PlannedShot(target_id="clem_perkins", shot=ShotSpec(kind="snap", cock_first=True)),
        ],
        ap_v2,
    )
    assert plan.ap.total == 7
    assert plan.ranks == (0, 1)
    assert sum(1 for m in plan.ap.items if m.label.startswith("switch")) == 1


def test_attacks_beyond_the_skill_level_miss_automatically(gear, ap_v2):
    """000 Multiple Attacks: "Attacks in excess of the level of the appropriate skill
    miss automatically (but may have other effects)" — a third attack with skill 2 is
    planned and paid, and the plan says it misses (this pinned a refusal before)."""
    shooter = _schofield_shooter(2, loaded=9)
    shots = [PlannedShot(target_id="a", shot=ShotSpec(kind="snap", cock_first=True))] * 3
    two = plan_attacks(shooter, gear.weapon("sw_schofield"), shots[:2], ap_v2)
    three = plan_attacks(shooter, gear.weapon("sw_schofield"), shots, ap_v2)
    assert three.ap.total > two.ap.total
    assert any("attack 3 beyond the skill level (2) miss" in r for r in three.reasons)
    nine = plan_attacks(shooter, gear.weapon("sw_schofield"), shots * 3, ap_v2)
    assert any("attacks 3–9" in r for r in nine.reasons)


def test_unskilled_limit_is_the_trait_rank(gear, ap_v2):
    """000 Multiple Attacks: unskilled, the trait rank (3d10 → 3 attacks)."""
    shooter = person("s", weapons=[armed("sw_schofield", loaded=6)])
    shots = [PlannedShot(target_id="a", shot=ShotSpec(kind="snap", cock_first=True))] * 3
    assert plan_attacks(shooter, gear.weapon("sw_schofield"), shots, ap_v2).limit == 3


def test_switch_outside_the_field_of_fire_costs_one_more(gear, ap_v2):
    """000 Multiple Attacks: +1 AP per switch, +1 more outside the field of fire."""
    shooter = _schofield_shooter(3, loaded=6)
    shots = [
        PlannedShot(target_id="a", shot=ShotSpec(kind="snap", cock_first=True)),
        PlannedShot(
            target_id="b", shot=ShotSpec(kind="snap", cock_first=True), outside_field_of_fire=True
        ),
    ]
    assert (
        plan_attacks(shooter, gear.weapon("sw_schofield"), shots, ap_v2).ap.total == 2 + 2 + 1 + 1
    )
    off = OptionalRules(fields_of_fire=False)
    assert (
        plan_attacks(shooter, gear.weapon("sw_schofield"), shots, ap_v2, options=off).ap.total == 5
    )


def test_series_cannot_outrun_the_cylinder(gear, ap_v2):
    shooter = _schofield_shooter(3, loaded=1)
    shots = [PlannedShot(target_id="a", shot=ShotSpec(kind="snap", cock_first=True))] * 2
    with pytest.raises(RulesError, match="not loaded"):
        plan_attacks(shooter, gear.weapon("sw_schofield"), shots, ap_v2)


# -- fan firing ----------------------------------------------------------------------


def _fanner(level=3, loaded=6, weapon_id="colt_peacemaker"):
    return person(
        "f",
        skills={"shooting_pistol": (level, "coordination")},
        weapons=[armed(weapon_id, loaded=loaded)],
    )


def test_fan_fire_ap_and_downgrades(gear, ap_v2):
    """000 Fan Firing: 1 AP per shot and per switch; a downgrade per shot from the
    first, and one more per target after the first, successively; cocking ignored."""
    plan = plan_fan_fire(_fanner(), gear.weapon("colt_peacemaker"), ["a", "a", "b"], ap_v2)
    assert plan.mode == "per_shot"
    assert plan.ap.total == 3 + 1
    assert [sum(m.value for m in s) for s in plan.per_shot_items] == [-1, -2, -3 - 1]


def test_fan_shot_is_a_snap_shot_with_the_downgrades(gear, ap_v2):
    """000: fan firing is always a snap shot (SP applies), each shot its own result."""
    w = gear.weapon("colt_peacemaker")
    fanner = _fanner()
    plan = plan_fan_fire(fanner, w, ["a", "a"], ap_v2)
    base = ranged_tn(
        fanner, w, ap_v2, ShotSituation(range_paces=3), ShotSpec(kind="snap", fan=True)
    )
    assert fan_shot_tn(base, plan, 0).result_modifier == -2 - 1
    assert fan_shot_tn(base, plan, 1).result_modifier == -2 - 2
    with pytest.raises(RulesError):
        fan_shot_tn(base, plan, 2)


def test_fan_fire_limits(gear, ap_v2):
    """000/001: no more shots than the pistol skill level or the rounds loaded; only
    single-action revolvers; never aimed."""
    w = gear.weapon("colt_peacemaker")
    # 000: a third fan shot at level 2 misses automatically (it was refused before);
    # 003: "Fan firing is limited by the skill level" in the Phases fan
    over = plan_fan_fire(_fanner(level=2), w, ["a"] * 3, ap_v2)
    assert any("miss automatically" in r for r in over.reasons)
    with pytest.raises(RulesError, match="at most 2"):
        plan_fan_fire(_fanner(level=2), w, ["a"] * 3, load_edition("phases"))
    with pytest.raises(RulesError, match="holds only 2"):
        plan_fan_fire(_fanner(loaded=2), w, ["a"] * 3, ap_v2)
    with pytest.raises(RulesError, match="single-action revolver"):
        plan_fan_fire(
            _fanner(weapon_id="colt_thunderer"), gear.weapon("colt_thunderer"), ["a"], ap_v2
        )
    with pytest.raises(RulesError, match="always a snap"):
        check_shot(_fanner(), w, ShotSpec(kind="normal", fan=True), ap_v2)


def test_pushing_the_limit_raises_rel(gear, ap_v2):
    """000 Pushing the Limit: "Increase the Rel of any revolver by 1 when fan-firing."
    — not optional on 000, so AP v2 raises it with the switch off (this test pinned
    the unraised Rel before); 001 calls it an advanced rule: Phases needs the switch."""
    w = gear.weapon("colt_peacemaker")
    assert plan_fan_fire(_fanner(), w, ["a"], ap_v2).rel == w.rel + 1
    pushed = plan_fan_fire(
        _fanner(), w, ["a"], ap_v2, options=OptionalRules(pushing_the_limit=True)
    )
    assert pushed.rel == w.rel + 1
    phases = load_edition("phases")
    assert plan_fan_fire(_fanner(), w, ["a"], phases).rel == w.rel
    on = plan_fan_fire(_fanner(), w, ["a"], phases, options=OptionalRules(pushing_the_limit=True))
    assert on.rel == w.rel + 1


def test_pushing_the_limit_reaches_the_failure_check(gear, ap_v2):
    """Rel 2 +1 = 3: a wrench 2 now fails."""
    w = gear.weapon("colt_peacemaker")
    fanner = _fanner()
    plan = plan_fan_fire(fanner, w, ["t"], ap_v2, options=OptionalRules(pushing_the_limit=True))
    tn = fan_shot_tn(
        ranged_tn(fanner, w, ap_v2, ShotSituation(), ShotSpec(kind="snap", fan=True)), plan, 0
    )
    card = make_card(cause={10: [9, 9, 9]}, wrench=2)
    rec, _ = resolve_attack(
        fanner,
        person("t"),
        w,
        ap_v2,
        tn,
        card,
        situation=ShotSituation(),
        fan=plan,
        more=CardSupply(make_card(2)),
    )
    assert rec.equipment_failure.failed and rec.equipment_failure.rel == 3


def test_jonah_fans_two_shots_phases(gear, phases, samples):
    """003 Fan Firing: Jonah (skill 3, Dexterity d10) fans 2 shots: TN 5 + 2 = 7;
    results 10, 1, 11 — two successes, so he may hit two targets, hitting each once
    for one bump."""
    jonah = ready(samples["jonah_benton"], "colt_peacemaker_gunslinger")
    w = gear.weapon("colt_peacemaker_gunslinger")
    plan = plan_fan_fire(jonah, w, ["perkins_1", "perkins_1"], phases)
    assert plan.mode == "burst3"
    base = ranged_tn(
        jonah, w, phases, ShotSituation(range_paces=3), ShotSpec(kind="snap", fan=True)
    )
    tn = fan_shot_tn(base, plan, 0)
    assert (tn.tn, tn.result_modifier) == (7, 0)
    # 10 is exceptional on a d10: the extension card adds 1 → 11 (the page's "11")
    card = make_card(10, cause={10: [10, 1, 9]}, burst=(2, 3, 5))
    ext = make_card(11, cause={10: [1, 1, 1]})
    from twtw_desktop.rules.combat.bumps import BumpSpends

    rec, _ = resolve_attack(
        jonah,
        person("perkins_1"),
        w,
        phases,
        tn,
        card,
        situation=ShotSituation(range_paces=3),
        fan=plan,
        more=CardSupply(ext, make_card(12), make_card(13)),
        hits_on_target=1,
        spends=BumpSpends(secondary_targets=1),
    )
    assert rec.hit.success and rec.hit.bumps == 1
    assert rec.hits == 2 and rec.hits_for_other_targets == 1
    assert rec.spends.secondary_targets == 1 and rec.spends.unspent_standard == 0
