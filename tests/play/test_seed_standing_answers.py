"""Issue 38: answers given ahead — the standing bid (000 Determine Bonus) and the
standing pass (000 Action Timing) — replayed as a shipped ``twtw-desktop play``
script quoting its sentences, the numbers read back from what the table wrote."""

from __future__ import annotations

import json

from twtw_desktop.play.script import main as play_main

from .test_seed_rules_round3 import _extended
from .test_worked_examples import EXAMPLES, SAMPLE, play


def _texts(log: list[dict]) -> list[str]:
    return [e["text"] for e in log]


def test_000_standing_bids_answer_the_stacks_offer_without_a_stop(tmp_path, capsys):
    """000 Determine Bonus: "Each AP spent from the pool grants the character +1"; the
    Quick Draw check "is attempted before spending AP to add to the pool". Miranda
    bids 1 AP ahead, Angus 0."""
    log = play("seed_000_standing_bid", tmp_path, capsys)
    texts = _texts(log)
    # the pool is offered once, after the free Quick Draw checks, and the bids answer it
    offered = texts.index(
        "AP from the pool for the stack of segment 5: Angus Laroq up to 1, Miranda Valentine up to 2"
    )
    checks = [i for i, t in enumerate(texts) if "Quick Draw check" in t]
    assert checks and max(checks) < offered
    assert not any(t.startswith("Stopped: AP from the pool") for t in texts)  # no stop
    assert "Angus Laroq's standing bid answers the stack's offer: no AP (000 Determine Bonus)" in (
        texts
    )
    assert "Miranda Valentine spends 1 AP from the pool: +1 on the stack" in texts
    flip = next(e for e in log if e["text"] == "Segment 5: the stack resolves in this order")
    (miranda,) = [p for p in flip["detail"]["stack"] if p["character_id"] == "miranda_valentine"]
    assert {b["label"]: b["value"] for b in miranda["bonus"]}.get("AP spent from the pool") == 1


def test_000_a_standing_pass_lets_the_segment_go_when_next_able(tmp_path, capsys):
    """000 Action Timing: "players may declare actions for their character". Cyril's
    shot is declared on segment 8; on 9, able again, he passes by his standing pass
    and keeps his counter: the run stops for Octavio alone."""
    texts = _texts(play("seed_000_standing_pass", tmp_path, capsys))
    shot = texts.index(
        "Cyril Wellington declares normal shot with Smith & Wesson Schofield (.44) (4 AP) "
        "on segment 8"
    )
    passed = texts.index("Segment 9: Cyril Wellington pass (they keep their counters)")
    assert shot < passed
    assert texts[-1].startswith("Ran segments 8–9: stopped because Octavio (vaquero) can act")
    assert not any("Cyril Wellington can act" in t for t in texts)


def test_000_a_bid_above_the_quick_draw_level_is_refused_by_the_table(tmp_path, capsys):
    """000 Determine Bonus: "No character may spend more AP for bonus than their level
    in Quick Draw": Angus (Quick Draw 1) cannot stand on a bid of 2."""
    too_much = {"do": "standing_bid", "who": "angus_laroq", "ap": 2}
    script = _extended(tmp_path, "seed_000_standing_bid", too_much)
    code = play_main([str(SAMPLE), "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 1 and "at most 1 AP for the stack (Quick Draw 1" in err


def test_the_standing_answers_are_saved_with_the_track(tmp_path, capsys):
    """The bids stand in the saved encounter, with the track."""
    play("seed_000_standing_bid", tmp_path, capsys)
    out = json.loads(
        (tmp_path / "seed_000_standing_bid.encounter.json").read_text(encoding="utf-8")
    )
    assert out["action_state"]["bids"] == {"miranda_valentine": 1, "angus_laroq": 0}
    pass_out = tmp_path / "pass.encounter.json"
    script = str(EXAMPLES / "seed_000_standing_pass.jsonl")
    assert play_main([str(SAMPLE), "--script", script, "--out", str(pass_out)]) == 0
    saved = json.loads(pass_out.read_text(encoding="utf-8"))["action_state"]
    assert "cyril_wellington" not in saved["standing"]  # carried out: nothing left
