"""The attack and the throw as table actions (000 Combat Actions, Hand to Hand Combat,
Throwing Things; 001/003 Fan Firing).

Each attack action names the attacker (``who``) and the target (``target``: token or
character ids), the weapon (``weapon``: its gear id; ``slot``: which carried entry
when the sheet carries two of it) and whatever the attack needs as plain JSON: the
called shot (``called`` and ``location``), the burst, a fan's second target, the
defender's block or dodge, the Judge's bump spends per shot (``spends``) and, with a
printed deck, the cards typed in (``card``, ``block_card``, ``more_cards``: a card by
its number, or the card as typed when it differs from the deck's own). Without a
typed card the encounter's seeded deck draws, so a journal or script line replayed on
the same saved encounter gives the same result, card for card.

The table asks each action, without drawing a card or changing anything, its
``cost`` (the AP items, or the Phases speed), ``why_not`` (the rule, its page, and
what would make the attack legal) and its ``preview`` (the TN with every modifier,
the AP, what the map says); ``apply`` draws, resolves, writes the wounds, fires the
gun and returns the event whose ``cards`` are the cards drawn and whose ``record``
is the attack's full record (:func:`~twtw_desktop.play.attack.write_attack`).

House readings (the pages are silent):

* Aims are taken two ways: inside an ``aimed_shot`` (``aims``, each aim's AP in the
  shot's cost, as 000 prices it), or ahead with the ``aim`` action, paid when taken;
  the next shot with that gun at that target counts them as the edition says
  (:mod:`.aim`: 000's normal shot, or any shot in the Phases edition, where a shot
  without aim is the snap shot) and does not pay them again. Aims do not carry past
  a shot, nor to another target or gun; a target that leaves the field of fire
  makes the shot a snap shot.
* ``melee_attack`` with no ``weapon`` is bare-handed.
* ``block`` and ``dodge`` on their own are the defender's declarations: the dodge
  covers the round (every attack from its front), the block meets the next
  hand-to-hand blow at the defender; an attack may also declare the defence itself
  (``defense``), paid by the defender in the attack's step.
* ``throw`` at a hex (``to``) is the map's Throw tool (scatter on a miss, a blast
  where it lands); ``throw`` at a token (``target``) is a thrown attack read like a
  shot (hit location, wounds), scattering on a miss.

Where it lives: this module holds the shots, ``aim``, ``fan_fire``, ``throw``,
``attack_card`` and :func:`attack_action`; what every attack shares (the base class,
the bump spends) is :mod:`.attack_base`; the blow and the defender's ``block`` and
``dodge`` are :mod:`.melee_actions`; a typed card (:data:`~.cards.CardRef`) is
:mod:`.cards`. The public names are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RulesError
from ..rules import actions as A
from ..rules.card import Card
from . import load_families
from .actions import (
    SRC_READY,
    Action,
    Cost,
    HexRef,
    Move,
    Who,
    hex_of,
    register,
)
from .aim import AIM_KIND, AimsAhead, aim_detail, aim_effect, aim_request, aims_ahead, field_exit
from .attack import (
    AttackRequest,
    CardNeeded,
    Spends,
    cock_first_needed,
)
from .attack_base import (
    ATTACK_AREAS,
    SRC_FAN,
    SRC_THROW,
    SpendRef,
    _AttackAction,
    _token_id,
)
from .cards import CardRef, card_of, card_ref
from .melee_actions import Block, Dodge, MeleeAttack, SwitchTarget
from .table import TableEvent
from .throw import ThrowPlan, apply_throw, check_throw_cards, plan_throw, throw_cost_applies

if TYPE_CHECKING:
    from .table import Table


class BurstTarget(BaseModel):
    """Another target for some of a burst's hits (000 Hitting Multiple Targets)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    target: Who
    hits: Annotated[int, Field(ge=1, le=100)] = 1


