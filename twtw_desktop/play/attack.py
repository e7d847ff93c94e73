"""The attack flow behind the attack panel: plan, preview, apply.

* :func:`plan_attack` — the attack before any card: the situation read off the map
  (range, cover line, visibility, relative speed, firer movement, unintended-target
  candidates, the defender's dodge front), the TN with every modifier, the AP cost
  (the defender's block or dodge itemised apart) and the action it declares. A fan
  firing series plans every shot: its target, its TN with its downgrades.
* :func:`preview` — draw the card on a *copy* of the deck and resolve with the
  Judge's bump spends. Nothing in the table changes, so the Judge can try spends
  freely; the real deck will deal the same cards because it is in the same state.
* :func:`write_attack` — inside one table step (the attack actions' ``apply`` in
  :mod:`.combat_actions`): draw for real, resolve, write wounds / Conc / stun to
  every sheet the resolution touched (targets, everyone in a blast, the attacker
  whose holstered gun went off), fire the shooter's weapon, lower ablated covers'
  AV on the map, spend the AP on the track (action time) and log one summary line
  per shot with the whole record as its detail. The table's undo puts the cards
  back.

Decisions (the pages leave these to the table):

* The default target is the nearest token of another side the shooter can see, so a
  routine shot needs no target click at all; the Judge can pick another on the map.
* Unintended-target candidates are the other tokens within one pace of the line of
  fire (000 Ancillary Effects: "within one meter of the firing path"), nearest to the
  shooter first (the geometry's corridor when it is there).
* A shot already declared on the track this round (through the track panel) is
  used instead of paying again; the log line keeps which declaration it used, so
  the next attack does not use it twice (and undo gives it back).
* A defender's block or dodge is charged to the defender's counters on the track;
  when the track refuses (too few counters) the attack still resolves and the log
  says the defence was not paid for — the Judge decides (000 says "don't forget to
  pay the AP").
* A block is made with the defender's readied hand-to-hand weapon if there is one,
  else bare-handed; the block card is drawn only when the attack would hit (000:
  the test is against the attack's result).
* A fan-firing series at two targets fires the shots at the first target, then at
  the second (one target switch).
* Phases fan (003 Secondary Targets): the targets a bump may add after the draw are
  the other tokens within one pace of the first target or of the line of fire (the
  page sends the reader to the unintended-target rule, and its example asks whether
  the two targets stand within a meter of each other).
* With a printed deck (physical-card mode) a block's test card is typed in like the
  attack's; until it is, the block stays open and Apply is refused.
* A dodge covers every attack from its front for the rest of the round (000: it
  works against all attacks from a direction), so its 3 AP are charged once a round;
  a fighter who dodged makes no attack that round (000: active defence).
* The dodge is read as a hand-to-hand defence (it sits in 000's Hand to Hand Combat
  section beside the block); the ``dodge_vs_ranged`` switch lets it downgrade shots
  and throws from the same 120° front too (see
  :func:`~twtw_desktop.rules.combat.melee.dodge_allowed`). A shot is never blocked.
* With a printed deck every further card the resolution needs (a stun check, each
  fan shot's hit location after the first, an exceptional cell or increased effect
  reading on, the card-hacking draws, a blast's victims) is typed in, asked for one
  at a time and named (:class:`TypedCards`); until it is, the preview is
  provisional and Apply is refused. The cards are read in the order drawn, as the
  generated deck deals them.
* A burst weapon may send some of its hits to a second target (000 Hitting
  Multiple Targets): the Judge names the target and the hits before the draw; the
  card decides how many can go (a second success in the pool, at least one hit kept
  on the first target). The second target's hits read the standard location of a
  card of their own, each further hit a damage bump
  (:func:`~twtw_desktop.rules.combat.resolve.resolve_spread_hits`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from ..errors import RulesError
from ..geometry.corridor import unintended_targets
from ..geometry.fields import dodge_front, in_field_of_fire
from ..geometry.sight import CoverLine, cover_line
from ..geometry.speed import token_target_speed
from ..geometry.walls import WallIndex
from ..hexgrid import Hex
from ..model import LogEntry
from ..model.encounter import Token
from ..rules.actions import (
    SHOT_KINDS,
    ActionKind,
    ActionSpec,
    CostItem,
    draw_action,
    shot_speed,
    tactical_of,
)
from ..rules.base import EFFECT_ROWS, Effect, HitLocation, Pool, Speed
from ..rules.card import Card
from ..rules.character import CarriedWeapon, Character, Posture
from ..rules.combat.ancillary import after_failure, apply_discharges, discharge_candidates
from ..rules.combat.bumps import BumpSpends, StraySpend
from ..rules.combat.melee import (
    UNARMED_SKILL,
    DodgeSpec,
    attack_result,
    check_engaged,
    defense_ap_cost,
    dodge_allowed,
    dodge_items,
    melee_ap_cost,
    melee_profile,
    melee_tn,
    resolve_block,
    resolve_melee,
)
from ..rules.combat.ranged import (
    PlannedShot,
    ShotSpec,
    attack_limit,
    fan_shot_tn,
    other_hand_holds,
    plan_attacks,
    plan_fan_fire,
    ranged_tn,
    shot_ap_cost,
    shot_pool,
)
from ..rules.combat.records import ApBreakdown, AttackRecord, TnBreakdown, mod
from ..rules.combat.resolve import (
    after_shot,
    firer_moves,
    resolve_attack,
    resolve_fan,
    resolve_series,
    resolve_spread_hits,
    resolve_stray_hits,
)
from ..rules.combat.situation import CALLED_SHOT_LOCATIONS, ShotSituation
from ..rules.combat.thrown import is_throwable
from ..rules.deck import CardSource, read_pool
from ..rules.gear import Weapon
from .bonus_actions import SPENDS, spend_counter_on
from .cards import CardNeeded, TypedCards, scratch_deck
from .engagement import SRC_BREAK, MeleeSituation, free_blow, melee_weapon, situation
from .engagement import in_melee as target_engaged
from .risk_actions import risking_death
from .throw import (
    ablate_covers,
    assign_character,
    blast_lines,
    consume_thrown,
    explode,
    scatter_landing,
)

if TYPE_CHECKING:
    from .table import Table

Mode = Literal["ranged", "thrown", "melee"]
ShotKind = Literal["snap", "normal", "aimed", "fan"]
Defense = Literal["block", "dodge"]
#: the called-shot keys (001 Called Shots)
CalledKey = Literal["torso", "limb", "head_hand_foot", "eye_heart"]

#: 000 Ancillary Effects: unintended targets are within one pace of the firing path.
CORRIDOR_PACES = 1

# =============================================================================
# Geometry (cached wall index per table)
# =============================================================================


class Geometry:
    """Cover lines over the table's map, through the table's wall index (which the
    table rebuilds after any map change)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def index(self) -> WallIndex:
        return self.table.walls()

    def cover_line(
        self, shooter: Token, target: Token, target_posture: Posture, shooter_posture: Posture
    ) -> CoverLine:
        return cover_line(
            self.table.map,
            self.index(),
            shooter.at,
            target.at,
            target_posture,
            self.table.edition,
            shooter_posture,
            target_facing=target.facing,
        )


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


def plan_attack(table: Table, req: AttackRequest, geometry: Geometry | None = None) -> AttackPlan:
    """The attack before the draw: TN itemised, AP itemised, situation from the map.

    Raises :class:`RulesError` with the reason when the rules refuse the attack."""
    enc = table.encounter
    try:
        stok = enc.token(req.shooter_token)
        ttok = enc.token(req.target_token)
    except KeyError as e:
        raise RulesError(str(e.args[0]) if e.args else "Choose a shooter and a target.") from None
    if stok.id == ttok.id:
        raise RulesError("A character cannot attack themselves.")
    shooter = table.character(stok.character_id)
    target = table.character(ttok.character_id)
    if dodging_this_round(table, shooter.id):
        raise RulesError(
            f"{shooter.name} is dodging this round and cannot attack (000: a dodge is an "
            "active defence for a fighter who makes no attacks)."
        )
    weapon = carried = None
    if req.weapon_index is not None:
        try:
            carried = shooter.weapons[req.weapon_index]
        except IndexError:
            raise RulesError(f"{shooter.name} does not carry that weapon any more.") from None
        weapon = table.gear.weapon(carried.weapon_id)

    plan = AttackPlan(
        request=req,
        shooter=shooter,
        target=target,
        shooter_token=stok,
        target_token=ttok,
        weapon=weapon,
        carried=carried,
        distance=stok.at.distance(ttok.at),
        discharge=discharge_candidates(shooter, table.gear, in_use=req.weapon_index),
    )
    if req.mode != "melee" and req.defense is not None:
        if req.defense == "block":
            raise RulesError(
                "A block meets a hand-to-hand blow; a shot or a throw cannot be blocked."
            )
        if not dodge_allowed(req.mode, enc.options):
            raise RulesError(
                "A dodge counts against hand-to-hand attacks only (000 Hand to Hand "
                "Combat); the Judge may allow it against shots with the dodge_vs_ranged rule."
            )
    if req.mode == "melee":
        _plan_melee(table, plan)
    else:
        _plan_ranged(table, plan, geometry or Geometry(table))
        if plan.spec is not None and plan.situation is not None:
            # 003 Move and Fire: a shot without the penalty forbids a move after it
            moving = plan.situation.firer_movement != "still"
            plan.spec = plan.spec.model_copy(update={"firer_moving": moving})
    if plan.discharge:
        names = ", ".join(w.name for w in plan.discharge.values())
        moving = req.mode == "melee" or (
            plan.situation is not None and plan.situation.firer_movement != "still"
        )
        plan.geometry.append(
            f"{shooter.name} carries {names} fully loaded"
            + (
                ": a CF, or a wrench below its Rel, sets it off (000 Carrying Loaded Weapons)"
                if moving
                else " (safe while standing still, 000 Carrying Loaded Weapons)"
            )
        )
    return plan


