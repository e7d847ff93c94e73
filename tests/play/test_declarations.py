"""AP v2 action time as 000 calls it (Qt-free): declarations per segment, standing
declarations, every simultaneous action through the initiative stack, passing, the
run that stops where the Judge decides, stun acting at once and the recovery check.

000 Action Timing: "When the Judge calls a segment … that player places a counter …
After all players eligible to place a counter have done so, players may declare
actions for their character." 000 Simultaneous Actions: "When multiple actions occur
on the same segment … Each action that will occur goes onto the initiative stack".
"""

from __future__ import annotations

import pytest

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.actions import (
    EndRound,
    EndSegment,
    Move,
    Place,
    StartActionTime,
    StartRound,
    parse_action,
    ref_of,
)
from twtw_desktop.play.combat_actions import SnapShot
from twtw_desktop.play.declarations import (
    ClearStanding,
    PassTurn,
    RecoveryCheck,
    RunOn,
    WaitUntil,
    WhenAble,
    due_recovery,
    how,
)
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import due_next, skip_reason
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA, ANGUS, JONAH, CLEM = "miranda_valentine", "angus_laroq", "jonah_benton", "clem_perkins"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    for cid in (MIRANDA, ANGUS, JONAH):
        c = t.character(cid)
        c.weapons[0].readied = True
        c.weapons[0].cocked = True
    t.apply(StartActionTime())
    t.apply(StartRound())  # segment 0: nobody has a counter yet
    return t


def _free_step(table, cid: str) -> Hex:
    tok = table.token_for(cid)
    for i in range(6):
        n = tok.at.neighbor(i)
        if table.map.contains(n) and table.encounter.token_at(n) is None:
            return n
    raise AssertionError("no free hex")


def _move(table, cid: str) -> Move:
    return Move(who=cid, to=ref_of(table, _free_step(table, cid)))


def _run_to(table, cid: str) -> None:
    """Run on, passing whoever the stops name, until ``cid`` may declare."""
    for _ in range(30):
        pending = table.track.pending_declarers()
        if cid in pending:
            return
        table.apply(RunOn(passing=pending))
    raise AssertionError(f"{cid} never came up")


def test_an_action_short_of_counters_is_kept_as_a_standing_declaration(table):
    seg = table.track.state.segment
    ev = table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    assert ev.record["mode"] == "standing"
    assert table.track.state.segment == seg  # nothing counted on
    (standing,) = table.track.state.standing[MIRANDA]
    assert standing.act["do"] == "move" and standing.ap >= 1


def test_the_run_declares_a_standing_move_on_its_first_segment_and_never_passes_anyone(table):
    start = table.token_for(MIRANDA).at
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    table.apply(RunOn())
    # Miranda's first counter is on segment 1: her move is declared and carried out
    assert table.token_for(MIRANDA).at != start
    assert not table.track.state.standing.get(MIRANDA)
    # the run then stops for the next character who may act with nothing declared
    pending = table.track.pending_declarers()
    assert pending and "with nothing declared" in (table.why_not(RunOn()) or "")


def test_a_lone_action_is_carried_out_now_and_closes_the_segment(table):
    _run_to(table, MIRANDA)
    assert table.track.pending_declarers() == [MIRANDA]
    assert how(table, MIRANDA, 1) == "now"
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    assert table.track.state.closed
    assert "resolved" in (
        table.why_not(_move(table, MIRANDA)) or table.why_not(EndSegment()) or "resolved"
    )


def test_an_action_while_others_may_still_declare_waits_on_the_stack(table):
    for _ in range(30):  # a segment where two may declare at once
        pending = table.track.pending_declarers()
        if len(pending) >= 2:
            break
        table.apply(RunOn(passing=pending))
    first, second = table.track.pending_declarers()[:2]
    a = _move(table, first)
    ev = table.apply(WhenAble(who=first, then=a.journal_form()))
    assert ev.record["mode"] == "stack"
    (entry,) = table.track.unperformed()
    assert entry.character_id == first and not entry.performed
    assert table.token_for(first).at != Hex(*a.to) or True
    # the segment stays open until the other has declared or passed
    assert table.why_not(EndSegment()) is not None
    table.apply(PassTurn(who=[second, *table.track.pending_declarers()[1:]]))
    assert not table.track.unperformed()  # carried out once nobody may still declare
    assert table.track.state.closed


