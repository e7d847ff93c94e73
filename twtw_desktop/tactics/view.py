"""What one NPC knows: a scratch copy of the table, and the foes it can see.

The planner never reads the table it plans for: it copies the encounter into a
scratch :class:`~twtw_desktop.play.table.Table` (the same public constructor the
``play`` command uses) and asks that copy the rules' questions (``why_not``, the
attack plan, the move plan). Before it plans for one NPC it takes off the scratch
map every foe that NPC cannot see — a token hidden by the Judge, or one whose line
of sight from the NPC is blocked — so nothing it is not allowed to know can shape
the plan: an unseen posse member is neither targeted nor avoided. What the NPC saw
earlier it may remember (:class:`Memory`): the hex where it last saw each foe, which
counts as a threat to take cover from, never as a target.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..geometry.sight import visible
from ..hexgrid import Hex
from ..model.encounter import Token
from ..play.table import Table
from ..rules.character import Character

#: the two sides that fight each other ("neutral" stands apart)
FOES = {"posse": "hombres", "hombres": "posse"}


def scratch_of(table: Table) -> Table:
    """A copy of the table to ask questions of: same map and gear, a deep copy of
    the encounter (without its log) and the clock's state. Asking it changes
    nothing at the real table."""
    table.sync_to_model()
    enc = table.encounter.model_copy(update={"map": None, "log": []}).model_copy(deep=True)
    return Table(enc, table.map, source=table.source, gear=table.gear)


def are_foes(a: Character, b: Character) -> bool:
    return FOES.get(a.side) == b.side


@dataclass
class Memory:
    """Where each NPC last saw each foe: ``{npc id: {foe id: (q, r)}}``. A planner
    kept across rounds (the bench's fights, the window) passes the same one on."""

    seen: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)

    def remember(self, npc: str, foe: str, at: Hex) -> None:
        self.seen.setdefault(npc, {})[foe] = (at.q, at.r)

    def recalled(self, npc: str) -> dict[str, tuple[int, int]]:
        return self.seen.get(npc, {})


@dataclass(frozen=True)
class Sight:
    """The foes one NPC sees now (token ids, in the encounter's order), those it only
    remembers (character id → last hex), and its standing allies."""

    seen: tuple[str, ...]
    remembered: tuple[tuple[str, Hex], ...]
    allies: int


def npc_sight(scratch: Table, character_id: str, memory: Memory | None = None) -> Sight:
    """What the NPC sees from its hex (centre to centre, as the fog reads it)."""
    me, tok = scratch.actor(character_id)
    if tok is None:
        return Sight((), (), 0)
    index = scratch.walls()
    seen: list[str] = []
    seen_ids: set[str] = set()
    allies = 0
    for t in scratch.encounter.tokens:
        if t.id == tok.id:
            continue
        other = scratch.character(t.character_id)
        if other.side == me.side and not other.out_of_action:
            allies += 1
        if not are_foes(me, other) or t.hidden or not scratch.map.contains(t.at):
            continue
        if visible(scratch.map, index, tok.at, t.at):
            seen.append(t.id)
            seen_ids.add(other.id)
            if memory is not None:
                memory.remember(me.id, other.id, t.at)
    remembered: list[tuple[str, Hex]] = []
    if memory is not None:
        for foe, (q, r) in sorted(memory.recalled(me.id).items()):
            if foe not in seen_ids:
                remembered.append((foe, Hex(q, r)))
    return Sight(tuple(seen), tuple(remembered), allies)


@contextmanager
def seeing_only(scratch: Table, character_id: str, sight: Sight) -> Iterator[None]:
    """Inside: the scratch map holds no foe token the NPC does not see (put back on
    leaving), so no question asked of it can reveal one."""
    me, _tok = scratch.actor(character_id)
    tokens = scratch.encounter.tokens
    before: list[Token] = list(tokens)
    keep = set(sight.seen)
    tokens[:] = [
        t for t in before if t.id in keep or not are_foes(me, scratch.character(t.character_id))
    ]
    try:
        yield
    finally:
        tokens[:] = before
