"""Movement AP costs, reachable area and engagement (000 Movement AP Cost)."""

from __future__ import annotations

import heapq

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.geometry.conftest import side_wall
from twtw_desktop.bench.geometry import make_bench_map, make_tokens, reachable_reference
from twtw_desktop.errors import RulesError
from twtw_desktop.geometry import move_steps, movement
from twtw_desktop.geometry.movement import (
    cheapest_path,
    engaged,
    engagement_break_hexes,
    move_ap,
    path_cost,
    reachable,
    turn_in_place_ap,
)
from twtw_desktop.geometry.walls import WallIndex
from twtw_desktop.hexgrid import DIRECTIONS, Hex, Orientation, hex_to_offset
from twtw_desktop.io import load_encounter
from twtw_desktop.model.map import TERRAIN_CODES, Map, Terrain
from twtw_desktop.resources import maps_dir


def _line(start: Hex, facing: int, n: int) -> list[Hex]:
    return [start + DIRECTIONS[facing].scale(i) for i in range(1, n + 1)]


def _with_terrain(m: Map, hexes, t: Terrain) -> Map:
    for h in hexes:
        m.set_terrain(h, t)
    return m


def test_paces_are_paid_a_move_rate_at_a_time(orientation):
    """000 Movement: one AP buys Move paces (here 4); 9 paces cost 3 AP."""
    m = Map.blank(20, 20, orientation)
    idx = WallIndex(m)
    start = m.hex_at(2, 10)
    pc = path_cost(m, idx, start, 0, _line(start, 0, 9), 4)
    assert pc.ap == 3 and pc.pace_ap == 3 and pc.paces == 9
    assert [s.ap for s in pc.steps] == [1, 0, 0, 0, 1, 0, 0, 0, 1]
    assert pc.breakdown == (("9 pace(s) at Move 4 per AP", 3, "000 Movement AP Cost"),)
    assert pc.facing == 0 and pc.end == start + Hex(9, 0)
    assert not pc.running
    run = path_cost(m, idx, start, 0, [start, *_line(start, 0, 9)], 8, "run")
    assert run.ap == 2 and run.running and run.breakdown[0][0].startswith("9 pace(s) at Run 8")


@pytest.mark.parametrize(
    ("terrain", "paces", "extra_ap"),
    [
        (Terrain.STEEP, 3, 3),  # +1 per pace
        (Terrain.GENTLE, 3, 2),  # +1 per 2 paces, rounded up
        (Terrain.GENTLE, 4, 2),
        (Terrain.LADDER, 2, 2),
        (Terrain.STAIRS, 1, 1),
        (Terrain.STAIRS, 2, 1),
        (Terrain.CLIMB, 2, 4),  # +2 per pace
        (Terrain.ROUGH, 2, 1),  # house: as a gentle grade
        (Terrain.OPEN, 5, 0),
    ],
)
def test_terrain_extras(terrain, paces, extra_ap):
    m = Map.blank(12, 5)
    start = m.hex_at(0, 2)
    path = _line(start, 0, paces)
    _with_terrain(m, path, terrain)
    pc = path_cost(m, WallIndex(m), start, 0, path, 10)
    assert pc.terrain_ap == extra_ap
    assert pc.ap == 1 + extra_ap
    assert sum(s.ap for s in pc.steps) == pc.ap


def test_half_ap_extras_accumulate_before_rounding():
    """A pace of gentle grade then a pace of stairs: ½ + ½ = 1 AP, not 2."""
    m = Map.blank(12, 5)
    start = m.hex_at(0, 2)
    path = _line(start, 0, 2)
    m.set_terrain(path[0], Terrain.GENTLE)
    m.set_terrain(path[1], Terrain.STAIRS)
    pc = path_cost(m, WallIndex(m), start, 0, path, 10)
    assert pc.terrain_ap == 1 and pc.ap == 2
    assert [s.terrain_halves for s in pc.steps] == [1, 1]


