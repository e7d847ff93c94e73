"""Covering fire's state and its watch (002 Continuous Action Example: Covering Fire;
000/001 Tactical Aiming): what the log says of each shooter's covering (entries of
kind ``covering``, the latest wins: :func:`cover_state`), the hexes covered and
planned, who is under fire, the markers and reaction shots due, the tactical-aiming
threat and the Bravery check owed, and :func:`watch`, the after-action hook that logs
who has come under covering fire. The actions that write this state, and the house
readings, are in :mod:`.cover_actions`; the check and the reaction shot in
:mod:`.cover_reactions`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from ..errors import RulesError
from ..hexgrid import Hex
from ..rules.combat.aiming import (
    COVERING_MARKERS,
    AimThreat,
)
from ..rules.phases import roman
from .action_base import _log_event
from .actions import HexRef, hex_of
from .combat_actions import AIM_REFUSALS
from .table import AFTER_ACTION

if TYPE_CHECKING:
    from ..model.encounter import LogEntry
    from .table import Table

SRC_COVER = "002 Continuous Action Example: Covering Fire"
SRC_AREA = "002 Determining Target Area"
SRC_TACTICAL = "000/001 Tactical Aiming"
#: the log entries that carry covering fire's state
LOG_KIND = "covering"
#: house (002 Determining Target Area): hexes one marker may cover
AREA_MAX_HEXES = 7
#: house (AP v2): segments of a round standing for one continuous action phase
SEGMENTS_PER_MARKER = 5


# =============================================================================
# The state, read from the log
# =============================================================================


class MarkerRecord(BaseModel):
    """One target marker (002): where, when, the card and whether it covered."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    round: int
    moment: int
    card: int | None = None
    covered: bool
    hexes: tuple[HexRef, ...] = ()
    target: str | None = None


class CoverState(BaseModel):
    """A character's covering fire as the latest log entry has it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    shooter: str
    token: str
    weapon: str
    slot: int
    #: where the next marker goes: hexes ([col, row]) or a target token
    hexes: tuple[HexRef, ...] = ()
    target: str | None = None
    #: the round and the segment (AP v2) or phase (Phases) it began or was renewed
    round: int
    moment: int
    #: AP v2: the AP the character had paid this round once it began
    spent: int | None = None
    #: markers placed since it began (or was declared again)
    markers: tuple[MarkerRecord, ...] = ()
    #: why it ended (None: it goes on)
    ended: str | None = None

    def markers_in(self, rnd: int) -> int:
        return sum(1 for m in self.markers if m.round == rnd)


@dataclass
class _Scan:
    """The covering entries of one table's log, kept up to date as it grows."""

    log_id: int = 0
    length: int = 0
    last: Any = None
    found: list[tuple[int, Any]] = field(default_factory=list)
    #: the covering state each found entry carries (None: none), parsed once
    states: list[CoverState | None] = field(default_factory=list)


def _parse_state(e: LogEntry) -> CoverState | None:
    data = (e.detail or {}).get("covering")
    if not isinstance(data, dict):
        return None
    try:
        return CoverState.model_validate(data)
    except ValueError:
        return None  # a hand-edited log line: not ours to read


_SCANS: weakref.WeakKeyDictionary[Any, _Scan] = weakref.WeakKeyDictionary()


def _entries(table: Table) -> list[tuple[int, LogEntry]]:
    """(index, entry) of every ``covering`` log entry, oldest first. Scans only what
    the log gained since the last call; anything else (undo, a file reloaded) rescans."""
    log = table.encounter.log
    sc = _SCANS.get(table)
    n = len(log)
    fresh = (
        sc is None
        or sc.log_id != id(log)
        or sc.length > n
        or (sc.length and log[sc.length - 1] is not sc.last)
    )
    if fresh:
        sc = _Scan(log_id=id(log))
        _SCANS[table] = sc
    assert sc is not None
    for i in range(sc.length, n):
        e = log[i]
        if e.kind == LOG_KIND:
            sc.found.append((i, e))
            sc.states.append(_parse_state(e))
    sc.length = n
    sc.last = log[n - 1] if n else None
    return sc.found


def cover_states(table: Table) -> dict[str, CoverState]:
    """Every character's latest covering state, by character id (ended ones too)."""
    _entries(table)
    out: dict[str, CoverState] = {}
    for st in _SCANS[table].states:
        if st is not None:
            out[st.shooter] = st
    return out


def cover_state(table: Table, character_id: str) -> CoverState | None:
    return cover_states(table).get(character_id)


