"""What a known foe threatens: the hits it may land on a hex in a round.

The planner weighs a hex by what it gives (its own shots) against what it costs:
the shots the foes it knows of may land there. A foe's gun is read as in plain view
(house reading, Help ▸ Rules reference, "What an NPC sees of a foe's gear"); how
well that foe shoots is not — the sheet is not the NPC's to read — so the NPC
reckons the foe shoots that gun as well as it would itself (its own pool for that
gun, :func:`~twtw_desktop.rules.combat.ranged.attack_pool`). The chance is the
range's TN for that gun (000/001 Range) counted off the deck's composition
(:mod:`.odds`), times the share of the NPC the cover leaves open, times the shots
the foe's AP allow (the NPC's own AP for that gun's normal shot; one in a Phases
phase). A foe with a blade threatens a hex it can reach before the round is out,
by its blows, reckoned to walk as fast as the NPC itself (its sheet's Move and Run
are not the NPC's to read either); its line of sight does not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulesError
from ..play.table import Table
from ..rules.character import Character
from ..rules.combat.ranged import attack_pool, range_tn
from ..rules.gear import Weapon
from .odds import DeckOdds

#: a blow's chance to land, reckoned (the samples' brawlers land 80-85 % of their
#: blows on a foe who does not parry)
BLOW_HITS = 0.8
#: AP a blow costs, reckoned (000: a melee attack takes a few AP)
BLOW_AP = 3


@dataclass(frozen=True)
class Foe:
    """A foe the NPC knows of: its character id, the gun it carries (None: none), and
    whether it carries a blade."""

    cid: str
    gun: Weapon | None
    blade: bool


def foe_of(table: Table, cid: str) -> Foe:
    """The weapons the NPC sees a foe carry. House reading (Help ▸ Rules reference,
    "What an NPC sees of a foe's gear"): "The pages do not say what a character's
    eyes take in of another's gear. The autopilot reads a gun carried as in plain
    view (a gun at the hip)"."""
    gear = table.gear.weapons
    gun = None
    blade = False
    for cw in table.character(cid).weapons:
        w = gear.get(cw.weapon_id)
        if w is None or cw.failure is not None:
            continue
        if w.is_ranged and w.kind not in ("thrown", "explosive") and not w.throwable:
            gun = gun or w
        elif w.is_melee:
            blade = True
    return Foe(cid, gun, blade)


class Threats:
    """The expected hits a known foe may land on a hex in a round (module docstring)."""

    def __init__(
        self, table: Table, me: Character, odds: DeckOdds, budget: int, phases: bool
    ) -> None:
        self.t = table
        self.me = me
        self.odds = odds
        self.budget = budget
        self.phases = phases
        self._p: dict[tuple[str, int], float] = {}

    def shots(self, gun: Weapon) -> int:
        if self.phases:
            return 1
        return max(1, self.budget // max(1, gun.normal_ap or 1))

    def chance(self, gun: Weapon, range_paces: float) -> float:
        """One normal shot's chance with ``gun`` at that range, fired with the NPC's
        own pool for it."""
        key = (gun.id, round(range_paces))
        hit = self._p.get(key)
        if hit is None:
            try:
                pool, _why = attack_pool(self.me, gun)
                tn = range_tn(self.me, gun, self.t.edition, range_paces, thrown=False).tn
                hit = self.odds.chance(pool, tn)
            except RulesError:
                hit = 0.0
            self._p[key] = hit
        return hit

    def by_gun(self, foe: Foe, range_paces: float, open_share: float) -> float:
        assert foe.gun is not None
        return self.chance(foe.gun, range_paces) * self.shots(foe.gun) * open_share

    def by_blade(self, foe: Foe, distance: int) -> float:
        """A blade's threat to a hex ``distance`` hexes from the foe: the blows the
        AP leave after the walk to it (AP v2), or one blow next to it and half a
        blow within a phase's run of it (Phases)."""
        if not foe.blade:
            return 0.0
        walk = max(0, distance - 1)
        if self.phases:
            if walk == 0:
                return BLOW_HITS
            return 0.5 * BLOW_HITS if walk <= self.me.run else 0.0
        walk_ap = -(-walk // max(1, self.me.move))
        return BLOW_HITS * max(0, self.budget - walk_ap) / BLOW_AP
