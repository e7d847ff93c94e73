"""#25 flow target, played in the real window at 1366×768: a round of the sample
gunfight in which every character moves and every character with a gun who is still
able to shoots once, in at most 29 Judge actions, with 000's action time honoured.

A Judge action is every key press, click and drag (no scrolling is needed: each
button used is asserted to be in view). The Judge plays the round as the table
leads: F5 starts it, F6 runs on; at each stop the characters who may act with
nothing declared are named — the Judge drags each one's token a hex (the move is
carried out now, put on the segment's stack, or kept until the counters cover it)
and, for a gunman, clicks Declare (or Draw) in the attack panel, the nearest enemy
already chosen; once nobody may still declare the table resolves the segment (the
initiative stack when several act) and runs on by itself — stopping once per stack
where someone may spend AP from the pool for it (000 Determine Bonus; F6 spends
none and flips the cards). A character who already
did everything is passed by F6, one key for all. A shot whose result has choices
stops the run with its card shown: Apply carries it out and the run goes on.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.attack import nearest_enemy, usable_weapons
from twtw_desktop.play.declarations import decision_waiting
from twtw_desktop.play.movement import plan_move
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import judge_window

L = Qt.MouseButton.LeftButton
#: the issue's target for one round of the sample (#25) was 28, counted while the run
#: flipped a stack's cards without offering AP from the pool for it; 000 Determine
#: Bonus gives each character that opportunity "once all actions that will occur during
#: a segment are known", and the sample's round forms one such stack: one F6 more
TARGET = 29


def _viewport_point(win, h: Hex) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(h))


def _step_hex(doc, token_id: str, win=None) -> Hex:
    """A free neighbouring hex the token can walk to this round — one the Judge can
    see in the map view when there is one."""
    tok = doc.token(token_id)
    free = []
    for i in range(6):
        n = tok.at.neighbor(i)
        if not doc.map.contains(n) or doc.encounter.token_at(n) is not None:
            continue
        if plan_move(doc, token_id, n).allowed:
            free.append(n)
    if not free:
        pytest.fail(f"{token_id} has no free hex to step to")
    if win is not None:
        vp = win.map_view.viewport().rect()
        free.sort(key=lambda h: not vp.contains(_viewport_point(win, h)))
    return free[0]


def _drag_a_step(qtbot, win, doc, token_id: str) -> list[str]:
    """The Judge drags a token one hex, scrolling the map to it first where the token
    or the hex is out of view: the Judge actions made ("scroll", "drag")."""
    vp = win.map_view.viewport()
    made = []
    start, to = doc.token(token_id).at, _step_hex(doc, token_id, win)
    a, b = _viewport_point(win, start), _viewport_point(win, to)
    if not (vp.rect().contains(a) and vp.rect().contains(b)):
        win.map_view.center_on_hex(start)  # the Judge scrolls the map to it
        made.append("scroll")
        qtbot.wait(5)
        to = _step_hex(doc, token_id, win)
        a, b = _viewport_point(win, start), _viewport_point(win, to)
    qtbot.mousePress(vp, L, Qt.KeyboardModifier.NoModifier, a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, L, Qt.KeyboardModifier.NoModifier, b)
    made.append("drag")
    qtbot.wait(5)
    return made


def _in_view(widget) -> bool:
    """Shown and not scrolled or clipped out of sight (no scroll needed to press it)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


