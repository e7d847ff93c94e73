"""Encounter ▸ Make a check… (Ctrl+K) and the sheet's Check… button: the dialog
previews the pool and TN before the card, applies the table's ``check`` as one undo
step and keeps a refusal in view without changing anything."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.base import Pool
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.dialogs.check_dialog import CheckDialog
from twtw_desktop.ui.dialogs.rules_reference import help_menu
from twtw_desktop.ui.panels import sheet_panel
from twtw_desktop.ui.window.main_window import MainWindow

HANK = "hank_daggett"


def _doc(tmp_path: Path) -> EncounterDocument:
    """Main Street copied aside (a journal is written beside the file), Hank's
    Dexterity at d10 (002 gives no pool; on a d8 an 8 reads on)."""
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    doc = EncounterDocument.open(tmp_path / "main_street.encounter.json")
    hank = doc.character(HANK)
    hank.traits = {**hank.traits, "coordination": Pool(count=2, die=10)}
    return doc


def test_the_dialog_previews_and_makes_hanks_complex_check(qtbot, tmp_path):
    """002's worked example from the window: TN 7 Dexterity and Demolitions, 3
    victories; card 50 gives 8 and effect 13, two victories."""
    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.skill.setCurrentText("demolitions")
    assert dlg.trait.currentData() == "coordination"  # the skill's trait is chosen
    dlg.difficulty.setCurrentIndex(dlg.difficulty.findData("challenging"))
    dlg.complex.setChecked(True)
    dlg.victories.setValue(3)
    text = dlg.preview_label.text()
    assert "Pool 2d10 against TN 7" in text and "0 of 3" in text
    dlg.card.setText("50")
    assert dlg.make.isEnabled()
    dlg.make.click()
    assert dlg.result() == CheckDialog.DialogCode.Accepted
    assert dlg.event.record["victories"] == 2
    assert doc.character(HANK).checks[0].check.progress == 2
    assert "2 of 3" in doc.encounter.log[-1].text
    doc.undo_stack.undo()
    assert doc.character(HANK).checks == []


def test_a_refusal_stays_in_the_dialog(qtbot, tmp_path):
    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.card.setText("ten")
    assert "not 'ten'" in dlg.message.text() and not dlg.make.isEnabled()
    dlg.card.setText("32")  # on a d10 pool card 32 is plain; more cards must be numbers
    dlg.more_cards.setText("1, x")
    assert "separated by commas" in dlg.message.text()
    dlg.more_cards.setText("")
    dlg.card.setText("")
    dlg.difficulty.setCurrentIndex(dlg.difficulty.findData(None))
    dlg.tn.setValue(9)
    assert "against TN 9" in dlg.preview_label.text()
    before = len(doc.encounter.log)
    doc.table.deck.physical = True
    dlg.refresh()
    assert "type in the card" in dlg.message.text()
    dlg.make_check()
    assert len(doc.encounter.log) == before and dlg.isVisible() is False


def test_ctrl_k_and_the_sheet_button_reach_it(qtbot, qapp, monkeypatch, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")

    opened: list[tuple[str | None]] = []
    monkeypatch.setattr(
        "twtw_desktop.ui.dialogs.check_dialog.open_check_dialog",
        lambda doc, who=None, parent=None: opened.append((who,)) or True,
    )
    monkeypatch.setattr(
        sheet_panel, "open_check_dialog", lambda doc, who=None, parent=None: opened.append((who,))
    )
    win = MainWindow(_doc(tmp_path), settings=AppSettings())
    qtbot.addWidget(win)
    assert win.act_check.shortcut().toString() == "Ctrl+K"
    assert win.act_check in win.encounter_menu.actions()
    assert win.act_rules_reference in help_menu(win).actions()  # Help ▸ Rules reference
    win.document.select("token-hank_daggett")
    win.act_check.trigger()
    panel = win.findChild(sheet_panel.SheetPanel)
    panel.check_button.click()
    assert opened == [(HANK,), (panel._cid,)]


def test_a_secondary_action_reads_the_last_actions_card(qtbot, tmp_path):
    """000 Combining Combat and Non-Combat Actions from the dialog: after Hank's shot,
    a secondary check reads the shot's card with the second highest die; no card is
    drawn. With no action to combine with, the dialog says why."""
    from twtw_desktop.play.actions import Draw
    from twtw_desktop.play.combat_actions import SnapShot

    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.secondary.setChecked(True)
    assert "no action just resolved" in dlg.message.text() and not dlg.make.isEnabled()
    doc.apply(Draw(who=HANK, weapon="colt_thunderer"))
    shot = doc.apply(SnapShot(who=HANK, target="angus_laroq"))
    card = shot.cards[0]
    dlg.refresh()
    draws = doc.deck.draw_count
    assert dlg.make.isEnabled(), dlg.message.text()
    dlg.make.click()
    rec = dlg.event.record
    assert rec["card"] == card and doc.deck.draw_count >= draws - len(rec["cards"]) + 1
    assert "second highest die" in doc.encounter.log[-1].text
    assert any("Combining Combat" in r for r in rec["reasons"])


def test_the_dialog_spends_a_bonus_counter(qtbot, tmp_path):
    """002 Spending the Counter from the check dialog: Right on! on a check; without a
    counter held the dialog says so."""
    from twtw_desktop.play.actions import SetRules
    from twtw_desktop.play.bonus_actions import TakeCounter

    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.counter.setCurrentIndex(dlg.counter.findData("right_on"))
    assert "holds no bonus counter" in dlg.message.text() and not dlg.make.isEnabled()
    options = doc.encounter.options.model_copy(update={"bonus_pool": 1})
    doc.apply(SetRules(edition=doc.encounter.edition, options=options))
    doc.apply(TakeCounter(who=HANK))
    dlg.refresh()
    assert dlg.make.isEnabled(), dlg.message.text()
    dlg.make.click()
    assert not doc.character(HANK).bonus_counter
    assert "Right on!" in doc.encounter.log[-1].text


def test_the_dialog_takes_a_column_adjustment_for_a_complex_check(qtbot, tmp_path):
    """002 column adjustments from the dialog: refused on a simple check, taken by a
    complex check's effect read."""
    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.columns.setValue(1)
    assert "column adjustment" in dlg.message.text() and not dlg.make.isEnabled()
    dlg.skill.setCurrentText("demolitions")
    dlg.complex.setChecked(True)
    dlg.victories.setValue(3)
    assert dlg.make.isEnabled(), dlg.message.text()
    assert dlg.action().columns == 1


