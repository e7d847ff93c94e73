"""Geometry figures of the project benchmark (``twtw-desktop bench --section geometry``).

The ``*_200`` figures are measured on one generated 200×200 map with 500 wall
segments and 50 tokens, the ``*_1000`` ones on a 1000×1000 map with 5,000 walls and
200 tokens (:func:`make_bench_map`, fixed seed), all in the same run, so the ratios
compare like with like. Adding a figure: one function registered with
:func:`~twtw_desktop.bench.figure` (see that module).
"""

from __future__ import annotations

import math
import random
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ..geometry.fields import field_of_fire
from ..geometry.move_search import _Search
from ..geometry.movement import TERRAIN_COSTS, Reach, cheapest_path, reachable
from ..geometry.sight import cover_line, visible_hexes
from ..geometry.walls import PACE, Point, WallIndex
from ..hexgrid import Hex, Orientation
from ..io.files import load_map, save_map
from ..model.encounter import Token
from ..model.map import TERRAIN_CODES, CoverHeight, Feature, Map, Material, Terrain
from ..rules.editions import load_edition
from . import BenchContext, Measured, figure

SEED = 1873
MAP_SIDE = 200
WALL_SEGMENTS = 500
TOKENS = 50
#: the big map of the issue: walls and tokens at 1000 a side
BIG_SIDE = 1000
BIG_WALL_SEGMENTS = 5000
BIG_TOKENS = 200

#: targets from the issue (seconds, or a factor for ratios)
TARGET_LOS = 5e-6
TARGET_LOS_SPEEDUP = 5.0
TARGET_CROSSINGS = 30e-6
TARGET_ARC = 10e-3
TARGET_REACH = 5e-3
TARGET_REACH_ROUND = 30e-3
TARGET_REACH_ROUND_SPEEDUP = 10.0
TARGET_REBUILD = 1e-3
TARGET_LOAD = 0.5


def make_bench_map(
    side: int = MAP_SIDE,
    segments: int = WALL_SEGMENTS,
    seed: int = SEED,
    orientation: Orientation = Orientation.POINTY,
) -> Map:
    """A reproducible busy map: patches of rough ground, grades and water, gentle
    hills of elevation, and ``segments`` wall segments in short polylines — walls,
    low cover, doors (some open) and windows."""
    rng = random.Random(seed)
    rows = [["."] * side for _ in range(side)]
    patches = [
        (Terrain.ROUGH, 60),
        (Terrain.GENTLE, 40),
        (Terrain.STEEP, 20),
        (Terrain.WATER, 15),
        (Terrain.STAIRS, 10),
    ]
    for terrain, count in patches:
        code = TERRAIN_CODES[terrain]
        for _ in range(count):
            c0, r0 = rng.randrange(side), rng.randrange(side)
            w, h = rng.randint(2, 7), rng.randint(2, 7)
            for r in range(r0, min(side, r0 + h)):
                for c in range(c0, min(side, c0 + w)):
                    rows[r][c] = code
    elevation = [
        [int(3 * math.sin(c / 17.0) + 3 * math.cos(r / 23.0)) for c in range(side)]
        for r in range(side)
    ]
    m = Map(
        name="bench",
        cols=side,
        rows=side,
        orientation=orientation,
        terrain=["".join(r) for r in rows],
        elevation=elevation,
    )
    lay = m.layout()
    width = lay.hex_to_pixel(m.hex_at(side - 1, 0))[0]
    height = lay.hex_to_pixel(m.hex_at(0, side - 1))[1]
    feats: list[Feature] = []
    made = 0
    i = 0
    while made < segments:
        i += 1
        n = min(rng.randint(1, 3), segments - made)
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        pts = [(x, y)]
        ang = rng.uniform(0, 2 * math.pi)
        for _ in range(n):
            length = rng.uniform(2, 8) * PACE
            x, y = x + length * math.cos(ang), y + length * math.sin(ang)
            pts.append((x, y))
            ang += rng.choice((-1, 1)) * math.pi / 2
        roll = rng.random()
        if roll < 0.7:
            f = Feature(id=f"w{i}", kind="wall", points=pts, material=Material.ADOBE)
        elif roll < 0.82:
            f = Feature(
                id=f"c{i}",
                kind="cover",
                height=CoverHeight.LOW,
                points=pts,
                material=Material.HARDWOOD,
            )
        elif roll < 0.92:
            f = Feature(id=f"d{i}", kind="door", points=pts[:2], is_open=rng.random() < 0.4)
            n = 1
        else:
            f = Feature(id=f"g{i}", kind="window", points=pts[:2], material=Material.GLASS)
            n = 1
        feats.append(f)
        made += n
    m.features = feats
    return m


