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

from ..errors import RulesError
from ..hexgrid import Hex, offset_label
from ..model import LogEntry
from ..rules.character import Posture
from .document import (
    EncounterDocument,
    deck_restore,
    deck_snapshot,
    track_restore,
    track_snapshot,
)

#: QUndoCommand ids for merging
MOVE_ID = 1001
CHANGE_ID = 1002

#: every area a snapshot can hold
ALL_AREAS = frozenset({"tokens", "characters", "log", "map", "deck", "track", "mode"})


def _clone(obj: BaseModel) -> BaseModel:
    return obj.model_copy(deep=True)


def _assign(target: BaseModel, source: BaseModel) -> None:
    """Make ``target`` equal to ``source`` in place (keeps object identity, so views
    holding a reference to a character or token stay valid)."""
    fresh = source.model_copy(deep=True)
    target.__dict__.update(fresh.__dict__)
    object.__setattr__(target, "__pydantic_fields_set__", set(fresh.model_fields_set))


def _restore_list(current: list, saved: list) -> list:
    """A list equal to ``saved`` that reuses the objects of ``current`` with the same
    id (restored in place), and fresh copies for the others."""
    by_id = {getattr(o, "id", None): o for o in current}
    out = []
    for s in saved:
        o = by_id.get(getattr(s, "id", None))
        if o is not None:
            if o != s:
                _assign(o, s)
            out.append(o)
        else:
            out.append(_clone(s))
    return out


def _diff_ids(before: list, after: list) -> set[str]:
    b = {getattr(o, "id", None): o for o in before}
    a = {getattr(o, "id", None): o for o in after}
    out = set()
    for k in b.keys() | a.keys():
        if k is None:
            continue
        if b.get(k) != a.get(k):
            out.add(k)
    return out


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


class State:
    """A copy of the document state in the areas a command can touch."""

    __slots__ = (
        "_areas",
        "action_state",
        "characters",
        "deck",
        "features",
        "log",
        "mode",
        "tokens",
        "track",
    )

    def __init__(self, document: EncounterDocument, areas: Iterable[str]) -> None:
        enc = document.encounter
        areas = set(areas)
        self.tokens = [_clone(t) for t in enc.tokens] if "tokens" in areas else None
        self.characters = [_clone(c) for c in enc.characters] if "characters" in areas else None
        self.log = list(enc.log) if "log" in areas else None
        self.features = [_clone(f) for f in document.map.features] if "map" in areas else None
        self.deck = deck_snapshot(document.deck) if "deck" in areas else None
        if areas & {"track", "mode"}:
            self.track = track_snapshot(document.track)
            self.mode = enc.mode
            self.action_state = copy.deepcopy(enc.action_state)
        else:
            self.track = self.mode = self.action_state = None
        self._areas = areas

    def restore(self, document: EncounterDocument) -> None:
        enc = document.encounter
        if self.tokens is not None:
            enc.__dict__["tokens"] = _restore_list(enc.tokens, self.tokens)
        if self.characters is not None:
            enc.__dict__["characters"] = _restore_list(enc.characters, self.characters)
        if self.log is not None:
            enc.__dict__["log"] = list(self.log)
        if self.features is not None:
            document.map.__dict__["features"] = _restore_list(document.map.features, self.features)
        if self.deck is not None:
            deck_restore(document.deck, self.deck)
        if self.mode is not None:
            document.track = track_restore(self.track)
            enc.__dict__["mode"] = self.mode
            enc.__dict__["action_state"] = copy.deepcopy(self.action_state)


