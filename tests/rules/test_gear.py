"""The bundled gear catalog and the gear loader's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from twtw_desktop.errors import LoadError
from twtw_desktop.resources import resource_path
from twtw_desktop.rules.base import Effect, Speed
from twtw_desktop.rules.character import SKILLS
from twtw_desktop.rules.gear import WEAPON_ATTRIBUTES, Weapon, default_gear, load_gear
from twtw_desktop.rules.samples import sample_characters

ISSUE_WEAPONS = [
    "colt_peacemaker",
    "colt_peacemaker_gunslinger",
    "sw_schofield",
    "colt_walker",
    "colt_army_44",
    "colt_thunderer",
    "sharps_rifle",
    "henry_rifle",
    "winchester_rifle",
    "springfield_58_musket",
    "double_barrel_shotgun",
    "gatling_gun",
    "bowie_knife",
    "cavalry_saber",
    "club",
    "shovel",
    "lasso",
    "dynamite",
]


@pytest.fixture(scope="module")
def gear():
    return load_gear()


def w(gear, weapon_id: str) -> Weapon:
    return gear.weapon(weapon_id)


@pytest.mark.parametrize("weapon_id", ISSUE_WEAPONS)
def test_every_issue_weapon_is_in_the_catalog(gear, weapon_id):
    weapon = gear.weapon(weapon_id)
    assert weapon.source, "every weapon names the seed page it comes from"


def test_ready_costs_rules_example_5(gear):
    """RULES example 5 — 000 Cocking and Readying: Schofield (size 5) 2 AP, Winchester
    (size 8) 5 AP."""
    assert w(gear, "sw_schofield").size == 5
    assert w(gear, "sw_schofield").ready_ap == 2
    assert w(gear, "winchester_rifle").size == 8
    assert w(gear, "winchester_rifle").ready_ap == 5


def test_peacemaker_draw_quick_draw_vs_none(gear):
    """RULES example 1 — 000 Action Timing: Miranda draws her Peacemaker for 1 AP (she
    has Quick Draw; house rule). Cyril, without Quick Draw, pays the size rule's 2 AP
    (000 Cocking and Readying)."""
    people = sample_characters()
    miranda, cyril = people["miranda_valentine"], people["cyril_wellington"]
    peacemaker = w(gear, "colt_peacemaker")
    assert miranda.quick_draw >= 1 and cyril.quick_draw == 0
    assert peacemaker.draw_ap(miranda.quick_draw) == 1
    assert peacemaker.draw_ap(cyril.quick_draw) == 2
    assert w(gear, "sw_schofield").draw_ap(cyril.quick_draw) == 2
    # the ready cost itself stays the size rule
    assert peacemaker.ready_ap == 2
    cost, rows = peacemaker.draw_cost(miranda.quick_draw)
    assert cost == 1 and "house rule" in rows[0][2]


def test_quick_draw_only_helps_holstered_handguns(gear):
    """House rule: Quick Draw does not speed up readying a long arm (000 Cocking and
    Readying still applies: Winchester 5 AP)."""
    winchester = w(gear, "winchester_rifle")
    assert winchester.draw_ap(3) == winchester.ready_ap == 5
    cost, rows = winchester.draw_cost(0)
    assert cost == sum(r[1] for r in rows) == 5


def test_miranda_peacemaker_cock_and_normal_shot(gear):
    """RULES example 1 — 000 Action Timing: cocking the Peacemaker costs 1 AP, a normal
    shot 3 AP."""
    peacemaker = w(gear, "colt_peacemaker")
    assert peacemaker.cock_ap == 1
    assert peacemaker.needs_cocking
    assert peacemaker.normal_ap == 3


def test_sharps_card_rules_example_3(gear):
    """RULES example 3 — 000 Aim and Snap Shots: Sharps snap 3 AP at −3, normal 7 AP,
    an aimed shot 11 AP (one 4 AP aim), Accurate(2); 000 Combat Example: Pen 4,
    DMG (5)8."""
    sharps = w(gear, "sharps_rifle")
    assert (sharps.snap_ap, sharps.snap_penalty) == (3, -3)
    assert sharps.normal_ap == 7
    assert sharps.normal_ap + sharps.aim_ap == 11
    assert sharps.accurate == 2
    assert sharps.pen == 4
    assert sharps.dmg == Effect(row=5, die=8)


def test_schofield_card_rules_examples_2_and_4(gear):
    """RULES examples 2 and 4 — 000 Range and Aim and Snap Shots: Schofield increment
    10; a normal shot (3 AP) plus two aims (4 AP) is 7 AP. 000 Multiple Attacks: cock
    1 AP, snap shot 1 AP."""
    schofield = w(gear, "sw_schofield")
    assert schofield.range_increment == 10
    assert schofield.normal_ap + 2 * schofield.aim_ap == 7
    assert schofield.cock_ap == 1 and schofield.snap_ap == 1


def test_gunslinger_peacemaker_increment_8(gear):
    """RULES example 2 — 001/003 Range: the gunslinger model (short barrel) has range
    increment 8."""
    assert w(gear, "colt_peacemaker_gunslinger").range_increment == 8


def test_henry_costs_from_rushing_stipulation(gear):
    """000 Rushing Actions stipulation 3: a Henry's normal shot is 5 AP; 6 AP paid is
    inside the first aim and 8 AP completes it, so an aim action is 3 AP."""
    henry = w(gear, "henry_rifle")
    assert henry.normal_ap == 5
    assert henry.aim_ap == 3
    assert henry.normal_ap < 6 < henry.normal_ap + henry.aim_ap <= 8


def test_peacemaker_damage_and_reduced_damage(gear):
    """003 Dealing Damage: a .45 Peacemaker does (3)6 (average 10.5 fits 000's 'normal
    hit deals 10'); 002 Row/Column adjustments: reduced damage is one column lower."""
    peacemaker = w(gear, "colt_peacemaker")
    assert peacemaker.dmg == Effect(row=3, die=6)
    assert peacemaker.rd == Effect(row=3, die=4)


def test_rd_is_one_column_lower_than_dmg(gear):
    """002 Row/Column adjustments: RD reads the DMG row one die type lower (a d4
    weapon would lose a row instead)."""
    dies = [4, 6, 8, 10, 12]
    for weapon in gear.weapons.values():
        if weapon.dmg is None:
            assert weapon.rd is None
            continue
        assert weapon.rd is not None, weapon.id
        if weapon.dmg.die == 4:
            assert (weapon.rd.row, weapon.rd.die) == (weapon.dmg.row - 1, 4), weapon.id
        else:
            assert weapon.rd.row == weapon.dmg.row, weapon.id
            assert weapon.rd.die == dies[dies.index(weapon.dmg.die) - 1], weapon.id


def test_cocking_rules(gear):
    """000 Cocking and Readying: single action revolvers and lever/breech guns cock for
    1 AP; hammerless shotguns and double action revolvers fire uncocked."""
    for weapon in gear.weapons.values():
        if weapon.action in ("single", "lever", "breech") and "hammerless" not in weapon.attributes:
            assert weapon.cock_ap == 1, weapon.id
            assert weapon.needs_cocking, weapon.id
    shotgun = w(gear, "double_barrel_shotgun")
    assert shotgun.cock_ap is None and not shotgun.needs_cocking
    assert shotgun.capacity == 2 and shotgun.scatter
    thunderer = w(gear, "colt_thunderer")
    assert thunderer.action == "double" and not thunderer.needs_cocking
    assert thunderer.cock_ap == 1  # may still be cocked (000)


def test_fields_of_fire(gear):
    """003 Fields of Fire: handguns 120 degrees, long arms 60."""
    for weapon in gear.weapons.values():
        if weapon.kind == "handgun":
            assert weapon.field_of_fire == 120, weapon.id
        else:
            assert weapon.field_of_fire == 60, weapon.id


def test_phases_speeds(gear):
    """004: the Thunderer is a Quick (fast) action; loading the '58 Springfield is a Full
    (slow) action; the double-barrel shotgun is normal speed."""
    assert w(gear, "colt_thunderer").speed is Speed.FAST
    assert w(gear, "colt_peacemaker").speed is Speed.FAST
    springfield = w(gear, "springfield_58_musket")
    assert springfield.action == "muzzle" and springfield.reload_speed is Speed.SLOW
    assert w(gear, "double_barrel_shotgun").speed is Speed.NORMAL


def test_gatling(gear):
    """000 Burst Fire: burst 10 (Angus' Gatling: 8 hits, 2 stray) with smaller modes;
    a multi-mode weapon fires the smallest unless told otherwise."""
    gatling = w(gear, "gatling_gun")
    assert gatling.burst == 10
    assert sorted(gatling.burst_modes) == [3, 5, 10]
    assert gatling.default_burst == 3
    assert gatling.action == "crank" and gatling.two_handed and gatling.is_mounted


def test_melee_and_special_weapons(gear):
    """001/003: saber defend and long; club/shovel impact; lasso entangle, fragile,
    with an entangle TN (003 Entanglement); dynamite thrown and explosive."""
    saber = w(gear, "cavalry_saber")
    assert {"defend", "long"} <= set(saber.attributes) and saber.is_melee
    for blunt in ("club", "shovel"):
        assert w(gear, blunt).damage_kind == "impact"
        assert "impact" in w(gear, blunt).attributes
    lasso = w(gear, "lasso")
    assert {"entangle", "fragile"} <= set(lasso.attributes)
    assert lasso.entangle_tn is not None and lasso.dmg is None
    dynamite = w(gear, "dynamite")
    assert {"thrown", "explosive"} <= set(dynamite.attributes)
    assert dynamite.blast_radius and dynamite.throwable
    assert dynamite.range_increment == 10  # 000 Throwing Things
    assert w(gear, "bowie_knife").damage_kind == "deadly"


def test_every_weapon_is_complete(gear):
    """Every firing weapon has snap/normal/aim AP, an SP, a range increment, DMG, RD and
    a Rel; every house number names a real field; skills and attributes are known."""
    for weapon in gear.weapons.values():
        assert weapon.rel is not None, weapon.id
        assert weapon.skill in SKILLS, weapon.id
        assert set(weapon.attributes) <= set(WEAPON_ATTRIBUTES), weapon.id
        assert set(weapon.house_values) <= set(Weapon.model_fields), weapon.id
        if weapon.is_ranged:
            assert None not in (weapon.snap_ap, weapon.normal_ap, weapon.aim_ap), weapon.id
            assert weapon.snap_penalty < 0, weapon.id
            assert weapon.range_increment and weapon.dmg and weapon.rd, weapon.id
            assert weapon.capacity >= 1, weapon.id


# -- loader errors ------------------------------------------------------------------


def _write_catalog(tmp_path: Path, mutate) -> Path:
    raw = json.loads(resource_path("gear", "weapons.json").read_text(encoding="utf-8"))
    mutate(raw)
    path = tmp_path / "weapons.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def _entry(raw, weapon_id):
    return next(e for e in raw["weapons"] if e["id"] == weapon_id)


def test_bad_field_value_names_file_entry_and_field(tmp_path):
    """A gear file with "pen": "four" is refused, naming file, weapon and field."""
    before = default_gear()
    path = _write_catalog(tmp_path, lambda raw: _entry(raw, "sharps_rifle").update(pen="four"))
    with pytest.raises(LoadError) as err:
        load_gear(path)
    msg = str(err.value)
    assert str(path) in msg and "sharps_rifle" in msg and "field pen" in msg
    assert default_gear() is before and default_gear().weapon("sharps_rifle").pen == 4


def test_unknown_field_is_refused(tmp_path):
    path = _write_catalog(tmp_path, lambda raw: _entry(raw, "lasso").update(lenght=12))
    with pytest.raises(LoadError) as err:
        load_gear(path)
    assert "lasso" in err.value.where and "lenght" in err.value.where
    assert "unknown field" in err.value.reason


def test_house_values_must_name_real_fields(tmp_path):
    path = _write_catalog(
        tmp_path, lambda raw: _entry(raw, "club").update(house_values={"weight": "heavy"})
    )
    with pytest.raises(LoadError) as err:
        load_gear(path)
    assert "club" in str(err.value) and "weight" in str(err.value)


def test_unsupported_format_version(tmp_path):
    path = _write_catalog(tmp_path, lambda raw: raw.update(format_version=99))
    with pytest.raises(LoadError) as err:
        load_gear(path)
    assert err.value.where == "format_version"


def test_duplicate_weapon_id(tmp_path):
    path = _write_catalog(tmp_path, lambda raw: raw["weapons"].append(dict(raw["weapons"][0])))
    with pytest.raises(LoadError, match="duplicate weapon id"):
        load_gear(path)


def test_unreadable_gear_file(tmp_path):
    path = tmp_path / "weapons.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(LoadError, match="not readable JSON"):
        load_gear(path)
    with pytest.raises(LoadError, match="file not found"):
        load_gear(tmp_path / "missing.json")


def test_snap_cannot_cost_more_than_normal():
    with pytest.raises(ValueError, match="snap shot"):
        Weapon(
            id="x",
            name="X",
            kind="handgun",
            skill="shooting_pistol",
            size=5,
            snap_ap=4,
            normal_ap=3,
            range_increment=10,
            dmg="(3)6",
        )
