"""The players' screen (issue 8): a second window showing only what the posse may see.

Driven offscreen through the real Judge's window: Judge-only content never reaches
the players' view (its items, and a rendered image), the fog follows the posse, the
camera follows the Judge, pushes arrive and clear, and closing either window leaves
the other consistent.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QPointF, QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.hexgrid import Hex
from twtw_desktop.model import Encounter, Feature, Map, Token
from twtw_desktop.model.map import Label, Marker, Note
from twtw_desktop.play.public_clock import headline
from twtw_desktop.rules.samples import sample_characters
from twtw_desktop.ui.core.commands import ChangeValueCommand, MoveTokenCommand, SnapshotCommand
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.players import install_players_screen
from twtw_desktop.ui.players.controller import screen_id
from twtw_desktop.ui.players.fog import REMEMBERED, SEEN, UNKNOWN
from twtw_desktop.ui.players.view import Caption, FocusRing
from twtw_desktop.ui.scene.map_items import FeatureItem, LabelItem, MarkerItem
from twtw_desktop.ui.scene.overlays import ThrowItem
from twtw_desktop.ui.scene.token_item import TokenItem
from twtw_desktop.ui.tools.cover import CoverLineItem
from twtw_desktop.ui.window.main_window import MainWindow

SQ3 = math.sqrt(3.0)
#: the long east-west wall sits between rows 6 and 7 (map units, pointy hexes)
WALL_Y = 1.5 * 6.5


def _at(m: Map, col: int, row: int) -> tuple[int, int]:
    h = m.hex_at(col, row)
    return (h.q, h.r)


def _chars():
    cs = sample_characters()
    return cs["miranda_valentine"], cs["hank_daggett"], cs["angus_laroq"], cs["felicia_laroq"]


def make_doc(*, secrets: bool = True) -> EncounterDocument:
    """A 20×14 map cut in two by a wall (a gap at its east end), two of the posse in
    the north half, an hombre in the south half; with ``secrets`` also a hidden
    hombre, a Judge note, a trap marker, a Judge-only label and a secret wall."""
    m = Map.blank(20, 14)
    m.features = [Feature(id="wall", points=[(-1.0, WALL_Y), (28.0, WALL_Y)], material="brick")]
    m.labels = [Label(id="town", at=(3.0, 2.0), text="Main Street")]
    m.markers = [Marker(id="goal", hex=_at(m, 15, 2), kind="objective", judge_only=False)]
    miranda, hank, angus, felicia = _chars()
    chars = [miranda, hank, angus]
    tokens = [
        Token(id="t-miranda", character_id=miranda.id, hex=_at(m, 4, 3)),
        Token(id="t-hank", character_id=hank.id, hex=_at(m, 8, 4)),
        Token(id="t-angus", character_id=angus.id, hex=_at(m, 6, 10)),
    ]
    if secrets:
        m.features.append(
            Feature(
                id="secret", points=[(12.0, 3.0), (16.0, 3.0)], material="adobe", judge_only=True
            )
        )
        m.labels.append(
            Label(id="gold", at=(10.0, 4.0), text="Gold under the floor", judge_only=True)
        )
        m.notes = [Note(id="note", hex=_at(m, 12, 5), text="The sheriff is bribed")]
        m.markers.append(Marker(id="trap", hex=_at(m, 14, 5), kind="trap"))
        chars.append(felicia)
        tokens.append(
            Token(id="t-felicia", character_id=felicia.id, hex=_at(m, 10, 2), hidden=True)
        )
    return EncounterDocument(Encounter(map=m, characters=chars, tokens=tokens))


@pytest.fixture
def settings(tmp_path):
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def answers(monkeypatch):
    """Dialogs answer without showing; ``answers["save"]`` is what "Save changes?"
    gets (Discard unless a test changes it)."""
    state = {"save": QMessageBox.StandardButton.Discard, "shown": []}
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: state["save"]))
    for name in ("critical", "information", "warning"):
        monkeypatch.setattr(
            QMessageBox, name, staticmethod(lambda *a, **k: state["shown"].append(a))
        )
    return state


@pytest.fixture
def win(qtbot, settings, answers):
    w = MainWindow(document=make_doc(), settings=settings)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    return w


def controller(win):
    return getattr(win, "players_screen", None) or install_players_screen(win)


def open_players(qtbot, win, w: int = 1000, h: int = 640):
    """Open the players' window (not registered with qtbot: closing the Judge's
    window at teardown closes and deletes it)."""
    ctl = controller(win)
    pw = ctl.open()
    pw.resize(w, h)
    qtbot.waitExposed(pw)
    return ctl, pw


def render(view) -> QImage:
    return view.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32)


# -- Judge-only content ------------------------------------------------------------------


def test_players_view_has_no_items_for_judge_only_content(qtbot, win):
    """Hidden tokens, notes, the trap marker, a Judge-only label and a secret wall
    get no item at all on the players' view; tokens carry no stat tooltip."""
    _ctl, pw = open_players(qtbot, win)
    sc = pw.view.map_scene
    assert sc.public
    assert set(sc.tokens) == {"t-miranda", "t-hank", "t-angus"}
    assert set(sc.features) == {"wall"}
    assert set(sc.others) == {"town", "goal"}
    items = sc.items()
    assert not [it for it in items if isinstance(it, TokenItem) and it.token_id == "t-felicia"]
    markers = [it for it in items if isinstance(it, MarkerItem)]
    assert len(markers) == 1  # the public objective only
    assert len([it for it in items if isinstance(it, LabelItem)]) == 1
    assert len([it for it in items if isinstance(it, FeatureItem)]) == 1
    for it in sc.tokens.values():
        assert it.look.public and it.toolTip() == ""
    # the Judge's own view still has all of it
    judge = win.map_view.map_scene
    assert "t-felicia" in judge.tokens and "note" in judge.others and "secret" in judge.features
    assert "Conc" in judge.tokens["t-miranda"].toolTip()


