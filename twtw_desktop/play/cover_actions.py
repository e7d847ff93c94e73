"""Covering fire and tactical aiming at the table (002 Continuous Action Example:
Covering Fire, Determining Target Area; 000/001 Tactical Aiming).

* ``covering_fire`` — a character with a readied firearm holding 4 or more rounds
  begins covering an area (hexes the Judge picks) or a target (a token). Phases: a
  Fast (Quick) action taken in the character's phase; declared again at the next
  declaration it goes on through that round (the initiative card's Reflex read
  decides: a CF and the character hesitates, and the covering fire ends).
* ``cover_marker`` — each continuous action phase one of the four target markers:
  the card's wrench is checked against the gun's Rel (a malfunction jams the gun on
  the sheet and ends the covering fire), the location is covered and a round is
  spent. A new location may be named with the marker (the page: "declare an
  intended covering fire location" every phase).
* ``stop_covering_fire`` — the Judge ends it (one undo step).
* ``bravery_check`` — the tactical-aiming check of a character under fire before an
  aimed shot or anything needing concentration: Standard (5) after ranged attacks
  (−1 per shot after the first, −2 per hit), the edition's melee TN after a melee
  attack, none possible after a melee hit; the cover's AV is added. Failing it inside
  a covered area opens a reaction shot for the covering character.
* ``reaction_shot`` — that shot: a snap shot with every standard modifier (the
  attack's own flow) that charges no AP, the covering fire having paid for it.
  These two live in :mod:`.cover_reactions`; this module re-exports them and the state.

The state lives in the log (entries of kind ``covering``): every step above writes
the shooter's whole covering state there, so undo, redo, the journal and a saved file
keep it with nothing else to store; :func:`.cover_state.cover_state` reads the latest
(:mod:`.cover_state`). After every table action :func:`.cover_state.watch` (a hook
of :meth:`~twtw_desktop.play.table.Table.apply`) logs who has come under covering fire — a token standing in a covered hex, or the
covered target — once per marker.

House readings (each edition's ``house_values`` names them too):

* AP v2 has no continuous action phases: the round's quarters (segments 1–5, 6–10,
  11–15, 16–20) stand for them, one marker each; beginning costs four snap shots'
  AP with the gun (one per marker, the shots "not well-aimed"), and the covering
  lasts twenty segments, until the character pays for another action, or until the
  gun is empty or fails.
* Phases: it lasts through the round it begins in and until the character acts
  next round, unless declared again (:class:`CoveringFire` at the declaration).
* The target area (002 Determining Target Area is "intentionally vague"): at most
  seven hexes a marker — a hex and the ring around it — inside the gun's field of
  fire when fields of fire are in use.
* "Targeted since the aim began or since the last action" is read as this round:
  each attack at the character logged this round, and each covering fire whose
  covered area holds them counts as one shot at them ("targets for all purposes").
* The Bravery check itself costs nothing: it is made immediately before the action
  it guards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..geometry.fields import in_field_of_fire
from ..rules import actions as A
from ..rules.base import Speed
from ..rules.combat.aiming import (
    COVERING_MARKERS,
    COVERING_MIN_LOADED,
    place_marker,
)
from ..rules.combat.aiming import (
    CoveringFire as CoveringRules,
)
from ..rules.combat.ancillary import after_failure
from .actions import Action, Cost, HexRef, Who, hex_of, ref_of, register
from .cards import CardRef, card_of
from .cover_reactions import BraveryCheck, ReactionShot
from .cover_state import (
    AREA_MAX_HEXES,
    SRC_AREA,
    SRC_COVER,
    SRC_TACTICAL,
    CoverState,
    MarkerRecord,
    _write,
    active_covers,
    aim_lost,
    bravery_due,
    cover_state,
    cover_states,
    covered_hexes,
    ended_why,
    marker_refusal,
    markers_due,
    pending_reactions,
    planned_hexes,
    threat_for,
    under_fire,
)
from .table import TableEvent

if TYPE_CHECKING:
    from ..model.encounter import Token
    from ..rules.gear import Weapon
    from .table import Table


def _where(table: Table, hexes: Iterable[HexRef], target: str | None) -> str:
    if target is not None:
        try:
            return table.character_of(target).name
        except KeyError:
            return target
    labels = [table.hex_label(hex_of(table, h)) for h in hexes]
    return ", ".join(labels)


# =============================================================================
# The actions
# =============================================================================


class _Location(Action):
    """An area (``hexes``) or a target (``target``, a token or character id)."""

    hexes: Annotated[tuple[HexRef, ...], Field(max_length=AREA_MAX_HEXES * 4)] = ()
    target: Who | None = None
    page: ClassVar[str] = SRC_COVER

    def target_token(self, table: Table) -> str | None:
        if self.target is None:
            return None
        c, tok = table.actor(self.target)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map to cover.")
        return tok.id

    def location_refusal(
        self, table: Table, shooter: Token, weapon: Weapon, *, required: bool = True
    ) -> str | None:
        """The area or target checked (002 Determining Target Area; firing arcs)."""
        if self.hexes and self.target is not None:
            return "Cover an area (hexes) or a target (a token), not both."
        if not self.hexes and self.target is None:
            if required:
                return f"Name the location to cover: hexes on the map or a target ({SRC_AREA})."
            return None
        if len(set(self.hexes)) > AREA_MAX_HEXES:
            return (
                f"One marker covers at most {AREA_MAX_HEXES} hexes — a hex and the ring around "
                f"it (house; {SRC_AREA} leaves the size to the Judge)."
            )
        try:
            spots = [hex_of(table, h) for h in self.hexes]
            ttok = self.target_token(table)
        except RulesError as e:
            return str(e)
        if ttok is not None:
            if ttok == shooter.id:
                return "A character cannot cover themselves."
            spots = [table.token(ttok).at]
        if table.encounter.options.fields_of_fire:
            for h in spots:
                if h == shooter.at:
                    continue
                chk = in_field_of_fire(
                    shooter.at,
                    shooter.facing,
                    weapon.field_of_fire,
                    h,
                    arc_edges=table.encounter.options.arc_edges,
                    orientation=table.map.orientation,
                )
                if not chk.inside:
                    return (
                        f"{table.hex_label(h)} is outside the {weapon.field_of_fire}° field of "
                        f"fire of the {weapon.name}: covering fire uses firing arcs ({SRC_COVER}; "
                        "003 Fields of Fire). Turn to face it first."
                    )
        return None


def _gun(table: Table, c: Any, weapon: str | None, slot: int | None) -> tuple[int, Weapon]:
    if slot is not None:
        if slot >= len(c.weapons):
            raise RulesError(f"{c.name} carries no weapon in slot {slot}.")
        cw = c.weapons[slot]
        if weapon is not None and cw.weapon_id != weapon:
            raise RulesError(f"{c.name}'s slot {slot} holds no {weapon!r}.")
        return slot, table.gear.weapon(cw.weapon_id)
    best: tuple[int, Weapon] | None = None
    for i, cw in enumerate(c.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None or not w.is_ranged or not w.capacity:
            continue
        if weapon is not None and cw.weapon_id != weapon:
            continue
        if best is None or (cw.readied and not c.weapons[best[0]].readied):
            best = (i, w)
    if best is None:
        what = repr(weapon) if weapon else "firearm"
        raise RulesError(f"{c.name} carries no {what} to lay down covering fire with.")
    return best


@register
class CoveringFire(_Location):
    """Begin covering fire on an area or a target — or, at the next declaration
    (Phases) or in a later round (AP v2), declare it again to go on (002)."""

    do: Literal["covering_fire"] = "covering_fire"
    who: Who
    weapon: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    slot: Annotated[int, Field(ge=0, le=100)] | None = None
    summary: ClassVar[str] = (
        "cover an area or a target: four target markers, a reaction shot at whoever "
        "fails a Bravery check in it (Phases: Quick; AP v2: house 4 snap shots' AP)"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: covering fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset(
        {"characters", "tokens", "track", "deck", "log"}
    )
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "track", "log"})

    def gun(self, table: Table) -> tuple[int, Weapon]:
        c, _ = self.actor(table)
        return _gun(table, c, self.weapon, self.slot)

    def renewing(self, table: Table) -> CoverState | None:
        """The covering fire this declaration continues (same gun, a later round)."""
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None or ended_why(table, st) is not None:
            return None
        rnd, _ = table.now()
        idx, _w = self.gun(table)
        if st.slot == idx and rnd > st.round:
            return st
        return None

    def spec(self, table: Table) -> A.ActionSpec | None:
        _i, w = self.gun(table)
        snap = w.snap_ap if w.snap_ap is not None else w.normal_ap
        if snap is None:
            raise RulesError(f"The {w.name} cannot be fired.")
        item = A.CostItem(
            label=f"covering fire, {w.name}: {COVERING_MARKERS} snap shots × {snap} AP (house)",
            ap=COVERING_MARKERS * snap,
            source=SRC_COVER,
        )
        return A.ActionSpec(
            kind=A.ActionKind.COVERING_FIRE,
            ap=item.ap,
            weapon_id=w.id,
            weapon_name=w.name,
            speed=Speed.FAST,
            note="covering fire",
            breakdown=(item,),
            source=SRC_COVER,
        )

    def cost(self, table: Table) -> Cost:
        if not table.in_action or table.time is None:
            return Cost()
        spec = self.spec(table)
        assert spec is not None
        if table.time.kind == "phases":
            renew = self.renewing(table) is not None
            why = "declared again for this round" if renew else "a Fast action"
            return Cost(
                speed=spec.speed.value, breakdown=(f"{why} ({SRC_COVER})",), source=SRC_COVER
            )
        return Cost(
            ap=spec.ap,
            breakdown=tuple(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown),
            source=SRC_COVER,
        )

    def why_not(self, table: Table) -> str | None:
        try:
            return self._refusal(table)
        except RulesError as e:
            return str(e)

    def _refusal(self, table: Table) -> str | None:
        c, tok = self.actor(table)
        if not table.in_action or table.time is None:
            return f"Covering fire is a continuous action of action time ({SRC_COVER}): declare action time first (Ctrl+T)."
        if tok is None:
            return f"{c.name} has no token on the map."
        if c.out_of_action:
            return f"{c.name} is out of action and cannot act (000 Wound Effects)."
        idx, w = self.gun(table)
        cw = c.weapons[idx]
        if not w.is_ranged or not w.capacity:
            return f"Covering fire needs a firearm, not the {w.name} ({SRC_COVER})."
        if cw.failure:
            return f"{c.name}'s {w.name} is {cw.failure}: clear it first (clear_jam)."
        if not cw.readied:
            return f"{c.name}'s {w.name} is not in hand: draw it first ({SRC_COVER})."
        renew = self.renewing(table)
        if renew is None and cw.loaded < COVERING_MIN_LOADED:
            return (
                f"Covering fire needs {COVERING_MIN_LOADED} or more rounds loaded when it "
                f"begins; the {w.name} holds {cw.loaded} ({SRC_COVER}). Reload first."
            )
        st = cover_state(table, c.id)
        if renew is None and st is not None and ended_why(table, st) is None:
            return (
                f"{c.name} is already covering {_where(table, st.hexes, st.target)}: name a new "
                "location with the next marker (cover_marker), or stop it first."
            )
        have_location = renew is not None and (renew.hexes or renew.target)
        why = self.location_refusal(table, tok, w, required=not have_location)
        if why:
            return why
        spec = self.spec(table)
        assert spec is not None
        track = table.track
        if table.time.kind == "phases":
            if renew is not None:
                why = track._refusal(
                    lambda: track._declare(c.id, Speed.FAST, ("covering fire",), False)
                )
                if why:
                    return (
                        "Covering fire goes on when it is declared again at the next "
                        f"declaration (004 Declaration; {SRC_COVER}): {why}"
                    )
                return None
            why = table.time.why_not_pay(c.id, spec)
            return f"Covering fire (a Quick action): {why}" if why else None
        why = table.time.why_not_pay(c.id, spec)
        return f"{spec.describe()}: {why}" if why else None

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        assert tok is not None and table.time is not None
        idx, w = self.gun(table)
        renew = self.renewing(table)
        spec = self.spec(table)
        assert spec is not None
        event: Any = None
        track = table.track
        if table.time.kind == "phases" and renew is not None:
            event = track.declare_speed(c.id, Speed.FAST)
        else:
            event = table.time.pay(c.id, spec)
        rnd, moment = table.now()
        hexes = self.hexes
        target = self.target_token(table)
        if renew is not None and not hexes and target is None:
            hexes, target = renew.hexes, renew.target
        spent = None
        if table.time.kind == "segments":
            spent = table.track.state.rows[c.id].spent
        st = CoverState(
            shooter=c.id,
            token=tok.id,
            weapon=w.id,
            slot=idx,
            hexes=tuple(hexes),
            target=target,
            round=rnd,
            moment=0 if (renew is not None and table.time.kind == "phases") else moment,
            spent=spent,
        )
        where = _where(table, hexes, target)
        if renew is not None:
            text = f"{c.name} goes on covering {where} with the {w.name} this round"
            if table.time.kind == "phases":
                text += " (declared Quick: a CF on the Reflex read and they hesitate)"
        else:
            text = (
                f"{c.name} lays down covering fire with the {w.name} on {where}: a target "
                f"marker each continuous action phase, four in all"
            )
        _write(table, text + f" ({SRC_COVER})", st, event)
        return TableEvent(text, {"covering": st.model_dump(mode="json")})


@register
class CoverMarker(_Location):
    """Place the next target marker: draw for a malfunction, cover the location, spend
    a round (002). ``hexes`` / ``target`` move the covering fire first."""

    do: Literal["cover_marker"] = "cover_marker"
    who: Who
    #: a printed deck's card, typed in
    card: CardRef | None = None
    #: the Judge's call (002): a malfunction found after the shot still covers
    malfunction_after: bool = False
    summary: ClassVar[str] = (
        "a covering fire's target marker this continuous phase: malfunction check, one round"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: covering-fire marker"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        c, _ = self.actor(table)
        return {"characters": {c.id}}

    def state(self, table: Table) -> CoverState:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None:
            raise RulesError(f"{c.name} is not laying down covering fire ({SRC_COVER}).")
        return st

    def why_not(self, table: Table) -> str | None:
        try:
            st = self.state(table)
            why = marker_refusal(table, st)
            if why:
                return why
            _c, tok = self.actor(table)
            assert tok is not None
            w = table.gear.weapon(st.weapon)
            have = bool(st.hexes or st.target)
            why = self.location_refusal(table, tok, w, required=not have)
            if why:
                return why
            if self.card is None and table.deck.physical:
                return 'The deck is in physical-card mode: type in the card drawn ("card").'
        except RulesError as e:
            return str(e)
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        st = self.state(table)
        w = table.gear.weapon(st.weapon)
        hexes, target = st.hexes, st.target
        if self.hexes or self.target is not None:
            hexes, target = self.hexes, self.target_token(table)
        deck = table.deck
        discard = deck.discard_pile()
        card = (
            deck.enter_physical(card_of(table, self.card)) if self.card is not None else deck.draw()
        )
        rnd, moment = table.now()
        rules_state = CoveringRules(
            shooter_id=c.id, weapon_id=w.id, markers_left=COVERING_MARKERS - len(st.markers)
        )
        where = _where(table, hexes, target)
        _new, fired, res = place_marker(
            rules_state,
            c,
            w,
            where,
            card,
            discard=discard,
            malfunction_after=self.malfunction_after,
            carried_index=st.slot,
            rel_bonus=0,
        )
        deck.discard(card)
        weapons = list(fired.weapons)
        if res.malfunction.failed:
            weapons[st.slot] = after_failure(weapons[st.slot], res.malfunction)
        c.weapons = weapons
        marker = MarkerRecord(
            round=rnd,
            moment=moment,
            card=card.number,
            covered=res.covered,
            hexes=hexes,
            target=target,
        )
        ended = None
        if res.malfunction.failed:
            ended = f"the {w.name} malfunctioned"
        elif res.ammo_left < 1:
            ended = "the gun is empty"
        new = st.model_copy(
            update={
                "hexes": hexes,
                "target": target,
                "markers": (*st.markers, marker),
                "ended": ended,
            }
        )
        n = len(new.markers)
        if res.covered:
            text = f"{c.name}'s covering fire covers {where} (marker {n} of {COVERING_MARKERS}; card {card.number}; {res.ammo_left} left)"
        else:
            text = f"{c.name}'s {w.name} fails before the shot: {where} is not covered (card {card.number})"
        if ended:
            text += f" — covering fire ends: {ended}"
        _write(table, text + f" ({SRC_COVER})", new, reasons=list(res.reasons), cards=[card.number])
        return TableEvent(text, {"marker": marker.model_dump(mode="json")}, (card.number,))


@register
class StopCoveringFire(Action):
    """The covering character stops (or the Judge ends it)."""

    do: Literal["stop_covering_fire"] = "stop_covering_fire"
    who: Who
    page: ClassVar[str] = SRC_COVER
    summary: ClassVar[str] = "end a character's covering fire"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: stop covering fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"log"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None or ended_why(table, st) is not None:
            return f"{c.name} is not laying down covering fire."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        assert st is not None
        text = f"{c.name} stops covering fire"
        _write(table, text, st.model_copy(update={"ended": "stopped"}))
        return TableEvent(text)


__all__ = [
    "AREA_MAX_HEXES",
    "SRC_AREA",
    "SRC_COVER",
    "SRC_TACTICAL",
    "BraveryCheck",
    "CoverMarker",
    "CoverState",
    "CoveringFire",
    "ReactionShot",
    "StopCoveringFire",
    "active_covers",
    "aim_lost",
    "bravery_due",
    "cover_state",
    "cover_states",
    "covered_hexes",
    "ended_why",
    "markers_due",
    "pending_reactions",
    "planned_hexes",
    "ref_of",
    "threat_for",
    "under_fire",
]
