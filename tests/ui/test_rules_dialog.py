"""Encounter > Rules and options: optional rules and the edition as one undo step."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.model import Encounter, Map
from twtw_desktop.rules.editions import OptionalRules
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.dialogs.rules_dialog import SWITCHES, ChangeRulesCommand, RulesDialog


def _doc() -> EncounterDocument:
    chars = list(sample_characters().values())[:2]
    return EncounterDocument(Encounter(map=Map.blank(10, 8), characters=chars))


def test_every_switch_of_the_model_is_in_the_dialog(qtbot):
    bools = {n for n, f in OptionalRules.model_fields.items() if f.annotation is bool}
    assert bools == {name for name, _label, _tip in SWITCHES}


def test_dialog_reads_and_returns_the_options(qtbot):
    doc = _doc()
    dlg = RulesDialog(doc)
    qtbot.addWidget(dlg)
    assert not dlg.checks["rushing"].isChecked()
    dlg.checks["rushing"].setChecked(True)
    dlg.checks["bleeding"].setChecked(True)
    dlg.victory.setValue(8)
    dlg.edition.setCurrentIndex(dlg.edition.findData("phases"))
    edition, options = dlg.chosen()
    assert edition == "phases"
    assert options.rushing and options.bleeding and options.victory_threshold == 8
    assert not doc.encounter.options.rushing  # nothing changes until the command runs


def test_change_is_one_undo_step(qtbot):
    doc = _doc()
    new = doc.encounter.options.model_copy(update={"rushing": True})
    doc.push(ChangeRulesCommand(doc, "phases", new))
    assert doc.encounter.options.rushing and doc.encounter.edition == "phases"
    assert doc.edition.id == "phases"
    doc.undo_stack.undo()
    assert not doc.encounter.options.rushing and doc.edition.id == "ap_v2"
    doc.undo_stack.redo()
    assert doc.edition.id == "phases"


def test_edition_cannot_change_in_action_time_but_options_can(qtbot):
    doc = _doc()
    doc.start_action_time()
    with pytest.raises(RulesError, match="narrative time"):
        doc.push(ChangeRulesCommand(doc, "phases", doc.encounter.options))
    assert doc.encounter.edition == "ap_v2" and doc.undo_stack.count() == 1
    on = doc.encounter.options.model_copy(update={"rushing": True})
    doc.push(ChangeRulesCommand(doc, "ap_v2", on))
    assert doc.track.options.rushing  # the running track sees the switch at once
    dlg = RulesDialog(doc)
    qtbot.addWidget(dlg)
    assert not dlg.edition.isEnabled()
