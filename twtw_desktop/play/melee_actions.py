"""Hand to hand as table actions (000 Hand to Hand Combat, Breaking Engagement,
Position, Asserting Dominance, Breaking Engagements When Dominated).

* ``melee_attack`` — a blow: quick, standard, heavy or a shove, bare-handed unless a
  weapon is named (an attack action: :class:`~twtw_desktop.play.attack_base._AttackAction`).
* ``block``, ``dodge`` — the defender's declarations on their own: the dodge covers the
  round, the block meets the next hand-to-hand blow (:mod:`.combat_actions` tells how).
* ``switch_target`` — a fighter turns to another foe.

* ``engage`` — two fighters within a pace start a fight without a blow (free).
* ``disengage`` — a careful disengage: 2 AP, the fight ends without a free blow.
* ``escape`` — the held fighter's Unarmed check to get out from under a hold:
  partial 1 AP, TN 3; dominance 2 AP, TN 5; full 3 AP, TN 7, each + half the
  holder's level rounded up. Out of partial dominance the fight ends too (the
  fighter must then step away at the usual cost); out of dominance the hold ends and
  the fighter may disengage.
* ``hold`` — the Judge's call on a position (000 leaves the positions to the Judge
  and the posse): who holds whom at which level, 0 to let go (a pinned or surprised
  foe is full dominance).
* ``melee_factors`` — the Judge's advantage factors for a fighter: position (a
  corner, mud) and height (up a slope; a rider over a fighter on foot counts by
  itself).

The state and what it does to a blow: :mod:`twtw_desktop.play.engagement`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..hexgrid import Hex
from ..rules import actions as A
from ..rules.checks import check_pool
from ..rules.combat.melee import (
    ENGAGEMENT_PACES,
    UNARMED_SKILL,
    escape_requirement,
)
from ..rules.combat.ranged import attack_pool
from .action_base import HexRef, _log_event, hex_of
from .actions import Action, RuledAction, Who, register
from .attack import attacked_this_round, blocking_declared, dodging_this_round
from .attack_base import SRC_MELEE, SRC_MULTI, GearId, _AttackAction
from .cards import CardNeeded, CardRef, TypedCards, card_of
from .engagement import (
    SRC_BREAK,
    SRC_DOMINANCE,
    SRC_ENGAGE,
    SRC_ESCAPE,
    SRC_POSITION,
    after_blow,
    after_move,
    engage,
    foes,
    held_level,
    holder,
    level_name,
    melee_weapon,
    part,
    set_hold,
)
from .movement import carry_riders
from .table import TableEvent

if TYPE_CHECKING:
    from ..model.encounter import Token
    from .table import Table


class _MeleeStateAction(RuledAction):
    page: ClassVar[str] = SRC_ENGAGE

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track", "log"})

    def token(self, table: Table) -> Token:
        c, tok = self.actor(table)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map.")
        return tok

    def other(self, table: Table, who: str) -> Token:
        c, tok = table.actor(who)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map.")
        if tok.id == self.token(table).id:
            raise RulesError("A fighter cannot fight themselves.")
        return tok

    def name(self, table: Table, tok: Token) -> str:
        return table.character_of(tok.id).name


@register
class Engage(_MeleeStateAction):
    """Two fighters within a pace start a hand-to-hand fight (free)."""

    do: Literal["engage"] = "engage"
    who: Who
    target: Who
    summary: ClassVar[str] = "start a hand-to-hand fight with a figure within a pace (free)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} engages"

    def refusal(self, table: Table) -> str | None:
        a, b = self.token(table), self.other(table, self.target)
        if b.id in a.engaged_with:
            return f"{self.name(table, a)} and {self.name(table, b)} are engaged already."
        d = a.at.distance(b.at)
        if d > ENGAGEMENT_PACES:
            return (
                f"Hand to hand needs the fighters within {ENGAGEMENT_PACES} pace; they are "
                f"{d} apart ({SRC_ENGAGE})."
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        a, b = self.token(table), self.other(table, self.target)
        engage(table, a, b)
        text = f"{self.name(table, a)} engages {self.name(table, b)} ({SRC_ENGAGE})"
        table.log(text, "action")
        return TableEvent(text)


@register
class Disengage(_MeleeStateAction):
    """Leave an engagement carefully (000: 2 AP on top of the move): the fight ends
    and the foe gets no free blow."""

    do: Literal["disengage"] = "disengage"
    who: Who
    page: ClassVar[str] = A.SOURCE_DISENGAGE
    summary: ClassVar[str] = "a careful disengage: 2 AP, the fight ends with no free blow"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: careful disengage"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.careful_disengage()

    def refusal(self, table: Table) -> str | None:
        tok = self.token(table)
        if not foes(table, tok):
            return f"{self.name(table, tok)} is not engaged in hand to hand ({SRC_BREAK})."
        level = held_level(table, tok)
        if level:
            return (
                f"{self.name(table, tok)} is held at {level_name(level)}: escape first "
                f"(the escape action, {SRC_ESCAPE})."
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        tok = self.token(table)
        _details, event = self.pay(table)
        names = []
        for f in foes(table, tok):
            part(tok, f)
            names.append(self.name(table, f))
        text = f"{self.name(table, tok)} disengages carefully from {', '.join(names)}"
        _log_event(table, text, "action", event)
        return TableEvent(text)


@register
class Hold(_MeleeStateAction):
    """The Judge's call on a position: ``who`` holds ``target`` at ``level``."""

    do: Literal["hold"] = "hold"
    who: Who
    target: Who
    level: Annotated[int, Field(ge=0, le=3)]
    page: ClassVar[str] = SRC_POSITION
    summary: ClassVar[str] = (
        "the Judge sets a hold: 1 partial, 2 dominance, 3 full (pinned, surprised), 0 lets go"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: hold at {self.level}"

    def refusal(self, table: Table) -> str | None:
        a, b = self.token(table), self.other(table, self.target)
        if self.level and b.id not in a.engaged_with:
            d = a.at.distance(b.at)
            if d > ENGAGEMENT_PACES:
                return (
                    f"{self.name(table, a)} and {self.name(table, b)} are {d} paces apart: a "
                    f"hold needs them engaged ({SRC_POSITION})."
                )
        if not self.level and b.held_by != a.id:
            return f"{self.name(table, a)} does not hold {self.name(table, b)}."
        return None

    def apply(self, table: Table) -> TableEvent:
        a, b = self.token(table), self.other(table, self.target)
        if self.level:
            engage(table, a, b)
        set_hold(table, a, b, self.level)
        if self.level:
            text = (
                f"{self.name(table, a)} holds {self.name(table, b)} at "
                f"{level_name(self.level)} ({SRC_POSITION})"
            )
        else:
            text = f"{self.name(table, a)} lets {self.name(table, b)} go"
        table.log(text, "action")
        return TableEvent(text)


@register
class DominanceMove(_MeleeStateAction):
    """Carry the fight after a blow whose bumps went on dominance (000 Asserting
    Dominance: "Each bump spent to increase dominance may include up to 2 hexes (or
    paces) of movement in the direction of the winning combatants choice"): the foe
    goes to ``to``, at most the paces the bumps bought, and the fighter keeps their
    place beside them — both move by the same step (house: the page names the
    direction, not who moves; Hank "is maneuvering Dave toward the piano")."""

    do: Literal["dominance_move"] = "dominance_move"
    who: Who
    target: Who
    to: HexRef
    page: ClassVar[str] = SRC_DOMINANCE
    summary: ClassVar[str] = "carry the fight 2 paces a bump spent on dominance (000)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} carries the fight"

    def _plan(self, table: Table) -> tuple[Token, Token, Hex, Hex]:
        a, b = self.token(table), self.other(table, self.target)
        if not a.dominance_paces:
            raise RulesError(
                f"{self.name(table, a)} spent no bump on dominance in their last blow: "
                f"no movement to carry the fight ({SRC_DOMINANCE})."
            )
        if b.id not in a.engaged_with:
            raise RulesError(f"{self.name(table, a)} and {self.name(table, b)} are not engaged.")
        to_b = hex_of(table, self.to)
        paces = b.at.distance(to_b)
        if paces == 0:
            raise RulesError(f"{self.name(table, b)} already stands there.")
        if paces > a.dominance_paces:
            raise RulesError(
                f"{paces} paces is further than the {a.dominance_paces} the bumps spent on "
                f"dominance carry the fight (2 a bump, {SRC_DOMINANCE})."
            )
        to_a = a.at + Hex(to_b.q - b.at.q, to_b.r - b.at.r)
        pair = {a.id, b.id}
        for tok, dest in ((a, to_a), (b, to_b)):
            if not table.map.contains(dest):
                raise RulesError(f"{self.name(table, tok)} would be carried off the map.")
            other = table.encounter.token_at(dest)
            if other is not None and other.id not in pair and other.riding not in pair:
                raise RulesError(
                    f"{self.name(table, other)} stands in the way, on {table.hex_label(dest)}."
                )
        return a, b, to_a, to_b

    def refusal(self, table: Table) -> str | None:
        self._plan(table)
        return None

    def apply(self, table: Table) -> TableEvent:
        a, b, to_a, to_b = self._plan(table)
        paces = b.at.distance(to_b)
        a.hex, b.hex = (to_a.q, to_a.r), (to_b.q, to_b.r)
        a.dominance_paces = 0
        moved = [a, b, *carry_riders(table, a), *carry_riders(table, b)]
        notes = after_move(table, moved, paces=paces, free_blow=False)
        text = (
            f"{self.name(table, a)} carries the fight {paces} pace(s): "
            f"{self.name(table, b)} to {table.hex_label(to_b)}, {self.name(table, a)} to "
            f"{table.hex_label(to_a)} ({SRC_DOMINANCE})"
        )
        table.log("; ".join([text, *notes]), "action")
        return TableEvent(text, {"to": list(self.to), "paces": paces})


@register
class MeleeFactors(_MeleeStateAction):
    """The Judge's advantage factors for one fighter (000 Determining Advantage)."""

    do: Literal["melee_factors"] = "melee_factors"
    who: Who
    position: bool = False
    height: bool = False
    page: ClassVar[str] = "000 Determining Advantage"
    summary: ClassVar[str] = "the Judge's advantage factors for a fighter: position, height"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: advantage factors"

    def apply(self, table: Table) -> TableEvent:
        tok = self.token(table)
        tok.melee_position = self.position
        tok.melee_height = self.height
        got = [n for n, on in (("position", self.position), ("height", self.height)) if on]
        text = f"{self.name(table, tok)}: " + (
            " and ".join(got) + " (+1 each to the advantage count, 000 Determining Advantage)"
            if got
            else "no position or height advantage"
        )
        table.log(text, "action")
        return TableEvent(text)


@register
class Escape(_MeleeStateAction):
    """A held fighter's attempt to get out from under the hold (one card)."""

    do: Literal["escape"] = "escape"
    who: Who
    card: CardRef | None = None
    more_cards: tuple[CardRef, ...] = ()
    page: ClassVar[str] = SRC_ESCAPE
    summary: ClassVar[str] = (
        "a held fighter's Unarmed check to escape: partial 1 AP TN 3, dominance 2 AP "
        "TN 5, full 3 AP TN 7 (+ half the holder's level)"
    )

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "deck", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "deck", "track", "log"})

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: escape"

    def requirement(self, table: Table) -> Any:
        tok = self.token(table)
        h = holder(table, tok)
        if h is None:
            raise RulesError(f"{self.name(table, tok)} is not held ({SRC_ESCAPE}).")
        hc = table.character_of(h.id)
        w = melee_weapon(table, hc)
        skill = w.skill if w is not None else UNARMED_SKILL
        return escape_requirement(tok.held_at, hc.skill_level(skill)), hc

    def spec(self, table: Table) -> A.ActionSpec | None:
        try:
            req, _hc = self.requirement(table)
        except RulesError:
            return None
        return A.escape_hold(req.ap, SRC_ESCAPE)

    def refusal(self, table: Table) -> str | None:
        self.requirement(table)
        if self.card is None and table.deck.physical:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        try:
            req, _hc = self.requirement(table)
        except RulesError:
            return out
        c, _ = self.actor(table)
        pool, why = attack_pool(c, None, skill=UNARMED_SKILL)
        out.update(tn=req.tn, pool=str(pool), tn_items=[*req.reasons, *why])
        return out

    def apply(self, table: Table) -> TableEvent:
        tok = self.token(table)
        c, _ = self.actor(table)
        req, hc = self.requirement(table)
        h = holder(table, tok)
        assert h is not None
        _details, event = self.pay(table)
        pool, why = attack_pool(c, None, skill=UNARMED_SKILL)
        deck = table.deck
        taken = []
        if self.card is not None or deck.physical:
            if self.card is None:
                raise RulesError("The deck is in physical-card mode: type in the card drawn.")
            card = deck.enter_physical(card_of(table, self.card))
            source: Any = TypedCards(
                [card_of(table, r) for r in self.more_cards], enter=deck.enter_physical
            )
        else:
            card = deck.draw()
            source = deck.draw
        taken.append(card)

        def more() -> Any:
            x = source()
            taken.append(x)
            return x

        try:
            res = check_pool(card, pool, req.tn, more, bump_every=table.edition.bump_every)
        except CardNeeded as need:
            raise RulesError(
                f'Type in the card drawn for {need.purpose} first ("more_cards").'
            ) from None
        finally:
            for t in taken:
                deck.discard(t)
        level = tok.held_at
        head = f"{c.name} tries to escape {hc.name}'s {level_name(level)} ({pool} vs TN {req.tn})"
        if res.success:
            if level == 1:
                part(tok, h)
                outcome = (
                    "breaks free: the fight is over; step at least a pace away at the usual cost"
                )
            else:
                set_hold(table, h, tok, 0)
                outcome = (
                    "escapes the hold (into any empty hex next to the foe); disengage to "
                    "leave the fight"
                )
        else:
            outcome = "calamity: still held" if res.calamity else "still held"
        text = f"{head}: {res.result if res.result is not None else 'CF'} — {outcome}"
        record = {
            "cards": [t.number for t in taken],
            "tn": req.tn,
            "pool": str(pool),
            "result": res.result,
            "success": res.success,
            "reasons": [*req.reasons, *why, *res.reasons],
        }
        _log_event(table, text, "check", event, record)
        return TableEvent(text, record, tuple(t.number for t in taken))


