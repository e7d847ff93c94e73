"""The AP v2 action track's values: the round's constants and source names, the pure
helpers (the continuous movers' schedule, the initiative segment, the Quickness
order) and the state models the engine keeps (rows, stack entries, events).

The engine is :class:`twtw_desktop.rules.action_track.ActionTrack`; these names are
re-exported there.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from .actions import ActionSpec
from .base import MAX_COUNT, CardNo, Count, Id, Name, Pool, SmallInt, Strict, Text
from .card import Card
from .character import Character
from .checks import CheckResult
from .deck import DeckState
from .timecommon import (
    BleedRecord,
    RowStatus,
    SurpriseResult,
    split_evenly,
)

#: 000 Action Time: a round has 20 segments.
ROUND_SEGMENTS = 20
#: 000 The Initiative Test: an Easy (3) Quickness test.
INITIATIVE_TN = 3
#: 000 Determine Bonus: a TN 5 Quick Draw check.
QUICK_DRAW_TN = 5
#: 000 Simultaneous Actions: placing an action onto the stack costs 1 AP.
STACK_ENTRY_AP = 1

SOURCE_INITIATIVE = "000 The Initiative Test"
SOURCE_TIMING = "000 Action Timing"
SOURCE_STACK = "000 The Initiative Stack"
SOURCE_SIMULTANEOUS = "000 Simultaneous Actions"
SOURCE_END = "000 Ending the Round"
SOURCE_RUSH = "000 Rushing Actions"
SOURCE_SKILLS = "000 Skills During Action Time"
SOURCE_CONTINUOUS = "000 Continuous Action Movement"


# =============================================================================
# Pure helpers
# =============================================================================


def continuous_schedule(total_paces: int, segments: int = ROUND_SEGMENTS) -> list[int]:
    """Paces moved in each of the 20 segments by a continuous mover (000 "Continuous
    Action Movement"): the parts add up to the round's movement and the slowest
    segment is within one pace of the fastest."""
    return split_evenly(total_paces, segments)


def initiative_segment(
    initiative: int, check: CheckResult, step: int
) -> tuple[int, tuple[str, ...]]:
    """Segment of the first counter after the initiative test (000): success puts it
    at IN shifted one segment earlier per bump (never before 1); failure one later; a
    calamity the card's step plus one later."""
    if check.calamity:
        seg = initiative + step + 1
        why = f"calamity: IN {initiative} + step {step} + 1 = segment {seg}"
    elif check.success:
        seg = max(1, initiative - check.bumps)
        why = f"success with {check.bumps} bump(s): IN {initiative} − {check.bumps} = segment {seg}"
        if initiative - check.bumps < 1:
            why += " (never before segment 1)"
    else:
        seg = initiative + 1
        why = f"failure: IN {initiative} + 1 = segment {seg}"
    reasons = (*check.reasons, why + f" ({SOURCE_INITIATIVE})")
    if seg > ROUND_SEGMENTS:
        reasons = (*reasons, f"segment {seg} is past {ROUND_SEGMENTS}: no counters this round")
    return seg, reasons


def quickness_key(character: Character) -> tuple[int, int, str]:
    """Sort key for "ascending order of Quickness" (000): die type, then dice, then
    name (the page gives no further tie-break)."""
    q = character.traits.get("quickness")
    return (q.die if q else 0, q.count if q else 0, character.name)


# =============================================================================
# State
# =============================================================================


class TrackStage(StrEnum):
    IDLE = "idle"  # no round started yet
    RUNNING = "running"  # segments 0..20
    OVERTIME = "overtime"  # after segment 20 (000 Ending the Round)
    ENDED = "ended"  # between rounds


class SkillProgress(Strict):
    """AP paid so far toward a multi-round skill (000 Skills During Action Time)."""

    action: ActionSpec
    paid: Count
    started_round: Count

    @property
    def remaining(self) -> int:
        return max(0, self.action.ap - self.paid)


class Standing(Strict):
    """A standing declaration: what a character will do as soon as the counters in
    front of them cover it (000 Action Timing: an action is declared on the segment
    its counters pay for it; the table keeps the intention until then and declares
    it then, in its place among the segment's declarations). ``act`` is the table
    action (its journal form) and ``ap`` its cost when it was given; ``wait_until``
    instead holds the character until that many counters are in front of them."""

    act: dict[str, Any] | None = None
    ap: Count = 0
    label: Text = ""
    wait_until: Count | None = None


class TrackRow(Strict):
    """One character's line of the action track for the current round."""

    character_id: Id
    name: Name
    quickness: Pool | None = None
    status: RowStatus = RowStatus.WAITING
    status_reason: Text = ""
    initiative_card: CardNo | None = None
    initiative_result: SmallInt | None = None
    initiative_calamity: bool = False
    #: segment of the first counter (may be past 20: no counters this round)
    first_segment: Count | None = None
    initiative_reasons: tuple[Text, ...] = ()
    round_ap: Count = 0
    ap_reasons: tuple[Text, ...] = ()
    #: counters placed on the track this round
    placed: Count = 0
    #: counters in front of the character now
    counters: Count = 0
    #: AP paid toward actions (counters and pool)
    spent: Count = 0
    #: AP lost: counters removed beyond an action's cost, and AP unused at round end
    lost: Count = 0
    #: AP taken straight from the pool (stack entry, stack bonus, rushing, tax)
    pool_spent: Count = 0
    #: AP this round took from the next round's AP
    borrowed: Count = 0
    running: bool = False
    #: moved forgoing defence this round (001 Movement Actions)
    forgoing_defence: bool = False
    progress: SkillProgress | None = None
    #: "surprised": cannot act next initiative step; "bravery": needs the Easy check
    surprise: Literal["none", "surprised", "bravery"] = "none"
    #: still acting after segment 20, and whether that last action is declared
    overtime: bool = False
    done: bool = False
    #: has had the chance to declare (declared or passed) since counters last came
    #: in front of them (000 Action Timing: "players may declare actions")
    offered: bool = False

    @property
    def pool(self) -> int:
        """AP of the round not yet placed on the track and not spent from the pool."""
        return max(0, self.round_ap - self.placed - self.pool_spent)


class BonusItem(Strict):
    """One line of an initiative-stack bonus."""

    label: str
    value: int
    source: str


class QuickDrawRoll(Strict):
    """A Quick Draw check for a better place on the stack (000 Determine Bonus)."""

    card_number: CardNo
    result: SmallInt | None
    success: bool
    bumps: Count
    calamity: bool
    bonus: SmallInt
    reasons: tuple[Text, ...]


class StackEntry(Strict):
    """An action that resolves on a segment (the segment's initiative stack)."""

    seq: Count
    character_id: Id
    segment: Count
    action: ActionSpec
    paid_counters: Count
    lost: Count = 0
    joined: bool = False
    join_borrowed: bool = False
    rushed: Count = 0
    resolves_as_snap: bool = False
    #: a fully paid rush of an aimed shot kept this many finished aims (000 Rushing
    #: Actions 3); None when nothing was cut
    rush_kept_aims: Count | None = None
    gear_modifier: SmallInt = 0
    environment_modifier: SmallInt = 0
    modifier_note: Text = ""
    quick_draw: QuickDrawRoll | None = None
    bonus_ap: Count = 0
    card: Card | None = None
    card_from_deck: bool = False
    rush_tax: SmallInt | None = None
    rush_tax_borrowed: Count = 0
    position: Count | None = None
    resolved: bool = False
    #: carried out (a lone action when it was paid; a stacked one in its place)
    performed: bool = False
    #: the table action to carry out when the entry resolves (its journal form)
    intent: dict[str, Any] | None = None
    #: why it never happened (its actor down or stunned first, its target gone…)
    skipped: Text = ""
    #: the Judge was told this character may spend AP from the pool for the stack
    #: (000 Determine Bonus), so an automatic run flips the cards next time
    bonus_offered: bool = False

    def bonus_items(self) -> tuple[BonusItem, ...]:
        """The itemised bonus added to the resolution card's fragment (000)."""
        items: list[BonusItem] = []
        if self.gear_modifier:
            items.append(BonusItem(label="gear", value=self.gear_modifier, source=SOURCE_STACK))
        if self.environment_modifier:
            items.append(
                BonusItem(
                    label="wounds / environment",
                    value=self.environment_modifier,
                    source=SOURCE_STACK,
                )
            )
        if self.quick_draw is not None and self.quick_draw.bonus:
            items.append(
                BonusItem(
                    label="Quick Draw check", value=self.quick_draw.bonus, source=SOURCE_STACK
                )
            )
        if self.bonus_ap:
            items.append(
                BonusItem(label="AP spent from the pool", value=self.bonus_ap, source=SOURCE_STACK)
            )
        if self.rushed:
            items.append(BonusItem(label="rushed", value=self.rushed, source=SOURCE_RUSH))
        return tuple(items)

    @property
    def bonus(self) -> int:
        return sum(i.value for i in self.bonus_items())


class Mover(Strict):
    """Something moving continuously through the round (000 Continuous Action
    Movement): a rider, a wagon, a train."""

    mover_id: Id
    name: Name
    paces: Count
    automated: bool = False
    quickness: Pool | None = None


class TrackState(Strict):
    """The whole action track: saved in encounter files, restored exactly by undo."""

    round: Count = 0
    segment: Count = 0
    stage: TrackStage = TrackStage.IDLE
    rows: dict[str, TrackRow] = {}
    entries: tuple[StackEntry, ...] = ()
    movers: tuple[Mover, ...] = ()
    next_seq: Annotated[int, Field(ge=1, le=MAX_COUNT)] = 1
    ended_early: bool = False
    #: the current segment's declarations are closed: its actions have resolved
    closed: bool = False
    #: standing declarations by character id, first to fire first
    standing: dict[str, tuple[Standing, ...]] = {}
    #: standing bids by character id: the AP from the pool each offers, given ahead,
    #: when this round's stack offers them AP (000 Determine Bonus; 0: none)
    bids: dict[str, Count] = {}
    #: the NPCs are on the autopilot for this fight: the window proposes their plans
    #: by itself (a house design; the Judge still accepts each); kept from round to round
    autopilot: bool = False
    #: the deck after the track's last draw
    deck: DeckState | None = None


# -- events -------------------------------------------------------------------------


class StackPlace(Strict):
    """One action's place in a resolved initiative stack."""

    position: int
    character_id: str
    seq: int
    action: str
    card_number: int
    fragment: int
    bonus: tuple[BonusItem, ...]
    total: int
    rush_tax: int | None = None


class ContinuousMove(Strict):
    mover_id: str
    paces: int


class TrackEvent(Strict):
    """What a step did and why, for the encounter log."""

    step: str
    round: int
    segment: int
    character_id: str | None = None
    summary: str
    details: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    entry: StackEntry | None = None
    stack: tuple[StackPlace, ...] = ()
    moves: tuple[ContinuousMove, ...] = ()
    placed: tuple[str, ...] = ()
    bleeding: tuple[BleedRecord, ...] = ()
    surprise: SurpriseResult | None = None
