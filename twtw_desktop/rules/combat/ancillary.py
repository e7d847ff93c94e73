"""Step 6 of the resolution flow: equipment failure and unintended targets, plus the
accidental discharge of a revolver carried fully loaded (000 Ancillary Effects,
Carrying Loaded Weapons; 001 Equipment Failure, Unintended Targets).

Decisions where the pages are vague:

* Stray shots of a single shot: a miss is one stray, a hit none (000 Miranda vs
  Miners). A burst: burst − hits. Scatter weapons (000/001): one more stray always
  and one more per range band beyond the first — read so that 001's Hank/Jonah
  example (hit → 1, miss → 2, doubled in melee to 2 and 4) and 000's "a miss at long
  range hits up to 4" (the third band) both come out.
* Each figure that hits names a different unintended target, closest first (000
  Ancillary Effects: "multiple unintended targets can be hit in a single action if
  multiple targets are indicated and there are sufficient stray shots"). A target is
  hit again only for a stray bump spent (002 Spending Bumps: a stray spend "may be
  used to cause one target to be hit more than once"): each stray spend lets one
  figure beyond the candidates hit the closest again; without one the extra figures
  hit nobody.
* A fully loaded revolver that discharges hits the nearest body part (a leg, unless
  the Judge names another) with the weapon's DMG read from the same card.
* Which guns can go off (000 Carrying Loaded Weapons): firearms carried with every
  chamber loaded and stowed (holstered or slung, not the one in hand), on an action
  that involves movement — the attacker moved or rode this round, or the action is
  hand to hand. Both triggers need that movement: a calamity (CF) on the card, or a
  wrench number inside the stowed gun's malfunction range (below its Rel). A gun
  worn on the off-hand side hits the left leg, otherwise the right (house: the
  carrier is right-handed unless the sheet says otherwise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal, TypedDict

from ..base import HitLocation
from ..card import Card
from ..character import CarriedWeapon, Character
from ..damage import apply_damage
from ..deck import read_effect
from ..editions import Edition, OptionalRules
from ..gear import GearCatalog, Weapon
from .bumps import StraySpend
from .records import DischargeResult, FailureResult, StrayResult

#: 001 Equipment Failure: a Rel 1 item fails only when the card shows this wrench
#: number and the card showing :data:`REL1_PARTNER_WRENCH` is in the discard pile.
REL1_WRENCH = 1
REL1_PARTNER_WRENCH = 2
#: 001 Unintended Targets and Melee: stray shots double when firing into a melee.
MELEE_STRAY_FACTOR = 2
#: Where a discharging holstered revolver usually hits (000 Carrying Loaded Weapons).
DISCHARGE_DEFAULT_LOCATION = HitLocation.RIGHT_LEG
#: … and where one worn on the off-hand side hits (house).
DISCHARGE_OFF_HAND_LOCATION = HitLocation.LEFT_LEG

DischargeCause = Literal["calamity_on_movement", "malfunction"]


def after_failure(carried: CarriedWeapon, failure: FailureResult) -> CarriedWeapon:
    """The carried weapon after an equipment-failure check: a failure leaves it
    jammed (house: the pages say the equipment fails; a jam is the failure a Judge can
    undo at the table, and the Judge marks a weapon broken on the sheet instead when
    the story says so). A weapon already broken stays broken."""
    if not failure.failed or carried.failure == "broken":
        return carried
    return carried.model_copy(update={"failure": "jammed"})


def equipment_failure(
    wrench: int | None,
    rel: int | None,
    discard: Sequence[Card] = (),
    *,
    card_number: int | None = None,
) -> FailureResult:
    """Does the equipment fail? (000 Ancillary Effects; 001 Equipment Failure).

    It fails when the card's wrench number is below its Rel. Rel 1 is special: it
    fails only on wrench 1 *and* when a card whose wrench shows 2 is in the discard
    pile. A blank wrench or no Rel never fails.
    """
    where = f"card {card_number}: " if card_number is not None else ""
    if wrench is None:
        return FailureResult(
            wrench=None, rel=rel, failed=False, reasons=(f"{where}no wrench shown",)
        )
    if rel is None:
        return FailureResult(
            wrench=wrench,
            rel=None,
            failed=False,
            reasons=("the equipment has no Rel: it cannot fail",),
        )
    if rel == 1:
        if wrench != REL1_WRENCH:
            return FailureResult(
                wrench=wrench,
                rel=1,
                failed=False,
                reasons=(f"{where}wrench {wrench}; a Rel 1 item can fail only on a 1",),
            )
        partner = any(c.wrench == REL1_PARTNER_WRENCH for c in discard)
        why = (
            "the card with wrench 2 is in the discard pile: the equipment fails (001)"
            if partner
            else "the card with wrench 2 is not in the discard pile: no failure (001)"
        )
        return FailureResult(
            wrench=wrench, rel=1, failed=partner, reasons=(f"{where}wrench 1 against Rel 1", why)
        )
    failed = wrench < rel
    return FailureResult(
        wrench=wrench,
        rel=rel,
        failed=failed,
        reasons=(
            f"{where}wrench {wrench} {'<' if failed else '≥'} Rel {rel}: "
            + ("the equipment fails" if failed else "no failure"),
        ),
    )


def stray_shot_count(
    *,
    projectiles: int,
    hits: int,
    scatter: bool = False,
    range_band: int = 1,
    into_melee: bool = False,
) -> tuple[int, list[str]]:
    """Stray shots of one attack and why (000 Burst Fire / Ancillary Effects; 001)."""
    base = max(projectiles - hits, 0)
    reasons = [f"{projectiles} projectile(s), {hits} hit(s): {base} stray shot(s)"]
    total = base
    if scatter:
        extra = 1 + max(range_band - 1, 0)
        total += extra
        reasons.append(
            f"scatter weapon: +1 always, +{max(range_band - 1, 0)} for range band {range_band} "
            f"→ {total} (000/001)"
        )
    if into_melee and total:
        total *= MELEE_STRAY_FACTOR
        reasons.append(f"fired into a melee: doubled → {total} (001)")
    return total, reasons


def unintended_targets(
    stray_shots: int,
    figures: tuple[int, int, int],
    candidates: Sequence[str],
    spends: Sequence[StraySpend] = (),
    *,
    card_number: int | None = None,
) -> StrayResult:
    """Which candidates the stray shots hit (000 Ancillary Effects; 001/002).

    Each figure (after any ±1 stray spends) equal to or below the number of stray
    shots is a hit; hits go to the candidates closest first.
    """
    figs = list(figures)
    reasons: list[str] = []
    if card_number is not None:
        reasons.append(f"card {card_number}: figures {figures[0]}, {figures[1]}, {figures[2]}")
    for s in spends:
        old = figs[s.figure_index]
        figs[s.figure_index] = min(max(old + s.delta, 0), 7)
        reasons.append(f"stray spend: figure {s.figure_index + 1} {old} → {figs[s.figure_index]}")
    hit_figs = tuple(f for f in figs if stray_shots and f <= stray_shots)
    hit: list[str] = []
    if not stray_shots:
        reasons.append("no stray shots: no unintended target is hit")
    elif not hit_figs:
        reasons.append(f"{stray_shots} stray shot(s): no figure at or below it")
    elif not candidates:
        reasons.append(
            f"{len(hit_figs)} figure(s) at or below {stray_shots}, but no unintended target is near"
        )
    else:
        # one figure, one target; a repeat only for each stray bump spent (002)
        repeats = len(spends)
        for i in range(len(hit_figs)):
            if i >= len(candidates):
                if repeats <= 0:
                    break
                repeats -= 1
            hit.append(candidates[i % len(candidates)])
        reasons.append(
            f"{len(hit_figs)} figure(s) at or below {stray_shots}: " + ", ".join(hit) + " hit"
        )
        if len(hit) < len(hit_figs):
            reasons.append(
                f"{len(hit_figs) - len(hit)} figure(s) find no further target: a target is "
                "hit more than once only for a stray bump spent (000 Ancillary Effects; 002)"
            )
    f0, f1, f2 = figs
    return StrayResult(
        stray_shots=stray_shots,
        figures=(f0, f1, f2),
        figures_hit=hit_figs,
        candidates_hit=tuple(hit),
        reasons=tuple(reasons),
    )


class _Discharger(TypedDict):
    """The :class:`DischargeResult` fields naming the gun that went off."""

    weapon_id: str
    carried_index: int | None
    damage_kind: Literal["deadly", "impact"]


def carried_discharge(
    character: Character,
    weapon: Weapon,
    card: Card,
    edition: Edition,
    *,
    cause: DischargeCause,
    fully_loaded: bool,
    location: HitLocation = DISCHARGE_DEFAULT_LOCATION,
    more: Callable[[], Card] | None = None,
    options: OptionalRules | None = None,
    carried_index: int | None = None,
) -> tuple[Character, DischargeResult]:
    """Resolve a possible discharge of a weapon carried with every chamber loaded.

    A calamity on an action with movement, or a malfunction, fires a round. The
    card's toggle decides: YES the shot misses the character, NO it hits the nearest
    body part (``location``) for the weapon's DMG. Weapons not carried fully loaded
    never discharge. Returns the (possibly) wounded copy and the result.
    """
    if not fully_loaded:
        return character, DischargeResult(
            discharged=False, reasons=("not carried fully loaded: nothing under the hammer",)
        )
    why = (
        "a calamity on an action with movement"
        if cause == "calamity_on_movement"
        else "a malfunction"
    )
    reasons = [
        f"{character.name} carries the {weapon.name} fully loaded: {why} fires a round (000)"
    ]
    who: _Discharger = {
        "weapon_id": weapon.id,
        "carried_index": carried_index,
        "damage_kind": weapon.damage_kind,
    }
    if card.toggle:
        reasons.append(f"card {card.number}: toggle YES, the round misses {character.name}")
        return character, DischargeResult(
            discharged=True, cause=cause, toggle=True, reasons=tuple(reasons), **who
        )
    reasons.append(
        f"card {card.number}: toggle NO, the round hits the {location.value.replace('_', ' ')}"
    )
    if weapon.dmg is None:
        return character, DischargeResult(
            discharged=True,
            cause=cause,
            toggle=False,
            hit=True,
            location=location,
            reasons=tuple(reasons),
            **who,
        )
    read = read_effect(card, weapon.dmg, more=more)
    reasons += list(read.reasons)
    new, dmg = apply_damage(
        character,
        edition,
        effect=read.value,
        hit=location,
        kind=weapon.damage_kind,
        toggle=card.toggle,
        impact_attribute="impact" in weapon.attributes,
        options=options,
    )
    return new, DischargeResult(
        discharged=True,
        cause=cause,
        toggle=False,
        hit=True,
        location=location,
        effect=read.value,
        damage=dmg,
        reasons=tuple(reasons),
        **who,
    )


def discharge_candidates(
    character: Character, gear: GearCatalog, *, in_use: int | None = None
) -> dict[int, Weapon]:
    """The carried firearms that could go off: fully loaded and stowed (not readied,
    not the weapon ``in_use``), by their index in ``character.weapons``."""
    out: dict[int, Weapon] = {}
    for i, cw in enumerate(character.weapons):
        w = gear.weapons.get(cw.weapon_id)
        if w is None or i == in_use or cw.readied or not cw.fully_loaded or not w.is_ranged:
            continue
        out[i] = w
    return out


def discharge_cause(
    card: Card, weapon: Weapon, *, cf: bool, action_moves: bool
) -> DischargeCause | None:
    """Why a stowed, fully loaded ``weapon`` fires on this card, or None (see the
    module docstring): a CF, or a wrench inside its malfunction range, on an action
    with movement."""
    if not action_moves:
        return None
    if cf:
        return "calamity_on_movement"
    if card.wrench is not None and equipment_failure(card.wrench, weapon.rel).failed:
        return "malfunction"
    return None


def check_discharges(
    character: Character,
    candidates: Mapping[int, Weapon],
    card: Card,
    edition: Edition,
    *,
    cf: bool,
    action_moves: bool,
    more: Callable[[], Card] | None = None,
    options: OptionalRules | None = None,
) -> tuple[Character, tuple[DischargeResult, ...]]:
    """Every stowed gun this card sets off (000 Carrying Loaded Weapons), read from the
    same card; returns the wounded copy of ``character`` and the results."""
    out: list[DischargeResult] = []
    for i, weapon in sorted(candidates.items()):
        cw = character.weapons[i]
        cause = discharge_cause(card, weapon, cf=cf, action_moves=action_moves)
        if cause is None or not cw.fully_loaded:
            continue
        where = DISCHARGE_OFF_HAND_LOCATION if cw.hand == "off" else DISCHARGE_DEFAULT_LOCATION
        character, res = carried_discharge(
            character,
            weapon,
            card,
            edition,
            cause=cause,
            fully_loaded=True,
            location=where,
            more=more,
            options=options,
            carried_index=i,
        )
        out.append(res)
    return character, tuple(out)


def apply_discharges(
    character: Character,
    discharges: Sequence[DischargeResult],
    edition: Edition,
    *,
    options: OptionalRules | None = None,
) -> Character:
    """The carrier after the recorded discharges: each gun one round lighter and no
    longer fully loaded, and the recorded wounds dealt (the recorded effect and
    toggle, so the sheet matches the record)."""
    new = character.model_copy(deep=True)
    for d in discharges:
        if not d.discharged:
            continue
        if d.carried_index is not None and 0 <= d.carried_index < len(new.weapons):
            cw = new.weapons[d.carried_index]
            cw.loaded = max(0, cw.loaded - 1)
            cw.fully_loaded = False
        if d.damage is not None and d.location is not None:
            new, _ = apply_damage(
                new,
                edition,
                effect=d.effect,
                hit=d.location,
                kind=d.damage_kind,
                toggle=d.toggle,
                options=options,
            )
    return new
