"""The UI benchmark figures run on a small map and report what they measure (their
timings are not asserted here: the benchmark command prints them against their
targets). Rewritten when the figures became registered functions (``measure_ui`` is
gone)."""

from __future__ import annotations

import pytest

from twtw_desktop import bench
from twtw_desktop.bench import ui as bench_ui

FAST = [
    "build_view_200",
    "pan_frame_200",
    "zoom_cold_200",
    "whole_map_warm_200",
    "whole_map_cold_200",
    "move_undo_200_tokens",
    "next_segment_200_tokens",
    "pan_frame_1000",
    "whole_map_warm_1000",
]


def test_ui_figures_run_on_a_small_map(qapp):
    specs = [bench.FIGURES[n] for n in FAST]
    cfg = bench.BenchConfig(quick=True, repeats=1, max_side=24)
    figs = {f.name: f for f in bench.run_figures(specs, cfg, echo=False)}
    assert set(figs) == set(FAST)
    assert all(not f.error for f in figs.values()), [f.error for f in figs.values()]
    assert all(f.median_s > 0 for f in figs.values())
    pan = figs["pan_frame_200"]
    assert pan.target_ratio == bench_ui.TARGET_RATIO and pan.ratio > 0
    assert figs["pan_frame_1000"].size == "24×24"


def test_benchmark_document_has_the_requested_size(qapp):
    doc = bench_ui.make_document(20, 25, 5)
    assert doc.map.cols == 20 and len(doc.map.features) > 0
    assert len(doc.encounter.tokens) == 5
    assert {c.side for c in doc.encounter.characters} == {"posse", "hombres"}


def test_the_issue_figures_are_registered_with_their_targets():
    """The figures the speed issue names (those measured in this module and the
    geometry one), each with a target; the ones with a baseline with a ratio target."""
    want = {
        "reach_round_200": (30e-3, 10.0),
        "wall_edit_1000": (1e-3, None),
        "move_undo_200_tokens": (5e-3, None),
        "next_segment_200_tokens": (10e-3, None),
        "open_window_1000": (3.0, None),
        "pan_frame_200": (8e-3, 5.0),
        "pan_frame_1000": (8e-3, 20.0),
        "whole_map_warm_1000": (16e-3, None),
        "startup_sample": (0.4, 3.0),
    }
    for name, (target_s, target_ratio) in want.items():
        spec = bench.FIGURES[name]
        assert (spec.target_s, spec.target_ratio) == (target_s, target_ratio), name
    assert bench.FIGURES["startup_sample"].ratio_kind == "overhead"


@pytest.mark.slow(minutes=1)
def test_the_frame_budget_figures_run_in_the_real_window():
    """Issue 40's frame budgets: a drag with the players' fog on, F6 through the
    stack; each in a fresh interpreter's real window, p95 against its target."""
    names = ["frame_drag_fog_200", "frame_f6_stack"]
    cfg = bench.BenchConfig(quick=True, repeats=1, max_side=24)
    figs = {f.name: f for f in bench.run_figures([bench.FIGURES[n] for n in names], cfg)}
    assert all(not f.error for f in figs.values()), [f.error for f in figs.values()]
    drag, f6 = figs["frame_drag_fog_200"], figs["frame_f6_stack"]
    assert drag.target_s == bench_ui.TARGET_DRAG_FRAME and f6.target_s == bench_ui.TARGET_F6_FRAME
    assert drag.median_s > 0 and "p95 of 20 moves" in drag.note
    assert f6.median_s > 0 and "F6 presses" in f6.note


def test_p95_is_the_nineteenth_of_twenty():
    assert bench_ui.p95([float(i) for i in range(1, 21)]) == pytest.approx(19.05)
