"""#16 flow target, played in the real window at 1366×768: a round of the sample
gunfight in which every character moves and every character with a gun shoots,
in at most three Judge actions per character plus one per round.

A Judge action is a key press, a click or a drag. The Judge plays the round as the
track suggests: act with whoever's next action is due soonest, staying with the
selected character unless someone else is due two segments sooner. A drag moves a
token (counting on to the segment its counters cover the move, when they do not
yet: no key is pressed for segments where nothing happens); a shot is Draw and
Apply in the attack panel, Snap and the nearest enemy chosen already, a holstered
gun drawn in the same action — plus a click on the shooter when another character
is selected.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.attack import nearest_enemy, usable_weapons
from twtw_desktop.play.movement import plan_move
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.document import EncounterDocument
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import judge_window

L = Qt.MouseButton.LeftButton
#: the Judge stays with the selected character unless someone else is due this many
#: segments sooner (finishing one character's turn, as at a real table)
SLACK = 2


def _viewport_point(win, h: Hex) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(h))


def _step_hex(doc, token_id: str) -> Hex:
    """A free neighbouring hex the token can walk to."""
    tok = doc.token(token_id)
    for i in range(6):
        n = tok.at.neighbor(i)
        if not doc.map.contains(n) or doc.encounter.token_at(n) is not None:
            continue
        if plan_move(doc, token_id, n).allowed:  # now, or once counted on
            return n
    pytest.fail(f"{token_id} has no free hex to step to")


def _wait(doc, cid: str, ap: int) -> int:
    """Counters still missing for ``ap`` (what the track shows the Judge)."""
    have = doc.table.time.counters(cid) or 0
    return max(0, ap - have)


def _move_ap(doc, cid: str) -> int:
    tid = doc.token_for(cid).id
    return plan_move(doc, tid, _step_hex(doc, tid)).ap


@pytest.mark.slow
def test_a_round_of_the_sample_in_three_actions_per_character(qtbot, qapp, tmp_path, monkeypatch):
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    qtbot.wait(10)
    panel = win.findChild(AttackPanel)
    assert panel is not None
    vp = win.map_view.viewport()
    actions = 0

    win.map_view.setFocus()
    qtbot.keyClick(win.map_view, Qt.Key.Key_F5)  # start the round (declares action time)
    actions += 1
    assert doc.in_action and doc.table.track.state.round == 1

    chars = [c.id for c in doc.encounter.characters if doc.token_for(c.id) is not None]
    armed = {
        cid
        for cid in chars
        if nearest_enemy(doc.table, doc.token_for(cid))
        and usable_weapons(doc.table, doc.character(cid), "ranged")
    }
    todo = {cid: ["move", *(["shoot"] if cid in armed else [])] for cid in chars}
    moved: set[str] = set()
    shot: set[str] = set()

    def shot_wait(cid: str) -> int | None:
        """Counters the shooter still misses for the shot as the attack panel prices
        it (None: the panel refuses it, counting on or not)."""
        doc.select(doc.token_for(cid).id)
        assert panel.plan is not None, panel.tn_label.text()
        if not panel.draw_button.isEnabled():
            return None
        return _wait(doc, cid, panel.plan.spec.ap)

    for _ in range(40):
        due = []
        for cid, left in todo.items():
            if not left:
                continue
            selected_before = doc.selected_token_id
            if left[0] == "move":
                w: int | None = _wait(doc, cid, _move_ap(doc, cid))
            else:
                w = shot_wait(cid)
            if selected_before is not None:
                doc.select(selected_before)
            if w is None:  # not this round any more: the track shows too few counters
                left.clear()
                continue
            due.append((w, cid))
        if not due:
            break
        due.sort()
        wait, cid = due[0]
        sel = doc.selected_token_id
        sel_cid = doc.token(sel).character_id if sel else None
        mine = next((w for w, c in due if c == sel_cid), None)
        if mine is not None and mine <= wait + SLACK:
            cid = sel_cid
        tid = doc.token_for(cid).id
        intent = todo[cid].pop(0)
        if intent == "move":
            start = doc.token(tid).at
            to = _step_hex(doc, tid)
            a, b = _viewport_point(win, start), _viewport_point(win, to)
            qtbot.mousePress(vp, L, Qt.KeyboardModifier.NoModifier, a)
            qtbot.mouseMove(vp, b)
            qtbot.mouseRelease(vp, L, Qt.KeyboardModifier.NoModifier, b)
            actions += 1
            qtbot.wait(1)  # the event loop runs between the Judge's actions
            assert doc.token(tid).at == to, win.statusBar().currentMessage()
            moved.add(cid)
        else:
            if doc.selected_token_id != tid:
                qtbot.mouseClick(
                    vp, L, Qt.KeyboardModifier.NoModifier, _viewport_point(win, doc.token(tid).at)
                )
                actions += 1
            assert doc.selected_token_id == tid
            assert panel.shot_kind() == "snap" and panel.target_token() is not None
            assert panel.draw_button.isEnabled(), panel.draw_button.toolTip()
            before = sum(1 for e in doc.encounter.log if e.kind == "attack")
            qtbot.mouseClick(panel.draw_button, L)
            qtbot.mouseClick(panel.apply_button, L)
            actions += 2
            qtbot.wait(1)
            assert sum(1 for e in doc.encounter.log if e.kind == "attack") > before
            shot.add(cid)

    assert moved == set(chars)
    assert shot == armed and len(armed) >= 6
    print(f"{actions} Judge actions for {len(chars)} characters, {len(shot)} shots")
    assert actions <= 3 * len(chars) + 1, actions
    # no key was pressed for segments: the drags and draws counted them
    assert any(e.text.startswith("Counted segment") for e in doc.encounter.log)


@pytest.mark.parametrize("follow", [True, False])
def test_the_selection_follows_the_track_once_the_selected_has_acted(qtbot, follow):
    """Preferences ▸ Action track: once the selected character has spent their
    counters and must wait, whoever is due next is selected (off: it stays)."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.play.track_actions import due_next

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.follow_track = follow
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    tid = "token-miranda_valentine"
    doc.select(tid)
    plan = plan_move(doc, tid, _step_hex(doc, tid))
    from twtw_desktop.ui.tools.select import push_move

    push_move(doc, tid, plan)
    qtbot.wait(1)
    if follow:
        nxt = due_next(doc.table)
        assert nxt is not None and nxt != "miranda_valentine"
        assert doc.selected_token_id == doc.token_for(nxt).id
    else:
        assert doc.selected_token_id == tid
    doc.deleteLater()


def test_the_selection_stays_after_an_aim_that_leads_into_a_shot(qtbot):
    """An aim (like a draw or a reload) leads into the same character's shot: the
    selection does not move on after it."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.play.combat_actions import Aim, moves_on_after
    from twtw_desktop.play.track_actions import CountOn

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.follow_track = True
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    tid = "token-miranda_valentine"
    doc.character("miranda_valentine").weapons[0].readied = True
    doc.apply(CountOn(who=tid, ap=4))
    doc.select(tid)
    aim = Aim(who=tid, target="token-angus_laroq", weapon="colt_peacemaker")
    assert not moves_on_after(aim)
    doc.apply(aim)
    assert doc.table.track.row("miranda_valentine").spent > 0
    qtbot.wait(1)
    assert doc.selected_token_id == tid
    doc.deleteLater()
