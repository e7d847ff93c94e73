"""What a known foe threatens (tactics/threat.py), and the temperaments' withdrawal."""

from __future__ import annotations

from twtw_desktop.bench.tactics import sample_in_round
from twtw_desktop.rules.base import Pool
from twtw_desktop.tactics.odds import DeckOdds
from twtw_desktop.tactics.planner import plan_round
from twtw_desktop.tactics.threat import Threats, foe_of, shares


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


def test_a_foe_seen_stunned_threatens_nothing_one_remembered_still_does() -> None:
    """000 Stun: "Each round, stunned characters use their action (Recover, all APs)
    to attempt a recovery check" — a foe seen stunned fires no shot and swings no
    blade this round; one only remembered may have shaken it off."""
    th = _threats("legless_gulch", "miranda_valentine")
    miner = next(
        c.id for c in th.t.encounter.characters if c.side == "hombres" and foe_of(th.t, c.id).blade
    )
    th.t.character(miner).stunned = True
    gunman = foe_of(th.t, "hank_daggett")
    assert gunman.gun is not None and th.by_gun(gunman, 5, 1.0) > 0
    th.t.character("hank_daggett").stunned = True
    assert th.by_gun(foe_of(th.t, "hank_daggett"), 5, 1.0) == 0.0
    assert th.by_blade(foe_of(th.t, miner), 1) == 0.0
    remembered = foe_of(th.t, miner, seen=False)
    assert not remembered.stunned and th.by_blade(remembered, 1) > 0


def test_a_shots_worth_counts_its_bumps() -> None:
    """002 Escalating Success: every 4 over the TN is a bump (damage, location): a
    result penalty costs bumps as well as hits, so a shot is worth its chance and
    more, and a penalised one less."""
    th = _threats("main_street", "angus_laroq")
    pool = Pool(count=2, die=8)
    for need in (4, 6, 8):
        assert th.odds.worth(pool, need) > th.odds.chance(pool, need) > 0
    assert th.odds.worth(pool, 8) < th.odds.worth(pool, 6)
    # the same chance, more bumps when the TN is lower
    assert th.odds.worth(pool, 4) - th.odds.chance(pool, 4) > th.odds.worth(
        pool, 8
    ) - th.odds.chance(pool, 8)


def test_a_blade_far_from_its_foes_still_walks_toward_them() -> None:
    """A brawler too far to swing this round or the next is drawn nearer, each round
    of walking halving what it gets there (it had stood for the whole fight at
    Legless Gulch, its foes out of one round's walk)."""
    th = _threats("legless_gulch", "miranda_valentine")
    far = [th.blows_later(d) for d in (2, 10, 30, 60)]
    assert far == sorted(far, reverse=True) and far[-1] > 0
    assert th.blows_later(1) == th.blows(1)


def test_a_way_it_does_not_see_is_walked_as_far_as_it_sees() -> None:
    """It walks only where it sees the way (an unseen figure may stand on it), but a
    way it sees only in part is walked to where it stops seeing it — to the corner —
    rather than not at all (the hacienda's brawlers had stood for whole fights)."""
    import random

    from twtw_desktop.geometry.sight import visible
    from twtw_desktop.tactics.planner import Planner
    from twtw_desktop.tactics.ways import seen_part, sees_the_way

    table = sample_in_round("main_street")
    who = "octavio_vaquero"
    pl = Planner(table, who, DeckOdds(table.deck.cards), random.Random(0), set())
    start = table.token_for(who).at
    hexes, cost = pl._reach(start, 6)  # type: ignore[misc]
    walls = table.walls()
    cut = 0
    for h, ap in zip(hexes, cost.tolist(), strict=True):
        if ap == 0 or sees_the_way(table, start, pl._area, h):
            continue
        path = pl._area.path_to(h)
        part, part_ap = seen_part(table, start, pl._area, h)
        n = path.index(part) + 1 if part != start else 0
        assert all(visible(table.map, walls, start, x) for x in path[:n])
        assert not visible(table.map, walls, start, path[n])
        assert part_ap == (int(pl._area[part].cost) if n else 0) <= ap
        cut += 1
    assert cut > 0  # Main Street's corners hide some of Octavio's ways


def test_a_blade_wants_to_stand_next_to_its_foe_a_gun_at_its_distance() -> None:
    import random

    from twtw_desktop.hexgrid import Hex
    from twtw_desktop.tactics.planner import Planner

    table = sample_in_round("legless_gulch")
    odds = DeckOdds(table.deck.cards)
    blade = next(
        c.id
        for c in table.encounter.characters
        if c.side == "hombres" and not foe_of(table, c.id).gun and table.token_for(c.id)
    )
    gun = "miranda_valentine"
    foe = Hex(0, 0)
    at = {d: Hex(d, 0) for d in (1, 8)}
    pb = Planner(table, blade, odds, random.Random(0), set())
    pg = Planner(table, gun, odds, random.Random(0), set())
    assert pb._closing(at[1], [foe], False) > pb._closing(at[8], [foe], False)
    assert pg._closing(at[8], [foe], False) > pg._closing(at[1], [foe], False)


def test_a_foes_shots_are_shared_among_the_npcs_side_in_its_sight() -> None:
    """A gun fires at one figure at a time: an NPC reckons its share of a foe's shots
    as one in as many of its side as that foe sees (itself and its standing allies)."""
    from twtw_desktop.geometry.sight import visible

    table = sample_in_round("main_street")
    me = "angus_laroq"
    foe = table.token_for("miranda_valentine").at
    walls = table.walls()
    allies = [
        c
        for c in table.encounter.characters
        if c.side == "hombres" and c.id != me and table.token_for(c.id) is not None
    ]
    in_sight = sum(1 for c in allies if visible(table.map, walls, foe, table.token_for(c.id).at))
    assert in_sight > 0  # Main Street opens with hombres in Miranda's sight
    assert shares(table, me, [foe]) == [1 + in_sight]
    for c in allies:
        c.unconscious = True  # a fallen ally draws no fire
    assert shares(table, me, [foe]) == [1]
