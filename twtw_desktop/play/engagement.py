"""Hand-to-hand state kept on the table: engagement, advantage, dominance (000 Hand to
Hand Combat, Breaking Engagement, Advantage, Position in Hand-to-Hand Engagements,
Asserting Dominance, Breaking Engagements When Dominated).

The state lives on the tokens (:class:`~twtw_desktop.model.encounter.Token`:
``engaged_with``, ``held_by`` / ``held_at``, ``closed_in_on``, ``melee_position``,
``melee_height``, ``free_attack_on`` / ``free_attack_round``, ``still_since``), so it
is saved with the encounter, copied by a step's snapshot (undo puts it back), written
to the journal with the step and drawn as a badge on the token. Everything here is
read or written inside a table step; the rules' numbers come from
:mod:`twtw_desktop.rules.combat.melee`.

* **Engagement** (000): a hand-to-hand attack engages the two fighters (the
  ``engage`` action declares it without a blow). It ends with a careful
  ``disengage``, with a successful ``escape`` from partial dominance, or when a
  fighter walks more than a pace away: the foe left behind may then strike at once
  for 1 AP less (the free blow is kept on the foe's token until used or the round
  ends).
* **Advantage** (000 Determining Advantage) is counted afresh for every blow from
  the two fighters' weapons in hand, size, height (mounted against a fighter on foot,
  or the Judge's ``melee_height``), position (the Judge's ``melee_position``),
  armed against unarmed, the optional weapon length (the Rules dialog switch), and
  the others of each side engaged with the foe (ganging up). The winner takes +1:
  to the result attacking, to Defense defending (001 Advantage; 000 gives the count
  but not what it is worth).
* **Dominance** (000 Position): bumps an attacker spends on dominance (and a shove's
  success) raise the hold on the defender one level each, up to full; bumps spent by
  the fighter who is held cancel the hold one for one, and what is left over starts a
  hold of their own (house reading of "cancel advantage gained on a one for one
  basis"). A held fighter's Defense falls by 1 (partial) or 2, whoever attacks them;
  at dominance or full their own blows read one effect row less; the holder at full
  dominance chooses where the blow lands.
* **Weapon length** (optional, 000): a fighter with the shorter weapon who hits the
  torso or head of the longer weapon's wielder has closed in, and the length
  advantage passes to them for the rest of the engagement.

House readings (the pages are silent): an id on a token naming no token any more is
ignored; the Judge's position and height factors stay on the token until the Judge
clears them; a hold ends when the engagement does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..model.encounter import Token
from ..rules.base import HitLocation
from ..rules.character import Character
from ..rules.combat.melee import (
    DOMINANCE_PACES_PER_BUMP,
    DOMINATED_ROW_SHIFT,
    ENGAGED_MANEUVER_MAX_PACES,
    ENGAGEMENT_PACES,
    STOOD_STILL_ROUNDS,
    Dominance,
    Fighter,
    assert_dominance,
    melee_advantage,
    weapon_reach,
)
from ..rules.combat.records import AttackRecord
from ..rules.gear import Weapon

if TYPE_CHECKING:
    from .table import Table

SRC_ENGAGE = "000 Hand to Hand Combat"
SRC_BREAK = "000 Breaking Engagement"
SRC_ADVANTAGE = "000 Determining Advantage (+1: 001 Advantage)"
SRC_POSITION = "000 Position in Hand-to-Hand Engagements"
SRC_DOMINANCE = "000 Asserting Dominance"
SRC_ESCAPE = "000 Breaking Engagements When Dominated"
SRC_LENGTH = "000 Optional Rule: Weapon Length"

#: locations whose hit closes in on a longer weapon (000: "the torso or head")
CLOSING_LOCATIONS = frozenset(
    {HitLocation.HEAD, HitLocation.CHEST, HitLocation.BELLY, HitLocation.VITALS}
)


def level_name(level: int) -> str:
    return {1: "partial dominance", 2: "dominance", 3: "full dominance"}.get(level, "no hold")


# =============================================================================
# Reading the state
# =============================================================================


def _tokens(table: Table) -> dict[str, Token]:
    return {t.id: t for t in table.encounter.tokens}


def foes(table: Table, tok: Token) -> list[Token]:
    """The tokens ``tok`` is engaged with (ids naming no token are skipped)."""
    if not tok.engaged_with:
        return []
    by_id = _tokens(table)
    return [by_id[i] for i in tok.engaged_with if i in by_id]


def in_melee(table: Table, tok: Token) -> bool:
    """Whether a shot at ``tok`` is fired into a melee (001 Unintended Targets and
    Melee: "in physical contact (or within an inch or two) with other characters"):
    the token is engaged with someone, or someone is engaged with it. A bystander
    merely standing in the next hex is no melee; the Judge marks other contact on
    the shot (``target_in_melee``)."""
    if foes(table, tok):
        return True
    return any(tok.id in (t.engaged_with or ()) for t in table.encounter.tokens if t.id != tok.id)


def holder(table: Table, tok: Token) -> Token | None:
    """The token holding ``tok`` in a dominant position, or None."""
    if not tok.held_by or not tok.held_at:
        return None
    return _tokens(table).get(tok.held_by)


def held_level(table: Table, tok: Token) -> int:
    """The level ``tok`` is held at (0 when nobody holds it)."""
    return tok.held_at if holder(table, tok) is not None else 0


def melee_weapon(table: Table, c: Character) -> Weapon | None:
    """The readied hand-to-hand weapon a fighter fights (and blocks) with."""
    for cw in c.weapons:
        w = table.gear.weapons.get(cw.weapon_id)
        if w is not None and cw.readied and w.is_melee:
            return w
    return None


def describe(table: Table, tok: Token) -> list[str]:
    """Lines for the sheet and the attack panel: whom ``tok`` fights and how."""
    c = table.character(tok.character_id)
    out = []
    for f in foes(table, tok):
        out.append(f"{c.name} is engaged with {table.character_of(f.id).name} ({SRC_ENGAGE})")
    h = holder(table, tok)
    if h is not None:
        out.append(
            f"{c.name} is held at {level_name(tok.held_at)} by "
            f"{table.character_of(h.id).name} ({SRC_POSITION})"
        )
    for t in table.encounter.tokens:
        if t.held_by == tok.id and t.held_at:
            out.append(
                f"{c.name} holds {table.character_of(t.id).name} at "
                f"{level_name(t.held_at)} ({SRC_POSITION})"
            )
    if tok.free_attack_on and tok.free_attack_on in _tokens(table) and owes_blow(table, tok):
        out.append(
            f"{c.name} may strike {table.character_of(tok.free_attack_on).name} for 1 AP "
            f"less ({SRC_BREAK})"
        )
    return out


# =============================================================================
# The situation of one blow
# =============================================================================


@dataclass
class MeleeSituation:
    """What the table's hand-to-hand state does to one blow."""

    advantage: Literal["attacker", "defender"] | None = None
    advantage_reasons: list[str] = field(default_factory=list)
    #: the level the defender / the attacker is held at (by anyone)
    defender_held_at: int = 0
    attacker_held_at: int = 0
    #: the level the attacker holds the defender at (full: choose the location)
    attacker_dominance: int = 0
    height: bool = False
    #: the attacker's blow at a foe who walked away (000: 1 AP less)
    free_attack: bool = False
    #: the defender has stood still for two rounds in the fight (000: Defense −1)
    defender_stood_still: bool = False
    lines: list[str] = field(default_factory=list)


