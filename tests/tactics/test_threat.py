"""What a known foe threatens (tactics/threat.py), and the temperaments' withdrawal."""

from __future__ import annotations

from twtw_desktop.bench.tactics import sample_in_round
from twtw_desktop.rules.base import Pool
from twtw_desktop.tactics.odds import DeckOdds
from twtw_desktop.tactics.planner import plan_round
from twtw_desktop.tactics.threat import Threats, foe_of


def _threats(sample: str, me: str, phases: bool = False) -> Threats:
    table = sample_in_round(sample)
    return Threats(table, table.character(me), DeckOdds(table.deck.cards), 8, phases)


def test_a_gun_threatens_less_far_off_and_behind_cover() -> None:
    th = _threats("main_street", "angus_laroq")
    miranda = foe_of(th.t, "miranda_valentine")
    assert miranda.gun is not None
    near, far = th.by_gun(miranda, 3, 1.0), th.by_gun(miranda, 40, 1.0)
    assert near > far >= 0.0
    assert th.by_gun(miranda, 3, 0.25) < near
    # the NPC's own pool with the foe's gun, never the foe's sheet
    assert th.chance(miranda.gun, 3) == th.odds.chance(
        _own_pool(th, miranda.gun), _tn(th, miranda.gun, 3)
    )


def _own_pool(th: Threats, gun) -> Pool:  # type: ignore[no-untyped-def]
    from twtw_desktop.rules.combat.ranged import attack_pool

    return attack_pool(th.me, gun)[0]


def _tn(th: Threats, gun, paces: int) -> int:  # type: ignore[no-untyped-def]
    from twtw_desktop.rules.combat.ranged import range_tn

    return range_tn(th.me, gun, th.t.edition, paces, thrown=False).tn


def test_a_blade_threatens_by_its_reach() -> None:
    th = _threats("legless_gulch", "miranda_valentine")
    miner = next(
        foe_of(th.t, c.id)
        for c in th.t.encounter.characters
        if c.side == "hombres" and foe_of(th.t, c.id).blade
    )
    close, mid, far = th.by_blade(miner, 1), th.by_blade(miner, 6), th.by_blade(miner, 200)
    assert close > mid > 0.0 and far == 0.0
    gunman = foe_of(th.t, "miranda_valentine")
    assert not gunman.blade or th.by_blade(gunman, 1) > 0


def test_a_steady_npc_withdraws_when_its_conc_is_low() -> None:
    table = sample_in_round("main_street")
    angus = table.character("angus_laroq")
    assert angus.temperament == "steady"
    (fighting,) = plan_round(table, ["angus_laroq"], seed=1)
    assert "withdraws" not in fighting.reasons[0]
    angus.conc = angus.conc_max // 4
    (plan,) = plan_round(table, ["angus_laroq"], seed=1)
    assert plan.reasons[0].startswith("steady: withdraws with Conc")


def test_an_npc_walks_only_where_it_sees_the_way() -> None:
    """A figure it does not see may block a way it does not see: it plans none (Octavio
    at Main Street was planned through Jonah Benton, unseen, and the table refused)."""
    from twtw_desktop.geometry.sight import visible

    table = sample_in_round("main_street")
    start = table.token("token-octavio_vaquero").at
    (plan,) = plan_round(table, ["octavio_vaquero"], seed=0)
    walls = table.walls()
    for col, row in plan.path:
        assert visible(table.map, walls, start, table.map.hex_at(col - 1, row - 1))
    for act in plan.actions:
        assert table.why_not(act) is None, (act.journal_form(), plan.reasons)
        table.apply(act)
