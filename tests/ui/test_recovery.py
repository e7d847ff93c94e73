"""Kill the app in the middle of a gunfight, restart, carry on from the last step shown."""

from __future__ import annotations

import shutil
import uuid

import pytest
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.io.journal import journal_path
from twtw_desktop.play.actions import DropProne, EndSegment, Place, StartActionTime, StartRound
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.commands import ChangeValueCommand
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window.main_window import MainWindow

SAMPLE = "main_street.encounter.json"
HANK = "token-hank_daggett"
MIRANDA = "miranda_valentine"


@pytest.fixture
def files(qapp, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / SAMPLE


def _answer(monkeypatch, button):
    asked = []

    def question(*a, **k):
        asked.append(a[2] if len(a) > 2 else "")
        return button

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    return asked


def _window(qtbot, path):
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    assert win.open_path(path, ask=False)
    return win


def _play(doc):
    doc.apply(Place(who=HANK, to=[21, 16]))
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    for _ in range(20):
        if doc.table.why_not(DropProne(who=MIRANDA)) is None:
            doc.apply(DropProne(who=MIRANDA))
            break
        doc.apply(EndSegment())
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    c = doc.character("jonah_benton")
    doc.push(ChangeValueCommand(doc, c, "notes", "lost his hat", "characters"))


def test_killed_mid_gunfight_recovers_exactly(qtbot, files, monkeypatch):
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    win = _window(qtbot, files)
    doc = win.document
    assert doc.journal is not None and journal_path(files).exists()
    _play(doc)
    expected = doc.table.state_fingerprint()
    # the app dies: no save, no close — only the journal is on disk
    doc.journal.close()
    win2 = _window(qtbot, files)
    assert (asked and "Recover" in asked[-1]) or "steps" in asked[-1]
    assert win2.document.table.state_fingerprint() == expected
    # recovered steps are undoable like any other
    assert win2.document.undo_stack.count() > 0
    assert list(files.parent.glob("*.journal.jsonl.recovered-*"))


def test_declining_keeps_the_journal_aside(qtbot, files, monkeypatch):
    _answer(monkeypatch, QMessageBox.StandardButton.No)
    win = _window(qtbot, files)
    before = win.document.table.state_fingerprint()
    win.document.apply(Place(who=HANK, to=[21, 16]))
    win.document.journal.close()
    win2 = _window(qtbot, files)
    assert win2.document.table.state_fingerprint() == before
    aside = list(files.parent.glob("*.journal.jsonl.declined-*"))
    assert len(aside) == 1 and aside[0].read_text().count("\n") == 2


def test_saving_starts_a_fresh_journal(qtbot, files, monkeypatch):
    _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    win = _window(qtbot, files)
    win.document.apply(Place(who=HANK, to=[21, 16]))
    assert win.document.journal.lines == 1
    assert win.save()
    assert win.document.journal.lines == 0
    win.document.journal.close()
    win2 = _window(qtbot, files)  # nothing to recover: no question asked
    assert win2.document.table.hex_label(win2.document.token(HANK).at) == "2116"


def test_an_untitled_sample_recovers_too(qtbot, qapp, tmp_path, monkeypatch):
    """The sample opens as an untitled copy; its journal lives in the app's data folder."""
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    win = _window(qtbot, maps_dir() / SAMPLE)
    doc = win.document
    assert doc.path is None and doc.journal is not None
    assert doc.journal.path.parent.name == "unsaved"
    _play(doc)
    expected = doc.table.state_fingerprint()
    doc.journal.close()  # killed
    win2 = _window(qtbot, maps_dir() / SAMPLE)
    assert win2.document.table.state_fingerprint() == expected
    # Save As puts the encounter in a file of its own: its journal moves beside it
    out = tmp_path / "tonight.encounter.json"
    assert win2._save_to(out)
    assert win2.document.journal.path == journal_path(out)
    assert not list((tmp_path / "app-data" / "unsaved").glob("*.jsonl"))


def test_the_app_window_offers_the_recovery_once_it_is_shown(qtbot, files, monkeypatch):
    """The app's window (open_window) shows the map first, then completes itself and
    starts the journal or offers the recovery over the complete window, before
    anything can change the encounter."""
    from twtw_desktop.ui.window.app import open_window

    asked = _answer(monkeypatch, QMessageBox.StandardButton.Yes)
    win = _window(qtbot, files)
    _play(win.document)
    expected = win.document.table.state_fingerprint()
    win.document.journal.close()
    asked.clear()
    again = open_window(files)
    qtbot.addWidget(again)
    assert again.incomplete and not asked and again.document.journal is None
    qtbot.waitUntil(lambda: not again.incomplete, timeout=5000)
    assert asked and again.document.journal is not None
    assert again.document.table.state_fingerprint() == expected
    for w in (win, again):
        w.document.undo_stack.setClean()
    assert again.close()
