"""Hit odds counted off the deck's composition: every card once, never their order.

A check reads rows 1..X of column dY of one card (RULES.md "cause grid"): the best
cell is the result, any CF among them is a critical failure, and a face equal to Y
is open-ended (another card's same cell is added while it shows Y). The planner
asks how likely a result reaches a TN; it counts the cards of the deck as a set
(:attr:`~twtw_desktop.rules.deck.Deck.cards`, by number), so the draw pile's order —
hidden from everyone at the table — never feeds a plan.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules.base import Pool
from ..rules.card import Card

#: extension cards counted at most (the table stops after a few as well)
MAX_EXTENSIONS = 4
#: 002 Escalating Success: "when the TN is exceeded by 4, another success level is
#: generated ... a bump"
BUMP_STEP = 4
#: a bump spent on damage ("increase the damage row by one", 002), reckoned as this
#: share of a hit's worth
BUMP_WORTH = 0.25
#: bumps counted at most
MAX_BUMPS = 3


class DeckOdds:
    """The chance a pool reaches a number, counted over a deck's cards as a set."""

    def __init__(self, cards: Sequence[Card]) -> None:
        # by number: the same set in any order gives the same counts
        self._cards = tuple(sorted(cards, key=lambda c: c.number))
        self._n = len(self._cards)
        self._cache: dict[tuple[int, int, int], float] = {}
        self._columns: dict[tuple[int, int], tuple[int, ...]] = {}

    def _column(self, row: int, die: int) -> tuple[int, ...]:
        """Every card's face at (row, die); CF as 0 (it adds nothing, and ends)."""
        col = self._columns.get((row, die))
        if col is None:
            faces = (c.cause_cell(row, die) for c in self._cards)
            col = self._columns[(row, die)] = tuple(f if isinstance(f, int) else 0 for f in faces)
        return col

    def _extension_at_least(self, row: int, die: int, need: int, depth: int = 0) -> float:
        """P(the cells added to an exceptional face reach ``need``)."""
        if need <= 0:
            return 1.0
        if depth >= MAX_EXTENSIONS:
            return 0.0
        total = 0.0
        for f in self._column(row, die):
            if f == die:
                total += self._extension_at_least(row, die, need - die, depth + 1)
            elif f >= need:
                total += 1.0
        return total / self._n

    def chance(self, pool: Pool, need: int) -> float:
        """P(the pool's result ≥ ``need``): no CF among its cells, and its best cell,
        with an exceptional cell's extensions, at least ``need``."""
        key = (pool.count, pool.die, need)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        die = pool.die
        total = 0.0
        for card in self._cards:
            faces = [card.cause_cell(r, die) for r in range(1, pool.count + 1)]
            if any(not isinstance(f, int) for f in faces):
                continue  # a critical failure
            best = max(int(f) for f in faces)
            if best >= need:
                total += 1.0
                continue
            if best != die:
                continue
            # every exceptional cell extends apart: the pool reaches it when one does
            miss = 1.0
            for r, f in enumerate(faces, 1):
                if f == die:
                    miss *= 1.0 - self._extension_at_least(r, die, need - die)
            total += 1.0 - miss
        hit = total / self._n if self._n else 0.0
        self._cache[key] = hit
        return hit

    def worth(self, pool: Pool, need: int) -> float:
        """A hit's chance plus its expected bumps (each :data:`BUMP_WORTH` of a hit):
        a shot with a result penalty lands its hits with fewer bumps, so it is worth
        less than its chance alone says."""
        bumps = sum(self.chance(pool, need + BUMP_STEP * k) for k in range(1, MAX_BUMPS + 1))
        return self.chance(pool, need) + BUMP_WORTH * bumps
