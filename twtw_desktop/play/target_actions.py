"""001 Declare Target's second way: a target token dropped during another's move.

"During the movement step, any character that has yet to move (or had the opportunity
to move) may drop their target token on the field during the movement of another
character. The token is placed to indicate where during the movement that character
will be targeted. Once placed, the target token cannot be withdrawn."

``target_token`` puts the shooter's token on a hex the mover passed this round (the
token's ``trail``); the shooter's shots at that figure this round then read range,
cover and visibility from that hex (:mod:`.attack_ranged`) — so a target who ran out
of sight is still shot where the token lies. The Phases edition's (001/003/004), in
action time; gone at the next round (undo takes it back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..errors import RulesError
from .action_base import HexRef, RuledAction, Who, hex_of
from .actions import register
from .table import TableEvent

if TYPE_CHECKING:
    from ..model.encounter import Token
    from .table import Table

SRC_TARGET = "001 Declare Target"


@register
class TargetToken(RuledAction):
    """Drop the shooter's target token on a hex of another figure's move this round."""

    do: Literal["target_token"] = "target_token"
    who: Who
    target: Who
    at: HexRef
    page: ClassVar[str] = SRC_TARGET
    summary: ClassVar[str] = "Phases: drop a target token on a hex of another's move (001)"
    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "log"})

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} drops a target token"

    def _parts(self, table: Table) -> tuple[Token, Token]:
        c, tok = self.actor(table)
        other, otok = table.actor(self.target)
        if tok is None or otok is None:
            raise RulesError("Both figures need a token on the map.")
        if otok.id == tok.id:
            raise RulesError("A figure does not target itself.")
        if not table.in_action or table.time is None or table.time.kind != "phases":
            raise RulesError(
                f"A target token is dropped during the Phases movement step ({SRC_TARGET})."
            )
        if tok.target_mark_on is not None:
            raise RulesError(
                f"{c.name}'s target token is on the field already: 'Once placed, the target "
                f"token cannot be withdrawn' ({SRC_TARGET})."
            )
        if tok.moved:
            raise RulesError(
                f"{c.name} has moved this round: only 'any character that has yet to move' "
                f"drops a target token ({SRC_TARGET})."
            )
        h = hex_of(table, self.at)
        if (h.q, h.r) not in otok.trail:
            raise RulesError(
                f"{other.name} did not pass {table.hex_label(h)} this round: the token marks "
                f"'where during the movement that character will be targeted' ({SRC_TARGET})."
            )
        return tok, otok

    def refusal(self, table: Table) -> str | None:
        self._parts(table)
        return None

    def apply(self, table: Table) -> TableEvent:
        tok, otok = self._parts(table)
        h = hex_of(table, self.at)
        tok.target_mark_on, tok.target_mark_at = otok.id, (h.q, h.r)
        c, other = table.character_of(tok.id), table.character_of(otok.id)
        text = (
            f"{c.name} drops a target token on {table.hex_label(h)}, on {other.name}'s move: "
            f"{c.name}'s shots at {other.name} this round read from there ({SRC_TARGET})"
        )
        table.log(text, "action")
        return TableEvent(text, {"at": list(self.at)})


__all__ = ["TargetToken"]
