"""The posse's fog of war, without Qt: what the posse sees now, what it remembers,
and what is certainly known while a new answer is worked out.

* **Who looks**: :func:`twtw_desktop.play.visibility.posse_viewers`.
* **What they see**: :func:`twtw_desktop.geometry.visibility.visible_mask` (a
  visibility polygon per viewer, "any part of a hex"), one viewer at a time and
  cached per viewer hex and wall version, so a posse member stepping to a new hex
  costs one viewer's sight. The sight is worked out on a frozen
  :class:`~twtw_desktop.geometry.visibility.SightSnapshot`, so the players' screen
  runs it in a worker thread (:meth:`FogOfWar.job`) and applies the answer when it
  comes (:meth:`FogOfWar.accept`); an answer for an older posse or older walls is
  dropped.
* **Until the answer comes** the fog keeps its last picture and
  :meth:`FogOfWar.knowledge` says only what is certain: the hexes seen by the
  viewers whose sight is already known for these walls. Tokens elsewhere wait.
* Sight uses every feature of the map, the Judge's secret ones too: a hidden wall
  blocks the posse's eyes whether or not the players know of it.
* **Remembered areas** (:class:`SeenMemory`) live as long as the document is open
  (not saved in the file). They are kept per hex of the map's *content*: when the
  map is resized with its content shifted, the memory shifts the same way, and the
  undo of the resize shifts it back (:meth:`SeenMemory.follow`); when the shift
  cannot be told, the memory is forgotten rather than misplaced.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..geometry.sight import map_hex_arrays
from ..geometry.visibility import SightSnapshot, visible_mask
from ..hexgrid import Hex, Layout, Orientation, hex_to_offset
from ..model import Encounter, Map
from .visibility import FogKnowledge

#: hex states in :meth:`FogOfWar.states`
UNKNOWN, REMEMBERED, SEEN = 0, 1, 2
#: viewer hexes whose sight is kept in the cache
SIGHT_CACHE_SIZE = 64


def _offsets(
    q: np.ndarray, r: np.ndarray, orientation: Orientation
) -> tuple[np.ndarray, np.ndarray]:
    if orientation.value == "pointy":
        return q + (r - (r & 1)) // 2, r
    return q, r + (q - (q & 1)) // 2


def shift_mask(
    mask: np.ndarray, orientation: Orientation, t: Hex, shape: tuple[int, int]
) -> np.ndarray:
    """``mask`` (rows, cols) moved by the hex translation ``t`` onto a map of
    ``shape``; what falls off is dropped."""
    out = np.zeros(shape, dtype=bool)
    rr, cc = np.nonzero(mask)
    if len(rr) == 0:
        return out
    if orientation.value == "pointy":
        q, r = cc - (rr - (rr & 1)) // 2, rr
    else:
        q, r = cc, rr - (cc - (cc & 1)) // 2
    c2, r2 = _offsets(q + t.q, r + t.r, orientation)
    ok = (c2 >= 0) & (c2 < shape[1]) & (r2 >= 0) & (r2 < shape[0])
    out[r2[ok], c2[ok]] = True
    return out


@dataclass(frozen=True, slots=True)
class _Anchors:
    """Where the map's content stood, to tell how a resize shifted it."""

    shape: tuple[int, int]
    orientation: Orientation
    tokens: dict
    pins: dict  # notes and markers: id → hex
    points: dict  # features' first points and labels: id → (x, y)


def anchors(encounter: Encounter, game_map: Map) -> _Anchors:
    return _Anchors(
        (game_map.rows, game_map.cols),
        game_map.orientation,
        {t.id: t.at for t in encounter.tokens},
        {
            **{n.id: Hex(*n.hex) for n in game_map.notes},
            **{x.id: Hex(*x.hex) for x in game_map.markers},
        },
        {
            **{f.id: tuple(f.points[0]) for f in game_map.features if f.points},
            **{lab.id: tuple(lab.at) for lab in game_map.labels},
        },
    )


