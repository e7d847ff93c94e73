"""The Judge's window at a real table (issue 27): Save offers the encounter's own
folder and a name from the encounter's name; NPCs from the library stand on free,
passable hexes near the middle of the view and off the map's titles; confirmations
name weapons and body parts, not their ids."""

from __future__ import annotations

from twtw_desktop.model.party import character_differences
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.files.party_dialogs import under_a_title, view_centre_hex
from twtw_desktop.ui.window.main_window import documents_dir, save_suggestion

from .conftest import fresh_window


def test_save_offers_the_encounters_own_folder_and_a_name_from_its_name(tmp_path):
    sample = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    sample.make_untitled()
    assert save_suggestion(sample) == documents_dir() / "showdown_on_main_street.encounter.json"
    new = EncounterDocument.new()
    assert save_suggestion(new) == documents_dir() / "new_encounter.encounter.json"
    own = tmp_path / "ambush.encounter.json"
    sample.save(own)
    assert save_suggestion(sample) == own
    from_map = EncounterDocument.open(maps_dir() / "main_street.map.json")
    suggestion = save_suggestion(from_map)
    assert suggestion.parent == maps_dir() and suggestion.name.endswith(".map.json")


def test_library_npcs_land_near_the_view_middle_off_the_titles(qtbot, tmp_path, monkeypatch):
    from twtw_desktop.model.party import _NO_STANDING

    win = fresh_window(qtbot, tmp_path, monkeypatch)
    assert win.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    doc = win.document
    middle = view_centre_hex(win)
    on_title = under_a_title(win)
    before = {tuple(t.hex) for t in doc.encounter.tokens}
    copies = win.library.add(doc.character("angus_laroq"), 3)
    assert len(copies) == 3
    hexes = [doc.encounter.token_for(c.id).at for c in copies]
    assert len(set(hexes)) == 3 and not ({(h.q, h.r) for h in hexes} & before)
    for h in hexes:
        assert doc.map.terrain_at(h) not in _NO_STANDING
        assert not on_title(h), f"{h} stands on a map title"
        assert h.distance(middle) <= 4
    assert "Added Angus Laroq 2" in win.statusBar().currentMessage()


def test_a_party_confirmation_names_weapons_and_body_parts():
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    old = doc.character("miranda_valentine")
    new = old.model_copy(deep=True)
    new.wounds = {**new.wounds, "left_arm": 2}
    if new.weapons:
        new.weapons[0].loaded = 0
    lines = " ".join(character_differences(old, new))
    assert "left arm 2" in lines and "left_arm" not in lines
    assert "_" not in lines.split(":", 1)[1]  # no ids in the values
