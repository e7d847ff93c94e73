"""The session journal: every table step written down as it happens, and replayed.

:class:`Journal` listens to a :class:`~twtw_desktop.play.table.Table` and appends one
line per step done, undone or redone (:mod:`twtw_desktop.io.journal` writes and
flushes it, and fsyncs it off the window's thread). A typed action is written
exactly as typed, plus the cards it drew; a change made by hand (a sheet edited, a
door opened) is written as the Judge's
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
from ..io.journal import (
    JournalWriter,
    describe_owner,
    file_fingerprint,
    journal_path,
    read_journal,
)
from .actions import Action, Judge, parse_action
from .snapshot import check_patch, restore_patch
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
    """Writes a table's steps to ``path`` (see the module docstring).

    An undo or redo of a step this journal does not hold (one from before the last
    save, or any after such a one) is written with ``restore``, the patch that puts
    the state back exactly, so recovery replays it over the saved file, which has no
    history to undo."""

    def __init__(
        self,
        table: Table,
        path: Path,
        base: Path | None = None,
        *,
        title: str | None = None,
        map_file: Path | None = None,
    ) -> None:
        self.table = table
        self.path = Path(path)
        self.title = title
        #: the referenced map file, whose hash the header keeps too
        self.map_file = map_file
        self._writer: JournalWriter | None = None
        #: seqs of the steps written since this journal began
        self._own: set[int] = set()
        #: a restore was written: the replayed history no longer mirrors the window's
        self._restoring = False
        self.start(base)
        table.listeners.append(self._on_step)

    def start(self, base: Path | None, fingerprint: dict[str, Any] | None = None) -> None:
        """Begin a fresh journal continuing the saved file ``base`` (``fingerprint``:
        its size and hash when the caller knows them)."""
        if self._writer is not None:
            self._writer.close()
        header: dict[str, Any] = {"encounter": base.name if base else None}
        if self.title:
            header["title"] = self.title
        if fingerprint is not None:
            header.update(fingerprint)
        elif base is not None and base.exists():
            header.update(file_fingerprint(base))
        if base is not None and self.map_file is not None:
            with contextlib.suppress(OSError, ValueError):
                fp = file_fingerprint(self.map_file)
                header["map_file"] = os.path.relpath(self.map_file, base.parent)
                header["map_sha256"] = fp["sha256"]
        self._own.clear()
        self._restoring = False
        self._writer = JournalWriter(self.path, header)

    def saving(self, fingerprint: dict[str, Any]) -> None:
        """The file is about to be written with these bytes (size, sha256): say so
        first, so a kill after the write never replays what the file holds."""
        if self._writer is not None:
            self._writer.append({"saved": fingerprint}, durable=True)
            self._writer.lines -= 1  # a marker, not a step

    @property
    def lines(self) -> int:
        return self._writer.lines if self._writer is not None else 0

    def _on_step(self, what: str, step: Step) -> None:
        if self._writer is None:
            return
        if what in ("do", "merge"):
            self._writer.append(line_for(step, what == "merge"))
            self._own.add(step.seq)
        elif what in ("undo", "redo"):
            line: dict[str, Any] = {what: step.seq}
            if self._restoring or step.seq not in self._own:
                self._restoring = True
                line["label"] = step.label[:200]
                line["restore"] = restore_patch(step.before, step.after, undo=what == "undo")
            self._writer.append(line)

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
    #: the line number before which the Judge cancelled the replay (None: not cancelled)
    cancelled: int | None = None


#: lines replayed between two calls of a replay's ``progress`` (the window's chance to
#: paint and to hear Cancel)
PROGRESS_EVERY = 50


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
    if not isinstance(line, dict):
        raise ValueError('a step is a JSON object with a "do" field')
    for back in ("undo", "redo"):
        if back not in line:
            continue
        if "restore" in line:
            # a step from before the save: put its state back as one step of its own
            check_patch(line["restore"])
            label = line.get("label")
            what = f"{back.capitalize()}: {label if isinstance(label, str) else 'a step'}"
            restore = Judge(reason=what[:500], patch=line["restore"])
            if do is not None:
                do(restore, None)
            else:
                table.apply(restore)
            return what
        routed = undo if back == "undo" else redo
        if routed is not None:
            routed()
            return back
        return f"{back}: {(table.undo() if back == 'undo' else table.redo()).label}"
    if not isinstance(line.get("do"), str):
        raise ValueError('a step is a JSON object with a "do" field naming an action')
    # a list of card numbers is what the step drew (checked below); a mapping is the
    # action's own typed cards (start_round_cards, resolve)
    drawn_cards = isinstance(line.get("cards"), list)
    skip = ("cards", "key", "merge", "_line") if drawn_cards else ("key", "merge", "_line")
    data = {k: v for k, v in line.items() if k not in skip}
    action = parse_action(data)
    if isinstance(action, Judge) and action.patch is not None:
        check_patch(action.patch)
    key = line.get("key")
    if key is not None and not isinstance(key, str):
        raise ValueError("key: not a text")
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


def replay_one(table: Table, line: dict[str, Any], **route: Any) -> tuple[str | None, str]:
    """Apply one line: (None, its log text), or (the one-line reason it does not
    apply, ""). A line of the wrong shape is a reason too, never an escaping error:
    the step it began is put back whole by the table."""
    try:
        return None, replay_line(table, line, **route)
    except (RulesError, ValueError, KeyError, LoadError) as e:
        return str(e) or type(e).__name__, ""
    except (TypeError, AttributeError, IndexError, RecursionError, OverflowError) as e:
        return f"the line is not a step the app can apply ({type(e).__name__}: {e})", ""


def replay(
    table: Table,
    lines: list[dict[str, Any]],
    progress: Callable[[int], bool] | None = None,
    **route: Any,
) -> ReplayResult:
    """Apply ``lines`` in order; stop at the first that does not apply, saying why.
    ``progress(done)`` is called every :data:`PROGRESS_EVERY` lines; False cancels
    (the lines applied so far stay)."""
    result = ReplayResult()
    for i, line in enumerate(lines, start=1):
        n = line.get("_line", i) if isinstance(line, dict) else i
        if progress is not None and (i - 1) % PROGRESS_EVERY == 0 and not progress(i - 1):
            result.cancelled = n
            result.messages.append(f"The recovery was cancelled before line {n}.")
            break
        problem, text = replay_one(table, line, **route)
        if problem is not None:
            result.stopped = (n, problem)
            result.messages.append(f"line {n} does not apply: {problem}")
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
    #: why the journal is not offered at all (another encounter's, unreadable)
    refused: str | None = None


def pending_journal(encounter_path: Path, journal: Path | None = None) -> Pending | None:
    """The journal of ``encounter_path`` (beside it, or ``journal``) when it holds
    steps the file on disk lacks, else None.

    The file on disk is matched by its hash against the journal's header and its
    ``saved`` lines: only the steps after the last point the file holds are pending
    (none: a save finished but the hand-over to a fresh journal did not). A journal
    matching no point whose header names another file is another encounter's: it is
    ``refused``, naming whose it is."""
    jp = journal if journal is not None else journal_path(encounter_path)
    if not jp.exists():
        return None
    try:
        contents = read_journal(jp)
    except LoadError as e:
        return Pending(jp, [], [str(e)], False, refused=str(e))
    try:
        sha = file_fingerprint(encounter_path).get("sha256")
    except OSError:
        sha = None
    header = contents.header
    start = 0 if sha is not None and header.get("sha256") == sha else None
    for i, line in enumerate(contents.lines):
        saved = line.get("saved")
        if isinstance(saved, dict) and sha is not None and saved.get("sha256") == sha:
            start = i + 1
    steps = [ln for ln in contents.lines[start or 0 :] if "saved" not in ln]
    problems = list(contents.problems)
    if start == 0 and steps and _map_changed(Path(encounter_path), header):
        problems.append(
            f"The map file {describe_owner({'encounter': header.get('map_file')})} was "
            "written after the journal began (a save cut off between the map and the "
            "encounter, or an edit elsewhere): steps that changed the map may not replay "
            "as they were shown."
        )
        start = None
    if start is None:
        owner = header.get("encounter")
        if isinstance(owner, str) and owner != Path(encounter_path).name:
            why = (
                f"the session journal {jp.name} belongs to {describe_owner(header)}, not "
                f"{Path(encounter_path).name}; it is not applied"
            )
            return Pending(jp, [], [why], False, refused=why)
    if not steps and (start is not None or not problems):
        return None
    return Pending(jp, steps, problems, start is not None)


def _map_changed(encounter_path: Path, header: dict[str, Any]) -> bool:
    """Whether the map file the journal's header names has changed since."""
    name, sha = header.get("map_file"), header.get("map_sha256")
    if not isinstance(name, str) or not isinstance(sha, str):
        return False
    try:
        return file_fingerprint(encounter_path.parent / name).get("sha256") != sha
    except OSError:
        return True


__all__ = [
    "Journal",
    "Pending",
    "ReplayResult",
    "line_for",
    "pending_journal",
    "replay",
    "replay_line",
    "replay_one",
]