# -- the blow and the defender's declarations -------------------------------------------


@register
class MeleeAttack(_AttackAction):
    """A hand-to-hand attack (000 Hand to Hand Combat): quick, standard, heavy or a
    shove; bare-handed unless ``weapon`` names one."""

    do: Literal["melee_attack"] = "melee_attack"
    attack: Literal["quick", "standard", "heavy", "shove"] = "standard"
    careful: bool = False
    kick: bool = False
    #: fight with what comes to hand: an improvised weapon's gear id (000)
    improvised: GearId | None = None
    #: skill levels spent on advantage, one factor each, not read for the result (001)
    skill_advantage: Annotated[int, Field(ge=0, le=10)] = 0
    mode: ClassVar[str] = "melee"
    page: ClassVar[str] = SRC_MELEE
    summary: ClassVar[str] = (
        "a hand-to-hand blow (the defender may block or dodge); engages the two, "
        "advantage and dominance from the table"
    )

    def default_slot(self, table: Table, shooter_token: str) -> int | None:
        return None  # bare hands

    def request_fields(self, table: Table) -> dict[str, Any]:
        return {
            "melee_attack": self.attack,
            "careful": self.careful,
            "kick": self.kick,
            "improvised": self.improvised,
            "skill_advantage": self.skill_advantage,
        }

    def apply(self, table: Table) -> TableEvent:
        event = super().apply(table)
        out, plan = event.raw
        notes = after_blow(
            table,
            plan.shooter_token,
            plan.target_token,
            out.record,
            plan.weapon,
            melee_weapon(table, table.character(plan.target.id)),
        )
        if notes:
            # the attack's own log line (written in this step) says what the blow
            # did to the fight, so the fight's state reads with its cause
            log = table.encounter.log
            i = max(i for i, e in enumerate(log) if e.kind == "attack")
            entry = log[i]
            detail = dict(entry.detail or {})
            detail["melee"] = notes
            log[i] = entry.model_copy(
                update={"text": " · ".join([entry.text, *notes]), "detail": detail}
            )
            event.text = " · ".join([event.text, *notes])
        return event


