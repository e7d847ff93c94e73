"""A burst spread over several targets (000 Hitting Multiple Targets), dodging shots
under the dodge_vs_ranged switch (000 Hand to Hand Combat), and named card draws."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.combat.melee import DodgeSpec, dodge_allowed, dodge_items
from twtw_desktop.rules.combat.ranged import ShotSpec
from twtw_desktop.rules.combat.records import TnBreakdown
from twtw_desktop.rules.combat.resolve import draw_for, resolve_attack, resolve_spread_hits
from twtw_desktop.rules.combat.situation import ShotSituation
from twtw_desktop.rules.editions import OptionalRules

from .cardkit import CardSupply, armed, make_card, person


def _gunner():
    return person(
        "gunner",
        traits={"coordination": "3d8"},
        skills={"shooting_gatling": (2, "coordination")},
        weapons=[armed("gatling_gun", loaded=40)],
    )


def _tn():
    return TnBreakdown.build(5, "Standard", "000 Range")


def _burst_at_a(gun, edition, card, *, hits_on_target):
    """The gunner's burst of 3 at "a", keeping ``hits_on_target`` of its hits there."""
    first, _ = resolve_attack(
        _gunner(),
        person("a"),
        gun,
        edition,
        _tn(),
        card,
        situation=ShotSituation(range_paces=5),
        burst=3,
        hits_on_target=hits_on_target,
        more=CardSupply(*[make_card(40 + i) for i in range(4)]),
    )
    return first


def test_burst_hits_sent_on_strike_the_second_target(gear, ap_v2):
    """000 Hitting Multiple Targets: two successes, burst 3 shows 3 hits; one stays
    on the first target and two go on to the second, read on a card of their own
    (its standard location), the second hit a damage bump."""
    gun = gear.weapon("gatling_gun")
    card = make_card(1, cause={8: [6, 6]}, burst=(3, 3, 3))
    loc_card = make_card(2, effects={(3, 6): 4})
    first = _burst_at_a(gun, ap_v2, card, hits_on_target=1)
    assert first.hits == 3 and first.hits_for_other_targets == 2
    supply = CardSupply(loc_card, *[make_card(50 + i) for i in range(4)])
    recs, hurt = resolve_spread_hits(
        _gunner(),
        gun,
        ap_v2,
        first,
        card,
        [(person("b"), ShotSituation(range_paces=6), 2)],
        shot=ShotSpec(kind="normal"),
        burst=3,
        more=supply,
    )
    (rec,) = recs
    assert rec.target_id == "b" and rec.hits == 2
    assert supply.drawn[0] == 2 and rec.cards[0] == 2
    assert rec.location.location == loc_card.standard_hit.location
    assert any("1 further hit(s): 1 damage bump(s)" in r for r in rec.location.reasons)
    assert rec.damage is not None and "b" in hurt


def test_burst_spread_must_match_the_hits_kept(gear, ap_v2):
    gun = gear.weapon("gatling_gun")
    card = make_card(1, cause={8: [6, 6]}, burst=(3, 3, 3))
    first = _burst_at_a(gun, ap_v2, card, hits_on_target=2)
    with pytest.raises(RulesError, match="1 hit"):
        resolve_spread_hits(
            _gunner(), gun, ap_v2, first, card, [(person("b"), ShotSituation(range_paces=6), 2)]
        )


def test_dodge_is_hand_to_hand_unless_switched_on():
    """000 Hand to Hand Combat: the dodge is read as a hand-to-hand defence; the
    dodge_vs_ranged switch lets it count against shots and throws too."""
    assert dodge_allowed("melee", OptionalRules())
    assert not dodge_allowed("ranged", OptionalRules())
    assert not dodge_allowed("thrown", None)
    on = SimpleNamespace(dodge_vs_ranged=True)
    assert dodge_allowed("ranged", on) and dodge_allowed("thrown", on)


def test_dodge_items_from_the_front_and_behind():
    felicia = person("felicia", skills={"fighting_brawl": (3, "coordination")})
    items, notes = dodge_items(felicia, DodgeSpec(from_front=True))
    assert [m.value for m in items] == [-3] and not notes
    items, notes = dodge_items(felicia, DodgeSpec(from_front=False))
    assert not items and "outside" in notes[0]
    with pytest.raises(RulesError, match="cannot dodge"):
        dodge_items(felicia, DodgeSpec(), defender_attacked_this_round=True)


def test_draw_for_names_the_card_to_a_source_that_asks():
    card = make_card(7)

    class Named:
        purpose = None

        def name_next(self, purpose):
            self.purpose = purpose

        def __call__(self):
            return card

    src = Named()
    assert draw_for(src, "Felicia's stun check") is card
    assert src.purpose == "Felicia's stun check"
    assert draw_for(CardSupply(card), "anything") is card  # a plain source just draws
    assert HitLocation(card.standard_hit.location)
