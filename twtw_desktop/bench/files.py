"""Benchmark figures of the files (they live with the table: they build a map with the
geometry's bench helpers, above io) (``twtw-desktop bench --section files``).

``save_1000`` / ``load_1000``: a 1000×1000 map with 5,000 walls and 200 tokens in one
encounter, saved with :func:`save_encounter` and opened with :func:`open_any`,
against ``json.dumps`` / ``model_validate_json`` of the same data measured in the
same run (targets: 2× and 1.5× of those, and 1 s each). ``validate_at_limits``: a
legal file at the content limits (1000×1000 hexes with elevation, 100,000 features)
through ``validate`` (target 10 s).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from ..io.files import open_any, save_encounter, save_map, validate_file
from ..model import Encounter
from ..model.map import MAX_FEATURES
from ..rules.samples import sample_characters
from . import BenchContext, Measured, figure
from .geometry import make_bench_map, make_tokens

SAVE_RATIO = 2.0
LOAD_RATIO = 1.5
TARGET_S = 1.0
TARGET_LIMITS_S = 10.0


def _encounter_1000(ctx: BenchContext) -> Encounter:
    side = ctx.side(1000)
    m = make_bench_map(side=side, segments=ctx.scaled(5000, 1000))
    tokens = make_tokens(m, 200 if side == 1000 else 20)
    base = next(iter(sample_characters().values()))
    chars = [
        base.model_copy(update={"id": t.character_id, "name": f"N{i}"})
        for i, t in enumerate(tokens)
    ]
    return Encounter(map=m, characters=chars, tokens=tokens)


def _saved(ctx: BenchContext) -> tuple[Encounter, Path]:
    """The 1000×1000 encounter and its file (built once per run)."""

    def build() -> tuple[Encounter, Path]:
        enc = _encounter_1000(ctx)
        tmp = Path(tempfile.mkdtemp(prefix="twtw-bench-"))
        ctx.on_close(lambda: shutil.rmtree(tmp, ignore_errors=True))
        path = tmp / "bench.encounter.json"
        save_encounter(enc, path)
        return enc, path

    return ctx.shared("files-1000", build)


@figure(
    "save_1000", "save a 1000×1000 map, 5,000 walls, 200 tokens (baseline: json.dumps)",
    section="files", target_s=TARGET_S, target_ratio=SAVE_RATIO, ratio_kind="overhead",
    side=1000,
)  # fmt: skip
def save_1000(ctx: BenchContext) -> Measured:
    enc, path = _saved(ctx)
    reps = max(1, min(ctx.reps(), 5))
    data = enc.model_dump(mode="json")
    base = ctx.measure(lambda: json.dumps(data), repeats=reps)
    t = ctx.measure(lambda: save_encounter(enc, path), repeats=reps)
    return Measured(t, base)


@figure(
    "load_1000", "open the 1000×1000 encounter (baseline: model_validate_json)",
    section="files", target_s=TARGET_S, target_ratio=LOAD_RATIO, ratio_kind="overhead",
    side=1000,
)  # fmt: skip
def load_1000(ctx: BenchContext) -> Measured:
    _enc, path = _saved(ctx)
    reps = max(1, min(ctx.reps(), 5))
    text = path.read_bytes()
    base = ctx.measure(lambda: Encounter.model_validate_json(text), repeats=reps)
    t = ctx.measure(lambda: open_any(path), repeats=reps)
    return Measured(t, base)


@figure(
    "validate_at_limits", "validate a legal map at the limits (1000×1000, 100,000 walls)",
    section="files", target_s=TARGET_LIMITS_S, side=1000,
)  # fmt: skip
def validate_at_limits(ctx: BenchContext) -> Measured:
    enc, path = _saved(ctx)
    m = enc.map.model_copy(deep=True) if enc.map is not None else None
    assert m is not None
    f = m.features[0]
    count = MAX_FEATURES if not ctx.quick else MAX_FEATURES // 100
    m.features = [f.model_copy(update={"id": f"f{i}"}) for i in range(count)]
    limits = path.with_name("limits.map.json")
    save_map(m, limits)
    t = ctx.measure(lambda: validate_file(limits), repeats=1)
    return Measured(t, note=f"{limits.stat().st_size // 2**20} MB")
