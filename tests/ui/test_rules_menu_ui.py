"""Issue 35: the steps that lived only in scripts, taken from the window with real
input at 1366×768 — a right-click on the token opens its menu and the entries are
clicked (the menu's own popups, found as a Judge sees them): putting a weapon away,
giving up a skill paid in part, the session's end losing the bonus counters, a
Phases draw at once with the other hand, a Phases maneuver; the drag with Ctrl held
walks forgoing defence."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from twtw_desktop.play.actions import Draw, EndSegment, SetRules, StartActionTime, StartRound
from twtw_desktop.play.bonus_actions import TakeCounter
from twtw_desktop.play.journal import replay_line
from twtw_desktop.play.script import read_script
from twtw_desktop.play.speed_actions import direction_name
from twtw_desktop.play.track_actions import DeclareAction
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.editions import OptionalRules
from twtw_desktop.ui.core.document import EncounterDocument

from ..play.test_worked_examples import EXAMPLES
from .test_attack_more import judge_window

MIRANDA = "miranda_valentine"
HANK = "hank_daggett"
JONAH = "jonah_benton"


def _point(win, token_id: str) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(win.document.token(token_id).at))


def _visible(win, token_id: str) -> None:
    """Centre the map on the token, so the Judge can right-click it."""
    view = win.map_view
    view.centerOn(view.map_scene.frame.center(win.document.token(token_id).at))


def right_click(widget, pos: QPoint) -> None:
    """A right-click as the platform delivers it: the button pressed and released, and
    the context-menu event the press raises (QTest's synthetic clicks raise none)."""
    QTest.mousePress(widget, Qt.MouseButton.RightButton, pos=pos)
    QTest.mouseRelease(widget, Qt.MouseButton.RightButton, pos=pos)
    ev = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, ev)


def menu_pick(qtbot, win, token_id: str, path: list[str]) -> list[str]:
    """Right-click the token and click through its menu, entry by entry (each a text
    the entry starts with); the texts of the last menu shown (with what its entries
    say when greyed)."""
    seen: list[str] = []
    errors: list[str] = []

    def click(i: int) -> None:
        popup = QApplication.activePopupWidget()
        if not isinstance(popup, QMenu):
            errors.append(f"no menu open for {path[i]!r}")
            return
        acts = [a for a in popup.actions() if a.text()]
        seen[:] = [a.text() + (f" [{a.toolTip()}]" if not a.isEnabled() else "") for a in acts]
        act = next((a for a in acts if a.text().startswith(path[i])), None)
        if act is None:
            errors.append(f"{path[i]!r} not in {seen}")
            popup.close()
            return
        QTest.mouseClick(popup, Qt.MouseButton.LeftButton, pos=popup.actionGeometry(act).center())
        if i + 1 < len(path):
            QTimer.singleShot(80, lambda: click(i + 1))

    _visible(win, token_id)
    QTimer.singleShot(80, lambda: click(0))
    right_click(win.map_view.viewport(), _point(win, token_id))
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None or errors, timeout=5000)
    popup = QApplication.activePopupWidget()
    while popup is not None:
        popup.close()
        popup = QApplication.activePopupWidget()
    assert not errors, errors
    return seen


def test_put_away_from_the_tokens_menu(qtbot, qapp, tmp_path, monkeypatch):
    """A weapon in hand is put away from the token's menu (holster, the cost of
    drawing it, house)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    tid = doc.token_for(MIRANDA).id
    menu_pick(qtbot, win, tid, ["Put away", "The Colt Peacemaker"])
    assert not any(cw.readied for cw in doc.character(MIRANDA).weapons)
    assert "puts the Colt Peacemaker" in doc.encounter.log[-1].text
    win.close()


def _replay(doc, name: str, **stop) -> None:
    """Set the table up with the shipped script ``name``, up to its first line
    holding every value of ``stop``."""
    for line in read_script(EXAMPLES / f"{name}.jsonl"):
        if all(line.get(k) == v for k, v in stop.items()):
            return
        replay_line(doc.table, line)
    raise AssertionError(f"{name} has no line {stop}")


def _ap_v2_segment_4(doc) -> None:
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    for _ in range(4):
        doc.apply(EndSegment())


def test_the_session_end_loses_the_counters_from_the_bonus_menu(qtbot, qapp, tmp_path, monkeypatch):
    """002 The Bonus Counter: unspent counters are lost when the session ends
    (lose_counters), from a token's Bonus counter submenu."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.apply(SetRules(edition="ap_v2", options=OptionalRules(bonus_pool=2)))
    doc.apply(TakeCounter(who=HANK))
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    menu_pick(qtbot, win, doc.token_for(HANK).id, ["Bonus counter", "The session ends"])
    assert not any(c.bonus_counter for c in doc.encounter.characters)
    assert "lose their unspent bonus counter" in doc.encounter.log[-1].text
    win.close()


