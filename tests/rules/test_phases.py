"""The Phases edition's round (004 Initiative And Action Speeds; 001 Surprise; 002
Continuous Actions)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.action_track import RowStatus
from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.character import Character
from twtw_desktop.rules.deck import Deck, standard_deck
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.gear import default_gear
from twtw_desktop.rules.phases import (
    PhaseRound,
    PhaseStage,
    PhaseState,
    maneuver_phases,
    qualifying,
)
from twtw_desktop.rules.samples import load_characters, npc_template

PHASES_ED = load_edition("phases")
F, N, S = Speed.FAST, Speed.NORMAL, Speed.SLOW
DECK_CARDS = {c.number: c for c in standard_deck()}
_BASE_CARD = DECK_CARDS[1].model_dump(mode="json")
BAR = {"fast": [7, 5, 3, 1], "normal": [10, 8, 5, 2], "slow": [13, 11, 8, 3]}


def card(number: int, **columns: list) -> Card:
    """A hand-built card: every cause cell 1 except the columns given, and 004's
    example initiative bar (Fast 7/5/3/1, Slow 13/11/8/3, Normal between)."""
    data = copy.deepcopy(_BASE_CARD)
    data["number"] = number
    data["cause"] = {col: [1] * 5 for col in ("4", "6", "8", "10", "12")}
    for key, faces in columns.items():
        data["cause"][key[1:]] = list(faces) + [1] * (5 - len(faces))
    data["initiative"] = copy.deepcopy(BAR)
    return Card.model_validate(data)


def person(cid: str, name: str, reflex: str = "2d8", side: str = "hombres", **kw) -> Character:
    traits = {
        "reflex": reflex,
        "quickness": "2d8",
        "acuity": kw.pop("acuity", "2d8"),
        "bravery": kw.pop("bravery", "2d8"),
    }
    return Character(
        id=cid,
        name=name,
        side=side,
        traits=traits,
        ap=10,
        initiative=5,
        move=8,
        run=16,
        size=6,
        conc_max=12,
        conc=12,
        **kw,
    )


SAMPLES = {c.id: c for c in load_characters()}


def fresh_deck(seed: int = 4) -> Deck:
    return Deck(standard_deck(), seed=seed)


def new_round(chars, options=None, seed=4) -> PhaseRound:
    r = PhaseRound(chars, PHASES_ED, fresh_deck(seed), options)
    r.start_round()
    return r


# =============================================================================
# Worked examples
# =============================================================================


def test_jonah_and_the_perkins_brothers():
    """RULES example 11 (004 Initiative Example, card 42): Jonah's 6 on a Fast action
    meets phases II, III and IV (not I: Fast needs 7) and goes in II; the Perkins
    brothers' pool shows a CF, so they hesitate with no bonus next round."""
    c42 = DECK_CARDS[42]
    assert c42.initiative.fast == (7, 5, 3, 1)
    jonah, pete, clem = (SAMPLES[i] for i in ("jonah_benton", "pete_perkins", "clem_perkins"))
    r = new_round([jonah, pete, clem])
    for c in (jonah, pete, clem):
        r.declare_speed(c.id, F)
    ev = r.resolve(cards={"all": c42})
    assert r.row(jonah.id).reflex_result == 6
    assert r.qualifying_phases(jonah.id) == (2, 3, 4)
    assert r.row(jonah.id).phase == 2
    for brother in (pete, clem):
        row = r.row(brother.id)
        assert row.reflex_cf and row.hesitated and not row.bonus_next_round
        assert row.phase is None
    assert any("CF" in d for d in ev.details)
    r.advance_phase()  # I
    assert r.acting_order() == []
    with pytest.raises(RulesError, match="cannot act before phase II"):
        r.act(jonah.id, F)
    r.advance_phase()  # II
    assert r.acting_order() == [jonah.id]
    r.act(jonah.id, A.run_action(jonah, 16).model_copy(update={"speed": F}))
    with pytest.raises(RulesError, match="hesitates"):
        r.act(pete.id, F)
    # no bonus next round after a CF
    r.advance_phase()
    r.advance_phase()
    r.advance_phase()
    assert r.round_over
    r.start_round()
    r.declare_speed(pete.id, S)
    assert r.row(pete.id).bar_speed == S


