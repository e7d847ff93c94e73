"""Encounter ▸ Mount ▸ … and Dismount: the selected figure gets on the token next to
it (or on no token) and down again, one undo step each."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from twtw_desktop.play.actions import Place
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window.main_window import MainWindow

MIRANDA = "miranda_valentine"
HANK = "hank_daggett"


def _sample_copy(tmp_path: Path) -> Path:
    """The Main Street sample copied aside (a journal is written beside the file)."""
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / "main_street.encounter.json"


def test_mount_and_dismount_from_the_menu(qtbot, qapp, monkeypatch, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    discard = QMessageBox.StandardButton.Discard
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: discard))
    doc = EncounterDocument.open(_sample_copy(tmp_path))
    rider = doc.token_for(MIRANDA)
    col, row = doc.table.map.offset(rider.at)
    doc.apply(Place(who=HANK, to=[col + 2, row + 1]))
    win = MainWindow(doc, settings=AppSettings())
    qtbot.addWidget(win)
    doc.select(rider.id)
    win.mount_menu.aboutToShow.emit()
    texts = [a.text() for a in win.mount_menu.actions()]
    assert texts[0] == "Without a mount token" and "On Hank Daggett" in texts
    win.mount_menu.actions()[texts.index("On Hank Daggett")].trigger()
    assert rider.mounted and rider.at == doc.token_for(HANK).at
    win.act_dismount.trigger()
    assert not rider.mounted
    win.act_dismount.trigger()  # refused: not mounted, shown, nothing changes
    assert shown and "not mounted" in shown[-1]
    doc.undo_stack.undo()
    assert rider.mounted
    win.close()  # while the prompts are still answered
