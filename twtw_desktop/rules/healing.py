"""First aid, rest and healing (001 Healing; 000/001 Wound Effects and Recovery).

What the pages give (the numbers live in the edition's ``healing`` block):

* Conc: a Simple (3) Medicine check — anyone may make it — gives back all Conc in
  about two minutes; without care a character gets 1 Conc back a minute (001).
* Wounds: only a character skilled in Medicine treats them, once per wounded area,
  within an hour of the injury; success takes one wound off the location. The TN
  goes by the wound level (001's table: 3 / 5 / 7 / 9) — read here as the treated
  location's own count, since each area is checked on its own.
* Between scenes a skilled character checks Medicine once per wounded area against
  the same TNs; each success improves that area by one level (001, "every scene").
* Unconscious (a CF on a recovery check): 1d6 hours, or until a Standard (5)
  Medicine check revives the character (000/001).

House readings (the edition's ``house_values`` say why): first aid's AP in action
time, the healer standing next to the patient, a successful first aid binding the
location so it stops bleeding, a rest binding every wound, and a rest of 6 hours
waking the unconscious. A limb with five wounds is disabled, "in most cases
permanently" (000): neither first aid nor rest brings it back.

Every function returns a new sheet (the one passed in is never changed) and the
reasons, one line each, for the log.
"""

from __future__ import annotations

from typing import Literal

from ..errors import RulesError
from .base import Pool, WoundLocation
from .character import MAX_WOUNDS, SKILLS, Character
from .damage import VITAL_LOCATIONS, bleed_rate
from .editions import Edition

SOURCE_HEALING = "001 Healing"
SOURCE_REVIVE = "000/001 Wound Effects (Standard (5) Medicine revives)"
SOURCE_HOUSE = "house"

Treatment = Literal["wound", "conc", "revive"]
TREATMENTS: tuple[Treatment, ...] = ("wound", "conc", "revive")

#: location names as a Judge says them
LOCATION_NAMES: dict[WoundLocation, str] = {
    WoundLocation.HEAD: "head",
    WoundLocation.TORSO: "torso",
    WoundLocation.RIGHT_ARM: "right arm",
    WoundLocation.LEFT_ARM: "left arm",
    WoundLocation.RIGHT_LEG: "right leg",
    WoundLocation.LEFT_LEG: "left leg",
}


def where(loc: WoundLocation) -> str:
    return LOCATION_NAMES.get(loc, loc.value.replace("_", " "))


# -- the check --------------------------------------------------------------------


def medicine_pool(healer: Character, edition: Edition) -> tuple[Pool, list[str], bool]:
    """The healer's Medicine pool (level × the trait's die, or the trait's pool when
    unskilled, 002), why, and whether the healer is skilled."""
    skill = edition.healing.skill
    rating = healer.skills.get(skill)
    trait = rating.trait if rating is not None else SKILLS.get(skill, "acuity")
    tpool = healer.trait_pool(trait)
    if rating is not None and rating.level >= 1:
        pool = Pool(count=rating.level, die=tpool.die)
        return pool, [f"{skill.title()} {rating.level} with {trait.title()}: {pool}"], True
    return tpool, [f"{trait.title()} {tpool} (unskilled in {skill.title()})"], False


def wound_tn(edition: Edition, count: int) -> tuple[int, str]:
    """The Medicine TN to treat a location holding ``count`` wounds (001 Healing)."""
    if count < 1:
        raise RulesError("An unwounded location needs no treatment.")
    tns = edition.healing.wound_tn
    tn = tns[min(count, len(tns)) - 1]
    row = edition.wound_row(count)
    name = row.name if row else f"{count} wounds"
    return tn, f"{count} wound(s) ({name}): Medicine TN {tn} ({SOURCE_HEALING})"


def wounded_locations(c: Character) -> list[tuple[WoundLocation, int]]:
    """The character's wounded locations, worst first."""
    return sorted(((loc, n) for loc, n in c.wounds.items() if n > 0), key=lambda kv: -kv[1])


def permanent(loc: WoundLocation, count: int) -> bool:
    """A disabled limb (five wounds in an arm or leg) stays so (000)."""
    return count >= MAX_WOUNDS and loc not in VITAL_LOCATIONS


