"""Covering fire from the window: Encounter ▸ Covering fire and the token's menu, the
area picked on the map, the covered area drawn on the Judge's map only, the Bravery
check dialog and the reaction shot, each one undo step."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.play.actions import Draw, EndSegment, StartActionTime, StartRound
from twtw_desktop.play.cover_actions import active_covers, cover_state, pending_reactions
from twtw_desktop.play.declarations import PassTurn
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.menus.cover_menu import BraveryDialog, cover_menu_actions
from twtw_desktop.ui.window.main_window import MainWindow

MIRANDA = "miranda_valentine"
ANGUS = "angus_laroq"


def _sample_copy(tmp_path: Path) -> Path:
    for name in ("main_street.encounter.json", "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / "main_street.encounter.json"


def _window(qtbot, qapp, monkeypatch, tmp_path):
    use_ini_folder(tmp_path / "settings")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: shown.append(a[2]))
    discard = QMessageBox.StandardButton.Discard
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: discard))
    doc = EncounterDocument.open(_sample_copy(tmp_path))
    doc.apply(Draw(who=MIRANDA, weapon="colt_peacemaker"))
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    for _ in range(4):
        doc.apply(EndSegment())
    # whoever may act on segment 4 lets it go, so Miranda's covering fire is the
    # segment's lone action (000 Action Timing)
    doc.apply(PassTurn())
    win = MainWindow(doc, settings=AppSettings())
    qtbot.addWidget(win)
    return win, doc, shown


def _menu_texts(win):
    win.cover_menu.aboutToShow.emit()
    return {a.objectName(): a for a in win.cover_menu.actions()}


def _click_hex(qtbot, view, h, double=False):
    p = view.mapFromScene(view.map_scene.frame.center(h))
    if double:
        qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=p)
    else:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=p)


def test_an_area_picked_on_the_map_is_covered_drawn_and_undone(qtbot, qapp, monkeypatch, tmp_path):
    win, doc, shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    view = win.map_view
    doc.select(doc.token_for(MIRANDA).id)
    acts = _menu_texts(win)
    assert acts["act_cover_area"].isEnabled()
    acts["act_cover_area"].trigger()
    assert view.tool.name == "pick_hexes"
    angus = doc.token_for(ANGUS).at
    _click_hex(qtbot, view, angus)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert view.tool is None or view.tool.name != "pick_hexes"
    st = cover_state(doc.table, MIRANDA)
    assert st is not None and len(st.hexes) == 1, shown
    acts = _menu_texts(win)
    acts["act_cover_marker"].trigger()
    overlay = win.cover_overlay
    assert angus in overlay.covered[MIRANDA]
    assert doc.token_for(ANGUS).id in overlay.under_fire
    assert overlay.items and all(it.scene() is view.map_scene for it in overlay.items)
    # the players' screen has a scene of its own: none of this is drawn there …
    pw = win.players_screen.open()
    pscene = pw.view.scene()
    assert pscene is not view.map_scene
    assert not any(it.scene() is pscene for it in overlay.items)
    assert "covering" not in pw.view.pushed
    # … unless the Judge shows it
    acts = _menu_texts(win)
    acts["act_cover_show_players"].trigger()
    [shaded] = pw.view.pushed["covering"]
    assert shaded.scene() is pscene
    win.players_screen.close()
    doc.undo_stack.undo()  # the marker
    assert MIRANDA not in overlay.covered or not overlay.covered[MIRANDA]
    doc.undo_stack.undo()  # the covering fire
    assert active_covers(doc.table) == [] and overlay.items == []
    win.close()


def test_esc_cancels_the_pick_and_nothing_changes(qtbot, qapp, monkeypatch, tmp_path):
    win, doc, _shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    view = win.map_view
    doc.select(doc.token_for(MIRANDA).id)
    _menu_texts(win)["act_cover_area"].trigger()
    _click_hex(qtbot, view, doc.token_for(ANGUS).at)
    before = doc.undo_stack.count()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert doc.undo_stack.count() == before and active_covers(doc.table) == []
    win.close()


def test_target_bravery_dialog_and_reaction_shot_from_the_token_menu(
    qtbot, qapp, monkeypatch, tmp_path
):
    win, doc, shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    view = win.map_view
    mtok = doc.token_for(MIRANDA).id
    atok = doc.token_for(ANGUS).id
    acts = {a.objectName(): a for a in cover_menu_actions(win, doc, mtok)}
    acts["act_cover_target"].trigger()
    assert view.tool.name == "pick_target"
    _click_hex(qtbot, view, doc.token(atok).at)
    assert cover_state(doc.table, MIRANDA).target == atok, shown
    acts = {a.objectName(): a for a in cover_menu_actions(win, doc, mtok)}
    acts["act_cover_marker"].trigger()
    angus_acts = {a.objectName(): a for a in cover_menu_actions(win, doc, atok)}
    assert "act_bravery_check" in angus_acts
    # stack the deck so Angus's Bravery (3d8) reads 3 on card 8
    st = doc.table.deck.snapshot()
    doc.table.deck.restore(
        st.model_copy(update={"draw_pile": (8, *[x for x in st.draw_pile if x != 8])})
    )
    dlg = BraveryDialog(doc, atok, win)
    qtbot.addWidget(dlg)
    assert "TN 5" in dlg.tn.text()
    dlg.cover_av.setValue(2)
    assert "+2" in dlg.tn.text()
    dlg.cover_av.setValue(0)
    dlg.check()
    assert dlg.event is not None and "nerve breaks" in dlg.event.text
    assert pending_reactions(doc.table)
    win.cover_overlay.refresh()
    assert atok in win.cover_overlay.reactions
    acts = {a.objectName(): a for a in cover_menu_actions(win, doc, mtok)}
    assert "no AP" in acts["act_reaction_shot"].text()
    acts["act_reaction_shot"].trigger()
    assert not pending_reactions(doc.table), shown
    assert doc.encounter.log[-2].kind == "attack" or any(
        e.kind == "attack" for e in doc.encounter.log[-3:]
    )
    acts = {a.objectName(): a for a in cover_menu_actions(win, doc, mtok)}
    acts["act_cover_stop"].trigger()
    assert active_covers(doc.table) == []
    doc.undo_stack.undo()
    assert active_covers(doc.table)
    win.close()


def test_a_refusal_is_shown_and_changes_nothing(qtbot, qapp, monkeypatch, tmp_path):
    win, doc, shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    view = win.map_view
    doc.select(doc.token_for(MIRANDA).id)
    _menu_texts(win)["act_cover_area"].trigger()
    tok = doc.token_for(MIRANDA)
    behind = tok.at  # her own hex and the ones behind her, out of her arc
    col, row = doc.table.map.offset(behind)
    far = doc.table.map.hex_at(col, row + 6)
    before = doc.undo_stack.count()
    _click_hex(qtbot, view, far)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert shown and "field of fire" in shown[-1]
    assert doc.undo_stack.count() == before
    win.close()


def test_the_window_offers_nothing_without_a_selection(qtbot, qapp, monkeypatch, tmp_path):
    win, doc, _ = _window(qtbot, qapp, monkeypatch, tmp_path)
    doc.select(None)
    win.cover_menu.aboutToShow.emit()
    [only] = win.cover_menu.actions()
    assert not only.isEnabled()
    win.close()


def test_risk_death_from_the_token_menu(qtbot, qapp, monkeypatch, tmp_path):
    from twtw_desktop.play.actions import SetRules
    from twtw_desktop.play.risk_actions import risking_death
    from twtw_desktop.ui.menus.token_menu import token_menu_actions

    win, doc, shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    atok = doc.token_for(ANGUS).id
    names = [a.objectName() for a in token_menu_actions(win, doc, atok, atok)]
    assert "act_risk_death" not in names  # the risk rule is off
    doc.apply(
        SetRules(
            edition=doc.encounter.edition,
            options=doc.encounter.options.model_copy(update={"risk": True}),
        )
    )
    acts = {a.objectName(): a for a in token_menu_actions(win, doc, atok, atok)}
    acts["act_risk_death"].trigger()
    assert risking_death(doc.table, ANGUS), shown
    acts = {a.objectName(): a for a in token_menu_actions(win, doc, atok, atok)}
    assert not acts["act_risk_death"].isEnabled()
    doc.undo_stack.undo()
    assert not risking_death(doc.table, ANGUS)
    win.close()


def test_the_next_round_offers_going_on_and_a_new_area(qtbot, qapp, monkeypatch, tmp_path):
    from twtw_desktop.play.actions import EndRound
    from twtw_desktop.play.cover_actions import CoveringFire, CoverMarker

    win, doc, shown = _window(qtbot, qapp, monkeypatch, tmp_path)
    view = win.map_view
    doc.apply(CoveringFire(who=MIRANDA, target=ANGUS))
    doc.apply(CoverMarker(who=MIRANDA))
    doc.apply(EndRound())
    doc.apply(StartRound())
    doc.apply(EndSegment())
    assert active_covers(doc.table)  # twenty segments from segment 4 are not over
    doc.select(doc.token_for(MIRANDA).id)
    acts = _menu_texts(win)
    assert {"act_cover_again", "act_cover_area", "act_cover_show_players"} <= set(acts)
    acts["act_cover_area"].trigger()
    assert view.tool.name == "pick_hexes"
    _click_hex(qtbot, view, doc.token_for(ANGUS).at)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    # no counters yet this round (IN 4): refused, shown, nothing changes
    assert shown and "AP" in shown[-1]
    win.close()
