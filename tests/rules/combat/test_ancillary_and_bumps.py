"""Ancillary effects and bump spending as plain functions (000 Ancillary Effects,
Carrying Loaded Weapons; 001 Equipment Failure, Unintended Targets; 002 Bumps)."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation, WoundLocation
from twtw_desktop.rules.combat.ancillary import (
    carried_discharge,
    equipment_failure,
    stray_shot_count,
    unintended_targets,
)
from twtw_desktop.rules.combat.bumps import (
    BumpPool,
    BumpSpends,
    StraySpend,
    allocate_spends,
    available_spends,
    default_location_index,
    hit_location_cost,
)

from .cardkit import make_card, person

STACK = (("head", 2), ("chest", 1), ("belly", 0), ("left_leg", 1))


@pytest.mark.parametrize(
    ("wrench", "rel", "failed"),
    [
        (None, 5, False),
        (4, 5, True),
        (5, 5, False),
        (12, 13, True),
        (3, None, False),
        (2, 1, False),
    ],
)
def test_equipment_failure(wrench, rel, failed):
    """000: the equipment fails when the wrench number is below its Rel."""
    assert equipment_failure(wrench, rel).failed is failed


def test_rel_one_rule():
    """001: Rel 1 fails only on a 1 with the wrench-2 card in the discard pile."""
    partner = make_card(9, wrench=2)
    assert equipment_failure(1, 1, [make_card(3), partner]).failed
    assert not equipment_failure(1, 1, [make_card(3)]).failed
    assert not equipment_failure(1, 1).failed


def test_stray_shot_count():
    """000/001: burst − hits; scatter weapons +1 and +1 per band beyond the first;
    doubled into a melee."""
    assert stray_shot_count(projectiles=10, hits=8)[0] == 2
    assert stray_shot_count(projectiles=1, hits=1)[0] == 0
    assert stray_shot_count(projectiles=1, hits=0)[0] == 1
    assert stray_shot_count(projectiles=1, hits=1, scatter=True)[0] == 1
    assert stray_shot_count(projectiles=1, hits=0, scatter=True, range_band=3)[0] == 4
    assert stray_shot_count(projectiles=1, hits=1, scatter=True, into_melee=True)[0] == 2
    assert stray_shot_count(projectiles=1, hits=1, into_melee=True)[0] == 0


def test_unintended_targets_closest_first():
    res = unintended_targets(3, (1, 4, 3), ("near", "far"))
    assert res.figures_hit == (1, 3) and res.candidates_hit == ("near", "far")
    # one figure, one target: without a stray bump spent the lone bystander is hit once
    # (000 Ancillary Effects; 002: a stray spend "may be used to cause one target to be
    # hit more than once") — this test pinned three hits on him before
    again = unintended_targets(3, (1, 2, 3), ("only",))
    assert again.candidates_hit == ("only",)
    spent = unintended_targets(3, (1, 2, 4), ("only",), [StraySpend(figure_index=2, delta=-1)])
    assert spent.figures_hit == (1, 2, 3) and spent.candidates_hit == ("only", "only")
    none = unintended_targets(0, (1, 1, 1), ("x",))
    assert none.candidates_hit == () and none.figures_hit == ()
    moved = unintended_targets(1, (2, 6, 6), ("x",), [StraySpend(figure_index=0, delta=-1)])
    assert moved.figures == (1, 6, 6) and moved.candidates_hit == ("x",)


@pytest.mark.parametrize(("toggle", "hit"), [(True, False), (False, True)])
def test_fully_loaded_revolver_discharges(gear, ap_v2, toggle, hit):
    """000 Carrying Loaded Weapons: a calamity on a move fires a fully loaded revolver;
    YES misses the carrier, NO hits the nearest body part."""
    carrier = person("c")
    card = make_card(toggle=toggle, effects={(3, 6): 8})
    new, res = carried_discharge(
        carrier,
        gear.weapon("colt_peacemaker"),
        card,
        ap_v2,
        cause="calamity_on_movement",
        fully_loaded=True,
    )
    assert res.discharged and res.hit is hit
    if hit:
        assert res.location is HitLocation.RIGHT_LEG and res.effect == 8
        assert new.wounds[WoundLocation.RIGHT_LEG] == 1 and new.conc == carrier.conc - 2
    else:
        assert new == carrier


def test_five_chambers_never_discharge(gear, ap_v2):
    carrier = person("c")
    new, res = carried_discharge(
        carrier,
        gear.weapon("colt_peacemaker"),
        make_card(toggle=False),
        ap_v2,
        cause="malfunction",
        fully_loaded=False,
    )
    assert not res.discharged and new == carrier


# -- bumps -----------------------------------------------------------------------------


def test_location_costs_follow_the_triangles():
    """000 Hit Location: each triangle is one bump from the standard entry."""
    card = make_card(stack=STACK)
    assert [hit_location_cost(card, i) for i in range(4)] == [2, 1, 0, 1]


def test_free_bumps_pay_in_their_direction():
    """001/003: a fixed modifier is a free bump its way; against it costs one more."""
    card = make_card(stack=STACK)
    assert default_location_index(card, 1) == 1
    assert default_location_index(card, 2) == 0
    assert default_location_index(card, -1) == 3
    assert [hit_location_cost(card, i, 1) for i in range(4)] == [1, 0, 1, 2]
    two = make_card(stack=(("head", 1), ("chest", 2), ("belly", 0), ("left_leg", 1)))
    assert default_location_index(two, 1) == 0  # the 1-triangle entry is in reach


def test_allocation_keeps_conditional_bumps_apart():
    """002 Bump Types: conditional bumps buy only their kind and are applied on their
    own; standard bumps buy anything."""
    card = make_card(stack=STACK)
    pool = BumpPool(standard=2, damage_only=1, penetration_only=1, burst=2)
    a = allocate_spends(
        pool, BumpSpends(hit_location_index=1, burst_to_penetration=1, damage=1), card
    )
    assert a.location_cost == 1
    assert a.penetration == 1 + 1
    assert a.damage == 1 + 1 + 1
    assert a.record.unspent_standard == 0
    with pytest.raises(RulesError, match="need 3"):
        allocate_spends(pool, BumpSpends(hit_location_index=0, damage=1), card)
    with pytest.raises(RulesError, match="no stray"):
        allocate_spends(pool, BumpSpends(stray=(StraySpend(figure_index=0, delta=1),)), card)
    with pytest.raises(RulesError, match="secondary"):
        allocate_spends(pool, BumpSpends(secondary_targets=1), card)


def test_available_spends_for_the_ui():
    card = make_card(stack=STACK, figures=(2, 3, 4))
    opts = available_spends(
        BumpPool(standard=1, damage_only=2), card, free_shift=1, strays_possible=True
    )
    assert opts.default_location_index == 1
    assert [o.cost for o in opts.hit_locations] == [1, 0, 1, 2]
    assert opts.conditional == {"damage_only": 2}
    assert opts.can_spend_stray and opts.figures == (2, 3, 4)
    assert not available_spends(BumpPool(), card, melee=True).can_assert_dominance
