"""Fan-firing series, explosions and guns going off in the holster, through the
resolution flow (000 Fan Firing, Carrying Loaded Weapons, Cover Penetration; 003 Fan
Firing; the blast rule is the house rule of :mod:`~twtw_desktop.rules.combat.blast`)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.character import CarriedWeapon
from twtw_desktop.rules.combat.ancillary import apply_discharges, discharge_candidates
from twtw_desktop.rules.combat.blast import BlastExposure, in_blast, resolve_blast
from twtw_desktop.rules.combat.melee import resolve_melee
from twtw_desktop.rules.combat.ranged import ShotSpec, plan_fan_fire, ranged_tn
from twtw_desktop.rules.combat.records import TnBreakdown
from twtw_desktop.rules.combat.resolve import resolve_attack, resolve_fan
from twtw_desktop.rules.combat.situation import Cover, ShotSituation

from .cardkit import CardSupply, armed, jonah_fanner, make_card, person

ALL_LOCATIONS = frozenset(HitLocation)


def _tn(base=5):
    return TnBreakdown.build(base, "Standard", "000 Range")


def _gunman(*, stowed_loaded=True, hand=None):
    """A shooter with a cocked Schofield in hand and a Peacemaker in the holster."""
    holster = CarriedWeapon(
        weapon_id="colt_peacemaker", loaded=6, fully_loaded=stowed_loaded, hand=hand
    )
    return person(
        "gunman",
        skills={"shooting_pistol": (3, "coordination"), "fighting_brawl": (2, "coordination")},
        weapons=[armed("sw_schofield", cocked=True), holster],
    )


def _shot(gear, ap_v2, card, shooter, *, movement="walking", **kw):
    cands = discharge_candidates(shooter, gear, in_use=0)
    return resolve_attack(
        shooter,
        person("target"),
        gear.weapon("sw_schofield"),
        ap_v2,
        _tn(),
        card,
        situation=ShotSituation(range_paces=4, firer_movement=movement),
        more=CardSupply(*[make_card(40 + i) for i in range(6)]),
        discharge_weapons=cands,
        **kw,
    )


# -- 000 Carrying Loaded Weapons -------------------------------------------------------


def test_candidates_are_stowed_fully_loaded_firearms(gear):
    shooter = _gunman()
    assert list(discharge_candidates(shooter, gear, in_use=0)) == [1]
    assert discharge_candidates(_gunman(stowed_loaded=False), gear, in_use=0) == {}
    shooter.weapons[1].readied = True  # in the other hand, not jostling in a holster
    assert discharge_candidates(shooter, gear, in_use=0) == {}


def test_calamity_while_walking_sets_off_the_holstered_gun(gear, ap_v2):
    """000 Carrying Loaded Weapons: a calamity on an action with movement fires the
    fully loaded revolver; toggle NO hits the nearest body part (the leg)."""
    shooter = _gunman()
    card = make_card(cause={10: ["CF", 3, 3]}, toggle=False, effects={(3, 6): 8})
    rec, _ = _shot(gear, ap_v2, card, shooter)
    assert rec.hit.cf and len(rec.discharges) == 1
    d = rec.discharges[0]
    assert d.discharged and d.cause == "calamity_on_movement" and d.hit
    assert d.weapon_id == "colt_peacemaker" and d.carried_index == 1
    assert d.location is HitLocation.RIGHT_LEG and d.effect == 8
    assert d.damage is not None and d.damage.wounds_added == 1 and d.damage.conc_dealt == 2
    assert "colt_peacemaker goes off" in rec.summary()
    after = apply_discharges(shooter, rec.discharges, ap_v2)
    assert after.wounds[WoundLocation.RIGHT_LEG] == 1 and after.conc == shooter.conc - 2
    assert after.weapons[1].loaded == 5 and not after.weapons[1].fully_loaded
    assert shooter.weapons[1].fully_loaded  # nothing passed in changed


def test_toggle_yes_misses_the_carrier(gear, ap_v2):
    shooter = _gunman(hand="off")
    card = make_card(cause={10: ["CF", 3, 3]}, toggle=True)
    rec, _ = _shot(gear, ap_v2, card, shooter)
    d = rec.discharges[0]
    assert d.discharged and not d.hit and d.damage is None
    after = apply_discharges(shooter, rec.discharges, ap_v2)
    assert after.wounds == shooter.wounds and after.weapons[1].loaded == 5


def test_standing_still_nothing_goes_off(gear, ap_v2):
    card = make_card(cause={10: ["CF", 3, 3]}, toggle=False)
    rec, _ = _shot(gear, ap_v2, card, _gunman(), movement="still")
    assert rec.discharges == ()


def test_malfunction_result_in_range_sets_it_off(gear, ap_v2):
    """000: "the same is true for any malfunction result within the malfunction range"
    — a wrench below the holstered gun's Rel while moving, no calamity needed."""
    card = make_card(cause={10: [9, 3, 3]}, wrench=1, toggle=True)
    rec, _ = _shot(gear, ap_v2, card, _gunman())
    assert rec.hit.success and [d.cause for d in rec.discharges] == ["malfunction"]


