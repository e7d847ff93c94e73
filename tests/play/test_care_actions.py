"""First aid, rest and healing at the table (001 Healing; 000/001 Wound Effects),
Qt blocked: the TNs of 001's Healing table per edition, what a success and a failure
do to wounds and bleeding, who may treat what, the AP in action time, the rest's
Conc a minute, the scene's healing checks, undo, and typed cards."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import EndRound, SetRules, StartActionTime, StartRound, parse_action
from twtw_desktop.play.care_actions import FirstAid, Heal, Rest
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.base import HitLocation
from twtw_desktop.rules.character import SkillRating
from twtw_desktop.rules.damage import apply_damage, bleed_rate

SAMPLE = maps_dir() / "main_street.encounter.json"
DOC, HANK, MIRANDA = "cyril_wellington", "hank_daggett", "miranda_valentine"
#: the bundled deck read on a 2d8 pool (Cyril's Medicine 2 with Acuity d8): no
#: exceptional cell on these cards
CARD_7, CARD_5, CARD_2, CARD_6, CARD_CF = 5, 2, 8, 6, 4


@pytest.fixture
def table():
    """Main Street, with Cyril as the posse's sawbones (Medicine 2, Acuity 3d8)."""
    t = open_table(SAMPLE).table
    doc = t.character(DOC)
    doc.skills = {**doc.skills, "medicine": SkillRating(level=2, trait="acuity")}
    return t


def _wound(t, who, **wounds):
    c = t.character(who)
    c.wounds = {**c.wounds, **wounds}
    return c


def _rules(t, edition=None, **options):
    opts = t.encounter.options.model_copy(update=options)
    t.apply(SetRules(edition=edition or t.encounter.edition, options=opts))


# -- first aid on a wound (001 Healing) -------------------------------------------


@pytest.mark.parametrize(
    ("edition", "tns"),
    [("ap_v2", [3, 5, 7, 9, 11]), ("phases", [3, 5, 7, 9, 9])],
)
def test_the_tn_goes_by_the_locations_wound_count(table, edition, tns):
    """001's table (Wind 3, Light 5, Serious 7, Critical 9) by the treated area's
    count; AP v2's fifth level reads its stun column (11), Phases' 5th Critical's 9."""
    if edition != table.encounter.edition:
        _rules(table, edition)
    for count, tn in enumerate(tns, start=1):
        _wound(table, HANK, torso=count)
        table.character(HANK).wound_care = {}
        p = table.preview(FirstAid(who=DOC, patient=HANK))
        assert (p["location"], p["wounds"], p["tn"], p["pool"]) == ("torso", count, tn, "2d8")


def test_a_success_takes_a_wound_off_and_stops_the_bleeding(table):
    _rules(table, bleeding=True)
    hank = _wound(table, HANK, torso=3, left_arm=1)
    hank.bleeding = bleed_rate(hank)[0]
    assert hank.bleeding == 1  # 001 Optional Bleeding: a heavy wound bleeds 1
    ev = table.apply(FirstAid(who=DOC, patient=HANK, typed_cards=(CARD_7,)))  # 7 vs TN 7
    assert ev.record["success"] and ev.record["location"] == "torso"
    assert hank.wounds["torso"] == 2 and hank.wound_care == {"torso": "bound"}
    assert hank.bleeding == 0 and "torso: 3 → 2" in ev.text
    assert table.encounter.log[-1].kind == "check"
    # the bound torso has had its check; the arm is next by default
    assert table.preview(FirstAid(who=DOC, patient=HANK))["location"] == "left_arm"
    assert "one check per wounded area" in table.why_not(
        FirstAid(who=DOC, patient=HANK, location="torso")
    )
    table.undo()
    assert hank.wounds["torso"] == 3 and hank.wound_care == {} and hank.bleeding == 1


def test_a_failure_uses_the_areas_one_check_until_it_is_wounded_again(table):
    hank = _wound(table, HANK, right_leg=2)
    ev = table.apply(FirstAid(who=DOC, patient=HANK, typed_cards=(CARD_2,)))  # 2 vs TN 5
    assert not ev.record["success"] and hank.wounds["right_leg"] == 2
    assert hank.wound_care == {"right_leg": "tried"}
    assert "every wounded area has had its first aid" in table.why_not(
        FirstAid(who=DOC, patient=HANK)
    )
    hurt, _ = apply_damage(hank, table.edition, effect=6, hit=HitLocation.RIGHT_LEG, kind="deadly")
    assert hurt.wound_care == {}  # a new wound there opens the area again
    hank.assign_from(hurt)
    assert table.preview(FirstAid(who=DOC, patient=HANK))["tn"] == 7  # now 3 wounds


