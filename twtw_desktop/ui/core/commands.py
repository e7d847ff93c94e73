"""Undo commands: every edit of the encounter is one of these on the document's stack.

Habits (Tiled, orange-canvas-core): ``redo()`` is one model change followed by the
document's signals; a drag pushes *mergeable* moves so the whole drag is one undo
step; one generic :class:`ChangeValueCommand` serves every property editor.

Each command has a ``prepare()`` that :meth:`EncounterDocument.push` calls before the
push: it validates and applies the change, so a refused request raises a clear error
and nothing reaches the stack. The first ``redo()`` Qt makes on push then only
announces the change.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel, ValidationError
from PySide6.QtGui import QUndoCommand

from ...hexgrid import Hex
from ...model import LogEntry
from ...play.snapshot import ALL_AREAS, areas_changed
from ...play.table import Step as TableStep
from ...rules.character import Posture

#: the document the commands act on (ui.document.EncounterDocument, which imports this
#: module to push its own commands: not imported here, so there is no cycle)
EncounterDocument = Any

#: QUndoCommand ids for merging
MOVE_ID = 1001
CHANGE_ID = 1002


class DocumentCommand(QUndoCommand):
    """Base: holds the document; ``prepare()`` applies the change once before push."""

    def __init__(self, document: EncounterDocument, text: str) -> None:
        super().__init__(text)
        self.document = document
        self._prepared = False
        self._skip_redo = False

    def prepare(self) -> None:
        self.apply()
        self._prepared = True
        self._skip_redo = True

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            self.announce()
            return
        self.apply()
        self.announce()

    def undo(self) -> None:
        self.revert()
        self.announce()

    # subclasses
    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def announce(self) -> None:
        pass


class TableStepCommand(DocumentCommand):
    """One step of the table on the window's undo stack.

    ``prepare()`` runs the step on the table (which validates it: a refused step
    raises and nothing reaches either history); undo and redo ask the table to put
    its before/after state back, then announce what changed so only the touched
    items repaint.
    """

    def __init__(self, document: EncounterDocument, text: str) -> None:
        super().__init__(document, text)
        self.step: TableStep | None = None

    def run_step(self) -> TableStep:
        raise NotImplementedError

    def apply(self) -> None:
        if self.step is None:
            self.step = self.run_step()
            if self.step.label and not self.text():
                self.setText(self.step.label)
        else:
            self.document.table.redo_step(self.step)

    def revert(self) -> None:
        assert self.step is not None
        self.document.table.undo_step(self.step)

    def announce(self) -> None:
        if self.step is not None:
            announce_step(self.document, self.step)


def qt_will_merge(doc: EncounterDocument) -> bool:
    """Whether the undo stack would merge a command pushed now into the one before
    (Qt never merges into the command at the clean index: right after a save)."""
    stack = doc.undo_stack
    return stack.index() > 0 and stack.index() != stack.cleanIndex()


def announce_step(doc: EncounterDocument, step: TableStep) -> None:
    """Emit the document's signals for what a table step changed. The table has
    already dropped its wall index where the step changed a map feature, so the
    document does not drop it again for a step shown as "all" (the run on F6), which
    rebuilt the walls several times a press."""
    doc.announcing_step = True
    try:
        _announce(doc, step)
    finally:
        doc.announcing_step = False
    doc.stepAnnounced.emit()


def _announce(doc: EncounterDocument, step: TableStep) -> None:
    areas = set(step.areas)
    for tid in sorted(step.tokens):
        doc.tokenChanged.emit(tid)
    for cid in sorted(step.characters):
        doc.characterChanged.emit(cid)
    for fid in sorted(step.features):
        doc.featureChanged.emit(fid)
    b, a = step.before, step.after
    if "all" in areas and step.action is not None:
        # a typed action changes only what its snapshots hold (the journal replays it
        # from them): name what it did change, so a run on that moved the figures
        # and counted the track does not rebuild the deck, the sheets and the map
        known = areas_changed(b, a)
        if known is not None:
            areas = (areas - {"all"}) | known
    if "all" in areas:
        doc.changed.emit("all")
        return
    if "tokens" in b.order and b.ids("tokens") == a.ids("tokens"):
        # a step that only moved or turned known tokens: their own signals say it all,
        # so two hundred figures are not all looked at again for one that moved
        areas.discard("tokens")
    for area in ("mode", "track", "deck", "characters", "tokens", "map", "log"):
        if area in areas:
            doc.changed.emit(area)


class SnapshotCommand(TableStepCommand):
    """The exact-undo command for compound changes made by hand (a sheet edit, a
    removed character, a deck panel step): ``mutate()`` runs as one table step.

    ``areas`` names what ``mutate`` changes (for the ``changed`` signal); ``capture``
    narrows what the step copies when a caller knows better. If ``mutate`` raises,
    everything is put back and the error propagates.
    """

    def __init__(
        self,
        document: EncounterDocument,
        text: str,
        mutate: Callable[[], None],
        areas: Iterable[str] = ("all",),
        *,
        capture: Iterable[str] | None = None,
    ) -> None:
        super().__init__(document, text)
        self._mutate = mutate
        self.areas = set(areas)
        if capture is None:
            capture = ALL_AREAS
        self._capture = set(capture) | {"log"}
        if "all" in self.areas:
            self._capture |= ALL_AREAS
        else:
            self._capture |= self.areas & ALL_AREAS
        self.merge_key: Any = None

    def run_step(self) -> TableStep:
        return self.document.table.run(
            self.text(), self._mutate, self._capture, areas=self.areas, merge_key=self.merge_key
        )


class TableActionCommand(TableStepCommand):
    """A typed table action (:mod:`twtw_desktop.play.actions`) as one undo step."""

    def __init__(self, document: EncounterDocument, action: Any, *, merge_key: Any = None) -> None:
        super().__init__(document, "")
        self.action = action
        self.merge_key = merge_key
        self.event: Any = None

    def run_step(self) -> TableStep:
        table = self.document.table
        self.event = table.apply(
            self.action, merge_key=self.merge_key, merge=qt_will_merge(self.document)
        )
        return table.steps[table.position - 1]

    def id(self) -> int:
        return MOVE_ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, TableActionCommand) or other.merge_key is None:
            return False
        if other.merge_key != self.merge_key or other.step is None:
            return False
        self.step = other.step  # the table merged the two steps already
        self.setText(other.text())
        return True


class MoveTokenCommand(TableActionCommand):
    """Put a token on a hex (and optionally turn it), free: the Judge's hand in
    narrative time, or a placement. Consecutive moves carrying the same ``drag_id``
    merge, so one drag is one undo step. Paid moves are :class:`TableActionCommand`
    of a ``move`` action (see :func:`twtw_desktop.ui.tools.select.push_move`)."""

    def __init__(
        self,
        document: EncounterDocument,
        token_id: str,
        to_hex: Hex | tuple[int, int],
        facing: int | None = None,
        *,
        drag_id: int | None = None,
        text: str | None = None,
    ) -> None:
        from ...play.actions import Place, ref_of  # lazy: start-up

        h = to_hex if isinstance(to_hex, Hex) else Hex(*to_hex)
        self.token_id = token_id
        self.to_hex = h
        self.facing = facing
        self.drag_id = drag_id
        action = Place(who=token_id, to=ref_of(document.table, h), facing=facing)
        key = str(("drag", drag_id, token_id)) if drag_id is not None else None
        super().__init__(document, action, merge_key=key)
        if text:
            self.setText(text)


class RotateTokenCommand(TableActionCommand):
    """Turn a token to a new facing (a ``face`` action: paid on the AP v2 track in
    action time, free otherwise)."""

    def __init__(
        self,
        document: EncounterDocument,
        token_id: str,
        facing: int,
        *,
        text: str | None = None,
    ) -> None:
        from ...play.actions import Face  # lazy: start-up

        self.token_id = token_id
        super().__init__(document, Face(who=token_id, facing=facing % 6))
        if text:
            self.setText(text)
        self.start_facing: int | None = None
        self.segment: tuple[int, int] | None = None
        self.paid = False


# =============================================================================
# Finding a model object again by ids (ChangeValueCommand)
# =============================================================================

#: One step of a :class:`Locator` path: ("attr", field name), ("id", the id of an
#: element of a list), ("index", position in a list or tuple), ("key", dict key).
Step = tuple[str, Any]

#: Top-level fields never searched for an edited object: big and never edited field
#: by field, or (the encounter's embedded ``map``) reached from the map root instead.
_SKIP_FIELDS = frozenset({"log", "action_state", "deck_state", "terrain", "elevation", "map"})


class Locator:
    """Where a model object lives in the document, as ids rather than a reference.

    The root is ``"map"`` (``document.map``) or ``"encounter"``; the path walks fields,
    list elements *by id* when they have one (features, labels, notes, markers,
    tokens, characters) and by position otherwise (a character's carried weapons),
    and dict keys. Resolving it at redo/undo time finds the object that is in the
    document *now* — the same one after an in-place restore, or the fresh copy put
    back when a removed character or feature is brought back by undo.
    """

    __slots__ = ("path", "root")

    def __init__(self, root: str, path: tuple[Step, ...] = ()) -> None:
        self.root = root
        self.path = path

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Locator) and (self.root, self.path) == (other.root, other.path)

    def __hash__(self) -> int:
        return hash((self.root, self.path))

    def __repr__(self) -> str:
        return f"Locator({self.root!r}, {self.path!r})"

    def describe(self) -> str:
        parts = [self.root]
        for kind, value in self.path:
            parts.append(f".{value}" if kind == "attr" else f"[{value!r}]")
        return "".join(parts)

    def resolve(self, document: EncounterDocument) -> Any:
        """The object this locator names in ``document`` now (LookupError if gone)."""
        obj: Any = document.map if self.root == "map" else document.encounter
        for kind, value in self.path:
            if kind == "attr":
                if not hasattr(obj, value):
                    raise LookupError(f"{self.describe()}: no field {value!r}")
                obj = getattr(obj, value)
            elif kind == "id":
                found = next((o for o in obj if getattr(o, "id", None) == value), None)
                if found is None:
                    raise LookupError(f"{self.describe()}: no {value!r}")
                obj = found
            elif kind == "index":
                if not 0 <= value < len(obj):
                    raise LookupError(f"{self.describe()}: no element {value}")
                obj = obj[value]
            else:
                if value not in obj:
                    raise LookupError(f"{self.describe()}: no key {value!r}")
                obj = obj[value]
        return obj

    def renamed(self, new_id: Any) -> Locator:
        """The same place after the object's own id changed to ``new_id``."""
        if self.path and self.path[-1][0] == "id":
            return Locator(self.root, (*self.path[:-1], ("id", new_id)))
        return self


def _holds_models(seq: Any) -> bool:
    """Whether a list, tuple or dict may hold model objects (worth searching)."""
    values = seq.values() if isinstance(seq, dict) else seq
    for v in values:
        return isinstance(v, BaseModel | list | tuple | dict)
    return False


def _search(value: Any, target: Any, path: tuple[Step, ...], depth: int) -> tuple[Step, ...] | None:
    """The path from ``value`` to the very object ``target`` (identity), or None."""
    if value is target:
        return path
    if depth <= 0:
        return None
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            if not path and name in _SKIP_FIELDS:
                continue
            child = value.__dict__.get(name)
            if child is None or isinstance(child, str | int | float | bool):
                continue
            found = _search(child, target, (*path, ("attr", name)), depth - 1)
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        if not _holds_models(value):
            return None
        ids = [getattr(v, "id", None) for v in value]
        unique = None not in ids and len(set(ids)) == len(ids)
        for i, child in enumerate(value):
            step: Step = ("id", ids[i]) if unique else ("index", i)
            found = _search(child, target, (*path, step), depth - 1)
            if found is not None:
                return found
    elif isinstance(value, dict):
        if not _holds_models(value):
            return None
        for k, child in value.items():
            found = _search(child, target, (*path, ("key", k)), depth - 1)
            if found is not None:
                return found
    return None


def locate(document: EncounterDocument, obj: Any) -> Locator | None:
    """A :class:`Locator` for ``obj`` in ``document`` (the map first, then the
    encounter's characters, tokens and other fields), or None when ``obj`` is not
    part of the document."""
    for root, start in (("map", document.map), ("encounter", document.encounter)):
        path = _search(start, obj, (), 8)
        if path is not None:
            return Locator(root, path)
    return None


class ChangeValueCommand(DocumentCommand):
    """Set one field of a model object (a character, token, feature, the map…).

    The object is remembered by *where it is* (a :class:`Locator`: ids and field
    names from the map or the encounter), not by reference, so an older edit still
    undoes onto the live object after a character or feature was removed and brought
    back by undo. An object that is not part of the document is kept by reference.

    The new value is validated on a copy first; a bad value raises ``ValueError`` with
    a plain message and nothing is pushed. Consecutive edits of the same field of the
    same object merge. ``area`` is the ``changed`` signal to emit ("characters",
    "tokens", "map"…); the per-object signal is emitted too when the object has an
    ``id``.
    """

    def __init__(
        self,
        document: EncounterDocument,
        obj: BaseModel,
        field: str,
        new_value: Any,
        area: str,
        *,
        text: str | None = None,
        merge: bool = True,
    ) -> None:
        label = text or f"Change {field.replace('_', ' ')}"
        super().__init__(document, label)
        self.field = field
        self.area = area
        self.merge = merge
        if field not in type(obj).model_fields:
            raise ValueError(f"{type(obj).__name__} has no field {field!r}.")
        self._obj = obj
        #: where the object is before the edit (and after it, when the edit renames it)
        self.locator = locate(document, obj)
        self.old_value = copy.deepcopy(getattr(obj, field))
        self.new_value = self._validated(new_value)
        self._locator_after = self._after(self.locator)
        self.step: TableStep | None = None

    def _after(self, loc: Locator | None) -> Locator | None:
        if loc is not None and self.field == "id":
            return loc.renamed(self.new_value)
        return loc

    @property
    def obj(self) -> BaseModel:
        """The edited object as it is in the document now."""
        return self._target(self.locator)

    def _target(self, loc: Locator | None) -> BaseModel:
        if loc is None:
            return self._obj
        try:
            found = loc.resolve(self.document)
        except LookupError:
            return self._obj  # not in the document any more: the object as it was
        self._obj = found
        return found

    def _validated(self, value: Any) -> Any:
        probe = self._obj.model_copy()
        try:
            setattr(probe, self.field, value)
        except ValidationError as e:
            err = e.errors()[0]
            what = self.field.replace("_", " ")
            raise ValueError(f"{what}: {err['msg']}") from None
        return copy.deepcopy(getattr(probe, self.field))

    #: whether the edit is a table step (journaled, undone by the table); the map
    #: editor's field edits are not (the editor keeps its own undo over the model)
    table_step: bool = True

    def _set(self) -> None:
        setattr(self._target(self.locator), self.field, copy.deepcopy(self.new_value))

    def _on_table(self) -> bool:
        """Whether this edit is a table step: the encounter's objects and the map's
        features (what a snapshot holds); the map's own fields, labels and notes are
        map editing."""
        loc = self.locator
        if not self.table_step or loc is None:
            return False
        return loc.root == "encounter" or loc.path[:1] == (("attr", "features"),)

    def apply(self) -> None:
        if not self._on_table():
            self._set()
            return
        table = self.document.table
        if self.step is None:
            key = str(("change", self.locator, self.field)) if self.merge else None
            capture = {self.area} & ALL_AREAS or ALL_AREAS
            self.step = table.run(
                self.text(),
                self._set,
                capture,
                areas=(),
                merge_key=key,
                merge=qt_will_merge(self.document),
            )
        else:
            table.redo_step(self.step)

    def revert(self) -> None:
        if not self._on_table():
            setattr(self._target(self._locator_after), self.field, copy.deepcopy(self.old_value))
            return
        assert self.step is not None
        self.document.table.undo_step(self.step)

    def announce(self) -> None:
        doc = self.document
        oid = getattr(self._obj, "id", None)
        if oid is not None:
            if self.area == "characters":
                doc.characterChanged.emit(oid)
            elif self.area == "tokens":
                doc.tokenChanged.emit(oid)
            elif self.area == "map":
                doc.featureChanged.emit(oid)
        doc.changed.emit(self.area)

    def id(self) -> int:
        return CHANGE_ID if self.merge else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ChangeValueCommand) or not other.merge:
            return False
        if other.field != self.field or self.field == "id":
            return False
        if self.locator is not None or other.locator is not None:
            if other.locator != self._locator_after:
                return False
        elif other._obj is not self._obj:
            return False
        self.new_value = other.new_value
        if other.step is not None:
            self.step = other.step  # the table merged the two steps already
        return True