def _plan_melee(table: Table, plan: AttackPlan) -> None:
    req, ed = plan.request, table.edition
    stok, ttok, target = plan.shooter_token, plan.target_token, plan.target
    if not free_blow(table, stok, ttok):  # the free blow lands as the foe walks off
        check_engaged(plan.distance)
    if req.improvised is not None:
        if plan.weapon is not None:
            raise RulesError("Fight with the weapon in hand or with what comes to hand, not both.")
        w = table.gear.weapons.get(req.improvised)
        if w is None or "improvised" not in w.attributes:
            raise RulesError(f"{req.improvised!r} is not an improvised weapon in the gear list.")
        plan.weapon = w
    defender_weapon = melee_weapon(table, target)
    if plan.distance <= 1:
        plan.geometry.append(f"{plan.distance} pace(s) apart: engaged (000 Hand to Hand Combat)")
    spent = req.skill_advantage
    if spent:
        skill = plan.weapon.skill if plan.weapon is not None else UNARMED_SKILL
        level = plan.shooter.skill_level(skill)
        if level - spent < 1:
            raise RulesError(
                f"{plan.shooter.name} has {skill.replace('_', ' ')} {level}: spending "
                f"{spent} on advantage would take it below 1 (001 Advantage)."
            )
        # the levels spent are not used for the result: the blow reads a smaller pool
        plan.shooter = _with_skill_level(plan.shooter, skill, level - spent)
        plan.geometry.append(
            f"{spent} level(s) of {skill.replace('_', ' ')} spent on advantage: the pool "
            f"reads level {level - spent} (001 Advantage)"
        )
    plan.melee = ms = situation(table, stok, ttok, plan.weapon, defender_weapon, spent)
    plan.geometry += ms.lines
    if req.called_location is not None:
        if ms.attacker_dominance < 3:
            raise RulesError(
                "Only a fighter holding the foe at full dominance chooses where the blow "
                "lands (000 Position in Hand-to-Hand Engagements)."
            )
        plan.geometry.append(
            f"the blow lands on the {req.called_location.replace('_', ' ')}, "
            "the attacker's choice (000 Position in Hand-to-Hand Engagements)"
        )
    dodge = None
    if req.defense == "dodge":
        check = dodge_front(ttok.at, ttok.facing, table.map.orientation).classify(stok.at)
        front = check.status != "out"
        dodge = DodgeSpec(from_front=front)
        plan.geometry.append(
            f"{plan.shooter.name} attacks from {'inside' if front else 'outside'} "
            f"{target.name}'s dodge front (120°, 000 Hand to Hand Combat)"
        )
    elif req.defense == "block":
        arm = req.block_arm.replace("_", " ")
        plan.block_weapon = defender_weapon
        plan.geometry.append(
            f"{target.name} blocks with "
            + (defender_weapon.name if defender_weapon else "bare hands")
            + ": a second card tests the block against the attack's result — equal "
            + (
                "takes the blow on the weapon (Rel +1)"
                if defender_weapon
                else f"moves the hit to the {arm}"
            )
            + ", more stops it (000 Hand to Hand Combat)"
        )
    if req.defense is not None:
        cost = defense_ap_cost(req.defense)
        plan.defender_ap = ApBreakdown.build(
            mod(f"{target.name}: {m.label}", m.value, m.source) for m in cost.items
        )
    plan.tn = melee_tn(
        plan.shooter,
        target,
        ed,
        attack=req.melee_attack,
        attacker_weapon=plan.weapon,
        defender_weapon=defender_weapon,
        careful=req.careful,
        advantage=ms.advantage,
        defender_held_at=ms.defender_held_at,
        defender_stood_still=ms.defender_stood_still,
        dodge=dodge,
        defender_attacked_this_round=dodge is not None and attacked_this_round(table, target.id),
        defender_forgoes_defense=continuous_mover(table, plan.target_token),
        defender_forgoes_moving=forgoes_moving(table, plan.target_token),
    )
    plan.ap = melee_ap_cost(req.melee_attack, careful=req.careful)
    if ms.free_attack and plan.ap.total:
        plan.ap = ApBreakdown.build(
            [
                *plan.ap.items,
                mod(f"{target.name} walked out of the engagement", -1, SRC_BREAK),
            ]
        )
    plan.pool = melee_profile(
        plan.shooter, ed, attack=req.melee_attack, weapon=plan.weapon, kick=req.kick
    ).pool
    speed = plan.weapon.speed if plan.weapon is not None else Speed.NORMAL
    plan.spec = _action_spec(ActionKind.MELEE_ATTACK, plan.ap, speed, plan.weapon, [target.id])


def _with_skill_level(c: Character, skill: str, level: int) -> Character:
    """A copy of the sheet with ``skill`` at ``level`` (the blow's own pool; the sheet
    written back after the blow keeps its own skills)."""
    new = c.model_copy(deep=True)
    rating = new.skills[skill]
    new.skills = {**new.skills, skill: rating.model_copy(update={"level": level})}
    return new


def _ranged_dodge(table: Table, plan: AttackPlan, tn: TnBreakdown) -> TnBreakdown:
    """A shot or a throw at a dodging target (the ``dodge_vs_ranged`` switch, see
    :func:`~twtw_desktop.rules.combat.melee.dodge_allowed`): the same AD downgrades
    as a hand-to-hand dodge when the shooter stands in the target's 120° front, and
    the defender's 3 AP."""
    req = plan.request
    if req.defense != "dodge":
        return tn

    stok, ttok, target = plan.shooter_token, plan.target_token, plan.target
    check = dodge_front(ttok.at, ttok.facing, table.map.orientation).classify(stok.at)
    front = check.status != "out"
    plan.geometry.append(
        f"{plan.shooter.name} shoots from {'inside' if front else 'outside'} "
        f"{target.name}'s dodge front (120°; dodging shots is the Judge's dodge_vs_ranged rule)"
    )
    items, notes = dodge_items(
        target,
        DodgeSpec(from_front=front),
        defender_weapon=melee_weapon(table, target),
        defender_attacked_this_round=attacked_this_round(table, target.id),
        source="000 Hand to Hand Combat (dodge_vs_ranged)",
    )
    cost = defense_ap_cost("dodge")
    plan.defender_ap = ApBreakdown.build(
        mod(f"{target.name}: {m.label}", m.value, m.source) for m in cost.items
    )
    return tn.with_items(result_items=items, notes=notes)


