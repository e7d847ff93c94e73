"""The UI benchmark runs and reports every figure (its timings are not asserted here:
the benchmark command prints them against their targets)."""

from __future__ import annotations

from twtw_desktop.bench import Figure
from twtw_desktop.ui import bench_ui


def test_ui_benchmark_runs_on_a_small_map(qapp):
    figs = list(bench_ui.measure_ui(24, 30, 6, frames=4, quick=True, startup=False))
    names = [f.name for f in figs]
    assert all(isinstance(f, Figure) for f in figs)
    assert any("pan frame at 100 %" in n for n in names)
    assert any("cold tile cache" in n for n in names)
    assert any("whole map in view" in n for n in names)
    ratio = next(f for f in figs if f.kind == "ratio")
    assert ratio.target == bench_ui.TARGET_RATIO and ratio.value > 0
    assert all(f.value > 0 for f in figs if f.kind == "time")


def test_benchmark_document_has_the_requested_size(qapp):
    doc = bench_ui.make_document(20, 25, 5)
    assert doc.map.cols == 20 and len(doc.map.features) > 0
    assert len(doc.encounter.tokens) == 5
    assert {c.side for c in doc.encounter.characters} == {"posse", "hombres"}