def test_a_bound_wound_does_not_bleed_at_the_end_of_the_round(table):
    _rules(table, bleeding=True)
    hank = _wound(table, HANK, torso=4)
    miranda = _wound(table, MIRANDA, torso=4)
    hank.wound_care = {"torso": "bound"}
    table.apply(StartActionTime())
    table.apply(StartRound())
    conc_h, conc_m = hank.conc, miranda.conc
    table.apply(EndRound())
    assert hank.conc == conc_h  # bound
    assert miranda.conc == conc_m - 2  # 001: a serious wound bleeds 2


def test_only_the_skilled_treat_wounds_but_anyone_cares_for_conc_or_revives(table):
    _wound(table, MIRANDA, head=1)
    hank = table.character(HANK)
    why = table.why_not(FirstAid(who=HANK, patient=MIRANDA))
    assert "Only a character skilled in Medicine treats wounds (001 Healing)" in why
    hank.conc, hank.concussed = -2, True
    act = FirstAid(who=MIRANDA, patient=HANK, treat="conc", typed_cards=(CARD_7,))
    p = table.preview(act)
    assert (p["tn"], p["pool"]) == (3, "3d8")  # 001: Simple (3), Miranda's Acuity
    table.apply(act)
    assert hank.conc == hank.conc_max and not hank.concussed
    hank.unconscious = True
    act = FirstAid(who=MIRANDA, patient=HANK, treat="revive", typed_cards=(CARD_5,))
    assert table.preview(act)["tn"] == 5  # 000/001: Standard (5)
    table.apply(act)
    assert not hank.unconscious


def test_in_action_time_first_aid_costs_full_attention_next_to_the_patient(table):
    _wound(table, HANK, torso=2)
    table.apply(StartActionTime())
    act = FirstAid(who=DOC, patient=HANK)
    assert table.cost(act).ap == 8  # house: 000's full-attention skill
    why = table.why_not(act)
    assert "paces from Hank Daggett" in why and "house" in why
    doc_tok, hank_tok = table.token_for(DOC), table.token_for(HANK)
    doc_tok.hex = (hank_tok.hex[0] + 1, hank_tok.hex[1])
    why = table.why_not(act)
    assert why is None or "paces" not in why
    care = FirstAid(who=DOC, patient=HANK, treat="conc")
    assert "about 2 minutes" in table.why_not(care)


def test_phases_first_aid_is_a_full_action(table):
    _rules(table, "phases")
    _wound(table, HANK, torso=2)
    table.apply(StartActionTime())
    assert table.cost(FirstAid(who=DOC, patient=HANK)).speed == "slow"


def test_a_disabled_limb_and_the_dead_are_beyond_first_aid(table):
    _wound(table, HANK, left_leg=5)
    why = table.why_not(FirstAid(who=DOC, patient=HANK, location="left_leg"))
    assert "disabled" in why and "000" in why
    table.character(HANK).dead = True
    assert "dead" in table.why_not(FirstAid(who=DOC, patient=HANK, treat="conc"))


def test_refusals_change_nothing(table):
    _wound(table, HANK, torso=2)
    before = table.state_fingerprint()
    with pytest.raises(RulesError, match="not unconscious"):
        table.apply(FirstAid(who=DOC, patient=HANK, treat="revive"))
    with pytest.raises(RulesError, match="no token or character"):
        table.apply(FirstAid(who=DOC, patient="nobody"))
    assert table.state_fingerprint() == before


def test_a_printed_deck_needs_the_cards_typed_in(table):
    _wound(table, HANK, torso=2)
    table.deck.physical = True
    assert "physical-card mode" in table.why_not(FirstAid(who=DOC, patient=HANK))
    ev = table.apply(FirstAid(who=DOC, patient=HANK, typed_cards=(CARD_6,)))
    assert ev.record["cards"] == [CARD_6] and ev.record["success"]


def test_a_script_line_names_first_aid():
    act = parse_action({"do": "first_aid", "who": DOC, "patient": HANK, "location": "torso"})
    assert isinstance(act, FirstAid) and act.location == "torso"
    assert parse_action({"do": "rest", "minutes": 120, "healer": DOC}).healer == DOC


# -- between fights -----------------------------------------------------------------


def test_rest_gives_conc_back_a_minute_at_a_time_and_binds_the_wounds(table):
    hank = _wound(table, HANK, torso=3)
    hank.conc, hank.concussed, hank.stunned, hank.bleeding = -1, True, True, 1
    ev = table.apply(Rest(patients=(HANK,), minutes=10))
    assert hank.conc == 9 and not hank.concussed and not hank.stunned  # 001: 1 a minute
    assert hank.wound_care == {"torso": "bound"} and hank.bleeding == 0
    assert hank.wounds["torso"] == 3  # no healer: rest alone mends no wound
    assert ev.record["characters"][HANK]["conc"] == [-1, 9]
    assert table.encounter.log[-1].kind == "rest"
    table.undo()
    assert hank.conc == -1 and hank.stunned and hank.wound_care == {}