class SnapshotCommand(DocumentCommand):
    """The exact-undo command for compound resolutions (a shot, a throw, a track step).

    On its first application it copies the affected state (characters, tokens, log,
    map features, the deck and the action track — by default all of them), runs
    ``mutate()``, and copies the state again. Undo and redo put those copies back, so
    an undone shot returns its card to the pile and its AP to the track.

    ``areas`` names what ``mutate`` changes (for the ``changed`` signal); ``capture``
    narrows what is copied when a caller knows better (moves copy only tokens and the
    track). If ``mutate`` raises, everything is put back and the error propagates.
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
        self.before: State | None = None
        self.after: State | None = None
        self._changed_tokens: set[str] = set()
        self._changed_characters: set[str] = set()
        self._changed_features: set[str] = set()

    def apply(self) -> None:
        doc = self.document
        if self.after is not None:
            self.after.restore(doc)
            return
        self.before = State(doc, self._capture)
        prev = doc._in_command
        doc._in_command = self
        try:
            self._mutate()
        except BaseException:
            self.before.restore(doc)
            self.before = None
            raise
        finally:
            doc._in_command = prev
        self.after = State(doc, self._capture)
        b, a = self.before, self.after
        if b.tokens is not None:
            self._changed_tokens = _diff_ids(b.tokens, a.tokens)
        if b.characters is not None:
            self._changed_characters = _diff_ids(b.characters, a.characters)
        if b.features is not None:
            self._changed_features = _diff_ids(b.features, a.features)

    def revert(self) -> None:
        assert self.before is not None
        self.before.restore(self.document)

    def announce(self) -> None:
        doc = self.document
        areas = set(self.areas)
        if self._changed_tokens:
            areas.add("tokens")
        if self._changed_characters:
            areas.add("characters")
        if self._changed_features:
            areas.add("map")
        if (
            self.before is not None
            and self.after is not None
            and len(self.before.log or []) != len(self.after.log or [])
        ):
            areas.add("log")
        for tid in sorted(self._changed_tokens):
            doc.tokenChanged.emit(tid)
        for cid in sorted(self._changed_characters):
            doc.characterChanged.emit(cid)
        for fid in sorted(self._changed_features):
            doc.featureChanged.emit(fid)
        if "all" in areas:
            doc.changed.emit("all")
            return
        for area in ("mode", "track", "deck", "characters", "tokens", "map", "log"):
            if area in areas:
                doc.changed.emit(area)


class MoveTokenCommand(SnapshotCommand):
    """Move a token to a hex (and optionally turn it).

    Without ``pay`` it is a free move (narrative time): consecutive moves carrying the
    same ``drag_id`` merge, so one drag is one undo step. With ``pay`` (a callable
    declaring the move on the action track) the move and its AP are one step and undo
    refunds the AP.
    """

    def __init__(
        self,
        document: EncounterDocument,
        token_id: str,
        to_hex: Hex | tuple[int, int],
        facing: int | None = None,
        *,
        pay: Callable[[], None] | None = None,
        drag_id: int | None = None,
        text: str | None = None,
        moved: int | None = None,
        running: bool | None = None,
    ) -> None:
        h = to_hex if isinstance(to_hex, Hex) else Hex(*to_hex)
        self.token_id = token_id
        self.to_hex = h
        self.facing = facing
        self.drag_id = drag_id if pay is None else None
        tok = document.encounter.token(token_id)
        name = _token_name(document, token_id)
        label = text or f"Move {name} to {offset_label(h, document.map.orientation)}"

        def mutate() -> None:
            if not document.map.contains(h):
                raise RulesError(f"{name} cannot leave the map.")
            other = document.encounter.token_at(h)
            if other is not None and other.id != token_id:
                raise RulesError(f"{_token_name(document, other.id)} already stands there.")
            if pay is not None:
                pay()
            tok.hex = (h.q, h.r)
            if facing is not None:
                tok.facing = facing % 6
            if moved is not None:
                tok.moved = moved
            if running is not None:
                tok.running = running

        capture = {"tokens", "log"} | ({"track", "characters", "deck"} if pay else set())
        areas = {"tokens"} | ({"track"} if pay else set())
        super().__init__(document, label, mutate, areas, capture=capture)

    def id(self) -> int:
        return MOVE_ID if self.drag_id is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveTokenCommand):
            return False
        if other.drag_id is None or other.drag_id != self.drag_id:
            return False
        if other.token_id != self.token_id or self.before is None or other.after is None:
            return False
        self.after = other.after
        self._changed_tokens |= other._changed_tokens
        self.setText(other.text())
        return True


class RotateTokenCommand(SnapshotCommand):
    """Turn a token to a new facing; with ``pay`` the facing AP goes on the track."""

    def __init__(
        self,
        document: EncounterDocument,
        token_id: str,
        facing: int,
        *,
        pay: Callable[[], None] | None = None,
        text: str | None = None,
    ) -> None:
        self.token_id = token_id
        tok = document.encounter.token(token_id)
        name = _token_name(document, token_id)

        def mutate() -> None:
            if pay is not None:
                pay()
            tok.facing = facing % 6

        capture = {"tokens", "log"} | ({"track", "characters", "deck"} if pay else set())
        areas = {"tokens"} | ({"track"} if pay else set())
        super().__init__(document, text or f"Turn {name}", mutate, areas, capture=capture)


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

    def apply(self) -> None:
        setattr(self._target(self.locator), self.field, copy.deepcopy(self.new_value))

    def revert(self) -> None:
        setattr(self._target(self._locator_after), self.field, copy.deepcopy(self.old_value))

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
        return True


class AppendLogCommand(DocumentCommand):
    """Add one line to the encounter log."""

    def __init__(self, document: EncounterDocument, entry: LogEntry) -> None:
        super().__init__(document, f"Log: {entry.text[:40]}")
        self.entry = entry

    def apply(self) -> None:
        self.document.encounter.log.append(self.entry)

    def revert(self) -> None:
        log = self.document.encounter.log
        if log and log[-1] is self.entry:
            log.pop()
        elif self.entry in log:
            log.remove(self.entry)

    def announce(self) -> None:
        self.document.changed.emit("log")


# =============================================================================
# Posture: one truth, both views
# =============================================================================


def set_posture(
    document: EncounterDocument, character_id: str, posture: Posture | str
) -> list[str]:
    """Change a character's posture everywhere it is shown (a plain model change, for
    use inside a :class:`SnapshotCommand`); returns the log lines.

    The sheet's ``Character.posture`` is the single truth (it exists for characters
    off the map, and the rules read it); every token standing for the character
    mirrors it, because the map, the cover line and the attack geometry read the
    token. Ducking goes behind cover and emerging or any other posture change out of
    ducked leaves it (000 Movement AP Cost: duck behind / emerge from cover).
    """
    new = Posture(posture)
    c = document.character(character_id)
    old = c.posture
    c.posture = new
    if new is Posture.DUCKED:
        c.behind_cover = True
    elif old is Posture.DUCKED:
        c.behind_cover = False
    for t in document.encounter.tokens:
        if t.character_id == character_id:
            t.posture = new
    if old is new:
        return []
    return [f"{c.name} is now {new.value}"]


def posture_mismatch(document: EncounterDocument, character_id: str) -> list[str]:
    """Ids of the character's tokens whose posture disagrees with the sheet (a file
    written before postures were kept in step)."""
    c = document.character(character_id)
    return [
        t.id
        for t in document.encounter.tokens
        if t.character_id == character_id and t.posture is not c.posture
    ]


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


def assign_in_place(target: BaseModel, source: BaseModel) -> None:
    """Make ``target`` equal to ``source`` keeping its identity (views holding the
    object stay valid); used to apply a sheet an engine returned."""
    _assign(target, source)


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
