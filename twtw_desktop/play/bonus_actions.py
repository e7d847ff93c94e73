"""The group's bonus counters (002 The Bonus Counter, Spending the Counter).

The Judge sets the session's shared pool in the Rules dialog (``bonus_pool``,
generally one less than the number of players). A character earns a counter with a
bump spent on it (``take_counter``) while the pool has one free and they hold none —
no one ever holds more than one. A held counter is spent on an attack or a check
(``counter`` on the attack and check actions: *Right on!* +2 in the cause grid,
bumps only; *Aces!* +2 to an effect result; *As I planned!* +3 with an impetus), on
a result the table does not resolve (``spend_counter``), or handed to another player
who holds none (``give_counter``, *I've got your back!*). A spent counter goes
straight back to the pool; unspent ones are lost at the end of the session
(``lose_counters``).

The pool itself is not a number that changes: the counters free are the pool less
those held, so giving one back is the holder's sheet changing, and undo is the
sheets' undo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..errors import RulesError
from ..rules.character import Character
from .actions import Action, Who, register
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_COUNTER = "002 The Bonus Counter"
SRC_SPEND = "002 Spending the Counter"

CounterSpend = Literal["right_on", "aces", "as_i_planned"]

#: what each spend is worth and where it goes (002 Spending the Counter)
SPENDS: dict[str, tuple[str, int, str]] = {
    "right_on": ("Right on!", 2, "cause grid: more bumps, never a success"),
    "aces": ("Aces!", 2, "an effect grid result"),
    "as_i_planned": ("As I planned!", 3, "an effect grid result, invoking an impetus"),
}


def counters_free(table: Table) -> int:
    """Counters in the pool now: the session's pool less those held."""
    held = sum(1 for c in table.encounter.characters if c.bonus_counter)
    return max(table.encounter.options.bonus_pool - held, 0)


def spend_refusal(c: Character, spend: str | None) -> str | None:
    """Why ``c`` cannot spend a counter now (None: they can, or nothing is spent)."""
    if spend is None:
        return None
    if spend not in SPENDS:
        return f"{spend!r} is not a bonus counter spend ({', '.join(SPENDS)})."
    if not c.bonus_counter:
        return f"{c.name} holds no bonus counter to spend ({SRC_SPEND})."
    return None


def spend_note(c: Character, spend: str) -> str:
    name, value, where = SPENDS[spend]
    return f"{c.name} spends a bonus counter: {name} +{value} ({where}); it is back in the pool"


def spend_counter_on(c: Character, spend: str) -> str:
    """Give ``c``'s counter back to the pool (inside a step); the log note."""
    c.bonus_counter = False
    return spend_note(c, spend)


class _CounterAction(Action):
    """A step on the bonus counters: only sheets (who holds one) and the log change."""

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "log"})


@register
class TakeCounter(_CounterAction):
    """A bump spent on a bonus counter (002 Spending Bumps: Bonus Counter)."""

    do: Literal["take_counter"] = "take_counter"
    who: Who
    page: ClassVar[str] = "002 Spending Bumps (Bonus Counter) / The Bonus Counter"
    summary: ClassVar[str] = "a bump spent on a bonus counter from the group's pool"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} takes a bonus counter"

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if table.encounter.options.bonus_pool == 0:
            return (
                "The Judge has set no bonus pool for this session (Rules: bonus pool, "
                f"{SRC_COUNTER})."
            )
        if c.bonus_counter:
            return f"{c.name} holds a bonus counter already: no one holds more than one (002)."
        if counters_free(table) == 0:
            return f"Every counter of the pool is held: none to take ({SRC_COUNTER})."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        c.bonus_counter = True
        text = f"{c.name} takes a bonus counter ({counters_free(table)} left in the pool)"
        table.log(text, "note", {"rule": SRC_COUNTER})
        return TableEvent(text, {"free": counters_free(table)})


@register
class GiveCounter(_CounterAction):
    """*I've got your back!* (002): instead of acting, the holder helps another
    player, who may spend the counter; the other may not already hold one."""

    do: Literal["give_counter"] = "give_counter"
    who: Who
    to: Who
    page: ClassVar[str] = SRC_SPEND
    summary: ClassVar[str] = "I've got your back!: hand the counter to another player"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} hands a bonus counter on"

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        other, _ = table.actor(self.to)
        if not c.bonus_counter:
            return f"{c.name} holds no bonus counter to hand on ({SRC_SPEND})."
        if other.id == c.id:
            return "I've got your back! helps another player, not oneself."
        if other.bonus_counter:
            return (
                f"{other.name} holds a bonus counter already and may not take another "
                f"({SRC_SPEND}: I've got your back!)."
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        other, _ = table.actor(self.to)
        c.bonus_counter = False
        other.bonus_counter = True
        text = (
            f"{c.name} has {other.name}'s back: the bonus counter is {other.name}'s to spend "
            "(a Fast action instead of acting, 002)"
        )
        table.log(text, "note", {"rule": SRC_SPEND})
        return TableEvent(text)


@register
class SpendCounter(_CounterAction):
    """Spend a held counter on a result the table does not resolve itself (the attack
    and the check take theirs as ``counter``)."""

    do: Literal["spend_counter"] = "spend_counter"
    who: Who
    spend: CounterSpend
    page: ClassVar[str] = SRC_SPEND
    summary: ClassVar[str] = "spend a held bonus counter: Right on!, Aces! or As I planned!"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} spends a bonus counter"

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        return spend_refusal(c, self.spend)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        text = spend_counter_on(c, self.spend)
        table.log(text, "note", {"rule": SRC_SPEND})
        return TableEvent(text)


@register
class LoseCounters(_CounterAction):
    """The end of the session: unspent counters are lost (002, rule 3)."""

    do: Literal["lose_counters"] = "lose_counters"
    page: ClassVar[str] = SRC_COUNTER
    summary: ClassVar[str] = "the session ends: unspent bonus counters are lost"
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return "Unspent bonus counters are lost"

    def why_not(self, table: Table) -> str | None:
        if not any(c.bonus_counter for c in table.encounter.characters):
            return "No one holds a bonus counter."
        return None

    def apply(self, table: Table) -> TableEvent:
        held = [c for c in table.encounter.characters if c.bonus_counter]
        for c in held:
            c.bonus_counter = False
        names = ", ".join(c.name for c in held)
        text = f"The session ends: {names} lose their unspent bonus counter(s) ({SRC_COUNTER})"
        table.log(text, "note", {"rule": SRC_COUNTER})
        return TableEvent(text)


def counter_refusal(table: Table, who: str, spend: str | None) -> str | None:
    """``why_not`` of an attack or check that spends a counter."""
    try:
        c, _ = table.actor(who)
    except RulesError as e:
        return str(e)
    return spend_refusal(c, spend)


__all__ = [
    "SPENDS",
    "GiveCounter",
    "LoseCounters",
    "SpendCounter",
    "TakeCounter",
    "counter_refusal",
    "counters_free",
    "spend_counter_on",
]
