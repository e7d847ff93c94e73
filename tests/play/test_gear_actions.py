"""Equipment failure on the sheet and clear_jam (000 Ancillary Effects; the clearing
cost is the gear's, or the house default of a simple skill action)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import StartActionTime, StartRound, parse_action
from twtw_desktop.play.gear_actions import ClearJam
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.character import CarriedWeapon
from twtw_desktop.rules.combat.ancillary import after_failure, equipment_failure
from twtw_desktop.rules.gear import default_gear

from .deck_support import next_segment

MIRANDA = "miranda_valentine"


def test_a_failed_check_jams_the_weapon_and_a_broken_one_stays_broken():
    """RULES.md's Rel rule: the wrench below the Rel fails the weapon."""
    cw = CarriedWeapon(weapon_id="colt_peacemaker", readied=True)
    failed = equipment_failure(3, 5)
    held = equipment_failure(9, 5)
    assert after_failure(cw, failed).failure == "jammed"
    assert after_failure(cw, held).failure is None
    broken = cw.model_copy(update={"failure": "broken"})
    assert after_failure(broken, failed).failure == "broken"


def test_the_clearing_cost_comes_from_the_gear():
    w = default_gear().weapon("colt_peacemaker")
    assert A.clear_jam(w).ap == A.CLEAR_JAM_AP == 4
    assert A.clear_jam(w.model_copy(update={"clear_ap": 2})).ap == 2


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    c = t.character(MIRANDA)
    weapons = list(c.weapons)
    weapons[1] = weapons[1].model_copy(update={"failure": "jammed"})
    c.weapons = weapons
    return t


def test_clear_jam_frees_the_jammed_gun_for_its_ap(table):
    table.apply(StartActionTime())
    table.apply(StartRound())
    act = parse_action({"do": "clear_jam", "who": MIRANDA})
    for _ in range(12):  # counters out segment by segment until the 4 AP are there
        if table.why_not(act) is None:
            break
        next_segment(table)
    assert table.why_not(act) is None
    assert table.cost(act).ap == 4
    ev = table.apply(act)
    assert "clears the Colt Peacemaker (.45)'s jam (4 AP)" in ev.text
    assert table.character(MIRANDA).weapons[1].failure is None
    table.undo()
    assert table.character(MIRANDA).weapons[1].failure == "jammed"


def test_refusals(table):
    before = table.state_fingerprint()
    sharps = ClearJam(who=MIRANDA, weapon="sharps_rifle")
    assert "not jammed" in (table.why_not(sharps) or "")
    with pytest.raises(RulesError, match="not jammed"):
        table.apply(sharps)
    c = table.character(MIRANDA)
    c.weapons = [w.model_copy(update={"failure": "broken"}) for w in c.weapons]
    assert "broken" in (table.why_not(ClearJam(who=MIRANDA, slot=0)) or "")
    assert table.why_not(ClearJam(who=MIRANDA)) == "Miranda Valentine has no weapon to clear jam."
    assert table.state_fingerprint() != before  # only the sheet edit above changed it
