"""Tactical aiming under fire and covering fire (000/001 Tactical Aiming, Aim and
Cover; 002 Continuous Action Example: Covering Fire).

* A character who was targeted since their aim began (or since their last action)
  makes a Bravery check before a normal or aimed shot: Standard (5) after ranged
  attacks, −1 per shot after the first and −2 per hit; the edition's melee TN after a
  melee attack; no aim at all after being hit in melee. Behind cover all turn adds
  the cover's AV (the lowest when moving between covers). Failure: the AP are
  spent, the aim is lost, any shot is a snap shot, no more aiming this round.
* Covering fire: four target markers a round, a malfunction check per marker, one
  round of ammunition each, 4+ rounds loaded to begin; a target in a covered area
  who fails the Bravery check draws a snap shot, and a CF on that check is hit
  automatically with the CF card.

Decisions where the pages are vague:

* Threatened both ways, the harder (melee) TN is used with every modifier.
* A malfunction found before the shot (the Judge's choice, 002) covers nothing and
  uses no round; found after, the area is covered and the round is spent. Either
  way covering fire ends, the weapon having failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from ...errors import RulesError
from ..base import Strict
from ..card import Card
from ..character import CarriedWeapon, Character
from ..checks import simple_check
from ..deck import CardSource, read_pool
from ..editions import Edition
from ..gear import Weapon
from .ancillary import equipment_failure
from .ranged import ShotSpec
from .records import FailureResult, Modifier, TnBreakdown, mod

#: 002 Covering Fire: four target markers a round.
COVERING_MARKERS = 4
#: 002 Covering Fire: the weapon needs this many rounds loaded to begin.
COVERING_MIN_LOADED = 4
#: 002 Covering Fire: ammunition used per covered area.
COVERING_ROUNDS_PER_MARKER = 1


class AimThreat(Strict):
    """What happened to the character since their aim began (or last action)."""

    ranged_shots: Annotated[int, Field(ge=0)] = 0
    ranged_hits: Annotated[int, Field(ge=0)] = 0
    melee_attacked: bool = False
    melee_hit: bool = False

    @property
    def any(self) -> bool:
        return bool(self.ranged_shots or self.melee_attacked or self.melee_hit)


class AimCheck(Strict):
    """The outcome of tactical aiming for one shot."""

    required: bool
    kind: Literal["none", "ranged", "melee", "hit_in_melee"]
    tn: TnBreakdown | None = None
    result: int | None = None
    cf: bool = False
    card_number: int | None = None
    #: the aim survives and the shot goes as declared
    aim_kept: bool
    #: the shot, if made, is a snap shot (aim lost)
    snap_only: bool = False
    #: no aiming again this round
    no_more_aim_this_round: bool = False
    reasons: tuple[str, ...] = ()


def bravery_tn(
    character: Character,
    edition: Edition,
    threat: AimThreat,
    *,
    cover_avs: Sequence[int] = (),
) -> TnBreakdown:
    """The Bravery check's TN and result modifiers (000/001 Tactical Aiming).

    ``cover_avs`` are the AVs of the covers the character stayed behind all turn
    (empty if not behind cover the whole turn); the lowest is added (000 Aim and Cover).
    """
    if threat.melee_attacked:
        base, label, src = (
            edition.bravery_melee_tn,
            "Bravery after a melee attack",
            "000 Tactical Aiming",
        )
    else:
        base, label, src = edition.bravery_ranged_tn, "Bravery under fire", "000 Tactical Aiming"
    res: list[Modifier] = []
    if threat.ranged_shots > 1:
        res.append(
            mod(
                f"{threat.ranged_shots - 1} shot(s) after the first",
                edition.bravery_extra_shot * (threat.ranged_shots - 1),
                "000 Tactical Aiming",
            )
        )
    if threat.ranged_hits:
        res.append(
            mod(
                f"hit {threat.ranged_hits} time(s)",
                edition.bravery_per_hit * threat.ranged_hits,
                "000 Tactical Aiming",
            )
        )
    if cover_avs:
        low = min(cover_avs)
        res.append(
            mod(
                "behind cover all turn (lowest AV)"
                if len(cover_avs) > 1
                else "behind cover all turn",
                low,
                "000 Aim and Cover",
            )
        )
    return TnBreakdown.build(base, label, src, (), res)


def tactical_aim_check(
    character: Character,
    edition: Edition,
    threat: AimThreat,
    card: Card | None = None,
    *,
    cover_avs: Sequence[int] = (),
    more: CardSource | None = None,
) -> AimCheck:
    """Does the character keep their aim? Draws nothing itself: pass the ``card``
    drawn for the Bravery check when one is needed (RulesError if it is missing)."""
    if threat.melee_hit:
        return AimCheck(
            required=False,
            kind="hit_in_melee",
            aim_kept=False,
            snap_only=True,
            no_more_aim_this_round=True,
            reasons=("hit in melee: no aim at all, any aim is lost (000 Tactical Aiming)",),
        )
    if not threat.any:
        return AimCheck(
            required=False,
            kind="none",
            aim_kept=True,
            reasons=("not targeted since the aim began: aim as normal",),
        )
    if card is None:
        raise RulesError(f"{character.name} must make a Bravery check: draw a card for it.")
    tn = bravery_tn(character, edition, threat, cover_avs=cover_avs)
    pool = character.trait_pool("bravery")
    read = read_pool(card, pool, more)
    raw = read.result(0)
    result = None if raw is None else raw + tn.result_modifier
    check = simple_check(result, tn.tn, cf=read.is_cf, bump_every=edition.bump_every)
    reasons = [*tn.reasons(), f"Bravery {pool}", *read.reasons, *check.reasons]
    if check.success:
        reasons.append("the nerve holds: the shot goes as declared")
    else:
        reasons.append(
            "the nerve breaks: AP spent, aim lost, any shot is a snap shot, no more aiming this round"
        )
    return AimCheck(
        required=True,
        kind="melee" if threat.melee_attacked else "ranged",
        tn=tn,
        result=result,
        cf=read.is_cf,
        card_number=card.number,
        aim_kept=check.success,
        snap_only=not check.success,
        no_more_aim_this_round=not check.success,
        reasons=tuple(reasons),
    )


def shot_after_aim_check(shot: ShotSpec, check: AimCheck) -> ShotSpec:
    """The shot actually fired: a failed aim check turns it into a snap shot (the AP
    of the declared shot stay spent)."""
    if check.aim_kept or shot.kind == "snap":
        return shot
    return shot.model_copy(update={"kind": "snap", "aims": 0, "use_acuity": False})


# =============================================================================
# Covering fire (002)
# =============================================================================


class CoveringFire(Strict):
    """A character's covering fire this round (a continuous action, 002)."""

    shooter_id: str
    weapon_id: str
    markers_left: Annotated[int, Field(ge=0)] = COVERING_MARKERS
    covered: tuple[str, ...] = ()
    ended: bool = False
    reasons: tuple[str, ...] = ()


