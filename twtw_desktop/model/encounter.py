"""An encounter: a map (embedded or referenced), the characters and their tokens,
the deck, the action-time state and the log."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer, model_validator

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
#: Most foes one figure can be engaged with at once.
MAX_ENGAGED = 100
TokenRef = Annotated[str, Field(min_length=1, max_length=64)]


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
    # -- hand to hand (000 Hand to Hand Combat; play/engagement.py reads and writes
    # these; an id naming no token any more is ignored, not an error)
    #: the tokens this figure is engaged with
    engaged_with: Annotated[list[TokenRef], Field(max_length=MAX_ENGAGED)] = []
    #: the token holding this figure in a dominant position, and the level held at
    #: (1 partial, 2 dominance, 3 full; 000 Position in Hand-to-Hand Engagements)
    held_by: TokenRef | None = None
    held_at: Annotated[int, Field(ge=0, le=3)] = 0
    #: weapon length (optional rule, 000): the foes whose longer weapon this fighter
    #: has got past by hitting their torso or head
    closed_in_on: Annotated[list[TokenRef], Field(max_length=MAX_ENGAGED)] = []
    #: advantage factors the Judge grants for the fight (000 Determining Advantage)
    melee_position: bool = False
    melee_height: bool = False
    #: a foe who walked out of the engagement: this figure's next blow at them this
    #: round (``free_attack_round``) costs 1 AP less (000 Breaking Engagement)
    free_attack_on: TokenRef | None = None
    free_attack_round: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    #: the round since which an engaged fighter has not moved (000 Maneuvering During
    #: Engagement: two rounds standing still cost 1 Defense)
    still_since: Annotated[int, Field(ge=0, le=1_000_000)] | None = None
    #: the mount's token this rider sits on (it carries the rider when it moves)
    riding: TokenRef | None = None
    #: entangled (003 Entanglement): the token whose weapon holds this figure, and the
    #: weapon (a lasso, a net) — the figure cannot move until it breaks free
    entangled_by: TokenRef | None = None
    entangled_weapon: Annotated[str, Field(max_length=64)] | None = None
    #: paces this fighter may carry the fight after their last blow's bumps spent on
    #: dominance (000 Asserting Dominance: "Each bump spent to increase dominance may
    #: include up to 2 hexes (or paces) of movement"); 0 once used or at a new round
    dominance_paces: Annotated[int, Field(ge=0, le=MAX_PACES)] = 0
    #: the hexes this figure's moves went through this round, in order (001 Declare
    #: Target: a target token is dropped "during the movement of another character")
    trail: Annotated[list[HexPos], Field(max_length=MAX_PACES)] = []
    #: this figure's target token, dropped on another's move this round: whom, and
    #: where "during the movement that character will be targeted" (001)
    target_mark_on: TokenRef | None = None
    target_mark_at: HexPos | None = None

    @property
    def at(self) -> Hex:
        return Hex(*self.hex)

    @model_serializer(mode="wrap")
    def _quiet_when_idle(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave out the hand-to-hand and rider fields while they hold nothing, so a
        figure that never fought or rode is written as before."""
        data = handler(self)
        for name in _IDLE_FIELDS:
            if name in data and not data[name]:
                del data[name]
        return data


#: Token fields left out of a saved file while empty, false or zero.
_IDLE_FIELDS = (
    "engaged_with",
    "held_by",
    "held_at",
    "closed_in_on",
    "melee_position",
    "melee_height",
    "free_attack_on",
    "free_attack_round",
    "still_since",
    "riding",
    "entangled_by",
    "entangled_weapon",
    "dominance_paces",
    "trail",
    "target_mark_on",
    "target_mark_at",
)


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
