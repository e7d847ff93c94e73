"""Standing answers: what a character will answer, given ahead, where the run would
otherwise stop to ask the Judge (AP v2).

* :class:`StandingBid` — the AP from the pool the character offers whenever this
  round's initiative stack offers them AP (000 Determine Bonus), 0 for none. The
  run-on (:class:`~.declarations.RunOn`) answers the stack's offer with it instead of
  stopping: after the free Quick Draw check, as the page orders ("This is attempted
  before spending AP to add to the pool"), at most what the pool and the Quick Draw
  level allow then.
* :class:`StandingPass` — with what stands for the character declared, they declare
  nothing more: when next able with nothing declared they let the segment go, as
  :class:`~.declarations.PassTurn` does, and keep their counters (000 Action Timing:
  "players may declare actions for their character" — may, not must).
* :class:`AutopilotFight` — the NPCs on the autopilot for the fight: the window
  proposes their plans by itself (the planner is :mod:`twtw_desktop.tactics`); a
  table step so that it is saved, undone and replayed without the planner.
* :class:`StandingBumps` — where the bumps the character's declared attacks earn go
  when the run carries them out ("damage": every bump left to damage), so the run
  does not stop for the Attack panel's spends. Spends the declaration carries stay;
  what the preview shows as left over goes to damage, and the table checks the
  attack with those spends as it would the Judge's clicks.

House readings (Help ▸ Rules reference, "000 Determine Bonus", "000 Action Timing"
and "002 Spending Bumps"): 000 gives each character the choice "once all actions
that will occur during a segment are known" and when their counters are placed, and
002 lets them spend bumps "in any order they choose"; neither says the choice cannot
be made ahead. A standing answer is that choice made ahead and said aloud —
journaled, shown on the track, withdrawn or changed like any standing declaration —
and the table still checks it when it is carried out: the bid never spends AP the
pool no longer holds, a calamity on Quick Draw still bars it, a declaration dropped
before the pass takes the pass with it (the character is asked again), and a fan's
secondary shots are still spent by the Judge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..rules.action_track import Standing
from ..rules.timecommon import RowStatus
from .actions import Action, Who, register
from .declarations import (
    SRC_BONUS,
    SRC_BUMPS,
    SRC_TIMING,
    PassTurn,
    _log_events,
    _settled,
    _TrackStep,
    split_passes,
)
from .table import TableEvent

#: the autopilot is a house design: no seed page has NPCs plan themselves
SRC_AUTOPILOT = "house: the NPC autopilot (no seed page; it plays by the table's rules)"

if TYPE_CHECKING:
    from .table import Table


@register
class StandingBid(_TrackStep):
    """The AP from the pool the character offers at this round's stack offers, given
    ahead (0: none); ``ap`` left out withdraws it (see the module docstring)."""

    do: Literal["standing_bid"] = "standing_bid"
    who: Who
    ap: Annotated[int, Field(ge=0, le=40)] | None = None
    page: ClassVar[str] = SRC_BONUS
    summary: ClassVar[str] = (
        "a standing bid: the AP from the pool offered whenever this round's stack asks (0: none)"
    )

    def label(self, table: Table) -> str:
        name = self.actor(table)[0].name
        if self.ap is None:
            return f"{name}: no standing bid"
        return f"{name}: bids {self.ap} AP at the stack"

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        return _not_acting(table, c.id) or table.track.refusal(
            lambda: table.track.set_standing_bid(c.id, self.ap)
        )

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        return TableEvent(
            " · ".join(_log_events(table, [table.track.set_standing_bid(c.id, self.ap)]))
        )


@register
class StandingPass(_TrackStep):
    """With what stands for the character declared, they declare nothing more: when
    next able with nothing declared they pass (see the module docstring). Able now
    with nothing declared: they pass now."""

    do: Literal["standing_pass"] = "standing_pass"
    who: Who
    page: ClassVar[str] = SRC_TIMING
    summary: ClassVar[str] = (
        "a standing pass: once what stands is declared, declare nothing more (pass when next able)"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: pass when next able"

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        t = table.track
        row = t.row(c.id)
        why = _not_acting(table, c.id)
        if why:
            return why
        if c.id in t.pending_declarers():
            return PassTurn(who=[c.id]).why_not(table)
        acts, passes = split_passes(t.state.standing.get(c.id, ()))
        if passes:
            return f"{c.name} passes once what stands is declared already."
        if not acts and row.offered:
            return f"{c.name} has let this segment go already and declares nothing more."
        return t.refusal(lambda: t.set_standing(c.id, (*acts, _the_pass(c.id))))

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        t = table.track
        if c.id in t.pending_declarers():
            return PassTurn(who=[c.id]).apply(table)
        acts, _passes = split_passes(t.state.standing.get(c.id, ()))
        texts = _log_events(table, [t.set_standing(c.id, (*acts, _the_pass(c.id)))])
        return _settled(table, texts)


@register
class StandingBumps(_TrackStep):
    """Where the bumps the character's declared attacks earn go this round, given
    ahead ("damage"); ``on`` left out withdraws it (see the module docstring)."""

    do: Literal["standing_bumps"] = "standing_bumps"
    who: Who
    on: Literal["damage"] | None = None
    page: ClassVar[str] = SRC_BUMPS
    summary: ClassVar[str] = (
        "a standing bump choice: the bumps a declared attack earns go to damage when the run "
        "carries it out"
    )

    def label(self, table: Table) -> str:
        name = self.actor(table)[0].name
        if self.on is None:
            return f"{name}: no standing bump choice"
        return f"{name}: bumps to {self.on}"

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        return _not_acting(table, c.id) or table.track.refusal(
            lambda: table.track.set_standing_bumps(c.id, self.on)
        )

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        texts = _log_events(table, [table.track.set_standing_bumps(c.id, self.on)])
        return _settled(table, texts)


@register
class AutopilotFight(Action):
    """Put the NPCs on the autopilot for this fight (AP v2), or take them off: while
    on, the window proposes their plans by itself — each round's, and a fresh one for
    an NPC whose declaration was dropped — and the Judge still accepts them (a house
    design: no rule changes). Kept with the fight's track (saved in the encounter,
    undone like any step); a new fight starts off."""

    do: Literal["autopilot_fight"] = "autopilot_fight"
    on: bool = True
    page: ClassVar[str] = SRC_AUTOPILOT
    summary: ClassVar[str] = (
        "put the NPCs on the autopilot for this fight (their plans proposed by themselves) or off"
    )
    needs_actor: ClassVar[bool] = False
    undo_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"track", "log"})

    def label(self, table: Table) -> str:
        return "NPCs on the autopilot" if self.on else "NPCs off the autopilot"

    def why_not(self, table: Table) -> str | None:
        if not table.in_action or table.time is None:
            return "Not in action time: declare action time first (Ctrl+T)."
        if table.time.kind != "segments":
            return "The autopilot for the fight runs on the AP v2 action track."
        return table.track.refusal(lambda: table.track.set_autopilot(self.on))

    def apply(self, table: Table) -> TableEvent:
        ev = table.track.set_autopilot(self.on)
        table.log(ev.summary, "track")
        return TableEvent(ev.summary)


def on_autopilot(table: Table) -> bool:
    """The NPCs are on the autopilot for this fight (AP v2)."""
    if not table.in_action or table.time is None or table.time.kind != "segments":
        return False
    return bool(table.track.state.autopilot)


def _not_acting(table: Table, character_id: str) -> str | None:
    """Why a character gives no standing answer this round: their row is not active."""
    row = table.track.row(character_id)
    if row.status != RowStatus.ACTIVE:
        return f"{row.name} cannot act this round ({row.status_reason})."
    return None


def _the_pass(character_id: str) -> Standing:
    """The standing pass as the queue keeps it: the ``pass`` the run carries out."""
    return Standing(act=PassTurn(who=[character_id]).journal_form(), label="pass when next able")


__all__ = ["AutopilotFight", "StandingBid", "StandingBumps", "StandingPass", "on_autopilot"]
