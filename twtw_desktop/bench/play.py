"""The table's figures in the project benchmark (section ``play``; no Qt).

* ``why_not_all_actions``: ``why_not`` of every catalogue action of every actor of the
  sample encounter in action time — what the track and its menus ask — in total;
* ``apply_and_journal``: one action applied and its journal line written and flushed
  (fsynced in the background);
* ``recover_1000_lines``: a journal of 1,000 steps read and replayed onto the saved
  encounter, as the window does after a crash.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from ..io.journal import journal_path
from ..play.actions import EndSegment, Place, StartActionTime, StartRound
from ..play.catalogue import catalogue
from ..play.journal import Journal, pending_journal, replay
from ..play.session import open_table
from ..play.track_actions import DeclareAction
from ..resources import maps_dir
from . import BenchContext, Measured, figure

SAMPLE = "main_street.encounter.json"


def _copy_sample(folder: Path) -> Path:
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, folder / f.name)
    return folder / SAMPLE


@figure(
    "why_not_all_actions", "why_not of every action of every actor of the sample (in total)",
    section="play", target_s=0.005, size="sample",
)  # fmt: skip
def why_not_all_actions(ctx: BenchContext) -> Measured:
    table = open_table(maps_dir() / SAMPLE).table
    for step in (StartActionTime(), StartRound(), EndSegment(), EndSegment()):
        table.apply(step)
    actions = [
        DeclareAction(who=c.id, declared=e.spec)
        for c in table.encounter.characters
        for e in catalogue(table, c)
        if e.spec is not None
    ]

    def why_not_all() -> None:
        for a in actions:
            table.why_not(a)

    return Measured(ctx.measure(why_not_all), note=f"{len(actions)} actions")


def _journaled(ctx: BenchContext) -> tuple[Path, int, float]:
    """A sample copy played with ``n`` journaled steps: (its file, n, median step)."""

    def build() -> tuple[Path, int, float]:
        tmp = Path(tempfile.mkdtemp(prefix="twtw-bench-"))
        ctx.on_close(lambda: shutil.rmtree(tmp, ignore_errors=True))
        path = _copy_sample(tmp)
        t = open_table(path).table
        journal = Journal(t, journal_path(path), path)
        n = 40 if ctx.quick else 1000
        times = []
        for i in range(n):
            a = Place(who="token-hank_daggett", to=(20 + i % 2, 16))
            t0 = time.perf_counter()
            t.apply(a)
            times.append(time.perf_counter() - t0)
        journal.close()
        times.sort()
        return path, n, times[len(times) // 2]

    return ctx.shared("play-journaled", build)


@figure(
    "apply_and_journal", "one action applied, its journal line written and flushed (fsynced in the background; median)",
    section="play", target_s=0.010, size="sample",
)  # fmt: skip
def apply_and_journal(ctx: BenchContext) -> Measured:
    _path, n, median = _journaled(ctx)
    return Measured(median, note=f"{n} steps")


@figure(
    "recover_1000_lines", "read a 1,000-step journal and replay it onto the saved file",
    section="play", target_s=2.0, size="1000 lines",
)  # fmt: skip
def recover_1000_lines(ctx: BenchContext) -> Measured:
    path, n, _median = _journaled(ctx)
    pending = pending_journal(path)
    assert pending is not None

    def recover() -> None:
        fresh = open_table(path).table
        result = replay(fresh, pending.lines)
        assert result.stopped is None, result.messages

    t = ctx.measure(recover, repeats=max(1, ctx.reps() // 5))
    return Measured(t * 1000 / n, note=f"measured on {n} lines, scaled to 1,000")
