"""The six-step resolution flow (000 Resolution Flow, Burst Fire, Hit Location, Armor
Penetration/Ablation, Dealing Damage, Ancillary Effects; 001/002/003 where noted)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.combat.bumps import BumpSpends, StraySpend
from twtw_desktop.rules.combat.ranged import ShotSpec, ranged_tn
from twtw_desktop.rules.combat.records import AttackRecord, TnBreakdown, mod
from twtw_desktop.rules.combat.resolve import resolve_attack
from twtw_desktop.rules.combat.situation import Cover, ShotSituation
from twtw_desktop.rules.deck import read_pool
from twtw_desktop.rules.editions import OptionalRules

from .cardkit import CardSupply, armed, make_card, person, ready

CHEST = frozenset({HitLocation.CHEST})


def _tn(base=5, plus=0):
    items = [mod("test modifier", plus, "test")] if plus else []
    return TnBreakdown.build(base, "Standard", "000 Range", result_items=items)


def _shooter(weapon_id="sw_schofield", *, d=12, level=3, **carried):
    carried.setdefault("cocked", True)
    return person(
        "shooter",
        traits={"coordination": f"3d{d}"},
        skills={
            "shooting_pistol": (level, "coordination"),
            "shooting_rifle": (level, "coordination"),
            "shooting_shotgun": (level, "coordination"),
            "shooting_gatling": (level, "coordination"),
        },
        weapons=[armed(weapon_id, **carried)],
    )


def _shoot(
    gear,
    edition,
    card,
    *,
    weapon_id="sw_schofield",
    tn=None,
    target=None,
    shooter=None,
    more=None,
    **kw,
):
    situation = kw.pop("situation", ShotSituation(range_paces=5))
    return resolve_attack(
        shooter or _shooter(weapon_id),
        target or person("target"),
        gear.weapon(weapon_id),
        edition,
        tn or _tn(),
        card,
        situation=situation,
        more=more if more is not None else CardSupply(*[make_card(40 + i) for i in range(6)]),
        **kw,
    )


def _crank(gear, edition, card, **kw):
    """:func:`_shoot` with a Gatling gun in the hands of a d8, level-2 gunner."""
    return _shoot(
        gear,
        edition,
        card,
        weapon_id="gatling_gun",
        shooter=_shooter("gatling_gun", d=8, level=2),
        **kw,
    )


# -- RULES example 8: the whole flow -----------------------------------------------------


def test_miranda_vs_miners_end_to_end(gear, ap_v2, samples, deck, card_by_number):
    """000 Combat Example, Miranda vs Miners: close range TN 5, −3 for the rider's 18
    paces, an aimed Sharps +3; card 50 gives 3d10 results 8, 1, 3 — a hit; the standard
    location is the left leg; no cover, so the deadly Sharps penetrates for its full
    (5)8 = 14: 2 wounds and 2 Conc at Size 6; no wrench, and a hit leaves no stray shots."""
    miranda = ready(samples["miranda_valentine"], "sharps_rifle", cocked=True)
    miner = samples["lead_miner"]
    miner_before = miner.model_dump()
    sharps = gear.weapon("sharps_rifle")
    situation = ShotSituation(
        range_paces=15, target_relative_speed=18, unintended_candidates=("miner_2", "miner_3")
    )
    shot = ShotSpec(kind="aimed", aims=1)
    tn = ranged_tn(miranda, sharps, ap_v2, situation, shot, target=miner)
    rec, hurt = resolve_attack(
        miranda,
        miner,
        sharps,
        ap_v2,
        tn,
        card_by_number(50),
        situation=situation,
        shot=shot,
        more=deck.draw,
        discard=deck.discard_pile(),
    )
    assert rec.hit.cells == (8, 3, 1)
    assert (rec.hit.tn, rec.hit.result, rec.hit.success, rec.hit.bumps) == (5, 8, True, 0)
    assert rec.location.location is HitLocation.LEFT_LEG
    assert rec.covers == () and not rec.deflected
    assert (rec.effect.source, rec.effect.effect, rec.effect.value) == ("DMG", "(5)8", 14)
    assert (rec.damage.wounds_added, rec.damage.conc_dealt) == (2, 2)
    assert hurt.wounds[WoundLocation.LEFT_LEG] == 2 and hurt.conc == miner.conc - 2
    assert rec.stun is not None and rec.stun.needed
    assert not rec.equipment_failure.failed and rec.equipment_failure.wrench is None
    assert rec.strays.stray_shots == 0 and rec.strays.candidates_hit == ()
    assert miner.model_dump() == miner_before  # the input is never changed
    assert "left leg" in rec.summary() and "2 wound(s), 2 Conc" in rec.summary()
    # the summary says the state the sheet shows (issue 27: never "not stunned" above
    # "Stunned"): a passed check leaves an earlier stun
    for success, stunned, said in (
        (True, False, "not stunned"),
        (False, True, "; stunned"),
        (True, True, "still stunned from before"),
    ):
        stun = rec.stun.model_copy(update={"success": success, "stunned": stunned})
        text = rec.model_copy(update={"stun": stun}).summary()
        assert said in text
        assert ("not stunned" in text) == (not stunned)


@pytest.mark.parametrize(("damage_bumps", "wounds", "conc"), [(0, 1, 4), (1, 2, 2)])
def test_peacemaker_deadly_damage(gear, ap_v2, damage_bumps, wounds, conc):
    """000 Deadly Damage (RULES example 7): a Peacemaker hit of 10 against Size 6 is
    1 wound and 4 Conc; raised to 14 by a damage bump, 2 wounds and 2 Conc."""
    card = make_card(cause={12: [11, 2, 2]}, effects={(3, 6): 10, (4, 6): 14})
    rec, hurt = _shoot(
        gear,
        ap_v2,
        card,
        weapon_id="colt_peacemaker",
        shooter=_shooter("colt_peacemaker"),
        spends=BumpSpends(damage=damage_bumps),
    )
    assert rec.effect.value == 10 + 4 * damage_bumps
    assert (rec.damage.wounds_added, rec.damage.conc_dealt) == (wounds, conc)
    assert hurt.wounds[WoundLocation.TORSO] == wounds


def test_record_is_json_serialisable(gear, ap_v2):
    rec, _ = _shoot(gear, ap_v2, make_card(cause={12: [9, 2, 2]}, effects={(3, 6): 12}))
    again = AttackRecord.model_validate_json(rec.model_dump_json())
    assert again == rec
    assert "\n" not in rec.summary()


# -- step 1: hit or miss ---------------------------------------------------------------------


def test_a_miss_is_one_stray_shot(gear, ap_v2):
    """001 Unintended Targets: a missed shot is a stray; a figure at or below the
    stray count hits the closest candidate."""
    card = make_card(cause={12: [3, 2, 2]}, figures=(1, 5, 6))
    rec, target = _shoot(
        gear, ap_v2, card, situation=ShotSituation(unintended_candidates=("bystander", "horse"))
    )
    assert not rec.hit.success and rec.location is None and rec.damage is None
    assert rec.strays.stray_shots == 1
    assert rec.strays.candidates_hit == ("bystander",)
    assert target == person("target")


def test_unintended_targets_can_be_switched_off(gear, ap_v2):
    card = make_card(cause={12: [3, 2, 2]}, figures=(1, 1, 1))
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        options=OptionalRules(unintended_targets=False),
        situation=ShotSituation(unintended_candidates=("x",)),
    )
    assert rec.strays is None


def test_cf_is_a_calamity_and_a_miss(gear, ap_v2):
    """RULES.md: a CF in the pool makes the check a CF — a miss and a calamity."""
    card = make_card(cause={12: [12, "CF", 9]}, wrench=1)
    supply = CardSupply()
    rec, _ = _shoot(gear, ap_v2, card, more=supply)
    assert rec.hit.cf and rec.hit.calamity and not rec.hit.success
    assert rec.equipment_failure.failed  # wrench 1 < Rel 2
    assert supply.drawn == []  # a CF pool draws nothing for its exceptional cell


def test_second_attack_uses_the_second_result(gear, ap_v2):
    """000 Multiple Attacks: the second attack reads the second highest cell."""
    card = make_card(cause={12: [9, 4, 2]})
    pr = read_pool(card, "3d12")
    first, _ = _shoot(gear, ap_v2, card, pool_read=pr, rank=0)
    second, _ = _shoot(gear, ap_v2, card, pool_read=pr, rank=1)
    assert first.hit.success and first.hit.raw_result == 9
    assert not second.hit.success and second.hit.raw_result == 4
    # a fourth attack from a 3-die pool is beyond the skill: an automatic miss with
    # its stray shot (000 Multiple Attacks; this pinned a refusal before)
    fourth, _ = _shoot(gear, ap_v2, card, pool_read=pr, rank=3)
    assert not fourth.hit.success and fourth.hit.rank == 4
    assert any("misses automatically" in r for r in fourth.hit.reasons)


def test_spending_bumps_on_a_miss_is_refused(gear, ap_v2):
    card = make_card(cause={12: [3, 2, 2]})
    with pytest.raises(RulesError, match="no bumps"):
        _shoot(gear, ap_v2, card, spends=BumpSpends(damage=1))


# -- step 3: hit location and bumps ------------------------------------------------------------


def test_bumps_move_the_hit_by_the_triangles(gear, ap_v2):
    """000 Hit Location: each triangle is one bump; the head (2 triangles) gives 2
    damage bumps (000 Hit Location and Damage)."""
    card = make_card(cause={12: [11, 2, 2]}, effects={(3, 6): 9, (5, 6): 17})
    rec, _ = _shoot(gear, ap_v2, card, tn=_tn(plus=4), spends=BumpSpends(hit_location_index=0))
    assert rec.hit.bumps == 2
    assert rec.location.location is HitLocation.HEAD and rec.location.bumps_spent == 2
    assert rec.location.damage_bumps == 2
    assert rec.effect.row_bumps == 2 and rec.effect.value == 17


def test_vitals_give_one_damage_bump(gear, ap_v2):
    card = make_card(
        cause={12: [6, 2, 2]},
        stack=(("head", 2), ("chest", 1), ("vitals", 0), ("belly", 1)),
        effects={(4, 6): 15},
    )
    rec, hurt = _shoot(gear, ap_v2, card)
    assert rec.location.location is HitLocation.VITALS
    assert rec.effect.value == 15 and rec.spends.damage == 1
    assert hurt.wounds[WoundLocation.TORSO] == 2


def test_overspending_is_refused_before_any_further_draw(gear, ap_v2, deck):
    """002: spends beyond the bumps raise RulesError and change nothing — no card is
    drawn once the cause is read."""
    card = make_card(cause={12: [9, 2, 2]})
    pr = read_pool(card, "3d12")
    before = deck.snapshot()
    with pytest.raises(RulesError, match="need 2 standard bump"):
        _shoot(
            gear, ap_v2, card, pool_read=pr, more=deck.draw, spends=BumpSpends(hit_location_index=0)
        )
    with pytest.raises(RulesError, match="need 3 standard bump"):
        _shoot(
            gear,
            ap_v2,
            card,
            pool_read=pr,
            more=deck.draw,
            spends=BumpSpends(damage=2, penetration=1),
        )
    assert deck.snapshot() == before


def test_damage_and_penetration_spends(gear, ap_v2):
    """002 Spending Bumps: damage +1 row each; penetration +1 PV each."""
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [11, 2, 2]},
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
        effects={(4, 6): 13},
    )
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        tn=_tn(plus=4),
        situation=ShotSituation(covers=(door,)),
        spends=BumpSpends(damage=1, penetration=1),
    )
    assert rec.covers[0].pv == 2 + 0 + 1 and rec.covers[0].outcome == "A"
    assert rec.effect.source == "RD"
    assert rec.spends.unspent_standard == 0


def test_point_blank_is_a_free_bump_up(gear, ap_v2):
    """001/003 Hit Location Modifiers: point blank moves the hit one bump up, free;
    aimed low (003) it moves down."""
    card = make_card(cause={12: [9, 2, 2]})
    up, _ = _shoot(gear, ap_v2, card, situation=ShotSituation(point_blank=True))
    assert up.location.location is HitLocation.CHEST and up.location.bumps_spent == 0
    low, _ = _shoot(
        gear, ap_v2, card, situation=ShotSituation(point_blank=True, point_blank_low=True)
    )
    assert low.location.location is HitLocation.LEFT_LEG


def test_called_shot_fixes_the_location(gear, ap_v2):
    """001 Called Shots: the called location is hit; bumps cannot move it."""
    card = make_card(cause={12: [12, 2, 2]})
    situation = ShotSituation(called_shot="limb", called_location=HitLocation.RIGHT_ARM)
    rec, _ = _shoot(
        gear, ap_v2, card, situation=situation, more=CardSupply(make_card(2), make_card(3))
    )
    assert rec.location.location is HitLocation.RIGHT_ARM
    with pytest.raises(RulesError, match="fixed"):
        _shoot(
            gear,
            ap_v2,
            card,
            tn=_tn(plus=8),
            situation=situation,
            spends=BumpSpends(hit_location_index=0),
        )


@pytest.mark.parametrize(
    ("prone_entry", "paces", "hit"), [(False, 10, False), (True, 10, True), (False, 2, True)]
)
def test_phases_prone_target(gear, phases, prone_entry, paces, hit):
    """003 Prone Targets: the hit needs the prone attribute on its location, unless the
    firer is within 2 paces."""
    card = make_card(
        cause={12: [9, 2, 2]},
        stack=(("head", 2), ("chest", 1), ("belly", 0, prone_entry), ("left_leg", 1)),
    )
    rec, _ = _shoot(
        gear, phases, card, situation=ShotSituation(range_paces=paces, target_prone=True)
    )
    assert rec.hit.success
    assert (rec.damage is not None) is hit


# -- step 4: cover -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shield", "outcome", "source", "new_av"),
    [(2, "A", "RD", 2), (1, "A", "RD", 2), (0, "D", None, 3), (-2, "D", None, 3)],
)
def test_cover_penetration_ap_v2(gear, ap_v2, shield, outcome, source, new_av):
    """000 Cover Penetration: PV = Pen + shield vs AV: P ≥ AV+2, A = AV or AV+1 (RD,
    AV −1), D below (no effect, AV kept). Schofield Pen 2 vs hardwood 3."""
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [9, 2, 2]},
        shield=shield,
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
    )
    rec, hurt = _shoot(gear, ap_v2, card, situation=ShotSituation(covers=(door,)))
    assert rec.covers[0].outcome == outcome
    assert rec.covers[0].new_av == new_av
    if source is None:
        assert rec.deflected and rec.damage is None and hurt == person("target")
        assert rec.ablated_cover is None
    else:
        assert rec.effect.source == source
        assert rec.ablated_cover == ("door", 2)


def test_ablation_keeps_the_av_in_phases(gear, phases):
    """001/003: an ablating hit deals RD and the AV stays."""
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [9, 2, 2]},
        shield=2,
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
    )
    rec, _ = _shoot(gear, phases, card, situation=ShotSituation(covers=(door,)))
    assert rec.covers[0].outcome == "A" and rec.covers[0].new_av == 3
    assert rec.ablated_cover is None and rec.effect.source == "RD"


def test_penetration_bumps_turn_an_ablation_into_a_penetration(gear, ap_v2):
    """000 Cover Penetration: PV 2 + shield 2 + 1 bump = 5 ≥ AV 3 + 2: P, full DMG."""
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [11, 2, 2]},
        shield=2,
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
    )
    rec, _ = _shoot(
        gear, ap_v2, card, situation=ShotSituation(covers=(door,)), spends=BumpSpends(penetration=1)
    )
    # 000 Armor Penetration/Ablation: "In both cases, the protection value is
    # decremented" — a penetration lowers the AV too (it was left at 3 before)
    assert rec.covers[0].outcome == "P" and rec.covers[0].new_av == 2
    assert rec.effect.source == "DMG" and rec.ablated_cover == ("door", 2)


def test_uncovered_location_is_not_protected(gear, ap_v2):
    """000 Hit Location and Cover: only the covered locations hit the cover."""
    wall = Cover(
        feature_id="wall", material="brick", av=4, covers=frozenset({HitLocation.LEFT_LEG})
    )
    card = make_card(cause={12: [9, 2, 2]})
    rec, _ = _shoot(gear, ap_v2, card, situation=ShotSituation(covers=(wall,)))
    assert rec.covers == () and rec.effect.source == "DMG"


def test_two_covers_in_a_row(gear, ap_v2):
    """Covers are met from the firer outward: a window then a door."""
    window = Cover(feature_id="window", material="glass", av=1, covers=CHEST)
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [9, 2, 2]},
        shield=1,
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
    )
    rec, _ = _shoot(gear, ap_v2, card, situation=ShotSituation(covers=(window, door)))
    assert [c.outcome for c in rec.covers] == ["P", "A"]
    # both lowered: the window penetrated, the door ablated (000: "In both cases")
    assert rec.ablated_covers == (("window", 0), ("door", 2)) and rec.effect.source == "RD"


def test_reduced_damage_stays_below_full_damage(gear, ap_v2):
    """002 rule 2: RD printed one column left is read as a left shift, capped below DMG."""
    door = Cover(feature_id="door", material="hardwood", av=3, covers=CHEST)
    card = make_card(
        cause={12: [9, 2, 2]},
        shield=2,
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
        effects={(3, 6): 9, (3, 4): 12},
    )
    rec, _ = _shoot(gear, ap_v2, card, situation=ShotSituation(covers=(door,)))
    assert rec.effect.source == "RD" and rec.effect.value == 8


# -- step 2: bursts -----------------------------------------------------------------------------


def test_angus_gatling_burst(gear, ap_v2):
    """000 Burst Fire, 'Angus cranks his Gatling': one success; burst 10 shows 8 hits,
    so 7 damage bumps; 2 stray shots against figure 3 hit no one."""
    card = make_card(cause={8: [6, 2]}, burst=(2, 4, 8), figures=(3, 5, 6), effects={(7, 8): 40})
    rec, _ = _crank(
        gear,
        ap_v2,
        card,
        burst=10,
        situation=ShotSituation(range_paces=30, unintended_candidates=("soldier",)),
    )
    assert rec.hits == 8 and rec.burst == 10
    assert rec.spends.conditional_available == {"burst": 7}
    assert rec.spends.damage == 7 and rec.effect.row_bumps == 7
    assert rec.effect.value == 40 + 4  # (4)8 + 7 rows: row 7, then +1 for each of 4 more
    assert rec.strays.stray_shots == 2 and rec.strays.candidates_hit == ()


def test_burst_bumps_may_go_to_penetration(gear, ap_v2):
    """002 Conditional Bumps: a burst bump is damage or penetration, the player's choice."""
    wall = Cover(feature_id="wall", material="brick", av=4, covers=CHEST)
    card = make_card(
        cause={8: [6, 2]},
        burst=(3, 3, 3),
        stack=(("head", 2), ("belly", 1), ("chest", 0), ("left_leg", 1)),
    )
    rec, _ = _crank(
        gear,
        ap_v2,
        card,
        burst=3,
        situation=ShotSituation(covers=(wall,)),
        spends=BumpSpends(burst_to_penetration=2),
    )
    assert rec.covers[0].pv == 3 + 2 and rec.covers[0].outcome == "A"
    assert rec.spends.damage == 0
    with pytest.raises(RulesError, match="burst bump"):
        _crank(gear, ap_v2, card, burst=3, spends=BumpSpends(burst_to_penetration=3))