class SeriesAttack(BaseModel):
    """One further attack of a series from one pool: at whom, and which shot."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    target: Who
    shot: Literal["snap", "normal"] = "snap"


class _Shot(_AttackAction):
    """A shot with a gun (000 Combat Actions: snap, normal, aimed)."""

    burst: Annotated[int, Field(ge=1, le=100)] | None = None
    #: a burst's hits sent on to a second target (000 Hitting Multiple Targets)
    burst_second_target: Who | None = None
    burst_second_hits: Annotated[int, Field(ge=0, le=100)] = 0
    #: more targets for the burst's hits, after the second (one per further success)
    burst_more: Annotated[tuple[BurstTarget, ...], Field(max_length=9)] = ()
    #: None: cock first when the gun needs it and is not cocked
    cock_first: bool | None = None
    #: draw the gun as part of the shot ("draw and shoot", the draw's AP added)
    draw_first: bool = False
    #: further attacks of a series from the same pool, in order (000 Multiple Attacks)
    then: Annotated[tuple[SeriesAttack, ...], Field(max_length=9)] = ()

    def request_fields(self, table: Table) -> dict[str, Any]:
        out: dict[str, Any] = {
            "burst": self.burst,
            "burst_second_hits": self.burst_second_hits,
            "cock_first": self._cock_first(table),
            "draw_first": self.draw_first,
        }
        if self.burst_second_target:
            out["burst_second_target"] = _token_id(table, self.burst_second_target)
        if self.burst_more:
            out["burst_more"] = tuple((_token_id(table, b.target), b.hits) for b in self.burst_more)
        if self.then:
            out["more_attacks"] = tuple((_token_id(table, a.target), a.shot) for a in self.then)
        out |= self._aims_taken(table)
        return out

    def own_aims(self) -> int:
        """Aims the shot itself pays for (an aimed shot's ``aims``)."""
        return 0

    def _aims_taken(self, table: Table) -> dict[str, Any]:
        """A shot after ``aim`` actions at the same target with the same gun is an
        aimed shot with those aims, already paid, or a snap shot when the target has
        left the field of fire since (:func:`~twtw_desktop.play.aim.aim_request`)."""
        stok = _token_id(table, self.who)
        idx = self._slot(table, stok)
        if idx is None:
            return {}
        cid = table.character_of(stok).id
        w = table.gear.weapons.get(table.character(cid).weapons[idx].weapon_id)
        if w is None:
            return {}
        target = table.token(_token_id(table, self.target))
        return aim_request(table, cid, target, w, self.shot_kind, self.own_aims())

    def refusal_before_draw(self, table: Table) -> str | None:
        """An aimed shot — declared so, or a shot that counts aims taken ahead — first
        answers :data:`AIM_REFUSALS` (the aim's own rule before the AP)."""
        try:
            req = self.request(table)
            aimed = req.mode == "ranged" and req.shot_kind == "aimed"
            why = aim_refusal(table, self.actor(table)[0].id) if aimed else None
        except RulesError as e:
            return str(e)
        return why or super().refusal_before_draw(table)

    def _cock_first(self, table: Table) -> bool:
        if self.cock_first is not None:
            return self.cock_first
        stok = _token_id(table, self.who)
        idx = self._slot(table, stok)
        if idx is None:
            return False
        cw = table.character_of(stok).weapons[idx]
        w = table.gear.weapons.get(cw.weapon_id)
        return w is not None and cock_first_needed(w, cw)


@register
class SnapShot(_Shot):
    do: Literal["snap_shot"] = "snap_shot"
    summary: ClassVar[str] = "a snap shot at a target (the card drawn, wounds written)"


@register
class NormalShot(_Shot):
    do: Literal["normal_shot"] = "normal_shot"
    shot_kind: ClassVar[str] = "normal"
    summary: ClassVar[str] = "a normal shot at a target"


@register
class AimedShot(_Shot):
    do: Literal["aimed_shot"] = "aimed_shot"
    aims: Annotated[int, Field(ge=1, le=10)] = 1
    shot_kind: ClassVar[str] = "aimed"
    summary: ClassVar[str] = "an aimed shot: each aim's AP in its cost (000 Aim and Snap Shots)"

    def own_aims(self) -> int:
        return self.aims

    def request_fields(self, table: Table) -> dict[str, Any]:
        return {"aims": self.aims} | super().request_fields(table)


#: Why a character may not aim now, asked before every aim action and aimed shot:
#: :mod:`.cover_actions` answers for 000/001 Tactical Aiming (under fire since the
#: aim began: a Bravery check first; the check failed: no more aiming this round).
#: A hook, so the attack does not import the covering fire built on it.
AIM_REFUSALS: list[Callable[[Table, str], str | None]] = []


def aim_refusal(table: Table, character_id: str) -> str | None:
    """The first reason a hook of :data:`AIM_REFUSALS` gives, or None."""
    load_families()  # the covering fire's hook in place (once; play/__init__.py)
    for hook in AIM_REFUSALS:
        why = hook(table, character_id)
        if why:
            return why
    return None


@register
class Aim(Action):
    """Aim at a target ahead of the shot, paid now (000 Aim and Snap Shots: an aimed
    shot is a normal shot followed by aim actions; 001/003: a shot with no aim action
    before it is a snap shot). The next shot with that gun at that target counts the
    aims (:mod:`~twtw_desktop.play.aim`); a shot at another target, or with another
    gun, does not use them, and a target that has left the field of fire since the
    first aim makes this aim start afresh."""

    do: Literal["aim"] = "aim"
    who: Who
    target: Who
    weapon: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    #: held as a continuous action over the rounds (003 Procedure, Phases): each round
    #: after the first adds the weapon's Accurate bonus to the shot
    hold: bool = False
    page: ClassVar[str] = "000 Aim and Snap Shots; 001/003 Aim and Snap Shots"
    summary: ClassVar[str] = "aim at a target (paid now; the next shot there counts it)"

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        return f"{c.name} aims at {table.character_of(_token_id(table, self.target)).name}"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})

    def gun(self, table: Table) -> tuple[int, Any]:
        """The named gun, else the first aimable one in hand, else the first aimable
        one carried (``why_not`` then names the draw)."""
        c, _ = self.actor(table)
        found = [
            (i, cw.readied, w)
            for i, cw in enumerate(c.weapons)
            if (w := table.gear.weapons.get(cw.weapon_id)) is not None
            and (self.weapon is None or cw.weapon_id == self.weapon)
            and (self.weapon is not None or w.aim_ap is not None)
        ]
        if found:
            i, _readied, w = min(found, key=lambda f: not f[1])  # one in hand first
            return i, w
        raise RulesError(f"{c.name} carries no gun that can be aimed ({SRC_READY}).")

    def _ahead(self, table: Table) -> tuple[Any, Any, AimsAhead, Any]:
        """The gun, the target's token, the aims at it so far (none when the target
        has left the field of fire since the first of them) and that field test."""
        c, _ = self.actor(table)
        _i, w = self.gun(table)
        target = table.token(_token_id(table, self.target))
        ahead = aims_ahead(table, c.id, target.id, w.id)
        exit_ = field_exit(table, ahead, target, w)
        if exit_ is not None and exit_.left:
            ahead = AimsAhead()
        return w, target, ahead, exit_

    def spec(self, table: Table) -> A.ActionSpec | None:
        w, target, ahead, _exit = self._ahead(table)
        rule = table.edition.aim
        return A.aim_action(
            w,
            [target.id],
            nth=min(ahead.count + 1, rule.max),
            extra_ap_each=rule.extra_ap_each,
            source=rule.source,
            edition_id=table.edition.id,
        )

    def why_not(self, table: Table) -> str | None:
        c, tok = self.actor(table)
        if c.out_of_action:
            return f"{c.name} is out of action and cannot act (000 Wound Effects)."
        target = _token_id(table, self.target)
        if tok is not None and target == tok.id:
            return f"{c.name} cannot aim at themselves."
        i, w = self.gun(table)
        if not c.weapons[i].readied:
            draw = A.draw_action(w, c.quick_draw)
            return f"{w.name} not in hand: draw it first, {draw.ap} AP ({SRC_READY})."
        if cock_first_needed(w, c.weapons[i]):
            # 000 Cocking and Readying: "Cocking must be done before any aiming."
            return (
                f"The {w.name} is not cocked: cock it first ({w.cock_ap} AP); "
                "cocking must be done before any aiming (000 Cocking and Readying)."
            )
        rule = table.edition.aim
        if self.hold and not rule.across_rounds:
            return (
                "An aim is held over rounds in the Phases edition (003 Procedure); on the "
                "action track an aim lasts the round."
            )
        if self._ahead(table)[2].count >= rule.max:
            return f"{c.name} has aimed {rule.max} times already: shoot ({rule.source})."
        why = aim_refusal(table, c.id)
        if why:
            return why
        return super().why_not(table)

    def note(self, table: Table) -> str:
        """What this aim would do, in words (the preview's and the panel's)."""
        w, target, ahead, exit_ = self._ahead(table)
        n = ahead.count + 1
        rule = table.edition.aim
        text = f"aim {n} of at most {rule.max}: {aim_effect(table, n, w)} ({rule.source})"
        if exit_ is not None and exit_.left:
            name = table.character_of(target.id).name
            text += f"; the earlier aim is lost: {name} left the field of fire (003)"
        return text

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        try:
            out["note"] = self.note(table)
        except RulesError as e:
            out["note"] = str(e)
        return out

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        w, target, ahead, exit_ = self._ahead(table)
        _details, event = self.pay(table)
        n = ahead.count + 1
        name = table.character_of(target.id).name
        rule = table.edition.aim
        text = (
            f"{c.name} aims the {w.name} at {name} (aim {n} of at most {rule.max}: "
            f"{aim_effect(table, n, w)})"
        )
        assert tok is not None  # _token_id found the target, gun() the shooter's sheet
        detail: dict[str, Any] = aim_detail(c.id, target.id, w.id, tok.at, target.at)
        if self.hold:
            detail["hold"] = True
            text += "; held as a continuous action (003 Procedure)"
        if exit_ is not None and exit_.left:
            detail["fresh"] = True
            text += (
                f"; the earlier aim is lost: {name} left the field of fire "
                "(003 Advanced Rule: Fields of Fire)"
            )
        if event is not None and getattr(event, "summary", None):
            detail["track"] = event.summary
        table.log(text, AIM_KIND, detail)
        return TableEvent(text, {"aims": n})


