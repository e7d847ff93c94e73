"""The Phases edition's round: speed declarations, the card's initiative bar, four
phases, delaying and continuous actions (004 "Initiative And Action Speeds"; 001/003
"Surprise"; 002 "Continuous Actions").

How a round runs here:

1. :meth:`PhaseRound.start_round` — a new round; surprised characters check Bravery.
2. Declaration (004 "Declaration"): :meth:`declare_speed` or :meth:`declare_actions`
   (004's combination rules, :func:`~twtw_desktop.rules.actions.combine_speeds`). A
   character who hesitated last round reads the bar one speed faster (Fast at most).
3. Resolution (004 "Resolution"): :meth:`resolve` flips one card for everyone (or per
   side, or per character: ``OptionalRules.phases_card_per``); each character's Reflex
   pool read on it must meet the bar's TN for their speed in a phase; they may act in
   any phase whose TN they meet (:meth:`qualifying_phases`) and pick one now
   (:meth:`choose_phase`; the earliest by default). Below phase IV's TN they hesitate
   and next round's action counts one speed faster; on a CF they hesitate with no
   such bonus.
4. Acting (004 "Taking Actions"): :meth:`advance_phase` opens phase I, II…; within a
   phase characters act in :meth:`acting_order` with an action of the declared speed
   or faster (:meth:`act`), or delay (:meth:`delay`) and act later, interrupting with
   a Reflex contest at −2 (:meth:`preempt`). After each phase comes a continuous
   action step (002): automated movement first, then controlled movers in Reflex
   order, each moving a quarter of the round's movement.

Decisions where the pages are vague (resources/manual/rules-decisions.md lists these):

* Ties in a phase: larger Reflex die, then more dice, then the posse (side "posse")
  before the Judge's characters, then by name (004 leaves Judge-vs-Judge ties to the
  Judge; alphabetical keeps it repeatable).
* The hesitation bonus and "continuing to wait" only change which bar row is read;
  the character may still take actions as slow as the speed they declared.
* A character who neither acts nor delays in their phase is marked as having passed
  when the Judge moves on; the action is lost.
* A delayed character may act at any later moment of the round; their action comes
  after the one in progress unless they win a :meth:`preempt` contest (ties and a CF
  of the interrupter lose; the acting character's CF alone loses for them).
* A delay with a circumstance still unmet at the round's end may be kept
  (:meth:`keep_waiting`): the next round reads the Fast bar for that character while
  the waiting action keeps its own speed (004 "Delaying an Action").
* Continuous movement splits the round's paces into four shares that differ by at
  most one, the larger ones spread out from the first (002's train: 27 → 7, 7, 7, 6;
  Hank swimming Swim 6 over a round: 12 → 3 each; a Swim 5 swimmer's 10 → 3, 2, 3, 2,
  002's "round up on the odd actions, down on the even").
* Surprise follows 003, the phase edition's own page: TN 5 when expecting danger,
  9 otherwise, even once action time is under way (001's "during action time" clause
  is kept for AP v2).
* Maneuvers during continuous phases (002's chart image is missing): the lower of
  skill and handling, at most 4, is how many of the four continuous steps allow a
  maneuver, spread from the first: 1 → I; 2 → I, III; 3 → I, II, III; 4 → all.
* Surprise and stun work as on the action track: surprised characters sit the round
  out and check Bravery (Easy 3) at the next round's start; stunned characters spend
  the round recovering and declare nothing.

Surprise, continuous movers, bleeding and the undo plumbing are the steps shared with
the action track (:mod:`twtw_desktop.rules.timecommon`). The edition's values and pure
helpers are in :mod:`.phase_models` (re-exported here); the engine's reading side in
:mod:`.phase_base`; acting, delaying and preempting in :mod:`.phase_acting`. This module
holds the round's start, declarations, resolution, phases and continuous actions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import RulesError
from .actions import (
    ActionSpec,
    combine_speeds,
    faster,
    speed_name,
)
from .base import Speed
from .card import Card
from .checks import check_pool
from .phase_acting import PhaseActing
from .phase_models import (
    CONTINUOUS_STEPS,
    PHASES,
    PREEMPT_PENALTY,
    SOURCE_CONTINUOUS,
    SOURCE_DELAY,
    SOURCE_HANDLING,
    SOURCE_RESOLUTION,
    SOURCE_TAKING,
    SPEED_CHANGE_EARLY,
    SPEED_CHANGE_TN,
    ContinuousMover,
    PhaseEvent,
    PhaseMove,
    PhaseRow,
    PhaseStage,
    PhaseState,
    ReflexContest,
    maneuver_phases,
    qualifying,
    reflex_key,
    roman,
)
from .timecommon import (
    BleedRecord,
    RowStatus,
)

# =============================================================================
# The round
# =============================================================================


SpeedOrAction = Speed | ActionSpec


class PhaseRound(PhaseActing):
    """Phases-edition initiative for one encounter (see the module docstring).

    ``characters`` are read, never changed. Pass ``state`` to reopen a saved
    encounter where it was.

    The reading side is :class:`~.phase_base.PhaseBase`, acting
    :class:`~.phase_acting.PhaseActing`; the round's start, declarations,
    resolution, phases and continuous actions live here.
    """

    # -- round start and declarations ------------------------------------------------------

    def start_round(self, cards: Mapping[str, Card] | None = None) -> PhaseEvent:
        """Begin the next round's declarations. A character surprised last round
        checks Bravery (Easy 3) now; ``cards`` may give their cards by id."""
        return self._run(lambda: self._start_round(dict(cards or {})))

    def _start_round(self, cards: dict[str, Card]) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if st.stage in (PhaseStage.DECLARE, PhaseStage.RESOLVED, PhaseStage.ACTING):
            raise RulesError(f"Round {st.round} is still under way.")
        round_no = st.round + 1
        rows: dict[str, PhaseRow] = {}
        details: list[str] = []
        drawn: list[int] = []
        touched = False
        for c in self._chars.values():
            old = st.rows.get(c.id)
            row = self._fresh_row(c).model_copy(
                update={
                    "surprise": old.surprise if old else "none",
                    "bonus_this_round": bool(old and old.bonus_next_round),
                    "waiting_for": old.waiting_for
                    if old and old.delayed and not old.acted
                    else None,
                    "waiting_speed": old.declared
                    if old and old.delayed and not old.acted
                    else None,
                }
            )
            if row.waiting_for is None:
                row = row.model_copy(update={"waiting_speed": None})
            row, line, nums = self._round_status(row, c, cards.get(c.id))
            drawn += nums
            touched = touched or bool(nums)
            if line:
                details.append(line)
            if row.status == RowStatus.WAITING:
                note = (
                    " (hesitated last round: reads the bar one speed faster)"
                    if row.bonus_this_round
                    else ""
                )
                if row.waiting_for:
                    note += f" (still waiting for: {row.waiting_for})"
                details.append(f"{c.name} declares{note}")
            rows[c.id] = row
        new = PhaseState(
            round=round_no,
            stage=PhaseStage.DECLARE,
            phase=0,
            rows=rows,
            movers=st.movers,
            deck=st.deck,
        )
        event = self._start_event(round_no, f"Round {round_no}: declare speeds", details, drawn)
        return new, event, touched

    def _declaring_row(self, character_id: str) -> PhaseRow:
        st = self._state
        if st.stage != PhaseStage.DECLARE:
            raise RulesError(
                "Speeds are declared at the start of a round, before the card is flipped."
            )
        row = self.row(character_id)
        if row.status in (RowStatus.OUT, RowStatus.STUNNED, RowStatus.SURPRISED):
            raise RulesError(f"{row.name} cannot act this round ({row.status_reason}).")
        return row

    def _bar_speed(self, row: PhaseRow, declared: Speed) -> tuple[Speed, tuple[str, ...]]:
        if row.waiting_speed is not None:
            return Speed.FAST, (
                f"still waiting for {row.waiting_for!r}: reads the Fast bar ({SOURCE_DELAY})",
            )
        if row.bonus_this_round:
            sp = faster(declared)
            return sp, (
                f"hesitated last round: the {speed_name(declared)} action counts as "
                f"{speed_name(sp)} ({SOURCE_RESOLUTION})",
            )
        return declared, ()

    def declare_speed(self, character_id: str, speed: Speed) -> PhaseEvent:
        """Declare the speed of the round's action (004 Declaration)."""
        return self._run(
            lambda: self._declare(character_id, speed, (f"declares {speed_name(speed)}",), False)
        )

    def declare_actions(
        self, character_id: str, actions: Sequence[SpeedOrAction], free: int = 0
    ) -> PhaseEvent:
        """Declare by the intended actions (speeds or :class:`ActionSpec`), combined
        under 004's rules; ``free`` free actions ride along (one is allowed on top).
        A non-combat skill with combat actions is flagged for the Judge."""
        return self._run(lambda: self._declare_actions(character_id, list(actions), free))

    def _declare_actions(
        self, character_id: str, actions: list[SpeedOrAction], free: int
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        speeds = [a.speed if isinstance(a, ActionSpec) else Speed(a) for a in actions]
        combo = combine_speeds(speeds, free)
        specs = [a for a in actions if isinstance(a, ActionSpec)]
        mixed = any(a.noncombat for a in specs) and any(a.is_combat for a in specs)
        reasons = combo.reasons
        if mixed:
            reasons = (*reasons, "non-combat skill use is not usually combined with combat (004)")
        return self._declare(character_id, combo.speed, reasons, mixed)

    def _declare(
        self, character_id: str, speed: Speed, reasons: tuple[str, ...], mixed: bool
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        row = self._declaring_row(character_id)
        if row.waiting_speed is not None:
            raise RulesError(
                f"{row.name} is still waiting for {row.waiting_for!r}; keep waiting or stop "
                "waiting before declaring anew."
            )
        bar_speed, bar_reasons = self._bar_speed(row, speed)
        return self._row_step(
            character_id,
            {
                "status": RowStatus.ACTIVE,
                "declared": speed,
                "declared_reasons": reasons,
                "mixed_noncombat": mixed,
                "bar_speed": bar_speed,
                "bar_reasons": bar_reasons,
            },
            "declare",
            summary=f"{row.name} declares a {speed_name(speed)} ({speed.value}) action",
            details=(*reasons, *bar_reasons),
        )

    def arrive(self, character_id: str) -> PhaseEvent:
        """A character who joins the fight during a round (an NPC the Judge adds) gets
        a row. House reading (004 says nothing of late arrivals): during declarations
        they declare like everyone; once the card is flipped they wait for the next
        round."""
        return self._run(lambda: self._arrive(character_id))

    def _arrive(self, character_id: str) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        c = self._sheet(character_id)
        if character_id in st.rows:
            raise RulesError(f"{c.name} already has a row in the round.")
        row = self._fresh_row(c)
        if st.stage not in (PhaseStage.IDLE, PhaseStage.DECLARE, PhaseStage.ENDED):
            row = row.model_copy(
                update={"status_reason": "joined after the flip: acts from the next round"}
            )
        event = self._event(
            "arrive", character_id=character_id, summary=f"{c.name} joins the fight"
        )
        return st.model_copy(update={"rows": {**st.rows, c.id: row}}), event, False

    def keep_waiting(self, character_id: str) -> PhaseEvent:
        """Go on waiting for last round's circumstance: Fast for readiness, the
        waiting action's own speed otherwise (004 Delaying an Action)."""
        return self._run(lambda: self._keep_waiting(character_id))

    def _keep_waiting(self, character_id: str) -> tuple[PhaseState, PhaseEvent, bool]:
        row = self._declaring_row(character_id)
        if row.waiting_for is None or row.waiting_speed is None:
            raise RulesError(f"{row.name} is not waiting for anything from last round.")
        return self._row_step(
            character_id,
            {
                "status": RowStatus.ACTIVE,
                "declared": row.waiting_speed,
                "declared_reasons": (f"keeps waiting for {row.waiting_for!r}",),
                "bar_speed": Speed.FAST,
                "bar_reasons": (
                    f"continuing to wait counts as Fast for readiness ({SOURCE_DELAY})",
                ),
                "delayed": True,
            },
            "keep_waiting",
            summary=f"{row.name} keeps waiting for {row.waiting_for!r}",
        )

    def stop_waiting(self, character_id: str) -> PhaseEvent:
        """Drop last round's unmet circumstance and declare afresh."""
        return self._run(lambda: self._stop_waiting(character_id))

    def _stop_waiting(self, character_id: str) -> tuple[PhaseState, PhaseEvent, bool]:
        row = self._declaring_row(character_id)
        if row.waiting_for is None:
            raise RulesError(f"{row.name} is not waiting for anything.")
        return self._row_step(
            character_id,
            {
                "waiting_for": None,
                "waiting_speed": None,
                "delayed": False,
                "status": RowStatus.WAITING,
                "declared": None,
            },
            "stop_waiting",
            summary=f"{row.name} stops waiting",
        )

    # -- resolution ------------------------------------------------------------------------

    def resolve(self, cards: Mapping[str, Card] | None = None) -> PhaseEvent:
        """Flip the initiative card(s) and read everyone's Reflex against their bar
        (004 Resolution). ``cards`` gives typed-in or scripted cards keyed "all", by
        side, or by character id, as ``OptionalRules.phases_card_per`` says."""
        return self._run(lambda: self._resolve(dict(cards or {})))

    def _card_key(self, row: PhaseRow) -> str:
        mode = self.options.phases_card_per
        if mode == "all":
            return "all"
        if mode == "side":
            return row.side
        return row.character_id

    def _resolve(self, cards: dict[str, Card]) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if st.stage != PhaseStage.DECLARE:
            raise RulesError("The initiative card is flipped once everyone has declared.")
        undeclared = [
            r.name
            for r in st.rows.values()
            if r.status == RowStatus.WAITING and r.character_id in self._chars
        ]
        if undeclared:
            raise RulesError(f"{', '.join(undeclared)} must declare a speed first.")
        rows = dict(st.rows)
        flipped: dict[str, tuple[Card, bool]] = {}
        drawn: list[int] = []
        details: list[str] = []
        extra_cards: list[int] = []
        touched = False
        for cid, row in st.rows.items():
            if row.status != RowStatus.ACTIVE:
                continue
            key = self._card_key(row)
            if key not in flipped:
                card, from_deck = self._take(cards.get(key))
                flipped[key] = (card, from_deck)
                touched = touched or from_deck
                if from_deck:
                    drawn.append(card.number)
                details.append(f"card {card.number} for {'everyone' if key == 'all' else key}")
            card = flipped[key][0]
            sheet = self._sheet(cid)
            speed = row.bar_speed or row.declared or Speed.NORMAL
            bar = card.initiative.tns(speed)
            check = check_pool(card, sheet.trait_pool("reflex"), bar[-1], self._more())
            if check.read is not None and check.read.cards_drawn:
                extra_cards += check.read.cards_drawn
                touched = True
            q = qualifying(check.result, bar) if not check.calamity else ()
            bar_text = "/".join(map(str, bar))
            read_reasons = check.read.reasons if check.read is not None else ()
            reasons = [
                *read_reasons,
                f"{speed_name(speed)} ({speed.value}) bar {bar_text} for phases I–IV",
                *row.bar_reasons,
            ]
            update: dict[str, object] = {
                "card_number": card.number,
                "reflex_result": check.result,
                "reflex_cf": check.calamity,
                "bar": tuple(bar),
                "qualifying": q,
            }
            if check.calamity:
                reasons.append(
                    f"CF: {row.name} hesitates, with no speed bonus next round ({SOURCE_RESOLUTION})"
                )
                update.update({"hesitated": True, "bonus_next_round": False, "phase": None})
                details.append(f"{row.name}: CF, hesitates (no bonus next round)")
            elif not q:
                reasons.append(
                    f"{check.result} is below phase IV's {bar[-1]}: {row.name} hesitates; next "
                    f"round's action counts one speed faster ({SOURCE_RESOLUTION})"
                )
                update.update({"hesitated": True, "bonus_next_round": True, "phase": None})
                details.append(
                    f"{row.name}: {check.result}, hesitates (one speed faster next round)"
                )
            else:
                reasons.append(
                    f"{check.result} meets phase {', '.join(roman(p) for p in q)}: "
                    f"acts in phase {roman(q[0])} unless another is chosen"
                )
                update.update({"phase": q[0]})
                details.append(
                    f"{row.name}: {check.result} on the {speed.value} bar {bar_text} → "
                    f"phase {roman(q[0])} (may choose {', '.join(roman(p) for p in q)})"
                )
            update["reflex_reasons"] = tuple(reasons)
            rows[cid] = row.model_copy(update=update)
        for card, from_deck in flipped.values():
            self._discard(card, from_deck)
        for n in extra_cards:
            self._deck.discard(n)
        new = st.model_copy(
            update={
                "rows": rows,
                "stage": PhaseStage.RESOLVED,
                "initiative_cards": {k: c.number for k, (c, _) in flipped.items()},
            }
        )
        event = self._event(
            "resolve",
            summary=f"Round {st.round}: initiative resolved",
            details=tuple(details),
            cards=tuple(drawn + extra_cards),
        )
        return new, event, touched

    def choose_phase(self, character_id: str, phase: int) -> PhaseEvent:
        """Pick one of the qualifying phases; the choice is made before phase I
        (004 Resolution)."""
        return self._run(lambda: self._choose(character_id, phase))

    def _choose(self, character_id: str, phase: int) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if st.stage != PhaseStage.RESOLVED:
            raise RulesError("Phases are chosen after the card is flipped and before phase I.")
        row = self.row(character_id)
        if row.hesitated:
            raise RulesError(f"{row.name} hesitates this round and has no phase to choose.")
        if phase not in row.qualifying:
            allowed = ", ".join(roman(p) for p in row.qualifying) or "none"
            where = roman(phase) if 1 <= phase <= PHASES else str(phase)
            raise RulesError(
                f"{row.name}'s {row.reflex_result} does not reach phase {where} "
                f"(qualifying: {allowed})."
            )
        return self._row_step(
            character_id,
            {"phase": phase},
            "choose_phase",
            summary=f"{row.name} will act in phase {roman(phase)}",
        )

    # -- acting -------------------------------------------------------------------------------

    def advance_phase(self) -> PhaseEvent:
        """Open phase I, or close the current phase (anyone who neither acted nor
        delayed has passed), run its continuous step (002) and open the next; after
        phase IV's continuous step the round ends."""
        return self._run(self._advance)

    def skippable(self) -> bool:
        """Whether the current phase may be skipped (004 Taking Actions: "If no
        characters act in a phase it can be skipped"): nobody acts in it, nobody holds
        a delayed action they could take in it (004 Delaying an Action), and no
        controlled continuous mover could maneuver in its continuous step (002)."""
        st = self._state
        if st.stage != PhaseStage.ACTING or self._order_for(st, st.phase):
            return False
        if any(r.delayed and r.status == RowStatus.ACTIVE for r in st.rows.values()):
            return False
        return all(m.automated for m in st.movers)

    def skip_phase(self) -> PhaseEvent:
        """Close a phase nobody acts in (:meth:`skippable`) as :meth:`advance_phase`
        does — its continuous step still runs (002) — saying it was skipped."""
        return self._run(self._skip)

    def _skip(self) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if not self.skippable():
            raise RulesError(
                f"Phase {roman(st.phase)} cannot be skipped: someone may act in it "
                f"({SOURCE_TAKING})."
            )
        new, event, touched = self._advance()
        line = (
            f"Phase {roman(st.phase)}: nobody acts — skipped ({SOURCE_TAKING}: "
            '"If no characters act in a phase it can be skipped")'
        )
        return new, event.model_copy(update={"details": (line, *event.details)}), touched

    def _advance(self) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if st.stage == PhaseStage.RESOLVED:
            new = st.model_copy(
                update={"stage": PhaseStage.ACTING, "phase": 1, "actions_begun": False}
            )
            order = tuple(self._order_for(new, 1))
            return (
                new,
                PhaseEvent(
                    step="advance_phase",
                    round=st.round,
                    phase=1,
                    summary=f"Round {st.round}, phase I",
                    order=order,
                    details=tuple(f"{st.rows[c].name}" for c in order),
                ),
                False,
            )
        if st.stage != PhaseStage.ACTING:
            raise RulesError("Flip the initiative card before the phases begin.")
        rows = dict(st.rows)
        details: list[str] = []
        for cid in self._order_for(st, st.phase):
            r = rows[cid]
            if not (r.acted or r.delayed or r.passed):
                rows[cid] = r.model_copy(update={"passed": True, "preempting": False})
                details.append(
                    f"{r.name} did not act in phase {roman(st.phase)} and has passed ({SOURCE_TAKING})"
                )
        moves = tuple(self.continuous_step(st.phase))
        by_id = {m.mover_id: m for m in st.movers}
        movers = []
        for m in st.movers:
            if m.pending_paces is not None:
                details.append(
                    f"{m.name}'s new speed, {m.pending_paces} paces a round, is in force "
                    f"({SOURCE_HANDLING})"
                )
                m = m.model_copy(update={"paces": m.pending_paces, "pending_paces": None})
            movers.append(m.model_copy(update={"still_phase": None}))
        for mv in moves:
            m = by_id[mv.mover_id]
            what = f"{m.name} moves {mv.paces} pace(s)"
            if m.automated:
                what += " (automated)"
            elif mv.maneuver:
                what += ", may maneuver"
            details.append(f"{what} ({SOURCE_CONTINUOUS})")
        bleeding: tuple[BleedRecord, ...] = ()
        if st.phase >= PHASES:
            for cid, r in rows.items():
                if r.preempting:
                    rows[cid] = r.model_copy(update={"preempting": False})
            bleeding, bleed_lines = self._bleed_all()
            details += bleed_lines
            new = st.model_copy(
                update={"rows": rows, "stage": PhaseStage.ENDED, "movers": tuple(movers)}
            )
            summary = f"Round {st.round} ends after phase IV's continuous step"
            order = ()
            phase = st.phase
        else:
            phase = st.phase + 1
            new = st.model_copy(
                update={
                    "rows": rows,
                    "phase": phase,
                    "actions_begun": False,
                    "movers": tuple(movers),
                }
            )
            order = tuple(self._order_for(new, phase))
            summary = f"Round {st.round}, phase {roman(phase)}"
        event = PhaseEvent(
            step="advance_phase",
            round=st.round,
            phase=phase,
            summary=summary,
            details=tuple(details),
            order=order,
            moves=moves,
            bleeding=bleeding,
        )
        return new, event, False

    # -- continuous actions ---------------------------------------------------------------------

    def maneuver(
        self,
        mover_id: str,
        rider_id: str,
        *,
        paces: int | None = None,
        early: bool = False,
        skill: str = "riding",
        card: Card | None = None,
    ) -> PhaseEvent:
        """A maneuver of a controlled continuous mover by its rider or driver (002
        Mounted and Vehicular Movement). In a phase whose continuous step allows one
        (:func:`maneuver_phases`) it is part of the continuous action and costs no
        speed, one a step; otherwise it is a Quick action of the rider's, counted
        against their declaration, and the mover does not move in this phase's step
        ("The mount or vehicle does not move during this phase in any circumstance").
        ``paces``: a new speed, an Easy (3) check of the rider's ``skill`` ("Changing
        speeds is Easy (3)"), in force after this phase's step, or before it with
        ``early`` at +2 TN. Steering (the heading) is the table's; a maneuver with no
        speed change draws nothing (house: 002's chart of the other maneuvers' TNs is
        missing)."""
        return self._run(lambda: self._maneuver(mover_id, rider_id, paces, early, skill, card))

    def _maneuver(
        self,
        mover_id: str,
        rider_id: str,
        paces: int | None,
        early: bool,
        skill: str,
        card: Card | None,
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        if st.stage != PhaseStage.ACTING:
            raise RulesError("Maneuvers are made during the phases (002).")
        mover = next((m for m in st.movers if m.mover_id == mover_id), None)
        if mover is None:
            raise RulesError(f"{mover_id!r} is not moving continuously.")
        if mover.automated:
            raise RulesError(f"{mover.name} moves automatically: the Judge moves it (002).")
        rider = self._sheet(rider_id)
        if paces is not None and paces < 0:
            raise RulesError("A speed cannot be negative.")
        if early and paces is None:
            raise RulesError("Only a speed change can take effect before this phase's step.")
        phase = st.phase
        in_step = maneuver_phases(mover.skill, mover.handling)[phase - 1]
        details: list[str] = []
        new_state = st
        touched = False
        cards: tuple[int, ...] = ()
        update: dict[str, object] = {}
        row = st.rows.get(rider_id)
        # 002: the continuous action counts as the rider's Free action when it only
        # maneuvers in its steps; "characters are limited to a single Free action during
        # a turn, so that a character cannot attempt a fast draw while also performing
        # riding maneuvers"
        free_taken = row is not None and row.free_used and not row.free_by_riding
        if in_step and mover.maneuvered_phase != phase and not free_taken:
            update["maneuvered_phase"] = phase
            details.append(
                f"in the continuous step after phase {roman(phase)}: part of the continuous "
                f"action, no speed spent; the riding is {rider.name}'s Free action this round "
                f"({SOURCE_HANDLING})"
            )
            if row is not None:
                rows = dict(st.rows)
                rows[rider_id] = row.model_copy(update={"free_used": True, "free_by_riding": True})
                new_state = st.model_copy(update={"rows": rows})
        else:
            why = (
                f"{rider.name}'s one Free action this round is taken ('characters are limited "
                "to a single Free action during a turn'), so the maneuver is declared as an "
                "action"
                if in_step and free_taken
                else "its continuous steps allow no more maneuvers"
                if in_step
                else f"skill {mover.skill} / handling {mover.handling} allow none after phase "
                f"{roman(phase)}"
            )
            try:
                new_state, ev, _t = self._act(rider_id, Speed.FAST)
            except RulesError as e:
                if not (in_step and free_taken):
                    raise
                raise RulesError(
                    f"{rider.name}'s one Free action this round is taken, so a maneuver is an "
                    "action of theirs (002: 'a character cannot attempt a fast draw while also "
                    f"performing riding maneuvers'): {e}"
                ) from None
            update["still_phase"] = phase
            details += [
                *ev.details,
                f"{why}: a Quick action of {rider.name}'s, and {mover.name} does not move in "
                f"this phase's continuous step ({SOURCE_HANDLING})",
            ]
        if paces is not None and paces != mover.paces:
            tn = SPEED_CHANGE_TN + (SPEED_CHANGE_EARLY if early else 0)
            drawn, from_deck = self._take(card)
            more = self._more()
            check = check_pool(drawn, rider.skill_pool(skill), tn, more)
            extra = list(check.read.cards_drawn) if check.read is not None else []
            self._discard(drawn, from_deck, extra)
            touched = True
            cards = ((drawn.number,) if from_deck else ()) + tuple(extra)
            details += list(check.reasons)
            if check.success:
                if early:
                    update["paces"] = paces
                    details.append(
                        f"speed {mover.paces} → {paces} paces a round before this phase's step "
                        f"(TN {SPEED_CHANGE_TN} + {SPEED_CHANGE_EARLY}, {SOURCE_HANDLING})"
                    )
                else:
                    update["pending_paces"] = paces
                    details.append(
                        f"speed {mover.paces} → {paces} paces a round after this phase's step "
                        f"(Easy ({SPEED_CHANGE_TN}), {SOURCE_HANDLING})"
                    )
            else:
                details.append(f"the speed change fails: {mover.name} keeps {mover.paces} paces")
        movers = tuple(
            m.model_copy(update=update) if m.mover_id == mover_id else m for m in new_state.movers
        )
        event = self._event(
            "maneuver",
            character_id=rider_id,
            summary=f"{rider.name} maneuvers {mover.name} in phase {roman(phase)}",
            details=tuple(details),
            cards=cards,
        )
        return new_state.model_copy(update={"movers": movers}), event, touched

    def set_continuous(
        self,
        mover_id: str,
        paces: int | None,
        *,
        name: str | None = None,
        automated: bool = False,
        skill: int = 0,
        handling: int = 0,
    ) -> PhaseEvent:
        """Start, change or (``paces`` None or 0) stop a continuous movement (002): the
        round's ``paces`` split over the four continuous steps. Controlled movers give
        the rider's skill level and the mount's handling (:func:`maneuver_phases`)."""
        return self._set_continuous(
            mover_id, paces, name, automated, {"skill": skill, "handling": handling}
        )


__all__ = [
    "CONTINUOUS_STEPS",
    "PHASES",
    "PREEMPT_PENALTY",
    "ContinuousMover",
    "PhaseEvent",
    "PhaseMove",
    "PhaseRound",
    "PhaseRow",
    "PhaseStage",
    "PhaseState",
    "ReflexContest",
    "maneuver_phases",
    "qualifying",
    "reflex_key",
    "roman",
]
