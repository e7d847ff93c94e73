"""Party files: strict like the other files, atomic, and a wounded posse carried into
the next encounter with its wounds, Conc, bleeding, stun, ammunition and notes."""

from __future__ import annotations

import json

import pytest

from twtw_desktop.errors import LoadError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.io import load_encounter
from twtw_desktop.io.files import SaveError
from twtw_desktop.io.party import load_party, save_party
from twtw_desktop.model.map import Marker, Terrain
from twtw_desktop.model.party import (
    entry_hex,
    free_hexes,
    merge_party,
    party_differences,
    party_from,
)
from twtw_desktop.resources import maps_dir


@pytest.fixture
def street():
    return load_encounter(maps_dir() / "main_street.encounter.json")


@pytest.fixture
def hacienda():
    return load_encounter(maps_dir() / "laroq_hacienda.encounter.json")


def _wound(enc):
    m = enc.character("miranda_valentine")
    m.wounds["right_arm"] = 2
    m.conc = 5
    m.bleeding = 2
    m.stunned = True
    m.weapons[0].loaded = 1
    m.notes = "lost her hat"
    m.behind_cover = True
    return m


def test_round_trip_keeps_everything_that_lasts(street, tmp_path):
    _wound(street.encounter)
    party = party_from(street.encounter, ["miranda_valentine"])
    path = tmp_path / "posse.party.json"
    save_party(party, path)
    back = load_party(path)
    assert back == party
    m = back.characters[0]
    assert (m.wounds["right_arm"], m.conc, m.bleeding, m.stunned) == (2, 5, 2, True)
    assert m.weapons[0].loaded == 1 and m.notes == "lost her hat"
    assert m.behind_cover is False  # the wall stayed on the old map


def test_default_export_is_the_posse_side(street):
    party = party_from(street.encounter)
    assert {c.side for c in party.characters} == {"posse"}
    with pytest.raises(KeyError, match="nobody"):
        party_from(street.encounter, ["nobody"])


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["characters"][0].update(conc="5"), "characters.0.conc"),
        (lambda d: d.update(format_version=9), "format_version"),
        (lambda d: d["characters"].append(dict(d["characters"][0])), ""),
        (lambda d: d["characters"][0]["weapons"][0].update(weapon_id="ray_gun"), "weapons.0"),
        (lambda d: d.update(characters=[]), "characters"),
    ],
)
def test_bad_party_files_name_the_problem(street, tmp_path, change, where):
    path = tmp_path / "p.party.json"
    save_party(party_from(street.encounter), path)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(LoadError) as e:
        load_party(path)
    assert where in str(e.value) and str(path) in str(e.value)


def test_not_json_and_repeated_keys_are_refused(tmp_path):
    p = tmp_path / "x.party.json"
    p.write_text('{"format_version": 1, "format_version": 1}')
    with pytest.raises(LoadError, match="twice"):
        load_party(p)
    p.write_text("[1, 2]")
    with pytest.raises(LoadError, match="not a TWTW party"):
        load_party(p)


def test_a_failed_save_leaves_the_old_file(street, tmp_path):
    path = tmp_path / "p.party.json"
    path.write_text("old")
    bad = party_from(street.encounter)
    bad.characters[0].__dict__["conc"] = "not a number"  # bypass validation
    with pytest.raises(SaveError):
        save_party(bad, path)
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["p.party.json"]


def test_import_replaces_same_id_and_lists_the_differences(street, hacienda):
    _wound(street.encounter)
    party = party_from(street.encounter, ["miranda_valentine"])
    enc = hacienda.encounter
    before = enc.token_for("miranda_valentine").hex
    diffs = party_differences(enc, party.characters)
    assert any(line.startswith("conc:") for line in diffs["miranda_valentine"])
    assert any(line.startswith("wounds:") for line in diffs["miranda_valentine"])
    n = len(enc.characters)
    report = merge_party(enc, hacienda.map, party.characters)
    assert report.replaced == ["miranda_valentine"] and report.added == []
    assert len(enc.characters) == n
    assert enc.character("miranda_valentine").wounds["right_arm"] == 2
    assert enc.token_for("miranda_valentine").hex == before  # already on the map


def test_new_characters_arrive_on_the_entry_marker(street, hacienda):
    party = party_from(street.encounter)
    enc, m = hacienda.encounter, hacienda.map
    posse = {c.id for c in enc.characters if c.side == "posse"}
    enc.tokens = [t for t in enc.tokens if t.character_id not in posse]
    enc.characters = [c for c in enc.characters if c.id not in posse]
    gate = next(h for h in m.hexes() if m.terrain_at(h) == Terrain.OPEN and not enc.token_at(h))
    m.markers.append(Marker(id="entry-gate", hex=(gate.q, gate.r), text="Entry: the gate"))
    assert entry_hex(m) == gate
    report = merge_party(enc, m, party.characters)
    assert len(report.added) == 4
    spots = [report.placed[c] for c in report.added]
    assert spots[0] == gate
    assert len(set(spots)) == 4 and all(h.distance(gate) <= 2 for h in spots)
    taken = [t.hex for t in enc.tokens]
    assert len(taken) == len(set(taken))


def test_free_hexes_skip_occupied_and_unstandable_ground(street):
    enc, m = street.encounter, street.map
    tok = enc.tokens[0]
    got = free_hexes(enc, m, tok.at, 7)
    assert tok.at not in got
    assert all(m.terrain_at(h) not in (Terrain.WATER, Terrain.IMPASSABLE) for h in got)
    with pytest.raises(ValueError, match="room"):
        free_hexes(enc, m, Hex(0, 0), m.cols * m.rows)


def test_no_room_changes_nothing(street):
    enc, m = street.encounter, street.map
    party = party_from(enc)
    for c in party.characters:
        c.id += "-copy"
    m.terrain = ["#" * m.cols for _ in range(m.rows)]
    before = enc.model_dump()
    with pytest.raises(ValueError, match="room"):
        merge_party(enc, m, party.characters)
    assert enc.model_dump() == before