def ended_why(table: Table, st: CoverState) -> str | None:
    """Why ``st`` is over now (None: it goes on)."""
    if st.ended:
        return st.ended
    if not table.in_action or table.time is None:
        return "action time is over"
    try:
        c = table.character(st.shooter)
        tok = table.token(st.token)
    except (KeyError, RulesError):
        return "the shooter has left the map"
    if tok.character_id != c.id:
        return "the shooter has left the map"
    if c.out_of_action:
        return f"{c.name} is out of action"
    if st.slot >= len(c.weapons) or c.weapons[st.slot].weapon_id != st.weapon:
        return f"{c.name} no longer holds that gun"
    cw = c.weapons[st.slot]
    if cw.loaded < 1:
        return "the gun is empty"
    if cw.failure:
        return f"the gun is {cw.failure}"
    if not cw.readied:
        return "the gun is put away"
    rnd, moment = table.now()
    if table.time.kind == "phases":
        if rnd > st.round + 1:
            return f"{c.name}'s next action has come"
        try:
            row = table.track.row(c.id)
        except (KeyError, RulesError):
            return f"{c.name} has no row in the round"
        if rnd == st.round + 1 and row.acted:
            return f"{c.name} has taken their next action"
        if rnd == st.round and st.moment == 0 and row.hesitated and not row.bonus_next_round:
            return f"a CF on {c.name}'s Reflex: they hesitate ({SRC_COVER})"
        return None
    if (rnd, moment) >= (st.round + 1, st.moment) or rnd > st.round + 1:
        return "a full round of covering fire is over (house, AP v2)"
    rows = table.track.state.rows
    row = rows.get(c.id)
    if row is not None and st.spent is not None:
        paid = row.spent if rnd == st.round else row.spent + st.spent
        if paid > st.spent:
            return f"{c.name} has paid for another action"
    return None


def active_covers(table: Table) -> list[CoverState]:
    """The covering fire going on now."""
    if not table.in_action:
        return []
    return [st for st in cover_states(table).values() if ended_why(table, st) is None]


def marker_hexes(table: Table, m: MarkerRecord) -> set[Hex]:
    """The hexes a marker covers now (a covered target's hex follows the target)."""
    if m.target is not None:
        try:
            return {table.token(m.target).at}
        except KeyError:
            return set()
    return {hex_of(table, ref) for ref in m.hexes}


def covered_hexes(table: Table, st: CoverState) -> set[Hex]:
    """Every hex ``st``'s markers cover now (002: "that location has been covered")."""
    out: set[Hex] = set()
    for m in st.markers:
        if m.covered:
            out |= marker_hexes(table, m)
    return out


def planned_hexes(table: Table, st: CoverState) -> set[Hex]:
    """Where the next marker goes."""
    return marker_hexes(
        table, MarkerRecord(round=0, moment=0, covered=True, hexes=st.hexes, target=st.target)
    )


def under_fire(table: Table, token_id: str) -> list[CoverState]:
    """The covering fire whose covered area holds ``token_id`` (never the shooter)."""
    try:
        tok = table.token(token_id)
    except KeyError:
        return []
    out = []
    for st in active_covers(table):
        if st.token == token_id or tok.character_id == st.shooter:
            continue
        if tok.at in covered_hexes(table, st):
            out.append(st)
    return out


def marker_refusal(table: Table, st: CoverState) -> str | None:
    """Why no marker can be placed for ``st`` now (None: one is due)."""
    why = ended_why(table, st)
    if why:
        return f"The covering fire has ended: {why}."
    rnd, moment = table.now()
    if len(st.markers) >= COVERING_MARKERS:
        return (
            f"All four target markers of this covering fire are placed ({SRC_COVER}): "
            "declare it again next round to go on."
        )
    if table.time is not None and table.time.kind == "phases":
        stage = str(getattr(table.track.state.stage, "value", table.track.state.stage))
        if stage != "acting" or moment < 1:
            return f"Markers go down in the continuous action phases, once the phases run ({SRC_COVER})."
        if any(m.round == rnd and m.moment == moment for m in st.markers):
            return (
                f"Phase {roman(moment)}'s marker is placed; the next goes with the next continuous "
                f"action phase ({SRC_COVER})."
            )
        return None
    quarter = _quarter(moment)
    if any(m.round == rnd and _quarter(m.moment) == quarter for m in st.markers):
        lo = (quarter - 1) * SEGMENTS_PER_MARKER + 1
        return (
            f"This quarter's marker (segments {lo}–{lo + SEGMENTS_PER_MARKER - 1}) is placed; "
            f"the next comes with segment {lo + SEGMENTS_PER_MARKER} (house, AP v2; {SRC_COVER})."
        )
    return None


