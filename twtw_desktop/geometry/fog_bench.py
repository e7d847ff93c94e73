"""Fog-of-war figures of the benchmark (part of the geometry section).

``fog_4_viewers_200``: the players' screen's fog ("any part of a hex") for four
viewers on the 200×200 benchmark map with 500 wall segments, by the visibility
polygon (:mod:`.visibility`), against today's sight line per sample point
(:func:`.sight.visible_hexes` with ``any_part``) measured in the same run.
``fog_4_viewers_1000``: the same on 1000×1000 with 5,000 segments; its baseline is
the per-sample method on the 200 map (on 1000 it takes minutes), so its ratio is
not given. The noded walls are cached per wall-index version (a posse move does not
change the walls), so the figures are the cost of one fog update; the first
update after a wall edit also nodes the walls (``…_cold``).
"""

from __future__ import annotations

import contextlib
from unittest import mock

from ..bench import BenchConfig, Figure, measure
from ..model.map import MAX_MAP_SIDE, Map
from .sight import visible_hexes
from .visibility import fast_visible_mask
from .walls import WallIndex

TARGET_FOG_200 = 50e-3
TARGET_FOG_1000 = 250e-3
TARGET_FOG_SPEEDUP = 20.0


def _figure(name: str, median: float, target: float, baseline: float | None, size: int, note):
    """A figure with its baseline and ratio in the note (and in the fields of the
    same names when :class:`Figure` has them)."""
    fields = getattr(Figure, "__dataclass_fields__", {})
    extra = {}
    ratio = baseline / median if baseline else None
    for key, value in (
        ("target_s", target),
        ("baseline_s", baseline),
        ("baseline", baseline),
        ("ratio", ratio),
        ("size", size),
    ):
        if key in fields and value is not None:
            extra[key] = value
    return Figure(name, median, target, note=note, **extra)


def _bench_map(side: int, segments: int) -> tuple[Map, str]:
    """The benchmark map of that size; above the model's side limit it is built
    without validation (the limit is being raised to 1000)."""
    from . import bench as gb

    if side <= MAX_MAP_SIDE:
        return gb.make_bench_map(side, segments), ""
    patch = mock.patch.object(gb, "Map", lambda **kw: Map.model_construct(**kw))
    with patch:
        m = gb.make_bench_map(side, segments)
    return m, f"built past the model's {MAX_MAP_SIDE}-hex limit"


def fog_figures(cfg: BenchConfig):
    from .bench import make_tokens

    reps = max(1, min(cfg.reps(), 7))
    m, _ = _bench_map(200, 500)
    index = WallIndex(m)
    posse = [t.at for t in make_tokens(m, 4)]
    fast = measure(lambda: fast_visible_mask(m, index, posse), repeats=reps)
    base = measure(
        lambda: visible_hexes(m, index, posse, any_part=True), repeats=max(1, min(reps, 3))
    )
    same = int(fast_visible_mask(m, index, posse).sum()) == len(
        visible_hexes(m, index, posse, any_part=True)
    )
    yield _figure(
        "fog_4_viewers_200",
        fast,
        TARGET_FOG_200,
        base,
        200,
        f"baseline (sight line per sample) {base * 1e3:.0f} ms; same hex count: {same}",
    )
    yield Figure(
        "fog_4_viewers_200 speed-up over sight lines", base / fast, TARGET_FOG_SPEEDUP, "ratio"
    )
    if cfg.quick:
        return
    with contextlib.suppress(MemoryError):
        big, how = _bench_map(1000, 5000)
        bindex = WallIndex(big)
        bposse = [t.at for t in make_tokens(big, 4)]
        cold = measure(
            lambda: fast_visible_mask(big, bindex, bposse),
            repeats=1,
            before=lambda: bindex._memo.clear(),
        )
        t_big = measure(lambda: fast_visible_mask(big, bindex, bposse), repeats=reps)
        yield _figure(
            "fog_4_viewers_1000",
            t_big,
            TARGET_FOG_1000,
            None,
            1000,
            f"5,000 segments; {how + '; ' if how else ''}first update after a wall edit "
            f"(nodes the walls) {cold * 1e3:.0f} ms; no same-size baseline (the sight "
            "line per sample takes minutes here: see fog_4_viewers_200)",
        )