def test_burst_weapon_fires_its_smallest_mode_by_default(gear, ap_v2):
    """000 Burst Fire: a weapon with several modes fires the fewest shots unless told."""
    card = make_card(cause={8: [6, 2]}, burst=(2, 4, 8))
    rec, _ = _crank(gear, ap_v2, card)
    assert rec.burst == 3 and rec.hits == 2


def test_burst_must_be_a_weapon_mode(gear, ap_v2):
    card = make_card(cause={12: [9, 2, 2]})
    with pytest.raises(RulesError, match="burst"):
        _shoot(gear, ap_v2, card, burst=10)


def test_burst_hits_split_between_targets(gear, ap_v2):
    """000 Hitting Multiple Targets: each further success can hit another target."""
    card = make_card(cause={8: [6, 6]}, burst=(3, 3, 3))
    rec, _ = _crank(gear, ap_v2, card, burst=3, hits_on_target=1)
    assert rec.hits == 3 and rec.hits_for_other_targets == 2
    one = make_card(cause={8: [6, 1]}, burst=(3, 3, 3))
    with pytest.raises(RulesError, match="Only one success"):
        _crank(gear, ap_v2, one, burst=3, hits_on_target=1)


# -- step 5: damage and stun --------------------------------------------------------------------


def test_stun_check_uses_the_next_card(gear, ap_v2):
    """000 Wound Effects: whenever damage is dealt, a Fortitude stun check against the
    wound level's Stun TN; failure stuns."""
    card = make_card(cause={12: [9, 2, 2]}, effects={(3, 6): 13})
    stun_card = make_card(2, cause={8: [2, 1]})  # Fortitude 2d8 → 2 vs TN 5
    rec, hurt = _shoot(gear, ap_v2, card, stun_card=stun_card)
    assert rec.damage.wounds_added == 2
    assert rec.stun.tn == 5 and rec.stun.result == 2 and not rec.stun.success
    assert hurt.stunned and 2 in rec.cards