def test_miranda_hank_and_the_hombres():
    """RULES example 11 (004 Initiative Example 2, card 28): Hank's 2 on a Normal
    action goes in phase IV; the hombres' 7 goes in phase III on Normal (II needs 8,
    III 5) and phase I on Fast; Miranda's 8 on 3d10 Fast goes in phase I, before the
    Fast hombre (3d10 beats 2d10)."""
    c28 = DECK_CARDS[28]
    assert c28.initiative.normal[1:3] == (8, 5) and c28.initiative.fast[0] == 7
    hank, miranda = SAMPLES["hank_daggett"], SAMPLES["miranda_valentine"]
    hombres = []
    for i in range(3):
        h = npc_template("octavio_vaquero")
        h.id, h.name = f"hombre{i + 1}", f"Hombre {i + 1}"
        hombres.append(h)
    r = new_round([hank, miranda, *hombres])
    r.declare_speed(hank.id, N)
    r.declare_speed("hombre1", N)
    r.declare_speed("hombre2", F)
    r.declare_speed("hombre3", N)
    r.declare_speed(miranda.id, F)
    r.resolve(cards={"all": c28})
    phases = {
        cid: r.row(cid).phase for cid in (hank.id, miranda.id, "hombre1", "hombre2", "hombre3")
    }
    assert phases == {hank.id: 4, miranda.id: 1, "hombre1": 3, "hombre2": 1, "hombre3": 3}
    assert r.row(miranda.id).reflex_result == 8
    assert r.row("hombre1").reflex_result == 7
    assert r.acting_order(1) == [miranda.id, "hombre2"]
    assert r.acting_order(3) == ["hombre1", "hombre3"]


def test_handbuilt_bar_matches_the_example_text():
    """004 Resolution: on a Fast bar 7/5/3/1 a fast action goes in phase I on 7+, II
    on 5+, III on 3+, IV on 1+; on the Slow bar 13/11/8/3 a 2 hesitates."""
    assert qualifying(7, (7, 5, 3, 1)) == (1, 2, 3, 4)
    assert qualifying(6, (7, 5, 3, 1)) == (2, 3, 4)
    assert qualifying(2, (13, 11, 8, 3)) == ()
    assert qualifying(None, (7, 5, 3, 1)) == ()


# =============================================================================
# Declarations and hesitation
# =============================================================================


def test_declare_actions_combination_rules():
    """004 Freestyle Action Speeds: combining actions, a Full never combines (refused,
    nothing changes), and non-combat skill use with combat is flagged."""
    gear = default_gear()
    a = person("a", "Able")
    r = new_round([a])
    r.declare_actions("a", [F, F])
    assert r.row("a").declared == N
    before = r.state
    with pytest.raises(RulesError, match="Full action cannot be combined"):
        r.declare_actions("a", [S, F])
    with pytest.raises(RulesError):
        r.declare_actions("a", [N, N, N])
    assert r.state == before
    r.declare_actions("a", [F, F, F])
    assert r.row("a").declared == S
    r.declare_actions(
        "a", [A.skill_action("first aid"), A.snap_shot(gear.weapon("colt_peacemaker"))]
    )
    row = r.row("a")
    assert row.declared == N and row.mixed_noncombat
    assert any("non-combat" in x for x in row.declared_reasons)


def test_hesitation_makes_next_round_faster():
    """004 Resolution: below phase IV's TN the character hesitates; next round their
    action counts one speed faster (never beyond Fast)."""
    a = person("a", "Able", reflex="1d8")
    r = new_round([a])
    r.declare_speed("a", S)
    r.resolve(cards={"all": card(1, d8=[2])})  # 2 < Slow IV's 3
    row = r.row("a")
    assert row.hesitated and row.bonus_next_round and not row.reflex_cf
    for _ in range(5):
        r.advance_phase()
    r.start_round()
    r.declare_speed("a", S)
    assert r.row("a").bar_speed == N
    r.resolve(cards={"all": card(2, d8=[5])})  # Normal bar 10/8/5/2: phase III
    assert r.row("a").phase == 3
    for _ in range(2):
        r.advance_phase()
    r.advance_phase()
    # the action is still the declared Slow one: a Full action is allowed
    r.act("a", S)


