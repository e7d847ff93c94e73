"""Launching without a file (issue 27): the very first launch opens the sample; every
later one reopens the last encounter, and offers its recovery when the app was
killed with unsaved steps — an untitled sample fight included (the README's set-up
command run again after a kill -9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .app_process import run_script

pytestmark = pytest.mark.slow

SCRIPT = r"""
import json, os, signal, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox
from twtw_desktop.ui.window.app import make_app, open_window

out, what = sys.argv[2], sys.argv[3]
app = make_app([])
asked = []
def question(parent, title, *a, **k):
    asked.append(title)
    # recover: yes; "Save changes?" on the way out: discard
    B = QMessageBox.StandardButton
    return B.Yes if title.startswith("Recover") else B.Discard

QMessageBox.question = staticmethod(question)
for _name in ("information", "critical", "warning"):
    setattr(QMessageBox, _name, staticmethod(lambda *a, **k: asked.append(a[1])))
win = open_window(None)

def step():
    doc = win.document
    found = {"title": doc.title, "asked": asked,
             "tokens": {t.id: [t.at.q, t.at.r] for t in doc.encounter.tokens}}
    with open(out, "w") as f:
        json.dump(found, f)
    if what.startswith("open:"):
        win.open_path(what[5:], ask=False)
    if what != "quit":
        from twtw_desktop.ui.core.commands import MoveTokenCommand
        doc = win.document
        t = doc.encounter.tokens[0]
        doc.push(MoveTokenCommand(doc, t.id, t.at.neighbor(0)))
        with open(out + ".moved", "w") as f:
            json.dump([t.id, t.at.q, t.at.r, doc.title], f)
        os.kill(os.getpid(), signal.SIGKILL)
    sys.stdout.flush()
    os._exit(0)

QTimer.singleShot(2000, step)
QTimer.singleShot(30000, app.quit)
app.exec()
"""


def _launch(tmp_path: Path, what: str) -> dict:
    out = tmp_path / "found.json"
    run = run_script(tmp_path, SCRIPT, str(out), what, timeout=120)
    if what == "quit":
        assert run.returncode == 0, run.stderr[-2000:]
    else:
        assert run.returncode == -9, run.stderr[-2000:]  # killed, as a crash would
    return json.loads(out.read_text())


def test_a_killed_untitled_sample_fight_is_offered_at_the_next_launch(tmp_path):
    first = _launch(tmp_path, "step")
    assert first["title"].startswith("Showdown on Main Street") and not first["asked"]
    tid, q, r, _title = json.loads((tmp_path / "found.json.moved").read_text())
    again = _launch(tmp_path, "quit")
    assert again["asked"][0] == "Recover the last session?"
    assert again["tokens"][tid] == [q, r]  # recovered


def test_the_last_encounter_reopens_not_the_sample(tmp_path):
    from twtw_desktop.resources import maps_dir

    saloon = maps_dir() / "longhorn_saloon.encounter.json"
    first = _launch(tmp_path, f"open:{saloon}")
    assert first["title"].startswith("Showdown on Main Street")  # the very first launch
    _tid, _q, _r, title = json.loads((tmp_path / "found.json.moved").read_text())
    again = _launch(tmp_path, "quit")
    assert again["title"] == title  # the saloon fight, untitled, not Main Street
    assert again["asked"][0] == "Recover the last session?"
