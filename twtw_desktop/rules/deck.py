"""The action deck and reading a card (RULES.md "The action card").

* :func:`load_deck_file` / :func:`standard_deck` — read a 54-card deck file.
* :class:`Deck` — draw pile, discard pile, cards in play, seeded reshuffles, exact
  snapshots for undo, and a *physical card* mode in which the Judge types the values
  of a card drawn from a printed deck.
* :func:`read_pool` — a cause-grid pool ``XdY`` (rows 1..X of column dY), with
  open-ended exceptional cells and CF.
* :func:`read_effect` — an effect-grid cell ``(n)Y`` with damage bumps, increased
  effect and 002's guarded column shifts.

Decisions where the pages are silent (also listed in the function docstrings):

* A CF anywhere in the pool's rows makes the pool CF and no extension card is drawn
  (004 "Initiative Example": the CF beats the exceptional cell beside it).
* An extension card whose same cell is CF adds nothing and ends that extension.
* With no ``more`` callable an exceptional cell counts its printed face only, and an
  increased effect adds nothing; the read says so in its reasons.
* Extensions stop after :data:`MAX_EXTENSION_DRAWS` cards, so a scripted or endless
  source can never hang a read.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from ..errors import LoadError, RulesError
from ..resources import resource_path
from .base import DIE_TYPES, EFFECT_ROWS, CardNo, Count, Effect, Name, Pool, Strict
from .card import Card, CauseFace

#: Deck file format this code reads and writes.
DECK_FORMAT_VERSION = 1
#: A deck has 54 cards numbered 1..54 (000 "The Initiative Stack" ties go by number).
DECK_SIZE = 54
#: Bigger files are refused before parsing (the bundled deck is about 100 kB).
MAX_DECK_FILE_BYTES = 4 * 1024 * 1024
#: Deeper bracket nesting is refused before parsing (a card nests 4 levels).
MAX_JSON_DEPTH = 50
#: Most extra cards one open-ended cell or increased effect may draw (house value).
MAX_EXTENSION_DRAWS = 20
#: Top-level keys a deck file may carry.
_DECK_KEYS = {"format_version", "name", "seed", "cards", "description"}

CF: Literal["CF"] = "CF"

#: Something that hands over the next card (usually ``Deck.draw``).
CardSource = Callable[[], Card]


# =============================================================================
# Loading
# =============================================================================


# A JSON string (or the unterminated rest after a stray quote); unambiguous, so linear.
_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)


_NOT_BRACKET_RE = re.compile(r"[^\[\]{}]+")


def _json_depth(text: str) -> int:
    """Deepest bracket nesting of JSON text, ignoring brackets inside strings (the
    brackets picked out by two regular expressions, then counted one character at a
    time: a match object per bracket cost the start-up ten milliseconds)."""
    depth = deepest = 0
    for ch in _NOT_BRACKET_RE.sub("", _STRING_RE.sub('""', text)):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


class _RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _RepeatedKey(k)
        out[k] = v
    return out


def _loc_text(loc: Sequence[Any]) -> str:
    """A pydantic error location as a dotted field path; list positions count from 1
    like the card's rows. Union-member tags (``int``, ``literal['CF']``) are dropped."""
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(str(item + 1))
        elif "[" in item or item in ("int", "str", "bool", "float", "none", "[key]"):
            continue
        else:
            parts.append(item)
    return ".".join(parts)


#: the grids' column names ("4", "6"… for the dice)
_DIE_NAMES = frozenset(str(d) for d in DIE_TYPES)


