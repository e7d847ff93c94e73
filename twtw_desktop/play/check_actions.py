"""Checks at the table (002): one action for any simple or complex check.

``check`` names who, the trait and (optionally) the skill, the difficulty by name
(Easy 3 … Incredible 11, 002 Setting Difficulty) or as a TN, direct and row
adjustments (002 Applying Bonuses and Penalties), impetus (a bump every 3), and for a
complex check the victories needed and the victory threshold (002 Complex Checks,
Setting Victory Threshold). A complex check's progress is kept on the character's
sheet under its task name, so it carries over several actions, survives save and
reopen, and undo takes it back with the step. With a printed deck the card drawn is
typed in (``card``, ``more_cards``: a card by number or as typed).

House readings (the pages are silent):

* The effect grid a skill check reads is the check's own pool as ``(n)Y`` (the pool
  ``2d8`` reads effect ``(2)8``); ``effect`` names another when the Judge rules so.
* In action time a check costs what a skill costs (4 AP, 8 for a task needing full
  attention, 000 Skills During Action Time); in narrative time it is free.
* A complex check is taken off the sheet when it is complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator

from ..errors import RulesError
from ..rules import actions as A
from ..rules.base import DIFFICULTIES, Effect, Pool
from ..rules.card import Card
from ..rules.character import TRAITS, Character, CheckInProgress
from ..rules.checks import (
    BUMP_EVERY,
    BUMP_EVERY_WITH_IMPETUS,
    CheckResult,
    ComplexCheck,
    apply_row_adjustment,
    check_pool,
    simple_check,
)
from ..rules.combat.ancillary import apply_discharges, check_discharges, discharge_candidates
from ..rules.deck import read_effect
from ..rules.editions import victory_threshold
from .action_base import _log_event
from .actions import Action, Who, register
from .bonus_actions import SPENDS, CounterSpend, counter_refusal, spend_counter_on
from .cards import CardNeeded, CardRef, TypedCards, card_of
from .table import TableEvent
from .throw import assign_character

if TYPE_CHECKING:
    from .table import Table

SRC_CHECKS = "002 Simple Checks / Complex Checks"
#: 001/003 call 000's Coordination "Dexterity": the same sheet trait
TRAIT_ALIASES = {"dexterity": "coordination"}
Name = Annotated[str, Field(min_length=1, max_length=60)]


def trait_key(name: str) -> str:
    """The sheet's trait for a name as the pages write it ("Dexterity" → coordination)."""
    key = name.strip().lower()
    key = TRAIT_ALIASES.get(key, key)
    if key not in TRAITS:
        known = ", ".join(t.title() for t in TRAITS)
        raise RulesError(f"{name!r} is not a trait; use one of {known} (or Dexterity).")
    return key


def difficulty_of(value: str | int) -> tuple[int, str]:
    """(TN, how it was named): a difficulty name (002 Setting Difficulty) or a TN."""
    if isinstance(value, int):
        return value, f"TN {value}"
    key = value.strip().lower()
    if key.isdigit():
        return int(key), f"TN {key}"
    if key not in DIFFICULTIES:
        known = ", ".join(f"{k.title()} {v}" for k, v in DIFFICULTIES.items())
        raise RulesError(f"{value!r} is not a difficulty; use a TN or one of {known} (002).")
    return DIFFICULTIES[key], f"{key.title()} ({DIFFICULTIES[key]})"


def check_pool_for(
    c: Character, trait: str, skill: str | None, rows: int = 0
) -> tuple[Pool, list[str]]:
    """The check's cause pool: skill level × the trait's die, the trait's pool when
    unskilled (002), then any row adjustment (002: a row changes the pool size)."""
    key = trait_key(trait)
    tpool = c.trait_pool(key)
    level = c.skill_level(skill) if skill else 0
    if skill and level >= 1:
        pool = Pool(count=level, die=tpool.die)
        why = [f"{skill} {level} with {key.title()} d{tpool.die}: {pool}"]
    else:
        pool = tpool
        why = [f"{key.title()} {pool}" + (f" (unskilled in {skill})" if skill else "")]
    if rows:
        pool = apply_row_adjustment(pool, rows)
        why.append(f"row adjustment {rows:+d}: {pool} (002 Applying Bonuses and Penalties)")
    return pool, why


