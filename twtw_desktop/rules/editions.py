"""Edition data: every number that differs between AP v2 (segments) and Phases.

RULES.md: each edition's differing numbers live in one data file
(``resources/editions/<id>.json``), not in ``if`` branches. Optional rules are
per-encounter switches (:class:`OptionalRules`), off unless a page says otherwise.
Every value carries its source page in the JSON ``_sources`` block, and values the
pages leave open are listed in ``house_values`` with the reason.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Literal

from pydantic import Field, ValidationError, model_validator

from ..errors import LoadError
from ..resources import resource_path
from .base import Strict

EditionId = Literal["ap_v2", "phases"]


class WoundRow(Strict):
    level: Annotated[int, Field(ge=1, le=5)]
    name: str
    ap_penalty: Annotated[int, Field(ge=0)]
    stun_tn: Annotated[int, Field(ge=1)]


class SizeStep(Strict):
    """Small targets: a target of ``size`` or less adds ``tn`` to the TN."""

    max_size: Annotated[int, Field(ge=0)]
    tn: Annotated[int, Field(ge=1)]


class LargeTargets(Strict):
    """Large targets: +1 to the result per ``per`` Size above ``above`` (max ``cap``)."""

    above: int
    per: Annotated[int, Field(ge=1)]
    cap: Annotated[int, Field(ge=0)]


class TwoWeapons(Strict):
    """Penalties to the result for fighting with a weapon in each hand."""

    each: int  # applies to every attack (negative)
    off_hand_extra: int  # additional for the off hand (negative)
    aim_extra_ap: int  # aiming two weapons together costs this much more per aim


class MeleeDefense(Strict):
    """Defense (the melee TN): ``base + f(skill level)``.

    * ``half_up``   — AP v2: 4 + half the level, rounded up.
    * ``per_level`` — Phases (001): 3 + the level.
    Armed-vs-unarmed and Defend add their bonus where the edition has them.
    """

    base: int
    rule: Literal["half_up", "per_level"]
    armed_vs_unarmed: int = 0
    defend_attribute: int = 0


class ImpactRule(Strict):
    """How impact (non-lethal) damage turns into wounds and Conc.

    * ``escalating`` — AP v2: first wound costs 2×Size, each further Size, the rest Conc.
    * ``brawling``   — Phases (001/003): 3 Conc per full Size, 1 wound per full 2×Size;
      weapons with the impact attribute deal the same wounds but 1 Conc per point.
    """

    rule: Literal["escalating", "brawling"]


class Throwing(Strict):
    """Thrown weapons' range increment, maximum range and scatter distance."""

    increment: Literal["fixed", "strength"]
    fixed_increment: int | None = None  # AP v2: 10 paces
    #: Phases: increment = Strength die / 2 + strength_add (001's worked arithmetic)
    strength_add: int = 2
    #: maximum range = Strength die × max_range_per_die (001; a house value in AP v2)
    max_range_per_die: int = 5
    #: scatter: ``step`` (AP v2) or ``tn_minus_result_plus_step`` (Phases, 001)
    scatter: Literal["step", "tn_minus_result_plus_step"]
    scatter_max_half_throw: bool = False
    cf_scatters_from_thrower: bool = False


class ProneTarget(Strict):
    """AP v2: prone adds ``result`` to the result (000 Modifiers: "Target is prone | +1",
    in the column with "Firer is moving | -1/-4" and "Firer is mounted | -2"). Phases
    (003): a hit must show the prone attribute on the card's hit location or it
    misses, unless within ``ignore_within``."""

    rule: Literal["result", "hit_location_attribute"]
    result: int = 0
    ignore_within: int = 0


