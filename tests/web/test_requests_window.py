"""The players' requests in the window at 1366×768, with real clicks and keys: a phone's
request waits in the "Players' requests" dock with the character and what it asks;
Approve applies it as one undoable step and the phone hears "approved"; Refuse… asks
a reason that the phone shows; Ctrl+Shift+Y approves every request waiting."""

from __future__ import annotations

import asyncio
import json
import queue
import shutil
import threading

import aiohttp
import pytest

pytest.importorskip("PySide6.QtWidgets")

from .conftest import WAIT

HANK = "token-hank_daggett"


class Phone(threading.Thread):
    """One page on its own thread: sends what it is given, keeps every answer."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.out: queue.SimpleQueue = queue.SimpleQueue()
        self.answers: list[dict] = []
        #: the answers to the page's options asks
        self.options: list[dict] = []
        self.first: dict | None = None
        self.stop = threading.Event()

    def send(self, declare: dict) -> None:
        self.out.put(json.dumps({"declare": declare}))

    def ask_options(self) -> None:
        self.out.put(json.dumps({"options": {}}))

    def run(self) -> None:
        async def go():
            async with aiohttp.ClientSession() as s, s.ws_connect(self.url + "ws") as ws:
                while not self.stop.is_set():
                    while not self.out.empty():
                        await ws.send_str(self.out.get())
                    try:
                        msg = await asyncio.wait_for(ws.receive(), 0.05)
                    except TimeoutError:
                        continue
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        return
                    self.heard(json.loads(msg.data))

        asyncio.run(go())

    def heard(self, data: dict) -> None:
        """One message from the table: kept by its kind."""
        if "full" in data:
            self.first = data["full"]
        if "request" in data:
            self.answers.append(data)
        if "options" in data:
            self.options.append(data)


def _seen_near(table, cid: str, taken=()) -> list[int]:
    m = table.map
    ever = table.sight.seen(cid, (m.rows, m.cols)).ever
    col, row = m.offset(table.token(f"token-{cid}").at)
    return next(
        [c + 1, r + 1]
        for c, r in ((col, row + 1), (col, row - 1), (col + 1, row), (col - 1, row))
        if ever[r, c] and table.encounter.token_at(m.hex_at(c, r)) is None
        and [c + 1, r + 1] not in taken
    )  # fmt: skip


def _serving_window(qtbot, tmp_path, monkeypatch):
    """The window at 1366×768 with Main Street open and the devices service started
    on this computer by clicks in its dialog: (window, {character id: page url})."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPushButton

    from tests.ui.conftest import fresh_window
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    monkeypatch.setenv("TWTW_DATA_DIR", str(tmp_path / "app-data"))
    for f in maps_dir().glob("main_street.*.json"):
        shutil.copy(f, tmp_path / f.name)
    win = fresh_window(qtbot, tmp_path, monkeypatch)  # shown at 1366×768
    win.set_document(EncounterDocument.open(tmp_path / "main_street.encounter.json"))
    L = Qt.MouseButton.LeftButton
    win.findChild(type(win.act_undo), "act_players_devices").trigger()
    dlg = win.devices.dialog
    qtbot.waitExposed(dlg)
    qtbot.mouseClick(dlg.interface, L)  # this computer only: the first entry
    qtbot.keyClick(dlg.interface.view(), Qt.Key.Key_Home)
    qtbot.keyClick(dlg.interface.view(), Qt.Key.Key_Return)
    dlg.port.setFocus()
    dlg.port.selectAll()
    qtbot.keyClicks(dlg.port, "0")
    qtbot.mouseClick(dlg.findChild(QPushButton, "devices_start"), L)
    assert win.devices.running, dlg.status.text()
    url = {a.key: a.url for a in dlg.shown}
    dlg.close()
    return win, url


