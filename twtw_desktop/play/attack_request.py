"""The attack's request and plan values, and the log queries the planning reads.

* :class:`AttackRequest` — what the Judge asked for (shooter, target, weapon, shot kind,
  defence, spends declared before the draw); :class:`AttackPlan` — the attack before any
  card (TN and AP itemised, situation, the action it declares); :class:`SeriesShot`.
* The firing corridor and the firer's movement read off the track; who is in sight
  (:class:`Geometry`, :func:`out_of_sight`, :func:`the_fight`) is :mod:`.in_sight`'s,
  named here too.
* What this round's log already says: who attacked, dodged or declared a block.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..geometry.corridor import unintended_targets
from ..model import LogEntry
from ..model.encounter import Token
from ..rules.actions import ActionKind, ActionSpec, CostItem, draw_action, tactical_of
from ..rules.base import Pool, Speed
from ..rules.character import CarriedWeapon, Character
from ..rules.combat.ranged import ShotSpec
from ..rules.combat.records import ApBreakdown, TnBreakdown
from ..rules.combat.situation import ShotSituation
from ..rules.gear import Weapon
from .in_sight import Geometry as Geometry
from .in_sight import out_of_sight as out_of_sight
from .in_sight import the_fight as the_fight

if TYPE_CHECKING:
    from .engagement import MeleeSituation
    from .table import Table


Mode = Literal["ranged", "thrown", "melee"]
ShotKind = Literal["snap", "normal", "aimed", "fan"]
Defense = Literal["block", "dodge"]
#: the called-shot keys (001 Called Shots)
CalledKey = Literal["torso", "limb", "head_hand_foot", "eye_heart"]

#: 000 Ancillary Effects: unintended targets are within one pace of the firing path.
CORRIDOR_PACES = 1


def continuous_mover(table: Table, tok: Token) -> bool:
    """Whether the token moves as a continuous action on the track (002: it forgoes its
    defence; the Judge's automated movers — a train — are no character's)."""
    movers = getattr(getattr(table.track, "state", None), "movers", ()) or ()
    return any(
        m.mover_id in (tok.id, tok.character_id) and not getattr(m, "automated", False)
        for m in movers
    )


def forgoes_moving(table: Table, tok: Token) -> bool:
    """Whether the token's character moved forgoing defence this round (001 Movement
    Actions; the AP v2 track keeps it until the round ends)."""
    if table.time is None or not table.in_action:
        return False
    rows = getattr(getattr(table.track, "state", None), "rows", {}) or {}
    row = rows.get(tok.character_id)
    return bool(getattr(row, "forgoing_defence", False))


def corridor(
    table: Table, shooter: Token, target: Token
) -> tuple[tuple[str, ...], bool | None, list[str]]:
    """Unintended-target candidates (token ids, nearest the shooter first), whether
    someone stands in melee with the target, and the reasons — from the map
    geometry's corridor (000/001 Unintended Targets)."""
    res = unintended_targets(
        table.map,
        shooter.at,
        target.at,
        table.encounter.tokens,
        exclude_ids=(shooter.id, target.id),
    )
    return res.ids, res.target_in_melee, list(res.reasons)


def _speed(v: tuple[float, float]) -> float:
    return math.hypot(v[0], v[1])


# =============================================================================
# Planning
# =============================================================================