def test_choose_phase_rules():
    """004 Resolution: the character may pick any phase their result meets, chosen
    before phase I."""
    a = person("a", "Able", reflex="1d8")
    r = new_round([a])
    r.declare_speed("a", F)
    r.resolve(cards={"all": card(1, d8=[6])})
    assert r.qualifying_phases("a") == (2, 3, 4)
    with pytest.raises(RulesError, match="does not reach phase I"):
        r.choose_phase("a", 1)
    r.choose_phase("a", 4)
    assert r.row("a").phase == 4
    r.advance_phase()
    with pytest.raises(RulesError, match="before phase I"):
        r.choose_phase("a", 2)


def test_acting_rules():
    """004 Taking Actions: an action of the declared speed or faster; in Reflex order;
    never twice; refused with a reason and no change."""
    big = person("big", "Big", reflex="3d10", side="hombres")
    small = person("small", "Small", reflex="2d10", side="posse")
    same = person("same", "Same", reflex="3d10", side="posse")
    r = new_round([big, small, same])
    for c in ("big", "small", "same"):
        r.declare_speed(c, F)
    r.resolve(cards={"all": card(1, d10=[9, 9, 9])})
    assert r.acting_order(1) == ["same", "big", "small"]  # posse wins the 3d10 tie
    with pytest.raises(RulesError, match="before phase I begins"):
        r.act("big", F)
    r.advance_phase()
    before = r.state
    with pytest.raises(RulesError, match="Same acts before Big"):
        r.act("big", F)
    with pytest.raises(RulesError, match="too slow"):
        r.act("same", N)
    assert r.state == before
    r.act("same", F)
    with pytest.raises(RulesError, match="already acted"):
        r.act("same", F)
    assert r.next_to_act() == "big"
    ev = r.advance_phase()  # big and small let phase I go by
    assert sum("has passed" in d for d in ev.details) == 2
    with pytest.raises(RulesError, match="go by"):
        r.act("big", F)


def test_delay_and_preempt():
    """004 Delaying an Action: a delayed character may act later; to go before
    someone's action it wins a Reflex contest at −2 (a tie stays with the acting
    character)."""
    m = person("m", "Miranda", reflex="1d10", side="posse")
    h = person("h", "Hombre", reflex="1d8")
    r = new_round([m, h])
    r.declare_speed("m", F)
    r.declare_speed("h", F)
    r.resolve(cards={"all": card(1, d10=[8], d8=[7])})
    r.advance_phase()
    assert r.acting_order() == ["m", "h"]
    with pytest.raises(RulesError, match="not delaying"):
        r.preempt("m")
    r.delay("m", "a target shows itself")
    assert r.next_to_act() == "h"
    # 8 − 2 = 6 against 6: a tie, Miranda goes after
    ev = r.preempt("m", card=card(2, d10=[8], d8=[6]))
    assert not ev.contest.interrupter_wins and ev.contest.interrupter_result == 6
    # 9 − 2 = 7 against 6: she goes first
    ev = r.preempt("m", card=card(3, d10=[9], d8=[6]))
    assert ev.contest.interrupter_wins
    r.act("m", F)
    r.act("h", F)


def test_keep_waiting_into_the_next_round():
    """004 Delaying an Action: a circumstance still unmet at the round's end may be
    waited for: Fast for readiness, the action's own speed otherwise."""
    m = person("m", "Miranda", reflex="1d8")
    r = new_round([m])
    r.declare_speed("m", S)
    r.resolve(cards={"all": card(1, d8=[7])})  # Slow bar 13/11/8/3: 7 → phase IV
    for _ in range(4):
        r.advance_phase()
    r.delay("m", "the stage comes round the bend")
    r.advance_phase()
    assert r.round_over
    r.start_round()
    with pytest.raises(RulesError, match="still waiting"):
        r.declare_speed("m", F)
    r.keep_waiting("m")
    row = r.row("m")
    assert row.bar_speed == F and row.declared == S and row.delayed
    r.resolve(cards={"all": card(2, d8=[6])})  # Fast bar: phase II
    assert r.row("m").phase == 2
    r.advance_phase()
    r.advance_phase()
    r.act("m", S)