def _fighter(
    table: Table, tok: Token, foe: Token, weapon: Weapon | None, skill_spent: int = 0
) -> Fighter:
    c = table.character(tok.character_id)
    return Fighter(
        name=c.name,
        weapon=weapon,
        size=c.size,
        height=tok.melee_height or (tok.mounted and not foe.mounted),
        position=tok.melee_position,
        closed_in=foe.id in tok.closed_in_on,
        skill_spent=skill_spent,
    )


def _allies(table: Table, tok: Token, foe: Token) -> list[Token]:
    """The others on ``tok``'s side engaged with ``foe`` (ganging up, 000)."""
    side = table.character(tok.character_id).side
    return [
        t
        for t in foes(table, foe)
        if t.id != tok.id
        and table.character(t.character_id).side == side
        and t.at.distance(foe.at) <= ENGAGEMENT_PACES
        and not table.character(t.character_id).out_of_action
    ]


def situation(
    table: Table,
    atok: Token,
    dtok: Token,
    attacker_weapon: Weapon | None,
    defender_weapon: Weapon | None,
    skill_spent: int = 0,
) -> MeleeSituation:
    """Advantage, holds and the free blow for ``atok`` striking ``dtok`` now;
    ``skill_spent`` skill levels of the attacker's are spent on advantage (001)."""
    out = MeleeSituation()
    a_side = [_fighter(table, atok, dtok, attacker_weapon, skill_spent)]
    for t in _allies(table, atok, dtok):
        a_side.append(_fighter(table, t, dtok, melee_weapon(table, table.character_of(t.id))))
    d_side = [_fighter(table, dtok, atok, defender_weapon)]
    for t in _allies(table, dtok, atok):
        d_side.append(_fighter(table, t, atok, melee_weapon(table, table.character_of(t.id))))
    adv = melee_advantage(a_side, d_side, table.encounter.options)
    out.advantage = {"a": "attacker", "b": "defender", None: None}[adv.winner]
    out.advantage_reasons = list(adv.reasons)
    out.height = a_side[0].height
    winner = {"attacker": a_side[0].name, "defender": d_side[0].name}.get(out.advantage or "")
    out.lines.append(
        f"advantage {adv.totals[0]} vs {adv.totals[1]}: "
        + (f"{winner} has it, +1" if winner else "neither has it")
        + f" ({SRC_ADVANTAGE}) — "
        + "; ".join(adv.reasons[:-1])
    )
    out.defender_held_at = held_level(table, dtok)
    out.attacker_held_at = held_level(table, atok)
    if dtok.held_by == atok.id:
        out.attacker_dominance = out.defender_held_at
    if out.defender_held_at:
        out.lines.append(
            f"{table.character_of(dtok.id).name} is held at "
            f"{level_name(out.defender_held_at)} ({SRC_POSITION})"
        )
    if out.attacker_held_at:
        weaker = (
            ": their blows read one effect row less"
            if DOMINATED_ROW_SHIFT.get(out.attacker_held_at)
            else ""
        )
        out.lines.append(
            f"{table.character_of(atok.id).name} is held at "
            f"{level_name(out.attacker_held_at)}{weaker} ({SRC_POSITION})"
        )
    if out.attacker_dominance >= Dominance.FULL:
        out.lines.append(
            f"full dominance: the attacker chooses where the blow lands ({SRC_POSITION})"
        )
    out.defender_stood_still = stood_still(table, dtok)
    out.free_attack = free_blow(table, atok, dtok)
    if out.free_attack:
        out.lines.append(
            f"{table.character_of(dtok.id).name} walked out of the engagement: this blow "
            f"costs 1 AP less ({SRC_BREAK})"
        )
    return out


