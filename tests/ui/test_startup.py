"""Start-up: the app's window shows the map first and gets its add-ons and panels just
after its first frame (the ``startup_sample`` figure of the benchmark); the window it
ends up as is the one built at once: same menus, toolbars, docks and panels."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import uuid

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QMenu, QMessageBox, QSpinBox, QToolBar

from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window import app as app_mod
from twtw_desktop.ui.window import wheel
from twtw_desktop.ui.window.main_window import MainWindow

PANELS = {
    "dock_attack": "AttackPanel",
    "dock_track": "TrackPanel",
    "dock_sheet": "SheetPanel",
    "dock_deck": "DeckPanel",
    "dock_log": "LogPanel",
}


@pytest.fixture
def settings_folder(qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )


def _ini(tmp_path) -> AppSettings:
    path = tmp_path / f"{uuid.uuid4().hex[:8]}.ini"
    return AppSettings(QSettings(str(path), QSettings.Format.IniFormat))


def _panels(win) -> dict[str, str | None]:
    return {n: (type(d.widget()).__name__ if d.widget() else None) for n, d in win.docks.items()}


def _menus(win) -> list[tuple[str, list[str]]]:
    """Every menu of the menu bar and its submenus, with its entries in order."""
    out = []

    def walk(menu: QMenu, path: str) -> None:
        out.append((path, [a.text() for a in menu.actions()]))
        for a in menu.actions():
            if a.menu() is not None and a.text() != "Open &Recent":
                walk(a.menu(), f"{path} > {a.text()}")

    for a in win.menuBar().actions():
        walk(a.menu(), a.text())
    return out


def _layout(win) -> dict[str, tuple]:
    """Whether every dock and toolbar shows, and where (a hidden one is laid out when
    it is shown)."""
    parts = win.findChildren(QToolBar) + list(win.docks.values())
    return {
        p.objectName(): (p.isVisible(), p.geometry() if p.isVisible() else None)
        for p in parts
        if p.objectName()
    }


def test_the_app_window_is_complete_just_after_its_first_frame(qtbot, settings_folder):
    win = app_mod.open_window(None)
    qtbot.addWidget(win)
    done = []
    win.completed.connect(lambda: done.append(True))
    assert win.incomplete and set(win.docks) == set(PANELS)
    assert set(_panels(win).values()) == {None}, "no panel before the first frame"
    assert not hasattr(win, "editor") and not hasattr(win, "players_screen")
    assert win.map_view.map_scene is not None and win.map_view.map_scene.tokens
    qtbot.waitUntil(lambda: not win.incomplete, timeout=5000)
    assert done == [True]
    assert _panels(win) == PANELS
    assert win.editor is not None and win.players_screen is not None
    win.complete()  # once only
    assert done == [True]
    win.document.undo_stack.setClean()


def test_an_encounter_saved_on_the_autopilot_shows_it_once_the_window_is_complete(
    qtbot, settings_folder, tmp_path
):
    """The autopilot's check mark and the plans it proposes by itself read the table's
    actions, which come after the first frame: a fight saved with the NPCs on the
    autopilot reopens with the mark set and their plans proposed, once complete."""
    from twtw_desktop.play.actions import StartRound
    from twtw_desktop.play.clock_actions import StartActionTime
    from twtw_desktop.play.standing_actions import AutopilotFight
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    doc.apply(AutopilotFight(on=True))
    saved = tmp_path / "on_autopilot.encounter.json"
    doc.save(saved)
    win = app_mod.open_window(saved)
    qtbot.addWidget(win)
    assert win.incomplete and not win.autopilot.act_fight.isChecked()
    qtbot.waitUntil(lambda: not win.incomplete, timeout=5000)
    assert win.autopilot.act_fight.isChecked()
    npcs = [c.id for c in win.document.encounter.characters if c.side != "posse"]
    qtbot.waitUntil(lambda: len(win.autopilot.plans) == len(npcs), timeout=20_000)
    win.document.undo_stack.setClean()


def test_a_window_not_shown_is_complete_at_once(qtbot, settings_folder):
    win = app_mod.open_window(None, show=False)
    qtbot.addWidget(win)
    assert not win.incomplete
    assert _panels(win) == PANELS
    win.document.undo_stack.setClean()


@pytest.mark.parametrize("saved_layout", [False, True])
def test_a_window_completed_later_is_the_window_built_at_once(qtbot, tmp_path, saved_layout):
    def make(later: bool) -> MainWindow:
        settings = _ini(tmp_path)
        if saved_layout:
            # a layout saved by an earlier session: the players' screen toolbar, the
            # editor's docks and the panels moved about
            first = MainWindow(settings=settings)
            qtbot.addWidget(first)
            first.resize(1500, 900)
            first.show()
            qtbot.waitExposed(first)
            first.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, first.docks["dock_deck"])
            first.docks["dock_log"].hide()
            first.save_layout()
            first.document.undo_stack.setClean()
            first.close()
        w = MainWindow(settings=settings, complete_after_first_frame=later)
        qtbot.addWidget(w)
        w.resize(1500, 900)
        w.show()
        qtbot.waitExposed(w)
        return w

    later, now = make(True), make(False)
    qtbot.waitUntil(lambda: not later.incomplete, timeout=5000)
    qtbot.wait(50)
    assert _menus(later) == _menus(now)
    assert _layout(later) == _layout(now)
    assert [a.text() for a in later.tools_toolbar.actions()] == [
        a.text() for a in now.tools_toolbar.actions()
    ]
    for w in (later, now):
        w.document.undo_stack.setClean()


def test_a_panel_that_cannot_be_imported_is_left_out_when_built_later(qtbot, tmp_path, monkeypatch):
    from twtw_desktop.ui import panels

    broken = ("dock_broken", "Broken", "no_such_panel", "Nope", panels.Area.RightDockWidgetArea)
    monkeypatch.setattr(panels, "_PANELS", (*panels._PANELS, broken))
    win = MainWindow(settings=_ini(tmp_path), complete_after_first_frame=True)
    qtbot.addWidget(win)
    assert "dock_broken" in win.docks
    win.complete()
    assert "dock_broken" not in win.docks
    assert "Broken" not in [a.text() for a in win.docks_menu.actions()]
    assert _panels(win) == PANELS


def test_the_wheel_guard_sets_the_boxes_built_before_it(qtbot, monkeypatch):
    """The window completed after its first frame installs the guard after its
    panels: the boxes that exist by then lose WheelFocus at once, as a polish would
    have done."""
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


#: what the first frame does without: the panels and the add-ons that come after it
AFTER_FIRST_FRAME = (
    "twtw_desktop.ui.panels.attack_panel",
    "twtw_desktop.ui.panels.track_panel",
    "twtw_desktop.ui.panels.sheet_panel",
    "twtw_desktop.ui.panels.deck_panel",
    "twtw_desktop.ui.panels.log_panel",
    "twtw_desktop.ui.editor",
    "twtw_desktop.ui.players",
    "twtw_desktop.ui.files.export",
    "twtw_desktop.ui.files.export_dialog",
    "twtw_desktop.ui.files.uvtt_dialog",
    "twtw_desktop.ui.files.library",
    "twtw_desktop.ui.files.samples_menu",
    "twtw_desktop.ui.dialogs.rules_reference",
    "twtw_desktop.sample_maps",
    # the table's actions: the first frame checks none (the autopilot's check mark
    # reads the table once the window is complete)
    "twtw_desktop.play.actions",
    "twtw_desktop.play.standing_actions",
    # the Qt-free modules the first frame does without: the attack's requests and
    # records (the opening view's sight is play.in_sight's), the reach, the fields of
    # fire, the scatter, the party files
    "twtw_desktop.play.attack_request",
    "twtw_desktop.geometry.movement",
    "twtw_desktop.geometry.fields",
    "twtw_desktop.geometry.scatter",
    "twtw_desktop.model.party",
)

STARTUP = r"""
import json, os, sys, tempfile
os.environ["TWTW_DATA_DIR"] = tempfile.mkdtemp()
from twtw_desktop.ui.core import settings
settings.use_ini_folder(tempfile.mkdtemp())
from twtw_desktop.ui.window.app import make_app, open_window
watch = json.loads(sys.argv[1])
app = make_app([])
win = open_window(None)
app.processEvents()
win.map_view.viewport().repaint()
first = [m for m in watch if m in sys.modules]
while win.incomplete:
    app.processEvents()
