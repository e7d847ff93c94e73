"""Undoable map edits (Tiled's habit: every edit a command; a drag merges into one).

* :class:`GroundCommand` — terrain and elevation of some cells; commands of the same
  stroke merge, so one brush drag is one undo step.
* :class:`ObjectsCommand` — add, remove or replace features, labels, notes and markers
  by id (a new wall; a door cutting the wall it sits on; the eraser).
* :class:`MapStateCommand` — runs a function over the whole map and keeps a copy of
  the map before and after (resize, paste, move or delete a region, a new background).
* :class:`SetFieldCommand` — one field of a map object through the shared
  :class:`~twtw_desktop.ui.core.commands.ChangeValueCommand` (validated, merging), announcing
  labels, notes and the map itself without pretending they are walls.

Every command applies once in ``prepare()`` (the document's push calls it), so a
refused edit raises before anything reaches the stack.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel
from PySide6.QtGui import QUndoCommand

from ...hexgrid import Hex
from ...model.edit import GroundChange, hex_of, list_name, write_ground
from ...model.map import Feature, Label, Map, Marker, Note
from ..core.commands import ChangeValueCommand, DocumentCommand
from ..core.document import EncounterDocument

#: what a map holds by id (walls and doors, labels, notes, markers)
MapObject = Feature | Label | Note | Marker

#: QUndoCommand ids for merging brush and eraser strokes and drags
GROUND_ID = 2101
OBJECTS_ID = 2102
FIELD_ID = 2103

_strokes = itertools.count(1)


def new_stroke() -> int:
    """A fresh stroke id (one per mouse press of a painting tool)."""
    return next(_strokes)


class GroundCommand(DocumentCommand):
    """Set terrain and elevation of some cells; same-``stroke`` commands merge."""

    def __init__(
        self,
        document: EncounterDocument,
        change: GroundChange,
        text: str,
        *,
        stroke: int | None = None,
    ) -> None:
        super().__init__(document, text)
        self.change = change
        self.stroke = stroke
        self._had_elevation = document.map.elevation is not None

    def apply(self) -> None:
        write_ground(self.document.map, self.change.after)

    def revert(self) -> None:
        m = self.document.map
        write_ground(m, self.change.before)
        gone = m.elevation is not None and not any(any(r) for r in m.elevation)
        if not self._had_elevation and gone:
            m.assign_fields({"elevation": None})

    def announce(self) -> None:
        # the scenes' grid painters find the touched cells themselves and redraw only
        # the tiles holding them (GridPainter.invalidate)
        self.document.changed.emit("map")

    def hexes(self) -> list:
        return [hex_of(self.document.map, c) for c in self.change.cells()]

    def id(self) -> int:
        return GROUND_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, GroundCommand) or other.stroke != self.stroke:
            return False
        if other.document is not self.document:
            return False
        self.change = self.change.then(other.change)
        return True


def _target_list(m: Map, obj: BaseModel) -> list:
    return getattr(m, list_name(obj))


class ObjectsCommand(DocumentCommand):
    """Put map objects in or take them out, by id.

    ``before``/``after`` map an id to the object (or None when absent). Applying sets
    every id to its ``after`` object — appended when new, replaced in place when it
    exists, removed when None — and undo puts the ``before`` objects back.
    """

    def __init__(
        self,
        document: EncounterDocument,
        text: str,
        *,
        add: Iterable[MapObject] = (),
        remove: Iterable[MapObject] = (),
        replace: Iterable[tuple[MapObject, MapObject]] = (),
        stroke: int | None = None,
    ) -> None:
        super().__init__(document, text)
        #: commands of one eraser stroke merge into one undo step
        self.stroke = stroke
        self.before: dict[str, MapObject | None] = {}
        self.after: dict[str, MapObject | None] = {}
        self._order: list[str] = []
        for x in remove:
            self._note(x.id, x, None)
        for old, new in replace:
            self._note(old.id, old, new)
            if new.id != old.id:
                self._note(new.id, None, new)
        for x in add:
            self._note(x.id, None, x)
        # where removed objects stood, so undo puts them back in their place
        self._index: dict[str, int] = {}
        m = document.map
        for oid, obj in self.before.items():
            if obj is not None:
                lst = _target_list(m, obj)
                for i, y in enumerate(lst):
                    if y.id == oid:
                        self._index[oid] = i
                        break

    def _note(self, oid: str, before, after) -> None:
        if oid not in self.before:
            self.before[oid] = copy.deepcopy(before)
            self._order.append(oid)
        self.after[oid] = copy.deepcopy(after)

    @property
    def ids(self) -> list[str]:
        return list(self._order)

    def _set(self, states: dict[str, MapObject | None], restoring: bool) -> None:
        m = self.document.map
        order = (
            self._order
            if not restoring
            else sorted(self._order, key=lambda k: self._index.get(k, 10**9))
        )
        for oid in order:
            want = states[oid]
            # remove the current object with this id, wherever it is
            for name in ("features", "labels", "notes", "markers"):
                lst = getattr(m, name)
                for i, y in enumerate(lst):
                    if y.id == oid:
                        if want is not None and list_name(want) == name:
                            lst[i] = copy.deepcopy(want)
                            want = None
                        else:
                            del lst[i]
                        break
            if want is not None:
                lst = _target_list(m, want)
                at = self._index.get(oid) if restoring else None
                if at is not None and at <= len(lst):
                    lst.insert(at, copy.deepcopy(want))
                else:
                    lst.append(copy.deepcopy(want))
        check_objects(m)

    def apply(self) -> None:
        m = self.document.map
        snapshot = {n: list(getattr(m, n)) for n in ("features", "labels", "notes", "markers")}
        try:
            self._set(self.after, restoring=False)
        except ValueError:
            m.assign_fields(snapshot)
            raise

    def revert(self) -> None:
        self._set(self.before, restoring=True)

    def announce(self) -> None:
        self.document.changed.emit("map")

    def id(self) -> int:
        return OBJECTS_ID if self.stroke is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ObjectsCommand) or other.stroke != self.stroke:
            return False
        if other.document is not self.document:
            return False
        for oid in other._order:
            if oid not in self.before:
                self.before[oid] = other.before[oid]
                self._order.append(oid)
                if oid in other._index:
                    self._index[oid] = other._index[oid]
            self.after[oid] = other.after[oid]
        return True


def check_objects(m: Map) -> None:
    """The model's own rules for map objects (unique ids, notes and markers on the
    map), without re-validating the whole map. Raises ValueError."""
    seen: set[str] = set()
    for name in ("features", "labels", "notes", "markers"):
        for x in getattr(m, name):
            if x.id in seen:
                raise ValueError(f"two things on the map are called {x.id!r}")
            seen.add(x.id)
    placed: list[Note | Marker] = [*m.notes, *m.markers]
    for x in placed:
        if not m.contains(Hex(*x.hex)):
            raise ValueError(f"{x.id!r} would be off the map")


class MapStateCommand(DocumentCommand):
    """Run ``mutate(map)`` and keep the whole map as it was before and after.

    Used for edits that touch many things at once. The map object stays the same
    (views hold it); its fields are swapped. ``tokens=True`` also keeps the tokens'
    hexes (a resize moves them). ``mutate``'s return value is kept in ``result``.
    """

    def __init__(
        self,
        document: EncounterDocument,
        text: str,
        mutate: Callable[[Map], Any],
        *,
        tokens: bool = False,
    ) -> None:
        super().__init__(document, text)
        self._mutate = mutate
        self._tokens = tokens
        self.before: dict | None = None
        self.after: dict | None = None
        self.result: Any = None

    def _grab(self) -> dict:
        m = self.document.map
        state = {name: copy.deepcopy(v) for name, v in m.field_values().items()}
        if self._tokens:
            state["__tokens__"] = {t.id: t.hex for t in self.document.encounter.tokens}
        return state

    def _put(self, state: dict) -> None:
        m = self.document.map
        fields = {k: copy.deepcopy(v) for k, v in state.items() if k != "__tokens__"}
        m.assign_fields(fields)
        if "__tokens__" in state:
            for t in self.document.encounter.tokens:
                if t.id in state["__tokens__"]:
                    t.hex = state["__tokens__"][t.id]

    def apply(self) -> None:
        if self.after is not None:
            self._put(self.after)
            return
        self.before = self._grab()
        try:
            self.result = self._mutate(self.document.map)
            Map.model_validate(self.document.map.model_dump())
        except BaseException:
            self._put(self.before)
            self.before = None
            raise
        self.after = self._grab()

    def revert(self) -> None:
        assert self.before is not None
        self._put(self.before)

    def announce(self) -> None:
        doc = self.document
        doc.changed.emit("map")
        if self._tokens:
            doc.changed.emit("tokens")


class SetFieldCommand(ChangeValueCommand):
    """One validated field of a map object (feature, label, note, marker, the map or
    its background picture). Walls and doors announce themselves by id; the rest as
    a map change."""

    def __init__(
        self,
        document: EncounterDocument,
        obj: BaseModel,
        field: str,
        new_value: Any,
        *,
        text: str | None = None,
        merge: bool = True,
        stroke: int | None = None,
    ) -> None:
        super().__init__(document, obj, field, new_value, "map", text=text, merge=merge)
        self.table_step = False  # map editing: autosaved, not journaled
        #: with a stroke (a label dragged), only commands of the same stroke merge
        self.stroke = stroke

    def id(self) -> int:
        if self.stroke is not None:
            return FIELD_ID
        return super().id()

    def mergeWith(self, other: QUndoCommand) -> bool:
        if self.stroke is not None or getattr(other, "stroke", None) is not None:
            if not isinstance(other, SetFieldCommand) or other.stroke != self.stroke:
                return False
            if other.obj is not self.obj or other.field != self.field:
                return False
            self.new_value = other.new_value
            return True
        return super().mergeWith(other)

    def announce(self) -> None:
        doc = self.document
        if isinstance(self.obj, Feature):
            doc.featureChanged.emit(self.obj.id)
        doc.changed.emit("map")
