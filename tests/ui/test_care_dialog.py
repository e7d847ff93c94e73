"""First aid and rest from the window (001 Healing): the dialog previews the pool and
the TN before the card and applies ``first_aid`` as one undo step; Encounter ▸ Rest
and heal… shows the wound levels before and after; the sheet's button, the token's
right-click menu and the Encounter menu all reach them."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from PySide6.QtCore import Qt

from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.character import SkillRating
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.dialogs import care_dialog
from twtw_desktop.ui.dialogs.care_dialog import FirstAidDialog, RestDialog
from twtw_desktop.ui.menus.token_menu import token_menu_actions
from twtw_desktop.ui.panels import sheet_panel
from twtw_desktop.ui.window.main_window import MainWindow

DOC, HANK, MIRANDA = "cyril_wellington", "hank_daggett", "miranda_valentine"
CARD_7, CARD_2, CARD_6 = 5, 8, 6  # 2d8 reads 7, 2 and 6 on these (no exceptional cell)


def _doc(tmp_path: Path) -> EncounterDocument:
    """Main Street copied aside; Cyril has Medicine 2, Hank a heavy torso wound."""
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    doc = EncounterDocument.open(tmp_path / "main_street.encounter.json")
    cy = doc.character(DOC)
    cy.skills = {**cy.skills, "medicine": SkillRating(level=2, trait="acuity")}
    hank = doc.character(HANK)
    hank.wounds = {**hank.wounds, "torso": 3, "left_arm": 1}
    return doc


def test_first_aid_previews_then_treats_and_undoes(qtbot, tmp_path):
    doc = _doc(tmp_path)
    dlg = FirstAidDialog(doc, "token-hank_daggett")
    qtbot.addWidget(dlg)
    assert dlg.patient.currentData() == HANK and dlg.healer.currentData() == DOC
    assert dlg.treat.currentData() == "wound"
    text = dlg.preview_label.text()
    assert "Pool 2d8 against TN 7" in text and "torso 3 → 2" in text  # 001: Serious 7
    dlg.location.setCurrentIndex(dlg.location.findData("left_arm"))
    assert "against TN 3" in dlg.preview_label.text()
    dlg.location.setCurrentIndex(0)
    dlg.cards.setText(str(CARD_7))
    assert dlg.go.isEnabled()
    dlg.go.click()
    assert dlg.result() == FirstAidDialog.DialogCode.Accepted
    hank = doc.character(HANK)
    assert hank.wounds["torso"] == 2 and hank.wound_care == {"torso": "bound"}
    assert "first aid on Hank Daggett" in doc.encounter.log[-1].text
    doc.undo_stack.undo()
    assert doc.character(HANK).wounds["torso"] == 3


def test_a_refusal_stays_in_the_first_aid_dialog(qtbot, tmp_path):
    doc = _doc(tmp_path)
    dlg = FirstAidDialog(doc, MIRANDA)
    qtbot.addWidget(dlg)
    dlg.healer.setCurrentIndex(dlg.healer.findData(HANK))
    dlg.treat.setCurrentIndex(dlg.treat.findData("revive"))
    assert "not unconscious" in dlg.message.text() and not dlg.go.isEnabled()
    dlg.cards.setText("x")
    assert "separated by commas" in dlg.message.text()
    before = len(doc.encounter.log)
    dlg.give()
    assert len(doc.encounter.log) == before and dlg.result() != FirstAidDialog.DialogCode.Accepted


def test_rest_shows_before_and_after_and_is_one_undo_step(qtbot, tmp_path):
    doc = _doc(tmp_path)
    hank = doc.character(HANK)
    hank.conc, hank.stunned = 4, True
    dlg = RestDialog(doc)
    qtbot.addWidget(dlg)
    assert dlg.healer.currentData() == DOC  # the skilled are offered
    assert set(dlg.chosen()) == {MIRANDA, HANK, DOC, "jonah_benton"}  # the posse
    dlg.set_chosen([HANK])
    row = dlg._row_of(HANK)
    assert dlg.grid.item(row, 1).text().startswith("Heavy (3)")
    assert "2 healing check(s)" in dlg.grid.item(row, 2).text()
    assert dlg.grid.item(row, 3).text() == "4 → 14 / 14"  # 60 minutes, 1 Conc a minute
    dlg.cards.setText(f"{CARD_7}, {CARD_2}")  # torso TN 7: 7 heals; arm TN 3: 2 fails
    dlg.go.click()
    assert dlg.done_ and dlg.go.text() == "Close"
    assert dlg.grid.item(row, 2).text().startswith("Light (2)")
    hank = doc.character(HANK)
    assert hank.conc == 14 and not hank.stunned and hank.wounds["left_arm"] == 1
    assert doc.encounter.log[-1].kind == "rest"
    dlg.go.click()
    assert dlg.result() == RestDialog.DialogCode.Accepted
    doc.undo_stack.undo()
    hank = doc.character(HANK)
    assert hank.wounds["torso"] == 3 and hank.conc == 4 and hank.stunned


def test_rest_is_refused_in_action_time(qtbot, tmp_path):
    doc = _doc(tmp_path)
    from twtw_desktop.play.actions import StartActionTime

    doc.apply(StartActionTime())
    dlg = RestDialog(doc)
    qtbot.addWidget(dlg)
    assert "between fights" in dlg.message.text() and not dlg.go.isEnabled()


def test_the_menu_the_sheet_and_the_token_reach_them(qtbot, qapp, monkeypatch, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    opened: list[tuple[str, str | None]] = []
    monkeypatch.setattr(
        care_dialog,
        "open_first_aid",
        lambda doc, who=None, parent=None: opened.append(("aid", who)) or True,
    )
    monkeypatch.setattr(
        care_dialog, "open_rest", lambda doc, parent=None: opened.append(("rest", None)) or True
    )
    monkeypatch.setattr(
        sheet_panel,
        "open_first_aid",
        lambda doc, who=None, parent=None: opened.append(("sheet", who)),
    )
    win = MainWindow(_doc(tmp_path), settings=AppSettings())
    qtbot.addWidget(win)
    assert win.act_first_aid in win.encounter_menu.actions()
    assert win.act_rest in win.encounter_menu.actions()
    win.document.select("token-hank_daggett")
    win.act_first_aid.trigger()
    win.act_rest.trigger()
    panel = win.findChild(sheet_panel.SheetPanel)
    panel.show_character(HANK)
    panel.first_aid_button.click()
    entries = token_menu_actions(win, win.document, "token-hank_daggett", HANK)
    aid = next(a for a in entries if a.objectName() == "act_token_first_aid")
    aid.trigger()
    assert opened == [("aid", HANK), ("rest", None), ("sheet", HANK), ("aid", "token-hank_daggett")]


def test_the_rest_dialog_offers_nobody_when_no_one_has_medicine(qtbot, tmp_path):
    doc = _doc(tmp_path)
    cy = doc.character(DOC)
    cy.skills = {k: v for k, v in cy.skills.items() if k != "medicine"}
    dlg = RestDialog(doc)
    qtbot.addWidget(dlg)
    assert dlg.healer.count() == 1 and dlg.healer.currentData() is None
    item = dlg.grid.item(dlg._row_of(HANK), 0)
    assert item.checkState() == Qt.CheckState.Checked


def test_a_track_rows_menu_offers_first_aid(qtbot, qapp, monkeypatch, tmp_path):
    from twtw_desktop.ui.panels.track_panel import TrackPanel

    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    opened: list[str | None] = []
    monkeypatch.setattr(
        care_dialog, "open_first_aid", lambda doc, who=None, parent=None: opened.append(who)
    )
    win = MainWindow(_doc(tmp_path), settings=AppSettings())
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    panel = win.findChild(TrackPanel)
    table = panel.stack.currentWidget()
    row = panel._row_ids.index(HANK)
    pos = table.visualItemRect(table.item(row, 0)).center()
    entries = panel.row_menu_actions(table, pos, None)
    next(a for a in entries if a.text() == "First aid…").trigger()
    assert opened == ["token-hank_daggett"]


def test_first_aid_in_action_time_costs_8_ap_next_to_the_patient(qtbot, tmp_path):
    from twtw_desktop.play.actions import StartActionTime, StartRound

    doc = _doc(tmp_path)
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    dlg = FirstAidDialog(doc, HANK)
    qtbot.addWidget(dlg)
    assert "Cost: 8 AP" in dlg.preview_label.text()
    assert "paces from Hank Daggett" in dlg.message.text() and not dlg.go.isEnabled()
    dlg.treat.setCurrentIndex(dlg.treat.findData("conc"))
    assert "about 2 minutes" in dlg.message.text()


def test_choosing_another_patient_picks_what_they_need(qtbot, tmp_path):
    doc = _doc(tmp_path)
    doc.character(MIRANDA).unconscious = True
    dlg = FirstAidDialog(doc, HANK)
    qtbot.addWidget(dlg)
    assert dlg.treat.currentData() == "wound"
    dlg.patient.setCurrentIndex(dlg.patient.findData(MIRANDA))
    assert dlg.treat.currentData() == "revive" and "against TN 5" in dlg.preview_label.text()
    dlg.patient.setCurrentIndex(dlg.patient.findData("jonah_benton"))
    assert dlg.treat.currentData() == "conc"
    assert "all Conc already" in dlg.message.text()  # unhurt: nothing to do
