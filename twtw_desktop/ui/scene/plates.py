"""Name plates laid out so that none covers another (issue #27: "Laroq gu Laroq gun…"
on the TV): the posse first, then top to bottom, each plate takes the full name where
it is free, else the initials, else none (the disc still has them).

:class:`PlateLayout` keeps what it laid out, so that one token's move re-lays only the
plates it can reach: a plate's choice depends only on the plates placed before it
whose boxes meet its own, so the plates to lay again are those linked to the moved
token (its old or its new place) by a chain of meeting boxes — one or two on most
maps, where laying out every token on screen took about a millisecond per move with
200 of them (``move_undo_200_tokens``). Everything else (a new zoom, tokens added,
removed, shown or hidden) lays every plate out again.

The boxes are plain numbers ``(left, top, right, bottom)`` in scene units, kept in a
grid of cells two hexes wide so that a box is compared with its cells' boxes only;
two boxes meet when they overlap with an area (touching is free, as
``QRectF.intersects``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...play.visibility import token_named
from .token_item import POSSE_SIDE, TokenItem, initials

Box = tuple[float, float, float, float]
Cell = tuple[int, int]
#: the order plates are laid out in: the posse first, then top to bottom, left to right
Key = tuple[bool, float, float, str]


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class PlateLayout:
    """The name plates of one scene's tokens (see the module docstring)."""

    def __init__(self) -> None:
        self._reset(None)

    def _reset(self, scale: float | None) -> None:
        self._cell = 1.0
        self._scale = scale
        self._items: dict[str, TokenItem] = {}
        self._key: dict[str, Key] = {}
        #: each token's candidates in order, (what to draw, box): the full name (None),
        #: then the initials; None for a token whose look shows no name
        self._cands: dict[str, tuple[tuple[str | None, Box], ...] | None] = {}
        #: the box holding every candidate of a token: what its choice can touch
        self._reach: dict[str, Box] = {}
        self._reach_grid: dict[Cell, set[str]] = {}
        self._placed: dict[str, Box] = {}
        self._placed_grid: dict[Cell, dict[str, Box]] = {}

    # -- the two ways in ------------------------------------------------------------
    def lay_out(self, items: list[TokenItem], scale: float | None) -> None:
        """Every plate of ``items`` (the tokens shown, drawn at ``scale``) afresh."""
        self._reset(scale)  # the last layout forgotten
        if items:
            self._cell = 2.0 * items[0].frame.unit
        for it in items:
            self._items[it.token_id] = it
            self._take(it)
        self._place(sorted(self._items, key=self._key.__getitem__))

    def moved(self, items: list[TokenItem], token_ids: Iterable[str], scale: float | None) -> None:
        """Only the plates ``token_ids`` (moved, renamed) can reach laid out again,
        when ``items`` are the same tokens as last time at the same ``scale``; else
        every plate."""
        if (
            scale != self._scale
            or len(items) != len(self._items)
            or any(self._items.get(it.token_id) is not it for it in items)
        ):
            self.lay_out(items, scale)
            return
        changed = [t for t in token_ids if t in self._items]
        reach = [self._reach[t] for t in changed if t in self._reach]
        for t in changed:
            self._forget(t)
            self._take(self._items[t])
        reach += [self._reach[t] for t in changed if t in self._reach]
        hit = set(changed)
        while reach:  # every plate a chain of meeting boxes links to a change
            box = reach.pop()
            for cell in self._cells(box):
                for t in self._reach_grid.get(cell, ()):
                    if t not in hit and _meet(box, self._reach[t]):
                        hit.add(t)
                        reach.append(self._reach[t])
        for t in hit:
            self._unplace(t)
        self._place(sorted(hit, key=self._key.__getitem__))

    # -- the parts -----------------------------------------------------------------
    def _cells(self, box: Box) -> list[Cell]:
        c = self._cell
        return [
            (cx, cy)
            for cx in range(int(box[0] // c), int(box[2] // c) + 1)
            for cy in range(int(box[1] // c), int(box[3] // c) + 1)
        ]

    def _take(self, it: TokenItem) -> None:
        """Note a token's order and candidates, and index what they can reach."""
        tid = it.token_id
        p = it.pos()
        x, y = p.x(), p.y()
        self._key[tid] = (it.side != POSSE_SIDE, y, x, tid)
        if not token_named(it.character, it.look.names):
            self._cands[tid] = None
            return
        scale = self._scale
        cands = []
        for draw, text in ((None, it.full_plate_text(scale)), (initials(it.name),) * 2):
            left, top, right, bottom = it.plate_box(text, scale)
            cands.append((draw, (left + x, top + y, right + x, bottom + y)))
        self._cands[tid] = tuple(cands)
        reach = (
            min(b[0] for _d, b in cands),
            min(b[1] for _d, b in cands),
            max(b[2] for _d, b in cands),
            max(b[3] for _d, b in cands),
        )
        self._reach[tid] = reach
        for cell in self._cells(reach):
            self._reach_grid.setdefault(cell, set()).add(tid)

    def _forget(self, tid: str) -> None:
        reach = self._reach.pop(tid, None)
        if reach is not None:
            for cell in self._cells(reach):
                self._reach_grid[cell].discard(tid)

    def _unplace(self, tid: str) -> None:
        box = self._placed.pop(tid, None)
        if box is not None:
            for cell in self._cells(box):
                del self._placed_grid[cell][tid]

    def _blocked(self, box: Box, key: Key) -> bool:
        """Whether a plate placed before ``key`` meets ``box``."""
        for cell in self._cells(box):
            for t, other in self._placed_grid.get(cell, {}).items():
                if _meet(box, other) and self._key[t] < key:
                    return True
        return False

    def _place(self, order: list[str]) -> None:
        for tid in order:
            it = self._items[tid]
            cands = self._cands[tid]
            if cands is None:
                it.set_plate_text(None)
                continue
            key = self._key[tid]
            chosen: str | None = ""  # no room even for the initials: no plate
            for draw, box in cands:
                if not self._blocked(box, key):
                    chosen = draw
                    self._placed[tid] = box
                    for cell in self._cells(box):
                        self._placed_grid.setdefault(cell, {})[tid] = box
                    break
            it.set_plate_text(chosen)
