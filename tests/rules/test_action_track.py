"""The AP v2 action track (000 Action Time … Skills During Action Time; 001 Surprise)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.action_track import (
    ActionTrack,
    RowStatus,
    TrackStage,
    TrackState,
    continuous_schedule,
    split_evenly,
    surprise_check,
)
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.character import Character
from twtw_desktop.rules.deck import Deck, standard_deck
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.samples import load_characters

AP_V2 = load_edition("ap_v2")
GEAR = default_gear()
PEACEMAKER = GEAR.weapon("colt_peacemaker")
ARMY = GEAR.weapon("colt_army_44")
_BASE_CARD = standard_deck()[0].model_dump(mode="json")


def card(number: int, *, fragment: int = 0, step: int = 0, **columns: list) -> Card:
    """A hand-built card: every cause cell 1 except the columns given (``d8=[4, 2]``)."""
    data = copy.deepcopy(_BASE_CARD)
    data["number"] = number
    data["cause"] = {col: [1] * 5 for col in ("4", "6", "8", "10", "12")}
    for key, faces in columns.items():
        data["cause"][key[1:]] = list(faces) + [1] * (5 - len(faces))
    data["fragment"] = fragment
    data["step"] = step
    return Card.model_validate(data)


def person(
    cid: str, name: str, *, ap: int = 10, init: int = 5, quickness: str = "2d8", **kw
) -> Character:
    traits = {
        "quickness": quickness,
        "acuity": kw.pop("acuity", "2d8"),
        "bravery": kw.pop("bravery", "2d8"),
        "reflex": "2d8",
        "coordination": "2d8",
        "fortitude": "2d8",
    }
    return Character(
        id=cid,
        name=name,
        traits=traits,
        ap=ap,
        initiative=init,
        move=8,
        run=16,
        size=6,
        conc_max=12,
        conc=12,
        **kw,
    )


def fresh_deck(seed: int = 11) -> Deck:
    return Deck(standard_deck(), seed=seed)


@pytest.fixture()
def miranda() -> Character:
    return next(c for c in load_characters() if c.id == "miranda_valentine")


def advance_to(track: ActionTrack, segment: int) -> None:
    while track.current_segment < segment:
        track.advance_segment()


# =============================================================================
# Worked example and basic payment
# =============================================================================


def test_miranda_draws_cocks_and_fires(miranda):
    """RULES example 1 (000 Action Timing): Miranda, IN 4, places a counter at 4 and
    draws her Peacemaker (1 AP), cocks it at 5 (1 AP), and after counters at 6, 7
    and 8 fires a normal shot at 8, removing three counters."""
    deck = fresh_deck()
    track = ActionTrack([miranda], AP_V2, deck)
    track.start_round(cards={miranda.id: card(8, d8=[4, 2, 1])})
    assert track.row(miranda.id).first_segment == 4
    advance_to(track, 3)
    assert track.counters(miranda.id) == 0
    track.advance_segment()  # 4
    assert track.counters(miranda.id) == 1
    draw = A.draw_action(PEACEMAKER, miranda.quick_draw)
    assert draw.ap == 1
    track.declare(miranda.id, draw)
    assert track.counters(miranda.id) == 0
    track.advance_segment()  # 5
    track.declare(miranda.id, A.cock_action(PEACEMAKER))
    assert track.counters(miranda.id) == 0
    for seg, expected in ((6, 1), (7, 2), (8, 3)):
        track.advance_segment()
        assert track.current_segment == seg
        assert track.counters(miranda.id) == expected
    ev = track.declare(miranda.id, A.normal_shot(PEACEMAKER, ["felicia_laroq"]))
    row = track.row(miranda.id)
    assert row.counters == 0 and row.spent == 5 and row.lost == 0
    assert ev.entry is not None and ev.entry.paid_counters == 3 and ev.entry.segment == 8
    assert [e.action.kind for e in track.state.entries] == [
        A.ActionKind.DRAW,
        A.ActionKind.COCK,
        A.ActionKind.NORMAL_SHOT,
    ]


def test_too_few_counters_refused_and_nothing_removed(miranda):
    """000 Action Timing: an action dearer than the counters present cannot be
    declared, and the counters stay on the track."""
    track = ActionTrack([miranda], AP_V2, fresh_deck())
    track.start_round(cards={miranda.id: card(8, d8=[4])})
    advance_to(track, 5)
    before, depth = track.state, track.history_depth
    with pytest.raises(RulesError, match="has 2 counter"):
        track.declare(miranda.id, A.normal_shot(PEACEMAKER))
    assert track.state == before and track.history_depth == depth
    assert track.counters(miranda.id) == 2


def test_cheap_action_removes_every_counter(miranda):
    """000 Action Timing: paying a 1-AP action with 3 counters present removes all 3;
    the 2 extra are lost."""
    track = ActionTrack([miranda], AP_V2, fresh_deck())
    track.start_round(cards={miranda.id: card(8, d8=[4])})
    advance_to(track, 6)
    assert track.counters(miranda.id) == 3
    track.declare(miranda.id, A.cock_action(PEACEMAKER))
    row = track.row(miranda.id)
    assert row.counters == 0 and row.spent == 1 and row.lost == 2
    # lost counters are not in the pool: 12 AP, 3 placed
    assert row.pool == 9


# =============================================================================
# Initiative step
# =============================================================================


@pytest.mark.parametrize(
    ("init", "faces", "step", "first"),
    [
        (5, [4], 0, 5),  # success, no bump: IN
        (5, [7], 0, 4),  # one bump: one left
        (1, [7], 0, 1),  # never before segment 1
        (5, [2], 0, 6),  # failure: one right
        (5, ["CF"], 3, 9),  # calamity: step + 1 right
    ],
)
def test_initiative_test_shifts(init, faces, step, first):
    """000 The Initiative Test: Easy (3) Quickness; each bump one segment left,
    failure one right, calamity step + 1 right."""
    hank = person("hank", "Hank", init=init, quickness="1d8")
    deck = fresh_deck()
    track = ActionTrack([hank], AP_V2, deck)
    track.start_round(cards={"hank": card(5, d8=faces, step=step)})
    row = track.row("hank")
    assert row.first_segment == first
    assert row.initiative_calamity == (faces[0] == "CF")
    assert any("000 The Initiative Test" in r for r in row.initiative_reasons)


def test_late_first_segment_gets_no_counters():
    """000 The Initiative Test: a calamity can push the first counter past 20."""
    slow = person("slow", "Slowpoke", init=19, quickness="1d8")
    track = ActionTrack([slow], AP_V2, fresh_deck())
    track.start_round(cards={"slow": card(5, d8=["CF"], step=4)})
    assert track.row("slow").first_segment == 24
    assert track.round_over  # nobody can ever place a counter this round


def test_round_ap_wounds_and_borrowing():
    """000 Wound Effects (AP penalty from the edition's table) and Simultaneous
    Actions (AP borrowed from next round is taken off it)."""
    hurt = person("hurt", "Hurt", ap=10, wounds={"torso": 2})
    track = ActionTrack([hurt], AP_V2, fresh_deck())
    track.start_round(cards={"hurt": card(1, d8=[4])})
    row = track.row("hurt")
    assert row.round_ap == 10 - AP_V2.ap_penalty(2) == 8
    assert any("wound level 2" in r for r in row.ap_reasons)


def test_stunned_and_out_of_action_get_no_counters():
    """000 Stun: a stunned character spends the round on Recover; characters out of
    action take no part."""
    a = person("a", "Able", init=1)
    b = person("b", "Baker", init=1, stunned=True)
    c = person("c", "Charlie", init=1, unconscious=True)
    track = ActionTrack([a, b, c], AP_V2, fresh_deck())
    track.start_round(cards={"a": card(1, d8=[4])})
    assert track.row("b").status == RowStatus.STUNNED
    assert track.row("c").status == RowStatus.OUT
    track.advance_segment()
    assert (track.counters("a"), track.counters("b"), track.counters("c")) == (1, 0, 0)
    with pytest.raises(RulesError, match="stunned"):
        track.declare("b", A.drop_prone())


def test_physical_deck_needs_typed_cards():
    """RULES "The deck": with a printed deck the Judge types the cards in; a step
    that would draw refuses and changes nothing."""
    hank = person("hank", "Hank")
    deck = fresh_deck()
    deck.physical = True
    track = ActionTrack([hank], AP_V2, deck)
    before = deck.snapshot()
    with pytest.raises(RulesError, match="physical"):
        track.start_round()
    assert deck.snapshot() == before and track.state.round == 0
    track.start_round(cards={"hank": card(9, d8=[4])})
    assert deck.snapshot().physical_discard[0].number == 9
    track.undo()
    assert deck.snapshot() == before


# =============================================================================
# Multi-round skills
# =============================================================================


def test_skill_paid_over_two_rounds():
    """000 Skills During Action Time: an 8 AP lockpicking attempt is paid over two
    rounds and resolves only when the final AP is paid."""
    picker = person("p", "Picker", ap=5, init=16)
    track = ActionTrack([picker], AP_V2, fresh_deck())
    lock = A.skill_action("lockpicking", 8)
    track.start_round(cards={"p": card(1, d8=[4])})
    advance_to(track, 20)
    assert track.counters("p") == 5
    ev = track.declare("p", lock)
    assert ev.entry is None and track.row("p").progress.paid == 5
    assert not track.state.entries
    track.end_round()
    track.start_round(cards={"p": card(1, d8=[4])})
    advance_to(track, 17)
    with pytest.raises(RulesError):  # another multi-round skill while one is under way
        track.declare("p", A.skill_action("forgery", 4))
    assert track.counters("p") == 2
    track.declare("p", lock)  # 2 more: 7 of 8
    assert track.row("p").progress.paid == 7
    track.advance_segment()
    ev = track.declare("p", lock)
    assert ev.entry is not None and ev.entry.action == lock
    assert track.row("p").progress is None


def test_abandon_progress():
    """000 Action Time: AP spent are lost even if the action never resolves."""
    picker = person("p", "Picker", ap=5, init=18)
    track = ActionTrack([picker], AP_V2, fresh_deck())
    track.start_round(cards={"p": card(1, d8=[4])})
    advance_to(track, 19)
    track.declare("p", A.skill_action("lockpicking", 8))
    ev = track.abandon_progress("p")
    assert "2 AP paid are lost" in ev.summary
    with pytest.raises(RulesError):
        track.abandon_progress("p")


# =============================================================================
# The initiative stack
# =============================================================================


def _two_shooters(options: OptionalRules | None = None):
    m = person("m", "Miranda", ap=12, init=3, quickness="3d8", quick_draw=2)
    f = person("f", "Felicia", ap=11, init=3, quickness="2d10", quick_draw=1)
    track = ActionTrack([m, f], AP_V2, fresh_deck(), options)
    track.start_round(cards={"m": card(1, d8=[4]), "f": card(2, d10=[4])})
    return track


def test_stack_order_fragment_bonus_and_ties():
    """000 The Initiative Stack: fragment + bonus, highest first; a Quick Draw check
    (TN 5, +1 and +1 per bump) and AP from the pool up to the Quick Draw level add to
    the bonus; ties go to the higher card number."""
    track = _two_shooters()
    advance_to(track, 3)
    assert track.declaration_order() == ["m", "f"]  # ascending Quickness: d8 before d10
    track.declare("m", A.cock_action(PEACEMAKER))
    track.declare("f", A.cock_action(ARMY))
    with pytest.raises(RulesError):  # a stack waits on this segment
        track.advance_segment()
    ev = track.quick_draw_check("m", card=card(3, d8=[6, 2]))
    assert ev.entry.quick_draw.bonus == 1
    with pytest.raises(RulesError, match="at most 2"):
        track.buy_stack_bonus("m", 3)
    track.buy_stack_bonus("m", 1)
    assert track.pool("m") == 12 - 1 - 1
    track.set_stack_modifiers("f", gear=1, note="single action wins ties")
    labels = [(b.label, b.value) for b in track.stack_bonus("m")]
    assert labels == [("Quick Draw check", 1), ("AP spent from the pool", 1)]
    ev = track.resolve_stack(cards={"m": card(40, fragment=3), "f": card(30, fragment=4)})
    # both total 5: card 40 beats card 30
    assert [(p.character_id, p.total) for p in ev.stack] == [("m", 5), ("f", 5)]
    assert [p.position for p in track.stack()] == [1, 2]
    track.advance_segment()


def test_a_single_action_guns_shot_wins_a_tie_on_the_stack():
    """000 Cocking and Readying: the single action trait "wins initiative-based ties" —
    after fragment + bonus, before the card number (000 The Initiative Stack)."""
    thunderer = GEAR.weapon("colt_thunderer")  # double action, not cocked
    track = _two_shooters()
    advance_to(track, 3)
    track.declare("m", A.snap_shot(thunderer))
    track.declare("f", A.snap_shot(ARMY))  # single action
    ev = track.resolve_stack(cards={"m": card(40, fragment=4), "f": card(30, fragment=4)})
    assert [p.character_id for p in ev.stack] == ["f", "m"]  # not card 40 first
    assert any("single-action" in d for d in ev.details)


def test_quick_draw_calamity_bars_spending():
    """000 Determine Bonus: on a calamity Quick Draw gives nothing and no AP may be
    spent for the bonus."""
    track = _two_shooters()
    advance_to(track, 3)
    track.declare("m", A.cock_action(PEACEMAKER))
    track.declare("f", A.cock_action(ARMY))
    ev = track.quick_draw_check("m", card=card(3, d8=["CF"]))
    assert ev.entry.quick_draw.calamity and ev.entry.quick_draw.bonus == 0
    with pytest.raises(RulesError, match="calamity"):
        track.buy_stack_bonus("m", 1)
    with pytest.raises(RulesError, match="already tried"):
        track.quick_draw_check("m", card=card(4, d8=[8]))


def test_bonus_ap_only_from_the_pool():
    """000 Determine Bonus: counters lost to overpaying are not in the pool."""
    m = person("m", "Miranda", ap=3, init=1, quick_draw=3)
    f = person("f", "Felicia", ap=3, init=1)
    track = ActionTrack([m, f], AP_V2, fresh_deck())
    track.start_round(cards={"m": card(1, d8=[4]), "f": card(2, d8=[4])})
    advance_to(track, 3)
    track.declare("m", A.drop_prone())  # 3 counters, 2 lost, pool 0
    track.declare("f", A.drop_prone())
    assert track.pool("m") == 0
    with pytest.raises(RulesError, match="pool"):
        track.buy_stack_bonus("m", 1)
    with pytest.raises(RulesError, match="no Quick Draw"):
        track.quick_draw_check("f")


def test_join_stack_costs_one_ap_or_borrows():
    """000 Simultaneous Actions: putting an action onto a segment's stack costs 1 AP
    from the pool, or from next round's AP when the pool is empty."""
    a = person("a", "Able", ap=4, init=1)
    b = person("b", "Baker", ap=2, init=1)
    track = ActionTrack([a, b], AP_V2, fresh_deck())
    track.start_round(cards={"a": card(1, d8=[4]), "b": card(2, d8=[4])})
    advance_to(track, 1)
    with pytest.raises(RulesError, match="declare normally"):
        track.join_stack("b", A.drop_prone())
    track.declare("a", A.drop_prone())
    track.join_stack("b", A.drop_prone())
    assert track.row("b").pool_spent == 1 and track.row("b").pool == 0
    track.resolve_stack()
    track.advance_segment()  # 2: a places, b has nothing left
    assert track.counters("b") == 0
    track.declare("a", A.drop_prone())
    track.advance_segment()  # 3
    track.declare("a", A.drop_prone())
    track.end_round()
    # now b's pool is empty: joining borrows from next round
    track.start_round(cards={"a": card(1, d8=[4]), "b": card(2, d8=[4])})
    advance_to(track, 2)
    track.declare("a", A.stand_up())
    track.join_stack("b", A.stand_up())
    assert track.row("b").borrowed == 1
    track.resolve_stack()
    track.end_round()
    track.start_round(cards={"a": card(1, d8=[4]), "b": card(2, d8=[4])})
    assert track.row("b").round_ap == 1
    assert any("borrowed" in r for r in track.row("b").ap_reasons)


# =============================================================================
# Rushing (optional)
# =============================================================================


def test_rushing_is_optional(miranda):
    """000 Rushing Actions is optional: refused clearly when the switch is off."""
    track = ActionTrack([miranda], AP_V2, fresh_deck())
    track.start_round(cards={miranda.id: card(1, d8=[4])})
    advance_to(track, 4)
    with pytest.raises(RulesError, match="optional rule"):
        track.rush(miranda.id, A.normal_shot(PEACEMAKER))


def test_rush_amount_limit_snap_and_tax():
    """000 Rushing Actions: AP from the pool is the rush amount (at most half the
    cost, rounded down); a rushed shot is a snap shot; the tax is the resolution
    card's step, from the pool then from next round."""
    sharps = GEAR.weapon("sharps_rifle")
    m = person("m", "Miranda", ap=12, init=1)
    track = ActionTrack([m], AP_V2, fresh_deck(), OptionalRules(rushing=True))
    track.start_round(cards={"m": card(1, d8=[4])})
    advance_to(track, 3)
    with pytest.raises(RulesError, match="at most half"):
        track.rush("m", A.normal_shot(sharps))  # 7 AP with 3 counters: 4 > 3
    advance_to(track, 4)
    ev = track.rush("m", A.normal_shot(sharps))  # 4 counters + 3 from the pool
    assert ev.entry.rushed == 3 and ev.entry.resolves_as_snap
    assert track.pool("m") == 12 - 4 - 3
    with pytest.raises(RulesError, match="Resolve"):
        track.advance_segment()
    ev = track.resolve_stack(cards={"m": card(20, fragment=2, step=6)})
    assert ev.stack[0].total == 2 + 3 and ev.stack[0].rush_tax == 6
    row = track.row("m")
    assert row.pool == 0 and row.borrowed == 1  # 5 from the pool, 1 from next round


def test_fully_paid_rush_is_free():
    """000 Rushing Actions, stipulation 3: an action fully paid from the track rushes
    with no tax and no snap penalty."""
    m = person("m", "Miranda", ap=12, init=1)
    track = ActionTrack([m], AP_V2, fresh_deck(), OptionalRules(rushing=True))
    track.start_round(cards={"m": card(1, d8=[4])})
    advance_to(track, 3)
    ev = track.rush("m", A.normal_shot(PEACEMAKER))
    assert ev.entry.rushed == 0 and not ev.entry.resolves_as_snap
    track.advance_segment()  # nothing to resolve: a lone action with no tax


def test_aimed_shot_cannot_be_rushed():
    """000 Rushing Actions, stipulation 1: aiming cannot be rushed, so an aimed shot
    that needs AP from the pool is refused (nothing changes); the same shot without
    aims rushes and resolves as a snap shot. Stipulation 3: fully paid, it may go."""
    sharps = GEAR.weapon("sharps_rifle")
    m = person("m", "Miranda", ap=20, init=1)
    track = ActionTrack([m], AP_V2, fresh_deck(), OptionalRules(rushing=True))
    track.start_round(cards={"m": card(1, d8=[4])})
    aimed = A.aimed_shot(sharps, 1)  # 11 AP: 6 counters + 5 from the pool
    advance_to(track, 6)
    before = track.state
    with pytest.raises(RulesError, match="Aiming cannot be rushed"):
        track.rush("m", aimed)
    assert track.state == before
    ev = track.rush("m", A.normal_shot(sharps))  # 7 AP: 6 counters + 1 from the pool
    assert ev.entry.rushed == 1 and ev.entry.resolves_as_snap
    track.undo()
    advance_to(track, 11)
    ev = track.rush("m", aimed)  # 11 counters: fully paid, not really rushed
    assert ev.entry.rushed == 0 and not ev.entry.resolves_as_snap


def test_no_bonus_for_a_lone_action():
    """000 The Initiative Stack / Determine Bonus: the stack orders several actions
    resolving on one segment; a lone action has no place to win, so neither the
    Quick Draw check nor AP for the bonus is taken (no card, no AP spent)."""
    track = _two_shooters()
    advance_to(track, 3)
    track.declare("m", A.cock_action(PEACEMAKER))
    before, deck = track.state, track.deck.snapshot()
    assert "alone on segment 3" in track.quick_draw_refusal("m")
    with pytest.raises(RulesError, match="no stack to climb"):
        track.quick_draw_check("m")
    with pytest.raises(RulesError, match="no stack to climb"):
        track.buy_stack_bonus("m", 1)
    assert track.state == before and track.deck.snapshot() == deck
    track.declare("f", A.cock_action(ARMY))
    assert track.quick_draw_refusal("m") == ""
    track.buy_stack_bonus("m", 1)
    assert "before spending AP" in track.quick_draw_refusal("m")


# =============================================================================
# End of the round
# =============================================================================


def test_round_ends_when_every_ap_is_spent():
    """000 Ending the Round: the round ends when the last AP is spent; nothing can
    be declared after that; unused AP are lost."""
    a = person("a", "Able", ap=2, init=1)
    track = ActionTrack([a], AP_V2, fresh_deck())
    track.start_round(cards={"a": card(1, d8=[4])})
    advance_to(track, 2)
    assert not track.round_over
    track.declare("a", A.stand_up())
    assert track.round_over
    with pytest.raises(RulesError, match="over"):
        track.advance_segment()
    ev = track.end_round()
    assert not track.state.ended_early and track.state.stage == TrackStage.ENDED
    assert "ends" in ev.summary
    with pytest.raises(RulesError):
        track.declare("a", A.drop_prone())


def test_after_segment_twenty():
    """000 Ending the Round: characters with counters after segment 20 may still
    finish an action (one last one each); nobody else acts; unused AP are lost."""
    a = person("a", "Able", ap=10, init=17)
    b = person("b", "Baker", ap=3, init=18)
    track = ActionTrack([a, b], AP_V2, fresh_deck())
    track.start_round(cards={"a": card(1, d8=[4]), "b": card(2, d8=[4])})
    advance_to(track, 20)
    track.declare("b", A.stand_up())  # 3 counters
    assert track.counters("a") == 4 and track.pool("a") == 6
    ev = track.advance_segment()  # 21: a goes on
    assert track.state.stage == TrackStage.OVERTIME and ev.placed == ("a",)
    assert track.counters("a") == 5
    with pytest.raises(RulesError, match="had none"):
        track.declare("b", A.drop_prone())
    track.declare("a", A.normal_shot(GEAR.weapon("henry_rifle")))  # 5 AP
    assert track.round_over
    with pytest.raises(RulesError, match="already taken a last action"):
        track.declare("a", A.drop_prone())
    ev = track.end_round()
    assert track.row("a").lost == 5  # the 5 AP never placed
    assert any("loses 5 unused AP" in d for d in ev.details)


def test_judge_may_end_early_but_not_with_a_stack_waiting():
    """000 Ending the Round; the Judge may stop a round early (flagged)."""
    track = _two_shooters()
    advance_to(track, 3)
    track.declare("m", A.cock_action(PEACEMAKER))
    track.declare("f", A.cock_action(ARMY))
    with pytest.raises(RulesError, match="Resolve"):
        track.end_round()
    with pytest.raises(RulesError, match="current segment"):
        track.resolve_stack(2)
    with pytest.raises(RulesError, match="still running"):
        track.start_round()
    track.resolve_stack()
    track.end_round()
    assert track.state.ended_early
    track.start_round()
    assert track.round == 2


def test_bleeding_at_round_end():
    """001 Optional Bleeding, applied once a round by the damage model when the
    option is on; the new sheet travels in the event."""
    bleeder = person("b", "Bleeder", wounds={"torso": 3})
    track = ActionTrack([bleeder], AP_V2, fresh_deck(), OptionalRules(bleeding=True))
    track.start_round(cards={"b": card(1, d8=[4])})
    ev = track.end_round()
    assert ev.bleeding and ev.bleeding[0].conc_lost == 1
    assert ev.bleeding[0].character.conc == 11
    quiet = ActionTrack([bleeder], AP_V2, fresh_deck())
    quiet.start_round(cards={"b": card(1, d8=[4])})
    assert not quiet.end_round().bleeding


# =============================================================================
# Continuous movement and surprise
# =============================================================================


@given(st.integers(min_value=0, max_value=400))
@settings(max_examples=60)
def test_continuous_schedule_property(total):
    """000 Continuous Action Movement: 20 parts adding up to the movement, the
    slowest within one pace of the fastest."""
    parts = continuous_schedule(total)
    assert len(parts) == 20
    assert sum(parts) == total
    assert max(parts) - min(parts) <= 1


def test_split_evenly_matches_the_train():
    """002 Continuous Actions: the train's 27 paces move 7, 7, 7 and 6."""
    assert split_evenly(27, 4) == [7, 7, 7, 6]
    assert continuous_schedule(5) == [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]


def test_continuous_movers_move_first_slowest_first():
    """000 Continuous Action Movement: continuous movers move every segment before
    other actions, slowest Quickness first; objects (automated) before characters."""
    fast = person("fast", "Fast rider", quickness="3d10", init=1)
    slow = person("slow", "Slow rider", quickness="2d6", init=1)
    track = ActionTrack([fast, slow], AP_V2, fresh_deck())
    track.set_continuous("fast", 20)
    track.set_continuous("slow", 40)
    track.set_continuous("wagon", 10, name="Runaway wagon", automated=True)
    with pytest.raises(RulesError, match="automated"):
        track.set_continuous("stagecoach", 10)
    assert track.continuous_order() == ["wagon", "slow", "fast"]
    track.start_round(cards={"fast": card(1, d10=[4]), "slow": card(2, d6=[4])})
    ev = track.advance_segment()
    assert [(m.mover_id, m.paces) for m in ev.moves] == [("wagon", 1), ("slow", 2), ("fast", 1)]
    track.set_continuous("slow", None)
    assert track.continuous_order() == ["wagon", "fast"]


def test_surprise_check_tns():
    """001 Surprise: Acuity, Standard (5) expecting danger, Difficult (9) otherwise;
    Miranda needs 5, Hank and Jonah 9."""
    hank = person("hank", "Hank", acuity="2d8")
    seven = card(7, d8=[7])
    assert not surprise_check(hank, True, seven).surprised
    res = surprise_check(hank, False, seven)
    assert res.surprised and res.tn == 9
    assert surprise_check(hank, False, seven, during_action_time=True).tn == 5


def test_surprised_character_sits_out_then_checks_bravery():
    """001 Surprise: a surprised character cannot act this round and needs an Easy
    (3) Bravery check to act in the next."""
    a = person("a", "Able", init=1, acuity="1d8", bravery="1d8")
    b = person("b", "Baker", init=1)
    track = ActionTrack([a, b], AP_V2, fresh_deck())
    track.apply_surprise("a", expecting_danger=False, card=card(3, d8=[4]))
    track.start_round(cards={"b": card(2, d8=[4])})
    assert track.row("a").status == RowStatus.SURPRISED
    track.advance_segment()
    assert track.counters("a") == 0
    track.end_round()
    # failed Bravery: surprised again
    track.start_round(cards={"a": card(4, d8=[2]), "b": card(2, d8=[4])})
    assert track.row("a").status == RowStatus.SURPRISED
    track.end_round()
    track.start_round(cards={"a": card(4, d8=[3]), "b": card(2, d8=[4])})
    assert track.row("a").status == RowStatus.ACTIVE


# =============================================================================
# A full scripted round
# =============================================================================


def test_full_round_four_characters():
    """000 Action Time end to end: four characters' initiative (success with a bump,
    failure, calamity, plain success), counters segment by segment, declarations,
    two stacks (one joined), the end of segment 20 and the round's end."""
    m = person("m", "Miranda", ap=12, init=4, quickness="3d8", quick_draw=2)
    h = person("h", "Hank", ap=10, init=6, quickness="2d6", wounds={"torso": 2})
    p = person("p", "Pete", ap=10, init=7, quickness="2d6")
    f = person("f", "Felicia", ap=11, init=4, quickness="2d10", quick_draw=1)
    deck = fresh_deck(5)
    track = ActionTrack([m, h, p, f], AP_V2, deck)
    start = track.state, deck.snapshot()
    ev = track.start_round(
        cards={
            "m": card(1, d8=[8, 1, 1]),  # 8 vs 3: one bump → 3
            "h": card(2, d6=[2, 1]),  # failure → 7
            "p": card(3, d6=["CF"], step=2),  # calamity → 7 + 2 + 1 = 10
            "f": card(4, d10=[5, 3]),  # success, no bump → 4
        }
    )
    assert len(ev.details) == 4
    firsts = {c: track.row(c).first_segment for c in "mhpf"}
    assert firsts == {"m": 3, "h": 7, "p": 10, "f": 4}
    assert track.row("h").round_ap == 8  # light wounds: −2 AP

    def counters():
        return tuple(track.counters(c) for c in "mhpf")

    advance_to(track, 2)
    assert counters() == (0, 0, 0, 0)
    track.advance_segment()  # 3
    assert counters() == (1, 0, 0, 0)
    track.advance_segment()  # 4
    assert counters() == (2, 0, 0, 1)
    assert track.declaration_order() == ["m", "f"]
    track.declare("m", A.draw_action(PEACEMAKER, 2))  # 1 AP, 1 lost
    track.declare("f", A.draw_action(ARMY, 1))
    track.quick_draw_check("m", card=card(5, d8=[6, 2]))  # +1
    track.buy_stack_bonus("m", 1)  # +1
    ev = track.resolve_stack(cards={"m": card(40, fragment=3), "f": card(30, fragment=5)})
    assert [p_.character_id for p_ in ev.stack] == ["m", "f"]  # 5 = 5, card 40 first
    assert track.row("m").lost == 1 and track.pool("m") == 12 - 2 - 1
    track.advance_segment()  # 5
    assert counters() == (1, 0, 0, 1)
    track.declare("m", A.cock_action(PEACEMAKER))
    track.advance_segment()  # 6
    assert counters() == (1, 0, 0, 2)
    track.advance_segment()  # 7
    assert counters() == (2, 1, 0, 3)
    assert track.declaration_order() == ["h", "m", "f"]
    track.declare("h", A.drop_prone())
    track.declare("f", A.cock_action(ARMY))  # 3 counters for 1: 2 lost
    track.join_stack("m", A.snap_shot(PEACEMAKER, ["p"]))  # 1 AP from the pool to join
    ev = track.resolve_stack()
    # fragment + bonus, then a single-action gun's shot (Miranda's Peacemaker snap
    # shot, 000 Cocking and Readying), then the card number
    single = {"m"}
    totals = [(p_.total, p_.character_id in single, p_.card_number) for p_ in ev.stack]
    assert totals == sorted(totals, reverse=True)
    assert {p_.character_id for p_ in ev.stack} == {"h", "m", "f"}
    assert track.pool("m") == 12 - 5 - 2
    for seg, expected in ((8, (1, 1, 0, 1)), (9, (2, 2, 0, 2)), (10, (3, 3, 1, 3))):
        track.advance_segment()
        assert track.current_segment == seg and counters() == expected
    track.declare("m", A.normal_shot(PEACEMAKER, ["p"]))
    track.declare("p", A.move_action(p, 8))
    track.resolve_stack()
    assert track.pool("m") == 2
    expected_after = {
        11: (1, 4, 1, 4),
        12: (2, 5, 2, 5),
        13: (2, 6, 3, 6),  # Miranda's pool is empty
        14: (2, 7, 4, 7),  # Hank's and Felicia's too
    }
    for seg, expected in expected_after.items():
        track.advance_segment()
        assert counters() == expected, seg
    track.declare("f", A.aimed_shot(ARMY, 1, ["h"]))  # 5 AP, 2 lost
    assert track.row("f").pool == 0 and track.row("f").counters == 0
    track.advance_segment()  # 15
    track.advance_segment()  # 16
    assert counters() == (2, 7, 6, 0)
    track.declare("p", A.melee_attack(4, weapon=GEAR.weapon("bowie_knife")))  # 2 lost
    for _seg in (17, 18, 19, 20):
        track.advance_segment()
    assert counters() == (2, 7, 3, 0) and track.pool("p") == 0
    assert not track.round_over
    ev = track.advance_segment()  # after 20: nobody has AP left to place
    assert track.state.stage == TrackStage.OVERTIME and ev.placed == ()
    assert track.declaration_order() == ["h", "p", "m"]
    with pytest.raises(RulesError, match="Nobody can place"):
        track.advance_segment()
    track.declare("h", A.stand_up())
    track.declare("p", A.stand_up())
    assert not track.round_over
    track.declare("m", A.cock_action(PEACEMAKER))
    assert not track.round_over  # three simultaneous last actions: a stack to resolve
    ev = track.resolve_stack()
    assert len(ev.stack) == 3
    assert track.round_over
    ev = track.end_round()
    assert not track.state.ended_early
    spent = {c: (track.row(c).spent, track.row(c).lost) for c in "mhpf"}
    assert spent == {"m": (9, 3), "h": (3, 5), "p": (7, 3), "f": (7, 4)}
    # every AP of the round is accounted for
    for c in "mhpf":
        r = track.row(c)
        assert r.spent + r.lost == r.round_ap
    # and the whole round undoes back to the start
    while track.history_depth:
        track.undo()
    assert (track.state, deck.snapshot()) == start


# =============================================================================
# Saving, reopening and undo
# =============================================================================


def test_state_json_round_trip_and_reopen(miranda):
    """TrackState is saved in encounter files: it survives JSON and a track built from
    it carries on exactly as the original."""
    deck = fresh_deck()
    hank = person("hank", "Hank", init=2)
    track = ActionTrack([miranda, hank], AP_V2, deck, OptionalRules(rushing=True))
    track.start_round()
    advance_to(track, 5)
    saved = track.state.model_dump_json()
    restored = TrackState.model_validate_json(saved)
    assert restored == track.state
    deck2 = Deck(standard_deck(), state=deck.snapshot())
    reopened = ActionTrack(
        [miranda, hank], AP_V2, deck2, OptionalRules(rushing=True), state=restored
    )
    for t in (track, reopened):
        t.advance_segment()
        t.declare("hank", A.stand_up())
        t.declare(miranda.id, A.cock_action(PEACEMAKER))
        t.resolve_stack()
    assert reopened.state == track.state
    assert deck2.snapshot() == deck.snapshot()
    assert TrackState.model_validate_json(track.state.model_dump_json()) == track.state
    assert reopened.history_depth == 4


def test_undo_with_nothing_to_undo():
    """Undo design: an empty history refuses to undo."""
    track = ActionTrack([person("a", "Able")], AP_V2, fresh_deck())
    with pytest.raises(RulesError, match="nothing to undo"):
        track.undo()


def test_duplicate_ids_refused():
    """The track keys its rows by character id, so ids must be unique."""
    a = person("a", "Able")
    with pytest.raises(RulesError, match="share the id"):
        ActionTrack([a, a], AP_V2, fresh_deck())


_ACTIONS = [
    A.drop_prone(),
    A.stand_up(),
    A.cock_action(PEACEMAKER),
    A.normal_shot(PEACEMAKER),
    A.aimed_shot(PEACEMAKER, 2),
    A.skill_action("lockpicking", 8),
    A.recover(),
]

_OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["advance"] * 6
            + ["declare"] * 5
            + ["resolve"] * 2
            + ["start", "end"] * 3
            + ["join", "rush", "quick_draw", "buy", "modifiers", "end_early"]
            + ["surprise", "continuous", "abandon"]
        ),
        st.integers(min_value=0, max_value=2),
        st.integers(min_value=0, max_value=len(_ACTIONS) - 1),
    ),
    max_size=70,
)


