"""Exact copies of the table's state, for undo and for the journal.

A :class:`Snapshot` copies the areas a step can touch — tokens, characters, the log,
the map's features, the deck and the time engine — and puts them back *in place*:
objects with the same id keep their identity (views holding a token or a sheet stay
valid), others come back as fresh copies. Restoring is absolute, so a step's
"before" and "after" snapshots are all undo and redo need.

:func:`patch_between` turns two snapshots into a plain-JSON patch (what changed, by
id) and :func:`apply_patch` puts such a patch onto a table: that is how steps that
are not table actions (a sheet edited by hand, a door opened) are journaled and
replayed exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from ..errors import RulesError
from ..model import Encounter, LogEntry, Map
from ..model.encounter import Token
from ..model.map import Feature
from ..rules.base import Mutable
from ..rules.character import Character
from ..rules.deck import Deck, DeckState
from ..rules.editions import OptionalRules


class Table(Protocol):
    """What a snapshot reads and restores of the table (play.table.Table)."""

    encounter: Encounter
    map: Map
    deck: Deck
    time: Any

    def restore_time(self, snap: Any, mode: str, action_state: dict | None) -> None: ...

    def set_time_from_state(self, mode: str, state: dict | None) -> None: ...

    def set_rules(self, edition_id: str, options: Any) -> None: ...

    #: the copies earlier snapshots took (:class:`Copies`)
    copies: Copies


#: every area a snapshot can hold
ALL_AREAS = frozenset({"tokens", "characters", "log", "map", "deck", "track", "mode", "rules"})


def clone(obj: BaseModel) -> Any:
    return obj.model_copy(deep=True)


class Copies:
    """The last copy a snapshot took of each live object, shared by the snapshots
    that follow while the object stays equal to it: a step's "before" is mostly the
    last step's "after", and its "after" mostly its "before", so a step that moves
    nine figures among seventy features copies the nine (the run on, F6), not
    everything twice. Copies are never changed (restoring copies them again,
    :meth:`~twtw_desktop.rules.base.Mutable.assign_from`), so sharing is safe;
    equality is pydantic's (type, fields, private attributes) plus the set fields."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[Any, Any]] = {}

    def of(self, obj: BaseModel) -> Any:
        hit = self._last.get(id(obj))
        if hit is not None and hit[0] is obj:
            copy = hit[1]
            if copy == obj and copy.model_fields_set == obj.model_fields_set:
                return copy
        copy = clone(obj)
        self._last[id(obj)] = (obj, copy)
        return copy

    def keep_only(self, live: Iterable[Any]) -> None:
        """Forget the objects no longer on the table (called when the cache has grown
        well past them: removed figures, fresh copies put back by undo)."""
        ids = {id(o) for o in live}
        self._last = {k: v for k, v in self._last.items() if k in ids}

    def __len__(self) -> int:
        return len(self._last)


def restore_list(
    current: Sequence[Any], saved: Sequence[Any], refs: Sequence[Any] = ()
) -> list[Any]:
    """A list equal to ``saved`` that reuses live objects, restored in place: the very
    object the snapshot was taken of (``refs``, same positions as ``saved``) while it
    is still in the list — even if its id changed since —, else the object of
    ``current`` with the same id, else a fresh copy."""
    live = {id(o): o for o in current}
    by_id = {getattr(o, "id", None): o for o in current}
    out = []
    for i, s in enumerate(saved):
        ref = refs[i] if i < len(refs) else None
        o = ref if ref is not None and id(ref) in live else by_id.get(getattr(s, "id", None))
        if o is not None and isinstance(o, Mutable) and type(o) is type(s):
            if o != s:
                o.assign_from(s)
            out.append(o)
        else:
            out.append(clone(s))
    return out


def diff_ids(before: Sequence[Any] | None, after: Sequence[Any] | None) -> set[str]:
    """Ids whose object differs (or exists on one side only)."""
    if before is None or after is None:
        return set()
    b = {getattr(o, "id", None): o for o in before}
    a = {getattr(o, "id", None): o for o in after}
    return {k for k in b.keys() | a.keys() if k is not None and b.get(k) != a.get(k)}