def test_grades_cost_nothing_going_down():
    m = Map.blank(8, 3)
    m.elevation = [[10 - c for c in range(8)] for _ in range(3)]
    start = m.hex_at(0, 1)
    path = _line(start, 0, 4)
    _with_terrain(m, path, Terrain.STEEP)
    idx = WallIndex(m)
    down = path_cost(m, idx, start, 0, path, 10)
    assert down.terrain_ap == 0
    assert "downhill" in " ".join(down.steps[0].reasons)
    back = list(reversed([start, *path[:-1]]))
    up = path_cost(m, idx, path[-1], 3, back, 10)
    assert up.terrain_ap == 3  # three steep hexes entered going up; the last is open


def test_a_warm_search_sees_terrain_and_elevation_edits():
    m = Map.blank(8, 1)  # one row: no way round
    m.elevation = [[0] * 8]
    start = m.hex_at(0, 0)
    path = _line(start, 0, 4)
    _with_terrain(m, path, Terrain.STEEP)
    idx = WallIndex(m)
    assert reachable(m, idx, start, 0, 20, 20, 10)[path[-1]].cost == 5  # level: charged
    for row in m.elevation:
        row[:] = [10 - c for c in range(8)]  # edited in place: now downhill
    assert reachable(m, idx, start, 0, 20, 20, 10)[path[-1]].cost == 1
    m.set_terrain(path[1], Terrain.WATER)
    assert path[-1] not in reachable(m, idx, start, 0, 20, 20, 10)


@pytest.mark.parametrize("terrain", [Terrain.WATER, Terrain.IMPASSABLE])
def test_water_and_impassable_cannot_be_walked_into(terrain):
    m = Map.blank(6, 3)
    start = m.hex_at(0, 1)
    m.set_terrain(start.neighbor(0), terrain)
    with pytest.raises(RulesError, match="Nobody walks into"):
        path_cost(m, WallIndex(m), start, 0, [start.neighbor(0)], 5)


def test_refused_steps():
    m = Map.blank(6, 6)
    h = m.hex_at(2, 2)
    m.features = [side_wall(m, h, 0, "wall1")]
    idx = WallIndex(m)
    with pytest.raises(RulesError, match="wall1"):
        path_cost(m, idx, h, 0, [h.neighbor(0)], 5)
    with pytest.raises(RulesError, match="not next to"):
        path_cost(m, idx, h, 0, [h + Hex(2, 0)], 5)
    with pytest.raises(RulesError, match="taken"):
        path_cost(m, idx, h, 2, [h.neighbor(2)], 5, occupied=[h.neighbor(2)])
    with pytest.raises(RulesError, match="off the map"):
        path_cost(m, idx, m.hex_at(0, 0), 3, [m.hex_at(0, 0).neighbor(3)], 5)
    with pytest.raises(RulesError):
        path_cost(m, idx, h, 0, [h.neighbor(1)], 0)
    with pytest.raises(RulesError):
        path_cost(m, idx, h, 0, [h.neighbor(1)], 5, "crawl")


def test_walls_block_movement_and_open_doors_do_not(orientation):
    m = Map.blank(8, 8, orientation)
    h = m.hex_at(3, 3)
    door = side_wall(m, h, 0, "door", kind="door")
    m.features = [door]
    idx = WallIndex(m)
    with pytest.raises(RulesError, match="door"):
        path_cost(m, idx, h, 0, [h.neighbor(0)], 5)
    door.is_open = True
    idx.update_feature(door)
    assert path_cost(m, idx, h, 0, [h.neighbor(0)], 5).ap == 1