def _situation(
    table: Table,
    req: AttackRequest,
    stok: Token,
    ttok: Token,
    target: Character,
    geometry: Geometry,
    *,
    thrown: bool,
    secondary_index: int,
) -> tuple[ShotSituation, Any, list[str]]:
    """The shot's situation read off the map, the cover line, and the reasons."""
    enc = table.encounter
    geo_lines: list[str] = []
    cover = geometry.cover_line(stok, ttok, ttok.posture, stok.posture)
    visibility = cover.visibility
    covers = tuple(cover.to_covers())
    rng = cover.range_paces
    geo_lines += list(cover.reasons)
    fv, tv = stok.velocity, ttok.velocity
    rel = math.hypot(tv[0] - fv[0], tv[1] - fv[1])
    if rel or _speed(fv) or _speed(tv):
        geo_lines += list(
            token_target_speed(stok, ttok, edition=table.edition, options=enc.options).reasons
        )
    movement: Literal["still", "walking", "running"] = (
        "running" if stok.running else ("walking" if stok.moved > 0 else "still")
    )
    if req.firer_movement is not None and req.firer_movement != movement:
        movement = req.firer_movement
        geo_lines.append(f"the Judge calls the firer {movement} (000 Modifiers: Move and Fire)")
    elif movement != "still":
        geo_lines.append(f"firer moved {stok.moved} pace(s) this round: {movement}")
    if req.target_size is not None and req.target_size != target.size:
        geo_lines.append(
            f"the Judge calls the target's Size {req.target_size} (the sheet says "
            f"{target.size}; 000 Target Size)"
        )
    candidates: tuple[str, ...] = ()
    if not thrown:
        candidates, _near, _why = corridor(table, stok, ttok)
    in_melee = req.target_in_melee
    if in_melee is None:
        # 001 Unintended Targets and Melee: in a melee means engaged (or in contact,
        # as the Judge marks it), not merely standing within a pace of someone
        in_melee = target_engaged(table, ttok)
        if in_melee:
            geo_lines.append(
                "the target is engaged in a melee: stray shots double (001 Unintended "
                "Targets and Melee)"
            )
    elif in_melee:
        geo_lines.append("the Judge marks the target in a melee: stray shots double (001)")
    aimed_at = ttok.id == req.target_token  # the aims ahead were at the first target
    if candidates:
        names = ", ".join(display_name(table, t) for t in candidates)
        geo_lines.append(f"possible unintended targets near the line of fire: {names}")
    called_location = None
    if req.called_shot is not None and req.called_location:
        called_location = HitLocation(req.called_location)
        if called_location not in CALLED_SHOT_LOCATIONS[req.called_shot]:
            raise RulesError(
                f"A called shot at the {req.called_shot.replace('_', '/')} cannot name the "
                f"{called_location.value.replace('_', ' ')}."
            )
    situation = ShotSituation(
        range_paces=rng,
        point_blank=req.point_blank,
        visibility=visibility,
        covers=covers,
        target_prone=ttok.posture is Posture.PRONE or target.posture is Posture.PRONE,
        target_relative_speed=rel,
        firer_speed=_speed(fv),
        target_speed=_speed(tv),
        firer_movement=movement,
        firer_mounted=stok.mounted,
        appearing_disappearing=req.appearing,
        secondary_target_index=secondary_index,
        two_weapons=req.two_weapons,
        off_hand=req.off_hand and req.two_weapons,
        called_shot=req.called_shot,
        called_location=called_location,
        unintended_candidates=candidates,
        target_in_melee=in_melee,
        target_size=req.target_size,
        target_left_field_of_fire=req.target_left_field_of_fire and aimed_at,
        target_forgoes_defense=continuous_mover(table, ttok),
        target_forgoes_defense_moving=forgoes_moving(table, ttok),
    )
    return situation, cover, [*geo_lines, *(req.aim_notes if aimed_at else ())]


def _plan_ranged(table: Table, plan: AttackPlan, geometry: Geometry) -> None:
    req, ed, options = plan.request, table.edition, table.encounter.options
    shooter, weapon, carried = plan.shooter, plan.weapon, plan.carried
    if weapon is None or carried is None:
        raise RulesError(f"{shooter.name} carries no weapon for this attack.")
    thrown = req.mode == "thrown"
    if thrown and req.shot_kind == "fan":
        raise RulesError("Only a single-action revolver fans its hammer; a throw cannot.")
    shot = _shot_spec(req, weapon, thrown, shooter)
    plan.shot = shot
    # the pool as the rules read it: an aimed shot may use Acuity (optional rule, 000/001)
    plan.pool, _ = shot_pool(shooter, weapon, shot, table.encounter.options)
    secondary = 0 if req.shot_kind == "fan" else req.secondary_index
    plan.situation, plan.cover, geo = _situation(
        table,
        req,
        plan.shooter_token,
        plan.target_token,
        plan.target,
        geometry,
        thrown=thrown,
        secondary_index=secondary,
    )
    plan.geometry += geo
    if weapon.two_handed and not thrown:
        # 000 Two handed ranged weapons: 2 downgrades with one hand (what else is in hand)
        busy = other_hand_holds(shooter, req.weapon_index, table.gear, two_weapons=req.two_weapons)
        if busy is not None:
            plan.situation = plan.situation.model_copy(update={"two_handed_in_one_hand": True})
            plan.geometry.append(
                f"the {weapon.name} is fired with one hand: the other holds {busy} "
                "(000 Two handed ranged weapons)"
            )
    if req.shot_kind == "fan":
        _plan_fan(table, plan, geometry)
        return
    plan.tn = _ranged_dodge(
        table,
        plan,
        ranged_tn(
            shooter,
            weapon,
            ed,
            plan.situation,
            shot,
            target=plan.target,
            options=options,
            carried=carried,
        ),
    )
    if req.aim_held_rounds and weapon.accurate:
        tn = plan.tn
        held = mod(
            f"aim held {req.aim_held_rounds} round(s) after the first: Accurate "
            f"({weapon.accurate}) each",
            weapon.accurate * req.aim_held_rounds,
            "003 Advanced Rule: Fields of Fire (Procedure)",
        )
        plan.tn = TnBreakdown.build(
            tn.base, tn.base_label, tn.base_source, tn.tn_items, (*tn.result_items, held), tn.notes
        )
    plan.ap = shot_ap_cost(
        weapon,
        shot,
        ed,
        two_weapons_aimed=req.two_weapons and shot.aims > 0,
        prepaid_aims=req.prepaid_aims,
    )
    modes = weapon.burst_modes or ([weapon.burst] if weapon.burst else [])
    if modes and not thrown:
        burst = req.burst if req.burst is not None else weapon.default_burst
        if burst not in modes:
            raise RulesError(f"The {weapon.name} cannot fire a burst of {burst}.")
        plan.burst = burst
        plan.geometry.append(
            f"burst {burst}: {burst} rounds; a hit reads the card's burst {burst} hits, the "
            "rest are stray shots (000 Burst Fire)"
            + (f" — only {carried.loaded} loaded" if carried.loaded < burst else "")
        )
    elif req.burst is not None and not thrown:
        raise RulesError(f"The {weapon.name} fires single shots, not bursts.")
    if (req.burst_second_target and req.burst_second_hits > 0) or req.burst_more:
        _plan_burst_second(table, plan, geometry)
    if req.more_attacks:
        _plan_series(table, plan, geometry)
        return
    if weapon.kind == "explosive":
        plan.geometry.append(
            f"explosive: everyone within {weapon.blast_radius} paces of where it lands takes "
            "the blast; cover between shields them (house)"
        )
    kind = {
        "snap": ActionKind.SNAP_SHOT,
        "normal": ActionKind.NORMAL_SHOT,
        "aimed": ActionKind.AIMED_SHOT,
    }[shot.kind]
    if thrown:
        kind = ActionKind.OTHER
    # 004: the draw and the cock folded into the shot combine with it ("one slower
    # than the slowest action in the group"), and so do its own aims
    own_aims = max(shot.aims - req.prepaid_aims, 0) if shot.kind == "aimed" else 0
    folded = table.edition.time == "phases" and (shot.cock_first or shot.draw_first)
    combo = shot_speed(
        weapon,
        aims=own_aims,
        cock_first=folded and shot.cock_first,
        draw_first=folded and shot.draw_first,
    )
    if folded:
        plan.geometry += list(combo.reasons)
    plan.spec = _action_spec(kind, plan.ap, combo.speed, weapon, [plan.target.id], shot.aims)


def _plan_fan(table: Table, plan: AttackPlan, geometry: Geometry) -> None:
    """Plan a fan-firing series (000/001/003 Fan Firing): each shot's target and TN."""
    req, ed, options = plan.request, table.edition, table.encounter.options
    weapon = plan.weapon
    assert weapon is not None and plan.situation is not None
    tokens = [plan.target_token] * max(req.fan_shots, 0)
    if req.fan_second_target and req.fan_second_shots > 0:
        try:
            second = table.encounter.token(req.fan_second_target)
        except KeyError:
            raise RulesError("The second target of the fan is no longer on the map.") from None
        if second.id in (plan.shooter_token.id, plan.target_token.id):
            raise RulesError("Choose a second target other than the shooter and the first.")
        tokens += [second] * req.fan_second_shots
    names = [table.character(t.character_id).name for t in tokens]
    fan = plan_fan_fire(plan.shooter, weapon, names, ed, carried=plan.carried, options=options)
    if fan.mode == "burst3" and len({t.id for t in tokens}) > 1:
        raise RulesError(
            "In this edition a fan is one check at one target; a second target is bought "
            "with a bump after the draw (003 Secondary Targets)."
        )
    seen: dict[str, tuple[Character, ShotSituation, TnBreakdown]] = {}
    for i, tok in enumerate(tokens if fan.mode == "per_shot" else tokens[:1]):
        if tok.id not in seen:
            ch = table.character(tok.character_id)
            if tok.id == plan.target_token.id:
                sit = plan.situation
            else:
                sit, _cover, geo = _situation(
                    table,
                    req,
                    plan.shooter_token,
                    tok,
                    ch,
                    geometry,
                    thrown=False,
                    secondary_index=0,
                )
                plan.geometry += [f"{ch.name}: {g}" for g in geo]
            base = ranged_tn(
                plan.shooter,
                weapon,
                ed,
                sit,
                plan.shot,
                target=ch,
                options=options,
                carried=plan.carried,
            )
            if tok.id == plan.target_token.id:
                base = _ranged_dodge(table, plan, base)
            seen[tok.id] = (ch, sit, base)
        ch, sit, base = seen[tok.id]
        plan.series.append(SeriesShot(tok, ch, sit, base, fan_shot_tn(base, fan, i)))
    plan.fan = fan
    plan.tn = plan.series[0].tn
    plan.ap = fan.ap
    plan.geometry += list(fan.reasons)
    if fan.mode == "burst3":
        _plan_fan_secondary(table, plan, geometry)
    for i, s in enumerate(plan.series[1:], 2):
        plan.geometry.append(
            f"shot {i} at {s.target.name}: TN {s.tn.tn}, result {s.tn.result_modifier:+d}"
        )
    plan.spec = _action_spec(
        ActionKind.FAN_FIRE, plan.ap, weapon.speed, weapon, [s.target.id for s in plan.series]
    )


