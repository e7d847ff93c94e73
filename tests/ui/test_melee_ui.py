"""Hand to hand and riders reached from the window: Encounter ▸ Hand to hand (engage,
hold, escape, disengage, the Judge's factors), the badges on the tokens, the attack
panel's hand-to-hand rows (advantage and holds itemised before the card, improvised
weapons, bumps spent on dominance), and a drag of a mounted rider that moves its
mount with the rider on it (000 Hand to Hand Combat, Position, Asserting Dominance,
Improvised Weapons; Continuous Action Movement)."""

from __future__ import annotations

import shutil
import uuid

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.actions import Place, StartActionTime, StartRound
from twtw_desktop.play.melee_actions import Hold
from twtw_desktop.play.mount_actions import Mount
from twtw_desktop.play.speed_actions import SetSpeed
from twtw_desktop.play.track_actions import Continuous
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.dialogs.rules_dialog import ChangeRulesCommand, RulesDialog
from twtw_desktop.ui.window.main_window import MainWindow

SAMPLE = "main_street.encounter.json"
HANK = "hank_daggett"
DAVE = "dave_perkins"
MIRANDA = "miranda_valentine"


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    win = MainWindow(settings=AppSettings())
    qtbot.addWidget(win)
    assert win.open_path(tmp_path / SAMPLE)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    doc = win.document
    col, row = doc.table.map.offset(doc.token_for(HANK).at)
    doc.apply(Place(who=DAVE, to=[col + 2, row + 1]))  # beside Hank
    return win


def _entry(menu, text: str):
    for act in menu.actions():
        if act.text() == text:
            return act
    raise AssertionError(f"{text!r} not in {[a.text() for a in menu.actions()]}")


def _badges(win, cid: str) -> list[str]:
    tok = win.document.token_for(cid)
    return [b[1] for b in win.map_view.map_scene.tokens[tok.id].badges]


def test_the_hand_to_hand_menu_engages_holds_and_badges_show_it(window):
    doc = window.document
    hank, dave = doc.token_for(HANK), doc.token_for(DAVE)
    doc.select(hank.id)
    menu = window.melee_menu
    menu.aboutToShow.emit()
    _entry(menu, "Engage Dave Perkins").trigger()
    assert hank.engaged_with == [dave.id]
    assert "engaged" in _badges(window, HANK) and "engaged" in _badges(window, DAVE)
    menu.aboutToShow.emit()
    info = _entry(menu, "Hank Daggett is engaged with Dave Perkins (000 Hand to Hand Combat)")
    assert not info.isEnabled()  # the fight as it stands, for reading
    hold = _entry(menu, "Hold Dave Perkins").menu()
    _entry(hold, "Dominance").trigger()
    assert dave.held_by == hank.id and dave.held_at == 2
    assert "held" in _badges(window, DAVE)
    # Dave, selected, may escape (TN 5 + half of Hank's Brawl 1 = 6), not disengage
    doc.select(dave.id)
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions()]
    assert "Escape the dominance (TN 6)…" in texts
    window.act_undo.trigger()
    assert dave.held_by is None and "held" not in _badges(window, DAVE)
    _entry(menu, "Position advantage").trigger()
    assert dave.melee_position


def test_the_attack_panel_itemises_advantage_and_holds_and_spends_on_dominance(window):
    doc = window.document
    hank, dave = doc.token_for(HANK), doc.token_for(DAVE)
    panel = window.docks["dock_attack"].widget()
    doc.select(hank.id)
    panel.set_mode("melee")
    panel.set_target(dave.id)
    assert panel.plan is not None and panel.plan.tn.tn == 6  # 5 + Dave's advantage
    assert any("defender has the advantage" in i for i in panel.tn_items())
    assert "advantage 0 vs 1" in panel.tn_label.text()
    # a chair from the saloon: armed against Dave's knife, the advantage is even
    panel.improvised_combo.setCurrentIndex(panel.improvised_combo.findData("improvised_large"))
    panel.improvised_combo.activated.emit(panel.improvised_combo.currentIndex())
    assert panel.plan.weapon.id == "improvised_large" and panel.plan.tn.tn == 5
    assert panel.draw() is not None
    assert all(w.isVisibleTo(panel) for w in panel.dominance_widgets)
    assert panel.apply() is not None
    assert hank.engaged_with == [dave.id]
    assert doc.encounter.log[-1].detail["record"]["weapon_id"] == "improvised_large"