def test_card_per_side_and_per_character():
    """004 Optional Resolution System: one card per side, or per character."""
    a = person("a", "Able", reflex="1d8", side="posse")
    b = person("b", "Baker", reflex="1d8")
    r = new_round([a, b], OptionalRules(phases_card_per="side"))
    r.declare_speed("a", F)
    r.declare_speed("b", F)
    r.resolve(cards={"posse": card(1, d8=[7]), "hombres": card(2, d8=[3])})
    assert (r.row("a").phase, r.row("b").phase) == (1, 3)
    assert r.state.initiative_cards == {"posse": 1, "hombres": 2}
    r2 = new_round([a, b], OptionalRules(phases_card_per="character"))
    r2.declare_speed("a", F)
    r2.declare_speed("b", F)
    ev = r2.resolve()
    assert len(ev.details) >= 4 and set(r2.state.initiative_cards) == {"a", "b"}


def test_resolve_needs_every_declaration():
    """004 Declaration: the card is flipped once everyone has declared."""
    r = new_round([person("a", "Able"), person("b", "Baker")])
    r.declare_speed("a", F)
    before = r.state
    with pytest.raises(RulesError, match="Baker must declare"):
        r.resolve()
    assert r.state == before


# =============================================================================
# Continuous actions, surprise, stun
# =============================================================================


def test_maneuver_phases_distribution():
    """002 Continuous Actions (chart missing): the lower of skill and handling is the
    number of continuous steps that allow a maneuver, spread from the first."""
    assert maneuver_phases(0, 3) == (False, False, False, False)
    assert maneuver_phases(1, 4) == (True, False, False, False)
    assert maneuver_phases(2, 5) == (True, False, True, False)
    assert maneuver_phases(3, 3) == (True, True, True, False)
    assert maneuver_phases(5, 4) == (True, True, True, True)


def test_continuous_step_after_each_phase():
    """002 Continuous Actions: after each phase automated movement goes first, then
    controlled movers; the train's 27 paces go 7, 7, 7, 6."""
    m = person("m", "Miranda", reflex="3d10", side="posse")
    r = PhaseRound([m], PHASES_ED, fresh_deck())
    r.set_continuous("m", 32, skill=2, handling=3)
    r.set_continuous("train", 27, name="The train", automated=True)
    assert r.continuous_order() == ["train", "m"]
    r.start_round()
    r.declare_speed("m", F)
    r.resolve(cards={"all": card(1, d10=[9])})
    r.advance_phase()  # phase I opens
    train, ride = [], []
    for _ in range(4):
        ev = r.advance_phase()
        assert [mv.mover_id for mv in ev.moves] == ["train", "m"]
        train.append(ev.moves[0].paces)
        ride.append((ev.moves[1].paces, ev.moves[1].maneuver))
    assert train == [7, 7, 7, 6]
    assert ride == [(8, True), (8, False), (8, True), (8, False)]
    assert r.round_over


def test_surprise_in_phases():
    """001 Surprise: a surprised character sits the round out, then needs an Easy (3)
    Bravery check."""
    a = person("a", "Able", acuity="1d8", bravery="1d8")
    b = person("b", "Baker")
    r = PhaseRound([a, b], PHASES_ED, fresh_deck())
    ev = r.apply_surprise("a", expecting_danger=True, card=card(1, d8=[4]))
    assert ev.surprise.tn == 5 and ev.surprise.surprised
    r.start_round()
    assert r.row("a").status == RowStatus.SURPRISED
    with pytest.raises(RulesError, match="surprised"):
        r.declare_speed("a", F)
    r.declare_speed("b", F)
    r.resolve()
    for _ in range(5):
        r.advance_phase()
    r.start_round(cards={"a": card(2, d8=[3])})
    assert r.row("a").status == RowStatus.WAITING
    r.declare_speed("a", F)