def test_hand_to_hand_counts_as_movement(gear, ap_v2):
    brawler = _gunman()
    card = make_card(cause={10: ["CF", 3]}, toggle=False, effects={(3, 6): 6})
    rec, _ = resolve_melee(
        brawler,
        person("foe"),
        ap_v2,
        _tn(5),
        card,
        attack="quick",
        more=CardSupply(make_card(50)),
        discharge_weapons=discharge_candidates(brawler, gear),
    )
    assert rec.discharges and rec.discharges[0].cause == "calamity_on_movement"


# -- fan firing as a series ------------------------------------------------------------


def test_per_shot_fan_series(gear, ap_v2):
    """000 Fan Firing: one pool read, the shots take its results best first with −1,
    −2 … and −1 more for the second target; shots after the first read their hit
    location from a fresh card; the AP is on the first record only."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    a, b = person("a"), person("b")
    plan = plan_fan_fire(fanner, w, ["a", "a", "b"], ap_v2)
    sits = [ShotSituation(range_paces=3)] * 3
    base = [ranged_tn(fanner, w, ap_v2, s, ShotSpec(kind="snap", fan=True)) for s in sits]
    card = make_card(1, cause={10: [10, 9, 8]}, effects={(3, 6): 7})
    loc_cards = [make_card(2, stack=(("head", 2), ("chest", 1), ("right_arm", 0), ("belly", 1)))]
    loc_cards.append(make_card(3, stack=(("head", 2), ("chest", 1), ("left_arm", 0), ("belly", 1))))
    supply = CardSupply(
        loc_cards[0], make_card(20), loc_cards[1], *[make_card(30 + i) for i in range(6)]
    )
    records, hurt = resolve_fan(
        fanner, [a, a, b], w, ap_v2, plan, base, card, situations=sits, more=supply
    )
    assert [r.hit.rank for r in records] == [1, 2, 3]
    assert [r.target_id for r in records] == ["a", "a", "b"]
    assert records[0].ap == plan.ap and records[1].ap is None and records[2].ap is None
    mods = [r.tn.result_modifier for r in records]
    sp = w.snap_penalty
    assert mods == [sp - 1, sp - 2, sp - 3 - 1]
    assert records[0].location.location is HitLocation.BELLY  # the fan card's own stack
    hit_later = [r.location.location for r in records[1:] if r.location is not None]
    assert all(loc in (HitLocation.RIGHT_ARM, HitLocation.LEFT_ARM) for loc in hit_later)
    if records[0].damage is not None and records[1].damage is not None:
        # the second shot on "a" lands on the sheet the first one wounded
        assert (
            hurt["a"].conc == a.conc - records[0].damage.conc_dealt - records[1].damage.conc_dealt
        )


def test_burst3_fan_is_one_check(gear, phases):
    """003 Fan Firing: one check at TN + shots; the burst 3 hits, at most the shots."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    plan = plan_fan_fire(fanner, w, ["t", "t"], phases)
    sit = ShotSituation(range_paces=3)
    base = ranged_tn(fanner, w, phases, sit, ShotSpec(kind="snap", fan=True))
    card = make_card(cause={10: [9, 8, 1]}, burst=(3, 4, 5))
    records, _ = resolve_fan(
        fanner,
        [person("t")],
        w,
        phases,
        plan,
        [base],
        card,
        situations=[sit],
        more=CardSupply(*[make_card(30 + i) for i in range(6)]),
    )
    assert len(records) == 1
    rec = records[0]
    assert rec.tn.tn == base.tn + 2 and rec.burst == 3 and rec.hits == 2