@pytest.mark.parametrize(
    ("start_facing", "dirs", "turn_ap"),
    [
        (0, [0, 0, 0], 0),
        (0, [1, 2, 3], 0),  # 60° a pace is free
        (0, [5, 4, 3], 0),
        (0, [2], 1),  # 120° on the first pace
        (0, [0, 2], 1),  # 120° between paces
        (0, [3], 1),  # about-face: the free 60° plus the paid 120°
        (0, [0, 3, 0], 2),
        (1, [0, 5, 4], 0),
    ],
)
def test_facing_during_a_move(start_facing, dirs, turn_ap):
    m = Map.blank(20, 20)
    start = m.hex_at(10, 10)
    path, h = [], start
    for d in dirs:
        h = h.neighbor(d)
        path.append(h)
    pc = path_cost(m, WallIndex(m), start, start_facing, path, 10)
    assert pc.turn_ap == turn_ap
    assert pc.turns_paid == turn_ap
    assert pc.facing == dirs[-1]
    assert pc.ap == 1 + turn_ap


@pytest.mark.parametrize(("a", "b", "ap"), [(0, 0, 0), (0, 1, 1), (0, 5, 1), (0, 2, 2), (0, 3, 2)])
def test_turning_in_place(a, b, ap):
    assert turn_in_place_ap(a, b) == ap
    m = Map.blank(4, 4)
    pc = path_cost(m, WallIndex(m), Hex(1, 1), a, [], 5, end_facing=b)
    assert pc.ap == ap and pc.end_turn_ap == ap and pc.facing == b


def test_end_facing_after_a_move():
    m = Map.blank(10, 10)
    start = m.hex_at(2, 5)
    pc = path_cost(m, WallIndex(m), start, 0, _line(start, 0, 3), 5, end_facing=3)
    assert pc.end_turn_ap == 2 and pc.ap == 3 and pc.facing == 3
    assert pc.breakdown[-1][0] == "turn 180° in place at the end"


# -- property: a path's AP is the sum of its steps -------------------------------------

_CODES = [
    TERRAIN_CODES[t]
    for t in (
        Terrain.OPEN,
        Terrain.ROUGH,
        Terrain.STEEP,
        Terrain.GENTLE,
        Terrain.STAIRS,
        Terrain.LADDER,
        Terrain.CLIMB,
    )
]


@settings(max_examples=60)
@given(
    dirs=st.lists(st.integers(0, 5), min_size=0, max_size=25),
    facing=st.integers(0, 5),
    rate=st.integers(1, 9),
    seed=st.integers(0, 10_000),
    end=st.one_of(st.none(), st.integers(0, 5)),
)
def test_path_ap_is_the_sum_of_its_steps(dirs, facing, rate, seed, end):
    side = 60
    rows = [
        "".join(_CODES[(seed + r * 7 + c * 13) % len(_CODES)] for c in range(side))
        for r in range(side)
    ]
    m = Map(cols=side, rows=side, terrain=rows)
    start = m.hex_at(30, 30)
    path, h = [], start
    for d in dirs:
        h = h.neighbor(d)
        path.append(h)
    pc = path_cost(m, WallIndex(m), start, facing, path, rate, end_facing=end)
    assert pc.ap == sum(s.ap for s in pc.steps) + pc.end_turn_ap
    assert pc.ap == sum(ap for _, ap, _ in pc.breakdown)
    assert (
        pc.ap
        == move_ap(pc.paces, sum(s.terrain_halves for s in pc.steps), pc.turns_paid, rate)
        + pc.end_turn_ap
    )
    assert all(s.ap >= 0 for s in pc.steps)


# -- reachable area ------------------------------------------------------------------------


def _busy_map(orientation=Orientation.POINTY) -> Map:
    m = Map.blank(16, 14, orientation)
    for c in range(4, 9):
        m.set_terrain(m.hex_at(c, 6), Terrain.WATER)
    for c in range(9, 12):
        m.set_terrain(m.hex_at(c, 3), Terrain.STEEP)
        m.set_terrain(m.hex_at(c, 9), Terrain.GENTLE)
    h = m.hex_at(7, 9)
    m.features = [side_wall(m, h, d, f"w{d}") for d in range(0, 4)] + [
        side_wall(m, m.hex_at(3, 3), 0, "door", kind="door", is_open=True)
    ]
    return m