def test_stunned_and_out_skip_declaration():
    """000/001 Stun: stunned characters spend the round recovering; the out of action
    take no part; neither holds up the card."""
    a = person("a", "Able")
    b = person("b", "Baker", stunned=True)
    c = person("c", "Charlie", dead=True)
    r = new_round([a, b, c])
    assert r.row("b").status == RowStatus.STUNNED and r.row("c").status == RowStatus.OUT
    r.declare_speed("a", F)
    r.resolve()
    with pytest.raises(RulesError):
        r.declare_speed("b", F)


# =============================================================================
# A full round, saving, undo
# =============================================================================


def test_full_phases_round_four_characters():
    """004 end to end: four characters declare (one by combining actions), one card
    is flipped, phases are chosen, and phases I–IV are played in Reflex order with a
    delay, an interruption and a pass."""
    miranda = person("m", "Miranda", reflex="3d10", side="posse")
    hank = person("h", "Hank", reflex="2d6", side="posse")
    felicia = person("f", "Felicia", reflex="2d10")
    pete = person("p", "Pete", reflex="2d6")
    deck = fresh_deck(9)
    r = PhaseRound([miranda, hank, felicia, pete], PHASES_ED, deck)
    start = (r.state, deck.snapshot())
    r.start_round()
    assert r.state.stage == PhaseStage.DECLARE
    r.declare_speed("m", F)
    r.declare_actions("h", [F, N])  # Quick + Half = Half
    r.declare_speed("f", F)
    r.declare_speed("p", S)
    the_card = card(17, d10=[8, 6, 2], d6=[5, 2])
    ev = r.resolve(cards={"all": the_card})
    # Miranda 8 Fast → I; Felicia 8 Fast → I; Hank 5 Normal → III; Pete 5 Slow → IV
    assert {c: r.row(c).phase for c in "mhfp"} == {"m": 1, "h": 3, "f": 1, "p": 4}
    assert ev.cards == ()  # the card was given, nothing drawn
    r.choose_phase("f", 2)  # Felicia prefers to see what happens first
    ev = r.advance_phase()  # phase I
    assert ev.order == ("m",)
    r.delay("m", "Felicia shows herself")
    ev = r.advance_phase()  # phase II; Miranda still delaying
    assert ev.order == ("f",)
    assert r.next_to_act() == "f"
    ev = r.preempt("m", card=card(18, d10=[10, 1], d8=[1]))  # open-ended 10 + … − 2
    won = ev.contest.interrupter_wins
    if won:
        r.act("m", A.snap_shot(default_gear().weapon("colt_peacemaker"), ["f"]))
        r.act("f", F)
    else:
        r.act("f", F)
        r.act("m", F)
    ev = r.advance_phase()  # phase III
    assert ev.order == ("h",)
    r.act("h", N)
    ev = r.advance_phase()  # phase IV
    assert ev.order == ("p",)
    with pytest.raises(RulesError):
        r.act("h", F)
    ev = r.advance_phase()  # Pete never acts: he passes; the round ends
    assert any("Pete did not act" in d for d in ev.details)
    assert r.round_over and r.state.stage == PhaseStage.ENDED
    assert [r.row(c).acted for c in "mhfp"] == [True, True, True, False]
    while r.history_depth:
        r.undo()
    assert (r.state, deck.snapshot()) == start


def test_state_json_round_trip_and_reopen():
    """PhaseState is saved in encounter files and reopens where it was."""
    a, b = person("a", "Able"), person("b", "Baker")
    deck = fresh_deck()
    r = new_round([a, b])
    r = PhaseRound([a, b], PHASES_ED, deck)
    r.start_round()
    r.declare_speed("a", F)
    r.declare_speed("b", N)
    r.resolve()
    restored = PhaseState.model_validate_json(r.state.model_dump_json())
    assert restored == r.state
    deck2 = Deck(standard_deck(), state=deck.snapshot())
    again = PhaseRound([a, b], PHASES_ED, deck2, state=restored)
    for x in (r, again):
        for _ in range(5):
            x.advance_phase()
    assert again.state == r.state


_OPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["declare"] * 4
            + ["combine"] * 2
            + ["resolve"] * 2
            + ["advance"] * 4
            + ["act"] * 2
            + ["next_acts"] * 4
            + ["next_delays", "interrupt"]
            + ["start"] * 2
            + ["choose", "delay", "preempt", "keep_waiting", "surprise", "continuous"]
        ),
        st.integers(min_value=0, max_value=2),
        st.integers(min_value=0, max_value=5),
    ),
    max_size=60,
)


@given(ops=_OPS, seed=st.integers(min_value=0, max_value=10_000))
@settings(max_examples=40)
def test_undo_everything_property(ops, seed):
    """Undo design: any sequence of steps, undone, gives back the exact starting
    state and deck; refused steps (a Full combined with another action, acting before
    one's phase, …) raise RulesError and change nothing."""
    chars = [
        person("a", "Able", reflex="3d10", side="posse"),
        person("b", "Baker", reflex="2d6"),
        person("c", "Charlie", reflex="2d8", stunned=seed % 4 == 0),
    ]
    ids = [c.id for c in chars]
    speeds = [F, N, S]
    combos = [[F, F], [S, F], [N, N, N], [F, F, F], [F, N], [S]]
    deck = Deck(standard_deck(), seed=seed)
    r = PhaseRound(chars, PHASES_ED, deck, OptionalRules(bleeding=True))
    start = (r.state, deck.snapshot())
    done = 0

    def attempt(step) -> None:
        nonlocal done
        before = (r.state, deck.snapshot(), r.history_depth)
        try:
            step()
        except RulesError:
            assert (r.state, deck.snapshot(), r.history_depth) == before
            return
        done += 1
        assert r.history_depth == before[2] + 1

    def everyone_declares_then_resolve() -> None:
        for cid in ids:
            if r.state.rows[cid].status == RowStatus.WAITING:
                attempt(lambda cid=cid: r.declare_speed(cid, F))
        attempt(r.resolve)

    def next_one_acts(speed: Speed) -> None:
        cid = r.next_to_act()
        if cid is None:
            attempt(r.advance_phase)
        else:
            attempt(lambda: r.act(cid, speed))

    def next_one_delays() -> None:
        cid = r.next_to_act()
        if cid is not None:
            attempt(lambda: r.delay(cid, None))

    def a_delayer_interrupts() -> None:
        waiting = [c for c in ids if r.state.rows[c].delayed and not r.state.rows[c].acted]
        if waiting:
            attempt(lambda: r.preempt(waiting[0]))
            attempt(lambda: r.act(waiting[0], F))

    for op, who, what in ops:
        cid = ids[who]
        speed = speeds[what % 3]
        calls = {
            "next_delays": next_one_delays,
            "interrupt": a_delayer_interrupts,
            "start": r.start_round,
            "declare": lambda cid=cid, speed=speed: r.declare_speed(cid, speed),
            "combine": lambda cid=cid, what=what: r.declare_actions(cid, combos[what % 6]),
            "resolve": everyone_declares_then_resolve,
            "advance": r.advance_phase,
            "act": lambda cid=cid, speed=speed: r.act(cid, speed),
            "next_acts": lambda speed=speed: next_one_acts(speed),
            "choose": lambda cid=cid, what=what: r.choose_phase(cid, what),
            "delay": lambda cid=cid, what=what: r.delay(cid, "something" if what % 2 else None),
            "preempt": lambda cid=cid: r.preempt(cid),
            "keep_waiting": lambda cid=cid: r.keep_waiting(cid),
            "surprise": lambda cid=cid, what=what: r.apply_surprise(cid, what % 2 == 0),
            "continuous": lambda cid=cid, what=what: r.set_continuous(
                cid, what * 4 or None, skill=what, handling=3
            ),
        }
        if op in ("resolve", "next_acts", "next_delays", "interrupt"):
            calls[op]()
        else:
            attempt(calls[op])
    assert r.history_depth == done
    while r.history_depth:
        r.undo()
    assert r.state == start[0]
    assert deck.snapshot() == start[1]


