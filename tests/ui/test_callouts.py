"""The cover line's callouts: the text box stays inside the view and off the target
and its name, whichever corner the target is in; crossing labels never overlap and
two walls crossed at one spot get one label."""

from __future__ import annotations

import pytest

from twtw_desktop.resources import maps_dir

from .conftest import fresh_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    assert win.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    return win


def _line(win, shooter: str, target: str):
    mv = win.map_view
    tool = mv.tools()["cover"]
    mv.set_tool("cover")
    enc = win.document.encounter
    a, b = enc.token_for(shooter).at, enc.token_for(target).at
    tool.show_line(a, b)
    return tool, b


@pytest.mark.parametrize("corner", ["top_left", "top_right", "bottom_left", "bottom_right"])
@pytest.mark.parametrize("docks", ["open", "collapsed"])
def test_the_callout_stays_in_view_and_off_the_target(window, qtbot, corner, docks):
    mv = window.map_view
    if docks == "collapsed":  # room beside the target: the callout keeps off it
        window.dock_rail.set_collapsed(True)
        qtbot.waitUntil(lambda: mv.viewport().width() > 600)
    tool, target = _line(window, "miranda_valentine", "felicia_laroq")
    centre = mv.map_scene.frame.center(target)
    vp = mv.viewport().rect()
    # scroll so the target sits near the chosen corner of the view
    dx = vp.width() * (0.4 if "left" in corner else -0.4)
    dy = vp.height() * (0.4 if "top" in corner else -0.4)
    mv.centerOn(centre.x() + dx / mv.zoom, centre.y() + dy / mv.zoom)
    box = tool._bubble.screen_rect(mv)
    assert mv.viewport().rect().toRectF().contains(box)
    t = mv.mapFromScene(centre)
    if docks == "open":
        return  # a 426-pixel view: inside the view is all that can be asked
    clear = 1.3 * mv.map_scene.frame.unit * mv.zoom
    assert not box.contains(t.toPointF())
    assert (
        min(abs(box.left() - t.x()), abs(box.right() - t.x())) >= clear
        or min(abs(box.top() - t.y()), abs(box.bottom() - t.y())) >= clear
    )


def test_crossing_labels_never_overlap_and_repeat_once(window):
    tool, _ = _line(window, "miranda_valentine", "felicia_laroq")
    labels = tool._item.labels
    assert labels
    for i, (r, _t, _c) in enumerate(labels):
        for r2, _t2, _c2 in labels[i + 1 :]:
            assert not r.intersects(r2)
        assert tool._item.boundingRect().contains(r)
    item = tool._item
    u = item.frame.unit
    once = len(labels)
    item._marks = item._marks + item._marks  # every wall crossed twice at the same spot
    doubled = item._layout_labels(u)
    assert len(doubled) == once and all(t.endswith(" ×2") for _r, t, _c in doubled)
    assert len(tool._item.scene().items()) == len(set(tool._item.scene().items()))
    bubbles = [it for it in tool._item.scene().items() if type(it).__name__ == "Bubble"]
    assert len(bubbles) == 1  # one callout, not two
