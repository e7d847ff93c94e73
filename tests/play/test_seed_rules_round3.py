"""Issue 35, "Every seed rule right, round three" (the prone target, the disabled arm
and the missing rules): each replayed as a shipped ``twtw-desktop play`` script
(``tests/play/examples/seed_*.jsonl``) quoting its sentence, the numbers read back from
what the table wrote. ``test_seed_rules.test_every_example_plays_with_qt_blocked``
plays every shipped script with PySide6 blocked.
"""

from __future__ import annotations

from .test_worked_examples import items, play, records


def _tn_items(rec: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in rec["tn"]["tn_items"]}


def test_000_a_prone_target_is_plus_one_to_the_result(tmp_path, capsys):
    """000 Modifiers: "Target is prone | +1", in the column of the result modifiers
    ("Firer is moving | -1/-4", "Firer is mounted | -2"): TN 5 as for a standing
    target, +1 to the result."""
    (shot,) = records(play("seed_000_prone_target_plus_one", tmp_path, capsys))
    assert shot["tn"]["tn"] == 5 and "target is prone" not in _tn_items(shot)
    assert items(shot)["target is prone"] == 1


def test_000_a_disabled_arm_leaves_the_rifle_one_hand(tmp_path, capsys):
    """000 Two handed ranged weapons + Hit Location and Damage: the left arm's 5th
    wound ("severed or otherwise rendered useless") leaves one hand for the Sharps,
    the other hand holding nothing: 2 downgrades."""
    log = play("seed_000_disabled_arm_one_hand", tmp_path, capsys)
    (shot,) = records(log)
    assert items(shot)["two-handed weapon in one hand"] == -2
    attack = next(e for e in log if e["kind"] == "attack")
    assert any("the left arm is disabled" in g for g in attack["detail"]["situation"])
