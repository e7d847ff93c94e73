"""Property tests: no sequence of draws breaks the combat invariants.

* wounds per location stay 0–5; Conc never rises from damage;
* an ablation never raises an AV (and only an A result changes one);
* every TN breakdown sums to its TN and result modifier;
* the inputs are never changed, and a refused request is a RulesError.
"""

from __future__ import annotations

from itertools import cycle

from hypothesis import event, given, settings
from hypothesis import strategies as st

from twtw_desktop.errors import RulesError
from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.combat.bumps import BumpSpends
from twtw_desktop.rules.combat.melee import melee_tn, resolve_melee
from twtw_desktop.rules.combat.ranged import ShotSpec, ranged_tn
from twtw_desktop.rules.combat.records import mod
from twtw_desktop.rules.combat.resolve import resolve_attack
from twtw_desktop.rules.combat.situation import Cover, ShotSituation
from twtw_desktop.rules.deck import Deck, standard_deck
from twtw_desktop.rules.editions import OptionalRules, load_edition
from twtw_desktop.rules.gear import default_gear

from .cardkit import armed, person

DIES = (4, 6, 8, 10, 12)
LOCS = list(HitLocation)
RANGED = [
    "sw_schofield",
    "colt_peacemaker",
    "sharps_rifle",
    "winchester_rifle",
    "double_barrel_shotgun",
    "gatling_gun",
    "colt_thunderer",
]


@st.composite
def cards(draw):
    cause = {}
    for d in DIES:
        cause[str(d)] = [
            draw(st.one_of(st.integers(1, d), st.just("CF")))
            if draw(st.integers(0, 30)) == 0
            else draw(st.integers(1, d))
            for _ in range(5)
        ]
    effect = {
        str(d): [
            {"value": draw(st.integers(n, n * d)), "increased": draw(st.booleans())}
            for n in range(1, 8)
        ]
        for d in DIES
    }
    stack = [
        {
            "location": draw(st.sampled_from(LOCS)).value,
            "triangles": 0 if i == 2 else draw(st.integers(1, 2)),
            "prone": draw(st.booleans()),
        }
        for i in range(4)
    ]
    return Card.model_validate(
        {
            "number": draw(st.integers(1, 54)),
            "cause": cause,
            "effect": effect,
            "hit_locations": stack,
            "shield": draw(st.integers(-2, 2)),
            "burst": {
                "3": draw(st.integers(0, 3)),
                "5": draw(st.integers(0, 5)),
                "10": draw(st.integers(0, 10)),
            },
            "figures": tuple(draw(st.integers(1, 6)) for _ in range(3)),
            "wrench": draw(st.one_of(st.none(), st.integers(1, 13))),
            "clock": draw(st.integers(1, 12)),
            "step": draw(st.integers(0, 6)),
            "toggle": draw(st.booleans()),
            "fragment": 0,
            "initiative": {"fast": [7, 5, 3, 1], "normal": [9, 7, 5, 3], "slow": [13, 11, 8, 3]},
        }
    )


covers = st.builds(
    Cover,
    feature_id=st.sampled_from(["door", "wall", "barrel"]),
    material=st.just("wood"),
    av=st.integers(0, 6),
    covers=st.frozensets(st.sampled_from(LOCS), max_size=8),
)

situations = st.builds(
    ShotSituation,
    range_paces=st.integers(0, 60),
    point_blank=st.booleans(),
    visibility=st.sampled_from(["visible", "partly", "not_visible"]),
    # one feature has one AV: a line crossing it twice meets the same material twice
    covers=st.lists(covers, max_size=2, unique_by=lambda c: c.feature_id).map(tuple),
    target_size=st.one_of(st.none(), st.integers(1, 20)),
    target_prone=st.booleans(),
    target_relative_speed=st.integers(0, 40),
    firer_movement=st.sampled_from(["still", "walking", "running"]),
    firer_mounted=st.booleans(),
    appearing_disappearing=st.booleans(),
    secondary_target_index=st.integers(0, 3),
    target_in_melee=st.booleans(),
    unintended_candidates=st.lists(st.sampled_from(["a", "b", "c"]), max_size=3).map(tuple),
)

spends = st.builds(
    BumpSpends,
    hit_location_index=st.one_of(st.none(), st.integers(0, 3)),
    penetration=st.integers(0, 2),
    damage=st.integers(0, 2),
    burst_to_penetration=st.integers(0, 2),
)

wounds = st.fixed_dictionaries(
    {
        loc: st.integers(0, 5)
        for loc in ("head", "torso", "left_arm", "right_arm", "left_leg", "right_leg")
    }
)


def _check_breakdown(tn):
    assert tn.tn == tn.base + sum(m.value for m in tn.tn_items)
    assert tn.result_modifier == sum(m.value for m in tn.result_items)


