"""The action catalogue: AP costs (000) and Phases speeds (004)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from twtw_desktop.errors import RulesError
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.actions import ActionKind, ActionSpec, CostItem, combine_speeds
from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.samples import load_characters

F, N, S = Speed.FAST, Speed.NORMAL, Speed.SLOW


@pytest.fixture(scope="module")
def gear():
    return default_gear()


@pytest.fixture(scope="module")
def miranda():
    return next(c for c in load_characters() if c.id == "miranda_valentine")


def test_sharps_snap_normal_aimed(gear):
    """RULES example 3 (000 Aim and Snap Shots): the Sharps snaps for 3 AP, fires a
    normal shot for 7 and an aimed shot (one aim) for 11."""
    sharps = gear.weapon("sharps_rifle")
    assert A.snap_shot(sharps).ap == 3
    assert A.normal_shot(sharps).ap == 7
    aimed = A.aimed_shot(sharps, 1)
    assert aimed.ap == 11
    assert [i.ap for i in aimed.breakdown] == [7, 4]
    assert aimed.kind == ActionKind.AIMED_SHOT and aimed.aims == 1


def test_cyril_schofield_two_aims(gear):
    """RULES example 4 (000 Aim and Snap Shots): Cyril's Schofield, a 3 AP normal
    shot plus two aims of 2 AP, costs 7 AP."""
    aimed = A.aimed_shot(gear.weapon("sw_schofield"), 2, ["vaquero"])
    assert aimed.ap == 7
    assert [(i.label, i.ap) for i in aimed.breakdown][1:] == [("aim 1", 2), ("aim 2", 2)]
    assert aimed.target_ids == ("vaquero",)


def test_ready_costs(gear):
    """RULES example 5 (000 Cocking and Readying): readying the Schofield (size 5)
    costs 2 AP, the Winchester (size 8) 5 AP."""
    assert A.ready_action(gear.weapon("sw_schofield")).ap == 2
    assert A.ready_action(gear.weapon("winchester_rifle")).ap == 5


def test_draw_uses_quick_draw(gear):
    """000 Action Timing: Miranda draws her Peacemaker for 1 AP (Quick Draw); without
    Quick Draw a draw is a ready (000 Cocking and Readying, 2 AP)."""
    pm = gear.weapon("colt_peacemaker")
    assert A.draw_action(pm, 1).ap == 1
    assert A.draw_action(pm, 0).ap == 2
    assert A.draw_action(gear.weapon("winchester_rifle"), 3).ap == 5
    assert A.draw_action(pm, 1).breakdown[0].source


def test_cock_costs_and_refusal(gear):
    """000 Cocking and Readying: cocking costs the C column; a hammerless shotgun
    has nothing to cock."""
    assert A.cock_action(gear.weapon("colt_peacemaker")).ap == 1
    assert A.cock_action(gear.weapon("colt_peacemaker")).speed == F
    with pytest.raises(RulesError, match="no hammer"):
        A.cock_action(gear.weapon("double_barrel_shotgun"))


def test_aims_limits_and_two_weapons(gear):
    """000 Aim and Snap Shots (at most two aims) and Two Weapons (+2 AP per aim when
    two weapons are aimed together)."""
    pm = gear.weapon("colt_peacemaker")
    with pytest.raises(RulesError):
        A.aimed_shot(pm, 0)
    with pytest.raises(RulesError):
        A.aimed_shot(pm, 3)
    both = A.aimed_shot(pm, 2, two_weapons=True)
    assert both.ap == 3 + 2 * (2 + 2)
    with pytest.raises(RulesError):
        A.snap_shot(gear.weapon("cavalry_saber"))


def test_reload_per_cartridge(gear):
    """000 gear R column: reload AP per cartridge; a gear entry that reloads whole
    pays once; a weapon cannot take more rounds than it holds."""
    assert A.reload_action(gear.weapon("colt_peacemaker"), 3).ap == 6
    assert A.reload_action(gear.weapon("gatling_gun"), 40).ap == 5
    with pytest.raises(RulesError):
        A.reload_action(gear.weapon("colt_peacemaker"), 7)
    with pytest.raises(RulesError):
        A.reload_action(gear.weapon("colt_peacemaker"), 0)
    assert A.reload_action(gear.weapon("springfield_58_musket")).speed == S


def test_fan_fire(gear):
    """000 Fan Firing: 1 AP a shot plus 1 per target switch; only single-action
    revolvers."""
    fan = A.fan_fire(gear.weapon("colt_peacemaker"), 3, ["pete", "clem"])
    assert fan.ap == 4
    with pytest.raises(RulesError):
        A.fan_fire(gear.weapon("colt_thunderer"), 2)


def test_movement_costs(miranda):
    """000 Movement: Move paces per AP, Run paces per AP (running for the round)."""
    assert A.move_action(miranda, 8).ap == 1
    assert A.move_action(miranda, 9).ap == 2
    run = A.run_action(miranda, 16)
    assert run.ap == 1 and run.running and run.kind == ActionKind.RUN
    assert not A.move_action(miranda, 3).running
    with pytest.raises(RulesError):
        A.move_action(miranda, 0)


def test_terrain_extras(miranda):
    """000 Movement AP Cost: steep +1/pace, gentle +1 per 2, ladder +1/pace, stairs
    +1 per 2, climb +2/pace, 120° turn during a move +1."""
    assert A.terrain_extra_ap(steep=3).ap == 3
    assert A.terrain_extra_ap(gentle=3).ap == 2
    assert A.terrain_extra_ap(ladder=2).ap == 2
    assert A.terrain_extra_ap(stairs=4).ap == 2
    assert A.terrain_extra_ap(climb=2).ap == 4
    extra = A.terrain_extra_ap(steep=1, stairs=2)
    move = A.move_action(miranda, 6, extra, turns=1)
    assert move.ap == 1 + 1 + 1 + 1
    assert sum(i.ap for i in move.breakdown) == move.ap
    assert A.move_action(miranda, 6, 3).ap == 4
    with pytest.raises(RulesError):
        A.terrain_extra_ap(steep=-1)


def test_half_ap_terrain_extras_round_once():
    """000 Movement AP Cost: a gentle pace and a stair are half an AP each; over one
    move they add up to 1 AP (rounded once), matching the map's path costs."""
    extra = A.terrain_extra_ap(gentle=1, stairs=1)
    assert extra.ap == 1
    assert sum(i.ap for i in extra.breakdown) == extra.ap
    assert A.terrain_extra_ap(gentle=1, stairs=2).ap == 2