def _plan_series(table: Table, plan: AttackPlan, geometry: Geometry) -> None:
    """Plan a series of attacks from one pool (000 Multiple Attacks): the first is the
    planned shot, the rest ``more_attacks``. At most the skill level (trait rank
    unskilled); 1 AP per switch of target, +1 when the new target is outside the
    weapon's field of fire (fields-of-fire rule); each new target after the first
    −1 more (Secondary targets, cumulative). All are declared before the card."""
    req, ed, options = plan.request, table.edition, table.encounter.options
    weapon, carried = plan.weapon, plan.carried
    assert weapon is not None and carried is not None and plan.situation is not None
    if req.mode != "ranged" or req.shot_kind not in ("snap", "normal"):
        raise RulesError(
            "A series from one pool is declared as snap or normal shots (000 Multiple "
            "Attacks); aim, fan or throw as actions of their own."
        )
    if plan.burst is not None or req.burst_second_target or req.burst_more:
        raise RulesError("A burst weapon spreads its burst instead (000 Hitting Multiple Targets).")
    if req.secondary_index:
        raise RulesError("The series counts its own secondary targets; leave 'target #' first.")
    limit = attack_limit(plan.shooter, weapon)  # past it: automatic misses (000)
    stok = plan.shooter_token
    order: list[str] = [plan.target_token.id]
    tokens = [plan.target_token]
    kinds: list[Any] = [req.shot_kind]
    for tid, kind in req.more_attacks:
        if kind not in ("snap", "normal"):
            raise RulesError(f"Attack {len(tokens) + 1}: a series takes snap or normal shots.")
        try:
            tok = table.encounter.token(tid)
        except KeyError:
            raise RulesError(f"Attack {len(tokens) + 1}: {tid!r} is not on the map.") from None
        if tok.id == stok.id:
            raise RulesError("The shooter cannot be a target of the series.")
        tokens.append(tok)
        kinds.append(kind)
        if tok.id not in order:
            order.append(tok.id)
    planned = []
    state = carried
    multi: list[tuple[Any, CarriedWeapon]] = []
    for i, (tok, kind) in enumerate(zip(tokens, kinds, strict=True)):
        if i == 0:
            shot = plan.shot
        else:
            cock = weapon.cock_ap is not None and not state.cocked
            shot = ShotSpec(kind=kind, cock_first=cock)
        outside = False
        if i and tok.id != tokens[i - 1].id and weapon.field_of_fire:
            arc = in_field_of_fire(
                stok.at,
                stok.facing,
                weapon.field_of_fire,
                tok.at,
                arc_edges=options.arc_edges,
                orientation=table.map.orientation,
            )
            outside = not arc.inside
        planned.append(
            PlannedShot(
                target_id=table.character(tok.character_id).name,
                shot=shot,
                outside_field_of_fire=outside,
            )
        )
        multi.append((shot, state))
        update: dict[str, object] = {"cocked": False}
        if weapon.is_ranged:
            update["loaded"] = max(state.loaded - 1, 0)
        state = state.model_copy(update=update)
    series_plan = plan_attacks(plan.shooter, weapon, planned, ed, carried=carried, options=options)
    plan.series = []
    for i, tok in enumerate(tokens):
        ch = table.character(tok.character_id)
        nth = order.index(tok.id)
        if i == 0:
            sit = plan.situation.model_copy(update={"secondary_target_index": 0})
        else:
            sit, _cover, geo = _situation(
                table, req, stok, tok, ch, geometry, thrown=False, secondary_index=nth
            )
            if nth and tok.id not in [t.id for t in tokens[:i]]:
                plan.geometry += [f"{ch.name}: {g}" for g in geo]
        if i == 0:
            tn = plan.tn  # the first attack as planned (a declared dodge included)
        else:
            tn = ranged_tn(
                plan.shooter,
                weapon,
                ed,
                sit,
                multi[i][0],
                target=ch,
                options=options,
                carried=multi[i][1],
            )
        plan.series.append(SeriesShot(tok, ch, sit, tn, tn))
    plan.multi = multi
    plan.tn = plan.series[0].tn
    plan.ap = series_plan.ap
    plan.geometry += list(series_plan.reasons)
    for i, sh in enumerate(plan.series[1:], 2):
        plan.geometry.append(
            f"attack {i} ({kinds[i - 1]}) at {sh.target.name}: TN {sh.tn.tn}, "
            f"result {sh.tn.result_modifier:+d}, "
            + (
                f"the pool's result number {i}"
                if i <= limit
                else "beyond the skill level: misses automatically (000 Multiple Attacks)"
            )
        )
    kind = ActionKind.SNAP_SHOT if req.shot_kind == "snap" else ActionKind.NORMAL_SHOT
    plan.spec = _action_spec(
        kind, plan.ap, weapon.speed, weapon, [sh.target.id for sh in plan.series]
    )


def _plan_burst_second(table: Table, plan: AttackPlan, geometry: Geometry) -> None:
    """A burst weapon spreading its hits (000 Hitting Multiple Targets): each
    success after the first may send hits to another target instead, the total
    still the card's burst hits. The Judge names the other targets and how many
    hits go to each before the draw; the card then decides how many can."""
    req = plan.request
    if plan.burst is None:
        raise RulesError(
            f"The {plan.weapon.name if plan.weapon else 'weapon'} fires no burst; only a "
            "burst can spread its hits over several targets."
        )
    wanted = [(req.burst_second_target, req.burst_second_hits), *req.burst_more]
    seen = {plan.shooter_token.id, plan.target_token.id}
    for n, (tid, hits) in enumerate(wanted, 2):
        if not tid or hits < 1:
            continue
        try:
            tok = table.encounter.token(tid)
        except KeyError:
            raise RulesError(f"The burst's target {n} is no longer on the map.") from None
        if tok.id in seen:
            raise RulesError(
                f"Choose a target {n} other than the shooter and the burst's other targets."
            )
        seen.add(tok.id)
        ch = table.character(tok.character_id)
        sit, _cover, geo = _situation(
            table, req, plan.shooter_token, tok, ch, geometry, thrown=False, secondary_index=0
        )
        plan.geometry += [f"{ch.name}: {g}" for g in geo]
        plan.burst_others.append((tok, ch, sit, hits))
        plan.geometry.append(
            f"up to {hits} of the burst's hits go on to {ch.name} if the pool shows success "
            f"number {n} and the card hits enough (000 Hitting Multiple Targets)"
        )
    sent = sum(h for *_rest, h in plan.burst_others)
    if sent >= plan.burst:
        raise RulesError(
            f"A burst of {plan.burst} keeps at least one hit for the first target; "
            f"send at most {plan.burst - 1} on."
        )


def fan_secondary_candidates(table: Table, plan: AttackPlan) -> list[Token]:
    """Tokens a Phases fan may add as secondary targets (003 Secondary Targets):
    anyone but the shooter and the target within one pace of the target or of the
    line of fire (the unintended-target eligibility), nearest the target first."""
    stok, ttok = plan.shooter_token, plan.target_token
    near_line = set(plan.situation.unintended_candidates if plan.situation else ())
    out: list[tuple[int, str, Token]] = []
    for t in table.encounter.tokens:
        if t.id in (stok.id, ttok.id):
            continue
        d = t.at.distance(ttok.at)
        if d <= CORRIDOR_PACES or t.id in near_line:
            out.append((d, t.id, t))
    out.sort(key=lambda x: (x[0], x[1]))
    return [t for _, _, t in out]


def _plan_fan_secondary(table: Table, plan: AttackPlan, geometry: Geometry) -> None:
    for tok in fan_secondary_candidates(table, plan):
        try:
            ch = table.character(tok.character_id)
        except KeyError:
            continue
        if ch.dead:
            continue
        sit, _cover, _geo = _situation(
            table,
            plan.request,
            plan.shooter_token,
            tok,
            ch,
            geometry,
            thrown=False,
            secondary_index=0,
        )
        plan.fan_secondary[tok.id] = (ch, sit)
    if plan.fan_secondary:
        names = ", ".join(c.name for c, _ in plan.fan_secondary.values())
        plan.geometry.append(
            f"a bump may add a secondary target if two results succeed: {names} "
            "(003 Secondary Targets)"
        )


# =============================================================================
# Resolving (preview on a copy of the deck, then for real)
# =============================================================================


