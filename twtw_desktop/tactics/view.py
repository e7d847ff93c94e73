"""What one NPC knows: a scratch copy of the table, and the foes it can see.

The planner never reads the table it plans for: it copies the encounter into a
scratch :class:`~twtw_desktop.play.table.Table` (the same public constructor the
``play`` command uses) and asks that copy the rules' questions (``why_not``, the
attack plan, the move plan). Before it plans for one NPC it takes off the scratch
map every foe that NPC cannot see — a token hidden by the Judge, or one whose line
of sight from the NPC is blocked — so nothing it is not allowed to know can shape
the plan: an unseen posse member is neither targeted nor avoided. What the NPC saw
earlier it may remember: the hex where it last saw each foe, from the table's own
record (:class:`~twtw_desktop.play.seen.FoeSightings`, kept after every step and
rebuilt by a replay; the scratch copy takes it), which counts as a threat to take
cover from, never as a target. The window, the ``autopilot`` action, the ``plan``
command and the benchmark's fights all read that one record.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..geometry.sight import visible
from ..hexgrid import Hex
from ..model.encounter import Token
from ..play.seen import FOES
from ..play.table import Table
from ..rules.character import Character


def scratch_of(table: Table, share_walls: bool = False) -> Table:
    """A copy of the table to ask questions of: same map and gear, a deep copy of
    the encounter (without its log) and the clock's state, and the table's memory of
    where each figure last saw each foe. Asking it changes nothing at the real table.

    ``share_walls``: the copy asks the table's own wall index (the same map, read
    only: the planner never changes a wall) instead of building its own — only for
    a copy planned on the table's thread (the index keeps caches that two threads
    must not fill at once)."""
    table.sync_to_model()
    enc = table.encounter.model_copy(update={"map": None, "log": []}).model_copy(deep=True)
    scratch = Table(enc, table.map, source=table.source, gear=table.gear)
    scratch.sight.foes.adopt(table.sight.foes.last_seen(table))
    if share_walls:
        scratch._walls = table.walls()  # the same map object: the same index
    return scratch


def are_foes(a: Character, b: Character) -> bool:
    return FOES.get(a.side) == b.side


@dataclass(frozen=True)
class Sight:
    """The foes one NPC sees now (token ids, in the encounter's order), those it only
    remembers (character id → last hex), and its standing allies."""

    seen: tuple[str, ...]
    remembered: tuple[tuple[str, Hex], ...]
    allies: int


def npc_sight(scratch: Table, character_id: str) -> Sight:
    """What the NPC sees from its hex (centre to centre, as the fog reads it), and
    where it last saw the foes it does not see now (the scratch's copy of the
    table's record; a foe it saw go down is not among them)."""
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
    remembered: list[tuple[str, Hex]] = []
    for foe, (q, r) in sorted(scratch.sight.foes.last.get(me.id, {}).items()):
        if foe not in seen_ids and not scratch.character(foe).out_of_action:
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
