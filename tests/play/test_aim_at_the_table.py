"""Aim and snap shots played at the table from the Main Street sample, Qt blocked
(000 / 001 / 003 Aim and Snap Shots; 003 Advanced Rule: Fields of Fire).

Phases (001/003): a shot with no aim action before it at that target is a snap shot
and takes the weapon's penalty; the first aim removes it, up to two more add +1 each,
Accurate(n) counts when aimed more than once, the aim ends with the shot and may be
finished by a shot in the next round. Both editions: a target that leaves the field
of fire after the aim makes the shot a snap shot.
"""

from __future__ import annotations

import pytest

from twtw_desktop.play.actions import (
    Cock,
    Declare,
    Draw,
    EndRound,
    EndSegment,
    Move,
    Reload,
    SetRules,
    StartActionTime,
    StartRound,
)
from twtw_desktop.play.combat_actions import Aim, NormalShot, SnapShot
from twtw_desktop.play.session import open_table
from twtw_desktop.play.track_actions import Resolve
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"
MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"
SHARPS = "sharps_rifle"  # SP −3, Accurate(2), 60° field
PEACEMAKER = "colt_peacemaker"  # SP −2, 120° field
#: Angus stands 5 paces from Miranda at [11, 14]; [15, 14] is 3 paces off the line
#: (out of a 60° field, inside 120°), [18, 14] 5.3 paces (out of both)
ASIDE = (15, 14)
FAR_ASIDE = (18, 14)


def _table(edition: str = "ap_v2", gun: str = SHARPS):
    table = open_table(SAMPLE).table
    if edition != table.encounter.edition:
        table.apply(SetRules(edition=edition, options=table.encounter.options))
    table.apply(Draw(who=MIRANDA, weapon=gun))
    # both guns are single action: cocked before any aim (000 Cocking and Readying)
    table.apply(Cock(who=MIRANDA, weapon=gun))
    return table


def _shot(kind=NormalShot, gun: str = SHARPS):
    return kind(who=MIRANDA, target=ANGUS, weapon=gun)


def _aim(gun: str = SHARPS):
    return Aim(who=MIRANDA, target=ANGUS, weapon=gun)


def _numbers(table, shot=None) -> tuple[int, int, list[str]]:
    p = table.preview(shot or _shot())
    assert "refused" not in p, p.get("refused")
    return p["tn"], p["result_modifier"], p["tn_items"]


def test_phases_snap_then_each_aim_as_the_pages_say():
    """Sharps in the Phases edition: unaimed −3 (snap), aim 1 → 0, aim 2 → +1 and
    Accurate(2) = +3, aim 3 → +4; a fourth aim is refused; the shot ends the aim."""
    table = _table("phases")
    tn, res, items = _numbers(table)
    assert (tn, res) == (5, -3)
    assert "snap shot penalty (SP): result -3 (001/003 Aim and Snap Shots)" in items
    assert any("no aim action before the shot: a snap shot" in i for i in items)
    expected = [(0, "removes the snap penalty (-3)"), (3, "+1, Accurate(2) now counts"), (4, "+1")]
    for n, (modifier, effect) in enumerate(expected, start=1):
        ev = table.apply(_aim())
        assert ev.text.endswith(f"(aim {n} of at most 3: {effect})")
        assert table.encounter.log[-1].kind == "aim"
        tn, res, items = _numbers(table)
        assert (tn, res) == (5, modifier)
    assert any("1 more" not in i and "2 more aim action(s): result +2" in i for i in items)
    assert "Accurate(2): result +2 (001/003 Aim and Snap Shots)" in items
    assert table.why_not(_aim()) == (
        "Miranda Valentine has aimed 3 times already: shoot (001/003 Aim and Snap Shots)."
    )
    ev = table.apply(_shot())
    assert ev.record["tn"]["result_modifier"] == 4
    table.apply(Reload(who=MIRANDA, weapon=SHARPS))  # the Sharps holds one round
    table.apply(Cock(who=MIRANDA, weapon=SHARPS))
    assert _numbers(table)[1] == -3  # aim does not persist past the shot
    # in this edition a shot's kind is the aims': a "snap" shot after an aim is aimed
    table.apply(_aim())
    assert _numbers(table, _shot(SnapShot))[1] == 0
    table.undo()
    assert _numbers(table, _shot(SnapShot))[1] == -3


def _phases_round_until(table, action, rounds: int = 8) -> None:
    """Play Phases rounds (everyone declares, the card is flipped, phases advance)
    until ``action`` may be taken."""
    for _ in range(rounds):
        if table.why_not(StartRound()):
            table.apply(EndRound())
        table.apply(StartRound())
        for c in table.encounter.characters:
            table.apply(Declare(who=c.id, speed="normal" if c.id == MIRANDA else "slow"))
        table.apply(Resolve())
        while table.why_not(action) is not None and table.why_not(EndSegment()) is None:
            table.apply(EndSegment())
        if table.why_not(action) is None:
            return
    pytest.fail(f"{action.do} never became possible")


