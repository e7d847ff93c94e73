"""Map editing autosaves a recovery copy; a newer copy is offered on open."""

from __future__ import annotations

import shutil
import uuid

from PySide6.QtWidgets import QMessageBox

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.commands import ChangeValueCommand
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window.autosave import SUFFIX, newer_copy
from twtw_desktop.ui.window.main_window import MainWindow

MAP = "main_street.map.json"


def _win(qtbot, qapp, tmp_path, monkeypatch, answer):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: answer))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    return win


def test_an_edited_map_is_autosaved_and_offered_back(qtbot, qapp, tmp_path, monkeypatch):
    shutil.copy(maps_dir() / MAP, tmp_path / MAP)
    path = tmp_path / MAP
    win = _win(qtbot, qapp, tmp_path, monkeypatch, QMessageBox.StandardButton.Yes)
    assert win.open_path(path, ask=False)
    doc = win.document
    assert doc.kind == "map"
    win.autosaver.set_interval(1)
    doc.push(ChangeValueCommand(doc, doc.map, "name", "Main Street by night", "map"))
    assert win.autosaver.timer.isActive()
    qtbot.waitUntil(lambda: win.autosaver.written is not None, timeout=5000)
    win.autosaver.wait()
    assert newer_copy(path) == path.with_name(path.name + SUFFIX)
    # the app dies here; the next start offers the copy
    win2 = _win(qtbot, qapp, tmp_path, monkeypatch, QMessageBox.StandardButton.Yes)
    assert win2.open_path(path, ask=False)
    assert win2.document.map.name == "Main Street by night"
    assert win2.document.path == path and win2.document.is_dirty()
    # saving writes the file and removes the copy
    assert win2.save()
    assert not path.with_name(path.name + SUFFIX).exists()


def test_nothing_unsaved_writes_no_copy(qtbot, qapp, tmp_path, monkeypatch):
    shutil.copy(maps_dir() / MAP, tmp_path / MAP)
    win = _win(qtbot, qapp, tmp_path, monkeypatch, QMessageBox.StandardButton.No)
    assert win.open_path(tmp_path / MAP, ask=False)
    assert win.autosaver.write_now() is None
    assert not list(tmp_path.glob("*" + SUFFIX))