def _reference_units(m, idx, start, facing, rate, occupied=()):
    """Plain Dijkstra over (hex, facing) with no pruning: min unrounded cost per hex, in
    units of 1/(2·rate) AP, for comparison with the pruned search."""
    from twtw_desktop.geometry.movement import TERRAIN_COSTS

    taken = set(occupied) - {start}
    best: dict[tuple[Hex, int], int] = {(start, facing): 0}
    heap = [(0, start.q, start.r, facing)]
    out: dict[Hex, int] = {}
    while heap:
        u, q, r, f = heapq.heappop(heap)
        h = Hex(q, r)
        if best.get((h, f)) != u:
            continue
        out.setdefault(h, u)
        for d in range(6):
            n = h.neighbor(d)
            if not m.contains(n) or n in taken or idx.movement_blocked(h, n):
                continue
            cost = TERRAIN_COSTS[m.terrain_at(n)]
            if not cost.enterable:
                continue
            k = (d - f) % 6
            turn = 0 if k in (0, 1, 5) else 2 * rate
            nu = u + 2 + cost.halves * rate + turn
            if nu < best.get((n, d), 1 << 60):
                best[(n, d)] = nu
                heapq.heappush(heap, (nu, n.q, n.r, d))
    return out


@pytest.mark.parametrize("rate", [1, 3])
def test_reach_costs_match_the_priced_paths_and_a_plain_search(orientation, rate):
    m = _busy_map(orientation)
    idx = WallIndex(m)
    start = m.hex_at(2, 2)
    occupied = [m.hex_at(5, 2), m.hex_at(3, 5)]
    area = reachable(m, idx, start, 0, 30, 4, rate, occupied)
    assert area[start].cost == 0 and area[start].previous is None
    ref = _reference_units(m, idx, start, 0, rate, occupied)
    for h, reach in area.items():
        path = area.path_to(h)
        pc = path_cost(m, idx, start, 0, path, rate, occupied=occupied)
        assert pc.ap == reach.cost
        assert pc.facing == reach.facing
        assert reach.now == (reach.cost <= 4)
        assert (path[-2] if len(path) > 1 else start) == reach.previous or not path
        # the pruned search finds the same cheapest unrounded cost as a plain one
        units = 2 * pc.paces + rate * sum(s.terrain_halves for s in pc.steps)
        units += 2 * rate * pc.turns_paid
        assert units == ref[h]
    assert set(area) == set(ref)
    for h in occupied:
        assert h not in area
    water = m.hex_at(5, 6)
    assert water not in area


def test_reach_is_bounded_by_the_ap():
    m = Map.blank(30, 30)
    idx = WallIndex(m)
    start = m.hex_at(15, 15)
    area = reachable(m, idx, start, 0, 3, 1, 2)
    assert max(r.cost for r in area.values()) <= 3
    assert max(start.distance(h) for h in area) == 6
    assert {h for h, r in area.items() if r.now} == {h for h, r in area.items() if r.cost <= 1}
    ahead, behind = start + Hex(2, 0), start + Hex(-2, 0)
    assert area[ahead].cost == 1 and area[ahead].now
    # facing away, the figure must turn: a paid 120° turn on the first pace
    assert area[behind].cost == 2 and not area[behind].now
    with pytest.raises(RulesError):
        reachable(m, idx, start, 0, -1, 0, 2)
    with pytest.raises(KeyError):
        area.path_to(m.hex_at(0, 0))


def test_a_walled_in_figure_goes_nowhere():
    m = Map.blank(8, 8)
    h = m.hex_at(4, 4)
    m.features = [side_wall(m, h, d, f"w{d}") for d in range(6)]
    idx = WallIndex(m)
    assert set(reachable(m, idx, h, 0, 10, 10, 3)) == {h}
    assert cheapest_path(m, idx, h, 0, m.hex_at(0, 0), 3) is None
    assert engagement_break_hexes(m, idx, h, []) == []