def test_the_unconscious_wake_after_six_hours_of_rest(table):
    hank = table.character(HANK)
    hank.unconscious = True
    table.apply(Rest(patients=(HANK,), minutes=60))
    assert hank.unconscious
    table.apply(Rest(patients=(HANK,), minutes=360))  # 1d6 hours at most (000/001)
    assert not hank.unconscious


def test_rest_with_a_healer_checks_every_wounded_area_once(table):
    """001: a Medicine check per area each scene; success improves it one level."""
    _wound(table, HANK, torso=3, left_arm=1)
    _wound(table, MIRANDA, head=2)
    # Hank's torso TN 7 (card 5: 7), his arm TN 3 (card 8: 2), Miranda's head TN 5 (card 6: 6)
    act = Rest(
        patients=(HANK, MIRANDA), minutes=480, healer=DOC, typed_cards=(CARD_7, CARD_2, CARD_6)
    )
    ev = table.apply(act)
    checks = [(c["patient"], c["location"], c["tn"], c["success"]) for c in ev.record["checks"]]
    assert checks == [
        (HANK, "torso", 7, True),
        (HANK, "left_arm", 3, False),
        (MIRANDA, "head", 5, True),
    ]
    assert table.character(HANK).wounds["torso"] == 2
    assert table.character(HANK).wounds["left_arm"] == 1
    assert table.character(MIRANDA).wounds["head"] == 1
    assert ev.record["characters"][HANK]["wound_level"] == [3, 2]


def test_heal_alone_and_its_refusals(table):
    _wound(table, HANK, torso=2)
    ev = table.apply(Heal(who=DOC, patients=(HANK,), typed_cards=(CARD_5,)))
    assert table.character(HANK).wounds["torso"] == 1 and "2 → 1" in ev.text
    assert "only the skilled heal wounds" in table.why_not(Heal(who=HANK))
    too_few = Rest(patients=(HANK,), healer=DOC, typed_cards=())
    table.deck.physical = True
    assert "physical-card mode" in table.why_not(too_few)
    table.deck.physical = False
    table.apply(StartActionTime())
    assert "between fights" in table.why_not(Rest())


# -- from the command line ----------------------------------------------------------


def test_play_lists_the_care_actions_with_their_page(capsys):
    from twtw_desktop.play.script import main

    assert main(["--actions"]) == 0
    out = capsys.readouterr().out
    for name in ("first_aid", "heal", "rest"):
        assert name in out
    assert "001 Healing" in out


def test_a_play_script_treats_and_rests_the_posse(table, tmp_path, capsys):
    import json

    from twtw_desktop.play.script import main
    from twtw_desktop.play.session import OpenTable, save_table

    _wound(table, HANK, torso=3)
    table.character(HANK).conc = 2
    enc = tmp_path / "wounded.encounter.json"
    save_table(OpenTable(table, SAMPLE, None), enc)
    script = tmp_path / "care.jsonl"
    lines = [
        {"do": "first_aid", "who": DOC, "patient": HANK, "typed_cards": [CARD_7]},
        {"do": "rest", "patients": [HANK], "minutes": 60},
    ]
    script.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    out = tmp_path / "after.encounter.json"
    assert main([str(enc), "--script", str(script), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "torso: 3 → 2" in printed and "Conc 2 → 14" in printed
    after = open_table(out).table.character(HANK)
    assert after.wounds["torso"] == 2 and after.conc == 14
    assert after.wound_care == {"torso": "bound"}


def test_a_rested_posse_carries_its_bound_wounds_in_a_party_file(table):
    """Between fights (issue: the posse carried from fight to fight): the party keeps
    the bound wounds, and the import's difference list names them."""
    from twtw_desktop.model.party import party_differences, party_from

    _wound(table, HANK, torso=3)
    table.apply(Rest(patients=(HANK,), minutes=30))
    party = party_from(table.encounter, [HANK])
    assert party.characters[0].wound_care == {"torso": "bound"}
    fresh = open_table(SAMPLE).table
    assert "wound_care" in " ".join(party_differences(fresh.encounter, party.characters)[HANK])


def test_a_journal_line_of_first_aid_replays_to_the_same_cards(table):
    """The journal keeps the action and the cards it drew; replaying the line on the
    same encounter draws them again."""
    from twtw_desktop.play.journal import replay_line

    _wound(table, HANK, torso=2)
    act = FirstAid(who=DOC, patient=HANK)
    ev = table.apply(act)
    line = act.journal_form() | {"cards": list(ev.cards)}
    again = open_table(SAMPLE).table
    doc = again.character(DOC)
    doc.skills = {**doc.skills, "medicine": SkillRating(level=2, trait="acuity")}
    _wound(again, HANK, torso=2)
    text = replay_line(again, line)
    assert text == ev.text and again.character(HANK).wounds == table.character(HANK).wounds