def _quarter(segment: int) -> int:
    return max(0, segment - 1) // SEGMENTS_PER_MARKER + 1


def markers_due(table: Table) -> list[CoverState]:
    """Covering fire with a marker to place now."""
    return [st for st in active_covers(table) if marker_refusal(table, st) is None]


@dataclass(frozen=True)
class Reaction:
    """A reaction shot open to a covering character (002)."""

    shooter: str
    shooter_token: str
    target_token: str
    weapon: str
    slot: int
    #: a CF on the Bravery check: hit automatically, resolved with this card
    auto_hit_card: int | None
    key: str


def pending_reactions(table: Table) -> list[Reaction]:
    """Reaction shots opened this round and not yet taken."""
    if not table.in_action:
        return []
    rnd, _ = table.now()
    opened: dict[str, Reaction] = {}
    for _i, e in _entries(table):
        if e.round != rnd:
            continue
        d = e.detail or {}
        r = d.get("reaction")
        if isinstance(r, dict):
            try:
                opened[r["key"]] = Reaction(**r)
            except (KeyError, TypeError):
                continue
        used = d.get("reaction_used")
        if isinstance(used, str):
            opened.pop(used, None)
    live = {st.shooter for st in active_covers(table)}
    return [r for r in opened.values() if r.shooter in live]


def threat_for(table: Table, character_id: str) -> tuple[AimThreat, list[str]]:
    """What the character suffered this round, read off the log, and why (house:
    "since the aim began or the last action" read as this round)."""
    shots = hits = 0
    melee_attacked = melee_hit = False
    reasons: list[str] = []
    if table.in_action:
        rnd, _ = table.now()
        for e in reversed(table.encounter.log):
            if e.round != rnd:
                break
            if e.kind != "attack" or not e.detail:
                continue
            rec = e.detail.get("record") or {}
            if rec.get("target_id") != character_id or rec.get("attacker_id") == character_id:
                continue
            hit = bool((rec.get("hit") or {}).get("success")) and not rec.get("blocked")
            if rec.get("attack_kind") == "melee":
                melee_attacked = True
                melee_hit = melee_hit or hit
            else:
                shots += 1
                hits += 1 if hit else 0
    if shots or hits:
        reasons.append(f"shot at {shots} time(s) this round, hit {hits} time(s)")
    tok = table.token_for(character_id)
    if tok is not None:
        for st in under_fire(table, tok.id):
            shots += 1
            reasons.append(
                f"in {table.character(st.shooter).name}'s covered area: a target for all "
                f"purposes ({SRC_COVER})"
            )
    if melee_attacked:
        reasons.append("attacked hand to hand this round" + (", and hit" if melee_hit else ""))
    threat = AimThreat(
        ranged_shots=shots, ranged_hits=hits, melee_attacked=melee_attacked, melee_hit=melee_hit
    )
    return threat, reasons


def _this_round(table: Table) -> Iterable[LogEntry]:
    """The log entries of the current round, newest first."""
    if not table.in_action:
        return
    rnd, _ = table.now()
    for e in reversed(table.encounter.log):
        if e.round != rnd:
            return
        yield e


def _bravery_of(e: LogEntry, character_id: str) -> dict | None:
    d = e.detail or {}
    if e.kind == "check" and d.get("character_id") == character_id and "bravery" in d:
        return d["bravery"]
    return None


def bravery_due(table: Table, character_id: str) -> str | None:
    """Why the character must make the Bravery check before aiming now: targeted this
    round (or standing in a covered area) since their last check. None: no check due."""
    threat, why = threat_for(table, character_id)
    if not threat.any:
        return None
    for e in _this_round(table):
        if _bravery_of(e, character_id) is not None:
            return None
        rec = (e.detail or {}).get("record") or {}
        if e.kind == "attack" and rec.get("target_id") == character_id:
            break
    return f"Under fire ({'; '.join(why)}): a Bravery check before aiming ({SRC_TACTICAL})."


def aim_lost(table: Table, character_id: str) -> bool:
    """A failed Bravery check this round: the aim is lost, any shot is a snap shot and
    no more aiming this round (000/001 Tactical Aiming)."""
    for e in _this_round(table):
        b = _bravery_of(e, character_id)
        if b is not None and b.get("no_more_aim_this_round"):
            return True
    return False


