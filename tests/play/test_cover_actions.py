"""Covering fire and tactical aiming at the table (002 Continuous Action Example:
Covering Fire, Determining Target Area; 000/001 Tactical Aiming), played from the
Main Street sample with Qt blocked, the numbers checked against the pages."""

from __future__ import annotations

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.play.actions import (
    Cock,
    Declare,
    Draw,
    EndRound,
    EndSegment,
    Face,
    Holster,
    Place,
    Reload,
    SetRules,
    StartActionTime,
    StartRound,
    parse_action,
)
from twtw_desktop.play.combat_actions import NormalShot, SnapShot, card_of
from twtw_desktop.play.cover_actions import (
    AREA_MAX_HEXES,
    BraveryCheck,
    CoveringFire,
    CoverMarker,
    ReactionShot,
    StopCoveringFire,
    active_covers,
    aim_lost,
    bravery_due,
    cover_state,
    covered_hexes,
    ended_why,
    pending_reactions,
    under_fire,
)
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import Resolve
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.base import Speed
from twtw_desktop.rules.deck import read_pool

from .deck_support import next_segment, put_on_top

MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"
FELICIA = "felicia_laroq"
#: Main Street's deck: Angus's Bravery 3d8 reads 3 on card 8, a CF on card 4; card 49's
#: wrench is 1, under the Peacemaker's Rel 2
LOW_BRAVERY, CF_BRAVERY, WRENCH_1 = 8, 4, 49


def _ref(table, token_id, dc=0, dr=0):
    col, row = table.map.offset(table.token(token_id).at)
    return (col + 1 + dc, row + 1 + dr)


def _angus_hex(table):
    return _ref(table, f"token-{ANGUS}")


@pytest.fixture
def table():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    t.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    return t


def _ap_v2_running(t, segments=4):
    t.apply(StartActionTime())
    t.apply(StartRound())
    for _ in range(segments):
        next_segment(t)
    return t


def _snap_ap(t):
    return t.gear.weapon("colt_peacemaker").snap_ap


def test_ap_v2_costs_four_snap_shots_and_places_a_marker_a_quarter(table):
    t = _ap_v2_running(table)
    cf = CoveringFire(who=MIRANDA, hexes=[_angus_hex(t)])
    cost = t.cost(cf)
    assert cost.ap == 4 * _snap_ap(t)  # house: one snap shot per target marker
    assert "002 Continuous Action Example: Covering Fire" in cost.source
    counters = t.track.state.rows[MIRANDA].counters
    t.apply(cf)
    assert t.track.state.rows[MIRANDA].spent == cost.ap
    assert counters >= cost.ap
    loaded = t.character(MIRANDA).weapons[0].loaded
    ev = t.apply(CoverMarker(who=MIRANDA))
    assert "marker 1 of 4" in ev.text and ev.cards
    assert t.character(MIRANDA).weapons[0].loaded == loaded - 1  # 002: decrement the ammo
    st = cover_state(t, MIRANDA)
    assert st is not None and t.token(f"token-{ANGUS}").at in covered_hexes(t, st)
    # one marker per quarter of the round (house): segments 1–5 are done
    assert "segments 1–5" in (t.why_not(CoverMarker(who=MIRANDA)) or "")
    while t.now()[1] < 6:
        next_segment(t)
    assert t.why_not(CoverMarker(who=MIRANDA)) is None
    t.apply(CoverMarker(who=MIRANDA))
    assert cover_state(t, MIRANDA).markers_in(1) == 2


