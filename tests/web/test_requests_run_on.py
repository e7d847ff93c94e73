"""The run goes on by itself once the phones it waits for have answered (issue 39),
in the real window at 1366×768 with real keys: the run (F6) stops for a posse
character able with nothing declared, or offered AP for the stack; the track's line
says whose phone it waits for; the phone's pass, declaration or bid, approved (one
key, or as it comes with "approve the posse's requests" for this fight, Ctrl+Alt+Y),
and the run goes on without another F6. The setting is remembered per fight."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6.QtWidgets")

from PySide6.QtCore import Qt

from twtw_desktop.ui.devices.player_requests import PHONE_MARK

from .conftest import WAIT
from .test_requests_window import Phone, _serving_window

M, J = "miranda_valentine", "jonah_benton"
SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier


def _key(qtbot, win, k, mod=Qt.KeyboardModifier.NoModifier) -> None:
    win.map_view.setFocus()
    qtbot.keyClick(win.map_view, k, mod)


def _options(qtbot, phone) -> dict:
    n = len(phone.options)
    phone.ask_options()
    qtbot.waitUntil(lambda: len(phone.options) > n, timeout=WAIT * 1000)
    return phone.options[-1]["options"]


def _answers(qtbot, phone, n: int) -> list[dict]:
    qtbot.waitUntil(lambda: len(phone.answers) >= n, timeout=WAIT * 1000)
    return phone.answers


def _phones(qtbot, url, *cids):
    phones = {c: Phone(url[c]) for c in cids}
    for p in phones.values():
        p.start()
    for p in phones.values():
        qtbot.waitUntil(lambda p=p: p.first is not None, timeout=WAIT * 1000)
    return phones


def _close(phones) -> None:
    for p in phones.values():
        p.stop.set()
        p.join(WAIT)


def _active(qtbot, win) -> None:
    win.raise_()
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=WAIT * 1000)


def test_a_pass_and_a_declaration_from_the_phones_let_the_run_go_on(qtbot, tmp_path, monkeypatch):
    win, url = _serving_window(qtbot, tmp_path, monkeypatch)
    doc = win.document
    table = doc.table
    table.sight.look(table)
    track = win.docks["dock_track"].widget()
    ctl = win.devices.requests
    phones = _phones(qtbot, url, M, J)
    try:
        _active(qtbot, win)
        _key(qtbot, win, Qt.Key.Key_F5)
        _key(qtbot, win, Qt.Key.Key_F6)
        assert table.track.pending_declarers() == [M]
        qtbot.waitUntil(lambda: "waiting for Miranda Valentine's phone" in track.info.full)
        mine = _options(qtbot, phones[M])
        assert mine["turn"] == {"able": True, "bid": 0}
        phones[M].send({"do": "pass"})
        assert _answers(qtbot, phones[M], 1)[0]["status"] == "waiting"
        qtbot.waitUntil(lambda: "Miranda Valentine's request" in track.info.full)
        assert table.track.state.segment == 1  # nothing before the Judge approves
        _key(qtbot, win, Qt.Key.Key_Y, SHIFT)
        assert _answers(qtbot, phones[M], 2)[1]["status"] == "approved"
        # the run went on by itself, to the next stop: Jonah able on segment 2
        qtbot.waitUntil(lambda: table.track.pending_declarers() == [J], timeout=WAIT * 1000)
        assert table.track.state.segment == 2
        qtbot.waitUntil(lambda: "waiting for Jonah Benton's phone" in track.info.full)
        # the posse's requests approved as they come, for this fight (Ctrl+Alt+Y)
        _key(qtbot, win, Qt.Key.Key_Y, ALT)
        assert ctl.act_auto.isChecked() and ctl.auto.isChecked()
        assert "approved as they come" in ctl.dock.windowTitle()
        f = int(table.encounter.token_for(J).facing)
        phones[J].send({"do": "face", "facing": (f + 1) % 6})
        assert _answers(qtbot, phones[J], 1)[0]["status"] == "approved"
        qtbot.waitUntil(lambda: table.track.state.segment > 2, timeout=WAIT * 1000)
        assert int(table.encounter.token_for(J).facing) == (f + 1) % 6
        # on segment 3 Jonah may act again, and Felicia (an hombre): her phone is none
        assert table.track.pending_declarers() == [J, "felicia_laroq"]
        qtbot.waitUntil(lambda: "waiting for Jonah Benton's phone" in track.info.full)
        assert "Felicia" not in track.info.full.split(PHONE_MARK)[1]
        phones[J].send({"do": "pass"})
        assert _answers(qtbot, phones[J], 2)[1]["status"] == "approved"
        # the hombre's stop is the Judge's: the run stays, the line names no phone
        qtbot.waitUntil(lambda: PHONE_MARK not in track.info.full, timeout=WAIT * 1000)
        qtbot.wait(50)
        assert table.track.pending_declarers() == ["felicia_laroq"]
        assert table.track.state.segment == 3
    finally:
        _close(phones)
    win.close()


def test_bids_from_the_phones_let_the_run_flip_the_cards(qtbot, tmp_path, monkeypatch):
    win, url = _serving_window(qtbot, tmp_path, monkeypatch)
    doc = win.document
    table = doc.table
    table.sight.look(table)
    phones = _phones(qtbot, url, M, J)
    try:
        _active(qtbot, win)
        _key(qtbot, win, Qt.Key.Key_F5)
        for cid, turn in ((M, 3), (J, 1)):  # both turn before the run: they share a segment
            f = int(table.encounter.token_for(cid).facing)
            phones[cid].send({"do": "face", "facing": (f + turn) % 6})
            _answers(qtbot, phones[cid], 1)
        qtbot.waitUntil(lambda: len(win.devices.requests.desk.waiting) == 2)
        _key(qtbot, win, Qt.Key.Key_Y, SHIFT)
        _key(qtbot, win, Qt.Key.Key_F6)
        assert dict(table.track.bonus_bidders(offered=True)) == {M: 2, J: 1}
        offered = _options(qtbot, phones[M])
        assert offered["turn"]["bid"] == 2
        bid = next(a for a in offered["actions"] if a["label"] == "Bid 1 AP for the stack")
        phones[M].send(bid["declare"])
        no = next(a for a in _options(qtbot, phones[J])["actions"] if a["label"] == "No bid")
        phones[J].send(no["declare"])
        assert _answers(qtbot, phones[M], 3)[2]["status"] == "waiting"
        assert _answers(qtbot, phones[J], 3)[2]["status"] == "waiting"
        seg = table.track.state.segment
        entry = next(e for e in table.track.stack() if e.character_id == M)
        assert entry.bonus_ap == 0 and not entry.resolved  # waiting for the Judge
        _key(qtbot, win, Qt.Key.Key_Y, SHIFT)
        # both answered: the cards flip and the run goes on without F6
        qtbot.waitUntil(lambda: table.track.state.segment > seg, timeout=WAIT * 1000)
        flipped = [e for e in table.track.state.entries if e.character_id == M]
        assert flipped and flipped[0].bonus_ap == 1
    finally:
        _close(phones)
    win.close()


def test_approving_the_posse_s_requests_is_remembered_per_fight(qtbot, tmp_path, monkeypatch):
    import shutil

    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    for f in maps_dir().glob("laroq_hacienda.*.json"):
        shutil.copy(f, tmp_path / f.name)
    win, _url = _serving_window(qtbot, tmp_path, monkeypatch)
    ctl = win.devices.requests
    _active(qtbot, win)
    _key(qtbot, win, Qt.Key.Key_Y, ALT)
    assert ctl.act_auto.isChecked() and ctl.desk.approve_all
    entries = [a.text() for a in win.encounter_menu.actions()]
    assert "Players' &requests" in entries
    main_street = win.document.path
    other = tmp_path / "laroq_hacienda.encounter.json"
    win.set_document(EncounterDocument.open(other))
    assert not ctl.act_auto.isChecked() and not ctl.desk.approve_all
    assert "approved as they come" not in ctl.dock.windowTitle()
    win.set_document(EncounterDocument.open(main_street))
    assert ctl.act_auto.isChecked() and ctl.desk.approve_all
    _key(qtbot, win, Qt.Key.Key_Y, ALT)
    assert not ctl.auto.isChecked() and not ctl.desk.approve_all
    win.close()
