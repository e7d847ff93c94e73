"""Covering fire and tactical aiming at the table (002 Continuous Action Example:
Covering Fire, Determining Target Area; 000/001 Tactical Aiming).

* ``covering_fire`` — a character with a readied firearm holding 4 or more rounds
  begins covering an area (hexes the Judge picks) or a target (a token). Phases: a
  Fast (Quick) action taken in the character's phase; declared again at the next
  declaration it goes on through that round (the initiative card's Reflex read
  decides: a CF and the character hesitates, and the covering fire ends).
* ``cover_marker`` — each continuous action phase one of the four target markers:
  the card's wrench is checked against the gun's Rel (a malfunction jams the gun on
  the sheet and ends the covering fire), the location is covered and a round is
  spent. A new location may be named with the marker (the page: "declare an
  intended covering fire location" every phase).
* ``stop_covering_fire`` — the Judge ends it (one undo step).
* ``bravery_check`` — the tactical-aiming check of a character under fire before an
  aimed shot or anything needing concentration: Standard (5) after ranged attacks
  (−1 per shot after the first, −2 per hit), the edition's melee TN after a melee
  attack, none possible after a melee hit; the cover's AV is added. Failing it inside
  a covered area opens a reaction shot for the covering character.
* ``reaction_shot`` — that shot: a snap shot with every standard modifier (the
  attack's own flow) that charges no AP, the covering fire having paid for it.

The state lives in the log (entries of kind ``covering``): every step above writes
the shooter's whole covering state there, so undo, redo, the journal and a saved file
keep it with nothing else to store; :func:`cover_state` reads the latest. After every
table action :func:`watch` (a hook of :meth:`~twtw_desktop.play.table.Table.apply`)
logs who has come under covering fire — a token standing in a covered hex, or the
covered target — once per marker.

House readings (each edition's ``house_values`` names them too):

* AP v2 has no continuous action phases: the round's quarters (segments 1–5, 6–10,
  11–15, 16–20) stand for them, one marker each; beginning costs four snap shots'
  AP with the gun (one per marker, the shots "not well-aimed"), and the covering
  lasts twenty segments, until the character pays for another action, or until the
  gun is empty or fails.
* Phases: it lasts through the round it begins in and until the character acts
  next round, unless declared again (:class:`CoveringFire` at the declaration).
* The target area (002 Determining Target Area is "intentionally vague"): at most
  seven hexes a marker — a hex and the ring around it — inside the gun's field of
  fire when fields of fire are in use.
* "Targeted since the aim began or since the last action" is read as this round:
  each attack at the character logged this round, and each covering fire whose
  covered area holds them counts as one shot at them ("targets for all purposes").
* The Bravery check itself costs nothing: it is made immediately before the action
  it guards.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import RulesError
from ..geometry.fields import in_field_of_fire
from ..hexgrid import Hex
from ..rules import actions as A
from ..rules.base import Speed
from ..rules.combat.aiming import (
    COVERING_MARKERS,
    COVERING_MIN_LOADED,
    AimThreat,
    bravery_tn,
    place_marker,
    tactical_aim_check,
)
from ..rules.combat.aiming import (
    CoveringFire as CoveringRules,
)
from ..rules.combat.ancillary import after_failure
from ..rules.phases import roman
from .actions import Action, Cost, HexRef, Who, _log_event, hex_of, ref_of, register
from .combat_actions import AIM_REFUSALS, CardRef, SnapShot, card_of
from .table import AFTER_ACTION, TableEvent

if TYPE_CHECKING:
    from ..model.encounter import LogEntry, Token
    from ..rules.gear import Weapon
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


def _where(table: Table, hexes: Iterable[HexRef], target: str | None) -> str:
    if target is not None:
        try:
            return table.character_of(target).name
        except KeyError:
            return target
    labels = [table.hex_label(hex_of(table, h)) for h in hexes]
    return ", ".join(labels)


# =============================================================================
# The actions
# =============================================================================


class _Location(Action):
    """An area (``hexes``) or a target (``target``, a token or character id)."""

    hexes: Annotated[tuple[HexRef, ...], Field(max_length=AREA_MAX_HEXES * 4)] = ()
    target: Who | None = None
    page: ClassVar[str] = SRC_COVER

    def target_token(self, table: Table) -> str | None:
        if self.target is None:
            return None
        c, tok = table.actor(self.target)
        if tok is None:
            raise RulesError(f"{c.name} has no token on the map to cover.")
        return tok.id

    def location_refusal(
        self, table: Table, shooter: Token, weapon: Weapon, *, required: bool = True
    ) -> str | None:
        """The area or target checked (002 Determining Target Area; firing arcs)."""
        if self.hexes and self.target is not None:
            return "Cover an area (hexes) or a target (a token), not both."
        if not self.hexes and self.target is None:
            if required:
                return f"Name the location to cover: hexes on the map or a target ({SRC_AREA})."
            return None
        if len(set(self.hexes)) > AREA_MAX_HEXES:
            return (
                f"One marker covers at most {AREA_MAX_HEXES} hexes — a hex and the ring around "
                f"it (house; {SRC_AREA} leaves the size to the Judge)."
            )
        try:
            spots = [hex_of(table, h) for h in self.hexes]
            ttok = self.target_token(table)
        except RulesError as e:
            return str(e)
        if ttok is not None:
            if ttok == shooter.id:
                return "A character cannot cover themselves."
            spots = [table.token(ttok).at]
        if table.encounter.options.fields_of_fire:
            for h in spots:
                if h == shooter.at:
                    continue
                chk = in_field_of_fire(
                    shooter.at,
                    shooter.facing,
                    weapon.field_of_fire,
                    h,
                    arc_edges=table.encounter.options.arc_edges,
                    orientation=table.map.orientation,
                )
                if not chk.inside:
                    return (
                        f"{table.hex_label(h)} is outside the {weapon.field_of_fire}° field of "
                        f"fire of the {weapon.name}: covering fire uses firing arcs ({SRC_COVER}; "
                        "003 Fields of Fire). Turn to face it first."
                    )
        return None


def _gun(table: Table, c: Any, weapon: str | None, slot: int | None) -> tuple[int, Weapon]:
    if slot is not None:
        if slot >= len(c.weapons):
            raise RulesError(f"{c.name} carries no weapon in slot {slot}.")
        cw = c.weapons[slot]
        if weapon is not None and cw.weapon_id != weapon:
            raise RulesError(f"{c.name}'s slot {slot} holds no {weapon!r}.")
        return slot, table.gear.weapon(cw.weapon_id)
    best: tuple[int, Weapon] | None = None
    for i, cw in enumerate(c.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None or not w.is_ranged or not w.capacity:
            continue
        if weapon is not None and cw.weapon_id != weapon:
            continue
        if best is None or (cw.readied and not c.weapons[best[0]].readied):
            best = (i, w)
    if best is None:
        what = repr(weapon) if weapon else "firearm"
        raise RulesError(f"{c.name} carries no {what} to lay down covering fire with.")
    return best


@register
class CoveringFire(_Location):
    """Begin covering fire on an area or a target — or, at the next declaration
    (Phases) or in a later round (AP v2), declare it again to go on (002)."""

    do: Literal["covering_fire"] = "covering_fire"
    who: Who
    weapon: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    slot: Annotated[int, Field(ge=0, le=100)] | None = None
    summary: ClassVar[str] = (
        "cover an area or a target: four target markers, a reaction shot at whoever "
        "fails a Bravery check in it (Phases: Quick; AP v2: house 4 snap shots' AP)"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: covering fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset(
        {"characters", "tokens", "track", "deck", "log"}
    )
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "track", "log"})

    def gun(self, table: Table) -> tuple[int, Weapon]:
        c, _ = self.actor(table)
        return _gun(table, c, self.weapon, self.slot)

    def renewing(self, table: Table) -> CoverState | None:
        """The covering fire this declaration continues (same gun, a later round)."""
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None or ended_why(table, st) is not None:
            return None
        rnd, _ = table.now()
        idx, _w = self.gun(table)
        if st.slot == idx and rnd > st.round:
            return st
        return None

    def spec(self, table: Table) -> A.ActionSpec | None:
        _i, w = self.gun(table)
        snap = w.snap_ap if w.snap_ap is not None else w.normal_ap
        if snap is None:
            raise RulesError(f"The {w.name} cannot be fired.")
        item = A.CostItem(
            label=f"covering fire, {w.name}: {COVERING_MARKERS} snap shots × {snap} AP (house)",
            ap=COVERING_MARKERS * snap,
            source=SRC_COVER,
        )
        return A.ActionSpec(
            kind=A.ActionKind.COVERING_FIRE,
            ap=item.ap,
            weapon_id=w.id,
            weapon_name=w.name,
            speed=Speed.FAST,
            note="covering fire",
            breakdown=(item,),
            source=SRC_COVER,
        )

    def cost(self, table: Table) -> Cost:
        if not table.in_action or table.time is None:
            return Cost()
        spec = self.spec(table)
        assert spec is not None
        if table.time.kind == "phases":
            renew = self.renewing(table) is not None
            why = "declared again for this round" if renew else "a Fast action"
            return Cost(
                speed=spec.speed.value, breakdown=(f"{why} ({SRC_COVER})",), source=SRC_COVER
            )
        return Cost(
            ap=spec.ap,
            breakdown=tuple(f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown),
            source=SRC_COVER,
        )

    def why_not(self, table: Table) -> str | None:
        try:
            return self._refusal(table)
        except RulesError as e:
            return str(e)

    def _refusal(self, table: Table) -> str | None:
        c, tok = self.actor(table)
        if not table.in_action or table.time is None:
            return f"Covering fire is a continuous action of action time ({SRC_COVER}): declare action time first (Ctrl+T)."
        if tok is None:
            return f"{c.name} has no token on the map."
        if c.out_of_action:
            return f"{c.name} is out of action and cannot act (000 Wound Effects)."
        idx, w = self.gun(table)
        cw = c.weapons[idx]
        if not w.is_ranged or not w.capacity:
            return f"Covering fire needs a firearm, not the {w.name} ({SRC_COVER})."
        if cw.failure:
            return f"{c.name}'s {w.name} is {cw.failure}: clear it first (clear_jam)."
        if not cw.readied:
            return f"{c.name}'s {w.name} is not in hand: draw it first ({SRC_COVER})."
        renew = self.renewing(table)
        if renew is None and cw.loaded < COVERING_MIN_LOADED:
            return (
                f"Covering fire needs {COVERING_MIN_LOADED} or more rounds loaded when it "
                f"begins; the {w.name} holds {cw.loaded} ({SRC_COVER}). Reload first."
            )
        st = cover_state(table, c.id)
        if renew is None and st is not None and ended_why(table, st) is None:
            return (
                f"{c.name} is already covering {_where(table, st.hexes, st.target)}: name a new "
                "location with the next marker (cover_marker), or stop it first."
            )
        have_location = renew is not None and (renew.hexes or renew.target)
        why = self.location_refusal(table, tok, w, required=not have_location)
        if why:
            return why
        spec = self.spec(table)
        assert spec is not None
        track = table.track
        if table.time.kind == "phases":
            if renew is not None:
                why = track._refusal(
                    lambda: track._declare(c.id, Speed.FAST, ("covering fire",), False)
                )
                if why:
                    return (
                        "Covering fire goes on when it is declared again at the next "
                        f"declaration (004 Declaration; {SRC_COVER}): {why}"
                    )
                return None
            why = table.time.why_not_pay(c.id, spec)
            return f"Covering fire (a Quick action): {why}" if why else None
        why = table.time.why_not_pay(c.id, spec)
        return f"{spec.describe()}: {why}" if why else None

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        assert tok is not None and table.time is not None
        idx, w = self.gun(table)
        renew = self.renewing(table)
        spec = self.spec(table)
        assert spec is not None
        event: Any = None
        track = table.track
        if table.time.kind == "phases" and renew is not None:
            event = track.declare_speed(c.id, Speed.FAST)
        else:
            event = table.time.pay(c.id, spec)
        rnd, moment = table.now()
        hexes = self.hexes
        target = self.target_token(table)
        if renew is not None and not hexes and target is None:
            hexes, target = renew.hexes, renew.target
        spent = None
        if table.time.kind == "segments":
            spent = table.track.state.rows[c.id].spent
        st = CoverState(
            shooter=c.id,
            token=tok.id,
            weapon=w.id,
            slot=idx,
            hexes=tuple(hexes),
            target=target,
            round=rnd,
            moment=0 if (renew is not None and table.time.kind == "phases") else moment,
            spent=spent,
        )
        where = _where(table, hexes, target)
        if renew is not None:
            text = f"{c.name} goes on covering {where} with the {w.name} this round"
            if table.time.kind == "phases":
                text += " (declared Quick: a CF on the Reflex read and they hesitate)"
        else:
            text = (
                f"{c.name} lays down covering fire with the {w.name} on {where}: a target "
                f"marker each continuous action phase, four in all"
            )
        _write(table, text + f" ({SRC_COVER})", st, event)
        return TableEvent(text, {"covering": st.model_dump(mode="json")})


@register
class CoverMarker(_Location):
    """Place the next target marker: draw for a malfunction, cover the location, spend
    a round (002). ``hexes`` / ``target`` move the covering fire first."""

    do: Literal["cover_marker"] = "cover_marker"
    who: Who
    #: a printed deck's card, typed in
    card: CardRef | None = None
    #: the Judge's call (002): a malfunction found after the shot still covers
    malfunction_after: bool = False
    summary: ClassVar[str] = (
        "a covering fire's target marker this continuous phase: malfunction check, one round"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: covering-fire marker"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"characters", "deck", "log"})

    def touches(self, table: Table) -> dict[str, set[str]] | None:
        c, _ = self.actor(table)
        return {"characters": {c.id}}

    def state(self, table: Table) -> CoverState:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None:
            raise RulesError(f"{c.name} is not laying down covering fire ({SRC_COVER}).")
        return st

    def why_not(self, table: Table) -> str | None:
        try:
            st = self.state(table)
            why = marker_refusal(table, st)
            if why:
                return why
            _c, tok = self.actor(table)
            assert tok is not None
            w = table.gear.weapon(st.weapon)
            have = bool(st.hexes or st.target)
            why = self.location_refusal(table, tok, w, required=not have)
            if why:
                return why
            if self.card is None and table.deck.physical:
                return 'The deck is in physical-card mode: type in the card drawn ("card").'
        except RulesError as e:
            return str(e)
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        st = self.state(table)
        w = table.gear.weapon(st.weapon)
        hexes, target = st.hexes, st.target
        if self.hexes or self.target is not None:
            hexes, target = self.hexes, self.target_token(table)
        deck = table.deck
        discard = deck.discard_pile()
        card = (
            deck.enter_physical(card_of(table, self.card)) if self.card is not None else deck.draw()
        )
        rnd, moment = table.now()
        rules_state = CoveringRules(
            shooter_id=c.id, weapon_id=w.id, markers_left=COVERING_MARKERS - len(st.markers)
        )
        where = _where(table, hexes, target)
        _new, fired, res = place_marker(
            rules_state,
            c,
            w,
            where,
            card,
            discard=discard,
            malfunction_after=self.malfunction_after,
            carried_index=st.slot,
            rel_bonus=0,
        )
        deck.discard(card)
        weapons = list(fired.weapons)
        if res.malfunction.failed:
            weapons[st.slot] = after_failure(weapons[st.slot], res.malfunction)
        c.weapons = weapons
        marker = MarkerRecord(
            round=rnd,
            moment=moment,
            card=card.number,
            covered=res.covered,
            hexes=hexes,
            target=target,
        )
        ended = None
        if res.malfunction.failed:
            ended = f"the {w.name} malfunctioned"
        elif res.ammo_left < 1:
            ended = "the gun is empty"
        new = st.model_copy(
            update={
                "hexes": hexes,
                "target": target,
                "markers": (*st.markers, marker),
                "ended": ended,
            }
        )
        n = len(new.markers)
        if res.covered:
            text = f"{c.name}'s covering fire covers {where} (marker {n} of {COVERING_MARKERS}; card {card.number}; {res.ammo_left} left)"
        else:
            text = f"{c.name}'s {w.name} fails before the shot: {where} is not covered (card {card.number})"
        if ended:
            text += f" — covering fire ends: {ended}"
        _write(table, text + f" ({SRC_COVER})", new, reasons=list(res.reasons), cards=[card.number])
        return TableEvent(text, {"marker": marker.model_dump(mode="json")}, (card.number,))


@register
class StopCoveringFire(Action):
    """The covering character stops (or the Judge ends it)."""

    do: Literal["stop_covering_fire"] = "stop_covering_fire"
    who: Who
    page: ClassVar[str] = SRC_COVER
    summary: ClassVar[str] = "end a character's covering fire"

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: stop covering fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"log"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is None or ended_why(table, st) is not None:
            return f"{c.name} is not laying down covering fire."
        return None

    def apply(self, table: Table) -> TableEvent:
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        assert st is not None
        text = f"{c.name} stops covering fire"
        _write(table, text, st.model_copy(update={"ended": "stopped"}))
        return TableEvent(text)


@register
class BraveryCheck(Action):
    """Tactical aiming under fire: the Bravery check before an aimed shot (or anything
    needing concentration) of a character targeted this round (000/001)."""

    do: Literal["bravery_check"] = "bravery_check"
    who: Who
    #: the AV of the cover the character stayed behind all turn (000/001 Aim and Cover)
    cover_av: Annotated[int, Field(ge=0, le=20)] = 0
    card: CardRef | None = None
    page: ClassVar[str] = SRC_TACTICAL
    summary: ClassVar[str] = (
        "the Bravery check of a character under fire before aiming; failing it in a "
        "covered area opens a reaction shot"
    )

    def label(self, table: Table) -> str:
        return f"{self.actor(table)[0].name}: Bravery check under fire"

    undo_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})
    shown_areas: ClassVar[frozenset[str]] = frozenset({"deck", "log"})

    def why_not(self, table: Table) -> str | None:
        c, _ = self.actor(table)
        if c.out_of_action:
            return f"{c.name} is out of action (000 Wound Effects)."
        threat, _why = threat_for(table, c.id)
        if not threat.any:
            return (
                f"{c.name} has not been targeted this round and is in no covered area: they "
                f"aim as normal, no check ({SRC_TACTICAL} 4)."
            )
        if threat.melee_hit:
            return None
        if self.card is None and table.deck.physical:
            return 'The deck is in physical-card mode: type in the card drawn ("card").'
        return None

    def preview(self, table: Table) -> dict[str, Any]:
        out = super().preview(table)
        c, _ = self.actor(table)
        threat, why = threat_for(table, c.id)
        out["threat"] = why
        if threat.any and not threat.melee_hit:
            tn = bravery_tn(
                c, table.edition, threat, cover_avs=[self.cover_av] if self.cover_av else ()
            )
            out.update(tn=tn.tn, result_modifier=tn.result_modifier, tn_items=tn.reasons())
            out["pool"] = str(c.trait_pool("bravery"))
        return out

    def apply(self, table: Table) -> TableEvent:
        c, tok = self.actor(table)
        threat, why = threat_for(table, c.id)
        deck = table.deck
        taken: list[Any] = []
        card = None
        if not threat.melee_hit:
            card = (
                deck.enter_physical(card_of(table, self.card))
                if self.card is not None
                else deck.draw()
            )
            taken.append(card)

        def more() -> Any:
            nxt = deck.draw()
            taken.append(nxt)
            return nxt

        try:
            check = tactical_aim_check(
                c,
                table.edition,
                threat,
                card,
                cover_avs=[self.cover_av] if self.cover_av else (),
                more=more,
            )
        finally:
            for t in taken:
                deck.discard(t)
        if check.kind == "hit_in_melee":
            text = f"{c.name} was hit hand to hand this round: no aim, any aim is lost ({SRC_TACTICAL})"
        elif check.aim_kept:
            text = f"{c.name} keeps their nerve under fire: Bravery {check.result} vs TN {check.tn.tn if check.tn else '?'} — the aim holds"
        else:
            res = "CF" if check.cf else str(check.result)
            text = (
                f"{c.name}'s nerve breaks under fire: Bravery {res} vs TN "
                f"{check.tn.tn if check.tn else '?'} — aim lost, any shot is a snap shot, no "
                "more aiming this round"
            )
        record = {
            "character_id": c.id,
            "bravery": check.model_dump(mode="json", exclude_none=True),
            "threat": why,
            "cards": [t.number for t in taken],
        }
        table.log(text + f" ({SRC_TACTICAL})", "check", record)
        lines = [text]
        if not check.aim_kept and check.kind != "hit_in_melee" and tok is not None:
            for st in under_fire(table, tok.id):
                shooter = table.character(st.shooter)
                key = f"{rnd_moment(table)}:{st.shooter}:{tok.id}:{len(table.encounter.log)}"
                auto = check.card_number if check.cf else None
                r = Reaction(
                    shooter=st.shooter,
                    shooter_token=st.token,
                    target_token=tok.id,
                    weapon=st.weapon,
                    slot=st.slot,
                    auto_hit_card=auto,
                    key=key,
                )
                if auto is not None:
                    line = (
                        f"Reaction shot: {shooter.name}'s covering fire hits {c.name} automatically "
                        f"(a CF on the Bravery check; resolve it with card {auto})"
                    )
                else:
                    line = (
                        f"Reaction shot: {shooter.name} may snap-shoot {c.name} at once, no AP "
                        "(reaction_shot)"
                    )
                _write(table, line + f" ({SRC_COVER})", st, reaction=r.__dict__)
                lines.append(line)
        return TableEvent(" · ".join(lines), record, tuple(t.number for t in taken))


def recall_card(table: Table, number: int) -> None:
    """Take card ``number`` back off the discard pile to be dealt again: on top of the
    draw pile (the generated deck) or out of the printed discard (typed in again).
    Inside a step that copies the deck, so undo puts it back."""
    deck = table.deck
    st = deck.snapshot()
    if number in st.discard:
        deck.restore(
            st.model_copy(
                update={
                    "discard": tuple(x for x in st.discard if x != number),
                    "draw_pile": (number, *st.draw_pile),
                }
            )
        )
    elif any(c.number == number for c in st.physical_discard):
        keep = tuple(c for c in st.physical_discard if c.number != number)
        deck.restore(st.model_copy(update={"physical_discard": keep}))


def rnd_moment(table: Table) -> str:
    rnd, moment = table.now()
    return f"{rnd}.{moment}"


@register
class ReactionShot(SnapShot):
    """The covering character's snap shot at whoever failed a Bravery check in the
    covered area (002): every standard modifier, no AP (the covering fire paid)."""

    do: Literal["reaction_shot"] = "reaction_shot"  # type: ignore[assignment]
    charge_ap: bool = False
    page: ClassVar[str] = SRC_COVER
    summary: ClassVar[str] = (
        "the covering character's snap shot after a failed Bravery check (no AP)"
    )

    @model_validator(mode="after")
    def _free(self) -> ReactionShot:
        if self.charge_ap:
            raise ValueError("a reaction shot charges no AP (the covering fire paid for it)")
        return self

    def reaction(self, table: Table) -> Reaction:
        c, _ = self.actor(table)
        _tc, ttok = table.actor(self.target)
        for r in pending_reactions(table):
            if r.shooter == c.id and ttok is not None and r.target_token == ttok.id:
                return r
        raise RulesError(
            f"No reaction shot is open for {c.name} at {_tc.name}: it opens when a character "
            f"in the covered area fails a Bravery check ({SRC_COVER})."
        )

    def request_fields(self, table: Table) -> dict[str, Any]:
        out = super().request_fields(table)
        with contextlib.suppress(RulesError):
            out["auto_hit"] = self.reaction(table).auto_hit_card is not None
        return out

    def auto_card(self, table: Table) -> int | None:
        """The Bravery check's CF card an automatic hit is resolved with (None: none)."""
        if self.card is not None:
            return None
        try:
            return self.reaction(table).auto_hit_card
        except RulesError:
            return None

    def cards(self, table: Table) -> tuple[Any, Any, list[Any]]:
        typed, block, more = super().cards(table)
        n = self.auto_card(table)
        if typed is None and n is not None:
            top = table.deck.snapshot().draw_pile[:1]
            if table.deck.physical or top != (n,):
                typed = card_of(table, n)  # a printed card: typed in again
        return typed, block, more

    def card_refusal(self, table: Table, plan: Any) -> str | None:
        if self.auto_card(table) is not None:
            return None  # the CF card is known: 002 "use the drawn card"
        return super().card_refusal(table, plan)

    def cost(self, table: Table) -> Cost:
        return Cost(breakdown=(f"no AP: the covering fire paid for it ({SRC_COVER})",))

    def default_slot(self, table: Table, shooter_token: str) -> int | None:
        try:
            return self.reaction(table).slot
        except RulesError:
            return super().default_slot(table, shooter_token)

    def why_not(self, table: Table) -> str | None:
        try:
            self.reaction(table)
        except RulesError as e:
            return str(e)
        return super().why_not(table)

    def apply(self, table: Table) -> TableEvent:
        r = self.reaction(table)
        n = self.auto_card(table)
        if n is not None:
            recall_card(table, n)
        ev = super().apply(table)
        c, _ = self.actor(table)
        st = cover_state(table, c.id)
        if st is not None:
            _write(
                table,
                f"{c.name}'s reaction shot is taken ({SRC_COVER})",
                st,
                reaction_used=r.key,
            )
        return ev


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


__all__ = [
    "AREA_MAX_HEXES",
    "BraveryCheck",
    "CoverMarker",
    "CoverState",
    "CoveringFire",
    "ReactionShot",
    "StopCoveringFire",
    "active_covers",
    "aim_lost",
    "bravery_due",
    "cover_state",
    "cover_states",
    "covered_hexes",
    "markers_due",
    "pending_reactions",
    "planned_hexes",
    "ref_of",
    "threat_for",
    "under_fire",
]
