"""The map editor in the real window, driven with the mouse: paint, fill, walls,
doors, labels and notes (each undone and redone), save and reopen, resize, copy and
paste a region, the eraser, the properties panel, background import and alignment,
and locked layers."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QMessageBox

from twtw_desktop import io as io_mod
from twtw_desktop.hexgrid import Hex, Orientation
from twtw_desktop.model import edit as ed
from twtw_desktop.model.map import CoverHeight, Material, Terrain
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.editor import install_editor
from twtw_desktop.ui.editor.dialogs import NewMapSpec
from twtw_desktop.ui.window.main_window import MainWindow

L = Qt.MouseButton.LeftButton
SHIFT = Qt.KeyboardModifier.ShiftModifier
NONE = Qt.KeyboardModifier.NoModifier


@pytest.fixture
def dialogs(monkeypatch):
    """Record message boxes instead of showing them."""
    shown: list[tuple[str, str]] = []

    def record(_p, title, text, *a, **k):
        shown.append((title, text))
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "critical", staticmethod(record))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(record))
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    return shown


def _window(qtbot, tmp_path, doc: EncounterDocument) -> MainWindow:
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    win = MainWindow(document=doc, settings=settings)
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def _editor(win):
    from PySide6.QtWidgets import QApplication

    ctl = getattr(win, "editor", None) or install_editor(win)
    ctl.set_mode(True)
    QApplication.processEvents()  # the window's pending zoom-to-fit runs first
    v = win.map_view
    v.set_zoom_k(0)
    v.centerOn(v.map_scene.frame.bounds().center())
    return ctl


@pytest.fixture
def win(qtbot, tmp_path, dialogs):
    doc = EncounterDocument.new(12, 10)
    doc.kind = "map"
    w = _window(qtbot, tmp_path, doc)
    _editor(w)
    return w


def _at(win, h: Hex) -> QPoint:
    v = win.map_view
    return v.mapFromScene(v.map_scene.frame.center(h))


def _pt(win, p) -> QPoint:
    v = win.map_view
    return v.mapFromScene(v.map_scene.frame.to_scene(p))


def _click(qtbot, win, pos: QPoint, mod=NONE) -> None:
    vp = win.map_view.viewport()
    qtbot.mousePress(vp, L, mod, pos)
    qtbot.mouseRelease(vp, L, mod, pos)


def _drag(qtbot, win, points: list[QPoint], mod=NONE) -> None:
    vp = win.map_view.viewport()
    qtbot.mousePress(vp, L, mod, points[0])
    for p in points[1:]:
        qtbot.mouseMove(vp, p)
    qtbot.mouseRelease(vp, L, mod, points[-1])


def _tool(win, name: str):
    win.editor.tool_actions[name].trigger()
    assert win.map_view.tool.name == name
    return win.map_view.tool


def _corner(win, col: int, row: int):
    """Corner 4 of the hex at offset (col, row), in map units."""
    m = win.document.map
    return ed.corner_points(m, m.hex_at(col, row))[4]


def _drag_wall(qtbot, win, row: int, col_a: int, col_b: int):
    """Drag the wall tool from corner 4 of hex (col_a, row) to that of (col_b, row);
    returns the two corners."""
    _tool(win, "ed_wall")
    a, b = _corner(win, col_a, row), _corner(win, col_b, row)
    _drag(qtbot, win, [_pt(win, a), _pt(win, b)])
    return a, b


def _middle(p, q):
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def test_install_adds_menu_toolbar_docks_and_mode(qtbot, tmp_path, dialogs):
    doc = EncounterDocument.new(8, 6)
    w = _window(qtbot, tmp_path, doc)
    ctl = getattr(w, "editor", None) or install_editor(w)
    assert install_editor(w) is ctl  # installing twice gives the same controller
    ctl.set_mode(False)
    titles = [a.text() for a in w.menuBar().actions()]
    assert "&Map" in titles
    assert not ctl.toolbar.isVisible()
    assert not ctl.tool_actions["ed_brush"].isEnabled()
    play = [n for n, d in w.docks.items() if not d.isHidden()]
    assert play  # the play panels (sheet, track…) are up before editing
    ctl.act_edit_mode.trigger()
    assert ctl.mode and ctl.toolbar.isVisible()
    assert all(d.isVisible() for d in ctl.docks.values())
    # the play panels step aside while editing…
    assert all(w.docks[n].isHidden() for n in play)
    assert ctl.act_edit_mode.shortcut().toString() == "Ctrl+E"
    assert ctl.tool_actions["ed_brush"].shortcut().toString() == "B"
    assert w.map_view.tool.name == "ed_region"
    file_actions = [a.objectName() for a in w.file_menu.actions()]
    assert "act_save_map_as" in file_actions and "act_new_map" in file_actions
    ctl.act_edit_mode.trigger()
    assert not ctl.mode and w.map_view.tool.name == "select"
    # … and come back when the editor goes off
    assert not any(w.docks[n].isHidden() for n in play)
    assert not any(d.isVisible() for d in ctl.docks.values())
    # the palette shows each material's AV from the edition
    btn = ctl.palette_widget.material_buttons[Material.ADOBE]
    assert f"AV {doc.edition.cover_av['adobe']}" in btn.text()


def test_brush_drag_is_one_undo_step(win, qtbot):
    doc = win.document
    m = doc.map
    ctl = win.editor
    _tool(win, "ed_brush")
    ctl.palette.set(terrain=Terrain.WATER, brush_size=1)
    n = doc.undo_stack.count()
    path = [m.hex_at(c, 4) for c in range(2, 7)]
    _drag(qtbot, win, [_at(win, h) for h in path])
    assert doc.undo_stack.count() == n + 1
    assert all(m.terrain_at(h) is Terrain.WATER for h in path)
    doc.undo_stack.undo()
    assert all(m.terrain_at(h) is Terrain.OPEN for h in path)
    doc.undo_stack.redo()
    assert all(m.terrain_at(h) is Terrain.WATER for h in path)
    # a bigger brush: size 2 covers the hex and its ring
    ctl.size_actions[2].trigger()
    assert ctl.palette.brush_size == 2
    ctl.palette.set(terrain=Terrain.STAIRS)
    c = m.hex_at(8, 7)
    _click(qtbot, win, _at(win, c))
    assert all(m.terrain_at(h) is Terrain.STAIRS for h in ed.on_map(m, ed.brush(c, 2)))
    assert doc.undo_stack.undoText().startswith("Paint stairs")


def test_flood_rectangle_and_elevation(win, qtbot):
    doc = win.document
    m = doc.map
    ctl = win.editor
    ctl.palette.set(terrain=Terrain.ROUGH)
    _tool(win, "ed_rect")
    _drag(qtbot, win, [_at(win, m.hex_at(1, 1)), _at(win, m.hex_at(3, 2))])
    rect = ed.rect_hexes(m, m.hex_at(1, 1), m.hex_at(3, 2))
    assert all(m.terrain_at(h) is Terrain.ROUGH for h in rect)
    # flood fill the open ground with water: every open hex becomes water, the
    # rough rectangle stays
    ctl.palette.set(terrain=Terrain.WATER)
    _tool(win, "ed_fill")
    n = doc.undo_stack.count()
    _click(qtbot, win, _at(win, m.hex_at(8, 8)))
    assert doc.undo_stack.count() == n + 1
    assert sum(row.count("w") for row in m.terrain) == m.cols * m.rows - len(rect)
    assert all(m.terrain_at(h) is Terrain.ROUGH for h in rect)
    doc.undo_stack.undo()
    assert sum(row.count("w") for row in m.terrain) == 0
    # raise ground with a drag (each hex once per stroke), lower with Shift
    _tool(win, "ed_elevation")
    ctl.palette.set(brush_size=1)
    h = m.hex_at(6, 5)
    _drag(qtbot, win, [_at(win, h), _at(win, m.hex_at(7, 5)), _at(win, h)])
    assert m.elevation_at(h) == 1 and m.elevation_at(m.hex_at(7, 5)) == 1
    _click(qtbot, win, _at(win, h), SHIFT)
    assert m.elevation_at(h) == 0
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert m.elevation is None  # back to a map without an elevation grid


def test_build_a_small_map_with_the_tools_save_and_reopen(win, qtbot, tmp_path, monkeypatch):
    doc = win.document
    m = doc.map
    ctl = win.editor
    # paint a patch of rough ground
    ctl.palette.set(terrain=Terrain.ROUGH, brush_size=1)
    _tool(win, "ed_brush")
    _drag(qtbot, win, [_at(win, m.hex_at(c, 2)) for c in (2, 3, 4)])
    painted = [m.hex_at(c, 2) for c in (2, 3, 4)]
    assert all(m.terrain_at(h) is Terrain.ROUGH for h in painted)

    # a wall along hexsides: click two corners, double-click the last
    ctl.palette.set(material=Material.ADOBE)
    _tool(win, "ed_wall")
    a, b, c = (_corner(win, col, 5) for col in (2, 5, 7))
    n = doc.undo_stack.count()
    _click(qtbot, win, _pt(win, a))
    _click(qtbot, win, _pt(win, b))
    qtbot.mouseDClick(win.map_view.viewport(), L, NONE, _pt(win, c))
    assert doc.undo_stack.count() == n + 1
    walls = [f for f in m.features if f.kind == "wall"]
    assert len(walls) == 1
    wall = walls[0]
    assert wall.material is Material.ADOBE and wall.points[0] == a and wall.points[-1] == c
    for p, q in zip(wall.points, wall.points[1:], strict=False):  # along hexsides
        assert math.dist(p, q) == pytest.approx(round(math.dist(p, q)), abs=1e-4)
    doc.undo_stack.undo()
    assert not m.features
    doc.undo_stack.redo()
    assert [f.id for f in m.features] == [wall.id]

    # a door on one stretch of the wall: it cuts the wall in two
    _tool(win, "ed_door")
    ctl.palette.set(opening_open=False)
    p, q = wall.points[1], wall.points[2]
    near = _middle(p, q)
    _click(qtbot, win, _pt(win, near))
    doors = [f for f in m.features if f.kind == "door"]
    assert len(doors) == 1 and not doors[0].is_open
    assert set(doors[0].points) == {p, q}
    assert len([f for f in m.features if f.kind == "wall"]) == 2
    doc.undo_stack.undo()
    assert [f.kind for f in m.features] == ["wall"] and m.features[0].points == wall.points
    doc.undo_stack.redo()
    assert len(m.features) == 3
    # clicking the door again opens it
    _click(qtbot, win, _pt(win, near))
    assert next(f for f in m.features if f.kind == "door").is_open
    doc.undo_stack.undo()
    assert not next(f for f in m.features if f.kind == "door").is_open

    # a window (glass by default) on a free stretch, Shift+drag off the grid
    _tool(win, "ed_window")
    w0 = (m.layout().hex_to_pixel(m.hex_at(9, 1))[0], 2.0)
    w1 = (w0[0] + 1.3, 2.4)
    _drag(qtbot, win, [_pt(win, w0), _pt(win, w1)], SHIFT)
    windows = [f for f in m.features if f.kind == "window"]
    assert len(windows) == 1 and windows[0].material is Material.GLASS

    # a label and a Judge-only label
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "Livery stable")
    _tool(win, "ed_label")
    _click(qtbot, win, _at(win, m.hex_at(3, 7)))
    assert [x.text for x in m.labels] == ["Livery stable"] and not m.labels[0].judge_only
    ctl.palette.set(judge_only=True)
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "Loot under the floor")
    _click(qtbot, win, _at(win, m.hex_at(8, 8)))
    assert m.labels[1].judge_only
    doc.undo_stack.undo()
    assert len(m.labels) == 1
    doc.undo_stack.redo()
    assert len(m.labels) == 2

    # a Judge note and a trap marker
    _tool(win, "ed_note")
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "The sheriff hides here")
    _click(qtbot, win, _at(win, m.hex_at(6, 3)))
    assert [n.text for n in m.notes] == ["The sheriff hides here"]
    ctl.palette.set(note_kind="trap")
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "Bear trap")
    _click(qtbot, win, _at(win, m.hex_at(7, 3)))
    assert m.markers[0].kind == "trap" and m.markers[0].judge_only
    doc.undo_stack.undo()
    assert not m.markers
    doc.undo_stack.redo()

    # save as a map file, reopen, compare
    target = tmp_path / "stable.map.json"
    assert ctl.save_map_as(target)
    assert doc.path == target and not doc.is_dirty()
    again = io_mod.load_map(target)
    assert again.model_dump() == m.model_dump()
    reopened = EncounterDocument.open(target)
    assert reopened.kind == "map" and reopened.map.model_dump() == m.model_dump()


def test_save_map_as_from_an_encounter_exports_a_copy(win, tmp_path):
    doc = win.document
    doc.kind = "encounter"
    doc.map.set_terrain(doc.map.hex_at(1, 1), Terrain.WATER)
    assert win.editor.save_map_as(tmp_path / "export")  # suffix added
    out = tmp_path / "export.map.json"
    assert io_mod.load_map(out).terrain == doc.map.terrain
    assert doc.path is None  # the encounter itself was not moved


def test_eraser_removes_objects_in_one_stroke_and_clears_ground(win, qtbot, monkeypatch):
    doc = win.document
    m = doc.map
    ctl = win.editor
    _drag_wall(qtbot, win, 4, 3, 6)
    assert len(m.features) == 1
    ctl.palette.set(terrain=Terrain.ROUGH)
    _tool(win, "ed_brush")
    _click(qtbot, win, _at(win, m.hex_at(8, 7)))
    _tool(win, "ed_erase")
    n = doc.undo_stack.count()
    wall = m.features[0].points
    _click(qtbot, win, _pt(win, _middle(wall[0], wall[1])))
    assert not m.features and doc.undo_stack.count() == n + 1
    _click(qtbot, win, _at(win, m.hex_at(8, 7)))
    assert m.terrain_at(m.hex_at(8, 7)) is Terrain.OPEN
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert len(m.features) == 1 and m.terrain_at(m.hex_at(8, 7)) is Terrain.ROUGH


def test_resize_undo_redo_and_tokens(qtbot, tmp_path, dialogs):
    from twtw_desktop.model import Token
    from twtw_desktop.rules.samples import sample_characters

    doc = EncounterDocument.new(12, 10)
    hank = sample_characters()["hank_daggett"]
    doc.encounter.characters.append(hank)
    doc.encounter.tokens.append(
        Token(id="t1", character_id=hank.id, hex=doc.map.hex_at(2, 2).to_list())
    )
    w = _window(qtbot, tmp_path, doc)
    ctl = _editor(w)
    m = doc.map
    m.set_terrain(m.hex_at(1, 1), Terrain.WATER)
    m.set_terrain(m.hex_at(10, 8), Terrain.ROUGH)
    before = m.model_dump()
    assert ctl.resize_map(8, 6)
    assert (m.cols, m.rows) == (8, 6) and w.map_view.map_scene.frame.map.cols == 8
    assert m.terrain_at(m.hex_at(1, 1)) is Terrain.WATER
    doc.undo_stack.undo()
    assert m.model_dump() == before
    doc.undo_stack.redo()
    assert m.cols == 8
    doc.undo_stack.undo()
    # grow with a shift: the token moves with the ground under it
    assert ctl.resize_map(14, 12, (2, 2))
    t = ed.translation(m, 2, 2)
    assert m.terrain_at(m.hex_at(1, 1) + t) is Terrain.WATER
    assert doc.token("t1").at == m.hex_at(2, 2) + t
    doc.undo_stack.undo()
    assert doc.token("t1").at == m.hex_at(2, 2)
    # a token that would fall off refuses the resize and nothing changes
    from twtw_desktop.errors import RulesError

    with pytest.raises(RulesError, match="Hank"):
        ctl.resize_map(2, 2)
    assert m.model_dump() == before


def test_copy_paste_and_move_a_region_with_the_region_tool(win, qtbot, monkeypatch):
    doc = win.document
    m = doc.map
    ctl = win.editor
    for c in (1, 2):
        for r in (1, 2):
            m.set_terrain(m.hex_at(c, r), Terrain.WATER)
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "Pond")
    _tool(win, "ed_note")
    _click(qtbot, win, _at(win, m.hex_at(1, 1)))
    _tool(win, "ed_region")
    _drag(qtbot, win, [_at(win, m.hex_at(1, 1)), _at(win, m.hex_at(2, 2))])
    assert ctl.region == frozenset(ed.rect_hexes(m, m.hex_at(1, 1), m.hex_at(2, 2)))
    win.map_view.setFocus()
    ctl.act_copy.trigger()
    assert ctl.clipboard is not None and len(ctl.clipboard.cells) == 4
    assert len(ctl.clipboard.notes) == 1
    ctl.act_paste.trigger()
    tool = win.map_view.tool
    assert tool.name == "ed_region" and tool.pasting
    n = doc.undo_stack.count()
    qtbot.mouseMove(win.map_view.viewport(), _at(win, m.hex_at(7, 6)))
    _click(qtbot, win, _at(win, m.hex_at(7, 6)))
    assert doc.undo_stack.count() == n + 1
    assert m.terrain_at(m.hex_at(7, 6)) is Terrain.WATER
    assert len(m.notes) == 2 and len({x.id for x in m.notes}) == 2
    doc.undo_stack.undo()
    assert m.terrain_at(m.hex_at(7, 6)) is Terrain.OPEN and len(m.notes) == 1
    doc.undo_stack.redo()
    assert len(m.notes) == 2
    # move the pasted block by dragging inside the selection
    sel = set(ctl.region)
    start = m.hex_at(7, 6)
    assert start in sel
    _drag(qtbot, win, [_at(win, start), _at(win, m.hex_at(8, 6)), _at(win, m.hex_at(9, 6))])
    d = m.hex_at(9, 6) - start
    assert m.terrain_at(start + d) is Terrain.WATER
    assert ctl.region == frozenset(h + d for h in sel if m.contains(h + d))
    # delete the selection
    ctl.act_delete.trigger()
    assert m.terrain_at(start + d) is Terrain.OPEN
    # Esc drops the selection
    ctl.set_region([m.hex_at(0, 0)])
    qtbot.keyClick(win.map_view, Qt.Key.Key_Escape)
    assert not ctl.region


def test_properties_panel_edits_the_selected_feature_with_undo(win, qtbot):
    doc = win.document
    m = doc.map
    ctl = win.editor
    _drag_wall(qtbot, win, 4, 3, 5)
    wall = m.features[0]
    # pick it with the region tool
    _tool(win, "ed_region")
    _click(qtbot, win, _pt(win, _middle(*wall.points[:2])))
    assert ctl.selected_id == wall.id
    panel = ctl.properties_panel
    assert panel.stack.currentIndex() == 1
    i = panel.f_material.findData(Material.BRICK.value)
    panel.f_material.setCurrentIndex(i)
    assert wall.material is Material.BRICK
    panel.f_height.setCurrentIndex(panel.f_height.findData(CoverHeight.LOW.value))
    assert wall.height is CoverHeight.LOW
    panel.f_judge.setChecked(True)
    assert wall.judge_only
    panel.f_name.setText("Bank vault")
    panel.f_name.editingFinished.emit()
    assert wall.name == "Bank vault"
    doc.undo_stack.undo()
    assert wall.name == ""
    doc.undo_stack.undo()
    assert not wall.judge_only
    doc.undo_stack.undo()
    assert wall.height is CoverHeight.FULL
    doc.undo_stack.undo()
    assert wall.material is Material.HARDWOOD  # the palette's default
    # validation: a value the model refuses is reported and changes nothing
    ok, msg = ctl.set_field(wall, "ablation", 99)
    assert not ok and "ablation" in msg and wall.ablation == 0
    # Del removes the selected wall, undo brings it back
    ctl.select_object(wall.id)
    ctl.act_delete.trigger()
    assert not m.features
    doc.undo_stack.undo()
    assert m.features[0].id == wall.id


def test_locked_layers_refuse_edits(win, qtbot):
    doc = win.document
    m = doc.map
    ctl = win.editor
    panel = ctl.layers_panel
    panel.lock_boxes["terrain"].setChecked(True)
    sc = win.map_view.map_scene
    assert sc.layer_locked("terrain")
    _tool(win, "ed_brush")
    ctl.palette.set(terrain=Terrain.WATER)
    n = doc.undo_stack.count()
    _click(qtbot, win, _at(win, m.hex_at(4, 4)))
    assert m.terrain_at(m.hex_at(4, 4)) is Terrain.OPEN and doc.undo_stack.count() == n
    assert "locked" in win.statusBar().currentMessage()
    # region edits change every layer: refused too
    ctl.set_region([m.hex_at(1, 1)])
    assert not ctl.delete_region()
    panel.lock_boxes["terrain"].setChecked(False)
    _click(qtbot, win, _at(win, m.hex_at(4, 4)))
    assert m.terrain_at(m.hex_at(4, 4)) is Terrain.WATER
    # walls locked: the wall tool refuses, doors (objects layer) still work
    panel.lock_boxes["walls"].setChecked(True)
    a, _ = _drag_wall(qtbot, win, 6, 3, 5)
    assert not m.features
    _tool(win, "ed_door")
    _click(qtbot, win, _pt(win, a))
    assert [f.kind for f in m.features] == ["door"]
    # hiding a layer hides its items
    panel.show_boxes["objects"].setChecked(False)
    assert not sc.layer_visible("objects")
    assert not sc.features[m.features[0].id].isVisible()


def _png(path, w=200, h=160):
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(QColor(200, 180, 140))
    assert img.save(str(path))
    return path


def test_background_import_and_two_point_alignment(win, qtbot, tmp_path, monkeypatch):
    doc = win.document
    m = doc.map
    ctl = win.editor
    pics = tmp_path / "pictures"
    pics.mkdir()
    src = _png(pics / "town.png")
    # an unsaved map is saved first (the picture lives beside the map file)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Save)
    )
    folder = tmp_path / "maps"
    folder.mkdir()
    monkeypatch.setattr(
        ctl, "save_map_as", lambda path=None: type(ctl).save_map_as(ctl, folder / "town.map.json")
    )
    assert ctl.import_background(src)
    assert doc.path == folder / "town.map.json"
    bg = m.background
    assert bg is not None and bg.path == "town.png" and (bg.width, bg.height) == (200, 160)
    assert (folder / "town.png").read_bytes() == src.read_bytes()
    assert win.map_view.map_scene.background is not None
    doc.undo_stack.undo()
    assert m.background is None
    doc.undo_stack.redo()
    assert m.background == bg
    # align: two clicks on the picture, then "these are hexes (2,3) and (8,3)"
    ha, hb = m.hex_at(2, 3), m.hex_at(8, 3)
    monkeypatch.setattr(ctl, "ask_alignment", lambda a, b: ("hexes", ha, hb))
    ctl.act_bg_align.trigger()
    assert win.map_view.tool.name == "ed_align"
    pa = ed.image_to_map(bg, 40, 50)
    pb = ed.image_to_map(bg, 160, 50)
    _click(qtbot, win, _pt(win, pa))
    _click(qtbot, win, _pt(win, pb))
    new = m.background
    img_a = ed.map_to_image(bg, *ed.image_to_map(bg, 40, 50))
    lay = m.layout()
    assert ed.image_to_map(new, 40, 50) == pytest.approx(lay.hex_to_pixel(ha), abs=0.05)
    assert ed.image_to_map(new, 160, 50) == pytest.approx(lay.hex_to_pixel(hb), abs=0.05)
    assert img_a == pytest.approx((40, 50), abs=0.5)
    assert win.map_view.tool.name != "ed_align"
    doc.undo_stack.undo()
    assert m.background == bg
    doc.undo_stack.redo()
    # picture settings through the properties panel, validated
    ok, _ = ctl.set_background(opacity=0.5, visible_to_players=False)
    assert ok and m.background.opacity == 0.5 and not m.background.visible_to_players
    ok, msg = ctl.set_background(opacity=3.0)
    assert not ok and "opacity" in msg
    # saved and reopened, the picture reference still works
    assert ctl.save_map_as(folder / "town.map.json")
    io_mod.check_background(
        folder / "town.map.json", io_mod.load_map(folder / "town.map.json").background
    )


def test_background_import_refuses_a_non_picture(win, tmp_path, dialogs):
    doc = win.document
    ctl = win.editor
    assert ctl.save_map_as(tmp_path / "m.map.json")
    bad = tmp_path / "notes.png"
    bad.write_bytes(b"GIF89a" + b"\0" * 40)
    assert not ctl.import_background(bad)
    assert doc.map.background is None
    assert dialogs and "PNG or JPEG" in dialogs[-1][1]


def test_new_map_opens_in_editor_mode(win):
    ctl = win.editor
    doc = ctl.create_map(NewMapSpec("Mesa", 20, 15, Orientation.FLAT, 40.0, 1.0 * 25.4), ask=False)
    assert win.document is doc and doc.kind == "map"
    assert (doc.map.cols, doc.map.rows, doc.map.orientation) == (20, 15, Orientation.FLAT)
    assert doc.map.hex_px == 40.0 and doc.map.name == "Mesa"
    assert ctl.mode and ctl.document is doc


def test_brush_stroke_redraws_only_the_touched_tiles(qtbot, tmp_path, dialogs):
    """On a 200×200 map a brush stroke drops one or two cached tiles, not the view."""
    doc = EncounterDocument.new(200, 200)
    doc.kind = "map"
    w = _window(qtbot, tmp_path, doc)
    ctl = _editor(w)
    v = w.map_view
    v.centerOn(v.map_scene.frame.center(doc.map.hex_at(100, 100)))
    v.viewport().repaint()
    grid = v.map_scene.grid
    cached = grid.cached_tiles
    assert cached >= 4
    ctl.palette.set(terrain=Terrain.WATER)
    _tool(w, "ed_brush")
    _click(qtbot, w, _at(w, doc.map.hex_at(100, 100)))
    assert doc.map.terrain_at(doc.map.hex_at(100, 100)) is Terrain.WATER
    assert cached - grid.cached_tiles <= 4
    rendered = grid.tiles_rendered
    v.viewport().repaint()
    assert grid.tiles_rendered - rendered <= 4


def test_label_drag_is_one_undo_step_and_cliffs_are_climb_terrain(win, qtbot, monkeypatch):
    """Cliff faces are painted as climb terrain (code "c"; 000 Movement AP Cost: a
    wall or cliff face to climb is +2 AP per pace), ladders as "l", stairs as "s"."""
    doc = win.document
    m = doc.map
    ctl = win.editor
    _tool(win, "ed_brush")
    for t, col in ((Terrain.CLIMB, 1), (Terrain.LADDER, 2), (Terrain.STAIRS, 3)):
        ctl.palette.set(terrain=t, brush_size=1)
        _click(qtbot, win, _at(win, m.hex_at(col, 8)))
    assert m.terrain[8][1:4] == "cls"
    monkeypatch.setattr(ctl, "ask_text", lambda *a, **k: "Gulch")
    _tool(win, "ed_label")
    _click(qtbot, win, _at(win, m.hex_at(5, 5)))
    lab = m.labels[0]
    start = lab.at
    n = doc.undo_stack.count()
    _drag(
        qtbot, win, [_at(win, m.hex_at(5, 5)), _at(win, m.hex_at(6, 5)), _at(win, m.hex_at(8, 6))]
    )
    assert doc.undo_stack.count() == n + 1
    assert lab.at != start
    doc.undo_stack.undo()
    assert lab.at == start


def test_closing_while_editing_brings_the_play_panels_back(qtbot, tmp_path, dialogs):
    doc = EncounterDocument.new(8, 6)
    w = _window(qtbot, tmp_path, doc)
    ctl = _editor(w)
    play = list(w.docks)
    assert all(w.docks[n].isHidden() for n in play)
    w.close()
    assert not ctl.mode
    assert not any(w.docks[n].isHidden() for n in play)


def test_a_new_map_before_the_window_shows_still_makes_room(qtbot, tmp_path, dialogs):
    settings = AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    ctl = getattr(w, "editor", None) or install_editor(w)
    ctl.create_map(NewMapSpec("Early", 10, 8, Orientation.POINTY, 32.0, 25.4), ask=False)
    w.show()
    qtbot.waitExposed(w)
    assert ctl.mode and all(d.isHidden() for d in w.docks.values())
    assert ctl.docks["dock_editor_palette"].isVisible()
