"""Checks at the table (002), Qt blocked: 002's worked example replayed from a
sample encounter, the difficulty names, complex checks carried over several actions
(through undo and a save), the optional victory threshold and the refusals."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import SetRules, StartActionTime, parse_action
from twtw_desktop.play.check_actions import Check, difficulty_of
from twtw_desktop.play.session import OpenTable, open_table, save_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.base import Pool

from .deck_support import put_on_top

SAMPLE = maps_dir() / "main_street.encounter.json"
HANK = "hank_daggett"
#: the bundled deck's card 50 reads 8 on 2d10 (not an exceptional cell) and 13 on the
#: effect (2)10
CARD_8_13 = 50


@pytest.fixture
def table():
    """Main Street with Hank's Dexterity at d10: 002 does not give his pool, and on a
    d8 an 8 is an exceptional cell that reads on (the sample sheet has 2d8)."""
    t = open_table(SAMPLE).table
    hank = t.character(HANK)
    hank.traits = {**hank.traits, "coordination": Pool(count=2, die=10)}
    return t


def _demolitions(**kw):
    base = dict(who=HANK, trait="Dexterity", skill="demolitions", difficulty=7, victories=3)
    return Check(**(base | kw))


def test_hanks_dynamite_two_victories_of_three(table):
    """002 Results and Effect: TN 7 Dexterity and Demolitions, 3 victories; the card
    gives 8 (a success, no bump) and effect 13, two victories, one still to go."""
    act = _demolitions(card=CARD_8_13)
    p = table.preview(act)
    assert (p["tn"], p["pool"], p["victories_needed"], p["threshold"]) == (7, "2d10", 3, 6)
    ev = table.apply(act)
    r = ev.record
    assert (r["card"], r["result"], r["success"], r["bumps"]) == (50, 8, True, 0)
    assert (r["effect"], r["victories"], r["progress"], r["needed"]) == (13, 2, 2, 3)
    assert "card 50" in " ".join(r["reasons"]) and "2 of 3" in ev.text
    assert table.encounter.log[-1].kind == "check"
    hank = table.character(HANK)
    assert [(p.task, p.check.progress) for p in hank.checks] == [("demolitions", 2)]


def test_the_progress_carries_over_undo_and_a_save(table, tmp_path):
    opened = OpenTable(table, SAMPLE, None)
    table.apply(_demolitions(card=CARD_8_13))
    # the next action goes on with the same check without restating the victories
    more = Check(who=HANK, trait="Dexterity", skill="demolitions", difficulty=7)
    assert table.preview(more)["progress"] == 2
    table.undo()
    assert table.character(HANK).checks == []
    table.redo()
    out = tmp_path / "saved.encounter.json"
    save_table(opened, out)
    again = open_table(out).table
    assert again.character(HANK).checks[0].check.progress == 2
    ev = again.apply(more.model_copy(update={"card": 5}))  # 8, effect 10: one more
    assert ev.record["complete"] and "done" in ev.text
    assert again.character(HANK).checks == []  # a finished check leaves the sheet


def test_victory_threshold_switch_changes_the_victories(table):
    """002 Setting Victory Threshold: with the encounter's threshold at 8, effect 13
    is one victory, not two."""
    opts = table.encounter.options.model_copy(update={"victory_threshold": 8})
    table.apply(SetRules(edition=table.encounter.edition, options=opts))
    ev = table.apply(_demolitions(card=CARD_8_13))
    assert (ev.record["threshold"], ev.record["victories"]) == (8, 1)


def test_simple_check_by_difficulty_name_from_a_script_line(table):
    act = parse_action(
        {"do": "check", "who": HANK, "trait": "acuity", "difficulty": "Easy", "card": 1}
    )
    ev = table.apply(act)
    assert ev.record["tn"] == 3 and "victories" not in ev.record
    assert table.character(HANK).checks == []
    assert difficulty_of("Incredible") == (11, "Incredible (11)")


def test_a_check_costs_a_skill_in_action_time(table):
    table.apply(StartActionTime())
    act = Check(who=HANK, trait="acuity", difficulty="standard", card=1)
    assert table.cost(act).ap == 4


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"trait": "charm"}, "not a trait"),
        ({"difficulty": "Hardish"}, "not a difficulty"),
        ({"victories": 5, "card": 1}, "under way needing 3"),
    ],
)
def test_refusals_name_what_is_wrong_and_change_nothing(table, fields, words):
    table.apply(_demolitions(card=CARD_8_13))
    before = table.state_fingerprint()
    act = _demolitions(card=1).model_copy(update=fields)
    assert words in (table.why_not(act) or "")
    with pytest.raises(RulesError, match=words):
        table.apply(act)
    assert table.state_fingerprint() == before


def test_a_printed_deck_needs_the_card_typed_in(table):
    table.deck.physical = True
    assert "type in the card" in table.why_not(_demolitions())
    ev = table.apply(_demolitions(card=CARD_8_13))
    assert ev.record["victories"] == 2


def test_a_typed_card_that_reads_on_asks_for_the_next_one(table):
    """On Hank's sample 2d8 card 32 shows an 8, an exceptional cell: the next card is
    needed before the check can be made (RULES.md: exceptional cells read on)."""
    hank = table.character(HANK)
    hank.traits = {**hank.traits, "coordination": Pool(count=2, die=8)}
    act = _demolitions(card=32)
    assert "more_cards" in (table.why_not(act) or "")
    before = table.state_fingerprint()
    with pytest.raises(RulesError, match="more_cards"):
        table.apply(act)
    assert table.state_fingerprint() == before
    ev = table.apply(act.model_copy(update={"more_cards": (1,)}))
    assert ev.record["result"] > 8 and ev.record["cards"][:2] == [32, 1]


def test_a_secondary_action_reads_the_primary_cards_second_highest_die(table):
    """000 Combining Combat and Non-Combat Actions: the secondary action reads the
    primary action's card with the second highest die of its own pool."""
    from twtw_desktop.play.actions import Draw
    from twtw_desktop.play.combat_actions import SnapShot
    from twtw_desktop.rules.checks import check_pool

    why = table.why_not(Check(who=HANK, trait="acuity", secondary=True))
    assert why and "000 Combining Combat and Non-Combat Actions" in why
    table.apply(Draw(who=HANK, weapon="colt_thunderer"))
    shot = table.apply(SnapShot(who=HANK, target="angus_laroq"))
    card = table.deck.card(shot.cards[0])
    check = Check(who=HANK, trait="acuity", secondary=True)
    pool, _ = check.pool(table)
    ev = table.apply(check)
    assert ev.record["card"] == card.number
    expected = check_pool(card, pool, ev.record["tn"], lambda: card, 0, 1)
    if not expected.calamity and ev.record["result"] is not None:
        assert ev.record["result"] == expected.result
    assert "second highest die" in ev.text
    with pytest.raises(RulesError):
        table.apply(Check(who=HANK, trait="acuity", secondary=True, card=5))


