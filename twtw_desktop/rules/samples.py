"""Sample characters and NPC templates (``resources/characters/samples.json``).

The file holds the people the seed pages use in their examples (Miranda, Hank,
Cyril, Jonah, the Laroqs, the Perkins brothers, a vaquero, a miner). Numbers a page
gives are cited in each sheet's ``notes``; numbers it never gives are listed in the
sheet's ``house_values`` with the reason, so a Judge can see what was invented.

File format::

    {"format_version": 1, "characters": [ {...Character...}, ... ]}

Loading checks more than the :class:`Character` schema does: ids are unique, every
carried weapon is in the gear catalog, every skill's trait is on the sheet and Conc
does not exceed its maximum. Any problem raises :class:`LoadError` naming the file,
the character and the field; nothing already loaded is touched.
"""

from __future__ import annotations

import json
import uuid
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from ..errors import LoadError
from ..resources import resource_path
from .character import Character
from .gear import GearCatalog, default_gear

#: The sample file format this code reads.
CHARACTERS_FORMAT_VERSION = 1


def _where(name: str, field: str) -> str:
    return f"character {name!r}, field {field}"


def check_sheet(path: Path, c: Character, gear: GearCatalog) -> None:
    """Cross-checks the schema alone cannot make (needs the catalog / whole sheet)."""
    for i, carried in enumerate(c.weapons):
        if carried.weapon_id not in gear.weapons:
            raise LoadError(
                path,
                f"no weapon called {carried.weapon_id!r} in the gear catalog",
                _where(c.id, f"weapons.{i}.weapon_id"),
            )
        w = gear.weapons[carried.weapon_id]
        if carried.loaded > w.capacity:
            raise LoadError(
                path,
                f"{carried.loaded} rounds loaded but a {w.name} holds {w.capacity}",
                _where(c.id, f"weapons.{i}.loaded"),
            )
    for name, skill in c.skills.items():
        if skill.trait not in c.traits:
            raise LoadError(
                path,
                f"skill rolls with {skill.trait}, which is not on the sheet",
                _where(c.id, f"skills.{name}.trait"),
            )
    if c.conc > c.conc_max:
        raise LoadError(
            path, f"Conc {c.conc} is above the maximum {c.conc_max}", _where(c.id, "conc")
        )


def load_characters(
    path: Path | str | None = None, *, gear: GearCatalog | None = None
) -> list[Character]:
    """Load and validate a character file (default: the bundled samples).

    ``gear`` is the catalog carried weapons must be found in (default: the bundled
    one). Errors are :class:`LoadError` naming the file, the character and the field.
    """
    path = Path(path) if path is not None else resource_path("characters", "samples.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise LoadError(path, "file not found") from e
    except (OSError, ValueError) as e:
        raise LoadError(path, f"not readable JSON ({e})") from e
    if not isinstance(raw, dict) or not isinstance(raw.get("characters"), list):
        raise LoadError(path, "expected an object with a 'characters' list")
    version = raw.get("format_version", CHARACTERS_FORMAT_VERSION)
    if version != CHARACTERS_FORMAT_VERSION:
        raise LoadError(
            path,
            f"unsupported format_version {version!r} "
            f"(this version reads {CHARACTERS_FORMAT_VERSION})",
            "format_version",
        )
    gear = gear if gear is not None else default_gear()
    out: list[Character] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw["characters"]):
        name = f"#{i + 1}"
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            name = entry["id"]
        try:
            c = Character.model_validate(entry)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            reason = err["msg"]
            if err["type"] == "extra_forbidden":
                reason = "unknown field (not part of the character sheet)"
            raise LoadError(path, reason, _where(name, field)) from e
        if c.id in seen:
            raise LoadError(path, "duplicate character id", _where(c.id, "id"))
        seen.add(c.id)
        check_sheet(path, c, gear)
        out.append(c)
    return out


@cache
def _bundled() -> tuple[Character, ...]:
    return tuple(load_characters())


def sample_characters() -> dict[str, Character]:
    """The bundled sample characters by id.

    The file is read once; each call hands out fresh copies, so editing a returned
    sheet never changes what the next caller gets.
    """
    return {c.id: c.model_copy(deep=True) for c in _bundled()}


def npc_template(template_id: str) -> Character:
    """A fresh copy of a sample character with a new unique id, for dropping an extra
    hombre on the map. Unknown ids raise ``KeyError`` listing the known ones."""
    for c in _bundled():
        if c.id == template_id:
            copy = c.model_copy(deep=True)
            copy.id = f"{c.id}-{uuid.uuid4().hex[:8]}"
            return copy
    known = ", ".join(c.id for c in _bundled())
    raise KeyError(f"no sample character called {template_id!r} (known: {known})")
