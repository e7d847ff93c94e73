"""The character library: sample characters, common NPC types and the Judge's own.

Three shelves:

``samples``
    the people of the seed pages' examples (``resources/characters/samples.json``);
``types``
    common NPC types — gunmen, lawmen, townsfolk, a horse
    (``resources/characters/npc_types.json``; every number is invented and says so in
    its ``house_values``);
``mine``
    characters the Judge saved, kept as a party file (:mod:`.party`) named
    :data:`USER_FILE` in the user data folder. The folder is given by the caller (the
    window passes ``QStandardPaths.AppDataLocation``), so this module has no Qt.

:func:`numbered_copies` makes the copies that go into an encounter: fresh unique ids
and numbered names ("Laroq gunman", "Laroq gunman 2", "Laroq gunman 3"…) that go on
from the numbers already used in the encounter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import LoadError
from ..model.party import Party
from ..resources import resource_path
from ..rules.character import Character
from ..rules.samples import load_characters, sample_characters
from .files import SaveError
from .party import load_party, save_party

USER_FILE = "my_characters.party.json"
SHELVES = {"samples": "Sample characters", "types": "NPC types", "mine": "My characters"}
#: most copies one request adds
MAX_COPIES = 50


@dataclass(frozen=True)
class LibraryEntry:
    shelf: str
    character: Character


def npc_types() -> list[Character]:
    """The bundled NPC types."""
    return load_characters(resource_path("characters", "npc_types.json"))


class CharacterLibrary:
    """The three shelves, with the Judge's shelf stored under ``folder``."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    @property
    def user_path(self) -> Path:
        return self.folder / USER_FILE

    def mine(self) -> list[Character]:
        """The Judge's saved characters (none when the file is not there yet)."""
        if not self.user_path.exists():
            return []
        return list(load_party(self.user_path).characters)

    def entries(self) -> tuple[list[LibraryEntry], list[str]]:
        """Every entry, shelf by shelf, and the problems of shelves that did not load
        (a broken file of saved characters must not hide the samples)."""
        out: list[LibraryEntry] = []
        problems: list[str] = []
        loaders = (
            ("samples", lambda: list(sample_characters().values())),
            ("types", npc_types),
            ("mine", self.mine),
        )
        for shelf, load in loaders:
            try:
                out += [LibraryEntry(shelf, c) for c in load()]
            except LoadError as e:
                problems.append(str(e))
        return out, problems

    def save_character(self, character: Character) -> None:
        """Add ``character`` to the Judge's shelf, replacing a saved one of the same
        id. Raises LoadError (the saved file is unreadable) or SaveError."""
        mine = [c for c in self.mine() if c.id != character.id]
        sheet = character.model_copy(deep=True)
        sheet.behind_cover = False
        mine.append(sheet)
        self._write(mine)

    def remove(self, character_id: str) -> None:
        mine = self.mine()
        kept = [c for c in mine if c.id != character_id]
        if len(kept) == len(mine):
            raise KeyError(f"no saved character {character_id!r}")
        self._write(kept)

    def _write(self, characters: list[Character]) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SaveError(self.folder, f"cannot create the folder ({e.strerror})") from None
        if not characters:
            self.user_path.unlink(missing_ok=True)
            return
        save_party(Party(name="My characters", characters=characters), self.user_path)


_NUMBERED = re.compile(r"^(?P<base>.*?)(?: (?P<n>\d+))?$")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "npc"


def numbered_copies(
    template: Character, count: int, taken_ids: set[str], taken_names: set[str]
) -> list[Character]:
    """``count`` copies of ``template`` with unique ids and numbered names.

    The first copy keeps the plain name when nobody has it yet; further copies count
    on from the highest number in use ("Laroq gunman 2, 3, 4"). Wounds and state are
    the template's (a fresh type is unhurt).
    """
    if not 1 <= count <= MAX_COPIES:
        raise ValueError(f"add between 1 and {MAX_COPIES} copies, not {count}")
    whole = _NUMBERED.match(template.name)
    base = (whole.group("base") if whole else "") or template.name
    used = 0
    for name in taken_names:
        m = _NUMBERED.match(name)
        if m and m.group("base") == base:
            used = max(used, int(m.group("n") or 1))
    ids = set(taken_ids)
    stem = _slug(template.id)[:40]
    out = []
    for i in range(count):
        n = used + i + 1
        c = template.model_copy(deep=True)
        c.name = base if n == 1 else f"{base} {n}"
        cid = f"{stem}_{n}"
        k = n
        while cid in ids:
            k += 1
            cid = f"{stem}_{k}"
        ids.add(cid)
        c.id = cid
        c.house_values = dict(template.house_values)
        out.append(c)
    return out
