"""The hostile-journal and hostile-script corpora (issue 28): every case gives one
clear line, never hangs, never a traceback, and writes nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twtw_desktop.io import journal as io_journal
from twtw_desktop.io.journal import journal_path, read_journal
from twtw_desktop.play import script
from twtw_desktop.play.journal import Journal, pending_journal, replay
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

HANK = "token-hank_daggett"
GOOD = json.dumps({"do": "place", "who": HANK, "to": [21, 16]})
AFTER = json.dumps({"do": "start_action_time"})

#: (name, the bad line's bytes): the issue's cases and the earlier ones
BAD_LINES: list[tuple[str, bytes]] = [
    ("deep", b"[" * 100_000 + b"]" * 100_000),
    ("do-list", json.dumps({"do": ["place"]}).encode()),
    (
        "judge-tokens-list",
        json.dumps({"do": "judge", "reason": "x", "patch": {"tokens": [1, 2]}}).encode(),
    ),
    (
        "judge-rules-number",
        json.dumps({"do": "judge", "reason": "x", "patch": {"rules": 5}}).encode(),
    ),
    ("judge-patch-list", json.dumps({"do": "judge", "reason": "x", "patch": [1]}).encode()),
    ("non-utf8", b'{"do": "\xe9\xff"}'),
    ("garbage", b"\x00\x01garbage}}{{"),
    ("huge-number", b'{"do": "place", "who": "' + HANK.encode() + b'", "to": [1e999, 2]}'),
    (
        "huge-int",
        b'{"do": "place", "who": "' + HANK.encode() + b'", "to": [' + b"9" * 5000 + b", 2]}",
    ),
    ("nan", b'{"do": "place", "who": "' + HANK.encode() + b'", "to": [NaN, 2]}'),
    ("unknown-token", json.dumps({"do": "place", "who": "token-nobody", "to": [1, 2]}).encode()),
    ("unknown-action", json.dumps({"do": "fly", "who": HANK}).encode()),
    ("not-object", b"[1, 2, 3]"),
    ("key-list", json.dumps({"do": "start_action_time", "key": [1]}).encode()),
    ("restore-wrong", json.dumps({"undo": 1, "restore": {"tokens": "x"}}).encode()),
    ("redo-nothing", json.dumps({"redo": 1}).encode()),
]


def _sample(tmp_path: Path) -> Path:
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / "main_street.encounter.json"


def _journal_with(path: Path, bad: bytes) -> Path:
    table = open_table(path).table
    j = Journal(table, journal_path(path), path)
    j.close()
    jp = journal_path(path)
    with open(jp, "ab") as f:
        f.write(GOOD.encode() + b"\n" + bad + b"\n" + AFTER.encode() + b"\n")
    return jp


@pytest.mark.parametrize("bad", [b for _, b in BAD_LINES], ids=[n for n, _ in BAD_LINES])
def test_hostile_journal_line(tmp_path, bad):
    path = _sample(tmp_path)
    saved = path.read_bytes()
    jp = _journal_with(path, bad)
    before = jp.read_bytes()
    pending = pending_journal(path)
    assert pending is not None and pending.refused is None
    table = open_table(path).table
    result = replay(table, pending.lines)
    said = pending.problems + result.messages
    assert len(said) == 1, said
    assert "line 3" in said[0] and "\n" not in said[0] and "Traceback" not in said[0]
    assert result.applied == 1  # the good line before it, nothing after
    assert not table.in_action
    assert path.read_bytes() == saved and jp.read_bytes() == before


def test_a_torn_last_line_is_dropped_with_a_message(tmp_path):
    path = _sample(tmp_path)
    jp = _journal_with(path, b"")
    with open(jp, "ab") as f:
        f.write(b'{"do": "end_seg')
    pending = pending_journal(path)
    assert pending is not None and len(pending.problems) == 1
    assert "cut off" in pending.problems[0]


def test_too_many_lines_are_refused_naming_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(io_journal, "MAX_LINES", 50)
    path = _sample(tmp_path)
    jp = _journal_with(path, b"")
    with open(jp, "ab") as f:
        f.write((AFTER + "\n").encode() * 60)
    pending = pending_journal(path)
    assert pending is not None and pending.refused is not None
    assert "more than 50 steps" in pending.refused


def test_a_journal_over_the_size_limit_is_refused_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(io_journal, "MAX_JOURNAL_BYTES", 1024)
    path = _sample(tmp_path)
    jp = _journal_with(path, b" " * 2000)
    with pytest.raises(Exception, match="the limit is 0 MB"):
        read_journal(jp)


def test_one_over_long_line_is_refused_as_too_long(tmp_path, monkeypatch):
    monkeypatch.setattr(io_journal, "MAX_LINE_BYTES", 1000)
    path = _sample(tmp_path)
    _journal_with(path, b'{"do": "' + b"x" * 5000 + b'"}')
    pending = pending_journal(path)
    assert pending is not None and len(pending.problems) == 1
    assert "longer than" in pending.problems[0] and "cut off" not in pending.problems[0]


def test_not_a_journal_at_all(tmp_path):
    path = _sample(tmp_path)
    for content in (b"", b"\xe9\xff\n", b"[" * 100_000 + b"\n", b'{"journal": 99}\n'):
        journal_path(path).write_bytes(content)
        pending = pending_journal(path)
        if content == b"":
            continue
        assert pending is not None and pending.refused is not None
        assert "not a journal header" in pending.refused


# -- scripts -----------------------------------------------------------------------------


def _play(capsys, path: Path, script_path: str, out: Path) -> tuple[int, str]:
    rc = script.main([str(path), "--script", script_path, "--out", str(out)])
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("bad", [b for _, b in BAD_LINES], ids=[n for n, _ in BAD_LINES])
def test_hostile_script_line(tmp_path, capsys, bad):
    path = _sample(tmp_path)
    s = tmp_path / "s.jsonl"
    s.write_bytes(GOOD.encode() + b"\n" + bad + b"\n" + AFTER.encode() + b"\n")
    out = tmp_path / "out.encounter.json"
    rc, err = _play(capsys, path, str(s), out)
    assert rc == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and ("line 2" in err or ":2:" in err), err
    assert not out.exists()


@pytest.mark.parametrize("kind", ["folder", "dev-zero", "missing", "too-big"])
def test_a_script_that_is_no_regular_file_is_refused(tmp_path, capsys, monkeypatch, kind):
    path = _sample(tmp_path)
    target = tmp_path / "s.jsonl"
    if kind == "folder":
        target.mkdir()
    elif kind == "dev-zero":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero")
        target.symlink_to("/dev/zero")
    elif kind == "too-big":
        monkeypatch.setattr(io_journal, "MAX_SCRIPT_BYTES", 10)
        target.write_text(GOOD + "\n")
    out = tmp_path / "out.encounter.json"
    rc, err = _play(capsys, path, str(target), out)
    assert rc == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_script_is_refused_without_hanging(tmp_path):
    path = _sample(tmp_path)
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    r = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", "play", str(path), "--script", str(fifo)],
        capture_output=True,
        text=True,
        timeout=10,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 1
    assert len(r.stderr.strip().splitlines()) == 1 and "not a regular file" in r.stderr


@pytest.mark.parametrize("kind", ["folder", "dev-zero", "fifo"])
def test_a_journal_that_is_no_regular_file_is_refused_at_once(tmp_path, kind):
    path = _sample(tmp_path)
    jp = journal_path(path)
    if kind == "folder":
        jp.mkdir()
    elif kind == "dev-zero":
        if not os.path.exists("/dev/zero"):
            pytest.skip("no /dev/zero")
        jp.symlink_to("/dev/zero")
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(jp)
    pending = pending_journal(path)
    assert pending is not None and pending.refused is not None
    assert "not a regular file" in pending.refused and "\n" not in pending.refused
