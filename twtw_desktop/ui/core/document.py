"""The open encounter as the window sees it: a thin Qt adapter over the table.

The game itself lives in a :class:`~twtw_desktop.play.table.Table` (no Qt): the
encounter, the map, the deck, the action-time clock, the log and the undo history.
This document adds what only a window needs — Qt signals, the :class:`QUndoStack`
whose commands wrap the table's steps, the selection and the map view — and reads
and writes files through :mod:`twtw_desktop.io`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ...errors import LoadError, RulesError
from ...io.journal import bytes_fingerprint, journal_path, set_aside
from ...model import Encounter, LogEntry, Map
from ...model.encounter import Token
from ...play.table import Table
from ...rules.character import Character
from ...rules.deck import Deck
from ...rules.editions import Edition
from ...rules.gear import GearCatalog, default_gear
from .commands import AppendLogCommand, TableActionCommand
from .datadir import unsaved_journal

if TYPE_CHECKING:
    from ...play.journal import Journal, ReplayResult

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
    #: a table step's signals (ids, then areas) are all out: a panel that gathered
    #: them while ``announcing_step`` refreshes once
    stepAnnounced = Signal()
    selectionChanged = Signal(object)
    #: F6's run on stopped and the character it stops at is selected (``_show_stop``,
    #: posted after the step): a panel that reads the table for the selected figure
    #: waited for this (``stop_due``) rather than reading for the last one first
    stopShown = Signal()
    #: AP v2: a run stopped at a declared attack that waits for the Judge's choices
    #: (its table action's journal form): the attack panel shows it
    attackDue = Signal(object)
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
        self.path: Path | None = Path(path) if path is not None else None
        if map_ is None and encounter.map is None:
            raise LoadError(self.path or "encounter", "the map it refers to was not loaded")
        #: the separate map file when the encounter refers to one (``map_ref``)
        self.map_path: Path | None = Path(map_path) if map_path is not None else None
        #: "encounter", or "map" when a bare map file is open (the editor's case):
        #: saving then writes a map file, never an encounter over the map
        self.kind: str = "encounter"
        self._map_edits = 0
        #: a table step's signals are going out (commands.announce_step): the table
        #: has already dropped its wall index if the step changed a map feature
        self.announcing_step = False
        #: a run on (F6) was applied and its stop is still to be shown (stopShown)
        self.stop_due = False
        self.undo_stack = QUndoStack(self)
        #: the game at the table: everything that changes game state goes through it
        self.table = Table(encounter, map_, source=self.path, gear=_load_gear())
        #: the session journal (started by the window once recovery was offered)
        self.journal: Journal | None = None
        #: the file an untitled copy was made from (a bundled sample)
        self.origin: Path | None = None
        self.selected_token_id: str | None = None
        #: AP v2: once the selected character has acted and must wait for counters,
        #: select whoever is due next (the window sets it from Preferences)
        self.follow_track = False
        #: AP v2: the Judge ran on (F6): after each decision the run goes on by itself
        #: until the next stop (cleared by F5, Shift+F6 and the round's end)
        self.running_on = False
        #: the map view showing this document (set by the view; None in tests without one)
        self.map_view: Any = None
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.changed.connect(self._note_area)
        self.featureChanged.connect(self._note_feature)

    # -- construction ------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, parent: QObject | None = None) -> EncounterDocument:
        """Open an encounter file (or a bare map file, as an encounter with no one on
        it). Raises :class:`LoadError` with a message naming the file and the field."""
        from ... import io as io_mod

        path = Path(path)
        opened = io_mod.open_any(path)  # one parse, every check validate makes
        try:
            doc = cls(
                opened.encounter,
                path=path,
                map_=opened.map,
                map_path=opened.map_path,
                parent=parent,
            )
            doc.kind = opened.kind
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
        self.origin = self.path
        self.path = None
        if self.encounter.map_ref is not None:
            # both fields change together (the model forbids having both or neither)
            self.encounter.assign_fields({"map": self.map, "map_ref": None})
        self.map_path = None
        self.changed.emit("file")

    # -- state (the table's) ---------------------------------------------------------

    @property
    def encounter(self) -> Encounter:
        return self.table.encounter

    @property
    def map(self) -> Map:
        return self.table.map

    @property
    def deck(self) -> Deck:
        return self.table.deck

    @property
    def track(self) -> Any:
        """The action-time engine (ActionTrack or PhaseRound), None in narrative time."""
        return self.table.track

    @property
    def gear(self) -> GearCatalog:
        return self.table.gear

    @property
    def edition(self) -> Edition:
        return self.table.edition

    @edition.setter
    def edition(self, value: Edition) -> None:
        self.table.edition = value

    @property
    def mode(self) -> str:
        return self.encounter.mode

    @property
    def in_action(self) -> bool:
        return self.table.in_action

    @property
    def title(self) -> str:
        return self.path.name if self.path else self.encounter.name

    def character(self, cid: str) -> Character:
        return self.table.character(cid)

    def token(self, tid: str) -> Token:
        return self.table.token(tid)

    def token_for(self, cid: str) -> Token | None:
        return self.table.token_for(cid)

    def character_of(self, tid: str) -> Character:
        """The character a token stands for."""
        return self.table.character_of(tid)

    def selected_token(self) -> Token | None:
        if self.selected_token_id is None:
            return None
        try:
            return self.encounter.token(self.selected_token_id)
        except KeyError:
            return None

    def cover_av(self) -> dict[str, int]:
        return self.table.cover_av()

    def hex_label(self, h: Any) -> str:
        return self.table.hex_label(h)

    def walls(self) -> Any:
        """The map's wall index (geometry), built on first use and rebuilt after any
        map or feature change."""
        return self.table.walls()

    # -- editing -------------------------------------------------------------------

    def push(self, command: QUndoCommand) -> None:
        """Apply a command and put it on the undo stack.

        Commands with a ``prepare()`` (all of ours) apply and validate *before* the
        push, so a request the rules refuse raises here — with a clear message — and
        leaves both the model and the stack untouched.
        """
        prepare = getattr(command, "prepare", None)
        acted = None
        if self.follow_track:
            from ...play.combat_actions import moves_on_after

            if moves_on_after(getattr(command, "action", None)):
                acted = self._selected_counters()
        if prepare is not None:
            prepare()
        self.undo_stack.push(command)
        if acted is not None:
            # after the command's caller is done with it (a panel finishing its Apply)
            QTimer.singleShot(0, lambda: self._follow_track(*acted))

    def _selected_counters(self) -> tuple[str, int] | None:
        """(character id, AP paid this round) of the selected token, AP v2."""
        tok = self.selected_token()
        if tok is None or self.table.time is None or self.table.time.kind != "segments":
            return None
        row = self.table.track.state.rows.get(tok.character_id)
        return None if row is None else (tok.character_id, row.spent)

    def _follow_track(self, character_id: str, before: int) -> None:
        """The selected character paid for a move or an attack and cannot act again
        yet: select the character due next (the track's own order), so the Judge goes
        on with them. (An aim, a draw or a reload leads into that character's next
        action: the selection stays.)"""
        from ...play.track_actions import due_next, is_due

        now = self._selected_counters()
        if now is None or now[0] != character_id or now[1] <= before:
            return
        if is_due(self.table, character_id):
            return
        nxt = due_next(self.table)
        tok = self.token_for(nxt) if nxt is not None else None
        if tok is not None and tok.id != self.selected_token_id:
            self.select(tok.id)

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
        """Add a line to the encounter log: part of the table step running now (undone
        with it), or pushed as its own undoable step."""
        if self.table.running:
            self.table.log(text, kind, detail)
            return
        self.push(AppendLogCommand(self, self.make_log_entry(text, kind, detail)))

    def make_log_entry(self, text: str, kind: str = "note", detail: dict | None = None) -> LogEntry:
        return self.table.make_log_entry(text, kind, detail)

    def emit_all(self) -> None:
        self.changed.emit("all")

    def show_players(self, kind: str, payload: Any = None) -> None:
        """Push something to the players' screen (if one is open): ``"card"`` with a
        Card, ``"cover_line"`` with ``(shooter_hex, target_hex)``, ``"scatter"`` with
        ``(thrower_hex, target_hex, landing_hex)``, ``"focus"`` with a Hex or a token
        id, ``"covering"`` with ``{"hexes": [[q, r], …], "shooter": [q, r]}`` (a covered
        area), ``"clear"`` to take pushed things down. Not an edit: nothing is undone."""
        self.playersShow.emit(kind, payload)

    # -- action time -----------------------------------------------------------------

    def start_action_time(self) -> None:
        """Declare action time: the track (or Phases round) takes over (undoable)."""
        from ...play.actions import StartActionTime  # lazy: start-up

        self.apply(StartActionTime())

    def end_action_time(self) -> None:
        """Return to narrative time (undoable)."""
        from ...play.actions import EndActionTime  # lazy: start-up

        self.apply(EndActionTime())

    def apply(self, action: Any, *, merge_key: Any = None) -> Any:
        """Apply a table action as one undo step; RulesError (and nothing changes)
        when the table refuses it. Returns the table's event."""
        from ...play.declarations import RunOn  # lazy: start-up

        cmd = TableActionCommand(self, action, merge_key=merge_key)
        # a run on's stop is shown (its character selected) right after: see stopShown
        self.stop_due = isinstance(action, RunOn)
        try:
            self.push(cmd)
        except BaseException:
            self.stop_due = False
            raise
        self._after_step(action)
        return cmd.event

    def _after_step(self, action: Any) -> None:
        """AP v2: after a run stops, the character the Judge deals with is selected
        (the first who may declare, or the shooter whose result waits); once the
        Judge has applied the result it stopped for, or passed, the run goes on by
        itself (F6 started it)."""
        from ...play.combat_actions import _AttackAction
        from ...play.declarations import PassTurn, RunOn

        if isinstance(action, RunOn):
            QTimer.singleShot(0, self._show_stop)
        elif self.running_on and isinstance(action, PassTurn | _AttackAction):
            # the decision the run stopped for is made (a declaration at a stop is not:
            # the Judge may give that character more, then F6 runs on)
            QTimer.singleShot(0, self.go_on)

    def go_on(self) -> None:
        """Go on with the run F6 started once what it stopped for is answered (a
        pass, a result applied, a phone's approved answer); where the table will not
        run on, show the stop."""
        from ...play.declarations import RunOn

        if not self.running_on or self.table.why_not(RunOn()) is not None:
            self._show_stop()
            return
        try:
            self.apply(RunOn())
        except RulesError:
            self.running_on = False

    def _show_stop(self) -> None:
        try:
            self._select_stop()
        finally:
            self.stop_due = False
            self.stopShown.emit()

    def _select_stop(self) -> None:
        """Select the character the run stopped at (or the one due next)."""
        from ...play.declarations import decision_waiting
        from ...play.track_actions import due_next

        clock = self.table.time
        if clock is None or clock.kind != "segments":
            return
        t = self.table.track
        if not clock.round_running() or t.round_over:
            self.running_on = False
        if decision_waiting(self.table):
            entry = t.unperformed()[0]
            tok = self.token_for(entry.character_id)
            if tok is not None:
                self.select(tok.id)
            self.attackDue.emit(entry.intent)
            return
        if not self.follow_track:
            return
        nxt = due_next(self.table)
        tok = self.token_for(nxt) if nxt is not None else None
        if tok is not None and tok.id != self.selected_token_id:
            self.select(tok.id)

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
        return self.table.ap_available(character_id)

    # -- the session journal -------------------------------------------------------------

    def journal_file(self) -> Path | None:
        """Where this encounter's journal lives: beside its file, or for an untitled
        copy of a sample in the app's data folder (None: a new encounter never saved,
        or a bare map, which the editor's autosave keeps instead)."""
        if self.kind != "encounter":
            return None
        if self.path is not None:
            return journal_path(self.path)
        if self.origin is not None:
            return unsaved_journal(self.origin)
        return None

    def journal_base(self) -> Path | None:
        """The saved file the journal continues."""
        return self.path if self.path is not None else self.origin

    def start_journal(self) -> None:
        """Journal every table step from now on (a fresh journal continuing the file
        on disk). A journal that cannot be written is said in the log, never fatal."""
        self.stop_journal(keep=True)
        from ...play.journal import Journal  # lazy: start-up (after the first frame)

        jp = self.journal_file()
        if jp is None:
            return
        try:
            self.journal = Journal(
                self.table,
                jp,
                self.journal_base(),
                title=self.encounter.name,
                map_file=self.map_path,
            )
        except LoadError as e:
            log.warning("no session journal: %s", e)
            self.journal = None

    def stop_journal(self, *, keep: bool) -> Path | None:
        """Stop journaling. ``keep``: leave the file (unsaved steps are in it), set
        aside under a new name so it is not offered again; otherwise delete it (what
        it held is saved). Returns where a kept journal went."""
        j = self.journal
        self.journal = None
        if j is None:
            return None
        if not keep:
            j.discard()
            return None
        j.close()
        if j.lines and j.path.exists():
            return set_aside(j.path, "unsaved")
        j.discard()
        return None

    def replay(
        self, lines: list[dict], progress: Callable[[int], bool] | None = None
    ) -> ReplayResult:
        """Apply journal lines through the undo stack (each one undoable as if the
        Judge had done it); ``progress`` as for :func:`~twtw_desktop.play.journal.replay`."""
        from ...play.journal import replay  # lazy: start-up

        return replay(
            self.table,
            lines,
            progress,
            do=lambda action, merge: self.apply(action, merge_key=merge),
            undo=self.undo_stack.undo,
            redo=self.undo_stack.redo,
        )

    # -- files -------------------------------------------------------------------------

    def is_dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def sync_to_model(self) -> None:
        """Write the deck's and the track's live state into the encounter for saving."""
        self.table.sync_to_model()

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
            from ... import io as io_mod

            io_mod.save_map(self.map, target)
            self._map_edits = 0
            self.path = target
            self.undo_stack.setClean()
            self.changed.emit("file")
            return
        from ... import io as io_mod

        # the journal hand-over, safe to be killed at every instant: the journal
        # notes the bytes about to be saved, the file is written, then a fresh
        # journal continuing those bytes replaces the old one (io.journal)
        saved: list[dict] = []
        written = io_mod.save_encounter_with_map(
            self.encounter,
            self.map,
            target,
            map_path=self.map_path,
            write_map=bool(self._map_edits),
            before_write=lambda blob: saved.append(self._note_saving(blob, target)),
        )
        if written.map_ref != self.encounter.map_ref:
            self.encounter.map_ref = written.map_ref  # Save As into another folder
        self._map_edits = 0
        journaling = self.journal is not None
        moved = journaling and self.journal_file() != (
            journal_path(target) if self.kind == "encounter" else None
        )
        self.path = target
        if journaling and moved:
            self.stop_journal(keep=False)  # Save As: the journal moves beside the file
            self.start_journal()
        elif self.journal is not None:
            try:
                self.journal.start(target, saved[0] if saved else None)
            except LoadError as e:
                log.warning("no session journal: %s", e)
                self.stop_journal(keep=False)
        self.undo_stack.setClean()
        self.changed.emit("file")

    def _note_saving(self, blob: bytes, target: Path) -> dict:
        fp = bytes_fingerprint(blob)
        if self.journal is not None and self.journal_file() == journal_path(target):
            self.journal.saving(fp)
        return fp

    def _on_clean_changed(self, _clean: bool) -> None:
        self.changed.emit("file")

    def _note_feature(self, _fid: str) -> None:
        self._map_edits += 1
        self.table.map_changed()

    def _note_area(self, area: str) -> None:
        if area in ("map", "all"):
            self._map_edits += 1
            if not self.announcing_step:  # (a table step: Table.run saw to the walls)
                self.table.map_changed()
        if area in ("characters", "all") and self.table.time is not None:
            self.table.time.update_characters(self.encounter.characters)


# -- adaptors to io ---------------------------------------------------------------------


def _load_gear() -> GearCatalog:
    try:
        return default_gear()
    except LoadError as e:  # the app must still open to show the Judge what is wrong
        log.warning("gear catalog unavailable: %s", e)
        return GearCatalog(weapons={})
