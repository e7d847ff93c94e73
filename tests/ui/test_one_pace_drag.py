"""Dragging a token one hex in action time costs and shows one pace (issue 27: a
one-hex drag behind the token showed "moved 5 paces for 1 AP", a loop of free turns,
and those paces fed the walking penalty). Every neighbour, every facing, through the
real window's mouse."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from twtw_desktop.play.declarations import PassTurn
from twtw_desktop.ui.core.commands import SnapshotCommand

from .test_window import MIRANDA, _view_pos, no_prompts, sample_copy, settings, window

__all__ = ["no_prompts", "sample_copy", "settings", "window"]  # shared fixtures


def _counters_out(doc) -> None:
    doc.push(SnapshotCommand(doc, "Start round", doc.track.start_round, {"track", "deck"}))
    for _ in range(8):
        doc.push(SnapshotCommand(doc, "Next segment", doc.track.advance_segment, {"track"}))


@pytest.mark.parametrize("facing", range(6))
def test_a_one_hex_drag_is_one_pace_to_every_neighbour(window, qtbot, facing):
    doc = window.document
    window.act_action_time.trigger()
    _counters_out(doc)
    ch = "miranda_valentine"
    counters = doc.ap_available(ch)
    assert counters >= 1
    view = window.map_view
    view.set_zoom_k(0)
    tok = doc.token(MIRANDA)
    tok.facing = facing
    start = tok.at
    view.center_on_hex(start)
    vp = view.viewport()
    for d in range(6):
        dest = start.neighbor(d)
        assert doc.encounter.token_at(dest) is None
        # the others pass, so the drop is the segment's lone action, done at once
        # (000 Action Timing; else it waits on the stack)
        others = [c for c in doc.table.track.pending_declarers() if c != ch]
        if others:
            doc.apply(PassTurn(who=others))
        qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, start))
        qtbot.mouseMove(vp, _view_pos(window, dest))
        plan = view.tool._plan
        assert plan is not None and plan.allowed, (d, plan and plan.reason)
        assert plan.paces == 1 and plan.path == [start, dest], (facing, d, plan.path)
        assert plan.ap == 1
        assert view.tool._bubble.text.startswith("1 pace (walk)")
        qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, dest))
        moved = doc.token(MIRANDA)
        assert moved.at == dest and moved.moved == 1, (facing, d)
        assert window.statusBar().currentMessage().startswith("Miranda")
        assert "moved 1 pace for 1 AP" in window.statusBar().currentMessage()
        # a step to the front or a front side faces that way; aside or back keeps it
        turn = min((d - facing) % 6, (facing - d) % 6)
        assert moved.facing == (d if turn <= 1 else facing), (facing, d)
        window.act_undo.trigger()
        if others:
            window.act_undo.trigger()
        assert doc.token(MIRANDA).at == start and doc.ap_available(ch) == counters
        assert doc.token(MIRANDA).facing == facing
