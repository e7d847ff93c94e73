"""The Phases edition's values: the round's constants and source names, the pure
helpers (Roman phase numbers, the phases a result qualifies for on the card's bar, a
maneuver's phases, the Reflex order) and the state models the engine keeps (rows,
continuous movers, events).

The engine is :class:`twtw_desktop.rules.phases.PhaseRound`; these names are
re-exported there.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field

from ..errors import RulesError
from .actions import (
    SpeedCombination,
    combine_speeds,
    speed_name,
    speed_rank,
)
from .base import CardNo, Count, Id, Name, Pool, SmallInt, Speed, Strict, Text
from .deck import DeckState
from .timecommon import (
    BleedRecord,
    RowStatus,
    SurpriseResult,
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
    #: … by riding: a maneuver in a continuous step (002: "For declaration purposes, the
    #: continuous action is considered to be either a Fast or Free action")
    free_by_riding: bool = False
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