def test_two_actions_on_one_segment_go_through_the_stack_in_card_order(table):
    for _ in range(30):
        pending = table.track.pending_declarers()
        if len(pending) >= 2:
            break
        table.apply(RunOn(passing=pending))
    first, second = table.track.pending_declarers()[:2]
    table.apply(WhenAble(who=first, then=_move(table, first).journal_form()))
    rest = table.track.pending_declarers()
    table.apply(WhenAble(who=second, then=_move(table, second).journal_form()))
    if len(rest) > 1:
        table.apply(PassTurn(who=[c for c in rest if c != second]))
    entries = [e for e in table.track.stack() if e.intent is not None]
    assert len(entries) == 2 and all(e.resolved and e.card is not None for e in entries)
    assert [e.position for e in entries] == [1, 2]
    assert all(e.performed for e in entries)
    assert any(e.text.endswith("the stack resolves in this order") for e in table.encounter.log)


def test_a_direct_action_on_a_closed_segment_is_refused_by_the_seed(table):
    """Two snap shots on one segment no longer resolve in click order."""
    _run_to(table, MIRANDA)
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    table.apply(Place(who=ANGUS, to=ref_of(table, table.token_for(ANGUS).at)))
    # give Jonah counters on this closed segment through the Judge's override
    from twtw_desktop.play.actions import Judge

    table.apply(Judge(reason="test", who=JONAH, counters=2))
    why = table.why_not(SnapShot(who=JONAH, target=ANGUS, weapon="colt_peacemaker_gunslinger"))
    assert why is not None and "000 Simultaneous Actions" in why


def test_passing_is_one_step_for_everyone_newly_able(table):
    table.apply(RunOn())
    pending = table.track.pending_declarers()
    steps = len(table.steps)
    table.apply(PassTurn())
    assert len(table.steps) == steps + 1
    assert not table.track.pending_declarers()
    assert all(table.track.row(c).offered for c in pending)
    table.undo()
    assert table.track.pending_declarers() == pending


def test_a_declaration_that_no_longer_applies_is_dropped_and_stops_the_run(table):
    shot = SnapShot(who=ANGUS, target=MIRANDA, weapon="colt_walker")
    table.apply(WhenAble(who=ANGUS, then=shot.journal_form()))
    table.character(MIRANDA).dead = True  # the target is down before Angus can fire
    stop = None
    for _ in range(30):
        ev = table.apply(RunOn(passing=table.track.pending_declarers()))
        if "no longer applies" in ev.text:
            stop = ev.text
            break
    assert stop is not None and "Angus Laroq's declaration" in stop
    assert not table.track.state.standing.get(ANGUS)


def test_wait_until_holds_a_character_then_the_run_stops_for_them(table):
    table.apply(WaitUntil(who=MIRANDA, counters=3))
    for _ in range(30):
        table.apply(RunOn(passing=[c for c in table.track.pending_declarers() if c != MIRANDA]))
        if MIRANDA in table.track.pending_declarers():
            break
    assert table.track.row(MIRANDA).counters == 3
    table.apply(WaitUntil(who=MIRANDA, counters=5))
    table.apply(ClearStanding(who=MIRANDA))
    assert MIRANDA in table.track.pending_declarers()


def test_a_stun_acts_at_once_and_the_recovery_check_is_made_at_the_table(table):
    _run_to(table, MIRANDA)
    table.character(MIRANDA).stunned = True
    ev = table.apply(PassTurn())
    table.apply(RunOn(passing=table.track.pending_declarers()))
    row = table.track.row(MIRANDA)
    assert row.status.value == "stunned" and row.counters == 0 and row.pool == 0
    assert "stunned" in (
        table.why_not(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form())) or ""
    )
    assert ev is not None
    assert due_recovery(table) == [MIRANDA]
    table.apply(EndRound())
    table.apply(RecoveryCheck(who=MIRANDA))
    assert due_recovery(table) == []
    assert "not stunned" in (table.why_not(RecoveryCheck(who=ANGUS)) or "")


def test_the_paces_of_a_round_start_again_at_the_next(table):
    _run_to(table, MIRANDA)
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    assert table.token_for(MIRANDA).moved > 0
    table.apply(EndRound())
    table.apply(StartRound())
    assert table.token_for(MIRANDA).moved == 0 and not table.token_for(MIRANDA).running