@given(ops=_OPS, seed=st.integers(min_value=0, max_value=10_000))
@settings(max_examples=40)
def test_undo_everything_property(ops, seed):
    """Undo design: any sequence of steps, undone, gives back the exact starting state
    and deck; every refused step (too few counters, acting stunned, …) raises
    RulesError and changes neither."""
    chars = [
        person("a", "Able", ap=12, init=2, quickness="2d8", quick_draw=2),
        person("b", "Baker", ap=10, init=4, quickness="2d6", quick_draw=1),
        person("c", "Charlie", ap=14, init=1, quickness="3d10", stunned=seed % 5 == 0),
    ]
    ids = [c.id for c in chars]
    deck = Deck(standard_deck(), seed=seed)
    track = ActionTrack(chars, AP_V2, deck, OptionalRules(rushing=True, bleeding=True))
    start = (track.state, deck.snapshot())
    track.start_round()
    done = 1
    for op, who, what in ops:
        cid = ids[who]
        action = _ACTIONS[what]
        before = (track.state, deck.snapshot(), track.history_depth)
        calls = {
            "start": track.start_round,
            "advance": track.advance_segment,
            "declare": lambda cid=cid, action=action: track.declare(cid, action),
            "join": lambda cid=cid, action=action: track.join_stack(cid, action),
            "rush": lambda cid=cid, action=action: track.rush(cid, action),
            "quick_draw": lambda cid=cid: track.quick_draw_check(cid),
            "buy": lambda cid=cid, what=what: track.buy_stack_bonus(cid, what % 3),
            "modifiers": lambda cid=cid, what=what: track.set_stack_modifiers(cid, gear=what - 3),
            "resolve": track.resolve_stack,
            # rounds mostly end when they are over, so the middle of a round gets tested
            "end": track.end_round if track.round_over else track.advance_segment,
            "end_early": track.end_round,
            "surprise": lambda cid=cid, what=what: track.apply_surprise(cid, what % 2 == 0),
            "continuous": lambda cid=cid, what=what: track.set_continuous(cid, what * 3 or None),
            "abandon": lambda cid=cid: track.abandon_progress(cid),
        }
        try:
            calls[op]()
        except RulesError:
            assert (track.state, deck.snapshot(), track.history_depth) == before
            continue
        done += 1
        assert track.history_depth == before[2] + 1
        for r in track.state.rows.values():
            assert r.placed + r.pool_spent <= r.round_ap or r.round_ap == 0
            assert r.counters <= r.placed
    assert track.history_depth == done
    while track.history_depth:
        track.undo()
    assert track.state == start[0]
    assert deck.snapshot() == start[1]


