"""What an attack brings to its resolution: the :class:`AttackProfile` (built for a
shot or a throw by :func:`ranged_profile`, for hand to hand by :mod:`..melee`), the
free hit-location shifts, and :func:`draw_for`, which draws each further card for a
named purpose."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ....errors import RulesError
from ...base import Effect, HitLocation, Pool, Strict
from ...card import Card
from ...character import Character
from ...deck import CardSource
from ...editions import Edition, OptionalRules
from ...gear import Weapon
from ..ranged import (
    FAN_BURST,
    FanPlan,
    ShotSpec,
    range_steps,
    shot_pool,
)
from ..situation import Cover, ShotSituation
from ..thrown import throw_range

#: Hit-location modifiers (001/003): point blank is one free bump up (down when
#: aiming low), punch one up, height one up, kick one down.
POINT_BLANK_SHIFT = 1
PUNCH_SHIFT = 1
HEIGHT_SHIFT = 1
KICK_SHIFT = -1


class AttackProfile(Strict):
    """What the resolution needs to know about the attack itself (built by
    :func:`ranged_profile` or by :mod:`..melee`)."""

    attack_kind: Literal["ranged", "thrown", "melee"]
    weapon_id: str | None = None
    weapon_name: str = "bare hands"
    pool: Pool
    dmg: Effect | None = None
    rd: Effect | None = None
    #: brawling damage that is a number, not an effect cell (000: quick attack 5 + DB)
    flat_damage: int | None = None
    #: DB added to a hand-to-hand attack's damage (000 Hand to Hand Combat)
    damage_bonus: int = 0
    #: effect rows added (+) or taken away (−) before the bumps (attack type, dominance)
    row_shift: int = 0
    row_shift_reasons: tuple[str, ...] = ()
    damage_kind: Literal["deadly", "impact"] = "deadly"
    impact_attribute: bool = False
    pen: int = 0
    rel: int | None = None
    rel_reasons: tuple[str, ...] = ()
    #: free hit location bumps: + up, − down (001/003 Hit Location Modifiers)
    free_shift: int = 0
    free_shift_reasons: tuple[str, ...] = ()
    scatter_weapon: bool = False
    burst: int | None = None
    #: projectiles actually fired when fewer than the burst (003 fan firing)
    max_hits: int | None = None
    #: 003 fan firing: bumps buy extra hits and secondary targets cost a bump
    fan_burst: bool = False
    #: the hit goes here whatever the card says (called shot, blocked to the arm)
    forced_location: HitLocation | None = None
    forced_reason: str = ""
    #: full dominance: the attacker names the hit location (000)
    may_choose_location: bool = False
    #: Phases prone target rule (003): the hit needs the prone attribute
    prone_attribute_rule: bool = False
    covers: tuple[Cover, ...] = ()
    strays_enabled: bool = False
    range_band: Annotated[int, Field(ge=1)] = 1
    into_melee: bool = False
    unintended_candidates: tuple[str, ...] = ()
    scatter_on_miss: bool = False
    throw_distance: float = 0
    explosive: bool = False
    blast_radius: int | None = None


# =============================================================================
# Building the profile of a shot
# =============================================================================


def ranged_profile(
    attacker: Character,
    weapon: Weapon,
    edition: Edition,
    situation: ShotSituation,
    shot: ShotSpec,
    *,
    options: OptionalRules | None = None,
    burst: int | None = None,
    fan: FanPlan | None = None,
) -> AttackProfile:
    """The profile of a ranged shot or a throw."""
    options = options or OptionalRules()
    s = situation
    pool, _ = shot_pool(attacker, weapon, shot, options)
    free = 0
    free_reasons: list[str] = []
    if s.point_blank:
        if s.point_blank_low:
            free -= POINT_BLANK_SHIFT
            free_reasons.append("point blank, aimed low: one bump down (003 Point Blank)")
        else:
            free += POINT_BLANK_SHIFT
            free_reasons.append("point blank: one bump up (001/003 Hit Location Modifiers)")
    rel = weapon.rel
    rel_reasons: list[str] = []
    max_hits = None
    fan_burst = False
    if fan is not None:
        if fan.rel != weapon.rel:
            rel = fan.rel
            rel_reasons.append(f"pushing the limit: Rel {weapon.rel} → {fan.rel} (000 Fan Firing)")
        if fan.mode == "burst3":
            burst = FAN_BURST
            max_hits = fan.shots
            fan_burst = True
    elif burst is None and weapon.burst is not None:
        burst = getattr(weapon, "default_burst", None) or weapon.burst
    if burst is not None and burst not in (3, 5, 10):
        raise RulesError(f"The card shows bursts of 3, 5 and 10, not {burst}.")
    modes = getattr(weapon, "burst_modes", None) or ([weapon.burst] if weapon.burst else [])
    if burst is not None and not fan_burst and burst not in modes:
        raise RulesError(f"The {weapon.name} cannot fire a burst of {burst}.")
    band = s.range_band
    if band is None:
        if shot.thrown:
            increment = throw_range(attacker, weapon, edition).increment
        else:
            increment = weapon.range_increment or 1
        band = 1 + range_steps(s.range_paces, increment, edition.range_rounding)
    prone_rule = (
        s.target_prone
        and edition.prone_target.rule == "hit_location_attribute"
        and s.range_paces > edition.prone_target.ignore_within
    )
    called = s.called_hit
    return AttackProfile(
        attack_kind="thrown" if shot.thrown else "ranged",
        weapon_id=weapon.id,
        weapon_name=weapon.name,
        pool=pool,
        dmg=weapon.dmg,
        rd=weapon.rd,
        damage_kind=weapon.damage_kind,
        impact_attribute="impact" in weapon.attributes,
        pen=weapon.pen,
        rel=rel,
        rel_reasons=tuple(rel_reasons),
        free_shift=free,
        free_shift_reasons=tuple(free_reasons),
        scatter_weapon=weapon.scatter,
        burst=burst,
        max_hits=max_hits,
        fan_burst=fan_burst,
        forced_location=called,
        forced_reason=f"called shot at the {called.value.replace('_', ' ')} (001)"
        if called
        else "",
        prone_attribute_rule=prone_rule,
        covers=s.covers,
        strays_enabled=options.unintended_targets and not shot.thrown,
        range_band=band,
        into_melee=s.target_in_melee,
        unintended_candidates=s.unintended_candidates,
        scatter_on_miss=shot.thrown,
        throw_distance=s.range_paces,
        explosive=weapon.kind == "explosive",
        blast_radius=weapon.blast_radius,
    )


def draw_for(more: CardSource, purpose: str) -> Card:
    """Draw the next card from ``more`` for ``purpose`` (e.g. "Felicia's stun
    check"). A source that wants to know what each card is for — the typed-in cards
    of a printed deck, where the Judge is asked for every card — offers a
    ``name_next(purpose)`` method and is told first; any other callable just draws."""
    name_next = getattr(more, "name_next", None)
    if callable(name_next):
        name_next(purpose)
    return more()
