"""The table: one encounter in play, and the only thing that changes game state.

A :class:`Table` owns the encounter, its map, the deck, the action-time clock (AP v2
track or Phases round, :mod:`.time`), the log and the undo history. The window, the
players' screen and the ``play`` command all change the game through it:

* :meth:`Table.apply` takes a typed action (:mod:`.actions`): it checks ``why_not``,
  runs the action as one *step* and returns its :class:`TableEvent`;
* :meth:`Table.run` runs any other change (a sheet edited by hand, a door opened) as
  one step; the journal keeps such a step as a Judge's patch;
* :meth:`Table.undo` / :meth:`Table.redo` take steps back and forth exactly — cards
  back on the pile in order, AP, wounds, cover ablation, token places.

Listeners (the window's document, the journal) hear about every step done, undone
and redone, in order, before anyone shows the result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .. import io as io_mod
from ..errors import LoadError, RulesError
from ..geometry.walls import WallIndex
from ..hexgrid import Hex, offset_label
from ..model import Encounter, LogEntry, Map
from ..model.encounter import Token
from ..rules.character import Character
from ..rules.deck import Deck, DeckState
from ..rules.editions import Edition, load_edition
from ..rules.gear import GearCatalog, default_gear
from . import load_families
from .seen import SightRecord
from .snapshot import ALL_AREAS, Copies, Snapshot, diff_ids, patch_between
from .time import Clock, make_clock

#: what a listener is told: ("do" | "undo" | "redo" | "merge", the step)
Listener = Callable[[str, "Step"], None]

#: called inside every applied action's step, after the action: ``hook(table, action,
#: event)``. A hook may only write log lines (the one area every step copies): the
#: covering-fire watch logs who has come under fire (play.cover_state).
AFTER_ACTION: list[Callable[[Table, Any, TableEvent], None]] = []

#: asked before every action is checked or applied: ``route(table, action)`` gives the
#: action to take instead (or the same one). AP v2 action time sends a direct action
#: that is not the segment's lone one through the declaration step the window uses
#: (play.declarations: 000 Action Timing, Simultaneous Actions).
ROUTE_ACTION: list[Callable[[Table, Any], Any]] = []


@dataclass
class TableEvent:
    """What an applied action did: the one-line log entry and the full record."""

    text: str
    record: dict[str, Any] = field(default_factory=dict)
    cards: tuple[int, ...] = ()
    #: the rules engines' own events behind it (for the panels that show their fields)
    raw: tuple[Any, ...] = ()

    def line(self) -> str:
        return self.text


@dataclass(eq=False)
class Step:
    """One undoable change of the table."""

    seq: int
    label: str
    before: Snapshot
    after: Snapshot
    #: the action as typed (its JSON), or None for a Judge's change made by hand
    action: dict[str, Any] | None = None
    event: TableEvent | None = None
    merge_key: Any = None
    #: ids of the objects this step changed (the window repaints only these)
    tokens: set[str] = field(default_factory=set)
    characters: set[str] = field(default_factory=set)
    features: set[str] = field(default_factory=set)
    #: areas the step names (for the window's "changed" signal)
    areas: set[str] = field(default_factory=set)

    def patch(self) -> dict[str, Any]:
        """The step as a plain-JSON patch (the journal's form of a hand-made change)."""
        return patch_between(self.before, self.after)

    def note_changes(self) -> None:
        b, a = self.before, self.after
        self.tokens = diff_ids(b.tokens, a.tokens)
        self.characters = diff_ids(b.characters, a.characters)
        self.features = diff_ids(b.features, a.features)
        if self.tokens:
            self.areas.add("tokens")
        if self.characters:
            self.areas.add("characters")
        if self.features:
            self.areas.add("map")
        if a.log_tail:
            self.areas.add("log")


def load_gear() -> GearCatalog:
    return default_gear()


def make_deck(encounter: Encounter, source: Path | None = None) -> Deck:
    """The encounter's deck: the bundled (or a transcribed, path-checked) 54 cards,
    seeded, with the saved draw/discard piles restored. ``source`` is the encounter's
    file (its deck file is read beside it)."""
    where = source or "encounter"
    cards, name = io_mod.deck_cards(encounter, source)
    state = None
    if encounter.deck_state:
        try:
            state = DeckState.model_validate(encounter.deck_state)
        except ValueError as e:
            raise LoadError(where, f"saved deck state is not valid ({e})", "deck_state") from e
    try:
        return Deck(cards, seed=encounter.deck_seed, state=state, name=name)
    except RulesError as e:
        raise LoadError(where, str(e), "deck_state") from e


class TableView(Protocol):
    """What ``play/``'s reading functions need of a table: the encounter, its map,
    rules and gear, the deck and the clock, and the lookups by id — nothing that
    changes the game. :class:`Table` is one; so is the window's document
    (``ui/document.py``, which reads through to its table), so the tools can ask
    while a drag or a hover is under way. A function that changes the table (inside
    a step) takes the :class:`Table` itself."""

    @property
    def encounter(self) -> Encounter: ...
    @property
    def map(self) -> Map: ...
    @property
    def edition(self) -> Edition: ...
    @property
    def gear(self) -> GearCatalog: ...
    @property
    def deck(self) -> Deck: ...
    @property
    def track(self) -> Any: ...
    @property
    def in_action(self) -> bool: ...

    def character(self, cid: str) -> Character: ...
    def token(self, tid: str) -> Token: ...
    def token_for(self, cid: str) -> Token | None: ...
    def character_of(self, tid: str) -> Character: ...
    def cover_av(self) -> dict[str, int]: ...
    def walls(self) -> WallIndex: ...
    def hex_label(self, h: Hex) -> str: ...
    def ap_available(self, character_id: str) -> int | None: ...


class Table:
    """One encounter in play (see the module docstring); a :class:`TableView`."""

    def __init__(
        self,
        encounter: Encounter,
        map_: Map | None = None,
        *,
        source: Path | None = None,
        gear: GearCatalog | None = None,
    ) -> None:
        if map_ is None:
            if encounter.map is None:
                raise LoadError(source or "encounter", "the map it refers to was not loaded")
            map_ = encounter.map
        self.encounter: Encounter = encounter
        self.map: Map = map_
        #: the encounter's file (None: never saved); its deck file is read beside it
        self.source = source
        self.edition: Edition = load_edition(encounter.edition)
        self.gear: GearCatalog = gear if gear is not None else load_gear()
        self.deck: Deck = make_deck(encounter, source)
        self.time: Clock | None = None
        if encounter.mode == "action":
            self.time = self._clock(encounter.action_state)
        self.steps: list[Step] = []
        #: how many of :attr:`steps` are done (the rest can be redone)
        self.position = 0
        self._next_seq = 1
        self._running: Step | None = None
        self._walls: WallIndex | None = None
        self.listeners: list[Listener] = []
        #: the last copy a snapshot took of each object (shared while unchanged)
        self.copies = Copies()
        #: what each posse character has seen this session (the players' pages)
        self.sight = SightRecord()
        self._tokens_follow_sheets()

    # -- reading ------------------------------------------------------------------------

    @property
    def track(self) -> Any:
        """The edition's action-time engine (ActionTrack or PhaseRound), or None."""
        return self.time.engine if self.time is not None else None

    @property
    def in_action(self) -> bool:
        return self.encounter.mode == "action" and self.time is not None

    def character(self, cid: str) -> Character:
        return self.encounter.character(cid)

    def token(self, tid: str) -> Token:
        return self.encounter.token(tid)

    def token_for(self, cid: str) -> Token | None:
        return self.encounter.token_for(cid)

    def character_of(self, tid: str) -> Character:
        return self.encounter.character(self.encounter.token(tid).character_id)

    def actor(self, who: str) -> tuple[Character, Token | None]:
        """A character and its token from a token id or a character id."""
        enc = self.encounter
        for t in enc.tokens:
            if t.id == who:
                return enc.character(t.character_id), t
        for c in enc.characters:
            if c.id == who:
                return c, enc.token_for(c.id)
        raise RulesError(f"There is no token or character {who!r} in this encounter.")

    def cover_av(self) -> dict[str, int]:
        return self.edition.cover_av

    def walls(self) -> WallIndex:
        """The map's wall index, built on first use and after any map change."""
        if self._walls is None:
            self._walls = WallIndex(self.map, self.cover_av())
        return self._walls

    def walls_if_built(self) -> WallIndex | None:
        """The wall index when it is built and current (None: the next :meth:`walls`
        builds it)."""
        return self._walls

    def map_changed(self) -> None:
        """The map's walls or ground changed (the editor): the wall index is stale."""
        self._walls = None

    def hex_label(self, h: Hex) -> str:
        """A hex as the map shows it ("C7")."""
        return offset_label(h, self.map.orientation)

    def now(self) -> tuple[int, int]:
        """(round, segment or phase); (0, 0) in narrative time."""
        return self.time.now() if self.time is not None else (0, 0)

    def ap_available(self, character_id: str) -> int | None:
        """Counters the character has out on the track now (None outside AP v2 time)."""
        if not self.in_action or self.time is None:
            return None
        return self.time.counters(character_id)

    # -- the log ----------------------------------------------------------------------

    def make_log_entry(self, text: str, kind: str = "note", detail: dict | None = None) -> LogEntry:
        rnd, seg = self.now()
        return LogEntry(round=rnd, segment=seg, kind=kind, text=text, detail=detail)

    def log(self, text: str, kind: str = "note", detail: dict | None = None) -> None:
        """Add a line to the log: part of the running step, or a step of its own."""
        entry = self.make_log_entry(text, kind, detail)
        if self._running is not None:
            self.encounter.log.append(entry)
            return
        self.run(f"Log: {text[:40]}", lambda: self.encounter.log.append(entry), capture=())

    # -- steps ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._running is not None

    def run(
        self,
        label: str,
        mutate: Callable[[], Any],
        capture: Iterable[str] = ALL_AREAS,
        *,
        areas: Iterable[str] = (),
        action: dict[str, Any] | None = None,
        merge_key: Any = None,
        merge: bool = True,
        only: dict[str, set[str]] | None = None,
    ) -> Step:
        """Run ``mutate`` as one undoable step. If it raises, everything it touched
        is put back and the error propagates (nothing reaches the history).

        A step with a ``merge_key`` equal to the last step's joins it (one drag, one
        undo step) when ``merge`` is true; the window passes false where its undo
        stack will not merge (right after a save)."""
        if self._running is not None:  # a step inside a step is part of it
            mutate()
            return self._running
        if not self.sight.started:  # what the posse saw before the session's first step
            self.sight.look(self)
        capture = set(capture) | {"log"}
        before = Snapshot(self, capture, only)
        step = Step(self._next_seq, label, before, before, action=action, merge_key=merge_key)
        step.areas = set(areas)
        self._running = step
        try:
            result = mutate()
            self._seat_newcomers()
        except BaseException:
            before.restore(self)
            self._after_restore()
            raise
        finally:
            self._running = None
        if isinstance(result, TableEvent):
            step.event = result
        step.after = Snapshot(self, capture, only)
        for area in before.order:
            if before.order[area] != step.after.order[area]:  # a narrowed step may not
                before.restore(self)  # add or remove objects: put everything back
                self._after_restore()
                raise RulesError(f"'{label}' changed which {area} exist (internal error).")
        step.after.keep_log_since(before, self)
        step.note_changes()
        if step.features:
            self._walls = None
        self._after_change()
        top = self.steps[self.position - 1] if self.position else None
        del self.steps[self.position :]
        if merge and merge_key is not None and top is not None and top.merge_key == merge_key:
            step.seq = top.seq
            step.before = top.before
            step.after.log_len = top.before.log_len
            step.after.log_tail = list(self.encounter.log[top.before.log_len :])
            step.tokens |= top.tokens
            step.characters |= top.characters
            step.features |= top.features
            step.areas |= top.areas
            self.steps[self.position - 1] = step
            self._tell("merge", step)
            return step
        self._next_seq += 1
        self.steps.append(step)
        self.position = len(self.steps)
        self._tell("do", step)
        return step

    def undo_step(self, step: Step) -> None:
        """Take ``step`` back (the window's undo stack calls this, in order)."""
        step.before.restore(self)
        self._after_restore(walls=bool(step.features))
        if step in self.steps:
            self.position = self.steps.index(step)
        self._tell("undo", step)

    def redo_step(self, step: Step) -> None:
        step.after.restore(self)
        self._after_restore(walls=bool(step.features))
        if step in self.steps:
            self.position = self.steps.index(step) + 1
        self._tell("redo", step)

    def can_undo(self) -> bool:
        return self.position > 0

    def can_redo(self) -> bool:
        return self.position < len(self.steps)

    def undo(self) -> Step:
        if not self.can_undo():
            raise RulesError("There is nothing to undo.")
        step = self.steps[self.position - 1]
        self.undo_step(step)
        return step

    def redo(self) -> Step:
        if not self.can_redo():
            raise RulesError("There is nothing to redo.")
        step = self.steps[self.position]
        self.redo_step(step)
        return step

    def _tell(self, what: str, step: Step) -> None:
        self.sight.look(self)
        for listener in list(self.listeners):
            listener(what, step)

    def _seat_newcomers(self) -> None:
        """Inside a step: characters added during action time (an NPC, a gang from the
        library) get their row on the track or in the Phases round at once."""
        if self.time is None:
            return
        rows = self.time.state.rows
        new = [c for c in self.encounter.characters if c.id not in rows]
        if not new:
            return
        self.time.update_characters(self.encounter.characters)
        for c in new:
            ev = self.time.engine.arrive(c.id)
            self.encounter.log.append(
                self.make_log_entry(" · ".join([ev.summary, *ev.details]), "track")
            )

    def _after_change(self) -> None:
        if self.time is not None:
            self.time.update_characters(self.encounter.characters)

    def _after_restore(self, walls: bool = True) -> None:
        """After a snapshot is put back: the wall index is dropped when ``walls`` (a
        restored map feature may have moved or changed AV) — not for a step that
        changed no feature: rebuilding it took about 100 ms on a 200×200 map, and
        every undo of a move read it again (the sight record)."""
        if walls:
            self._walls = None
        self._after_change()

    # -- actions ----------------------------------------------------------------------

    def why_not(self, action: Any) -> str | None:
        """Why ``action`` cannot be applied now (a sentence naming the rule and its
        seed page, and what would make it legal), or None. Changes nothing."""
        try:
            return self.routed(action).why_not(self)
        except RulesError as e:
            return str(e)

    def routed(self, action: Any) -> Any:
        """The action as the table takes it now (see :data:`ROUTE_ACTION`)."""
        load_families()  # every family's hooks in place (once; play/__init__.py)
        for route in ROUTE_ACTION:
            action = route(self, action)
        return action

    def cost(self, action: Any) -> Any:
        return action.cost(self)

    def preview(self, action: Any) -> Any:
        return action.preview(self)

    def apply(self, action: Any, *, merge_key: Any = None, merge: bool = True) -> TableEvent:
        """Apply a typed action as one step; RulesError (with ``why_not``'s sentence)
        when it is not legal now, and then nothing changes."""
        action = self.routed(action)
        reason = self.why_not(action)
        if reason:
            raise RulesError(reason)
        expand = getattr(action, "expand", None)
        if callable(expand):
            return self._apply_expanded(expand(self))
        holder: list[TableEvent] = []

        def go() -> TableEvent:
            ev = action.apply(self)
            holder.append(ev)
            for hook in AFTER_ACTION:
                hook(self, action, ev)
            return ev

        self.run(
            action.label(self),
            go,
            action.capture(),
            areas=action.areas(),
            action=action.journal_form(),
            merge_key=merge_key,
            merge=merge,
            only=action.touches(self),
        )
        return holder[0]

    def _apply_expanded(self, actions: Iterable[Any]) -> TableEvent:
        """An action that stands for others (the NPC autopilot's ``autopilot``): each
        applied as the ordinary step it is, so the journal holds them and a replay
        never needs what produced them. One refused puts back the ones before it."""
        done = 0
        texts = []
        try:
            for a in actions:
                texts.append(self.apply(a).line())
                done += 1
        except RulesError:
            for _ in range(done):
                self.undo()
            raise
        return TableEvent(" · ".join(t for t in texts if t) or "nothing to do")

    # -- action time ------------------------------------------------------------------

    def _clock(self, state: dict | None) -> Clock:
        return make_clock(
            self.edition,
            self.encounter.characters,
            self.deck,
            self.encounter.options,
            state,
            str(self.source or "encounter"),
        )

    def begin_action_time(self) -> None:
        """Inside a step: the track (or Phases round) takes over."""
        if self.in_action:
            raise RulesError("Action time is already running.")
        self.time = self._clock(None)
        self.encounter.mode = "action"
        self.encounter.action_state = None

    def finish_action_time(self) -> None:
        """Inside a step: back to narrative time."""
        if not self.in_action and self.encounter.mode != "action":
            raise RulesError("The encounter is already in narrative time.")
        self.time = None
        self.encounter.mode = "narrative"
        self.encounter.action_state = None
        for t in self.encounter.tokens:
            if t.moved or t.running:
                t.moved = 0
                t.running = False

    def restore_time(self, snap: Any, mode: str, action_state: dict | None) -> None:
        """Put the clock back as a snapshot had it (the deck is restored apart)."""
        enc = self.encounter
        enc.mode = mode  # type: ignore[assignment]
        enc.action_state = action_state
        if snap is None:
            self.time = None
            return
        clock, state = snap
        clock.restore(state)
        self.time = clock

    def set_rules(self, edition_id: str, options: Any) -> None:
        """The edition and the optional rules (inside a step, or restoring one)."""
        enc = self.encounter
        enc.edition = edition_id  # type: ignore[assignment]
        enc.options = options
        self.edition = load_edition(edition_id)
        if self.time is not None:
            self.time.engine.options = options

    def set_time_from_state(self, mode: str, state: dict | None) -> None:
        """Inside a step: the mode and the clock from saved JSON (journal patches)."""
        enc = self.encounter
        enc.mode = mode  # type: ignore[assignment]
        enc.action_state = None
        self.time = self._clock(state) if mode == "action" else None

    # -- saving -------------------------------------------------------------------------

    def sync_to_model(self) -> None:
        """Write the deck's and the clock's live state into the encounter for saving."""
        self.encounter.deck_state = self.deck.snapshot().model_dump(mode="json")
        self.encounter.action_state = self.time.state_dict() if self.time is not None else None

    def state_fingerprint(self) -> dict[str, Any]:
        """Everything a replay must reproduce, as plain JSON (tests compare these)."""
        self.sync_to_model()
        data = self.encounter.model_dump(mode="json", exclude={"map", "map_ref"})
        data["features"] = [f.model_dump(mode="json") for f in self.map.features]
        return data

    def _tokens_follow_sheets(self) -> None:
        """The sheet's posture is the truth and tokens mirror it (an older file may
        have them disagree)."""
        chars = {c.id: c for c in self.encounter.characters}
        for t in self.encounter.tokens:
            c = chars.get(t.character_id)
            if c is not None and t.posture != c.posture:
                t.posture = c.posture
