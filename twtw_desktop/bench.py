"""The project benchmark: ``python -m twtw_desktop.bench [--quick] [--section NAME]``.

Sections register themselves with :func:`section`; each is a function taking a
:class:`BenchConfig` and returning :class:`Figure` results measured in that run
(so ratios compare numbers taken side by side on the same machine, at the same
moment). To add a section, write the function in your own module, decorate it with
``@section("name")`` and list ``"name": "your.module"`` in :data:`SECTION_MODULES`;
only the modules of the sections asked for are imported (so ``--section geometry``
never loads Qt).

Each figure prints as ``name: median X (target Y) OK/SLOW``; ratios print with a
``×``. ``--quick`` runs every section with very few repeats, for a smoke test; its
numbers are noisy and only show that the code runs.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

#: section name → the module whose import registers it (a module that cannot be
#: imported, e.g. the UI one without Qt, is skipped with a note)
SECTION_MODULES: dict[str, str] = {
    "geometry": "twtw_desktop.geometry.bench",
    "play": "twtw_desktop.play.bench",
    "ui": "twtw_desktop.ui.bench_ui",
    "files": "twtw_desktop.play.files_bench",
}
#: timed runs per figure in a full run (the median is reported)
DEFAULT_REPEATS = 15
QUICK_REPEATS = 2


@dataclass(frozen=True, slots=True)
class BenchConfig:
    """How hard to run: ``repeats`` timed runs per figure (the median is kept)."""

    quick: bool = False
    repeats: int = DEFAULT_REPEATS

    def reps(self, full: int | None = None) -> int:
        """Repeats for one figure: the configured count, or fewer in quick mode."""
        if self.quick:
            return max(1, min(self.repeats, QUICK_REPEATS))
        return full if full is not None else self.repeats


@dataclass(frozen=True, slots=True)
class Figure:
    """One benchmark result.

    ``kind="time"``: ``value`` is a median in seconds and must not exceed ``target``.
    ``kind="ratio"``: ``value`` is a factor and must reach at least ``target``.
    ``target=None`` reports the number without a verdict.
    """

    name: str
    value: float
    target: float | None = None
    kind: Literal["time", "ratio"] = "time"
    note: str = ""

    @property
    def ok(self) -> bool | None:
        if self.target is None:
            return None
        if self.kind == "ratio":
            return self.value >= self.target
        return self.value <= self.target

    def line(self) -> str:
        if self.kind == "ratio":
            val = f"{self.value:.1f}×"
            tgt = f"≥ {self.target:g}×" if self.target is not None else "none"
        else:
            val = format_seconds(self.value)
            tgt = f"≤ {format_seconds(self.target)}" if self.target is not None else "none"
        verdict = {True: "OK", False: "SLOW", None: "info"}[self.ok]
        note = f"  [{self.note}]" if self.note else ""
        return f"{self.name}: median {val} (target {tgt}) {verdict}{note}"


def format_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.2f} µs"
    if s < 1.0:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.3f} s"


SectionFn = Callable[[BenchConfig], Iterable[Figure]]
SECTIONS: dict[str, SectionFn] = {}


def section(name: str) -> Callable[[SectionFn], SectionFn]:
    """Register a benchmark section under ``name``."""

    def deco(fn: SectionFn) -> SectionFn:
        SECTIONS[name] = fn
        return fn

    return deco


def measure(
    fn: Callable[[], object],
    *,
    repeats: int,
    number: int = 1,
    before: Callable[[], object] | None = None,
) -> float:
    """Median seconds per call of ``fn`` over ``repeats`` timed runs of ``number``
    calls each (``before`` runs untimed ahead of each run)."""
    times = []
    for _ in range(max(1, repeats)):
        if before is not None:
            before()
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def _registry() -> dict[str, SectionFn]:
    """The one registry, even when this file runs as ``__main__`` (``python -m``
    loads it a second time under that name; section modules import the real one)."""
    return importlib.import_module("twtw_desktop.bench").SECTIONS


def load_sections(names: Iterable[str] | None = None) -> list[str]:
    """Import the modules of the named sections (all when None); return notes for
    any that cannot be imported."""
    notes = []
    wanted = list(SECTION_MODULES) if names is None else list(names)
    for name in wanted:
        mod = SECTION_MODULES.get(name)
        if mod is None:
            continue
        try:
            importlib.import_module(mod)
        except ImportError as e:
            notes.append(f"(section {name!r} skipped: {mod} cannot be imported: {e})")
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m twtw_desktop.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="very few repeats (smoke test)")
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per figure")
    parser.add_argument(
        "--section", action="append", default=None, help="run only this section (repeatable)"
    )
    args = parser.parse_args(argv)
    for note in load_sections(args.section):
        print(note)
    cfg = BenchConfig(
        quick=args.quick, repeats=args.repeats or (QUICK_REPEATS if args.quick else DEFAULT_REPEATS)
    )
    sections = _registry()
    names = args.section or list(sections)
    unknown = [n for n in names if n not in sections]
    if unknown:
        known = ", ".join(sorted(set(sections) | set(SECTION_MODULES)))
        print(f"unknown section(s): {', '.join(unknown)}; known: {known}")
        return 2
    slow = 0
    for name in names:
        print(f"== {name} ==")
        sys.stdout.flush()
        for fig in sections[name](cfg):
            print(fig.line())
            sys.stdout.flush()
            slow += fig.ok is False
    print(f"{slow} figure(s) over target" if slow else "all figures within target")
    if cfg.quick:
        print("(quick mode: few repeats, the numbers are only a smoke test)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
