"""Review fixes for fan firing: ablated cover across a series, cards drawn only for
hits, and 003's secondary targets bought with a bump."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.combat.bumps import BumpSpends
from twtw_desktop.rules.combat.ranged import ShotSpec, fan_shot_tn, plan_fan_fire, ranged_tn
from twtw_desktop.rules.combat.resolve import resolve_fan
from twtw_desktop.rules.combat.situation import Cover, ShotSituation

from .cardkit import CardSupply, armed, jonah_fanner, make_card, person

ALL = frozenset(HitLocation)


def _base(fanner, w, edition, sits):
    return [ranged_tn(fanner, w, edition, s, ShotSpec(kind="snap", fan=True)) for s in sits]


def test_later_fan_shots_meet_the_ablated_cover(gear, ap_v2):
    """000 Armor Penetration/Ablation: an ablated cover's AV stays lowered, so the
    second shot of a fan through the same thin wood (AV 2) meets AV 1. Shot 1: PV 2
    (Pen 2, shield 0) = AV → A, AV 2 → 1. Shot 2 (shield +1): PV 3 against AV 1 is P
    — against the stale AV 2 it would only ablate."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    wood = Cover(feature_id="door", material="thin wood", av=2, covers=ALL)
    sits = [ShotSituation(range_paces=3, covers=(wood,))] * 2
    plan = plan_fan_fire(fanner, w, ["a", "a"], ap_v2)
    card = make_card(1, cause={10: [10, 10, 1]}, shield=0)
    supply = CardSupply(
        # extensions of the 10s, the stun check, shot 2's location: all shield +1
        *[make_card(40 + i, cause={10: [1, 1, 1]}, shield=1) for i in range(8)],
    )
    records, _ = resolve_fan(
        fanner, [person("a")] * 2, w, ap_v2, plan, _base(fanner, w, ap_v2, sits), card,
        situations=sits, more=supply,
    )  # fmt: skip
    first, second = records
    assert first.covers[0].outcome == "A" and first.ablated_covers == (("door", 1),)
    assert second.covers[0].av == 1 and second.covers[0].pv == 3
    # and the penetrating shot lowers it again (000: "In both cases, the protection
    # value is decremented")
    assert second.covers[0].outcome == "P" and second.ablated_covers == (("door", 0),)


