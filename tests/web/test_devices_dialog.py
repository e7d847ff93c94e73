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
    from twtw_desktop.ui.document import EncounterDocument

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
    for a in dlg.shown:
        qr = dlg.findChild(type(dlg.status), f"devices_qr_{a.key}")
        assert qr is not None and not qr.pixmap().isNull() and qr.pixmap().width() >= 100
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
