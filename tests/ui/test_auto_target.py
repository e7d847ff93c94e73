"""The Attack panel's automatic target (issue 37): the nearest enemy in sight as the
figures stand now — a shooter selected and then dragged gets the enemy now nearest,
not the one nearest where it stood — and an enemy out of sight is listed greyed,
saying why. In the real window at 1366×768, selecting by clicking tokens and
moving by dragging them."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.attack import nearest_enemy, out_of_sight
from twtw_desktop.play.attack_request import Geometry
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_attack_more import judge_window

L = Qt.MouseButton.LeftButton
JONAH = "token-jonah_benton"


def _point(win, h: Hex) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(h))


def _click_token(qtbot, win, tid: str) -> None:
    doc = win.document
    vp = win.map_view.viewport()
    if not vp.rect().contains(_point(win, doc.token(tid).at)):
        win.map_view.center_on_hex(doc.token(tid).at)  # the Judge scrolls to it
    qtbot.mouseClick(vp, L, Qt.KeyboardModifier.NoModifier, _point(win, doc.token(tid).at))
    assert doc.selected_token_id == tid


def _panel(qtbot, win) -> AttackPanel:
    qtbot.wait(10)  # the first frame: the map fitted to the view, the panels built
    panel = win.findChild(AttackPanel)
    assert panel is not None
    win.docks["dock_attack"].raise_()
    return panel


def _nearer_another(win, tid: str) -> tuple[Hex, str] | None:
    """A free hex in view, one drag from ``tid``, where the nearest enemy in sight is
    another than now, and that enemy (None: there is none)."""
    doc = win.document
    tok = doc.token(tid)
    geometry = Geometry(doc.table)
    now = nearest_enemy(doc.table, tok, geometry)
    vp = win.map_view.viewport().rect()
    found = []
    for dq in range(-6, 7):
        for dr in range(-6, 7):
            h = Hex(tok.at.q + dq, tok.at.r + dr)
            if h == tok.at or not doc.map.contains(h) or doc.encounter.token_at(h) is not None:
                continue
            if not vp.contains(_point(win, h)):
                continue
            best = nearest_enemy(doc.table, tok.model_copy(update={"hex": (h.q, h.r)}), geometry)
            if best is not None and best != now:
                found.append((tok.at.distance(h), h, best))
    return min(found)[1:] if found else None


def test_the_target_follows_the_shooter_dragged_nearer_another_enemy(
    qtbot, qapp, tmp_path, monkeypatch
):
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = _panel(qtbot, win)
    posse = [t.id for t in doc.encounter.tokens if doc.character_of(t.id).side == "posse"]
    tid, (to, expected) = next((t, w) for t in posse if (w := _nearer_another(win, t)))
    _click_token(qtbot, win, tid)
    start = doc.token(tid).at
    first = panel.target_token()
    assert first == nearest_enemy(doc.table, doc.token(tid), Geometry(doc.table))
    # narrative time: a drag moves the figure, nothing charged
    vpw = win.map_view.viewport()
    qtbot.mousePress(vpw, L, Qt.KeyboardModifier.NoModifier, _point(win, start))
    qtbot.mouseMove(vpw, _point(win, to))
    qtbot.mouseRelease(vpw, L, Qt.KeyboardModifier.NoModifier, _point(win, to))
    qtbot.wait(5)
    assert doc.token(tid).at == to, win.statusBar().currentMessage()
    assert doc.selected_token_id == tid
    assert panel.target_token() == expected != first


def test_a_target_chosen_by_hand_stays_when_figures_move(qtbot, qapp, tmp_path, monkeypatch):
    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = _panel(qtbot, win)
    _click_token(qtbot, win, JONAH)
    combo = panel.target_combo
    far = combo.findData("token-octavio_vaquero")
    assert far > 0
    # the Judge picks Octavio in the list with its keyboard (arrow keys on the list)
    combo.setFocus()
    for _ in range(far - combo.currentIndex()):
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert panel.target_token() == "token-octavio_vaquero"
    # the figures move: Jonah takes a step (a drag)
    start = doc.token(JONAH).at
    to = next(
        n
        for n in (start.neighbor(i) for i in range(6))
        if doc.map.contains(n) and doc.encounter.token_at(n) is None
    )
    vpw = win.map_view.viewport()
    qtbot.mousePress(vpw, L, Qt.KeyboardModifier.NoModifier, _point(win, start))
    qtbot.mouseMove(vpw, _point(win, to))
    qtbot.mouseRelease(vpw, L, Qt.KeyboardModifier.NoModifier, _point(win, to))
    assert doc.token(JONAH).at == to
    assert panel.target_token() == "token-octavio_vaquero"


def test_an_enemy_out_of_sight_is_listed_greyed_saying_why(qtbot, qapp, tmp_path, monkeypatch):
    doc = EncounterDocument.open(maps_dir() / "longhorn_saloon.encounter.json")
    win = judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)
    panel = _panel(qtbot, win)
    dave = doc.token("token-dave_perkins")
    jonah = doc.token(JONAH)
    why = out_of_sight(dave, jonah, Geometry(doc.table))
    assert why is not None and why.startswith("out of sight (")
    _click_token(qtbot, win, "token-dave_perkins")
    combo = panel.target_combo
    at = combo.findData(JONAH)
    assert combo.itemText(at).endswith(f"— {why}")
    assert combo.itemData(at, Qt.ItemDataRole.ForegroundRole) is not None
    assert combo.itemData(at, Qt.ItemDataRole.ToolTipRole) == why
    assert panel.target_token() != JONAH
    target = doc.token(panel.target_token())
    assert out_of_sight(dave, target, Geometry(doc.table)) is None
