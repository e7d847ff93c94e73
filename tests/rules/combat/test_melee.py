"""Hand to hand (000 Hand to Hand Combat, Advantage, Position, Breaking Engagement;
001 Melee Combat; 003 Determining Defense, Entanglement)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.combat.bumps import BumpSpends
from twtw_desktop.rules.combat.melee import (
    ATTACK_TYPES,
    DodgeSpec,
    Dominance,
    Fighter,
    active_defense,
    assert_dominance,
    attack_result,
    break_engagement,
    break_entanglement,
    check_melee_series,
    defense_ap_cost,
    engaged_maneuver_ap,
    entangle,
    escape_requirement,
    free_attack_ap,
    melee_advantage,
    melee_ap_cost,
    melee_defense,
    melee_tn,
    resolve_block,
    resolve_melee,
)
from twtw_desktop.rules.deck import read_pool

from .cardkit import CardSupply, armed, make_card, person

PUNCH_STACK = (("head", 2), ("chest", 1), ("belly", 0), ("left_leg", 1))


def _brawler(id="brawler", level=2, **kw):
    return person(id, skills={"fighting_brawl": (level, "coordination")}, **kw)


# -- RULES examples 9 and 10 ----------------------------------------------------------------


def test_angus_quick_attack_on_hank(ap_v2, samples):
    """000 Impact Damage (RULES example 9): Angus' quick attack deals 5 + DB 3 = 8
    impact; Hank is Size 6, so 8 Conc and no wound, leaving him 6 Conc."""
    angus, hank = samples["angus_laroq"], samples["hank_daggett"]
    tn = melee_tn(angus, hank, ap_v2, attack="quick")
    assert tn.tn == 5  # Hank's Brawl 1: 4 + 1
    card = make_card(cause={10: [9, 3]}, stack=PUNCH_STACK)
    rec, hank_after = resolve_melee(
        angus, hank, ap_v2, tn, card, attack="quick", stun_card=make_card(2, cause={8: [7, 7, 7]})
    )
    assert rec.hit.success and rec.attack_kind == "melee"
    assert rec.location.location is HitLocation.CHEST  # a punch: one bump up
    assert (rec.effect.source, rec.effect.value) == ("flat", 8)
    assert (
        rec.damage.kind == "impact" and rec.damage.wounds_added == 0 and rec.damage.conc_dealt == 8
    )
    assert hank_after.conc == 6 and hank_after.wound_level == 0


@pytest.mark.parametrize(("level", "defense"), [(0, 4), (1, 5), (2, 5), (3, 6), (5, 7)])
def test_defense_ap_v2(ap_v2, level, defense):
    """000 Determining Results (RULES example 10): 4 + half the skill level, rounded up
    — skill 1 gives 5, skill 3 gives 6."""
    assert melee_defense(_brawler(level=level), ap_v2).tn == defense


def test_hank_defense_phases(phases, samples):
    """001 Determining Defense: Hank, Fighting: Brawl 1, Defense 4."""
    assert melee_defense(samples["hank_daggett"], phases).tn == 4


def test_phases_armed_and_defend(gear, phases):
    """003: +1 armed against an unarmed foe; +1 with a Defend weapon; never both; with
    two Defend weapons only the better one keeps it."""
    saber, knife = gear.weapon("cavalry_saber"), gear.weapon("bowie_knife")
    d = person("d", skills={"fighting_sword": (1, "coordination")})
    assert melee_defense(d, phases, defender_weapon=saber, attacker_weapon=knife).tn == 3 + 1 + 1
    assert melee_defense(d, phases, defender_weapon=saber, attacker_weapon=None).tn == 3 + 1 + 1
    assert melee_defense(d, phases, defender_weapon=saber, attacker_weapon=saber).tn == 3 + 1
    k = person("k", skills={"fighting_knife": (1, "coordination")})
    assert melee_defense(k, phases, defender_weapon=knife, attacker_weapon=None).tn == 3 + 1 + 1
    assert melee_defense(k, phases, defender_weapon=knife, attacker_weapon=saber).tn == 3 + 1


def test_ap_v2_has_no_armed_bonus(gear, ap_v2):
    d = person("d", skills={"fighting_sword": (1, "coordination")})
    assert melee_defense(d, ap_v2, defender_weapon=gear.weapon("cavalry_saber")).tn == 5


@pytest.mark.parametrize(
    ("held", "change"), [(Dominance.PARTIAL, -1), (Dominance.DOMINANCE, -2), (Dominance.FULL, -2)]
)
def test_dominance_lowers_defense(ap_v2, held, change):
    """000 Position: partial dominance −1 defense, dominance −2."""
    assert melee_defense(_brawler(level=2), ap_v2, held_at=held).tn == 5 + change


def test_standing_still_and_advantage(ap_v2):
    """000: two rounds without moving −1 defense; 001: advantage +1 to the defender."""
    assert melee_defense(_brawler(level=2), ap_v2, stood_still=True).tn == 4
    assert melee_defense(_brawler(level=2), ap_v2, advantage=True).tn == 6


# -- attacks, AP and the TN --------------------------------------------------------------------


def test_attack_types_are_marked_house_values():
    """000 prints only the quick attack's 5 + DB; the rest are house values."""
    assert ATTACK_TYPES["quick"].unarmed_damage == 5
    for t in ATTACK_TYPES.values():
        assert t.house_values and t.source


