"""Every switch of the Rules dialog that the rules read changes what it says: off and
on give different numbers (000 Aim and Snap Shots optional rule, 001 Optional Aiming
Rule, 000 Optional Rule: Weapon Length, 002 Setting Victory Threshold)."""

from __future__ import annotations

from twtw_desktop.rules.checks import ComplexCheck
from twtw_desktop.rules.combat.melee import Fighter, melee_advantage
from twtw_desktop.rules.combat.ranged import ShotSpec, attack_pool, shot_pool
from twtw_desktop.rules.editions import OptionalRules, load_edition, victory_threshold
from twtw_desktop.rules.gear import default_gear

from .combat.cardkit import armed, person

ON = OptionalRules(aim_with_acuity=True, weapon_length=True)


def _sharpshooter():
    return person(
        "eagle_eye",
        traits={"coordination": "2d6", "acuity": "2d10"},
        skills={"shooting_pistol": (2, "coordination")},
        weapons=[armed("sw_schofield", cocked=True)],
    )


def test_aim_with_acuity_reads_the_better_trait_on_an_aimed_shot():
    """Off: the aimed shot reads Coordination (2d6). On: Acuity 2d10 is better, so the
    firer uses it, with the page named. A snap shot never may."""
    shooter, w = _sharpshooter(), default_gear().weapon("sw_schofield")
    aimed = ShotSpec(kind="aimed", aims=1)
    off, _ = shot_pool(shooter, w, aimed, OptionalRules())
    on, why = shot_pool(shooter, w, aimed, ON)
    assert str(off) == "2d6" and str(on) == "2d10"
    assert "001 Optional Aiming Rule" in why[-1]
    snap, _ = shot_pool(shooter, w, ShotSpec(kind="snap"), ON)
    assert str(snap) == "2d6"


def test_aim_with_acuity_keeps_coordination_when_it_is_better():
    shooter = person("steady", skills={"shooting_pistol": (2, "coordination")})  # 3d10 vs 2d8
    w = default_gear().weapon("sw_schofield")
    pool, why = shot_pool(shooter, w, ShotSpec(kind="aimed", aims=1), ON)
    assert str(pool) == "2d10" and "no better" in why[-1]
    # the Judge may still choose Acuity explicitly
    forced, _ = shot_pool(shooter, w, ShotSpec(kind="aimed", aims=1, use_acuity=True), ON)
    assert forced == attack_pool(shooter, w, use_acuity=True)[0]


def test_weapon_length_gives_the_longer_weapon_the_advantage_until_closed():
    """000: the longer weapon holds the advantage at the start; it switches once the
    shorter weapon has hit torso or head. Off: no length factor at all."""
    g = default_gear()
    saber = Fighter(name="Percy", weapon=g.weapon("cavalry_saber"))
    knife = Fighter(name="Don", weapon=g.weapon("bowie_knife"))
    off = melee_advantage([saber], [knife])
    on = melee_advantage([saber], [knife], ON)
    assert off.totals == (1, 0) and on.totals == (2, 0)
    assert any("Weapon Length" in r for r in on.reasons)
    closed = knife.model_copy(update={"closed_in": True})
    switched = melee_advantage([saber], [closed], ON)
    assert switched.totals == (1, 1) and switched.winner is None
    # equal lengths: nobody holds it
    assert melee_advantage([saber], [saber], ON).totals == (1, 1)


def test_victory_threshold_sets_the_complex_checks_threshold():
    """002: Hank's effect 13 is 2 victories at the page's 6, 1 at a set threshold of 8."""
    ed = load_edition("ap_v2")
    assert victory_threshold(ed, OptionalRules()) == 6
    eight = victory_threshold(ed, OptionalRules(victory_threshold=8))
    assert eight == 8
    _, at_six = ComplexCheck(tn=7, needed=3).advance(8, 13)
    _, at_eight = ComplexCheck(tn=7, needed=3, threshold=eight).advance(8, 13)
    assert (at_six.victories_gained, at_eight.victories_gained) == (2, 1)
