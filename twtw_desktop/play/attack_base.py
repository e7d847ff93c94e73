"""What every attack action shares (000 Combat Actions): :class:`_AttackAction`, the
base of the shots, the fan, the blow and the throw (who at whom with which weapon,
the situation the map does not show, the defence, the bump spends as
:class:`SpendRef` and the typed cards; its ``cost``, ``why_not``, ``preview`` and
``apply`` through :func:`~twtw_desktop.play.attack.plan_attack` and
:func:`~twtw_desktop.play.attack.write_attack`), and the pages it cites. The actions
themselves are in :mod:`.combat_actions` (shots, aim, fan, attack card, throw) and
:mod:`.melee_actions` (the blow, block, dodge, switch target); the module docstring
of :mod:`.combat_actions` tells the house readings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RulesError
from ..rules import actions as A
from ..rules.base import HitLocation
from ..rules.card import Card
from ..rules.combat.melee import dodge_allowed
from ..rules.combat.situation import CALLED_SHOT_DEFAULT, CALLED_SHOT_LOCATIONS
from .actions import (
    SRC_READY,
    Action,
    Cost,
    Who,
)
from .aim import AIM_KIND
from .attack import (
    AttackPlan,
    AttackRequest,
    CalledKey,
    CardNeeded,
    Defense,
    Geometry,
    Spends,
    attack_label,
    blocking_declared,
    default_weapon_index,
    dodging_this_round,
    plan_attack,
    preview,
    resolution_card,
    stack_card,
    track_refusal,
    write_attack,
)
from .bonus_actions import CounterSpend, counter_refusal
from .cards import CardRef, card_of
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_COMBAT = "000 Combat Actions"
#: what one attack may change (and so what its step copies)
ATTACK_AREAS = frozenset({"characters", "tokens", "deck", "log", "track", "map"})
SRC_MELEE = A.SOURCE_MELEE
SRC_THROW = "000 Throwing Things"
SRC_FAN = "000/001/003 Fan Firing"
SRC_MULTI = A.SOURCE_MULTI

#: the called-shot keys from the cheapest penalty up (001 Called Shots)
_CALLED_ORDER: tuple[CalledKey, ...] = ("torso", "limb", "head_hand_foot", "eye_heart")
GearId = Annotated[str, Field(min_length=1, max_length=64)]


class SpendRef(BaseModel):
    """The Judge's bump spends on one shot (:class:`~twtw_desktop.play.attack.Spends`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    hit_index: Annotated[int, Field(ge=0, le=3)] | None = None
    penetration: Annotated[int, Field(ge=0, le=50)] = 0
    damage: Annotated[int, Field(ge=0, le=50)] = 0
    #: (figure index, delta) per click on a stray-shot figure
    stray: tuple[tuple[Annotated[int, Field(ge=0, le=10)], int], ...] = ()
    extra_hits: Annotated[int, Field(ge=0, le=50)] = 0
    #: Phases fan: the secondary targets bought (token ids, 003)
    secondary: tuple[Who, ...] = ()
    #: hand to hand: bumps spent toward dominance (000 Asserting Dominance)
    dominance: Annotated[int, Field(ge=0, le=50)] = 0
    #: burst bumps turned to penetration instead of damage (002 Bump Types)
    burst_pen: Annotated[int, Field(ge=0, le=50)] = 0

    def spends(self) -> Spends:
        return Spends(
            self.hit_index,
            self.penetration,
            self.damage,
            [tuple(x) for x in self.stray],  # type: ignore[misc]
            self.extra_hits,
            list(self.secondary),
            self.dominance,
            self.burst_pen,
        )

    @classmethod
    def of(cls, s: Spends) -> SpendRef:
        return cls(
            hit_index=s.hit_index,
            penetration=s.penetration,
            damage=s.damage,
            stray=tuple((int(i), int(d)) for i, d in s.stray),
            extra_hits=s.extra_hits,
            secondary=tuple(s.secondary),
            dominance=s.dominance,
            burst_pen=s.burst_pen,
        )