def make_tokens(game_map: Map, count: int = TOKENS, seed: int = SEED) -> list[Token]:
    """``count`` tokens on distinct walkable hexes."""
    rng = random.Random(seed + 1)
    taken: set[Hex] = set()
    out: list[Token] = []
    while len(out) < count:
        h = game_map.hex_at(rng.randrange(game_map.cols), rng.randrange(game_map.rows))
        if h in taken or not TERRAIN_COSTS[game_map.terrain_at(h)].enterable:
            continue
        taken.add(h)
        out.append(
            Token(
                id=f"t{len(out)}",
                character_id=f"c{len(out)}",
                hex=(h.q, h.r),
                facing=rng.randrange(6),
            )
        )
    return out


def _brute_blocks(walls: list[tuple[float, float, float, float]], a: Point, b: Point) -> bool:
    """The loop the index replaces: test every sight-blocking segment in Python."""
    ax, ay = a
    bx, by = b
    for sx, sy, tx, ty in walls:
        d1 = (tx - sx) * (ay - sy) - (ty - sy) * (ax - sx)
        d2 = (tx - sx) * (by - sy) - (ty - sy) * (bx - sx)
        d3 = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax)
        d4 = (bx - ax) * (ty - ay) - (by - ay) * (tx - ax)
        if d1 * d2 <= 0 and d3 * d4 <= 0:
            return True
    return False


def reachable_reference(
    game_map: Map,
    index: WallIndex,
    start: Hex,
    facing: int,
    ap_available: int,
    counters_present: int,
    move_rate: int,
    occupied: Iterable[Hex] = (),
) -> dict[Hex, Reach]:
    """The reachable area as :func:`~.movement.reachable` computed it before it ran on
    arrays: the pruned Dijkstra in Python (the one :func:`~.movement.cheapest_path`
    still runs as A*). The benchmark's baseline and the tests' oracle."""
    search = _Search(game_map, index, start, facing, move_rate, occupied, ap_available)
    rank: dict[int, tuple[int, int, int]] = {}
    packed = search.packed
    aps = search.aps
    for st, u in search.best.items():
        ap = aps[st]
        hk = st >> 3
        old = rank.get(hk)
        if old is None or ap < old[0] or (ap == old[0] and u < old[1]):
            rank[hk] = (ap, u, st)
    to_hex = search.grid.hex
    prev = search.prev
    out: dict[Hex, Reach] = {}
    for hk, (ap, _, st) in rank.items():
        p = prev.get(st)
        out[to_hex(hk)] = Reach(
            ap,
            st & 7,
            to_hex(p >> 3) if p is not None else None,
            packed[st] >> 24,
            ap <= counters_present,
        )
    return out


class World:
    """One benchmark map with its tokens, edition and wall index."""

    def __init__(self, side: int, segments: int, tokens: int) -> None:
        self.map = make_bench_map(side, segments)
        self.tokens = make_tokens(self.map, tokens)
        self.edition = load_edition("ap_v2")
        self.index = WallIndex.for_edition(self.map, self.edition)


def world(ctx: BenchContext, nominal: int = MAP_SIDE) -> World:
    """The shared benchmark world named for a ``nominal`` side: 200 → 500 walls and 50
    tokens, 1000 → 5,000 walls and 200 tokens (scaled down with the side in quick runs)."""
    walls, tokens = (
        (BIG_WALL_SEGMENTS, BIG_TOKENS) if nominal >= BIG_SIDE else (WALL_SEGMENTS, TOKENS)
    )
    side = ctx.side(nominal)
    segs, toks = ctx.scaled(walls, nominal), ctx.scaled(tokens, nominal)
    return ctx.shared(("world", side, segs, toks), lambda: World(side, segs, toks))


def _sight_pairs(ctx: BenchContext, w: World, count: int) -> list:
    centres = [w.index.centre(t.at) for t in w.tokens]
    pairs = [(a, b) for i, a in enumerate(centres) for j, b in enumerate(centres) if i != j]
    random.Random(SEED).shuffle(pairs)
    return pairs[:count]


