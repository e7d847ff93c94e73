"""The map view's scene: coordinates through the layout, the tiled grid painter, the
feature and token items, zoom anchoring."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform, QWheelEvent
from PySide6.QtWidgets import QApplication

from twtw_desktop.hexgrid import Orientation
from twtw_desktop.model import Encounter, Feature, Map, Token
from twtw_desktop.play.clock_actions import EndSegment, StartRound
from twtw_desktop.rules.character import Posture
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.ui.core.commands import ChangeValueCommand
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.scene.frame import MapFrame
from twtw_desktop.ui.scene.grid_painter import TILE, GridPainter, bucket_scale
from twtw_desktop.ui.scene.map_items import FeatureItem
from twtw_desktop.ui.scene.map_view import MapView
from twtw_desktop.ui.scene.token_item import BADGE_FONT, BADGE_MIN_PX, TokenItem, badges_for


def _doc(orientation=Orientation.POINTY, cols=14, rows=10) -> EncounterDocument:
    m = Map.blank(cols, rows, orientation)
    m.set_terrain(m.hex_at(3, 3), "water")
    m.features = [
        Feature(id="w1", kind="wall", points=[(0.0, 0.0), (6.0, 0.0)], material="adobe"),
        Feature(id="g1", kind="window", points=[(8.0, 3.0), (8.0, 5.0)], material="glass"),
    ]
    hank = sample_characters()["hank_daggett"]
    enc = Encounter(
        map=m, characters=[hank], tokens=[Token(id="t1", character_id=hank.id, hex=(4, 4))]
    )
    return EncounterDocument(enc)


@pytest.mark.parametrize("orientation", [Orientation.POINTY, Orientation.FLAT])
def test_frame_round_trips_hexes_and_knows_the_outline(qapp, orientation):
    m = Map.blank(9, 7, orientation)
    fr = MapFrame(m)
    path = fr.outline()
    b = fr.bounds()
    nudge = QPointF(0.5, 0.37)  # off the vertices' rows, where ray casting is exact
    for h in m.hexes():
        c = fr.center(h)
        assert fr.hex_at(c) == h
        assert b.contains(c) and path.contains(c + nudge)
    outside = m.hex_at(9, 3)
    assert not m.contains(outside) and not path.contains(fr.center(outside) + nudge)


def test_tiles_are_cached_and_only_touched_tiles_are_redrawn(qapp):
    doc = _doc(cols=60, rows=40)
    gp = GridPainter(MapFrame(doc.map))
    img = QImage(1200, 900, QImage.Format.Format_ARGB32_Premultiplied)

    def paint():
        p = QPainter(img)
        p.setWorldTransform(QTransform.fromScale(1.0, 1.0))
        gp.paint(p, QRectF(0, 0, 1200, 900))
        p.end()

    paint()
    first = gp.tiles_rendered
    assert first == gp.cached_tiles > 1
    paint()
    assert gp.tiles_rendered == first  # all from the cache
    h = gp.frame.hex_at(gp.frame.center(doc.map.hex_at(2, 2)))
    gp.invalidate([h])
    assert 0 < first - gp.cached_tiles < first
    paint()
    assert gp.tiles_rendered > first
    assert TILE == 512 and bucket_scale(4) == pytest.approx(2.0)


@pytest.mark.parametrize("orientation", [Orientation.POINTY, Orientation.FLAT])
def test_far_zoom_ground_image_matches_the_hexes(qapp, orientation):
    """The far-zoom image samples each point's hex through the layout: the pixel at a
    water hex's centre is water-coloured, an open hex's is ground-coloured."""
    from twtw_desktop.ui.scene import style

    m = Map.blank(30, 20, orientation)
    wet = m.hex_at(7, 5)
    m.set_terrain(wet, "water")
    gp = GridPainter(MapFrame(m))
    img, target = gp._ground_image()
    fr = gp.frame

    def colour_at(h):
        c = fr.center(h)
        x = int((c.x() - target.left()) / target.width() * img.width())
        y = int((c.y() - target.top()) / target.height() * img.height())
        return img.pixelColor(x, y)

    assert colour_at(wet) == style.terrain_colour(m.terrain_at(wet))
    assert colour_at(m.hex_at(8, 5)) == style.GROUND
    assert target.contains(fr.bounds().center())


def test_feature_item_shows_material_and_av(qapp):
    doc = _doc()
    fr = MapFrame(doc.map)
    wall = doc.map.feature("w1")
    it = FeatureItem(wall, fr, doc.cover_av())
    assert "adobe" in it.toolTip() and "AV 4" in it.toolTip()
    wall.ablation = 1
    it.refresh(wall)
    assert "AV 3" in it.toolTip() and "shot down from 4" in it.toolTip()
    glass = FeatureItem(doc.map.feature("g1"), fr, doc.cover_av())
    assert "Window (closed) of glass" in glass.toolTip() and "AV 1" in glass.toolTip()


def test_token_badges_follow_the_sheet(qapp):
    doc = _doc()
    tok = doc.token("t1")
    ch = doc.character(tok.character_id)
    assert badges_for(tok, ch) == []
    tok.posture = Posture.PRONE
    tok.running = True
    ch.stunned = True
    letters = [b[0] for b in badges_for(tok, ch)]
    assert letters == ["P", "S", "R"]
    ch.wounds = {"left_leg": 2}
    it = TokenItem(tok, ch, MapFrame(doc.map))
    assert it.wound_level == 2 and "wound level 2" in it.toolTip()


def test_scene_follows_the_document(qtbot):
    doc = _doc()
    view = MapView(doc)
    qtbot.addWidget(view)
    sc = view.map_scene
    doc.select("t1")
    assert sc.tokens["t1"].selected
    ch = doc.character("hank_daggett")
    doc.push(ChangeValueCommand(doc, ch, "stunned", True, "characters"))
    assert [b[0] for b in sc.tokens["t1"].badges] == ["S"]
    door = doc.map.feature("g1")
    doc.push(ChangeValueCommand(doc, door, "is_open", True, "map"))
    assert sc.features["g1"].feature.is_open and "(open)" in sc.features["g1"].toolTip()
    doc.undo_stack.undo()
    assert "(closed)" in sc.features["g1"].toolTip()


def test_zoom_keeps_the_point_under_the_mouse(qtbot):
    doc = _doc(cols=60, rows=40)
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    qtbot.waitExposed(view)
    view.set_zoom_k(0)
    anchor = QPoint(600, 150)
    before = view.mapToScene(anchor)
    view.zoom_in(anchor)
    view.zoom_in(anchor)
    after = view.mapToScene(anchor)
    assert abs(before.x() - after.x()) < 2 and abs(before.y() - after.y()) < 2
    assert view.zoom == pytest.approx(bucket_scale(2))
    view.zoom_fit()
    b = view.map_scene.frame.bounds()
    vis = view.mapToScene(view.viewport().rect()).boundingRect()
    assert vis.contains(b)


def test_flat_maps_draw_and_hover(qtbot):
    doc = _doc(Orientation.FLAT)
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(640, 480)
    view.show()
    qtbot.waitExposed(view)
    img = view.grab().toImage()
    assert img.width() == 640
    seen = []
    view.hexHovered.connect(seen.append)
    h = doc.token("t1").at
    qtbot.mouseMove(view.viewport(), view.mapFromScene(view.map_scene.frame.center(h)))
    assert seen and seen[-1] == h


def test_background_image_notes_and_markers(qtbot, tmp_path):
    from twtw_desktop.model import BackgroundImage, Label, Marker, Note

    img = QImage(20, 10, QImage.Format.Format_RGB32)
    img.fill(0xFF336699)
    img.save(str(tmp_path / "bg.png"))
    m = Map.blank(8, 6)
    m.background = BackgroundImage(path="bg.png", width=20, height=10, scale=0.5)
    m.labels = [Label(id="l1", at=(3.0, 2.0), text="Main Street")]
    m.notes = [Note(id="n1", hex=(1, 1), text="The sheriff hides here")]
    m.markers = [Marker(id="m1", hex=(2, 2), kind="trap", text="Bear trap")]
    doc = EncounterDocument(Encounter(map=m), path=tmp_path / "x.encounter.json")
    view = MapView(doc)
    qtbot.addWidget(view)
    sc = view.map_scene
    assert sc.background is not None and sc.grid.transparent_ground
    assert sc.background_rect().width() == pytest.approx(20 * 0.5 * m.hex_px)
    assert "sheriff" in sc.others["n1"].toolTip()
    assert sc.others["m1"].toolTip().startswith("Trap")
    assert sc.others["l1"].label.text == "Main Street"
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    assert not view.grab().isNull()


def _wheel(widget, notches: int) -> None:
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(
        pos,
        QPointF(widget.mapToGlobal(pos.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, ev)


def test_the_ap_badge_drops_its_figure_where_it_could_not_be_read(qtbot):
    """Zoomed out until the figure would be under BADGE_MIN_PX on screen, the badge
    shows without it (it is neither set nor drawn); zoomed back in it shows the
    count of now, also one that changed meanwhile."""
    doc = _doc()
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    doc.start_action_time()
    doc.apply(StartRound())
    while doc.track.counters("hank_daggett") < 2:
        doc.apply(EndSegment())
    badge = view.map_scene.tokens["t1"].ap_badge
    shown = str(doc.track.counters("hank_daggett"))
    assert badge.isVisible() and badge.label.isVisible() and badge.label.text() == shown
    unit = view.map_scene.frame.unit
    while view.zoom * BADGE_FONT * unit >= BADGE_MIN_PX:
        _wheel(view.viewport(), -1)
    assert badge.isVisible() and not badge.label.isVisible()
    doc.apply(EndSegment())
    assert doc.track.counters("hank_daggett") != int(shown)
    assert badge.label.text() == shown  # not set while it cannot be read
    while view.zoom * BADGE_FONT * unit < BADGE_MIN_PX:
        _wheel(view.viewport(), 1)
    assert badge.label.isVisible()
    assert badge.label.text() == str(doc.track.counters("hank_daggett"))


def test_a_badge_too_small_to_read_asks_for_no_repaint_when_its_count_changes(qtbot):
    """Zoomed out before the round (the 200-token map's whole view), the badges come
    without their figures; a segment that changes every count then leaves the map as
    it was: nothing of it is painted again (each badge's figure had been hidden only
    once its count first changed, a repaint at every such token)."""
    doc = _doc()
    view = MapView(doc)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    unit = view.map_scene.frame.unit
    while view.zoom * BADGE_FONT * unit >= BADGE_MIN_PX:
        _wheel(view.viewport(), -1)
    doc.start_action_time()
    doc.apply(StartRound())
    while doc.track.counters("hank_daggett") < 1:
        doc.apply(EndSegment())
    QApplication.processEvents()
    badge = view.map_scene.tokens["t1"].ap_badge
    assert badge.isVisible() and not badge.label.isVisible()
    painted: list = []
    view.map_scene.changed.connect(
        lambda rects: painted.extend(r for r in rects if not r.isEmpty())
    )
    before = doc.track.counters("hank_daggett")
    for _ in range(2):
        doc.apply(EndSegment())
        QApplication.processEvents()
    assert doc.track.counters("hank_daggett") != before
    assert painted == []
    assert badge.isVisible() and not badge.label.isVisible()
