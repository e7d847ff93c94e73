"""A map opens with the fight in view (issue 27: it used to open on half of them, at
100 %) at a zoom where names are readable (issue 37: the Longhorn Saloon opened whole
at 35 % with 7-px initials): the posse and whom they can see; a map that fits
readably opens whole. The docks collapse to a rail and come back."""

from __future__ import annotations

import pytest

from twtw_desktop.play.attack import the_fight
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.scene.token_item import TokenLook, name_px
from twtw_desktop.ui.window.main_window import READABLE_NAME_PX, MainWindow

from .conftest import fresh_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    return win


def _name_px(win) -> float:
    return name_px(TokenLook(), win.map_view.map_scene.frame.unit, win.map_view.zoom)


@pytest.mark.parametrize("sample", sorted(p.name for p in maps_dir().glob("*.encounter.json")))
def test_a_map_opens_with_the_fight_in_view_and_names_readable(window, sample):
    assert window.open_path(maps_dir() / sample, ask=False)
    mv = window.map_view
    # (a real 1366×768 screen too: tests/ui/test_table_at_1366.py)
    assert mv.zoom <= 1.0
    assert _name_px(window) >= READABLE_NAME_PX
    seen = mv.visible_scene_rect()
    frame = mv.map_scene.frame
    fight = the_fight(window.document.table)
    posse = [t for t in fight if window.document.character_of(t.id).side == "posse"]
    out = [t.id for t in posse if not seen.contains(frame.hex_rect(t.at))]
    assert not out, f"{sample}: off screen {out}"
    middle = seen.adjusted(seen.width() / 4, seen.height() / 4, -seen.width() / 4, 0)
    centre = frame.hex_rect(fight[0].at)
    for t in fight[1:]:
        centre = centre.united(frame.hex_rect(t.at))
    assert middle.contains(centre.center()), f"{sample}: not centred on the fight"
    # no name of the fight cut to initials that 100 % shows whole
    items = window.map_view.map_scene.tokens
    cut = {t.id for t in fight if items[t.id].plate_text is not None}
    mv.set_zoom_k(0)
    assert mv.zoom == 1.0
    assert cut <= {t.id for t in fight if items[t.id].plate_text is not None}, sample


def test_a_small_map_opens_whole(window):
    from twtw_desktop.ui.core.document import EncounterDocument

    window.set_document(EncounterDocument.new(6, 5))
    mv = window.map_view
    assert _name_px(window) >= READABLE_NAME_PX
    assert mv.visible_scene_rect().contains(mv.map_scene.frame.bounds())


def test_docks_collapse_to_a_rail_of_icons_and_come_back(window, qtbot):
    rail = window.dock_rail
    open_before = [n for n, d in window.docks.items() if d.isVisible()]
    assert open_before and not rail.rail.isVisible()
    width = window.map_view.width()
    rail.act_collapse.trigger()
    assert rail.collapsed and rail.rail.isVisible()
    assert not any(d.isVisible() for d in window.docks.values())
    assert len(rail.buttons) == len(window.docks)
    assert all(not a.icon().isNull() and a.toolTip() for a in rail.buttons.values())
    qtbot.waitUntil(lambda: window.map_view.width() > width)
    # one panel back from the rail, the others stay folded
    name = open_before[0]
    rail.buttons[name].trigger()
    assert window.docks[name].isVisible()
    rail.act_collapse.trigger()
    assert not rail.rail.isVisible()
    assert sorted(n for n, d in window.docks.items() if d.isVisible()) == sorted(open_before)


def test_the_collapsed_layout_survives_a_restart(window, qtbot, tmp_path):
    window.dock_rail.set_collapsed(True)
    window.save_layout()
    again = MainWindow(settings=AppSettings(window.settings.q))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.dock_rail.collapsed and again.dock_rail.rail.isVisible()
    assert not any(d.isVisible() for d in again.docks.values())
    again.dock_rail.set_collapsed(False)
    assert any(d.isVisible() for d in again.docks.values())


# -- the action track at 1366×768 (issue #27) ----------------------------------------------

SAMPLES = sorted(p.name for p in maps_dir().glob("*.encounter.json"))


def _track(win, qtbot):
    """The action track panel of the window's document, shown, and its table."""
    from twtw_desktop.ui.panels.track_panel import TrackPanel

    panel = win.docks["dock_track"].widget()
    assert isinstance(panel, TrackPanel)
    qtbot.waitUntil(panel.isVisible, timeout=2000)
    return panel, panel.stack.currentWidget()