@dataclass
class Spends:
    """The Judge's bump spends on one attack (one shot of a series), as clicked."""

    hit_index: int | None = None
    penetration: int = 0
    damage: int = 0
    stray: list[tuple[int, int]] = field(default_factory=list)
    extra_hits: int = 0
    #: Phases fan: token ids of the secondary targets bought, one bump each (003)
    secondary: list[str] = field(default_factory=list)
    #: hand to hand: bumps spent toward dominance (000 Asserting Dominance)
    dominance: int = 0
    #: a burst's or fan's extra-hit bumps turned to penetration (002 Burst bumps)
    burst_pen: int = 0

    def to_bump_spends(self) -> BumpSpends:
        return BumpSpends(
            hit_location_index=self.hit_index,
            penetration=self.penetration,
            damage=self.damage,
            stray=tuple(StraySpend(figure_index=i, delta=d) for i, d in self.stray),  # type: ignore[arg-type]
            extra_hits=self.extra_hits,
            secondary_targets=len(self.secondary),
            dominance=self.dominance,
            burst_to_penetration=self.burst_pen,
        )

    def empty(self) -> bool:
        return self.to_bump_spends().empty

    def copy(self) -> Spends:
        return Spends(
            self.hit_index,
            self.penetration,
            self.damage,
            list(self.stray),
            self.extra_hits,
            list(self.secondary),
            self.dominance,
            self.burst_pen,
        )


@dataclass
class Outcome:
    """A whole resolution: one record per shot, and every sheet it changed."""

    records: list[AttackRecord]
    #: the changed characters' new copies by id (targets, blast victims, the attacker
    #: whose stowed gun went off)
    characters: dict[str, Character] = field(default_factory=dict)
    #: where a throw came down (thrown attacks)
    landing: Hex | None = None
    #: the defender's block (hand to hand)
    block: Any = None
    #: a declared block waits for its card to be typed in (physical-card mode)
    needs_block_card: bool = False
    #: what the next card must be typed in for (physical-card mode), e.g. a stun
    #: check; while set the records are provisional and Apply is refused
    card_needed: str | None = None
    #: how many of the further typed-in cards the resolution read
    typed_used: int = 0
    #: the numbers of the cards drawn or typed in, in order (set when applied)
    drawn: list[int] = field(default_factory=list)

    @property
    def record(self) -> AttackRecord:
        return self.records[0]


def _spends_list(spends: Spends | Sequence[Spends]) -> list[Spends]:
    return [spends] if isinstance(spends, Spends) else list(spends)


def resolve(
    table: Table,
    plan: AttackPlan,
    card: Card,
    spends: Spends | Sequence[Spends],
    more: CardSource | None,
    discard: list[Card],
    block_card: Card | None = None,
) -> Outcome:
    """Resolve ``plan`` with ``card`` (no table change). ``block_card`` is the
    card typed in for the defender's block (physical-card mode)."""
    ed = table.edition
    options = table.encounter.options
    sp = _spends_list(spends)
    if plan.mode == "melee":
        out = _resolve_melee(table, plan, card, sp, more, discard, block_card)
    elif plan.multi is not None:
        assert plan.weapon is not None
        records, hurt = resolve_series(
            plan.shooter,
            [s.target for s in plan.series],
            plan.weapon,
            ed,
            [s.tn for s in plan.series],
            card,
            situations=[s.situation for s in plan.series],
            shots=[shot for shot, _c in plan.multi],
            carried=[c for _shot, c in plan.multi],
            spends=[s.to_bump_spends() for s in sp],
            more=more,
            ap=plan.ap,
            options=options,
            discard=discard,
            discharge_weapons=plan.discharge,
            action_moves=firer_moves(plan.series[0].situation),
            risking=_risking(table, [s.target for s in plan.series]),
        )
        out = Outcome(records, dict(hurt))
    elif plan.fan is not None:
        assert plan.weapon is not None
        secondary = []
        for tid in sp[0].secondary if sp else ():
            if tid not in plan.fan_secondary:
                raise RulesError(
                    f"{display_name(table, tid)} is not within a pace of the target or "
                    "the line of fire: not a secondary target (003)."
                )
            secondary.append(plan.fan_secondary[tid])
        records, hurt = resolve_fan(
            plan.shooter,
            [s.target for s in plan.series],
            plan.weapon,
            ed,
            plan.fan,
            [s.base_tn for s in plan.series],
            card,
            situations=[s.situation for s in plan.series],
            carried=plan.carried,
            spends=[s.to_bump_spends() for s in sp],
            more=more,
            options=options,
            discard=discard,
            discharge_weapons=plan.discharge,
            action_moves=firer_moves(plan.series[0].situation),
            secondary=secondary,
            risking=_risking(table, [s.target for s in plan.series] + [c for c, _sit in secondary]),
        )
        out = Outcome(records, dict(hurt))
    else:
        out = _resolve_shot(table, plan, card, sp, more, discard)
    discharged = [d for r in out.records for d in r.discharges if d.discharged]
    if discharged:
        base = out.characters.get(plan.shooter.id, plan.shooter)
        out.characters[plan.shooter.id] = apply_discharges(base, discharged, ed, options=options)
    return out


def _burst_split(
    plan: AttackPlan, card: Card, more: CardSource | None
) -> tuple[int | None, Any, list[str], list[tuple[Character, ShotSituation, int]]]:
    """How a burst's hits spread when the Judge sends some on (000 Hitting Multiple
    Targets): (hits on the first target or None, the pool read to resolve with,
    notes, each other target with the hits it takes). The card decides: one other
    target per success after the first, and the card's burst hits in all, one kept
    for the first target."""
    if not plan.burst_others or plan.burst is None:
        return None, None, [], []
    tn = plan.tn
    read = read_pool(card, plan.pool, more)
    successes = 0
    if not read.is_cf:
        successes = sum(
            1 for c in read.cells if c.total is not None and c.total + tn.result_modifier >= tn.tn
        )
    if successes == 0:
        return None, read, [], []
    hits = min(card.burst_hits(plan.burst), plan.burst)
    left = hits - 1
    notes: list[str] = []
    given: list[tuple[Character, ShotSituation, int]] = []
    for n, (_tok, ch, sit, wanted) in enumerate(plan.burst_others, 2):
        if n > successes:
            notes.append(f"no success number {n} in the pool: no hit goes on to {ch.name}")
            continue
        k = min(wanted, left)
        if k < 1:
            notes.append(f"the card shows {hits} hit(s): none left over for {ch.name}")
            continue
        if k < wanted:
            notes.append(
                f"the card shows {hits} hit(s): {k} of the {wanted} asked go on to {ch.name}"
            )
        given.append((ch, sit, k))
        left -= k
    if not given:
        return None, read, notes, []
    return hits - sum(k for *_rest, k in given), read, notes, given


def _resolve_shot(
    table: Table,
    plan: AttackPlan,
    card: Card,
    sp: list[Spends],
    more: CardSource | None,
    discard: list[Card],
) -> Outcome:
    assert plan.weapon is not None and plan.situation is not None
    on_target, pool_read, split_notes, spread = _burst_split(plan, card, more)
    extra: dict[str, Any] = {}
    if pool_read is not None:
        extra["pool_read"] = pool_read
    if on_target is not None:
        extra["hits_on_target"] = on_target
    cause_bonus, effect_bonus = _counter_bonus(plan.request.counter)
    rec, new_target = resolve_attack(
        plan.shooter,
        plan.target,
        plan.weapon,
        table.edition,
        plan.tn,
        card,
        situation=plan.situation,
        shot=plan.shot,
        burst=plan.burst,
        carried=plan.carried,
        options=table.encounter.options,
        spends=sp[0].to_bump_spends() if sp else None,
        more=more,
        discard=discard,
        ap=plan.ap,
        discharge_weapons=plan.discharge,
        sabotage=plan.request.sabotage,
        cause_bonus=cause_bonus,
        effect_bonus=effect_bonus,
        auto_hit=plan.request.auto_hit,
        risking_death=risking_death(table, plan.target.id),
        **extra,
    )
    if split_notes:
        rec = rec.model_copy(update={"notes": (*rec.notes, *split_notes)})
    out = Outcome([rec], {new_target.id: new_target})
    if rec.hits_for_other_targets and spread:
        recs, hurt = resolve_spread_hits(
            plan.shooter,
            plan.weapon,
            table.edition,
            rec,
            card,
            [(out.characters.get(ch.id, ch), sit, k) for ch, sit, k in spread],
            shot=plan.shot,
            burst=plan.burst,
            more=more,
            options=table.encounter.options,
            risking=_risking(table, [ch for ch, _sit, _k in spread]),
        )
        out.records += recs
        out.characters.update(hurt)
    _resolve_strays(table, plan, rec, card, more, out)
    if plan.mode != "thrown":
        return out

    stok, ttok = plan.shooter_token, plan.target_token
    landing = ttok.at
    if rec.scatter is not None:
        s = rec.scatter
        landing, _stopped, _path = scatter_landing(
            table, stok.at, ttok.at, s.clock_hour, s.distance, s.from_thrower
        )
    out.landing = landing
    if plan.weapon.kind == "explosive":
        blast, hurt = explode(
            table,
            plan.weapon,
            landing,
            more or (lambda: card),
            more,
            exclude={ttok.id} if rec.hits else (),
            characters=out.characters,
        )
        out.records[0] = rec.model_copy(update={"blast": blast})
        out.characters.update(hurt)
    return out