def test_careful_attack(ap_v2):
    """000 Hand to Hand Combat: careful +2 AP and +1, once."""
    assert melee_ap_cost("standard").total == 3
    assert melee_ap_cost("standard", careful=True).total == 5
    tn = melee_tn(_brawler("a"), _brawler("d"), ap_v2, careful=True)
    assert tn.result_modifier == 1
    assert melee_tn(_brawler("a"), _brawler("d"), ap_v2, attack="heavy").result_modifier == -1


def test_defense_ap_costs():
    assert defense_ap_cost("block").total == 2 and defense_ap_cost("dodge").total == 3


def test_dodge(ap_v2):
    """000: a dodge downgrades attacks from its front by the defender's AD (house: the
    skill level); it is refused after the defender attacked."""
    a, d = _brawler("a"), _brawler("d", level=3)
    assert active_defense(d) == 3
    front = melee_tn(a, d, ap_v2, dodge=DodgeSpec(from_front=True))
    assert front.result_modifier == -3
    behind = melee_tn(a, d, ap_v2, dodge=DodgeSpec(from_front=False))
    assert behind.result_modifier == 0 and behind.notes
    with pytest.raises(RulesError, match="cannot dodge"):
        melee_tn(a, d, ap_v2, dodge=DodgeSpec(), defender_attacked_this_round=True)


def test_unknown_attack_type():
    with pytest.raises(RulesError, match="not an attack type"):
        melee_ap_cost("flying_kick")


def test_engagement_needs_one_pace(ap_v2):
    a, d = _brawler("a"), _brawler("d")
    with pytest.raises(RulesError, match="within 1 pace"):
        resolve_melee(a, d, ap_v2, melee_tn(a, d, ap_v2), make_card(), distance_paces=2)


def test_series_limit(gear):
    """000 Multiple Attacks: "Attacks in excess of the level of the appropriate skill
    miss automatically (but may have other effects)" — a third blow at level 2 is
    declared and misses (this test pinned a refusal before)."""
    assert check_melee_series(_brawler(level=2), None, 2) == 2
    assert check_melee_series(_brawler(level=2), None, 3) == 2
    with pytest.raises(RulesError, match="at least one"):
        check_melee_series(_brawler(level=2), None, 0)


# -- hit locations in melee --------------------------------------------------------------------


def test_kick_goes_down_and_height_up(ap_v2):
    """001/003 Hit Location Modifiers: kick one bump down; height one bump up (with a
    punch, two up)."""
    a, d = _brawler("a"), _brawler("d")
    tn = melee_tn(a, d, ap_v2)
    card = make_card(cause={10: [9, 3]}, stack=PUNCH_STACK)
    kick, _ = resolve_melee(a, d, ap_v2, tn, card, kick=True, stun_card=make_card(2))
    assert kick.location.location is HitLocation.LEFT_LEG
    high, _ = resolve_melee(a, d, ap_v2, tn, card, height_advantage=True, stun_card=make_card(2))
    assert high.location.location is HitLocation.HEAD and high.location.bumps_spent == 0


def test_full_dominance_chooses_the_location(ap_v2):
    """000 Position: with full dominance the attacker names the hit location."""
    a, d = _brawler("a"), _brawler("d")
    tn = melee_tn(a, d, ap_v2, defender_held_at=Dominance.FULL)
    card = make_card(cause={10: [9, 3]})
    rec, _ = resolve_melee(
        a,
        d,
        ap_v2,
        tn,
        card,
        attacker_dominance=Dominance.FULL,
        chosen_location=HitLocation.RIGHT_LEG,
        stun_card=make_card(2),
    )
    assert rec.location.location is HitLocation.RIGHT_LEG
    with pytest.raises(RulesError, match="full dominance"):
        resolve_melee(
            a,
            d,
            ap_v2,
            tn,
            card,
            attacker_dominance=Dominance.DOMINANCE,
            chosen_location=HitLocation.HEAD,
        )