@dataclass
class AttackRequest:
    """What the Judge chose in the panel."""

    shooter_token: str
    target_token: str
    mode: Mode = "ranged"
    #: index into the shooter's ``weapons`` (None: bare hands, hand to hand only)
    weapon_index: int | None = None
    shot_kind: ShotKind = "snap"
    aims: int = 1
    #: aims taken ahead with the ``aim`` action (already paid on the track)
    prepaid_aims: int = 0
    #: rounds after the first the aim taken ahead was held (003 Procedure)
    aim_held_rounds: int = 0
    #: the target left the field of fire since the aim ahead (003): a snap shot
    target_left_field_of_fire: bool = False
    #: how the aims ahead were read off the map (shown with the situation)
    aim_notes: tuple[str, ...] = ()
    cock_first: bool = False
    #: draw the gun out of the holster as part of the shot ("draw and shoot")
    draw_first: bool = False
    melee_attack: str = "standard"
    careful: bool = False
    kick: bool = False
    point_blank: bool = False
    appearing: bool = False
    called_shot: CalledKey | None = None
    #: the location a called shot names (None: the key's obvious one)
    called_location: str | None = None
    secondary_index: int = 0
    two_weapons: bool = False
    off_hand: bool = False
    #: None: decided from the map (another figure next to the target)
    target_in_melee: bool | None = None
    #: the Judge's call on the firer's movement (None: read off the token this round)
    firer_movement: Literal["still", "walking", "running"] | None = None
    #: the Judge's call on the target's Size (None: the target's sheet)
    target_size: int | None = None
    #: the attacker means to miss (000 Action Sabotage)
    sabotage: bool = False
    #: a held bonus counter spent on this attack (002 Spending the Counter)
    counter: Literal["right_on", "aces", "as_i_planned"] | None = None
    charge_ap: bool = True
    #: a burst weapon's mode (None: its smallest, 000 Burst Fire)
    burst: int | None = None
    #: fan firing: shots at the target, then ``fan_second_shots`` at a second target
    fan_shots: int = 2
    fan_second_target: str | None = None
    fan_second_shots: int = 0
    #: the defender's declared defence against a hand-to-hand attack (000)
    defense: Defense | None = None
    #: hand to hand with what comes to hand: an improvised weapon's gear id (000
    #: Improvised Weapons); used instead of a carried weapon
    improvised: str | None = None
    #: skill levels spent on advantage instead of the result (001 Advantage)
    skill_advantage: int = 0
    block_arm: str = "left_arm"
    #: a burst's hits sent on to a second target (000 Hitting Multiple Targets)
    burst_second_target: str | None = None
    burst_second_hits: int = 0
    #: more targets after the second, each with the hits sent there (a pool with three
    #: successes or more: one other target per success after the first)
    burst_more: tuple[tuple[str, int], ...] = ()
    #: the further attacks of a series from one pool (000 Multiple Attacks), in order:
    #: (target token, "snap" | "normal")
    more_attacks: tuple[tuple[str, str], ...] = ()
    #: covering fire's automatic hit (002: a CF on the target's Bravery check), resolved
    #: with that CF card
    auto_hit: bool = False


@dataclass
class SeriesShot:
    """One shot of a fan-firing series: whom, from where, at what TN."""

    target_token: Token
    target: Character
    situation: ShotSituation
    #: the snap-shot TN before this shot's fan downgrades
    base_tn: TnBreakdown
    #: with them
    tn: TnBreakdown


@dataclass
class AttackPlan:
    """Everything known before the card is drawn."""

    request: AttackRequest
    shooter: Character
    target: Character
    shooter_token: Token
    target_token: Token
    weapon: Weapon | None
    carried: CarriedWeapon | None
    distance: int
    pool: Pool = field(default_factory=lambda: Pool(count=1, die=6))
    tn: TnBreakdown = None  # type: ignore[assignment]
    ap: ApBreakdown = field(default_factory=lambda: ApBreakdown.build([]))
    spec: ActionSpec = None  # type: ignore[assignment]
    situation: ShotSituation | None = None
    shot: Any = None
    cover: Any = None
    geometry: list[str] = field(default_factory=list)
    #: the lines among ``geometry`` for attacks past the skill level: they miss
    #: automatically, paying their AP (000 Multiple Attacks)
    automatic_misses: list[str] = field(default_factory=list)
    #: the burst fired (burst weapons), rounds used by the shot
    burst: int | None = None
    #: a fan-firing series (:class:`~twtw_desktop.rules.combat.ranged.FanPlan`)
    fan: Any = None
    series: list[SeriesShot] = field(default_factory=list)
    #: the defender's block or dodge, charged to the defender
    defender_ap: ApBreakdown | None = None
    #: the weapon the defender blocks with (None: bare hands)
    block_weapon: Weapon | None = None
    #: hand to hand: advantage, holds and the free blow from the table's state
    #: (:class:`~twtw_desktop.play.engagement.MeleeSituation`)
    melee: MeleeSituation | None = None
    #: the attacker's stowed, fully loaded guns (000 Carrying Loaded Weapons)
    discharge: dict[int, Weapon] = field(default_factory=dict)
    #: Phases fan: who a bump may add as a secondary target after the draw (003),
    #: token id → (character, the situation of a shot at them)
    fan_secondary: dict[str, tuple[Character, ShotSituation]] = field(default_factory=dict)
    #: a burst's second target (000 Hitting Multiple Targets): token, character,
    #: the situation of a shot at them, and the hits the Judge wants sent there
    burst_others: list[tuple[Token, Character, ShotSituation, int]] = field(default_factory=list)
    #: a series of attacks from one pool (000 Multiple Attacks): each attack's shot
    #: and the weapon as the attacks before it leave it; ``series`` has the rest
    multi: list[tuple[Any, CarriedWeapon]] | None = None

    @property
    def mode(self) -> Mode:
        return self.request.mode

    @property
    def rounds(self) -> int:
        """Rounds the attack takes from the gun."""
        if self.fan is not None:
            return self.fan.shots
        if self.multi is not None:
            return len(self.multi)
        return self.burst or 1