def test_the_dialog_marks_a_check_that_involves_movement(qtbot, tmp_path):
    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    assert not dlg.action().moving
    dlg.moving.setChecked(True)
    assert dlg.action().moving and dlg.make.isEnabled()


def test_the_dialog_helps_another_characters_task(qtbot, tmp_path):
    """002 Complex Checks: "multiple characters may collaborate to produce [...] more
    victories" — Jonah's check, helping with Hank's dynamite device, adds its
    victories to Hank's task."""
    doc = _doc(tmp_path)
    dlg = CheckDialog(doc, HANK)
    qtbot.addWidget(dlg)
    dlg.skill.setCurrentText("demolitions")
    dlg.difficulty.setCurrentIndex(dlg.difficulty.findData("challenging"))
    dlg.complex.setChecked(True)
    dlg.victories.setValue(3)
    dlg.task.setText("dynamite device")
    dlg.card.setText("50")
    dlg.make.click()
    assert doc.character(HANK).checks[0].check.progress == 2
    help_dlg = CheckDialog(doc, "jonah_benton")
    qtbot.addWidget(help_dlg)
    help_dlg.difficulty.setCurrentIndex(help_dlg.difficulty.findData("challenging"))
    help_dlg.complex.setChecked(True)
    help_dlg.victories.setValue(3)
    help_dlg.task.setText("dynamite device")
    help_dlg.helps.setCurrentIndex(help_dlg.helps.findData(HANK))
    assert help_dlg.action().helps == HANK
    help_dlg.make.click()
    assert help_dlg.event.record["helps"] == HANK
    assert "on Hank Daggett's task" in doc.encounter.log[-1].text