def under_fire_refusal(table: Table, character_id: str) -> str | None:
    """Why the character may not aim now (000/001 Tactical Aiming): a Bravery check is
    owed, or a failed one has ended aiming for the round (any shot is a snap shot)."""
    if aim_lost(table, character_id):
        name = table.character(character_id).name
        return (
            f"{name} failed the Bravery check this round: no more aiming this round, only "
            f"a snap shot ({SRC_TACTICAL})."
        )
    return bravery_due(table, character_id)


AIM_REFUSALS.append(under_fire_refusal)


def _write(table: Table, text: str, st: CoverState, event: Any = None, **extra: Any) -> None:
    detail = {"covering": st.model_dump(mode="json", exclude_none=True), **extra}
    _log_event(table, text, LOG_KIND, event, detail)


# =============================================================================
# The watch: who has come under covering fire
# =============================================================================


def _announced(table: Table) -> set[tuple[str, str, int]]:
    """(shooter, token, markers) already announced as under fire."""
    out: set[tuple[str, str, int]] = set()
    for _i, e in _entries(table):
        u = (e.detail or {}).get("under_fire")
        if isinstance(u, dict):
            out.add((str(u.get("shooter")), str(u.get("token")), int(u.get("markers", 0))))
    return out


#: the actions that aim (000: "normal or aimed shots may require a bravery check")
#: a shot that may have been owed a check without being refused: an unaimed normal shot
#: (an aim, or a shot counting aims, waits for the check: AIM_REFUSALS)
AIMING_ACTIONS = frozenset({"normal_shot"})


def _aimed_unchecked(table: Table, action: Any) -> None:
    """An unaimed normal shot by a character who owed a Bravery check: say so (it is
    not refused, as an aim is; the Judge may undo and check)."""
    if getattr(action, "do", None) not in AIMING_ACTIONS:
        return
    who = getattr(action, "who", None)
    if not isinstance(who, str):
        return
    try:
        c, _tok = table.actor(who)
    except RulesError:
        return
    # the shot's own log lines are the newest: read the threat as it was before them
    if aim_lost(table, c.id):
        why = "their aim was lost to a failed Bravery check this round: only a snap shot"
    else:
        before = _before_last_step_threat(table, c.id)
        if before is None:
            return
        why = f"they were under fire ({before}) and made no Bravery check"
    table.log(
        f"{c.name} aimed although {why} ({SRC_TACTICAL}): undo and make the check first "
        "if the table plays it",
        "check",
        {"character_id": c.id, "tactical_aiming": "unchecked"},
    )


def _before_last_step_threat(table: Table, character_id: str) -> str | None:
    """Whether a Bravery check was due just before the running step's own lines."""
    step = getattr(table, "_running", None)
    cut = step.before.log_len if step is not None else len(table.encounter.log)
    rnd, _ = table.now()
    shots = 0
    for e in reversed(table.encounter.log[:cut]):
        if e.round != rnd:
            break
        if _bravery_of(e, character_id) is not None:
            return None
        rec = (e.detail or {}).get("record") or {}
        mine = rec.get("target_id") == character_id != rec.get("attacker_id")
        if e.kind == "attack" and mine:
            shots += 1
    tok = table.token_for(character_id)
    covered = bool(tok is not None and under_fire(table, tok.id))
    if not shots and not covered:
        return None
    bits = [f"shot at {shots} time(s)"] if shots else []
    if covered:
        bits.append("in a covered area")
    return ", ".join(bits)


def watch(table: Table, action: Any, event: Any) -> None:
    """After an action (inside its step): log each token newly under covering fire —
    standing in a covered hex, or the covered target — once per marker placed; and
    an aim taken by a character who owed a Bravery check."""
    if not table.in_action:
        return
    _aimed_unchecked(table, action)
    covers = active_covers(table)
    if not covers:
        return
    seen = _announced(table)
    for st in covers:
        hexes = covered_hexes(table, st)
        if not hexes:
            continue
        shooter = table.character(st.shooter)
        n = len(st.markers)
        for tok in table.encounter.tokens:
            if tok.id == st.token or tok.character_id == st.shooter or tok.at not in hexes:
                continue
            if (st.shooter, tok.id, n) in seen:
                continue
            name = table.character_of(tok.id).name
            text = (
                f"{name} is under {shooter.name}'s covering fire in {table.hex_label(tok.at)}: an "
                "aimed shot or anything needing concentration takes a Bravery check first "
                f"(bravery_check); fail it and {shooter.name} snap-shoots at once ({SRC_COVER})"
            )
            _write(
                table,
                text,
                st,
                under_fire={"shooter": st.shooter, "token": tok.id, "markers": n},
            )
            seen.add((st.shooter, tok.id, n))


if watch not in AFTER_ACTION:
    AFTER_ACTION.append(watch)