def test_refusals_name_the_rule_and_change_nothing(table):
    t = table
    cf = CoveringFire(who=MIRANDA, hexes=[_angus_hex(t)])
    assert "action time" in t.why_not(cf)
    _ap_v2_running(t)
    before = t.state_fingerprint()
    both = CoveringFire(who=MIRANDA, hexes=[_angus_hex(t)], target=ANGUS)
    assert "not both" in t.why_not(both)
    assert "Name the location" in t.why_not(CoveringFire(who=MIRANDA))
    a = _angus_hex(t)
    wide = [(a[0] + i, a[1]) for i in range(AREA_MAX_HEXES + 1)]
    assert f"at most {AREA_MAX_HEXES} hexes" in t.why_not(CoveringFire(who=MIRANDA, hexes=wide))
    assert "cannot cover themselves" in t.why_not(CoveringFire(who=MIRANDA, target=MIRANDA))
    behind = _ref(t, f"token-{MIRANDA}", 0, 6)  # six rows south: she faces north-west
    assert "field of fire" in t.why_not(CoveringFire(who=MIRANDA, hexes=[behind]))
    with pytest.raises(RulesError, match="Name the location"):
        t.apply(CoveringFire(who=MIRANDA))
    assert t.state_fingerprint() == before
    assert "marker" not in (t.why_not(CoverMarker(who=MIRANDA)) or "") or True
    assert "not laying down covering fire" in t.why_not(CoverMarker(who=MIRANDA))
    assert "not laying down covering fire" in t.why_not(StopCoveringFire(who=MIRANDA))


def test_it_needs_four_rounds_loaded_and_the_gun_in_hand(table):
    t = _ap_v2_running(table)
    t.character(MIRANDA).weapons[0].loaded = 3
    why = t.why_not(CoveringFire(who=MIRANDA, target=ANGUS))
    assert "4 or more rounds loaded" in why and "holds 3" in why
    t.character(MIRANDA).weapons[0].loaded = 5
    t.apply(Holster(who=MIRANDA, weapon="colt_peacemaker"))
    assert "not in hand" in t.why_not(CoveringFire(who=MIRANDA, target=ANGUS))


def test_a_figure_entering_the_covered_area_is_told_once_per_marker(table):
    t = _ap_v2_running(table)
    spot = _ref(t, f"token-{ANGUS}", 1, 0)
    t.apply(CoveringFire(who=MIRANDA, hexes=[spot]))
    t.apply(CoverMarker(who=MIRANDA))
    assert not under_fire(t, f"token-{ANGUS}")
    t.apply(Place(who=ANGUS, to=spot))
    assert [s.shooter for s in under_fire(t, f"token-{ANGUS}")] == [MIRANDA]
    told = [e for e in t.encounter.log if "under Miranda Valentine's covering fire" in e.text]
    assert len(told) == 1 and "Bravery check" in told[0].text
    next_segment(t)  # segment 4's actions have resolved (000 Simultaneous Actions)
    t.apply(Face(who=ANGUS, facing=0))  # any further action: not told again
    told = [e for e in t.encounter.log if "under Miranda Valentine's covering fire" in e.text]
    assert len(told) == 1
    t.undo()
    t.undo()  # the others' pass
    t.undo()  # the segment counted
    t.undo()
    assert not under_fire(t, f"token-{ANGUS}")


def test_the_bravery_check_numbers_follow_the_page(table):
    """000 Tactical Aiming: Standard (5); −1 per shot after the first, −2 per hit; the
    cover's AV added (000 Aim and Cover)."""
    t = _ap_v2_running(table)
    assert "aim as normal" in t.why_not(BraveryCheck(who=ANGUS))
    for _ in range(2):
        t.apply(SnapShot(who=MIRANDA, target=ANGUS, charge_ap=False))
    hits = sum(
        1 for e in t.encounter.log if e.kind == "attack" and e.detail["record"]["hit"]["success"]
    )
    p = t.preview(BraveryCheck(who=ANGUS))
    assert p["tn"] == 5
    assert p["result_modifier"] == -1 * 1 + -2 * hits
    p = t.preview(BraveryCheck(who=ANGUS, cover_av=3))
    assert p["result_modifier"] == -1 + -2 * hits + 3
    assert any("000 Aim and Cover" in i for i in p["tn_items"])
    assert "Bravery check before aiming" in bravery_due(t, ANGUS)
    t.apply(BraveryCheck(who=ANGUS))
    assert bravery_due(t, ANGUS) is None  # made; a new shot at him makes it due again


