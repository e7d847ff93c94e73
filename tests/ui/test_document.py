"""The encounter document: opening, the undo stack as the only way to edit, saving."""

from __future__ import annotations

import json
import shutil

import pytest

from twtw_desktop.errors import LoadError, RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.commands import ChangeValueCommand, MoveTokenCommand, SnapshotCommand
from twtw_desktop.ui.core.document import EncounterDocument

SAMPLE = "main_street.encounter.json"


@pytest.fixture
def sample_copy(tmp_path):
    """The bundled sample encounter and its map, copied so saving cannot touch them."""
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / SAMPLE


@pytest.fixture
def doc(qapp, sample_copy):
    d = EncounterDocument.open(sample_copy)
    yield d
    d.deleteLater()


def _miranda(doc):
    return doc.token("token-miranda_valentine")


def test_open_sample_resolves_its_map_and_deck(doc):
    assert doc.map.cols == 40 and doc.map.rows == 30
    assert doc.map_path is not None and doc.map_path.name == "main_street.map.json"
    assert len(doc.encounter.tokens) == 9
    assert doc.deck.draw_count + doc.deck.discard_count == 54
    assert doc.edition.id == "ap_v2"
    assert not doc.is_dirty()
    assert doc.track is None and not doc.in_action


def test_a_drag_is_one_undo_step(doc):
    tok = _miranda(doc)
    start = tok.at
    for i in range(1, 4):
        doc.push(MoveTokenCommand(doc, tok.id, Hex(start.q + i, start.r), drag_id=7))
    assert tok.at == Hex(start.q + 3, start.r)
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert tok.at == start
    doc.undo_stack.redo()
    assert tok.at == Hex(start.q + 3, start.r)
    assert doc.is_dirty()


def test_move_onto_another_token_is_refused_and_nothing_is_pushed(doc):
    tok = _miranda(doc)
    other = doc.token("token-hank_daggett")
    with pytest.raises(RulesError):
        doc.push(MoveTokenCommand(doc, tok.id, other.at))
    assert doc.undo_stack.count() == 0
    assert tok.at == Hex(5, 17)


def test_snapshot_command_puts_the_card_back_on_undo(doc):
    before = doc.deck.snapshot()
    drawn = []

    def shoot():
        card = doc.deck.draw()
        drawn.append(card.number)
        doc.deck.discard(card)
        doc.log(f"card {card.number}", "attack")

    doc.push(SnapshotCommand(doc, "Shot", shoot, {"deck", "log"}))
    assert doc.deck.discard_count == 1
    assert doc.encounter.log[-1].text == f"card {drawn[0]}"
    doc.undo_stack.undo()
    assert doc.deck.snapshot() == before
    assert doc.encounter.log == []
    doc.undo_stack.redo()
    # redo restores the exact after-state: the same card is in the discard pile
    assert doc.deck.discard_pile()[-1].number == drawn[0]
    assert len(drawn) == 1  # mutate ran once; redo replays the copy


def test_a_failing_snapshot_changes_nothing(doc):
    tok = _miranda(doc)
    before = doc.deck.snapshot()

    def bad():
        doc.deck.draw()
        tok.facing = 4
        raise RulesError("The rules refuse this.")

    with pytest.raises(RulesError):
        doc.push(SnapshotCommand(doc, "Bad", bad))
    assert doc.deck.snapshot() == before
    assert tok.facing == 2
    assert doc.undo_stack.count() == 0


def test_change_value_validates_before_pushing(doc):
    ch = doc.character("hank_daggett")
    with pytest.raises(ValueError, match="size"):
        doc.push(ChangeValueCommand(doc, ch, "size", -2, "characters"))
    assert doc.undo_stack.count() == 0
    seen = []
    doc.characterChanged.connect(seen.append)
    doc.push(ChangeValueCommand(doc, ch, "size", 7, "characters"))
    doc.push(ChangeValueCommand(doc, ch, "size", 8, "characters"))  # merges
    assert ch.size == 8 and doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert ch.size == 6
    assert seen and seen[-1] == "hank_daggett"