def test_posture_and_facing():
    """000 Movement AP Cost: prone 1, stand 2, duck 1, emerge 1, facing 60° 1 / more
    2, a 120° turn during a move 1."""
    assert A.drop_prone().ap == 1
    assert A.stand_up().ap == 2
    assert A.duck().ap == 1
    assert A.emerge().ap == 1
    assert A.change_facing(1).ap == 1
    assert A.change_facing(2).ap == 2
    assert A.change_facing(3).ap == 2
    assert A.turn_during_move().ap == 1
    for bad in (0, 4):
        with pytest.raises(RulesError):
            A.change_facing(bad)


def test_skills():
    """000 Skills During Action Time: 4 or 8 AP, payable over several rounds; 004:
    skill use is Half, an extended (8 AP) task Full."""
    lock = A.skill_action("lockpicking", 8)
    assert lock.ap == 8 and lock.multi_round and lock.noncombat and lock.speed == S
    assert A.skill_action("first aid").speed == N
    assert not A.skill_action("sneak", 4, multi_round=False).multi_round
    with pytest.raises(RulesError):
        A.skill_action("lockpicking", 6)


def test_melee_and_defence(gear):
    """000 Hand to Hand Combat: careful attacks +2 AP for +1; block 2, dodge 3;
    Breaking Engagement: careful disengage 2; Stun: Recover takes all AP."""
    atk = A.melee_attack(3, careful=True, weapon=gear.weapon("bowie_knife"))
    assert atk.ap == 5 and atk.result_bonus == 1 and atk.speed == F and atk.is_combat
    assert A.melee_attack(2).speed == N
    assert A.block().ap == 2
    assert A.dodge().ap == 3
    assert A.careful_disengage().ap == 2
    rec = A.recover()
    assert rec.all_ap and rec.kind == ActionKind.RECOVER
    assert A.switch_target(outside_field_of_fire=True).ap == 2


