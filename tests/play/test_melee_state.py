"""Hand-to-hand state at the table (000 Hand to Hand Combat, Breaking Engagement,
Determining Advantage, Optional Rule: Weapon Length, Position in Hand-to-Hand
Engagements, Asserting Dominance, Breaking Engagements When Dominated, Improvised
Weapons): engagement, advantage and holds kept on the tokens and read by the blow's
TN, AP and damage — through the table, Qt blocked, numbers checked against 000.

The sample's saloon brawlers: Hank (Fighting: Brawl 1, bare hands) and Dave Perkins
(Brawl 2, Knife 2, his Bowie knife in hand). AP v2 Defense is 4 + half the skill
level, rounded up (000 Determining Results): Hank 5, Dave with his knife 5.
"""

from __future__ import annotations

import pytest

from twtw_desktop.model import Encounter
from twtw_desktop.play.actions import (
    EndRound,
    Move,
    Place,
    SetRules,
    StartActionTime,
    StartRound,
    parse_action,
    ref_of,
)
from twtw_desktop.play.attack import AttackRequest, Spends, plan_attack, preview
from twtw_desktop.play.cards import CardNeeded, TypedCards
from twtw_desktop.play.combat_actions import MeleeAttack, SpendRef
from twtw_desktop.play.melee_actions import Disengage, Engage, Escape, Hold, MeleeFactors
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.checks import check_pool

from .deck_support import next_segment

HANK = "hank_daggett"
DAVE = "dave_perkins"
CLEM = "clem_perkins"
SAMPLE = maps_dir() / "main_street.encounter.json"


@pytest.fixture
def table():
    t = open_table(SAMPLE).table
    col, row = t.map.offset(t.token_for(HANK).at)
    t.apply(Place(who=DAVE, to=[col + 2, row + 1]))  # the next hex east of Hank
    t.apply(Place(who=CLEM, to=[col + 1, row + 3]))  # two hexes off
    t.hank_ref = (col + 1, row + 1)  # type: ignore[attr-defined]
    return t


def _tok(t, cid):
    return t.token_for(cid)


def _after(n: int, k: int = 6) -> tuple[int, ...]:
    """The numbers of the ``k`` cards after card ``n`` (further cards read on)."""
    return tuple((n + i - 1) % 54 + 1 for i in range(1, k + 1))


def _hits(t, action: MeleeAttack, *, bumps: int = 0) -> dict:
    """The typed cards (``card``, ``more_cards``) on which ``action`` hits with at
    least ``bumps`` bumps."""
    plan = action.plan(t)
    used = {c.number for c in t.deck.discard_pile()}
    for n in range(1, 55):
        if used & {n, *_after(n)}:
            continue  # a printed card already seen waits for the reshuffle
        more = [t.deck.card(m) for m in _after(n)]
        out = preview(t, plan, Spends(), typed=t.deck.card(n), typed_more=more).outcome
        rec = out.record
        if out.card_needed or out.needs_block_card:
            continue
        if rec.hit.success and rec.hit.bumps >= bumps and not rec.hit.calamity:
            return {"card": n, "more_cards": _after(n)[: out.typed_used]}
    raise AssertionError("no card in the deck hits")


def _check_card(t, tn: int, success: bool) -> dict:
    """The typed cards on which Dave's 2d6 Brawl meets (or misses) ``tn``."""
    used = {c.number for c in t.deck.discard_pile()}
    for n in range(1, 55):
        if used & {n, *_after(n)}:
            continue
        more = TypedCards([t.deck.card(m) for m in _after(n)])
        try:
            res = check_pool(t.deck.card(n), "2d6", tn, more)
        except CardNeeded:
            continue
        if res.success == success and not res.calamity:
            return {"card": n, "more_cards": _after(n)[: more.used]}
    raise AssertionError("no such card")


def test_a_blow_engages_the_two_and_undo_parts_them(table):
    hank, dave = _tok(table, HANK), _tok(table, DAVE)
    before = table.state_fingerprint()
    assert not hank.engaged_with
    blow = MeleeAttack(who=DAVE, target=HANK, weapon="bowie_knife")
    ev = table.apply(blow)
    assert hank.engaged_with == [dave.id] and dave.engaged_with == [hank.id]
    assert "are engaged (000 Hand to Hand Combat)" in ev.text
    assert "are engaged" in table.encounter.log[-1].text  # the attack's own line
    assert table.steps[-1].action["do"] == "melee_attack"  # journaled as the action
    table.undo()
    assert not hank.engaged_with and table.state_fingerprint() == before
    table.apply(Engage(who=HANK, target=DAVE))
    assert "engaged already" in (table.why_not(Engage(who=DAVE, target=HANK)) or "")
    assert "apart" in (table.why_not(Engage(who=HANK, target=CLEM)) or "")