# =============================================================================
# Changing the state (inside a table step)
# =============================================================================


def _round(table: Table) -> int:
    return table.now()[0]


def engage(table: Table, a: Token, b: Token) -> bool:
    """Engage two fighters (True when they were not engaged before); a fighter new
    to the fight starts counting the rounds it stands still from now."""
    new = b.id not in a.engaged_with
    for x, y in ((a, b), (b, a)):
        if y.id not in x.engaged_with:
            x.engaged_with = [*x.engaged_with, y.id]
        if x.still_since is None:
            x.still_since = _round(table)
    return new


def owes_blow(table: Table, tok: Token) -> bool:
    """Whether ``tok`` still has the free blow at a foe who walked off: it is
    struck at once (000 Breaking Engagement), so it lapses with the round."""
    return tok.free_attack_on is not None and tok.free_attack_round == _round(table)


def free_blow(table: Table, atok: Token, dtok: Token) -> bool:
    """Whether ``atok``'s blow at ``dtok`` is the free blow (1 AP less, allowed as
    the foe walks off)."""
    return atok.free_attack_on == dtok.id and owes_blow(table, atok)


def stood_still(table: Table, tok: Token) -> bool:
    """Whether an engaged fighter has not moved for two rounds running (000
    Maneuvering During Engagement): counted in action time from the round they last
    moved or entered the fight."""
    if not table.in_action or tok.still_since is None or not foes(table, tok):
        return False
    since = max(tok.still_since, 1)  # a fight begun in narrative time counts from round 1
    return _round(table) - since >= STOOD_STILL_ROUNDS