def _shot_spec(
    plan_req: AttackRequest, weapon: Weapon, thrown: bool, shooter: Character
) -> ShotSpec:
    kind = plan_req.shot_kind
    if kind == "fan":
        return ShotSpec(kind="snap", fan=True)
    aims = plan_req.aims if kind == "aimed" else 0
    draw = plan_req.draw_first and not thrown
    return ShotSpec(
        kind=kind,
        aims=aims,
        cock_first=plan_req.cock_first,
        thrown=thrown,
        draw_first=draw,
        draw_ap=draw_action(weapon, shooter.quick_draw).ap if draw else 0,
    )


def _action_spec(
    kind: ActionKind,
    ap: ApBreakdown,
    speed: Speed,
    weapon: Weapon | None,
    target_cids: Sequence[str],
    aims: int = 0,
) -> ActionSpec:
    return ActionSpec(
        kind=kind,
        ap=ap.total,
        weapon_id=weapon.id if weapon else None,
        weapon_name=weapon.name if weapon else "",
        target_ids=tuple(dict.fromkeys(target_cids)),
        aims=aims,
        speed=speed,
        tactical=tactical_of(weapon, kind, aims),
        breakdown=tuple(CostItem(label=m.label, ap=m.value, source=m.source) for m in ap.items),
        source=ap.items[0].source if ap.items else "",
    )


def _logged_this_round(table: Table, found: Callable[[Any], bool]) -> bool:
    """Whether a log entry of this round (action time only) passes ``found``."""
    if not table.in_action:
        return False
    rnd, _seg = table.now()
    for entry in reversed(table.encounter.log):
        if entry.round != rnd:
            break
        if found(entry):
            return True
    return False


def attacked_this_round(table: Table, character_id: str) -> bool:
    """Whether the character has made an attack this round (action time only): a
    dodge is refused then (000 Hand to Hand Combat: active defence, no attacks)."""

    def attacked(entry: LogEntry) -> bool:
        rec = (entry.detail or {}).get("record") if entry.kind == "attack" else None
        return isinstance(rec, dict) and rec.get("attacker_id") == character_id

    return _logged_this_round(table, attacked)


def dodging_this_round(table: Table, character_id: str) -> bool:
    """Whether the character already declared a dodge this round (action time only;
    000 Hand to Hand Combat: one dodge covers every attack from its front) — with an
    attack, or on its own (the ``dodge`` action)."""
    return _logged_this_round(
        table,
        lambda entry: (
            entry.kind in ("attack", "defense")
            and (entry.detail or {}).get("dodge_by") == character_id
        ),
    )


def blocking_declared(table: Table, character_id: str) -> bool:
    """Whether the character declared a block this round (the ``block`` action) that
    no hand-to-hand attack has met yet: it meets the next one (000 Hand to Hand
    Combat: a block is declared against a blow and tested against its result)."""
    if not table.in_action:
        return False
    rnd, _seg = table.now()
    for entry in reversed(table.encounter.log):
        if entry.round != rnd:
            break
        if (entry.detail or {}).get("block_by") != character_id:
            continue
        return entry.kind == "defense"
    return False


def display_name(table: Table, token_or_character_id: str) -> str:
    """A name for a token id or a character id (the id itself when neither)."""
    try:
        return table.character_of(token_or_character_id).name
    except KeyError:
        return _name(table, token_or_character_id)


def _name(table: Table, cid: str) -> str:
    try:
        return table.character(cid).name
    except KeyError:
        return cid
