"""The benchmark runs in quick mode and reports every geometry figure by its stable
name (no timings are asserted: the machine is shared); its JSON and README table."""

from __future__ import annotations

import json

import pytest

from twtw_desktop import bench

FIGURES = [
    "los_query_200",
    "crossings_200",
    "field_of_fire_200",
    "reach_ap20_200",
    "reach_round_200",
    "door_edit_200",
    "wall_edit_200",
    "wall_edit_1000",
    "validate_json_200",
]
JSON_KEYS = {"name", "median_s", "target_s", "baseline_s", "ratio", "size"}


def test_quick_benchmark_writes_every_figure_to_json(capsys, tmp_path):
    out_json = tmp_path / "bench.json"
    args = ["--quick", "--repeats", "1", "--section", "geometry", "--json", str(out_json)]
    assert bench.main(args) == 0
    out = capsys.readouterr().out
    for name in FIGURES:
        assert f"{name}: " in out
    assert "(target ≤" in out and "median" in out
    data = json.loads(out_json.read_text(encoding="utf-8"))
    figs = {f["name"]: f for f in data["figures"]}
    assert set(FIGURES) <= set(figs)
    for f in figs.values():
        assert set(f) >= JSON_KEYS
        assert f["median_s"] > 0
    los = figs["los_query_200"]
    assert los["baseline_s"] > 0 and los["ratio"] == pytest.approx(
        los["baseline_s"] / los["median_s"]
    )
    assert figs["reach_round_200"]["target_s"] == 30e-3


def test_readme_table_is_generated_from_a_saved_run(tmp_path, capsys):
    figs = [
        bench.Figure("a_200", 2e-3, 5e-3, 20e-3, "200×200", "a thing", target_ratio=5),
        bench.Figure("b", 0.5, 0.4, 0.1, "sample", "start", 3, "overhead"),
        bench.Figure("c", float("nan"), error="boom"),
    ]
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(bench.to_json(figs, bench.BenchConfig())), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n{bench.README_BEGIN}\nold\n{bench.README_END}\ntail\n")
    assert bench.main(["--from-json", str(saved), "--readme", str(readme), "--markdown"]) == 0
    text = readme.read_text(encoding="utf-8")
    assert "old" not in text and text.endswith(f"{bench.README_END}\ntail\n")
    assert (
        "| `a_200` a thing | 200×200 | 2.00 ms | ≤ 5.00 ms | 20.00 ms | 10.0× (≥ 5×) | OK |" in text
    )
    assert "| 5.0× (≤ 3×) | SLOW |" in text  # 0.5 s is five times the bare 0.1 s
    assert "| `c`  |  | error |" in text
    assert capsys.readouterr().out.startswith("| figure |")


def test_the_table_compares_with_an_earlier_run_on_the_same_machine(tmp_path, capsys):
    """--against EARLIER.json: a column with the earlier version's median and the
    change, so a figure over its target on a slower machine shows whether the code
    or the machine moved; a figure the earlier run lacks leaves the cell empty."""
    now = [
        bench.Figure("a_200", 6e-3, 5e-3, size="200×200", title="a thing"),
        bench.Figure("new_one", 1e-3, 5e-3, size="sample", title="new"),
    ]
    earlier = [bench.Figure("a_200", 5e-3, 5e-3, size="200×200", title="a thing")]
    saved, old = tmp_path / "run.json", tmp_path / "earlier.json"
    saved.write_text(json.dumps(bench.to_json(now, bench.BenchConfig())), encoding="utf-8")
    old.write_text(json.dumps(bench.to_json(earlier, bench.BenchConfig())), encoding="utf-8")
    args = ["--from-json", str(saved), "--against", str(old), "--against-label", "abc1234"]
    assert bench.main([*args, "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("| abc1234, same machine |")
    assert "| SLOW |  | 5.00 ms (+20 %) OK |" in out  # the earlier one met its target
    assert out.splitlines()[-1].endswith("|  |")  # nothing to compare with
    assert bench.main(["--from-json", str(saved), "--against", str(tmp_path / "none")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_repeated_runs_render_each_figure_from_its_fastest_run(tmp_path, capsys):
    """--from-json (and --against) repeated: a shared machine slows a run, never
    speeds it up, so each figure comes from the run where it was fastest; a figure
    that failed in one run comes from another."""
    one = [
        bench.Figure("a", 6e-3, 5e-3, size="s", title="a"),
        bench.Figure("b", 1e-3, 5e-3, size="s", title="b"),
        bench.Figure("c", float("nan"), error="boom"),
    ]
    two = [
        bench.Figure("a", 4e-3, 5e-3, size="s", title="a"),
        bench.Figure("b", 2e-3, 5e-3, size="s", title="b"),
        bench.Figure("c", 3e-3, size="s", title="c"),
        bench.Figure("d", 1e-3, size="s", title="d"),
    ]
    best = bench.best_of([one, two])
    assert [(f.name, f.median_s) for f in best] == [
        ("a", 4e-3), ("b", 1e-3), ("c", 3e-3), ("d", 1e-3)
    ]  # fmt: skip
    paths = []
    for i, run in enumerate((one, two)):
        paths.append(tmp_path / f"run{i}.json")
        paths[-1].write_text(json.dumps(bench.to_json(run, bench.BenchConfig())))
    args = ["--markdown", "--from-json", str(paths[0]), "--from-json", str(paths[1])]
    assert bench.main([*args, "--against", str(paths[0]), "--against", str(paths[1])]) == 0
    out = capsys.readouterr().out
    assert "| `a` a | s | 4.00 ms | ≤ 5.00 ms |" in out and "4.00 ms (+0 %) OK |" in out


def test_a_readme_without_the_markers_is_refused(tmp_path, capsys):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(bench.to_json([], bench.BenchConfig())), encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n")
    assert bench.main(["--from-json", str(saved), "--readme", str(readme)]) == 1
    assert readme.read_text() == "# x\n"
    assert "marker" in capsys.readouterr().err


def test_a_figure_is_one_function_and_one_registration(monkeypatch, capsys):
    monkeypatch.setattr(bench, "FIGURES", dict(bench.FIGURES))
    monkeypatch.setitem(bench.SECTION_MODULES, "extra", "twtw_desktop.bench")

    @bench.figure("extra_fig", "an extra figure", section="extra", target_s=1.0, side=1000)
    def extra(ctx: bench.BenchContext) -> bench.Measured:
        return bench.Measured(ctx.side(1000) / 1e6, baseline_s=1.0)

    @bench.figure("broken_fig", "a broken figure", section="extra")
    def broken(ctx: bench.BenchContext) -> float:
        raise ValueError("no map")

    assert bench.main(["--quick", "--section", "extra", "--figure", "extra_*"]) == 0
    out = capsys.readouterr().out
    side = bench.QUICK_MAX_SIDE
    assert f"extra_fig: an extra figure: median {side:.2f} µs" in out and f"[{side}×{side}]" in out
    assert f"{1e6 / side:.1f}× over baseline" in out
    assert bench.main(["--quick", "--section", "extra"]) == 1  # a figure that fails
    assert "broken_fig: a broken figure: ERROR ValueError: no map" in capsys.readouterr().out


def test_unknown_section_is_refused(capsys):
    assert bench.main(["--quick", "--section", "no-such-section"]) == 2
    assert "unknown section" in capsys.readouterr().out
