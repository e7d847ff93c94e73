"""The attack and the throw as table actions, without Qt: why_not names the rule and
what makes the attack legal, the preview itemises the TN without drawing, apply draws
and wounds, undo puts the cards back, and the journal (or a script) replays a
gunfight card for card."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from twtw_desktop.errors import RulesError
from twtw_desktop.io.journal import journal_path
from twtw_desktop.play.actions import (
    Cock,
    Draw,
    Place,
    Ready,
    StartActionTime,
    StartRound,
    parse_action,
)
from twtw_desktop.play.combat_actions import (
    AimedShot,
    Dodge,
    MeleeAttack,
    NormalShot,
    SnapShot,
    SpendRef,
    Throw,
)
from twtw_desktop.play.journal import Journal, pending_journal, replay
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir

from .deck_support import next_segment, put_on_top

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"
HANK = "token-hank_daggett"
DAVE = "dave_perkins"


@pytest.fixture
def table():
    return open_table(SAMPLE).table


def _wounds(c) -> int:
    return sum(c.wounds.values())


def _wounding_shot(table, limit: int = 5):
    """Normal shots by Miranda at Angus until one wounds him (the seeded deck): the
    event and the state before it."""
    for _ in range(limit):
        before = table.state_fingerprint()
        deck = table.deck.snapshot()
        ev = table.apply(NormalShot(who=MIRANDA, target=ANGUS))
        if ev.record.get("damage"):
            return ev, before, deck
    pytest.fail("no wounding shot in the seeded deck's first cards")


def test_a_holstered_gun_names_the_draw_and_its_ap(table):
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    assert table.why_not(shot) == (
        "Colt Peacemaker (.45) not in hand: draw it first, 1 AP, or draw and shoot in one "
        "action (000 Cocking and Readying)."
    )
    with pytest.raises(RulesError, match="draw it first"):
        table.apply(shot)
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    assert table.why_not(shot) is None


def test_the_preview_itemises_the_tn_and_draws_nothing(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    before = table.state_fingerprint()
    p = table.preview(SnapShot(who=MIRANDA, target=ANGUS))
    assert p["tn"] == 5 and p["result_modifier"] == -2
    assert "Standard: TN 5 (000 Range)" in p["tn_items"]
    assert any("snap shot penalty" in i and "000 Aim and Snap Shots" in i for i in p["tn_items"])
    assert any("cock the Colt Peacemaker" in i for i in p["ap_items"])
    assert any("range 5 paces" in s for s in p["situation"])
    aimed = table.preview(AimedShot(who=MIRANDA, target=ANGUS, aims=2))
    assert aimed["ap"] > p["ap"]
    assert table.state_fingerprint() == before


def test_apply_draws_and_wounds_and_undo_puts_it_all_back(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    ev, before, deck = _wounding_shot(table)
    angus = table.character(ANGUS)
    rec = ev.record
    assert ev.cards and ev.cards[0] == rec["cards"][0]
    assert rec["attacker_id"] == MIRANDA and rec["target_id"] == ANGUS
    assert _wounds(angus) >= rec["damage"]["wounds_added"] > 0
    assert table.encounter.log[-1].kind == "attack"
    loaded = table.character(MIRANDA).weapons[0].loaded
    table.undo()
    assert table.state_fingerprint() == before
    assert table.deck.snapshot() == deck
    assert table.character(MIRANDA).weapons[0].loaded == loaded + 1
    # the card is back on the pile: the same shot again draws the same cards
    again = table.apply(NormalShot(who=MIRANDA, target=ANGUS))
    assert again.cards == ev.cards and again.record == rec


def test_in_action_time_the_shot_is_paid_on_the_track_and_refused_without_ap(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    table.apply(StartActionTime())
    table.apply(StartRound())
    shot = SnapShot(who=MIRANDA, target=ANGUS)
    why = table.why_not(shot)
    assert why and "snap shot" in why  # segment 0: nothing is paid yet
    cost = table.cost(shot)
    assert cost.ap == 2 and any("snap shot: 1 AP" in b for b in cost.breakdown)
    for _ in range(20):
        if table.why_not(shot) is None:
            break
        next_segment(table)
    spent = table.track.row(MIRANDA).spent
    ev = table.apply(shot)
    assert table.track.row(MIRANDA).spent == spent + 2
    assert "TN" in ev.text
    table.undo()
    assert table.track.row(MIRANDA).spent == spent


def _copy_sample(tmp_path: Path) -> Path:
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / SAMPLE.name


def test_the_journal_replays_a_gunfight_card_for_card(tmp_path):
    path = _copy_sample(tmp_path)
    table = open_table(path).table
    journal = Journal(table, journal_path(path), path)
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    _wounding_shot(table)
    spend = SpendRef(damage=0, penetration=0)
    table.apply(NormalShot(who=MIRANDA, target=ANGUS, spends=(spend,)))
    table.undo()
    table.redo()
    expected = table.state_fingerprint()
    journal.close()
    pending = pending_journal(path)
    assert pending is not None
    shots = [ln for ln in pending.lines if ln.get("do") == "normal_shot"]
    assert shots and all(ln.get("cards") for ln in shots)
    fresh = open_table(path).table
    result = replay(fresh, pending.lines)
    assert result.stopped is None, result.messages
    assert fresh.state_fingerprint() == expected


def test_a_typed_card_is_read_instead_of_the_deck(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    top = table.deck.snapshot()
    lacking = NormalShot(who=MIRANDA, target=ANGUS, card=40)
    assert "Type in the card drawn for" in (table.why_not(lacking) or "")
    shot = NormalShot(who=MIRANDA, target=ANGUS, card=40, more_cards=(41, 42, 43, 44))
    ev = table.apply(shot)
    assert ev.cards[0] == 40 and ev.record["cards"][0] == 40
    assert set(ev.cards) <= {40, 41, 42, 43, 44}
    assert table.deck.snapshot().draw_pile == top.draw_pile  # the seeded pile untouched
    assert parse_action(shot.journal_form()) == shot


def test_a_shot_the_deck_no_longer_deals_is_refused(table):
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    before = table.state_fingerprint()
    nxt = table.deck.snapshot().draw_pile[0]
    wrong = 1 if nxt != 1 else 2
    with pytest.raises(RulesError, match="deck has changed"):
        table.apply(NormalShot(who=MIRANDA, target=ANGUS, expect_card=wrong))
    assert table.state_fingerprint() == before


def test_a_throw_at_a_hex_scatters_explodes_and_leaves_the_hand(table):
    hank = table.character_of(HANK)
    table.apply(Ready(who=HANK, weapon="dynamite"))
    tok = table.token(HANK)
    col, row = table.map.offset(tok.at)
    throw = Throw(who=HANK, to=(col + 1 + 4, row + 1), weapon="dynamite")
    assert table.why_not(throw) is None
    p = table.preview(throw)
    assert p["tn"] and p["tn_items"]
    before = table.state_fingerprint()
    ev = table.apply(throw)
    assert ev.cards and ev.record["weapon"] == "dynamite"
    assert "blast" in ev.record
    assert not any(w.weapon_id == "dynamite" for w in table.character(hank.id).weapons)
    assert table.encounter.log[-1].kind == "throw"
    table.undo()
    assert table.state_fingerprint() == before


def test_hand_to_hand_and_a_declared_dodge(table):
    angus = table.token_for(ANGUS)
    col, row = table.map.offset(angus.at)
    table.apply(Place(who=DAVE, to=(col + 2, row + 1)))
    table.apply(StartActionTime())
    table.apply(StartRound())
    blow = MeleeAttack(who=DAVE, target=ANGUS, weapon="bowie_knife", attack="quick")
    dodge = Dodge(who=ANGUS)
    for _ in range(20):
        if table.why_not(dodge) is None and table.why_not(blow) is None:
            break
        next_segment(table)
    plain = table.preview(blow)
    table.apply(dodge)  # the segment's lone action: it resolves alone and closes it
    assert "already dodging" in (table.why_not(Dodge(who=ANGUS)) or "")
    assert "resolved" in (table.why_not(blow) or "")  # 000 Simultaneous Actions
    next_segment(table)  # the blow comes on the next segment
    dodged = table.preview(blow)
    assert any("dodge" in s for s in dodged["situation"])
    assert dodged["tn_items"] != plain["tn_items"]
    ev = table.apply(blow)
    assert ev.record["attack_kind"] == "melee"
    assert table.encounter.log[-1].detail["dodge_by"] == ANGUS


def test_unknown_fields_and_bad_values_are_refused_by_name():
    with pytest.raises(ValueError, match="snap_shot"):
        parse_action({"do": "snap_shot", "who": MIRANDA, "target": ANGUS, "teleport": 1})
    with pytest.raises(ValueError, match="aims"):
        parse_action({"do": "aimed_shot", "who": MIRANDA, "target": ANGUS, "aims": 0})


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "twtw_desktop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
    )


def test_play_script_with_a_shot(tmp_path):
    script = tmp_path / "gunfight.jsonl"
    lines = [
        {"do": "draw", "who": MIRANDA, "weapon": "colt_peacemaker"},
        {"do": "normal_shot", "who": MIRANDA, "target": ANGUS},
        {"do": "normal_shot", "who": MIRANDA, "target": ANGUS},
        {"do": "normal_shot", "who": MIRANDA, "target": ANGUS},
    ]
    script.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    out = tmp_path / "out.encounter.json"
    r = _run_cli("play", str(SAMPLE), "--script", str(script), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("Miranda Valentine → Angus Laroq") == 3
    # the same shots through the table here: the same cards, the same wounds
    table = open_table(SAMPLE).table
    for line in lines:
        table.apply(parse_action(line))
    assert open_table(out).table.state_fingerprint() == table.state_fingerprint()
    # a shot with a holstered gun stops the script with the why_not sentence
    script.write_text(json.dumps(lines[1]) + "\n")
    out2 = tmp_path / "none.encounter.json"
    r = _run_cli("play", str(SAMPLE), "--script", str(script), "--out", str(out2))
    assert r.returncode == 1
    assert ":1:" in r.stderr and "draw it first, 1 AP" in r.stderr
    assert not out2.exists()


def test_reload_loads_the_carried_entry_named_by_its_slot(table):
    """The reload rule lives once (play.catalogue): the sheet's Reload button and a
    script's reload both go through the table's action; ``slot`` picks which of two
    guns of the same kind."""
    from twtw_desktop.play.actions import Reload

    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    for _ in range(2):
        table.apply(NormalShot(who=MIRANDA, target=ANGUS))  # empties slot 0 a little
    guns = table.character(MIRANDA).weapons
    first, second = guns[0].loaded, guns[1].loaded
    assert first < second
    table.apply(Reload(who=MIRANDA, weapon="colt_peacemaker", slot=1))
    guns = table.character(MIRANDA).weapons
    assert (guns[0].loaded, guns[1].loaded) == (first, second + 1)
    table.undo()
    table.apply(Reload(who=MIRANDA, weapon="colt_peacemaker", slot=0))
    guns = table.character(MIRANDA).weapons
    assert (guns[0].loaded, guns[1].loaded) == (first + 1, second)


def test_aim_ahead_then_shoot_is_an_aimed_shot_that_does_not_pay_the_aims_again(table):
    """000 Aim and Snap Shots: an aimed shot is a normal shot followed by aim actions.
    The ``aim`` action pays one aim now; the next normal shot at that target with that
    gun resolves as an aimed shot with those aims and pays only the shot."""
    from twtw_desktop.play.combat_actions import Aim

    aim = Aim(who=MIRANDA, target=ANGUS)
    assert "draw it first" in table.why_not(aim)
    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    assert "cocking must be done before any aiming" in table.why_not(aim)
    table.apply(Cock(who=MIRANDA, weapon="colt_peacemaker"))
    table.apply(StartActionTime())
    table.apply(StartRound())
    plain = table.cost(NormalShot(who=MIRANDA, target=ANGUS)).ap
    one_aim = table.cost(AimedShot(who=MIRANDA, target=ANGUS, aims=1)).ap
    aim_ap = table.cost(aim).ap
    assert aim_ap == one_aim - plain > 0
    for _ in range(20):
        if table.why_not(aim) is None:
            break
        next_segment(table)
    spent = table.track.row(MIRANDA).spent
    ev = table.apply(aim)
    assert "aim 1" in ev.text and table.track.row(MIRANDA).spent == spent + aim_ap
    shot = NormalShot(who=MIRANDA, target=ANGUS)
    p = table.preview(shot)
    assert p["ap"] == plain  # the aim is paid already
    assert any("already paid" in i for i in p["ap_items"])
    for _ in range(20):
        if table.why_not(shot) is None:
            break
        next_segment(table)
    ev = table.apply(shot)
    assert table.encounter.log[-1].kind == "attack"
    # the aims were used: the next shot at him is a plain normal shot again
    # (plus 1 AP to cock the single-action gun again: the shot uncocked it)
    assert table.preview(NormalShot(who=MIRANDA, target=ANGUS))["ap"] == plain + 1
    # an aim at someone else does not count for a shot at him (cocked again first)
    cock = Cock(who=MIRANDA, weapon="colt_peacemaker")
    for step in (cock, Aim(who=MIRANDA, target=DAVE)):
        for _ in range(20):
            if table.why_not(step) is None:
                break
            next_segment(table)
        table.apply(step)
    assert table.preview(NormalShot(who=MIRANDA, target=ANGUS))["ap"] == plain
    at_dave = table.preview(NormalShot(who=MIRANDA, target=DAVE))
    assert at_dave["ap"] == plain and any("already paid" in i for i in at_dave["ap_items"])


def test_draw_and_shoot_is_one_action_with_the_combined_cost(table):
    """A holstered gun: the shot may draw it first, the draw's AP added (000 Cocking and
    Readying), one step; undo puts the gun back in the holster."""
    plain = SnapShot(who=MIRANDA, target=ANGUS)
    both = SnapShot(who=MIRANDA, target=ANGUS, draw_first=True)
    assert table.why_not(plain) and table.why_not(both) is None
    table.apply(StartActionTime())
    table.apply(StartRound())
    cost = table.cost(both)
    assert any("draw the Colt Peacemaker" in b for b in cost.breakdown)
    readied_cost = cost.ap - 1  # Miranda's Quick Draw makes the draw 1 AP
    for _ in range(20):
        if table.why_not(both) is None:
            break
        next_segment(table)
    ev = table.apply(both)
    assert table.character(MIRANDA).weapons[0].readied
    assert "draws the Colt Peacemaker" in str(table.encounter.log[-1].detail)
    assert any("draw the Colt" in i["label"] for i in ev.record["ap"]["items"])
    assert ev.cards
    table.undo()
    assert not table.character(MIRANDA).weapons[0].readied
    assert readied_cost > 0


def test_a_wrench_below_the_guns_rel_jams_it_on_the_sheet_until_cleared(table):
    """RULES.md's Rel rule at the table: the card's wrench below the weapon's Rel leaves
    the gun jammed on the sheet; a jammed gun does not fire (why_not says so) until
    ``clear_jam``."""
    from twtw_desktop.play.gear_actions import ClearJam

    table.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    rel = table.gear.weapons["colt_peacemaker"].rel
    assert rel and rel > 1
    low = next(n for n in range(1, 55) if (w := table.deck.card(n).wrench) is not None and w < rel)
    put_on_top(table.deck, low)
    table.apply(NormalShot(who=MIRANDA, target=ANGUS))
    assert table.character(MIRANDA).weapons[0].failure == "jammed"
    why = table.why_not(NormalShot(who=MIRANDA, target=ANGUS))
    assert why and "jammed" in why
    table.apply(ClearJam(who=MIRANDA))
    assert table.character(MIRANDA).weapons[0].failure is None


def test_aim_with_acuity_changes_the_pool_of_an_aimed_shot_at_the_table(table):
    """The optional rule (000/001) reaches the attack: with it on, an aimed shot reads the
    better of Acuity and Coordination."""
    from twtw_desktop.play.actions import SetRules

    cyril = "cyril_wellington"
    c = table.character(cyril)
    sharp = {**c.traits, "acuity": type(c.traits["acuity"]).model_validate("3d12")}
    table.run("a sharp-eyed Cyril", lambda: setattr(c, "traits", sharp), {"characters"})
    table.apply(Draw(who=cyril))
    shot = AimedShot(who=cyril, target=ANGUS, aims=1)
    off = table.preview(shot)["pool"]
    on = table.encounter.options.model_copy(update={"aim_with_acuity": True})
    table.apply(SetRules(edition=table.encounter.edition, options=on))
    assert table.preview(shot)["pool"] != off


def test_a_bursts_extra_hit_bumps_may_go_to_penetration():
    """002 Bump Types at the table: burst bumps are damage by default, penetration when
    the spends say so (burst_pen), never more than the burst gave."""
    from twtw_desktop.play.attack import Spends, preview
    from twtw_desktop.rules.character import CarriedWeapon

    t = open_table(SAMPLE).table
    angus = t.character(ANGUS)
    angus.weapons = [CarriedWeapon(weapon_id="gatling_gun", readied=True, loaded=40)]
    shot = NormalShot(who=ANGUS, target=MIRANDA, burst=5)
    plan = shot.plan(t)
    start = t.deck.snapshot()
    for n in range(1, 55):
        put_on_top(t.deck, n)
        rec = preview(t, plan, Spends()).record
        burst = (rec.spends.conditional_available.get("burst", 0)) if rec.spends else 0
        if burst:
            moved = preview(t, plan, Spends(burst_pen=1)).record
            assert any("(burst bumps)" in r for r in moved.spends.reasons)
            with pytest.raises(RulesError):
                preview(t, plan, Spends(burst_pen=burst + 1))
            t.deck.restore(start)
            break
        t.deck.restore(start)
    else:
        pytest.fail("no card gives the burst an extra hit")
    spend = SpendRef(burst_pen=1)
    assert SpendRef.of(spend.spends()) == spend  # kept in the journal line
