"""The steps both editions share (rules/timecommon.py): surprise (001/003 Surprise),
continuous movers (000 Continuous Action Movement, 002 Continuous Actions), bleeding
(001 Optional Bleeding) and the undo plumbing — one implementation, two engines."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules import action_track, phases, timecommon
from twtw_desktop.rules.action_track import ActionTrack, TrackEvent
from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.deck import Deck, standard_deck
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.phases import PhaseEvent, PhaseRound
from twtw_desktop.rules.timecommon import (
    RowStatus,
    TimeEngine,
    bleed_everyone,
    index_characters,
    surprise_tn,
)

from .test_action_track import card, person

AP_V2 = load_edition("ap_v2")
PHASES = load_edition("phases")
ENGINES = [(ActionTrack, AP_V2, TrackEvent), (PhaseRound, PHASES, PhaseEvent)]


def _engine(cls, edition, chars, **options):
    return cls(chars, edition, Deck(standard_deck(), seed=5), OptionalRules(**options))


def test_one_implementation_for_both_engines():
    """Surprise and continuous movers are written once; the old names still import."""
    for cls in (ActionTrack, PhaseRound):
        assert issubclass(cls, TimeEngine)
        assert cls.apply_surprise is TimeEngine.apply_surprise
        assert cls._set_mover is TimeEngine._set_mover
        assert cls.undo is timecommon.UndoableEngine.undo
    assert action_track.surprise_check is timecommon.surprise_check
    assert action_track.RowStatus is phases.RowStatus is RowStatus
    assert action_track.BleedRecord is phases.BleedRecord is timecommon.BleedRecord
    assert action_track.split_evenly is timecommon.split_evenly


@pytest.mark.parametrize(("cls", "edition", "event_type"), ENGINES)
def test_surprised_between_rounds_sits_the_next_one_out(cls, edition, event_type):
    """001/003 Surprise: before the first round, not expecting danger: TN 9; the
    surprised character sits round 1 out and checks Bravery (Easy 3) at round 2."""
    hank = person("hank", "Hank", acuity="2d8")
    jonah = person("jonah", "Jonah", acuity="3d8")
    engine = _engine(cls, edition, [hank, jonah])
    ev = engine.apply_surprise("hank", False, card(1, d8=[7]))
    assert isinstance(ev, event_type) and ev.step == "apply_surprise"
    assert ev.surprise.tn == 9 and ev.surprise.surprised and ev.cards == ()
    assert engine.row("hank").surprise == "surprised"
    ok = engine.apply_surprise("jonah", True, card(2, d8=[5]))
    assert ok.surprise.tn == 5 and not ok.surprise.surprised
    engine.start_round(cards={"hank": card(3, d8=[4]), "jonah": card(4, d8=[4])})
    assert engine.row("hank").status == RowStatus.SURPRISED
    assert engine.row("jonah").status != RowStatus.SURPRISED


@pytest.mark.parametrize(("cls", "edition", "_event"), ENGINES)
def test_surprised_during_a_round_loses_the_rest_of_it(cls, edition, _event):
    """001/003 Surprise: surprised during a round, the character loses the rest of it.
    The TN once action time is under way follows each edition's page: 001 (AP v2's
    lineage) makes it Standard (5) either way; 003 (the phase edition's Conflict)
    keeps Difficult (9) for a character not expecting danger."""
    a = person("a", "Able", acuity="2d8", init=1)
    engine = _engine(cls, edition, [a])
    engine.start_round(cards={"a": card(1, d8=[4])})
    if cls is PhaseRound:
        engine.declare_speed("a", Speed.FAST)
    else:
        engine.advance_segment()
        assert engine.counters("a") == 1
    expected_tn = 5 if cls is ActionTrack else 9
    assert engine.surprise_tn_now(False) == expected_tn and engine.surprise_tn_now(True) == 5
    ev = engine.apply_surprise("a", False, card(2, d8=[4]))
    assert ev.surprise.tn == expected_tn and ev.surprise.surprised
    row = engine.row("a")
    assert row.status == RowStatus.SURPRISED and row.surprise == "bravery"
    if cls is ActionTrack:
        assert row.counters == 0 and row.pool == 0 and row.lost >= 1
    else:
        assert row.phase is None
    engine.undo()
    assert engine.row("a").status != RowStatus.SURPRISED


@pytest.mark.parametrize(("cls", "edition", "_event"), ENGINES)
def test_movers_are_refused_alike(cls, edition, _event):
    engine = _engine(cls, edition, [person("a", "Able")])
    before = engine.state
    with pytest.raises(RulesError, match="automated"):
        engine.set_continuous("coach", 12)
    with pytest.raises(RulesError, match="not moving continuously"):
        engine.set_continuous("a", None)
    with pytest.raises(RulesError, match="negative"):
        engine.set_continuous("a", -3)
    assert engine.state == before and engine.history_depth == 0
    ev = engine.set_continuous("a", 12)
    assert ev.step == "set_continuous" and ev.character_id == "a"
    assert engine.set_continuous("train", 40, name="The 4:10", automated=True).character_id is None
    assert [m.mover_id for m in engine.state.movers] == ["a", "train"]
    assert engine.continuous_order()[0] == "train"  # automated movers go first (000, 002)


def test_phases_refuses_negative_skill_or_handling_even_when_stopping():
    r = _engine(PhaseRound, PHASES, [person("a", "Able")])
    r.set_continuous("a", 8, skill=1, handling=1)
    with pytest.raises(RulesError, match="cannot be negative"):
        r.set_continuous("a", None, skill=-1)
    assert len(r.state.movers) == 1


def test_bleeding_records_and_lines():
    """001 Optional Bleeding: 3 wounds in a location bleed 1 Conc a round, 4 bleed 2."""
    a = person("a", "Able", wounds={"torso": 3})
    b = person("b", "Baker", wounds={"left_leg": 4})
    c = person("c", "Charlie")
    records, lines = bleed_everyone([a, b, c], AP_V2)
    assert [(r.character_id, r.conc_lost, r.character.conc) for r in records] == [
        ("a", 1, 11),
        ("b", 2, 10),
    ]
    assert lines == (
        "Able bleeds 1 Conc (001 Optional Bleeding)",
        "Baker bleeds 2 Conc (001 Optional Bleeding)",
    )
    assert a.conc == 12  # the sheets given are never changed


def test_surprise_tn_and_index():
    assert surprise_tn(AP_V2, True, False) == 5
    assert surprise_tn(AP_V2, False, False) == 9
    assert surprise_tn(None, False, True) == 5
    with pytest.raises(RulesError, match="share the id"):
        index_characters([person("a", "A"), person("a", "B")])


def test_phases_surprise_tn_ignores_action_time():
    """003 Surprise (the phase edition's page): Acuity against Standard (5) when the
    character expects danger, Difficult (9) when not — in round 3 as before round 1;
    001's "during action time" clause belongs to the AP lineage (RULES: the Phases
    edition reads 003 where the pages differ)."""
    a = person("a", "Able", acuity="2d8", init=1)
    engine = _engine(PhaseRound, PHASES, [a])
    for _ in range(3):
        engine.start_round()
        engine.declare_speed("a", Speed.FAST)
        engine.resolve()
        for _ in range(5):
            engine.advance_phase()
    assert engine.round == 3 and engine.round_over
    ev = engine.apply_surprise("a", False, card(9, d8=[7]))  # 7: would beat 5, not 9
    assert ev.surprise.tn == 9 and ev.surprise.surprised
    assert any("TN 9" in line and "not expecting" in line for line in ev.details)
    ev = engine.apply_surprise("a", True, card(10, d8=[7]))
    assert ev.surprise.tn == 5 and not ev.surprise.surprised


def test_ap_v2_surprise_tn_during_action_time():
    """001 Surprise (the Action Points page, AP v2's lineage): once action time is
    under way the check is Standard (5) even for a character not expecting danger;
    before the first round it is Difficult (9)."""
    a = person("a", "Able", acuity="2d8", init=1)
    engine = _engine(ActionTrack, AP_V2, [a])
    assert engine.surprise_tn_now(False) == 9
    engine.start_round(cards={"a": card(1, d8=[4])})
    engine.end_round()
    assert engine.surprise_tn_now(False) == 5
    ev = engine.apply_surprise("a", False, card(9, d8=[6]))
    assert ev.surprise.tn == 5 and not ev.surprise.surprised