class MarkerResult(Strict):
    covered: bool
    location: str
    malfunction: FailureResult
    rounds_used: int
    ammo_left: int
    reasons: tuple[str, ...] = ()


def _carried(
    shooter: Character, weapon: Weapon, carried_index: int | None
) -> tuple[int, CarriedWeapon]:
    if carried_index is not None:
        c = shooter.weapons[carried_index]
        if c.weapon_id != weapon.id:
            raise RulesError(f"That carried weapon is a {c.weapon_id}, not a {weapon.name}.")
        return carried_index, c
    for i, c in enumerate(shooter.weapons):
        if c.weapon_id == weapon.id:
            return i, c
    raise RulesError(f"{shooter.name} does not carry a {weapon.name}.")


def begin_covering_fire(
    shooter: Character, weapon: Weapon, *, carried_index: int | None = None
) -> CoveringFire:
    """Start covering fire: a readied firearm with 4 or more rounds loaded (002)."""
    if not weapon.is_ranged:
        raise RulesError(f"Covering fire needs a firearm, not the {weapon.name}.")
    _, c = _carried(shooter, weapon, carried_index)
    if not c.readied:
        raise RulesError(f"{shooter.name}'s {weapon.name} is not readied.")
    if c.loaded < COVERING_MIN_LOADED:
        raise RulesError(
            f"Covering fire needs {COVERING_MIN_LOADED} or more rounds loaded; the "
            f"{weapon.name} holds {c.loaded}."
        )
    return CoveringFire(
        shooter_id=shooter.id,
        weapon_id=weapon.id,
        reasons=(f"{shooter.name} lays down covering fire with the {weapon.name} (002)",),
    )


