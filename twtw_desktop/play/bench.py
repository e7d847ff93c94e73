"""The table's figures in the project benchmark (section ``play``; no Qt).

* ``why_not_all_actions``: ``why_not`` of every catalogue action of every actor of the
  sample encounter in action time — what the track and its menus ask — in total;
* ``apply_and_journal``: one action applied and its journal line written and fsynced;
* ``recover_1000_lines``: a journal of 1,000 steps read and replayed onto the saved
  encounter, as the window does after a crash.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from ..bench import BenchConfig, Figure, measure, section
from ..io.journal import journal_path
from ..resources import maps_dir
from .actions import EndSegment, Place, StartActionTime, StartRound
from .catalogue import catalogue
from .journal import Journal, pending_journal, replay
from .session import open_table
from .track_actions import DeclareAction

SAMPLE = "main_street.encounter.json"
TARGET_WHY_NOT_ALL = 0.005
TARGET_APPLY_JOURNAL = 0.010
TARGET_RECOVER_1000 = 2.0


def _copy_sample(folder: Path) -> Path:
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, folder / f.name)
    return folder / SAMPLE


@section("play")
def play_section(cfg: BenchConfig) -> Iterator[Figure]:
    reps = cfg.reps()
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

    yield Figure(
        f"why_not_all_actions ({len(actions)} actions, every actor of the sample)",
        measure(why_not_all, repeats=reps),
        TARGET_WHY_NOT_ALL,
    )

    with tempfile.TemporaryDirectory() as tmp:
        path = _copy_sample(Path(tmp))
        opened = open_table(path)
        t = opened.table
        journal = Journal(t, journal_path(path), path)
        n = 40 if cfg.quick else 1000
        times = []
        for i in range(n):
            a = Place(who="token-hank_daggett", to=(20 + i % 2, 16))
            t0 = time.perf_counter()
            t.apply(a)
            times.append(time.perf_counter() - t0)
        times.sort()
        yield Figure(
            "apply_and_journal (one action, its journal line fsynced; median)",
            times[len(times) // 2],
            TARGET_APPLY_JOURNAL,
        )
        journal.close()
        pending = pending_journal(path)
        assert pending is not None

        def recover() -> None:
            fresh = open_table(path).table
            result = replay(fresh, pending.lines)
            assert result.stopped is None, result.messages

        yield Figure(
            f"recover_{n}_lines (read the journal, replay onto the saved file)",
            measure(recover, repeats=max(1, reps // 5)),
            TARGET_RECOVER_1000 * n / 1000,
        )
