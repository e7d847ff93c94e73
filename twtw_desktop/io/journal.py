"""The session journal file: one JSON object a line, appended and fsynced.

``NAME.encounter.journal.jsonl`` sits beside ``NAME.encounter.json``. Its first line
is a header naming the saved file it continues (its name, the encounter's title, its
size and SHA-256); every further line is one table action as typed (or an
``undo``/``redo``), written and flushed to the operating system before the window
shows its result — the discipline of a write-ahead log — and fsynced right after by
a background thread (:class:`JournalWriter`: a killed app loses nothing; a power cut
can lose the last moments' lines).

Saving hands over to a fresh journal in three steps, each safe to be killed after:
a ``{"saved": {size, sha256}}`` line naming the exact bytes about to be written is
appended first; then the encounter file is written; then a fresh journal continuing
those bytes replaces the old one whole. Recovery replays only the lines after the
last point the file on disk holds (the header, or a ``saved`` line whose hash is the
file's), so a file saved correctly is never replayed over.

Reading is as careful as for every other file: a regular file, at most
:data:`MAX_JOURNAL_BYTES` and :data:`MAX_LINES` lines (a longer journal is refused
whole, naming the limit), each line at most :data:`MAX_LINE_BYTES` and nested at most
:data:`~twtw_desktop.io.jsonsafe.MAX_DEPTH` deep. A last line cut in half by a crash
is dropped with a message; the first line that is not a JSON object stops the
journal there, saying which.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat as stat_mod
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LoadError
from .atomic import write_atomic
from .jsonsafe import clip, decode_text, parse_json, read_capped

JOURNAL_VERSION = 1
#: a journal line longer than this is refused as too long (a patch of a whole big
#: map is far smaller)
MAX_LINE_BYTES = 16 * 1024 * 1024
#: more lines than this are refused on reading (a long evening is a few thousand)
MAX_LINES = 200_000
#: a bigger journal file is refused on reading
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
#: a ``play`` script longer than this is refused (a whole evening's journal is far shorter)
MAX_SCRIPT_BYTES = 64 * 1024 * 1024
#: journals set aside (recovered, declined, unsaved) kept per encounter; older go
KEEP_ASIDE = 3
#: the kinds of set-aside journal, ``NAME.journal.jsonl.<kind>-<time>``
ASIDE_KINDS = ("recovered", "declined", "unsaved", "refused")


def journal_path(encounter_path: str | os.PathLike[str]) -> Path:
    """``x.encounter.json`` → ``x.encounter.journal.jsonl`` (beside it)."""
    p = Path(encounter_path)
    name = p.name[: -len(".json")] if p.name.endswith(".json") else p.name
    return p.with_name(f"{name}.journal.jsonl")


def bytes_fingerprint(data: bytes) -> dict[str, Any]:
    """Size and SHA-256 of a file's bytes (what a ``saved`` line names)."""
    return {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def file_fingerprint(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Size and SHA-256 of a saved file (what a journal continues)."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return {"size": size, "sha256": h.hexdigest()}


class JournalWriter:
    """Appends lines to a journal file, each written and flushed before
    :meth:`append` returns, then fsynced by a background thread.

    A flushed line is in the operating system's hands: a killed app (kill -9, a
    crash) loses nothing. Only the fsync — making it survive a power cut, about 8 ms
    on a laptop's disk — waits on the thread, so it never holds the window's frame
    up; a power cut can lose the lines of the last moments not yet synced (the
    thread syncs as soon as a line is written). ``durable=True`` syncs before
    returning (the ``saved`` marker, which must be on disk before the encounter file
    it names is written)."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        data = json.dumps({"journal": JOURNAL_VERSION, **header}, separators=(",", ":")) + "\n"
        # a fresh journal replaces the old one whole (the project's one atomic write)
        write_atomic(self.path, data.encode("utf-8"))
        try:
            self._f = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (kept open)
        except OSError as e:
            raise LoadError(
                self.path, f"cannot write the session journal ({e.strerror or e})"
            ) from e
        self.lines = 0
        self._wake = threading.Condition()
        self._written = 0  # lines flushed (guarded by _wake)
        self._synced = 0  # lines fsynced (guarded by _wake)
        self._closing = False
        self._failed: OSError | None = None
        self._syncer = threading.Thread(
            target=self._sync_loop, name=f"journal fsync {self.path.name}", daemon=True
        )
        self._syncer.start()

    def append(self, obj: dict[str, Any], *, durable: bool = False) -> None:
        line = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        self._raise_failure()
        self._f.write(line + "\n")
        self._f.flush()
        self.lines += 1
        with self._wake:
            self._written += 1
            self._wake.notify_all()
        if durable:
            self.wait_synced()

    def wait_synced(self) -> None:
        """Return once every line written so far is fsynced (OSError if it failed)."""
        with self._wake:
            target = self._written
            while self._synced < target and self._failed is None and self._syncer.is_alive():
                self._wake.wait(1.0)
        self._raise_failure()

    def _raise_failure(self) -> None:
        if self._failed is not None:
            failed, self._failed = self._failed, None
            raise failed

    def _sync_loop(self) -> None:
        fd = self._f.fileno()
        while True:
            with self._wake:
                while self._synced == self._written and not self._closing:
                    self._wake.wait()
                if self._synced == self._written and self._closing:
                    return
                target = self._written
            try:
                os.fsync(fd)
            except OSError as e:
                with self._wake:
                    self._failed = e
                    self._synced = target
                    self._wake.notify_all()
                continue
            with self._wake:
                self._synced = max(self._synced, target)
                self._wake.notify_all()

    def close(self) -> None:
        if self._f.closed:
            return
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._syncer.join()
        self._f.close()


@dataclass
class JournalContents:
    header: dict[str, Any]
    lines: list[dict[str, Any]] = field(default_factory=list)
    #: what reading found wrong (a torn last line, a line that is not JSON)
    problems: list[str] = field(default_factory=list)


def _parse_line(p: Path, raw: bytes, n: int) -> tuple[Any, str | None]:
    """A line's JSON value, or the one-line problem with it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"line {n} is not UTF-8 text (bad byte 0x{raw[e.start]:02x})"
    try:
        return parse_json(p, text), None
    except LoadError as e:
        return None, f"line {n} is not a step: {e.reason}"


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """The header and the lines of a journal (LoadError when it is no journal, or
    over the limits)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise LoadError(p, f"cannot read the journal ({e.strerror or e})") from e
    if not stat_mod.S_ISREG(st.st_mode):
        raise LoadError(p, "the journal is not a regular file")
    if st.st_size > MAX_JOURNAL_BYTES:
        raise LoadError(
            p,
            f"the journal is {st.st_size // (1024 * 1024)} MB; the limit is "
            f"{MAX_JOURNAL_BYTES // (1024 * 1024)} MB",
        )
    out = JournalContents(header={})
    with open(p, "rb") as f:
        raw = f.readline(MAX_LINE_BYTES + 1)
        header, _ = _parse_line(p, raw, 1) if len(raw) <= MAX_LINE_BYTES else (None, None)
        if not isinstance(header, dict) or header.get("journal") != JOURNAL_VERSION:
            raise LoadError(p, "the first line is not a journal header")
        out.header = header
        n = 1
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            n += 1
            if n > MAX_LINES + 1:
                raise LoadError(
                    p, f"the journal has more than {MAX_LINES} steps (the limit); it is not read"
                )
            if len(raw) > MAX_LINE_BYTES:
                out.problems.append(
                    f"line {n} is longer than {MAX_LINE_BYTES // (1024 * 1024)} MB (the "
                    "limit); the journal stops there"
                )
                break
            if not raw.endswith(b"\n"):
                out.problems.append(
                    f"line {n} was cut off when the app stopped; it is dropped (the step it "
                    "started was never shown)"
                )
                break
            if not raw.strip():
                continue  # a blank line (a script written by hand)
            obj, problem = _parse_line(p, raw, n)
            if problem is None and not isinstance(obj, dict):
                problem = f"line {n} is not a JSON object"
            if problem is not None:
                out.problems.append(f"{problem}; the journal stops there")
                break
            obj["_line"] = n
            out.lines.append(obj)
    return out


def read_script(path: Path, max_bytes: int | None = None) -> list[dict[str, Any]]:
    """The steps of a script file, read through the one open path's checks: a
    regular file (never a FIFO or a device), at most :data:`MAX_SCRIPT_BYTES`, UTF-8,
    each line strict JSON nested at most ``MAX_DEPTH`` deep. LoadError naming the
    line otherwise."""
    max_bytes = MAX_SCRIPT_BYTES if max_bytes is None else max_bytes
    text = decode_text(path, read_capped(path, max_bytes))
    lines: list[dict[str, Any]] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            obj = parse_json(path, line)
        except LoadError as e:
            raise LoadError(path, f"line {n}: {e.reason}") from None
        if not isinstance(obj, dict):
            raise LoadError(path, f"line {n} is not a JSON object")
        if n == 1 and "journal" in obj and "do" not in obj:
            continue  # a session journal's header: its lines are a script as they are
        if "saved" in obj and "do" not in obj:
            continue  # a journal's note of a save, not a step
        obj["_line"] = n
        lines.append(obj)
    return lines


_STAMP_RE = re.compile(r"-\d{8}-\d{6}(?:-\d+)?$")


def set_aside(path: str | os.PathLike[str], why: str = "declined") -> Path:
    """Rename a journal out of the way: ``….jsonl.declined-<time>``, in the same
    folder. Only the newest :data:`KEEP_ASIDE` set-aside journals of one encounter
    are kept; older ones are deleted (:func:`prune_aside`)."""
    p = Path(path)
    target = p.with_name(f"{p.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}")
    i = 1
    while target.exists():
        target = p.with_name(f"{p.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}-{i}")
        i += 1
    os.replace(p, target)
    prune_aside(p, keep=KEEP_ASIDE)
    return target


def aside_journals(path: str | os.PathLike[str]) -> list[Path]:
    """The set-aside journals of the journal ``path``, newest first."""
    p = Path(path)
    found: list[tuple[float, str, Path]] = []
    try:
        entries = list(os.scandir(p.parent))
    except OSError:
        return []
    prefix = p.name + "."
    for entry in entries:
        rest = entry.name[len(prefix) :] if entry.name.startswith(prefix) else ""
        kind = rest.split("-", 1)[0]
        if kind not in ASIDE_KINDS or not _STAMP_RE.search(rest):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False):
                found.append((entry.stat().st_mtime, entry.name, Path(entry.path)))
    found.sort(reverse=True)
    return [f[2] for f in found]


def prune_aside(path: str | os.PathLike[str], keep: int = KEEP_ASIDE) -> int:
    """Delete all but the newest ``keep`` set-aside journals of ``path``; how many went."""
    gone = 0
    for old in aside_journals(path)[keep:]:
        with contextlib.suppress(OSError):
            os.unlink(old)
            gone += 1
    return gone


def describe_owner(header: dict[str, Any]) -> str:
    """Whose journal this is, for a refusal: the file name and the encounter's title."""
    name = header.get("encounter")
    title = header.get("title")
    parts = []
    if isinstance(name, str):
        parts.append(clip(name))
    if isinstance(title, str) and title:
        parts.append(f"“{clip(title)}”")
    return " ".join(parts) or "another encounter"


__all__ = [
    "JournalContents",
    "JournalWriter",
    "aside_journals",
    "bytes_fingerprint",
    "describe_owner",
    "file_fingerprint",
    "journal_path",
    "prune_aside",
    "read_journal",
    "read_script",
    "set_aside",
]
