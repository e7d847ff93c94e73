"""The TV on the table (issue 29), in the real windows: miniature scale (hexes of a
physical size, the zoom locked), the frame of the TV's view on the Judge's map (drag,
Alt+arrow, remembered), the ping (Alt+click), the blackout (Ctrl+B), and a card
pushed with the players' screen closed reaching the players' devices."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage

from twtw_desktop.ui.core.commands import SnapshotCommand
from twtw_desktop.ui.menus.help_menu import shortcut_rows
from twtw_desktop.ui.players import miniature
from twtw_desktop.ui.players.miniature import px_per_inch
from twtw_desktop.ui.players.miniature_dialog import MiniatureDialog
from twtw_desktop.ui.players.settings import PlayersSettings
from twtw_desktop.ui.players.view import PingRing
from twtw_desktop.ui.scene.map_items import Z_TOOL

from .test_players_screen import answers, controller, open_players, settings, win

__all__ = ["answers", "settings", "win"]  # fixtures shared with the players' screen tests

#: a 55-inch 16:9 panel: 1217.7 × 685.0 mm
TV_MM = (55 * 25.4 * 16 / math.hypot(16, 9), 55 * 25.4 * 9 / math.hypot(16, 9))
TV_PPI = math.hypot(1920, 1080) / 55


def hex_px(view) -> float:
    """The distance on the players' view between two neighbouring hex centres (a
    hex's width across its flats), in pixels."""
    from twtw_desktop.hexgrid import Hex

    fr = view.map_scene.frame
    a = view.mapFromScene(fr.center(Hex(3, 3)))
    b = view.mapFromScene(fr.center(Hex(4, 3)))
    # mapFromScene rounds to whole pixels: measure over ten hexes instead
    c = view.mapFromScene(fr.center(Hex(13, 3)))
    assert abs(math.hypot(b.x() - a.x(), b.y() - a.y()) - math.hypot(c.x() - a.x(), 0) / 10) < 2
    return math.hypot(c.x() - a.x(), c.y() - a.y()) / 10


def tv_display(monkeypatch, mm=TV_MM):
    """The players' display reports itself as a 1920×1080 panel of ``mm``."""
    monkeypatch.setattr(miniature, "screen_metrics", lambda _s: (1920.0, 1080.0, *mm))


# -- the arithmetic -----------------------------------------------------------------------


def test_pixels_per_inch_from_the_reported_size_or_the_typed_diagonal():
    assert px_per_inch(1920, 1080, *TV_MM) == pytest.approx(TV_PPI, rel=1e-3)
    # a typed diagonal wins over a wrong report
    assert px_per_inch(1920, 1080, 1600, 900, 55) == pytest.approx(TV_PPI)
    assert px_per_inch(1920, 1080, 0, 0) is None  # no size reported, none typed
    assert px_per_inch(1920, 1080, 0, 0, 55) == pytest.approx(TV_PPI)


def test_bad_miniature_settings_are_refused_with_one_line_and_change_nothing(tmp_path):
    from PySide6.QtCore import QSettings

    s = PlayersSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    s.hex_inches, s.diagonal = 1.5, 55
    for attr, bad in (("hex_inches", 10), ("hex_inches", "one"), ("diagonal", 2), ("diagonal", -5)):
        with pytest.raises(ValueError) as e:
            setattr(s, attr, bad)
        assert "\n" not in str(e.value) and repr(bad) in str(e.value)
    assert (s.hex_inches, s.diagonal) == (1.5, 55)
    s.diagonal = 0  # trust the display again
    assert s.diagonal == 0


# -- miniature scale --------------------------------------------------------------------------


def test_one_inch_hexes_on_a_55_inch_1920x1080_display(qtbot, win, monkeypatch):
    """The issue's measure: at one-inch hexes on a 55" 1920×1080 display, a hex
    measures one inch within 2 % — from the size the display reports, and from the
    typed diagonal where it reports a wrong one."""
    tv_display(monkeypatch)
    ctl, pw = open_players(qtbot, win)
    ctl.set_miniature(True)
    assert hex_px(pw.view) / TV_PPI == pytest.approx(1.0, rel=0.02)
    # a display that says it is 30": the hexes would come out too big …
    tv_display(monkeypatch, (664.0, 373.5))
    ctl._apply_miniature()
    assert hex_px(pw.view) / TV_PPI > 1.5
    # … until the Judge types its diagonal
    ctl.settings.diagonal = 55
    ctl._apply_miniature()
    assert hex_px(pw.view) / TV_PPI == pytest.approx(1.0, rel=0.02)
    # two-inch hexes
    ctl.settings.hex_inches = 2
    ctl._apply_miniature()
    assert hex_px(pw.view) / TV_PPI == pytest.approx(2.0, rel=0.02)