class _Defense(Action):
    """The defender declares a block or a dodge on its own (see the module docstring)."""

    who: Who
    page: ClassVar[str] = SRC_MELEE
    key: ClassVar[str] = ""

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: {self.do}"

    def why_not(self, table: Table) -> str | None:
        if not table.in_action:
            return (
                f"A {self.do} is declared in action time ({SRC_MELEE}); in narrative time "
                "the attack itself names the defence."
            )
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        spec = self.spec(table)
        _details, event = self.pay(table)
        text = f"{c.name} {self.do}s ({spec.describe() if spec else self.do})"
        _log_event(table, text, "defense", event, {self.key: c.id})
        return TableEvent(text)


@register
class Block(_Defense):
    do: Literal["block"] = "block"
    key: ClassVar[str] = "block_by"
    summary: ClassVar[str] = "declare a block: it meets the next hand-to-hand blow (2 AP)"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.block()

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if table.in_action and blocking_declared(table, c.id):
            return f"{c.name} has a block declared already; it meets the next blow ({SRC_MELEE})."
        return super().why_not(table)


@register
class Dodge(_Defense):
    do: Literal["dodge"] = "dodge"
    key: ClassVar[str] = "dodge_by"
    summary: ClassVar[str] = "dodge: every hand-to-hand attack from the front, all round (3 AP)"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.dodge()

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if table.in_action and dodging_this_round(table, c.id):
            return f"{c.name} is already dodging this round ({SRC_MELEE})."
        if table.in_action and attacked_this_round(table, c.id):
            return (
                f"{c.name} has attacked this round: a dodge is the active defence of a "
                f"fighter who makes no attacks ({SRC_MELEE})."
            )
        return super().why_not(table)


@register
class SwitchTarget(Action):
    """Change targets during a series of attacks: 1 AP, +1 outside the field of fire
    (000 Multiple Attacks)."""

    do: Literal["switch_target"] = "switch_target"
    who: Who
    target: Who | None = None
    outside_field_of_fire: bool = False
    page: ClassVar[str] = SRC_MULTI
    summary: ClassVar[str] = "switch targets in a series: 1 AP, +1 outside the field of fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: switch target"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.switch_target(self.outside_field_of_fire)

    def why_not(self, table: Table) -> str | None:
        if self.target is not None:
            table.actor(self.target)  # an unknown target is refused by name
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        _details, event = self.pay(table)
        whom = f" to {table.actor(self.target)[0].name}" if self.target else ""
        text = f"{c.name} switches target{whom}"
        _log_event(table, text, "action", event)
        return TableEvent(text)
