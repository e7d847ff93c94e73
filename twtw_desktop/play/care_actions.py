"""First aid, rest and healing at the table (001 Healing; 000/001 Wound Effects).

* ``first_aid`` — a character treats another (or himself): a wound (the Medicine
  check the treated location's wound count asks for, only the skilled, once per
  wounded area; success takes a wound off and binds the location so it stops
  bleeding), Conc (anyone, Simple (3): all Conc back, about two minutes, so only in
  narrative time) or an unconscious character (anyone, Standard (5) revives). In
  action time it costs what a skill needing full attention costs (8 AP; a Full action
  in the Phases edition) and the healer stands next to the patient.
* ``heal`` — between scenes a skilled character checks Medicine once per wounded
  area of each patient against the same TNs; each success improves the area by one
  level (001 "every scene").
* ``rest`` — time passes between fights: Conc back (1 a minute), the stun shaken off,
  the scene's risk over, the unconscious awake after 6 hours, wounds bound; with a
  ``healer`` the scene's healing checks follow, in the same step.

The numbers come from the edition's ``healing`` block; the house readings are
listed in its ``house_values`` (and the rules reference). Cards come off the deck,
or are typed in (``typed_cards``, in the order drawn) with a printed deck. (``cards``
in a journal line is the record of the cards drawn, as for every action.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import Field

from ..errors import RulesError
from ..hexgrid import Hex
from ..rules import actions as A
from ..rules import healing as H
from ..rules.base import Pool, WoundLocation
from ..rules.card import Card
from ..rules.character import Character
from ..rules.checks import CheckResult, check_pool
from .action_base import _log_event
from .actions import Action, Who, register
from .cards import CardNeeded, CardRef, TypedCards, card_of, scratch_deck
from .table import TableEvent

if TYPE_CHECKING:
    from .table import Table

SRC_FIRST_AID = "001 Healing (first aid); 000/001 Wound Effects (revive)"
SRC_REST = "001 Healing (Conc a minute, healing every scene)"
#: the longest rest one step takes: a week
MAX_REST_MINUTES = 7 * 24 * 60
Cards = Annotated[tuple[CardRef, ...], Field(max_length=60)]
PHYSICAL = 'The deck is in physical-card mode: type in the cards drawn ("typed_cards"), in order.'


class _Draw:
    """The cards a run of checks reads: off the deck, typed in (``refs``: the deck's
    ``enter_physical`` records each), or — ``dry`` — read without touching the deck,
    to learn whether the typed cards are enough."""

    def __init__(self, table: Table, refs: Iterable[CardRef], dry: bool = False) -> None:
        refs = list(refs)
        deck = table.deck
        self.taken: list[Card] = []
        self.source: Callable[[], Card]
        if refs or deck.physical:
            cards = [card_of(table, r) for r in refs]
            self.source = TypedCards(cards, enter=None if dry else deck.enter_physical)
        else:
            self.source = scratch_deck(deck).draw if dry else deck.draw

    def __call__(self) -> Card:
        card = self.source()
        self.taken.append(card)
        return card

    def check(self, pool: Pool, tn: int) -> CheckResult:
        first = self()
        return check_pool(first, pool, tn, self)

    def discard(self, table: Table) -> None:
        for card in self.taken:
            table.deck.discard(card)


def _refusal_for_cards(
    table: Table, refs: tuple[CardRef, ...], run: Callable[[_Draw], Any]
) -> str | None:
    """Why the typed cards do not carry the checks through (None when they do)."""
    if not refs:
        return PHYSICAL if table.deck.physical else None
    try:
        run(_Draw(table, refs, dry=True))
    except CardNeeded as need:
        return f'Type in the card drawn for {need.purpose} too ("typed_cards").'
    return None


def _verdict(res: CheckResult) -> str:
    if res.calamity:
        return "CF"
    return f"{res.result}: {'success' if res.success else 'failure'}"


def _check_record(res: CheckResult, pool: Pool, tn: int) -> dict[str, Any]:
    return {
        "pool": str(pool),
        "tn": tn,
        "result": res.result,
        "success": res.success,
        "calamity": res.calamity,
    }


def _patient(table: Table, who: str) -> Character:
    return table.actor(who)[0]


# =============================================================================
# First aid
# =============================================================================


@register
class FirstAid(Action):
    """``who`` treats ``patient``: a wound (``location``, default the worst not yet
    treated), Conc, or an unconscious character (``treat``)."""

    do: Literal["first_aid"] = "first_aid"
    who: Who
    patient: Who
    treat: H.Treatment = "wound"
    location: WoundLocation | None = None
    typed_cards: Cards = ()
    page: ClassVar[str] = SRC_FIRST_AID
    summary: ClassVar[str] = (
        "treat a wound (Medicine vs the location's TN, takes a wound off and binds it), "
        "Conc (Simple 3) or an unconscious patient (Standard 5)"
    )

    def label(self, table: Table) -> str:
        c, _ = self.actor(table)
        return f"{c.name}: first aid on {_patient(table, self.patient).name}"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log", "track"})

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.skill_action("first aid", table.edition.healing.first_aid_ap)

    # -- what the check is ----------------------------------------------------------

    def target(self, table: Table) -> WoundLocation | None:
        if self.treat != "wound":
            return None
        return H.first_aid_target(_patient(table, self.patient), self.location)

    def tn(self, table: Table) -> tuple[int, str]:
        h = table.edition.healing
        if self.treat == "conc":
            return h.conc_care_tn, f"Simple ({h.conc_care_tn}): all Conc back ({H.SOURCE_HEALING})"
        if self.treat == "revive":
            return h.revive_tn, f"Standard ({h.revive_tn}) to revive ({H.SOURCE_REVIVE})"
        loc = self.target(table)
        assert loc is not None
        return H.wound_tn(table.edition, _patient(table, self.patient).wounds[loc])

    def pool(self, table: Table) -> tuple[Pool, list[str]]:
        healer, _ = self.actor(table)
        pool, why, _skilled = H.medicine_pool(healer, table.edition)
        return pool, why

    # -- the questions --------------------------------------------------------------

    def why_not(self, table: Table) -> str | None:
        try:
            healer, tok = self.actor(table)
            patient, ptok = table.actor(self.patient)
        except RulesError as e:
            return str(e)
        h = table.edition.healing
        if table.in_action and self.treat == "conc":
            return (
                f"Caring for Conc takes about {h.conc_care_minutes} minutes ({H.SOURCE_HEALING}):"
                " back in narrative time, or rest (Encounter ▸ Rest and heal)."
            )
        why = H.why_not_treat(healer, patient, self.treat, self.location, table.edition)
        if why:
            return why
        if table.in_action and tok is not None and ptok is not None and healer.id != patient.id:
            apart = Hex(*tok.hex).distance(Hex(*ptok.hex))
            if apart > h.first_aid_reach:
                return (
                    f"{healer.name} is {apart} paces from {patient.name}: first aid is given "
                    f"within {h.first_aid_reach} pace (house); move next to them first."
                )
        why = _refusal_for_cards(
            table, self.typed_cards, lambda d: d.check(self.pool(table)[0], self.tn(table)[0])
        )
        return why or super().why_not(table)

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        try:
            pool, pool_why = self.pool(table)
            tn, tn_why = self.tn(table)
            loc = self.target(table)
        except RulesError as e:
            out["refused"] = str(e)
            return out
        patient = _patient(table, self.patient)
        out.update(pool=str(pool), pool_items=pool_why, tn=tn, tn_items=[tn_why])
        if loc is not None:
            n = patient.wounds[loc]
            bind = table.edition.healing.first_aid_binds and n > 1
            out.update(
                location=loc.value,
                wounds=n,
                on_success=f"{H.where(loc)} {n} → {n - 1}"
                + (", bound: it stops bleeding (house)" if bind else ""),
            )
        elif self.treat == "conc":
            out["on_success"] = f"Conc {patient.conc} → {patient.conc_max}"
        else:
            out["on_success"] = f"{patient.name} comes round"
        return out

    # -- doing it -------------------------------------------------------------------

    def apply(self, table: Table) -> TableEvent:
        healer, _ = self.actor(table)
        patient = _patient(table, self.patient)
        pool, pool_why = self.pool(table)
        tn, tn_why = self.tn(table)
        loc = self.target(table)
        _details, event = self.pay(table)
        draw = _Draw(table, self.typed_cards)
        try:
            res = draw.check(pool, tn)
        except CardNeeded as need:
            raise RulesError(
                f'Type in the card drawn for {need.purpose} too ("typed_cards").'
            ) from None
        finally:
            draw.discard(table)
        if self.treat == "wound":
            assert loc is not None
            new, lines = H.treat_wound(patient, loc, res.success, table.edition)
        elif not res.success:
            new, lines = patient.model_copy(deep=True), ["no effect"]
        elif self.treat == "conc":
            new, lines = H.care_for_conc(patient)
        else:
            new, lines = H.revive(patient)
        patient.assign_from(new)
        what = {
            "wound": f"the {H.where(loc)}" if loc else "",
            "conc": "Conc",
            "revive": "to revive",
        }
        text = (
            f"{healer.name}: first aid on {patient.name} ({what[self.treat]}), "
            f"{pool} vs TN {tn} — {_verdict(res)}; " + "; ".join(lines)
        )
        record = _check_record(res, pool, tn) | {
            "patient": patient.id,
            "treat": self.treat,
            "location": loc.value if loc else None,
            "cards": [c.number for c in draw.taken],
            "reasons": [*pool_why, tn_why, *res.reasons, *lines],
        }
        _log_event(table, text, "check", event, record)
        return TableEvent(text, record, tuple(c.number for c in draw.taken))


# =============================================================================
# Between fights
# =============================================================================


def _patients(table: Table, ids: tuple[str, ...]) -> list[Character]:
    if ids:
        return [_patient(table, who) for who in ids]
    return [c for c in table.encounter.characters if not c.dead]


def _scene_healing(
    table: Table, healer: Character, patients: list[Character], draw: _Draw
) -> tuple[dict[str, Character], list[str], list[dict[str, Any]]]:
    """The scene's Medicine check for every healable area of every patient (001):
    the new sheets by id, the log lines and the records. Reads the sheets given,
    changes nothing on the table."""
    pool, _why, _ = H.medicine_pool(healer, table.edition)
    sheets: dict[str, Character] = {}
    lines: list[str] = []
    records: list[dict[str, Any]] = []
    for p in patients:
        sheet = p
        for loc, count in H.healable(p):
            tn, _tn_why = H.wound_tn(table.edition, count)
            res = draw.check(pool, tn)
            sheet, what = H.heal_wound(sheet, loc, res.success, table.edition)
            lines.append(f"{p.name}'s {H.where(loc)}: TN {tn}, {_verdict(res)} — {what[0]}")
            records.append(_check_record(res, pool, tn) | {"patient": p.id, "location": loc.value})
        sheets[p.id] = sheet
    return sheets, lines, records


class _BetweenFights(Action):
    """An action of narrative time over several characters."""

    patients: Annotated[tuple[Who, ...], Field(max_length=500)] = ()
    typed_cards: Cards = ()

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})

    def the_healer(self, table: Table) -> Character | None:
        raise NotImplementedError

    def why_not(self, table: Table) -> str | None:
        if table.in_action:
            return f"Rest and healing come between fights ({SRC_REST}): return to narrative time."
        try:
            patients = _patients(table, self.patients)
            healer = self.the_healer(table)
        except RulesError as e:
            return str(e)
        if not patients:
            return "Nobody to rest: every character is dead."
        if healer is not None:
            if healer.out_of_action or healer.dead:
                return f"{healer.name} is out of action and cannot heal anyone."
            _pool, _why, skilled = H.medicine_pool(healer, table.edition)
            if not skilled:
                return (
                    f"{healer.name} has no {table.edition.healing.skill.title()}: only the "
                    f"skilled heal wounds ({H.SOURCE_HEALING})."
                )
            return _refusal_for_cards(
                table, self.typed_cards, lambda d: _scene_healing(table, healer, patients, d)
            )
        return None

    def heal_into(
        self, table: Table, healer: Character, patients: list[Character]
    ) -> tuple[list[str], list[dict[str, Any]], list[int]]:
        draw = _Draw(table, self.typed_cards)
        try:
            sheets, lines, records = _scene_healing(table, healer, patients, draw)
        except CardNeeded as need:
            raise RulesError(
                f'Type in the card drawn for {need.purpose} too ("typed_cards").'
            ) from None
        finally:
            draw.discard(table)
        for p in patients:
            p.assign_from(sheets[p.id])
        return lines, records, [c.number for c in draw.taken]


@register
class Heal(_BetweenFights):
    """Between scenes ``who`` (skilled in Medicine) checks once per wounded area of
    each patient (default: everyone alive)."""

    do: Literal["heal"] = "heal"
    who: Who
    page: ClassVar[str] = "001 Healing (every scene)"
    summary: ClassVar[str] = (
        "between scenes: a Medicine check per wounded area of each patient, "
        "success improves it one level"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} tends the wounded"

    def the_healer(self, table: Table) -> Character | None:
        return self.actor(table)[0]

    def apply(self, table: Table) -> TableEvent:
        healer = self.the_healer(table)
        assert healer is not None
        patients = _patients(table, self.patients)
        lines, records, cards = self.heal_into(table, healer, patients)
        text = f"{healer.name} tends the wounded ({H.SOURCE_HEALING}): " + (
            "; ".join(lines) or "no wound to heal"
        )
        table.log(text, "check", {"checks": records, "cards": cards})
        return TableEvent(text, {"checks": records}, tuple(cards))


@register
class Rest(_BetweenFights):
    """Time passes between fights for ``patients`` (default: everyone alive); with a
    ``healer`` the scene's healing checks follow in the same step."""

    do: Literal["rest"] = "rest"
    minutes: Annotated[int, Field(ge=1, le=MAX_REST_MINUTES)] = 60
    healer: Who | None = None
    page: ClassVar[str] = SRC_REST
    summary: ClassVar[str] = (
        "between fights: Conc back 1 a minute, stun over, the unconscious awake after "
        "6 h, wounds bound; with a healer, the scene's healing checks"
    )
    needs_actor: ClassVar[bool] = False

    def label(self, table: Table) -> str:
        return f"Rest {duration_text(self.minutes)}"

    def the_healer(self, table: Table) -> Character | None:
        return _patient(table, self.healer) if self.healer else None

    def apply(self, table: Table) -> TableEvent:
        patients = _patients(table, self.patients)
        lines: list[str] = []
        before = {p.id: (p.wound_level, p.conc) for p in patients}
        for p in patients:
            new, why = H.rest(p, self.minutes, table.edition)
            if new != p:
                p.assign_from(new)
                lines.append(f"{p.name}: " + ", ".join(why))
        if not lines:
            lines.append("nobody had anything to recover")
        records: list[dict[str, Any]] = []
        cards: list[int] = []
        healer = self.the_healer(table)
        if healer is not None:
            heal_lines, records, cards = self.heal_into(table, healer, patients)
            lines.append(f"{healer.name} tends the wounded: " + ("; ".join(heal_lines) or "none"))
        text = f"The posse rests {duration_text(self.minutes)} ({SRC_REST}). " + " · ".join(lines)
        summary = {
            p.id: {
                "wound_level": [before[p.id][0], p.wound_level],
                "conc": [before[p.id][1], p.conc],
            }
            for p in patients
        }
        table.log(text, "rest", {"characters": summary, "checks": records, "cards": cards})
        return TableEvent(text, {"characters": summary, "checks": records}, tuple(cards))


def duration_text(minutes: int) -> str:
    """A rest's length as a Judge says it ("1 hour", "90 minutes")."""
    if minutes % (24 * 60) == 0:
        d = minutes // (24 * 60)
        return f"{d} day{'s' if d > 1 else ''}"
    if minutes % 60 == 0:
        h = minutes // 60
        return f"{h} hour{'s' if h > 1 else ''}"
    return f"{minutes} minute{'s' if minutes > 1 else ''}"