def part(a: Token, b: Token) -> None:
    """End the engagement of two fighters, and any hold or closing-in between them."""
    for x, y in ((a, b), (b, a)):
        if y.id in x.engaged_with:
            x.engaged_with = [i for i in x.engaged_with if i != y.id]
        if x.held_by == y.id:
            x.held_by, x.held_at = None, 0
        if y.id in x.closed_in_on:
            x.closed_in_on = [i for i in x.closed_in_on if i != y.id]
        if x.free_attack_on == y.id:
            x.free_attack_on = x.free_attack_round = None
        if not x.engaged_with:
            x.still_since = None


def set_hold(table: Table, holder_tok: Token, held: Token, level: int) -> None:
    """``holder_tok`` holds ``held`` at ``level`` (0 lets go)."""
    if level <= 0:
        if held.held_by == holder_tok.id:
            held.held_by, held.held_at = None, 0
        return
    if holder_tok.held_by == held.id:  # one fighter holds the other, never both
        holder_tok.held_by, holder_tok.held_at = None, 0
    held.held_by, held.held_at = holder_tok.id, min(int(Dominance.FULL), level)


def spend_on_dominance(table: Table, atok: Token, dtok: Token, bumps: int) -> str | None:
    """The attacker's bumps spent on dominance: a hold of the attacker's on the
    defender rises; a hold of the defender's on the attacker is cancelled one for one
    first (000 Asserting Dominance). A line for the log, or None."""
    if bumps <= 0:
        return None
    a_name = table.character_of(atok.id).name
    d_name = table.character_of(dtok.id).name
    left = bumps
    lines = []
    if atok.held_by == dtok.id and atok.held_at:
        change = assert_dominance(atok.held_at, 0, left)
        cancelled = atok.held_at - int(change.level)
        left -= cancelled
        set_hold(table, dtok, atok, int(change.level))
        lines.append(f"{a_name} cancels {cancelled} level(s) of {d_name}'s hold")
    if left > 0:
        current = dtok.held_at if dtok.held_by == atok.id else 0
        change = assert_dominance(current, left)
        set_hold(table, atok, dtok, int(change.level))
        lines.append(f"{a_name} holds {d_name} at {level_name(int(change.level))}")
    lines.append(
        f"{a_name} may carry the fight up to {DOMINANCE_PACES_PER_BUMP * bumps} paces "
        "in a direction of their choice (dominance_move)"
    )
    return "; ".join(lines) + f" ({SRC_DOMINANCE})"


