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
from ..geometry.sight import visible
from ..hexgrid import Hex
from ..play.table import Table
from ..rules.character import Character
from ..rules.combat.ranged import attack_pool, range_tn
from ..rules.combat.thrown import is_throwable
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
    #: seen stunned: it spends the round on its recovery check and threatens nothing
    #: (000 Stun: "Each round, stunned characters use their action (Recover, all
    #: APs) to attempt a recovery check")
    stunned: bool = False


def is_gun(w: Weapon) -> bool:
    """A ranged weapon that fires (not one made to be thrown: a knife, dynamite, a
    lasso)."""
    return w.is_ranged and not is_throwable(w)


def foe_of(table: Table, cid: str, seen: bool = True) -> Foe:
    """The weapons the NPC sees a foe carry, and whether it sees the foe stunned
    (``seen``: a foe only remembered is reckoned able). House reading (Help ▸ Rules
    reference, "What an NPC sees of a foe's gear"): "The pages do not say what a
    character's eyes take in of another's gear. The autopilot reads a gun carried as
    in plain view (a gun at the hip)"."""
    gear = table.gear.weapons
    gun = None
    blade = False
    for cw in table.character(cid).weapons:
        w = gear.get(cw.weapon_id)
        if w is None or cw.failure is not None:
            continue
        if is_gun(w):
            gun = gun or w
        elif w.is_melee:
            blade = True
    return Foe(cid, gun, blade, stunned=seen and table.character(cid).stunned)


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
        self._p: dict[tuple[str, int], tuple[float, float]] = {}

    def shots(self, gun: Weapon) -> int:
        if self.phases:
            return 1
        return max(1, self.budget // max(1, gun.normal_ap or 1))

    def chance(self, gun: Weapon, range_paces: float) -> float:
        """One normal shot's chance with ``gun`` at that range, fired with the NPC's
        own pool for it."""
        return self._odds(gun, range_paces)[0]

    def worth(self, gun: Weapon, range_paces: float) -> float:
        """That shot's chance with its expected bumps (:meth:`.DeckOdds.worth`)."""
        return self._odds(gun, range_paces)[1]

    def _odds(self, gun: Weapon, range_paces: float) -> tuple[float, float]:
        key = (gun.id, round(range_paces))
        got = self._p.get(key)
        if got is None:
            try:
                pool, _why = attack_pool(self.me, gun)
                tn = range_tn(self.me, gun, self.t.edition, range_paces, thrown=False).tn
                got = (self.odds.chance(pool, tn), self.odds.worth(pool, tn))
            except RulesError:
                got = (0.0, 0.0)
            self._p[key] = got
        return got

    def by_gun(self, foe: Foe, range_paces: float, open_share: float) -> float:
        assert foe.gun is not None
        if foe.stunned:
            return 0.0
        return self.worth(foe.gun, range_paces) * self.shots(foe.gun) * open_share

    def by_blade(self, foe: Foe, distance: int) -> float:
        """A blade's threat to a hex ``distance`` hexes from the foe: the blows the
        AP leave after the walk to it (AP v2), or one blow next to it and half a
        blow within a phase's run of it (Phases)."""
        if not foe.blade or foe.stunned:
            return 0.0
        return self.blows(distance)

    def blows(self, distance: int) -> float:
        """The hits of the blows a blade lands in a round on a figure ``distance``
        hexes away, walking there first at the NPC's own pace (the foe's threat, or
        the NPC's own blows next round)."""
        walk = max(0, distance - 1)
        if self.phases:
            if walk == 0:
                return BLOW_HITS
            return 0.5 * BLOW_HITS if walk <= self.me.run else 0.0
        walk_ap = -(-walk // max(1, self.me.move))
        return BLOW_HITS * max(0, self.budget - walk_ap) / BLOW_AP

    def blows_later(self, distance: int) -> float:
        """The NPC's own blade, for a hex ``distance`` hexes from a foe: the blows of
        the round it gets there, each round of walking before it halving them (the
        foe may move, or fire first) — so a far foe still draws it a hex nearer."""
        if self.phases:
            walk = max(0, distance - 1)
            phases = -(-walk // max(1, self.me.run))
            return BLOW_HITS * 0.5**phases
        budget = max(1, self.budget)
        walk_ap = -(-max(0, distance - 1) // max(1, self.me.move))
        rounds, rest = divmod(walk_ap, budget)
        return BLOW_HITS * max(0, budget - rest) / BLOW_AP * 0.5**rounds


def shares(table: Table, cid: str, threats: list[Hex]) -> list[int]:
    """For each known foe's hex, how many of the NPC's side stand in that foe's sight
    (itself and its standing allies, whose places it knows): a gun fires at one of
    them at a time, so the NPC reckons its share of that foe's shots as one in that
    many. Without it an NPC among four allies weighed every foe's every shot as aimed
    at itself, and kept to cover when it should have fired."""
    side = table.character(cid).side
    index = table.walls()
    allies = [
        t.at
        for t in table.encounter.tokens
        if t.character_id != cid
        and table.character(t.character_id).side == side
        and not table.character(t.character_id).out_of_action
    ]
    return [1 + sum(1 for a in allies if visible(table.map, index, x, a)) for x in threats]