def test_dragging_a_rider_moves_the_mount_with_the_rider(window, qtbot):
    doc = window.document
    rider = doc.token_for(MIRANDA)
    col, row = doc.table.map.offset(rider.at)
    doc.apply(Place(who=HANK, to=[col + 2, row + 1]))
    doc.apply(Mount(who=MIRANDA, horse=HANK))
    horse = doc.token_for(HANK)
    start = horse.at
    dest = Hex(start.q + 2, start.r)
    v = window.map_view
    window.tool_actions["select"].trigger()
    v.center_on_hex(start)

    def pos(h: Hex) -> QPoint:
        return v.mapFromScene(v.map_scene.frame.center(h))

    qtbot.mousePress(v.viewport(), Qt.MouseButton.LeftButton, pos=pos(start))
    qtbot.mouseMove(v.viewport(), pos=pos(dest))
    qtbot.mouseRelease(v.viewport(), Qt.MouseButton.LeftButton, pos=pos(dest))
    assert horse.at == dest and rider.at == dest
    window.act_undo.trigger()
    assert horse.at == start and rider.at == start


def test_full_dominance_lets_the_panel_choose_the_location(window):
    doc = window.document
    hank, dave = doc.token_for(HANK), doc.token_for(DAVE)
    panel = window.docks["dock_attack"].widget()
    doc.apply(Hold(who=HANK, target=DAVE, level=3))
    doc.select(hank.id)
    panel.set_mode("melee")
    panel.set_target(dave.id)
    combo = panel.choose_loc_combo
    assert combo.isVisibleTo(panel)
    combo.setCurrentIndex(combo.findData("head"))
    combo.activated.emit(combo.currentIndex())
    assert panel.plan is not None and "the blow lands on the head" in panel.tn_label.text()
    assert panel.draw() is not None
    rec = panel.apply()
    assert rec is not None
    assert not rec.hit.success or rec.location.location.value == "head"


def test_the_track_panels_next_segment_moves_a_mounted_continuous_mover(window):
    doc = window.document
    rider = doc.token_for(MIRANDA)
    col, row = doc.table.map.offset(rider.at)
    doc.apply(Place(who=HANK, to=[col + 2, row + 1]))
    doc.apply(Mount(who=MIRANDA, horse=HANK))
    horse = doc.token_for(HANK)
    doc.apply(SetSpeed(who=HANK, speed=20, facing=0))
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    doc.apply(Continuous(mover=HANK, paces=20, name="Hank's horse"))
    start = horse.at
    track = window.docks["dock_track"].widget()
    assert track.next_segment()
    assert horse.at == rider.at == start.neighbor(0)
    scene = window.map_view.map_scene
    frame = scene.frame
    for tok in (horse, rider):
        assert scene.tokens[tok.id].pos() == frame.center(start.neighbor(0))


def test_the_rules_dialogs_weapon_length_switch_reaches_the_attack_panel(window, qtbot):
    doc = window.document
    hank, dave = doc.token_for(HANK), doc.token_for(DAVE)
    panel = window.docks["dock_attack"].widget()
    doc.select(hank.id)
    panel.set_mode("melee")
    panel.set_target(dave.id)
    combo = panel.improvised_combo
    combo.setCurrentIndex(combo.findData("improvised_large"))  # a chair against a knife
    combo.activated.emit(combo.currentIndex())
    assert panel.plan.tn.result_modifier == 0
    dlg = RulesDialog(doc)
    qtbot.addWidget(dlg)
    dlg.checks["weapon_length"].setChecked(True)
    doc.push(ChangeRulesCommand(doc, *dlg.chosen()))
    panel.recompute()
    assert panel.plan.tn.result_modifier == 1  # the longer weapon's +1 (000, optional)
    assert "weapon length +1" in panel.tn_label.text()


def test_skill_spent_on_advantage_from_the_attack_panel(window):
    """001 Advantage from the window: the hand-to-hand row's 'adv' box spends skill
    levels on advantage — the pool shrinks and the advantage count names them."""
    doc = window.document
    dave, hank = doc.token_for(DAVE), doc.token_for(HANK)
    panel = window.docks["dock_attack"].widget()
    doc.select(dave.id)
    panel.set_mode("melee")
    panel.set_target(hank.id)
    assert panel.plan is not None
    before = panel.plan.pool
    panel.skill_adv_spin.setValue(1)
    assert panel.plan is not None and panel.plan.pool.count == before.count - 1
    assert any("spent on advantage" in g for g in panel.plan.geometry)