def _check_damage(before, after, rec):
    for loc, n in after.wounds.items():
        assert 0 <= n <= 5
        assert n >= before.wounds[loc]
    assert after.conc <= before.conc
    for c in rec.covers:
        assert c.new_av <= c.av
        # 000: penetration and ablation both lower the AV ("In both cases"), a
        # deflection never (this pinned "only A" before)
        assert c.new_av == c.av or c.outcome in ("A", "P")
        assert c.outcome != "D" or c.new_av == c.av
    if rec.ablated_cover is not None:
        fid, av = rec.ablated_cover
        assert av < next(c.av for c in rec.covers if c.feature_id == fid)


@settings(max_examples=60)
@given(
    edition_id=st.sampled_from(["ap_v2", "phases"]),
    weapon_id=st.sampled_from(RANGED),
    situation=situations,
    kind=st.sampled_from(["snap", "normal", "aimed"]),
    aims=st.integers(1, 2),
    card=cards(),
    extra=st.lists(cards(), min_size=1, max_size=4),
    spend=spends,
    start_wounds=wounds,
    conc=st.integers(-5, 14),
    options=st.builds(
        OptionalRules, total_speed=st.booleans(), cause_effect_uncoupling=st.booleans()
    ),
    luck=st.integers(0, 16),
)
def test_ranged_invariants(
    edition_id,
    weapon_id,
    situation,
    kind,
    aims,
    card,
    extra,
    spend,
    start_wounds,
    conc,
    options,
    luck,
):
    edition = load_edition(edition_id)
    weapon = default_gear().weapon(weapon_id)
    shooter = person(
        "s", skills={weapon.skill: (2, "coordination")}, weapons=[armed(weapon_id, cocked=True)]
    )
    target = person("t", wounds=start_wounds)
    target.conc = conc
    shot = ShotSpec(kind=kind, aims=aims if kind == "aimed" else 0)
    tn = ranged_tn(shooter, weapon, edition, situation, shot, target=target, options=options)
    _check_breakdown(tn)
    # a Judge's extra modifier, so that hits and bumps are common enough to test
    tn = tn.with_items(result_items=[mod("luck", luck, "test")])
    _check_breakdown(tn)
    snapshot = (shooter.model_dump(), target.model_dump())

    def resolve(spend):
        supply = cycle(extra)
        return resolve_attack(
            shooter,
            target,
            weapon,
            edition,
            tn,
            card,
            situation=situation,
            shot=shot,
            options=options,
            spends=spend,
            more=lambda: next(supply),
        )

    try:
        rec, after = resolve(spend)
    except RulesError as e:
        # a refused spend changes nothing; the same attack with no spends resolves
        event(f"refused: {str(e).split(';')[0][:40]}")
        assert (shooter.model_dump(), target.model_dump()) == snapshot
        rec, after = resolve(BumpSpends())
    event("hit" if rec.hit.success else "miss")
    event("damage" if rec.damage else "no damage")
    assert (shooter.model_dump(), target.model_dump()) == snapshot
    _check_breakdown(rec.tn)
    _check_damage(target, after, rec)
    if not rec.hit.success:
        assert rec.damage is None and after == target
    rec.summary()


@settings(max_examples=40)
@given(
    seed=st.integers(0, 2**32 - 1),
    edition_id=st.sampled_from(["ap_v2", "phases"]),
    attack=st.sampled_from(["quick", "standard", "heavy", "shove"]),
    weapon_id=st.sampled_from([None, "bowie_knife", "club", "cavalry_saber", "shovel"]),
    rounds=st.integers(1, 6),
    start_wounds=wounds,
)
def test_melee_invariants_with_the_bundled_deck(
    seed, edition_id, attack, weapon_id, rounds, start_wounds
):
    """Several rounds of blows drawn from the bundled deck never break the invariants."""
    edition = load_edition(edition_id)
    deck = Deck(standard_deck(), seed=seed)
    weapon = default_gear().weapon(weapon_id) if weapon_id else None
    skill = weapon.skill if weapon else "fighting_brawl"
    attacker = person("a", skills={skill: (3, "coordination")}, damage_bonus=2)
    target = person("d", skills={"fighting_brawl": (1, "coordination")}, wounds=start_wounds)
    for _ in range(rounds):
        tn = melee_tn(attacker, target, edition, attack=attack, attacker_weapon=weapon)
        _check_breakdown(tn)
        card = deck.draw()
        rec, after = resolve_melee(
            attacker,
            target,
            edition,
            tn,
            card,
            attack=attack,
            weapon=weapon,
            more=deck.draw,
            discard=deck.discard_pile(),
        )
        _check_damage(target, after, rec)
        deck.discard_in_play()
        target = after
