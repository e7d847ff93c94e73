"""Where Save As, Export party and Import party start (issue 37): in the home folder
when it has no Documents folder — never the process's working folder — and Import
where the party was just exported. Real input: the menu bar and the File menu
clicked, the characters' dialog accepted with Return; only the system's file
dialog is replaced, to see where it was asked to start."""

from __future__ import annotations

import uuid

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.window.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()  # no Documents folder in it
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.chdir(tmp_path)  # the working folder: never offered
    ini = QSettings(str(tmp_path / f"s-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    assert win.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    return win, home


def _asked(monkeypatch, answer: str = "") -> list[str]:
    """The start folder of every file dialog asked for (answered with ``answer``)."""
    starts: list[str] = []

    def dialog(_parent, _caption, start, *_a, **_k):
        starts.append(start)
        return answer, ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(dialog))
    return starts


def _click_file_menu(qtbot, win, name: str) -> None:
    bar = win.menuBar()
    QTest.mouseClick(
        bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(win.file_menu.menuAction()).center()
    )
    menu = win.file_menu
    qtbot.waitUntil(menu.isVisible)
    action = next(a for a in menu.actions() if a.objectName() == name)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())


def _accept_next_dialog() -> None:
    def accept() -> None:
        dlg = QApplication.activeModalWidget()
        if isinstance(dlg, QDialog):
            QTest.keyClick(dlg, Qt.Key.Key_Return)
        else:
            QTimer.singleShot(50, accept)

    QTimer.singleShot(50, accept)


def test_save_as_starts_in_the_home_without_documents(window, qtbot, monkeypatch):
    win, home = window
    starts = _asked(monkeypatch)
    QTest.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # untitled
    assert starts == [str(home / "showdown_on_main_street.encounter.json")]


def test_import_starts_where_the_party_was_just_exported(window, qtbot, monkeypatch, tmp_path):
    win, home = window
    parties = tmp_path / "parties"
    parties.mkdir()
    starts = _asked(monkeypatch, str(parties / "posse.party.json"))
    _accept_next_dialog()  # which characters: all posse, as offered
    _click_file_menu(qtbot, win, "act_export_party")
    qtbot.waitUntil(lambda: (parties / "posse.party.json").is_file())
    assert starts[0] == str(home / "posse.party.json")  # the first time: the home folder
    starts = _asked(monkeypatch)  # Cancel: only where it starts matters
    _click_file_menu(qtbot, win, "act_import_party")
    qtbot.waitUntil(lambda: bool(starts))
    assert starts == [str(parties)]
