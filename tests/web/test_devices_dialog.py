"""View ▸ Players' devices… in the window: Start on loopback shows a QR code and an
address per page; a step at the table and the players' screen's "Name the hombres"
switch reach an open page; New addresses and Stop revoke; closing the window stops
the service."""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import threading
import urllib.error
import urllib.request

import pytest

pytest.importorskip("PySide6.QtWidgets")

import aiohttp

from twtw_desktop.play.actions import Place

from .conftest import WAIT

MOVER = "token-hank_daggett"


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("TWTW_DATA_DIR", str(tmp_path / "app-data"))
    from tests.ui.conftest import fresh_window
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    for f in maps_dir().glob("main_street.*.json"):  # a copy: the window journals beside it
        shutil.copy(f, tmp_path / f.name)
    win = fresh_window(qtbot, tmp_path, monkeypatch, show=False)
    win.set_document(EncounterDocument.open(tmp_path / "main_street.encounter.json"))
    return win


class Listener(threading.Thread):
    """One device: a WebSocket on its own thread, every message kept (bounded)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.messages: list[dict] = []
        self.stop = threading.Event()

    def run(self) -> None:
        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(self.url + "ws") as ws:
                while not self.stop.is_set():
                    try:
                        msg = await asyncio.wait_for(ws.receive(), 0.2)
                    except TimeoutError:
                        continue
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        return
                    self.messages.append(json.loads(msg.data))

        asyncio.run(go())


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_the_dialog_serves_the_window_table(window, qtbot):
    act = window.findChild(type(window.act_undo), "act_players_devices")
    assert act is not None and act in window.view_menu.actions()
    act.trigger()
    dlg = window.devices.dialog
    assert dlg is not None and not window.devices.running
    assert dlg.shown == [] and "nothing is served" in dlg.status.text()
    dlg.interface.setCurrentIndex(0)  # this computer only
    dlg.port.setValue(0)
    dlg.start_button.click()
    assert window.devices.running, dlg.status.text()
    keys = [a.key for a in dlg.shown]
    assert keys[-1] == "table" and len(keys) == 1 + sum(
        c.side == "posse" for c in window.document.encounter.characters
    )
    # rewritten: every page's code is no longer shown side by side (issue 36); one
    # at a time, chosen by the Judge (test_one_code_at_a_time_and_one_page_revoked)
    for a in dlg.shown:
        assert dlg.findChild(type(dlg.status), f"devices_now_{a.key}").text() == "no device"
    url = next(a.url for a in dlg.shown if a.key == "table")
    dev = Listener(url)
    dev.start()
    try:
        qtbot.waitUntil(lambda: len(dev.messages) >= 1, timeout=WAIT * 1000)
        first = dev.messages[0]["full"]
        start = window.document.token(MOVER).at
        window.document.apply(Place(who=MOVER, to=(start.q + 1, start.r)))
        qtbot.waitUntil(lambda: len(dev.messages) >= 2, timeout=WAIT * 1000)
        assert dev.messages[1]["seq"] == 2 and "tokens" in dev.messages[1]["patch"]
        window.document.undo_stack.undo()  # undo reaches the pages too
        qtbot.waitUntil(lambda: len(dev.messages) >= 3, timeout=WAIT * 1000)
        window.document.undo_stack.redo()
        qtbot.waitUntil(lambda: len(dev.messages) >= 4, timeout=WAIT * 1000)
        assert dev.messages[3]["patch"] == dev.messages[1]["patch"]
        named = [t for t in first["tokens"].values() if t["side"] != "posse" and "name" in t]
        assert named  # "Name the hombres" is on by default
        window.players_screen.act_names.setChecked(False)
        qtbot.waitUntil(lambda: len(dev.messages) >= 5, timeout=WAIT * 1000)
        patch = dev.messages[4]["patch"]["tokens"]
        assert all(v.get("name", 0) is None for v in patch.values())
    finally:
        dev.stop.set()
        dev.join(WAIT)
    dlg.new_button.click()
    assert status(url) == 403 and status(dlg.shown[-1].url) == 200
    port = window.devices.service.port
    dlg.start_button.click()  # Stop
    assert not window.devices.running and dlg.shown == []
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    dlg.start_button.click()
    assert window.devices.running
    window.show()
    window.close()
    qtbot.waitUntil(lambda: not window.devices.running, timeout=WAIT * 1000)


def test_one_code_at_a_time_and_one_page_revoked(qtbot, tmp_path, monkeypatch):
    """At 1366×768 with real clicks: Start on loopback, no code shown until the Judge
    picks a page, then that page's alone; a phone on Jonah's page is listed with its
    address and time; "New address" on Jonah's page closes it and refuses the old
    address while Hank's page keeps working."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel, QPushButton

    from tests.ui.conftest import fresh_window
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    monkeypatch.setenv("TWTW_DATA_DIR", str(tmp_path / "app-data"))
    for f in maps_dir().glob("main_street.*.json"):
        shutil.copy(f, tmp_path / f.name)
    win = fresh_window(qtbot, tmp_path, monkeypatch)  # shown at 1366×768
    win.set_document(EncounterDocument.open(tmp_path / "main_street.encounter.json"))
    L = Qt.MouseButton.LeftButton

    def button(name: str) -> QPushButton:
        b = dlg.findChild(QPushButton, name)
        assert b is not None, name
        qtbot.waitUntil(lambda: b.isVisible() and b.isEnabled(), timeout=WAIT * 1000)
        return b

    win.findChild(type(win.act_undo), "act_players_devices").trigger()
    dlg = win.devices.dialog
    qtbot.waitExposed(dlg)
    assert dlg.width() <= 1366 and dlg.height() <= 768
    qtbot.mouseClick(dlg.interface, L)  # this computer only: the first entry
    qtbot.keyClick(dlg.interface.view(), Qt.Key.Key_Home)
    qtbot.keyClick(dlg.interface.view(), Qt.Key.Key_Return)
    dlg.port.setFocus()
    dlg.port.selectAll()
    qtbot.keyClicks(dlg.port, "0")
    qtbot.mouseClick(button("devices_start"), L)
    assert win.devices.running, dlg.status.text()
    assert dlg.interface.currentData() == "127.0.0.1"
    url = {a.key: a.url for a in dlg.shown}
    code, shown_url = dlg.findChild(QLabel, "devices_qr"), dlg.findChild(QLabel, "devices_url")
    assert code.pixmap().isNull() and shown_url.text() == ""  # nothing until chosen
    assert len(dlg.findChildren(QLabel, "devices_qr")) == 1
    qtbot.mouseClick(button("devices_show_hank_daggett"), L)
    assert shown_url.text() == url["hank_daggett"] and not code.pixmap().isNull()
    hank_code = code.pixmap().toImage()
    qtbot.mouseClick(button("devices_show_jonah_benton"), L)
    assert shown_url.text() == url["jonah_benton"] and code.pixmap().toImage() != hank_code
    assert url["hank_daggett"] not in [w.text() for w in dlg.findChildren(QLabel)]

    phone = Listener(url["jonah_benton"])
    phone.start()
    try:
        jonah_now = dlg.findChild(QLabel, "devices_now_jonah_benton")
        qtbot.waitUntil(lambda: "127.0.0.1 since " in jonah_now.text(), timeout=WAIT * 1000)
        assert dlg.findChild(QLabel, "devices_now_hank_daggett").text() == "no device"
        qtbot.mouseClick(button("devices_revoke_jonah_benton"), L)
        phone.join(WAIT)  # its socket is closed: the listener ends by itself
        assert not phone.is_alive()
        qtbot.waitUntil(  # the rows are rebuilt with the new address: found again
            lambda: dlg.findChild(QLabel, "devices_now_jonah_benton").text() == "no device",
            timeout=WAIT * 1000,
        )
    finally:
        phone.stop.set()
        phone.join(WAIT)
    new = {a.key: a.url for a in dlg.shown}
    assert new["jonah_benton"] != url["jonah_benton"]
    assert {k: v for k, v in new.items() if k != "jonah_benton"} == {
        k: v for k, v in url.items() if k != "jonah_benton"
    }
    assert status(url["jonah_benton"]) == 403 and status(new["jonah_benton"]) == 200
    assert status(url["hank_daggett"]) == 200
    assert dlg.findChild(QLabel, "devices_url").text() == new["jonah_benton"]
    qtbot.mouseClick(button("devices_hide"), L)
    assert dlg.findChild(QLabel, "devices_qr").pixmap().isNull()
    qtbot.mouseClick(button("devices_start"), L)  # Stop
    assert not win.devices.running