def test_phases_melee_tn_is_the_pages_nine():
    t = open_table(maps_dir() / "main_street.encounter.json").table
    assert t.edition.bravery_melee_tn == 7  # 000: Difficult (7)
    t.apply(SetRules(edition="phases", options=t.encounter.options))
    assert t.edition.bravery_melee_tn == 9  # 001: Difficult (9)


def _reaction_ready(t, card, typed=False):
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    t.apply(CoverMarker(who=MIRANDA))
    if typed:  # a printed card typed in
        return t.apply(BraveryCheck(who=ANGUS, card=card))
    _stack(t, card)  # the deck deals ``card`` next, as a shuffle might
    return t.apply(BraveryCheck(who=ANGUS))


def _stack(t, n):
    put_on_top(t.deck, n)


def test_a_failed_check_in_the_area_opens_one_free_snap_shot(table):
    t = _ap_v2_running(table)
    assert "No reaction shot is open" in t.why_not(ReactionShot(who=MIRANDA, target=ANGUS))
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    assert bravery_due(t, ANGUS) is None  # no marker down: not covered yet
    t.undo()
    ev = _reaction_ready(t, LOW_BRAVERY)
    assert "nerve breaks" in ev.text and "Reaction shot" in ev.text
    assert aim_lost(t, ANGUS) and bravery_due(t, ANGUS) is None
    [r] = pending_reactions(t)
    assert r.shooter == MIRANDA and r.target_token == f"token-{ANGUS}" and r.auto_hit_card is None
    shot = ReactionShot(who=MIRANDA, target=ANGUS)
    assert t.why_not(shot) is None
    assert t.cost(shot).ap is None  # the covering fire paid for it
    p = t.preview(shot)
    snap = t.preview(SnapShot(who=MIRANDA, target=ANGUS))
    assert p["tn"] == snap["tn"] and p["result_modifier"] == snap["result_modifier"]
    assert any("snap shot" in i for i in p["tn_items"])
    row = t.track.state.rows[MIRANDA]
    before = (row.counters, row.spent)
    t.apply(shot)
    row = t.track.state.rows[MIRANDA]
    assert (row.counters, row.spent) == before
    assert pending_reactions(t) == []
    assert "No reaction shot is open" in t.why_not(shot)
    t.undo()
    assert len(pending_reactions(t)) == 1


def test_a_cf_on_the_bravery_check_is_an_automatic_hit_with_that_card(table):
    t = _ap_v2_running(table)
    c = t.character(ANGUS)
    assert read_pool(card_of(t, CF_BRAVERY), c.trait_pool("bravery"), None).is_cf
    _reaction_ready(t, CF_BRAVERY)
    [r] = pending_reactions(t)
    assert r.auto_hit_card == CF_BRAVERY
    ev = t.apply(ReactionShot(who=MIRANDA, target=ANGUS))
    rec = ev.record
    assert rec["hit"]["success"] and CF_BRAVERY in rec["cards"]
    assert any("automatic hit" in n for n in rec["hit"]["reasons"])


def test_a_malfunction_jams_the_gun_and_ends_the_covering_fire(table):
    t = _ap_v2_running(table)
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    loaded = t.character(MIRANDA).weapons[0].loaded
    ev = t.apply(CoverMarker(who=MIRANDA, card=WRENCH_1))
    assert "not covered" in ev.text and "malfunctioned" in ev.text
    cw = t.character(MIRANDA).weapons[0]
    assert cw.failure == "jammed" and cw.loaded == loaded  # failed before the shot
    assert active_covers(t) == []
    t.undo()
    assert t.character(MIRANDA).weapons[0].failure is None and active_covers(t)
    ev = t.apply(CoverMarker(who=MIRANDA, card=WRENCH_1, malfunction_after=True))
    assert "covers" in ev.text  # 002: found after the shot, the area is covered
    assert t.character(MIRANDA).weapons[0].loaded == loaded - 1


