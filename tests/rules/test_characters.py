"""Sample characters, NPC templates and the character loader's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from twtw_desktop.errors import LoadError
from twtw_desktop.resources import resource_path
from twtw_desktop.rules.base import Pool, WoundLocation
from twtw_desktop.rules.character import TRAITS, Character
from twtw_desktop.rules.editions import load_edition
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.samples import load_characters, npc_template, sample_characters

POSSE = {"miranda_valentine", "hank_daggett", "cyril_wellington", "jonah_benton"}
HOMBRES = {
    "angus_laroq",
    "felicia_laroq",
    "pete_perkins",
    "clem_perkins",
    "dave_perkins",
    "octavio_vaquero",
    "lead_miner",
}


@pytest.fixture(scope="module")
def people():
    return sample_characters()


def test_sides(people):
    assert {cid for cid, c in people.items() if c.side == "posse"} == POSSE
    assert {cid for cid, c in people.items() if c.side == "hombres"} == HOMBRES


def test_miranda(people):
    """000 Action Timing (IN 4), 000 Target Speed (Move 8), 000 Combat Example (3d10 in
    Shooting: Rifle), 004 Initiative Example 2 (Reflex 3d10)."""
    m = people["miranda_valentine"]
    assert m.initiative == 4 and m.move == 8
    assert m.skill_pool("shooting_rifle") == Pool(count=3, die=10)
    assert m.skill_pool("shooting_pistol") == Pool(count=3, die=10)
    assert m.trait_pool("reflex") == Pool(count=3, die=10)
    assert m.quick_draw >= 1
    carried = [cw.weapon_id for cw in m.weapons]
    assert "colt_peacemaker" in carried and "sharps_rifle" in carried


def test_hank(people):
    """000 Impact Damage (Size 6; 8 Conc leaves 6, so Conc 14); 001 Determining Defense
    (Fighting: Brawl 1); 004 Initiative Example 2 (Reflex 2d6, double-barrel
    shotgun); 004 (Thunderer); 002 (Demolitions)."""
    h = people["hank_daggett"]
    assert h.size == 6 and h.conc_max == h.conc == 14
    assert h.skill_level("fighting_brawl") == 1
    assert h.trait_pool("reflex") == Pool(count=2, die=6)
    assert h.skill_level("demolitions") >= 1
    carried = {cw.weapon_id for cw in h.weapons}
    assert {"double_barrel_shotgun", "colt_thunderer"} <= carried


def test_cyril(people):
    """000 Multiple Attacks (2d10 in Firearms: Pistol); 000 Cocking and Readying
    (Schofield and Winchester)."""
    c = people["cyril_wellington"]
    assert c.skill_pool("shooting_pistol") == Pool(count=2, die=10)
    assert {cw.weapon_id for cw in c.weapons} == {"sw_schofield", "winchester_rifle"}
    assert c.quick_draw == 0


def test_jonah(people):
    """003 Fan Firing: pistol skill 3 with Dexterity (coordination) d10; 003 Range:
    Peacemaker gunslinger model."""
    j = people["jonah_benton"]
    assert j.skill_level("shooting_pistol") == 3
    assert j.trait_pool("coordination").die == 10
    assert j.skill_pool("shooting_pistol") == Pool(count=3, die=10)
    assert [cw.weapon_id for cw in j.weapons] == ["colt_peacemaker_gunslinger"]


def test_angus(people):
    """000 Impact Damage (DB 3); 003 Fields of Fire (Walker Colt)."""
    a = people["angus_laroq"]
    assert a.damage_bonus == 3 and a.size == 6
    assert a.carried("colt_walker")


def test_perkins_and_vaquero(people):
    """004 Initiative Example (the brothers' Bowie knives; 2d6 Reflex fits the CF in
    the 2-6 cell); 000 Gatling / 002 lasso examples (vaquero skill 2d8); 004 Initiative
    Example 2 (hombres' Reflex 2d10)."""
    for pid in ("pete_perkins", "clem_perkins", "dave_perkins"):
        p = people[pid]
        assert p.trait_pool("reflex") == Pool(count=2, die=6)
        assert p.carried("bowie_knife")
    v = people["octavio_vaquero"]
    assert v.skill_pool("fighting_lasso") == Pool(count=2, die=8)
    assert v.skill_pool("shooting_gatling") == Pool(count=2, die=8)
    assert v.trait_pool("reflex") == Pool(count=2, die=10)
    assert v.carried("lasso")


def test_sheets_are_complete_and_plausible(people):
    """Every sheet has all traits, carries catalog weapons, keeps Conc at about
    2×Size+2, and names its invented numbers in house_values."""
    gear = default_gear()
    for c in people.values():
        assert set(c.traits) == set(TRAITS), c.id
        assert 10 <= c.ap <= 14 and 1 <= c.initiative <= 8, c.id
        assert c.conc_max == 2 * c.size + 2, c.id
        assert c.house_values and c.notes, c.id
        for cw in c.weapons:
            assert cw.weapon_id in gear.weapons, (c.id, cw.weapon_id)
        assert c.wound_level == 0 and not c.out_of_action


def test_sample_characters_hands_out_copies(people):
    mine = sample_characters()
    mine["hank_daggett"].conc = 1
    mine["hank_daggett"].wounds[WoundLocation.TORSO] = 3
    again = sample_characters()
    assert again["hank_daggett"].conc == 14
    assert again["hank_daggett"].wounds[WoundLocation.TORSO] == 0


def test_npc_template_is_a_fresh_copy_with_a_new_id():
    a = npc_template("pete_perkins")
    b = npc_template("pete_perkins")
    assert a.id != b.id != "pete_perkins"
    assert a.id.startswith("pete_perkins") and a.name == "Pete Perkins"
    a.weapons[0].readied = False
    assert b.weapons[0].readied is True
    assert sample_characters()["pete_perkins"].id == "pete_perkins"
    with pytest.raises(KeyError, match="no sample character"):
        npc_template("wild_bill")


def test_wound_penalty_helpers(people):
    """000 Wound Effects: the highest location sets the AP penalty (table: serious 4)."""
    h = people["hank_daggett"].model_copy(deep=True)
    h.wounds[WoundLocation.LEFT_ARM] = 2
    h.wounds = {**h.wounds, WoundLocation.TORSO: 4}
    ap_v2, phases = load_edition("ap_v2"), load_edition("phases")
    assert h.wound_ap_penalty(ap_v2) == 4 and h.ap_after_wounds(ap_v2) == h.ap - 4
    assert h.stun_tn(ap_v2) == 9 and h.wound_level_name(ap_v2) == "Serious"
    assert h.wound_ap_penalty(phases) == 3 and h.stun_tn(phases) == 9


# -- loader errors ------------------------------------------------------------------


def _write(tmp_path: Path, mutate) -> Path:
    raw = json.loads(resource_path("characters", "samples.json").read_text(encoding="utf-8"))
    mutate(raw)
    path = tmp_path / "characters.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def _entry(raw, cid):
    return next(e for e in raw["characters"] if e["id"] == cid)


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda e: e.update(size=-6), "size"),
        (lambda e: e.update(wounds={"tail": 1}), "wounds"),
        (lambda e: e["traits"].update(charm="2d6"), "traits"),
        (lambda e: e.update(hat="stetson"), "hat"),
        (lambda e: e["weapons"].append({"weapon_id": "laser_rifle"}), "weapons.3.weapon_id"),
        (lambda e: e.update(conc=20), "conc"),
        (lambda e: e["skills"].update(poker={"level": 2, "trait": "luck"}), "skills.poker.trait"),
        (lambda e: e.update(house_values={"hat": "big"}), "house_values"),
    ],
    ids=[
        "negative_size",
        "unknown_wound_location",
        "unknown_trait",
        "unknown_field",
        "unknown_weapon",
        "conc_above_max",
        "skill_with_unknown_trait",
        "house_value_unknown_field",
    ],
)
def test_bad_sheet_names_file_character_and_field(tmp_path, mutate, field):
    before = sample_characters()
    path = _write(tmp_path, lambda raw: mutate(_entry(raw, "miranda_valentine")))
    with pytest.raises(LoadError) as err:
        load_characters(path)
    assert err.value.path == str(path)
    assert "miranda_valentine" in err.value.where
    assert f"field {field}" in err.value.where
    assert sample_characters() == before


def test_duplicate_character_id(tmp_path):
    path = _write(tmp_path, lambda raw: raw["characters"].append(raw["characters"][0]))
    with pytest.raises(LoadError, match="duplicate character id"):
        load_characters(path)


def test_unsupported_format_version_and_bad_json(tmp_path):
    path = _write(tmp_path, lambda raw: raw.update(format_version=7))
    with pytest.raises(LoadError, match="format_version"):
        load_characters(path)
    bad = tmp_path / "bad.json"
    bad.write_text("[", encoding="utf-8")
    with pytest.raises(LoadError, match="not readable JSON"):
        load_characters(bad)


def test_character_schema_refuses_unknown_trait_directly():
    with pytest.raises(ValueError, match="unknown trait"):
        Character(
            id="x",
            name="X",
            traits={"luck": "2d6"},
            ap=10,
            initiative=5,
            move=8,
            run=16,
            size=6,
            conc_max=14,
            conc=14,
        )
