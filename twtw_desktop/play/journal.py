"""The session journal: every table step written down as it happens, and replayed.

:class:`Journal` listens to a :class:`~twtw_desktop.play.table.Table` and appends one
line per step done, undone or redone (:mod:`twtw_desktop.io.journal` writes and
fsyncs it). A typed action is written exactly as typed, plus the cards it drew; a
change made by hand (a sheet edited, a door opened) is written as the Judge's
``judge`` action with the patch of what changed. The same lines are a ``play``
script, so :func:`replay` serves both crash recovery and the command line.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LoadError, RulesError
from ..io.journal import JournalWriter, file_fingerprint, journal_path, read_journal
from .actions import Action, Judge, parse_action
from .table import Step, Table


def line_for(step: Step, merged: bool = False) -> dict[str, Any]:
    """The journal line of a step just done (``merged``: it joined the step before)."""
    if step.action is not None:
        line = dict(step.action)
    else:
        line = Judge(reason=step.label or "a change by hand", patch=step.patch()).journal_form()
    if step.event is not None and step.event.cards and "cards" not in line:
        # the cards drawn, checked on replay (an action typing its own ``cards``,
        # such as start_round_cards, keeps them: they are its input)
        line["cards"] = list(step.event.cards)
    if step.merge_key is not None:
        line["key"] = str(step.merge_key)
        if merged:
            line["merge"] = True
    return line


class Journal:
    """Writes a table's steps to ``path`` (see the module docstring)."""

    def __init__(self, table: Table, path: Path, base: Path | None = None) -> None:
        self.table = table
        self.path = Path(path)
        self._writer: JournalWriter | None = None
        self.start(base)
        table.listeners.append(self._on_step)

    def start(self, base: Path | None) -> None:
        """Begin a fresh journal continuing the saved file ``base``."""
        if self._writer is not None:
            self._writer.close()
        header: dict[str, Any] = {"encounter": base.name if base else None}
        if base is not None and base.exists():
            header.update(file_fingerprint(base))
        self._writer = JournalWriter(self.path, header)

    @property
    def lines(self) -> int:
        return self._writer.lines if self._writer is not None else 0

    def _on_step(self, what: str, step: Step) -> None:
        if self._writer is None:
            return
        if what in ("do", "merge"):
            self._writer.append(line_for(step, what == "merge"))
        elif what == "undo":
            self._writer.append({"undo": step.seq})
        elif what == "redo":
            self._writer.append({"redo": step.seq})

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._on_step in self.table.listeners:
            self.table.listeners.remove(self._on_step)

    def discard(self) -> None:
        """Close and delete the journal (the encounter was saved and closed cleanly)."""
        self.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


@dataclass
class ReplayResult:
    applied: int = 0
    #: line number and reason where the replay stopped (None: every line applied)
    stopped: tuple[int, str] | None = None
    messages: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def replay_line(
    table: Table,
    line: dict[str, Any],
    *,
    do: Callable[[Action, Any], Any] | None = None,
    undo: Callable[[], Any] | None = None,
    redo: Callable[[], Any] | None = None,
) -> str:
    """Apply one journal or script line; returns its log text. RulesError/ValueError
    when it does not apply. ``do``/``undo``/``redo`` let the window route the steps
    through its undo stack (default: the table's own)."""
    if "undo" in line:
        if undo is not None:
            undo()
            return "undo"
        return f"undo: {table.undo().label}"
    if "redo" in line:
        if redo is not None:
            redo()
            return "redo"
        return f"redo: {table.redo().label}"
    # a list of card numbers is what the step drew (checked below); a mapping is the
    # action's own typed cards (start_round_cards, resolve)
    drawn_cards = isinstance(line.get("cards"), list)
    skip = ("cards", "key", "merge", "_line") if drawn_cards else ("key", "merge", "_line")
    data = {k: v for k, v in line.items() if k not in skip}
    action = parse_action(data)
    key = line.get("key")
    merge = bool(line.get("merge"))
    expected = tuple(line["cards"]) if drawn_cards else ()
    event = do(action, key) if do is not None else table.apply(action, merge_key=key, merge=merge)
    drawn = tuple(getattr(event, "cards", ()) or ())
    if expected and drawn != expected:
        raise RulesError(
            f"it drew cards {list(drawn)} where the journal says {list(expected)} "
            "(the deck is not where it was)"
        )
    return getattr(event, "text", "") or action.do


def replay(table: Table, lines: list[dict[str, Any]], **route: Any) -> ReplayResult:
    """Apply ``lines`` in order; stop at the first that does not apply, saying why."""
    result = ReplayResult()
    for i, line in enumerate(lines, start=1):
        n = line.get("_line", i)
        try:
            text = replay_line(table, line, **route)
        except (RulesError, ValueError, KeyError, LoadError) as e:
            result.stopped = (n, str(e))
            result.messages.append(f"line {n} does not apply: {e}")
            break
        result.applied += 1
        result.events.append(text)
    return result


@dataclass
class Pending:
    """A journal holding steps the saved file lacks."""

    path: Path
    lines: list[dict[str, Any]]
    problems: list[str]
    #: whether the journal continues exactly the file on disk now
    matches: bool


def pending_journal(encounter_path: Path, journal: Path | None = None) -> Pending | None:
    """The journal of ``encounter_path`` (beside it, or ``journal``) when it holds
    steps, else None."""
    jp = journal if journal is not None else journal_path(encounter_path)
    if not jp.exists():
        return None
    try:
        contents = read_journal(jp)
    except LoadError as e:
        return Pending(jp, [], [str(e)], False)
    if not contents.lines and not contents.problems:
        return None
    matches = False
    try:
        fp = file_fingerprint(encounter_path)
        matches = fp.get("sha256") == contents.header.get("sha256")
    except OSError:
        pass
    return Pending(jp, contents.lines, contents.problems, matches)


__all__ = [
    "Journal",
    "Pending",
    "ReplayResult",
    "line_for",
    "pending_journal",
    "replay",
    "replay_line",
]