def test_dominated_attacker_hits_softer(gear, ap_v2):
    """000 Position: a dominated fighter's damage is shifted one row up (less)."""
    a = person("a", skills={"fighting_knife": (2, "coordination")}, weapons=[armed("bowie_knife")])
    d = _brawler("d")
    knife = gear.weapon("bowie_knife")
    card = make_card(
        cause={10: [9, 3]},
        effects={(1, 6): 2, (2, 6): 8},
        stack=(("head", 2), ("chest", 1), ("left_arm", 0), ("left_leg", 1)),
    )
    tn = melee_tn(a, d, ap_v2, attacker_weapon=knife)
    free, _ = resolve_melee(a, d, ap_v2, tn, card, weapon=knife, stun_card=make_card(2))
    held, _ = resolve_melee(
        a,
        d,
        ap_v2,
        tn,
        card,
        weapon=knife,
        attacker_held_at=Dominance.DOMINANCE,
        stun_card=make_card(2),
    )
    assert free.effect.value == 8 and held.effect.value == 2
    assert held.effect.row_bumps == -1


def test_heavy_and_quick_weapon_rows(gear, ap_v2):
    """House values: a quick weapon attack reads one row less, a heavy one row more."""
    a = person("a", skills={"fighting_knife": (2, "coordination")}, damage_bonus=1)
    knife = gear.weapon("bowie_knife")
    card = make_card(
        cause={10: [9, 9]},
        effects={(1, 6): 2, (2, 6): 8, (3, 6): 12},
        stack=(("head", 2), ("chest", 1), ("left_arm", 0), ("left_leg", 1)),
    )
    d = _brawler("d")
    values = {}
    for t in ("quick", "standard", "heavy"):
        rec, _ = resolve_melee(
            a,
            d,
            ap_v2,
            melee_tn(a, d, ap_v2, attack=t),
            card,
            attack=t,
            weapon=knife,
            stun_card=make_card(2),
        )
        values[t] = rec.effect.value
    assert values == {"quick": 2 + 1, "standard": 8 + 1, "heavy": 12 + 1}


def test_shove_earns_dominance(ap_v2):
    """000 Asserting Dominance: an attack for dominance only deals no damage; a success
    is one bump toward dominance, and spent bumps add more."""
    a, d = _brawler("a"), _brawler("d")
    tn = melee_tn(a, d, ap_v2, attack="shove")
    card = make_card(cause={10: [10, 3]})
    rec, d_after = resolve_melee(
        a,
        d,
        ap_v2,
        tn,
        card,
        attack="shove",
        more=CardSupply(make_card(2, cause={10: [4]})),
        spends=BumpSpends(dominance=1),
    )
    assert rec.hit.bumps == 2 and rec.dominance_bumps == 2
    assert rec.damage is None and d_after == d
    assert assert_dominance(Dominance.NONE, rec.dominance_bumps).level is Dominance.DOMINANCE


def test_dominance_spend_is_melee_only(gear, ap_v2):
    from twtw_desktop.rules.combat.bumps import BumpPool, allocate_spends

    with pytest.raises(RulesError, match="hand-to-hand"):
        allocate_spends(BumpPool(standard=1), BumpSpends(dominance=1), make_card())


# -- blocks --------------------------------------------------------------------------------------


def test_unarmed_block_tie_moves_the_hit_to_the_arm(ap_v2):
    """000 Hand to Hand Combat: a block equal to the attack result moves the hit to
    the blocking arm; greater blocks it."""
    a, d = _brawler("a"), _brawler("d")
    tn = melee_tn(a, d, ap_v2)
    card = make_card(cause={10: [7, 3]}, stack=PUNCH_STACK)
    pr = read_pool(card, "2d10")
    result = attack_result(pr, tn)
    assert result == 7
    tie = resolve_block(
        d, result, make_card(5, cause={10: [7, 2]}), ap_v2, arm=HitLocation.RIGHT_ARM
    )
    assert tie.outcome == "to_arm" and tie.arm is HitLocation.RIGHT_ARM
    rec, hurt = resolve_melee(
        a, d, ap_v2, tn, card, pool_read=pr, block=tie, stun_card=make_card(2)
    )
    assert rec.location.location is HitLocation.RIGHT_ARM
    assert hurt.wounds[WoundLocation.RIGHT_ARM] == 0 and hurt.conc < d.conc
    beat = resolve_block(d, result, make_card(6, cause={10: [9, 2]}), ap_v2)
    assert beat.outcome == "blocked"
    rec, hurt = resolve_melee(a, d, ap_v2, tn, card, pool_read=pr, block=beat)
    assert rec.blocked and rec.damage is None and hurt == d
    lose = resolve_block(d, result, make_card(7, cause={10: [3, 2]}), ap_v2)
    assert lose.outcome == "failed"


