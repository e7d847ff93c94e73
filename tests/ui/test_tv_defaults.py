"""The TV at the table by default (issue 37): when the players' screen goes full screen
on a display other than the Judge's, miniature scale is on — one-inch hexes from the
size the display reports, or a diagonal asked once and remembered — until the Judge
turns it off; and a ping no window manager takes: Shift+P rings the hex under the
mouse, and a token's menu rings its hex."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from twtw_desktop.ui.players.miniature_dialog import MiniatureDialog
from twtw_desktop.ui.players.view import PingRing

from .test_players_screen import answers, open_players, settings, win
from .test_players_tv import TV_PPI, hex_px, tv_display

__all__ = ["answers", "settings", "win"]  # fixtures shared with the players' screen tests

TV_SCRIPT = r"""
import json, math, sys
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from twtw_desktop.hexgrid import Hex
from twtw_desktop.ui.window.app import make_app, open_window
from twtw_desktop.ui.players.controller import PlayersController

out = sys.argv[1]
app = make_app([])
win = open_window(None)  # the first run: the sample
found = {}

def hex_px(view):
    fr = view.map_scene.frame
    a = view.mapFromScene(fr.center(Hex(0, 0)))
    b = view.mapFromScene(fr.center(Hex(10, 0)))
    return math.hypot(b.x() - a.x(), b.y() - a.y()) / 10

def f12():
    win.map_view.setFocus()
    QTest.keyClick(win.map_view, Qt.Key.Key_F12)

def first():
    f12()  # the first F12 at a table with a TV
    QTimer.singleShot(1500, measure)

def measure():
    ctl = win.findChild(PlayersController)
    pw = ctl.players_window
    found["screen"], found["full"] = pw.screen().name(), pw.isFullScreen()
    found["ticked"] = ctl.act_miniature.isChecked()
    found["hex_px"] = hex_px(pw.view)
    ctl.act_miniature.trigger()  # View > Players' screen options > Miniature scale: off
    found["off_px"] = hex_px(pw.view)
    f12()  # closed …
    f12()  # … and opened again: it stays off
    QTimer.singleShot(1500, again)

def again():
    ctl = win.findChild(PlayersController)
    pw = ctl.players_window
    found["again_full"] = pw.isFullScreen()
    found["again_ticked"] = ctl.act_miniature.isChecked()
    found["again_mini"] = pw.view.miniature is not None
    json.dump(found, open(f"{out}/found.json", "w"))
    app.quit()

QTimer.singleShot(800, first)
QTimer.singleShot(30000, app.quit)
app.exec()
"""


@pytest.mark.slow
def test_full_screen_on_a_tv_means_one_inch_hexes_until_the_judge_says_no(tmp_path):
    """On a laptop with a 1920×1080 TV beside it (Qt's offscreen displays report 100
    pixels per inch), the first F12 puts the players' screen full screen on the TV
    with one-inch hexes (100 px); turned off, it stays off."""
    from .app_process import run_script, screen

    screens = [screen("laptop", 0, 1366, 768), screen("TV", 1366, 1920, 1080)]
    run = run_script(tmp_path, TV_SCRIPT, screens=screens, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads((tmp_path / "found.json").read_text())
    assert found["screen"] == "TV" and found["full"]
    assert found["ticked"]
    assert found["hex_px"] / 100 == pytest.approx(1.0, rel=0.02)
    assert abs(found["off_px"] - 100) > 2  # the camera zooms again
    assert found["again_full"] and not found["again_ticked"] and not found["again_mini"]


def test_a_windowed_players_screen_on_the_judges_display_stays_zoomable(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    assert not ctl.on_a_tv()
    assert not ctl.act_miniature.isChecked() and pw.view.miniature is None
    assert ctl.settings.miniature is None  # nothing chosen yet


def test_a_display_that_does_not_report_its_size_is_asked_once(qtbot, win, monkeypatch):
    tv_display(monkeypatch, (0.0, 0.0))
    asked: list[str] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, MiniatureDialog):
            QTimer.singleShot(20, answer)
            return
        asked.append(dlg.info.text())
        dlg.diagonal.setFocus()
        dlg.diagonal.selectAll()
        qtbot.keyClicks(dlg.diagonal, "55")
        qtbot.keyClick(dlg.diagonal, Qt.Key.Key_Return)

    QTimer.singleShot(0, answer)
    ctl, pw = open_players(qtbot, win)
    ctl.act_miniature.trigger()  # the Judge turns it on
    qtbot.waitUntil(lambda: bool(asked), timeout=3000)
    assert "does not report its size" in asked[0]
    assert ctl.settings.diagonal == 55
    qtbot.waitUntil(lambda: pw.view.miniature is not None, timeout=3000)
    assert hex_px(pw.view) / TV_PPI == pytest.approx(1.0, rel=0.02)
    # the next time the diagonal is known: nothing asked
    ctl.settings.diagonal = 0  # (even forgotten, the question is not asked twice)
    ctl.close()
    ctl.open()
    qtbot.wait(100)
    assert QApplication.activeModalWidget() is None and len(asked) == 1


def test_shift_p_rings_the_hex_under_the_mouse_on_the_tv(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    pw.view.ping_ms = 60
    doc = win.document
    mv = win.map_view
    h = doc.token("t-angus").at
    mv.center_on_hex(h)
    p = mv.mapFromScene(mv.map_scene.frame.center(h))
    qtbot.mouseMove(mv.viewport(), p)
    qtbot.waitUntil(lambda: mv.hovered_hex() == h, timeout=2000)
    # (the offscreen test display puts the players' window over the Judge's, and the
    # pointer activates it; at a table it is on the TV)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=2000)
    before = list(doc.encounter.log), doc.selected_token_id
    qtbot.keyClick(mv, Qt.Key.Key_P, Qt.KeyboardModifier.ShiftModifier)
    (ring,) = pw.view.pushed["ping"]
    assert isinstance(ring, PingRing) and ring.hex == h
    assert (list(doc.encounter.log), doc.selected_token_id) == before  # not a table step
    qtbot.waitUntil(lambda: "ping" not in pw.view.pushed, timeout=3000)


def test_a_tokens_menu_rings_its_hex(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    pw.view.ping_ms = 60
    doc = win.document
    mv = win.map_view
    h = doc.token("t-hank").at
    mv.center_on_hex(h)
    p = mv.mapFromScene(mv.map_scene.frame.center(h))
    chosen: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, pick)
            return
        act = next(a for a in menu.actions() if a.objectName() == "act_token_ping")
        chosen.append(act.text())
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(act).center())

    QTimer.singleShot(0, pick)
    vp = mv.viewport()
    QApplication.sendEvent(
        vp, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, p, vp.mapToGlobal(p))
    )
    assert chosen == ["Ring this hex on the players' screen"]
    (ring,) = pw.view.pushed["ping"]
    assert ring.hex == h
    assert not doc.undo_stack.canUndo()


def test_help_names_the_ping_key(qtbot, win):
    from twtw_desktop.ui.menus.help_menu import shortcut_rows

    rows = shortcut_rows(win)
    assert any(k == "Shift+P" and "Ring the hex under the mouse" in t for k, t, _w in rows), rows
    win.help_menu.act_quick_start.trigger()  # Help ▸ Quick start says it too
    dlg = win.help_menu.dialog
    text = " ".join(dlg.view.toPlainText().split())
    assert "Shift+P rings the hex under the mouse" in text
    assert "one-inch hexes" in text and "nearest enemy in sight" in text
    dlg.close()
