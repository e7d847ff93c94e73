"""Undo commands: moves and turns that pay AP on the action track, ChangeValueCommand
finding its object again by id, and posture kept in step on the sheet and the token."""

from __future__ import annotations

import shutil

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.declarations import PassTurn
from twtw_desktop.play.movement import plan_move
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.character import Posture
from twtw_desktop.ui.core.commands import (
    ChangePostureCommand,
    ChangeValueCommand,
    Locator,
    RotateTokenCommand,
    SnapshotCommand,
    locate,
)
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.tools.select import push_move, turn_token

from .test_panels_support import small_document

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
    if segments:  # everyone but Miranda lets the segment go (000 Action Timing)
        others = [c for c in doc.track.pending_declarers() if c != "miranda_valentine"]
        if others:
            doc.apply(PassTurn(who=others))


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


def test_a_move_the_counters_cannot_pay_this_round_is_refused(doc):
    doc.character("miranda_valentine").ap = 1  # one counter this round, at most
    _action_time(doc, 0)  # no segment counted yet: no counters on the track
    plan = plan_move(doc, MIRANDA, Hex(5, 7))  # 11 paces: 2 AP
    assert not plan.allowed and plan.short == 0
    assert "1 AP Miranda Valentine can still spend this round" in plan.reason
    count = doc.undo_stack.count()
    # two counters are more than the round gives: the table refuses to keep the move
    # as a standing declaration, and nothing changes
    from twtw_desktop.play.actions import Move, ref_of
    from twtw_desktop.play.declarations import WhenAble

    move = Move(who=MIRANDA, to=ref_of(doc.table, Hex(5, 7)))
    with pytest.raises(RulesError, match="1 AP Miranda Valentine can still spend"):
        doc.apply(WhenAble(who=MIRANDA, then=move.journal_form()))
    assert doc.undo_stack.count() == count and doc.token(MIRANDA).at == Hex(5, 17)
    assert doc.track.state.segment == 0
    assert not doc.track.state.standing.get("miranda_valentine")


def test_a_move_the_counters_do_not_cover_yet_is_a_standing_declaration(doc):
    """000 Action Timing: dropping the token of a character short of counters keeps
    the move as their standing declaration (one undo step, nothing counted past
    anyone); the run declares and carries it out on the first segment it is paid."""
    from twtw_desktop.play.declarations import RunOn

    _action_time(doc, 0)
    plan = plan_move(doc, MIRANDA, Hex(5, 12))
    assert plan.allowed and plan.short == plan.ap
    assert "declared: moves when" in plan.label()
    count = doc.undo_stack.count()
    push_move(doc, MIRANDA, plan)
    assert doc.token(MIRANDA).at == Hex(5, 17) and doc.track.state.segment == 0
    assert doc.undo_stack.count() == count + 1
    assert doc.track.state.standing["miranda_valentine"]
    for _ in range(20):
        if doc.token(MIRANDA).at == Hex(5, 12):
            break
        doc.apply(RunOn(passing=doc.track.pending_declarers()))
    assert doc.token(MIRANDA).at == Hex(5, 12)
    assert doc.track.row("miranda_valentine").spent >= plan.ap
    while doc.undo_stack.index() > count:
        doc.undo_stack.undo()
    assert doc.token(MIRANDA).at == Hex(5, 17) and doc.track.state.segment == 0


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


# =============================================================================
# ChangeValueCommand finds its object again by id (a removed sheet brought back)
# =============================================================================


def _remove_character(doc, cid: str) -> None:
    """Remove a character and its token as the sheet panel does (one snapshot step)."""

    def go() -> None:
        enc = doc.encounter
        enc.characters[:] = [c for c in enc.characters if c.id != cid]
        enc.tokens[:] = [t for t in enc.tokens if t.character_id != cid]

    doc.push(SnapshotCommand(doc, f"Remove {cid}", go, {"characters", "tokens"}))


