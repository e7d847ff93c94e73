"""A gunfight in the real window, saved mid-round and reopened: the sheets, tokens,
map, deck piles, action track and log come back exactly as they were."""

from __future__ import annotations

import json
import shutil
import uuid

import pytest
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window.main_window import MainWindow

SAMPLE = "main_street.encounter.json"
MIRANDA = "token-miranda_valentine"


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    assert win.open_path(tmp_path / SAMPLE, ask=False)
    return win


def _state(doc: EncounterDocument) -> dict:
    enc = doc.encounter
    return {
        "characters": [c.model_dump(mode="json") for c in enc.characters],
        "tokens": [t.model_dump(mode="json") for t in enc.tokens],
        "features": [f.model_dump(mode="json") for f in doc.map.features],
        "log": [(e.kind, e.text, e.round, e.segment) for e in enc.log],
        "deck": doc.deck.snapshot().model_dump(mode="json"),
        "track": doc.table.time.state_dict() if doc.table.time is not None else None,
        "mode": enc.mode,
    }


def test_mid_gunfight_save_and_reopen(window, tmp_path):
    doc = window.document
    for c in doc.encounter.characters:
        for w in c.weapons:
            w.readied = True
    track = window.docks["dock_track"].widget()
    attack = window.docks["dock_attack"].widget()
    window.act_action_time.trigger()
    track.start_button.click()
    miranda = doc.token(MIRANDA).character_id
    # count segments until Miranda has the two counters a snap shot needs out
    for _ in range(20):
        track.next_button.click()
        if (doc.ap_available(miranda) or 0) >= 2:
            break
    assert doc.in_action and doc.ap_available(miranda) >= 2
    from twtw_desktop.play.declarations import PassTurn

    others = [c for c in doc.track.pending_declarers() if c != miranda]
    if others:  # the others let the segment go: Miranda's shot is its lone action
        doc.apply(PassTurn(who=others))
    # a shot from Miranda at whoever the panel offers first, drawn and applied
    doc.select(MIRANDA)
    assert attack.target_token() is not None
    attack.set_shot("snap")
    card = attack.draw().card.number
    record = attack.apply()
    assert record is not None, attack.message.text()
    assert doc.encounter.log[-1].kind == "attack"
    assert doc.encounter.log[-1].detail["record"]["cards"][0] == card
    # the track moves on a few segments
    for _ in range(3):
        if track.next_button.isEnabled():
            track.next_button.click()
    before = _state(doc)
    out = tmp_path / "mid-fight.encounter.json"
    doc.save(out)
    json.loads(out.read_text(encoding="utf-8"))  # a complete file on disk

    again = EncounterDocument.open(out)
    after = _state(again)
    for key in before:
        assert after[key] == before[key], key
    # and the reopened window carries on: undo is fresh, the next draw is the same card
    assert again.deck.snapshot().draw_pile == doc.deck.snapshot().draw_pile


def test_phases_round_saved_and_reopened(qtbot, window, tmp_path):
    """The Laroq hacienda plays the Phases edition (003/004): a round under way is
    saved and comes back with its declarations and phase."""
    for name in ("laroq_hacienda.encounter.json", "laroq_hacienda.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    assert window.open_path(tmp_path / "laroq_hacienda.encounter.json", ask=False)
    doc = window.document
    assert doc.edition.time != "segments"
    track = window.docks["dock_track"].widget()
    window.act_action_time.trigger()
    track.start_button.click()
    for _ in range(2):
        for b in (track.phase_button, track.next_button):
            if b.isEnabled() and b.isVisible():
                b.click()
                break
    before = _state(doc)
    assert before["track"] is not None
    out = tmp_path / "hacienda-mid-round.encounter.json"
    doc.save(out)
    after = _state(EncounterDocument.open(out))
    for key in before:
        assert after[key] == before[key], key
