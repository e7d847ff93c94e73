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

from .deck_support import put_on_top

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


def test_the_declaration_reaches_a_blast_and_a_series():
    """001 Risk reaches the blast: its strike on each victim reads that victim's own
    declaration."""
    from twtw_desktop.rules.combat.blast import BlastExposure, resolve_blast
    from twtw_desktop.rules.editions import OptionalRules

    t = open_table(maps_dir() / "main_street.encounter.json").table
    angus = t.character(ANGUS).model_copy(deep=True)
    angus.wounds["torso"] = 4
    dynamite = t.gear.weapons["dynamite"]
    options = OptionalRules(risk=True)
    held_somewhere = False
    for n in range(1, 55):
        card = t.deck.card(n)
        if card.standard_hit.location.value not in ("chest", "vitals", "belly"):
            continue
        ex = [BlastExposure(character=angus, distance=0)]
        safe, _ = resolve_blast(dynamite, t.edition, ex, lambda c=card: c, options=options)
        risky, _hurt = resolve_blast(
            dynamite, t.edition, ex, lambda c=card: c, options=options, risking={ANGUS}
        )
        d_safe, d_risky = safe.victims[0].damage, risky.victims[0].damage
        if d_safe is not None and d_safe.held_by_risk:
            held_somewhere = True
            assert d_risky is not None and not d_risky.held_by_risk
            break
    assert held_somewhere, "no card puts a fifth torso wound through the blast"


def test_the_declaration_reaches_each_attack_of_a_series(table):
    from twtw_desktop.play.attack import Spends, preview
    from twtw_desktop.play.combat_actions import NormalShot, SeriesAttack

    t = table
    opts = t.encounter.options.model_copy(update={"risk": True})
    t.apply(SetRules(edition=t.encounter.edition, options=opts))
    t.character(ANGUS).wounds["torso"] = 4
    series = NormalShot(who=MIRANDA, target=ANGUS, then=(SeriesAttack(target=ANGUS),))
    start = t.deck.snapshot()

    def first_record(n):
        put_on_top(t.deck, n)
        rec = preview(t, series.plan(t), [Spends(), Spends()]).records[0]
        t.deck.restore(start)
        return rec

    n = next(
        (k for k in range(1, 55) if (d := first_record(k).damage) is not None and d.held_by_risk),
        None,
    )
    if n is None:
        pytest.skip("no card puts a fifth torso wound on the first attack")
    t.apply(RiskDeath(who=ANGUS))
    assert not first_record(n).damage.held_by_risk