@register
class FanFire(_AttackAction):
    """Fan the hammer of a single-action revolver: ``shots`` at the target, then
    ``second_shots`` at ``second_target`` (one target switch)."""

    do: Literal["fan_fire"] = "fan_fire"
    shots: Annotated[int, Field(ge=1, le=12)] = 2
    second_target: Who | None = None
    second_shots: Annotated[int, Field(ge=0, le=12)] = 0
    shot_kind: ClassVar[str] = "fan"
    page: ClassVar[str] = SRC_FAN
    summary: ClassVar[str] = "fan a single-action revolver: shots, and a second target"

    def request_fields(self, table: Table) -> dict[str, Any]:
        out: dict[str, Any] = {"fan_shots": self.shots, "fan_second_shots": self.second_shots}
        if self.second_target:
            out["fan_second_target"] = _token_id(table, self.second_target)
        return out


@register
class Throw(_AttackAction):
    """Throw a throwing weapon: at a hex (``to``, the map's Throw tool) or at a token
    (``target``, a thrown attack read like a shot). Both scatter on a miss (000
    Missed Throws) and set an explosive off where it lands."""

    do: Literal["throw"] = "throw"
    target: Who | None = None  # type: ignore[assignment]
    to: HexRef | None = None
    shot: Literal["snap", "normal", "aimed"] = "normal"
    aims: Annotated[int, Field(ge=1, le=10)] = 1
    mode: ClassVar[str] = "thrown"
    page: ClassVar[str] = SRC_THROW
    summary: ClassVar[str] = 'throw at a hex ("to") or at a token ("target"); a miss scatters'

    # -- at a hex --------------------------------------------------------------------

    def at_hex(self) -> bool:
        return self.to is not None

    def throw_plan(self, table: Table) -> ThrowPlan:
        stok = _token_id(table, self.who)
        weapon = self.weapon
        if weapon is None and self.slot is not None:
            weapon = table.character_of(stok).weapons[self.slot].weapon_id
        assert self.to is not None
        return plan_throw(table, stok, hex_of(table, self.to), weapon)

    def request_fields(self, table: Table) -> dict[str, Any]:
        return {"shot_kind": self.shot, "aims": self.aims}

    def request(self, table: Table) -> AttackRequest:
        if self.target is None:
            raise RulesError('A throw needs "to" (a hex) or "target" (a token).')
        return super().request(table)

    def label(self, table: Table) -> str:
        if self.at_hex():
            return f"Throw {self.throw_plan(table).weapon.name}"
        return super().label(table)

    def cost(self, table: Table) -> Cost:
        if not self.at_hex():
            return super().cost(table)
        if not throw_cost_applies(table):
            return Cost()
        spec = self.throw_plan(table).spec
        items = tuple(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown)
        return Cost(ap=spec.ap, breakdown=items, source=spec.source)

    def check_cards(self, table: Table) -> None:
        """With a printed deck: raise :class:`~twtw_desktop.play.attack.CardNeeded`
        naming the next card still to be typed in (tried on a copy of the deck), or
        RulesError for a card typed twice or held by the printed deck. A throw at a
        token reads its cards as a shot does (its ``why_not`` names them)."""
        if not self.at_hex():
            return
        typed, _block, more = self.cards(table)
        check_throw_cards(table, self.throw_plan(table), typed, more)

    def why_not(self, table: Table) -> str | None:
        if self.to is not None and self.target is not None:
            return 'A throw goes at a hex ("to") or at a token ("target"), not both.'
        if not self.at_hex():
            return super().why_not(table)
        c, _tok = self.actor(table)
        if c.out_of_action:
            return f"{c.name} is out of action and cannot throw (000 Wound Effects)."
        try:
            plan = self.throw_plan(table)
            if throw_cost_applies(table):
                assert table.time is not None
                why = table.time.why_not_pay(plan.thrower.id, plan.spec)
                if why:
                    return f"{plan.spec.describe()}: {why}"
            self.check_cards(table)
        except CardNeeded as need:
            return f'Type in the card drawn for {need.purpose} first ("card", "more_cards").'
        except RulesError as e:
            return str(e)
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        if not self.at_hex():
            return super().preview(table)
        out = Action.preview(self, table)
        try:
            plan = self.throw_plan(table)
        except RulesError as e:
            out["refused"] = str(e)
            return out
        out.update(
            tn=plan.tn.tn,
            result_modifier=plan.tn.result_modifier,
            tn_items=plan.tn.reasons(),
            pool=str(plan.pool),
            pool_items=list(plan.pool_why),
        )
        return out

    def apply(self, table: Table) -> TableEvent:
        if not self.at_hex():
            return super().apply(table)
        plan = self.throw_plan(table)
        typed, _block, more = self.cards(table)
        out = apply_throw(table, plan, typed, more)
        return TableEvent(out.text, dict(out.detail), tuple(out.detail["cards"]), (out,))