def _risking(table: Table, characters: Sequence[Character]) -> set[str]:
    """The ids of those among ``characters`` who declared they risk death (001 Risk)."""
    return {c.id for c in characters if risking_death(table, c.id)}


def _counter_bonus(spend: str | None) -> tuple[int, int]:
    """A bonus counter's value where it goes (002 Spending the Counter), as (cause
    bonus, effect bonus): Right on! +2 in the cause grid (bumps only), Aces! +2 and
    As I planned! +3 on the effect."""
    if spend is None:
        return 0, 0
    value = SPENDS[spend][1]
    return (value, 0) if spend == "right_on" else (0, value)


def _resolve_strays(
    table: Table,
    plan: AttackPlan,
    rec: AttackRecord,
    card: Card,
    more: CardSource | None,
    out: Outcome,
) -> None:
    """The unintended targets the shot's stray shots hit, resolved against them
    (:func:`~twtw_desktop.rules.combat.resolve.resolve_stray_hits`): each from the
    shooter's hex, over its own line of fire and cover."""
    hit = rec.strays.candidates_hit if rec.strays is not None else ()
    if not hit or plan.mode != "ranged" or plan.weapon is None:
        return
    geometry = Geometry(table)
    victims = []
    for tid in hit:
        try:
            vtok = table.encounter.token(tid)
        except KeyError:
            continue
        base = table.character(vtok.character_id)
        victim = out.characters.get(base.id, base)
        req = replace(
            plan.request,
            target_token=tid,
            called_shot=None,
            called_location=None,
            point_blank=False,
            appearing=False,
            target_in_melee=False,
            target_size=None,
        )
        sit, _cover, _lines = _situation(
            table, req, plan.shooter_token, vtok, victim, geometry, thrown=False, secondary_index=0
        )
        victims.append((victim, sit))
    recs, hurt = resolve_stray_hits(
        plan.shooter,
        plan.weapon,
        table.edition,
        rec,
        card,
        victims,
        shot=plan.shot,
        more=more,
        options=table.encounter.options,
        risking=_risking(table, [v for v, _sit in victims]),
    )
    out.records += recs
    out.characters.update(hurt)


def _resolve_melee(
    table: Table,
    plan: AttackPlan,
    card: Card,
    sp: list[Spends],
    more: CardSource | None,
    discard: list[Card],
    typed_block: Card | None = None,
) -> Outcome:
    ed = table.edition
    req = plan.request
    block = None
    pool_read = None
    block_card = None
    needs_block_card = False
    if typed_block is not None and req.defense != "block":
        raise RulesError("No block was declared; there is no block card to read.")
    if req.defense == "block":
        pool_read = read_pool(card, plan.pool, more)
        result = attack_result(pool_read, plan.tn)
        hits = result is not None and result >= plan.tn.tn
        if hits and typed_block is not None:
            if typed_block.number == card.number:
                raise RulesError(
                    f"Card {card.number} is the attack's card; the block needs another card."
                )
            block_card = typed_block
        elif hits and more is not None and not getattr(more, "typed", False):
            # a printed deck's block card comes through its own entry (typed_block)
            block_card = more()
        needs_block_card = hits and block_card is None
        if block_card is not None and result is not None:
            block = resolve_block(
                plan.target,
                result,
                block_card,
                ed,
                weapon=plan.block_weapon,
                arm=HitLocation(req.block_arm),
                more=more,
                discard=discard,
            )
    rec, new = resolve_melee(
        plan.shooter,
        plan.target,
        ed,
        plan.tn,
        card,
        attack=req.melee_attack,
        weapon=plan.weapon,
        kick=req.kick,
        height_advantage=plan.melee.height if plan.melee else False,
        attacker_dominance=plan.melee.attacker_dominance if plan.melee else 0,
        attacker_held_at=plan.melee.attacker_held_at if plan.melee else 0,
        block=block,
        chosen_location=_chosen_location(plan),
        options=table.encounter.options,
        spends=sp[0].to_bump_spends() if sp else None,
        more=more,
        pool_read=pool_read,
        discard=discard,
        ap=plan.ap,
        distance_paces=0 if plan.melee and plan.melee.free_attack else plan.distance,
        discharge_weapons=plan.discharge,
        risking_death=risking_death(table, plan.target.id),
    )
    notes = list(rec.notes)
    if block_card is not None:
        notes.insert(0, f"{plan.target.name} blocks: card {block_card.number}")
        rec = rec.model_copy(
            update={"cards": (*rec.cards, block_card.number), "notes": tuple(notes)}
        )
    elif req.defense == "block" and rec.hit.success:
        rec = rec.model_copy(
            update={"notes": (*notes, "the block waits for its card: type in the card drawn")}
        )
    elif req.defense == "block":
        rec = rec.model_copy(update={"notes": (*notes, "the attack misses: no block needed")})
    return Outcome([rec], {new.id: new}, block=block, needs_block_card=needs_block_card)


def _chosen_location(plan: AttackPlan) -> HitLocation | None:
    """The location a fighter holding the foe at full dominance names (000 Position:
    the card's hit location is ignored; :func:`_plan_melee` refuses it otherwise)."""
    loc = plan.request.called_location
    return HitLocation(loc) if loc is not None else None


@dataclass
class Preview:
    """A resolution seen on a copy of the deck, with what to highlight on the card."""

    card: Card
    outcome: Outcome
    cause_cells: list[tuple[int, int]]
    chosen: tuple[int, int] | None
    effect_cell: tuple[int, int] | None
    hit_index: int | None
    sections: set[str]
    burst: int | None

    @property
    def record(self) -> AttackRecord:
        return self.outcome.records[0]

    @property
    def records(self) -> list[AttackRecord]:
        return self.outcome.records

    @property
    def new_target(self) -> Character | None:
        return self.outcome.characters.get(self.record.target_id)


def usable_weapons(table: Table, shooter: Character, mode: Mode) -> list[tuple[int, Weapon]]:
    """The shooter's carried weapons that fit the mode, as (carried index, weapon)."""
    out = []
    for i, cw in enumerate(shooter.weapons):
        w = table.gear.weapons.get(cw.weapon_id)
        if w is None:
            continue
        if (
            (mode == "ranged" and w.is_ranged)
            or (mode == "thrown" and is_throwable(w))
            or (mode == "melee" and (w.is_melee or "improvised" in w.attributes))
        ):
            out.append((i, w))
    return out


def default_weapon_index(
    table: Table, shooter: Character, token: Token | None, mode: Mode
) -> int | None:
    """The weapon in hand if it fits, else a readied, loaded and cocked one, else the first."""
    usable = usable_weapons(table, shooter, mode)
    if not usable:
        return None
    if token is not None and token.weapon_in_hand:
        for i, w in usable:
            if w.id == token.weapon_in_hand:
                return i

    def score(item: tuple[int, Weapon]) -> tuple[int, int, int, int]:
        i, w = item
        cw = shooter.weapons[i]
        ready = cw.readied
        loaded = cw.loaded > 0 or not w.is_ranged
        cocked = cw.cocked or not w.needs_cocking
        return (-int(ready), -int(loaded), -int(cocked), i)

    return sorted(usable, key=score)[0][0]


def nearest_enemy(
    table: Table, shooter_token: Token, geometry: Geometry | None = None
) -> str | None:
    """The closest token of another side, preferring ones the shooter can see."""
    try:
        me = table.character(shooter_token.character_id)
    except KeyError:
        return None
    best: list[tuple[int, int, str]] = []
    for t in table.encounter.tokens:
        if t.id == shooter_token.id:
            continue
        try:
            c = table.character(t.character_id)
        except KeyError:
            continue
        if c.side == me.side or c.out_of_action:
            continue
        hidden = 0
        if geometry is not None:
            try:
                cl = geometry.cover_line(shooter_token, t, t.posture, shooter_token.posture)
                hidden = 1 if cl.visibility == "not_visible" else 0
            except Exception:  # geometry is advisory here
                hidden = 0
        best.append((hidden, shooter_token.at.distance(t.at), t.id))
    best.sort()
    return best[0][2] if best else None


def bumps_left(record: AttackRecord) -> tuple[int, int]:
    """The standard bumps a hit earned and how many the spends leave (000 Bumps)."""
    total = record.hit.bumps
    sp = record.spends
    used = 0
    if sp is not None:
        used = (
            sp.hit_location
            + sp.penetration
            + sp.damage
            + sp.stray
            + sp.extra_hits
            + sp.secondary_targets
            + sp.dominance
        )
    return total, max(total - used, 0)


