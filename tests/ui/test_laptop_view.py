"""A map opens with every figure in view (issue 27: it used to open on half of them,
at 100 %); a map that fits readably opens whole. The docks collapse to a rail and come back."""

from __future__ import annotations

import pytest

from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.main_window import READABLE_NAME_PX, MainWindow
from twtw_desktop.ui.scene.token_item import TokenLook, name_px
from twtw_desktop.ui.settings import AppSettings

from .conftest import fresh_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    return win


def _name_px(win) -> float:
    return name_px(TokenLook(), win.map_view.map_scene.frame.unit, win.map_view.zoom)


@pytest.mark.parametrize("sample", sorted(p.name for p in maps_dir().glob("*.encounter.json")))
def test_a_map_opens_with_every_figure_in_view(window, sample):
    assert window.open_path(maps_dir() / sample, ask=False)
    mv = window.map_view
    # (readable too on a real 1366×768 screen: tests/ui/test_table_at_1366.py; the
    # offscreen test screen may be smaller)
    assert mv.zoom <= 1.0
    seen = mv.visible_scene_rect()
    frame = mv.map_scene.frame
    out = [
        t.id for t in window.document.encounter.tokens if not seen.contains(frame.hex_rect(t.at))
    ]
    assert not out, f"{sample}: off screen {out}"


def test_a_small_map_opens_whole(window):
    from twtw_desktop.ui.document import EncounterDocument

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
