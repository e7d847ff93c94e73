"""The benchmark runs in quick mode and prints every geometry figure (no timings
are asserted: the machine is shared)."""

from __future__ import annotations

from twtw_desktop import bench

FIGURES = [
    "line of sight yes/no, 500 walls",
    "line of sight speed-up over brute force",
    "cover crossings with wall identities",
    "120° field of fire to 30 paces with sight to every hex",
    "reachable area with facing, 20 AP",
    "rebuild the wall index after one door is opened/closed",
    "rebuild the wall index after one wall is moved",
    "load and validate the 200×200 map from JSON",
]


def test_quick_benchmark_prints_the_figure_names(capsys):
    assert bench.main(["--quick", "--repeats", "1", "--section", "geometry"]) == 0
    out = capsys.readouterr().out
    for name in FIGURES:
        assert name in out
    assert "(target ≤" in out and "median" in out


def test_unknown_section_is_refused(capsys):
    assert bench.main(["--quick", "--section", "no-such-section"]) == 2
    assert "unknown section" in capsys.readouterr().out
