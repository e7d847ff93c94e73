"""The open encounter as one undoable document (the app's single source of truth).

Scene items and panels are views over :class:`EncounterDocument`: they read the model
through it, listen to its signals and change it only by pushing commands
(:mod:`twtw_desktop.ui.commands`) onto its one :class:`QUndoStack`. Undoing a move
gives the AP back to the action track; undoing a shot puts the card back on the pile,
because the compound commands snapshot the deck and the track as well as the sheets.

The rules engines this document drives (deck, action track, Phases round, io) are
plain Python written elsewhere; the small adaptor functions at the bottom of this
module are the only place that knows their constructors and state accessors.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..errors import LoadError, RulesError
from ..model import Encounter, LogEntry, Map
from ..model.encounter import Token
from ..rules.character import Character
from ..rules.editions import Edition, load_edition
from ..rules.gear import GearCatalog, default_gear

log = logging.getLogger(__name__)

#: Areas the ``changed`` signal names.
AREAS = ("map", "tokens", "characters", "deck", "track", "log", "mode", "file", "all")

#: Size of the map a "File > New encounter" starts with (hexes).
NEW_MAP_COLS = 30
NEW_MAP_ROWS = 20


class EncounterDocument(QObject):
    """One encounter being run: the model, its deck and action time, and the undo stack."""

    changed = Signal(str)
    tokenChanged = Signal(str)
    characterChanged = Signal(str)
    featureChanged = Signal(str)
    selectionChanged = Signal(object)
    #: the token under the mouse on the map (None when it leaves); panels may light
    #: up the matching row
    tokenHovered = Signal(object)
    #: something the Judge pushed to the players' screen: (kind, payload) with kind
    #: "card" | "cover_line" | "scatter" | "focus" | "clear" (see :meth:`show_players`)
    playersShow = Signal(str, object)

    def __init__(
        self,
        encounter: Encounter,
        *,
        path: str | os.PathLike | None = None,
        map_: Map | None = None,
        map_path: str | os.PathLike | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.encounter: Encounter = encounter
        self.path: Path | None = Path(path) if path is not None else None
        if map_ is None:
            if encounter.map is None:
                raise LoadError(self.path or "encounter", "the map it refers to was not loaded")
            map_ = encounter.map
        self.map: Map = map_
        #: the separate map file when the encounter refers to one (``map_ref``)
        self.map_path: Path | None = Path(map_path) if map_path is not None else None
        #: "encounter", or "map" when a bare map file is open (the editor's case):
        #: saving then writes a map file, never an encounter over the map
        self.kind: str = "encounter"
        self._map_edits = 0
        self._walls: Any = None
        self.undo_stack = QUndoStack(self)
        self.edition: Edition = load_edition(encounter.edition)
        self.gear: GearCatalog = _load_gear()
        self.deck = make_deck(encounter, self.path)
        self.track: Any = None
        if encounter.mode == "action":
            self.track = make_track(self, encounter.action_state)
        self.selected_token_id: str | None = None
        _tokens_follow_sheets(encounter)
        #: the map view showing this document (set by the view; None in tests without one)
        self.map_view: Any = None
        #: the SnapshotCommand whose mutation is running (log() then appends directly)
        self._in_command: QUndoCommand | None = None
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.changed.connect(self._note_area)
        self.featureChanged.connect(self._note_feature)

    # -- construction ------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, parent: QObject | None = None) -> EncounterDocument:
        """Open an encounter file (or a bare map file, as an encounter with no one on
        it). Raises :class:`LoadError` with a message naming the file and the field."""
        path = Path(path)
        encounter, map_, map_path = load_any(path)
        try:
            doc = cls(encounter, path=path, map_=map_, map_path=map_path, parent=parent)
            if encounter.map is map_ and map_path is None and _is_map_file(path):
                doc.kind = "map"
            return doc
        except LoadError:
            raise
        except (RulesError, ValueError, KeyError, TypeError, ImportError) as e:
            raise LoadError(path, f"cannot be set up for play ({e})") from e

    @classmethod
    def new(
        cls,
        cols: int = NEW_MAP_COLS,
        rows: int = NEW_MAP_ROWS,
        parent: QObject | None = None,
        **map_kw: Any,
    ) -> EncounterDocument:
        """A fresh encounter on a blank map."""
        m = Map.blank(cols, rows, name="New map", **map_kw)
        enc = Encounter(name="New encounter", map=m)
        return cls(enc, parent=parent)

    def make_untitled(self) -> None:
        """Detach from the files it came from (a bundled sample): Save then asks where
        to put it, and a referenced map moves inside the encounter, so nothing is ever
        written into the app's own sample folder."""
        self.path = None
        if self.encounter.map_ref is not None:
            # both fields change together (the model forbids having both or neither)
            self.encounter.__dict__["map"] = self.map
            self.encounter.__dict__["map_ref"] = None
        self.map_path = None
        self.changed.emit("file")

    # -- state -------------------------------------------------------------------

    @property
    def mode(self) -> str:
        return self.encounter.mode

    @property
    def in_action(self) -> bool:
        return self.encounter.mode == "action" and self.track is not None

    @property
    def title(self) -> str:
        return self.path.name if self.path else self.encounter.name

    def character(self, cid: str) -> Character:
        return self.encounter.character(cid)

    def token(self, tid: str) -> Token:
        return self.encounter.token(tid)

    def token_for(self, cid: str) -> Token | None:
        return self.encounter.token_for(cid)

    def character_of(self, tid: str) -> Character:
        """The character a token stands for."""
        return self.encounter.character(self.encounter.token(tid).character_id)

    def selected_token(self) -> Token | None:
        if self.selected_token_id is None:
            return None
        try:
            return self.encounter.token(self.selected_token_id)
        except KeyError:
            return None

    def cover_av(self) -> dict[str, int]:
        return self.edition.cover_av

    def walls(self) -> Any:
        """The map's wall index (geometry), built on first use and rebuilt after any
        map or feature change."""
        if self._walls is None:
            from ..geometry.walls import WallIndex

            self._walls = WallIndex(self.map, self.cover_av())
        return self._walls

    # -- editing -------------------------------------------------------------------

    def push(self, command: QUndoCommand) -> None:
        """Apply a command and put it on the undo stack.

        Commands with a ``prepare()`` (all of ours) apply and validate *before* the
        push, so a request the rules refuse raises here — with a clear message — and
        leaves both the model and the stack untouched.
        """
        prepare = getattr(command, "prepare", None)
        if prepare is not None:
            prepare()
        self.undo_stack.push(command)

    def select(self, token_id: str | None) -> None:
        if token_id == self.selected_token_id:
            return
        if token_id is not None:
            self.encounter.token(token_id)  # KeyError for an unknown id
        self.selected_token_id = token_id
        self.selectionChanged.emit(token_id)

    def pick_target(self, callback: Callable[[str | None], None]) -> bool:
        """Ask the map to let the Judge click a target token; ``callback(token_id)``
        (None if cancelled). Returns False when no map view shows this document."""
        if self.map_view is None:
            return False
        self.map_view.pick_target(callback)
        return True

    def highlight_token(self, token_id: str | None, on: bool = True) -> None:
        """Light a token up on the map (the track panel's row hover)."""
        if self.map_view is not None:
            self.map_view.highlight_token(token_id, on)

    def log(self, text: str, kind: str = "note", detail: dict | None = None) -> None:
        """Add a line to the encounter log.

        Inside a running :class:`~twtw_desktop.ui.commands.SnapshotCommand` the line
        is part of that command (undone with it); otherwise it is pushed as its own
        undoable step.
        """
        entry = self.make_log_entry(text, kind, detail)
        if self._in_command is not None:
            self.encounter.log.append(entry)
            return
        from .commands import AppendLogCommand

        self.push(AppendLogCommand(self, entry))

    def make_log_entry(self, text: str, kind: str = "note", detail: dict | None = None) -> LogEntry:
        rnd, seg = track_time(self.track)
        return LogEntry(round=rnd, segment=seg, kind=kind, text=text, detail=detail)

    def emit_all(self) -> None:
        self.changed.emit("all")

    def show_players(self, kind: str, payload: Any = None) -> None:
        """Push something to the players' screen (if one is open): ``"card"`` with a
        Card, ``"cover_line"`` with ``(shooter_hex, target_hex)``, ``"scatter"`` with
        ``(thrower_hex, target_hex, landing_hex)``, ``"focus"`` with a Hex or a token
        id, ``"clear"`` to take pushed things down. Not an edit: nothing is undone."""
        self.playersShow.emit(kind, payload)

    # -- action time -----------------------------------------------------------------

    def start_action_time(self) -> None:
        """Declare action time: the track (or Phases round) takes over (undoable)."""
        if self.in_action:
            raise RulesError("Action time is already running.")
        from .commands import SnapshotCommand

        def go() -> None:
            self.track = make_track(self, None)
            self.encounter.mode = "action"
            self.log("Action time declared.", "round")

        self.push(SnapshotCommand(self, "Start action time", go, {"mode", "track", "log"}))

    def end_action_time(self) -> None:
        """Return to narrative time (undoable)."""
        if not self.in_action and self.encounter.mode != "action":
            raise RulesError("The encounter is already in narrative time.")
        from .commands import SnapshotCommand

        def stop() -> None:
            self.track = None
            self.encounter.mode = "narrative"
            self.encounter.action_state = None
            for t in self.encounter.tokens:
                t.moved = 0
                t.running = False
            self.log("Back to narrative time.", "round")

        self.push(
            SnapshotCommand(self, "Return to narrative time", stop, {"mode", "track", "tokens"})
        )

    def add_characters(
        self, characters: list[Character], tokens: list[Token], text: str = ""
    ) -> None:
        """Add characters and their tokens as one undo step (library, party import).

        Every id must be new and every token on a free hex of the map; otherwise a
        ValueError names the problem and nothing changes. (In action time the track
        gets no row from this; the track layer adds that.)
        """
        from .commands import SnapshotCommand

        enc = self.encounter
        ids = {c.id for c in enc.characters}
        new_ids = [c.id for c in characters]
        clash = sorted(ids & set(new_ids)) or sorted({i for i in new_ids if new_ids.count(i) > 1})
        if clash:
            raise ValueError(f"a character with the id {clash[0]!r} is already there")
        tids = {t.id for t in enc.tokens}
        taken = {tuple(t.hex) for t in enc.tokens}
        for t in tokens:
            if t.character_id not in set(new_ids) | ids:
                raise ValueError(f"token {t.id!r} belongs to nobody being added")
            if t.id in tids or tuple(t.hex) in taken or not self.map.contains(t.at):
                raise ValueError(f"token {t.id!r} cannot stand at {list(t.hex)}")
            tids.add(t.id)
            taken.add(tuple(t.hex))

        def add() -> None:
            enc.characters.extend(c.model_copy(deep=True) for c in characters)
            enc.tokens.extend(t.model_copy(deep=True) for t in tokens)
            names = ", ".join(c.name for c in characters)
            self.log(f"Added {names}.", "note")

        label = text or (
            f"Add {characters[0].name}"
            if len(characters) == 1
            else f"Add {len(characters)} characters"
        )
        self.push(
            SnapshotCommand(
                self, label, add, {"characters", "tokens"}, capture=("characters", "tokens")
            )
        )

    def ap_available(self, character_id: str) -> int | None:
        """Counters the character has out on the track now (None outside action time)."""
        if not self.in_action:
            return None
        return track_counters(self.track, character_id)

    # -- files -------------------------------------------------------------------------

    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def sync_to_model(self) -> None:
        """Write the deck's and the track's live state into the encounter for saving."""
        state = deck_state(self.deck)
        if state is not None:
            self.encounter.deck_state = state
        if self.track is not None:
            self.encounter.action_state = track_state_dict(self.track)
        else:
            self.encounter.action_state = None

    def save(self, path: str | os.PathLike | None = None) -> None:
        """Save atomically (via :mod:`twtw_desktop.io`); the stack becomes clean.

        A referenced map file is written too when the map changed (ablated cover,
        opened doors); Save As into another folder keeps pointing at the same map.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise LoadError("(unsaved encounter)", "choose a file name first (Save As…)")
        self.sync_to_model()
        if self.kind == "map" and target.name.endswith(".encounter.json"):
            self.kind = "encounter"  # Save As an encounter: the map goes inside it
        if self.kind == "map":
            save_map_file(self.map, target)
            self._map_edits = 0
            self.path = target
            self.undo_stack.setClean()
            self.changed.emit("file")
            return
        if self.encounter.map_ref is not None and self.map_path is not None and self._map_edits:
            save_map_file(self.map, self.map_path)
        save_encounter_file(self, target)
        self._map_edits = 0
        self.path = target
        self.undo_stack.setClean()
        self.changed.emit("file")

    def _on_clean_changed(self, _clean: bool) -> None:
        self.changed.emit("file")

    def _note_feature(self, _fid: str) -> None:
        self._map_edits += 1
        self._walls = None

    def _note_area(self, area: str) -> None:
        if area in ("map", "all"):
            self._map_edits += 1
            self._walls = None
        if area in ("characters", "all") and self.track is not None:
            update = getattr(self.track, "update_characters", None)
            if callable(update):
                update(self.encounter.characters)


def _tokens_follow_sheets(encounter: Encounter) -> None:
    """The sheet's posture is the truth and tokens mirror it (an older file may have
    them disagree)."""
    chars = {c.id: c for c in encounter.characters}
    for t in encounter.tokens:
        c = chars.get(t.character_id)
        if c is not None and t.posture != c.posture:
            t.posture = c.posture


# -- adaptors to the rules engines and io ---------------------------------------------
#
# The deck, the action track and the file functions are other modules' public APIs;
# these helpers are the one place the UI touches their construction and state.


def _load_gear() -> GearCatalog:
    try:
        return default_gear()
    except LoadError as e:  # the app must still open to show the Judge what is wrong
        log.warning("gear catalog unavailable: %s", e)
        return GearCatalog(weapons={})


def make_deck(encounter: Encounter, path: Path | None = None) -> Any:
    """The encounter's deck: the bundled (or a transcribed) 54 cards, seeded, with the
    saved draw/discard piles restored."""
    from ..rules.deck import Deck, DeckState, load_deck_file, standard_deck

    if encounter.deck_file:
        base = path.parent if path is not None else Path.cwd()
        cards = load_deck_file(base / encounter.deck_file)
        name = Path(encounter.deck_file).stem
    else:
        cards, name = standard_deck(), "standard"
    state = None
    if encounter.deck_state:
        try:
            state = DeckState.model_validate(encounter.deck_state)
        except ValueError as e:
            raise LoadError(
                path or "encounter", f"saved deck state is not valid ({e})", "deck_state"
            ) from e
    try:
        return Deck(cards, seed=encounter.deck_seed, state=state, name=name)
    except RulesError as e:
        raise LoadError(path or "encounter", str(e), "deck_state") from e


def deck_state(deck: Any) -> dict | None:
    """The deck's savable state (draw/discard order, seed) as plain data."""
    return deck.snapshot().model_dump(mode="json")


