"""The action deck: the generated file, loading, drawing, physical mode
(RULES.md "The action card")."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import LoadError, RulesError
from twtw_desktop.resources import resource_path
from twtw_desktop.rules.base import DIE_TYPES, HitLocation
from twtw_desktop.rules.deck import (
    MAX_DECK_FILE_BYTES,
    Deck,
    DeckState,
    load_deck_file,
    standard_deck,
)
from twtw_desktop.rules.deck_generator import DEFAULT_SEED, deck_json, generate_deck, main

STANDARD = resource_path("deck", "standard.json")


def raw_deck() -> dict:
    return json.loads(STANDARD.read_text(encoding="utf-8"))


def write(tmp_path: Path, data, name: str = "deck.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


# -- the bundled file --------------------------------------------------------------


def test_bundled_file_is_what_the_generator_writes():
    """The committed deck is exactly the generator's output for seed 1873."""
    assert STANDARD.read_text(encoding="utf-8") == deck_json(generate_deck(), DEFAULT_SEED)
    data = raw_deck()
    assert data["format_version"] == 1 and data["seed"] == DEFAULT_SEED
    assert standard_deck() == generate_deck()


def test_generator_cli_writes_a_loadable_deck(tmp_path):
    out = tmp_path / "other.json"
    assert main(["--seed", "7", "--out", str(out)]) == 0
    cards = load_deck_file(out)
    assert [c.number for c in cards] == list(range(1, 55))
    assert json.loads(out.read_text())["seed"] == 7
    assert cards != standard_deck()


def test_standard_deck_returns_a_fresh_list():
    a = standard_deck()
    a.pop()
    assert len(standard_deck()) == 54


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 2])
def test_cause_faces_spread_like_the_die_and_cf_is_rare(seed):
    """RULES.md "cause grid": each cell is one die face 1..N, CF about 1 in 40."""
    cards = generate_deck(seed)
    cf = 0
    for die in DIE_TYPES:
        faces = Counter()
        for card in cards:
            for row in range(1, 6):
                v = card.cause_cell(row, die)
                if v == "CF":
                    cf += 1
                else:
                    faces[v] += 1
        n = sum(faces.values())
        expected = n / die
        assert set(faces) == set(range(1, die + 1))
        chi2 = sum((faces[f] - expected) ** 2 / expected for f in range(1, die + 1))
        assert chi2 < 3 * die  # loose: a fair die passes with room to spare
    total = 54 * 25
    assert 0 < cf < total / 25


@pytest.mark.parametrize("seed", [DEFAULT_SEED, 3])
def test_effect_cells_are_sums_of_n_dice(seed):
    """RULES.md "effect grid": (n)Y is the sum of n dY; mean near n(Y+1)/2; increased
    effect about 1 cell in Y; a damage bump never lowers the value."""
    cards = generate_deck(seed)
    for die in DIE_TYPES:
        flagged = 0
        for n in range(1, 8):
            values = [c.effect_cell(n, die).value for c in cards]
            assert all(n <= v <= n * die for v in values)
            mean = sum(values) / len(values)
            sd = (n * (die * die - 1) / 12) ** 0.5
            assert abs(mean - n * (die + 1) / 2) < 5 * sd / len(values) ** 0.5  # generous
            flagged += sum(c.effect_cell(n, die).increased for c in cards)
        assert 0.3 * 378 / die < flagged < 2.5 * 378 / die
        for c in cards:
            col = [c.effect_cell(n, die).value for n in range(1, 8)]
            assert col == sorted(col)
        # (1)Y is flagged exactly when it shows Y (an exploding die).
        assert all(
            c.effect_cell(1, die).increased == (c.effect_cell(1, die).value == die) for c in cards
        )


