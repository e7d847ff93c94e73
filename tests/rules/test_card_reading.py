"""Reading pools and effects off action cards (RULES.md "The action card")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from twtw_desktop.rules.base import HitLocation, Speed
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.deck import MAX_EXTENSION_DRAWS, read_effect, read_pool, standard_deck


def deck_card(number: int) -> Card:
    return next(c for c in standard_deck() if c.number == number)


def make_card(
    number: int,
    cause: dict[tuple[int, int], Any] | None = None,
    effect: dict[tuple[int, int], tuple[int, bool]] | None = None,
) -> Card:
    """A valid card based on bundled card 1 with some cells replaced.

    ``cause`` maps (row, die) -> face; ``effect`` maps (row, die) -> (value, increased).
    """
    data = deck_card(1).model_dump(mode="json")
    data["number"] = number
    for col in data["cause"]:
        data["cause"][col] = [1] * 5  # plain, unexceptional background
    for col in data["effect"]:
        data["effect"][col] = [{"value": n, "increased": False} for n in range(1, 8)]
    for (row, die), face in (cause or {}).items():
        data["cause"][str(die)][row - 1] = face
    for (row, die), (value, inc) in (effect or {}).items():
        data["effect"][str(die)][row - 1] = {"value": value, "increased": inc}
    return Card.model_validate(data)


def scripted(cards: Iterable[Card]):
    """A ``more`` callable handing out the given cards in order, recording calls."""
    it = iter(cards)
    calls: list[int] = []

    def more() -> Card:
        card = next(it)
        calls.append(card.number)
        return card

    more.calls = calls  # type: ignore[attr-defined]
    return more


def phase_for(card: Card, speed: Speed, result: int | None) -> int | None:
    """Earliest phase (1..4) whose TN the result meets (004 "Declarations")."""
    if result is None:
        return None
    for phase, tn in enumerate(card.initiative.tns(speed), 1):
        if result >= tn:
            return phase
    return None


# -- the pages' pinned example cards ---------------------------------------------


def test_card_50_miranda_vs_miners():
    """000 "Combat Example, Miranda vs Miners": card 50 reads 8, 1, 3 on 3d10, hits
    the left leg, and the Sharps' (5)8 is 14 with no increased effect, no wrench,
    and no stray shot on a single hit."""
    card = deck_card(50)
    read = read_pool(card, "3d10")
    assert not read.is_cf
    assert sorted((c.row, c.face) for c in read.cells) == [(1, 8), (2, 1), (3, 3)]
    assert [read.result(k) for k in range(3)] == [8, 3, 1]
    assert read.result(3) is None
    # TN 5 with the -3 target-speed penalty applied to the result: 8 - 3 = 5 hits.
    assert read.result() - 3 >= 5
    assert card.standard_hit.location is HitLocation.LEFT_LEG
    dmg = read_effect(card, "(5)8")
    assert (dmg.value, dmg.increased, dmg.extra_cards) == (14, False, ())
    assert card.wrench is None
    # A single shot that hits leaves 0 stray shots, below every figure number.
    assert all(f > 0 for f in card.figures)


def test_card_28_initiative_example_2():
    """004 "Initiative Example 2": on card 28 Hank's 2d6 gives 2 (phase IV on Normal),
    the hombres' 2d10 gives 7 (phase III on Normal, phase I on Fast), Miranda's 3d10
    gives 8 (phase I on Fast)."""
    card = deck_card(28)
    hank = read_pool(card, "2d6")
    assert (hank.is_cf, hank.result()) == (False, 2)
    assert {c.face for c in hank.cells} == {2, 1}
    hombres = read_pool(card, "2d10")
    assert (hombres.is_cf, hombres.result()) == (False, 7)
    miranda = read_pool(card, "3d10")
    assert (miranda.is_cf, miranda.result()) == (False, 8)
    bar = card.initiative
    assert bar.normal[1] == 8 and bar.normal[2] == 5 and bar.normal[3] <= 2 and bar.normal[0] > 8
    assert bar.fast[0] == 7
    assert phase_for(card, Speed.NORMAL, 2) == 4
    assert phase_for(card, Speed.NORMAL, 7) == 3
    assert phase_for(card, Speed.FAST, 7) == 1
    assert phase_for(card, Speed.FAST, 8) == 1


def test_card_42_initiative_example_1():
    """004 "Initiative Example" (Jonah and the Perkins brothers): card 42's fast bar is
    7/5/3/1 and slow 13/11/8/3; the brothers' 2d6 is CF although row 1 shows an
    exceptional 6; Jonah's Reflex (taken here as 2d8; 3d8 reads the same) gives 6,
    which goes in phase II on a Fast action."""
    card = deck_card(42)
    assert card.initiative.fast == (7, 5, 3, 1)
    assert card.initiative.slow == (13, 11, 8, 3)
    assert card.cause_cell(1, 6) == 6
    drawn = scripted([])
    brothers = read_pool(card, "2d6", more=drawn)
    assert brothers.is_cf and brothers.result() is None
    assert drawn.calls == []  # CF wins at once; the exceptional cell is not extended
    for pool in ("2d8", "3d8"):
        jonah = read_pool(card, pool)
        assert (jonah.is_cf, jonah.result()) == (False, 6)
    assert phase_for(card, Speed.FAST, 6) == 2


def test_card_39_reduced_damage_stays_below_normal():
    """002 "Applying Bonuses and Penalties" rule 2 (Miranda vs Felicia, card 39): the
    left arm is behind the wall; (3)6 is 18, the reduced (3)4 is 11 with increased
    effect, and even drawing card 45 (also increased) the total stops at 17."""
    card = deck_card(39)
    assert card.standard_hit.location is HitLocation.LEFT_ARM
    normal = read_effect(card, "(3)6")
    assert (normal.value, normal.increased) == (18, False)
    c45 = deck_card(45)
    assert c45.effect_cell(1, 4).increased
    more = scripted([c45, c45, c45, c45])
    reduced = read_effect(card, "(3)6", column_shift=-1, more=more)
    assert reduced.die == 4 and reduced.base == 11 and reduced.increased
    assert reduced.value == 17
    assert len(more.calls) == 2  # 11 + 4 = 15, then +2 reaches the cap of 17


# -- pools -------------------------------------------------------------------------


def test_exceptional_cell_is_open_ended_and_ranked_after_extension():
    """RULES.md "cause grid" and 000 "Combining Combat and Non-Combat Actions": an
    exceptional face draws again and adds the same cell while it is maximal, and
    all exceptional cells are extended before the results are ranked."""
    card = make_card(1, cause={(1, 6): 6, (2, 6): 5, (3, 6): 6})
    ext = [
        make_card(2, cause={(1, 6): 6}),  # row 1: 6 + 6 ...
        make_card(3, cause={(1, 6): 2}),  # ... + 2 = 14, stops
        make_card(4, cause={(3, 6): 1}),  # row 3: 6 + 1 = 7
    ]
    more = scripted(ext)
    read = read_pool(card, "3d6", more=more)
    assert [(c.row, c.total) for c in read.cells] == [(1, 14), (3, 7), (2, 5)]
    assert read.cells[0].extra_cards == (2, 3)
    assert read.cards_drawn == (2, 3, 4)
    assert [read.result(k) for k in range(3)] == [14, 7, 5]
    assert any("exceptional" in r for r in read.reasons)


def test_cf_in_an_extension_adds_nothing_and_stops():
    card = make_card(1, cause={(1, 4): 4})
    more = scripted([make_card(2, cause={(1, 4): "CF"}), make_card(3)])
    read = read_pool(card, "1d4", more=more)
    assert not read.is_cf
    assert read.result() == 4
    assert more.calls == [2]
    assert any("CF" in r for r in read.reasons)


def test_exceptional_without_more_counts_its_face():
    card = make_card(1, cause={(1, 12): 12, (2, 12): 3})
    read = read_pool(card, "2d12")
    assert read.result() == 12 and read.cells[0].exceptional
    assert read.cards_drawn == ()


def test_endless_extension_is_capped():
    card = make_card(1, cause={(1, 4): 4})
    always_max = make_card(2, cause={(1, 4): 4})
    read = read_pool(card, "1d4", more=lambda: always_max)
    assert read.result() == 4 + 4 * MAX_EXTENSION_DRAWS


def test_pool_text_and_object_are_equivalent():
    card = deck_card(7)
    from twtw_desktop.rules.base import Pool

    assert read_pool(card, "4d8") == read_pool(card, Pool(count=4, die=8))


# -- effects -----------------------------------------------------------------------


def test_increased_effect_draws_until_unflagged():
    """RULES.md "effect grid": increased effect adds the (1)Y cell of another card,
    again while that cell is flagged."""
    card = make_card(1, effect={(3, 6): (12, True)})
    more = scripted(
        [
            make_card(2, effect={(1, 6): (6, True)}),
            make_card(3, effect={(1, 6): (2, False)}),
            make_card(4),
        ]
    )
    read = read_effect(card, "(3)6", more=more)
    assert read.value == 20 and read.extra_cards == (2, 3) and read.increased


def test_damage_bumps_move_down_and_past_row_7_add_one_each():
    """002 "Conditional Bumps": each damage bump moves one row down; at row 7 every
    further bump adds +1."""
    card = deck_card(50)
    assert read_effect(card, "(5)8", damage_bumps=1).value == card.effect_cell(6, 8).value
    at7 = card.effect_cell(7, 8).value
    read = read_effect(card, "(5)8", damage_bumps=5)
    assert (read.row, read.past_row_7, read.value) == (7, 3, at7 + 3)
    assert read_effect(card, "(2)8", damage_bumps=-4).row == 1


def test_negative_column_shift_without_increase_is_capped():
    card = make_card(1, effect={(2, 6): (5, False), (2, 4): (8, False)})
    read = read_effect(card, "(2)6", column_shift=-1)
    assert read.value == 4  # the d4 cell shows 8 but must stay below 5


def test_positive_column_shift_keeps_increase_and_floors_the_draw():
    """002 rule 3 (Octavio's lasso): the shifted result must beat the original and
    keeps the original's increased effect; a small extra draw is raised so it does."""
    card = make_card(1, effect={(2, 8): (15, True), (2, 10): (12, False)})
    more = scripted([make_card(2, effect={(1, 10): (1, False)})])
    read = read_effect(card, "(2)8", column_shift=+1, more=more)
    assert read.increased and read.die == 10
    assert read.value == 16  # 12 + 1 raised to 12 + 4
    assert more.calls == [2]
    # A big draw counts in full.
    more = scripted([make_card(3, effect={(1, 10): (9, False)})])
    assert read_effect(card, "(2)8", column_shift=+1, more=more).value == 21


def test_positive_column_shift_without_draws_still_beats_original():
    card = make_card(1, effect={(1, 10): (7, False), (1, 12): (3, False)})
    read = read_effect(card, "(1)10", column_shift=+1)
    assert read.value == 8
    card = make_card(1, effect={(1, 10): (7, False), (1, 12): (11, False)})
    assert read_effect(card, "(1)10", column_shift=+1).value == 11


def test_column_shift_stops_at_the_edge_but_keeps_its_guard():
    card = make_card(1, effect={(3, 4): (9, False)})
    read = read_effect(card, "(3)4", column_shift=-1)
    assert read.die == 4 and read.value == 8
    assert any("d4" in r for r in read.reasons)