def deck_snapshot(deck: Any) -> Any:
    """The deck's state for undo (an immutable object, safe to keep)."""
    return deck.snapshot()


def deck_restore(deck: Any, snap: Any) -> None:
    deck.restore(snap)


def make_track(document: EncounterDocument, state: dict | None) -> Any:
    """The action-time engine for the encounter's edition: AP v2's action track or a
    Phases round, restored from ``state`` when given."""
    enc = document.encounter
    if document.edition.time == "segments":
        from ..rules.action_track import ActionTrack as Engine
        from ..rules.action_track import TrackState as StateModel
    else:
        from ..rules.phases import PhaseRound as Engine

        StateModel = _phase_state_model()
    st = None
    if state:
        try:
            st = StateModel.model_validate(state)
        except ValueError as e:
            where = document.path or "encounter"
            raise LoadError(
                where, f"saved action-time state is not valid ({e})", "action_state"
            ) from e
    return Engine(enc.characters, document.edition, document.deck, enc.options, state=st)


def _phase_state_model() -> Any:
    from ..rules import phases

    for name in ("PhaseState", "RoundState", "PhasesState"):
        if hasattr(phases, name):
            return getattr(phases, name)
    raise LoadError("phases", "the Phases engine exposes no state model")


def track_state_dict(track: Any) -> dict | None:
    st = track.state
    return st.model_dump(mode="json") if hasattr(st, "model_dump") else dict(st)


