"""Undo commands that pay AP on the action track: a move and a turn in place."""

from __future__ import annotations

import shutil

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.commands import RotateTokenCommand, SnapshotCommand
from twtw_desktop.ui.document import EncounterDocument
from twtw_desktop.ui.tools.movement import plan_move
from twtw_desktop.ui.tools.select import push_move, turn_token

MIRANDA = "token-miranda_valentine"


@pytest.fixture
def doc(qapp, tmp_path):
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    d = EncounterDocument.open(tmp_path / "main_street.encounter.json")
    yield d
    d.deleteLater()


def _action_time(doc, segments: int) -> None:
    """Declare action time, run the initiative step and count ``segments`` segments
    (each as an undoable step, as the track panel does)."""
    doc.start_action_time()
    doc.push(SnapshotCommand(doc, "Start round", doc.track.start_round, {"track", "deck"}))
    for _ in range(segments):
        doc.push(SnapshotCommand(doc, "Next segment", doc.track.advance_segment, {"track"}))


def test_move_pays_ap_and_undo_refunds_it(doc):
    """000 Movement: Move paces per AP; all counters present are removed (000 Action Timing)."""
    _action_time(doc, 6)
    ch = "miranda_valentine"
    counters = doc.ap_available(ch)
    assert counters and counters >= 1
    tok = doc.token(MIRANDA)
    start = tok.at
    plan = plan_move(doc, MIRANDA, Hex(start.q, start.r - 3))
    assert plan.allowed and plan.ap >= 1 and plan.paces >= 3
    push_move(doc, MIRANDA, plan)
    assert tok.at == Hex(start.q, start.r - 3)
    assert doc.ap_available(ch) == 0  # every counter present is spent (excess lost)
    assert doc.track.row(ch).spent == plan.ap
    assert tok.moved == plan.paces
    doc.undo_stack.undo()
    assert tok.at == start and doc.ap_available(ch) == counters and tok.moved == 0
    doc.undo_stack.redo()
    assert tok.at == Hex(start.q, start.r - 3) and doc.ap_available(ch) == 0


def test_a_move_the_counters_cannot_pay_is_refused(doc):
    _action_time(doc, 0)  # no segment counted yet: no counters on the track
    plan = plan_move(doc, MIRANDA, Hex(5, 12))
    assert plan.path and plan.ap >= 1
    assert not plan.allowed
    assert "counter" in plan.reason
    count = doc.undo_stack.count()
    with pytest.raises(RulesError):
        push_move(doc, MIRANDA, plan)  # the track itself refuses: nothing changes
    assert doc.undo_stack.count() == count and doc.token(MIRANDA).at == Hex(5, 17)


def test_turning_in_place_costs_one_then_two_ap(doc):
    """000 Movement AP Cost: 60° in place 1 AP, more than 60° 2 AP — presses in one
    segment are one turn, so 180° still costs 2."""
    _action_time(doc, 8)
    ch = "miranda_valentine"
    tok = doc.token(MIRANDA)
    facing0 = tok.facing
    turn_token(doc, MIRANDA, 1)
    assert tok.facing == (facing0 + 1) % 6
    assert doc.track.row(ch).spent == 1
    turn_token(doc, MIRANDA, 1)
    assert tok.facing == (facing0 + 2) % 6
    assert doc.track.row(ch).spent == 2
    turn_token(doc, MIRANDA, 1)
    assert tok.facing == (facing0 + 3) % 6
    assert doc.track.row(ch).spent == 2
    doc.undo_stack.undo()
    assert tok.facing == facing0 and doc.track.row(ch).spent == 0


def test_turn_without_counters_is_refused(doc):
    _action_time(doc, 0)
    with pytest.raises(RulesError):
        turn_token(doc, MIRANDA, -1)
    assert doc.token(MIRANDA).facing == 2


def test_narrative_turn_is_free(doc):
    turn_token(doc, MIRANDA, -1)
    assert doc.token(MIRANDA).facing == 1
    assert isinstance(doc.undo_stack.command(0), RotateTokenCommand)
