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

Decisions where the pages are vague (the lead lists these in the README):

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
the action track (:mod:`twtw_desktop.rules.timecommon`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from ..errors import RulesError
from .actions import (
    ActionSpec,
    SpeedCombination,
    combine_speeds,
    faster,
    speed_name,
    speed_rank,
)
from .base import CardNo, Count, Id, Name, Pool, SmallInt, Speed, Strict, Text
from .card import Card
from .character import Character
from .checks import check_pool, wins_outright
from .deck import DeckState
from .timecommon import (
    BleedRecord,
    RowStatus,
    SurpriseResult,
    TimeEngine,
    split_evenly,
)

#: 004: a round has four phases.
PHASES = 4
#: 004 Delaying an Action: the interrupting character's Reflex is at −2.
PREEMPT_PENALTY = -2
#: 002 Continuous Action Phases: one continuous step after each phase.
CONTINUOUS_STEPS = PHASES

SOURCE_DECLARE = "004 Declaration"
SOURCE_RESOLUTION = "004 Resolution"
SOURCE_TAKING = "004 Taking Actions"
SOURCE_DELAY = "004 Delaying an Action"
SOURCE_CONTINUOUS = "002 Continuous Actions"
SOURCE_HANDLING = "002 Continuous Action Example: Mounted and Vehicular Movement"
#: 002: "Changing speeds is Easy (3)"; "To change speeds before this phase, increase the
#: TN by +2"
SPEED_CHANGE_TN = 3
SPEED_CHANGE_EARLY = 2
SOURCE_MOVE_ORDER = "001 Movement Actions / Order of Actions"
SOURCE_MOVE_FIRE = "003 Move and Fire"
SOURCE_TACTICAL = "004 Tactical Move"
SOURCE_FREE = "004 Free Actions"
SOURCE_SIMULTANEOUS = "004 Simultaneous Actions"
#: the action kinds that are moves (ActionKind values)
MOVE_KINDS = frozenset({"move", "run"})

ROMAN = ("I", "II", "III", "IV")


def roman(phase: int) -> str:
    """Phase number as the pages write it (1 → "I")."""
    return ROMAN[phase - 1]


def qualifying(result: int | None, bar: Sequence[int]) -> tuple[int, ...]:
    """Phases (1–4) whose TN ``result`` meets on one row of the initiative bar."""
    if result is None:
        return ()
    return tuple(i for i, tn in enumerate(bar, 1) if result >= tn)


def maneuver_phases(skill: int, handling: int) -> tuple[bool, bool, bool, bool]:
    """Which of the four continuous steps allow a maneuver (002 "Continuous Actions").

    The lower of the rider's or driver's skill level and the mount's or vehicle's
    handling (at most 4) is the number of steps that allow one. 002's chart image is
    missing, so they are spread from the first step: 1 → I; 2 → I and III; 3 → I, II
    and III; 4 or more → every step.
    """
    n = max(0, min(skill, handling, CONTINUOUS_STEPS))
    shares = split_evenly(n, CONTINUOUS_STEPS)
    out = tuple(share > 0 for share in shares)
    return out  # type: ignore[return-value]


def further_action(
    name: str, done: Sequence[Speed], speed: Speed, declared: Speed
) -> SpeedCombination:
    """May a character who has acted this round add an action of ``speed``? Yes when
    the actions together combine to the declared speed or faster (004: "Two Quick
    actions may be combined as a Half action"; its example: "Since he declared a
    normal action, he may freely use a fast action as well"); RulesError otherwise,
    naming the combination."""
    names = " + ".join(speed_name(s) for s in (*done, speed))
    try:
        combo = combine_speeds([*done, speed])
    except RulesError as e:
        raise RulesError(f"{name} has already acted this round: {e}") from None
    if speed_rank(combo.speed) > speed_rank(declared):
        raise RulesError(
            f"{name} has already acted this round: {names} combine to a "
            f"{speed_name(combo.speed)} action, slower than the {speed_name(declared)} "
            "declared (004 Freestyle Action Speeds)."
        )
    return SpeedCombination(
        speed=combo.speed,
        reasons=(*combo.reasons, f"{names}: within the {speed_name(declared)} declared (004)"),
    )


def reflex_key(row: PhaseRow) -> tuple[int, int, int, str]:
    """Acting order in a phase (004): larger Reflex die, more dice, the posse, name."""
    r = row.reflex
    return (-(r.die if r else 0), -(r.count if r else 0), 0 if row.side == "posse" else 1, row.name)


# =============================================================================
# State
# =============================================================================


class PhaseStage(StrEnum):
    IDLE = "idle"  # no round started yet
    DECLARE = "declare"  # declarations
    RESOLVED = "resolved"  # the card is flipped; phases are chosen now
    ACTING = "acting"  # phases I–IV
    ENDED = "ended"  # between rounds


class PhaseRow(Strict):
    """One character's initiative for the current round."""

    character_id: Id
    name: Name
    side: Name = "hombres"
    reflex: Pool | None = None
    status: RowStatus = RowStatus.WAITING
    status_reason: Text = ""
    #: the speed declared (combined speed of the intended actions)
    declared: Speed | None = None
    declared_reasons: tuple[Text, ...] = ()
    #: a non-combat skill was declared together with combat actions (004 says "in
    #: general" they do not combine; flagged for the Judge, not refused)
    mixed_noncombat: bool = False
    #: the bar row read (one faster after a hesitation; Fast while keeping to wait)
    bar_speed: Speed | None = None
    bar_reasons: tuple[Text, ...] = ()
    card_number: CardNo | None = None
    reflex_result: SmallInt | None = None
    reflex_cf: bool = False
    reflex_reasons: tuple[Text, ...] = ()
    bar: tuple[SmallInt, SmallInt, SmallInt, SmallInt] | None = None
    qualifying: tuple[Count, ...] = ()
    phase: Count | None = None
    hesitated: bool = False
    #: earned this round by hesitating without a CF; used in the next declaration
    bonus_next_round: bool = False
    #: carried from last round's hesitation
    bonus_this_round: bool = False
    acted: bool = False
    acted_speed: Speed | None = None
    #: every action taken this round, in order: more than one fits a declaration when
    #: they combine to its speed or faster (004 Freestyle Action Speeds)
    acted_speeds: tuple[Speed, ...] = ()
    #: the phase of the first of them (the others follow in the same phase)
    acted_phase: Count | None = None
    #: the kinds of the actions taken this round (ActionKind values; "speed" for an
    #: action given by its speed only)
    acted_kinds: tuple[Name, ...] = ()
    #: a Step taken this round: it rides along with a Quick action (004 Maneuver)
    step_taken: bool = False
    #: the phase the character moved in this round (001 Order of Actions)
    moved_phase: Count | None = None
    #: a shot taken without the firer-movement penalty: no move after it (003)
    still_shot: bool = False
    #: how the shots taken may go with a move (004 Tactical Move; ActionSpec.tactical)
    shots_tactical: tuple[Name, ...] = ()
    #: the round's one free action is taken (004 Free Actions)
    free_used: bool = False
    passed: bool = False
    delayed: bool = False
    waiting_for: Text | None = None
    #: continuing last round's wait: the waiting action's own speed
    waiting_speed: Speed | None = None
    preempting: bool = False
    surprise: Literal["none", "surprised", "bravery"] = "none"

    @property
    def acted_other(self) -> bool:
        """Took an action other than a move this round (its turn in the phase's
        action step is taken)."""
        return any(k not in MOVE_KINDS for k in self.acted_kinds)


class ContinuousMover(Strict):
    """A continuous movement (002): automated (the Judge's train) or controlled (a
    rider with a skill level on a mount with a handling)."""

    mover_id: Id
    name: Name
    paces: Count
    automated: bool = False
    reflex: Pool | None = None
    side: Name = "hombres"
    skill: Count = 0
    handling: Count = 0
    #: the phase whose continuous step a maneuver was made for (one a step, 002)
    maneuvered_phase: Count | None = None
    #: maneuvered as a regular action in this phase: no move in its continuous step
    #: (002: "The mount or vehicle does not move during this phase in any circumstance")
    still_phase: Count | None = None
    #: a speed changed by a maneuver, in force after the current phase's step (002)
    pending_paces: Count | None = None


class PhaseState(Strict):
    """The whole Phases round: saved in encounter files, restored exactly by undo."""

    round: Count = 0
    stage: PhaseStage = PhaseStage.IDLE
    phase: Annotated[int, Field(ge=0, le=PHASES)] = 0
    rows: dict[str, PhaseRow] = {}
    movers: tuple[ContinuousMover, ...] = ()
    #: initiative card numbers by "all" / side / character id
    initiative_cards: dict[Name, CardNo] = {}
    #: someone has taken an action other than a move in the current phase: its moves
    #: are over (001: "All movement happens before all other actions.")
    actions_begun: bool = False
    #: the deck after this round's last draw
    deck: DeckState | None = None


class PhaseMove(Strict):
    mover_id: str
    paces: int
    maneuver: bool


class ReflexContest(Strict):
    """A preempt contest (004 Delaying an Action)."""

    interrupter_id: str
    target_id: str
    card_number: int
    interrupter_result: int | None
    target_result: int | None
    interrupter_wins: bool
    reasons: tuple[str, ...]


class PhaseEvent(Strict):
    """What a step did and why, for the encounter log."""

    step: str
    round: int
    phase: int
    character_id: str | None = None
    summary: str
    details: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    order: tuple[str, ...] = ()
    moves: tuple[PhaseMove, ...] = ()
    contest: ReflexContest | None = None
    surprise: SurpriseResult | None = None
    bleeding: tuple[BleedRecord, ...] = ()


# =============================================================================
# The round
# =============================================================================


SpeedOrAction = Speed | ActionSpec


class PhaseRound(TimeEngine[PhaseState, PhaseEvent]):
    """Phases-edition initiative for one encounter (see the module docstring).

    ``characters`` are read, never changed. Pass ``state`` to reopen a saved
    encounter where it was.
    """

    event_type = PhaseEvent
    rows_where = "in this round"
    #: 003 Surprise (the phase edition's own page): Standard (5) when expecting danger,
    #: Difficult (9) otherwise, whether or not action time is already under way
    surprise_alert_in_action_time = False

    def _initial_state(self) -> PhaseState:
        return PhaseState(rows={c.id: self._fresh_row(c) for c in self._chars.values()})

    @staticmethod
    def _fresh_row(c: Character) -> PhaseRow:
        return PhaseRow(character_id=c.id, name=c.name, side=c.side, reflex=c.traits.get("reflex"))

    # -- hooks of the shared steps (timecommon) -------------------------------------------

    def _clock(self) -> dict[str, int]:
        return {"round": self._state.round, "phase": self._state.phase}

    def _under_way(self) -> bool:
        return self._state.stage in (PhaseStage.DECLARE, PhaseStage.RESOLVED, PhaseStage.ACTING)

    def _sit_out(self, row: PhaseRow) -> dict[str, object] | None:
        # surprised before acting: no phase this round (001/003)
        if row.status not in (RowStatus.ACTIVE, RowStatus.WAITING):
            return None
        return {"phase": None}

    def _check_mover_extra(self, extra: Mapping[str, Any]) -> None:
        if extra.get("skill", 0) < 0 or extra.get("handling", 0) < 0:
            raise RulesError("Skill and handling cannot be negative.")

    def _new_mover(
        self,
        mover_id: str,
        label: str,
        paces: int,
        automated: bool,
        sheet: Character | None,
        extra: Mapping[str, Any],
    ) -> tuple[ContinuousMover, tuple[str, ...]]:
        skill, handling = extra.get("skill", 0), extra.get("handling", 0)
        mover = ContinuousMover(
            mover_id=mover_id,
            name=label,
            paces=paces,
            automated=automated,
            reflex=sheet.traits.get("reflex") if sheet and not automated else None,
            side=sheet.side if sheet else "hombres",
            skill=skill,
            handling=handling,
        )
        man = maneuver_phases(skill, handling)
        details = (
            f"per continuous step: {split_evenly(paces, CONTINUOUS_STEPS)}",
            "maneuvers after phase "
            + (", ".join(roman(i + 1) for i, ok in enumerate(man) if ok) or "none")
            if not automated
            else "automated: moves before every other continuous action",
        )
        return mover, details

    # -- reading -----------------------------------------------------------------------

    @property
    def current_phase(self) -> int:
        """The phase being played (1–4), 0 before phase I opens."""
        return self._state.phase

    @property
    def round_over(self) -> bool:
        """True when no round is under way (before the first, or after phase IV)."""
        return self._state.stage in (PhaseStage.IDLE, PhaseStage.ENDED)

    def qualifying_phases(self, character_id: str) -> tuple[int, ...]:
        """Phases the character's Reflex result lets them act in (004 Resolution)."""
        return self.row(character_id).qualifying

    def acting_order(self, phase: int | None = None) -> list[str]:
        """Who acts in ``phase`` (default: the current one), in order (004 Taking
        Actions): Reflex die type, number of dice, the posse, then name."""
        ph = self._state.phase if phase is None else phase
        rows = [
            r
            for r in self._state.rows.values()
            if r.status == RowStatus.ACTIVE and not r.hesitated and r.phase == ph
        ]
        return [r.character_id for r in sorted(rows, key=reflex_key)]

    def next_to_act(self) -> str | None:
        """The character whose turn it is in the current phase (None when the phase's
        regular turns are done)."""
        if self._state.stage != PhaseStage.ACTING:
            return None
        for cid in self.acting_order():
            r = self._state.rows[cid]
            if not (self._turn_taken(r) or r.delayed or r.passed):
                return cid
        return None

    def continuous_order(self) -> list[str]:
        """Continuous movers in moving order: automated first (002: as if faster than
        d12), then by Reflex like the acting order."""
        movers = sorted(
            self._state.movers,
            key=lambda m: (
                0 if m.automated else 1,
                -(m.reflex.die if m.reflex else 0),
                -(m.reflex.count if m.reflex else 0),
                0 if m.side == "posse" else 1,
                m.name,
            ),
        )
        return [m.mover_id for m in movers]

    def continuous_step(self, phase: int) -> list[PhaseMove]:
        """What the continuous step after ``phase`` does, in order (a preview)."""
        by_id = {m.mover_id: m for m in self._state.movers}
        out = []
        for mid in self.continuous_order():
            m = by_id[mid]
            paces = split_evenly(m.paces, CONTINUOUS_STEPS)[phase - 1]
            if m.still_phase == phase:
                paces = 0
            can = not m.automated and maneuver_phases(m.skill, m.handling)[phase - 1]
            out.append(PhaseMove(mover_id=mid, paces=paces, maneuver=can))
        return out

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

    @staticmethod
    def _order_for(state: PhaseState, phase: int) -> list[str]:
        rows = [
            r
            for r in state.rows.values()
            if r.status == RowStatus.ACTIVE and not r.hesitated and r.phase == phase
        ]
        return [r.character_id for r in sorted(rows, key=reflex_key)]

    def _acting_row(self, character_id: str, *, again: bool = False) -> PhaseRow:
        """The row of a character who may act now; ``again``: one who has acted may
        still add an action the declaration leaves room for (checked by the caller)."""
        st = self._state
        row = self.row(character_id)
        if st.stage in (PhaseStage.DECLARE, PhaseStage.RESOLVED):
            raise RulesError(f"{row.name} cannot act before phase I begins.")
        if st.stage != PhaseStage.ACTING:
            raise RulesError("No round is under way.")
        if row.status != RowStatus.ACTIVE:
            raise RulesError(f"{row.name} cannot act this round ({row.status_reason}).")
        if row.hesitated:
            raise RulesError(f"{row.name} hesitates this round and cannot act.")
        if row.acted and not again:
            raise RulesError(f"{row.name} has already acted this round.")
        if row.phase is None:
            raise RulesError(f"{row.name} has no phase this round.")
        if row.phase > st.phase:
            raise RulesError(f"{row.name} cannot act before phase {roman(row.phase)}.")
        if row.passed:
            raise RulesError(f"{row.name} let phase {roman(row.phase)} go by without acting.")
        return row

    def _turn_blocker(self, row: PhaseRow) -> PhaseRow | None:
        """Who must act or delay before ``row`` in the current phase (None if nobody)."""
        st = self._state
        if row.delayed or row.preempting or row.phase != st.phase:
            return None
        for cid in self._order_for(st, st.phase):
            if cid == row.character_id:
                return None
            r = st.rows[cid]
            if not (self._turn_taken(r) or r.delayed or r.passed):
                return r
        return None

    @staticmethod
    def _turn_taken(r: PhaseRow) -> bool:
        """Has ``r`` had its turn in the phase's action step? Yes after an action other
        than a move, or a move that leaves no room in the declaration for more."""
        if r.acted_other:
            return True
        if not r.acted:
            return False
        declared = r.waiting_speed or r.declared or Speed.FAST
        try:
            further_action(r.name, r.acted_speeds or (Speed.FAST,), Speed.FAST, declared)
        except RulesError:
            return True
        return False

    def act_refusal(self, character_id: str, action: Speed | ActionSpec) -> str | None:
        """Why :meth:`act` would refuse ``action`` now (None: the character may act)."""
        return self._refusal(lambda: self._act(character_id, action))

    def act(self, character_id: str, action: Speed | ActionSpec) -> PhaseEvent:
        """The character takes their turn with an action of the declared speed or
        faster (004 Taking Actions). Refused outside their phase, out of turn, or for
        an action slower than the declaration."""
        return self._run(lambda: self._act(character_id, action))

    def _act(
        self, character_id: str, action: Speed | ActionSpec
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self._acting_row(character_id, again=True)
        spec = action if isinstance(action, ActionSpec) else None
        kind = spec.kind.value if spec is not None else "speed"
        is_move = kind in MOVE_KINDS
        details: list[str] = []
        if is_move:
            details += self._move_refusal(row)
        else:
            blocker = None if row.acted_other else self._turn_blocker(row)
            if blocker is not None:
                raise RulesError(
                    f"{blocker.name} acts before {row.name} in phase {roman(st.phase)} (Reflex "
                    f"{blocker.reflex} against {row.reflex}); they act or delay first."
                )
        speed = action.speed if isinstance(action, ActionSpec) else Speed(action)
        allowed = row.waiting_speed or row.declared
        assert allowed is not None
        if speed_rank(speed) > speed_rank(allowed):
            raise RulesError(
                f"{row.name} declared a {speed_name(allowed)} action; a {speed_name(speed)} "
                "action is too slow."
            )
        if row.acted and row.acted_phase not in (None, st.phase) and not row.delayed:
            raise RulesError(
                f"{row.name} has already acted this round, in phase {roman(row.acted_phase)}; "
                "the actions of one declaration are taken together (004)."
            )
        # a Step rides along with a Quick action (004 Maneuver); a second one is a move
        is_step = bool(spec is not None and spec.step and not row.step_taken)
        speeds = row.acted_speeds if is_step else (*row.acted_speeds, speed)
        if character_id in self._together:
            if not row.acted_speeds:
                raise RulesError(
                    f"{row.name} has taken no action this round to do this one at the same "
                    f"time as ({SOURCE_SIMULTANEOUS})."
                )
            last = row.acted_speeds[-1]
            merged = max(last, speed, key=speed_rank)
            is_step = False
            speeds = (*row.acted_speeds[:-1], merged)
            details.append(
                f"with the other hand at the same time as the last action: one "
                f"{speed_name(merged)} action for combining, the slower of the two "
                f"({SOURCE_SIMULTANEOUS})"
            )
        step_taken = row.step_taken or is_step
        kinds = (*row.acted_kinds, kind)
        tactical = row.shots_tactical + ((spec.tactical,) if spec and spec.tactical else ())
        combo = self._combined(row, speeds, step_taken, kinds, tactical, allowed)
        if combo:
            details.append(combo)
        rows = dict(st.rows)
        update: dict[str, object] = {
            "acted": True,
            "acted_speed": speed,
            "acted_speeds": speeds,
            "acted_kinds": kinds,
            "step_taken": step_taken,
            "shots_tactical": tactical,
            "acted_phase": row.acted_phase if row.acted else st.phase,
            "delayed": False,
            "preempting": False,
        }
        if is_move:
            update["moved_phase"] = st.phase
        if spec is not None and spec.is_shot and not spec.firer_moving:
            update["still_shot"] = True
        rows[character_id] = row.model_copy(update=update)
        what = spec.describe() if spec is not None else f"a {speed_name(speed)} action"
        if is_move and spec is not None:
            what = " ".join(i.label for i in spec.breakdown) or what
        if row.delayed:
            details.append(
                f"acting on a delay{f' (waiting for {row.waiting_for})' if row.waiting_for else ''}"
            )
        begun = st.actions_begun or (not is_move and not row.delayed and not row.preempting)
        event = self._event(
            "act",
            character_id=character_id,
            summary=f"{row.name} acts in phase {roman(st.phase)}: {what}",
            details=tuple(details),
        )
        return st.model_copy(update={"rows": rows, "actions_begun": begun}), event, False

    def _move_refusal(self, row: PhaseRow) -> list[str]:
        """Raise when ``row`` may not move now; the log lines when it may.

        003 Move and Fire: "A character who did not take the movement penalty on a
        shot may not move after the attempt." 001 Movement Actions: "All movement
        happens before all other actions."; 001 Order of Actions: "start with the last
        character and do movement in reverse order". House (001 against 003/004, which
        let a character move before, during or after the attack in their own phase):
        each phase opens with its moves, the slowest of those acting in it first; once
        someone in the phase takes another action its moves are over. A delaying
        character acting on their delay moves when they act (004 Delaying an Action)."""
        st = self._state
        if row.still_shot:
            raise RulesError(
                f"{row.name} took a shot without the firer-movement penalty and may not move "
                f'after it ({SOURCE_MOVE_FIRE}: "A character who did not take the movement '
                'penalty on a shot may not move after the attempt").'
            )
        if row.delayed or row.preempting:
            return [f"moves on a delay ({SOURCE_DELAY})"]
        if st.actions_begun:
            raise RulesError(
                f"The moves of phase {roman(st.phase)} are over: someone has already taken "
                f'another action in it ({SOURCE_MOVE_ORDER}: "All movement happens before all '
                'other actions."). Move at the start of the phase, or delay and move later.'
            )
        order = self._order_for(st, st.phase)
        mine = order.index(row.character_id) if row.character_id in order else len(order)
        faster_moved = [st.rows[c].name for c in order[:mine] if st.rows[c].moved_phase == st.phase]
        if faster_moved:
            raise RulesError(
                f"{', '.join(faster_moved)} (acting before {row.name}) has already moved in "
                f"phase {roman(st.phase)}: the moves go from the last to act to the first "
                f'({SOURCE_MOVE_ORDER}: "start with the last character and do movement in '
                'reverse order").'
            )
        return [f"the phase's moves come first, the slowest first ({SOURCE_MOVE_ORDER})"]

    @staticmethod
    def _combined(
        row: PhaseRow,
        speeds: tuple[Speed, ...],
        step: bool,
        kinds: tuple[str, ...],
        tactical: tuple[str, ...],
        declared: Speed,
    ) -> str:
        """Check the round's actions so far against the declaration (004 Freestyle
        Action Speeds; a Step counts as a Quick action unless it rides along with one,
        004 Maneuver; a move with a shot is a tactical move, 004 Tactical Move). The
        line for the log ("" for a single action); RulesError when they do not fit."""
        eff = [*speeds, *([Speed.FAST] if step and Speed.FAST not in speeds else [])]
        moving = any(k in MOVE_KINDS for k in kinds)
        if moving and "slow" in tactical:
            raise RulesError(
                f"{row.name} cannot shoot Slow gear in a round they move: "
                f'"Tactical actions cannot be performed with gear that has the Slow attribute" '
                f"({SOURCE_TACTICAL})."
            )
        if len(eff) < 2:
            return ""
        done, last = eff[:-1], eff[-1]
        combo = further_action(row.name, done, last, declared)
        line = combo.reasons[-1]
        if step:
            line += "; the Step rides along with a Quick action (004 Maneuver)"
        if moving and "full" in tactical and combo.speed != Speed.SLOW:
            if declared != Speed.SLOW:
                raise RulesError(
                    f"{row.name} has already acted this round: a move with this shot is a Full "
                    'tactical move ("The only tactical moves that can be performed with a Half '
                    "action are snap shots (without aim), with single or double action "
                    f'pistols"; {SOURCE_TACTICAL}), slower than the {speed_name(declared)} '
                    "declared."
                )
            line += f"; a tactical move with this shot is a Full action ({SOURCE_TACTICAL})"
        return line

    #: characters whose next action is done at the same time as their last (see
    #: :meth:`at_once`); not state: set only inside one table step
    _together: frozenset[str] = frozenset()

    @contextmanager
    def at_once(self, character_id: str) -> Iterator[None]:
        """Inside the block the character's next action is done at the same time as
        their last, one with each hand: the two count as one action of the slower
        speed for combining (004 Simultaneous Actions: "count them as a single action
        for combination purposes, with a speed equal to the slowest")."""
        old = self._together
        self._together = old | {character_id}
        try:
            yield
        finally:
            self._together = old

    def free_action(self, character_id: str, what: str = "") -> PhaseEvent:
        """A free action (talking, a hand signal, dropping an item). 004 Free Actions:
        "Each character may do one free action per round in addition to any other
        actions. Any further free actions count as a fast action and must be combined"
        — the first of the round is taken whenever the character takes part in the
        round (house: a shout is not tied to the phase), any further one is a Quick
        action of their phase, combined with the rest of the declaration."""
        return self._run(lambda: self._free(character_id, what))

    def _free(self, character_id: str, what: str) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self.row(character_id)
        text = what.strip() or "a free action"
        if row.free_used:
            new, event, touched = self._act(character_id, Speed.FAST)
            event = event.model_copy(
                update={
                    "summary": f"{row.name}: {text}, a further free action: a Quick action",
                    "details": (
                        *event.details,
                        f"one free action a round; further ones count as Quick ({SOURCE_FREE})",
                    ),
                }
            )
            rows = dict(new.rows)
            rows[character_id] = rows[character_id].model_copy(update={"free_used": True})
            return new.model_copy(update={"rows": rows}), event, touched
        if st.stage not in (PhaseStage.RESOLVED, PhaseStage.ACTING):
            raise RulesError("Free actions are taken during the round, once the card is flipped.")
        if row.status != RowStatus.ACTIVE or row.hesitated:
            why = row.status_reason or ("hesitates" if row.hesitated else "takes no part")
            raise RulesError(f"{row.name} cannot act this round ({why}).")
        return self._row_step(
            character_id,
            {"free_used": True},
            "free_action",
            summary=f"{row.name}: {text} (the round's free action, {SOURCE_FREE})",
        )

    def delay(self, character_id: str, circumstance: str | None = None) -> PhaseEvent:
        """Hold the action when the character's turn comes: for a named circumstance
        (act the moment it happens) or to act at any later time (004 Delaying)."""
        return self._run(lambda: self._delay(character_id, circumstance))

    def _delay(
        self, character_id: str, circumstance: str | None
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        # a character who has only moved may still hold the rest of the action
        row = self._acting_row(character_id, again=True)
        if row.acted_other:
            raise RulesError(f"{row.name} has already acted this round.")
        if row.delayed:
            raise RulesError(f"{row.name} is already delaying.")
        blocker = self._turn_blocker(row)
        if blocker is not None:
            raise RulesError(
                f"{blocker.name} acts before {row.name}; {row.name} delays on their own turn."
            )
        rows = dict(st.rows)
        text = (circumstance or "").strip() or None
        rows[character_id] = row.model_copy(update={"delayed": True, "waiting_for": text})
        event = self._event(
            "delay",
            character_id=character_id,
            summary=f"{row.name} delays" + (f", waiting for {text}" if text else ", to act later"),
        )
        return st.model_copy(update={"rows": rows}), event, False

    def check_preempt(self, character_id: str, against: str | None = None) -> str:
        """Whom ``character_id`` would try to interrupt (``against``, or the next to
        act); RulesError, with the reason, when :meth:`preempt` would be refused. Draws
        nothing and changes nothing."""
        st = self._state
        row = self._acting_row(character_id)
        if not row.delayed:
            raise RulesError(
                f"Only a delaying character can interrupt, and {row.name} is not delaying."
            )
        target_id = against or self.next_to_act()
        if target_id is None:
            raise RulesError("Nobody is about to act, so there is nothing to interrupt.")
        if target_id == character_id:
            raise RulesError(f"{row.name} cannot interrupt their own action.")
        target = self.row(target_id)
        if (
            target.acted
            or target.status != RowStatus.ACTIVE
            or target.hesitated
            or target.passed
            or (target.phase != st.phase and not target.delayed)
        ):
            raise RulesError(f"{target.name} is not about to act.")
        return target_id

    def preempt_targets(self, character_id: str) -> list[str]:
        """Everyone ``character_id`` could try to interrupt now: the next to act
        first, then the phase's acting order, then other delaying characters."""
        nxt = self.next_to_act()
        ids = dict.fromkeys([*([nxt] if nxt else []), *self.acting_order(), *self._state.rows])
        out = []
        for cid in ids:
            try:
                self.check_preempt(character_id, cid)
            except RulesError:
                continue
            out.append(cid)
        return out

    def preempt(
        self, character_id: str, against: str | None = None, card: Card | None = None
    ) -> PhaseEvent:
        """A delaying character tries to act before ``against`` (default: the next to
        act): a Reflex contest on one card, the interrupter at −2 (004 Delaying). The
        winner of a tie is the character already acting."""
        return self._run(lambda: self._preempt(character_id, against, card))

    def _preempt(
        self, character_id: str, against: str | None, card: Card | None
    ) -> tuple[PhaseState, PhaseEvent, bool]:
        st = self._state
        row = self._acting_row(character_id)
        target_id = self.check_preempt(character_id, against)
        target = self.row(target_id)
        drawn, from_deck = self._take(card)
        more = self._more()
        mine = check_pool(
            drawn,
            self._sheet(character_id).trait_pool("reflex"),
            0,
            more,
            [("interrupting", PREEMPT_PENALTY, SOURCE_DELAY)],
        )
        theirs = check_pool(drawn, self._sheet(target_id).trait_pool("reflex"), 0, more)
        extra = [n for c in (mine, theirs) if c.read is not None for n in c.read.cards_drawn]
        self._discard(drawn, from_deck, extra)
        wins = wins_outright(mine, theirs)
        if mine.calamity:
            why = f"{row.name} rolls a CF"
        elif theirs.calamity:
            why = f"{target.name} rolls a CF"
        else:
            why = f"{mine.result} against {theirs.result}" + (
                " (a tie stays with the acting character)" if mine.result == theirs.result else ""
            )
        contest = ReflexContest(
            interrupter_id=character_id,
            target_id=target_id,
            card_number=drawn.number,
            interrupter_result=mine.result,
            target_result=theirs.result,
            interrupter_wins=wins,
            reasons=(*mine.reasons, *theirs.reasons, why),
        )
        rows = dict(st.rows)
        if wins:
            rows[character_id] = row.model_copy(update={"preempting": True})
        outcome = (
            f"{row.name} goes first" if wins else f"{row.name} goes after {target.name}'s action"
        )
        event = self._event(
            "preempt",
            character_id=character_id,
            summary=f"{row.name} tries to interrupt {target.name}: {outcome}",
            details=(why,),
            cards=((drawn.number,) if from_deck else ()) + tuple(extra),
            contest=contest,
        )
        return st.model_copy(update={"rows": rows}), event, True

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
        if in_step and mover.maneuvered_phase != phase:
            update["maneuvered_phase"] = phase
            details.append(
                f"in the continuous step after phase {roman(phase)}: part of the continuous "
                f"action, no speed spent ({SOURCE_HANDLING})"
            )
        else:
            why = (
                "its continuous steps allow no more maneuvers"
                if in_step
                else f"skill {mover.skill} / handling {mover.handling} allow none after phase "
                f"{roman(phase)}"
            )
            new_state, ev, _t = self._act(rider_id, Speed.FAST)
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
