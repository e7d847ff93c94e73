"""No menu of the window lists the same entry twice (menu bar, submenus and every
menu the panels own), with a sample encounter open and after switching to another."""

from __future__ import annotations

import uuid

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu, QMessageBox

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.window.main_window import MainWindow


def _entries(menu: QMenu) -> list[str]:
    menu.aboutToShow.emit()  # menus filled on demand fill now
    return [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]


def _duplicates(window) -> dict[str, list[str]]:
    found = {}
    menus = set(window.findChildren(QMenu))
    for top in window.menuBar().actions():
        if top.menu() is not None:
            menus.add(top.menu())
    for m in menus:
        names = _entries(m)
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            found[m.title() or m.objectName() or repr(m)] = dup
    return found


@pytest.mark.parametrize("sample", ["main_street", "laroq_hacienda"])
def test_no_menu_lists_an_entry_twice(qtbot, tmp_path, monkeypatch, sample):
    ini = QSettings(str(tmp_path / f"s-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    assert win.open_path(maps_dir() / f"{sample}.encounter.json", ask=False)
    assert _duplicates(win) == {}
    win.document.start_action_time()
    assert _duplicates(win) == {}
    assert win.open_path(maps_dir() / "longhorn_saloon.encounter.json", ask=False)
    assert _duplicates(win) == {}
