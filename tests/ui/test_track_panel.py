"""The action track panel: a full AP v2 round (000 "Action Time") and a Phases round
(004 "Initiative And Action Speeds"), every step undoable."""

from __future__ import annotations

from PySide6.QtCore import Qt

from twtw_desktop.rules import actions as A
from twtw_desktop.rules.base import Speed
from twtw_desktop.ui.panels.track_panel import SEGMENTS, TrackPanel, catalogue

from .test_panels_support import small_document


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_full_ap_v2_round(qtbot):
    """000 Action Timing / Ending the Round: counters from IN, a declared shot pays
    with all counters present, the round ends after segment 20."""
    doc = small_document()
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    assert panel.status.text() == "Narrative time"
    _click(qtbot, panel.start_button)  # declares action time and runs the initiative step
    track = doc.track
    assert track is not None and track.round == 1
    assert doc.encounter.log[-1].kind == "round"
    first = {cid: r.first_segment for cid, r in track.state.rows.items()}
    assert all(f is not None and f >= 1 for f in first.values())

    # count segments until Miranda has a counter, then declare a snap shot
    while track.counters("miranda_valentine") < 1:
        _click(qtbot, panel.next_button)
    seg = track.current_segment
    assert seg >= first["miranda_valentine"]
    assert panel.status.text().endswith(f"segment {seg}")
    peacemaker = doc.gear.weapon("colt_peacemaker")
    assert panel.declare("miranda_valentine", A.snap_shot(peacemaker))
    assert track.counters("miranda_valentine") == 0
    col = 2 + seg
    row = panel._row_ids.index("miranda_valentine")
    assert panel.ap_table.item(row, col).text().startswith("S")

    # on to the end: resolve any stack of two or more, keep counting
    steps = 0
    while not track.round_over and steps < 60:
        if len([e for e in track.stack() if not e.resolved]) > 1:
            _click(qtbot, panel.resolve_button)
        if not panel.next_button.isEnabled() or not panel.next_segment():
            break
        steps += 1
    assert track.current_segment >= SEGMENTS
    _click(qtbot, panel.end_button)
    assert track.state.stage.value == "ended"
    assert panel.status.text().startswith("Round 1 over")
    assert panel.start_button.isEnabled()

    # undo walks back a step at a time: the round is running again
    doc.undo_stack.undo()
    assert track.state.stage.value in ("running", "overtime")
    doc.undo_stack.redo()
    assert track.state.stage.value == "ended"


def test_declare_menu_shows_costs_and_refusals(qtbot):
    doc = small_document()
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    panel.start_round()
    panel.next_segment()
    doc.select("t_cyril_wellington")
    panel._build_declare_menu()
    texts = []
    for act in panel.declare_menu.actions():
        if act.menu() is not None:
            texts += [(a.text(), a.isEnabled()) for a in act.menu().actions()]
    assert any("Normal shot — 3 AP" in t for t, _ in texts)
    disabled = [t for t, on in texts if not on]
    assert disabled and all("(" in t for t in disabled)  # the reason is shown


def test_declaring_pays_and_readies(qtbot):
    """000 Cocking and Readying: a declared draw readies the weapon on the sheet."""
    doc = small_document()
    for w in doc.character("cyril_wellington").weapons:
        w.readied = False
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    panel.start_round()
    track = doc.track
    schofield = doc.gear.weapon("sw_schofield")
    spec = A.draw_action(schofield, doc.character("cyril_wellington").quick_draw)
    while track.counters("cyril_wellington") < spec.ap:
        panel.next_segment()
    assert panel.declare("cyril_wellington", spec)
    assert doc.character("cyril_wellington").carried("sw_schofield").readied
    doc.undo_stack.undo()
    assert not doc.character("cyril_wellington").carried("sw_schofield").readied
    assert track.counters("cyril_wellington") >= spec.ap


def test_refused_declaration_changes_nothing(qtbot):
    doc = small_document()
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    panel.start_round()
    panel.next_segment()
    track = doc.track
    before = track.state
    count = doc.undo_stack.count()
    sharps = doc.gear.weapon("sharps_rifle")
    assert not panel.declare("miranda_valentine", A.aimed_shot(sharps, 2))
    assert "counter" in panel.message.text()
    assert track.state == before
    assert doc.undo_stack.count() == count


def test_phases_round(qtbot):
    """004: declare speeds, flip the card, read the bar, act phase by phase."""
    doc = small_document("phases")
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    assert panel.stack.currentWidget() is panel.ph_table
    _click(qtbot, panel.start_button)
    track = doc.track
    assert track.state.stage.value == "declare"
    for r, cid in enumerate(panel._row_ids):
        combo = panel.ph_table.cellWidget(r, 2)
        i = combo.findData(Speed.FAST.value)
        combo.setCurrentIndex(i)
        combo.activated.emit(i)
        assert track.row(cid).declared == Speed.FAST
    _click(qtbot, panel.flip_button)
    assert track.state.stage.value == "resolved"
    for r, cid in enumerate(panel._row_ids):
        row = track.row(cid)
        if row.hesitated:
            assert panel.ph_table.item(r, 8).text() == "hesitates"
        else:
            assert row.phase in row.qualifying
            assert panel.ph_table.item(r, 3 + row.phase).text().endswith("✓")
    for _ in range(4):
        _click(qtbot, panel.phase_button)
        while track.state.stage.value == "acting" and track.next_to_act():
            assert panel.act(track.next_to_act())
    _click(qtbot, panel.phase_button)
    assert track.state.stage.value == "ended"
    assert panel.status.text() == "Round 1 over"
    # undo takes the round back step by step
    doc.undo_stack.undo()
    assert track.state.stage.value == "acting"


def test_rows_and_tokens_light_each_other_up(qtbot):
    doc = small_document()
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.hoverCharacter) as sig:
        panel._row_hovered(1)
    assert sig.args == [panel._row_ids[1]]
    panel.set_map_hover("felicia_laroq")
    assert panel.row_marked("felicia_laroq")
    panel.set_map_hover(None)
    doc.select("t_angus_laroq")
    assert panel.row_marked("angus_laroq")
    assert not panel.row_marked("felicia_laroq")


def test_catalogue_lists_weapons_and_moves(qtbot):
    doc = small_document()
    entries = catalogue(doc, doc.character("miranda_valentine"))
    labels = [e.label for e in entries]
    assert "Snap shot" in labels and "Drop prone" in labels
    costs = {
        e.label: e.spec.ap for e in entries if e.spec is not None and e.group == "Sharps rifle"
    }
    # RULES example 3: Sharps snap 3 AP, normal 7, aimed (one aim) 11
    assert costs["Snap shot"] == 3 and costs["Normal shot"] == 7
    assert costs["Aimed shot (1 aim)"] == 11
