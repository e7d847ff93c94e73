"""The real main window, driven offscreen: the sample encounter, moving a token with
the mouse in action time, files, recent files, remembered layout, error dialogs."""

from __future__ import annotations

import shutil
import sys
import uuid

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.hexgrid import Hex
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.commands import ChangeValueCommand, SnapshotCommand
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
from twtw_desktop.ui.window import app as app_mod
from twtw_desktop.ui.window.main_window import MainWindow

SAMPLE = "main_street.encounter.json"
MIRANDA = "token-miranda_valentine"


@pytest.fixture
def settings(qapp, tmp_path):
    """Settings in a temporary folder under a throw-away application name."""
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    return AppSettings()


@pytest.fixture
def sample_copy(tmp_path):
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    return tmp_path / SAMPLE


@pytest.fixture
def no_prompts(monkeypatch):
    """Record dialogs instead of showing them; "Save changes?" answers Discard."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(
        QMessageBox,
        "critical",
        staticmethod(lambda _p, title, text, *a, **k: shown.append((title, text))),
    )
    monkeypatch.setattr(
        QMessageBox,
        "information",
        staticmethod(lambda _p, title, text, *a, **k: shown.append((title, text))),
    )
    monkeypatch.setattr(
        QMessageBox,
        "question",
        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard),
    )
    return shown


@pytest.fixture
def window(qtbot, settings, sample_copy, no_prompts):
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    assert win.open_path(sample_copy)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def _view_pos(win, h: Hex) -> QPoint:
    view = win.map_view
    return view.mapFromScene(view.map_scene.frame.center(h))


def test_sample_opens_in_the_real_window(window):
    doc = window.document
    # the encounter's title, then its file (issue 37: not the file name alone)
    assert window.windowTitle().startswith(f"Showdown on Main Street ({SAMPLE})")
    assert not window.isWindowModified()
    assert len(window.map_view.map_scene.tokens) == 9
    assert len(window.map_view.map_scene.features) == len(doc.map.features)
    assert window.docks, "the side panels are docked"
    assert window.act_action_time.isEnabled() and not window.act_narrative.isEnabled()
    assert "AP v2" in window.act_edition.text() or doc.edition.name in window.act_edition.text()


def test_status_bar_shows_the_hovered_hex(window, qtbot):
    view = window.map_view
    view.set_zoom_k(0)
    h = Hex(5, 17)
    view.center_on_hex(h)
    hovered = []
    window.document.tokenHovered.connect(hovered.append)
    qtbot.mouseMove(view.viewport(), _view_pos(window, h))
    label = view.map_scene.frame.label(h)
    qtbot.waitUntil(lambda: label in window.st_hex.text())
    assert "open" in window.st_hex.text() or "elevation" in window.st_hex.text()
    assert "Miranda" in window.st_hex.text()
    assert hovered and hovered[-1] == MIRANDA


def test_drag_a_token_in_action_time_pays_ap_and_undo_refunds(window, qtbot):
    """000 Movement: the drag pays Move paces per AP on the track; Ctrl+Z gives it back."""
    doc = window.document
    window.act_action_time.trigger()
    assert doc.in_action and window.act_narrative.isEnabled()
    doc.push(SnapshotCommand(doc, "Start round", doc.track.start_round, {"track", "deck"}))
    for _ in range(8):
        doc.push(SnapshotCommand(doc, "Next segment", doc.track.advance_segment, {"track"}))
    ch = "miranda_valentine"
    from twtw_desktop.play.declarations import PassTurn

    others = [c for c in doc.track.pending_declarers() if c != ch]
    doc.apply(PassTurn(who=others))  # Miranda's move is the segment's lone action
    counters = doc.ap_available(ch)
    assert counters >= 1
    view = window.map_view
    view.set_zoom_k(0)
    start = doc.token(MIRANDA).at
    dest = Hex(start.q, start.r - 2)
    view.center_on_hex(start)
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, start))
    assert doc.selected_token_id == MIRANDA
    qtbot.mouseMove(vp, _view_pos(window, dest))
    tool = view.tool
    assert tool._plan is not None and tool._plan.allowed
    assert "AP" in tool._bubble.text
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, dest))
    assert doc.token(MIRANDA).at == dest
    assert doc.ap_available(ch) == 0
    assert window.isWindowModified()
    assert "Move Miranda" in window.act_undo.text()
    window.act_undo.trigger()
    assert doc.token(MIRANDA).at == start and doc.ap_available(ch) == counters
    window.act_redo.trigger()
    assert doc.token(MIRANDA).at == dest and doc.ap_available(ch) == 0


def test_narrative_drag_moves_freely_in_one_undo_step(window, qtbot):
    doc = window.document
    view = window.map_view
    view.set_zoom_k(0)
    start = doc.token(MIRANDA).at
    view.center_on_hex(start)
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, start))
    for i in range(1, 4):
        qtbot.mouseMove(vp, _view_pos(window, Hex(start.q + i, start.r)))
    assert "3 paces" in view.tool._bubble.text
    qtbot.mouseRelease(
        vp, Qt.MouseButton.LeftButton, pos=_view_pos(window, Hex(start.q + 3, start.r))
    )
    assert doc.token(MIRANDA).at == Hex(start.q + 3, start.r)
    assert doc.undo_stack.count() == 1
    window.act_undo.trigger()
    assert doc.token(MIRANDA).at == start


def test_turn_keys_pay_facing_ap(window):
    doc = window.document
    doc.select(MIRANDA)
    window.act_turn_left.trigger()  # narrative: free
    assert doc.token(MIRANDA).facing == 3
    window.act_action_time.trigger()
    doc.push(SnapshotCommand(doc, "Start round", doc.track.start_round, {"track", "deck"}))
    for _ in range(8):
        doc.push(SnapshotCommand(doc, "Next segment", doc.track.advance_segment, {"track"}))
    # the others newly able on segment 8 let it go: the turn is then the segment's lone
    # action, paid at once (000 Action Timing)
    from twtw_desktop.play.declarations import PassTurn

    doc.apply(PassTurn())
    window.act_turn_right.trigger()
    assert doc.token(MIRANDA).facing == 2
    assert doc.track.row("miranda_valentine").spent == 1


def test_broken_file_shows_a_dialog_and_changes_nothing(window, tmp_path, no_prompts):
    doc = window.document
    bad = tmp_path / "bad.encounter.json"
    bad.write_text('{"format_version": 1, "tokens": [', encoding="utf-8")
    assert not window.open_path(bad)
    assert no_prompts and no_prompts[-1][0] == "Cannot open the file"
    assert "bad.encounter.json" in no_prompts[-1][1]
    assert "Traceback" not in no_prompts[-1][1]
    assert window.document is doc and not doc.is_dirty()
    assert str(bad) not in window.settings.recent_files()


def test_recent_files_and_layout_round_trip(qtbot, settings, sample_copy, tmp_path, no_prompts):
    other = tmp_path / "second.encounter.json"
    shutil.copy(sample_copy, other)
    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    win.open_path(sample_copy)
    win.open_path(other)
    recent = settings.recent_files()
    assert recent[:2] == [str(other.absolute()), str(sample_copy.absolute())]
    dock = next(iter(win.docks.values()))
    win.show()
    qtbot.waitExposed(win)
    dock.hide()
    win.overlay_actions["field_of_fire"].setChecked(True)
    win.save_layout()
    win.close()

    again = MainWindow(settings=AppSettings())
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    names = [a.text() for a in again.recent_menu.actions()]
    assert any("second.encounter.json" in n for n in names)
    assert again.docks[dock.objectName()].isHidden()
    assert again.overlay_actions["field_of_fire"].isChecked()
    for i in range(12):  # the list keeps the last eight
        p = tmp_path / f"e{i}.encounter.json"
        shutil.copy(sample_copy, p)
        settings.add_recent(p)
    assert len(settings.recent_files()) == 8
    assert settings.recent_files()[0].endswith("e11.encounter.json")


def test_save_reopen_through_the_window(window, sample_copy, no_prompts):
    doc = window.document
    doc.select(MIRANDA)
    window.act_turn_left.trigger()
    assert window.isWindowModified()
    window.act_save.trigger()
    assert not window.isWindowModified()
    assert window.open_path(sample_copy)
    assert window.document.token(MIRANDA).facing == 3


def test_close_asks_to_save_changes(window, monkeypatch):
    window.document.select(MIRANDA)
    window.act_turn_left.trigger()
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel)
    )
    assert not window.close()
    assert window.isVisible()
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    assert window.close()


def test_app_opens_the_sample_when_the_file_is_broken(qtbot, settings, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(MainWindow, "show_error", lambda self, t, x: shown.append((t, x)))
    bad = tmp_path / "nope.encounter.json"
    bad.write_text("not json", encoding="utf-8")
    win = app_mod.open_window(str(bad), show=False)
    qtbot.addWidget(win)
    assert shown and "nope.encounter.json" in shown[0][1]
    # the sample opens as an untitled copy: Save asks where, never into the bundle
    assert win.document.path is None
    assert "Main Street" in win.document.encounter.name
    win.document.undo_stack.setClean()


def test_unexpected_errors_go_to_a_dialog(qapp, monkeypatch):
    seen = []
    monkeypatch.setattr(
        QMessageBox, "exec", lambda self: seen.append((self.text(), self.detailedText()))
    )
    old = sys.excepthook
    try:
        app_mod.install_excepthook()
        try:
            raise ZeroDivisionError("division by zero")
        except ZeroDivisionError:
            sys.excepthook(*sys.exc_info())
    finally:
        sys.excepthook = old
    assert seen and "division by zero" in seen[0][0]
    assert "Traceback" in seen[0][1]  # only under Details
    assert "Traceback" not in seen[0][0]


def test_a_bundled_sample_opens_as_an_untitled_copy(qtbot, tmp_path, settings):

    win = MainWindow(settings=settings)
    qtbot.addWidget(win)
    src = maps_dir() / SAMPLE
    before = (maps_dir() / "main_street.map.json").read_bytes()
    assert win.open_path(src, ask=False)
    doc = win.document
    assert doc.path is None and doc.map_path is None
    assert doc.encounter.map is doc.map and doc.encounter.map_ref is None
    # an edit to the map, then Save As elsewhere: the bundle is untouched
    door = next(f for f in doc.map.features if f.kind == "door")
    was_open = door.is_open
    doc.push(ChangeValueCommand(doc, door, "is_open", not was_open, "map"))
    out = tmp_path / "mine.encounter.json"
    doc.save(out)
    assert (maps_dir() / "main_street.map.json").read_bytes() == before
    again = EncounterDocument.open(out)
    assert again.map.feature(door.id).is_open == (not was_open)
