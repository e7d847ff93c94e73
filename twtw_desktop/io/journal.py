"""The session journal file: one JSON object a line, appended and fsynced.

``NAME.encounter.journal.jsonl`` sits beside ``NAME.encounter.json``. Its first line
is a header naming the saved file it continues (size and SHA-256); every further line
is one table action as typed (or an ``undo``/``redo``), written and fsynced before the
window shows its result — the discipline of a write-ahead log. Reading drops a last
line cut in half by a crash (with a message) and stops at the first line that is not
JSON, saying which.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat as stat_mod
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LoadError
from .atomic import write_atomic

JOURNAL_VERSION = 1
#: a journal line longer than this is refused on reading (a patch of a whole big map
#: is far smaller)
MAX_LINE_BYTES = 32 * 1024 * 1024
#: more lines than this are refused on reading (a long evening is a few thousand)
MAX_LINES = 1_000_000


def journal_path(encounter_path: str | os.PathLike[str]) -> Path:
    """``x.encounter.json`` → ``x.encounter.journal.jsonl`` (beside it)."""
    p = Path(encounter_path)
    name = p.name[: -len(".json")] if p.name.endswith(".json") else p.name
    return p.with_name(f"{name}.journal.jsonl")


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
    """Appends lines to a journal file, each flushed and fsynced."""

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

    def append(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        self._f.write(line + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())
        self.lines += 1

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


@dataclass
class JournalContents:
    header: dict[str, Any]
    lines: list[dict[str, Any]] = field(default_factory=list)
    #: what reading found wrong (a torn last line, a line that is not JSON)
    problems: list[str] = field(default_factory=list)


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """The header and the lines of a journal (LoadError when it is no journal)."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise LoadError(p, f"cannot read the journal ({e.strerror or e})") from e
    if not stat_mod.S_ISREG(st.st_mode):
        raise LoadError(p, "the journal is not a regular file")
    out = JournalContents(header={})
    with open(p, "rb") as f:
        raw = f.readline(MAX_LINE_BYTES + 1)
        try:
            header = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise LoadError(p, "the first line is not a journal header") from None
        if not isinstance(header, dict) or header.get("journal") != JOURNAL_VERSION:
            raise LoadError(p, "the first line is not a journal header")
        out.header = header
        n = 1
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            n += 1
            if n > MAX_LINES:
                out.problems.append(f"line {n}: more than {MAX_LINES} lines; the rest is ignored")
                break
            if not raw.endswith(b"\n"):
                out.problems.append(
                    f"line {n} was cut off when the app stopped; it is dropped (the step it "
                    "started was never shown)"
                )
                break
            try:
                obj = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                out.problems.append(f"line {n} is not valid JSON; the journal stops there")
                break
            if not isinstance(obj, dict):
                out.problems.append(f"line {n} is not a JSON object; the journal stops there")
                break
            obj["_line"] = n
            out.lines.append(obj)
    return out


def set_aside(path: str | os.PathLike[str], why: str = "declined") -> Path:
    """Rename a journal out of the way (never deleted): ``….jsonl.declined-<time>``."""
    p = Path(path)
    target = p.with_name(f"{p.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}")
    i = 1
    while target.exists():
        target = p.with_name(f"{p.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}-{i}")
        i += 1
    os.replace(p, target)
    return target


__all__ = [
    "JournalContents",
    "JournalWriter",
    "file_fingerprint",
    "journal_path",
    "read_journal",
    "set_aside",
]