def test_at_miniature_scale_the_zoom_is_locked_and_the_camera_only_pans(qtbot, win, monkeypatch):
    tv_display(monkeypatch)
    ctl, pw = open_players(qtbot, win)
    v = pw.view
    ctl.settings.hex_inches = 3  # hexes big enough that the map overflows the TV
    ctl.set_miniature(True)
    scale = v.transform().m11()
    ctl.set_camera("fit_map")  # would zoom out to the whole map
    assert v.transform().m11() == scale
    assert v.centre().x() == pytest.approx(v.map_scene.frame.bounds().center().x(), abs=2)
    ctl.set_camera("follow")
    win.map_view.zoom_in()
    win.map_view.zoom_in()
    win.map_view.centerOn(QPointF(300, 250))
    assert v.transform().m11() == scale  # the Judge's zoom does not reach the TV
    judge = win.map_view.visible_scene_rect().center()
    assert v.centre().x() == pytest.approx(judge.x(), abs=3)
    assert v.centre().y() == pytest.approx(judge.y(), abs=3)
    from PySide6.QtCore import QPointF as P
    from PySide6.QtGui import QWheelEvent

    ev = QWheelEvent(
        P(50, 50), P(50, 50), QPoint(0, 0), QPoint(0, 480),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    v.wheelEvent(ev)
    assert v.transform().m11() == scale
    # off again: the camera zooms to fit once more
    ctl.set_camera("fit_map")
    ctl.set_miniature(False)
    assert v.transform().m11() != scale
    assert ctl.settings.miniature is False


def test_the_miniature_dialog_saves_and_refuses_a_too_small_diagonal(qtbot, win, monkeypatch):
    tv_display(monkeypatch, (0.0, 0.0))
    ctl, pw = open_players(qtbot, win)
    dlg = MiniatureDialog(ctl.settings, pw.screen(), win)
    qtbot.addWidget(dlg)
    assert "does not report its size" in dlg.info.text()
    dlg.diagonal.setValue(3)
    dlg.accept()
    assert dlg.result() != MiniatureDialog.DialogCode.Accepted
    assert ctl.settings.diagonal == 0 and "at least" in dlg.info.text()
    dlg.diagonal.setValue(55)
    dlg.hex_inches.setValue(1.25)
    assert "40.1 pixels per inch" in dlg.info.text()
    dlg.accept()
    assert (ctl.settings.diagonal, ctl.settings.hex_inches) == (55, 1.25)


# -- the frame on the Judge's map ------------------------------------------------------------


def frame_items(win):
    return [
        it for it in win.map_view.map_scene.items() if it.data(0) == "tv_frame" and it.isVisible()
    ]


def test_the_frame_shows_the_tv_view_only_while_the_players_screen_is_open(qtbot, win):
    ctl = controller(win)
    assert frame_items(win) == []
    ctl, pw = open_players(qtbot, win)
    (item,) = frame_items(win)
    assert item.zValue() > Z_TOOL
    r, vis = item.rect(), pw.view.visible_scene_rect()
    assert (r.left(), r.top(), r.width(), r.height()) == pytest.approx(
        (vis.left(), vis.top(), vis.width(), vis.height()), abs=1
    )
    ctl.move_tv_hexes(2, 0)  # the frame follows the TV's view
    assert frame_items(win)[0].rect().center().x() == pytest.approx(
        pw.view.visible_scene_rect().center().x(), abs=1
    )
    ctl.close()
    assert frame_items(win) == []


def test_dragging_the_frame_moves_the_tv_view(qtbot, win, monkeypatch):
    tv_display(monkeypatch)
    ctl, pw = open_players(qtbot, win, 600, 360)
    ctl.settings.hex_inches = 2  # a TV's view smaller than the map: it can move
    ctl.set_miniature(True)
    mv = win.map_view
    mv.zoom_fit()
    (item,) = frame_items(win)
    edge = mv.mapFromScene(item.rect().topLeft()) + QPoint(0, 20)  # on the left edge
    assert mv.viewport().rect().contains(edge), "the frame's edge is on the Judge's view"
    before = pw.view.centre()
    start = mv.mapToScene(edge)
    qtbot.mousePress(mv.viewport(), Qt.MouseButton.LeftButton, pos=edge)
    to = edge + QPoint(40, 25)
    qtbot.mouseMove(mv.viewport(), pos=edge + QPoint(20, 10))
    qtbot.mouseMove(mv.viewport(), pos=to)
    qtbot.mouseRelease(mv.viewport(), Qt.MouseButton.LeftButton, pos=to)
    moved = mv.mapToScene(to) - start
    after = pw.view.centre()
    assert after.x() - before.x() == pytest.approx(moved.x(), abs=3)
    assert after.y() - before.y() == pytest.approx(moved.y(), abs=3)
    assert pw.view.camera == "lock"
    assert ctl.settings.tv_centre is not None
    # the drag was the frame's: no token was selected or moved by it
    assert win.document.selected_token_id is None


def test_alt_arrows_move_the_tv_view_one_hex_and_it_survives_reopening(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    win.activateWindow()
    v = pw.view
    fr = v.map_scene.frame
    ctl.set_camera("lock")
    before = v.centre()
    judge = win.map_view.visible_scene_rect()
    qtbot.keyClick(win.map_view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    qtbot.keyClick(win.map_view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    after = v.centre()
    px = 2.5 / v.transform().m11()  # the view stops on whole pixels (centerOn: 1-2 short)
    assert after.x() - before.x() == pytest.approx(fr.hex_width, abs=px)
    assert after.y() - before.y() == pytest.approx(1.5 * fr.unit, abs=px)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Right):
        qtbot.keyClick(win.map_view, key, Qt.KeyboardModifier.AltModifier)
    # steps do not drift by a pixel's rounding each
    assert v.centre().x() - before.x() == pytest.approx(3 * fr.hex_width, abs=px)
    after = v.centre()
    assert win.map_view.visible_scene_rect() == judge  # the Judge's view stayed put
    ctl.close()
    pw = ctl.open()
    qtbot.waitExposed(pw)
    pw.resize(1000, 640)
    assert pw.view.camera == "lock"
    again = pw.view.centre()
    assert (again.x(), again.y()) == pytest.approx((after.x(), after.y()), abs=2)
    # closed, the keys do nothing (and Alt+arrows are free for the rest of the window)
    ctl.close()
    assert not ctl.tv_moves["right"].isEnabled()


def test_the_tv_keys_are_in_the_shortcut_list_and_clash_with_none(qtbot, win):
    rows = shortcut_rows(win)
    mine = {t: k for k, t, _w in rows}
    assert mine["Blackout"] == "Ctrl+B"
    assert mine["Move the TV's view left"] == "Alt+Left"
    assert mine["Move the TV's view down"] == "Alt+Down"
    tv = {"Ctrl+B", "Alt+Left", "Alt+Right", "Alt+Up", "Alt+Down"}
    for key in tv:  # each does one thing only
        assert len([t for k, t, _w in rows if key in k.split(", ")]) == 1, key


# -- ping and blackout -------------------------------------------------------------------------


def click_hex(qtbot, win, h, modifier=Qt.KeyboardModifier.AltModifier):
    mv = win.map_view
    mv.center_on_hex(h)
    p = mv.mapFromScene(mv.map_scene.frame.center(h))
    qtbot.mouseClick(mv.viewport(), Qt.MouseButton.LeftButton, modifier, p)


def test_alt_click_pings_a_hex_on_the_tv_for_a_moment(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    pw.view.ping_ms = 60
    doc = win.document
    h = doc.token("t-angus").at
    before = list(doc.encounter.log), doc.selected_token_id
    click_hex(qtbot, win, h)
    (ring,) = pw.view.pushed["ping"]
    assert isinstance(ring, PingRing) and ring.hex == h and ring.scene() is pw.view.map_scene
    assert (list(doc.encounter.log), doc.selected_token_id) == before  # not a table step
    assert not doc.undo_stack.canUndo()
    qtbot.waitUntil(lambda: "ping" not in pw.view.pushed, timeout=3000)
    assert ring.scene() is None


def test_a_ping_on_a_hidden_tokens_hex_rings_only_the_hex(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    doc = win.document
    h = doc.token("t-felicia").at  # hidden from the players
    click_hex(qtbot, win, h)
    (ring,) = pw.view.pushed["ping"]
    assert ring.hex == h
    assert "t-felicia" not in pw.view.map_scene.tokens  # still no item for her
    assert not pw.view.token_shown("t-felicia")


def black_share(img: QImage) -> float:
    pts = [(x, y) for x in range(0, img.width(), 13) for y in range(0, img.height(), 13)]
    return sum(img.pixelColor(x, y).rgb() & 0xFFFFFF == 0 for x, y in pts) / len(pts)


def test_ctrl_b_blacks_the_tv_out_and_back(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    doc = win.document
    doc.push(SnapshotCommand(doc, "draw", lambda: doc.deck.draw(), {"deck"}))
    ctl.show_last_card()  # the card and the strip go black too
    win.activateWindow()
    qtbot.keyClick(win.map_view, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert ctl.act_blackout.isChecked()
    img = pw.grab().toImage()
    assert black_share(img) == 1.0
    qtbot.keyClick(win.map_view, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert not ctl.act_blackout.isChecked()
    assert black_share(pw.grab().toImage()) < 0.2
    # a blackout lasts one rearranging: closing the screen ends it
    ctl.set_blackout(True)
    ctl.close()
    assert not ctl.act_blackout.isChecked()
    pw = ctl.open()
    assert pw.blackout is None


# -- pushes reach the devices without the players' screen ------------------------------------


def test_the_last_card_reaches_the_devices_with_the_players_screen_closed(qtbot, win):
    ctl = controller(win)
    assert not ctl.is_open
    doc = win.document
    doc.push(SnapshotCommand(doc, "draw", lambda: doc.deck.draw(), {"deck"}))
    card = doc.deck.last_cards(1)[-1]
    ctl.act_show_card.trigger()
    frame = win.devices.frame()
    assert frame.card == {"n": int(card.number), "shield": int(card.shield)}
    ctl.clear()
    assert win.devices.frame().card is None


# -- a real second display ----------------------------------------------------------------------

TV_SCRIPT = r"""
import json, math, sys
from PySide6.QtCore import QTimer
from twtw_desktop.hexgrid import Hex
from twtw_desktop.ui.window.app import make_app, open_window, sample_path
from twtw_desktop.ui.players.controller import PlayersController

out = sys.argv[1]
app = make_app([])
win = open_window(sample_path())
found = {}

def hex_px(view):
    fr = view.map_scene.frame
    a = view.mapFromScene(fr.center(Hex(0, 0)))
    b = view.mapFromScene(fr.center(Hex(10, 0)))
    return math.hypot(b.x() - a.x(), b.y() - a.y()) / 10

def go():
    ctl = win.findChild(PlayersController)
    ctl.settings.diagonal = 55  # the Judge types the TV's diagonal
    ctl.set_miniature(True)
    ctl.open()
    ctl.choose_screen("TV")
    pw = ctl.players_window
    def measure():
        found["screen"] = pw.screen().name()
        found["full"] = pw.isFullScreen()
        found["typed"] = hex_px(pw.view)
        ctl.settings.diagonal = 0  # trust the display: offscreen says 100 px per inch
        ctl._apply_miniature()
        found["reported"] = hex_px(pw.view)
        json.dump(found, open(f"{out}/found.json", "w"))
        app.quit()
    QTimer.singleShot(1500, measure)

QTimer.singleShot(500, go)
QTimer.singleShot(20000, app.quit)
app.exec()
"""


@pytest.mark.slow
def test_one_inch_hexes_on_a_virtual_55_inch_1920x1080_tv(tmp_path):
    """The issue's "done when", on a display of Qt's own: a 1920×1080 TV beside a
    laptop (Qt's offscreen platform reports every display at 100 pixels per inch, so
    the Judge types the 55" diagonal), the players' screen full screen on it."""
    import json

    from .app_process import run_script, screen

    screens = [screen("laptop", 0, 1366, 768), screen("TV", 1366, 1920, 1080)]
    run = run_script(tmp_path, TV_SCRIPT, screens=screens, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads((tmp_path / "found.json").read_text())
    assert found["screen"] == "TV" and found["full"]
    assert found["typed"] / TV_PPI == pytest.approx(1.0, rel=0.02)
    assert found["reported"] / 100 == pytest.approx(1.0, rel=0.02)


def test_rings_reach_the_devices_pages_without_showing_a_hidden_token(qtbot, win, monkeypatch):
    """A ping and "show this" on a hex ring it on the devices' pages for a moment;
    "show this" on a hex where a token the page does not see stands is dropped, a
    ping there rings the hex only."""
    from twtw_desktop.ui.devices import devices_dialog
    from twtw_desktop.web.state import TABLE_PAGE, PageBuilder

    monkeypatch.setattr(devices_dialog, "PING_MS", 60)
    ctl = controller(win)
    doc, dev = win.document, win.devices
    felicia = doc.token("t-felicia").at  # hidden from the players
    hank = doc.token("t-hank").at

    def page():
        return PageBuilder(TABLE_PAGE).state(dev.frame())

    doc.show_players("focus", hank)
    assert page()["ring"] == [hank.q, hank.r]
    doc.show_players("focus", felicia)
    state = page()
    assert "ring" not in state
    assert ctl.ping(felicia)
    state = page()
    assert state["ring"] == [felicia.q, felicia.r]
    assert all((t["q"], t["r"]) != (felicia.q, felicia.r) for t in state["tokens"].values())
    qtbot.waitUntil(lambda: dev.ring is None, timeout=3000)  # a ping lasts a moment
    assert "ring" not in page()
    doc.show_players("focus", hank)
    ctl.clear()
    assert dev.ring is None
