"""Geometry section of the project benchmark (``python -m twtw_desktop.bench``).

Everything is measured on one generated 200×200 map with 500 wall segments and 50
tokens (:func:`make_bench_map`, fixed seed), in the same run, so the ratios compare
like with like.
"""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

from ..bench import BenchConfig, Figure, measure, section
from ..hexgrid import Hex, Orientation
from ..model.encounter import Token
from ..model.map import TERRAIN_CODES, Feature, Map, Terrain
from ..rules.editions import load_edition
from .fields import field_of_fire
from .movement import TERRAIN_COSTS, cheapest_path, reachable
from .sight import cover_line, visible_hexes
from .walls import PACE, WallIndex

SEED = 1873
MAP_SIDE = 200
WALL_SEGMENTS = 500
TOKENS = 50

#: targets from the issue (seconds, or a factor for ratios)
TARGET_LOS = 5e-6
TARGET_LOS_SPEEDUP = 5.0
TARGET_CROSSINGS = 30e-6
TARGET_ARC = 10e-3
TARGET_REACH = 5e-3
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
            f = Feature(id=f"w{i}", kind="wall", points=pts, material="adobe")
        elif roll < 0.82:
            f = Feature(id=f"c{i}", kind="cover", height="low", points=pts, material="hardwood")
        elif roll < 0.92:
            f = Feature(id=f"d{i}", kind="door", points=pts[:2], is_open=rng.random() < 0.4)
            n = 1
        else:
            f = Feature(id=f"g{i}", kind="window", points=pts[:2], material="glass")
            n = 1
        feats.append(f)
        made += n
    m.features = feats
    return m


def make_tokens(game_map: Map, count: int = TOKENS, seed: int = SEED) -> list[Token]:
    """``count`` tokens on distinct walkable hexes."""
    rng = random.Random(seed + 1)
    taken: set[Hex] = set()
    out = []
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


def _brute_blocks(walls: list[tuple[float, float, float, float]], a, b) -> bool:
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