@pytest.mark.slow
def test_a_round_of_the_sample_in_at_most_29_judge_actions(qtbot, qapp, tmp_path, monkeypatch):
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    qtbot.wait(10)
    panel = win.findChild(AttackPanel)
    assert panel is not None
    actions = 0
    kinds: list[str] = []

    def key(k) -> None:
        nonlocal actions
        win.map_view.setFocus()
        qtbot.keyClick(win.map_view, k)
        actions += 1
        kinds.append(str(k).split(".")[-1])
        qtbot.wait(5)  # the event loop runs between the Judge's actions

    where: set[tuple[int, int]] = set()  # Draw / Declare and Apply: where they stand

    def click(button) -> None:
        nonlocal actions
        assert _in_view(button), f"{button.text()} is out of view at 1366×768"
        assert button.isEnabled(), button.toolTip()
        where.add((button.mapTo(win, button.rect().topLeft()).y(), button.height()))
        qtbot.mouseClick(button, L)
        actions += 1
        kinds.append(button.text())
        qtbot.wait(5)

    key(Qt.Key.Key_F5)  # start the round (declares action time)
    assert doc.in_action and doc.table.track.state.round == 1
    chars = [c.id for c in doc.encounter.characters if doc.token_for(c.id) is not None]
    armed = {
        cid
        for cid in chars
        if nearest_enemy(doc.table, doc.token_for(cid))
        and usable_weapons(doc.table, doc.character(cid), "ranged")
    }
    moved: set[str] = set()

    def able(cid: str) -> bool:
        c = doc.character(cid)
        return not (c.stunned or c.out_of_action)

    def shot(cid: str) -> bool:
        return any(
            e.kind == "attack" and e.detail["record"]["attacker_id"] == cid
            for e in doc.encounter.log
        )

    # segment 0: the Judge gives each character what they will do as soon as their
    # counters cover it — a drag (the move), then Declare for a gunman (the shot)
    for cid in chars:
        tid = doc.token_for(cid).id
        made = _drag_a_step(qtbot, win, doc, tid)
        actions += len(made)
        kinds += made
        assert doc.table.track.state.standing.get(cid), win.statusBar().currentMessage()
        moved.add(cid)
        if cid in armed:
            assert doc.selected_token_id == tid  # the drag selected the token
            target = panel.target_token()
            assert target is not None
            assert doc.character_of(target).side != doc.character(cid).side
            assert panel.shot_kind() == "snap" and panel.draw_button.text() == "Declare"
            click(panel.draw_button)
            assert len(doc.table.track.state.standing[cid]) == 2

    # the Judge had the Log in front: a stop that waits for Apply brings the Attack
    # panel's tab forward by itself (#37)
    win.docks["dock_log"].raise_()
    qtbot.wait(5)
    key(Qt.Key.Key_F6)  # run on
    for _ in range(40):
        if all(shot(c) or not able(c) for c in armed):
            break
        if decision_waiting(doc.table):
            assert panel.current is not None, panel.message.text()  # its card is shown
            assert _in_view(panel), "the stop did not bring the Attack panel forward"
            assert _in_view(panel.result_label)  # the result, not the card's foot
            click(panel.apply_button)  # the run goes on by itself
            continue
        stop = doc.encounter.log[-1].text
        # the run stops for someone newly able with nothing declared, or once per stack
        # to offer AP from the pool for it (000 Determine Bonus): F6 passes / spends none
        assert doc.table.track.pending_declarers() or "000 Determine Bonus" in stop, stop
        key(Qt.Key.Key_F6)  # pass whoever is named (their plan is done), run on

    # everyone moved, but for someone stunned or downed before their counters came
    unmoved = [c for c in chars if doc.token_for(c).moved == 0]
    assert all(not able(c) for c in unmoved), unmoved
    assert len(unmoved) <= 1
    shooters = {c for c in armed if shot(c)}
    assert shooters == {c for c in armed if able(c) or shot(c)}
    assert len(armed) == 7 and len(shooters) >= 5
    print(" ".join(kinds))
    print(f"{actions} Judge actions: {len(chars) - len(unmoved)} moved, {len(shooters)} shot")
    assert actions <= TARGET, actions
    # Declare, Draw and Apply stood in one place for every shooter (#37)
    assert len(where) == 1, where
    # every shot went through the track: declared, and two or more on one segment
    # through the initiative stack (000 Simultaneous Actions)
    texts = [e.text for e in doc.encounter.log]
    assert not any(x.startswith("Counted segment") for x in texts)


@pytest.mark.parametrize("follow", [True, False])
def test_the_selection_follows_the_track_to_whoever_may_declare(qtbot, follow):
    """Preferences ▸ Action track: when a run stops for characters who may act with
    nothing declared, the first of them is selected (off: the selection stays)."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.play.declarations import RunOn
    from twtw_desktop.play.track_actions import due_next

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.follow_track = follow
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    doc.select("token-angus_laroq")
    doc.apply(RunOn())
    qtbot.wait(1)
    nxt = due_next(doc.table)
    assert nxt == doc.table.track.pending_declarers()[0] == "miranda_valentine"
    if follow:
        assert doc.selected_token_id == doc.token_for(nxt).id
    else:
        assert doc.selected_token_id == "token-angus_laroq"
    doc.deleteLater()


def test_the_selection_stays_after_an_aim_that_leads_into_a_shot(qtbot):
    """An aim (like a draw or a reload) leads into the same character's shot: the
    selection does not move on after it."""
    from twtw_desktop.play.actions import Judge, StartActionTime, StartRound
    from twtw_desktop.play.combat_actions import Aim, moves_on_after
    from twtw_desktop.play.declarations import RunOn

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.follow_track = True
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    tid = "token-miranda_valentine"
    doc.character("miranda_valentine").weapons[0].readied = True
    doc.character("miranda_valentine").weapons[0].cocked = True  # before any aim (000)
    doc.apply(RunOn())  # segment 1: Miranda may declare
    qtbot.wait(1)  # the stop is shown (its selection) before the Judge goes on
    doc.apply(Judge(reason="a test's counters", who=tid, counters=3))
    doc.select(tid)
    aim = Aim(who=tid, target="token-angus_laroq", weapon="colt_peacemaker")
    assert not moves_on_after(aim)
    doc.apply(aim)
    assert doc.table.track.row("miranda_valentine").spent > 0
    qtbot.wait(1)
    assert doc.selected_token_id == tid
    doc.deleteLater()
