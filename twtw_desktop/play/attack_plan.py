"""Planning an attack before any card: :func:`plan_attack` and the hand-to-hand half.

:func:`plan_attack` checks the request, reads the weapon and the map and hands shots
and throws to :mod:`.attack_ranged`; a blow is planned here (reach, engagement,
position and the defender's block or dodge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RulesError
from ..geometry.fields import dodge_front
from ..rules.actions import ActionKind
from ..rules.base import Speed
from ..rules.character import Character
from ..rules.combat.ancillary import discharge_candidates
from ..rules.combat.melee import (
    UNARMED_SKILL,
    DodgeSpec,
    check_engaged,
    defense_ap_cost,
    dodge_allowed,
    melee_ap_cost,
    melee_profile,
    melee_tn,
)
from ..rules.combat.records import ApBreakdown, mod
from .attack_ranged import _plan_ranged
from .attack_request import (
    AttackPlan,
    AttackRequest,
    Geometry,
    _action_spec,
    attacked_this_round,
    continuous_mover,
    dodging_this_round,
    forgoes_moving,
)
from .engagement import SRC_BREAK, free_blow, melee_weapon, situation

if TYPE_CHECKING:
    from .table import Table


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
