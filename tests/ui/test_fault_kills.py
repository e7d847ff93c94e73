"""The fault test (issue 28): the window is killed (SIGKILL) at random instants of a
fixed session — during play, during a save, during the journal hand-over, after undos
across a save — 50 times. Every reopen answering Yes shows exactly the last state
shown (or the step whose journal line was fsynced just before the kill, which the
window was about to show), never changes the saved file, and the next save leaves no
temp file."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.ui.fault_worker import state_hash
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]
TRIALS = int(os.environ.get("TWTW_FAULT_TRIALS", "50"))
SAMPLE = "main_street.encounter.json"


def _prepare(folder: Path) -> Path:
    folder.mkdir()
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, folder / name)
    return folder / SAMPLE


def _start(folder: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "TWTW_DATA_DIR": str(folder / "app-data"),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ui.fault_worker", str(folder)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_for(path: Path, proc: subprocess.Popen, limit_s: float = 120) -> None:
    for _ in range(int(limit_s * 50)):  # bounded
        if path.exists():
            return
        if proc.poll() is not None:
            raise AssertionError(f"the worker ended early: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.02)
    raise AssertionError(f"{path.name} never appeared")


def _shown(folder: Path) -> list[tuple[int, str]]:
    out = []
    for line in (folder / "shown.txt").read_text().splitlines():
        k, h = line.split()
        out.append((int(k), h))
    return out


@pytest.mark.slow(minutes=4)
def test_killed_at_random_instants_reopens_exactly_as_shown(qtbot, qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes)
    )
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    # the session once to its end: every state it shows, and how long it takes
    dry = tmp_path / "dry"
    _prepare(dry)
    proc = _start(dry)
    _wait_for(dry / "ready", proc)
    t0 = time.monotonic()
    _wait_for(dry / "done", proc)
    run_s = time.monotonic() - t0
    proc.wait(timeout=60)
    expected = dict(_shown(dry))
    last_step = max(expected)
    rng = random.Random(28)
    for trial in range(TRIALS):
        folder = tmp_path / f"t{trial}"
        enc = _prepare(folder)
        monkeypatch.setenv("TWTW_DATA_DIR", str(folder / "app-data"))
        proc = _start(folder)
        _wait_for(folder / "ready", proc)
        time.sleep(rng.uniform(0, run_s * 1.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        shown = _shown(folder)
        assert all(expected[k] == h for k, h in shown), "the session is not deterministic"
        k = shown[-1][0]
        allowed = {expected[k]} | ({expected[k + 1]} if k < last_step else set())
        on_disk = enc.read_bytes()
        win = MainWindow(settings=AppSettings())
        qtbot.addWidget(win)
        assert win.open_path(enc, ask=False)
        got = state_hash(win.document)
        assert got in allowed, f"trial {trial}: killed after step {k}, reopened elsewhere"
        assert enc.read_bytes() == on_disk, f"trial {trial}: recovery changed the saved file"
        assert win.save()
        temps = [p.name for p in folder.iterdir() if p.name.startswith(".") and ".tmp" in p.name]
        assert not temps, f"trial {trial}: {temps} survived the save"
        win.document.undo_stack.setClean()
        win.close()
        win.deleteLater()
