"""The orange "stray?" ring (issue 37): only on figures the shot on show passes near.
A series of attacks (000 Multiple Attacks) ringed the figures near every shot's
line of fire at once — a figure near the second shot's line was ringed while the
first shot was on show. In the real window at 1366×768: tokens clicked, targets
chosen with the lists' keys, the series' + and Draw pressed."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from twtw_desktop.hexgrid import Hex
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import ANGUS, CYRIL, FELICIA, MIRANDA, judge_window
from .test_panels_support import small_document

L = Qt.MouseButton.LeftButton


def _point(win, h: Hex) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(h))


def test_only_the_shot_on_show_rings_its_figures(qtbot, qapp, tmp_path, monkeypatch):
    doc = small_document()
    miranda, felicia, angus = (doc.token(t).at for t in (MIRANDA, FELICIA, ANGUS))
    # Cyril near the line of fire at Angus, far from the one at Felicia
    spot = next(
        h
        for h in (Hex(q, r) for q in range(doc.map.cols) for r in range(doc.map.rows))
        if doc.map.contains(h)
        and doc.encounter.token_at(h) is None
        and _on_line(doc, h, miranda, angus)
        and not _on_line(doc, h, miranda, felicia)
    )
    doc.encounter.token(CYRIL).hex = (spot.q, spot.r)
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    qtbot.wait(10)
    panel = win.findChild(AttackPanel)
    assert panel is not None
    win.docks["dock_attack"].raise_()
    vp = win.map_view.viewport()
    ov = win.map_view.overlays
    qtbot.mouseClick(vp, L, Qt.KeyboardModifier.NoModifier, _point(win, miranda))
    assert doc.selected_token_id == MIRANDA
    _choose(qtbot, panel.target_combo, FELICIA)
    assert ov.stray_flags == {}
    # a series: then a snap at Angus (000 Multiple Attacks)
    _choose(qtbot, panel.series_combo, ANGUS)
    qtbot.mouseClick(panel.series_add, L)
    assert len(panel.plan.series) == 2, panel.message.text()
    assert ov.stray_flags == {}  # the first shot's line: nobody near it
    qtbot.mouseClick(panel.draw_button, L)
    assert panel.current is not None, panel.message.text()
    assert ov.stray_flags == {}
    # a single shot at Angus: Cyril is near its line, and ringed
    qtbot.mouseClick(panel.clear_button, L)  # Put back
    qtbot.mouseClick(panel.series_clear, L)
    _choose(qtbot, panel.target_combo, ANGUS)
    assert ov.stray_flags == {CYRIL: False}


def _choose(qtbot, combo, token_id: str) -> None:
    """The list's keys until ``token_id`` is chosen."""
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(combo.count()):
        if combo.currentData() == token_id:
            return
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentData() == token_id


def _on_line(doc, h: Hex, shooter: Hex, target: Hex) -> bool:
    from twtw_desktop.geometry.corridor import unintended_targets

    moved = doc.token(CYRIL).model_copy(update={"hex": (h.q, h.r)})
    return bool(unintended_targets(doc.map, shooter, target, [moved]).ids)
