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

House reading (Help ▸ Rules reference, "000 Determine Bonus" and "000 Action
Timing"): 000 gives each character the choice "once all actions that will occur
during a segment are known" and when their counters are placed; it does not say the
choice cannot be made ahead. A standing answer is that choice made ahead and said
aloud — journaled, shown on the track, withdrawn or changed like any standing
declaration — and the table still checks it when it is carried out: the bid never
spends AP the pool no longer holds, a calamity on Quick Draw still bars it, and a
declaration dropped before the pass takes the pass with it (the character is asked
again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import Field

from ..rules.action_track import Standing
from ..rules.timecommon import RowStatus
from .actions import Who, register
from .declarations import (
    SRC_BONUS,
    SRC_TIMING,
    PassTurn,
    _log_events,
    _settled,
    _TrackStep,
    split_passes,
)
from .table import TableEvent

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
        if table.track.row(c.id).status != RowStatus.ACTIVE:
            return f"{c.name} cannot act this round ({table.track.row(c.id).status_reason})."
        return table.track.refusal(lambda: table.track.set_standing_bid(c.id, self.ap))

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
        if row.status != RowStatus.ACTIVE:
            return f"{c.name} cannot act this round ({row.status_reason})."
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


def _the_pass(character_id: str) -> Standing:
    """The standing pass as the queue keeps it: the ``pass`` the run carries out."""
    return Standing(act=PassTurn(who=[character_id]).journal_form(), label="pass when next able")


__all__ = ["StandingBid", "StandingPass"]