def test_a_column_adjustment_shifts_the_effect_grid_only(table):
    """002 Applying Bonuses and Penalties: a column shift moves the effect grid's die
    type (a higher one must beat the unshifted result); a simple check, which reads
    no effect, refuses it."""
    from twtw_desktop.rules.deck import read_effect

    why = table.why_not(Check(who=HANK, trait="acuity", columns=1))
    assert why and "column adjustment" in why and "002" in why
    card = table.deck.card(CARD_8_13)
    plain = read_effect(card, "(2)10", 0, None).value
    shifted = read_effect(card, "(2)10", 0, None, 1).value
    assert shifted > plain
    put_on_top(table.deck, CARD_8_13)  # the generated deck deals card 50 next
    ev = table.apply(_demolitions(columns=1))
    assert ev.record["card"] == CARD_8_13
    assert ev.record["effect"] > 13  # the page's 13 on (2)10, one column up: more
    assert any("column" in r for r in ev.record["reasons"])


def test_a_complex_check_is_an_extended_slow_action_in_phases(table):
    """001/003 Extended Actions: in the Phases edition a complex check is an extended
    action — 8 AP, Slow — and a simple check a skill's ordinary cost."""
    options = table.encounter.options
    table.apply(SetRules(edition="phases", options=options))
    table.apply(StartActionTime())
    cost = table.cost(_demolitions())
    assert cost.speed == "slow" and any("8 AP" in b for b in cost.breakdown)
    simple = table.cost(Check(who=HANK, trait="Dexterity", skill="demolitions", difficulty=7))
    assert simple.speed == "normal"


def test_a_moving_check_can_set_off_a_fully_loaded_gun(table):
    """000 Carrying Loaded Weapons: a check involving movement (a climb, a ride) reads
    the carried, fully loaded guns on its card — a calamity or a wrench in the gun's
    malfunction range sets one off; a check that does not move never does."""
    hank = table.character(HANK)
    i = next(k for k, w in enumerate(hank.weapons) if w.weapon_id == "colt_thunderer")
    hank.weapons[i].fully_loaded = True
    hank.weapons[i].readied = False
    loaded = hank.weapons[i].loaded
    went_off = None
    for n in range(1, 55):
        put_on_top(table.deck, n)
        ev = table.apply(Check(who=HANK, trait="Dexterity", skill="climbing", moving=True))
        if ev.record.get("discharges"):
            went_off = n
            break
        table.undo()
    assert went_off is not None, "no card sets the gun off"
    assert table.character(HANK).weapons[i].loaded == loaded - 1
    assert "000 Carrying Loaded Weapons" in ev.text
    table.undo()
    put_on_top(table.deck, went_off)
    still = table.apply(Check(who=HANK, trait="Dexterity", skill="climbing"))
    assert not still.record.get("discharges")