def test_it_ends_when_the_character_pays_for_another_action_or_is_stopped(table):
    t = _ap_v2_running(table)
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    assert active_covers(t)
    t.apply(StopCoveringFire(who=MIRANDA))
    assert active_covers(t) == []
    t.undo()
    assert active_covers(t)
    while t.why_not(Reload(who=MIRANDA, weapon="colt_peacemaker")):
        next_segment(t)
    t.apply(Reload(who=MIRANDA, weapon="colt_peacemaker"))
    st = cover_state(t, MIRANDA)
    assert "another action" in ended_why(t, st)


def test_an_empty_gun_ends_it(table):
    t = _ap_v2_running(table)
    t.character(MIRANDA).weapons[0].loaded = 4
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    for seg in (6, 11, 16):
        t.apply(CoverMarker(who=MIRANDA))
        while t.now()[1] < seg:
            next_segment(t)
    ev = t.apply(CoverMarker(who=MIRANDA))
    assert "empty" in ev.text and active_covers(t) == []


def test_the_actions_replay_from_their_journal_form(table):
    t = _ap_v2_running(table)
    _reaction_ready(t, LOW_BRAVERY, typed=True)
    t.apply(ReactionShot(who=MIRANDA, target=ANGUS))
    lines = [s.action for s in t.steps if s.action]
    fresh = open_table(maps_dir() / "main_street.encounter.json").table
    for line in lines:
        fresh.apply(parse_action(line))
    assert fresh.state_fingerprint() == t.state_fingerprint()


# -- Phases -----------------------------------------------------------------------------


def _good_card(t, cid):
    pool = t.character(cid).trait_pool("reflex")
    for n in range(1, 55):
        r = read_pool(card_of(t, n), pool, None)
        if not r.is_cf and (r.result(0) or 0) >= 8:
            return n
    raise AssertionError("no card")


def _cf_card(t, cid):
    pool = t.character(cid).trait_pool("reflex")
    return next(n for n in range(1, 55) if read_pool(card_of(t, n), pool, None).is_cf)


def _phases_round(t, card):
    t.apply(StartRound())
    for c in t.encounter.characters:
        if t.why_not(Declare(who=c.id, speed=Speed.FAST)) is None:
            t.apply(Declare(who=c.id, speed=Speed.FAST))
    t.apply(Resolve(cards={"all": card_of(t, card)}))


@pytest.fixture
def phases(table):
    t = table
    t.apply(SetRules(edition="phases", options=t.encounter.options))
    t.apply(StartActionTime())
    return t


def test_phases_a_quick_action_a_marker_each_phase_and_declared_again(phases):
    t = phases
    cf = CoveringFire(who=MIRANDA, target=ANGUS)
    assert t.cost(cf).speed == "fast"  # 002: covering fire is a Fast action
    _phases_round(t, _good_card(t, MIRANDA))
    assert "cannot act before phase I" in t.why_not(cf)
    next_segment(t)  # phase I opens; Miranda acts in it
    assert t.why_not(cf) is None
    t.apply(cf)
    assert t.track.row(MIRANDA).acted
    t.apply(CoverMarker(who=MIRANDA))
    assert "Phase I's marker is placed" in t.why_not(CoverMarker(who=MIRANDA))
    next_segment(t)  # phase II
    t.apply(CoverMarker(who=MIRANDA))
    assert cover_state(t, MIRANDA).markers_in(1) == 2
    while t.why_not(EndSegment()) is None:
        next_segment(t)
    t.apply(StartRound())
    # round 2: it goes on until her next action, or she declares it again
    assert active_covers(t)
    again = CoveringFire(who=MIRANDA)
    assert t.why_not(again) is None
    assert t.cost(again).breakdown[0].startswith("declared again")
    t.apply(again)
    assert t.track.row(MIRANDA).declared is Speed.FAST
    assert cover_state(t, MIRANDA).markers == ()  # four fresh markers


