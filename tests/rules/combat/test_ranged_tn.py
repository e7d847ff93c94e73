"""The ranged TN breakdown (000 Range, Modifiers, Target Size, Target Speed; 001/003)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.combat.ranged import ShotSpec, range_steps, range_tn, ranged_tn
from twtw_desktop.rules.combat.situation import ShotSituation
from twtw_desktop.rules.editions import OptionalRules

from .cardkit import armed, person, ready


def _shooter(weapon_id: str, *, cocked: bool = True, **kw):
    return person(
        "shooter",
        skills={"shooting_pistol": (2, "coordination"), "shooting_rifle": (2, "coordination")},
        weapons=[armed(weapon_id, cocked=cocked)],
        **kw,
    )


def _tn(
    gear, edition, weapon_id, shot=None, *, target=None, options=None, shooter=None, **situation
):
    w = gear.weapon(weapon_id)
    s = ShotSituation(**situation)
    return ranged_tn(
        shooter or _shooter(weapon_id),
        w,
        edition,
        s,
        shot or ShotSpec(),
        target=target,
        options=options,
    )


#: the Phases edition's shot without a snap penalty: one aim action before it removes
#: the penalty and adds nothing (001/003 Aim and Snap Shots); its unaimed shot is a snap
AIMED_ONCE = ShotSpec(kind="aimed", aims=1)


def _items(tn, which="result"):
    items = tn.result_items if which == "result" else tn.tn_items
    return {m.label: m.value for m in items}


# -- RULES example 2 ---------------------------------------------------------------


@pytest.mark.parametrize(("paces", "tn"), [(0, 5), (9, 5), (10, 6), (19, 6), (20, 7)])
def test_schofield_range_ap_v2(gear, ap_v2, paces, tn):
    """000 Range: Schofield increment 10 — TN 5 up to 9 paces, 6 up to 19."""
    assert _tn(gear, ap_v2, "sw_schofield", range_paces=paces).tn == tn


@pytest.mark.parametrize(("paces", "tn"), [(1, 5), (8, 5), (9, 6), (16, 6), (17, 7)])
def test_peacemaker_gunslinger_range_phases(gear, phases, paces, tn):
    """001/003 Range: Peacemaker gunslinger increment 8 — TN 5 up to 8, 6 up to 16."""
    assert _tn(gear, phases, "colt_peacemaker_gunslinger", range_paces=paces).tn == tn


@pytest.mark.parametrize("paces", [0, 9, 10, 19, 20, 55])
def test_range_tn_is_the_range_part_of_ranged_tn(gear, ap_v2, paces):
    """The range part the map's Measure tool shows is the one the attack's TN starts
    from (000 Range), named by its page."""
    w = gear.weapon("sw_schofield")
    rt = range_tn(_shooter("sw_schofield"), w, ap_v2, paces, thrown=False)
    assert (rt.tn, rt.increment, rt.source) == (
        _tn(gear, ap_v2, "sw_schofield", range_paces=paces).tn,
        10,
        "000/001 Range",
    )
    assert rt.max_range is None


def test_range_tn_refuses_a_weapon_with_no_increment(gear, ap_v2):
    knife = next(w for w in gear.weapons.values() if w.range_increment is None)
    with pytest.raises(RulesError, match="has no range increment"):
        range_tn(_shooter("sw_schofield"), knife, ap_v2, 5, thrown=False)


def test_range_steps_rounding():
    assert range_steps(29.5, 10, "completed") == 2
    assert range_steps(16.5, 8, "started_after_first") == 2
    with pytest.raises(RulesError):
        range_steps(10, 0, "completed")


def test_point_blank_replaces_range(gear, ap_v2):
    """000 Point Blank: TN 3, no range steps."""
    tn = _tn(gear, ap_v2, "sw_schofield", range_paces=1, point_blank=True)
    assert tn.base == 3 and tn.tn == 3
    assert tn.base_label == "point blank"


# -- RULES example 6 ---------------------------------------------------------------


def test_relative_speed_wagon_and_vaquero(gear, ap_v2):
    """000 Target Speed: wagon 18 east, vaquero 8 west → relative 26 → −5."""
    tn = _tn(gear, ap_v2, "double_barrel_shotgun", range_paces=5, target_relative_speed=26)
    assert _items(tn)["relative speed 26 paces"] == -5


def test_total_speed_option(gear, ap_v2):
    """000 Target Speed (optional total movement): Miranda 8 chasing a bandit at 8 is
    relative 0, but total 16 → −3; the wagon example is 18 + 8 = 26 → −5 either way."""
    relative = _tn(
        gear, ap_v2, "sw_schofield", target_relative_speed=0, firer_speed=8, target_speed=8
    )
    assert tn_result(relative) == 0
    total = _tn(
        gear,
        ap_v2,
        "sw_schofield",
        options=OptionalRules(total_speed=True),
        target_relative_speed=0,
        firer_speed=8,
        target_speed=8,
    )
    assert _items(total)["total speed 16 paces"] == -3
    wagon = _tn(
        gear,
        ap_v2,
        "sw_schofield",
        options=OptionalRules(total_speed=True),
        firer_speed=18,
        target_speed=8,
    )
    assert _items(wagon)["total speed 26 paces"] == -5


def tn_result(tn):
    return tn.result_modifier


# -- target size -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "tn_add", "result"),
    [(6, 0, 0), (4, 1, 0), (2, 2, 0), (8, 0, 1), (10, 0, 2), (30, 0, 6)],
)
def test_target_size_ap_v2(gear, ap_v2, size, tn_add, result):
    """000 Target Size: ≤4 +1 TN, ≤2 +2; +1 result per 2 Size above 6."""
    tn = _tn(gear, ap_v2, "sw_schofield", target_size=size)
    assert tn.tn == 5 + tn_add
    assert tn.result_modifier == result


@pytest.mark.parametrize(
    ("size", "tn_add", "result"), [(4, 0, 0), (3, 1, 0), (1, 3, 0), (12, 0, 1), (18, 0, 2)]
)
def test_target_size_phases(gear, phases, size, tn_add, result):
    """001/003 Target Size: size 3 +1 TN, 2 +2 …; size 12 +1, 18 +2."""
    tn = _tn(gear, phases, "sw_schofield", AIMED_ONCE, target_size=size)
    assert tn.tn == 5 + tn_add
    assert tn.result_modifier == result


def test_target_size_defaults_to_the_target(gear, ap_v2):
    dog = person("dog", size=3)
    assert _tn(gear, ap_v2, "sw_schofield", target=dog).tn == 6


# -- the firer -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kw", "label", "value"),
    [
        ({"firer_movement": "walking"}, "firer is walking", -1),
        ({"firer_movement": "running"}, "firer is running", -4),
        ({"firer_mounted": True}, "firer is mounted", -2),
        ({"firer_mounted": True, "firer_movement": "walking"}, "firer is mounted", -2),
        ({"firer_mounted": True, "mount_movement": "running"}, "firer's mount is running", -4),
    ],
)
def test_movement_and_mount(gear, ap_v2, kw, label, value):
    """000/001 Move and Fire: walk −1, run −4; mounted −2 only if worse than the
    movement penalty (a galloping mount costs −4)."""
    tn = _tn(gear, ap_v2, "sw_schofield", **kw)
    assert _items(tn) == {label: value}
    assert tn.result_modifier == value


def test_secondary_targets_are_cumulative(gear, ap_v2):
    """000 Modifiers: −1 for each target after the first, cumulative."""
    assert _tn(gear, ap_v2, "sw_schofield", secondary_target_index=0).result_modifier == 0
    assert _tn(gear, ap_v2, "sw_schofield", secondary_target_index=1).result_modifier == -1
    assert _tn(gear, ap_v2, "sw_schofield", secondary_target_index=2).result_modifier == -2


def test_appearing_and_not_visible(gear, ap_v2, phases):
    """000 Modifiers (appearing −1); not visible behind cover −3 (000) / −4 (001)."""
    assert _tn(gear, ap_v2, "sw_schofield", appearing_disappearing=True).result_modifier == -1
    assert _tn(gear, ap_v2, "sw_schofield", visibility="not_visible").result_modifier == -3
    hidden = _tn(gear, phases, "sw_schofield", AIMED_ONCE, visibility="not_visible")
    assert hidden.result_modifier == -4
    partly = _tn(gear, ap_v2, "sw_schofield", visibility="partly")
    assert partly.result_modifier == 0 and any("partly" in n for n in partly.notes)


def test_prone_target_per_edition(gear, ap_v2, phases):
    """000 Modifiers: "Target is prone | +1", a result modifier like "Firer is mounted
    | -2" (the TN stays 5); 003: no TN change, the hit location rule applies, ignored
    within 2 paces."""
    prone = _tn(gear, ap_v2, "sw_schofield", target_prone=True)
    assert prone.tn == 5 and _items(prone)["target is prone"] == 1
    far = _tn(gear, phases, "sw_schofield", target_prone=True, range_paces=5)
    assert far.tn == 5 and any("prone attribute" in n for n in far.notes)
    near = _tn(gear, phases, "sw_schofield", target_prone=True, range_paces=2)
    assert near.tn == 5 and any("ignored" in n for n in near.notes)


def test_an_old_prone_reading_switch_is_dropped_on_load():
    """Files saved with the old ``prone_reading`` switch still open; the switch is gone."""
    assert OptionalRules.model_validate({"prone_reading": "tn"}) == OptionalRules()


def test_wounded_firer(gear, ap_v2):
    """000 Modifiers: firer wounded (house table)."""
    shooter = _shooter("sw_schofield", wounds={"left_arm": 2})
    tn = _tn(gear, ap_v2, "sw_schofield", shooter=shooter)
    assert _items(tn)["firer is wounded (level 2)"] == ap_v2.wounded_firer[1]


def test_two_weapons_and_off_hand(gear, ap_v2, phases):
    """000 Two Weapons: −1 each, off hand −2 more; 001: −1 and −3 more."""
    assert _tn(gear, ap_v2, "sw_schofield", two_weapons=True).result_modifier == -1
    assert _tn(gear, ap_v2, "sw_schofield", two_weapons=True, off_hand=True).result_modifier == -3
    both = _tn(gear, phases, "sw_schofield", AIMED_ONCE, two_weapons=True, off_hand=True)
    assert both.result_modifier == -4


def test_two_handed_in_one_hand(gear, ap_v2):
    """000 Two handed ranged weapons: 2 downgrades, only for two-handed weapons."""
    tn = _tn(gear, ap_v2, "winchester_rifle", two_handed_in_one_hand=True)
    assert _items(tn)["two-handed weapon in one hand"] == -2
    assert _tn(gear, ap_v2, "sw_schofield", two_handed_in_one_hand=True).result_modifier == 0


@pytest.mark.parametrize(
    ("key", "loc", "value"),
    [
        ("torso", None, -2),
        ("limb", HitLocation.LEFT_ARM, -4),
        ("head_hand_foot", None, -6),
        ("eye_heart", None, -10),
    ],
)
def test_called_shots(gear, ap_v2, key, loc, value):
    """001 Called Shots: torso −2, limbs −4, head/hands/feet −6, eye/heart −10."""
    tn = _tn(gear, ap_v2, "sw_schofield", called_shot=key, called_location=loc)
    assert tn.result_modifier == value


def test_called_shot_location_must_fit_the_key():
    with pytest.raises(ValueError):
        ShotSituation(called_shot="limb")
    with pytest.raises(ValueError):
        ShotSituation(called_shot="torso", called_location=HitLocation.HEAD)


def test_snap_penalty_and_aim(gear, ap_v2):
    """000 Aim and Snap Shots: SP on snap shots; +1 per aim, +Accurate when aimed."""
    snap = _tn(gear, ap_v2, "sharps_rifle", ShotSpec(kind="snap"))
    assert _items(snap) == {"snap shot penalty (SP)": -3}
    aimed = _tn(gear, ap_v2, "sharps_rifle", ShotSpec(kind="aimed", aims=2))
    assert _items(aimed) == {"2 aim action(s)": 2, "Accurate(2)": 2}
    normal = _tn(gear, ap_v2, "sharps_rifle", ShotSpec(kind="normal"))
    assert normal.result_modifier == 0


def test_double_action_cocked_drops_the_pull(gear, ap_v2):
    """000 Cocking and Readying: a double-action revolver fires uncocked with its
    traits (the heavier pull in its SP); cocked, it drops them for that shot."""
    uncocked = _tn(
        gear,
        ap_v2,
        "colt_thunderer",
        ShotSpec(kind="snap"),
        shooter=_shooter("colt_thunderer", cocked=False),
    )
    assert uncocked.result_modifier == -3
    cocked = _tn(
        gear,
        ap_v2,
        "colt_thunderer",
        ShotSpec(kind="snap", cock_first=True),
        shooter=_shooter("colt_thunderer", cocked=False),
    )
    assert cocked.result_modifier == -2


def test_left_field_of_fire_makes_a_snap(gear, ap_v2):
    """003 Fields of Fire: a target leaving the field during the aim → snap shot."""
    tn = _tn(
        gear, ap_v2, "sharps_rifle", ShotSpec(kind="aimed", aims=1), target_left_field_of_fire=True
    )
    assert _items(tn) == {"snap shot penalty (SP)": -3}


def test_breakdown_sums_and_keeps_tn_and_result_apart(gear, ap_v2):
    """RULES.md: TN items and result items are kept apart; TN = base + TN items."""
    tn = _tn(
        gear,
        ap_v2,
        "sharps_rifle",
        ShotSpec(kind="aimed", aims=1),
        range_paces=65,
        target_size=3,
        target_prone=True,
        target_relative_speed=12,
        firer_movement="walking",
    )
    # range 2, size 3: +1 TN; prone is +1 to the result (000 Modifiers)
    assert tn.tn == tn.base + sum(m.value for m in tn.tn_items) == 5 + 2 + 1
    assert tn.result_modifier == sum(m.value for m in tn.result_items) == -2 - 1 + 1 + 2 + 1
    assert all(m.source for m in (*tn.tn_items, *tn.result_items))
    assert len(tn.reasons()) == 1 + len(tn.tn_items) + len(tn.result_items) + len(tn.notes)


def test_ranged_tn_uses_the_sample_sharps(gear, ap_v2, samples):
    """000 Combat Example (Miranda vs Miners): close range TN 5, −3 for the rider's
    18 paces, aimed Sharps +3: net 0."""
    miranda = ready(samples["miranda_valentine"], "sharps_rifle", cocked=True)
    tn = ranged_tn(
        miranda,
        gear.weapon("sharps_rifle"),
        ap_v2,
        ShotSituation(range_paces=15, target_relative_speed=18),
        ShotSpec(kind="aimed", aims=1),
    )
    assert (tn.tn, tn.result_modifier) == (5, 0)