def test_stun_is_pending_without_a_card(gear, ap_v2):
    card = make_card(cause={12: [9, 2, 2]}, effects={(3, 6): 13})
    rec, hurt = resolve_attack(
        _shooter(),
        person("t"),
        gear.weapon("sw_schofield"),
        ap_v2,
        _tn(),
        card,
        situation=ShotSituation(),
    )
    assert rec.stun is None and rec.stun_pending and not hurt.stunned


def test_increased_effect_draws(gear, ap_v2):
    """RULES.md: increased effect draws another card and adds its (1)Y cell."""
    card = make_card(cause={12: [9, 2, 2]}, effects={(3, 6): (12, True)})
    ext = make_card(2, effects={(1, 6): 4})
    rec, _ = _shoot(gear, ap_v2, card, more=CardSupply(ext, make_card(3)))
    assert rec.effect.value == 16 and 2 in rec.cards


# -- step 6: ancillary effects -------------------------------------------------------------------


@pytest.mark.parametrize(("wrench", "failed"), [(1, True), (2, False), (None, False)])
def test_equipment_failure_below_rel(gear, ap_v2, wrench, failed):
    """000 Ancillary Effects: the wrench number below the Rel (Schofield Rel 2) fails."""
    rec, _ = _shoot(gear, ap_v2, make_card(cause={12: [9, 2, 2]}, wrench=wrench))
    assert rec.equipment_failure.failed is failed


