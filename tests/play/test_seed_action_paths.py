"""Issue 35, items 1–3: a direct action (a script's plain ``normal_shot``) and the
manual stepping (F7 ``declare_action``, F8 ``resolve``) follow the rules the window's
path (``when_able``, ``run_on``) follows. Each is a shipped script under
``tests/play/examples/`` quoting its seed sentence; ``test_seed_rules`` plays every
shipped script with Qt blocked.
"""

from __future__ import annotations

from .test_seed_rules import _table_after, _variant, _with
from .test_worked_examples import play, records


def _track(log: list[dict]) -> list[str]:
    return [e["text"] for e in log if e["kind"] == "track"]


def test_a_direct_action_waits_for_the_others_to_declare(tmp_path, capsys):
    """000 Action Timing: "After all players eligible to place a counter have done so,
    players may declare actions for their character." Miranda's plain shot does not
    close segment 5 while Angus may still declare: he passes on it, then it resolves."""
    log = play("seed_000_direct_action_waits_for_declarations", tmp_path, capsys)
    texts = _track(log)
    declared = texts.index(
        "Miranda Valentine declares normal shot with Colt Peacemaker (.45) (3 AP) on segment 5"
    )
    passed = texts.index("Segment 5: Angus Laroq pass (they keep their counters)")
    assert declared < passed
    (shot,) = records(log)
    attack = next(e for e in log if e["kind"] == "attack")
    assert attack["segment"] == 5 and shot["target_id"] == "angus_laroq"
    # the shot was not resolved before Angus passed
    assert log.index(attack) > next(i for i, e in enumerate(log) if e["text"] == texts[passed])


def test_direct_actions_go_on_the_initiative_stack(tmp_path, capsys):
    """000 Simultaneous Actions: "Each action that will occur goes onto the initiative
    stack": two direct shots on segment 5 are flipped a stack card each and resolve
    on it, in the stack's order."""
    log = play("seed_000_direct_actions_go_on_the_stack", tmp_path, capsys)
    flip = next(e for e in log if e["text"] == "Segment 5: the stack resolves in this order")
    stack = flip["detail"]["stack"]
    assert [p["character_id"] for p in stack] == ["miranda_valentine", "angus_laroq"]
    totals = [p["total"] for p in stack]
    assert totals == sorted(totals, reverse=True)
    shots = records(log)
    assert [s["attacker_id"] for s in shots] == ["miranda_valentine", "angus_laroq"]
    # each resolved on its own card flipped for the stack, not on an ordinary draw
    assert [s["cards"][0] for s in shots] == [p["card_number"] for p in stack]


def _shot(who: str, target: str, weapon: str, kind: str) -> dict:
    return {"who": who, "target": target, "weapon": weapon, "point_blank": True, "do": kind}


MIRANDA = _shot("miranda_valentine", "angus_laroq", "colt_peacemaker", "normal_shot")
ANGUS = _shot("angus_laroq", "miranda_valentine", "colt_walker", "snap_shot")


def test_the_flipped_stack_order_is_enforced(tmp_path, capsys):
    """000 The Initiative Stack: "actions are resolved in descending order on the
    current card"; 000 Action Time: "Once spent, APs are lost, even if the action never
    resolves". After F8, Miranda (place 2) cannot shoot before Angus (place 1); Angus's
    shot stuns her and hers is lost, its AP spent."""
    log = play("seed_000_stack_order_is_kept", tmp_path, capsys)
    flip = next(e for e in log if e["text"] == "Segment 5: the stack resolves in this order")
    assert [p["character_id"] for p in flip["detail"]["stack"]] == [
        "angus_laroq",
        "miranda_valentine",
    ]
    (shot,) = records(log)
    assert shot["attacker_id"] == "angus_laroq"
    # out of order: refused, naming who goes first
    code, _ = _variant(
        tmp_path, "seed_000_stack_order_is_kept", _with(MIRANDA, before='"do": "snap_shot"')
    )
    err = capsys.readouterr().err
    assert code == 1 and "Angus Laroq goes first" in err
    assert "descending order on the current card" in err
    # in its place, after Angus stunned her: lost, the AP spent
    code, _ = _variant(tmp_path, "seed_000_stack_order_is_kept", _with(MIRANDA))
    err = capsys.readouterr().err
    assert code == 1 and "Miranda Valentine is stunned before their place" in err
    assert "APs are lost, even if the action never resolves" in err
    # the 3 AP she paid on declaring stay spent: nothing gave them back
    table = _table_after("seed_000_stack_order_is_kept")
    row = table.track.row("miranda_valentine")
    assert row.spent == 3 and row.status.value == "stunned"
    (entry,) = [e for e in table.track.stack(5) if e.character_id == "miranda_valentine"]
    assert entry.resolved and entry.position == 2 and entry.paid_counters == 5