def test_a_missed_fan_shot_draws_no_location_card(gear, ap_v2):
    """000 Fan Firing: successive shots read their hit location on a card of their
    own — a shot that misses needs none, so no card is taken from the deck for it."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    sits = [ShotSituation(range_paces=3)] * 2
    plan = plan_fan_fire(fanner, w, ["a", "a"], ap_v2)
    card = make_card(1, cause={10: [9, 2, 1]})  # second best 2 − 2 SP − 2 → a miss
    supply = CardSupply(*[make_card(40 + i) for i in range(6)])
    records, _ = resolve_fan(
        fanner, [person("a")] * 2, w, ap_v2, plan, _base(fanner, w, ap_v2, sits), card,
        situations=sits, more=supply,
    )  # fmt: skip
    assert records[0].hit.success and not records[1].hit.success
    assert 41 not in supply.drawn  # at most card 40, for shot 1's stun check
    assert records[1].cards == (1,)


def _jonah_fan(gear, phases):
    w = gear.weapon("colt_peacemaker_gunslinger")
    jonah = person(
        "jonah",
        skills={"shooting_pistol": (3, "coordination")},
        traits={"coordination": "3d10"},
        weapons=[armed("colt_peacemaker_gunslinger", loaded=6)],
    )
    plan = plan_fan_fire(jonah, w, ["p1", "p1"], phases)
    sit = ShotSituation(range_paces=3)
    base = ranged_tn(jonah, w, phases, sit, ShotSpec(kind="snap", fan=True))
    return jonah, w, plan, sit, base


def test_jonah_hits_each_brother_once_for_one_bump(gear, phases):
    """003 Fan Firing, Secondary Targets: Jonah fans 2 shots at TN 5 + 2 = 7 and gets
    11 and 10 — two successes and one bump. The burst 3 result allows two hits; he
    spends the bump on the second brother, so each brother takes one hit."""
    jonah, w, plan, sit, base = _jonah_fan(gear, phases)
    assert fan_shot_tn(base, plan, 0).tn == 7
    p1, p2 = person("p1"), person("p2")
    card = make_card(10, cause={10: [10, 1, 10]}, burst=(2, 3, 5))
    supply = CardSupply(
        make_card(11, cause={10: [1, 1, 1]}),  # 10 → 11
        make_card(12, cause={10: [1, 1, 1]}),  # the other 10 → 11 (still a success)
        *[
            make_card(40 + i, stack=(("head", 2), ("chest", 1), ("right_arm", 0), ("belly", 1)))
            for i in range(6)
        ],
    )
    records, hurt = resolve_fan(
        jonah, [p1], w, phases, plan, [base], card, situations=[sit], more=supply,
        secondary=[(p2, ShotSituation(range_paces=3))],
    )  # fmt: skip
    first, second = records
    assert first.hit.success and first.hit.bumps == 1
    assert first.hits == 2 and first.hits_for_other_targets == 1
    assert first.spends.secondary_targets == 1 and first.spends.unspent_standard == 0
    assert second.target_id == "p2" and second.hits == 1
    assert second.location.location is HitLocation.RIGHT_ARM  # its own card's standard
    assert 10 not in second.cards  # not the fan's own card
    assert second.damage is not None and "p2" in hurt


def test_a_secondary_target_needs_a_hit_to_spare(gear, phases):
    """003 Secondary Targets: each secondary target takes one of the hits; with the
    burst 3 result at 1 hit (and no extra hit bought) nothing is left for a second
    target."""
    jonah, w, plan, sit, base = _jonah_fan(gear, phases)
    card = make_card(10, cause={10: [10, 1, 10]}, burst=(1, 3, 5))
    supply = CardSupply(*[make_card(20 + i, cause={10: [1, 1, 1]}) for i in range(8)])
    with pytest.raises(RulesError, match="extra hit"):
        resolve_fan(
            jonah, [person("p1")], w, phases, plan, [base], card, situations=[sit],
            more=supply, secondary=[(person("p2"), sit)],
        )  # fmt: skip


def test_secondary_targets_need_a_second_success(gear, phases):
    """003 Secondary Targets: one secondary target per success after the first."""
    jonah, w, plan, sit, base = _jonah_fan(gear, phases)
    card = make_card(10, cause={10: [10, 1, 1]}, burst=(2, 3, 5))
    supply = CardSupply(*[make_card(20 + i, cause={10: [1, 1, 1]}) for i in range(8)])
    with pytest.raises(RulesError, match="one success"):
        resolve_fan(
            jonah, [person("p1")], w, phases, plan, [base], card, situations=[sit],
            more=supply, secondary=[(person("p2"), sit)],
        )  # fmt: skip


def test_secondary_targets_belong_to_the_phases_fan(gear, ap_v2):
    """000 Fan Firing declares every target before the draw; 003's bump-bought
    secondary target is refused in AP v2."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    sits = [ShotSituation(range_paces=3)] * 2
    plan = plan_fan_fire(fanner, w, ["a", "a"], ap_v2)
    with pytest.raises(RulesError, match="003"):
        resolve_fan(
            fanner, [person("a")] * 2, w, ap_v2, plan, _base(fanner, w, ap_v2, sits),
            make_card(), situations=sits, secondary=[(person("b"), sits[0])],
        )  # fmt: skip


def test_spending_secondary_targets_directly_needs_one_bump_each(gear, phases):
    """003 Secondary Targets: a hit moved to another target without its bump is
    refused."""
    jonah, w, plan, sit, base = _jonah_fan(gear, phases)
    card = make_card(10, cause={10: [10, 1, 10]}, burst=(2, 3, 5))
    supply = CardSupply(*[make_card(20 + i, cause={10: [1, 1, 1]}) for i in range(8)])
    from twtw_desktop.rules.combat.resolve import resolve_attack

    with pytest.raises(RulesError, match="costs a bump"):
        resolve_attack(
            jonah, person("p1"), w, phases, fan_shot_tn(base, plan, 0), card,
            situation=sit, fan=plan, more=supply, hits_on_target=1, spends=BumpSpends(),
        )  # fmt: skip


def test_a_fan_checks_its_wrench_once(gear, ap_v2):
    """000 Ancillary Effects: the wrench of the card is one equipment check for the
    action; a three-shot fan from one card reports it once, on the first shot."""
    w = gear.weapon("colt_peacemaker")
    fanner = jonah_fanner()
    sits = [ShotSituation(range_paces=3)] * 3
    plan = plan_fan_fire(fanner, w, ["a", "a", "a"], ap_v2)
    card = make_card(1, cause={10: [9, 9, 9]}, wrench=1)  # 1 < Rel 2: the gun fails
    supply = CardSupply(*[make_card(40 + i) for i in range(12)])
    records, _ = resolve_fan(
        fanner, [person("a")] * 3, w, ap_v2, plan, _base(fanner, w, ap_v2, sits), card,
        situations=sits, more=supply,
    )  # fmt: skip
    assert records[0].equipment_failure is not None and records[0].equipment_failure.failed
    assert [r.equipment_failure for r in records[1:]] == [None, None]
