"""The Judge's override dialog builds the table's judge action."""

from __future__ import annotations

from twtw_desktop.play.actions import EndSegment, StartActionTime, StartRound
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.dialogs.judge_dialog import JudgeDialog

MIRANDA = "miranda_valentine"


def _doc() -> EncounterDocument:
    return EncounterDocument.open(maps_dir() / "main_street.encounter.json")


def test_a_reason_is_required_and_nothing_changes_without_one(qtbot):
    doc = _doc()
    dlg = JudgeDialog(doc, "token-hank_daggett")
    qtbot.addWidget(dlg)
    dlg.remove.setChecked(True)
    dlg.apply()
    assert "reason" in dlg.message.text()
    assert doc.undo_stack.count() == 0
    dlg.reason.setText("he fled down the alley")
    dlg.apply()
    assert all(t.id != "token-hank_daggett" for t in doc.encounter.tokens)
    assert doc.encounter.log[-1].kind == "judge"
    doc.undo_stack.undo()
    assert any(t.id == "token-hank_daggett" for t in doc.encounter.tokens)


def test_counters_only_in_ap_v2_action_time(qtbot):
    doc = _doc()
    dlg = JudgeDialog(doc, MIRANDA)
    qtbot.addWidget(dlg)
    assert not dlg.counters.isEnabled()
    for a in (StartActionTime(), StartRound(), EndSegment()):
        doc.apply(a)
    before = doc.ap_available(MIRANDA)
    dlg = JudgeDialog(doc, MIRANDA)
    qtbot.addWidget(dlg)
    assert dlg.counters.isEnabled()
    dlg.counters.setValue(3)
    dlg.reason.setText("she saw it coming")
    dlg.apply()
    assert doc.ap_available(MIRANDA) == before + 3


def test_the_judge_is_one_right_click_away_on_a_token_and_a_track_row(qtbot):
    from twtw_desktop.ui.menus.token_menu import token_menu_actions

    doc = _doc()
    acts = token_menu_actions(None, doc, "token-hank_daggett", "hank_daggett")
    assert [a.text() for a in acts] == [
        "Hide from the players",
        "Judge's override…",
        "First aid…",
        "Ring this hex on the players' screen",  # the ping no window manager takes (#37)
    ]
    # a character without a token still has the override (counters)
    assert [a.text() for a in token_menu_actions(None, doc, None, "hank_daggett")] == [
        "Judge's override…",
        "First aid…",
    ]
