"""The NPC autopilot (twtw_desktop/tactics): legal plans, no cheating, determinism,
the ``autopilot`` action and the ``plan`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twtw_desktop.bench.tactics import SAMPLES, sample_in_round
from twtw_desktop.play.actions import parse_action
from twtw_desktop.play.table import Table
from twtw_desktop.rules.character import Character
from twtw_desktop.rules.deck import DeckState
from twtw_desktop.tactics.autopilot import Autopilot
from twtw_desktop.tactics.planner import npc_ids, plan_round
from twtw_desktop.tactics.view import npc_sight, scratch_of

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "twtw-desktop"
SEGMENT_SAMPLES = [s for s in SAMPLES if s != "laroq_hacienda"]


def _apply_all(table: Table, seed: int) -> int:
    """Apply every planned action in order, each asked ``why_not`` first; the count."""
    n = 0
    for plan in plan_round(table, seed=seed):
        for act in plan.actions:
            assert table.why_not(act) is None, (plan.who, act.journal_form(), plan.reasons)
            table.apply(act)
            n += 1
    return n


@pytest.mark.slow(minutes=2)
@pytest.mark.parametrize("sample", SAMPLES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_every_planned_action_passes_why_not_when_given(sample: str, seed: int) -> None:
    table = sample_in_round(sample)
    assert _apply_all(table, seed) > 0


def test_planned_declarations_are_carried_out_when_the_counters_cover_them() -> None:
    """The run declares each standing declaration on its segment: none is dropped as
    no longer applying while the posse only passes (its target stays up)."""
    table = sample_in_round("main_street")
    table.apply(Autopilot(seed=5))
    for _ in range(40):
        pending = table.track.pending_declarers()
        act = parse_action({"do": "run_on", "passing": pending})
        if table.why_not(act) is not None:
            break
        text = table.apply(act).text
        assert "no longer applies" not in text or " is down" in text, text
    performed = [e for e in table.track.state.entries if e.performed]
    assert performed


def _hide(table: Table, token_id: str, at: tuple[int, int]) -> None:
    tok = table.token(token_id)
    tok.hidden = True
    tok.hex = at


def test_a_hidden_posse_member_is_neither_targeted_nor_avoided() -> None:
    table = sample_in_round("main_street")
    _hide(table, "token-jonah_benton", table.token("token-jonah_benton").hex)
    first = [p.as_json() for p in plan_round(table, ["angus_laroq", "felicia_laroq"], seed=2)]
    assert "jonah_benton" not in json.dumps(first)
    # he moves (still hidden) right next to them: the plans do not change
    angus = table.token("token-angus_laroq").at
    for h in angus.neighbors():
        if table.map.contains(h) and table.encounter.token_at(h) is None:
            table.token("token-jonah_benton").hex = (h.q, h.r)
            break
    again = [p.as_json() for p in plan_round(table, ["angus_laroq", "felicia_laroq"], seed=2)]
    assert again == first


def test_an_npc_sees_only_the_foes_in_its_line_of_sight() -> None:
    table = sample_in_round("main_street")
    scratch = scratch_of(table)
    seen = npc_sight(scratch, "angus_laroq").seen
    _hide(table, "token-miranda_valentine", table.token("token-miranda_valentine").hex)
    assert "token-miranda_valentine" not in npc_sight(scratch_of(table), "angus_laroq").seen
    assert set(npc_sight(scratch_of(table), "angus_laroq").seen) <= set(seen)


def test_the_decks_order_does_not_change_a_plan() -> None:
    table = sample_in_round("legless_gulch")
    before = [p.as_json() for p in plan_round(table, seed=9)]
    state = table.deck.snapshot()
    reordered = DeckState.model_validate(
        state.model_dump() | {"draw_pile": tuple(reversed(state.draw_pile))}
    )
    table.deck.restore(reordered)
    assert [p.as_json() for p in plan_round(table, seed=9)] == before


def test_the_autopilot_action_journals_the_ordinary_actions_it_gives() -> None:
    table = sample_in_round("longhorn_saloon")
    steps = len(table.steps)
    table.apply(parse_action({"do": "autopilot", "seed": 1}))
    made = [s.action for s in table.steps[steps:]]
    kinds = {"when_able", "clear_standing", "standing_bid", "standing_bumps", "standing_pass"}
    assert made and {a["do"] for a in made} <= kinds
    # a replay of those lines on a fresh table needs no planner and gives the same state
    fresh = sample_in_round("longhorn_saloon")
    for a in made:
        fresh.apply(parse_action(a))
    assert fresh.track.state.standing == table.track.state.standing
    assert fresh.track.state.bids == table.track.state.bids


def test_each_plan_ends_with_its_standing_answers_and_a_reason_line() -> None:
    """The plan's standing bid (the AP it leaves unspent, up to Quick Draw: 000
    Determine Bonus), its bumps to damage (002 Spending Bumps) and its standing pass
    come last, said in a reason line."""
    table = sample_in_round("main_street")
    for plan in Autopilot(seed=0).plans(table):
        bid, bumps, last = plan.actions[-3:]
        assert (bid.do, bumps.do, last.do) == ("standing_bid", "standing_bumps", "standing_pass")
        assert bumps.on == "damage"  # type: ignore[attr-defined]
        c, row = table.character(plan.who), table.track.row(plan.who)
        assert 0 <= bid.ap <= min(c.quick_draw, row.pool)  # type: ignore[attr-defined]
        assert "at a stack it offers" in plan.reasons[-1]
        assert "passes when next able" in plan.reasons[-1]
        assert "its bumps go to damage" in plan.reasons[-1]


def test_the_fight_on_the_autopilot_is_a_table_step_kept_from_round_to_round() -> None:
    """autopilot_fight: undone like any step, saved with the track, kept at the next
    round's start; due_for_a_plan names every NPC at a round's start while none has
    anything standing."""
    from twtw_desktop.play.standing_actions import AutopilotFight
    from twtw_desktop.tactics.autopilot import due_for_a_plan, on_autopilot

    table = sample_in_round("main_street")
    assert not on_autopilot(table) and due_for_a_plan(table) == []
    before = table.position
    table.apply(AutopilotFight(on=True))
    assert on_autopilot(table) and "already" in (table.why_not(AutopilotFight()) or "")
    assert due_for_a_plan(table) == npc_ids(table)
    table.apply(Autopilot(seed=0))
    assert due_for_a_plan(table) == []  # given: nothing due until a run stops for one
    while table.position > before:
        table.undo()
    assert not on_autopilot(table)
    table.redo()
    table.apply(parse_action({"do": "end_round"}))
    table.apply(parse_action({"do": "start_round"}))
    assert on_autopilot(table)
    # saved with the track; a track saved before it loads off the autopilot, no bids
    from twtw_desktop.rules.track_models import TrackState

    saved = table.track.state.model_dump(mode="json")
    assert saved["autopilot"] is True
    old = {k: v for k, v in saved.items() if k not in ("autopilot", "bids")}
    loaded = TrackState.model_validate(old)
    assert not loaded.autopilot and loaded.bids == {}


def test_the_autopilot_refuses_outside_a_round() -> None:
    from twtw_desktop.play.session import open_table

    table = open_table(ROOT / "maps" / "main_street.encounter.json").table
    assert "action time" in (table.why_not(Autopilot()) or "")
    assert "no token or character" in (
        sample_in_round("main_street").why_not(Autopilot(who=["nobody"])) or ""
    )


def test_phases_plans_declare_a_speed_first() -> None:
    table = sample_in_round("laroq_hacienda")
    plans = plan_round(table, seed=0)
    declared = [p for p in plans if p.actions]
    assert declared and all(p.actions[0].do == "declare" for p in declared)


def test_temperament_defaults_to_steady_and_the_library_carries_one() -> None:
    from twtw_desktop.rules.samples import sample_characters

    c = next(iter(sample_characters().values()))
    data = c.model_dump(mode="json")
    data.pop("temperament")
    assert Character.model_validate(data).temperament == "steady"
    lib = json.loads((ROOT / "resources" / "characters" / "npc_types.json").read_text())
    assert all(
        e["temperament"] in ("reckless", "steady", "cautious", "cowardly")
        for e in lib["characters"]
    )


def _plan_json(seed: int) -> list[dict]:
    out = subprocess.run(
        [str(CLI), "plan", str(ROOT / "maps" / "main_street.encounter.json"), "--seed", str(seed), "--json"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_plan_command_gives_the_same_json_in_two_processes() -> None:
    a = _plan_json(11)
    assert a == _plan_json(11)
    assert [p["who"] for p in a] == [
        "angus_laroq", "felicia_laroq", "dave_perkins", "clem_perkins", "octavio_vaquero",
    ]  # fmt: skip
    for p in a:
        assert set(p) == {"who", "actions", "reasons"} and p["reasons"]
        for act in p["actions"]:
            parse_action(act)


def test_plan_command_names_a_bad_id_and_lists_in_play_actions() -> None:
    bad = subprocess.run(
        [str(CLI), "plan", str(ROOT / "maps" / "main_street.encounter.json"), "--who", "nobody"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 1 and "nobody" in bad.stderr and "Traceback" not in bad.stderr
    listed = subprocess.run(
        [str(CLI), "play", "--actions"], capture_output=True, text=True, timeout=120, check=True
    )
    assert "autopilot" in listed.stdout


@pytest.mark.slow(minutes=6)
def test_bench_fights_play_to_the_end_without_a_refusal(tmp_path: Path) -> None:
    out = tmp_path / "fights.json"
    run = subprocess.run(
        [str(CLI), "bench", "--fights", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    rows = json.loads(out.read_text())
    assert {r["pairing"] for r in rows} == {
        "autopilot hombres v naive posse", "naive hombres v autopilot posse",
        "autopilot v autopilot", "naive v naive",
    }  # fmt: skip
    for r in rows:
        assert r["fights"] == 1 and r["refusals"] == 0 and r["hung"] == 0
        assert 1 <= r["rounds_per_fight"] <= 10 and r["plan_ms_per_npc"] > 0


def test_the_naive_opponent_walks_straight_at_the_nearest_foe() -> None:
    from twtw_desktop.tactics.naive import NaivePlanner

    table = sample_in_round("main_street")
    (plan,) = plan_round(table, ["dave_perkins"], planner=NaivePlanner)
    assert plan.actions and "straight at" in plan.reasons[0]
    for act in plan.actions:
        assert table.why_not(act) is None
        table.apply(act)


def test_the_naive_opponent_in_a_phase_shoots_the_nearest_with_a_normal_shot() -> None:
    """Phases: the naive opponent's in-phase attack is its own — a normal shot at the
    nearest foe, whatever the odds — not the autopilot's pick of target and kind."""
    import random

    from twtw_desktop.play.combat_actions import NormalShot
    from twtw_desktop.tactics.naive import NaivePlanner
    from twtw_desktop.tactics.odds import DeckOdds

    table = sample_in_round("laroq_hacienda")
    who = "octavio_vaquero"
    for cw in table.character(who).weapons:  # the Colt drawn (004: draw + cock + shot
        cw.readied = cw.weapon_id == "colt_army_44"  # cannot be one declaration)
    naive = NaivePlanner(table, who, DeckOdds(table.deck.cards), random.Random(0), set())
    naive._declaring = True  # priced, as while the speeds are declared
    here = table.token_for(who).at
    foes = [table.token_for(c.id) for c in table.encounter.characters if c.side == "posse"]
    nearest = min(foes, key=lambda f: (here.distance(f.at), f.id))
    got = naive._phase_attack(foes, retreat=False)
    assert got.actions and isinstance(got.actions[0], NormalShot)
    assert got.target == nearest.character_id and got.hits >= 1.0


def test_a_play_script_gives_the_npcs_their_plans(tmp_path: Path) -> None:
    script = tmp_path / "round.jsonl"
    script.write_text(
        '{"do": "start_action_time"}\n{"do": "start_round"}\n{"do": "autopilot", "seed": 4}\n'
    )
    out = tmp_path / "after.encounter.json"
    run = subprocess.run(
        [str(CLI), "play", str(ROOT / "maps" / "main_street.encounter.json"),
         "--script", str(script), "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    saved = json.loads(out.read_text())
    standing = saved["action_state"]["standing"]
    assert {"angus_laroq", "felicia_laroq"} & set(standing), standing