def test_giving_up_a_skill_paid_in_part(qtbot, qapp, tmp_path, monkeypatch):
    """000 Skills During Action Time: a skill paid over several rounds may be given
    up (abandon), the AP paid lost — from the token's menu."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _ap_v2_segment_4(doc)
    doc.apply(DeclareAction(who=MIRANDA, declared=A.skill_action("lockpicking", 8)))
    assert doc.table.track.row(MIRANDA).progress is not None
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    menu_pick(qtbot, win, doc.token_for(MIRANDA).id, ["Give up skill"])
    assert doc.table.track.row(MIRANDA).progress is None
    assert "AP paid are lost" in doc.encounter.log[-1].text
    win.close()


def test_a_phases_draw_at_once_with_the_other_hand(qtbot, qapp, tmp_path, monkeypatch):
    """004 Simultaneous Actions: Miranda's snap shot, then her second Peacemaker drawn
    at the same time with the other hand — from the token's menu (at_once)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _replay(doc, "seed_004_free_and_simultaneous", do="at_once")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    menu_pick(qtbot, win, doc.token_for(MIRANDA).id, ["At once", "Draw the Colt Peacemaker"])
    assert all(cw.readied for cw in doc.character(MIRANDA).weapons[:2])
    last = doc.encounter.log[-1]
    assert "Colt Peacemaker (.45) is ready" in last.text
    assert "acts in phase II: draw" in last.detail["track"]
    win.close()


def test_a_phases_maneuver_from_the_riders_menu(qtbot, qapp, tmp_path, monkeypatch):
    """002 Mounted and Vehicular Movement: Jonah, a continuous mover, steers in his
    phase — a Quick action of his (maneuver), from the token's menu."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _replay(doc, "seed_002_maneuvers", do="maneuver", facing=1)
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    toward = direction_name(doc.table, 1)
    menu_pick(qtbot, win, doc.token_for(JONAH).id, ["Maneuver", f"Steer toward {toward}"])
    assert f"is steered toward {toward}" in doc.encounter.log[-1].text
    assert doc.token_for(JONAH).facing == 1
    win.close()


def test_ctrl_drag_walks_forgoing_defence(qtbot, qapp, tmp_path, monkeypatch):
    """001 Movement Actions: 'Characters who wish to forgo defense may pay 1/2 AP per
    pace' — the drag dropped with Ctrl held (move with forgo_defence)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _ap_v2_segment_4(doc)
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    tid = doc.token_for(MIRANDA).id
    _visible(win, tid)
    start = doc.token(tid).at
    dest = next(
        n
        for n in (start.neighbor(i) for i in range(6))
        if doc.map.contains(n) and doc.encounter.token_at(n) is None
    )
    vp = win.map_view.viewport()
    ctrl = Qt.KeyboardModifier.ControlModifier
    a, b = _point(win, tid), win.map_view.mapFromScene(win.map_view.map_scene.frame.center(dest))
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, ctrl, a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, ctrl, b)
    # others may still declare on segment 4: the move waits on the segment's stack
    (entry,) = [e for e in doc.table.track.stack() if e.character_id == MIRANDA]
    assert entry.action.forgo_defence
    win.close()


def test_carrying_the_fight_from_the_tokens_menu(qtbot, qapp, tmp_path, monkeypatch):
    """000 Asserting Dominance: after Hank's bump spent on dominance, his menu carries
    the fight — Dave to the hex two paces off, Hank beside him (dominance_move)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _replay(doc, "seed_000_dominance_carries_the_fight", do="dominance_move")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    dave = doc.token_for("dave_perkins")
    seen = menu_pick(
        qtbot, win, doc.token_for(HANK).id, ["Carry the fight", "Dave Perkins to 2316 (2 paces)"]
    )
    assert any("(1 pace)" in s for s in seen)
    assert doc.table.map.offset(dave.at) == (22, 15)
    assert "carries the fight 2 pace(s)" in doc.encounter.log[-1].text
    win.close()


def test_a_phases_snap_shot_at_once_with_the_other_hand(qtbot, qapp, tmp_path, monkeypatch):
    """004 Simultaneous Actions ("draw a knife and fire a pistol"): Miranda draws her
    second Peacemaker, and at the same time snap-shoots Angus with the first — from
    the token's menu (at_once with a snap shot)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _replay(doc, "seed_004_free_and_simultaneous", do="snap_shot")
    doc.apply(Draw(who=MIRANDA, slot=1))
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    path = ["At once", "Snap shot with the Colt Peacemaker", "Angus Laroq"]
    menu_pick(qtbot, win, doc.token_for(MIRANDA).id, path)
    attack = doc.encounter.log[-1]
    assert attack.kind == "attack" and "Miranda Valentine → Angus Laroq" in attack.text
    assert "acts in phase II: snap shot" in attack.detail["track"]
    # the hat (a further free action, Quick), then the draw and the shot as one Half:
    # taken one after the other, Quick + Half + Quick would be refused
    assert [str(x) for x in doc.table.track.row(MIRANDA).acted_speeds] == ["fast", "normal"]
    win.close()


def test_a_target_token_dropped_from_the_shooters_menu(qtbot, qapp, tmp_path, monkeypatch):
    """001 Declare Target: Angus, yet to move, drops his target token on a hex of
    Jonah's move — from his token's menu (target_token)."""
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    _replay(doc, "seed_001_target_token_on_the_move", do="target_token")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    angus = doc.token_for("angus_laroq")
    menu_pick(qtbot, win, angus.id, ["Drop the target token", "Jonah Benton", "1021"])
    assert angus.target_mark_on == doc.token_for(JONAH).id
    assert "drops a target token on 1021" in doc.encounter.log[-1].text
    win.close()
