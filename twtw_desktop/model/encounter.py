"""An encounter: a map (embedded or referenced), the characters and their tokens,
the deck, the action-time state and the log."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, model_validator

from ..hexgrid import Hex
from ..rules.base import Mutable
from ..rules.character import Character, Posture
from ..rules.editions import EditionId, OptionalRules
from .map import HexPos, Map, duplicate_ids

ENCOUNTER_FORMAT_VERSION: Final = 1
#: Most tokens and most characters (each) in one encounter.
MAX_TOKENS = 10_000
MAX_CHARACTERS = 10_000
#: Most lines in an encounter's log.
MAX_LOG = 100_000
#: Most paces a figure can have moved in one round, and the fastest speed in paces per
#: round (a galloping horse covers well under 200); anything above is a broken file.
MAX_PACES = 1000
Speed = Annotated[float, Field(ge=-MAX_PACES, le=MAX_PACES)]


class Token(Mutable):
    """A character's figure on the map.

    ``moved`` is how many paces the figure moved this round (walking/running for the
    firer-movement penalty); ``velocity`` is its speed vector in paces per round
    (x east, y south, in map-unit directions) for the relative target speed.
    """

    id: Annotated[str, Field(min_length=1, max_length=64)]
    character_id: Annotated[str, Field(min_length=1, max_length=64)]
    hex: HexPos
    facing: Annotated[int, Field(ge=0, le=5)] = 0
    posture: Posture = Posture.STANDING
    moved: Annotated[int, Field(ge=0, le=MAX_PACES)] = 0
    running: bool = False
    velocity: tuple[Speed, Speed] = (0.0, 0.0)
    mounted: bool = False
    hidden: bool = False  # hidden from the players' screen
    weapon_in_hand: Annotated[str, Field(max_length=64)] | None = None

    @property
    def at(self) -> Hex:
        return Hex(*self.hex)


class LogEntry(Mutable):
    """One line of the encounter log, with the full record kept for hover/details."""

    round: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    segment: Annotated[int, Field(ge=0, le=1000)] = 0
    kind: Annotated[str, Field(max_length=40)] = "note"
    text: Annotated[str, Field(max_length=2000)]
    detail: dict[str, Any] | None = None


class Encounter(Mutable):
    """Everything needed to reopen a scene exactly where the Judge left it."""

    format_version: Literal[1] = ENCOUNTER_FORMAT_VERSION
    name: Annotated[str, Field(max_length=200)] = "Untitled encounter"
    edition: EditionId = "ap_v2"
    options: OptionalRules = OptionalRules()
    #: the map, embedded …
    map: Map | None = None
    #: … or referenced by a path relative to the encounter file
    map_ref: Annotated[str, Field(max_length=500)] | None = None
    characters: Annotated[list[Character], Field(max_length=MAX_CHARACTERS)] = []
    tokens: Annotated[list[Token], Field(max_length=MAX_TOKENS)] = []
    #: seed of the generated deck, and its saved state (draw/discard piles)
    deck_seed: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)] = 1873
    deck_state: dict[str, Any] | None = None
    #: a transcribed deck file (relative path) instead of the bundled generated deck
    deck_file: Annotated[str, Field(max_length=500)] | None = None
    #: "narrative" or "action"; the action-time engine's saved state when in action
    mode: Literal["narrative", "action"] = "narrative"
    action_state: dict[str, Any] | None = None
    log: Annotated[list[LogEntry], Field(max_length=MAX_LOG)] = []
    notes: Annotated[str, Field(max_length=50_000)] = ""

    @model_validator(mode="after")
    def _consistent(self) -> Encounter:
        if self.map is None and self.map_ref is None:
            raise ValueError("an encounter needs a map (embedded 'map' or a 'map_ref' path)")
        if self.map is not None and self.map_ref is not None:
            raise ValueError("give either an embedded 'map' or a 'map_ref', not both")
        ids = [c.id for c in self.characters]
        dup = sorted(duplicate_ids(ids))
        if dup:
            raise ValueError(f"duplicate character id(s): {', '.join(dup)}")
        tids = [t.id for t in self.tokens]
        tdup = sorted(duplicate_ids(tids))
        if tdup:
            raise ValueError(f"duplicate token id(s): {', '.join(tdup)}")
        known = set(ids)
        for t in self.tokens:
            if t.character_id not in known:
                raise ValueError(f"token {t.id!r} refers to unknown character {t.character_id!r}")
        if self.map is not None:
            for t in self.tokens:
                if not self.map.contains(Hex(*t.hex)):
                    raise ValueError(f"token {t.id!r} is off the map at {list(t.hex)}")
        return self

    # -- lookups ------------------------------------------------------------------

    def character(self, character_id: str) -> Character:
        for c in self.characters:
            if c.id == character_id:
                return c
        raise KeyError(f"no character {character_id!r} in this encounter")

    def token(self, token_id: str) -> Token:
        for t in self.tokens:
            if t.id == token_id:
                return t
        raise KeyError(f"no token {token_id!r} in this encounter")

    def token_for(self, character_id: str) -> Token | None:
        for t in self.tokens:
            if t.character_id == character_id:
                return t
        return None

    def token_at(self, h: Hex) -> Token | None:
        for t in self.tokens:
            if t.hex == (h.q, h.r):
                return t
        return None