def test_the_step_a_refusal_check_built_is_taken_only_while_its_inputs_hold(monkeypatch):
    """why_not then apply (the table's order) builds the next segment once, to the
    same state as building it afresh; a sheet changed in between (a stun) makes the
    step be built again from the sheets of now (000 Wound Effects: the stunned
    character's counters go on Recover)."""

    def table() -> tuple[ActionTrack, list[Character]]:
        people = [person("a", "Ann", init=1), person("b", "Bo", init=1)]
        track = ActionTrack(people, AP_V2, fresh_deck())
        track.start_round(cards={"a": card(1, d8=[1, 1]), "b": card(2, d8=[1, 1])})
        return track, people

    track, people = table()
    twin, twin_people = table()
    builds = []
    real = ActionTrack._advance
    monkeypatch.setattr(ActionTrack, "_advance", lambda self: builds.append(1) or real(self))
    for _ in range(3):
        assert track.advance_refusal() is None
        track.advance_segment()
        twin.advance_segment()
    assert len(builds) == 3 + 3 and track.state == twin.state
    assert track.counters("b") > 0
    assert track.advance_refusal() is None
    for p in (people, twin_people):
        p[1].stunned = True
    track.update_characters(people)
    twin.update_characters(twin_people)
    track.advance_segment()
    twin.advance_segment()
    assert len(builds) == 6 + 3 and track.state == twin.state
    assert track.row("b").status == RowStatus.STUNNED and track.counters("b") == 0
