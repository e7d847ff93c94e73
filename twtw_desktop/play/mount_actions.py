"""Getting on and off a horse (or a wagon): ``mount`` and ``dismount``.

A mounted firer takes 000's "Firer is mounted" modifier, used only when it is worse
than the firer-movement penalty (the attack reads ``Token.mounted``). ``mount`` may
name the horse's (or wagon's) token standing next to the rider: the rider then takes
its hex and its speed, so the relative target speed reads the mount's motion.

The rider's token keeps the mount's id (``Token.riding``): wherever the mount goes —
its ``move`` or ``run`` (paid from the mount's own AP; the rider pays nothing, 000
Continuous Action Movement), the Judge's ``place`` or a drag in the window, a new
``set_speed`` — the rider goes with it, with its paces and speed
(:func:`~twtw_desktop.play.movement.carry_riders`); undo takes both back in one step.
A mounted rider is not moved on its own: the window's drag picks up the mount.

House readings (the pages price neither): mounting costs a simple skill action's 4 AP
and dismounting what standing up costs, 2 AP (:data:`~twtw_desktop.rules.actions.MOUNT_AP`,
``DISMOUNT_AP``); a rider who gets down stops moving and stands in the mount's hex
(the Judge drags either figure off it). A mount token may carry several riders (a
wagon).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

from ..errors import RulesError
from ..rules import actions as A
from ..rules.character import Posture
from .action_base import _log_event
from .actions import RuledAction, Who, register
from .table import TableEvent

if TYPE_CHECKING:
    from ..model.encounter import Token
    from .table import Table


class _MountAction(RuledAction):
    page: ClassVar[str] = A.SOURCE_MOUNT

    undo_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "characters", "track", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"tokens", "track", "log"})

    def token(self, table: Table) -> Token:
        c, tok = self.actor(table)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map.")
        return tok


@register
class Mount(_MountAction):
    """Get on a horse or a wagon (``horse``: its token, next to the rider)."""

    do: Literal["mount"] = "mount"
    who: Who
    horse: Who | None = None
    summary: ClassVar[str] = "get on a horse or wagon (house 4 AP): the mounted firer's modifier"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} mounts"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.mount()

    def mount_token(self, table: Table) -> Token | None:
        if self.horse is None:
            return None
        rider = self.token(table)
        horse = table.actor(self.horse)[1]
        if horse is None or horse is rider:
            raise RulesError(f"{self.horse!r} is not another token on the map to mount.")
        return horse

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        tok = self.token(table)
        if tok.mounted:
            return f"{c.name} is mounted already."
        if c.posture is Posture.PRONE or tok.posture is Posture.PRONE:
            return f"{c.name} is prone: stand up first ({A.SOURCE_MOVE})."
        horse = self.mount_token(table)
        if horse is not None and horse.riding:
            return f"{table.character_of(horse.id).name} is riding: mount their mount instead."
        if horse is not None and horse.at.distance(tok.at) > 1:
            return f"The mount stands {horse.at.distance(tok.at)} hexes away; it must be next to {c.name}."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        tok = self.token(table)
        horse = self.mount_token(table)
        _details, event = self.pay(table)
        tok.mounted = True
        text = f"{c.name} mounts"
        if horse is not None:
            tok.riding = horse.id
            tok.hex = horse.hex
            tok.facing = horse.facing
            tok.velocity = horse.velocity
            text += f" {table.character_of(horse.id).name} in {table.hex_label(horse.at)}"
        _log_event(table, text, "move", event)
        return TableEvent(text)


@register
class Dismount(_MountAction):
    """Get down from a horse or a wagon (the rider stops moving)."""

    do: Literal["dismount"] = "dismount"
    who: Who
    summary: ClassVar[str] = "get down from a horse or wagon (house 2 AP)"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name} dismounts"

    def spec(self, table: Table) -> A.ActionSpec | None:
        return A.dismount()

    def refusal(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if not self.token(table).mounted:
            return f"{c.name} is not mounted."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        tok = self.token(table)
        _details, event = self.pay(table)
        tok.mounted = False
        tok.riding = None
        tok.velocity = (0.0, 0.0)
        text = f"{c.name} dismounts"
        _log_event(table, text, "move", event)
        return TableEvent(text)