@pytest.mark.parametrize(("partner", "failed"), [(True, True), (False, False)])
def test_rel_1_needs_the_wrench_2_card_discarded(gear, ap_v2, partner, failed):
    """001 Equipment Failure: Rel 1 (the Sharps) fails only on a wrench 1 when the card
    whose wrench shows 2 is in the discard pile."""
    discard = [make_card(30, wrench=2 if partner else 5), make_card(31)]
    card = make_card(cause={12: [9, 2, 2]}, wrench=1)
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        weapon_id="sharps_rifle",
        shooter=_shooter("sharps_rifle", loaded=1),
        discard=discard,
    )
    assert rec.equipment_failure.failed is failed


def test_hank_shotgun_into_a_melee(gear, ap_v2):
    """001 Unintended Targets and Melee: the shotgun always has a stray shot; doubled
    for the scrum, so a hit on Angus hits Jonah on figures 1–2, a miss on 1–4."""
    hank = _shooter("double_barrel_shotgun")
    situation = ShotSituation(range_paces=3, target_in_melee=True, unintended_candidates=("jonah",))
    hit_card = make_card(cause={12: [9, 2, 2]}, figures=(2, 3, 6))
    rec, _ = _shoot(
        gear, ap_v2, hit_card, weapon_id="double_barrel_shotgun", shooter=hank, situation=situation
    )
    assert rec.strays.stray_shots == 2 and rec.strays.candidates_hit == ("jonah",)
    miss_card = make_card(cause={12: [2, 2, 2]}, figures=(2, 4, 5))
    rec, _ = _shoot(
        gear, ap_v2, miss_card, weapon_id="double_barrel_shotgun", shooter=hank, situation=situation
    )
    # two figures hit but Jonah is the only one near: hit once, no bump was spent
    # (000 Ancillary Effects; 002 stray spend) — this pinned ("jonah", "jonah") before
    assert rec.strays.stray_shots == 4 and rec.strays.figures_hit == (2, 4)
    assert rec.strays.candidates_hit == ("jonah",)


