"""Damage, wounds, stun, recovery and bleeding.

Implements RULES.md "Resolution decisions" for damage:

* deadly damage — one wound per full multiple of Size, the rest is Conc (000 Deadly
  Damage; RULES examples 7 and 8);
* impact damage — AP v2 ``escalating`` (000 Impact Damage: the first wound costs
  2×Size, each further wound Size, the rest is Conc; RULES example 9) or Phases
  ``brawling`` (001/003 Brawling: 3 Conc per full Size, a wound per full 2×Size; an
  impact-attribute weapon deals those wounds and 1 Conc per point instead);
* wounds per location (head, torso = chest + belly + vitals, each arm, each leg), at
  most five; the 5th disables the location (000 Hit Location and Damage);
* wound level = the highest location; it sets the AP penalty and Stun TN from the
  edition's table (000 Wound Effects — the table wins over the prose).

Every function returns new objects: the character passed in is never modified, so
the action track and the app's undo stack can keep the old state.

Decisions where the pages are vague (also listed in resources/manual/rules-decisions.md):

* The damage bumps of a hit location (:func:`location_damage_bumps`) move the effect
  row *before* the card is read, so ``effect`` given to :func:`apply_damage` already
  includes them; :func:`apply_damage` does not add them again.
* 000 Impact Damage compares the effect to 2×Size with "less than" and "greater
  than"; an effect exactly equal to 2×Size (or to Size for later wounds) deals the
  wound, as 000's second step says "greater than or equal".
* A head/torso wound that reaches (or goes past) the 5th: with the Phases edition
  (``head_torso_disabled == "fatal"``, 001/003) the character dies whatever the
  damage kind; with AP v2 (``critical``) deadly damage kills and impact damage reads
  the card's toggle — YES killed, NO unconscious (000 Impact Damage). A further
  wound to a head/torso already at 5 is read the same way.
* Further wounds to a disabled limb are ignored but their Conc still applies (001
  Wound Markers).
* Optional risk (001): a head/torso wound that would make the 5th is held at 4
  (Serious) and the character is out of action for the scene, unless the player
  declared ``risking_death``.
* Conc at 0 or below: concussed, out of the fight (001 Taking Concussion).
* Stun TN: the current wound level's row; with no wounds (Conc only) the first row's
  TN (001's footnote to the Wounds table). A CF on a stun check is simply a failure;
  a CF on a recovery check knocks the character unconscious (000/001).
* Bleeding (001, optional): the worst location bleeds — 3 wounds (Heavy) 1 Conc a
  round, 4 (Serious) 2, 5 (Critical) 3; 001 only names critical *limbs*, and a
  critical head/torso that left the character alive (AP v2 impact, toggle NO) bleeds
  like one (house). Conc at or below −(maximum Conc) is death by bleeding. A location
  bound by first aid or a rest (``Character.wound_care``, :mod:`.healing`) does not
  bleed; a new wound there opens it again.
"""

from __future__ import annotations

from typing import Literal

from ..errors import RulesError
from .base import HitLocation, Strict, WoundLocation, wound_location
from .character import MAX_WOUNDS, Character
from .editions import Edition, OptionalRules, load_edition

DamageKind = Literal["deadly", "impact"]

#: 000 Hit Location and Damage (and 001/003): vitals +1 damage bump, head +2.
LOCATION_DAMAGE_BUMPS: dict[HitLocation, int] = {HitLocation.VITALS: 1, HitLocation.HEAD: 2}

#: 000 Impact Damage: the first impact wound costs this many times Size.
IMPACT_FIRST_WOUND_SIZES = 2
#: 001/003 Brawling: Conc per full Size of effect.
BRAWLING_CONC_PER_SIZE = 3
#: 001/003 Brawling: one wound per this many times Size.
BRAWLING_WOUND_SIZES = 2
#: 001 Risk: a would-be critical head/torso wound is treated as Serious (4).
RISK_HELD_AT = 4
#: 001 Optional Bleeding: Conc lost per round by the worst location's wound count.
BLEED_PER_ROUND: dict[int, int] = {3: 1, 4: 2, 5: 3}
#: Locations whose disabling is critical/fatal rather than a lost limb (000).
VITAL_LOCATIONS = (WoundLocation.HEAD, WoundLocation.TORSO)


def _edition(edition: Edition | str) -> Edition:
    return edition if isinstance(edition, Edition) else load_edition(edition)


def _check(effect: int, size: int) -> None:
    if effect < 0:
        raise RulesError(f"Damage cannot be negative (effect {effect}).")
    if size < 1:
        raise RulesError(f"A target's Size must be at least 1 (got {size}).")


