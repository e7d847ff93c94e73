"""What an F6 press costs in the real window (issue 40's F6 frame budget): the attack
panel plans once per press, for the figure the run stopped at (it had planned for the
last figure first, then again for the new one), and the character sheet behind the
Attack tab is not filled in until its tab is shown — then it shows the selected figure
as the table has it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QTabBar

from twtw_desktop.ui.panels.attack_panel import AttackPanel
from twtw_desktop.ui.panels.sheet_panel import SheetPanel

from .test_round_flow import _in_view, _viewport_point
from .test_run_on_signals import stepped_round


def _counted(monkeypatch, cls, name: str) -> list[int]:
    """Count the calls of ``cls.name`` (the real method still runs)."""
    calls = [0]
    real = getattr(cls, name)

    def counting(self, *args, **kwargs):
        calls[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counting)
    return calls


def _tab_of(win, text: str) -> tuple[QTabBar, int]:
    for bar in win.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.tabText(i) == text and bar.isVisible():
                return bar, i
    raise AssertionError(f"no tab {text!r}")


def test_f6_plans_once_per_press_and_the_hidden_sheet_waits_for_its_tab(
    qtbot, qapp, tmp_path, monkeypatch
):
    doc, win = stepped_round(qtbot, qapp, tmp_path, monkeypatch)
    attack = win.findChild(AttackPanel)
    sheet = win.findChild(SheetPanel)
    bar, i = _tab_of(win, "Attack")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
    qtbot.wait(5)
    assert _in_view(attack) and not _in_view(sheet)  # the sheet is behind the Attack tab
    plans = _counted(monkeypatch, AttackPanel, "_plan")
    sheet_fills = _counted(monkeypatch, SheetPanel, "_refresh_skills")
    presses = 0
    moved_on = 0
    for _ in range(6):
        before, steps = doc.selected_token_id, doc.undo_stack.index()
        plans[0] = 0
        win.map_view.setFocus()
        qtbot.keyClick(win.map_view, Qt.Key.Key_F6)
        qtbot.wait(5)
        if doc.undo_stack.index() == steps:
            break
        presses += 1
        assert plans[0] <= 1, f"press {presses}: the attack panel planned {plans[0]} times"
        moved_on += doc.selected_token_id != before
        # the panel in view shows the figure the run stopped at, planned as it stands
        sel = doc.selected_token_id
        assert sel is not None
        assert attack.shooter_label.text() == doc.character_of(sel).name
        if attack.plan is not None:
            assert attack.plan.request.shooter_token == sel
    assert presses >= 2 and moved_on >= 2
    assert sheet_fills[0] == 0  # nothing filled behind the Attack tab
    # the Judge shows the sheet: it is the selected figure's, as the table has it now
    bar, i = _tab_of(win, "Character sheet")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
    qtbot.wait(5)
    assert _in_view(sheet)
    assert sheet_fills[0] == 1
    c = doc.character_of(doc.selected_token_id)
    assert sheet.name_edit.text() == c.name
    assert sheet.chooser.currentData() == c.id
    for f, box in sheet.int_spins.items():
        assert box.value() == getattr(c, f), f
    # a closed sheet (View menu) opened again shows the figure clicked meanwhile
    toggle = win.findChild(QDockWidget, "dock_sheet").toggleViewAction()
    toggle.trigger()
    assert not sheet.isVisible()
    other = next(t for t in doc.encounter.tokens if t.id != doc.selected_token_id)
    win.map_view.center_on_hex(other.at)
    qtbot.wait(5)
    vp = win.map_view.viewport()
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=_viewport_point(win, other.at))
    qtbot.wait(5)
    assert doc.selected_token_id == other.id
    toggle.trigger()
    qtbot.wait(5)
    if not _in_view(sheet):  # back as a tab behind another: the Judge clicks its tab
        bar, i = _tab_of(win, "Character sheet")
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(i).center())
        qtbot.wait(5)
    assert _in_view(sheet)
    assert sheet.name_edit.text() == doc.character_of(other.id).name
