"""What the players may see: the one rule, without Qt.

The players' screen and a print without ``--judge`` draw only what :func:`players_sight`
returns — they never draw something first and hide it later. The rule, for each
kind of thing on the table:

* **Features, labels, markers** — shown unless Judge-only (``judge_only``; a marker
  is Judge-only unless told otherwise). **Notes** are always the Judge's. The
  **background picture** shows when ``visible_to_players``. Sight is another matter:
  a secret wall still blocks the posse's eyes (the fog uses every feature).
* **Tokens** — never a hidden one (``Token.hidden``). With the fog on, a token
  outside the posse shows only on a hex the posse is *known* to see now: the fog's
  last answer for the current posse and walls (:class:`FogKnowledge`). While a new
  answer is being worked out, only what the viewers whose sight is already known
  can see counts; everything else waits. The posse's own tokens always show.
* **Marks on a token** (:class:`TokenMarks`) — the knocked-out / dead look (grey disc
  and cross), the stunned and concussed badges and the wound level are the
  character's *condition*: they follow the badge setting (``conditions``: the
  posse's only, everyone's, nobody's). An NPC the players cannot know is down looks
  like any NPC. Posture, running and mounted are plain to see. Names outside the
  posse follow ``names``.
* **Overlays pointing at things** (a cover line, a scatter clock, "show this", a
  covered area the Judge shows) — only when every token they point at is shown
  (:func:`push_allowed`); covering fire is never drawn for the players otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..hexgrid import Hex, hex_to_offset
from ..model import Encounter, Map
from ..model.encounter import Token
from ..model.map import Note
from ..rules.character import Character

Audience = Literal["all", "posse", "none"]
#: the side whose members the players play
POSSE_SIDE = "posse"


def for_audience(audience: Audience, side: str) -> bool:
    """Whether a badge setting shows the condition of a member of ``side``."""
    return audience == "all" or (audience == "posse" and side == POSSE_SIDE)


def is_public(x: object) -> bool:
    """Whether a map object (feature, label, note, marker, token, background) may be
    shown to the players at all. Notes are always the Judge's."""
    if isinstance(x, Note):
        return False
    # the switches are fields: read from the model's own values (a missing one through
    # getattr costs a pydantic __getattr__ and an exception, for every wall)
    values = getattr(x, "__dict__", None)
    if values is None:
        values = {k: getattr(x, k) for k in _SWITCHES if hasattr(x, k)}
    if values.get("hidden", False):
        return False
    if values.get("visible_to_players", True) is False:
        return False
    return not values.get("judge_only", False)


#: the fields that keep a map object from the players
_SWITCHES = ("hidden", "visible_to_players", "judge_only")


@dataclass(frozen=True, slots=True)
class TokenMarks:
    """How much one token's drawing tells (for a given audience)."""

    #: the knocked-out / dead look: grey disc with a cross
    out: bool = False
    stunned: bool = False
    #: the "C" badge (concussed or unconscious)
    concussed: bool = False
    unconscious: bool = False
    wound_level: int = 0
    dead: bool = False
    #: initials and the name plate
    named: bool = True


def token_named(character: Character | None, names: bool = True) -> bool:
    """Whether a token whose character is ``character`` shows its initials and name
    plate: always for the posse and for a token without a character, for the others
    when the look names them (``names``). (:func:`token_marks`'s ``named``, on its own
    for the name plates' layout, which asks it of every token on screen.)"""
    return names or character is None or character.side == POSSE_SIDE


def token_marks(character: Character | None, audience: Audience, names: bool = True) -> TokenMarks:
    """The condition marks of a token whose character is ``character`` (None: no
    character), as the badge setting ``audience`` lets them show."""
    if character is None:
        return TokenMarks(named=True)
    side = character.side
    named = token_named(character, names)
    if not for_audience(audience, side):
        return TokenMarks(named=named)
    return TokenMarks(
        out=bool(character.dead or character.unconscious),
        stunned=bool(character.stunned),
        concussed=bool(character.concussed or character.unconscious),
        unconscious=bool(character.unconscious),
        wound_level=int(character.wound_level),
        dead=bool(character.dead),
        named=named,
    )


@dataclass(frozen=True, slots=True)
class PlayersOptions:
    """The Judge's choices for the players' screen."""

    conditions: Audience = "posse"
    names: bool = True
    fog: bool = False


@dataclass(slots=True)
class FogKnowledge:
    """What the table knows of the posse's sight right now, as ``(rows, cols)``
    masks in offset coordinates of the current map.

    ``seen`` is the last complete answer *for the current posse and walls* (None
    when it is being worked out); ``known`` is what is certainly seen meanwhile (the
    viewers whose sight is already known). A token outside the posse shows only on
    a hex of ``seen`` — or, while ``seen`` is None, of ``known``.
    """

    shape: tuple[int, int]
    seen: np.ndarray | None = None
    known: np.ndarray | None = None

    def sees(self, col: int, row: int) -> bool:
        if not (0 <= row < self.shape[0] and 0 <= col < self.shape[1]):
            return False
        mask = self.seen if self.seen is not None else self.known
        return bool(mask is not None and mask[row, col])


@dataclass(frozen=True, slots=True)
class PlayersSight:
    """Everything the players may see, by model id."""

    tokens: frozenset[str]
    features: frozenset[str]
    labels: frozenset[str]
    markers: frozenset[str]
    background: bool
    marks: Mapping[str, TokenMarks] = field(default_factory=dict)

    def shows_token(self, token_id: str) -> bool:
        return token_id in self.tokens


def public_ids(objs: Iterable) -> frozenset[str]:
    return frozenset(x.id for x in objs if is_public(x))