# -- splitting an effect into wounds and Conc ---------------------------------------


def _deadly(effect: int, size: int) -> tuple[int, int, list[str]]:
    _check(effect, size)
    wounds, conc = divmod(effect, size)
    return (
        wounds,
        conc,
        [
            f"deadly {effect} vs Size {size}: {wounds} wound(s) (one per full {size}), "
            f"{conc} Conc left over (000 Deadly Damage)"
        ],
    )


def deadly_split(effect: int, size: int) -> tuple[int, int]:
    """(wounds, Conc) of deadly damage: a wound per full multiple of Size, the rest
    Conc (000 Deadly Damage: 10 vs Size 6 → 1 wound + 4 Conc)."""
    wounds, conc, _ = _deadly(effect, size)
    return wounds, conc


def _impact(
    effect: int, size: int, edition: Edition, impact_attribute: bool
) -> tuple[int, int, list[str]]:
    _check(effect, size)
    if edition.impact.rule == "escalating":
        first = IMPACT_FIRST_WOUND_SIZES * size
        reasons = []
        if impact_attribute:
            reasons.append("the impact attribute changes nothing under AP v2 impact damage")
        if effect < first:
            reasons.append(
                f"impact {effect} is below 2×Size ({first}): all of it is Conc (000 Impact Damage)"
            )
            return 0, effect, reasons
        rest = effect - first
        more, conc = divmod(rest, size)
        wounds = 1 + more
        reasons.append(
            f"impact {effect} vs Size {size}: the first wound takes {first}, "
            f"{more} more wound(s) at {size} each, {conc} Conc left over (000 Impact Damage)"
        )
        return wounds, conc, reasons
    # Phases: 001/003 Brawling
    wounds = effect // (BRAWLING_WOUND_SIZES * size)
    if impact_attribute:
        return (
            wounds,
            effect,
            [
                f"impact weapon {effect} vs Size {size}: {wounds} wound(s) (one per full "
                f"{BRAWLING_WOUND_SIZES * size}) and 1 Conc per point = {effect} "
                "(001/003 Brawling, impact attribute)"
            ],
        )
    conc = BRAWLING_CONC_PER_SIZE * (effect // size)
    return (
        wounds,
        conc,
        [
            f"brawling {effect} vs Size {size}: {BRAWLING_CONC_PER_SIZE} Conc per full {size} "
            f"= {conc} Conc, {wounds} wound(s) per full {BRAWLING_WOUND_SIZES * size} "
            "(001/003 Brawling)"
        ],
    )


def impact_split(
    effect: int, size: int, edition: Edition | str, *, impact_attribute: bool = False
) -> tuple[int, int]:
    """(wounds, Conc) of impact damage under the edition's rule.

    AP v2 ``escalating`` (000): 8 vs Size 6 → 0 wounds, 8 Conc. Phases ``brawling``
    (001/003): 3 Conc per full Size, 1 wound per full 2×Size; with
    ``impact_attribute`` (a weapon with the impact attribute) the same wounds plus
    1 Conc per point of effect.
    """
    wounds, conc, _ = _impact(effect, size, _edition(edition), impact_attribute)
    return wounds, conc


def location_damage_bumps(hit: HitLocation) -> int:
    """Damage bumps a hit location gives (000 Hit Location and Damage: vitals 1, head 2)."""
    return LOCATION_DAMAGE_BUMPS.get(HitLocation(hit), 0)


# -- applying damage ----------------------------------------------------------------


class DamageResult(Strict):
    """Everything :func:`apply_damage` worked out, with the reasons in order."""

    character_id: str
    edition: str
    effect: int
    kind: DamageKind
    hit: HitLocation
    location: WoundLocation
    #: wounds the effect is worth
    wounds_dealt: int
    #: wounds actually added to the location (at most 5 in a location; risk rule)
    wounds_added: int
    #: wounds dealt but not added (disabled limb, full location, risk rule)
    wounds_ignored: int
    conc_dealt: int
    conc_before: int
    conc_after: int
    location_wounds_before: int
    #: the location's new wound count
    location_wounds: int
    #: the location holds 5 wounds after this damage
    disabled: bool
    #: this damage brought the location to 5
    newly_disabled: bool
    #: the character is dead after this damage
    killed: bool
    #: the character is unconscious after this damage
    unconscious: bool
    #: the character is concussed (Conc ≤ 0) after this damage
    concussed: bool
    #: 001 risk rule held a critical head/torso wound at 4; out for the scene
    held_by_risk: bool
    out_of_scene: bool
    #: the card's toggle when it was read (impact wound to a critical head/torso)
    toggle_read: bool | None
    wound_level: int
    wound_level_name: str
    ap_penalty: int
    stun_tn: int
    #: a Fortitude stun check is due (000 Wound Effects: whenever damage is dealt)
    stun_check_required: bool
    #: Conc lost per round to bleeding (0 unless the bleeding option is on)
    bleeding: int
    reasons: list[str]


def apply_damage(
    character: Character,
    edition: Edition | str,
    *,
    effect: int,
    hit: HitLocation,
    kind: DamageKind,
    toggle: bool | None = None,
    impact_attribute: bool = False,
    options: OptionalRules | None = None,
    risking_death: bool = False,
) -> tuple[Character, DamageResult]:
    """Apply one hit's damage; return the damaged copy and the itemised result.

    ``effect`` is the final effect (location damage bumps already applied).
    ``toggle`` is the card's YES/NO, needed only when an impact wound disables the
    head or torso under AP v2 (a :class:`RulesError` otherwise, nothing changed).
    ``impact_attribute`` marks a weapon with the impact attribute (Phases brawling).
    ``options`` supplies the risk and bleeding switches; ``risking_death`` is the
    player's 001 declaration that lifts the risk protection.
    """
    ed = _edition(edition)
    opts = options or OptionalRules()
    if kind not in ("deadly", "impact"):
        raise RulesError(f"Damage is deadly or impact, not {kind!r}.")
    try:
        hit = HitLocation(hit)
    except ValueError:
        raise RulesError(f"{hit!r} is not a hit location.") from None
    loc = wound_location(hit)
    size = character.size

    if kind == "deadly":
        dealt, conc_dealt, reasons = _deadly(effect, size)
    else:
        dealt, conc_dealt, reasons = _impact(effect, size, ed, impact_attribute)
    reasons = list(reasons)
    if character.dead:
        reasons.append(f"{character.name} is already dead")

    before = character.wounds[loc]
    vital = loc in VITAL_LOCATIONS
    reaches_fifth = dealt > 0 and before + dealt >= MAX_WOUNDS
    held_by_risk = (
        vital and reaches_fifth and opts.risk and not risking_death and before < MAX_WOUNDS
    )
    cap = RISK_HELD_AT if held_by_risk else MAX_WOUNDS
    new_count = max(before, min(cap, before + dealt))
    added = new_count - before
    ignored = dealt - added
    if dealt:
        reasons.append(
            f"{loc.value}: {before} + {added} wound(s) = {new_count}"
            + (
                " (chest, belly and vitals all count as torso, 000)"
                if loc is WoundLocation.TORSO
                else ""
            )
        )

    killed_now = False
    knocked_out = False
    toggle_read: bool | None = None
    if held_by_risk:
        reasons.append(
            f"risk rule (001): the critical {loc.value} wound is held at {RISK_HELD_AT} "
            f"(Serious) and {character.name} is out of action for the scene"
        )
    elif vital and reaches_fifth:
        if ed.head_torso_disabled == "fatal":
            killed_now = True
            reasons.append(f"a 5th {loc.value} wound is death ({ed.name}: 001/003)")
        elif kind == "deadly":
            killed_now = True
            reasons.append(
                f"a 5th {loc.value} wound from deadly damage is critical: killed "
                "(000 Hit Location and Damage; RULES decision)"
            )
        else:
            if toggle is None:
                raise RulesError(
                    "An impact wound that makes the head or torso critical needs the "
                    "card's toggle (YES killed, NO unconscious)."
                )
            toggle_read = toggle
            if toggle:
                killed_now = True
                reasons.append(f"final impact wound to the {loc.value}: toggle YES, killed (000)")
            else:
                knocked_out = True
                reasons.append(
                    f"final impact wound to the {loc.value}: toggle NO, unconscious (000)"
                )
    elif not vital and dealt and new_count == MAX_WOUNDS:
        if before < MAX_WOUNDS:
            reasons.append(f"5th wound: the {loc.value} is disabled (000)")
        if ignored:
            reasons.append(
                f"{ignored} wound(s) beyond the 5th in the disabled {loc.value} are "
                "ignored; their Conc still applies (001)"
            )

    conc_after = character.conc - conc_dealt
    if conc_dealt:
        reasons.append(f"Conc {character.conc} − {conc_dealt} = {conc_after}")
    concussed = character.concussed or conc_after <= 0
    if concussed and not character.concussed:
        reasons.append("Conc at 0 or below: concussed, out of the fight (001)")

    new = character.model_copy(deep=True)
    new.wounds = {**new.wounds, loc: new_count}
    if dealt:  # a new wound opens the location again (first aid may be tried anew)
        new.wound_care = {k: v for k, v in new.wound_care.items() if k is not loc}
    new.conc = conc_after
    new.concussed = concussed
    if killed_now:
        new.dead = True
    if knocked_out:
        new.unconscious = True
    if held_by_risk:
        new.out_of_scene = True
    if opts.bleeding:
        rate, why = bleed_rate(new, ed)
        new.bleeding = rate
        if rate:
            reasons.append(why)

    level = new.wound_level
    row = ed.wound_row(level)
    ap_pen = ed.ap_penalty(level)
    stun_tn = ed.stun_tn(level)
    level_name = row.name if row else "Unhurt"
    reasons.append(
        f"wound level {level} ({level_name}): AP penalty {ap_pen}, Stun TN {stun_tn} "
        f"({ed.name} wound table)"
    )
    needs_stun = (dealt > 0 or conc_dealt > 0) and not new.out_of_action
    if needs_stun:
        reasons.append(f"stun check due: Fortitude vs TN {stun_tn} (000 Wound Effects)")

    result = DamageResult(
        character_id=character.id,
        edition=ed.id,
        effect=effect,
        kind=kind,
        hit=hit,
        location=loc,
        wounds_dealt=dealt,
        wounds_added=added,
        wounds_ignored=ignored,
        conc_dealt=conc_dealt,
        conc_before=character.conc,
        conc_after=conc_after,
        location_wounds_before=before,
        location_wounds=new_count,
        disabled=new_count >= MAX_WOUNDS,
        newly_disabled=before < MAX_WOUNDS <= new_count,
        killed=new.dead,
        unconscious=new.unconscious,
        concussed=new.concussed,
        held_by_risk=held_by_risk,
        out_of_scene=new.out_of_scene,
        toggle_read=toggle_read,
        wound_level=level,
        wound_level_name=level_name,
        ap_penalty=ap_pen,
        stun_tn=stun_tn,
        stun_check_required=needs_stun,
        bleeding=new.bleeding,
        reasons=reasons,
    )
    return new, result


# -- stun and recovery --------------------------------------------------------------


class StunResult(Strict):
    """Outcome of a stun check or a recovery check."""

    character_id: str
    check: Literal["stun", "recovery"]
    #: False when the check was moot (the character is dead or unconscious)
    needed: bool
    tn: int
    result: int | None
    cf: bool
    success: bool
    stunned: bool
    unconscious: bool
    wound_level: int
    reasons: list[str]


def _stun_tn(character: Character, ed: Edition) -> tuple[int, str]:
    level = character.wound_level
    tn = ed.stun_tn(level)
    if level == 0:
        return tn, f"no wounds (Conc only): first row's Stun TN {tn} (001 footnote)"
    return tn, f"wound level {level}: Stun TN {tn} ({ed.name} wound table)"


def stun_tn(character: Character, edition: Edition | str) -> tuple[int, str]:
    """The TN of the character's stun or recovery check now, and why (000/001)."""
    return _stun_tn(character, _edition(edition))


def _passed(result: int | None, cf: bool, tn: int, what: str) -> bool:
    if cf:
        return False
    if result is None:
        raise RulesError(f"A {what} needs the card's result (or a CF).")
    return result >= tn


def stun_check(
    character: Character, edition: Edition | str, result: int | None, cf: bool
) -> tuple[Character, StunResult]:
    """Fortitude stun check after damage (000 Wound Effects).

    ``result`` is the check's result (None only with ``cf``). Failure, a CF included,
    leaves the character stunned until a recovery check succeeds; success does not
    clear an earlier stun. Dead or unconscious characters need no check.
    """
    ed = _edition(edition)
    tn, why = _stun_tn(character, ed)
    reasons = [why]
    new = character.model_copy(deep=True)
    if character.dead or character.unconscious:
        reasons.append(
            f"{character.name} is {'dead' if character.dead else 'unconscious'}: no stun check"
        )
        return new, _stun_result("stun", character, new, tn, result, cf, True, reasons, False)
    ok = _passed(result, cf, tn, "stun check")
    if cf:
        reasons.append("CF: the stun check fails")
    else:
        reasons.append(f"result {result} {'≥' if ok else '<'} TN {tn}")
    if ok:
        reasons.append(
            "not stunned by this damage"
            + (" (still stunned from before until a recovery check)" if character.stunned else "")
        )
    else:
        new.stunned = True
        reasons.append(f"{character.name} is stunned until a recovery check succeeds (000)")
    return new, _stun_result("stun", character, new, tn, result, cf, ok, reasons)


def _stun_result(
    check: Literal["stun", "recovery"],
    before: Character,
    after: Character,
    tn: int,
    result: int | None,
    cf: bool,
    ok: bool,
    reasons: list[str],
    needed: bool = True,
) -> StunResult:
    """The record of a stun or recovery check: the sheet's state after it."""
    return StunResult(
        character_id=before.id,
        check=check,
        needed=needed,
        tn=tn,
        result=result,
        cf=cf,
        success=ok,
        stunned=after.stunned,
        unconscious=after.unconscious,
        wound_level=before.wound_level,
        reasons=reasons,
    )


def recovery_check(
    character: Character, edition: Edition | str, result: int | None, cf: bool
) -> tuple[Character, StunResult]:
    """Recovery check of a stunned character (000 Wound Effects, 001 Recovery).

    Same TN as a stun check. Success clears the stun; a CF knocks the character
    unconscious (1d6 hours or until a Standard (5) Medicine check revives them).
    Refused (RulesError) for a character who is not stunned, unconscious or dead.
    """
    ed = _edition(edition)
    if character.dead:
        raise RulesError(f"{character.name} is dead and cannot recover.")
    if character.unconscious:
        raise RulesError(f"{character.name} is unconscious and cannot attempt a recovery check.")
    if not character.stunned:
        raise RulesError(f"{character.name} is not stunned, so there is nothing to recover from.")
    tn, why = _stun_tn(character, ed)
    reasons = [why]
    ok = _passed(result, cf, tn, "recovery check")
    new = character.model_copy(deep=True)
    if cf:
        new.unconscious = True
        reasons.append(
            "CF on a recovery check: unconscious for 1d6 hours or until a Standard (5) "
            "Medicine check revives them (000/001)"
        )
    elif ok:
        new.stunned = False
        reasons.append(f"result {result} ≥ TN {tn}: no longer stunned")
    else:
        reasons.append(f"result {result} < TN {tn}: still stunned")
    return new, _stun_result("recovery", character, new, tn, result, cf, ok, reasons)


# -- optional bleeding --------------------------------------------------------------


def bleed_rate(character: Character, edition: Edition | str | None = None) -> tuple[int, str]:
    """Conc a character loses per round to bleeding, and why (001 Optional Bleeding).

    The worst location decides: 3 wounds 1 Conc, 4 wounds 2, 5 wounds 3. A location
    bound by first aid or a rest (``wound_care``, :mod:`.healing`) does not bleed.
    """
    open_wounds = [
        (loc, n) for loc, n in character.wounds.items() if character.wound_care.get(loc) != "bound"
    ]
    worst_loc, worst = max(open_wounds or [(WoundLocation.TORSO, 0)], key=lambda kv: kv[1])
    rate = BLEED_PER_ROUND.get(min(worst, MAX_WOUNDS), 0)
    if not rate:
        if len(open_wounds) < len(character.wounds) and character.wound_level >= 3:
            return 0, "its bad wounds are bound: no bleeding (house, first aid or rest)"
        return 0, "no wound bad enough to bleed (001: from 3 wounds)"
    name = ""
    if edition is not None:
        row = _edition(edition).wound_row(worst)
        name = f" ({row.name})" if row else ""
    return rate, (f"{worst_loc.value} has {worst} wounds{name}: bleeds {rate} Conc a round (001)")


def bleed(character: Character, edition: Edition | str) -> tuple[Character, int, list[str]]:
    """One round of bleeding (optional rule, 001): (new character, Conc lost, reasons).

    Conc at or below −(maximum Conc) means the character has bled to death.
    """
    ed = _edition(edition)
    new = character.model_copy(deep=True)
    if character.dead:
        return new, 0, [f"{character.name} is dead: no bleeding"]
    rate, why = bleed_rate(character, ed)
    reasons = [why]
    new.bleeding = rate
    if not rate:
        return new, 0, reasons
    new.conc = character.conc - rate
    reasons.append(f"Conc {character.conc} − {rate} = {new.conc}")
    if new.conc <= 0 and not character.concussed:
        new.concussed = True
        reasons.append("Conc at 0 or below: concussed (001)")
    if new.conc <= -character.conc_max:
        new.dead = True
        reasons.append(f"Conc at or below −{character.conc_max}: bled to death (001)")
    return new, rate, reasons