def test_ask_to_join_lists_the_new_device_until_let_in(window, qtbot):
    """With real clicks at 1366×768: "Ask to join" on, a device opening Miranda's page
    is listed as asking and sent nothing; "Let in" on her row sends it her page."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton

    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    L = Qt.MouseButton.LeftButton
    window.findChild(type(window.act_undo), "act_players_devices").trigger()
    dlg = window.devices.dialog
    qtbot.waitExposed(dlg)
    dlg.interface.setCurrentIndex(0)  # this computer only (clicked in the test above)
    dlg.port.setValue(0)
    qtbot.mouseClick(dlg.findChild(QPushButton, "devices_start"), L)
    ask = dlg.findChild(QCheckBox, "devices_ask")
    qtbot.mouseClick(ask, L, pos=ask.rect().center())
    assert ask.isChecked() and window.devices.service.ask_to_join
    url = next(a.url for a in dlg.shown if a.key == "miranda_valentine")
    dev = Listener(url)
    dev.start()
    try:
        qtbot.waitUntil(
            lambda: (
                "(asks to join)" in dlg.findChild(QLabel, "devices_now_miranda_valentine").text()
            ),
            timeout=WAIT * 1000,
        )
        assert dev.messages == []
        let_in = dlg.findChild(QPushButton, "devices_let_in_miranda_valentine")
        qtbot.waitUntil(let_in.isVisible, timeout=WAIT * 1000)
        assert not dlg.findChild(QPushButton, "devices_let_in_hank_daggett").isVisible()
        qtbot.mouseClick(let_in, L)
        qtbot.waitUntil(lambda: len(dev.messages) >= 1, timeout=WAIT * 1000)
        assert "full" in dev.messages[0]
        qtbot.waitUntil(lambda: not let_in.isVisible(), timeout=WAIT * 1000)
    finally:
        dev.stop.set()
        dev.join(WAIT)
    qtbot.mouseClick(dlg.findChild(QPushButton, "devices_start"), L)  # Stop
    assert not window.devices.running