def first_aid_target(c: Character, location: WoundLocation | None) -> WoundLocation:
    """The location first aid treats: the one named, else the worst the patient has
    that has had no first aid yet (RulesError naming why there is none)."""
    if location is not None:
        return WoundLocation(location)
    open_ = [
        loc for loc, n in wounded_locations(c) if loc not in c.wound_care and not permanent(loc, n)
    ]
    if not open_:
        raise RulesError(
            f"{c.name} has no wound left to treat: every wounded area has had its "
            f"first aid ({SOURCE_HEALING}: once per wounded area)."
        )
    return open_[0]


def why_not_treat(
    healer: Character,
    patient: Character,
    treatment: Treatment,
    loc: WoundLocation | None,
    edition: Edition,
) -> str | None:
    """Why the healer cannot give this first aid (the rule and the page), or None."""
    if patient.dead:
        return f"{patient.name} is dead: no first aid helps."
    if treatment == "revive":
        if not patient.unconscious:
            return f"{patient.name} is not unconscious ({SOURCE_REVIVE})."
        return None
    if treatment == "conc":
        if patient.conc >= patient.conc_max:
            return f"{patient.name} has all Conc already ({patient.conc}/{patient.conc_max})."
        return None
    _pool, _why, skilled = medicine_pool(healer, edition)
    if edition.healing.wounds_need_skill and not skilled:
        return (
            f"Only a character skilled in Medicine treats wounds ({SOURCE_HEALING}); "
            f"{healer.name} has no {edition.healing.skill.title()} on the sheet."
        )
    try:
        target = first_aid_target(patient, loc)
    except RulesError as e:
        return str(e)
    count = patient.wounds[target]
    if count < 1:
        return f"{patient.name}'s {where(target)} is not wounded."
    if permanent(target, count):
        return (
            f"{patient.name}'s {where(target)} is disabled (five wounds): in most cases "
            "permanently (000 Hit Location and Damage), so first aid cannot mend it."
        )
    if target in patient.wound_care:
        state = patient.wound_care[target]
        return (
            f"{patient.name}'s {where(target)} has had its first aid "
            f"({'bound' if state == 'bound' else 'tried and failed'}); {SOURCE_HEALING} "
            "allows one check per wounded area (a new wound there opens it again)."
        )
    return None


def _rebleed(before: Character, new: Character) -> None:
    """Keep the sheet's bleeding rate in step with its wounds (when it was bleeding)."""
    if before.bleeding:
        new.bleeding = bleed_rate(new)[0]


def _woken(new: Character) -> None:
    new.concussed = new.conc <= 0


# -- first aid --------------------------------------------------------------------


def treat_wound(
    patient: Character, loc: WoundLocation, success: bool, edition: Edition
) -> tuple[Character, list[str]]:
    """First aid on one location (001): success takes a wound off it and (house)
    binds it; either way the location has had its check."""
    new = patient.model_copy(deep=True)
    before = patient.wounds[loc]
    care = dict(new.wound_care)
    reasons: list[str] = []
    if success:
        after = max(0, before - 1)
        new.wounds = {**new.wounds, loc: after}
        reasons.append(f"{where(loc)}: {before} → {after} wound(s) ({SOURCE_HEALING})")
        if after == 0:
            care.pop(loc, None)
        elif edition.healing.first_aid_binds:
            care[loc] = "bound"
            reasons.append(f"the {where(loc)} is bound: it bleeds no more ({SOURCE_HOUSE})")
        else:
            care[loc] = "tried"
    else:
        care[loc] = "tried"
        reasons.append(
            f"{where(loc)}: still {before} wound(s); its one first aid check is used "
            f"({SOURCE_HEALING})"
        )
    new.wound_care = care
    _rebleed(patient, new)
    if patient.bleeding != new.bleeding:
        reasons.append(f"bleeding {patient.bleeding} → {new.bleeding} Conc a round")
    return new, reasons


def care_for_conc(patient: Character) -> tuple[Character, list[str]]:
    """A successful Simple (3) Medicine check: all Conc back (001 Healing)."""
    new = patient.model_copy(deep=True)
    new.conc = max(patient.conc, patient.conc_max)
    _woken(new)
    return new, [f"Conc {patient.conc} → {new.conc} ({SOURCE_HEALING}: about 2 minutes of care)"]