def checked_shots(plan: AttackPlan, records: int) -> int:
    """How many of a resolution's ``records`` are checked shots that take bump
    spends of their own: a Phases fan's secondary targets, a burst's second
    target and the unintended targets of stray shots take hits bought or sent on,
    with no bumps of their own."""
    return min(records, max(len(plan.series), 1))


def fan_secondary_choices(plan: AttackPlan) -> list[tuple[str, list[str]]]:
    """What a Phases fan's bump may buy after the draw (003 Secondary Targets): none,
    one of the candidates, or — with three shots or more — two of them."""
    if plan.fan is None or plan.fan.mode != "burst3":
        return []
    ids = list(plan.fan_secondary)
    names = {t: c.name for t, (c, _s) in plan.fan_secondary.items()}
    out: list[tuple[str, list[str]]] = [("— none —", [])]
    out += [(names[t], [t]) for t in ids]
    if plan.fan.shots >= 3:
        out += [
            (f"{names[a]} + {names[b]}", [a, b]) for i, a in enumerate(ids) for b in ids[i + 1 :]
        ]
    return out


def cock_first_needed(weapon: Weapon, carried: CarriedWeapon) -> bool:
    """Whether a shot with the gun must cock it first (a single-action gun not
    cocked, 000 Cocking and Readying)."""
    return weapon.needs_cocking and not carried.cocked


def highlights_for(plan: AttackPlan, card: Card, record: AttackRecord) -> dict[str, Any]:
    """Which cells of the card the resolution read."""
    pool = plan.pool
    cells = [(r, pool.die) for r in range(1, pool.count + 1)]
    read = read_pool(card, pool)
    chosen = None
    if not read.is_cf and read.cells:
        rank = max(0, record.hit.rank - 1)
        if rank < len(read.cells):
            chosen = (read.cells[rank].row, pool.die)
    elif read.is_cf:
        cf_rows = [c.row for c in read.cells if c.total is None]
        chosen = (cf_rows[0], pool.die) if cf_rows else None
    effect_cell = None
    if record.effect is not None and record.effect.source in ("DMG", "RD"):
        eff = Effect.model_validate(record.effect.effect)
        effect_cell = (max(1, min(EFFECT_ROWS, eff.row + record.effect.row_bumps)), eff.die)
    sections: set[str] = set()
    if record.covers:
        sections.add("shield")
    if record.strays is not None and record.strays.stray_shots:
        sections.add("figures")
    if record.equipment_failure is not None and record.equipment_failure.wrench is not None:
        sections.add("wrench")
    if record.scatter is not None:
        sections |= {"clock", "step"}
    if record.damage is not None and record.damage.toggle_read is not None:
        sections.add("toggle")
    return {
        "cause_cells": cells,
        "chosen": chosen,
        "effect_cell": effect_cell,
        "hit_index": record.location.stack_index if record.location is not None else None,
        "sections": sections,
        "burst": record.burst if record.burst else None,
    }


def preview(
    table: Table,
    plan: AttackPlan,
    spends: Spends | Sequence[Spends],
    typed: Card | None = None,
    shot: int = 0,
    typed_block: Card | None = None,
    typed_more: Sequence[Card] = (),
    held: Card | None = None,
) -> Preview:
    """Read the attack's card and resolve; the card
    highlights follow shot ``shot`` of a series. ``typed_block`` is the card typed
    in for the defender's block and ``typed_more`` the further cards typed in, in
    the order drawn (physical-card mode). When the resolution needs a card not yet
    typed in, the outcome's ``card_needed`` says what for and the records shown are
    provisional (read as if no further card could be drawn). The card read is
    :func:`resolution_card`'s; only when there is none (no stack card, no card held
    or typed) is it drawn on a copy of the deck — the window never does that: its
    Draw commits the card first (:class:`~twtw_desktop.play.combat_actions.AttackCard`)."""
    deck = table.deck
    discard = deck.discard_pile()
    first = resolution_card(table, plan, typed, held)
    typed_path = deck.physical or (first is not None and first is typed)
    if first is not None and not typed_path:
        scratch = scratch_deck(deck)
        card = first
        out = resolve(table, plan, card, spends, scratch.draw, discard, typed_block)
    elif typed_path:
        if first is None:
            raise RulesError("The deck is in physical-card mode: type in the card drawn.")
        card = first
        numbers = [card.number] + ([typed_block.number] if typed_block is not None else [])
        for c in typed_more:
            if c.number in numbers:
                raise RulesError(f"Card {c.number} was typed in twice for one attack.")
            numbers.append(c.number)
        source = TypedCards(typed_more)
        try:
            out = resolve(table, plan, card, spends, source, discard, typed_block)
            out.typed_used = source.used
        except CardNeeded as need:
            out = resolve(table, plan, card, spends, None, discard, typed_block)
            out.card_needed = need.purpose
            out.typed_used = need.index
    else:
        scratch = scratch_deck(deck)
        card = scratch.draw()
        out = resolve(table, plan, card, spends, scratch.draw, discard, typed_block)
    rec = out.records[min(max(shot, 0), len(out.records) - 1)]
    return Preview(card=card, outcome=out, **highlights_for(plan, card, rec))


def _charge_defense(table: Table, plan: AttackPlan) -> str | None:
    """Charge the defender's block or dodge on the track; a note for the log."""
    req = plan.request
    if plan.defender_ap is None or req.defense is None:
        return None
    if table.time is None or not table.in_action:
        return None
    if not req.charge_ap:
        return f"{plan.target.name}'s {req.defense}: AP not charged (the Judge's choice)"
    if req.defense == "dodge" and dodging_this_round(table, plan.target.id):
        return (
            f"{plan.target.name} is already dodging this round: no more AP "
            "(000: a dodge covers every attack from its front)"
        )
    if req.defense == "block" and blocking_declared(table, plan.target.id):
        return f"{plan.target.name}'s block was declared and paid for before the attack"
    kind = ActionKind.BLOCK if req.defense == "block" else ActionKind.DODGE
    spec = _action_spec(kind, plan.defender_ap, Speed.FAST, plan.block_weapon, [plan.shooter.id])
    try:
        return table.time.pay_reaction(plan.target.id, spec).summary
    except RulesError as e:
        return f"{plan.target.name}'s {req.defense} was not paid for: {e}"


