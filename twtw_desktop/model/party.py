"""The posse between fights: a party file and bringing it into an encounter.

A party file (``*.party.json``) holds whole character sheets as they stood at the end
of a fight — wounds per location, Conc, bleeding, stun and consciousness, carried
weapons with the rounds loaded in each, notes and house values — so the same wounded
posse walks into the next encounter. Shape::

    {
      "format_version": 1,
      "name": "The Valentine posse",
      "exported_from": "Gunfight on Main Street",   # the encounter it came from
      "characters": [ {...Character...}, ... ]
    }

Unknown fields are refused and ids must be unique, as in the other files.

What stays behind: where a character stood, which way it faced and whether it hid
behind a wall belong to the map they were on; the tokens are placed afresh on the
next map. Rest and healing between fights are rules, not bookkeeping, and are left
to the rules layer.

:func:`merge_party` brings characters into an encounter: a character whose id is
already there is replaced (its token stays where it is, following the new sheet's
posture), a new one gets a token on the map's entry marker (a marker whose text or id
starts with "entry") or, lacking one, around ``near`` (the map's middle by default),
spreading to the nearest free hexes. :func:`party_differences` lists what a
replacement changes, for the confirmation the window asks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Final, Literal

from pydantic import Field, model_validator

from ..hexgrid import Hex, hex_spiral, offset_to_hex
from ..rules.base import Mutable
from ..rules.character import Character
from ..rules.gear import default_gear
from .encounter import Encounter, Token
from .map import Map, Terrain

PARTY_FORMAT_VERSION: Final = 1
PARTY_SUFFIX = ".party.json"
#: a marker whose text or id starts with this word is where an imported posse arrives
ENTRY_WORD = "entry"
#: ground a token is never put on when placing a party or a library character
_NO_STANDING = frozenset({Terrain.WATER, Terrain.IMPASSABLE, Terrain.CLIMB, Terrain.LADDER})
#: the sheet fields a difference listing names, in sheet order
_COMPARED = (
    "name",
    "side",
    "conc",
    "conc_max",
    "wounds",
    "bleeding",
    "wound_care",
    "stunned",
    "unconscious",
    "concussed",
    "dead",
    "out_of_scene",
    "weapons",
    "traits",
    "skills",
    "ap",
    "initiative",
    "move",
    "run",
    "notes",
)


class Party(Mutable):
    """Characters carried from one encounter to the next."""

    format_version: Literal[1] = PARTY_FORMAT_VERSION
    name: Annotated[str, Field(max_length=200)] = "Posse"
    exported_from: Annotated[str, Field(max_length=200)] = ""
    characters: Annotated[list[Character], Field(min_length=1, max_length=500)]

    @model_validator(mode="after")
    def _unique(self) -> Party:
        ids = [c.id for c in self.characters]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate character id(s): {', '.join(dup)}")
        return self


def party_from(encounter: Encounter, who: list[str] | None = None, name: str = "") -> Party:
    """The characters ``who`` (ids; default: the posse side, or everyone when nobody is
    on it) of ``encounter`` as a party. KeyError names an unknown id."""
    if who:
        chosen = [encounter.character(cid) for cid in who]
    else:
        chosen = [c for c in encounter.characters if c.side == "posse"] or list(
            encounter.characters
        )
    if not chosen:
        raise ValueError("the encounter has no characters to export")
    sheets = []
    for c in chosen:
        sheet = c.model_copy(deep=True)
        sheet.behind_cover = False  # the wall was on the old map
        sheets.append(sheet)
    return Party(
        name=name or ("Posse" if not who else ", ".join(c.name for c in chosen))[:200],
        exported_from=encounter.name[:200],
        characters=sheets,
    )


def _weapon_name(weapon_id: str) -> str:
    """The gear catalog's name of a weapon (its id when the catalog has none)."""
    w = default_gear().weapons.get(weapon_id)
    return w.name if w is not None else weapon_id


def _show(value: object) -> str:
    """A field's value as the Judge reads it: names, not ids (``left arm``, ``Colt
    Peacemaker``)."""
    if isinstance(value, dict):
        shown = (f"{str(k).replace('_', ' ')} {v}" for k, v in value.items() if v)
        return ", ".join(shown) or "none"
    if isinstance(value, list):
        parts = []
        for w in value:
            if isinstance(w, dict) and "weapon_id" in w:
                parts.append(f"{_weapon_name(w['weapon_id'])} ({w.get('loaded', 0)} loaded)")
            else:
                parts.append(str(w))
        return "; ".join(parts) or "none"
    text = str(value)
    return text if len(text) <= 40 else text[:39] + "…"