def last_action_card(table: Table, character_id: str) -> int | None:
    """The card that resolved the character's last attack or check this scene (the
    log's most recent one), or None."""
    for entry in reversed(table.encounter.log[-200:]):
        d = entry.detail or {}
        if entry.kind == "attack":
            rec = d.get("record") or {}
            mine = rec.get("attacker_id") == character_id and rec.get("stray_of") is None
            if mine and rec.get("cards"):
                return int(rec["cards"][0])
        elif entry.kind == "check" and d.get("who") == character_id and d.get("card"):
            return int(d["card"])
    return None


@register
class Check(Action):
    """Any check (002): simple, or one action on a complex check."""

    do: Literal["check"] = "check"
    who: Who
    trait: Name
    skill: Name | None = None
    #: a difficulty name (Easy, Standard, Challenging, Difficult, Incredible) or a TN
    difficulty: Annotated[int, Field(ge=0, le=50)] | Name = "standard"
    #: a direct adjustment to the result (002)
    modifier: Annotated[int, Field(ge=-20, le=20)] = 0
    #: a row adjustment: dice added to or taken from the pool (002)
    rows: Annotated[int, Field(ge=-4, le=4)] = 0
    #: a column adjustment: the effect grid's die type shifted (002; never the cause grid)
    columns: Annotated[int, Field(ge=-4, le=4)] = 0
    #: the player invokes an impetus: a bump per full 3 over the TN (002)
    impetus: bool = False
    #: a complex check: the victories needed (omit to go on with one under way)
    victories: Annotated[int, Field(ge=1, le=50)] | None = None
    #: effect per victory for this check (default: the encounter's, 002)
    threshold: Annotated[int, Field(ge=1, le=20)] | None = None
    #: the complex check's name on the sheet (default: the skill, or the trait)
    task: Annotated[str, Field(min_length=1, max_length=80)] | None = None
    #: the effect grid read for victories, as ``(n)Y`` (default: the pool's own)
    effect: Annotated[str, Field(min_length=4, max_length=8)] | None = None
    #: a task needing full attention (8 AP instead of 4 in action time)
    full_attention: bool = False
    card: CardRef | None = None
    more_cards: Annotated[tuple[CardRef, ...], Field(max_length=20)] = ()
    #: a secondary action combined with the character's last one (000 Combining
    #: Combat and Non-Combat Actions): read on that action's card, second-best result
    secondary: bool = False
    #: a held bonus counter spent on the result (002 Spending the Counter)
    counter: CounterSpend | None = None
    #: the check involves movement (a climb, a ride): a fully loaded, stowed gun may go
    #: off on its card (000 Carrying Loaded Weapons)
    moving: bool = False
    #: several characters on one task (002 Complex Checks: "multiple characters may
    #: collaborate to produce greater effect (see cooperation XX) or more victories"):
    #: this check works on ``helps``'s complex check of that name, its victories kept
    #: on their sheet. The page's cooperation section (XX) is missing, so only the
    #: victories are shared; the helper pays and draws with their own pool.
    helps: Who | None = None
    page: ClassVar[str] = "002 Simple Checks / Complex Checks / Setting Difficulty"
    summary: ClassVar[str] = (
        "any check: trait + skill vs a difficulty; complex checks collect victories"
    )

    @field_validator("effect")
    @classmethod
    def _effect_text(cls, v: str | None) -> str | None:
        if v is not None:
            Effect.model_validate(v)
        return v

    # -- what the check is ------------------------------------------------------------

    def task_name(self) -> str:
        return self.task or (self.skill or self.trait).replace("_", " ")

    def tn(self) -> tuple[int, str]:
        return difficulty_of(self.difficulty)

    def pool(self, table: Table) -> tuple[Pool, list[str]]:
        c, _ = self.actor(table)
        return check_pool_for(c, self.trait, self.skill, self.rows)

    def owner(self, table: Table) -> Character:
        """Whose sheet keeps the task: the helped character's, else the actor's."""
        if self.helps is not None:
            return table.actor(self.helps)[0]
        return self.actor(table)[0]

    def under_way(self, table: Table) -> CheckInProgress | None:
        name = self.task_name()
        return next((p for p in self.owner(table).checks if p.task == name), None)

    def complex_check(self, table: Table) -> ComplexCheck | None:
        """The complex check this action works on (None for a simple check)."""
        current = self.under_way(table)
        if self.victories is None and current is None:
            return None
        tn, _ = self.tn()
        if current is None:
            assert self.victories is not None
            threshold = self.threshold or victory_threshold(table.edition, table.encounter.options)
            return ComplexCheck(tn=tn, needed=self.victories, threshold=threshold)
        if self.victories is not None and self.victories != current.check.needed:
            raise RulesError(
                f"{self.task_name()!r} is under way needing {current.check.needed} "
                f"victories, not {self.victories}; name another task for a new check."
            )
        threshold = self.threshold or current.check.threshold
        return current.check.model_copy(update={"tn": tn, "threshold": threshold})

    def bump_every(self) -> int:
        return BUMP_EVERY_WITH_IMPETUS if self.impetus else BUMP_EVERY

    def effect_ref(self, pool: Pool) -> Effect:
        if self.effect is not None:
            return Effect.model_validate(self.effect)
        return Effect(row=pool.count, die=pool.die)

    # -- the questions ----------------------------------------------------------------

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.task_name()} check"

    def extended(self, table: Table) -> bool:
        """An extended action (001/003 Extended Actions: a complex check in the Phases
        edition costs 8+ AP, a Slow action)."""
        return (
            table.time is not None
            and table.time.kind == "phases"
            and self.complex_check(table) is not None
        )

    def spec(self, table: Table) -> A.ActionSpec | None:
        full = self.full_attention or self.extended(table)
        ap = A.SKILL_FULL_ATTENTION_AP if full else A.SKILL_AP
        return A.skill_action(self.task_name(), ap)

    def why_not(self, table: Table) -> str | None:
        try:
            self.pool(table)
            self.tn()
            self.complex_check(table)
            why = self.card_refusal(table)
        except RulesError as e:
            return str(e)
        if self.helps is not None:
            refused = self._help_refusal(table)
            if refused:
                return refused
        if self.counter is not None:
            why = counter_refusal(table, self.who, self.counter)
            if why:
                return why
            if self.counter != "right_on" and self.complex_check(table) is None:
                return (
                    f"{SPENDS[self.counter][0]} adds to an effect grid result, and a simple "
                    "check reads none: spend it on a complex check, or Right on! for bumps."
                )
        if self.columns and self.complex_check(table) is None:
            return (
                "A column adjustment shifts an effect grid result, and a simple check reads "
                "none; the cause grid never takes one (002 Applying Bonuses and Penalties)."
            )
        if self.card is None and table.deck.physical and not self.secondary:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        return why or super().why_not(table)

    def _help_refusal(self, table: Table) -> str | None:
        """Why this check cannot help ``helps`` (None: it can)."""
        c, other = self.actor(table)[0], self.owner(table)
        if other.id == c.id:
            return f"{c.name} cannot help themselves: name another character (helps)."
        if self.under_way(table) is None:
            return (
                f"{other.name} has no {self.task_name()!r} under way: they start the complex "
                "check, then others add their victories to it (002 Complex Checks; a simple "
                "check has no victories to share, and the page's cooperation section, XX, "
                "is missing)."
            )
        return None

    def primary_card(self, table: Table) -> Card:
        """The card of the character's last action, which a secondary action reads
        (000 Combining Combat and Non-Combat Actions); RulesError when there is none."""
        c, _ = self.actor(table)
        found = last_action_card(table, c.id)
        if found is None:
            raise RulesError(
                f"{c.name} has no action just resolved to combine with: a secondary action "
                "reads the card of the primary one (000 Combining Combat and Non-Combat "
                "Actions)."
            )
        number = found
        card = next((k for k in table.deck.last_cards(54) if k.number == number), None)
        if card is None:
            raise RulesError(f"Card {number} of {c.name}'s last action is no longer on the table.")
        return card

    def rank(self) -> int:
        """Which result of the pool the check reads (0 = best)."""
        return 1 if self.secondary else 0

    def card_refusal(self, table: Table) -> str | None:
        """With typed cards: the further card still to be typed in (an exceptional
        cell or an increased effect reads on), found without touching the deck."""
        if self.secondary:
            if self.card is not None:
                return "A secondary action reads its primary action's card: type no card."
            pool, _ = self.pool(table)
            if pool.count < 2:
                return (
                    f"A {pool} pool has one result: a secondary action needs the second "
                    "highest die (000 Combining Combat and Non-Combat Actions)."
                )
            self.primary_card(table)
            return None
        if self.card is None:
            return None
        pool, _ = self.pool(table)
        tn, _ = self.tn()
        more = TypedCards([card_of(table, r) for r in self.more_cards])
        first = card_of(table, self.card)
        try:
            res = check_pool(first, pool, tn, more, self.modifier, bump_every=self.bump_every())
            if res.success and self.complex_check(table) is not None:
                read_effect(first, self.effect_ref(pool), 0, more, self.columns)
        except CardNeeded as need:
            return f'Type in the card drawn for {need.purpose} first ("more_cards").'
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        """The pool, the TN and the victories so far — before any card is drawn."""
        out = super().preview(table)
        try:
            pool, pool_why = self.pool(table)
            tn, tn_why = self.tn()
            cx = self.complex_check(table)
        except RulesError as e:
            out["refused"] = str(e)
            return out
        out.update(pool=str(pool), pool_items=pool_why, tn=tn, tn_items=[tn_why])
        if self.modifier:
            out["result_modifier"] = self.modifier
        out["bump_every"] = self.bump_every()
        if cx is not None:
            out.update(
                victories_needed=cx.needed,
                progress=cx.progress,
                threshold=cx.threshold,
                effect=str(self.effect_ref(pool)),
            )
        return out

    # -- doing it ---------------------------------------------------------------------

    def _cards(self, table: Table) -> tuple[Card, Callable[[], Card], list[Card]]:
        """The card and the further-card source, and the list of every card taken."""
        deck = table.deck
        taken: list[Card] = []
        if self.secondary:
            first = self.primary_card(table)  # read again, not drawn: not discarded again
            source: Callable[[], Card] = (
                TypedCards([card_of(table, r) for r in self.more_cards], enter=deck.enter_physical)
                if deck.physical
                else deck.draw
            )

            def further() -> Card:
                card = source()
                taken.append(card)
                return card

            return first, further, taken
        if self.card is not None or deck.physical:
            if self.card is None:
                raise RulesError("The deck is in physical-card mode: type in the card drawn.")
            first = deck.enter_physical(card_of(table, self.card))
            typed = TypedCards(
                [card_of(table, r) for r in self.more_cards], enter=deck.enter_physical
            )
            source = typed
        else:
            first = deck.draw()
            source = deck.draw
        taken.append(first)

        def more() -> Card:
            card = source()
            taken.append(card)
            return card

        return first, more, taken

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        pool, pool_why = self.pool(table)
        tn, tn_why = self.tn()
        cx = self.complex_check(table)
        paid, event = self.pay(table)
        try:
            return self._resolve(table, c, pool, pool_why, tn, tn_why, cx, event, paid)
        except CardNeeded as need:
            raise RulesError(
                f'Type in the card drawn for {need.purpose} first ("more_cards").'
            ) from None

    def _resolve(
        self,
        table: Table,
        c: Character,
        pool: Pool,
        pool_why: list[str],
        tn: int,
        tn_why: str,
        cx: ComplexCheck | None,
        event: Any,
        paid: list[str],
    ) -> TableEvent:
        card, more, taken = self._cards(table)
        mods = [("modifier", self.modifier, "002 Applying Bonuses and Penalties")]
        try:
            res: CheckResult = check_pool(
                card,
                pool,
                tn,
                more,
                mods if self.modifier else 0,
                self.rank(),
                bump_every=self.bump_every(),
            )
            # the track's word on the action (Phases: how it combines with the round's
            # others, a non-combat skill with combat flagged, 004)
            reasons = [*paid, *pool_why, tn_why, *res.reasons]
            if self.secondary:
                reasons.insert(
                    0,
                    f"a secondary action on card {card.number}, its primary action's card: "
                    "the second highest die (000 Combining Combat and Non-Combat Actions)",
                )
            record: dict[str, Any] = {
                "who": c.id,
                "card": card.number,
                "pool": str(pool),
                "tn": tn,
                "result": res.result,
                "success": res.success,
                "bumps": res.bumps,
                "calamity": res.calamity,
            }
            if self.counter == "right_on":
                if res.success and res.result is not None:
                    better = simple_check(res.result + 2, tn, bump_every=self.bump_every())
                    reasons.append(
                        f"bonus counter (Right on!, 002): +2 in the cause grid, "
                        f"{better.bumps - res.bumps} more bump(s)"
                    )
                    res = res.model_copy(update={"bumps": better.bumps})
                    record["bumps"] = res.bumps
                else:
                    reasons.append("bonus counter (Right on!, 002): a failure stays a failure")
            text = self._outcome_text(c, pool, res)
            if cx is not None:
                effect_value = None
                if res.success:
                    eff = read_effect(card, self.effect_ref(pool), 0, more, self.columns)
                    effect_value = eff.value
                    reasons += list(eff.reasons)
                    if self.counter in ("aces", "as_i_planned"):
                        name, value, _where = SPENDS[self.counter]
                        effect_value += value
                        reasons.append(f"bonus counter ({name}, 002): effect +{value}")
                new, step = cx.advance(
                    res.result, effect_value, res.calamity, bump_every=self.bump_every()
                )
                reasons += [r for r in step.reasons if r not in res.reasons]
                record.update(
                    task=self.task_name(),
                    effect=effect_value,
                    victories=step.victories_gained,
                    progress=step.progress,
                    needed=step.needed,
                    threshold=cx.threshold,
                    complete=step.complete,
                )
                owner = self.owner(table)
                self._keep(owner, new)
                if owner.id != c.id:
                    record["helps"] = owner.id
                    reasons.append(
                        f"{c.name} helps {owner.name}: the victories count toward "
                        f"{owner.name}'s task (002 Complex Checks: \"multiple characters may "
                        'collaborate to produce [...] more victories")'
                    )
                text += (
                    f"; {step.victories_gained} victory(ies), {step.progress} of {step.needed}"
                    + (f" on {owner.name}'s task" if owner.id != c.id else "")
                    + (" — done" if step.complete else "")
                )
        finally:
            for t in taken:
                table.deck.discard(t)
        if self.moving:
            went_off = self._discharges(table, c, card, res.calamity, more)
            if went_off:
                record["discharges"] = went_off
                text += "; " + "; ".join(went_off)
        record["cards"] = ([card.number] if self.secondary else []) + [t.number for t in taken]
        if self.counter is not None:
            record["counter"] = spend_counter_on(c, self.counter)
            text += f"; {SPENDS[self.counter][0]} (bonus counter)"
        record["reasons"] = reasons
        _log_event(table, text, "check", event, record)
        return TableEvent(text, record, tuple(t.number for t in taken))

    def _discharges(
        self, table: Table, c: Character, card: Card, calamity: bool, more: Callable[[], Card]
    ) -> list[str]:
        """Stowed, fully loaded guns this moving check's card sets off (000 Carrying
        Loaded Weapons): written to the sheet; a line for each."""
        candidates = discharge_candidates(c, table.gear)
        if not candidates:
            return []
        options = table.encounter.options
        _copy, results = check_discharges(
            c,
            candidates,
            card,
            table.edition,
            cf=calamity,
            action_moves=True,
            more=more,
            options=options,
        )
        fired = [d for d in results if d.discharged]
        if not fired:
            return []
        assign_character(c, apply_discharges(c, fired, table.edition, options=options))
        return [
            f"{c.name}'s {candidates[d.carried_index].name if d.carried_index in candidates else 'gun'} goes off"
            + (f": {' '.join(d.reasons[-1:])}" if d.reasons else "")
            + " (000 Carrying Loaded Weapons)"
            for d in fired
        ]

    def _outcome_text(self, c: Character, pool: Pool, res: CheckResult) -> str:
        what = f"{c.name}: {self.task_name()} ({pool}) vs TN {res.tn}"
        if self.secondary:
            what += " (secondary action, second highest die)"
        if res.calamity:
            return f"{what} — CF, a calamity"
        verdict = "success" if res.success else "failure"
        bumps = f", {res.bumps} bump(s)" if res.bumps else ""
        return f"{what} — {res.result}: {verdict}{bumps}"

    def _keep(self, c: Character, new: ComplexCheck) -> None:
        name = self.task_name()
        rest = [p for p in c.checks if p.task != name]
        if not new.complete:
            rest.append(CheckInProgress(task=name, check=new))
        c.checks = rest

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})
