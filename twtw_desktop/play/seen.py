"""What each posse character has seen this session (issue 36), kept by the table.

A player's page shows only the hexes its character has seen; the record of them is
the table's, not the pages', so that every page, the service restarted, and a
session recovered from its journal agree.

* **When the record looks.** After every table step (done, merged, undone, redone:
  :meth:`~twtw_desktop.play.table.Table.run` and its undo/redo tell it) and when a
  frame for the pages is made (:meth:`SightRecord.look`). Each posse character looks
  from its own token (:func:`~twtw_desktop.play.visibility.character_viewers`); the
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
* **Cost on the Judge's thread**: one visibility polygon per character whose hex or
  walls changed (a cache per viewer hex and walls), about 1–2 ms; nothing when only
  NPCs move.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..geometry.hexcut import hexes_touching
from ..geometry.visibility import SightSnapshot, visible_mask
from ..geometry.walls import WallIndex
from ..hexgrid import Hex
from ..model import Encounter, Map
from .fog import SIGHT_CACHE_SIZE, SeenMemory
from .visibility import POSSE_SIDE, character_viewers


class Table(Protocol):
    """What the record reads of a :class:`~twtw_desktop.play.table.Table`."""

    encounter: Encounter
    map: Map

    def walls(self) -> WallIndex: ...
    def walls_if_built(self) -> WallIndex | None: ...


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


class SightRecord:
    """The session's record of what each posse character has seen (module docstring)."""

    def __init__(self) -> None:
        self.memory: dict[str, SeenMemory] = {}
        self.now: dict[str, np.ndarray] = {}
        self.doors: dict[str, dict[str, bool]] = {}
        self.snapshot: SightSnapshot | None = None
        self._walls: object | None = None
        self._cache: OrderedDict[Hex, np.ndarray] = OrderedDict()
        self._key: tuple | None = None
        self._looked: tuple | None = None
        #: door id -> ((points, map shape), flat hex indices it touches)
        self._door_hexes: dict[str, tuple[tuple, np.ndarray]] = {}

    def sight_snapshot(self, table: Table) -> SightSnapshot:
        """The frozen walls of the table now (shared with the frames)."""
        walls = table.walls()
        if self.snapshot is None or self._walls is not walls:
            self.snapshot = SightSnapshot.of(table.map, walls)
            self._walls = walls
        return self.snapshot

    def _sight(self, snap: SightSnapshot, viewer: Hex) -> np.ndarray:
        hit = self._cache.get(viewer)
        if hit is None:
            hit = self._cache[viewer] = visible_mask(snap, [viewer])
            while len(self._cache) > SIGHT_CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(viewer)
        return hit

    @property
    def started(self) -> bool:
        return self._looked is not None

    def look(self, table: Table) -> None:
        """Bring the record up to the table's state now (module docstring)."""
        enc, m = table.encounter, table.map
        posse = [c.id for c in enc.characters if c.side == POSSE_SIDE]
        for cid in [*posse, POSSE]:
            self.memory.setdefault(cid, SeenMemory()).follow(enc, m)
        viewers = tuple((cid, tuple(character_viewers(enc, m, cid))) for cid in posse)
        same_walls = table.walls_if_built() is self._walls or not posse
        if self._looked is not None and self._looked[1] == viewers and same_walls:
            return  # nothing new to see
        snap = self.sight_snapshot(table)
        looked = (snap.key, viewers)
        if looked == self._looked:
            return
        if snap.key != self._key:
            self._cache.clear()
            self._key = snap.key
        self._looked = looked
        shape = (m.rows, m.cols)
        union = np.zeros(shape, dtype=bool)
        for cid in posse:
            now = np.zeros(shape, dtype=bool)
            for v in dict(viewers)[cid]:
                s = self._sight(snap, v)
                if s.shape == shape:
                    now |= s
            self._see(cid, now, table)
            union |= now
        self._see(POSSE, union, table)
        for gone in set(self.now) - {*posse, POSSE}:
            del self.now[gone]  # a character no longer in the posse stops looking

    def _see(self, who: str, now: np.ndarray, table: Table) -> None:
        self.now[who] = now
        self.memory[who].add(now)
        if not now.any():
            return
        doors = self.doors.setdefault(who, {})
        flat = now.ravel()
        for f in table.map.features:
            if f.kind not in STATEFUL:
                continue
            pts = (tuple(map(tuple, f.points)), now.shape, table.map.orientation)
            hit = self._door_hexes.get(f.id)
            if hit is None or hit[0] != pts:
                hit = self._door_hexes[f.id] = (pts, hexes_touching(table.map, f.points))
            if flat[hit[1]].any():
                doors[f.id] = bool(f.is_open)

    def seen(self, who: str, shape: tuple[int, int]) -> Seen:
        """A copy of ``who``'s record (a character id or :data:`POSSE`) on a map of
        ``shape``; nothing seen when the record does not fit the map."""
        now = self.now.get(who)
        mem = self.memory.get(who)
        ever = mem.mask if mem is not None else None
        if now is None or now.shape != shape:
            now = np.zeros(shape, dtype=bool)
        if ever is None or ever.shape != shape:
            ever = now
        return Seen(now.copy(), ever | now, dict(self.doors.get(who, {})))