def character_differences(old: Character, new: Character) -> list[str]:
    """What replacing ``old`` by ``new`` changes, one short line per field."""
    a, b = old.model_dump(mode="json"), new.model_dump(mode="json")
    return [f"{k}: {_show(a[k])} → {_show(b[k])}" for k in _COMPARED if a.get(k) != b.get(k)]


def party_differences(encounter: Encounter, characters: list[Character]) -> dict[str, list[str]]:
    """For each character already in ``encounter`` (same id): the changed fields
    (an empty list when the sheets are the same). New characters are not listed."""
    out: dict[str, list[str]] = {}
    present = {c.id: c for c in encounter.characters}
    for c in characters:
        if c.id in present:
            out[c.id] = character_differences(present[c.id], c)
    return out


def entry_hex(game_map: Map) -> Hex | None:
    """The map's entry marker, if it has one."""
    for m in game_map.markers:
        if m.text.strip().lower().startswith(ENTRY_WORD) or m.id.lower().startswith(ENTRY_WORD):
            return Hex(*m.hex)
    return None


def middle_hex(game_map: Map) -> Hex:
    """The hex in the middle of the map."""
    return offset_to_hex(game_map.cols // 2, game_map.rows // 2, game_map.orientation)


def free_hexes(
    encounter: Encounter,
    game_map: Map,
    near: Hex,
    count: int,
    avoid: Callable[[Hex], bool] | None = None,
) -> list[Hex]:
    """``count`` hexes nearest ``near`` with no token on them and ground a figure can
    stand on (not water, impassable, a climb or a ladder); hexes ``avoid`` names (under
    the map's titles) only when there are not enough others. ValueError when the map
    has not that many."""
    taken = {tuple(t.hex) for t in encounter.tokens}
    out: list[Hex] = []
    later: list[Hex] = []
    radius = game_map.cols + game_map.rows
    for h in hex_spiral(near, radius):
        if len(out) == count:
            break
        if (h.q, h.r) in taken or not game_map.contains(h):
            continue
        if game_map.terrain_at(h) in _NO_STANDING:
            continue
        if avoid is not None and avoid(h):
            later.append(h)
            continue
        out.append(h)
    out += later[: count - len(out)]
    if len(out) < count:
        raise ValueError(f"the map has room for {len(out)} more figures, not {count}")
    return out


def _token_id(encounter: Encounter, character_id: str, extra: set[str]) -> str:
    taken = {t.id for t in encounter.tokens} | extra
    base = f"tok-{character_id}"[:56]
    tid, n = base, 2
    while tid in taken:
        tid = f"{base}-{n}"
        n += 1
    return tid


@dataclass
class MergeReport:
    """What :func:`merge_party` did."""

    replaced: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    #: character id → the hex its new token stands on
    placed: dict[str, Hex] = field(default_factory=dict)

    def describe(self) -> str:
        parts = []
        if self.added:
            parts.append(f"{len(self.added)} added")
        if self.replaced:
            parts.append(f"{len(self.replaced)} replaced")
        return ", ".join(parts) or "nothing changed"


def new_tokens(
    encounter: Encounter,
    game_map: Map,
    characters: list[Character],
    near: Hex,
    avoid: Callable[[Hex], bool] | None = None,
) -> list[Token]:
    """Tokens for ``characters`` on the free hexes nearest ``near`` (see
    :func:`free_hexes`), facing as the first free hex allows (east). Nothing is added
    to the encounter."""
    hexes = free_hexes(encounter, game_map, near, len(characters), avoid)
    made: set[str] = set()
    out = []
    for c, h in zip(characters, hexes, strict=True):
        tid = _token_id(encounter, c.id, made)
        made.add(tid)
        out.append(Token(id=tid, character_id=c.id, hex=(h.q, h.r), posture=c.posture))
    return out


def merge_party(
    encounter: Encounter, game_map: Map, characters: list[Character], near: Hex | None = None
) -> MergeReport:
    """Bring ``characters`` into ``encounter`` in place (see the module docstring).

    Checks everything before changing anything: ValueError (no room on the map)
    leaves the encounter as it was.
    """
    report = MergeReport()
    index = {c.id: i for i, c in enumerate(encounter.characters)}
    arriving = [c for c in characters if c.id not in index or encounter.token_for(c.id) is None]
    where = near if near is not None else (entry_hex(game_map) or middle_hex(game_map))
    tokens = new_tokens(encounter, game_map, arriving, where)
    for c in characters:
        sheet = c.model_copy(deep=True)
        if c.id in index:
            encounter.characters[index[c.id]] = sheet
            report.replaced.append(c.id)
            tok = encounter.token_for(c.id)
            if tok is not None:
                tok.posture = sheet.posture
        else:
            encounter.characters.append(sheet)
            report.added.append(c.id)
    for t in tokens:
        encounter.tokens.append(t)
        report.placed[t.character_id] = t.at
    return report
