"""Fog-of-war figures of the benchmark (part of the geometry section).

``fog_4_viewers_200``: the players' screen's fog ("any part of a hex") for four
viewers on the 200×200 benchmark map with 500 wall segments, by the visibility
polygon (:mod:`.visibility`), against today's sight line per sample point
(:func:`.sight.visible_hexes` with ``any_part``) measured in the same run.
``fog_4_viewers_1000``: the same on 1000×1000 with 5,000 segments; its baseline is
the per-sample method on the 200 map (on 1000 it takes minutes), so its ratio is
not given. The noded walls are cached per wall-index version (a posse move does not
change the walls), so the figures are the cost of one fog update; the first
update after a wall edit also nodes the walls (in the 1000 figure's note).
"""

from __future__ import annotations

from ..geometry.sight import visible_hexes
from ..geometry.visibility import fast_visible_mask
from ..geometry.walls import WallIndex
from ..model.map import Map
from . import BenchContext, Measured, figure
from .geometry import make_bench_map, make_tokens

TARGET_FOG_200 = 50e-3
TARGET_FOG_1000 = 250e-3
TARGET_FOG_SPEEDUP = 20.0


def _bench_map(side: int, segments: int) -> Map:
    return make_bench_map(side, segments)


@figure(
    "fog_4_viewers_200", "players' fog, 4 viewers, any part of a hex, 500 walls (baseline: a sight line per sample point)",
    section="fog", target_s=TARGET_FOG_200, target_ratio=TARGET_FOG_SPEEDUP, side=200,
)  # fmt: skip
def fog_4_viewers_200(ctx: BenchContext) -> Measured:
    reps = max(1, min(ctx.reps(), 7))
    side = ctx.side(200)
    m = _bench_map(side, ctx.scaled(500, 200))
    index = WallIndex(m)
    posse = [t.at for t in make_tokens(m, 4)]
    fast = ctx.measure(lambda: fast_visible_mask(m, index, posse), repeats=reps)
    base = ctx.measure(
        lambda: visible_hexes(m, index, posse, any_part=True), repeats=max(1, min(reps, 3))
    )
    same = int(fast_visible_mask(m, index, posse).sum()) == len(
        visible_hexes(m, index, posse, any_part=True)
    )
    return Measured(fast, base, note=f"same hex count: {same}")


@figure(
    "fog_4_viewers_1000", "players' fog, 4 viewers, any part of a hex, 5,000 walls",
    section="fog", target_s=TARGET_FOG_1000, side=1000,
)  # fmt: skip
def fog_4_viewers_1000(ctx: BenchContext) -> Measured:
    reps = max(1, min(ctx.reps(), 7))
    side = ctx.side(1000)
    big = _bench_map(side, ctx.scaled(5000, 1000))
    index = WallIndex(big)
    posse = [t.at for t in make_tokens(big, 4)]
    cold = ctx.measure(
        lambda: fast_visible_mask(big, index, posse),
        repeats=1,
        before=lambda: index._memo.clear(),
    )
    t = ctx.measure(lambda: fast_visible_mask(big, index, posse), repeats=reps)
    return Measured(
        t,
        note=f"first update after a wall edit (nodes the walls) {cold * 1e3:.0f} ms; no "
        "same-size baseline (a sight line per sample takes minutes here: see "
        "fog_4_viewers_200)",
    )