class AppendLogCommand(TableStepCommand):
    """Add one line to the encounter log (a table step of its own: journaled)."""

    def __init__(self, document: EncounterDocument, entry: LogEntry) -> None:
        super().__init__(document, f"Log: {entry.text[:40]}")
        self.entry = entry

    def run_step(self) -> TableStep:
        log = self.document.encounter.log
        return self.document.table.run(self.text(), lambda: log.append(self.entry), ("log",))

    def announce(self) -> None:
        self.document.changed.emit("log")


# =============================================================================
# Posture: one truth, both views
# =============================================================================


class ChangePostureCommand(SnapshotCommand):
    """Set a character's posture on the sheet and on its token(s) as one undoable
    step (see :func:`set_posture`)."""

    def __init__(
        self,
        document: EncounterDocument,
        character_id: str,
        posture: Posture | str,
        *,
        text: str | None = None,
    ) -> None:
        from ...play.catalogue import set_posture  # lazy: start-up

        new = Posture(posture)
        name = document.character(character_id).name

        def mutate() -> None:
            set_posture(document, character_id, new)

        super().__init__(
            document,
            text or f"{name}: {new.value}",
            mutate,
            {"characters", "tokens"},
            capture={"characters", "tokens"},
        )


def _token_name(document: EncounterDocument, token_id: str) -> str:
    try:
        return document.character_of(token_id).name
    except KeyError:
        return token_id


