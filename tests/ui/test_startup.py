"""Start-up: the app's window shows the map first and builds its panels just after
its first frame (the ``startup_sample`` figure of the benchmark); anything that needs
a panel sooner builds them on demand, and the window ends up as one built at once."""

from __future__ import annotations

import uuid

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QSpinBox

from twtw_desktop.ui import app as app_mod
from twtw_desktop.ui import wheel
from twtw_desktop.ui.help_menu import shortcut_rows
from twtw_desktop.ui.main_window import MainWindow
from twtw_desktop.ui.settings import AppSettings, use_ini_folder


@pytest.fixture
def settings_folder(qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )


def _panels(win) -> dict[str, str | None]:
    return {n: (type(d.widget()).__name__ if d.widget() else None) for n, d in win.docks.items()}


def test_the_app_window_builds_its_panels_just_after_its_first_frame(qtbot, settings_folder):
    win = app_mod.open_window(None)
    qtbot.addWidget(win)
    ready = []
    win.panelsReady.connect(lambda: ready.append(True))
    assert win.panels_pending and win.docks
    assert set(_panels(win).values()) == {None}, "no panel before the first frame"
    assert win.map_view.map_scene is not None and win.map_view.map_scene.tokens
    qtbot.waitUntil(lambda: not win.panels_pending, timeout=5000)
    assert ready == [True]
    assert _panels(win) == {
        "dock_attack": "AttackPanel",
        "dock_track": "TrackPanel",
        "dock_sheet": "SheetPanel",
        "dock_deck": "DeckPanel",
        "dock_log": "LogPanel",
    }
    win.build_panels()  # once only
    assert ready == [True]
    win.document.undo_stack.setClean()


def test_a_window_not_shown_builds_its_panels_at_once(qtbot, settings_folder):
    win = app_mod.open_window(None, show=False)
    qtbot.addWidget(win)
    assert not win.panels_pending
    assert None not in _panels(win).values()
    win.document.undo_stack.setClean()


def test_what_needs_a_panel_before_the_first_frame_builds_them(qtbot, settings_folder):
    win = app_mod.open_window(None)
    qtbot.addWidget(win)
    assert win.panels_pending
    rows = shortcut_rows(win)  # the panels' own keys are listed too
    assert not win.panels_pending
    assert any(where.endswith("panel") for _k, _t, where in rows)
    win.document.undo_stack.setClean()


def test_panels_built_later_sit_where_panels_built_at_once_do(qtbot, tmp_path, settings_folder):
    def ini():
        return AppSettings(
            QSettings(str(tmp_path / f"{uuid.uuid4().hex}.ini"), QSettings.Format.IniFormat)
        )

    later = MainWindow(settings=ini(), panels_after_first_frame=True)
    now = MainWindow(settings=ini())
    for w in (later, now):
        qtbot.addWidget(w)
        w.resize(1500, 900)
        w.show()
        qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not later.panels_pending, timeout=5000)
    qtbot.wait(50)
    for name, dock in now.docks.items():
        other = later.docks[name]
        assert (other.isVisible(), other.geometry()) == (dock.isVisible(), dock.geometry()), name


def test_the_wheel_guard_sets_the_boxes_built_before_it(qtbot, monkeypatch):
    """The window shown before its panels installs the guard after them: the boxes
    that exist by then lose WheelFocus at once, as a polish would have done."""
    spin, combo = QSpinBox(), QComboBox()
    for w in (spin, combo):
        qtbot.addWidget(w)
    assert spin.focusPolicy() == combo.focusPolicy() == Qt.FocusPolicy.WheelFocus
    monkeypatch.setattr(wheel, "_guards", {})  # as in a fresh app
    guard = wheel.install_wheel_guard()
    try:
        assert spin.focusPolicy() == combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    finally:
        QApplication.instance().removeEventFilter(guard)


def test_a_panel_that_cannot_be_imported_is_left_out_when_built_later(
    qtbot, tmp_path, settings_folder, monkeypatch
):
    from twtw_desktop.ui import panels

    broken = ("dock_broken", "Broken", "no_such_panel", "Nope", panels.Area.RightDockWidgetArea)
    monkeypatch.setattr(panels, "_PANELS", (*panels._PANELS, broken))
    ini = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=AppSettings(ini), panels_after_first_frame=True)
    qtbot.addWidget(win)
    assert "dock_broken" in win.docks
    win.build_panels()
    assert "dock_broken" not in win.docks
    assert "Broken" not in [a.text() for a in win.docks_menu.actions()]
    assert None not in _panels(win).values()
