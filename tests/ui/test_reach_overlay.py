"""The reach overlay works out a big reach in a worker thread: the window stays
responsive, the overlay fills in when the result comes, and a result for a token
or state that changed meanwhile is dropped."""

from __future__ import annotations

from twtw_desktop.bench import ui as bench_ui
from twtw_desktop.play.movement import occupied_hexes, reach_budget
from twtw_desktop.ui.scene import overlays
from twtw_desktop.ui.scene.map_view import MapView


def _view(qtbot):
    doc = bench_ui.make_document(30, 12, 4)
    view = MapView(doc)
    qtbot.addWidget(view)
    return doc, view


def _expected(doc, tok):
    ch = doc.character(tok.character_id)
    budget, counters = reach_budget(doc, ch.id)
    now = counters if counters is not None else budget
    occupied = occupied_hexes(doc, tok.id)
    _area, cells = overlays.reach_cells(
        doc.map, doc.walls(), tok.at, tok.facing, budget, now, ch.move, occupied
    )
    return {h: (c.rgba(), label, now_) for h, (c, label, now_) in cells.items()}


def _shown(item):
    return {h: (c.rgba(), label, now_) for h, (c, label, now_) in item.cells.items()}


def test_a_big_reach_fills_in_from_a_worker(qtbot, monkeypatch):
    monkeypatch.setattr(overlays, "REACH_SYNC_HEXES", 0)
    doc, view = _view(qtbot)
    ov = view.overlays
    tok = doc.encounter.tokens[0]
    doc.select(tok.id)
    ov.set_enabled("reachable", True)
    ov.refresh()
    assert ov._reach_pending is not None  # not worked out on the GUI thread
    qtbot.waitUntil(lambda: bool(ov.items["reachable"].cells), timeout=10000)
    assert _shown(ov.items["reachable"]) == _expected(doc, tok)
    assert tok.at in ov.data["reachable"]


def test_a_stale_reach_is_dropped(qtbot, monkeypatch):
    monkeypatch.setattr(overlays, "REACH_SYNC_HEXES", 0)
    doc, view = _view(qtbot)
    ov = view.overlays
    first, second = doc.encounter.tokens[:2]
    ov.set_enabled("reachable", True)
    doc.select(first.id)
    ov.refresh()
    stale_key = ov._reach_pending
    doc.select(second.id)
    ov.refresh()
    assert ov._reach_pending != stale_key
    qtbot.waitUntil(lambda: ov._reach_pending is None, timeout=10000)
    assert _shown(ov.items["reachable"]) == _expected(doc, second)


def test_a_small_reach_is_instant():
    doc = bench_ui.make_document(30, 12, 4)
    assert overlays.reach_is_instant(doc.map, 20, 8)  # 900 hexes: on the GUI thread
    big = bench_ui.make_document(200, 12, 4).map
    assert not overlays.reach_is_instant(big, 20, 8)
    assert not overlays.reach_is_instant(big, 2, 3)  # the table covers the whole map