def track_snapshot(track: Any) -> Any:
    """(track object, its frozen state) — enough to put it back exactly."""
    if track is None:
        return None
    return (track, track.state)


def track_restore(snap: Any) -> Any:
    """Put a track back as it was; returns the track object (or None)."""
    if snap is None:
        return None
    track, st = snap
    # The deck is restored separately by the snapshot that holds this.
    track.restore(st)
    return track


def track_time(track: Any) -> tuple[int, int]:
    """(round, segment or phase) for log lines; (0, 0) in narrative time."""
    if track is None:
        return (0, 0)
    st = track.state
    rnd = getattr(st, "round", 0) or 0
    seg = getattr(st, "segment", None)
    if seg is None:
        seg = getattr(st, "phase", 0) or 0
    try:
        return (int(rnd), int(seg))
    except (TypeError, ValueError):
        return (0, 0)


def track_counters(track: Any, character_id: str) -> int | None:
    """Counters a character has out on the track (the AP it can spend now)."""
    fn = getattr(track, "counters", None)
    if not callable(fn):
        return None
    try:
        return int(fn(character_id))
    except (KeyError, RulesError, TypeError):
        return None


def load_any(path: Path) -> tuple[Encounter, Map, Path | None]:
    """Read an encounter file, or a map file opened as an empty encounter.

    Returns the encounter, its resolved map and the map's own file (None when
    embedded). Raises :class:`LoadError` only.
    """
    from .. import io as io_mod

    if not path.exists():
        raise LoadError(path, "file not found")
    if io_mod.detect_kind(path) == "map":
        m = io_mod.load_map(path)
        enc = Encounter(name=m.name, map=m)
        return enc, m, None
    loaded = io_mod.load_encounter(path)
    enc = loaded.encounter
    m = enc.map if enc.map is not None else loaded.map
    return enc, m, loaded.map_path


def _is_map_file(path: Path) -> bool:
    from .. import io as io_mod

    try:
        return io_mod.detect_kind(path) == "map"
    except LoadError:
        return False


def save_encounter_file(document: EncounterDocument, path: Path) -> None:
    from .. import io as io_mod

    enc = document.encounter
    if enc.map_ref is not None and document.map_path is not None:
        written = io_mod.save_encounter(
            io_mod.LoadedEncounter(enc, document.map, document.path or path, document.map_path),
            path,
        )
        if written.map_ref != enc.map_ref:
            enc.__dict__["map_ref"] = written.map_ref
    else:
        io_mod.save_encounter(enc, path)


def save_map_file(m: Map, path: Path) -> None:
    from .. import io as io_mod

    io_mod.save_map(m, path)