@register
class AttackCard(Action):
    """Draw the card that will resolve an attack, before its bumps are spent: the
    window's Draw. The card is committed from then on (in play, in the journal) —
    the Judge never sees a card the deck has not dealt. The attack that follows
    reads it (``held_card``) and joins this step, so one Ctrl+Z takes back the
    attack and puts the card back; with a printed deck the card is typed in
    instead, and a stack's own card needs no draw (000 Initiative Stack)."""

    do: Literal["attack_card"] = "attack_card"
    who: Who
    page: ClassVar[str] = "000 Action Cards in Combat"
    summary: ClassVar[str] = (
        "draw the card that resolves an attack; the attack (held_card) reads it after"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} draws a card for an attack"

    # the attack joining this step changes these; its undo restores them
    undo_areas: ClassVar[frozenset[str]] = ATTACK_AREAS
    shown_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})

    def why_not(self, table: Table) -> str | None:
        try:
            self.actor(table)
        except RulesError as e:
            return str(e)
        if table.deck.physical:
            return (
                "The deck is in physical-card mode: the card drawn from the printed deck "
                'is typed in with the attack ("card").'
            )
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _tok = self.actor(table)
        card = table.deck.draw()
        text = f"{c.name} draws card {card.number} for an attack"
        detail = {"card": card.number, "for": c.id}
        table.log(text, "deck", detail)
        return TableEvent(text, detail, (card.number,))