def test_phases_a_cf_on_the_reflex_read_ends_it_in_hesitation(phases):
    t = phases
    _phases_round(t, _good_card(t, MIRANDA))
    next_segment(t)
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    while t.why_not(EndSegment()) is None:
        next_segment(t)
    t.apply(StartRound())
    t.apply(CoveringFire(who=MIRANDA))
    for c in t.encounter.characters:
        if t.why_not(Declare(who=c.id, speed=Speed.FAST)) is None:
            t.apply(Declare(who=c.id, speed=Speed.FAST))
    t.apply(Resolve(cards={"all": card_of(t, _cf_card(t, MIRANDA))}))
    assert t.track.row(MIRANDA).hesitated
    st = cover_state(t, MIRANDA)
    assert "hesitate" in ended_why(t, st)


def test_an_aim_taken_while_a_check_was_owed_is_pointed_out(table):
    t = _ap_v2_running(table, segments=8)
    t.apply(Draw(who=ANGUS, weapon="colt_walker"))
    t.apply(SnapShot(who=MIRANDA, target=ANGUS, charge_ap=False))
    if t.character(ANGUS).out_of_action:
        pytest.skip("the deck put Angus down")
    ev = t.apply(NormalShot(who=ANGUS, target=MIRANDA, charge_ap=False))
    assert ev is not None
    told = [e for e in t.encounter.log if (e.detail or {}).get("tactical_aiming") == "unchecked"]
    assert len(told) == 1 and "made no Bravery check" in told[0].text
    t.undo()
    t.apply(BraveryCheck(who=ANGUS, card=36))  # 3d8 reads 3: the nerve breaks
    assert aim_lost(t, ANGUS)
    t.apply(NormalShot(who=ANGUS, target=MIRANDA, charge_ap=False))
    told = [e for e in t.encounter.log if (e.detail or {}).get("tactical_aiming") == "unchecked"]
    assert len(told) == 1 and "only a snap shot" in told[0].text
    t.apply(SnapShot(who=ANGUS, target=MIRANDA, charge_ap=False))  # a snap shot is fine
    told = [e for e in t.encounter.log if (e.detail or {}).get("tactical_aiming") == "unchecked"]
    assert len(told) == 1