class Healing(Strict):
    """First aid, rest and healing (001 Healing, 000/001 Wound Effects and Recovery).

    ``wound_tn`` is the Medicine TN to treat a location by its wound count (index 0 =
    one wound); ``conc_care_tn`` the check that gives back all Conc in
    ``conc_care_minutes``; ``conc_per_minute`` the Conc a resting character gets back
    without care; ``revive_tn`` the check that wakes an unconscious character;
    ``unconscious_hours`` how long one stays down at most (1d6). The rest are house
    values (the edition's ``house_values`` say why).
    """

    skill: str = "medicine"
    wound_tn: Annotated[list[Annotated[int, Field(ge=0, le=50)]], Field(min_length=5, max_length=5)]
    wounds_need_skill: bool = True
    conc_care_tn: Annotated[int, Field(ge=0, le=50)]
    conc_care_minutes: Annotated[int, Field(ge=1)]
    conc_per_minute: Annotated[int, Field(ge=0)]
    revive_tn: Annotated[int, Field(ge=0, le=50)]
    unconscious_hours: Annotated[int, Field(ge=1)]
    #: house: AP of a first aid in action time (a skill needing full attention, 000)
    first_aid_ap: Literal[4, 8]
    #: house: the healer's token must stand within this many paces of the patient's
    first_aid_reach: Annotated[int, Field(ge=0)]
    #: house: a successful first aid binds the location (it stops bleeding until hit again)
    first_aid_binds: bool
    #: house: a rest binds every wound (the posse dresses its wounds between fights)
    rest_binds: bool


class AimRules(Strict):
    """How aim actions change a shot (000 / 001 / 003 Aim and Snap Shots).

    * AP v2 (000): a normal shot has no snap penalty; each aim action after it adds
      ``bonus_each`` (at most ``max``), and Accurate(n) counts once aimed at all.
    * Phases (001/003): a shot with no aim action before it is a snap shot
      (``unaimed_is_snap``); the first ``penalty_aims`` aim(s) only remove the
      penalty, each further one adds ``bonus_each`` (``max`` = 1 + 2); Accurate(n)
      counts from ``accurate_from`` aims ("aimed more than once", 001); aim *k*
      costs the weapon's aim AP + (k − 1) × ``extra_ap_each`` (001's Schofield: 2
      aims 3 AP, 3 aims 6 AP); an aim may be carried into the next round (003).
    """

    max: Annotated[int, Field(ge=1, le=3)]
    bonus_each: Annotated[int, Field(ge=0)]
    penalty_aims: Annotated[int, Field(ge=0, le=1)] = 0
    accurate_from: Annotated[int, Field(ge=1)] = 1
    extra_ap_each: Annotated[int, Field(ge=0)] = 0
    unaimed_is_snap: bool = False
    across_rounds: bool = False
    #: the seed page the edition's aim rule comes from (for the TN panel)
    source: str = "000 Aim and Snap Shots"

    def bonus(self, aims: int) -> int:
        """The result bonus of ``aims`` aim actions (the penalty aims give none)."""
        return self.bonus_each * max(0, aims - self.penalty_aims)

    def aim_ap(self, weapon_aim_ap: int, k: int) -> int:
        """AP of the ``k``-th aim action (1-based) at a weapon's aim AP."""
        return weapon_aim_ap + (k - 1) * self.extra_ap_each


class Edition(Strict):
    """All the numbers of one edition."""

    id: EditionId
    name: str
    time: Literal["segments", "phases"]
    wound_table: list[WoundRow]
    #: ``completed``: +1 TN per full increment (AP v2: inc 10 → 5 up to 9, 6 up to 19);
    #: ``started_after_first``: +1 per started increment after the first (Phases:
    #: inc 8 → 5 up to 8, 6 up to 16).
    range_rounding: Literal["completed", "started_after_first"]
    point_blank_tn: int
    base_ranged_tn: int
    small_targets: list[SizeStep]
    large_targets: LargeTargets
    not_visible: int  # result modifier for a target not visible behind cover
    firer_walking: int
    firer_running: int
    firer_mounted: int
    speed_per_penalty: int  # −1 per this many paces of relative speed
    secondary_target: int  # per target after the first, cumulative
    appearing: int
    prone_target: ProneTarget
    two_weapons: TwoWeapons
    two_handed_one_hand: int
    #: wound level (index 0 = level 1) → result modifier for a wounded firer (house)
    wounded_firer: list[int]
    called_shots: dict[str, int]
    melee_defense: MeleeDefense
    impact: ImpactRule
    throwing: Throwing
    #: cover material → AV
    cover_av: dict[str, int]
    ablation_lowers_av: bool
    #: 5th wound to head/torso: ``critical`` (AP v2 — critical wounds, see death) or
    #: ``fatal`` (Phases — death).
    head_torso_disabled: Literal["critical", "fatal"]
    bravery_ranged_tn: int
    bravery_melee_tn: int
    bravery_extra_shot: int  # per shot after the first (result modifier)
    bravery_per_hit: int  # per hit taken (result modifier)
    surprise_expecting_tn: int
    surprise_unexpecting_tn: int
    surprise_recover_tn: int
    victory_threshold: int
    bump_every: int
    aim: AimRules
    #: fan firing: ``per_shot`` (000: one downgrade per shot and per extra target, each
    #: shot its own resolution) or ``burst3`` (003: one check at TN + shots, read burst 3)
    fan_firing: Literal["per_shot", "burst3"]
    #: fan firing raises a revolver's Rel by 1 whatever the encounter's switch says
    #: (000 Pushing the Limit is not optional; 001 calls it an advanced rule)
    pushing_the_limit_always: bool = False
    #: first aid, rest and healing (001 Healing)
    healing: Healing
    house_values: dict[str, str] = {}

    def wound_row(self, level: int) -> WoundRow | None:
        """Row for a wound level 1..5 (None for level 0; beyond the table, the last)."""
        if level <= 0:
            return None
        for row in self.wound_table:
            if row.level == level:
                return row
        return self.wound_table[-1]

    def ap_penalty(self, level: int) -> int:
        row = self.wound_row(level)
        return row.ap_penalty if row else 0

    def stun_tn(self, level: int) -> int:
        """Stun TN for a wound level; level 0 (Conc only) uses the first row's TN (001)."""
        row = self.wound_row(max(level, 1))
        assert row is not None
        return row.stun_tn