@section("geometry")
def geometry_section(cfg: BenchConfig):
    reps = cfg.reps()
    m = make_bench_map()
    tokens = make_tokens(m)
    edition = load_edition("ap_v2")
    index = WallIndex.for_edition(m, edition)
    centres = [index.centre(t.at) for t in tokens]
    pairs = [(a, b) for i, a in enumerate(centres) for j, b in enumerate(centres) if i != j]
    rng = random.Random(SEED)
    rng.shuffle(pairs)
    pairs = pairs[: (300 if cfg.quick else 2000)]

    # line of sight yes/no, and the brute-force loop it replaces
    def los_all():
        for a, b in pairs:
            index.blocks_sight(a, b)

    t_los = measure(los_all, repeats=reps) / len(pairs)
    yield Figure("line of sight yes/no, 500 walls (per query)", t_los, TARGET_LOS)
    sight_walls = [
        (a[0], a[1], b[0], b[1])
        for f in m.features
        if f.blocks_sight
        for a, b in zip(f.points, f.points[1:], strict=False)
    ]
    few = pairs[: (30 if cfg.quick else 200)]

    def brute_all():
        for a, b in few:
            _brute_blocks(sight_walls, a, b)

    def los_few():
        for a, b in few:
            index.blocks_sight(a, b)

    t_brute = measure(brute_all, repeats=max(1, reps // 3)) / len(few)
    t_los_few = measure(los_few, repeats=reps) / len(few)
    agree = all(_brute_blocks(sight_walls, a, b) == index.blocks_sight(a, b) for a, b in few)
    yield Figure(
        "line of sight: brute-force loop over the walls (per query)",
        t_brute,
        None,
        note=f"{len(sight_walls)} sight-blocking segments, stops at the first hit; "
        f"answers agree: {agree}",
    )
    yield Figure(
        "line of sight speed-up over brute force (same queries)",
        t_brute / t_los_few,
        TARGET_LOS_SPEEDUP,
        "ratio",
    )

    def crossings_all():
        for a, b in pairs:
            index.crossings(a, b)

    t_cross = measure(crossings_all, repeats=reps) / len(pairs)
    yield Figure("cover crossings with wall identities (per query)", t_cross, TARGET_CROSSINGS)

    near = [(s, t) for s in tokens[:10] for t in tokens if 0 < s.at.distance(t.at) <= 30][:100]

    def cover_lines():
        for s, t in near:
            cover_line(m, index, s.at, t.at, t.posture, edition)

    t_cover = measure(cover_lines, repeats=max(1, reps // 3)) / max(1, len(near))
    yield Figure("cover line, 7 sight lines with hit locations (per target)", t_cover, None)

    shooter = tokens[0]
    t_arc = measure(
        lambda: field_of_fire(m, index, shooter.at, shooter.facing, 120, 30, with_sight=True),
        repeats=reps,
    )
    fof = field_of_fire(m, index, shooter.at, shooter.facing, 120, 30, with_sight=True)
    yield Figure(
        "120° field of fire to 30 paces with sight to every hex",
        t_arc,
        TARGET_ARC,
        note=f"{len(fof.hexes)} hexes, {len(fof.visible)} in sight",
    )

    occupied = [t.at for t in tokens]
    mover = tokens[1]
    reachable(m, index, mover.at, mover.facing, 20, 20, 1, occupied)  # build caches once
    t_reach = measure(
        lambda: reachable(m, index, mover.at, mover.facing, 20, 20, 1, occupied), repeats=reps
    )
    area = reachable(m, index, mover.at, mover.facing, 20, 20, 1, occupied)
    yield Figure(
        "reachable area with facing, 20 AP at 1 pace per AP",
        t_reach,
        TARGET_REACH,
        note=f"{len(area)} hexes",
    )
    t_reach8 = measure(
        lambda: reachable(m, index, mover.at, mover.facing, 20, 20, 8, occupied),
        repeats=max(1, min(reps, 3)),
    )
    area8 = reachable(m, index, mover.at, mover.facing, 20, 20, 8, occupied)
    yield Figure(
        "reachable area with facing, 20 AP at Move 8 (most of the map)",
        t_reach8,
        None,
        note=f"{len(area8)} hexes",
    )

    far_goal = max(
        (t.at.neighbor(3) for t in tokens[2:]),
        key=lambda h: mover.at.distance(h) if mover.at.distance(h) <= 120 else -1,
    )
    t_path = measure(
        lambda: cheapest_path(m, index, mover.at, mover.facing, far_goal, 8, occupied),
        repeats=max(1, min(reps, 5)),
    )
    plan = cheapest_path(m, index, mover.at, mover.facing, far_goal, 8, occupied)
    yield Figure(
        "cheapest path with facing at Move 8 (A*)",
        t_path,
        None,
        note=f"{mover.at.distance(far_goal)} paces apart, {plan.ap if plan else '-'} AP",
    )

    door = next(f for f in m.features if f.kind == "door")

    def edit_door():
        door.is_open = not door.is_open
        index.update_feature(door)

    t_edit = measure(edit_door, repeats=max(reps, 5))
    wall = next(f for f in m.features if f.kind == "wall")

    def move_wall():
        wall.points = [(x + 0.01, y) for x, y in wall.points]
        index.update_feature(wall)

    t_move = measure(move_wall, repeats=max(reps, 5))
    yield Figure("rebuild the wall index after one door is opened/closed", t_edit, TARGET_REBUILD)
    yield Figure("rebuild the wall index after one wall is moved", t_move, TARGET_REBUILD)

    posse = [t.at for t in tokens[:4]]
    t_fog = measure(lambda: visible_hexes(m, index, posse), repeats=max(1, min(reps, 3)))
    yield Figure("fog of war: hexes 4 posse members see (whole map)", t_fog, None)
    from .fog_bench import fog_figures

    yield from fog_figures(cfg)

    text = m.model_dump_json()
    t_load = measure(lambda: Map.model_validate_json(text), repeats=max(1, min(reps, 5)))
    yield Figure(
        "load and validate the 200×200 map from JSON (pydantic)",
        t_load,
        TARGET_LOAD,
        note=f"{len(text) // 1024} KiB",
    )
    try:
        from ..io.files import load_map, save_map
    except ImportError:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.twtwmap"
        try:
            save_map(m, path)
        except Exception as e:  # report it; one failing figure must not stop the run
            yield Figure("load the 200×200 map with io.load_map", float("nan"), None, note=str(e))
            return
        t_io = measure(lambda: load_map(path), repeats=max(1, min(reps, 5)))
    yield Figure("load the 200×200 map with io.load_map", t_io, TARGET_LOAD)