def test_other_sections_follow_their_distributions():
    cards = standard_deck()
    torso = {HitLocation.CHEST, HitLocation.BELLY, HitLocation.VITALS}
    std = Counter(c.standard_hit.location for c in cards)
    assert sum(std[t] for t in torso) > 27
    assert std[HitLocation.HEAD] <= 5
    for c in cards:
        assert [e.triangles for e in c.hit_locations] == [2, 1, 0, 1]
    assert any(e.prone for c in cards for e in c.hit_locations)
    shields = Counter(c.shield for c in cards)
    assert shields.most_common(1)[0][0] == 0
    for c in cards:
        assert c.burst_hits(3) <= c.burst_hits(5) <= c.burst_hits(10)
        assert 1 <= c.burst_hits(3) <= 3 and c.burst_hits(10) <= 10
        bar = c.initiative
        for phase in range(4):
            assert bar.fast[phase] <= bar.normal[phase] <= bar.slow[phase]
    wrenches = [c.wrench for c in cards if c.wrench is not None]
    assert sorted(wrenches) == list(range(1, 14))  # 001's Rel 1 rule needs 1 and 2
    assert len(wrenches) < 27
    assert {c.toggle for c in cards} == {True, False}
    assert Counter(c.toggle for c in cards)[True] == 27
    assert {c.fragment for c in cards} == set(range(10))
    assert {c.clock for c in cards} == set(range(1, 13))
    assert {c.step for c in cards} == set(range(7))


def test_hit_location_example_cards_for_the_cut_and_uncouple_variants():
    """000 "Hit-Location-Damage Draw": card 17's wrench is blank, card 44's is not."""
    by_number = {c.number: c for c in standard_deck()}
    assert by_number[17].wrench is None
    assert by_number[44].wrench is not None


# -- loading errors ----------------------------------------------------------------


def _bad(tmp_path, mutate) -> LoadError:
    data = raw_deck()
    mutate(data)
    path = write(tmp_path, data, "bad.json")
    before = standard_deck()
    with pytest.raises(LoadError) as info:
        load_deck_file(path)
    assert standard_deck() == before
    assert "bad.json" in str(info.value)
    return info.value


def test_wrong_field_type_names_file_card_and_field(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"][16].__setitem__("shield", "high"))
    assert err.where == "card 17, field shield"
    assert "bad.json at card 17, field shield" in str(err)


def test_53_cards(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"].pop(11))
    assert err.where == "cards" and "53" in err.reason and "12" in err.reason


def test_duplicate_number(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"][29].__setitem__("number", 17))
    assert err.where == "card 17, field number" and "twice" in err.reason


def test_cf_typo(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"][4]["cause"]["8"].__setitem__(1, "Cf"))
    assert err.where == "card 5, field cause.8.2" and "'Cf'" in err.reason


def test_d4_cell_of_7(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"][8]["cause"]["4"].__setitem__(2, 7))
    assert err.where == "card 9, field cause.4.3" and "7" in err.reason


def test_yes_is_not_a_toggle_value(tmp_path):
    err = _bad(tmp_path, lambda d: d["cards"][0].__setitem__("toggle", "yes"))
    assert err.where == "card 1, field toggle"


def test_format_version_and_unknown_keys(tmp_path):
    assert _bad(tmp_path, lambda d: d.__setitem__("format_version", 2)).where == "format_version"
    assert _bad(tmp_path, lambda d: d.__setitem__("colour", "red")).where == "colour"
    assert _bad(tmp_path, lambda d: d.pop("cards")).where == "cards"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[1, 2, 3]",
        '{"format_version": true, "cards": []}',
        '{"format_version": 1, "cards": [1, "x", null]}',
        '{"format_version": 1, "cards": {"a": 1}}',
        "[" * 100_000,
        '{"a":' * 60 + "1" + "}" * 60,
        '{"format_version": 1, "cards": [' + "[" * 60 + "]" * 60 + "]}",
        "\x00\xff\xfe",
        '{"format_version": 1, "cards": [{"number": NaN}]}',
    ],
)
def test_garbage_is_a_load_error(tmp_path, text):
    path = tmp_path / "junk.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    with pytest.raises(LoadError):
        load_deck_file(path)


def test_invalid_utf8_and_missing_and_huge(tmp_path):
    p = tmp_path / "b.json"
    p.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(LoadError, match="UTF-8"):
        load_deck_file(p)
    with pytest.raises(LoadError):
        load_deck_file(tmp_path / "nope.json")
    with pytest.raises(LoadError, match="regular"):
        load_deck_file(tmp_path)  # a folder
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.json"
        os.mkfifo(fifo)
        with pytest.raises(LoadError, match="regular"):
            load_deck_file(fifo)  # would block forever if it were opened
    with pytest.raises(LoadError, match="twice"):
        load_deck_file(write(tmp_path, '{"format_version": 1, "format_version": 1}'))
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(MAX_DECK_FILE_BYTES + 1)
    with pytest.raises(LoadError, match="bytes"):
        load_deck_file(big)


@settings(max_examples=60)
@given(st.binary(max_size=300))
def test_random_bytes_never_escape_as_other_exceptions(tmp_path_factory, blob):
    p = tmp_path_factory.mktemp("fuzz") / "x.json"
    p.write_bytes(blob)
    with pytest.raises(LoadError):
        load_deck_file(p)


@settings(max_examples=40)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda kids: (
            st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids, max_size=3)
        ),
        max_leaves=20,
    )
)
def test_random_json_cards_are_load_errors(tmp_path_factory, junk):
    data = raw_deck()
    data["cards"][3] = junk
    p = tmp_path_factory.mktemp("fuzz") / "x.json"
    p.write_text(json.dumps(data))
    with pytest.raises(LoadError):
        load_deck_file(p)