def attack_action(
    table: Table,
    req: AttackRequest,
    spends: Iterable[Spends] = (),
    *,
    typed: Card | None = None,
    typed_block: Card | None = None,
    typed_more: Iterable[Card] = (),
    expect_card: int | None = None,
    held_card: int | None = None,
) -> _AttackAction:
    """The typed action for an attack request as the attack panel builds it (with
    the bump spends and the typed cards of its preview)."""
    c = table.character_of(req.shooter_token)
    fields: dict[str, Any] = {
        "who": req.shooter_token,
        "target": req.target_token,
        "point_blank": req.point_blank,
        "appearing": req.appearing,
        "target_in_melee": req.target_in_melee,
        "firer_movement": req.firer_movement,
        "target_size": req.target_size,
        "sabotage": req.sabotage,
        "counter": req.counter,
        "secondary_index": req.secondary_index,
        "two_weapons": req.two_weapons,
        "off_hand": req.off_hand,
        "called": req.called_shot,
        "location": req.called_location if req.called_shot else None,
        "defense": req.defense,
        "block_arm": req.block_arm,
        "charge_ap": req.charge_ap,
        "spends": tuple(SpendRef.of(s) for s in spends),
        "expect_card": expect_card,
        "card": card_ref(table, typed) if typed is not None else None,
        "block_card": card_ref(table, typed_block) if typed_block is not None else None,
        "more_cards": tuple(card_ref(table, x) for x in typed_more),
        "held_card": held_card,
    }
    if req.weapon_index is not None:
        fields["weapon"] = c.weapons[req.weapon_index].weapon_id
        fields["slot"] = req.weapon_index
    if req.mode == "melee":
        fields.update(
            attack=req.melee_attack,
            careful=req.careful,
            kick=req.kick,
            improvised=req.improvised,
            skill_advantage=req.skill_advantage,
        )
        # a blow names a location only at full dominance (000 Position), no called shot
        fields.update(called=None, location=req.called_location)
        if req.weapon_index is None:
            fields["weapon"] = None
        return MeleeAttack(**fields)
    if req.mode == "thrown":
        fields.update(shot=req.shot_kind if req.shot_kind != "fan" else "normal", aims=req.aims)
        return Throw(**fields)
    if req.shot_kind == "fan":
        fields.update(
            shots=req.fan_shots,
            second_target=req.fan_second_target,
            second_shots=req.fan_second_shots,
        )
        return FanFire(**fields)
    fields.update(
        burst=req.burst,
        burst_second_target=req.burst_second_target,
        burst_second_hits=req.burst_second_hits,
        burst_more=tuple(BurstTarget(target=t, hits=k) for t, k in req.burst_more),
        cock_first=req.cock_first,
        draw_first=req.draw_first,
        then=tuple(SeriesAttack(target=t, shot=k) for t, k in req.more_attacks),  # type: ignore[arg-type]
    )
    if req.shot_kind == "aimed":
        own = req.aims - req.prepaid_aims  # the aims taken ahead are counted again
        return AimedShot(aims=own, **fields) if own > 0 else NormalShot(**fields)
    if req.shot_kind == "normal":
        return NormalShot(**fields)
    return SnapShot(**fields)


def moves_on_after(action: Any) -> bool:
    """Whether, once ``action`` is done, the Judge goes on with whoever is due next
    (the window's follow-the-track): a move or an attack. Not an aim, a draw, a
    reload or a card drawn for an attack: those lead into the same character's next
    action."""
    if getattr(action, "do", None) == "when_able":  # counted on, then done
        action = action.inner()
    return isinstance(action, Move | _AttackAction)


__all__ = [
    "AimedShot",
    "AttackCard",
    "Block",
    "BurstTarget",
    "CardRef",
    "Dodge",
    "FanFire",
    "MeleeAttack",
    "NormalShot",
    "SeriesAttack",
    "SnapShot",
    "SpendRef",
    "SwitchTarget",
    "Throw",
    "attack_action",
    "card_of",
    "card_ref",
    "moves_on_after",
]
