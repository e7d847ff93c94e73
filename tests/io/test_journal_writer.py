"""The journal writer flushes each line before append returns (a killed app loses
nothing) and leaves the fsync to its thread, except for a durable line."""

from __future__ import annotations

import os
import threading

import pytest

from twtw_desktop.io.journal import JournalWriter, read_journal


def test_a_line_is_in_the_file_when_append_returns_and_synced_soon_after(tmp_path, monkeypatch):
    synced: list[int] = []
    gate = threading.Event()
    real = os.fsync

    def slow_fsync(fd: int) -> None:
        gate.wait(5)  # the disk is slow: append must not wait for it
        real(fd)
        synced.append(fd)

    w = JournalWriter(tmp_path / "x.encounter.journal.jsonl", {"encounter": "x.encounter.json"})
    monkeypatch.setattr(os, "fsync", slow_fsync)
    w.append({"do": "move", "n": 1})
    # flushed: another reader (recovery after a kill) sees it, though nothing is synced
    assert [line["n"] for line in read_journal(w.path).lines] == [1]
    assert synced == []
    gate.set()
    w.wait_synced()
    assert synced
    w.close()


def test_a_durable_line_is_synced_before_append_returns(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync
    w = JournalWriter(tmp_path / "y.encounter.journal.jsonl", {"encounter": None})
    monkeypatch.setattr(os, "fsync", lambda fd: (real(fd), synced.append(fd)))
    w.append({"saved": {"size": 1, "sha256": "0" * 64}}, durable=True)
    assert synced
    w.close()


def test_a_failed_sync_is_raised_by_the_next_append(tmp_path, monkeypatch):
    def failing(fd: int) -> None:
        raise OSError(5, "Input/output error")

    w = JournalWriter(tmp_path / "z.encounter.journal.jsonl", {"encounter": None})
    monkeypatch.setattr(os, "fsync", failing)
    w.append({"do": "a"})
    with pytest.raises(OSError, match="Input/output"):
        w.wait_synced()
    w.close()