# -- drawing -----------------------------------------------------------------------


def test_seeded_decks_replay_identically_across_reshuffles():
    a, b = Deck(standard_deck(), seed=99), Deck(standard_deck(), seed=99)
    seq_a, seq_b = [], []
    for _ in range(200):
        ca, cb = a.draw(), b.draw()
        seq_a.append(ca.number)
        seq_b.append(cb.number)
        a.discard(ca)
        b.discard(cb.number)
    assert seq_a == seq_b
    assert a.reshuffles == b.reshuffles == 3
    assert a.snapshot() == b.snapshot()
    assert seq_a[:54] != seq_a[54:108]  # each reshuffle gives a new order
    assert sorted(seq_a[:54]) == list(range(1, 55))
    c = Deck(standard_deck(), seed=100)
    assert [c.draw().number for _ in range(10)] != seq_a[:10]


def test_reshuffle_when_empty_keeps_cards_in_play_out():
    deck = Deck(standard_deck(), seed=5)
    held = [deck.draw() for _ in range(3)]
    for _ in range(51):
        deck.discard(deck.draw())
    assert deck.draw_count == 0 and deck.discard_count == 51
    nxt = deck.draw()
    assert deck.reshuffles == 1
    assert nxt.number not in {c.number for c in held}
    assert deck.draw_count == 50 and deck.discard_count == 0
    assert [c.number for c in deck.in_play] == [c.number for c in held] + [nxt.number]


def test_everything_in_play_refuses_to_draw():
    deck = Deck(standard_deck(), seed=1)
    for _ in range(54):
        deck.draw()
    before = deck.snapshot()
    with pytest.raises(RulesError):
        deck.draw()
    assert deck.snapshot() == before


def test_discard_in_play_and_last_cards():
    deck = Deck(standard_deck(), seed=8)
    drawn = [deck.draw() for _ in range(4)]
    assert deck.last_cards(2) == drawn[2:]
    deck.discard_in_play()
    assert deck.in_play == [] and deck.discard_pile() == drawn
    assert deck.last_cards(3) == drawn[1:]
    assert deck.last_cards(0) == []


def test_discard_of_a_card_not_in_play_is_refused():
    deck = Deck(standard_deck(), seed=8)
    before = deck.snapshot()
    with pytest.raises(RulesError):
        deck.discard(deck.card(deck.snapshot().draw_pile[0]))
    assert deck.snapshot() == before


def test_reshuffle_on_demand_gathers_everything():
    deck = Deck(standard_deck(), seed=8)
    for _ in range(5):
        deck.discard(deck.draw())
    deck.draw()
    deck.reshuffle()
    assert deck.draw_count == 54 and deck.discard_count == 0 and deck.in_play == []
    assert deck.reshuffles == 1