def test_log_outside_a_command_is_its_own_undo_step(doc):
    doc.log("The stage arrives.")
    assert doc.encounter.log[-1].text == "The stage arrives."
    doc.undo_stack.undo()
    assert doc.encounter.log == []


def test_action_time_can_be_declared_and_undone(doc):
    doc.start_action_time()
    assert doc.in_action and doc.encounter.mode == "action"
    with pytest.raises(RulesError):
        doc.start_action_time()
    doc.undo_stack.undo()
    assert not doc.in_action and doc.track is None and doc.encounter.mode == "narrative"
    doc.undo_stack.redo()
    assert doc.in_action


def test_save_reopen_same_state(doc, sample_copy):
    """Tokens, deck piles, action-time state and log survive a save and reopen."""
    tok = _miranda(doc)
    doc.push(MoveTokenCommand(doc, tok.id, Hex(6, 17), 3))
    doc.start_action_time()
    doc.push(SnapshotCommand(doc, "Round", lambda: doc.track.start_round(), {"track", "deck"}))
    door = doc.map.feature("bank-door")
    doc.push(ChangeValueCommand(doc, door, "is_open", True, "map"))
    deck_before = doc.deck.snapshot()
    track_before = doc.track.state
    doc.save()
    assert not doc.is_dirty()
    again = EncounterDocument.open(sample_copy)
    t2 = again.token(tok.id)
    assert t2.at == Hex(6, 17) and t2.facing == 3
    assert again.deck.snapshot() == deck_before
    assert again.in_action and again.track.state == track_before
    assert again.map.feature("bank-door").is_open  # the referenced map was saved too
    assert [e.text for e in again.encounter.log] == [e.text for e in doc.encounter.log]


def test_broken_file_raises_load_error_naming_the_file(qapp, tmp_path):
    bad = tmp_path / "broken.encounter.json"
    bad.write_text(json.dumps({"format_version": 1, "name": 5}), encoding="utf-8")
    with pytest.raises(LoadError) as err:
        EncounterDocument.open(bad)
    assert "broken.encounter.json" in str(err.value)
    with pytest.raises(LoadError):
        EncounterDocument.open(tmp_path / "missing.encounter.json")


def test_new_document_is_a_blank_map(qapp):
    d = EncounterDocument.new(12, 9)
    assert d.map.cols == 12 and d.map.rows == 9
    assert d.encounter.tokens == [] and not d.is_dirty()


def test_phases_edition_runs_its_own_round_and_saves(qapp, tmp_path):
    """004: the Phases edition drives a Phases round, not the AP v2 track."""
    from twtw_desktop.model import Encounter, Map, Token
    from twtw_desktop.rules.samples import sample_characters

    hank = sample_characters()["hank_daggett"]
    enc = Encounter(
        edition="phases",
        map=Map.blank(10, 8),
        characters=[hank],
        tokens=[Token(id="t", character_id=hank.id, hex=(2, 2))],
    )
    d = EncounterDocument(enc)
    d.start_action_time()
    assert type(d.track).__name__ == "PhaseRound"
    path = tmp_path / "p.encounter.json"
    d.save(path)
    again = EncounterDocument.open(path)
    assert type(again.track).__name__ == "PhaseRound"
    assert again.track.state == d.track.state


def test_a_table_step_shown_as_all_keeps_the_wall_index_unless_a_feature_changed():
    """The run on F6 (and every step shown as "all") told the document the map had
    changed, which dropped the table's wall index and rebuilt it several times a
    press; the table itself drops it when a step changes a map feature."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    walls = doc.table.walls()
    doc.start_action_time()  # shown as "all", changes no feature
    assert doc.table.walls() is walls
    door = doc.map.feature("bank-door")
    doc.push(ChangeValueCommand(doc, door, "is_open", not door.is_open, "map"))
    assert doc.table.walls() is not walls