def test_fan_series_needs_a_target_per_shot(gear, ap_v2):
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    plan = plan_fan_fire(fanner, w, ["a", "a"], ap_v2)
    with pytest.raises(RulesError, match="every fan-fired shot"):
        resolve_fan(fanner, [person("a")], w, ap_v2, plan, [_tn()], make_card(), situations=[])


# -- explosions ------------------------------------------------------------------------


def _wall(av, fid="wall-1"):
    return Cover(feature_id=fid, material="adobe", av=av, covers=ALL_LOCATIONS)


def test_blast_hits_everyone_in_the_radius_each_with_a_card(gear, ap_v2):
    """House blast rule: within the radius each person reads a card of their own for
    location and the explosive's DMG; farther away nobody is touched."""
    dyn = gear.weapon("dynamite")
    near, edge, far = person("near"), person("edge"), person("far")
    exposures = [
        BlastExposure(character=far, distance=dyn.blast_radius + 1),
        BlastExposure(character=edge, distance=dyn.blast_radius),
        BlastExposure(character=near, distance=0),
    ]
    cards = CardSupply(make_card(5, effects={(5, 6): 13}), make_card(6, effects={(5, 6): 7}))
    stun = CardSupply(*[make_card(40 + i) for i in range(6)])
    res, hurt = resolve_blast(dyn, ap_v2, exposures, cards, more=stun, centre=(3, 4))
    assert [v.character_id for v in res.victims] == ["near", "edge"]
    assert [v.card for v in res.victims] == [5, 6]
    assert res.victims[0].effect.value == 13 and res.victims[0].damage.wounds_added == 2
    assert hurt["near"].wounds[WoundLocation.TORSO] == 2  # the stack's standard: belly
    assert "far" not in hurt and res.centre == (3, 4)
    assert in_blast(dyn.blast_radius, dyn.blast_radius)
    assert "near" in res.model_dump_json()


def test_a_thick_wall_stops_the_blast(gear, ap_v2):
    """000 Cover Penetration applied to the blast: Pen 2 + shield 0 against adobe AV 4
    deflects; thin wood (AV 2) is ablated — reduced damage and the AV drops once."""
    dyn = gear.weapon("dynamite")
    behind_adobe = BlastExposure(character=person("safe"), distance=2, covers=(_wall(4),))
    thin = Cover(feature_id="shed", material="thin_wood", av=2, covers=ALL_LOCATIONS)
    behind_wood = [
        BlastExposure(character=person(f"w{i}"), distance=1, covers=(thin,)) for i in range(2)
    ]
    cards = CardSupply(*[make_card(10 + i, shield=0) for i in range(12)])
    res, hurt = resolve_blast(dyn, ap_v2, [behind_adobe, *behind_wood], cards, more=cards)
    by_id = {v.character_id: v for v in res.victims}
    assert by_id["safe"].deflected and by_id["safe"].damage is None and "safe" not in hurt
    assert by_id["w0"].covers[0].outcome == "A" and by_id["w0"].effect.source == "RD"
    assert res.ablated_covers == (("shed", 1),)


def test_the_dead_are_passed_over(gear, ap_v2):
    corpse = person("corpse")
    corpse.dead = True
    res, hurt = resolve_blast(
        gear.weapon("dynamite"),
        ap_v2,
        [BlastExposure(character=corpse, distance=0)],
        CardSupply(),
    )
    assert res.victims == () and hurt == {}
    assert any("already dead" in r for r in res.reasons)


def test_called_shot_names_the_location_in_the_tn(gear, ap_v2):
    """001 Called Shots: a limb is −4 and the TN line names the limb aimed at."""
    shooter = _gunman()
    tn = ranged_tn(
        shooter,
        gear.weapon("sw_schofield"),
        ap_v2,
        ShotSituation(range_paces=4, called_shot="limb", called_location=HitLocation.LEFT_ARM),
        ShotSpec(kind="normal"),
    )
    item = next(m for m in tn.result_items if "called shot" in m.label)
    assert item.value == -4 and "left arm" in item.label
