"""The Aim button of the window's attack panel (001/003 Aim and Snap Shots): in the
Phases edition the unaimed shot carries the snap penalty, each click of Aim takes an
aim action at the target (logged, one undo step), the TN follows the page's ladder,
and the shot ends the aim."""

from __future__ import annotations

from PySide6.QtCore import Qt

from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import FELICIA, MIRANDA, judge_window
from .test_panels_support import small_document


def test_aim_from_the_window_follows_the_phases_ladder(qtbot, qapp, tmp_path, monkeypatch):
    doc = small_document("phases")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = win.findChild(AttackPanel)
    assert panel is not None
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    assert panel.plan.tn.result_modifier == -2  # the Peacemaker's snap penalty
    assert any("no aim action before the shot: a snap shot" in ln for ln in panel.tn_items())
    assert panel.aims_spin.maximum() == 3  # the first aim and two more (001)
    assert "aim 1 of at most 3: removes the snap penalty (-2)" in panel.aim_button.toolTip()
    steps = doc.undo_stack.count()
    for modifier in (0, 1, 2):
        assert panel.aim_button.isEnabled(), panel.aim_button.toolTip()
        qtbot.mouseClick(panel.aim_button, Qt.MouseButton.LeftButton)
        assert panel.plan.tn.result_modifier == modifier
    assert doc.undo_stack.count() == steps + 3
    assert doc.encounter.log[-1].kind == "aim"
    assert "aim 3 of at most 3: +1" in panel.message.text()
    assert not panel.aim_button.isEnabled()
    assert "has aimed 3 times already" in panel.aim_button.toolTip()
    doc.undo_stack.undo()
    panel.recompute()
    assert panel.plan.tn.result_modifier == 1 and panel.aim_button.isEnabled()
    for button in (panel.draw_button, panel.apply_button):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.encounter.log[-1].kind == "attack"
    assert doc.encounter.log[-1].detail["record"]["tn"]["result_modifier"] == 1
    assert panel.plan.tn.result_modifier == -2  # the aim ended with the shot


def test_the_aim_can_be_held_from_the_panel_in_phases_only(qtbot, qapp, tmp_path, monkeypatch):
    """003 Procedure from the window: the Aim row's "hold" box (Phases only) makes the
    aim a continuous one, logged as held."""
    doc = small_document("phases")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = win.findChild(AttackPanel)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    assert panel.aim_hold_check.isVisibleTo(panel)
    panel.aim_hold_check.setChecked(True)
    assert panel._aim_action().hold
    qtbot.mouseClick(panel.aim_button, Qt.MouseButton.LeftButton)
    assert doc.encounter.log[-1].detail.get("hold") is True
    ap_doc = small_document("ap_v2")
    win2 = judge_window(qtbot, qapp, tmp_path / "b", monkeypatch, ap_doc)
    panel2 = win2.findChild(AttackPanel)
    ap_doc.select(MIRANDA)
    panel2.set_target(FELICIA)
    assert not panel2.aim_hold_check.isVisibleTo(panel2)
