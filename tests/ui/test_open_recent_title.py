"""After File ▸ Open Recent the window's title names the encounter (issue 37: it
showed the file name alone), then its file. The menus are clicked."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from twtw_desktop.resources import maps_dir

from .conftest import fresh_window

L = Qt.MouseButton.LeftButton


def _click(qtbot, menu, action) -> None:
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseClick(menu, L, pos=menu.actionGeometry(action).center())


def test_open_recent_shows_the_encounters_title(qtbot, tmp_path, monkeypatch):
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    fight = tmp_path / "main_street.encounter.json"
    fight.rename(tmp_path / "tuesday.encounter.json")
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    win.settings.add_recent(tmp_path / "tuesday.encounter.json")  # opened last week
    bar = win.menuBar()
    QTest.mouseClick(bar, L, pos=bar.actionGeometry(win.file_menu.menuAction()).center())
    _click(qtbot, win.file_menu, win.recent_menu.menuAction())
    qtbot.waitUntil(win.recent_menu.isVisible)
    entry = next(a for a in win.recent_menu.actions() if "tuesday" in a.text())
    _click(qtbot, win.recent_menu, entry)
    qtbot.waitUntil(lambda: win.document.path is not None)
    assert win.windowTitle() == (
        "Showdown on Main Street (tuesday.encounter.json)[*] — TWTW Desktop"
    )
