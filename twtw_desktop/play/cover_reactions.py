"""Under covering fire (000/001 Tactical Aiming; 002 Continuous Action Example:
Covering Fire): ``bravery_check``, the tactical-aiming check of a character under fire
before an aimed shot or anything needing concentration (failing it inside a covered
area opens a reaction shot), and ``reaction_shot``, that shot, a snap shot the
covering fire has paid for. The covering fire itself is :mod:`.cover_actions`; its
state in the log :mod:`.cover_state`.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field, model_validator

from ..errors import RulesError
from ..rules.combat.aiming import (
    bravery_tn,
    tactical_aim_check,
)
from .actions import Action, Cost, Who, register
from .cards import CardRef, card_of
from .combat_actions import SnapShot
from .cover_state import (
    SRC_COVER,
    SRC_TACTICAL,
    Reaction,
    _write,
    cover_state,
    pending_reactions,
    threat_for,
    under_fire,
)
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table


@register
class BraveryCheck(Action):
    """Tactical aiming under fire: the Bravery check before an aimed shot (or anything
    needing concentration) of a character targeted this round (000/001)."""

    do: Literal["bravery_check"] = "bravery_check"
    who: Who
    #: the AV of the cover the character stayed behind all turn (000/001 Aim and Cover)
    cover_av: Annotated[int, Field(ge=0, le=20)] = 0
    card: CardRef | None = None
    page: ClassVar[str] = SRC_TACTICAL
    summary: ClassVar[str] = (
        "the Bravery check of a character under fire before aiming; failing it in a "
        "covered area opens a reaction shot"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: Bravery check under fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if c.out_of_action:
            return f"{c.name} is out of action (000 Wound Effects)."
        threat, _why = threat_for(table, c.id)
        if not threat.any:
            return (
                f"{c.name} has not been targeted this round and is in no covered area: they "
                f"aim as normal, no check ({SRC_TACTICAL} 4)."
            )
        if threat.melee_hit:
            return None
        if self.card is None and table.deck.physical:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        c, _ = self.actor(table)
        threat, why = threat_for(table, c.id)
        out["threat"] = why
        if threat.any and not threat.melee_hit:
            tn = bravery_tn(
                c, table.edition, threat, cover_avs=[self.cover_av] if self.cover_av else ()
            )
            out.update(tn=tn.tn, result_modifier=tn.result_modifier, tn_items=tn.reasons())
            out["pool"] = str(c.trait_pool("bravery"))
        return out

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        threat, why = threat_for(table, c.id)
        deck = table.deck
        taken: list[Any] = []
        card = None
        if not threat.melee_hit:
            card = (
                deck.enter_physical(card_of(table, self.card))
                if self.card is not None
                else deck.draw()
            )
            taken.append(card)

        def more() -> Any:
            nxt = deck.draw()
            taken.append(nxt)
            return nxt

        try:
            check = tactical_aim_check(
                c,
                table.edition,
                threat,
                card,
                cover_avs=[self.cover_av] if self.cover_av else (),
                more=more,
            )
        finally:
            for t in taken:
                deck.discard(t)
        if check.kind == "hit_in_melee":
            text = f"{c.name} was hit hand to hand this round: no aim, any aim is lost ({SRC_TACTICAL})"
        elif check.aim_kept:
            text = f"{c.name} keeps their nerve under fire: Bravery {check.result} vs TN {check.tn.tn if check.tn else '?'} — the aim holds"
        else:
            res = "CF" if check.cf else str(check.result)
            text = (
                f"{c.name}'s nerve breaks under fire: Bravery {res} vs TN "
                f"{check.tn.tn if check.tn else '?'} — aim lost, any shot is a snap shot, no "
                "more aiming this round"
            )
        record = {
            "character_id": c.id,
            "bravery": check.model_dump(mode="json", exclude_none=True),
            "threat": why,
            "cards": [t.number for t in taken],
        }
        table.log(text + f" ({SRC_TACTICAL})", "check", record)
        lines = [text]
        if not check.aim_kept and check.kind != "hit_in_melee" and tok is not None:
            for st in under_fire(table, tok.id):
                shooter = table.character(st.shooter)
                key = f"{rnd_moment(table)}:{st.shooter}:{tok.id}:{len(table.encounter.log)}"
                auto = check.card_number if check.cf else None
                r = Reaction(
                    shooter=st.shooter,
                    shooter_token=st.token,
                    target_token=tok.id,
                    weapon=st.weapon,
                    slot=st.slot,
                    auto_hit_card=auto,
                    key=key,
                )
                if auto is not None:
                    line = (
                        f"Reaction shot: {shooter.name}'s covering fire hits {c.name} automatically "
                        f"(a CF on the Bravery check; resolve it with card {auto})"
                    )
                else:
                    line = (
                        f"Reaction shot: {shooter.name} may snap-shoot {c.name} at once, no AP "
                        "(reaction_shot)"
                    )
                _write(table, line + f" ({SRC_COVER})", st, reaction=r.__dict__)
                lines.append(line)
        return TableEvent(" · ".join(lines), record, tuple(t.number for t in taken))


def recall_card(table: Table, number: int) -> None:
    """Take card ``number`` back off the discard pile to be dealt again: on top of the
    draw pile (the generated deck) or out of the printed discard (typed in again).
    Inside a step that copies the deck, so undo puts it back."""
    deck = table.deck
    st = deck.snapshot()
    if number in st.discard:
        deck.restore(
            st.model_copy(
                update={
                    "discard": tuple(x for x in st.discard if x != number),
                    "draw_pile": (number, *st.draw_pile),
                }
            )
        )
    elif any(c.number == number for c in st.physical_discard):
        keep = tuple(c for c in st.physical_discard if c.number != number)
        deck.restore(st.model_copy(update={"physical_discard": keep}))


def rnd_moment(table: Table) -> str:
    rnd, moment = table.now()
    return f"{rnd}.{moment}"


@register
class ReactionShot(SnapShot):
    """The covering character's snap shot at whoever failed a Bravery check in the
    covered area (002): every standard modifier, no AP (the covering fire paid)."""

    do: Literal["reaction_shot"] = "reaction_shot"  # type: ignore[assignment]
    charge_ap: bool = False
    page: ClassVar[str] = SRC_COVER
    summary: ClassVar[str] = (
        "the covering character's snap shot after a failed Bravery check (no AP)"
    )

    @model_validator(mode="after")
    def _free(self) -> ReactionShot:
        if self.charge_ap:
            raise ValueError("a reaction shot charges no AP (the covering fire paid for it)")
        return self

    def reaction(self, table: Table) -> Reaction:
        c, _ = self.actor(table)
        _tc, ttok = table.actor(self.target)
        for r in pending_reactions(table):
            if r.shooter == c.id and ttok is not None and r.target_token == ttok.id:
                return r
        raise RulesError(
            f"No reaction shot is open for {c.name} at {_tc.name}: it opens when a character "
            f"in the covered area fails a Bravery check ({SRC_COVER})."
        )

    def request_fields(self, table: Table) -> dict[str, Any]:
        out = super().request_fields(table)
        with contextlib.suppress(RulesError):
            out["auto_hit"] = self.reaction(table).auto_hit_card is not None
        return out

    def auto_card(self, table: Table) -> int | None:
        """The Bravery check's CF card an automatic hit is resolved with (None: none)."""
        if self.card is not None:
            return None
        try:
            return self.reaction(table).auto_hit_card
        except RulesError:
            return None

    def cards(self, table: Table) -> tuple[Any, Any, list[Any]]:
        typed, block, more = super().cards(table)
        n = self.auto_card(table)
        if typed is None and n is not None:
            top = table.deck.snapshot().draw_pile[:1]
            if table.deck.physical or top != (n,):
                typed = card_of(table, n)  # a printed card: typed in again
        return typed, block, more

    def card_refusal(self, table: Table, plan: Any) -> str | None:
        if self.auto_card(table) is not None:
            return None  # the CF card is known: 002 "use the drawn card"
        return super().card_refusal(table, plan)

    def cost(self, table: Table) -> Cost:
        return Cost(breakdown=(f"no AP: the covering fire paid for it ({SRC_COVER})",))

    def default_slot(self, table: Table, shooter_token: str) -> int | None:
        try:
            return self.reaction(table).slot
        except RulesError:
            return super().default_slot(table, shooter_token)

    def why_not(self, table: Table) -> str | None:
        try:
            self.reaction(table)
        except RulesError as e:
            return str(e)
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        r = self.reaction(table)
        n = self.auto_card(table)
        if n is not None:
            recall_card(table, n)
        ev = super().apply(table)
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is not None:
            _write(
                table,
                f"{c.name}'s reaction shot is taken ({SRC_COVER})",
                st,
                reaction_used=r.key,
            )
        return ev
