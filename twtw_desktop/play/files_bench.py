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
import tempfile
from pathlib import Path

from ..bench import BenchConfig, Figure, measure, section
from ..geometry.bench import make_bench_map, make_tokens
from ..io.files import open_any, save_encounter, save_map, validate_file
from ..model import Encounter
from ..model.map import MAX_FEATURES
from ..rules.samples import sample_characters

SAVE_RATIO = 2.0
LOAD_RATIO = 1.5
TARGET_S = 1.0
TARGET_LIMITS_S = 10.0


def _encounter_1000() -> Encounter:
    m = make_bench_map(side=1000, segments=5000)
    tokens = make_tokens(m, 200)
    base = next(iter(sample_characters().values()))
    chars = [
        base.model_copy(update={"id": t.character_id, "name": f"N{i}"})
        for i, t in enumerate(tokens)
    ]
    return Encounter(map=m, characters=chars, tokens=tokens)


def file_figures(cfg: BenchConfig):
    """The file figures, with their same-run baselines."""
    enc = _encounter_1000()
    reps = max(1, min(cfg.reps(), 5))
    data = enc.model_dump(mode="json")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.encounter.json"
        base_save = measure(lambda: json.dumps(data), repeats=reps)
        t_save = measure(lambda: save_encounter(enc, path), repeats=reps)
        yield Figure(
            "save_1000",
            t_save,
            min(TARGET_S, SAVE_RATIO * base_save),
            note=f"baseline json.dumps {base_save * 1e3:.1f} ms",
        )
        yield Figure("save_1000 / json.dumps", t_save / base_save, None, kind="ratio")
        text = path.read_bytes()
        base_load = measure(lambda: Encounter.model_validate_json(text), repeats=reps)
        t_load = measure(lambda: open_any(path), repeats=reps)
        yield Figure(
            "load_1000",
            t_load,
            min(TARGET_S, LOAD_RATIO * base_load),
            note=f"baseline model_validate_json {base_load * 1e3:.1f} ms",
        )
        yield Figure("load_1000 / model_validate_json", t_load / base_load, None, kind="ratio")
        if cfg.quick:
            return
        m = enc.map
        assert m is not None
        f = m.features[0]
        m.features = [f.model_copy(update={"id": f"f{i}"}) for i in range(MAX_FEATURES)]
        limits = Path(tmp) / "limits.map.json"
        save_map(m, limits)
        t_lim = measure(lambda: validate_file(limits), repeats=1)
        yield Figure(
            "validate_at_limits",
            t_lim,
            TARGET_LIMITS_S,
            note=f"{limits.stat().st_size // 2**20} MB",
        )


@section("files")
def files_section(cfg: BenchConfig):
    yield from file_figures(cfg)