def test_weapon_block_tie_strains_the_weapon(gear, ap_v2):
    """000: blocking with a weapon checks it for breakage; on a tie its Rel goes up 1
    instead of the hit moving."""
    saber = gear.weapon("cavalry_saber")
    d = person("d", skills={"fighting_sword": (2, "coordination")})
    tie = resolve_block(d, 7, make_card(5, cause={10: [7, 2]}, wrench=2), ap_v2, weapon=saber)
    assert tie.outcome == "blocked" and tie.breakage.rel == saber.rel + 1 and tie.weapon_broke
    beat = resolve_block(d, 7, make_card(6, cause={10: [9, 2]}, wrench=2), ap_v2, weapon=saber)
    assert beat.outcome == "blocked" and beat.breakage.rel == saber.rel and not beat.weapon_broke


def test_block_needs_an_arm(ap_v2):
    with pytest.raises(RulesError, match="arm"):
        resolve_block(_brawler("d"), 5, make_card(), ap_v2, arm=HitLocation.HEAD)


# -- advantage -------------------------------------------------------------------------------------


def test_saber_against_knife(gear):
    """000 Determining Advantage (001's Percy and Don): the cavalryman's saber brings its
    advantage; the knife none. The side with more gets +1."""
    percy = Fighter(name="Percy", weapon=gear.weapon("cavalry_saber"))
    don = Fighter(name="Don", weapon=gear.weapon("bowie_knife"))
    adv = melee_advantage([percy], [don])
    assert adv.winner == "a" and adv.bonus_for("a") == 1 and adv.bonus_for("b") == 0


def test_armed_height_position_and_size(gear):
    """000: +1 armed against unarmed, +1 height (+1 per Size above), +1 position."""
    armed_f = Fighter(name="A", weapon=gear.weapon("club"))
    bare = Fighter(name="B", height=True, size=7)
    adv = melee_advantage([armed_f], [bare])
    assert adv.totals == (1, 2) and adv.winner == "b"
    even = melee_advantage([Fighter(name="A", position=True)], [Fighter(name="B", height=True)])
    assert even.winner is None


def test_ganging_up(gear):
    """000: a side of several fighters adds their values, each +1 per other member."""
    brothers = [Fighter(name="Pete"), Fighter(name="Clem")]
    hank = Fighter(name="Hank", position=True)
    adv = melee_advantage(brothers, [hank])
    assert adv.totals == (2, 1) and adv.winner == "a"


def test_weapon_length_is_optional(gear):
    from twtw_desktop.rules.editions import OptionalRules

    a = Fighter(name="A", weapon=gear.weapon("club"))
    b = Fighter(name="B", weapon=gear.weapon("bowie_knife"))
    assert melee_advantage([a], [b]).winner is None
    assert melee_advantage([a], [b], OptionalRules(weapon_length=True)).winner == "a"


# -- dominance and engagement ----------------------------------------------------------------


def test_assert_and_cancel_dominance():
    """000 Asserting Dominance: a level per bump, cancelled one for one; 2 paces each."""
    up = assert_dominance(Dominance.NONE, 1)
    assert up.level is Dominance.PARTIAL and up.movement_paces == 2
    assert assert_dominance(Dominance.PARTIAL, 0, opponent_bumps=1).level is Dominance.NONE
    assert assert_dominance(Dominance.DOMINANCE, 3).level is Dominance.FULL


@pytest.mark.parametrize(("held", "ap", "tn"), [(1, 1, 3 + 2), (2, 2, 5 + 2), (3, 3, 7 + 2)])
def test_escape_requirements(held, ap, tn):
    """000 Breaking Engagements When Dominated: partial 1 AP TN 3, dominance 2 AP TN 5,
    full 3 AP TN 7, each + half the opponent's level (3 → 2, rounded up)."""
    req = escape_requirement(held, 3)
    assert (req.ap, req.tn) == (ap, tn)
    with pytest.raises(RulesError):
        escape_requirement(0, 3)