class Snapshot:
    """A copy of the table state in the areas a step can touch."""

    __slots__ = (
        "action_state",
        "areas",
        "characters",
        "deck",
        "features",
        "log_len",
        "log_tail",
        "mode",
        "only",
        "order",
        "refs",
        "rules",
        "tokens",
        "track",
    )

    def __init__(
        self, table: Table, areas: Iterable[str], only: dict[str, set[str]] | None = None
    ) -> None:
        """Copy ``areas``; for an area named in ``only`` (tokens, characters, map) just
        the objects with those ids — a step that changes one token of two hundred and
        adds or removes none (the table checks) copies one token."""
        enc = table.encounter
        self.areas = frozenset(areas)
        self.only = dict(only or {})
        a = self.areas
        #: the live objects copied, to restore them in place even after an id change
        self.refs: dict[str, list[Any]] = {}
        #: the ids of a narrowed area in order (the rest of the list is not copied)
        self.order: dict[str, list[str]] = {}
        lists: dict[str, list[Any]] = {
            "tokens": enc.tokens,
            "characters": enc.characters,
            "map": table.map.features,
        }
        copies: dict[str, list[Any] | None] = {}
        for area, live in lists.items():
            if area not in a:
                copies[area] = None
                continue
            ids = self.only.get(area)
            if ids is not None:
                self.order[area] = [o.id for o in live]
                picked = [o for o in live if o.id in ids]
            else:
                picked = list(live)
            self.refs[area] = picked
            copies[area] = [table.copies.of(o) for o in picked]
        live_count = sum(len(v) for v in lists.values())
        if len(table.copies) > 2 * live_count + 64:
            table.copies.keep_only(o for v in lists.values() for o in v)
        self.tokens = copies["tokens"]
        self.characters = copies["characters"]
        self.features = copies["map"]
        # the log only grows inside a step: its length is enough to cut it back, and
        # the entries themselves are immutable once written
        self.log_len = len(enc.log)
        self.log_tail: list[LogEntry] | None = None
        self.deck = table.deck.snapshot() if "deck" in a else None
        #: the edition and the optional rules (the Rules dialog's step)
        self.rules = (enc.edition, enc.options) if "rules" in a else None
        if a & {"track", "mode"}:
            # the clock object itself and its frozen state: undo puts back the very
            # engine the panels were showing
            self.track = (table.time, table.time.snapshot()) if table.time is not None else None
            mode: str | None = str(enc.mode)
            self.action_state = dict(enc.action_state) if enc.action_state else None
        else:
            self.track = None
            mode = None
            self.action_state = None
        self.mode = mode

    def keep_log_since(self, before: Snapshot, table: Table) -> None:
        """Remember the log lines written since ``before`` (an "after" snapshot)."""
        self.log_tail = list(table.encounter.log[before.log_len :])

    def restore(self, table: Table) -> None:
        enc = table.encounter
        if self.tokens is not None:
            self._restore_area("tokens", enc.tokens, self.tokens)
        if self.characters is not None:
            self._restore_area("characters", enc.characters, self.characters)
        log = enc.log
        del log[self.log_len :]
        if self.log_tail:
            log.extend(self.log_tail)
        if self.features is not None:
            self._restore_area("map", table.map.features, self.features)
        if self.deck is not None:
            table.deck.restore(self.deck)
        if self.rules is not None:
            table.set_rules(*self.rules)
        if self.mode is not None:
            table.restore_time(self.track, self.mode, self.action_state)

    def _restore_area(self, area: str, live: list[Any], saved: list[Any]) -> None:
        refs = self.refs[area]
        if area not in self.order:
            live[:] = restore_list(live, saved, refs)
            return
        # narrowed: only the copied objects go back, in place; the list keeps its order
        fresh = restore_list(live, saved, refs)
        by_id = {o.id: o for o in live}
        for o in fresh:
            by_id[o.id] = o
        live[:] = [by_id[i] for i in self.order[area] if i in by_id]

    def ids(self, area: str) -> list[str]:
        """The ids of an area's list when this snapshot was taken, in order."""
        if area in self.order:
            return list(self.order[area])
        return [o.id for o in self.refs.get(area, ())]


def areas_changed(before: Snapshot, after: Snapshot) -> set[str] | None:
    """The areas other than the object lists (deck, track, mode) that differ between
    a step's two snapshots, to tell the window what a step that may change anything
    (the run on, F6) did change; None when something outside the named areas changed
    (the rules), which only a whole refresh shows."""
    if before.rules != after.rules:
        return None
    out: set[str] = set()
    if before.deck is not None and after.deck is not None and before.deck != after.deck:
        out.add("deck")
    if before.mode != after.mode:
        out.add("mode")
    bt, at = before.track, after.track
    if (bt is None) != (at is None) or (
        bt is not None and at is not None and (bt[0] is not at[0] or bt[1] != at[1])
    ):
        out.add("track")
    return out


# -- journal patches ---------------------------------------------------------------------


def _list_patch(
    before: Sequence[BaseModel], after: Sequence[BaseModel], order: list[str]
) -> dict[str, Any]:
    changed = diff_ids(before, after)
    return {
        "set": [o.model_dump(mode="json") for o in after if getattr(o, "id", None) in changed],
        "order": order,
    }


def _time_state(snap: Snapshot) -> dict[str, Any] | None:
    """The clock's state as the snapshot holds it: the engine's own frozen state (the
    encounter's ``action_state`` is only brought up to date when saving)."""
    if snap.track is not None:
        state = snap.track[1]
        dumped = state.model_dump(mode="json") if hasattr(state, "model_dump") else state
        return dict(dumped) if isinstance(dumped, dict) else snap.action_state
    return snap.action_state if snap.mode == "action" else None