def revive(patient: Character) -> tuple[Character, list[str]]:
    """A successful Standard (5) Medicine check wakes the unconscious (000/001)."""
    new = patient.model_copy(deep=True)
    new.unconscious = False
    return new, [f"{patient.name} comes round ({SOURCE_REVIVE})"]


# -- between fights ---------------------------------------------------------------


def rest(patient: Character, minutes: int, edition: Edition) -> tuple[Character, list[str]]:
    """``minutes`` of rest: Conc back at the edition's rate (001: 1 a minute), the stun
    shaken off, the scene's risk over, the unconscious awake after the longest 1d6
    hours, and (house) every wound bound. The dead stay dead."""
    if minutes < 1:
        raise RulesError("A rest lasts at least a minute.")
    h = edition.healing
    new = patient.model_copy(deep=True)
    if patient.dead:
        return new, [f"{patient.name} is dead"]
    reasons: list[str] = []
    gain = minutes * h.conc_per_minute
    if patient.conc < patient.conc_max and gain:
        new.conc = min(patient.conc_max, patient.conc + gain)
        reasons.append(
            f"Conc {patient.conc} → {new.conc} ({h.conc_per_minute} a minute, {SOURCE_HEALING})"
        )
    _woken(new)
    if patient.concussed and not new.concussed:
        reasons.append("no longer concussed")
    if patient.stunned:
        new.stunned = False
        reasons.append("the stun is shaken off (house: a rest outside action time)")
    if patient.out_of_scene:
        new.out_of_scene = False
        reasons.append("the scene is over: back in play (001 Risk)")
    if patient.unconscious:
        if minutes >= h.unconscious_hours * 60:
            new.unconscious = False
            reasons.append(f"wakes after {h.unconscious_hours} hours at most (1d6 hours, 000/001)")
        else:
            reasons.append(
                f"still unconscious (1d6 hours, 000/001): wake them on the sheet if the die "
                f"says sooner, or revive them (Standard {h.revive_tn} Medicine)"
            )
    if h.rest_binds:
        care = {loc: "bound" for loc, n in new.wounds.items() if n > 0}
        if care != patient.wound_care and care:
            reasons.append(f"every wound is bound ({SOURCE_HOUSE})")
        new.wound_care = care  # type: ignore[assignment]
    new.bleeding = 0 if h.rest_binds else new.bleeding
    if patient.bleeding and not new.bleeding:
        reasons.append("no longer bleeding")
    if not reasons:
        reasons.append("nothing to recover")  # (the table leaves such a sheet out)
    return new, reasons


def heal_wound(
    patient: Character, loc: WoundLocation, success: bool, edition: Edition
) -> tuple[Character, list[str]]:
    """The scene's Medicine check for one wounded area (001 Healing): success improves
    it by one level."""
    new = patient.model_copy(deep=True)
    before = patient.wounds[loc]
    if not success:
        return new, [f"{where(loc)}: stays at {before} wound(s)"]
    after = max(0, before - 1)
    new.wounds = {**new.wounds, loc: after}
    if after == 0:
        new.wound_care = {k: v for k, v in new.wound_care.items() if k is not loc}
    _rebleed(patient, new)
    return new, [f"{where(loc)}: {before} → {after} wound(s) ({SOURCE_HEALING})"]


def healable(patient: Character) -> list[tuple[WoundLocation, int]]:
    """The areas a scene's healing checks (wounded, not a disabled limb), worst first."""
    if patient.dead:
        return []
    return [(loc, n) for loc, n in wounded_locations(patient) if not permanent(loc, n)]


__all__ = [
    "LOCATION_NAMES",
    "SOURCE_HEALING",
    "SOURCE_REVIVE",
    "TREATMENTS",
    "Treatment",
    "care_for_conc",
    "first_aid_target",
    "heal_wound",
    "healable",
    "medicine_pool",
    "permanent",
    "rest",
    "revive",
    "treat_wound",
    "why_not_treat",
    "wound_tn",
    "wounded_locations",
]
