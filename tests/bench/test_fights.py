"""The fights benchmark (twtw_desktop/bench/fights.py): deterministic by seed."""

from __future__ import annotations

import pytest

from twtw_desktop.bench.fights import PAIRINGS, play_fight


def test_a_fight_is_the_same_for_the_same_seed() -> None:
    planners = PAIRINGS["autopilot hombres v naive posse"]
    a = play_fight("main_street", 4, planners, max_rounds=2)
    b = play_fight("main_street", 4, planners, max_rounds=2)
    assert (a.winner, a.rounds, a.taken, a.refusals, a.hung, a.plans, a.cut) == (
        b.winner, b.rounds, b.taken, b.refusals, b.hung, b.plans, b.cut,
    )  # fmt: skip
    assert a.plans > 0 and not a.refusals and not a.hung


@pytest.mark.slow(minutes=1)
def test_a_fight_that_ends_mid_segment_ends_its_round_cleanly() -> None:
    """Longhorn Saloon, seed 2: the fight is over on segment 8 with two figures who may
    still declare and a stack standing; the driver lets them pass and flips the stack
    before it ends the round (it had hit "Resolve the initiative stack first")."""
    fight = play_fight("longhorn_saloon", 2, PAIRINGS["autopilot hombres v naive posse"])
    assert not fight.refusals and not fight.hung