def patch_between(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """What changed from ``before`` to ``after``, as plain JSON (for the journal)."""
    out: dict[str, Any] = {}
    if before.tokens is not None and after.tokens is not None:
        out["tokens"] = _list_patch(before.tokens, after.tokens, after.ids("tokens"))
    if before.characters is not None and after.characters is not None:
        out["characters"] = _list_patch(
            before.characters, after.characters, after.ids("characters")
        )
    if before.features is not None and after.features is not None:
        out["features"] = _list_patch(before.features, after.features, after.ids("map"))
    if after.deck is not None:
        out["deck"] = after.deck.model_dump(mode="json")
    if after.mode is not None:
        out["mode"] = after.mode
        out["action_state"] = _time_state(after)
    if after.rules is not None and after.rules != before.rules:
        out["rules"] = {
            "edition": after.rules[0],
            "options": after.rules[1].model_dump(mode="json"),
        }
    out["log"] = [e.model_dump(mode="json") for e in (after.log_tail or [])]
    return out


def restore_patch(before: Snapshot, after: Snapshot, *, undo: bool) -> dict[str, Any]:
    """The patch that puts a step's state back exactly: ``undo`` the state before it,
    else the state after it (the journal's form of an undo or redo of a step it does
    not hold, one from before the last save). ``log_cut`` cuts the log back to where
    the step began before its own lines go on again."""
    frm, to = (after, before) if undo else (before, after)
    out = patch_between(frm, to)
    out["log"] = [] if undo else [e.model_dump(mode="json") for e in (after.log_tail or [])]
    out["log_cut"] = before.log_len
    return out


def _apply_list(current: list[Any], patch: Any, model: type[Mutable], area: str) -> None:
    if not isinstance(patch, dict):
        raise RulesError(f"the patch's {area} is not an object")
    sets = patch.get("set", [])
    order = patch.get("order", [])
    if not isinstance(sets, list) or not all(isinstance(o, dict) for o in sets):
        raise RulesError(f"the patch's {area}.set is not a list of objects")
    if not isinstance(order, list) or not all(isinstance(i, str) for i in order):
        raise RulesError(f"the patch's {area}.order is not a list of ids")
    by_id: dict[str, Any] = {o.id: o for o in current}
    for raw in sets:
        new: Any = model.model_validate(raw)
        old = by_id.get(new.id)
        if old is not None:
            old.assign_from(new)
        else:
            by_id[new.id] = new
    try:
        current[:] = [by_id[i] for i in order]
    except KeyError as e:
        raise RulesError(f"the journal names {e.args[0]!r}, which is not in the encounter") from e


def check_patch(patch: Any) -> None:
    """RulesError naming the first part of ``patch`` of the wrong shape (before any
    of it is applied)."""
    if not isinstance(patch, dict):
        raise RulesError("the patch is not an object")
    for key in ("tokens", "characters", "features", "deck", "rules"):
        if key in patch and patch[key] is not None and not isinstance(patch[key], dict):
            raise RulesError(f"the patch's {key} is not an object")
    if "rules" in patch and not isinstance(patch["rules"].get("edition"), str):
        raise RulesError("the patch's rules name no edition")
    if "mode" in patch and not isinstance(patch["mode"], str):
        raise RulesError("the patch's mode is not a name")
    if patch.get("action_state") is not None and not isinstance(patch["action_state"], dict):
        raise RulesError("the patch's action_state is not an object")
    log = patch.get("log", [])
    if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
        raise RulesError("the patch's log is not a list of entries")
    cut = patch.get("log_cut")
    if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool) or cut < 0):
        raise RulesError("the patch's log_cut is not a count")


def apply_patch(table: Table, patch: dict[str, Any]) -> None:
    """Put a :func:`patch_between` (or :func:`restore_patch`) patch onto ``table``
    (inside a running step). RulesError when it is of the wrong shape."""
    check_patch(patch)
    enc = table.encounter
    if "tokens" in patch:
        _apply_list(enc.tokens, patch["tokens"], Token, "tokens")
    if "characters" in patch:
        _apply_list(enc.characters, patch["characters"], Character, "characters")
    if "features" in patch:
        _apply_list(table.map.features, patch["features"], Feature, "features")
    if patch.get("deck") is not None:
        table.deck.restore(DeckState.model_validate(patch["deck"]))
    if "rules" in patch:
        table.set_rules(
            patch["rules"]["edition"], OptionalRules.model_validate(patch["rules"].get("options"))
        )
    if "mode" in patch:
        table.set_time_from_state(patch["mode"], patch.get("action_state"))
    if patch.get("log_cut") is not None:
        del enc.log[patch["log_cut"] :]
    for raw in patch.get("log", []):
        enc.log.append(LogEntry.model_validate(raw))