def _precheck_grids(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    """Cell-by-cell check of the two grids, so an error names the exact cell.

    Returns ``(field, reason)`` for the first bad cell, or None.
    """
    cause = raw.get("cause")
    if isinstance(cause, Mapping):
        for col, cells in cause.items():
            if col not in _DIE_NAMES or not isinstance(cells, list):
                continue
            for i, v in enumerate(cells, 1):
                ok = v == CF or (type(v) is int and 1 <= v <= int(col))
                if not ok:
                    return (
                        f"cause.{col}.{i}",
                        f"{v!r} is not a d{col} face (1–{col}) or CF",
                    )
    effect = raw.get("effect")
    if isinstance(effect, Mapping):
        for col, cells in effect.items():
            if col not in _DIE_NAMES or not isinstance(cells, list):
                continue
            for n, cell in enumerate(cells, 1):
                if not isinstance(cell, Mapping):
                    continue
                v = cell.get("value")
                if type(v) is int and not (n <= v <= n * int(col)):
                    return (
                        f"effect.{col}.{n}.value",
                        f"{v} is outside {n}..{n * int(col)}, the range of {n}d{col}",
                    )
    return None


class CardError(ValueError):
    """A card's data is wrong; ``where`` names the card and field, ``reason`` why."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def parse_card(raw: Any, where: str = "card") -> Card:
    """Validate one card given as plain JSON data.

    A bad value raises :class:`CardError` (a ``ValueError``) whose ``where`` names
    the card and the field (``"card 5, field cause.8.2"``) and ``reason`` says why;
    callers turn it into LoadError (files) or RulesError (typed-in cards).
    """
    if isinstance(raw, Card):
        return raw
    if not isinstance(raw, Mapping):
        raise CardError(where, f"a card must be an object, not {type(raw).__name__}")
    bad = _precheck_grids(raw)
    if bad:
        raise CardError(f"{where}, field {bad[0]}", bad[1])
    try:
        # Strict JSON validation: "yes" is not a bool and 3.0 is not an int.
        return Card.model_validate_json(json.dumps(dict(raw)), strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = _loc_text(err["loc"]) or "card"
        msg = err["msg"].removeprefix("Value error, ")
        got = err.get("input")
        if err["type"] != "missing" and isinstance(got, str | int | float | bool | None):
            msg += f" (got {json.dumps(got)})"
        raise CardError(f"{where}, field {field}", msg) from None
    except (TypeError, ValueError) as exc:  # json.dumps of odd data
        raise CardError(where, str(exc)) from None


def _card_label(raw: Any, index: int) -> str:
    if isinstance(raw, Mapping):
        n = raw.get("number")
        if type(n) is int:
            return f"card {n}"
    return f"card entry {index + 1}"


def load_deck_file(path: str | Path) -> list[Card]:
    """Read a deck file: ``{"format_version": 1, "cards": [54 cards]}``.

    Every card number 1..54 must appear exactly once. Any problem raises
    :class:`LoadError` naming the file, the card and the field (list positions in
    field paths count from 1, like the card's rows: ``cause.4.3`` is row 3 of d4).
    Oversized files and absurdly deep nesting are refused before parsing.
    """
    p = Path(path)
    try:
        info = p.stat()
    except OSError as exc:
        raise LoadError(p, f"cannot read the deck file ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise LoadError(p, "not a regular file")
    if info.st_size > MAX_DECK_FILE_BYTES:
        raise LoadError(
            p, f"file is {info.st_size:,} bytes; a deck file is at most {MAX_DECK_FILE_BYTES:,}"
        )
    try:
        with p.open("rb") as fh:
            blob = fh.read(MAX_DECK_FILE_BYTES + 1)
    except OSError as exc:
        raise LoadError(p, f"cannot read the deck file ({exc.strerror or exc})") from None
    if len(blob) > MAX_DECK_FILE_BYTES:
        raise LoadError(p, f"file is over {MAX_DECK_FILE_BYTES:,} bytes")
    try:
        text = blob.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LoadError(p, "not a text (UTF-8) file") from None
    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise LoadError(p, f"nesting is {depth} levels deep; a deck file needs only a few")
    try:
        data = json.loads(text, object_pairs_hook=_no_repeated_keys)
    except json.JSONDecodeError as exc:
        raise LoadError(p, f"not valid JSON ({exc.msg})", f"line {exc.lineno}") from None
    except _RepeatedKey as exc:
        raise LoadError(p, f"the key {exc.key!r} appears twice in one object") from None
    except (ValueError, RecursionError) as exc:
        raise LoadError(p, f"not valid JSON ({exc})") from None
    return _deck_from_data(p, data)


def _deck_from_data(p: Path, data: Any) -> list[Card]:
    if not isinstance(data, dict):
        raise LoadError(p, "a deck file must hold a JSON object with a 'cards' list")
    version = data.get("format_version")
    if type(version) is not int:
        raise LoadError(p, "missing or non-integer format_version", "format_version")
    if version != DECK_FORMAT_VERSION:
        raise LoadError(
            p,
            f"format_version {version} is not supported (this program reads {DECK_FORMAT_VERSION})",
            "format_version",
        )
    unknown = sorted(set(data) - _DECK_KEYS)
    if unknown:
        raise LoadError(p, f"unknown key {unknown[0]!r}", unknown[0])
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            raise LoadError(p, f"{key} must be text", key)
    if "seed" in data and type(data["seed"]) is not int:
        raise LoadError(p, "seed must be a whole number", "seed")
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        raise LoadError(p, "missing 'cards' list", "cards")
    cards: list[Card] = []
    seen: dict[int, int] = {}
    for i, raw in enumerate(raw_cards):
        label = _card_label(raw, i)
        try:
            card = parse_card(raw, label)
        except CardError as exc:
            raise LoadError(p, exc.reason, exc.where) from None
        if card.number in seen:
            raise LoadError(
                p,
                f"card number {card.number} appears twice (entries {seen[card.number] + 1} "
                f"and {i + 1})",
                f"{label}, field number",
            )
        seen[card.number] = i
        cards.append(card)
    if len(cards) != DECK_SIZE:
        missing = sorted(set(range(1, DECK_SIZE + 1)) - set(seen))
        hint = f" (missing {', '.join(map(str, missing[:5]))})" if missing else ""
        raise LoadError(p, f"has {len(cards)} cards; a deck needs {DECK_SIZE}{hint}", "cards")
    return sorted(cards, key=lambda c: c.number)


@cache
def _standard_cards() -> tuple[Card, ...]:
    return tuple(load_deck_file(resource_path("deck", "standard.json")))


def standard_deck() -> list[Card]:
    """The bundled generated deck (cached; the cards are immutable)."""
    return list(_standard_cards())


# =============================================================================
# The deck
# =============================================================================


class DeckState(Strict):
    """Everything needed to put a deck back exactly as it was (what encounters save).

    ``draw_pile`` lists card numbers top first, ``discard`` most recent last,
    ``in_play`` the drawn cards not yet discarded, in drawing order. Physical cards
    (typed in by the Judge) are kept whole, apart from the generated piles.
    """

    seed: Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
    name: Name = "standard"
    draw_pile: Annotated[tuple[CardNo, ...], Field(max_length=54)]
    discard: Annotated[tuple[CardNo, ...], Field(max_length=54)] = ()
    in_play: Annotated[tuple[CardNo, ...], Field(max_length=54)] = ()
    reshuffles: Count = 0
    physical: bool = False
    physical_in_play: tuple[Card, ...] = ()
    physical_discard: tuple[Card, ...] = ()


def _shuffled(numbers: Iterable[int], seed: int, count: int) -> list[int]:
    """Deterministic shuffle for reshuffle ``count`` of the deck seeded ``seed``."""
    out = sorted(numbers)
    random.Random(f"twtw-deck:{seed}:{count}").shuffle(out)
    return out


class Deck:
    """A real action deck: draw pile, discard pile, cards in play, seeded shuffles.

    ``Deck(cards, seed=1234)`` shuffles the cards for reshuffle 0 of that seed; a deck
    built again with the same seed draws the same cards in the same order, across
    reshuffles. Omit ``seed`` for a random one (still recorded in the state so the
    encounter can be replayed). ``state`` restores a saved :class:`DeckState`.

    In *physical* mode (:attr:`physical`) the Judge draws from a printed deck:
    :meth:`draw` refuses and the UI calls :meth:`enter_physical` with the values the
    Judge reads off the card.
    """

    def __init__(
        self,
        cards: Sequence[Card],
        seed: int | None = None,
        state: DeckState | None = None,
        *,
        name: str = "standard",
    ) -> None:
        if not cards:
            raise RulesError("A deck needs at least one card.")
        by_number: dict[int, Card] = {}
        for c in cards:
            if c.number in by_number:
                raise RulesError(f"The deck holds card {c.number} twice.")
            by_number[c.number] = c
        self._cards = by_number
        if state is not None:
            self._state = self._checked(state)
        else:
            s = secrets.randbits(32) if seed is None else int(seed)
            self._state = DeckState(seed=s, name=name, draw_pile=tuple(_shuffled(by_number, s, 0)))

    # -- state ---------------------------------------------------------------------

    def _checked(self, state: DeckState) -> DeckState:
        held = list(state.draw_pile) + list(state.discard) + list(state.in_play)
        if sorted(held) != sorted(self._cards):
            raise RulesError(
                "The saved deck state does not hold each card of this deck exactly once."
            )
        printed = [c.number for c in state.physical_in_play + state.physical_discard]
        if len(set(printed)) != len(printed):
            raise RulesError("The saved deck state holds a printed card twice.")
        return state

    def snapshot(self) -> DeckState:
        """The current state (immutable; keep it to undo)."""
        return self._state

    def restore(self, state: DeckState) -> None:
        """Put the deck back exactly as ``state`` describes."""
        self._state = self._checked(state)

    @property
    def seed(self) -> int:
        return self._state.seed

    @property
    def name(self) -> str:
        return self._state.name

    @property
    def reshuffles(self) -> int:
        return self._state.reshuffles

    @property
    def physical(self) -> bool:
        """True when the Judge draws from a printed deck and types the values in."""
        return self._state.physical

    @physical.setter
    def physical(self, on: bool) -> None:
        self._state = self._state.model_copy(update={"physical": bool(on)})

    @property
    def draw_count(self) -> int:
        """Cards left in the draw pile."""
        return len(self._state.draw_pile)

    @property
    def discard_count(self) -> int:
        """Cards in the discard pile (generated and physical)."""
        return len(self._state.discard) + len(self._state.physical_discard)

    @property
    def in_play(self) -> list[Card]:
        """Drawn cards not yet discarded, in drawing order (physical ones last)."""
        return [self._cards[n] for n in self._state.in_play] + list(self._state.physical_in_play)

    @property
    def cards(self) -> list[Card]:
        """Every generated card of the deck, by number."""
        return [self._cards[n] for n in sorted(self._cards)]

    def card(self, number: int) -> Card:
        """The deck's card with this number."""
        try:
            return self._cards[number]
        except KeyError:
            raise RulesError(f"This deck has no card {number}.") from None

    def discard_pile(self) -> list[Card]:
        """The discard pile, oldest first (physical cards after generated ones).

        001's Rel 1 rule looks here for the card whose wrench shows 2.
        """
        return [self._cards[n] for n in self._state.discard] + list(self._state.physical_discard)

    def last_cards(self, n: int) -> list[Card]:
        """The ``n`` most recently seen cards, most recent last: the discard pile
        followed by the cards still in play (in physical mode, the typed-in cards)."""
        if n <= 0:
            return []
        if self.physical:
            seen = list(self._state.physical_discard) + list(self._state.physical_in_play)
        else:
            seen = [self._cards[k] for k in self._state.discard + self._state.in_play]
        return seen[-n:]

    # -- drawing and discarding ----------------------------------------------------

    def draw(self) -> Card:
        """Take the top card and put it in play.

        An empty draw pile is first refilled from the discard pile, shuffled by the
        deck's seed and reshuffle count (so a seeded deck replays identically).
        """
        st = self._state
        if st.physical:
            raise RulesError(
                "The deck is in physical-card mode: ask the Judge for the values of the "
                "card drawn from the printed deck."
            )
        if not st.draw_pile:
            if not st.discard:
                raise RulesError("Every card is in play; discard some before drawing.")
            count = st.reshuffles + 1
            st = st.model_copy(
                update={
                    "draw_pile": tuple(_shuffled(st.discard, st.seed, count)),
                    "discard": (),
                    "reshuffles": count,
                }
            )
        top = st.draw_pile[0]
        self._state = st.model_copy(
            update={"draw_pile": st.draw_pile[1:], "in_play": (*st.in_play, top)}
        )
        return self._cards[top]

    def discard(self, card_or_number: Card | int) -> None:
        """Move one card in play to the discard pile.

        A physical card object (or, in physical mode, a number) is looked up among
        the physical cards first.
        """
        st = self._state
        number = card_or_number.number if isinstance(card_or_number, Card) else card_or_number
        phys = [i for i, c in enumerate(st.physical_in_play) if c.number == number]
        is_phys_obj = isinstance(card_or_number, Card) and any(
            c == card_or_number for c in st.physical_in_play
        )
        use_phys = phys and (is_phys_obj or st.physical or number not in st.in_play)
        if use_phys:
            i = phys[0]
            card = st.physical_in_play[i]
            self._state = st.model_copy(
                update={
                    "physical_in_play": st.physical_in_play[:i] + st.physical_in_play[i + 1 :],
                    "physical_discard": (*st.physical_discard, card),
                }
            )
            return
        if number not in st.in_play:
            raise RulesError(f"Card {number} is not in play, so it cannot be discarded.")
        in_play = list(st.in_play)
        in_play.remove(number)
        self._state = st.model_copy(
            update={"in_play": tuple(in_play), "discard": (*st.discard, number)}
        )

    def discard_in_play(self) -> None:
        """Discard every card in play, in the order they were drawn (000: discard the
        card when the resolution is done)."""
        st = self._state
        self._state = st.model_copy(
            update={
                "in_play": (),
                "discard": st.discard + st.in_play,
                "physical_in_play": (),
                "physical_discard": st.physical_discard + st.physical_in_play,
            }
        )

    def reshuffle(self) -> None:
        """Gather every card (in play and discarded) and shuffle a fresh draw pile."""
        st = self._state
        count = st.reshuffles + 1
        self._state = st.model_copy(
            update={
                "draw_pile": tuple(_shuffled(self._cards, st.seed, count)),
                "discard": (),
                "in_play": (),
                "physical_in_play": (),
                "physical_discard": (),
                "reshuffles": count,
            }
        )

    def enter_physical(self, card_or_dict: Card | Mapping[str, Any]) -> Card:
        """Record a card drawn from a printed deck, as typed in by the Judge.

        The values are checked against the card schema; a bad value raises
        :class:`RulesError` naming the field. The card goes in play without touching
        the generated draw pile. A card already in play or in the discard pile of the
        printed deck is refused (reshuffle first).
        """
        try:
            card = parse_card(card_or_dict, "typed card")
        except CardError as exc:
            raise RulesError(f"The {exc.where} is wrong: {exc.reason}.") from None
        st = self._state
        if any(c.number == card.number for c in st.physical_in_play):
            raise RulesError(f"Printed card {card.number} is already in play.")
        if any(c.number == card.number for c in st.physical_discard):
            raise RulesError(
                f"Printed card {card.number} is in the discard pile; reshuffle the deck first."
            )
        self._state = st.model_copy(update={"physical_in_play": (*st.physical_in_play, card)})
        return card


# =============================================================================
# Reading a pool (cause grid)
# =============================================================================


class PoolCell(Strict):
    """One row of a pool read: the printed face and its open-ended total."""

    row: int
    face: CauseFace
    #: face plus every extension; None for a CF cell
    total: int | None
    exceptional: bool = False
    extra_cards: tuple[int, ...] = ()


class PoolRead(Strict):
    """A cause-grid pool read off one card (RULES.md "cause grid").

    ``cells`` are ordered best first. When ``is_cf`` the whole pool is a critical
    failure and :meth:`result` is None.
    """

    card_number: int
    pool: Pool
    cells: tuple[PoolCell, ...]
    is_cf: bool
    cards_drawn: tuple[int, ...] = ()
    reasons: tuple[str, ...] = ()

    def result(self, k: int = 0) -> int | None:
        """The k-th highest total (0 = best, 1 = second attack…); None on CF or when
        the pool has fewer than k + 1 dice."""
        if self.is_cf or k < 0 or k >= len(self.cells):
            return None
        return self.cells[k].total


def _extension_cells(
    cell_of: Callable[[Card], Any],
    more: CardSource | None,
    keep_going: Callable[[Any], bool],
    reasons: list[str],
    label: str,
) -> list[tuple[int, Any]]:
    """Draw extension cards for an open-ended cell: ``(card number, cell)`` pairs,
    drawing again while ``keep_going(cell)`` and at most MAX_EXTENSION_DRAWS."""
    out: list[tuple[int, Any]] = []
    if more is None:
        reasons.append(f"{label}: no further card can be drawn, so it counts as printed")
        return out
    while True:
        if len(out) >= MAX_EXTENSION_DRAWS:
            reasons.append(f"{label}: stopped after {MAX_EXTENSION_DRAWS} extra cards")
            break
        nxt = more()
        value = cell_of(nxt)
        out.append((nxt.number, value))
        if not keep_going(value):
            break
    return out


def read_pool(card: Card, pool: Pool | str, more: CardSource | None = None) -> PoolRead:
    """Read pool ``XdY`` from ``card``: rows 1..X of column dY (RULES.md "cause grid").

    * Any CF among those cells makes the pool CF; nothing else is drawn (004
      "Initiative Example": the 2-6 CF beats the exceptional 1-6).
    * A face equal to Y is exceptional and open-ended: ``more()`` supplies another
      card, whose cell at the same row and column is added, again while it shows Y
      (000 "Combining Combat and Non-Combat Actions": every exceptional cell is
      fully extended before the results are ranked). Extensions run row by row.
    * An extension card showing CF in that cell adds nothing and ends the extension;
      with ``more=None`` an exceptional cell counts its printed face.
    """
    pool = Pool.model_validate(pool)
    die = pool.die
    faces = [card.cause_cell(r, die) for r in range(1, pool.count + 1)]
    reasons = [f"card {card.number}, {pool}: rows 1–{pool.count} of the d{die} column show {faces}"]
    if CF in faces:
        rows = [r for r, f in enumerate(faces, 1) if f == CF]
        reasons.append(
            f"CF in row {', '.join(map(str, rows))}: the whole pool is a critical failure"
        )
        cells = [
            PoolCell(row=r, face=f, total=None if f == CF else f, exceptional=f == die)
            for r, f in enumerate(faces, 1)
        ]
        cells.sort(key=lambda c: (c.total is None, -(c.total or 0), c.row))
        return PoolRead(
            card_number=card.number,
            pool=pool,
            cells=tuple(cells),
            is_cf=True,
            reasons=tuple(reasons),
        )

    cells = []
    drawn_all: list[int] = []
    for r, face in enumerate(faces, 1):
        assert isinstance(face, int)
        if face != die:
            cells.append(PoolCell(row=r, face=face, total=face))
            continue
        label = f"row {r} shows {face}, exceptional"

        def cell_of(c: Card, r: int = r) -> CauseFace:
            return c.cause_cell(r, die)

        extension = _extension_cells(cell_of, more, lambda v: v == die, reasons, label)
        drawn = [num for num, _ in extension]
        total = face
        steps = []
        for num, v in extension:
            if v == CF:
                steps.append(f"card {num} shows CF there: adds nothing, extension ends")
                break
            total += v
            steps.append(f"card {num} adds {v}")
        if steps:
            reasons.append(f"{label}: " + "; ".join(steps) + f" → {total}")
        drawn_all += drawn
        cells.append(
            PoolCell(row=r, face=face, total=total, exceptional=True, extra_cards=tuple(drawn))
        )
    cells.sort(key=lambda c: (-(c.total or 0), c.row))
    reasons.append("ranked: " + ", ".join(str(c.total) for c in cells))
    return PoolRead(
        card_number=card.number,
        pool=pool,
        cells=tuple(cells),
        is_cf=False,
        cards_drawn=tuple(drawn_all),
        reasons=tuple(reasons),
    )


# =============================================================================
# Reading an effect (effect grid)
# =============================================================================


class EffectRead(Strict):
    """An effect-grid value read off one card (RULES.md "effect grid")."""

    card_number: int
    effect: Effect
    #: the column actually read (differs from ``effect.die`` after a column shift)
    die: int
    #: the grid row actually read (1..7)
    row: int
    #: damage bumps past row 7, each +1 (002 "Conditional Bumps")
    past_row_7: int = 0
    #: the printed cell value
    base: int
    increased: bool
    extra_cards: tuple[int, ...] = ()
    value: int
    reasons: tuple[str, ...] = ()


def read_effect(
    card: Card,
    effect: Effect | str,
    damage_bumps: int = 0,
    more: CardSource | None = None,
    column_shift: int = 0,
) -> EffectRead:
    """Read effect ``(n)Y`` from ``card``.

    * Row ``n + damage_bumps``; past row 7 each further bump adds +1 to the row-7
      value (002 "Conditional Bumps"). A row above 1 is read as row 1.
    * Increased effect is open-ended: ``more()`` supplies another card whose
      ``(1)Y`` cell is added, again while that cell is flagged (RULES.md).
    * ``column_shift`` moves to another die column (002 "Applying Bonuses and
      Penalties"); a shift past d4 or d12 stops at the edge. The result is compared
      with the unshifted cell (plus the same bumps past row 7):

      - negative (e.g. reduced damage): the total must stay below it, so the shifted
        cell and every increased-effect addition are capped at one less (rule 2).
        If the unshifted value is 1, reduced damage is 0.
      - positive: the total must exceed it. The shifted read keeps increased effect
        when the unshifted cell had it, and the first addition is raised so the
        total beats the unshifted value; with no addition at all the total becomes
        one more than the unshifted value (rule 3, Octavio's example).

      Extension cells come from the shifted column.
    """
    effect = Effect.model_validate(effect)
    reasons: list[str] = []
    wanted = effect.row + damage_bumps
    row = min(max(wanted, 1), EFFECT_ROWS)
    past = max(0, wanted - EFFECT_ROWS)
    if damage_bumps:
        reasons.append(f"{effect} with {damage_bumps:+d} damage bump(s): row {wanted}")
    if wanted < 1:
        reasons.append("no row above 1; row 1 is read")
    idx = DIE_TYPES.index(effect.die)
    new_idx = min(max(idx + column_shift, 0), len(DIE_TYPES) - 1)
    die = DIE_TYPES[new_idx]
    if column_shift and new_idx != idx + column_shift:
        edge = "d4" if column_shift < 0 else "d12"
        reasons.append(f"column shift {column_shift:+d} stops at the {edge} column")

    cell = card.effect_cell(row, die)
    base = cell.value
    value = base + past
    reasons.append(
        f"card {card.number}, ({row}){die} shows {base}"
        + (" with increased effect" if cell.increased else "")
    )
    if past:
        reasons.append(f"{past} bump(s) past row 7: +{past} → {value}")

    increased = cell.increased
    cap: int | None = None
    floor: int | None = None
    if column_shift:
        orig = card.effect_cell(row, effect.die)
        orig_value = orig.value + past
        reasons.append(
            f"unshifted ({row}){effect.die} shows {orig.value}"
            + (f" (+{past} = {orig_value})" if past else "")
        )
        if column_shift < 0:
            cap = max(orig_value - 1, 0)
            if value > cap:
                reasons.append(f"reduced to {cap}: must stay below the unshifted {orig_value}")
                value = cap
        else:
            floor = orig_value + 1
            if orig.increased and not increased:
                increased = True
                reasons.append("the unshifted cell had increased effect, so the shift keeps it")

    drawn: list[int] = []
    if increased and (cap is None or value < cap):
        if more is None:
            reasons.append("increased effect, but no further card can be drawn")
        while more is not None:
            if len(drawn) >= MAX_EXTENSION_DRAWS:
                reasons.append(f"stopped after {MAX_EXTENSION_DRAWS} extra cards")
                break
            nxt = more()
            drawn.append(nxt.number)
            extra = nxt.effect_cell(1, die)
            add = extra.value
            note = ""
            if cap is not None and value + add > cap:
                add = cap - value
                note = f" (counts as {add}, to stay below the unshifted value)"
            if floor is not None and len(drawn) == 1 and value + add < floor:
                add = floor - value
                note = f" (counts as {add}, to beat the unshifted value)"
            value += add
            reasons.append(
                f"increased effect: card {nxt.number} (1){die} shows {extra.value}{note} → {value}"
                + (", increased again" if extra.increased else "")
            )
            if not extra.increased or (cap is not None and value >= cap):
                break
    if floor is not None and value < floor:
        reasons.append(f"raised to {floor}: must beat the unshifted value")
        value = floor
    return EffectRead(
        card_number=card.number,
        effect=effect,
        die=die,
        row=row,
        past_row_7=past,
        base=base,
        increased=increased,
        extra_cards=tuple(drawn),
        value=value,
        reasons=tuple(reasons),
    )


__all__ = [
    "CF",
    "DECK_FORMAT_VERSION",
    "DECK_SIZE",
    "MAX_EXTENSION_DRAWS",
    "CardError",
    "CardSource",
    "Deck",
    "DeckState",
    "EffectRead",
    "PoolCell",
    "PoolRead",
    "load_deck_file",
    "parse_card",
    "read_effect",
    "read_pool",
    "standard_deck",
]
