"""The character library's Qt-free part: shelves, the Judge's saved characters in a
given folder, and numbered copies."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import LoadError
from twtw_desktop.io.library import CharacterLibrary, npc_types, numbered_copies
from twtw_desktop.rules.samples import sample_characters


def test_npc_types_cover_gunmen_lawmen_townsfolk_and_horses():
    types = {c.id: c for c in npc_types()}
    assert {"laroq_gunman", "hired_gunman", "sheriff", "deputy", "townsman", "horse"} <= set(types)
    for c in types.values():  # invented numbers say so
        assert c.house_values, c.id
    assert types["horse"].size > types["townsman"].size


def test_numbered_copies_count_on_from_what_is_there():
    gunman = next(c for c in npc_types() if c.id == "laroq_gunman")
    first = numbered_copies(gunman, 1, set(), set())
    assert [c.name for c in first] == ["Laroq gunman"]
    more = numbered_copies(gunman, 3, {first[0].id}, {"Laroq gunman"})
    assert [c.name for c in more] == ["Laroq gunman 2", "Laroq gunman 3", "Laroq gunman 4"]
    ids = [c.id for c in first + more]
    assert len(set(ids)) == 4
    again = numbered_copies(more[0], 1, set(ids), {c.name for c in first + more})
    assert again[0].name == "Laroq gunman 5"
    with pytest.raises(ValueError, match="between 1 and"):
        numbered_copies(gunman, 0, set(), set())


def test_the_judges_shelf_lives_in_the_given_folder(tmp_path):
    lib = CharacterLibrary(tmp_path / "data")
    assert lib.mine() == []
    hank = sample_characters()["hank_daggett"]
    hank.conc = 3
    lib.save_character(hank)
    assert (tmp_path / "data" / "my_characters.party.json").exists()
    assert [c.conc for c in CharacterLibrary(tmp_path / "data").mine()] == [3]
    hank.conc = 5
    lib.save_character(hank)  # same id: replaced
    assert [c.conc for c in lib.mine()] == [5]
    lib.remove("hank_daggett")
    assert lib.mine() == [] and not lib.user_path.exists()
    with pytest.raises(KeyError):
        lib.remove("hank_daggett")


def test_a_broken_saved_file_does_not_hide_the_samples(tmp_path):
    lib = CharacterLibrary(tmp_path)
    lib.user_path.write_text("{")
    entries, problems = lib.entries()
    assert {e.shelf for e in entries} == {"samples", "types"}
    assert len(problems) == 1 and "not valid JSON" in problems[0]
    with pytest.raises(LoadError):
        lib.save_character(sample_characters()["hank_daggett"])
