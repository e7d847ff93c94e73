"""What both editions' action-time engines share: the undo plumbing, surprise,
continuous movers and end-of-round bleeding.

:class:`~twtw_desktop.rules.action_track.ActionTrack` (AP v2, 000) and
:class:`~twtw_desktop.rules.phases.PhaseRound` (Phases, 004) differ in how a round is
counted — twenty segments or four phases — but run the same surprise check (001/003
"Surprise"), keep continuous movers the same way (000 "Continuous Action Movement",
002 "Continuous Actions") and bleed the same way (001 "Optional Bleeding"). Those
steps live here once, written against a small set of hooks each engine fills in:

* :meth:`TimeEngine._initial_state` — a fresh state for the characters;
* :meth:`TimeEngine._clock` — the event fields naming the moment (round and segment,
  or round and phase);
* :meth:`TimeEngine._under_way` — whether a round is being played now;
* :meth:`TimeEngine._sit_out` — what a surprise does to a row that could still act
  this round (AP v2: its counters and pool are lost; Phases: its phase is dropped);
* :meth:`TimeEngine._new_mover` — the edition's mover record and the lines that
  explain its schedule.

Every step runs through :meth:`UndoableEngine._run`: a refused step (RulesError) or
any failure leaves the state and the deck exactly as they were, and :meth:`undo`
takes a step back, deck included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from ..errors import RulesError
from .base import Pool, Strict
from .card import Card
from .character import Character
from .checks import CheckResult, check_pool
from .damage import bleed
from .deck import Deck, DeckState
from .editions import Edition, OptionalRules

SOURCE_SURPRISE = "001 Surprise"
SOURCE_BLEEDING = "001 Optional Bleeding"

#: 001/003 Surprise (the edition files carry the same numbers and win when given)
SURPRISE_EXPECTING_TN = 5
SURPRISE_UNEXPECTING_TN = 9
SURPRISE_BRAVERY_TN = 3


# =============================================================================
# Pure helpers
# =============================================================================


def split_evenly(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` whole shares that differ by at most one, the larger
    shares spread out and starting with the first (002's train: 27 in four phases is
    7, 7, 7, 6; 5 paces over 20 segments move in segments 1, 5, 9, 13 and 17)."""
    if parts < 1:
        raise RulesError("There must be at least one part to share the movement over.")
    if total < 0:
        raise RulesError("Movement cannot be negative.")
    base, extra = divmod(total, parts)
    # ceil((i + 1)·extra/parts) − ceil(i·extra/parts) is 0 or 1 and sums to ``extra``
    return [base + (-(-(i + 1) * extra // parts)) - (-(-i * extra // parts)) for i in range(parts)]


class RowStatus(StrEnum):
    """Where a character stands in the current round (both editions)."""

    WAITING = "waiting"  # before the first initiative step / declaration
    ACTIVE = "active"
    STUNNED = "stunned"
    SURPRISED = "surprised"
    OUT = "out"  # dead, unconscious or concussed


class SurpriseResult(Strict):
    """A surprise check (001/003 "Surprise"): Acuity against 5 or 9."""

    character_id: str
    expecting_danger: bool
    tn: int
    result: int | None
    calamity: bool
    surprised: bool
    card_number: int
    #: extension cards drawn for exceptional cells
    cards_drawn: tuple[int, ...] = ()
    reasons: tuple[str, ...]


def surprise_check(
    character: Character,
    expecting_danger: bool,
    card: Card,
    *,
    during_action_time: bool = False,
    edition: Edition | None = None,
    more: Callable[[], Card] | None = None,
) -> SurpriseResult:
    """Does ``character`` resist surprise? An Acuity check, Standard (5) when expecting
    danger (or, 001, once action time is under way), Difficult (9) otherwise. Failure:
    no action this round, and an Easy (3) Bravery check before acting in the next."""
    expecting_tn = edition.surprise_expecting_tn if edition else SURPRISE_EXPECTING_TN
    other_tn = edition.surprise_unexpecting_tn if edition else SURPRISE_UNEXPECTING_TN
    alert = expecting_danger or during_action_time
    tn = expecting_tn if alert else other_tn
    why = (
        "expecting danger"
        if expecting_danger
        else ("action time is under way" if during_action_time else "not expecting danger")
    )
    check = check_pool(card, character.trait_pool("acuity"), tn, more)
    surprised = not check.success
    reasons = (
        f"Acuity against TN {tn}: {why} ({SOURCE_SURPRISE})",
        *check.reasons,
        f"{character.name} is surprised: no action this round, and an Easy ({SURPRISE_BRAVERY_TN}) "
        "Bravery check before acting next round"
        if surprised
        else f"{character.name} is not surprised",
    )
    return SurpriseResult(
        character_id=character.id,
        expecting_danger=expecting_danger,
        tn=tn,
        result=check.result,
        calamity=check.calamity,
        surprised=surprised,
        card_number=card.number,
        cards_drawn=check.read.cards_drawn if check.read is not None else (),
        reasons=reasons,
    )


def surprise_tn(edition: Edition | None, expecting_danger: bool, during_action_time: bool) -> int:
    """The TN :func:`surprise_check` will use (for showing it before the card)."""
    if expecting_danger or during_action_time:
        return edition.surprise_expecting_tn if edition else SURPRISE_EXPECTING_TN
    return edition.surprise_unexpecting_tn if edition else SURPRISE_UNEXPECTING_TN


class BleedRecord(Strict):
    """One character's bleeding at the end of a round: the new sheet for the app to
    apply, the Conc lost and why (001 Optional Bleeding)."""

    character_id: str
    conc_lost: int
    reasons: tuple[str, ...]
    character: Character


def bleed_everyone(
    characters: Iterable[Character], edition: Edition
) -> tuple[tuple[BleedRecord, ...], tuple[str, ...]]:
    """One round of bleeding for every character who bleeds: their records and one
    log line each (001 Optional Bleeding)."""
    records: list[BleedRecord] = []
    lines: list[str] = []
    for c in characters:
        new_sheet, lost, reasons = bleed(c, edition)
        if lost:
            records.append(
                BleedRecord(
                    character_id=c.id, conc_lost=lost, reasons=tuple(reasons), character=new_sheet
                )
            )
            lines.append(f"{c.name} bleeds {lost} Conc ({SOURCE_BLEEDING})")
    return tuple(records), tuple(lines)


def index_characters(characters: Iterable[Character]) -> dict[str, Character]:
    """Characters by id; two sheets with one id are refused."""
    out: dict[str, Character] = {}
    for c in characters:
        if c.id in out:
            raise RulesError(f"Two characters share the id {c.id!r}.")
        out[c.id] = c
    return out


# =============================================================================
# Undoable engine base
# =============================================================================

S = TypeVar("S", bound=Strict)
E = TypeVar("E")
Ev = TypeVar("Ev", bound=Strict)


@dataclass(frozen=True)
class _Tried:
    """A step built by a refusal check, and what it was built from."""

    build: Callable[[], tuple[Any, Any, bool]]
    state: object
    depth: int
    deck_before: DeckState
    inputs: object
    built: tuple[Any, Any, bool]
    deck_after: DeckState


class UndoableEngine(Generic[S]):
    """Keeps a frozen state model, a history of previous states, and the deck.

    Each step builds the next state from the current one; a RulesError (or any
    error) leaves both the state and the deck exactly as they were. Steps that touch
    the deck record the deck as it was, so :meth:`undo` puts it back too. The shared
    deck may be drawn by others between steps, so undo only restores the deck for
    steps that used it (and the app undoes in order).
    """

    def __init__(self, deck: Deck, state: S) -> None:
        self._deck = deck
        self._state = state
        self._history: list[tuple[S, DeckState | None]] = []
        #: inside refusal(): steps are built but not committed
        self._dry = False
        #: the last step :meth:`_refusal` built and found legal, with what it was built
        #: from; :meth:`_run` takes it instead of building the same step again
        self._tried: _Tried | None = None

    @property
    def state(self) -> S:
        """The whole state (frozen; save it, or compare it)."""
        return self._state

    @property
    def deck(self) -> Deck:
        return self._deck

    @property
    def history_depth(self) -> int:
        """How many steps :meth:`undo` can take back."""
        return len(self._history)

    def undo(self) -> None:
        """Take back the last step, restoring the state and (if it drew) the deck."""
        if not self._history:
            raise RulesError("There is nothing to undo.")
        previous, deck_before = self._history.pop()
        if deck_before is not None:
            self._deck.restore(deck_before)
        self._state = previous

    def restore(self, state: S) -> None:
        """Put the engine back into ``state`` exactly (the app's undo stack uses this;
        the deck is restored by the caller from its own snapshot). The engine's own
        step history is kept only while it still leads to this state."""
        if self._history and self._history[-1][0] == state:
            self._history.pop()
        elif state != self._state:
            self._history.clear()
        self._state = state

    @contextmanager
    def trial(self, *, keep: bool = False) -> Iterator[None]:
        """Steps taken inside are put back on leaving — the state, the step history and
        the deck exactly as they were — unless ``keep`` and no error left the block:
        several steps then stand or fall together."""
        state, depth, deck = self._state, len(self._history), self._deck.snapshot()
        ok = False
        try:
            yield
            ok = True
        finally:
            if not (ok and keep):
                self._state = state
                del self._history[depth:]
                self._deck.restore(deck)

    def _refusal(
        self, build: Callable[[], tuple[S, E, bool]], inputs: Callable[[], object] | None = None
    ) -> str | None:
        """Why the step ``build`` would be refused now (its RulesError's sentence), or
        None when it would be accepted. Nothing changes: the state is never committed
        and the deck is put back if the step read a card.

        With ``inputs`` (what the step reads besides the state, the history and the
        deck: the sheets' values it depends on), a legal step is kept, and a
        :meth:`_run` of the same step right after (the table asks ``why_not``, then
        applies) takes it instead of building it again — only while the state, the
        history, the deck and ``inputs()`` are still what it was built from."""
        deck_before = self._deck.snapshot()
        self._tried = None
        try:
            built = build()
            deck_after = self._deck.snapshot()
        except RulesError as e:
            return str(e)
        finally:
            self._deck.restore(deck_before)
        if inputs is not None:
            self._tried = _Tried(
                build, self._state, len(self._history), deck_before, inputs(), built, deck_after
            )
        return None

    def _take_tried(
        self, build: Callable[[], tuple[S, E, bool]], inputs: Callable[[], object] | None
    ) -> tuple[S, E, bool] | None:
        """The step :meth:`_refusal` built just now, if nothing it was built from has
        changed since (the deck then goes to where the step left it)."""
        tried, self._tried = self._tried, None
        if (
            inputs is None
            or tried is None
            or tried.build != build
            or tried.state is not self._state
            or tried.depth != len(self._history)
            or tried.deck_before is not self._deck.snapshot()
            or tried.inputs != inputs()
        ):
            return None
        if tried.deck_after is not tried.deck_before:
            self._deck.restore(tried.deck_after)
        return tried.built

    def refusal(self, step: Callable[[], object]) -> str | None:
        """Why calling ``step`` — any public step of this engine, e.g.
        ``lambda: track.join_stack(cid, spec)`` — would be refused now, or None.
        The step is built but never committed, and the deck is put back: nothing
        changes, so menus can ask this of every entry."""
        self._dry = True
        try:
            step()
        except RulesError as e:
            return str(e)
        finally:
            self._dry = False
        return None

    def _run(
        self, build: Callable[[], tuple[S, E, bool]], inputs: Callable[[], object] | None = None
    ) -> E:
        if self._dry:  # refusal(): build the step to see whether it is refused, keep nothing
            deck_before = self._deck.snapshot()
            try:
                build()
            finally:
                self._deck.restore(deck_before)
            return None  # type: ignore[return-value]
        deck_before = self._deck.snapshot()
        built = self._take_tried(build, inputs)
        if built is None:
            try:
                built = build()
            except BaseException:
                self._deck.restore(deck_before)
                raise
        new_state, event, touched = built
        if touched:
            new_state = new_state.model_copy(update={"deck": self._deck.snapshot()})
        self._history.append((self._state, deck_before if touched else None))
        self._state = new_state
        return event

    # -- cards ------------------------------------------------------------------

    def _more(self) -> Callable[[], Card] | None:
        """Where open-ended cells draw their extra cards (none from a printed deck)."""
        return None if self._deck.physical else self._deck.draw

    def _take(self, supplied: Card | None) -> tuple[Card, bool]:
        """A card to read: the one supplied (a printed card typed in goes into the
        deck's physical pile; any other supplied card is used as given), else the
        top of the deck. Returns the card and whether the deck holds it."""
        if supplied is not None:
            if self._deck.physical:
                return self._deck.enter_physical(supplied), True
            return supplied, False
        return self._deck.draw(), True

    def _discard(self, card: Card, from_deck: bool, extra: Iterable[int] = ()) -> None:
        if from_deck:
            self._deck.discard(card)
        for number in extra:
            self._deck.discard(number)

    def _check(
        self, supplied: Card | None, pool: Pool, tn: int
    ) -> tuple[Card, CheckResult, tuple[int, ...]]:
        """Draw (or take) a card, check ``pool`` against ``tn``, discard what was drawn."""
        card, from_deck = self._take(supplied)
        check = check_pool(card, pool, tn, self._more())
        extra = check.read.cards_drawn if check.read is not None else ()
        self._discard(card, from_deck, extra)
        return card, check, (card.number, *extra)


# =============================================================================
# The steps both editions share
# =============================================================================


class TimeEngine(UndoableEngine[S], Generic[S, Ev]):
    """An action-time engine over characters: the base of both editions' engines.

    The state model ``S`` has ``round``, ``rows`` (character id → a row with ``name``,
    ``status``, ``status_reason`` and ``surprise``) and ``movers`` (records with a
    ``mover_id``); the event model ``Ev`` (:attr:`event_type`) has ``step``,
    ``round``, the clock fields of :meth:`_clock`, ``character_id``, ``summary``,
    ``details``, ``cards`` and ``surprise``. ``characters`` are read, never changed.
    """

    #: the edition's event model (TrackEvent, PhaseEvent)
    event_type: ClassVar[type[Any]]
    #: how refusals say where rows are kept
    rows_where: ClassVar[str] = "on the action track"
    #: whether a surprise check once action time is under way is Standard (5) even for
    #: a character not expecting danger: 001 (the Action Points page) says so; 003 (the
    #: phase edition's Conflict page) knows only expecting danger or not
    surprise_alert_in_action_time: ClassVar[bool] = True
    #: why a stunned character sits the round out on this edition's track
    stunned_reason: ClassVar[str] = "stunned: spends the round recovering"

    def __init__(
        self,
        characters: Sequence[Character],
        edition: Edition,
        deck: Deck,
        options: OptionalRules | None = None,
        state: S | None = None,
    ) -> None:
        self._chars = index_characters(characters)
        self.edition = edition
        self.options = options or OptionalRules()
        super().__init__(deck, state if state is not None else self._initial_state())

    # -- hooks ------------------------------------------------------------------------

    def _initial_state(self) -> S:
        raise NotImplementedError

    def _clock(self) -> dict[str, int]:
        """The event fields naming the current moment (``round`` and more)."""
        raise NotImplementedError

    def _under_way(self) -> bool:
        """Whether a round is being played now (a surprise then costs this round)."""
        raise NotImplementedError

    def _sit_out(self, row: Any) -> dict[str, object] | None:
        """The row update for a character surprised during a round while they could
        still act (beyond the status itself); None when they were not going to act."""
        raise NotImplementedError

    def _new_mover(
        self,
        mover_id: str,
        label: str,
        paces: int,
        automated: bool,
        sheet: Character | None,
        extra: Mapping[str, Any],
    ) -> tuple[Strict, tuple[str, ...]]:
        """The edition's mover record, and lines explaining its schedule."""
        raise NotImplementedError

    def _check_mover_extra(self, extra: Mapping[str, Any]) -> None:
        """Refuse edition-specific mover values (default: none to check)."""

    # -- reading ------------------------------------------------------------------------

    def update_characters(self, characters: Sequence[Character]) -> None:
        """Give the engine the current sheets (wounds, stun…); they are read from the
        next step on. Changes no state."""
        self._chars = index_characters(characters)

    @property
    def round(self) -> int:
        return self._state.round  # type: ignore[attr-defined]

    def row(self, character_id: str) -> Any:
        try:
            return self._state.rows[character_id]  # type: ignore[attr-defined]
        except KeyError:
            raise RulesError(f"There is no {character_id!r} {self.rows_where}.") from None

    def _sheet(self, character_id: str) -> Character:
        try:
            return self._chars[character_id]
        except KeyError:
            raise RulesError(f"There is no character {character_id!r} in this encounter.") from None

    def _event(self, step: str, **fields: Any) -> Ev:
        return self.event_type(step=step, **self._clock(), **fields)

    def surprise_tn_now(self, expecting_danger: bool) -> int:
        """The TN a surprise check made now would use (to show it before the card)."""
        return surprise_tn(self.edition, expecting_danger, self._surprise_alert())

    def _surprise_alert(self) -> bool:
        return self.surprise_alert_in_action_time and self._state.round > 0  # type: ignore[attr-defined]

    def _round_status(
        self, row: Any, c: Character, card: Card | None
    ) -> tuple[Any, str, tuple[int, ...]]:
        """Who sits a new round out, and the Bravery check of a character surprised
        before (001/003 Surprise): out of action, still surprised, stunned, or failing
        the Easy (3) Bravery check. Returns the row (its status still WAITING when the
        character takes part), a line for the log ("" if none) and the cards read."""
        if c.out_of_action:
            why = "dead" if c.dead else ("unconscious" if c.unconscious else "concussed")
            reason = f"{why}: takes no part"
            return (
                row.model_copy(update={"status": RowStatus.OUT, "status_reason": reason}),
                (f"{c.name}: {reason}"),
                (),
            )
        if row.surprise == "surprised":
            reason = f"surprised: cannot act this round ({SOURCE_SURPRISE})"
            new = row.model_copy(
                update={
                    "status": RowStatus.SURPRISED,
                    "status_reason": reason,
                    "surprise": "bravery",
                }
            )
            return new, f"{c.name}: {reason}", ()
        if c.stunned:
            new = row.model_copy(
                update={"status": RowStatus.STUNNED, "status_reason": self.stunned_reason}
            )
            return new, f"{c.name}: {self.stunned_reason}", ()
        if row.surprise != "bravery":
            return row, "", ()
        drawn, check, nums = self._check(
            card, c.trait_pool("bravery"), self.edition.surprise_recover_tn
        )
        lines = " ".join(check.reasons)
        if check.success:
            new = row.model_copy(update={"surprise": "none"})
            return (
                new,
                f"{c.name} shakes off the surprise (Bravery, card {drawn.number}): {lines}",
                nums,
            )
        reason = (
            f"still surprised: failed the Easy ({self.edition.surprise_recover_tn}) Bravery "
            f"check ({SOURCE_SURPRISE})"
        )
        new = row.model_copy(update={"status": RowStatus.SURPRISED, "status_reason": reason})
        return new, f"{c.name}: {reason}", nums

    def _row_step(
        self, character_id: str, update: Mapping[str, Any], step: str, summary: str, **fields: Any
    ) -> tuple[S, Ev, bool]:
        """A step that changes one character's row and logs it (draws no card)."""
        st: Any = self._state
        rows = dict(st.rows)
        rows[character_id] = self.row(character_id).model_copy(update=dict(update))
        event = self._event(step, character_id=character_id, summary=summary, **fields)
        return st.model_copy(update={"rows": rows}), event, False

    def _start_event(
        self, round_no: int, summary: str, details: Sequence[str], cards: Sequence[int]
    ) -> Ev:
        """The event of a new round's first step (the clock at its start)."""
        clock = dict.fromkeys(self._clock(), 0)
        clock["round"] = round_no
        return self.event_type(
            step="start_round", **clock, summary=summary, details=tuple(details), cards=tuple(cards)
        )

    def _bleed_all(self) -> tuple[tuple[BleedRecord, ...], tuple[str, ...]]:
        """Everyone's bleeding for the round when the option is on (001)."""
        if not self.options.bleeding:
            return (), ()
        return bleed_everyone(self._chars.values(), self.edition)

    # -- surprise ---------------------------------------------------------------------------

    def apply_surprise(
        self, character_id: str, expecting_danger: bool, card: Card | None = None
    ) -> Ev:
        """Check whether a character is surprised (001/003 "Surprise") and record it:
        surprised between rounds, they sit out the next round; surprised during a
        round, they lose the rest of it. Either way they need an Easy (3) Bravery
        check at the start of the following round. ``card`` is a typed-in or
        scripted card (else the deck's top card)."""
        return self._run(lambda: self._surprise(character_id, expecting_danger, card))

    def _surprise(
        self, character_id: str, expecting_danger: bool, card: Card | None
    ) -> tuple[S, Ev, bool]:
        st: Any = self._state
        row = self.row(character_id)
        sheet = self._sheet(character_id)
        drawn, from_deck = self._take(card)
        result = surprise_check(
            sheet,
            expecting_danger,
            drawn,
            during_action_time=self._surprise_alert(),
            edition=self.edition,
            more=self._more(),
        )
        self._discard(drawn, from_deck, result.cards_drawn)
        rows = dict(st.rows)
        if result.surprised:
            under_way = self._under_way()
            sitting_out = self._sit_out(row) if under_way else None
            if sitting_out is not None:
                rows[character_id] = row.model_copy(
                    update={
                        "status": RowStatus.SURPRISED,
                        "status_reason": f"surprised: cannot act this round ({SOURCE_SURPRISE})",
                        "surprise": "bravery",
                        **sitting_out,
                    }
                )
            else:
                # not acting this round anyway: the Bravery check waits for the next
                # round (between rounds the next round is the one they sit out)
                rows[character_id] = row.model_copy(
                    update={"surprise": "bravery" if under_way else "surprised"}
                )
        event = self._event(
            "apply_surprise",
            character_id=character_id,
            summary=f"{row.name} is {'surprised' if result.surprised else 'not surprised'}",
            details=result.reasons,
            cards=((drawn.number,) if from_deck else ()) + result.cards_drawn,
            surprise=result,
        )
        return st.model_copy(update={"rows": rows}), event, True

    # -- continuous movers ------------------------------------------------------------------

    def _set_continuous(
        self,
        mover_id: str,
        paces: int | None,
        name: str | None,
        automated: bool,
        extra: Mapping[str, Any] | None = None,
    ) -> Ev:
        """Start, change or (``paces`` None or 0) stop a continuous mover: a
        character's mount or vehicle, or an automated one moved by the Judge."""
        return self._run(lambda: self._set_mover(mover_id, paces, name, automated, extra or {}))

    def _set_mover(
        self,
        mover_id: str,
        paces: int | None,
        name: str | None,
        automated: bool,
        extra: Mapping[str, Any],
    ) -> tuple[S, Ev, bool]:
        st: Any = self._state
        movers = [m for m in st.movers if m.mover_id != mover_id]
        sheet = self._chars.get(mover_id)
        label = name or (sheet.name if sheet else mover_id)
        self._check_mover_extra(extra)
        details: tuple[str, ...] = ()
        if paces:
            if paces < 0:
                raise RulesError("Movement cannot be negative.")
            if sheet is None and not automated:
                raise RulesError(
                    f"{label} is not a character; mark it automated (moved by the Judge)."
                )
            mover, details = self._new_mover(mover_id, label, paces, automated, sheet, extra)
            movers.append(mover)
            summary = f"{label} moves {paces} paces a round continuously"
        else:
            if len(movers) == len(st.movers):
                raise RulesError(f"{label} is not moving continuously.")
            summary = f"{label} stops moving continuously"
        event = self._event(
            "set_continuous",
            character_id=mover_id if sheet else None,
            summary=summary,
            details=details,
        )
        return st.model_copy(update={"movers": tuple(movers)}), event, False


__all__ = [
    "SOURCE_BLEEDING",
    "SOURCE_SURPRISE",
    "SURPRISE_BRAVERY_TN",
    "SURPRISE_EXPECTING_TN",
    "SURPRISE_UNEXPECTING_TN",
    "BleedRecord",
    "RowStatus",
    "SurpriseResult",
    "TimeEngine",
    "UndoableEngine",
    "bleed_everyone",
    "index_characters",
    "split_evenly",
    "surprise_check",
    "surprise_tn",
]