def content_shift(old: _Anchors, new: _Anchors, layout: Layout) -> Hex | None:
    """The hex translation that carried the content from ``old`` to ``new`` — the
    same for every token, note, marker, wall and label both know — or None when
    they disagree. No common thing at all: no shift."""
    deltas = {new.tokens[k] - v for k, v in old.tokens.items() if k in new.tokens}
    deltas |= {new.pins[k] - v for k, v in old.pins.items() if k in new.pins}
    moves = {
        (round(new.points[k][0] - v[0], 6), round(new.points[k][1] - v[1], 6))
        for k, v in old.points.items()
        if k in new.points
    }
    if len(deltas) > 1 or len(moves) > 1:
        return None
    t = next(iter(deltas)) if deltas else None
    if moves:
        dx, dy = next(iter(moves))
        o = layout.hex_to_pixel(Hex(0, 0))
        fq, fr = layout.fractional_hex(dx + o[0], dy + o[1])
        u = Hex(round(fq), round(fr))
        px = layout.hex_to_pixel(u)
        if abs(px[0] - o[0] - dx) > 1e-4 or abs(px[1] - o[1] - dy) > 1e-4:
            return None
        if t is not None and u != t:
            return None
        t = u
    return t if t is not None else Hex(0, 0)


class SeenMemory:
    """The hexes the posse has seen this session, as a ``(rows, cols)`` mask."""

    def __init__(self) -> None:
        self.mask: np.ndarray | None = None
        self._anchors: _Anchors | None = None

    def fit(self, shape: tuple[int, int]) -> np.ndarray:
        if self.mask is None or self.mask.shape != shape:
            self.mask = np.zeros(shape, dtype=bool)
        return self.mask

    def add(self, seen: np.ndarray) -> bool:
        """Remember ``seen``; True when that grew the memory."""
        m = self.fit(seen.shape)
        grew = bool((seen & ~m).any())
        if grew:
            m |= seen
        return grew

    def forget(self, keep: np.ndarray | None = None) -> None:
        if self.mask is not None:
            self.mask[:] = False
            if keep is not None and keep.shape == self.mask.shape:
                self.mask |= keep

    def follow(self, encounter: Encounter, game_map: Map, new: _Anchors | None = None) -> bool:
        """Keep the memory on the map's content after a change: shifted with a
        resize (or its undo), forgotten when the shift cannot be told. True when the
        memory moved or was dropped. ``new``: the map's :func:`anchors` now, when
        the caller has them already."""
        if new is None:
            new = anchors(encounter, game_map)
        old, self._anchors = self._anchors, new
        if old is None or self.mask is None:
            return False
        if old.shape == new.shape and old.orientation == new.orientation:
            return False
        if old.orientation != new.orientation:
            self.mask = np.zeros(new.shape, dtype=bool)
            return True
        t = content_shift(old, new, game_map.layout())
        if t is None:
            self.mask = np.zeros(new.shape, dtype=bool)
        else:
            self.mask = shift_mask(self.mask, new.orientation, t, new.shape)
        return True

    def hexes(self, game_map: Map) -> set[Hex]:
        if self.mask is None or self.mask.shape != (game_map.rows, game_map.cols):
            return set()
        hx = map_hex_arrays(game_map)
        sel = self.mask.ravel()
        return {Hex(int(q), int(r)) for q, r in zip(hx.q[sel], hx.r[sel], strict=True)}


@dataclass(frozen=True, slots=True)
class FogJob:
    """One sight computation to run off the GUI thread: the viewers whose sight is
    not cached yet, on a frozen snapshot of the walls."""

    snapshot: SightSnapshot
    viewers: tuple[Hex, ...]
    missing: tuple[Hex, ...]

    def run(self) -> dict[Hex, np.ndarray]:
        return {v: visible_mask(self.snapshot, [v]) for v in self.missing}


