"""Entangling weapons at the table (003 Entanglement): ``entangle`` and ``break_free``.

A lasso or a net entangles or trips instead of doing damage: an opposed contest of
the attacker's fighting skill with the weapon against the target's Dexterity
(Coordination in this app), both read on one card. The attacker must win; a tie
fails (house: the page says "if the attacker wins"). An entangled figure cannot
move (``why_not`` of its moves says so) until it breaks free. The same contest trips
instead with ``trip`` (003: "some weapons can be used to entangle and/or trip a
target. Doing either is an opposed contest"); the page does not say what a trip does,
so (house) a tripped figure falls prone, as if it had dropped prone, and must stand
up (000 Movement AP Cost: stand up 2 AP). Ways out of an entanglement:

* from a *fragile* weapon (a lariat, a simple net) with a Strength check against the
  weapon's entangle TN — a success frees it and breaks the weapon on its owner's
  sheet (003 reads "exceeding the TN"; a result equal to the TN is a success, as in
  every other check, house);
* from any other weapon by wriggling out: an opposed Dexterity contest against the
  attacker's skill with the weapon, the freed figure winning outright.

Costs in action time (house, the page gives none): ``entangle`` is the weapon's
normal attack AP; ``break_free`` a simple skill action's 4 AP. Reach (house): the
target within two of the weapon's range increments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..rules import actions as A
from ..rules.base import Pool, Speed
from ..rules.card import Card
from ..rules.character import Character, Posture
from ..rules.checks import CheckResult, check_pool, wins_outright
from ..rules.combat.ranged import attack_pool
from ..rules.gear import Weapon
from .action_base import _log_event
from .actions import RuledAction, Who, register
from .catalogue import set_posture
from .table import TableEvent

if TYPE_CHECKING:
    from ..model.encounter import Token
    from .table import Table

SRC_ENTANGLE = "003 Entanglement"
#: house: how far an entangling weapon reaches, in range increments
REACH_INCREMENTS = 2
#: house: the AP of breaking free (a simple skill action's, 000)
BREAK_FREE_AP = A.SKILL_AP


def entangling_weapon(table: Table, c: Character) -> tuple[int, Weapon] | None:
    """The character's entangling weapon in hand (its carried slot), or None."""
    for i, cw in enumerate(c.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is not None and w.kind == "entangle" and cw.readied and not cw.failure:
            return i, w
    return None


def contest(
    card: Card, mine: Pool, theirs: Pool, more: Any
) -> tuple[CheckResult, CheckResult, bool, str]:
    """An opposed contest read on one card: (the acting side's check, the other's,
    whether the acting side wins outright, why). A CF loses; a tie is not a win."""
    a = check_pool(card, mine, 0, more)
    b = check_pool(card, theirs, 0, more)
    if a.calamity:
        why = "a CF for the acting side"
    elif b.calamity:
        why = "a CF for the other side"
    else:
        why = f"{a.result} against {b.result}" + (
            " (a tie: no win)" if a.result == b.result else ""
        )
    return a, b, wins_outright(a, b), why


class _EntangleBase(RuledAction):
    who: Who

    undo_areas: ClassVar[frozenset[str]] = frozenset(
        {"characters", "tokens", "deck", "log", "track"}
    )
    shown_areas: ClassVar[frozenset[str]] = frozenset(
        {"characters", "tokens", "deck", "log", "track"}
    )

    def _draw(self, table: Table) -> tuple[Card, Any, list[int]]:
        if table.deck.physical:
            raise RulesError(
                "With a printed deck, make the contest with the check dialog and set the "
                "state with the Judge's override."
            )
        drawn: list[int] = []

        def more() -> Card:
            card = table.deck.draw()
            drawn.append(card.number)
            return card

        first = more()
        return first, more, drawn


@register
class Entangle(_EntangleBase):
    """Entangle (or trip) a figure with a lasso or a net (003 Entanglement)."""

    do: Literal["entangle"] = "entangle"
    target: Who
    #: trip instead of entangling (003: "entangle and/or trip a target"): a won
    #: contest leaves the target prone (house: the page names no other effect)
    trip: bool = False
    page: ClassVar[str] = SRC_ENTANGLE
    summary: ClassVar[str] = (
        "entangle (or trip: prone) a figure with a lasso or net: fighting skill vs "
        "Dexterity on one card"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} throws to {'trip' if self.trip else 'entangle'}"

    def _parts(self, table: Table) -> tuple[Character, Token, Character, Token, Weapon]:
        c, tok = self.actor(table)
        found = entangling_weapon(table, c)
        if found is None:
            raise RulesError(
                f"{c.name} has no lasso or net in hand (an entangling weapon, {SRC_ENTANGLE})."
            )
        _i, w = found
        other, otok = table.actor(self.target)
        if tok is None or otok is None:
            raise RulesError("Both figures need a token on the map.")
        if other.id == c.id:
            raise RulesError("A figure cannot entangle itself.")
        reach = REACH_INCREMENTS * (w.range_increment or 1)
        distance = tok.at.distance(otok.at)
        if distance > reach:
            raise RulesError(
                f"{other.name} is {distance} paces off; the {w.name} reaches {reach} "
                f"(house: {REACH_INCREMENTS} range increments)."
            )
        if self.trip and other.posture is Posture.PRONE:
            raise RulesError(f"{other.name} is prone already: there is nothing to trip.")
        if not self.trip and otok.entangled_by is not None:
            raise RulesError(f"{other.name} is entangled already.")
        return c, tok, other, otok, w

    def spec(self, table: Table) -> A.ActionSpec | None:
        _c, _tok, other, _otok, w = self._parts(table)
        ap = w.normal_ap or 3
        return A.ActionSpec(
            kind=A.ActionKind.OTHER,
            ap=ap,
            weapon_id=w.id,
            weapon_name=w.name,
            target_ids=(other.id,),
            speed=w.speed,
            breakdown=(
                A.CostItem(
                    label=f"{'trip' if self.trip else 'entangle'} with the {w.name}",
                    ap=ap,
                    source=f"{SRC_ENTANGLE} (the weapon's attack AP, house)",
                ),
            ),
            source=SRC_ENTANGLE,
        )

    def refusal(self, table: Table) -> str | None:
        self._parts(table)
        if table.deck.physical:
            return "With a printed deck the contest is made with the check dialog (two pools)."
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        try:
            c, _tok, other, _otok, w = self._parts(table)
        except RulesError as e:
            out["refused"] = str(e)
            return out
        mine, _why = attack_pool(c, w)
        out.update(pool=str(mine), against=str(other.trait_pool("coordination")))
        return out

    def apply(self, table: Table) -> TableEvent:
        c, tok, other, otok, w = self._parts(table)
        _details, event = self.pay(table)
        mine, pool_why = attack_pool(c, w)
        card, more, drawn = self._draw(table)
        try:
            a, b, wins, why = contest(card, mine, other.trait_pool("coordination"), more)
        finally:
            for n in drawn:
                table.deck.discard(n)
        verb = "trip" if self.trip else "entangle"
        if wins and self.trip:
            set_posture(table, other.id, Posture.PRONE)
            text = (
                f"{c.name} trips {other.name} with the {w.name}: {other.name} is now prone "
                f"({why}; {SRC_ENTANGLE}; prone is the house reading of a trip)"
            )
        elif wins:
            otok.entangled_by = tok.id
            otok.entangled_weapon = w.id
            text = f"{c.name} entangles {other.name} with the {w.name} ({why}; {SRC_ENTANGLE})"
        else:
            text = f"{c.name} fails to {verb} {other.name} ({why}; {SRC_ENTANGLE})"
        record = {
            "card": card.number,
            "cards": drawn,
            "attacker_pool": str(mine),
            "defender_pool": str(other.trait_pool("coordination")),
            "reasons": [*pool_why, *a.reasons, *b.reasons, why],
            "entangled": wins and not self.trip,
            "tripped": wins and self.trip,
        }
        _log_event(table, text, "check", event, record)
        return TableEvent(text, record, tuple(drawn))


@register
class BreakFree(_EntangleBase):
    """Break free of an entanglement (003): Strength against a fragile weapon's TN
    (which breaks it), else wriggle out in a Dexterity contest."""

    do: Literal["break_free"] = "break_free"
    page: ClassVar[str] = SRC_ENTANGLE
    summary: ClassVar[str] = (
        "break free of a lasso or net: Strength vs its TN (fragile), else a Dexterity contest"
    )
    #: the Judge's bonus or penalty to the attempt (003: "according to the situation")
    modifier: Annotated[int, Field(ge=-10, le=10)] = 0

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} tries to break free"

    def _parts(self, table: Table) -> tuple[Character, Token, Token | None, Weapon]:
        c, tok = self.actor(table)
        if tok is None or tok.entangled_by is None:
            raise RulesError(f"{c.name} is not entangled ({SRC_ENTANGLE}).")
        w = table.gear.weapons.get(tok.entangled_weapon or "")
        if w is None:
            raise RulesError(f"The weapon holding {c.name} is not in the gear list.")
        try:
            holder = table.token(tok.entangled_by)
        except KeyError:
            holder = None
        return c, tok, holder, w

    def spec(self, table: Table) -> A.ActionSpec | None:
        self._parts(table)
        return A.ActionSpec(
            kind=A.ActionKind.OTHER,
            ap=BREAK_FREE_AP,
            speed=Speed.NORMAL,
            breakdown=(
                A.CostItem(
                    label="break free",
                    ap=BREAK_FREE_AP,
                    source=f"{SRC_ENTANGLE} (a simple skill action's AP, house)",
                ),
            ),
            source=SRC_ENTANGLE,
        )

    def refusal(self, table: Table) -> str | None:
        self._parts(table)
        if table.deck.physical:
            return "With a printed deck make the check with the check dialog."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, tok, holder, w = self._parts(table)
        _details, event = self.pay(table)
        card, more, drawn = self._draw(table)
        mods = [("the Judge's call", self.modifier, SRC_ENTANGLE)] if self.modifier else 0
        broke = None
        try:
            if "fragile" in w.attributes and w.entangle_tn is not None:
                res = check_pool(card, c.trait_pool("strength"), w.entangle_tn, more, mods)
                free = res.success
                why = (
                    f"Strength {res.result} against TN {w.entangle_tn}"
                    if res.result is not None
                    else "Strength: a CF"
                )
                reasons = list(res.reasons)
                if free and holder is not None:
                    broke = _break_weapon(table, holder, w)
            else:
                other = table.character_of(holder.id) if holder is not None else None
                theirs = attack_pool(other, w)[0] if other is not None else Pool(count=1, die=6)
                a, b, free, why = contest(card, c.trait_pool("coordination"), theirs, more)
                why = f"wriggling out, Dexterity against the {w.name}: {why}"
                reasons = [*a.reasons, *b.reasons]
        finally:
            for n in drawn:
                table.deck.discard(n)
        if free:
            tok.entangled_by = None
            tok.entangled_weapon = None
            text = f"{c.name} breaks free of the {w.name} ({why}; {SRC_ENTANGLE})"
            if broke:
                text += f"; {broke}"
        else:
            text = f"{c.name} is still entangled ({why}; {SRC_ENTANGLE})"
        record = {"card": card.number, "cards": drawn, "free": free, "reasons": [*reasons, why]}
        _log_event(table, text, "check", event, record)
        return TableEvent(text, record, tuple(drawn))


def _break_weapon(table: Table, holder: Token, w: Weapon) -> str | None:
    """A fragile weapon broken by the victim's Strength: broken on its owner's sheet."""
    owner = table.character_of(holder.id)
    for cw in owner.weapons:
        if cw.weapon_id == w.id and not cw.failure:
            cw.failure = "broken"
            return f"{owner.name}'s {w.name} breaks (fragile, {SRC_ENTANGLE})"
    return None


__all__ = ["BreakFree", "Entangle", "contest", "entangling_weapon"]