class OptionalRules(Strict):
    """Per-encounter switches for the rules the pages mark optional (off by default)."""

    total_speed: bool = False  # total instead of relative target speed
    rushing: bool = False  # 000's rushing actions
    weapon_length: bool = False  # 000's weapon length advantage
    arc_edges: bool = False  # 003's toggle for hexes half inside an arc
    fields_of_fire: bool = True  # 003 "advanced"; needed for the +1 AP switch rule
    bleeding: bool = False  # 001
    risk: bool = False  # 001
    aim_with_acuity: bool = False  # 000/001
    #: fan firing raises a revolver's Rel by 1 (001's advanced rule; always on in AP v2,
    #: where 000 does not make it optional: ``Edition.pushing_the_limit_always``)
    pushing_the_limit: bool = False
    cause_effect_uncoupling: bool = False  # 000 card hacking
    hit_location_damage_draw: bool = False  # 000 card hacking
    #: 002 Setting Victory Threshold (optional): the encounter's complex checks count a
    #: victory per this much effect instead of the edition's 6 (None: the edition's)
    victory_threshold: Annotated[int, Field(ge=1, le=20)] | None = None
    unintended_targets: bool = True  # 000 calls them optional; on because Judges expect it
    # house: a dodge also counts against shots and throws from its front (000 puts the
    # dodge in Hand to Hand Combat; read narrowly by default)
    dodge_vs_ranged: bool = False
    phases_card_per: Literal["all", "side", "character"] = "all"  # 004 optional resolution
    #: 002 The Bonus Counter: the counters the Judge puts in the group's shared pool
    #: for the session (generally one less than the number of players; 0: not used)
    bonus_pool: Annotated[int, Field(ge=0, le=20)] = 0

    @model_validator(mode="before")
    @classmethod
    def _drop_prone_reading(cls, data: object) -> object:
        """Files saved before issue 35 carry ``prone_reading`` (a switch that read 000's
        "Target is prone | +1" as +1 to the TN). The table's sign is the rule now: the
        old switch is dropped on load, whatever it said."""
        if isinstance(data, dict) and "prone_reading" in data:
            return {k: v for k, v in data.items() if k != "prone_reading"}
        return data


def victory_threshold(edition: Edition, options: OptionalRules | None = None) -> int:
    """Effect per victory for this encounter's complex checks: the optional set
    threshold (002 Setting Victory Threshold) or the edition's (002: 6)."""
    if options is not None and options.victory_threshold is not None:
        return options.victory_threshold
    return edition.victory_threshold


@cache
def load_edition(edition_id: str) -> Edition:
    """Load a bundled edition file (cached; editions are immutable)."""
    path = resource_path("editions", f"{edition_id}.json")
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise LoadError(path, f"no edition called {edition_id!r}") from e
    except (OSError, ValueError) as e:
        raise LoadError(path, f"not readable JSON ({e})") from e
    raw.pop("_sources", None)
    raw.pop("_comment", None)
    try:
        return Edition.model_validate(raw)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise LoadError(path, err["msg"], where) from e


def edition_ids() -> list[str]:
    return ["ap_v2", "phases"]