def test_older_edit_undoes_onto_the_character_brought_back(qapp):
    """Edit → remove → undo the removal → undo the edit: the live sheet (a fresh copy
    since the removal) gets its old value back, not the detached original."""
    doc = small_document()
    original = doc.character("miranda_valentine")
    doc.push(ChangeValueCommand(doc, original, "ap", 13, "characters"))
    weapon = original.weapons[0]
    doc.push(ChangeValueCommand(doc, weapon, "cocked", False, "characters"))
    _remove_character(doc, "miranda_valentine")
    doc.undo_stack.undo()  # she is back, as a fresh copy
    back = doc.character("miranda_valentine")
    assert back is not original and back.ap == 13 and not back.weapons[0].cocked
    doc.undo_stack.undo()  # the weapon edit, nested inside the sheet
    assert back.weapons[0].cocked
    doc.undo_stack.undo()  # the AP edit
    assert doc.character("miranda_valentine").ap == 12
    doc.undo_stack.redo()
    doc.undo_stack.redo()
    assert back.ap == 13 and not back.weapons[0].cocked
    doc.undo_stack.redo()  # and the removal again
    assert all(c.id != "miranda_valentine" for c in doc.encounter.characters)


def test_older_edits_of_map_objects_and_tokens_follow_their_ids(qapp):
    doc = small_document(with_cover=True)
    crate = next(f for f in doc.map.features if f.id == "crate")
    token = doc.token("t_felicia_laroq")
    doc.push(ChangeValueCommand(doc, crate, "name", "Crate", "map"))
    doc.push(ChangeValueCommand(doc, token, "hidden", True, "tokens"))
    doc.push(ChangeValueCommand(doc, doc.map, "name", "Front Street", "map"))

    def drop() -> None:
        doc.map.features[:] = []
        doc.encounter.tokens[:] = [t for t in doc.encounter.tokens if t.id != token.id]

    doc.push(SnapshotCommand(doc, "Clear", drop, {"map", "tokens"}))
    doc.undo_stack.undo()
    assert next(f for f in doc.map.features if f.id == "crate") is not crate  # fresh copies
    assert doc.token("t_felicia_laroq") is not token
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.map.name == "Test street"
    assert not doc.token("t_felicia_laroq").hidden
    assert next(f for f in doc.map.features if f.id == "crate").name == ""


def test_locator_paths(qapp):
    doc = small_document(with_cover=True)
    ch = doc.character("cyril_wellington")
    assert locate(doc, doc.map) == Locator("map")
    assert locate(doc, doc.map.features[0]) == Locator(
        "map", (("attr", "features"), ("id", "crate"))
    )
    assert locate(doc, doc.token("t_angus_laroq")) == Locator(
        "encounter", (("attr", "tokens"), ("id", "t_angus_laroq"))
    )
    assert locate(doc, ch.weapons[1]) == Locator(
        "encounter",
        (("attr", "characters"), ("id", "cyril_wellington"), ("attr", "weapons"), ("index", 1)),
    )
    stray = ch.model_copy(deep=True)
    assert locate(doc, stray) is None
    cmd = ChangeValueCommand(doc, stray, "ap", 3, "characters")  # kept by reference
    doc.push(cmd)
    assert stray.ap == 3 and ch.ap == 12
    doc.undo_stack.undo()
    assert stray.ap == 12


def test_edits_merge_by_place_and_an_id_change_undoes(qapp):
    doc = small_document()
    tok = doc.token("t_angus_laroq")
    doc.push(ChangeValueCommand(doc, tok, "facing", 1, "tokens"))
    doc.push(ChangeValueCommand(doc, doc.token("t_angus_laroq"), "facing", 2, "tokens"))
    assert doc.undo_stack.count() == 1  # the same field of the same token: one step
    doc.push(ChangeValueCommand(doc, tok, "id", "t_angus", "tokens"))
    assert tok.id == "t_angus"
    doc.undo_stack.undo()
    assert tok.id == "t_angus_laroq"
    doc.undo_stack.undo()
    assert tok.facing == 3


def test_posture_command_sets_sheet_and_token_together(qapp):
    """One truth: the sheet's posture, mirrored on the token the map draws."""
    doc = small_document()
    seen: list[str] = []
    doc.tokenChanged.connect(seen.append)
    doc.push(ChangePostureCommand(doc, "miranda_valentine", Posture.DUCKED))
    ch, tok = doc.character("miranda_valentine"), doc.token("t_miranda_valentine")
    assert ch.posture is Posture.DUCKED and tok.posture is Posture.DUCKED
    assert ch.behind_cover  # ducking is ducking behind cover (000)
    assert seen == ["t_miranda_valentine"]
    doc.push(ChangePostureCommand(doc, "miranda_valentine", Posture.PRONE))
    assert not ch.behind_cover and tok.posture is Posture.PRONE
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert ch.posture is Posture.STANDING and tok.posture is Posture.STANDING
    assert not ch.behind_cover