def write_attack(
    table: Table,
    plan: AttackPlan,
    spends: Spends | Sequence[Spends],
    expected_card: int | None = None,
    typed: Card | None = None,
    typed_block: Card | None = None,
    typed_more: Sequence[Card] = (),
    held: Card | None = None,
) -> Outcome:
    """Resolve for real — call it inside one table step (the attack actions'
    ``apply``, :mod:`.combat_actions`): draw (or enter the typed cards), pay the AP,
    resolve, write wounds / Conc / stun to every sheet the resolution touched, fire
    the shooter's weapon, take a thrown thing out of the kit, lower ablated covers'
    AV and log one line per shot with the whole record as its detail.
    ``typed_block`` is the typed-in card of the defender's block and ``typed_more``
    the further cards typed in, in the order drawn (physical mode); a resolution
    that needs a card not typed in is refused (and the step changes nothing).
    ``held`` is the card the window's Draw took off the deck for this attack
    (in play until now). The card read first is :func:`resolution_card`'s."""
    deck = table.deck
    discard = deck.discard_pile()
    in_play_before = {c.number for c in deck.in_play}
    first = resolution_card(table, plan, typed, held)
    typed_path = deck.physical or (first is not None and first is typed)
    more: Any = TypedCards(typed_more, enter=deck.enter_physical) if typed_path else deck.draw
    if first is not None and first is not typed:
        card = first  # on the table already: the stack's card, or the one Draw took
        if held is not None and first is held:
            in_play_before.discard(card.number)  # read now: discarded with the others
    elif typed_path:
        if typed is None:
            raise RulesError("The deck is in physical-card mode: type in the card drawn.")
        card = deck.enter_physical(typed)
    else:
        card = deck.draw()
    if expected_card is not None and card.number != expected_card:
        raise RulesError(
            f"The deck has changed since the draw (card {card.number}, not "
            f"{expected_card}); draw again."
        )
    block_card = None
    if typed_block is not None:
        block_card = deck.enter_physical(typed_block)
    track_note, declared = _charge_track(table, plan)
    defense_note = _charge_defense(table, plan)
    try:
        out = resolve(table, plan, card, spends, more, discard, block_card)
    except CardNeeded as need:
        raise RulesError(f"Type in the card drawn for {need.purpose} first.") from None
    if out.needs_block_card:
        raise RulesError("Type in the card drawn for the block first.")
    for cid, ch in out.characters.items():
        if cid == plan.shooter.id and plan.request.skill_advantage:
            # the levels spent on advantage were for this blow only (001)
            ch = ch.model_copy(update={"skills": table.character(cid).skills})
        assign_character(table.character(cid), ch)
    if table.in_action and table.time is not None:
        # a stun or a fall acts on the track at once (000 Wound Effects)
        synced = table.time.sync_status(table.encounter.characters)
        if synced is not None:
            table.log(synced.summary, "track")
    notes: list[str] = []
    # a planned weapon always comes with its index on the sheet (plan_attack)
    if plan.mode == "ranged" and plan.weapon is not None and plan.request.weapon_index is not None:
        shooter = table.character(plan.shooter.id)
        loaded = shooter.weapons[plan.request.weapon_index].loaded
        fired = after_shot(
            shooter,
            plan.weapon,
            rounds=max(1, min(plan.rounds, loaded)),
            carried_index=plan.request.weapon_index,
        )
        idx = plan.request.weapon_index
        failed = [
            r.equipment_failure
            for r in out.records
            if r.equipment_failure is not None and r.equipment_failure.failed
        ]
        if failed and idx is not None:
            # the wrench beat the gun's Rel: it is jammed on the sheet until cleared
            fired.weapons[idx] = after_failure(fired.weapons[idx], failed[0])
            if fired.weapons[idx].failure:
                notes.append(
                    f"{shooter.name}'s {plan.weapon.name} is {fired.weapons[idx].failure} "
                    "(equipment failure): clear it before it fires again"
                )
        if plan.request.draw_first and plan.request.weapon_index is not None:
            drawn = fired.weapons[plan.request.weapon_index]  # drawn and fired in one go
            drawn.readied = True
            notes.append(f"{shooter.name} draws the {plan.weapon.name} and shoots")
        assign_character(shooter, fired)
    if plan.mode == "thrown" and plan.weapon is not None:
        gone = consume_thrown(
            table, table.character(plan.shooter.id), plan.weapon, plan.request.weapon_index
        )
        if gone:
            notes.append(gone)
    if plan.request.counter is not None:  # spent: back in the pool (002)
        notes.append(spend_counter_on(table.character(plan.shooter.id), plan.request.counter))
    if table.edition.ablation_lowers_av:
        covers: list[tuple[str, int]] = []
        for r in out.records:
            covers += list(r.ablated_covers)
            if r.blast is not None:
                covers += [c for c in r.blast.ablated_covers if c not in covers]
        ablate_covers(table, covers, notes)
    for c in list(deck.in_play):
        if c.number not in in_play_before:
            out.drawn.append(c.number)
            deck.discard(c)
    for i, record in enumerate(out.records):
        detail: dict[str, Any] = {"record": record.model_dump(mode="json")}
        if i == 0:
            detail["situation"] = list(plan.geometry)
            detail["track"] = track_note
            if declared is not None:
                detail["declared"] = list(declared)
            if defense_note:
                detail["defense"] = defense_note
            if plan.request.defense == "dodge":
                detail["dodge_by"] = plan.target.id
            if plan.request.defense == "block":
                detail["block_by"] = plan.target.id
            if notes:
                detail["effects"] = notes
            if out.landing is not None:
                detail["landing"] = [out.landing.q, out.landing.r]
        if len(out.records) > 1:
            detail["series"] = f"shot {i + 1} of {len(out.records)}"
        if record.strays is not None and record.strays.candidates_hit:
            detail["stray_candidates_hit"] = list(record.strays.candidates_hit)
        if record.blast is not None:
            detail["blast"] = blast_lines(table, record.blast)
        table.log(named_summary(table, record), "attack", detail)
    return out


def attack_label(plan: AttackPlan) -> str:
    """The undo step's name for an attack."""
    if plan.fan is not None:
        return f"{plan.shooter.name} fans {plan.fan.shots} shot(s)"
    return f"{plan.shooter.name} attacks {plan.target.name}"


def named_summary(table: Table, record: AttackRecord) -> str:
    """The record's one-line summary with names instead of ids."""
    text = record.summary()
    names = {c.id: c.name for c in table.encounter.characters}
    for t in table.encounter.tokens:
        if t.character_id in names:
            names[t.id] = names[t.character_id]
    for key in sorted(names, key=len, reverse=True):  # "token-x" before "x"
        if key in text:
            text = text.replace(key, names[key])
    if record.weapon_id:
        w = table.gear.weapons.get(record.weapon_id)
        if w is not None:
            text = text.replace(f"({record.weapon_id})", f"({w.name})")
    return text


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


def _declared_keys_used(table: Table) -> set[tuple[int, int, int]]:
    """The track entries (round, segment, seq) attacks of this round already used
    instead of paying again (read off the log, so undo gives them back)."""
    out: set[tuple[int, int, int]] = set()
    if not table.in_action:
        return out
    rnd, _seg = table.now()
    for entry in reversed(table.encounter.log):
        if entry.round != rnd:
            break
        key = (entry.detail or {}).get("declared") if entry.kind == "attack" else None
        if key:
            out.add((int(key[0]), int(key[1]), int(key[2])))
    return out


def declared_shot(table: Table, plan: AttackPlan) -> tuple[Any, tuple[int, int, int]] | None:
    """A shot (or blow) the shooter already declared on the AP v2 track this round
    and no attack has used yet: (its stack entry, its key), or None."""
    time = table.time
    if time is None or not table.in_action or time.kind != "segments" or plan.spec is None:
        return None
    track = time.engine
    used = _declared_keys_used(table)
    for e in track.stack():
        key = (track.round, e.segment, e.seq)
        if e.character_id != plan.shooter.id or key in used or e.performed:
            continue
        same = e.action.kind in SHOT_KINDS | {ActionKind.MELEE_ATTACK, ActionKind.OTHER}
        if same and (e.action.weapon_id in (None, plan.spec.weapon_id)):
            return e, key
    return None


def stack_card(table: Table, plan: AttackPlan) -> Card | None:
    """The card flipped for the shooter's declared action when this segment's stack
    resolved (000 Initiative Stack: a character's card "will determine the order in
    the stack they will perform their action, as well as the effects of that
    action"), or None: no declared action, an unresolved stack (a single action
    needs no flip) or AP not charged (the declaration is then not used)."""
    if not plan.request.charge_ap:
        return None
    found = declared_shot(table, plan)
    if found is None:
        return None
    e, _key = found
    return e.card if e.resolved and e.card is not None else None


def resolution_card(
    table: Table, plan: AttackPlan, typed: Card | None = None, held: Card | None = None
) -> Card | None:
    """The card that resolves the attack, when it is already known: the initiative
    stack's card (see :func:`stack_card`), else the card the window's Draw took off
    the deck (``held``, in play), else the card typed in. None: the deck deals it.
    A typed or held card that is not the stack's is refused, naming the stack's."""
    flipped = stack_card(table, plan)
    if flipped is not None:
        other = held if held is not None else typed
        if other is not None and other.number != flipped.number:
            raise RulesError(
                f"Card {flipped.number} was flipped for this action on the initiative "
                f"stack and resolves it (000 Initiative Stack), not card {other.number}."
            )
        return flipped
    if held is not None:
        if held.number not in {c.number for c in table.deck.in_play}:
            raise RulesError(
                f"Card {held.number} is not in play: it was not drawn for this attack; draw again."
            )
        return held
    return typed


def track_refusal(table: Table, plan: AttackPlan) -> str | None:
    """Why the attack's AP cannot be paid now (None: it can, it is already declared,
    or nothing is charged)."""
    if table.time is None or not table.in_action or not plan.request.charge_ap:
        return None
    if plan.spec is None:
        return None
    found = declared_shot(table, plan)
    if found is not None:
        return rushed_refusal(found[0], plan.spec)
    return table.time.why_not_pay(plan.shooter.id, plan.spec)


def rushed_refusal(entry: Any, spec: ActionSpec) -> str | None:
    """Why a rushed stack entry does not allow this shot (000 Rushing Actions): a
    rushed shot is a snap shot (1), and a fully paid rush keeps only the aims its
    counters finished (3)."""
    if entry.resolves_as_snap and spec.kind in (ActionKind.NORMAL_SHOT, ActionKind.AIMED_SHOT):
        return (
            'The shot was rushed: it is a snap shot (000 Rushing Actions 1: "any shot that is '
            'taken after a rush is always a snap shot").'
        )
    if entry.rush_kept_aims is not None and spec.aims > entry.rush_kept_aims:
        return (
            f"The rush kept {entry.rush_kept_aims} finished aim(s); the unfinished one is lost "
            "(000 Rushing Actions 3)."
        )
    return None


def _charge_track(table: Table, plan: AttackPlan) -> tuple[str, tuple[int, int, int] | None]:
    """Spend the attack's AP on the track (action time): a note for the log, and the
    key of the declared track entry used instead of paying (None: paid now)."""
    if table.time is None or not table.in_action:
        return "narrative time: no AP charged", None
    if not plan.request.charge_ap:
        return "AP not charged (the Judge's choice)", None
    found = declared_shot(table, plan)
    if found is not None:
        e, key = found
        if e.intent is not None:  # a declared action carried out in its place
            table.time.engine.perform_entry(e.seq)
        return f"already declared on segment {e.segment}: {e.action.describe()}", key
    return table.time.pay(plan.shooter.id, plan.spec).summary, None