def _rows_out_of_view(table) -> list[int]:
    """The rows of ``table`` not wholly in its viewport (scrolled or cut off)."""
    vp = table.viewport().rect()
    model = table.model()
    return [
        r for r in range(table.rowCount()) if not vp.contains(table.visualRect(model.index(r, 0)))
    ]


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_row_of_the_track_shows_at_1366(window, qtbot, sample):
    """Each sample's track shows every row — nine, or the Laroq hacienda's twelve
    (the panel's buttons ride in the dock's title bar and the Log joins the side
    column on a laptop, so twelve rows and a readable map fit) — compact, the
    character column as wide as the names (not the whole panel), the message line
    beside it."""
    assert window.open_path(maps_dir() / sample, ask=False)
    panel, table = _track(window, qtbot)
    assert table.rowCount() >= 9
    qtbot.waitUntil(lambda: not _rows_out_of_view(table), timeout=2000)
    assert table.verticalScrollBar().maximum() == 0
    names = table.columnWidth(0)
    widest = max(
        table.fontMetrics().horizontalAdvance(table.item(r, 0).text())
        for r in range(table.rowCount())
    )
    assert widest <= names <= widest + 40, (widest, names)
    assert table.width() < panel.width() * 0.7
    # ...and no wider than its own columns (the Phases table is not as wide as the AP
    # table's 24 columns that share its place)
    cols = sum(table.columnWidth(c) for c in range(table.columnCount()))
    slack = 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width() + 2
    assert table.width() <= cols + slack, (table.width(), cols)
    info = panel.info.mapTo(panel, panel.info.rect().topLeft())
    assert info.x() >= table.width(), "the message line sits beside the table"


def test_twelve_rows_show_after_three_npcs(window, qtbot):
    from twtw_desktop.ui.panels.sheet_panel import SheetPanel

    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    sheet = window.docks["dock_sheet"].widget()
    assert isinstance(sheet, SheetPanel)
    for npc in ("pete_perkins", "octavio_vaquero", "pete_perkins"):
        assert sheet.add_character(npc), sheet.message.text()
    _panel, table = _track(window, qtbot)
    assert table.rowCount() == 12
    qtbot.waitUntil(lambda: not _rows_out_of_view(table), timeout=2000)
    assert table.verticalScrollBar().maximum() == 0


def test_the_message_line_wraps_a_long_stop_whole(window, qtbot):
    """A run-stop message longer than a line wraps over the lines beside the table,
    whole: nothing cut mid-sentence."""
    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    panel, _table = _track(window, qtbot)
    text = (
        "Ran segments 1–4: stopped because Miranda Valentine can act with nothing "
        "declared · Hank Daggett's standing declaration no longer applies (his target "
        "is out of sight) · Cyril Wellington, Jonah Benton and Angus Laroq may act "
        "with nothing declared: act with them, or F6 passes them all"
    )
    panel.info.setText(text)
    qtbot.wait(10)
    info = panel.info
    assert info.text() == text and info.full == text
    assert info.fontMetrics().horizontalAdvance(text) > info.width()  # it does wrap
    assert info.heightForWidth(info.width()) <= info.height()  # ...and every line shows


def test_the_spent_column_says_what_its_numbers_are(window, qtbot):
    from twtw_desktop.ui.panels.track.ap_rows import SPENT

    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    _panel, table = _track(window, qtbot)
    head = table.horizontalHeaderItem(table.columnCount() - 1)
    assert head.text() == SPENT == "Spent (lost)"
    assert "spent this round" in head.toolTip() and "lost" in head.toolTip()
    width = table.fontMetrics().horizontalAdvance(SPENT)
    assert table.columnWidth(table.columnCount() - 1) >= width


def test_the_track_buttons_ride_in_its_docks_title_bar(window, qtbot):
    """The track panel's top row (status and buttons) is its dock's title bar, with the
    float and close buttons; a newly opened encounter's panel brings its own."""
    from twtw_desktop.ui.window.dock_title import DockTitle

    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    dock = window.docks["dock_track"]
    panel, _table = _track(window, qtbot)
    bar = dock.titleBarWidget()
    assert isinstance(bar, DockTitle) and bar.head is panel.head
    assert panel.start_button.isVisible() and bar.isAncestorOf(panel.start_button)
    assert bar.title.text() == dock.windowTitle() == "Action track"
    assert panel.head.parentWidget() is bar  # not in the panel: its rows get the height
    # the other docks keep Qt's own title bar
    assert window.docks["dock_attack"].titleBarWidget() is None
    assert window.open_path(maps_dir() / "legless_gulch.encounter.json", ask=False)
    panel2, _t = _track(window, qtbot)
    assert panel2 is not panel and dock.titleBarWidget().head is panel2.head
    bar2 = dock.titleBarWidget()
    bar2.float_button.click()
    assert dock.isFloating()
    bar2.float_button.click()
    assert not dock.isFloating()
    bar2.close_button.click()
    assert not dock.isVisible()


def test_on_a_laptop_the_log_is_a_tab_of_the_side_column(window):
    """No tab bar under the track on a narrow screen: the Log joins the side column."""
    from PySide6.QtCore import Qt

    if window.screen().availableGeometry().width() >= 1600:
        pytest.skip("the test screen is not a laptop's")
    log = window.docks["dock_log"]
    assert window.dockWidgetArea(log) == Qt.DockWidgetArea.RightDockWidgetArea
    assert log in window.tabifiedDockWidgets(window.docks["dock_attack"])
    assert window.dockWidgetArea(window.docks["dock_track"]) == (
        Qt.DockWidgetArea.BottomDockWidgetArea
    )
    assert not window.tabifiedDockWidgets(window.docks["dock_track"])