def test_armed_against_unarmed_gives_the_advantage_both_ways(table):
    # 000 Determining Advantage: armed vs unarmed +1 → Dave 1, Hank 0; the winner's
    # +1 goes on Defense when defending and on the result when attacking (001)
    hank_hits = table.preview(MeleeAttack(who=HANK, target=DAVE))
    assert hank_hits["tn"] == 6  # 4 + half of Knife 2 (1) + advantage 1
    assert any(
        "defender has the advantage" in i and "000 Determining Advantage" in i
        for i in hank_hits["tn_items"]
    )
    assert any("advantage 0 vs 1" in s for s in hank_hits["situation"])
    dave_hits = table.preview(MeleeAttack(who=DAVE, target=HANK, weapon="bowie_knife"))
    assert dave_hits["tn"] == 5  # 4 + half of Brawl 1, rounded up
    assert dave_hits["result_modifier"] == 1


def test_ganging_up_adds_the_others_engaged_with_the_foe(table):
    col, row = table.hank_ref
    table.apply(Place(who=CLEM, to=[col, row + 1]))  # the next hex west of Hank
    table.apply(Engage(who=CLEM, target=HANK))
    p = table.preview(MeleeAttack(who=DAVE, target=HANK, weapon="bowie_knife"))
    # Dave 1 + Clem 1 (both armed vs unarmed) + 1 for each of 2 fighters = 4 vs 0
    assert any("advantage 4 vs 0" in s and "ganging up" in s for s in p["situation"])
    assert p["result_modifier"] == 1


def test_the_judges_position_and_height_factors(table):
    table.apply(MeleeFactors(who=HANK, position=True, height=True))
    p = table.preview(MeleeAttack(who=HANK, target=DAVE))
    assert any("advantage 2 vs 1" in s for s in p["situation"])
    assert p["result_modifier"] == 1 and p["tn"] == 5  # Hank's now: no +1 on Dave's Defense
    table.undo()
    assert table.preview(MeleeAttack(who=HANK, target=DAVE))["tn"] == 6


def test_the_weapon_length_switch_reaches_the_blow(table):
    # Hank grabs a chair (large, not short) against Dave's knife (short): with the
    # optional rule the longer weapon has +1; otherwise the two are even
    blow = MeleeAttack(who=HANK, target=DAVE, improvised="improvised_large")
    off = table.preview(blow)
    assert off["result_modifier"] == 0 and off["tn"] == 5
    opts = table.encounter.options.model_copy(update={"weapon_length": True})
    table.apply(SetRules(edition=table.encounter.edition, options=opts))
    on = table.preview(blow)
    assert on["result_modifier"] == 1
    assert any("weapon length +1" in s for s in on["situation"])


def test_a_hold_lowers_defense_and_the_held_fighters_damage(table):
    hank, dave = _tok(table, HANK), _tok(table, DAVE)
    table.apply(Hold(who=HANK, target=DAVE, level=2))
    assert dave.held_by == hank.id and dave.held_at == 2 and dave.engaged_with == [hank.id]
    p = table.preview(MeleeAttack(who=HANK, target=DAVE))
    assert p["tn"] == 4  # 6 − 2 (000 Position: dominance lowers Defense by 2)
    assert any("held at dominance: TN -2" in i for i in p["tn_items"])
    # Dave's own blows read one effect row less
    blow = MeleeAttack(who=DAVE, target=HANK, weapon="bowie_knife")
    cards = _hits(table, blow)
    rec = table.apply(blow.model_copy(update=cards)).record
    assert any("attacker is dominated" in r for r in rec["effect"]["reasons"])
    table.undo()
    table.apply(Hold(who=HANK, target=DAVE, level=1))
    assert table.preview(MeleeAttack(who=HANK, target=DAVE))["tn"] == 5  # partial: −1
    table.apply(Hold(who=HANK, target=DAVE, level=0))
    assert dave.held_by is None and table.preview(MeleeAttack(who=HANK, target=DAVE))["tn"] == 6


