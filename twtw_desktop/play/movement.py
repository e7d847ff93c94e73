"""Moves as the tools see them: the cheapest legal path to a hex, its AP cost and the
track action that pays it (the geometry prices, the rules catalogue names it); and
riders, whom their mount carries wherever it goes (``move``, ``run``, ``place``, a
drag in the window, ``set_speed``, a continuous mover's segment): :func:`carry_riders`.
A rider is not moved on its own while mounted (:func:`rider_refusal`); the window's
drag picks up the mount. 000 Continuous Action Movement: the rider pays no AP for the
mount's movement.

Continuous movers on the map (:func:`move_continuous`): a mover on the track (the
``continuous`` action) whose id names a token moves that token its paces of each
segment (AP v2) or continuous step (Phases) straight on — toward its speed's hexside
when it has a speed (``set_speed``), else the way it faces — and stops short of a
wall, the map's edge, ground nobody enters or another figure (house: the pages leave
steering to the Judge, who turns the token or sets its speed)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..errors import RulesError
from ..geometry.movement import TERRAIN_COSTS, cheapest_path
from ..hexgrid import Hex
from ..model.encounter import MAX_PACES, Token
from ..rules.actions import (
    ActionSpec,
    forgo_move,
    move_action,
    phase_move,
    run_action,
    speed_name,
)
from .engagement import after_move

if TYPE_CHECKING:
    from .table import Table, TableView


@dataclass
class MovePlan:
    """A move the Judge is dragging: path, paces, AP, whether the track can pay it."""

    token_id: str
    name: str
    path: list[Hex] = field(default_factory=list)  # start first
    paces: int = 0
    ap: int = 0
    counters: int | None = None
    facing: int | None = None
    run: bool = False
    allowed: bool = False
    reason: str = ""
    breakdown: list[str] = field(default_factory=list)
    action: ActionSpec | None = None
    end_label: str = ""
    #: AP v2: counters still missing for the move; dropping it declares it to be
    #: carried out when they cover it (a standing declaration, ``when_able``)
    short: int = 0
    #: Phases action time: the move by its paces ("Half move", 004 Maneuver), no AP
    move_name: str = ""

    def label(self) -> str:
        """Text next to the cursor while dragging."""
        if not self.path:
            return self.reason or "no way there"
        how = "run" if self.run else "walk"
        head = f"{self.paces} pace{'s' if self.paces != 1 else ''} ({how}) · {self.ap} AP"
        if self.move_name:
            head = f"{self.paces} pace{'s' if self.paces != 1 else ''} · {self.move_name}"
        if self.counters is not None:
            head += f" · {self.counters} on the track"
        lines = [head]
        if self.short:
            lines.append(f"declared: moves when {self.ap} counters are out ({self.short} more)")
        if not self.allowed and self.reason:
            lines.append(self.reason)
        lines += self.breakdown[:4]
        return "\n".join(lines)

    def summary(self) -> str:
        when = f" once {self.short} more counter(s) are out" if self.short else ""
        verb = "ran" if self.run else "moved"
        paces = f"{self.paces} pace{'s' if self.paces != 1 else ''}"
        if self.move_name:
            return f"{self.name} {verb} {paces}: {self.move_name}."
        return f"{self.name} {verb} {paces} for {self.ap} AP{when}."


def occupied_hexes(doc: TableView, except_token: str) -> list[Hex]:
    """Hexes other figures stand in (a rider on the moving mount goes with it)."""
    return [t.at for t in doc.encounter.tokens if t.id != except_token and t.riding != except_token]


# -- riders: a mount carries whoever sits on it ---------------------------------------


def riders(doc: TableView, mount_id: str) -> list[Token]:
    """The tokens riding the token ``mount_id``."""
    return [t for t in doc.encounter.tokens if t.riding == mount_id]


def mount_of(doc: TableView, tok: Token) -> Token | None:
    """The token ``tok`` rides (None: on foot, or its mount is gone from the map)."""
    if not tok.riding:
        return None
    for t in doc.encounter.tokens:
        if t.id == tok.riding:
            return t
    return None


def with_riders(doc: TableView, token_id: str) -> set[str]:
    """A token's id with its riders' (what a move of it changes)."""
    return {token_id, *(t.id for t in riders(doc, token_id))}


def carry_riders(doc: TableView, mount: Token, paces: int = 0) -> list[Token]:
    """Inside a step that moved ``mount``: its riders take its hex, heading and
    speed, and its paces this round (the mount's motion is the rider's for the firer
    movement penalty and the mounted-firer modifier, 000 Modifiers). Returns them."""
    carried = riders(doc, mount.id)
    for r in carried:
        r.hex = mount.hex
        r.facing = mount.facing
        r.velocity = mount.velocity
        r.moved = min(r.moved + paces, MAX_PACES)
        r.running = r.running or mount.running
    return carried


def rider_refusal(doc: TableView, tok: Token) -> str | None:
    """Why a rider is not moved on its own: its mount carries it."""
    mount = mount_of(doc, tok)
    if mount is None:
        return None
    name = doc.character(tok.character_id).name
    horse = doc.character(mount.character_id).name
    return f"{name} rides {horse}: move {horse} (the mount carries the rider), or dismount first."


def plan_move(
    doc: TableView, token_id: str, dest: Hex, *, run: bool = False, forgo: bool = False
) -> MovePlan:
    """Price the cheapest path of a token to ``dest`` for action time (000 Movement).

    Phases action time: the path is searched pace by pace (terrain extras and paid
    turns counted as paces, house) and the move's speed read from its length
    (:func:`~twtw_desktop.rules.actions.phase_move`, 004 Maneuver); it is acted in the
    character's phase, in the phase's move order (the engine says why not)."""
    if doc.in_action and doc.edition.time != "segments":
        if forgo:
            plan = MovePlan(
                token_id=token_id, name=doc.character(doc.token(token_id).character_id).name
            )
            plan.reason = (
                "Forgoing defence is 001's AP-priced move (½ AP a pace); the Phases edition "
                "has no AP: its continuous movement forgoes defence instead (002)."
            )
            return plan
        return _plan_phase_move(doc, token_id, dest, run=run)
    tok = doc.token(token_id)
    ch = doc.character(tok.character_id)
    plan = MovePlan(token_id=token_id, name=ch.name, run=run)
    plan.end_label = doc.hex_label(dest)
    if not doc.map.contains(dest):
        plan.reason = "That is off the map."
        return plan
    rate = ch.run if run else ch.move
    if rate < 1:
        plan.reason = f"{ch.name} cannot {'run' if run else 'walk'}."
        return plan
    counters = doc.ap_available(ch.id)
    plan.counters = counters
    occupied = occupied_hexes(doc, token_id)
    mode: Literal["move", "run"] = "run" if run else "move"
    # search no further than the AP that could ever pay (fast on big maps); the
    # counters first, so an affordable move is found in the smallest search
    bounds: list[int | None] = [None]
    if counters is not None:
        budget, _ = reach_budget(doc, ch.id)
        bounds = [counters, max(budget, counters)] if budget > counters else [counters]
    pc = None
    try:
        for bound in bounds:
            pc = cheapest_path(
                doc.map, doc.walls(), tok.at, tok.facing, dest, rate, occupied, mode, max_ap=bound
            )
            if pc is not None:
                break
    except RulesError as e:
        plan.reason = str(e)
        return plan
    if pc is None:
        other = doc.encounter.token_at(dest)
        if other:
            plan.reason = "Someone already stands there."
        elif counters is not None:  # the search went no further than the round's AP
            plan.reason = (
                f"No way there for the {bounds[-1]} AP {ch.name} can still spend this round "
                "(counters and those still to place), or walls, water or other figures."
            )
        else:
            plan.reason = "No way there (walls, water or other figures)."
        return plan
    plan.path = [tok.at, *pc.hexes]
    plan.paces = pc.paces
    plan.ap = pc.ap
    plan.facing = pc.facing
    plan.breakdown = [f"{label}: {ap} AP" for label, ap, _src in pc.breakdown]
    if pc.paces == 0:
        plan.reason = "That is where the token stands."
        return plan
    make = run_action if run else move_action
    try:
        action = make(ch, pc.paces, pc.terrain_ap + pc.end_turn_ap, turns=pc.turns_paid)
    except RulesError as e:
        plan.reason = str(e)
        return plan
    if action.ap != pc.ap:  # the two sides price a move the same way; keep the map's
        action = action.model_copy(update={"ap": pc.ap, "breakdown": ()})
    if forgo:
        if run:
            plan.reason = "A run does not forgo defence; walk forgoing defence instead (001)."
            return plan
        try:
            action = forgo_move(ch, pc.paces, pc.ap - pc.pace_ap)
        except RulesError as e:
            plan.reason = str(e)
            return plan
        plan.ap = action.ap
        plan.breakdown = [f"{i.label}: {i.ap} AP" for i in action.breakdown]
    plan.action = action
    if doc.edition.time != "segments":  # narrative time: the Judge's hand, free
        plan.allowed = True
        plan.action = None
        return plan
    if counters is None:
        plan.reason = "The action track is not running."
        return plan
    if plan.ap > counters:
        # within the round's AP (the search's bound): declared now, carried out when
        # the counters cover it (000 Action Timing)
        plan.short = plan.ap - counters
    plan.allowed = True
    return plan


def _plan_phase_move(doc: TableView, token_id: str, dest: Hex, *, run: bool = False) -> MovePlan:
    """:func:`plan_move` in Phases action time."""
    tok = doc.token(token_id)
    ch = doc.character(tok.character_id)
    plan = MovePlan(token_id=token_id, name=ch.name, run=run)
    plan.end_label = doc.hex_label(dest)
    if not doc.map.contains(dest):
        plan.reason = "That is off the map."
        return plan
    longest = max(ch.run, ch.move)
    if longest < 1:
        plan.reason = f"{ch.name} cannot move."
        return plan
    try:
        pc = cheapest_path(
            doc.map,
            doc.walls(),
            tok.at,
            tok.facing,
            dest,
            1,  # pace by pace: the AP of this search are paces
            occupied_hexes(doc, token_id),
            "move",
            max_ap=longest,
        )
    except RulesError as e:
        plan.reason = str(e)
        return plan
    if pc is None:
        plan.reason = (
            "Someone already stands there."
            if doc.encounter.token_at(dest)
            else f"No way there within a Full move ({longest} paces, 004 Maneuver), or walls, "
            "water or other figures."
        )
        return plan
    plan.path = [tok.at, *pc.hexes]
    plan.paces = pc.paces
    plan.facing = pc.facing
    if pc.paces == 0:
        plan.reason = "That is where the token stands."
        return plan
    try:
        action = phase_move(ch, pc.paces, pc.ap - pc.paces, run=run)
    except RulesError as e:
        plan.reason = str(e)
        return plan
    plan.action = action
    plan.move_name = f"{action.breakdown[0].label.split(':')[0]} ({speed_name(action.speed)})"
    plan.breakdown = [i.label for i in action.breakdown]
    time = getattr(getattr(doc, "table", doc), "time", None)  # the window's document too
    why = time.why_not_pay(ch.id, action) if time is not None else None
    if why:
        plan.reason = why
        return plan
    plan.allowed = True
    return plan


def reach_budget(doc: TableView, character_id: str) -> tuple[int, int | None]:
    """(AP the reach overlay may spend, counters on the track now or None).

    AP v2 action time: the counters present plus the AP still to come this round (the
    track row's pool). Phases action time: the walking AP of a Full move (the Run
    value, 004 Maneuver's house distances), so the overlay shows about as far as a
    move may go. Narrative time: the character's AP for a round, less the wound
    penalty (000 Wound Effects)."""
    ch = doc.character(character_id)
    if doc.in_action and doc.edition.time != "segments":
        return (-(-max(ch.run, ch.move) // ch.move) if ch.move > 0 else 0), None
    if doc.in_action and doc.edition.time == "segments":
        counters = doc.ap_available(character_id) or 0
        pool = 0
        row = getattr(doc.track, "row", None)
        if callable(row):
            try:
                pool = row(character_id).pool
            except (KeyError, RulesError, AttributeError):
                pool = 0
        return counters + pool, counters
    return max(0, ch.ap - doc.edition.ap_penalty(ch.wound_level)), None


# -- continuous movers on the map ---------------------------------------------------------


def _mover_token(doc: TableView, mover_id: str) -> Token | None:
    """The token a continuous mover names (its token or character id), or None for a
    mover that is not on the map (a train the Judge keeps off it)."""
    for t in doc.encounter.tokens:
        if t.id == mover_id:
            return t
    for t in doc.encounter.tokens:
        if t.character_id == mover_id:
            return t
    return None


def continuous_tokens(doc: TableView) -> set[str]:
    """The tokens the continuous movers on the track can move (with their riders):
    what a clock step may change on the map."""
    track = doc.track
    movers = getattr(getattr(track, "state", None), "movers", ()) or ()
    ids: set[str] = set()
    for m in movers:
        tok = _mover_token(doc, m.mover_id)
        if tok is not None:
            ids |= with_riders(doc, tok.id)
    return ids


def heading(doc: TableView, tok: Token) -> int:
    """The hexside a continuous mover heads toward: its speed's direction (the
    nearest hexside) when it has one, else the way it faces."""
    vx, vy = tok.velocity
    if not vx and not vy:
        return int(tok.facing)
    layout = doc.map.layout()
    angle = math.degrees(math.atan2(-vy, vx)) % 360.0

    def off(f: int) -> float:
        d = abs(layout.facing_angle(f) - angle) % 360.0
        return min(d, 360.0 - d)

    return min(range(6), key=off)


def move_continuous(doc: Table, events: Iterable[Any]) -> list[str]:
    """Inside a clock step: each continuous mover with a token moves its paces of
    this segment (or continuous step) straight on along its heading, carrying its
    riders (000 Continuous Action Movement; 002 Continuous Actions). It stops short
    of a wall, the map's edge, ground nobody enters or another figure; the lines for
    the log say where each went and why it stopped."""
    notes: list[str] = []
    walls = doc.walls()
    for ev in events:
        for mv in getattr(ev, "moves", ()) or ():
            if not mv.paces:
                continue
            tok = _mover_token(doc, mv.mover_id)
            if tok is None:
                continue
            name = doc.character(tok.character_id).name
            f = heading(doc, tok)
            mine = with_riders(doc, tok.id)
            taken = {t.at for t in doc.encounter.tokens if t.id not in mine}
            cur, done, stop = tok.at, 0, ""
            for _ in range(mv.paces):
                nxt = cur.neighbor(f)
                if not doc.map.contains(nxt):
                    stop = "the map's edge"
                elif not TERRAIN_COSTS[doc.map.terrain_at(nxt)].enterable:
                    stop = doc.map.terrain_at(nxt).value.replace("_", " ")
                elif nxt in taken:
                    stop = "another figure"
                else:
                    wall = walls.movement_blocked(cur, nxt)
                    stop = f"a wall ({wall})" if wall else ""
                if stop:
                    break
                cur, done = nxt, done + 1
            if done:
                tok.hex = (cur.q, cur.r)
                tok.facing = f
                tok.moved = min(tok.moved + done, MAX_PACES)
                carried = carry_riders(doc, tok, done)
                line = f"{name} moves on {done} pace(s) to {doc.hex_label(cur)}"
                if carried:
                    line += ", carrying " + ", ".join(
                        doc.character(r.character_id).name for r in carried
                    )
                notes.append(line + " (000/002 continuous movement)")
                notes += after_move(doc, [tok, *carried], paces=done)
            if stop:
                notes.append(f"{name} is stopped by {stop} after {done} of {mv.paces} pace(s)")
    return notes