def test_shotgun_miss_at_long_range(gear, ap_v2):
    """000 Ancillary Effects: a shotgun missing at long range (the third band) has up
    to 4 stray shots — every figure of 4 or less hits."""
    situation = ShotSituation(range_paces=20, range_band=3, unintended_candidates=("a", "b", "c"))
    card = make_card(cause={12: [2, 2, 2]}, figures=(4, 1, 5))
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        weapon_id="double_barrel_shotgun",
        shooter=_shooter("double_barrel_shotgun"),
        situation=situation,
    )
    assert rec.strays.stray_shots == 4 and rec.strays.candidates_hit == ("a", "b")


def test_stray_spend_moves_a_figure(gear, ap_v2):
    """002 Stray shot spend: ±1 on a figure (here pulling a bystander into the shot)."""
    situation = ShotSituation(range_paces=3, unintended_candidates=("bystander",))
    card = make_card(cause={12: [11, 2, 2]}, figures=(2, 6, 6))
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        weapon_id="double_barrel_shotgun",
        shooter=_shooter("double_barrel_shotgun"),
        situation=situation,
        spends=BumpSpends(stray=(StraySpend(figure_index=0, delta=-1),)),
        tn=_tn(plus=0),
    )
    assert rec.strays.figures == (1, 6, 6) and rec.strays.candidates_hit == ("bystander",)