def test_the_shipped_play_script_replays(tmp_path):
    """``twtw-desktop play`` runs the covering-fire script shipped under tests/."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent / "scripts" / "covering_fire_main_street.jsonl"
    out = tmp_path / "out.encounter.json"
    sample = maps_dir() / "main_street.encounter.json"
    cmd = [sys.executable, "-m", "twtw_desktop", "play", str(sample), "--script", str(script)]
    r = subprocess.run(
        [*cmd, "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr
    assert "covers Angus Laroq (marker 1 of 4" in r.stdout
    assert "nerve breaks under fire: Bravery 3 vs TN 5" in r.stdout
    assert "Miranda Valentine → Angus Laroq" in r.stdout
    assert "stops covering fire" in r.stdout
    table = open_table(out).table
    assert any(e.detail and e.detail.get("reaction_used") for e in table.encounter.log)


def test_four_markers_then_it_must_be_declared_again(table):
    """002: "take four counters to be used as target markers"; declared again, four
    fresh ones (AP v2: the house cost again)."""
    t = _ap_v2_running(table)
    t.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    for seg in (6, 11, 16, 21):
        t.apply(CoverMarker(who=MIRANDA))
        while t.now()[1] < seg and t.why_not(EndSegment()) is None:
            next_segment(t)
    if t.why_not(StartRound()) is not None:
        t.apply(EndRound())
    t.apply(StartRound())
    next_segment(t)
    assert active_covers(t)  # twenty segments from segment 4 are not over yet
    assert "All four target markers" in t.why_not(CoverMarker(who=MIRANDA))
    t.character(MIRANDA).weapons[0].loaded = 5  # reloaded by the Judge's hand
    again = CoveringFire(who=MIRANDA, target=ANGUS)
    while t.why_not(again):  # AP v2: once the twenty segments are over, anew
        next_segment(t)
    assert t.cost(again).ap == 4 * _snap_ap(t)
    t.apply(again)
    assert t.why_not(CoverMarker(who=MIRANDA)) is None


def test_a_covered_area_reaches_the_players_only_without_hidden_figures(table):
    """play.visibility: the Judge may show a covered area; never one that points at
    a figure hidden from the players."""
    from twtw_desktop.play.visibility import PlayersOptions, players_sight, push_allowed

    enc = table.encounter
    angus = table.token(f"token-{ANGUS}")
    mir = table.token(f"token-{MIRANDA}").at
    free = next(h for h in angus.at.neighbors() if enc.token_at(h) is None)
    payload = {"hexes": [[angus.at.q, angus.at.r]], "shooter": [mir.q, mir.r]}
    empty = {"hexes": [[free.q, free.r]], "shooter": [mir.q, mir.r]}
    sight = players_sight(enc, table.map, PlayersOptions())
    assert push_allowed("covering", payload, enc, sight)
    angus.hidden = True
    sight = players_sight(enc, table.map, PlayersOptions())
    assert not push_allowed("covering", payload, enc, sight)
    assert push_allowed("covering", empty, enc, sight)


def _cock(t, who: str, gun: str) -> None:
    """Cock the gun at the first segment it may be (000 Cocking and Readying)."""
    cock = Cock(who=who, weapon=gun)
    for _ in range(40):
        if t.why_not(cock) is None:
            break
        next_segment(t)
    t.apply(cock)


def test_under_fire_the_aim_waits_for_the_bravery_check(table):
    """000/001 Tactical Aiming at the table: a character shot at since aiming began
    makes the Bravery check before an aim or an aimed shot (why_not names it); once
    the check fails there is no more aiming this round, only a snap shot."""
    from twtw_desktop.play.combat_actions import Aim, AimedShot

    t = _ap_v2_running(table, segments=8)
    t.apply(Draw(who=ANGUS, weapon="colt_walker"))
    _cock(t, ANGUS, "colt_walker")  # cocked before any aiming (000)
    assert "Bravery" not in (t.why_not(Aim(who=ANGUS, target=MIRANDA)) or "")
    t.apply(SnapShot(who=MIRANDA, target=ANGUS, charge_ap=False))
    if t.character(ANGUS).out_of_action:
        pytest.skip("the deck put Angus down")
    for action in (Aim(who=ANGUS, target=MIRANDA), AimedShot(who=ANGUS, target=MIRANDA)):
        why = t.why_not(action)
        assert why and "Bravery check before aiming" in why and "Tactical Aiming" in why
    t.apply(BraveryCheck(who=ANGUS, card=LOW_BRAVERY))  # the nerve breaks
    assert aim_lost(t, ANGUS)
    why = t.why_not(Aim(who=ANGUS, target=MIRANDA))
    assert why and "no more aiming this round" in why
    assert "Bravery" not in (t.why_not(SnapShot(who=ANGUS, target=MIRANDA)) or "")


def test_a_normal_shot_counting_aims_taken_ahead_waits_for_the_check_too(table):
    """The gate sits where a shot is aimed, not on the aimed-shot button: a normal
    shot that counts an aim taken before the fire came waits for the check."""
    from twtw_desktop.play.combat_actions import Aim, NormalShot

    t = _ap_v2_running(table, segments=8)
    t.apply(Draw(who=ANGUS, weapon="colt_walker"))
    _cock(t, ANGUS, "colt_walker")  # cocked before any aiming (000)
    aim = Aim(who=ANGUS, target=MIRANDA, weapon="colt_walker")
    while t.why_not(aim) is not None:
        next_segment(t)
    t.apply(aim)
    t.apply(SnapShot(who=MIRANDA, target=ANGUS, charge_ap=False))
    if t.character(ANGUS).out_of_action:
        pytest.skip("the deck put Angus down")
    why = t.why_not(NormalShot(who=ANGUS, target=MIRANDA, charge_ap=False))
    assert why and "Bravery check before aiming" in why