@figure(
    "los_query_200", "line of sight yes/no, 500 walls (per query; baseline: a brute-force loop over the walls)",
    section="geometry", target_s=TARGET_LOS, target_ratio=TARGET_LOS_SPEEDUP, side=MAP_SIDE,
)  # fmt: skip
def los_query_200(ctx: BenchContext) -> Measured:
    w = world(ctx)
    pairs = _sight_pairs(ctx, w, 60 if ctx.quick else 400)
    sight_walls = [
        (a[0], a[1], b[0], b[1])
        for f in w.map.features
        if f.blocks_sight
        for a, b in zip(f.points, f.points[1:], strict=False)
    ]

    def brute_all() -> None:
        for a, b in pairs:
            _brute_blocks(sight_walls, a, b)

    def los_all() -> None:
        for a, b in pairs:
            w.index.blocks_sight(a, b)

    t_brute = ctx.measure(brute_all, repeats=max(1, ctx.reps() // 3)) / len(pairs)
    t_los = ctx.measure(los_all) / len(pairs)
    agree = all(_brute_blocks(sight_walls, a, b) == w.index.blocks_sight(a, b) for a, b in pairs)
    return Measured(
        t_los,
        t_brute,
        note=f"{len(sight_walls)} sight-blocking segments, same queries; answers agree: {agree}",
    )


@figure(
    "crossings_200", "cover crossings with wall identities (per query)",
    section="geometry", target_s=TARGET_CROSSINGS, side=MAP_SIDE,
)  # fmt: skip
def crossings_200(ctx: BenchContext) -> float:
    w = world(ctx)
    pairs = _sight_pairs(ctx, w, 300 if ctx.quick else 2000)

    def crossings_all() -> None:
        for a, b in pairs:
            w.index.crossings(a, b)

    return ctx.measure(crossings_all) / len(pairs)


@figure(
    "cover_line_200", "cover line, 7 sight lines with hit locations (per target)",
    section="geometry", side=MAP_SIDE,
)  # fmt: skip
def cover_line_200(ctx: BenchContext) -> float:
    w = world(ctx)
    near = [(s, t) for s in w.tokens[:10] for t in w.tokens if 0 < s.at.distance(t.at) <= 30]
    near = near[:100]

    def cover_lines() -> None:
        for s, t in near:
            cover_line(w.map, w.index, s.at, t.at, t.posture, w.edition)

    return ctx.measure(cover_lines, repeats=max(1, ctx.reps() // 3)) / max(1, len(near))


@figure(
    "field_of_fire_200", "120° field of fire to 30 paces with sight to every hex",
    section="geometry", target_s=TARGET_ARC, side=MAP_SIDE,
)  # fmt: skip
def field_of_fire_200(ctx: BenchContext) -> Measured:
    w = world(ctx)
    s = w.tokens[0]
    fof = field_of_fire(w.map, w.index, s.at, s.facing, 120, 30, with_sight=True)
    t = ctx.measure(lambda: field_of_fire(w.map, w.index, s.at, s.facing, 120, 30, with_sight=True))
    return Measured(t, note=f"{len(fof.hexes)} hexes, {len(fof.visible)} in sight")


def _reach_args(w: World) -> tuple[Token, list[Hex]]:
    mover = w.tokens[1]
    return mover, [t.at for t in w.tokens]


@figure(
    "reach_ap20_200", "reachable area with facing, 20 AP at 1 pace per AP",
    section="geometry", target_s=TARGET_REACH, side=MAP_SIDE,
)  # fmt: skip
def reach_ap20_200(ctx: BenchContext) -> Measured:
    w = world(ctx)
    mover, occupied = _reach_args(w)
    area = reachable(w.map, w.index, mover.at, mover.facing, 20, 20, 1, occupied)
    t = ctx.measure(lambda: reachable(w.map, w.index, mover.at, mover.facing, 20, 20, 1, occupied))
    return Measured(t, note=f"{len(area)} hexes")


@figure(
    "reach_round_200", "reach for a whole round, 20 AP × Move 8 (most of the map)",
    section="geometry", target_s=TARGET_REACH_ROUND, target_ratio=TARGET_REACH_ROUND_SPEEDUP,
    side=MAP_SIDE,
)  # fmt: skip
def reach_round_200(ctx: BenchContext) -> Measured:
    w = world(ctx)
    mover, occupied = _reach_args(w)
    args = (w.map, w.index, mover.at, mover.facing, 20, 20, 8, occupied)
    area = reachable(*args)  # builds the step table once (kept until the walls change)
    reps = max(1, min(ctx.reps(), 5))
    old = ctx.measure(lambda: reachable_reference(*args), repeats=reps)
    t = ctx.measure(lambda: reachable(*args), repeats=ctx.reps())
    ref = reachable_reference(*args)
    same = sum(1 for h, r in ref.items() if h in area and area[h].cost == r.cost)
    return Measured(
        t,
        old,
        note=f"{len(area)} hexes; baseline: the Python Dijkstra it replaced; "
        f"same AP on {same}/{len(ref)} of its hexes",
    )


@figure(
    "path_move8_200", "cheapest path with facing at Move 8 (A*)", section="geometry", side=MAP_SIDE
)
def path_move8_200(ctx: BenchContext) -> Measured:
    w = world(ctx)
    mover, occupied = _reach_args(w)
    far_goal = max(
        (t.at.neighbor(3) for t in w.tokens[2:]),
        key=lambda h: mover.at.distance(h) if mover.at.distance(h) <= 120 else -1,
    )
    t = ctx.measure(
        lambda: cheapest_path(w.map, w.index, mover.at, mover.facing, far_goal, 8, occupied),
        repeats=max(1, min(ctx.reps(), 5)),
    )
    plan = cheapest_path(w.map, w.index, mover.at, mover.facing, far_goal, 8, occupied)
    return Measured(
        t, note=f"{mover.at.distance(far_goal)} paces apart, {plan.ap if plan else '-'} AP"
    )


def _door_edit(ctx: BenchContext, w: World) -> float:
    door = next(f for f in w.map.features if f.kind == "door")

    def edit_door() -> None:
        door.is_open = not door.is_open
        w.index.update_feature(door)

    return ctx.measure(edit_door, repeats=max(ctx.reps(), 5))


def _wall_move(ctx: BenchContext, w: World, *, full_rebuild: bool = False) -> float:
    wall = next(f for f in w.map.features if f.kind == "wall")

    def move_wall() -> None:
        wall.points = [(x + 0.01, y) for x, y in wall.points]
        w.index.update_feature(wall)
        if full_rebuild:
            w.index._refresh()  # what every edit did before the index was incremental

    return ctx.measure(move_wall, repeats=max(ctx.reps(), 5 if ctx.quick else 60))


@figure(
    "door_edit_200", "update the wall index after one door is opened/closed, 500 walls",
    section="geometry", target_s=TARGET_REBUILD, side=MAP_SIDE,
)  # fmt: skip
def door_edit_200(ctx: BenchContext) -> float:
    return _door_edit(ctx, world(ctx))


@figure(
    "wall_edit_200", "update the wall index after one wall is moved, 500 walls",
    section="geometry", target_s=TARGET_REBUILD, side=MAP_SIDE,
)  # fmt: skip
def wall_edit_200(ctx: BenchContext) -> float:
    return _wall_move(ctx, world(ctx))


@figure(
    "wall_edit_1000", "update the wall index after one wall is moved, 5,000 walls (baseline: rebuilt whole)",
    section="geometry", target_s=TARGET_REBUILD, side=BIG_SIDE,
)  # fmt: skip
def wall_edit_1000(ctx: BenchContext) -> Measured:
    w = world(ctx, BIG_SIDE)
    base = _wall_move(ctx, w, full_rebuild=True)
    return Measured(_wall_move(ctx, w), base, note="baseline: the whole index rebuilt per edit")


@figure(
    "fog_centres_4_viewers_200", "fog of war: hexes 4 posse members see, centre to centre (whole map)",
    section="geometry", side=MAP_SIDE,
)  # fmt: skip
def fog_centres_4_viewers_200(ctx: BenchContext) -> float:
    w = world(ctx)
    posse = [t.at for t in w.tokens[:4]]
    return ctx.measure(
        lambda: visible_hexes(w.map, w.index, posse), repeats=max(1, min(ctx.reps(), 3))
    )


@figure(
    "validate_json_200", "load and validate the 200×200 map from JSON (pydantic)",
    section="geometry", target_s=TARGET_LOAD, side=MAP_SIDE,
)  # fmt: skip
def validate_json_200(ctx: BenchContext) -> Measured:
    text = world(ctx).map.model_dump_json()
    t = ctx.measure(lambda: Map.model_validate_json(text), repeats=max(1, min(ctx.reps(), 5)))
    return Measured(t, note=f"{len(text) // 1024} KiB")


@figure(
    "load_map_200", "load the 200×200 map with io.load_map",
    section="geometry", target_s=TARGET_LOAD, side=MAP_SIDE,
)  # fmt: skip
def load_map_200(ctx: BenchContext) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.twtwmap"
        save_map(world(ctx).map, path)
        return ctx.measure(lambda: load_map(path), repeats=max(1, min(ctx.reps(), 5)))