def test_speed_combinations():
    """004 Freestyle Action Speeds: the six combination rules."""
    assert combine_speeds([S]).speed == S
    assert combine_speeds([F, F, F]).speed == S
    assert combine_speeds([N, N]).speed == S
    assert combine_speeds([F, N]).speed == N
    assert combine_speeds([F, F]).speed == N
    assert combine_speeds([F], free=1).speed == F
    assert combine_speeds([], free=1).speed == F
    # a second free action counts as Quick
    assert combine_speeds([F], free=2).speed == N
    for bad in ([S, F], [N, N, N], [N, F, F], [F, F, F, F], []):
        with pytest.raises(RulesError):
            combine_speeds(bad)
    with pytest.raises(RulesError, match="Full action cannot be combined"):
        combine_speeds([S, F])


def test_speed_helpers():
    """004 Resolution: hesitation makes an action one speed faster, Fast at most."""
    assert A.faster(S) == N and A.faster(N) == F and A.faster(F) == F
    assert A.slower(F) == N and A.slower(S) == S
    assert A.simultaneous_speed([F, N]) == N


def test_aimed_shot_speed(gear):
    """004 The Goal of Action Speeds: a Peacemaker aimed shot is a Half action (a
    Quick shot and a Quick aim combine to Half); two aims are three Quick, Full."""
    pm = gear.weapon("colt_peacemaker")
    assert A.normal_shot(pm).speed == F
    assert A.aimed_shot(pm, 1).speed == N
    assert A.aimed_shot(pm, 2).speed == S
    assert A.aimed_shot(gear.weapon("sharps_rifle"), 1).speed == S


def test_action_spec_checks_and_json():
    """An ActionSpec's breakdown must add up; specs survive a JSON round trip."""
    with pytest.raises(ValidationError):
        ActionSpec(kind=ActionKind.OTHER, ap=3, breakdown=(CostItem(label="x", ap=2, source="y"),))
    spec = A.other_action("light a lamp", 2, noncombat=True)
    assert ActionSpec.model_validate_json(spec.model_dump_json()) == spec
    assert "2 AP" in spec.describe()


def test_the_single_action_trait_wins_initiative_ties():
    """000 Cocking and Readying: the single action trait "wins initiative-based ties";
    a double-action revolver cocked for the shot takes it for that shot. 004: "Winning
    initiative based ties with other firearms"."""
    from twtw_desktop.rules.actions import (
        has_single_action_trait,
        normal_shot,
        single_action_tie_key,
        snap_shot,
    )

    gear = default_gear()
    peacemaker, thunderer = gear.weapon("colt_peacemaker"), gear.weapon("colt_thunderer")
    rifle = gear.weapon("winchester_rifle")
    assert has_single_action_trait(peacemaker)
    assert not has_single_action_trait(thunderer)
    assert has_single_action_trait(thunderer, cocked=True)
    assert not has_single_action_trait(rifle)
    keys = {
        "peacemaker": single_action_tie_key(snap_shot(peacemaker), peacemaker),
        "thunderer": single_action_tie_key(snap_shot(thunderer), thunderer),
        "thunderer cocked": single_action_tie_key(normal_shot(thunderer), thunderer, cocked=True),
        "rifle": single_action_tie_key(normal_shot(rifle), rifle),
    }
    assert keys == {"peacemaker": 0, "thunderer": 1, "thunderer cocked": 0, "rifle": 1}
    tied = sorted(["rifle", "thunderer", "peacemaker"], key=lambda k: keys[k])
    assert tied[0] == "peacemaker"
