"""F6 in the real window names what the run on changed (issue 40's F6 frame budget):
the moved figures, the track and the log, not "all" — so the deck, the sheets and the
map are not rebuilt — and the window still shows the state the run left."""

from __future__ import annotations

from PySide6.QtCore import Qt

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.panels.log_panel import LogPanel

from .test_attack_more import judge_window
from .test_round_flow import _drag_a_step


def stepped_round(qtbot, qapp, tmp_path, monkeypatch):
    """Main Street in the real window, the round begun with F5 and every figure given
    a step by a drag (simultaneous moves: F6 runs them through the stack)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    qtbot.wait(10)
    win.map_view.setFocus()
    qtbot.keyClick(win.map_view, Qt.Key.Key_F5)  # the round starts
    qtbot.wait(5)
    for c in doc.encounter.characters:  # each figure given a step, kept on the track
        tok = doc.token_for(c.id)
        if tok is not None:
            _drag_a_step(qtbot, win, doc, tok.id)
    return doc, win


def test_f6_names_the_areas_it_changed_and_the_window_follows(qtbot, qapp, tmp_path, monkeypatch):
    doc, win = stepped_round(qtbot, qapp, tmp_path, monkeypatch)
    areas: list[str] = []
    doc.changed.connect(areas.append)
    steps = doc.undo_stack.index()
    moved_before = {t.id: t.moved for t in doc.encounter.tokens}
    win.map_view.setFocus()
    qtbot.keyClick(win.map_view, Qt.Key.Key_F6)  # run on: the stack resolves, figures move
    qtbot.wait(10)
    assert doc.undo_stack.index() > steps
    assert "all" not in areas and "track" in areas and "log" in areas, areas
    moved = [t for t in doc.encounter.tokens if t.moved != moved_before[t.id]]
    assert moved
    scene = win.map_view.map_scene
    for t in moved:  # each figure the run moved stands where the table has it
        assert scene.tokens[t.id].pos() == scene.frame.center(t.at)
    log = win.findChild(LogPanel)
    assert log.entries()[-1] == doc.encounter.log[-1]
    # undo and redo show the same without "all" either
    areas.clear()
    doc.undo_stack.undo()
    qtbot.wait(5)
    assert "all" not in areas and "track" in areas
    assert log.entries() == list(doc.encounter.log)
    for t in moved:
        assert scene.tokens[t.id].pos() == scene.frame.center(doc.token(t.id).at)