def place_marker(
    state: CoveringFire,
    shooter: Character,
    weapon: Weapon,
    location: str,
    card: Card,
    *,
    discard: Sequence[Card] = (),
    malfunction_after: bool = False,
    carried_index: int | None = None,
    rel_bonus: int = 0,
) -> tuple[CoveringFire, Character, MarkerResult]:
    """One continuous action phase of covering fire: check the weapon on ``card``
    and, unless it fails first, cover ``location`` and spend a round.

    Returns the new state, the shooter's copy with the round spent, and the result.
    """
    if state.shooter_id != shooter.id or state.weapon_id != weapon.id:
        raise RulesError("This covering fire belongs to another shooter or weapon.")
    if state.ended:
        raise RulesError("This covering fire has ended.")
    if state.markers_left < 1:
        raise RulesError("All four target markers are placed for this round.")
    idx, c = _carried(shooter, weapon, carried_index)
    if c.loaded < COVERING_ROUNDS_PER_MARKER:
        raise RulesError(f"The {weapon.name} is empty: covering fire has ended.")
    rel = None if weapon.rel is None else weapon.rel + rel_bonus
    fail = equipment_failure(card.wrench, rel, discard, card_number=card.number)
    reasons = list(fail.reasons)
    covered = not fail.failed or malfunction_after
    used = COVERING_ROUNDS_PER_MARKER if covered else 0
    new_shooter = shooter.model_copy(deep=True)
    w = new_shooter.weapons[idx]
    w.loaded -= used
    if used:
        w.fully_loaded = False
    ended = fail.failed or w.loaded < COVERING_ROUNDS_PER_MARKER
    if covered:
        reasons.append(f"{location} is covered; one round spent ({w.loaded} left)")
    else:
        reasons.append(f"the {weapon.name} fails before the shot: {location} is not covered")
    if fail.failed:
        reasons.append("the weapon malfunctioned: resolve it; covering fire ends")
    elif ended:
        reasons.append("out of ammunition: covering fire ends")
    new_state = state.model_copy(
        update={
            "markers_left": state.markers_left - 1,
            "covered": (*state.covered, location) if covered else state.covered,
            "ended": ended,
            "reasons": (*state.reasons, *reasons),
        }
    )
    return (
        new_state,
        new_shooter,
        MarkerResult(
            covered=covered,
            location=location,
            malfunction=fail,
            rounds_used=used,
            ammo_left=w.loaded,
            reasons=tuple(reasons),
        ),
    )


def next_round(state: CoveringFire) -> CoveringFire:
    """Covering fire declared again for the next round: four fresh markers (002)."""
    if state.ended:
        raise RulesError("This covering fire has ended; declare a new one.")
    return state.model_copy(update={"markers_left": COVERING_MARKERS, "covered": ()})


class CoveringReaction(Strict):
    """What the covering shooter may do about a character who made a Bravery check."""

    kind: Literal["none", "snap_shot", "auto_hit"]
    shot: ShotSpec | None = None
    #: the card to resolve an automatic hit with (the Bravery check's CF card)
    card_number: int | None = None
    reasons: tuple[str, ...] = ()


def covering_fire_reaction(
    state: CoveringFire, check: AimCheck, *, in_covered_area: bool
) -> CoveringReaction:
    """After a Bravery check by someone in a covered area (002): a failure gives the
    covering shooter an immediate snap shot; a CF is an automatic hit resolved with
    the CF card (pass ``auto_hit=True`` and that card to ``resolve_attack``)."""
    if not in_covered_area or not check.required or check.aim_kept:
        why = "not in a covered area" if not in_covered_area else "no Bravery check was failed"
        return CoveringReaction(kind="none", reasons=(why,))
    if state.ended and not state.covered:
        return CoveringReaction(kind="none", reasons=("the covering fire has ended",))
    if check.cf:
        return CoveringReaction(
            kind="auto_hit",
            shot=ShotSpec(kind="snap"),
            card_number=check.card_number,
            reasons=(
                "a CF on the Bravery check: hit automatically, resolved with that card (002)",
            ),
        )
    return CoveringReaction(
        kind="snap_shot",
        shot=ShotSpec(kind="snap"),
        reasons=("the Bravery check failed: the covering shooter takes a snap shot now (002)",),
    )