# =============================================================================
# Hiding a token from the players
# =============================================================================

#: the Judge's shortcut for hiding or revealing the selected token (map and track)
HIDE_TOKEN_SHORTCUT = "Ctrl+Shift+H"
#: rings the hex under the mouse on the players' screen: a key no window manager
#: takes (Alt+click is Alt+drag, moving windows, on Openbox and most X11 desktops);
#: Shift, because the cover line and throw tools keep a bare P (show it to the players)
PING_KEY = "Shift+P"


class HideTokenCommand(SnapshotCommand):
    """Hide a token from the players' screen (or reveal it) as one undoable, logged
    step. What points at a hidden token on the players' screen (a cover line, a
    scatter clock, "show this") goes with it: the players' rule refuses it."""

    def __init__(self, document: EncounterDocument, token_id: str, hidden: bool) -> None:
        name = _token_name(document, token_id)
        tok = document.token(token_id)  # KeyError for an unknown token
        verb = "Hide" if hidden else "Reveal"
        line = f"{name} is {'hidden from' if hidden else 'shown to'} the players."

        def mutate() -> None:
            tok.hidden = hidden
            document.log(line, kind="players")

        text = f"{verb} {name} {'from' if hidden else 'to'} the players"
        super().__init__(document, text, mutate, {"tokens"}, capture={"tokens"})


def toggle_token_hidden(document: EncounterDocument, token_id: str | None = None) -> str:
    """Hide the token (the selected one by default) from the players, or reveal it
    when hidden; returns what was done, for the status bar."""
    tid = token_id or document.selected_token_id
    if tid is None:
        return "Select a token to hide it from the players or reveal it."
    try:
        tok = document.token(tid)
    except KeyError:
        return f"There is no token {tid!r}."
    cmd = HideTokenCommand(document, tid, not tok.hidden)
    document.push(cmd)
    return cmd.text() + "."