def test_the_window_s_thread_never_works_out_a_page_s_options(qtbot, tmp_path, monkeypatch):
    """A page's options (asked after every update) are answered by the thread pool on
    a copy of the table, the asks of a page coalescing while one is answered: the
    window's thread never runs answer_options, and the phone still gets its reach,
    again after a step of the table."""
    import twtw_desktop.ui.devices.player_requests as ui_requests

    threads: list[threading.Thread] = []
    real = ui_requests.answer_options

    def recorded(*a, **k):
        threads.append(threading.current_thread())
        return real(*a, **k)

    monkeypatch.setattr(ui_requests, "answer_options", recorded)
    win, url = _serving_window(qtbot, tmp_path, monkeypatch)
    table = win.document.table
    table.sight.look(table)
    phone = Phone(url["hank_daggett"])
    phone.start()
    try:
        qtbot.waitUntil(lambda: phone.first is not None, timeout=WAIT * 1000)
        for _ in range(5):
            phone.ask_options()
        qtbot.waitUntil(lambda: len(phone.options) >= 1, timeout=WAIT * 1000)
        got = phone.options[-1]["options"]
        assert got["reach"] and got["actions"]
        phone.send({"do": "face", "facing": 4})
        qtbot.waitUntil(lambda: len(phone.answers) == 1, timeout=WAIT * 1000)
        phone.ask_options()
        n = len(phone.options)
        qtbot.waitUntil(lambda: len(phone.options) > n, timeout=WAIT * 1000)
    finally:
        phone.stop.set()
        phone.join(WAIT)
    assert threads and threading.main_thread() not in threads
    win.close()


def test_the_judge_approves_and_refuses_the_phones_requests(qtbot, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLineEdit, QPushButton

    win, url = _serving_window(qtbot, tmp_path, monkeypatch)
    L = Qt.MouseButton.LeftButton
    table = win.document.table
    table.sight.look(table)
    first_hex = _seen_near(table, "hank_daggett")
    phone = Phone(url["hank_daggett"])
    phone.start()
    try:
        qtbot.waitUntil(lambda: phone.first is not None, timeout=WAIT * 1000)
        start = table.token(HANK).at
        phone.send({"do": "move", "to": first_hex})
        phone.send({"do": "face", "facing": 4})
        qtbot.waitUntil(lambda: len(phone.answers) == 2, timeout=WAIT * 1000)
        assert [a["status"] for a in phone.answers] == ["waiting", "waiting"]
        assert table.token(HANK).at == start  # nothing changes before the Judge says so
        box = win.devices.requests.widget
        dock = win.devices.requests.dock
        qtbot.waitUntil(dock.isVisible, timeout=WAIT * 1000)
        n1, n2 = (a["request"] for a in phone.answers)
        row = box.findChild(type(win.devices.requests.empty), f"request_{n1}")
        assert row is not None and row.text().startswith("Hank Daggett: ")
        track = win.docks["dock_track"].widget()
        ap = track.ap_table
        r = track._row_ids.index("hank_daggett")
        assert ap.item(r, 0).data(Qt.ItemDataRole.DecorationRole) is not None
        assert "Request waiting" in ap.item(r, 0).statusTip()
        ok = box.findChild(QPushButton, f"request_approve_{n1}")
        qtbot.mouseClick(ok, L)
        qtbot.waitUntil(lambda: len(phone.answers) == 3, timeout=WAIT * 1000)
        assert phone.answers[2]["status"] == "approved"
        assert table.token(HANK).at != start
        # refused with a reason typed in the small dialog
        qtbot.mouseClick(box.findChild(QPushButton, f"request_refuse_{n2}"), L)
        ask = win.devices.requests.dialog
        qtbot.waitExposed(ask)
        reason = ask.findChild(QLineEdit, "refuse_reason")
        qtbot.keyClicks(reason, "Not yet, Hank")
        qtbot.keyClick(reason, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: len(phone.answers) == 4, timeout=WAIT * 1000)
        assert phone.answers[3] == {"request": n2, "status": "refused", "why": "Not yet, Hank"}
        # one key approves every request waiting
        moved = table.token(HANK).at
        phone.send({"do": "face", "facing": 1})
        phone.send({"do": "drop_prone"})
        qtbot.waitUntil(lambda: len(phone.answers) == 6, timeout=WAIT * 1000)
        assert len(win.devices.requests.desk.waiting) == 2
        win.raise_()
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=WAIT * 1000)
        qtbot.keyClick(
            win,
            Qt.Key.Key_Y,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
        qtbot.waitUntil(lambda: len(phone.answers) == 8, timeout=WAIT * 1000)
        assert [a["status"] for a in phone.answers[6:]] == ["approved", "approved"]
        assert not win.devices.requests.desk.waiting
        r = track._row_ids.index("hank_daggett")
        qtbot.waitUntil(
            lambda: track.ap_table.item(r, 0).data(Qt.ItemDataRole.DecorationRole) is None,
            timeout=WAIT * 1000,
        )
        assert table.character("hank_daggett").posture.value == "prone"
        # an approved request is a step of the window's own: undone like one
        win.document.undo_stack.undo()
        win.document.undo_stack.undo()
        win.document.undo_stack.undo()
        assert table.token(HANK).at == start and table.token(HANK).at != moved
    finally:
        phone.stop.set()
        phone.join(WAIT)
    win.close()