# -- card hacking options (000 Action Card Hacking) -----------------------------------------------


def test_cause_effect_uncoupling(gear, ap_v2):
    card = make_card(cause={12: [9, 2, 2]}, effects={(3, 6): 3})
    effect_card = make_card(
        7,
        effects={(3, 6): 11},
        stack=(("head", 2), ("chest", 1), ("right_arm", 0), ("left_leg", 1)),
    )
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        options=OptionalRules(cause_effect_uncoupling=True),
        more=CardSupply(effect_card, make_card(8)),
    )
    assert rec.location.location is HitLocation.RIGHT_ARM and rec.effect.value == 11
    assert rec.cards[:2] == (1, 7)


def test_hit_location_damage_draw(gear, ap_v2):
    card = make_card(cause={12: [9, 2, 2]})
    loc_card = make_card(
        7, stack=(("head", 2), ("chest", 1), ("left_arm", 0), ("left_leg", 1)), effects={(3, 6): 3}
    )
    dmg_card = make_card(8, effects={(3, 6): 14})
    rec, _ = _shoot(
        gear,
        ap_v2,
        card,
        options=OptionalRules(hit_location_damage_draw=True),
        more=CardSupply(loc_card, dmg_card, make_card(9)),
    )
    assert rec.location.location is HitLocation.LEFT_ARM and rec.effect.value == 14