def test_a_held_fighter_cannot_walk_or_disengage_until_they_escape(table):
    table.apply(Hold(who=HANK, target=DAVE, level=2))
    col, row = table.hank_ref
    away = Move(who=DAVE, to=[col + 3, row])
    assert "escape first" in (table.why_not(away) or "")
    assert "escape first" in (table.why_not(Disengage(who=DAVE)) or "")
    # 000: dominance — 2 AP, TN 5 + half of Hank's Brawl 1 (1) = 6
    p = table.preview(Escape(who=DAVE))
    assert p["tn"] == 6 and p["pool"] == "2d6"
    table.apply(StartActionTime())
    assert table.cost(Escape(who=DAVE)).ap == 2
    table.apply(parse_action({"do": "end_action_time"}))

    def card_for(success: bool) -> int:
        return _check_card(table, 6, success)

    fail = table.apply(Escape(who=DAVE, **card_for(False)))
    assert "still held" in fail.text and _tok(table, DAVE).held_at == 2
    ok = table.apply(Escape(who=DAVE, **card_for(True)))
    assert "escapes the hold" in ok.text
    dave = _tok(table, DAVE)
    assert dave.held_by is None and dave.engaged_with  # out of the hold, still fighting
    table.apply(Disengage(who=DAVE))
    assert not dave.engaged_with and not _tok(table, HANK).engaged_with
    assert _tok(table, HANK).free_attack_on is None  # careful: no free blow


def test_partial_dominance_escape_ends_the_fight(table):
    table.apply(Hold(who=HANK, target=DAVE, level=1))
    assert table.preview(Escape(who=DAVE))["tn"] == 4  # 3 + half of 1, rounded up
    table.apply(Escape(who=DAVE, **_check_card(table, 4, True)))
    assert not _tok(table, DAVE).engaged_with and _tok(table, DAVE).held_by is None


def test_walking_away_gives_the_foe_a_blow_for_one_ap_less(table):
    hank, dave = _tok(table, HANK), _tok(table, DAVE)
    table.apply(Engage(who=HANK, target=DAVE))
    col, row = table.hank_ref
    ev = table.apply(Move(who=DAVE, to=[col + 4, row]))
    assert "walks out of the fight" in ev.text
    assert not dave.engaged_with and hank.free_attack_on == dave.id
    table.apply(StartActionTime())
    free = MeleeAttack(who=HANK, target=DAVE)
    cost = table.cost(free)
    assert cost.ap == 2  # a standard blow's 3 AP − 1 (000 Breaking Engagement)
    assert any("walked out" in b for b in cost.breakdown)
    # the free blow is Hank's: Dave, now paces away, cannot strike back
    assert "apart" in (table.why_not(MeleeAttack(who=DAVE, target=HANK)) or "")
    # it is struck at once or not at all: with the next round it has lapsed
    table.apply(StartRound())
    assert "apart" in (table.why_not(free) or "")


def test_bumps_on_dominance_build_a_hold_and_the_held_cancel_it(table):
    hank, dave = _tok(table, HANK), _tok(table, DAVE)
    # Dave shoves Hank toward the piano (000 Asserting Dominance: a success is a bump)
    shove = MeleeAttack(who=DAVE, target=HANK, attack="shove")
    ev = table.apply(shove.model_copy(update=_hits(table, shove)))
    assert hank.held_by == dave.id and hank.held_at >= 1
    assert "holds Hank Daggett at" in ev.text
    level = hank.held_at
    # Hank's bump spent on dominance cancels one level of Dave's hold
    blow = MeleeAttack(who=HANK, target=DAVE, spends=(SpendRef(dominance=1),))
    table.apply(blow.model_copy(update=_hits(table, blow, bumps=1)))
    if level == 1:
        assert hank.held_by is None
    else:
        assert hank.held_at == level - 1


def test_improvised_weapons_add_to_the_attack_types_damage(table):
    req = AttackRequest(
        shooter_token=_tok(table, HANK).id,
        target_token=_tok(table, DAVE).id,
        mode="melee",
        improvised="improvised_sharp",
    )
    plan = plan_attack(table, req)
    assert plan.weapon is not None and plan.weapon.id == "improvised_sharp"
    blow = MeleeAttack(who=DAVE, target=HANK, improvised="improvised_sharp")
    rec = table.apply(blow.model_copy(update=_hits(table, blow))).record
    assert rec["weapon_id"] == "improvised_sharp"
    assert any(
        "Standard attack 7 + 2 deadly (000 Improvised Weapons)" in r
        for r in rec["effect"]["reasons"]
    )
    assert "not an improvised" in (
        table.why_not(MeleeAttack(who=HANK, target=DAVE, improvised="bowie_knife")) or ""
    )


def test_the_fight_is_saved_and_a_quiet_token_is_written_as_before(table):
    table.apply(Hold(who=HANK, target=DAVE, level=3))
    enc = table.encounter
    data = enc.model_dump(mode="json")
    again = Encounter.model_validate(data)
    dave = next(t for t in again.tokens if t.character_id == DAVE)
    assert dave.held_at == 3 and dave.engaged_with == [_tok(table, HANK).id]
    quiet = next(t for t in data["tokens"] if t["character_id"] == "jonah_benton")
    assert "engaged_with" not in quiet and "riding" not in quiet


