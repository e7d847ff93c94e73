"""Encounter ▸ Set speed… (Ctrl+Shift+M): the Judge's speed for a figure reaches the
token's velocity as one undo step, and the attack's TN follows it."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from twtw_desktop.play.actions import Draw
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.dialogs import speed_dialog
from twtw_desktop.ui.dialogs.speed_dialog import SpeedDialog
from twtw_desktop.ui.window.main_window import MainWindow

ANGUS = "angus_laroq"
MIRANDA = "miranda_valentine"


def _doc(tmp_path: Path) -> EncounterDocument:
    """Main Street copied aside (a journal is written beside the file)."""
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return EncounterDocument.open(tmp_path / "main_street.encounter.json")


def test_the_dialog_sets_the_velocity_and_the_tn_follows(qtbot, tmp_path):
    doc = _doc(tmp_path)
    doc.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    still = doc.table.preview(shot)["result_modifier"]
    dlg = SpeedDialog(doc, ANGUS)
    qtbot.addWidget(dlg)
    dlg.speed.setValue(15)
    dlg.heading.setCurrentIndex(dlg.heading.findData(3))  # west
    dlg.set_speed()
    assert dlg.result() == SpeedDialog.DialogCode.Accepted
    assert doc.token_for(ANGUS).velocity == (-15.0, 0.0)
    assert doc.table.preview(shot)["result_modifier"] == still - 3
    doc.undo_stack.undo()
    assert doc.token_for(ANGUS).velocity == (0.0, 0.0)


def test_the_menu_entry_opens_it_for_the_selected_figure(qtbot, qapp, monkeypatch, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    opened: list[str | None] = []
    monkeypatch.setattr(
        speed_dialog, "open_speed_dialog", lambda doc, who=None, parent=None: opened.append(who)
    )
    win = MainWindow(_doc(tmp_path), settings=AppSettings())
    qtbot.addWidget(win)
    assert win.act_set_speed in win.encounter_menu.actions()
    win.document.select(f"token-{ANGUS}")
    win.act_set_speed.trigger()
    assert opened == [ANGUS]