def _to_own_phase(r, cid: str) -> None:
    while r.state.phase != r.row(cid).phase:
        r.advance_phase()


def test_a_half_declaration_holds_two_quick_actions():
    """004 Freestyle Action Speeds: "Two Quick actions may be combined as a Half
    action"; "One Quick and one Half action may be combined as a Half action"; its
    example: "Since he declared a normal action, he may freely use a fast action as
    well." Declared Half, Jonah snap-shoots (Quick) and may cock (Quick) in the same
    phase; a third Quick would make Full and is refused; so is acting on in a later
    phase. (A Half declaration allowed one act before.)"""
    jonah = person("jonah", "Jonah", reflex="3d10", side="posse")
    r = new_round([jonah])
    r.declare_speed("jonah", N)
    r.resolve(cards={"all": card(1, d10=[9, 9, 9])})
    _to_own_phase(r, "jonah")
    r.act("jonah", F)
    ev = r.act("jonah", F)
    assert any("within the Half declared" in d for d in ev.details)
    assert r.row("jonah").acted_speeds == (F, F)
    with pytest.raises(RulesError, match="combine to a Full action, slower than the Half"):
        r.act("jonah", F)
    if r.state.phase < 4:
        r.advance_phase()
        with pytest.raises(RulesError, match="in phase"):
            r.act("jonah", F)
    # a Quick and a Half combine to Half as well
    r2 = new_round([jonah])
    r2.declare_speed("jonah", N)
    r2.resolve(cards={"all": card(1, d10=[9, 9, 9])})
    _to_own_phase(r2, "jonah")
    r2.act("jonah", F)
    r2.act("jonah", N)
    # a Quick declaration holds one Quick action only
    r3 = new_round([jonah])
    r3.declare_speed("jonah", F)
    r3.resolve(cards={"all": card(1, d10=[9, 9, 9])})
    _to_own_phase(r3, "jonah")
    r3.act("jonah", F)
    with pytest.raises(RulesError, match="already acted"):
        r3.act("jonah", F)


def test_a_shot_with_its_draw_and_cock_is_priced_as_their_combination():
    """004: "When combining two actions, the resulting speed is one slower than the
    slowest action in the group. [...] No other three action combination is
    allowed." A Peacemaker drawn (Half) and fired (Quick) is Half; cocked and fired
    is Half; drawn, cocked and fired is refused as one declaration (it was priced as
    one Quick shot before)."""
    pm = default_gear().weapon("colt_peacemaker")
    assert A.shot_speed(pm).speed == F
    assert A.shot_speed(pm, cock_first=True).speed == N
    assert A.shot_speed(pm, draw_first=True).speed == N
    with pytest.raises(RulesError, match="draw \\+ cock \\+ shot cannot be one declaration"):
        A.shot_speed(pm, draw_first=True, cock_first=True)
    assert A.shot_speed(pm, cock_first=True, aims=1).speed == S  # three Quick: Full


def test_one_put_out_of_action_in_the_round_holds_nobody_up():
    """000 Wound Effects: a character out of action takes no part; one put out of
    action during the round is no longer the one whose turn it is in its phase, and
    the next in Reflex order acts (the autopilot's fights met the table waiting on a
    downed character's turn)."""
    big = person("big", "Big", reflex="3d10", side="hombres")
    small = person("small", "Small", reflex="2d10", side="posse")
    same = person("same", "Same", reflex="3d10", side="posse")
    r = new_round([big, small, same])
    for c in ("big", "small", "same"):
        r.declare_speed(c, F)
    r.resolve(cards={"all": card(1, d10=[9, 9, 9])})
    r.advance_phase()
    assert r.next_to_act() == "same"
    same.dead = True  # shot before its turn came
    assert r.next_to_act() == "big" and "same" not in r.acting_order()
    r.act("big", F)  # nobody holds Big up
    assert r.next_to_act() == "small"