def test_snapshot_restore_is_exact_and_json_serialisable():
    deck = Deck(standard_deck(), seed=42)
    for _ in range(60):
        deck.discard(deck.draw())
    deck.draw()
    state = deck.snapshot()

    def play(n: int) -> list[int]:
        seen = []
        for _ in range(n):
            seen.append(deck.draw().number)
            deck.discard_in_play()
        return seen

    after = play(70)
    text = state.model_dump_json()
    deck.restore(DeckState.model_validate_json(text))
    assert deck.snapshot() == state
    assert play(70) == after
    # A fresh deck rebuilt from the saved state behaves the same.
    other = Deck(standard_deck(), state=DeckState.model_validate(json.loads(text)))
    assert other.snapshot() == state


def test_restore_refuses_an_inconsistent_state():
    deck = Deck(standard_deck(), seed=42)
    before = deck.snapshot()
    bad = before.model_copy(update={"draw_pile": before.draw_pile[1:]})
    with pytest.raises(RulesError):
        deck.restore(bad)
    assert deck.snapshot() == before


def test_card_lookup():
    deck = Deck(standard_deck(), seed=1)
    assert deck.card(50).number == 50
    with pytest.raises(RulesError):
        deck.card(55)


def test_unseeded_deck_records_its_seed():
    deck = Deck(standard_deck())
    replay = Deck(standard_deck(), seed=deck.seed)
    assert [deck.draw().number for _ in range(5)] == [replay.draw().number for _ in range(5)]


# -- physical mode -----------------------------------------------------------------


def test_physical_mode():
    """RULES.md "The action card": the Judge types in a card from a printed deck."""
    deck = Deck(standard_deck(), seed=3)
    deck.physical = True
    pile = deck.snapshot().draw_pile
    with pytest.raises(RulesError, match="physical"):
        deck.draw()
    typed = standard_deck()[9].model_dump(mode="json")
    typed["clock"] = 12
    card = deck.enter_physical(typed)
    assert card.number == 10 and card.clock == 12
    assert deck.in_play == [card]
    assert deck.snapshot().draw_pile == pile  # the generated pile is untouched
    with pytest.raises(RulesError, match="already in play"):
        deck.enter_physical(typed)
    deck.discard(10)
    assert deck.discard_pile() == [card] and deck.last_cards(1) == [card]
    with pytest.raises(RulesError, match="discard"):
        deck.enter_physical(typed)
    state = deck.snapshot()
    assert DeckState.model_validate_json(state.model_dump_json()) == state
    deck.reshuffle()
    assert deck.discard_pile() == []
    deck.physical = False
    assert deck.draw() is not None


def test_physical_card_with_a_bad_value_names_the_field():
    deck = Deck(standard_deck(), seed=3)
    deck.physical = True
    typed = standard_deck()[0].model_dump(mode="json")
    typed["cause"]["6"][4] = 9
    before = deck.snapshot()
    with pytest.raises(RulesError, match=r"cause\.6\.5"):
        deck.enter_physical(typed)
    typed = standard_deck()[0].model_dump(mode="json")
    typed["wrench"] = 14
    with pytest.raises(RulesError, match="wrench"):
        deck.enter_physical(typed)
    with pytest.raises(RulesError):
        deck.enter_physical("card 7")  # type: ignore[arg-type]
    assert deck.snapshot() == before


# -- property ----------------------------------------------------------------------

_ops = st.lists(
    st.sampled_from(["draw", "discard_one", "discard_all", "reshuffle", "undo"]), max_size=150
)


@settings(max_examples=50)
@given(seed=st.integers(min_value=0, max_value=2**32), ops=_ops, picks=st.randoms())
def test_deck_always_holds_each_card_once(seed, ops, picks):
    """Whatever is drawn, discarded, reshuffled or undone, the 54 cards are each in
    exactly one place."""
    deck = Deck(standard_deck(), seed=seed)
    saved = deck.snapshot()
    for op in ops:
        if op == "draw":
            saved = deck.snapshot()
            try:
                deck.draw()
            except RulesError:
                assert deck.draw_count == 0 and deck.discard_count == 0
        elif op == "discard_one" and deck.in_play:
            deck.discard(picks.choice(deck.in_play))
        elif op == "discard_all":
            deck.discard_in_play()
        elif op == "reshuffle":
            deck.reshuffle()
        elif op == "undo":
            deck.restore(saved)
        s = deck.snapshot()
        everything = list(s.draw_pile) + list(s.discard) + list(s.in_play)
        assert sorted(everything) == list(range(1, 55))