def _by_id(encounter: Encounter) -> dict[str, Character]:
    """The encounter's characters by id (the first of an id, as ``character`` finds)."""
    out: dict[str, Character] = {}
    for c in encounter.characters:
        out.setdefault(c.id, c)
    return out


def token_allowed(
    encounter: Encounter,
    game_map: Map,
    token: Token,
    options: PlayersOptions,
    fog: FogKnowledge | None,
    characters: Mapping[str, Character] | None = None,
) -> bool:
    """Whether one token shows on the players' screen (module docstring).
    ``characters``: the encounter's characters by id, where the caller asks for
    every token (one lookup each instead of a walk through the list)."""
    if not is_public(token):
        return False
    if not game_map.contains(token.at):
        return False
    if not options.fog:
        return True
    chars = characters if characters is not None else _by_id(encounter)
    ch = chars.get(token.character_id)
    side = ch.side if ch is not None else "neutral"
    if side == POSSE_SIDE:
        return True
    if fog is None or fog.shape != (game_map.rows, game_map.cols):
        return False
    col, row = hex_to_offset(token.at, game_map.orientation)
    return fog.sees(col, row)


def players_sight(
    encounter: Encounter, game_map: Map, options: PlayersOptions, fog: FogKnowledge | None = None
) -> PlayersSight:
    """What the players may see of ``encounter`` on ``game_map`` now (module
    docstring)."""
    m = game_map
    tokens = []
    marks: dict[str, TokenMarks] = {}
    chars = _by_id(encounter)
    for t in encounter.tokens:
        if not token_allowed(encounter, m, t, options, fog, chars):
            continue
        tokens.append(t.id)
        marks[t.id] = token_marks(chars.get(t.character_id), options.conditions, options.names)
    bg = m.background
    return PlayersSight(
        tokens=frozenset(tokens),
        features=public_ids(m.features),
        labels=public_ids(m.labels),
        markers=public_ids(m.markers),
        background=bg is not None and is_public(bg),
        marks=marks,
    )


def push_allowed(kind: str, payload: Any, encounter: Encounter, sight: PlayersSight) -> bool:
    """Whether a pushed drawing may go on the players' screen: it must not point at
    a token the players do not see (a cover line's ends, a scatter clock's thrower,
    target and landing, "show this" on a token or a hex where one stands)."""
    if kind in ("clear", "card"):
        return True
    if kind == "focus" and isinstance(payload, str):
        return payload in sight.tokens
    hexes: list[Hex] = []
    if kind == "cover_line":
        hexes = [_as_hex(h) for h in payload]
    elif kind == "scatter":
        if isinstance(payload, dict):
            hexes = [_as_hex(payload[k]) for k in ("thrower", "target", "landing") if k in payload]
        else:
            hexes = [_as_hex(h) for h in payload]
    elif kind == "focus":
        hexes = [_as_hex(payload)]
    elif kind == "covering":  # a covered area and its shooter (002 Covering Fire)
        hexes = [_as_hex(h) for h in payload.get("hexes", ())]
        hexes += [_as_hex(payload["shooter"])] if payload.get("shooter") else []
    for h in hexes:
        t = encounter.token_at(h)
        if t is not None and t.id not in sight.tokens:
            return False
    return True


def _as_hex(x: Hex | Sequence[int]) -> Hex:
    return x if isinstance(x, Hex) else Hex(*x)


def posse_viewers(encounter: Encounter, game_map: Map) -> list[Hex]:
    """Hexes of the posse members who look: on the map, not hidden from the players,
    and neither dead nor unconscious."""
    out: list[Hex] = []
    m = game_map
    chars = _by_id(encounter)
    for t in encounter.tokens:
        if t.hidden:
            continue
        ch = chars.get(t.character_id)
        if ch is None:
            continue
        if ch.side != POSSE_SIDE or ch.dead or ch.unconscious:
            continue
        if m.contains(t.at):
            out.append(t.at)
    return out


def character_viewers(encounter: Encounter, game_map: Map, character_id: str) -> list[Hex]:
    """The hex one character looks from: its token's, when the token is on the map,
    not hidden from the players, and the character neither dead nor unconscious
    (the same conditions as :func:`posse_viewers`, for one character)."""
    return viewers_of(encounter, game_map, [character_id])[character_id]


def viewers_of(
    encounter: Encounter, game_map: Map, character_ids: Sequence[str]
) -> dict[str, list[Hex]]:
    """:func:`character_viewers` for several characters in one pass over the tokens
    (the sight record asks it for the whole posse after every step)."""
    wanted = set(character_ids)
    out: dict[str, list[Hex]] = {cid: [] for cid in character_ids}
    chars = {c.id: c for c in encounter.characters if c.id in wanted}
    done: set[str] = set()
    for t in encounter.tokens:
        cid = t.character_id
        if cid not in wanted or cid in done or t.hidden:
            continue
        done.add(cid)  # its first token not hidden decides
        ch = chars.get(cid)
        if ch is not None and not ch.dead and not ch.unconscious and game_map.contains(t.at):
            out[cid] = [t.at]
    return out


def character_sight(
    encounter: Encounter, game_map: Map, options: PlayersOptions, fog: FogKnowledge | None
) -> PlayersSight:
    """What one posse character may see (a player's own device): the players' rule
    with the fog always on, where ``fog`` is that character's own sight
    (:func:`character_viewers`), not the posse's. The posse's tokens still show (the
    players sit at one table); a token outside the posse shows only on a hex that
    character is known to see; no fog answer yet shows none of them."""
    return players_sight(
        encounter,
        game_map,
        PlayersOptions(conditions=options.conditions, names=options.names, fog=True),
        fog if fog is not None else FogKnowledge((game_map.rows, game_map.cols)),
    )
