"""One attack from card to wound: the six steps of 000's Resolution Flow.

1. hit or miss (the pool read plus the result modifiers against the TN; a CF misses
   and is a calamity);
2. number of hits (burst weapons and fan firing read the card's burst section);
3. hit location (the stack, free fixed-modifier bumps, the Judge's bump spends);
4. cover: PV = Pen + shield + penetration bumps against each covering AV — P full
   DMG, A reduced damage (and the AV drops by 1 where the edition says so), D stops
   it; no cover and no natural armor means deadly weapons always penetrate;
5. damage: the DMG or RD effect with its damage bumps, applied by
   :func:`~twtw_desktop.rules.damage.apply_damage`, then the stun check drawn from
   the deck;
6. ancillary effects: equipment failure, unintended targets, where a missed throw
   lands, and any stowed, fully loaded gun of the attacker the card sets off (000
   Carrying Loaded Weapons; :func:`~..ancillary.check_discharges`, recorded in
   ``AttackRecord.discharges`` and written to the sheet with
   :func:`~..ancillary.apply_discharges`).

Steps 4 and 5 are :func:`strike`, shared with the blast of an explosive
(:mod:`..blast`). A fan-firing series is :func:`resolve_fan`.

Nothing passed in is changed: :func:`resolve_attack` returns the record and a new
target character. A refused request raises :class:`RulesError`; bump spends are
checked before any card beyond the cause reads is drawn.

Decisions where the pages are vague:

* Several covers over one location are met in order from the firer: an ablation
  turns the rest of the shot to reduced damage, a deflection stops it.
* 000 Armor Penetration/Ablation: "Attacks that penetrate do full damage (DMG).
  Attacks that ablate do reduced damage (RD). In both cases, the protection value is
  decremented." Cover Penetration names the drop only under A but does not say P
  leaves the AV: both P and A lower it by 1 (a deflection leaves it).
* Reduced damage printed as the DMG cell one column to the left is read as a
  negative column shift, so it always stays below full damage (002 rule 2).
* Flat damage (brawling: 5 + DB) takes +1 per damage bump, as bumps past row 7 do.
* Phases' prone rule (003) reads the prone attribute of the stack entry the hit ends
  on; a called shot (off the stack) reads the standard entry.
* Under the hacking options, the cards for location and damage are drawn only when
  the attack hits (000 Action Card Hacking).

Where it lives:

* :mod:`.profile` — :class:`AttackProfile`, :func:`ranged_profile`, the free
  hit-location shifts, :func:`draw_for`
* :mod:`.flow` — :func:`resolve_profile` (steps 1-3 and 6) and :func:`resolve_attack`
* :mod:`.strike` — steps 4 and 5 for one hit (:func:`strike`)
* :mod:`.series` — fan-firing series, spread hits, stray shots, :func:`after_shot`
"""

from .flow import PRONE_MISS_NOTE, FanKw, ResolveKw, firer_moves, resolve_attack, resolve_profile
from .profile import (
    HEIGHT_SHIFT,
    KICK_SHIFT,
    POINT_BLANK_SHIFT,
    PUNCH_SHIFT,
    AttackProfile,
    draw_for,
    ranged_profile,
)
from .series import (
    after_shot,
    resolve_fan,
    resolve_series,
    resolve_spread_hits,
    resolve_stray_hits,
)
from .strike import NATURAL_ARMOR_ID, Strike, strike

__all__ = [
    "HEIGHT_SHIFT",
    "KICK_SHIFT",
    "NATURAL_ARMOR_ID",
    "POINT_BLANK_SHIFT",
    "PRONE_MISS_NOTE",
    "PUNCH_SHIFT",
    "AttackProfile",
    "FanKw",
    "ResolveKw",
    "Strike",
    "after_shot",
    "draw_for",
    "firer_moves",
    "ranged_profile",
    "resolve_attack",
    "resolve_fan",
    "resolve_profile",
    "resolve_series",
    "resolve_spread_hits",
    "resolve_stray_hits",
    "strike",
]
