"""Which weapon the autopilot fights with (tactics/arms.py), and a gun's distance."""

from __future__ import annotations

import random

from twtw_desktop.bench.tactics import sample_in_round
from twtw_desktop.hexgrid import Hex
from twtw_desktop.tactics.naive import NaivePlanner
from twtw_desktop.tactics.odds import DeckOdds
from twtw_desktop.tactics.planner import Planner, plan_round
from twtw_desktop.tactics.threat import Foe, foe_of


def _planner(table, who: str, cls: type[Planner] = Planner) -> Planner:  # type: ignore[no-untyped-def]
    return cls(table, who, DeckOdds(table.deck.cards), random.Random(0), set())


def test_with_nothing_in_hand_every_kind_of_weapon_is_weighed() -> None:
    """Cyril carries a Schofield and a Winchester, neither drawn: the first draw is a
    choice (the rifle for a far foe, the revolver for a near one); the naive
    opponent takes the first loaded gun it carries."""
    table = sample_in_round("main_street")
    cyril = table.character("cyril_wellington")
    ids = [cw.weapon_id for cw in cyril.weapons]
    assert ids == ["sw_schofield", "winchester_rifle"]
    assert not any(cw.readied for cw in cyril.weapons)
    assert _planner(table, cyril.id).arms() == [0, 1]
    assert _planner(table, cyril.id, NaivePlanner).arms() == [None]


def test_a_gun_in_hand_with_rounds_is_the_one_it_fights_with() -> None:
    table = sample_in_round("main_street")
    cyril = table.character("cyril_wellington")
    cyril.weapons[0].readied = True
    assert _planner(table, cyril.id).arms() == [0]


def test_with_a_hand_full_a_long_arm_is_not_drawn() -> None:
    """000 Two handed ranged weapons: a long arm used with one hand shoots 2
    downgrades worse — with an empty revolver in hand the rifle is not weighed (the
    revolver is reloaded); with a long arm in hand, nothing else is drawn."""
    table = sample_in_round("main_street")
    cyril = table.character("cyril_wellington")
    cyril.weapons[0].readied, cyril.weapons[0].loaded = True, 0
    assert _planner(table, cyril.id).arms() == [0]
    cyril.weapons[0].readied = False
    cyril.weapons[1].readied, cyril.weapons[1].loaded = True, 0
    cyril.weapons[0].loaded = 5
    assert _planner(table, cyril.id).arms() == [1]


def test_guns_emptied_in_hand_are_reloaded_not_left_dry() -> None:
    """Miranda has fired both Peacemakers dry; her Sharps is loaded but slung (a long
    arm, her hands full): the plan reloads a Peacemaker rather than nothing (her
    plans at Longhorn Saloon walked her up to the brawlers with empty guns)."""
    table = sample_in_round("main_street")
    miranda = table.character("miranda_valentine")
    assert [cw.weapon_id for cw in miranda.weapons][:2] == ["colt_peacemaker"] * 2
    for cw in miranda.weapons[:2]:
        cw.readied, cw.loaded = True, 0
    assert miranda.weapons[2].loaded > 0 and not miranda.weapons[2].readied
    (plan,) = plan_round(table, [miranda.id], seed=0)
    reloads = [a for a in plan.actions if "reload" in str(a.journal_form())]
    assert reloads, plan.reasons
    then = reloads[0].journal_form()["then"]
    assert then["weapon"] == "colt_peacemaker" and then.get("slot", 0) in (0, 1)
    assert "reloads the Colt Peacemaker" in plan.reasons[0]
    for act in plan.actions:  # the table takes the plan
        assert table.why_not(act) is None, (act.journal_form(), plan.reasons)
        table.apply(act)


def test_a_gun_keeps_off_a_foe_with_only_a_blade() -> None:
    """A gun keeps its distance from the foes that shoot back; a brawler it keeps
    off, never walks up to (Miranda had walked up to Dave Perkins to keep a line of
    fire)."""
    table = sample_in_round("legless_gulch")
    pg = _planner(table, "miranda_valentine")
    brawler = Foe("x", None, True)
    gunman = foe_of(table, "hank_daggett")
    foe = Hex(0, 0)
    pg._foes = [brawler]
    assert pg._closing(Hex(8, 0), [foe], False) == pg._closing(Hex(20, 0), [foe], False)
    assert pg._closing(Hex(2, 0), [foe], False) < pg._closing(Hex(8, 0), [foe], False)
    pg._foes = [gunman]
    assert pg._closing(Hex(8, 0), [foe], False) > pg._closing(Hex(20, 0), [foe], False)
    # with nothing to fight with, no foe draws it nearer
    pg._foes, pg._armed = [gunman], False
    assert pg._closing(Hex(8, 0), [foe], False) == pg._closing(Hex(20, 0), [foe], False)


def test_a_carriage_gun_is_not_drawn() -> None:
    """Octavio carries a Colt and the Gatling (a carriage gun, gear attribute
    ``mounted``): the planner draws the Colt, and leaves the Gatling to the Judge."""
    table = sample_in_round("legless_gulch")
    octavio = table.character("octavio_vaquero")
    ids = [cw.weapon_id for cw in octavio.weapons]
    gatling = ids.index("gatling_gun")
    assert table.gear.weapon("gatling_gun").is_mounted
    assert _planner(table, octavio.id).arms() == [ids.index("colt_army_44")]
    octavio.weapons[gatling].readied = True  # manned by the Judge: fired where it is
    assert _planner(table, octavio.id).arms() == [gatling]


def test_a_first_draw_counts_the_shots_its_ap_leave() -> None:
    """The table takes no shot after the one that draws the gun (the next is asked
    of the gun as it is now, holstered), so a plan declares that one; the AP left
    still fire it this round — the NPC's next plan declares them — and they count.
    Without them a first draw weighed one shot, and Cyril readied his Winchester
    for the whole round at Longhorn Saloon rather than draw his Schofield and fire
    it more than once."""
    table = sample_in_round("main_street")
    cyril = table.character("cyril_wellington")
    pl = _planner(table, cyril.id)
    foes = [t for t in table.encounter.tokens if table.character(t.character_id).side == "hombres"]
    with pl.arming(0):  # the Schofield, holstered
        for foe in foes:
            more = pl._series(foe, "normal", 12, False)
            if more.actions:
                break
        assert more.actions[0].draw_first  # type: ignore[attr-defined]
        one = pl._series(foe, "normal", more.ap, False)  # the AP of that shot alone
    assert len(more.actions) == len(one.actions) == 1  # one declared now
    assert more.hits > 1.5 * one.hits > 0  # and the AP left fire it again
    assert not cyril.weapons[0].readied  # the scratch sheet is put back