def test_due_next_is_someone_who_may_declare_now_and_says_why_others_are_skipped(table):
    table.apply(RunOn())
    assert due_next(table) == table.track.pending_declarers()[0]
    table.apply(WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form()))
    assert (
        "standing declaration" in (skip_reason(table, MIRANDA) or "") or due_next(table) != MIRANDA
    )


def test_a_standing_declaration_replays_from_its_journal_form(table):
    step = WhenAble(who=MIRANDA, then=_move(table, MIRANDA).journal_form())
    again = parse_action(step.journal_form())
    assert again == step
    with pytest.raises(ValueError, match="not another declaration step"):
        WhenAble(who=MIRANDA, then=RunOn().journal_form())
    assert CLEM  # a knifeman is due only to move


def _stacked_at_segment_5():
    """The seed script's table just before its stack: Miranda (Quick Draw 2) and Angus
    (Quick Draw 1) both declared on segment 5, Cyril still to pass."""
    import json

    from tests.play.test_worked_examples import EXAMPLES

    lines = [
        json.loads(x)
        for x in (EXAMPLES / "seed_000_stack_first_shot_downs_second.jsonl")
        .read_text()
        .splitlines()
        if x.strip() and not x.startswith("#")
    ]
    t = open_table(SAMPLE).table
    for line in lines[: lines.index({"passing": ["cyril_wellington"], "do": "run_on"})]:
        t.apply(parse_action(line))
    return t


def test_ap_from_the_pool_are_offered_once_per_stack_before_the_cards_flip():
    """000 Determine Bonus: "Each AP spent from the pool grants the character +1 … No
    character may spend more AP for bonus than their level in Quick Draw"; the Quick
    Draw check "is attempted before spending AP"; "Once all characters declare their
    bonus cards are flipped"."""
    from twtw_desktop.play.track_actions import StackBonus

    t = _stacked_at_segment_5()
    ev = t.apply(RunOn(passing=["cyril_wellington"]))
    text = ev.text
    assert "AP from the pool for the stack" in text and "F6 flips the cards" in text
    assert "Miranda Valentine up to 2" in text and "Angus Laroq up to 1" in text
    # the free checks came first, the cards are not flipped yet, and nobody is offered twice
    assert all(e.quick_draw is not None and not e.resolved for e in t.track.stack())
    assert t.track.bonus_bidders() == []
    # the Judge is led to them: due next (and the window's selection) is the first offered
    assert due_next(t) == t.track.bonus_bidders(offered=True)[0][0]
    # more than the Quick Draw level is refused, naming the limit
    assert "at most 2 AP" in (t.why_not(StackBonus(who=MIRANDA, ap=3)) or "")
    t.apply(StackBonus(who=MIRANDA, ap=2))
    t.apply(RunOn())  # flips: the bought bonus is itemised on her place in the stack
    miranda = next(e for e in t.track.stack(5) if e.character_id == MIRANDA)
    assert miranda.resolved and miranda.bonus_ap == 2


def test_no_offer_after_a_calamity_or_without_ap_in_the_pool():
    """000 Determine Bonus: "On a Calamity no AP may be spent"; "AP lost due to over
    spending is not in the pool and cannot be used for this purpose"."""
    from twtw_desktop.rules.action_track import QuickDrawRoll

    t = _stacked_at_segment_5()
    tr = t.track
    st = tr._state
    rows = dict(st.rows)
    rows[ANGUS] = rows[ANGUS].model_copy(
        update={"pool_spent": rows[ANGUS].pool_spent + rows[ANGUS].pool}
    )
    calamity = QuickDrawRoll(
        card_number=1, result=0, success=False, bumps=0, calamity=True, bonus=0, reasons=()
    )
    entries = tuple(
        e.model_copy(update={"quick_draw": calamity}) if e.character_id == MIRANDA else e
        for e in st.entries
    )
    tr._state = st.model_copy(update={"rows": rows, "entries": entries})
    assert tr.bonus_bidders() == []
    ev = t.apply(RunOn(passing=["cyril_wellington"]))
    assert "AP from the pool" not in ev.text
    assert all(e.resolved for e in tr.stack(5))