def after_blow(
    table: Table,
    atok: Token,
    dtok: Token,
    record: AttackRecord,
    attacker_weapon: Weapon | None,
    defender_weapon: Weapon | None,
) -> list[str]:
    """Inside the attack's step: the two are engaged, the attacker's free blow is
    used, dominance bumps change the hold, and a shorter weapon hitting torso or
    head closes in (weapon length). Lines for the log."""
    notes = []
    if engage(table, atok, dtok):
        notes.append(
            f"{table.character_of(atok.id).name} and {table.character_of(dtok.id).name} "
            f"are engaged ({SRC_ENGAGE})"
        )
    if atok.free_attack_on == dtok.id:
        atok.free_attack_on = atok.free_attack_round = None
    line = spend_on_dominance(table, atok, dtok, record.dominance_bumps)
    # 000 Asserting Dominance: each bump spent (on a hold, or cancelling the foe's: "They
    # may also include up to 2 hexes (or paces) movement as well") carries the fight
    atok.dominance_paces = DOMINANCE_PACES_PER_BUMP * max(0, record.dominance_bumps)
    if line:
        notes.append(line)
    hit = record.hit.success and not record.blocked
    loc = record.location.location if record.location is not None else None
    if (
        hit
        and loc in CLOSING_LOCATIONS
        and weapon_reach(attacker_weapon) < weapon_reach(defender_weapon)
        and dtok.id not in atok.closed_in_on
    ):
        atok.closed_in_on = [*atok.closed_in_on, dtok.id]
        if table.encounter.options.weapon_length:
            notes.append(
                f"{table.character_of(atok.id).name} has closed in on the longer weapon: "
                f"the length advantage passes to them ({SRC_LENGTH})"
            )
    return notes


def touched_by_move(table: Table, moving: Iterable[str]) -> set[str]:
    """The tokens a move of ``moving`` may change: them and their foes (a foe left
    behind gets the free blow)."""
    by_id = _tokens(table)
    ids = set(moving)
    for tid in list(ids):
        tok = by_id.get(tid)
        if tok is not None:
            ids |= {f.id for f in foes(table, tok)}
    return ids


def after_move(
    table: Table, moved: Iterable[Token], *, paces: int = 0, free_blow: bool = True
) -> list[str]:
    """Inside a move's step (``moved``: the tokens that moved together, a mount and
    its riders; ``paces``: how far). A fighter who now stands more than a pace from a
    foe, or who moved more than a pace even if still beside them, has left the
    engagement (000 Breaking Engagement; Maneuvering During Engagement: one pace at
    most keeps it). With ``free_blow`` (walking away rather than the Judge's hand)
    the foe may strike at once for 1 AP less. A fighter still engaged has moved:
    their standing-still count starts again. Lines for the log."""
    notes = []
    group = list(moved)
    ids = {t.id for t in group}
    for tok in group:
        for f in foes(table, tok):
            if f.id in ids:
                continue
            near = f.at.distance(tok.at) <= ENGAGEMENT_PACES
            if near and (paces <= ENGAGED_MANEUVER_MAX_PACES or not free_blow):
                continue
            part(tok, f)
            if not free_blow:
                continue
            f.free_attack_on, f.free_attack_round = tok.id, _round(table)
            how = "walks out of the fight with" if not near else "circles too far around"
            notes.append(
                f"{table.character_of(tok.id).name} {how} "
                f"{table.character_of(f.id).name}, who may strike at once for 1 AP less "
                f"({SRC_BREAK})"
            )
        if tok.engaged_with and free_blow:
            tok.still_since = _round(table)
    return notes


def move_refusal(table: Table, tok: Token) -> str | None:
    """Why a held fighter may not move (000 Breaking Engagements When Dominated), or an
    entangled one (003 Entanglement)."""
    if tok.entangled_by is not None:
        name = table.character_of(tok.id).name
        return f"{name} is entangled: break free first (the break_free action, 003 Entanglement)."
    level = held_level(table, tok)
    if not level:
        return None
    name = table.character_of(tok.id).name
    h = holder(table, tok)
    assert h is not None
    return (
        f"{name} is held at {level_name(level)} by {table.character_of(h.id).name}: "
        f"escape first (the escape action, {SRC_ESCAPE})."
    )
