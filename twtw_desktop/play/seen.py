"""What each posse character has seen this session (issue 36), kept by the table.

A player's page shows only the hexes its character has seen; the record of them is
the table's, not the pages', so that every page, the service restarted, and a
session recovered from its journal agree.

* **When the record looks.** After every table step (done, merged, undone, redone:
  :meth:`~twtw_desktop.play.table.Table.run` and its undo/redo tell it) and when a
  frame for the pages is made (:meth:`SightRecord.look`). Each posse character looks
  from its own token (:func:`~twtw_desktop.play.visibility.viewers_of`); the
  posse as a whole (:data:`POSSE`) sees what any of them sees.
* **What it keeps**, per character and for the posse: the hexes seen now, the hexes
  seen this session (a :class:`~twtw_desktop.play.fog.SeenMemory`, which follows a
  resize), and the open state of each door and window **as last seen**: a door
  opened out of sight keeps, on that character's page, the state it had when the
  character last saw it, until the character sees it again.
* **Not journaled.** The record is worked out from the table's states after each
  step, and recovery replays the journal step by step (undos and redos included), so
  a recovered session rebuilds the same record: its pages show neither less nor more
  than before. Only a change made outside any step (the map editor between steps) is
  seen at the next frame rather than at a step; such a change is not in the journal
  either. The record is not saved in the encounter: like the fog's memory, it lasts
  as long as the session.
* **Cost on the Judge's thread**: a look only notes the hexes the posse looks from
  and the doors' states (well under a millisecond; the walls are frozen again only
  when they changed). The visibility polygons (1–9 ms each) are worked out when the
  record is read — for the pages, on the devices service's thread — in the order
  of the looks, so the result does not depend on when it is read. A frame holds a
  :data:`Mark`: the looks up to it, and the last one (what is seen *now*).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..geometry.hexcut import hexes_touching
from ..geometry.sight import visible
from ..geometry.visibility import SightSnapshot, visible_mask
from ..geometry.walls import WallIndex
from ..hexgrid import Hex
from ..model import Encounter, Map
from .fog import SIGHT_CACHE_SIZE, SeenMemory, anchors
from .visibility import POSSE_SIDE, viewers_of


class Table(Protocol):
    """What the record reads of a :class:`~twtw_desktop.play.table.Table`."""

    encounter: Encounter
    map: Map

    def walls(self) -> WallIndex: ...
    def walls_if_built(self) -> WallIndex | None: ...


#: the two sides that fight each other ("neutral" stands apart)
FOES = {"posse": "hombres", "hombres": "posse"}
#: the record's key for the posse as a whole (no character id is empty)
POSSE = ""
#: features whose open state is news (a door, a window's shutters)
STATEFUL = ("door", "window")


@dataclass(frozen=True)
class Seen:
    """One character's (or the posse's) record at one moment, copied for a frame."""

    #: hexes seen now, ``(rows, cols)``
    now: np.ndarray
    #: hexes seen this session (``now`` included)
    ever: np.ndarray
    #: door or window id -> open when last seen
    doors: dict[str, bool]


@dataclass
class Look:
    """Where the posse looked from, on which walls: taken on the Judge's thread (no
    sight worked out); looks on the same walls and doors are one look with more
    viewer hexes until a frame seals it."""

    snap: SightSnapshot
    shape: tuple[int, int]
    #: door or window id, the hexes it touches (flat), open or not
    doors: tuple[tuple[str, np.ndarray, bool], ...]
    #: character id -> the hexes it looked from
    viewers: dict[str, set[Hex]]
    key: tuple = ()
    sealed: bool = False


#: a frame's hold on the record: how many looks it includes, and the last one
Mark = tuple[int, Look | None]


class SightRecord:
    """The session's record of what each posse character has seen (module docstring).

    :meth:`look` runs on the table's thread and only notes where the posse looks
    from; the sight polygons are worked out when the record is read
    (:meth:`seen`, on the devices service's thread for the pages), in the order of
    the looks, so the answer is the same whenever it is read."""

    def __init__(self) -> None:
        self.memory: dict[str, SeenMemory] = {}
        self.doors: dict[str, dict[str, bool]] = {}
        self.snapshot: SightSnapshot | None = None
        self._walls: object | None = None
        self._cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        #: door id -> ((points, map shape), flat hex indices it touches)
        self._door_hexes: dict[str, tuple[tuple, np.ndarray]] = {}
        self._latest: Look | None = None
        self._viewers: tuple | None = None
        #: looks not worked out yet, and how many were before them
        self._pending: list[Look] = []
        self._done = 0
        self._lock = threading.Lock()  # the looks, the memory, the doors
        self._work = threading.Lock()  # one reader works sights out at a time
        #: where each fighting character last saw each foe (the autopilot's memory)
        self.foes = FoeSightings()

    def sight_snapshot(self, table: Table) -> SightSnapshot:
        """The frozen walls of the table now (shared with the frames)."""
        walls = table.walls()
        if self.snapshot is None or self._walls is not walls:
            self.snapshot = SightSnapshot.of(table.map, walls)
            self._walls = walls
        return self.snapshot

    @property
    def started(self) -> bool:
        return self._latest is not None

    # -- the table's thread ---------------------------------------------------------------

    def look(self, table: Table) -> None:
        """Note where the posse looks from now (module docstring), and where the
        figures stand for :attr:`foes`."""
        self.foes.note(table)
        enc, m = table.encounter, table.map
        shape = (m.rows, m.cols)
        posse = [c.id for c in enc.characters if c.side == POSSE_SIDE]
        last = self._latest
        if last is not None and last.shape != shape:
            self.resolve()  # what was seen on the old grid, before it moves with the map
        where = anchors(enc, m)
        with self._lock:
            for cid in [*posse, POSSE]:
                self.memory.setdefault(cid, SeenMemory()).follow(enc, m, where)
        seen_from = viewers_of(enc, m, posse)
        viewers = tuple((cid, tuple(seen_from[cid])) for cid in posse)
        same_walls = table.walls_if_built() is self._walls
        if last is not None and self._viewers == viewers and same_walls and last.shape == shape:
            return  # nothing new to see
        self._viewers = viewers
        snap = self.sight_snapshot(table)
        doors = self._doors(m, shape)
        key = (snap.key, shape, m.orientation, tuple((d, o) for d, _h, o in doors))
        with self._lock:
            top = self._pending[-1] if self._pending else None
            if top is not None and not top.sealed and top.key == key:
                for cid, hexes in viewers:
                    top.viewers.setdefault(cid, set()).update(hexes)
                look = top
            else:
                look = Look(snap, shape, tuple(doors), {c: set(h) for c, h in viewers}, key)
                self._pending.append(look)
            self._latest = Look(snap, shape, look.doors, {c: set(h) for c, h in viewers}, key)

    def mark(self) -> Mark:
        """A frame's hold on the record as it is now (the looks so far are sealed)."""
        with self._lock:
            if self._pending:
                self._pending[-1].sealed = True
            return self._done + len(self._pending), self._latest

    def _doors(self, m: Map, shape: tuple[int, int]) -> list[tuple[str, np.ndarray, bool]]:
        """Each door and window: its id, the hexes it touches (flat), open or not."""
        out = []
        for f in m.features:
            if f.kind not in STATEFUL:
                continue
            key = (tuple(map(tuple, f.points)), shape, m.orientation)
            hit = self._door_hexes.get(f.id)
            if hit is None or hit[0] != key:
                hit = self._door_hexes[f.id] = (key, hexes_touching(m, f.points))
            out.append((f.id, hit[1], bool(f.is_open)))
        return out

    # -- reading (any thread) -------------------------------------------------------------

    def _sight(self, snap: SightSnapshot, viewer: Hex) -> np.ndarray:
        k = (snap.key, viewer)
        hit = self._cache.get(k)
        if hit is None:
            hit = self._cache[k] = visible_mask(snap, [viewer])
            while len(self._cache) > SIGHT_CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(k)
        return hit

    def _now(self, look: Look, who: str) -> np.ndarray:
        now = np.zeros(look.shape, dtype=bool)
        for cid, hexes in look.viewers.items():
            if who in (cid, POSSE):
                for v in sorted(hexes, key=lambda h: (h.q, h.r)):
                    s = self._sight(look.snap, v)
                    if s.shape == look.shape:
                        now |= s
        return now

    def resolve(self, upto: int | None = None) -> None:
        """Work out the sights of the looks before ``upto`` (None: all of them) and
        add them to the memory, in order."""
        with self._work:
            with self._lock:
                n = len(self._pending) if upto is None else max(0, upto - self._done)
                batch = self._pending[:n]
                for look in batch:
                    look.sealed = True
            if not batch:
                return
            seen = [{who: self._now(look, who) for who in [*look.viewers, POSSE]} for look in batch]
            with self._lock:
                for look, masks in zip(batch, seen, strict=True):
                    for who, mask in masks.items():
                        self._see(who, mask, look)
                del self._pending[: len(batch)]
                self._done += len(batch)

    def _see(self, who: str, mask: np.ndarray, look: Look) -> None:
        mem = self.memory.setdefault(who, SeenMemory())
        if mem.mask is None or mem.mask.shape == mask.shape:
            mem.add(mask)
        if not mask.any():
            return
        known = self.doors.setdefault(who, {})
        flat = mask.ravel()
        for door, hexes, is_open in look.doors:
            if flat[hexes].any():
                known[door] = is_open

    def seen(self, who: str, shape: tuple[int, int], mark: Mark | None = None) -> Seen:
        """``who``'s record (a character id or :data:`POSSE`) as of ``mark`` (None:
        now), copied, on a map of ``shape``; nothing seen when it does not fit."""
        upto, latest = mark if mark is not None else (None, self._latest)
        self.resolve(upto)
        with self._work:
            now = self._now(latest, who) if latest is not None else None
        with self._lock:
            mem = self.memory.get(who)
            ever = mem.mask.copy() if mem is not None and mem.mask is not None else None
            doors = dict(self.doors.get(who, {}))
        if now is None or now.shape != shape:
            now = np.zeros(shape, dtype=bool)
        if ever is None or ever.shape != shape:
            ever = now
        return Seen(now, ever | now, doors)


#: one figure as a step left it: token id, character id, side, hex, hidden, down
_Figure = tuple[str, str, str, tuple[int, int], bool, bool]


class FoeSightings:
    """Where each character of the posse and of the hombres last saw each foe: the
    autopilot's memory of a foe it no longer sees (issue 38: "what it saw earlier it
    may remember where it was last seen"), a threat to take cover from, never a
    target.

    Kept like the rest of the record: :meth:`note` (after every step, on the table's
    thread) only copies where the figures stand when that changed; the lines of sight
    (centre to centre, as the planner's own sight reads them) are worked out when the
    record is read (:meth:`last_seen`), in the order of the notes. A token hidden by
    the Judge is seen by no one; a foe seen down is forgotten (it is no threat). A
    replayed journal makes the same notes, so it rebuilds the same memory."""

    def __init__(self) -> None:
        #: observer character id -> foe character id -> the hex where it was last seen
        self.last: dict[str, dict[str, tuple[int, int]]] = {}
        self._pending: list[tuple[tuple[_Figure, ...], WallIndex, Map]] = []
        self._key: tuple[tuple[_Figure, ...], object] | None = None
        self._lock = threading.Lock()

    def note(self, table: Table) -> None:
        """Where the figures stand now, when they moved (or the walls changed) since
        the last note."""
        enc, m = table.encounter, table.map
        figures: list[_Figure] = []
        chars = {c.id: c for c in enc.characters}
        for t in enc.tokens:
            c = chars[t.character_id]
            if c.side in FOES and m.contains(Hex(*t.hex)):
                at = (t.hex[0], t.hex[1])
                figures.append((t.id, c.id, c.side, at, t.hidden, c.out_of_action))
        sides = {f[2] for f in figures}
        if len(sides) < 2:
            return  # nobody to see a foe
        built = table.walls_if_built()
        key = (tuple(figures), built)
        if built is not None and key == self._key:
            return
        walls = table.walls()
        self._key = (tuple(figures), walls)
        with self._lock:
            self._pending.append((tuple(figures), walls, m))

    def _resolve(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
            for figures, walls, m in batch:
                for _tid, who, side, at, _hidden, down in figures:
                    if down:
                        continue
                    mine = self.last.setdefault(who, {})
                    for _ftid, foe, fside, fat, hidden, fdown in figures:
                        if fside != FOES[side] or hidden:
                            continue
                        if not visible(m, walls, Hex(*at), Hex(*fat)):
                            continue
                        if fdown:
                            mine.pop(foe, None)
                        else:
                            mine[foe] = fat

    def last_seen(self, table: Table) -> dict[str, dict[str, tuple[int, int]]]:
        """The memory as of now (the table's figures noted first), copied."""
        self.note(table)
        self._resolve()
        with self._lock:
            return {who: dict(foes) for who, foes in self.last.items()}

    def adopt(self, last: dict[str, dict[str, tuple[int, int]]]) -> None:
        """Start from ``last`` (a planner's scratch copy of a table takes the table's
        memory)."""
        with self._lock:
            self.last = {who: dict(foes) for who, foes in last.items()}
            self._pending = []
