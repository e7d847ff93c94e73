"""The players' window on a second display (#16 "Fits a laptop"): a 1366×768 laptop
with a 1920×1080 display beside it, as Qt's offscreen platform can model two
screens. The Judge's window stays on the laptop; the players' window, sent to the
second display, fills it, and both render (the PNGs are kept for a person to look
at in the test's temporary folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .app_process import run_script, screen

pytestmark = pytest.mark.slow

SCRIPT = r"""
import json, sys
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from twtw_desktop.ui.window.app import make_app, open_window, sample_path
from twtw_desktop.ui.players.controller import PlayersController

out = sys.argv[1]
app = make_app([])
win = open_window(sample_path())
found = {}

def go():
    ctl = win.findChild(PlayersController)
    ctl.open()
    ctl.choose_screen("HDMI-1")
    pw = ctl.players_window
    def shoot():
        g, j = pw.geometry(), win.geometry()
        found.update(
            screens=[(s.name(), s.geometry().width(), s.geometry().height())
                     for s in QGuiApplication.screens()],
            players=[pw.screen().name(), g.x(), g.y(), g.width(), g.height(), pw.isFullScreen()],
            judge=[win.screen().name(), j.width(), j.height()],
        )
        for name, w in (("players", pw), ("judge", win)):
            img = w.grab().toImage()
            img.save(f"{out}/{name}.png")
            found[name + "_colours"] = len({img.pixel(x, y)
                                            for x in range(0, img.width(), 37)
                                            for y in range(0, img.height(), 37)})
        json.dump(found, open(f"{out}/found.json", "w"))
        app.quit()
    QTimer.singleShot(1500, shoot)

QTimer.singleShot(500, go)
QTimer.singleShot(20000, app.quit)
app.exec()
"""


def test_the_players_window_fills_a_1920_display_beside_a_1366_laptop(tmp_path: Path):
    screens = [screen("laptop", 0, 1366, 768), screen("HDMI-1", 1366, 1920, 1080)]
    run = run_script(tmp_path, SCRIPT, screens=screens, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads((tmp_path / "found.json").read_text())
    assert ["HDMI-1", 1920, 1080] in [list(s) for s in found["screens"]]
    assert found["players"] == ["HDMI-1", 1366, 0, 1920, 1080, True]
    assert found["judge"][0] == "laptop" and found["judge"][1] <= 1366
    assert found["players_colours"] > 5 and found["judge_colours"] > 5  # drawn, not blank


FIRST_F12 = r"""
import json, sys
from PySide6.QtCore import QTimer, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from twtw_desktop.ui.window.app import make_app, open_window, sample_path
from twtw_desktop.ui.players.controller import PlayersController

out = sys.argv[1]
app = make_app([])
win = open_window(sample_path())
found = {}

def go():
    win.activateWindow()
    ctl = win.findChild(PlayersController)
    found["chosen_before"] = ctl.settings.screen_name
    QTest.keyClick(win, Qt.Key.Key_F12)  # the Judge's first F12
    pw = ctl.players_window
    def check():
        g = pw.geometry()
        found["players"] = [pw.screen().name(), g.x(), g.y(), g.width(), g.height(),
                            pw.isFullScreen()]
        found["judge_screen"] = win.screen().name()
        # keys go to the focus window: F1 and every shortcut still reach the Judge
        fw = QGuiApplication.focusWindow()
        found["focus_window_is_judge"] = fw is win.windowHandle()
        found["players_active"] = pw.isActiveWindow()
        found["no_focus_flag"] = bool(pw.windowFlags() & Qt.WindowType.WindowDoesNotAcceptFocus)
        ctl._fill_screens()
        found["marked"] = [a.text() for a in ctl.screen_menu.actions() if a.isChecked()]
        found["chosen_after"] = ctl.settings.screen_name
        json.dump(found, open(f"{out}/found.json", "w"))
        app.quit()
    QTimer.singleShot(1500, check)

QTimer.singleShot(500, go)
QTimer.singleShot(20000, app.quit)
app.exec()
"""


def test_the_first_f12_goes_full_screen_on_the_largest_other_display(tmp_path: Path):
    """Issue 27: at a table with a laptop, a TV and a small monitor, the first F12
    fills the TV (the largest display that is not the Judge's) and the Judge's window
    keeps the keyboard; the Display menu marks the TV."""
    screens = [
        screen("laptop", 0, 1366, 768),
        screen("small", 1366, 1024, 768),
        screen("TV", 2390, 1920, 1080),
    ]
    run = run_script(tmp_path, FIRST_F12, screens=screens, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "requestActivate" not in run.stderr  # the players' window is never activated
    found = json.loads((tmp_path / "found.json").read_text())
    assert found["chosen_before"] == ""
    assert found["judge_screen"] == "laptop"
    assert found["players"] == ["TV", 2390, 0, 1920, 1080, True]
    assert found["chosen_after"] == "TV"
    assert found["marked"] and found["marked"][0].startswith("TV")
    assert found["no_focus_flag"] and not found["players_active"]
    assert found["focus_window_is_judge"]