def test_the_state_replays_from_the_actions(table):
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.apply(Hold(who=HANK, target=DAVE, level=2))
    table.apply(MeleeFactors(who=DAVE, position=True))
    expected = table.state_fingerprint()
    lines = [s.action for s in table.steps]
    fresh = open_table(SAMPLE).table
    for line in lines:
        fresh.apply(parse_action(line))
    assert fresh.state_fingerprint() == expected


def test_standing_still_two_rounds_costs_a_point_of_defense(table):
    # 000 Maneuvering During Engagement: no move for two rounds running → Defense −1
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.apply(Engage(who=HANK, target=DAVE))
    blow = MeleeAttack(who=HANK, target=DAVE)
    for expected in (6, 6, 5):  # rounds 1, 2, 3
        p = table.preview(blow)
        assert p["tn"] == expected, p["tn_items"]
        if expected == 5:
            assert any("did not move for 2 rounds" in i for i in p["tn_items"])
        table.apply(EndRound())
        table.apply(StartRound())
    # a one-pace step that keeps the fight starts the count again
    hank, dave = _tok(table, HANK).at, _tok(table, DAVE).at
    steps = [
        Move(who=DAVE, to=ref_of(table, h))
        for h in hank.neighbors()
        if h.distance(dave) == 1 and table.encounter.token_at(h) is None
    ]
    step = next(m for m in steps if m.plan(table).paces == 1)  # a pace that keeps the fight
    for _ in range(25):
        if table.why_not(step) is None:
            break
        next_segment(table)
    ev = table.apply(step)
    assert "walks out" not in ev.text and _tok(table, DAVE).engaged_with
    assert table.preview(blow)["tn"] == 6


def test_more_than_a_pace_round_the_foe_breaks_the_engagement(table):
    table.apply(Engage(who=HANK, target=DAVE))
    hank, dave = _tok(table, HANK).at, _tok(table, DAVE).at
    far_side = next(h for h in hank.neighbors() if h.distance(dave) == 2)
    ev = table.apply(Move(who=DAVE, to=ref_of(table, far_side)))  # two paces round Hank
    assert "circles too far" in ev.text
    assert not _tok(table, DAVE).engaged_with
    assert _tok(table, HANK).free_attack_on == _tok(table, DAVE).id


def test_full_dominance_chooses_where_the_blow_lands(table):
    blow = MeleeAttack(who=HANK, target=DAVE, location="head")
    assert "full dominance" in (table.why_not(blow) or "")
    table.apply(Hold(who=HANK, target=DAVE, level=3))
    p = table.preview(blow)
    assert any("the attacker's choice" in s for s in p["situation"])
    assert p["tn"] == 4  # full dominance: Defense −2, as dominance (000)
    rec = table.apply(blow.model_copy(update=_hits(table, blow))).record
    assert rec["location"]["location"] == "head"


def test_skill_levels_spent_on_advantage_shrink_the_pool_and_win_the_advantage():
    """001 Advantage: each skill level spent is one advantage factor; those levels are
    not read for the result, and the skill may not go below 1. The sheet keeps its
    own skill after the blow."""
    from twtw_desktop.play.actions import Place, ref_of
    from twtw_desktop.play.combat_actions import MeleeAttack
    from twtw_desktop.play.session import open_table
    from twtw_desktop.resources import maps_dir

    t = open_table(maps_dir() / "main_street.encounter.json").table
    dave, clem = "dave_perkins", "clem_perkins"
    here = t.token(f"token-{dave}").at
    spot = next(
        h
        for h in (here.neighbor(i) for i in range(6))
        if t.map.contains(h) and t.encounter.token_at(h) is None
    )
    t.apply(Place(who=clem, to=ref_of(t, spot)))
    knife = t.character(dave).weapons[0].weapon_id
    skill = t.gear.weapons[knife].skill
    level = t.character(dave).skill_level(skill)
    plain = MeleeAttack(who=dave, target=clem, weapon=knife)
    assert level == 2  # the sample's knife fighter
    spend = MeleeAttack(who=dave, target=clem, weapon=knife, skill_advantage=1)
    a, b = t.preview(plain), t.preview(spend)
    assert b["pool"] != a["pool"] and b["pool"].startswith(str(level - 1))
    assert any("skill level(s) spent on advantage (001 Advantage)" in g for g in b["situation"])
    too_much = MeleeAttack(who=dave, target=clem, weapon=knife, skill_advantage=level)
    why = t.why_not(too_much)
    assert why and "below 1" in why
    t.apply(spend)
    assert t.character(dave).skill_level(skill) == level
