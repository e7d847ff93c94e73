"""Planning shots and throws (the ranged half of :func:`~.attack.plan_attack`).

The shot's situation read off the map (range, cover line, visibility, relative speed,
unintended-target candidates), a dodge against a shot, a fan, a firing series, a
burst's second target and a Phases fan's secondary targets.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from ..errors import RulesError
from ..geometry.fields import dodge_front, in_field_of_fire
from ..geometry.speed import token_target_speed
from ..model.encounter import Token
from ..rules.actions import ActionKind, shot_speed
from ..rules.base import HitLocation
from ..rules.character import CarriedWeapon, Character, Posture
from ..rules.combat.melee import DodgeSpec, defense_ap_cost, dodge_items
from ..rules.combat.ranged import (
    PlannedShot,
    ShotSpec,
    attack_limit,
    fan_shot_tn,
    one_hand_only,
    plan_attacks,
    plan_fan_fire,
    ranged_tn,
    shot_ap_cost,
    shot_pool,
)
from ..rules.combat.records import ApBreakdown, TnBreakdown, mod
from ..rules.combat.situation import CALLED_SHOT_LOCATIONS, ShotSituation
from .attack_request import (
    CORRIDOR_PACES,
    AttackPlan,
    AttackRequest,
    Geometry,
    SeriesShot,
    _action_spec,
    _shot_spec,
    _speed,
    attacked_this_round,
    continuous_mover,
    corridor,
    display_name,
    forgoes_moving,
)
from .engagement import in_melee as target_engaged
from .engagement import melee_weapon

if TYPE_CHECKING:
    from .table import Table


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
    if stok.target_mark_on == ttok.id and stok.target_mark_at is not None:
        # 001 Declare Target: the target token marks "where during the movement that
        # character will be targeted": range, cover and sight read from there
        ttok = ttok.model_copy(update={"hex": stok.target_mark_at})
        geo_lines.append(
            f"{target.name} is shot where {display_name(table, stok.id)}'s target token "
            f"lies, {table.hex_label(ttok.at)}, on their move (001 Declare Target)"
        )
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
        # 000 Two handed ranged weapons: 2 downgrades with one hand (a disabled arm, or
        # what else is in hand)
        why = one_hand_only(shooter, req.weapon_index, table.gear, two_weapons=req.two_weapons)
        if why is not None:
            plan.situation = plan.situation.model_copy(update={"two_handed_in_one_hand": True})
            plan.geometry.append(
                f"the {weapon.name} is fired with one hand: {why} (000 Two handed ranged weapons)"
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
    if fan.auto_miss:
        plan.automatic_misses.append(fan.auto_miss)
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
    if series_plan.auto_miss:
        plan.automatic_misses.append(series_plan.auto_miss)
    for i, sh in enumerate(plan.series[1:], 2):
        line = (
            f"attack {i} ({kinds[i - 1]}) at {sh.target.name}: TN {sh.tn.tn}, "
            f"result {sh.tn.result_modifier:+d}, "
            + (
                f"the pool's result number {i}"
                if i <= limit
                else "beyond the skill level: misses automatically (000 Multiple Attacks)"
            )
        )
        plan.geometry.append(line)
        if i > limit:
            plan.automatic_misses.append(line)
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