later = [m for m in watch if m in sys.modules]
win.document.undo_stack.setClean()
print(json.dumps({"first": first, "later": later}))
os._exit(0)
"""


def test_the_first_frame_loads_no_panel_nor_add_on(tmp_path):
    """A fresh interpreter shows the sample without importing the panels, the editor,
    the players' screen, export or the sample maps; they are loaded once the window
    completes itself (guards the start-up figure without timing it)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, "-c", STARTUP, json.dumps(AFTER_FIRST_FRAME)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["first"] == []
    # the names are real modules (a misspelt one would pass the line above)
    assert all(importlib.util.find_spec(m) is not None for m in AFTER_FIRST_FRAME)
    # and the complete window has the panels and the add-ons
    assert set(found["later"]) >= {m for m in AFTER_FIRST_FRAME if ".panels." in m} | {
        "twtw_desktop.ui.editor",
        "twtw_desktop.ui.players",
        "twtw_desktop.ui.files.export_dialog",
    }


def test_a_window_closed_before_it_is_complete_stays_closed(qtbot, tmp_path):
    settings = _ini(tmp_path)
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.save_layout()
    saved = settings.window_state()
    win = MainWindow(settings=settings, complete_after_first_frame=True)
    qtbot.addWidget(win)
    assert win.close()
    assert not win.incomplete
    win.complete()  # the timer that would have completed it: nothing happens
    assert not hasattr(win, "editor") and win.document.journal is None
    assert settings.window_state() == saved


@pytest.mark.slow
def test_the_benchmark_times_the_first_frame_and_the_complete_window():
    from twtw_desktop.bench import ui as bench_ui

    first = bench_ui.startup_seconds()
    ready = bench_ui.ready_seconds()
    assert first > 0 and ready > 0


@pytest.mark.slow
def test_the_library_floor_script_shows_a_window_with_the_libraries_loaded():
    """startup_libraries: the bare window's script with numpy, pydantic and shapely
    imported first, and nothing of the project."""
    from twtw_desktop.bench import ui as bench_ui

    assert "twtw_desktop" not in bench_ui.STARTUP_LIBRARIES
    assert "import numpy, pydantic, shapely" in bench_ui.STARTUP_LIBRARIES
    assert bench_ui._BARE_WINDOW in bench_ui.STARTUP_LIBRARIES
    assert float(bench_ui.subprocess_seconds(bench_ui.STARTUP_LIBRARIES)[-1]) > 0