class FogOfWar:
    """What the posse sees now and remembers; no Qt, no drawing."""

    def __init__(self, memory: SeenMemory | None = None) -> None:
        self.memory = memory if memory is not None else SeenMemory()
        self.remember = True
        #: the complete answer for ``self.viewers`` on the current walls (None while
        #: it is being worked out)
        self.seen: np.ndarray | None = None
        self.viewers: tuple[Hex, ...] = ()
        self.shape: tuple[int, int] = (0, 0)
        self._key: tuple | None = None  # (shape, orientation, wall version) of the cache
        self._cache: OrderedDict[Hex, np.ndarray] = OrderedDict()
        #: the last picture drawn (kept while an answer is pending)
        self.shown_seen: np.ndarray | None = None
        #: sight computations run (tests read this to check the cache works)
        self.computed = 0

    # -- asking -----------------------------------------------------------------------

    def _walls_key(self, snap: SightSnapshot) -> tuple:
        return snap.key

    def job(self, snap: SightSnapshot, viewers: Iterable[Hex]) -> FogJob | None:
        """Set the posse and walls the fog is for. Returns None when every viewer's
        sight is known (the answer is ready in ``seen``), else the job to run."""
        key = self._walls_key(snap)
        if key != self._key:
            self._cache.clear()
            self._key = key
        self.shape = (snap.rows, snap.cols)
        vs = tuple(sorted(set(viewers), key=lambda h: (h.q, h.r)))
        self.viewers = vs
        missing = tuple(v for v in vs if v not in self._cache)
        if missing:
            self.seen = None
            return FogJob(snap, vs, missing)
        self._finish()
        return None

    def accept(self, job: FogJob, result: dict[Hex, np.ndarray]) -> bool:
        """Take a worker's answer. Sights for these walls go into the cache; the
        answer becomes current only when it completes the current posse. True when
        ``seen`` is now complete."""
        if self._walls_key(job.snapshot) != self._key:
            return False  # stale: the walls changed since
        for v, mask in result.items():
            self.computed += 1
            self._cache[v] = mask
            self._cache.move_to_end(v)
        while len(self._cache) > SIGHT_CACHE_SIZE:
            self._cache.popitem(last=False)
        if all(v in self._cache for v in self.viewers):
            self._finish()
            return True
        return False

    def compute_now(self, snap: SightSnapshot, viewers: Iterable[Hex]) -> None:
        """Work the answer out on this thread (tests, prints)."""
        job = self.job(snap, viewers)
        if job is not None:
            self.accept(job, job.run())

    def _finish(self) -> None:
        seen = np.zeros(self.shape, dtype=bool)
        for v in self.viewers:
            m = self._cache.get(v)
            if m is not None and m.shape == self.shape:
                seen |= m
        self.seen = seen
        self.shown_seen = seen
        if self.remember:
            self.memory.add(seen)

    @property
    def pending(self) -> bool:
        return self.seen is None

    def knowledge(self) -> FogKnowledge:
        """What is certainly seen now (see the module docstring)."""
        if self.seen is not None:
            return FogKnowledge(self.shape, seen=self.seen)
        known = np.zeros(self.shape, dtype=bool)
        for v in self.viewers:
            m = self._cache.get(v)
            if m is not None and m.shape == self.shape:
                known |= m
        return FogKnowledge(self.shape, known=known)

    # -- drawing -----------------------------------------------------------------------

    def forget(self) -> None:
        """Forget the remembered hexes (those seen now stay seen)."""
        self.memory.forget(self.shown_seen)

    def drop_cache(self) -> None:
        self._cache.clear()
        self._key = None
        self.seen = None

    def states(self, shape: tuple[int, int]) -> np.ndarray:
        """Every hex as UNKNOWN / REMEMBERED / SEEN, ``(rows, cols)``. While an
        answer is pending the last picture stays, but only on a map of the same
        shape; on a new shape (a resize) everything not remembered is unknown."""
        out = np.zeros(shape, dtype=np.uint8)
        if self.remember and self.memory.mask is not None and self.memory.mask.shape == shape:
            out[self.memory.mask] = REMEMBERED
        seen = self.seen if self.seen is not None else self.shown_seen
        if seen is not None and seen.shape == shape:
            out[seen] = SEEN
        return out

    def is_seen(self, h: Hex, orientation: Orientation) -> bool:
        return self.knowledge().sees(*hex_to_offset(h, orientation))