def test_cheapest_path_matches_the_reach(orientation):
    m = _busy_map(orientation)
    idx = WallIndex(m)
    start = m.hex_at(1, 12)
    goal = m.hex_at(14, 1)
    area = reachable(m, idx, start, 2, 100, 0, 2)
    pc = cheapest_path(m, idx, start, 2, goal, 2)
    assert pc is not None and pc.end == goal
    assert pc.ap == area[goal].cost
    assert cheapest_path(m, idx, start, 2, goal, 2, max_ap=1) is None
    assert cheapest_path(m, idx, start, 2, start, 2).ap == 0
    assert cheapest_path(m, idx, start, 2, Hex(-40, -40), 2) is None


def test_engagement():
    m = Map.blank(10, 10)
    a = m.hex_at(4, 4)
    assert engaged(a, a.neighbor(0)) and engaged(a, a)
    assert not engaged(a, a + Hex(2, 0))
    m.features = [side_wall(m, a, 0, "w")]
    idx = WallIndex(m)
    assert not engaged(a, a.neighbor(0), idx)
    enemy = a.neighbor(1)
    free = engagement_break_hexes(m, idx, a, [enemy])
    # the three hexes away from the enemy; d0 is next to him (and walled off), d2 too
    assert set(free) == {a.neighbor(3), a.neighbor(4), a.neighbor(5)}
    taken = engagement_break_hexes(m, idx, a, [enemy], occupied=[a.neighbor(4)])
    assert set(taken) == {a.neighbor(3), a.neighbor(5)}
    assert engagement_break_hexes(m, idx, a, [enemy, a + Hex(-1, 2)]) == [a.neighbor(3)]


# -- the array search against the Python one it replaced ----------------------------------------


def _sample(name: str):
    loaded = load_encounter(maps_dir() / f"{name}.encounter.json")
    return loaded.map, [t.at for t in loaded.encounter.tokens]


@pytest.mark.parametrize("name", ["main_street", "longhorn_saloon", "legless_gulch"])
def test_reach_agrees_with_the_python_search_it_replaced(name):
    """Same cheapest unrounded cost, every rounded cost priced on its own path; the
    rounded AP may differ by one where paths of equal unrounded cost round
    differently (both searches break those ties their own way): on under 2 % of the
    hexes, and never beyond one AP or the AP limit."""
    m, tokens = _sample(name)
    idx = WallIndex(m)
    total = differ = 0
    for start in tokens[:3]:
        for rate, facing in ((1, 0), (3, 2), (8, 5)):
            args = (m, idx, start, facing, 12, 4, rate, tokens)
            new, old = reachable(*args), reachable_reference(*args)
            for h in set(old) ^ set(new):
                # only hexes at the very edge of the budget can come and go
                assert (new.get(h) or old.get(h)).cost >= 11
            for h in set(old) & set(new):
                total += 1
                assert abs(new[h].cost - old[h].cost) <= 1
                differ += new[h].cost != old[h].cost
                assert new[h].now == (new[h].cost <= 4)
            for h in list(new)[::25]:
                pc = path_cost(m, idx, start, facing, new.path_to(h), rate, occupied=tokens)
                assert (pc.ap, pc.facing, pc.paces) == (new[h].cost, new[h].facing, new[h].paces)
    assert differ <= 0.02 * total


def _dijkstra_distances(table, kinds, s0: int, limit: int):
    """The same step table searched by scipy's Dijkstra (the search reach ran on
    before the bucket queue): packed distances, ``inf`` out of reach."""
    csgraph = pytest.importorskip("scipy.sparse.csgraph")
    sparse = pytest.importorskip("scipy.sparse")
    n = len(table.targets) // 4
    live = kinds != move_steps._NO_STEP
    indptr = np.concatenate(([0], np.cumsum(live.reshape(n, 4).sum(axis=1))))
    weights = table.weights[kinds[live]].astype(np.float64)  # exact: below 2**53
    graph = sparse.csr_matrix((weights, table.targets[live], indptr), shape=(n, n))
    return csgraph.dijkstra(graph, indices=s0, limit=float(limit))