def test_breaking_engagement():
    """000 Breaking Engagement: 2 AP carefully, or walk away and give a free attack
    at 1 AP less (minimum 0)."""
    careful = break_engagement(True)
    assert careful.ap == 2 and not careful.opponent_free_attack
    walk = break_engagement(False)
    assert walk.ap == 0 and walk.opponent_free_attack
    assert free_attack_ap(3) == 2 and free_attack_ap(0) == 0
    with pytest.raises(RulesError, match="escape"):
        break_engagement(True, held_at=Dominance.DOMINANCE)
    assert break_engagement(True, held_at=Dominance.PARTIAL).reasons[0].startswith("under partial")


def test_maneuver_while_engaged():
    assert engaged_maneuver_ap(1) == 1
    with pytest.raises(RulesError):
        engaged_maneuver_ap(2)


# -- entanglement (003) --------------------------------------------------------------------------


def test_octavio_ropes_miranda(gear, samples):
    """003 Entanglement: Octavio's lasso skill against Miranda's Dexterity; he must win."""
    lasso = gear.weapon("lasso")
    octavio, miranda = samples["octavio_vaquero"], samples["miranda_valentine"]
    caught = entangle(
        octavio, miranda, lasso, make_card(cause={8: [7, 2]}), make_card(2, cause={10: [5, 2, 2]})
    )
    assert caught.success
    tie = entangle(
        octavio, miranda, lasso, make_card(cause={8: [5, 2]}), make_card(2, cause={10: [5, 2, 2]})
    )
    assert not tie.success
    with pytest.raises(RulesError):
        entangle(octavio, miranda, gear.weapon("cavalry_saber"), make_card(), make_card(2))


def test_breaking_free(gear, ap_v2, samples):
    """003: a Strength check at the weapon's TN frees the victim and breaks a fragile
    lariat; wriggling out is Dexterity against the attacker's skill."""
    lasso = gear.weapon("lasso")
    miranda = samples["miranda_valentine"]  # Strength 2d6
    strong = break_entanglement(
        miranda,
        lasso,
        make_card(cause={6: [6, 2]}),
        ap_v2,
        more=CardSupply(make_card(2, cause={6: [3]})),
    )
    assert strong.freed and strong.weapon_broken
    weak = break_entanglement(miranda, lasso, make_card(cause={6: [4, 2]}), ap_v2)
    assert not weak.freed and not weak.weapon_broken
    octavio = samples["octavio_vaquero"]
    wriggle = break_entanglement(
        miranda,
        lasso,
        make_card(cause={10: [8, 2, 2]}),
        ap_v2,
        method="wriggle",
        attacker=octavio,
        attacker_card=make_card(3, cause={8: [6, 2]}),
    )
    assert wriggle.freed and not wriggle.weapon_broken
    with pytest.raises(RulesError, match="attacker"):
        break_entanglement(miranda, lasso, make_card(), ap_v2, method="wriggle")


def test_club_final_impact_wound_reads_the_toggle(gear, ap_v2):
    """000 Impact Damage: a final impact wound to the head reads the card's toggle —
    NO leaves the target unconscious."""
    a = person("a", skills={"fighting_club": (2, "strength")})
    club = gear.weapon("club")
    d = _brawler("d", wounds={"head": 4})
    card = make_card(
        cause={8: [7, 2]},
        toggle=False,
        stack=(("left_arm", 2), ("chest", 1), ("head", 0), ("left_leg", 1)),
        effects={(4, 6): 13},
    )
    rec, hurt = resolve_melee(
        a, d, ap_v2, melee_tn(a, d, ap_v2, attacker_weapon=club), card, weapon=club
    )
    assert rec.damage.toggle_read is False and hurt.unconscious and not hurt.dead


def test_unreadied_weapon_is_refused(gear, ap_v2):
    a = person(
        "a",
        skills={"fighting_knife": (2, "coordination")},
        weapons=[armed("bowie_knife", readied=False)],
    )
    d = _brawler("d")
    knife = gear.weapon("bowie_knife")
    with pytest.raises(RulesError, match="not readied"):
        resolve_melee(
            a, d, ap_v2, melee_tn(a, d, ap_v2), make_card(cause={10: [9, 3]}), weapon=knife
        )


def test_a_defender_moving_continuously_forgoes_defence(ap_v2):
    """002 Continuous Actions: "the TN for all attacks targeting them is reduced by 1"."""
    a, d = _brawler(level=2), _brawler(level=2)
    plain = melee_tn(a, d, ap_v2)
    moving = melee_tn(a, d, ap_v2, defender_forgoes_defense=True)
    assert moving.tn == plain.tn - 1
    assert any(m.source == "002 Continuous Actions" for m in moving.tn_items)
