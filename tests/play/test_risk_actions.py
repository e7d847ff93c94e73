"""001 Risk at the table: with the risk rule on, a critical head or torso wound is
held at serious unless the player declared that the Hero risks death (risk_death)."""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import (
    Draw,
    EndRound,
    EndSegment,
    SetRules,
    StartActionTime,
    StartRound,
)
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.risk_actions import RiskDeath, risking_death
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    return t


def _torso_hit(t):
    """The first card whose snap shot puts a wound in Angus's torso (tried, undone)."""
    for n in range(1, 55):
        ev = t.apply(SnapShot(who=MIRANDA, target=ANGUS, card=n, charge_ap=False))
        dmg = ev.record.get("damage") or {}
        t.undo()
        if dmg.get("location") == "torso" and dmg.get("wounds_dealt", 0) >= 1:
            return n
    raise AssertionError("no torso hit in the deck")


def test_the_declaration_lifts_the_protection(table):
    t = table
    opts = t.encounter.options.model_copy(update={"risk": True})
    t.apply(SetRules(edition=t.encounter.edition, options=opts))
    t.character(ANGUS).wounds["torso"] = 4
    n = _torso_hit(t)
    ev = t.apply(SnapShot(who=MIRANDA, target=ANGUS, card=n, charge_ap=False))
    assert ev.record["damage"]["held_by_risk"]
    assert t.character(ANGUS).wounds["torso"] == 4  # held at serious (001 Risk)
    t.undo()
    assert t.why_not(RiskDeath(who=ANGUS)) is None
    t.apply(RiskDeath(who=ANGUS))
    assert risking_death(t, ANGUS)
    ev = t.apply(SnapShot(who=MIRANDA, target=ANGUS, card=n, charge_ap=False))
    assert not ev.record["damage"]["held_by_risk"]
    assert t.character(ANGUS).wounds["torso"] == 5


def test_refusals(table):
    t = table
    assert "risk rule is off" in t.why_not(RiskDeath(who=ANGUS))
    opts = t.encounter.options.model_copy(update={"risk": True})
    t.apply(SetRules(edition=t.encounter.edition, options=opts))
    t.apply(RiskDeath(who=ANGUS))
    assert "already risks death" in t.why_not(RiskDeath(who=ANGUS))
    t.apply(StartActionTime())
    for _ in range(3):
        t.apply(StartRound())
        while t.why_not(EndSegment()) is None:
            t.apply(EndSegment())
        if t.why_not(StartRound()) is not None:
            t.apply(EndRound())
    assert "first round" in t.why_not(RiskDeath(who=MIRANDA))