def test_phases_an_aim_is_finished_by_next_rounds_shot():
    """003: an aim begun in one round may end in a shot the next; the aim is its own
    action (the Sharps' Normal aim speed) and the shot after it keeps the shot's speed;
    the second aim costs one AP more than the first (001)."""
    table = _table("phases")
    table.apply(StartActionTime())
    _phases_round_until(table, _aim())
    first = table.cost(_aim())
    assert first.speed == "normal"
    assert first.breakdown == ("aim, Sharps rifle: 4 AP (001/003 Aim and Snap Shots)",)
    table.apply(_aim())
    aimed_round = table.now()[0]
    assert table.cost(_aim()).breakdown == (
        "aim 2, Sharps rifle: 5 AP (001/003 Aim and Snap Shots)",
    )
    _phases_round_until(table, _shot())
    assert table.now()[0] > aimed_round
    tn, res, items = _numbers(table)
    assert (tn, res) == (5, 0)
    assert any("aim action 1 removes the snap penalty" in i for i in items)
    assert table.cost(_shot()).speed == "normal"
    p = table.preview(_shot())
    assert any("1 aim(s) taken ahead at Angus Laroq" in s for s in p["situation"])


def test_ap_v2_a_target_leaving_the_rifles_field_makes_it_a_snap_shot():
    """003's example: a sidestep out of the rifle's 60° field costs the rifleman his
    aim (the shot is a snap shot, −3) and is said in the situation, the TN and the log;
    an aim taken after that starts afresh."""
    table = _table("ap_v2", SHARPS)
    table.apply(_aim())
    assert _numbers(table)[1] == 3  # 000: +1 aim, +2 Accurate
    table.apply(Move(who=ANGUS, to=ASIDE))
    _tn, res, items = _numbers(table)
    assert res == -3
    assert "snap shot penalty (SP): result -3 (000 Aim and Snap Shots)" in items
    assert any("left the field of fire during the aim" in i for i in items)
    p = table.preview(_shot())
    assert any("left the field — the shot becomes a snap shot" in s for s in p["situation"])
    assert p["ap"] == 7  # the normal shot; the aim stays paid
    # a new aim now starts over from where he stands (its preview says so first)
    assert table.preview(_aim())["note"] == (
        "aim 1 of at most 2: +1, Accurate(2) now counts (000 Aim and Snap Shots); the earlier "
        "aim is lost: Angus Laroq left the field of fire (003)"
    )
    ev = table.apply(_aim())
    assert "aim 1 of at most 2" in ev.text and "the earlier aim is lost" in ev.text
    assert _numbers(table)[1] == 3
    table.undo()
    ev = table.apply(_shot())
    lost = [e for e in table.encounter.log if "aim at Angus Laroq is lost" in e.text]
    assert len(lost) == 1 and "(003 Advanced Rule: Fields of Fire)" in lost[0].text
    assert ev.record["tn"]["result_modifier"] == -3


def test_ap_v2_a_handgun_keeps_its_aim_inside_its_wider_field():
    """003: handguns cover 120°, so the same sidestep keeps the pistol's aim; a longer
    one (more than the range sideways) loses it."""
    table = _table("ap_v2", PEACEMAKER)
    table.apply(_aim(PEACEMAKER))
    table.apply(Move(who=ANGUS, to=ASIDE))
    assert _numbers(table, _shot(gun=PEACEMAKER))[1] == 1
    table.apply(Move(who=ANGUS, to=FAR_ASIDE))
    _tn, res, items = _numbers(table, _shot(gun=PEACEMAKER))
    assert res == -2 and any("left the field of fire" in i for i in items)


def test_with_fields_of_fire_off_the_aim_stands():
    table = _table("ap_v2", SHARPS)
    options = table.encounter.options.model_copy(update={"fields_of_fire": False})
    table.apply(SetRules(edition="ap_v2", options=options))
    table.apply(_aim())
    table.apply(Move(who=ANGUS, to=FAR_ASIDE))
    assert _numbers(table)[1] == 3


def test_phases_an_aim_held_over_rounds_adds_accurate_each_round_after_the_first():
    """003 Procedure: an aim declared held as a continuous action adds the weapon's
    Accurate bonus for each round after the first it is held; an aim merely carried
    into the next round does not (the test above)."""
    table = _table("phases")
    table.apply(StartActionTime())
    _phases_round_until(table, _aim())
    held = Aim(who=MIRANDA, target=ANGUS, weapon=SHARPS, hold=True)
    table.apply(held)
    assert "held as a continuous action" in table.encounter.log[-1].text
    aimed_round = table.now()[0]
    _phases_round_until(table, _shot())
    rounds = table.now()[0] - aimed_round
    assert rounds >= 1
    _tn, res, items = _numbers(table)
    accurate = table.gear.weapons[SHARPS].accurate
    assert res == accurate * rounds
    assert any("aim held" in i and "003" in i for i in items)


def test_ap_v2_refuses_a_held_aim():
    table = _table("ap_v2")
    why = table.why_not(Aim(who=MIRANDA, target=ANGUS, weapon=SHARPS, hold=True))
    assert why and "003 Procedure" in why


@pytest.mark.parametrize("edition", ["ap_v2", "phases"])
def test_an_uncocked_gun_cannot_be_aimed(edition):
    """000 Cocking and Readying: "Cocking must be done before any aiming." The
    readied, uncocked Sharps is refused an aim (nothing paid); cocked, it aims."""
    table = open_table(SAMPLE).table
    if edition != table.encounter.edition:
        table.apply(SetRules(edition=edition, options=table.encounter.options))
    table.apply(Draw(who=MIRANDA, weapon=SHARPS))
    log_len = len(table.encounter.log)
    why = table.why_not(_aim())
    assert why and "cocking must be done before any aiming" in why
    assert len(table.encounter.log) == log_len
    table.apply(Cock(who=MIRANDA, weapon=SHARPS))
    assert table.why_not(_aim()) is None