def _token_id(table: Table, who: str) -> str:
    c, tok = table.actor(who)
    if tok is None:
        raise RulesError(f"{c.name} has no token on the map: place one first.")
    return tok.id


class _AttackAction(Action):
    """What every attack shares (see the module docstring)."""

    who: Who
    target: Who
    weapon: GearId | None = None
    #: which carried entry (0-based) when the sheet carries two of the weapon
    slot: Annotated[int, Field(ge=0, le=100)] | None = None
    # -- the situation the map does not show
    point_blank: bool = False
    appearing: bool = False
    #: None: read off the map (another figure beside the target)
    target_in_melee: bool | None = None
    #: the Judge's call on the firer's movement (None: how the token moved this round)
    firer_movement: Literal["still", "walking", "running"] | None = None
    #: the Judge's call on the target's Size (None: the target's sheet; 000 Target Size)
    target_size: Annotated[int, Field(ge=0, le=100)] | None = None
    #: the attacker means to miss: it fails unless a calamity (000 Action Sabotage)
    sabotage: bool = False
    #: a held bonus counter spent on the result (002 Spending the Counter)
    counter: CounterSpend | None = None
    secondary_index: Annotated[int, Field(ge=0, le=10)] = 0
    two_weapons: bool = False
    off_hand: bool = False
    #: a called shot (001): the key of the table and the location aimed at
    called: CalledKey | None = None
    location: HitLocation | None = None
    #: the defender's declared defence (paid by the defender in this step)
    defense: Literal["block", "dodge"] | None = None
    block_arm: Literal["left_arm", "right_arm"] = "left_arm"
    #: False: the Judge does not charge the AP
    charge_ap: bool = True
    # -- after the draw
    spends: tuple[SpendRef, ...] = ()
    #: the card the preview showed: refused when the deck deals another
    expect_card: Annotated[int, Field(ge=1, le=1000)] | None = None
    card: CardRef | None = None
    block_card: CardRef | None = None
    more_cards: tuple[CardRef, ...] = ()
    #: the card ``attack_card`` drew for this attack (in play until the attack reads it)
    held_card: Annotated[int, Field(ge=1, le=1000)] | None = None

    mode: ClassVar[str] = "ranged"
    shot_kind: ClassVar[str] = "snap"
    page: ClassVar[str] = SRC_COMBAT

    # -- building the request ----------------------------------------------------------

    undo_areas: ClassVar[frozenset[str]] = ATTACK_AREAS
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})

    def _slot(self, table: Table, shooter_token: str) -> int | None:
        c = table.character_of(shooter_token)
        if self.slot is not None:
            if self.slot >= len(c.weapons):
                raise RulesError(f"{c.name} carries no weapon in slot {self.slot}.")
            if self.weapon is not None and c.weapons[self.slot].weapon_id != self.weapon:
                raise RulesError(f"{c.name}'s slot {self.slot} holds no {self.weapon!r}.")
            return self.slot
        if self.weapon is not None:
            entries = [i for i, cw in enumerate(c.weapons) if cw.weapon_id == self.weapon]
            if not entries:
                raise RulesError(f"{c.name} carries no {self.weapon!r}.")
            readied = [i for i in entries if c.weapons[i].readied]
            return (readied or entries)[0]
        return self.default_slot(table, shooter_token)

    def default_slot(self, table: Table, shooter_token: str) -> int | None:
        c = table.character_of(shooter_token)
        return default_weapon_index(table, c, table.token(shooter_token), self.mode)  # type: ignore[arg-type]

    def _called(self) -> tuple[CalledKey | None, str | None]:
        key = self.called
        loc = self.location
        if key is None and loc is not None:
            key = next((k for k in _CALLED_ORDER if loc in CALLED_SHOT_LOCATIONS[k]), None)
        if key is not None and loc is None:
            default = CALLED_SHOT_DEFAULT.get(key)
            loc = default
        return key, (loc.value if loc is not None else None)

    def request_fields(self, table: Table) -> dict[str, Any]:
        """The fields of the attack request this kind of attack sets itself."""
        return {}

    def request(self, table: Table) -> AttackRequest:
        stok = _token_id(table, self.who)
        ttok = _token_id(table, self.target)
        called, location = self._called()
        fields: dict[str, Any] = {"shot_kind": self.shot_kind} | self.request_fields(table)
        return AttackRequest(
            shooter_token=stok,
            target_token=ttok,
            mode=self.mode,  # type: ignore[arg-type]
            weapon_index=self._slot(table, stok),
            point_blank=self.point_blank,
            appearing=self.appearing,
            called_shot=called,
            called_location=location,
            secondary_index=self.secondary_index,
            two_weapons=self.two_weapons,
            off_hand=self.off_hand,
            target_in_melee=self.target_in_melee,
            firer_movement=self.firer_movement,
            target_size=self.target_size,
            sabotage=self.sabotage,
            counter=self.counter,
            charge_ap=self.charge_ap,
            defense=self.defense or self.declared_defense(table, ttok),
            block_arm=self.block_arm,
            **fields,
        )

    def declared_defense(self, table: Table, target_token: str) -> Defense | None:
        """A defence the target declared on its own (the ``dodge`` or ``block``
        action) that meets this attack."""
        cid = table.token(target_token).character_id
        if self.mode == "melee" and blocking_declared(table, cid):
            return "block"
        if dodging_this_round(table, cid) and dodge_allowed(
            self.mode,  # type: ignore[arg-type]
            table.encounter.options,
        ):
            return "dodge"
        return None

    def plan(self, table: Table, geometry: Geometry | None = None) -> AttackPlan:
        """The attack before the draw (RulesError with the reason when refused)."""
        return plan_attack(table, self.request(table), geometry)

    def held(self, table: Table) -> Card | None:
        """The card ``attack_card`` drew for this attack, or None."""
        return table.deck.card(self.held_card) if self.held_card is not None else None

    def cards(self, table: Table) -> tuple[Card | None, Card | None, list[Card]]:
        typed = card_of(table, self.card) if self.card is not None else None
        block = card_of(table, self.block_card) if self.block_card is not None else None
        more = [card_of(table, r) for r in self.more_cards]
        return typed, block, more

    def spend_list(self) -> list[Spends]:
        return [s.spends() for s in self.spends] or [Spends()]

    # -- the questions ------------------------------------------------------------------

    def label(self, table: Table) -> str:
        return attack_label(self.plan(table))

    def spec(self, table: Table) -> A.ActionSpec | None:
        return self.plan(table).spec

    def cost(self, table: Table) -> Cost:
        if not table.in_action:
            return Cost()
        plan = self.plan(table)
        items = [f"{m.label}: {m.value} AP ({m.source})" for m in plan.ap.items]
        if plan.defender_ap is not None:
            items += [f"{m.label}: {m.value} AP ({m.source})" for m in plan.defender_ap.items]
        spec = plan.spec
        assert spec is not None
        if table.time is not None and table.time.kind == "phases":
            return Cost(speed=spec.speed.value, breakdown=tuple(items), source=spec.source)
        return Cost(ap=plan.ap.total, breakdown=tuple(items), source=spec.source)

    def readiness(self, table: Table) -> str | None:
        """Why the weapon is not ready to use (not in hand, empty), naming what
        would make it ready and what that costs."""
        stok = _token_id(table, self.who)
        idx = self._slot(table, stok)
        if idx is None:
            return None
        c = table.character_of(stok)
        cw = c.weapons[idx]
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None:
            return f"{c.name}'s {cw.weapon_id!r} is not in the gear list."
        if cw.failure == "broken":
            return f"{c.name}'s {w.name} is broken (equipment failure): it cannot be used."
        if cw.failure == "jammed":
            return f"{c.name}'s {w.name} is jammed: clear the jam first (clear_jam, RULES.md Rel)."
        if not cw.readied and not getattr(self, "draw_first", False):
            draw = A.draw_action(w, c.quick_draw)
            verb = "draw" if draw.kind is A.ActionKind.DRAW else "ready"
            return (
                f"{w.name} not in hand: {verb} it first, {draw.ap} AP, or draw and shoot "
                f"in one action ({SRC_READY})."
            )
        if self.mode == "ranged" and w.capacity and cw.loaded <= 0:
            reload = A.reload_action(w)
            return f"The {w.name} is not loaded: reload it first, {reload.ap} AP ({reload.source})."
        return None

    def why_not(self, table: Table) -> str | None:
        why = self.refusal_before_draw(table)
        if why:
            return why
        if self.counter is not None:
            if self.mode == "melee":
                return (
                    "In hand to hand, spend the bonus counter on its own (spend_counter); "
                    "the blow's resolution does not take it yet."
                )
            why = counter_refusal(table, self.who, self.counter)
            if why:
                return why
        return self.card_refusal(table, self.plan(table))

    def refusal_before_draw(self, table: Table) -> str | None:
        """``why_not`` before any card is typed in: the attacker, the weapon, the
        rules of the attack and the AP (what the attack panel shows before Draw)."""
        c, _tok = self.actor(table)
        if c.out_of_action:
            return f"{c.name} is out of action and cannot attack (000 Wound Effects)."
        why = self.readiness(table)
        if why:
            return why
        try:
            plan = self.plan(table)
        except RulesError as e:
            return str(e)
        why = track_refusal(table, plan)
        if why:
            return f"{plan.spec.describe()}: {why}"
        if self.held_card is not None:
            try:
                resolution_card(table, plan, None, self.held(table))
            except RulesError as e:
                return str(e)
        return None

    def card_refusal(self, table: Table, plan: AttackPlan) -> str | None:
        """With a printed deck: the card still to be typed in (tried on a copy of
        the deck), or None."""
        if self.card is None and not table.deck.physical:
            return None
        if self.card is None and stack_card(table, plan) is None:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        typed, block, more = self.cards(table)
        try:
            p = preview(table, plan, self.spend_list(), typed, 0, block, more, self.held(table))
        except CardNeeded as need:
            return f"Type in the card drawn for {need.purpose} first."
        if p.outcome.needs_block_card:
            return 'Type in the card drawn for the block first ("block_card").'
        if p.outcome.card_needed:
            return f'Type in the card drawn for {p.outcome.card_needed} first ("more_cards").'
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        """The TN with every modifier itemised, the AP and what the map says — no
        card drawn, nothing changed."""
        out = super().preview(table)
        try:
            plan = self.plan(table)
        except RulesError as e:
            out["refused"] = str(e)
            return out
        tn = plan.tn
        out.update(
            tn=tn.tn,
            result_modifier=tn.result_modifier,
            tn_items=tn.reasons(),
            ap=plan.ap.total,
            ap_items=plan.ap.reasons(),
            defender_ap=plan.defender_ap.reasons() if plan.defender_ap is not None else [],
            pool=str(plan.pool),
            situation=list(plan.geometry),
            shots=[
                {"target": s.target.id, "tn": s.tn.tn, "result_modifier": s.tn.result_modifier}
                for s in plan.series
            ],
        )
        return out

    def apply(self, table: Table) -> TableEvent:
        plan = self.plan(table)
        typed, block, more = self.cards(table)
        if plan.request.target_left_field_of_fire:
            table.log(
                f"{plan.shooter.name}'s aim at {plan.target.name} is lost: the target left "
                "the field of fire, the shot is a snap shot (003 Advanced Rule: Fields of Fire)",
                AIM_KIND,
                {"aim_lost": [plan.shooter.id, plan.target_token.id]},
            )
        out = write_attack(
            table, plan, self.spend_list(), self.expect_card, typed, block, more, self.held(table)
        )
        texts = [e.text for e in table.encounter.log[-len(out.records) :]]
        record = out.record.model_dump(mode="json")
        return TableEvent(" · ".join(texts), record, tuple(out.drawn), (out, plan))