def test_hiding_a_token_takes_it_off_the_players_view_at_once(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    doc = win.document
    doc.push(ChangeValueCommand(doc, doc.token("t-angus"), "hidden", True, "tokens"))
    assert "t-angus" not in pw.view.map_scene.tokens
    assert "t-angus" not in pw.view.shown_token_ids()
    doc.undo_stack.undo()
    assert "t-angus" in pw.view.shown_token_ids()
    assert pw.view.map_scene.tokens["t-angus"].toolTip() == ""


def test_rendered_players_view_shows_nothing_of_the_secrets(qtbot, win):
    """The players' view of the encounter renders pixel for pixel like the same
    encounter with every secret deleted, while the Judge's render differs."""
    ctl, pw = open_players(qtbot, win, 900, 600)
    ctl.set_camera("fit_map")
    pw.show_push("clear", None)
    with_secrets = render(pw.view)
    # the render is the map: Miranda's disc is there in the posse's blue, and where
    # the hidden Felicia stands there is no hombre red
    v, doc = pw.view, win.document
    at = lambda tid: v.mapFromScene(v.map_scene.frame.center(doc.token(tid).at))  # noqa: E731
    blue = with_secrets.pixelColor(at("t-miranda"))
    assert blue.blue() > blue.red() + 60
    ground = with_secrets.pixelColor(at("t-felicia"))
    assert abs(ground.red() - ground.green()) < 40  # parchment, not red
    # the same encounter with the secrets deleted, through the same window
    win.set_document(make_doc(secrets=False))
    assert pw.view.document is win.document
    ctl.set_camera("fit_map")
    without = render(pw.view)
    assert with_secrets.size() == without.size()
    assert with_secrets == without
    # sanity: the Judge's scene of the two documents does differ (the test can fail)
    judge_doc = make_doc()
    from twtw_desktop.ui.scene.map_scene import MapScene

    a = MapScene(judge_doc)
    b = MapScene(make_doc(secrets=False))

    def scene_image(sc):
        img = QImage(600, 420, QImage.Format.Format_ARGB32)
        img.fill(0)
        from PySide6.QtGui import QPainter

        p = QPainter(img)
        sc.render(p, source=sc.frame.bounds())
        p.end()
        return img

    assert scene_image(a) != scene_image(b)


# -- fog ---------------------------------------------------------------------------------


def test_fog_changes_when_a_posse_token_moves(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    ctl.set_fog(True)
    view = pw.view
    doc = win.document
    view.refresh_now()
    m = doc.map
    north = view.fog_item.states.copy()
    # the posse stands north of the wall: the north is seen, the south unknown
    assert north[2, 4] == SEEN
    assert north[11, 6] == UNKNOWN
    assert view.fog_item.isVisible()
    # Angus stands south of the wall: off the players' view under the fog
    assert "t-angus" not in view.shown_token_ids()
    assert not view.map_scene.tokens["t-angus"].isVisible()
    computed = view.fog.computed
    # Miranda walks round the end of the wall into the south half
    doc.push(MoveTokenCommand(doc, "t-miranda", m.hex_at(8, 11)))
    view.refresh_now()
    south = view.fog_item.states.copy()
    assert not np.array_equal(north, south)
    assert south[11, 6] == SEEN
    assert view.fog.computed == computed + 1  # Hank's sight came from the cache
    assert "t-angus" in view.shown_token_ids() and view.map_scene.tokens["t-angus"].isVisible()
    # Hank follows her: the north-west corner is no longer seen, only remembered
    doc.push(MoveTokenCommand(doc, "t-hank", m.hex_at(9, 12)))
    view.refresh_now()
    states = view.fog_item.states
    assert north[2, 4] == SEEN and states[2, 4] == REMEMBERED
    remembered = np.argwhere(states == REMEMBERED)
    assert len(remembered) > 20
    assert all(north[r, c] == SEEN for r, c in remembered)
    # forgetting darkens them fully again
    ctl.forget()
    assert view.fog_item.states[2, 4] == UNKNOWN
    assert not (view.fog_item.states == REMEMBERED).any()


def test_fog_drawing_darkens_unseen_hexes_on_the_image(qtbot, win):
    ctl, pw = open_players(qtbot, win, 900, 600)
    ctl.set_camera("fit_map")
    view = pw.view
    fr = view.map_scene.frame
    doc = win.document
    seen_pt = view.mapFromScene(fr.center(doc.map.hex_at(3, 2)))
    dark_pt = view.mapFromScene(fr.center(doc.map.hex_at(16, 12)))
    before = render(view)
    ctl.set_fog(True)
    view.refresh_now()
    after = render(view)
    lum = lambda img, p: QColorLum(img.pixelColor(p))  # noqa: E731
    assert abs(lum(after, seen_pt) - lum(before, seen_pt)) < 8
    assert lum(after, dark_pt) < lum(before, dark_pt) - 100


def QColorLum(c) -> float:
    return 0.3 * c.red() + 0.59 * c.green() + 0.11 * c.blue()


# -- camera ------------------------------------------------------------------------------


def test_follow_camera_tracks_the_judge_view(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    # the players' camera is its own unless the Judge chooses to be followed
    assert pw.view.camera == "fit_posse"
    ctl.set_camera("follow")
    jv, pv = win.map_view, pw.view
    jv.set_zoom_k(0)
    fr = jv.map_scene.frame
    for col, row in ((5, 4), (14, 9)):
        jv.center_on_hex(win.document.map.hex_at(col, row))
        jr, pr = jv.visible_scene_rect(), pv.visible_scene_rect()
        d = jr.center() - pr.center()
        assert math.hypot(d.x(), d.y()) < fr.hex_width
        assert pr.width() >= jr.width() * 0.98 or pr.height() >= jr.height() * 0.98
    before = pv.scale_factor()
    jv.zoom_in()
    assert pv.scale_factor() > before
    # a locked camera stays put
    ctl.set_camera("lock")
    still = pv.visible_scene_rect()
    jv.center_on_hex(win.document.map.hex_at(3, 3))
    assert pv.visible_scene_rect() == still
    ctl.set_camera("fit_map")
    assert pv.visible_scene_rect().contains(fr.bounds().adjusted(4, 4, -4, -4))


def test_show_this_centres_the_players_screen_on_the_selection(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    doc = win.document
    win.map_view.set_zoom_k(4)  # the players' screen follows, zoomed in
    win.map_view.center_on_hex(doc.map.hex_at(16, 11))
    doc.select("t-hank")
    ctl.act_show_this.trigger()
    v = pw.view
    assert v.camera == "lock" and ctl.camera_actions["lock"].isChecked()
    assert isinstance(v.pushed["focus"][0], FocusRing)
    c = v.visible_scene_rect().center()
    t = v.map_scene.frame.center(doc.token("t-hank").at)
    assert math.hypot(c.x() - t.x(), c.y() - t.y()) < v.map_scene.frame.hex_width
    # a hidden token is never pointed at
    ctl.clear()
    doc.push(ChangeValueCommand(doc, doc.token("t-hank"), "hidden", True, "tokens"))
    assert ctl.show_this() is False
    assert "focus" not in v.pushed
    doc.show_players("focus", "t-hank")
    assert "focus" not in v.pushed


# -- pushes ------------------------------------------------------------------------------


def test_card_cover_line_and_scatter_are_pushed_and_cleared(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    doc = win.document
    doc.push(SnapshotCommand(doc, "draw", lambda: doc.deck.draw(), {"deck"}))
    assert ctl.show_last_card()
    card = doc.deck.last_cards(1)[-1]
    assert pw.card_panel.isVisible() and pw.card_panel.card is card
    assert pw.card_panel.card_view.card() is card
    # the cover tool's own "Show players" action pushes its last line
    tool = win.map_view.tools()["cover"]
    assert not tool.show_players_action.isEnabled()
    a, b = doc.token("t-miranda").at, doc.token("t-hank").at
    tool.show_line(a, b)
    assert tool.show_players_action.isEnabled()
    tool.show_players_action.trigger()
    items = pw.view.pushed["cover_line"]
    assert isinstance(items[0], CoverLineItem) and items[0].public
    assert isinstance(items[1], Caption) and "paces" in items[1].text
    # a scatter clock, read from the log's throw when the hexes match
    m = doc.map
    thrower, target, landing = m.hex_at(4, 3), m.hex_at(8, 3), m.hex_at(9, 2)
    doc.log(
        "a throw",
        "throw",
        {
            "thrower": [thrower.q, thrower.r],
            "target": [target.q, target.r],
            "landing": [landing.q, landing.r],
            "hit": False,
            "hour": 2,
            "path": [[landing.q, landing.r]],
            "scatter_reasons": ["card 7: hour 2"],
        },
    )
    assert ctl.show_last_scatter()
    (clock,) = pw.view.pushed["scatter"]
    assert isinstance(clock, ThrowItem) and clock.hour == 2 and clock.toolTip() == ""
    ctl.act_clear.trigger()
    assert not pw.card_panel.isVisible()
    assert pw.view.pushed == {}
    assert not [
        it
        for it in pw.view.map_scene.items()
        if isinstance(it, (CoverLineItem, ThrowItem, Caption, FocusRing))
    ]


def test_a_pushed_cover_line_never_marks_a_secret_wall(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    doc = win.document
    m = doc.map
    # from (8, 1) to Hank at (8, 4) the line crosses the secret wall (x 12–16, y 3)
    shooter, target = m.hex_at(8, 1), m.hex_at(8, 4)
    doc.show_players("cover_line", (shooter, target))
    line = pw.view.pushed["cover_line"][0]
    assert any(c.feature_id == "secret" for c in line.cl.crossings)
    assert all(c.feature_id != "secret" for _p, c in line._marks)
    judge_line = CoverLineItem(doc, win.map_view.map_scene.frame, line.cl)
    assert any(c.feature_id == "secret" for _p, c in judge_line._marks)


def test_pushes_without_a_players_screen_are_harmless(qtbot, win):
    ctl = controller(win)
    win.document.show_players("card", None)
    win.document.show_players("focus", Hex(0, 0))
    assert ctl.show_this() is False
    assert not ctl.is_open


# -- the strip ---------------------------------------------------------------------------


def test_the_strip_shows_the_round_segment_and_only_the_public_track(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    doc = win.document
    assert pw.strip.content.headline == "Narrative time"
    doc.start_action_time()

    def go():
        doc.track.start_round()
        for _ in range(20):
            doc.track.advance_segment()
            if doc.track.counters("angus_laroq") and doc.track.counters("miranda_valentine"):
                break

    doc.push(SnapshotCommand(doc, "round", go, {"track", "deck"}))
    pw.refresh_strip()
    seg = doc.track.state.segment
    text = pw.strip.content.text()
    assert pw.strip.content.headline == f"Round 1 · Segment {seg}"
    # one wording of the clock: the strip's headline is the devices' pages' one
    assert pw.strip.content.headline == headline(doc)
    names = {e.name for e in pw.strip.content.entries}
    assert {"Miranda Valentine", "Hank Daggett"} <= names
    # the hombres' counters are not public; Felicia is hidden from the players
    assert "Angus" not in text and "Felicia" not in text
    miranda = next(e for e in pw.strip.content.entries if e.name == "Miranda Valentine")
    assert miranda.text == "●" * doc.track.counters("miranda_valentine")
    # once Angus declares on this segment, the table hears it
    from twtw_desktop.rules import actions as A

    doc.push(
        SnapshotCommand(doc, "duck", lambda: doc.track.declare("angus_laroq", A.duck()), {"track"})
    )
    pw.refresh_strip()
    angus = next(e for e in pw.strip.content.entries if e.name == "Angus Laroq")
    assert angus.now and "duck" in angus.text
    assert pw.strip.text_px >= 22


# -- windows -----------------------------------------------------------------------------


def test_closing_the_players_window_leaves_the_judge_window_working(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    ctl.set_fog(True)
    pw.view.refresh_now()
    seen = ctl.remembered.hexes(win.document.map)
    assert seen and ctl.act_toggle.isChecked()
    pw.close()
    assert ctl.players_window is None and not ctl.act_toggle.isChecked()
    assert win.isVisible()
    # the Judge keeps playing; nothing reaches the closed window
    doc = win.document
    doc.push(MoveTokenCommand(doc, "t-hank", doc.map.hex_at(9, 4)))
    doc.show_players("focus", "t-hank")
    win.map_view.zoom_in()
    qtbot.wait(150)  # let any stale timer fire
    # F12 opens it again, with the fog it remembered
    ctl.act_toggle.trigger()
    pw2 = ctl.players_window
    assert pw2 is not None and pw2 is not pw
    assert seen <= pw2.view.fog.memory.hexes(win.document.map)
    ctl.act_toggle.trigger()
    assert ctl.players_window is None and win.isVisible()


def test_closing_the_judge_window_closes_the_players_window(qtbot, win, answers):
    ctl, pw = open_players(qtbot, win)
    win.document.push(MoveTokenCommand(win.document, "t-hank", win.document.map.hex_at(9, 4)))
    # "Save changes?" → Cancel: both windows stay
    answers["save"] = QMessageBox.StandardButton.Cancel
    assert not win.close()
    assert win.isVisible() and ctl.players_window is pw and pw.isVisible()
    # Discard: the Judge's window closes and takes the players' window with it
    answers["save"] = QMessageBox.StandardButton.Discard
    assert win.close()
    assert ctl.players_window is None and not pw.isVisible()


def test_closing_the_players_window_does_not_close_the_judge_window(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    assert pw.close()
    assert win.isVisible() and not ctl.is_open


def test_a_hidden_judge_window_closing_still_closes_the_players_window(qtbot, settings, answers):
    w = MainWindow(document=make_doc(), settings=settings)
    qtbot.addWidget(w)
    ctl, pw = open_players(qtbot, w)  # the Judge's window was never shown
    assert w.close()
    qtbot.waitUntil(lambda: not ctl.is_open)
    assert not pw.isVisible()


def test_a_new_document_re_attaches_and_forgets_the_fog(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    ctl.set_fog(True)
    pw.view.refresh_now()
    assert ctl.remembered.mask.any()
    new = make_doc(secrets=False)
    win.set_document(new)
    assert pw.view.document is new and pw.document is new
    assert pw.view.map_scene.document is new
    pw.view.refresh_now()
    assert pw.view.fog.memory is ctl.remembered
    # pushes come from the new document, not the old one
    new.show_players("focus", "t-hank")
    assert "focus" in pw.view.pushed


# -- tokens' look --------------------------------------------------------------------------


def test_wound_badges_only_as_the_judge_chooses(qtbot, win):
    ctl, pw = open_players(qtbot, win)
    doc = win.document
    for cid in ("miranda_valentine", "angus_laroq"):
        doc.push(
            ChangeValueCommand(doc, doc.character(cid), "wounds", {"left_leg": 2}, "characters")
        )
        doc.push(ChangeValueCommand(doc, doc.character(cid), "stunned", True, "characters"))
    toks = pw.view.map_scene.tokens
    # default: the posse's own conditions only
    assert toks["t-miranda"].shows_conditions()
    assert [b[1] for b in toks["t-miranda"].visible_badges()] == ["stunned"]
    assert not toks["t-angus"].shows_conditions() and toks["t-angus"].visible_badges() == []
    ctl.set_conditions("all")
    assert pw.view.map_scene.tokens["t-angus"].shows_conditions()
    ctl.set_conditions("none")
    assert not pw.view.map_scene.tokens["t-miranda"].shows_conditions()
    ctl.set_names(False)
    assert not toks["t-angus"].shows_name() and toks["t-miranda"].shows_name()
    # the choices are remembered for next time
    again = controller_for_settings(qtbot, win.settings)
    assert again.condition_actions["none"].isChecked() and not again.act_names.isChecked()


def controller_for_settings(qtbot, settings):
    w = MainWindow(document=make_doc(), settings=settings)
    qtbot.addWidget(w)
    return controller(w)


def test_the_players_view_offers_no_editing(qtbot, win):
    _ctl, pw = open_players(qtbot, win)
    v = pw.view
    doc = win.document
    before = doc.token("t-hank").hex
    pos = v.mapFromScene(v.map_scene.frame.center(doc.token("t-hank").at))
    from PySide6.QtCore import Qt

    qtbot.mousePress(v.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseMove(v.viewport(), pos + QPointF(80, 0).toPoint())
    qtbot.mouseRelease(v.viewport(), Qt.MouseButton.LeftButton, pos=pos + QPointF(80, 0).toPoint())
    assert doc.token("t-hank").hex == before
    assert not v.isInteractive()
    assert doc.undo_stack.count() == 0
    assert doc.map_view is win.map_view  # the players' view never claims the document


# -- displays ------------------------------------------------------------------------------


class _FakeScreen:
    def __init__(self, name: str) -> None:
        self._name = name

    def name(self) -> str:
        return self._name


def test_display_choice_is_remembered_and_survives_unplugging(qtbot, win, settings):
    from PySide6.QtGui import QGuiApplication

    primary = QGuiApplication.primaryScreen()
    ctl = controller(win)
    # a display that is not connected: the window opens movable on the primary one
    ctl.settings.screen_name = "HDMI-9"
    ctl.set_fullscreen(True)
    ctl, pw = open_players(qtbot, win)
    assert not pw.isFullScreen()
    assert pw.screen() is primary
    # choosing the primary display and full screen puts it there full screen
    pid = screen_id(primary)
    assert pid
    ctl.choose_screen(pid)
    ctl.set_fullscreen(True)
    assert pw.isFullScreen()
    assert ctl.settings.screen_name == pid and ctl.settings.fullscreen
    # that display goes away: back as a movable window on the primary display
    ctl._on_screen_removed(_FakeScreen(pid))
    assert not pw.isFullScreen() and pw.isVisible()
    assert primary.availableGeometry().contains(pw.geometry().center())
    assert ctl.settings.screen_name == pid  # kept for when it comes back
    # another display going away changes nothing
    ctl.set_fullscreen(True)
    ctl._on_screen_removed(_FakeScreen("DP-7"))
    assert pw.isFullScreen()
    ctl.set_fullscreen(False)
    assert not pw.isFullScreen()
    # next time: the same choices
    ctl.close()
    again = controller_for_settings(qtbot, settings)
    assert again.settings.screen_name == pid
    assert not again.act_fullscreen.isChecked()
    assert again.settings.geometry is not None


def test_the_strip_in_the_phases_edition(qtbot, settings, answers):
    """Phases (004): the round and the phase, who acts in it among the characters the
    players can see; the hombres' Reflex results stay hidden."""
    from twtw_desktop.rules.base import Speed

    doc = make_doc()
    doc.encounter.edition = "phases"
    doc = EncounterDocument(doc.encounter)
    w = MainWindow(document=doc, settings=settings)
    qtbot.addWidget(w)
    w.show()
    _ctl, pw = open_players(qtbot, w)
    doc.start_action_time()
    tr = doc.track

    def declare():
        tr.start_round()
        for cid in ("miranda_valentine", "hank_daggett", "angus_laroq", "felicia_laroq"):
            tr.declare_speed(cid, Speed.NORMAL)

    doc.push(SnapshotCommand(doc, "declare", declare, {"track", "deck"}))
    pw.refresh_strip()
    content = pw.strip.content
    assert content.headline == "Round 1 · declaring speeds"
    assert {e.name for e in content.entries} == {"Miranda Valentine", "Hank Daggett"}
    assert all("Normal" in e.text for e in content.entries)
    doc.push(SnapshotCommand(doc, "flip", lambda: tr.resolve(), {"track", "deck"}))
    for _ in range(4):
        doc.push(SnapshotCommand(doc, "phase", lambda: tr.advance_phase(), {"track"}))
        pw.refresh_strip()
        if tr.acting_order():
            break
    content = pw.strip.content
    assert content.headline.startswith("Round 1 · Phase ")
    assert content.headline == headline(doc)
    text = content.text()
    assert "Felicia" not in text
    acting = [e for e in content.entries if e.now]
    assert len(acting) <= 1


def test_push_toolbar_shows_only_while_the_players_screen_is_open(qtbot, win):
    ctl = controller(win)
    win.show()
    qtbot.waitExposed(win)
    assert ctl.act_toggle in win.tools_toolbar.actions()
    assert not ctl.toolbar.isVisible()
    open_players(qtbot, win)
    assert ctl.toolbar.isVisible()
    ctl.close()
    assert not ctl.toolbar.isVisible()


def test_strip_stacks_its_headline_on_a_narrow_window(qtbot):
    from twtw_desktop.ui.players.strip import PublicTrack, StripEntry, TrackStrip

    strip = TrackStrip()
    qtbot.addWidget(strip)
    strip.set_text_px(40)
    entries = tuple(
        StripEntry(name=f"Character number {i}", text="from segment 12", side="posse")
        for i in range(4)
    )
    strip.set_content(PublicTrack("Round 1 · initiative done", entries))
    wide = strip.layout_boxes(3000)[1]
    narrow_w = 700
    assert not strip.stacked(3000) and strip.stacked(narrow_w)
    narrow = strip.layout_boxes(narrow_w)[1]
    assert wide and narrow
    # on the narrow strip every box starts at the left margin row and fits the width
    for box, _label, _e in narrow:
        assert box.right() <= narrow_w


def test_hide_and_reveal_from_the_window(qtbot, win):
    """Ctrl+Shift+H (the players' options menu), the token's menu on the map and the
    track row's menu hide or reveal a token as one logged undo step; a cover line
    pushed at the token comes down with it."""
    from PySide6.QtGui import QKeySequence

    from twtw_desktop.ui.menus.token_menu import token_menu_action

    ctl, pw = open_players(qtbot, win)
    doc = win.document
    act = ctl.act_hide_token
    assert act.shortcut() == QKeySequence("Ctrl+Shift+H")
    assert act in win.actions()
    pw.view.show_push("cover_line", (doc.token("t-miranda").at, doc.token("t-angus").at))
    assert "cover_line" in pw.view.pushed
    doc.select("t-angus")
    n_log = len(doc.encounter.log)
    act.trigger()
    assert doc.token("t-angus").hidden and "t-angus" not in pw.view.map_scene.tokens
    assert "cover_line" not in pw.view.pushed
    assert len(doc.encounter.log) == n_log + 1
    doc.undo_stack.undo()
    assert not doc.token("t-angus").hidden and len(doc.encounter.log) == n_log
    # the map's right-click entry says what it will do, and does it
    judge_item = win.map_view.map_scene.tokens["t-angus"]
    menu_act = token_menu_action(None, doc, judge_item.token_id)
    assert menu_act.text() == "Hide from the players"
    menu_act.trigger()
    assert doc.token("t-angus").hidden
    assert token_menu_action(None, doc, "t-angus").text() == "Reveal to the players"
    # nothing selected: a word in the status bar, no change
    doc.select(None)
    assert not ctl.toggle_hidden()
    # the track's rows offer the same menu
    from twtw_desktop.ui.panels.track_panel import TrackPanel

    panel = win.findChild(TrackPanel)
    table = panel.stack.currentWidget()
    row = panel._row_ids.index(doc.token("t-angus").character_id)
    pos = table.visualItemRect(table.item(row, 0)).center()
    entry, judge, *_rest = panel.row_menu_actions(table, pos, None)  # the override, first aid
    assert entry.text() == "Reveal to the players" and judge.text() == "Judge's override…"
    entry.trigger()
    assert not doc.token("t-angus").hidden
