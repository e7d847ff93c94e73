"""Checks: success, bumps, victories, adjustments and bonus counters (002).

* :func:`simple_check` / :func:`check_pool` — result ≥ TN succeeds; each full
  ``bump_every`` (4, or 3 with impetus) above the TN is a bump (002 "Escalating
  Success: Bumps"); a CF always fails and is a calamity.
* :class:`ComplexCheck` — TN plus a number of victories, one per full threshold (6)
  of the effect value, kept across actions (002 "Complex Checks").
* :class:`Adjustment` and helpers — direct, row and column adjustments (002
  "Applying Bonuses and Penalties"); column shifts never touch the cause grid.
* :class:`BonusPool` — the shared bonus counters and their spends (002 "The Bonus
  Counter").

Every answer carries ``reasons`` so the UI can show the Judge why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from ..errors import RulesError
from .base import CAUSE_ROWS, DIFFICULTIES, EFFECT_ROWS, Effect, Pool, Strict
from .card import Card
from .deck import CardSource, PoolRead, read_pool

#: 002 "Escalating Success: Bumps": a bump per full 4 over the TN (3 with impetus).
BUMP_EVERY = 4
BUMP_EVERY_WITH_IMPETUS = 3
#: 002 "Results and Effect": one victory per full 6 of effect.
VICTORY_THRESHOLD = 6
#: bounds of a complex check kept on a sheet (a broken file must not reach the arithmetic)
MAX_TN = 50
MAX_VICTORIES = 50
MAX_THRESHOLD = 20
#: 002 "Spending the Counter": a counter is worth +2, or +3 with As I planned!
BONUS_VALUE = 2
IMPETUS_BONUS_VALUE = 3


def _signed(n: int) -> str:
    return f"{n:+d}"


# =============================================================================
# Difficulty and simple checks
# =============================================================================


def difficulty_tn(name: str) -> int:
    """TN of a named difficulty (002 "Setting Difficulty"): Easy 3 … Incredible 11."""
    key = str(name).strip().lower()
    try:
        return DIFFICULTIES[key]
    except KeyError:
        known = ", ".join(k.title() for k in DIFFICULTIES)
        raise RulesError(f"{name!r} is not a difficulty; use one of {known}.") from None


class CheckResult(Strict):
    """The outcome of one check against a TN."""

    #: the final result after modifiers; None on a CF or when there is no result
    result: int | None
    tn: int
    success: bool
    bumps: int = 0
    #: a critical failure (CF) — a calamity
    calamity: bool = False
    #: the pool read behind the result, when the check read a card
    read: PoolRead | None = None
    reasons: tuple[str, ...] = ()


def simple_check(
    result: int | None, tn: int, *, cf: bool = False, bump_every: int = BUMP_EVERY
) -> CheckResult:
    """Judge a result against a TN (002 "Simple Checks", "Escalating Success: Bumps").

    Success when ``result ≥ tn``; bumps ``(result − tn) // bump_every`` on a
    success. ``cf`` (or no result at all) is a failure; ``cf`` also flags a calamity.
    """
    if bump_every < 1:
        raise RulesError("A bump needs the result to exceed the TN by at least 1.")
    reasons = [f"TN {tn}"]
    if cf:
        reasons.append("critical failure (CF): the check fails, a calamity")
        return CheckResult(result=None, tn=tn, success=False, calamity=True, reasons=tuple(reasons))
    if result is None:
        reasons.append("no result: the check fails")
        return CheckResult(result=None, tn=tn, success=False, reasons=tuple(reasons))
    if result >= tn:
        bumps = (result - tn) // bump_every
        reasons.append(
            f"result {result} ≥ TN {tn}: success"
            + (f", {bumps} bump(s) (one per full {bump_every} over)" if bumps else ", no bump")
        )
        return CheckResult(result=result, tn=tn, success=True, bumps=bumps, reasons=tuple(reasons))
    reasons.append(f"result {result} < TN {tn}: failure")
    return CheckResult(result=result, tn=tn, success=False, reasons=tuple(reasons))


#: A direct modifier to the result: an int, or (label, value) / (label, value, source).
ModifierItem = tuple[str, int] | tuple[str, int, str]


def _modifier_items(mod: int | Iterable[ModifierItem]) -> list[tuple[str, int, str]]:
    if isinstance(mod, int):
        return [("modifier", mod, "")] if mod else []
    items = []
    for item in mod:
        label, value, *rest = item
        items.append((str(label), int(value), str(rest[0]) if rest else ""))
    return items


def wins_outright(a: CheckResult, b: CheckResult) -> bool:
    """Whether side ``a`` of a contest read on one card wins outright: its own CF
    loses, the other side's CF wins, else the higher result; a tie is no win (004
    Delaying an Action: the tie stays with the acting character; 003 Entanglement:
    the attacker must win)."""
    if a.calamity:
        return False
    if b.calamity:
        return True
    return a.result is not None and b.result is not None and a.result > b.result


def check_pool(
    card: Card,
    pool: Pool | str,
    tn: int,
    more: CardSource | None = None,
    result_modifier: int | Iterable[ModifierItem] = 0,
    k: int = 0,
    *,
    bump_every: int = BUMP_EVERY,
) -> CheckResult:
    """Read ``pool`` on ``card`` and check its k-th best result against ``tn``.

    ``result_modifier`` is a direct adjustment to the result: a number, or itemised
    ``(label, value[, source])`` entries, each listed in the reasons. ``k`` picks the
    second (1), third (2)… result for further attacks (000 "Multiple Attacks").
    """
    pool = Pool.model_validate(pool)
    if not 0 <= k < pool.count:
        raise RulesError(
            f"A {pool} pool has only {pool.count} result(s); there is no result number {k + 1}."
        )
    items = _modifier_items(result_modifier)
    read = read_pool(card, pool, more)
    reasons = list(read.reasons)
    if read.is_cf:
        out = simple_check(None, tn, cf=True, bump_every=bump_every)
        return out.model_copy(update={"read": read, "reasons": tuple(reasons + list(out.reasons))})
    raw = read.result(k)
    assert raw is not None
    which = "best" if k == 0 else f"result {k + 1}"
    reasons.append(f"{which} of the pool: {raw}")
    total = raw
    for label, value, source in items:
        total += value
        reasons.append(f"{label} {_signed(value)}" + (f" ({source})" if source else ""))
    if items:
        reasons.append(f"result {total}")
    out = simple_check(total, tn, bump_every=bump_every)
    return out.model_copy(update={"read": read, "reasons": tuple(reasons + list(out.reasons))})


# =============================================================================
# Complex checks
# =============================================================================


def victories(effect_value: int, threshold: int = VICTORY_THRESHOLD) -> int:
    """Victories in an effect value: one per full ``threshold`` (002 "Results and
    Effect"; partial victories are dropped)."""
    if threshold < 1:
        raise RulesError("The victory threshold must be at least 1.")
    return max(effect_value, 0) // threshold


class ComplexResult(Strict):
    """What one action did for a complex check."""

    success: bool
    calamity: bool = False
    bumps: int = 0
    victories_gained: int = 0
    progress: int
    needed: int
    remaining: int
    complete: bool
    reasons: tuple[str, ...] = ()


class ComplexCheck(Strict):
    """A complex check in progress (002 "Complex Checks"): a TN for progress and a
    number of victories for completion, collected over one or more actions."""

    tn: Annotated[int, Field(ge=0, le=MAX_TN)]
    needed: Annotated[int, Field(ge=1, le=MAX_VICTORIES)]
    threshold: Annotated[int, Field(ge=1, le=MAX_THRESHOLD)] = VICTORY_THRESHOLD
    progress: Annotated[int, Field(ge=0, le=MAX_VICTORIES)] = 0

    @model_validator(mode="after")
    def _not_past_done(self) -> ComplexCheck:
        if self.progress > self.needed:
            raise ValueError("a complex check keeps no more victories than it needs")
        return self

    @property
    def complete(self) -> bool:
        return self.progress >= self.needed

    @property
    def remaining(self) -> int:
        return max(self.needed - self.progress, 0)

    def advance(
        self,
        result: int | None,
        effect_value: int | None,
        cf: bool = False,
        *,
        bump_every: int = BUMP_EVERY,
    ) -> tuple[ComplexCheck, ComplexResult]:
        """One action on the check: returns the updated check and what happened.

        A success adds ``victories(effect_value, threshold)``; a failure or CF adds
        nothing. Victories beyond the ones needed are not kept.
        """
        if self.complete:
            raise RulesError("This complex check is already complete.")
        check = simple_check(result, self.tn, cf=cf, bump_every=bump_every)
        reasons = list(check.reasons)
        gained = 0
        if check.success:
            if effect_value is None:
                raise RulesError("A successful complex check needs its effect value.")
            gained = victories(effect_value, self.threshold)
            reasons.append(f"effect {effect_value}: {gained} victory(ies) at {self.threshold} each")
        progress = min(self.progress + gained, self.needed)
        new = self.model_copy(update={"progress": progress})
        if new.complete:
            reasons.append(f"{progress} of {self.needed} victories: complete")
        else:
            reasons.append(f"{progress} of {self.needed} victories: {new.remaining} to go")
        return new, ComplexResult(
            success=check.success,
            calamity=check.calamity,
            bumps=check.bumps,
            victories_gained=gained,
            progress=progress,
            needed=self.needed,
            remaining=new.remaining,
            complete=new.complete,
            reasons=tuple(reasons),
        )


# =============================================================================
# Adjustments
# =============================================================================


class AdjustmentKind(StrEnum):
    """002's three kinds of adjustment."""

    DIRECT = "direct"  # add to the result in the cell
    ROW = "row"  # change the row: the pool size / the effect row
    COLUMN = "column"  # change the column: the die type (effect grid only)


class Grid(StrEnum):
    CAUSE = "cause"
    EFFECT = "effect"


def column_adjustment_allowed(grid: Grid | str) -> bool:
    """True for the effect grid; the cause grid refuses any column shift (002
    "Applying Bonuses and Penalties", rule 1)."""
    if Grid(grid) is Grid.CAUSE:
        raise RulesError("Column adjustments never apply to the cause grid.")
    return True


class Adjustment(Strict):
    """One adjustment the Judge announces before the card is drawn."""

    kind: AdjustmentKind
    grid: Grid
    amount: int
    label: str = ""
    source: str = ""

    def check(self) -> Adjustment:
        """Raise RulesError if the rules refuse this adjustment; else return it."""
        if self.kind is AdjustmentKind.COLUMN:
            column_adjustment_allowed(self.grid)
        return self

    def describe(self) -> str:
        what = {
            AdjustmentKind.DIRECT: "to the result",
            AdjustmentKind.ROW: "row(s)",
            AdjustmentKind.COLUMN: "column(s)",
        }[self.kind]
        text = f"{self.label or self.kind.value} {_signed(self.amount)} {what} ({self.grid.value})"
        return text + (f" — {self.source}" if self.source else "")


def apply_row_adjustment(pool: Pool | str, n: int) -> Pool:
    """Grow or shrink a cause pool by ``n`` dice, kept within 1..5 (002: a row
    adjustment just changes the size of the pool)."""
    pool = Pool.model_validate(pool)
    return Pool(count=min(max(pool.count + n, 1), CAUSE_ROWS), die=pool.die)


def apply_effect_row_adjustment(effect: Effect | str, n: int) -> Effect:
    """Move an effect ``n`` rows, kept within 1..7. Damage bumps that run past row 7
    (+1 each) belong in ``read_effect(damage_bumps=...)`` instead."""
    effect = Effect.model_validate(effect)
    return Effect(row=min(max(effect.row + n, 1), EFFECT_ROWS), die=effect.die)


def split_adjustments(
    adjustments: Iterable[Adjustment],
) -> tuple[int, int, int, list[str]]:
    """Check and total a list of adjustments: ``(direct, rows, columns, reasons)``."""
    direct = rows = cols = 0
    reasons = []
    for adj in adjustments:
        adj.check()
        if adj.kind is AdjustmentKind.DIRECT:
            direct += adj.amount
        elif adj.kind is AdjustmentKind.ROW:
            rows += adj.amount
        else:
            cols += adj.amount
        reasons.append(adj.describe())
    return direct, rows, cols, reasons


# =============================================================================
# Bonus counters
# =============================================================================


class BonusSpend(StrEnum):
    """002 "Spending the Counter"."""

    RIGHT_ON = "right_on"  # +2 on the cause grid, bumps only
    ACES = "aces"  # +2 to an effect result
    AS_I_PLANNED = "as_i_planned"  # +3 to an effect result, with an invoked impetus
    GOT_YOUR_BACK = "got_your_back"  # hand the counter to another player


def right_on(result: int, tn: int, bump_every: int = BUMP_EVERY) -> int:
    """Right on!: +2 on the cause grid for more bumps; returns the new bump count.

    002: it only adds bumps and never turns a failure into a success, so a failed
    check refuses it.
    """
    if result < tn:
        raise RulesError("Right on! only adds bumps to a success; it cannot rescue a failure.")
    if bump_every < 1:
        raise RulesError("A bump needs the result to exceed the TN by at least 1.")
    return (result + BONUS_VALUE - tn) // bump_every


class SpendResult(Strict):
    """What spending one counter gives."""

    kind: BonusSpend
    player: str
    #: added to an effect-grid result (Aces!, As I planned!)
    effect_bonus: int = 0
    #: the new bump count (Right on!)
    bumps: int | None = None
    #: who receives the counter (I've got your back!)
    target: str | None = None
    reasons: tuple[str, ...] = ()


class BonusPool(Strict):
    """The shared bonus counters of one session (002 "The Bonus Counter").

    ``available`` counters sit in the pool; ``holders`` lists the players holding
    one (never more than one each). Methods return a new pool.
    """

    players: tuple[str, ...]
    available: Annotated[int, Field(ge=0)]
    holders: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_each(self) -> BonusPool:
        if len(set(self.holders)) != len(self.holders):
            raise ValueError("no player may hold more than one bonus counter")
        strangers = [h for h in self.holders if h not in self.players]
        if strangers:
            raise ValueError(f"{strangers[0]!r} is not a player of this session")
        return self

    @classmethod
    def new_session(cls, players: Sequence[str], size: int | None = None) -> BonusPool:
        """The Judge's pool at the start of a session: by default one counter fewer
        than there are players (002)."""
        n = max(len(players) - 1, 0) if size is None else size
        if n < 0:
            raise RulesError("A bonus pool cannot hold a negative number of counters.")
        return cls(players=tuple(players), available=n)

    def holds(self, player: str) -> bool:
        return player in self.holders

    def _known(self, player: str) -> None:
        if player not in self.players:
            raise RulesError(f"{player} is not a player in this session.")

    def earn(self, player: str) -> BonusPool:
        """Take a counter from the pool (usually a bump spend, 002 "Spending Bumps")."""
        self._known(player)
        if player in self.holders:
            raise RulesError(f"{player} already holds a bonus counter; nobody may hold two.")
        if self.available < 1:
            raise RulesError("The bonus pool is empty.")
        return self.model_copy(
            update={"available": self.available - 1, "holders": (*self.holders, player)}
        )

    def _returned(self, player: str) -> BonusPool:
        return self.model_copy(
            update={
                "available": self.available + 1,
                "holders": tuple(h for h in self.holders if h != player),
            }
        )

    def spend(
        self,
        player: str,
        kind: BonusSpend | str,
        *,
        result: int | None = None,
        tn: int | None = None,
        impetus: bool = False,
        bump_every: int = BUMP_EVERY,
    ) -> tuple[BonusPool, SpendResult]:
        """Spend ``player``'s counter; it goes straight back to the pool.

        Right on! needs the check's ``result`` and ``tn`` and refuses a failure;
        As I planned! needs ``impetus=True``. For I've got your back! use
        :meth:`got_your_back`.
        """
        kind = BonusSpend(kind)
        self._known(player)
        if player not in self.holders:
            raise RulesError(f"{player} holds no bonus counter to spend.")
        if kind is BonusSpend.RIGHT_ON:
            if result is None or tn is None:
                raise RulesError("Right on! needs the check's result and TN.")
            bumps = right_on(result, tn, bump_every)
            out = SpendResult(
                kind=kind,
                player=player,
                bumps=bumps,
                reasons=(
                    f"Right on!: result {result} + {BONUS_VALUE} vs TN {tn} → {bumps} bump(s)",
                ),
            )
        elif kind is BonusSpend.ACES:
            out = SpendResult(
                kind=kind,
                player=player,
                effect_bonus=BONUS_VALUE,
                reasons=(f"Aces!: +{BONUS_VALUE} to the effect result",),
            )
        elif kind is BonusSpend.AS_I_PLANNED:
            if not impetus:
                raise RulesError("As I planned! needs the player to invoke an impetus.")
            out = SpendResult(
                kind=kind,
                player=player,
                effect_bonus=IMPETUS_BONUS_VALUE,
                reasons=(f"As I planned!: +{IMPETUS_BONUS_VALUE} to the effect result (impetus)",),
            )
        else:
            raise RulesError("Use got_your_back() to hand a counter to another player.")
        return self._returned(player), out

    def got_your_back(
        self, helper: str, target: str, *, target_spends_own: bool = False
    ) -> tuple[BonusPool, SpendResult]:
        """I've got your back!: ``helper`` hands their counter to ``target`` to spend.

        The target may not already hold one, unless they are spending it on this same
        action (``target_spends_own=True``): that counter goes back to the pool first
        (the caller applies its spend).
        """
        self._known(helper)
        self._known(target)
        if helper == target:
            raise RulesError("I've got your back! helps another player, not yourself.")
        if helper not in self.holders:
            raise RulesError(f"{helper} holds no bonus counter to hand over.")
        pool = self
        reasons = [f"I've got your back!: {helper} hands a counter to {target}"]
        if target in self.holders:
            if not target_spends_own:
                raise RulesError(
                    f"{target} already holds a bonus counter; they must spend it on this "
                    "action to receive another."
                )
            pool = pool._returned(target)
            reasons.append(f"{target} spends their own counter on this action first")
        holders = tuple(target if h == helper else h for h in pool.holders)
        pool = pool.model_copy(update={"holders": holders})
        return pool, SpendResult(
            kind=BonusSpend.GOT_YOUR_BACK, player=helper, target=target, reasons=tuple(reasons)
        )

    def end_session(self) -> BonusPool:
        """Counters still held at the end of a session are lost (002 rule 3)."""
        return self.model_copy(update={"holders": ()})
