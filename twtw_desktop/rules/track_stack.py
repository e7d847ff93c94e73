"""The AP v2 action track's initiative stack (000 "Simultaneous Actions", "The
Initiative Stack", "Determine Bonus"): the Judge's stack modifiers, the Quick Draw
check, buying a stack bonus with AP, and resolving a segment's stack with one
resolution card per action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from ..errors import RulesError
from .actions import single_action_tie_key
from .base import Pool
from .card import Card
from .character import Character
from .gear import default_gear
from .track_base import TrackBase
from .track_models import (
    QUICK_DRAW_TN,
    SOURCE_STACK,
    QuickDrawRoll,
    StackEntry,
    StackPlace,
    TrackEvent,
    TrackRow,
    TrackStage,
    TrackState,
)


class TrackStack(TrackBase):
    """The initiative stack of the AP v2 action track (a mixin of
    :class:`~twtw_desktop.rules.action_track.ActionTrack`)."""

    # -- the initiative stack ------------------------------------------------------------

    def _open_entry(self, character_id: str) -> StackEntry:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        entry = self._entry(character_id)
        if entry.resolved:
            raise RulesError(
                f"The stack of segment {st.segment} has already been resolved; bonuses are set before."
            )
        return entry

    def _bonus_entry(self, character_id: str) -> StackEntry:
        """The entry whose place on the stack a bonus would improve: refused while it
        is the only action of its segment, since there is no order to win (000 The
        Initiative Stack: bonuses are set once several actions share a segment)."""
        entry = self._open_entry(character_id)
        st = self._state
        if not any(
            e.segment == st.segment and not e.resolved and e.seq != entry.seq for e in st.entries
        ):
            raise RulesError(
                f"{st.rows[character_id].name}'s action is alone on segment {st.segment}: "
                "there is no stack to climb."
            )
        return entry

    def set_stack_modifiers(
        self, character_id: str, gear: int = 0, environment: int = 0, note: str = ""
    ) -> TrackEvent:
        """Set the Judge's stack modifiers for a character's action on this segment:
        gear, and wounds or environment (000 Determine Bonus 1–2; the page gives no
        numbers)."""
        return self._run(lambda: self._modifiers(character_id, gear, environment, note))

    def _modifiers(
        self, character_id: str, gear: int, environment: int, note: str
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry = self._open_entry(character_id)
        entry = entry.model_copy(
            update={
                "gear_modifier": gear,
                "environment_modifier": environment,
                "modifier_note": note,
            }
        )
        event = self._event(
            "set_stack_modifiers",
            character_id=character_id,
            summary=f"{st.rows[character_id].name}: stack modifiers gear {gear:+d}, "
            f"wounds/environment {environment:+d}",
            details=(note,) if note else (),
            entry=entry,
        )
        return st.model_copy(update={"entries": self._replace_entry(entry)}), event, False

    def _quick_draw_pool(self, sheet: Character) -> Pool:
        if "quick_draw" in sheet.skills and sheet.skills["quick_draw"].level > 0:
            return sheet.skill_pool("quick_draw", "quickness")
        return Pool(count=sheet.quick_draw, die=sheet.trait_pool("quickness").die)

    def _quick_draw_entry(self, character_id: str) -> tuple[StackEntry, Character]:
        entry = self._bonus_entry(character_id)
        sheet = self._sheet(character_id)
        if sheet.quick_draw < 1:
            raise RulesError(f"{sheet.name} has no Quick Draw skill.")
        if entry.quick_draw is not None:
            raise RulesError(
                f"{sheet.name} has already tried Quick Draw for this action "
                f"({entry.quick_draw.bonus:+d})."
            )
        if entry.bonus_ap:
            raise RulesError("The Quick Draw check comes before spending AP for the bonus (000).")
        return entry, sheet

    def quick_draw_refusal(self, character_id: str) -> str:
        """Why :meth:`quick_draw_check` would be refused now ("" when it would go
        ahead); draws nothing and changes nothing."""
        try:
            self._quick_draw_entry(character_id)
        except RulesError as e:
            return str(e)
        return ""

    def quick_draw_check(self, character_id: str, card: Card | None = None) -> TrackEvent:
        """A TN 5 Quick Draw check for a better place on the stack: +1 for the success
        and +1 per bump; a calamity gives nothing and bars spending AP for the bonus
        (000 Determine Bonus)."""
        return self._run(lambda: self._quick_draw(character_id, card))

    def _quick_draw(
        self, character_id: str, card: Card | None
    ) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry, sheet = self._quick_draw_entry(character_id)
        drawn_card, check, nums = self._check(card, self._quick_draw_pool(sheet), QUICK_DRAW_TN)
        bonus = 1 + check.bumps if check.success else 0
        roll = QuickDrawRoll(
            card_number=drawn_card.number,
            result=check.result,
            success=check.success,
            bumps=check.bumps,
            calamity=check.calamity,
            bonus=bonus,
            reasons=check.reasons,
        )
        entry = entry.model_copy(update={"quick_draw": roll})
        outcome = (
            "calamity: no bonus, and no AP may be spent for one"
            if check.calamity
            else f"+{bonus} to the stack"
        )
        event = self._event(
            "quick_draw_check",
            character_id=character_id,
            summary=f"{sheet.name}'s Quick Draw check: {outcome}",
            details=check.reasons,
            cards=nums,
            entry=entry,
        )
        return st.model_copy(update={"entries": self._replace_entry(entry)}), event, True

    def buy_stack_bonus(self, character_id: str, ap: int) -> TrackEvent:
        """Spend AP from the pool for +1 each on the stack, at most the Quick Draw
        level in all; lost excess counters are not in the pool (000 Determine Bonus)."""
        return self._run(lambda: self._buy(character_id, ap))

    def _buy(self, character_id: str, ap: int) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        entry = self._bonus_entry(character_id)
        sheet = self._sheet(character_id)
        row = st.rows[character_id]
        if ap < 1:
            raise RulesError("Spend at least 1 AP for a better place on the stack.")
        if entry.quick_draw is not None and entry.quick_draw.calamity:
            raise RulesError(
                f"{sheet.name} rolled a calamity on Quick Draw: no AP may be spent for the bonus."
            )
        if entry.bonus_ap + ap > sheet.quick_draw:
            raise RulesError(
                f"{sheet.name} may spend at most {sheet.quick_draw} AP for the stack "
                f"(Quick Draw {sheet.quick_draw}); {entry.bonus_ap} already spent."
            )
        if ap > row.pool:
            raise RulesError(
                f"{sheet.name} has {row.pool} AP left in the pool (counters lost to overpaying "
                "are not in it)."
            )
        entry = entry.model_copy(update={"bonus_ap": entry.bonus_ap + ap})
        rows = dict(st.rows)
        rows[character_id] = row.model_copy(
            update={"pool_spent": row.pool_spent + ap, "spent": row.spent + ap}
        )
        event = self._event(
            "buy_stack_bonus",
            character_id=character_id,
            summary=f"{sheet.name} spends {ap} AP from the pool: +{ap} on the stack",
            entry=entry,
        )
        return (
            st.model_copy(update={"rows": rows, "entries": self._replace_entry(entry)}),
            event,
            False,
        )

    def bonus_bidders(self, offered: bool = False) -> list[tuple[str, int]]:
        """Who on this segment's unresolved stack may still spend AP from the pool for
        the stack and has not been offered it yet (``offered``: has been, and may
        still spend them until the cards flip), with the most each may add (000
        Determine Bonus: "Each AP spent from the pool grants the character +1 … No
        character may spend more AP for bonus than their level in Quick Draw"; "On a
        Calamity no AP may be spent"). Empty while an action is alone on its segment."""
        st = self._state
        waiting = [
            e for e in st.entries if e.segment == st.segment and not e.resolved and not e.performed
        ]
        if len(waiting) < 2:
            return []
        out: list[tuple[str, int]] = []
        for e in waiting:
            if e.bonus_offered != offered or (e.quick_draw is not None and e.quick_draw.calamity):
                continue
            if offered and e.character_id in st.bids:
                continue  # answered by their standing bid when offered
            room = min(
                self._sheet(e.character_id).quick_draw - e.bonus_ap, st.rows[e.character_id].pool
            )
            if room > 0:
                out.append((e.character_id, room))
        return out

    def set_standing_bid(self, character_id: str, ap: int | None) -> TrackEvent:
        """Give a character's standing bid for this round: the AP from the pool they
        offer whenever the stack offers them AP (000 Determine Bonus), 0 for none;
        None withdraws it (they are asked at the table again). At most their Quick
        Draw level ("No character may spend more AP for bonus than their level in
        Quick Draw") and what their pool holds now (it only shrinks)."""
        return self._run(lambda: self._set_bid(character_id, ap))

    def _set_bid(self, character_id: str, ap: int | None) -> tuple[TrackState, TrackEvent, bool]:
        def payable(row: TrackRow) -> str:
            assert ap is not None
            sheet = self._sheet(character_id)
            if ap > sheet.quick_draw:
                raise RulesError(
                    f"{row.name} may spend at most {sheet.quick_draw} AP for the stack "
                    f"(Quick Draw {sheet.quick_draw}, 000 Determine Bonus)."
                )
            if ap > row.pool:
                raise RulesError(
                    f"{row.name} has {row.pool} AP left in the pool: a bid of {ap} could "
                    "never be paid (000 Determine Bonus)."
                )
            what = f"offers {ap} AP from the pool" if ap else "offers no AP"
            return f"{row.name} {what} whenever the stack asks this round"

        return self._keep_answer(
            "bids", "standing_bid", "bid", character_id, ap, "asked at the stack", payable
        )

    def set_standing_bumps(self, character_id: str, on: Literal["damage"] | None) -> TrackEvent:
        """Give a character's standing bump choice for this round: where the bumps their
        declared attacks earn go when the run carries them out ("damage": every bump
        left to damage, 002 Spending Bumps); None withdraws it (the Judge chooses at the table)."""
        return self._run(
            lambda: self._keep_answer(
                "bumps",
                "standing_bumps",
                "bump choice",
                character_id,
                on,
                "bumps chosen at the table",
                lambda row: f"{row.name} spends every bump an attack earns on {on} this round",
            )
        )

    def _keep_answer(
        self,
        field: Literal["bids", "bumps"],
        step: str,
        what: str,
        character_id: str,
        value: Any,
        asked: str,
        given: Callable[[TrackRow], str],
    ) -> tuple[TrackState, TrackEvent, bool]:
        """Keep (or, ``value`` None, withdraw) a character's standing answer in the
        state's ``field`` for this round: ``given`` checks the value and says it."""
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError(f"Standing {what}s are kept only while a round is running.")
        row = self.row(character_id)
        answers = dict(getattr(st, field))
        if value is None:
            if character_id not in answers:
                raise RulesError(f"{row.name} has no standing {what} to withdraw.")
            answers.pop(character_id)
            summary = f"{row.name}: no standing {what} ({asked})"
        else:
            summary = given(row)
            answers[character_id] = value
        event = self._event(step, character_id=character_id, summary=summary)
        return st.model_copy(update={field: answers}), event, False

    def offer_bonus(self, character_ids: Sequence[str]) -> TrackEvent:
        """Mark that ``character_ids`` were offered AP from the pool for the stack (000
        Determine Bonus); the next automatic run flips the cards with what they bought."""
        return self._run(lambda: self._offer_bonus(list(character_ids)))

    def _offer_bonus(self, ids: list[str]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        offered = {cid: room for cid, room in self.bonus_bidders() if cid in ids}
        if not offered:
            raise RulesError("Nobody on this segment's stack may spend AP for a bonus.")
        entries = tuple(
            e.model_copy(update={"bonus_offered": True})
            if e.segment == st.segment and not e.resolved and e.character_id in offered
            else e
            for e in st.entries
        )
        names = ", ".join(f"{st.rows[c].name} up to {n}" for c, n in offered.items())
        event = self._event(
            "offer_stack_bonus",
            summary=f"AP from the pool for the stack of segment {st.segment}: {names}",
        )
        return st.model_copy(update={"entries": entries}), event, False

    def resolve_stack(
        self, segment: int | None = None, cards: Mapping[str, Card] | None = None
    ) -> TrackEvent:
        """Flip a resolution card for every action on this segment's stack and order
        them by fragment + bonus, highest first; ties go to the higher card number
        (000 "The Initiative Stack"). ``cards`` maps character ids to typed-in or
        scripted cards. The event's ``stack`` is the order with itemised bonuses."""
        if segment is not None and segment != self._state.segment:
            raise RulesError(
                f"Only the stack of the current segment ({self._state.segment}) can be resolved."
            )
        return self._run(lambda: self._resolve(dict(cards or {})))

    def _resolve(self, cards: dict[str, Card]) -> tuple[TrackState, TrackEvent, bool]:
        st = self._state
        if st.stage not in (TrackStage.RUNNING, TrackStage.OVERTIME):
            raise RulesError("No round is running; start a round first.")
        waiting = [
            e for e in st.entries if e.segment == st.segment and not e.resolved and not e.performed
        ]
        if not waiting:
            raise RulesError(f"No action waits on the stack of segment {st.segment}.")
        rows = dict(st.rows)
        flipped: list[StackEntry] = []
        drawn: list[int] = []
        details: list[str] = []
        for e in waiting:
            card, from_deck = self._take(cards.pop(e.character_id, None))
            if from_deck:
                drawn.append(card.number)
            update: dict[str, object] = {
                "card": card,
                "card_from_deck": from_deck,
                "resolved": True,
            }
            if e.rushed:
                tax = card.step
                row = rows[e.character_id]
                from_pool = min(tax, row.pool)
                borrowed = tax - from_pool
                rows[e.character_id] = row.model_copy(
                    update={
                        "pool_spent": row.pool_spent + from_pool,
                        "spent": row.spent + from_pool,
                        "borrowed": row.borrowed + borrowed,
                    }
                )
                update.update({"rush_tax": tax, "rush_tax_borrowed": borrowed})
                details.append(
                    f"{row.name} pays rush tax {tax} (card {card.number}'s step): {from_pool} from "
                    f"the pool" + (f", {borrowed} from next round" if borrowed else "")
                )
            flipped.append(e.model_copy(update=update))
        ordered = sorted(
            flipped,
            key=lambda e: (
                -((e.card.fragment if e.card else 0) + e.bonus),
                self._single_action_tie(e),
                -(e.card.number if e.card else 0),
                e.seq,
            ),
        )
        places = []
        final = {}
        for pos, e in enumerate(ordered, 1):
            e = e.model_copy(update={"position": pos})
            final[e.seq] = e
            assert e.card is not None
            places.append(
                StackPlace(
                    position=pos,
                    character_id=e.character_id,
                    seq=e.seq,
                    action=e.action.describe(),
                    card_number=e.card.number,
                    fragment=e.card.fragment,
                    bonus=e.bonus_items(),
                    total=e.card.fragment + e.bonus,
                    rush_tax=e.rush_tax,
                )
            )
            items = "".join(f" {b.value:+d} {b.label}" for b in e.bonus_items())
            details.insert(
                pos - 1,
                f"{pos}. {rows[e.character_id].name}: card {e.card.number} fragment "
                f"{e.card.fragment}{items} = {e.card.fragment + e.bonus}",
            )
        if len(places) > 1:
            details.append(
                "ties go to a single-action gun's shot (000 Cocking and Readying), then to "
                f"the higher card number ({SOURCE_STACK})"
            )
        entries = tuple(final.get(e.seq, e) for e in st.entries)
        details.append(f"declarations for segment {st.segment} are closed ({SOURCE_STACK})")
        event = self._event(
            "resolve_stack",
            summary=f"Segment {st.segment}: the stack resolves in this order",
            details=tuple(details),
            cards=tuple(drawn),
            stack=tuple(places),
        )
        return (
            st.model_copy(update={"rows": rows, "entries": entries, "closed": True}),
            event,
            bool(drawn),
        )

    def _single_action_tie(self, entry: StackEntry) -> int:
        """0 for a shot with a single-action gun (a double-action one cocked for it),
        which "wins initiative-based ties" (000 Cocking and Readying), else 1."""
        weapon_id = entry.action.weapon_id
        weapon = default_gear().weapons.get(weapon_id) if weapon_id else None
        c = self._chars.get(entry.character_id)
        cocked = c is not None and any(cw.weapon_id == weapon_id and cw.cocked for cw in c.weapons)
        return single_action_tie_key(entry.action, weapon, cocked=cocked)