@pytest.mark.parametrize(
    ("name", "rate", "ap"),
    [("main_street", 3, 12), ("legless_gulch", 8, 20), ("bench", 8, 20), ("bench", 1, 30)],
)
def test_the_bucket_search_finds_the_distances_of_a_plain_dijkstra(name, rate, ap):
    """Every (hex, facing) state at exactly the packed distance (unrounded cost, then
    extras, turns and paces) a heap-based Dijkstra gives on the same edges — with
    grades taken downhill and occupied hexes patched in — and every path read back
    from those distances adds up to them."""
    if name == "bench":  # elevation, grades, water, walls, doors and windows
        m = make_bench_map(48, 60)
        tokens = [t.at for t in make_tokens(m, 12)]
    else:
        m, tokens = _sample(name)
    idx = WallIndex(m)
    for start in tokens[:2]:
        table = movement._step_table(m, idx, rate, movement._window(m, start, ap * rate))
        k0 = table.key(start)
        s0 = k0 * 6 + 1
        taken = {table.key(h) for h in tokens} - {k0}
        limit = movement._reach_limit(ap * 2 * rate)
        dist, kinds = table.search(m, s0, taken, ap * 2 * rate)
        ref = _dijkstra_distances(table, kinds, s0, limit)
        reached = np.flatnonzero(dist <= limit)
        assert reached.tolist() == np.flatnonzero(np.isfinite(ref)).tolist()
        assert (dist[reached] == ref[reached]).all()
        assert len(reached) > 200
        for state in reached.tolist():
            p = table.previous(dist, kinds, state)
            if state == s0:
                assert p == -1
                continue
            slots = [e for e in range(p * 4, p * 4 + 4) if table.targets[e] == state]
            assert any(dist[p] + table.weights[kinds[e]] == dist[state] for e in slots)


def test_reach_on_a_big_map_searches_a_window_around_the_figure(monkeypatch, orientation):
    m = Map.blank(60, 50, orientation)
    m.features = [side_wall(m, m.hex_at(30, 25), 0, "w")]
    m.elevation = [[(c + r) // 3 % 3 for c in range(60)] for r in range(50)]
    for c in range(27, 34):
        m.set_terrain(m.hex_at(c, 27), Terrain.GENTLE)
        m.set_terrain(m.hex_at(c, 23), Terrain.STEEP)
    idx = WallIndex(m)
    start = m.hex_at(30, 25)
    whole = reachable(m, idx, start, 1, 4, 4, 3)
    monkeypatch.setattr(movement, "WHOLE_MAP_CELLS", 900)
    monkeypatch.setattr(movement, "WINDOW_STEP", 8)
    windowed = reachable(m, idx, start, 1, 4, 4, 3)
    assert movement._window(m, start, 12) != (0, 0, 60, 50)
    assert dict(windowed.items()) == dict(whole.items())
    assert windowed.path_to(m.hex_at(33, 27)) == whole.path_to(m.hex_at(33, 27))


def test_a_long_reach_on_a_big_map_is_searched_within_a_bounded_window(monkeypatch):
    monkeypatch.setattr(movement, "WHOLE_MAP_CELLS", 900)
    monkeypatch.setattr(movement, "WINDOW_STEP", 8)
    m = Map.blank(60, 50)
    c0, r0, c1, r1 = movement._window(m, m.hex_at(30, 25), 200)
    assert (c1 - c0) * (r1 - r0) <= 48 * 48  # 2 × 15 paces each way, rounded out to 8
    area = reachable(m, WallIndex(m), m.hex_at(30, 25), 0, 100, 100, 2)
    cells = {hex_to_offset(h, m.orientation) for h in area}
    assert all(c0 <= c < c1 and r0 <= r < r1 for c, r in cells)
    assert len(area) == (c1 - c0) * (r1 - r0)  # open ground: every hex of the window
