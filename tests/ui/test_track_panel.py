"""The action track panel: a full AP v2 round (000 "Action Time") and a Phases round
(004 "Initiative And Action Speeds"), every step undoable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from twtw_desktop.play.catalogue import catalogue
from twtw_desktop.play.declarations import PassTurn, RunOn
from twtw_desktop.play.track_actions import Resolve
from twtw_desktop.rules import actions as A
from twtw_desktop.rules.base import Speed, WoundLocation
from twtw_desktop.rules.card import Card
from twtw_desktop.rules.editions import OptionalRules
from twtw_desktop.ui.core.document import EncounterDocument
from twtw_desktop.ui.panels.track_panel import SEGMENTS, ContinuousDialog, TrackPanel

from ..rules.test_action_track import card
from .test_panels_support import small_document, small_encounter


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _panel(qtbot, edition: str = "ap_v2", **options) -> tuple[EncounterDocument, TrackPanel]:
    enc = small_encounter(edition)
    enc.options = OptionalRules(**options)
    doc = EncounterDocument(enc)
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    return doc, panel


def test_full_ap_v2_round(qtbot):
    """000 Action Timing / Ending the Round: counters from IN, a declared shot pays
    with all counters present, the round ends after segment 20."""
    doc, panel = _panel(qtbot)
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
    doc, panel = _panel(qtbot)
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
    doc, panel = _panel(qtbot)
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
    doc, panel = _panel(qtbot, "phases")
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
    doc, panel = _panel(qtbot)
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


# =============================================================================
# The initiative stack, surprise, movers, bleeding (000 / 001 / 002 / 004)
# =============================================================================


#: reads 4 on every Quickness pool of the small encounter: an Easy (3) success with no
#: bump, so everyone's first counter is on their IN (000 The Initiative Test)
ON_IN = card(50, d8=[4], d10=[4])


def _scripted(panel, cards: dict[str, Card] | Card) -> None:
    """Make the panel read the given cards instead of drawing (as with a printed deck)."""
    panel._typed_cards = lambda keys: {
        k: (cards if isinstance(cards, Card) else cards[k]) for k, _who in keys
    }


def _to_segment(panel, segment: int) -> None:
    while panel.track.current_segment < segment:
        assert panel.next_segment(), panel.message.text()


def _menu_texts(menu) -> list[tuple[str, bool]]:
    out = []
    for act in menu.actions():
        out.append((act.text(), act.isEnabled()))
        if act.menu() is not None:
            out += _menu_texts(act.menu())
    return out


def test_joining_the_stack_costs_one_more_ap(qtbot):
    """000 Simultaneous Actions: Cyril puts his shot on the stack beside Miranda's,
    paying the counters as usual plus 1 AP from the pool; undo takes it back."""
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    assert panel.start_round()
    track = doc.track
    assert track.row("miranda_valentine").first_segment == 4
    assert track.row("cyril_wellington").first_segment == 5
    _to_segment(panel, 7)
    doc.select("t_cyril_wellington")
    panel._build_join_menu()
    assert any("No other action waits" in t for t, _ in _menu_texts(panel.join_menu))
    schofield = A.normal_shot(doc.gear.weapon("sw_schofield"))
    assert not panel.join_stack("cyril_wellington", schofield)
    assert "No other action waits" in panel.message.text()

    assert panel.declare("miranda_valentine", A.normal_shot(doc.gear.weapon("colt_peacemaker")))
    panel._build_join_menu()
    texts = _menu_texts(panel.join_menu)
    assert any("Normal shot — 3 AP + 1 AP to join" in t and on for t, on in texts)
    pool = track.row("cyril_wellington").pool
    steps = doc.undo_stack.count()
    assert panel.join_stack("cyril_wellington", schofield)
    assert doc.undo_stack.count() == steps + 1
    row = track.row("cyril_wellington")
    assert row.counters == 0 and row.pool == pool - 1 and row.pool_spent == 1
    entry = panel.stack_entry("cyril_wellington")
    assert entry is not None and entry.joined
    assert "joins the stack" in doc.encounter.log[-1].text
    _scripted(
        panel, {"miranda_valentine": card(1, fragment=3), "cyril_wellington": card(2, fragment=7)}
    )
    doc.apply(PassTurn())  # the others let segment 7 go before the flip (000 Action Timing)
    assert panel.resolve_stack(), panel.message.text()
    assert [e.character_id for e in track.stack()] == ["cyril_wellington", "miranda_valentine"]
    doc.undo_stack.undo()
    doc.undo_stack.undo()  # the others' pass
    doc.undo_stack.undo()
    assert track.row("cyril_wellington").counters == 3
    assert track.row("cyril_wellington").pool == pool


def test_rushing_pays_from_the_pool_and_the_tax_at_resolution(qtbot):
    """000 Rushing Actions: at most half the cost from the pool; a rushed shot is a
    snap shot; the resolution card's step is the rush tax."""
    doc, panel = _panel(qtbot, rushing=True)
    _scripted(panel, ON_IN)
    panel.start_round()
    track = doc.track
    shot = A.normal_shot(doc.gear.weapon("colt_peacemaker"))
    _to_segment(panel, 4)  # one counter: 2 AP would come from the pool, more than 3 // 2
    doc.select("t_miranda_valentine")
    panel._build_rush_menu()
    refused = [t for t, on in _menu_texts(panel.rush_menu) if not on and "Normal shot" in t]
    assert refused and "at most half" in refused[0]
    assert not panel.rush("miranda_valentine", shot)
    assert "at most half" in panel.message.text()
    _to_segment(panel, 5)
    pool = track.row("miranda_valentine").pool
    assert panel.rush("miranda_valentine", shot)
    entry = panel.stack_entry("miranda_valentine")
    assert entry.rushed == 1 and entry.resolves_as_snap
    assert track.row("miranda_valentine").pool == pool - 1
    assert not panel.next_segment()  # a rushed action needs its card for the tax
    assert "Resolve the initiative stack" in panel.message.text()
    _scripted(panel, card(3, step=2))
    doc.apply(PassTurn())  # the others let segment 5 go before the flip (000 Action Timing)
    assert panel.resolve_stack(), panel.message.text()
    assert track.stack()[0].rush_tax == 2
    assert track.row("miranda_valentine").pool == pool - 3


def test_rushing_is_off_unless_the_encounter_turns_it_on(qtbot):
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    panel.start_round()
    _to_segment(panel, 6)
    assert not panel.rush_button.isEnabled()
    assert "optional rule" in panel.rush_button.toolTip()
    doc.select("t_miranda_valentine")
    panel._build_rush_menu()
    assert _menu_texts(panel.rush_menu) == [
        ("Rushing actions is an optional rule, off for this encounter", False)
    ]
    assert not panel.rush("miranda_valentine", A.snap_shot(doc.gear.weapon("colt_peacemaker")))
    assert "optional rule" in panel.message.text()


def test_quick_draw_check_and_ap_for_the_stack(qtbot):
    """000 Determine Bonus: the TN 5 Quick Draw check first (+1 and +1 a bump), then
    AP from the pool, at most the Quick Draw level in all; the Judge's modifiers."""
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    panel.start_round()
    track = doc.track
    _to_segment(panel, 7)
    doc.select("t_miranda_valentine")
    panel._build_bonus_menu()
    assert any("has no action waiting" in t for t, _ in _menu_texts(panel.bonus_menu))
    assert panel.declare("miranda_valentine", A.normal_shot(doc.gear.weapon("colt_peacemaker")))
    # alone on the segment there is no order to win: the engine's refusal is shown
    panel._build_bonus_menu()
    texts = _menu_texts(panel.bonus_menu)
    assert any("alone on segment 7" in t and not on for t, on in texts)
    assert not any(t.startswith("Spend") and on for t, on in texts)
    other = next(
        cid for cid in panel._row_ids if cid != "miranda_valentine" and track.counters(cid) >= 1
    )
    assert panel.declare(other, A.drop_prone())
    panel._build_bonus_menu()
    texts = _menu_texts(panel.bonus_menu)
    assert any(t.startswith("Quick Draw check — 2d8 against TN 5") and on for t, on in texts)
    assert any(t == "Spend 2 AP from the pool: +2" and on for t, on in texts)

    _scripted(panel, card(9, d8=[7]))  # 7 against 5: a success, no bump
    assert panel.quick_draw("miranda_valentine")
    assert panel.stack_entry("miranda_valentine").quick_draw.bonus == 1
    assert not panel.quick_draw("miranda_valentine")
    assert "already tried" in panel.message.text()
    pool = track.row("miranda_valentine").pool
    assert panel.buy_stack_bonus("miranda_valentine", 1)
    assert track.row("miranda_valentine").pool == pool - 1
    assert not panel.buy_stack_bonus("miranda_valentine", 2)  # Quick Draw 2 in all
    assert "at most 2 AP" in panel.message.text()
    assert panel.set_stack_modifiers("miranda_valentine", gear=1, environment=-2, note="dust")
    items = {b.label: b.value for b in track.stack_bonus("miranda_valentine")}
    assert items == {
        "gear": 1,
        "wounds / environment": -2,
        "Quick Draw check": 1,
        "AP spent from the pool": 1,
    }
    panel._build_bonus_menu()
    assert any(
        "already tried Quick Draw" in t and not on for t, on in _menu_texts(panel.bonus_menu)
    )
    for _ in range(3):
        doc.undo_stack.undo()
    assert panel.stack_entry("miranda_valentine").bonus == 0
    assert track.row("miranda_valentine").pool == pool


def test_surprise_during_a_round_costs_the_rest_of_it(qtbot):
    """001 Surprise: once action time is under way the check is against 5; the
    surprised lose their counters and the rest of the round, one undoable step."""
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    panel.start_round()
    track = doc.track
    _to_segment(panel, 6)
    doc.select("t_miranda_valentine")
    panel._build_surprise_menu()
    texts = [t for t, _ in _menu_texts(panel.surprise_menu)]
    assert "expecting danger — Acuity against TN 5" in texts
    assert "not expecting (action time is under way) — Acuity against TN 5" in texts
    _scripted(panel, card(11, d8=[2]))  # Acuity 3d8 reads 2: surprised
    assert panel.surprise(["miranda_valentine"], False)
    row = track.row("miranda_valentine")
    assert row.status.value == "surprised" and row.counters == 0
    assert panel.last_event.surprise.tn == 5
    r = panel._row_ids.index("miranda_valentine")
    assert "(surprised)" in panel.ap_table.item(r, 0).text()
    doc.undo_stack.undo()
    assert track.row("miranda_valentine").status.value == "active"
    assert track.row("miranda_valentine").counters == 3


def test_surprising_a_whole_side_is_one_step(qtbot):
    doc, panel = _panel(qtbot, "phases")
    _scripted(panel, {"felicia_laroq": card(1, d8=[3]), "angus_laroq": card(2, d8=[8, 2])})
    steps = doc.undo_stack.count()
    log = len(doc.encounter.log)
    assert panel.surprise(["felicia_laroq", "angus_laroq"], False)  # declares action time
    assert doc.undo_stack.count() == steps + 2  # action time, then the checks
    track = doc.track
    assert track.row("felicia_laroq").surprise == "surprised"  # 3 against 9
    assert track.row("angus_laroq").surprise == "none"  # 8 is open-ended: well past 9
    lines = [e.text for e in doc.encounter.log[log:]]
    assert "Felicia Laroq is surprised" in lines and "Angus Laroq is not surprised" in lines
    _scripted(panel, ON_IN)
    panel.start_round()
    assert track.row("felicia_laroq").status.value == "surprised"  # sits round 1 out
    r = panel._row_ids.index("felicia_laroq")
    assert panel.ph_table.item(r, 8).text() == "surprised"
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert track.row("felicia_laroq").surprise == "none"


def test_continuous_movers_on_the_action_track(qtbot):
    """000 Continuous Action Movement: paces spread over 20 segments, moved before
    anyone acts, automated movers first."""
    doc, panel = _panel(qtbot)
    assert panel.toggle_action_time()
    assert panel.set_continuous("miranda_valentine", 20)
    assert panel.set_continuous("mover_wagon", 10, name="Runaway wagon", automated=True)
    assert not panel.set_continuous("mover_coach", 10, name="Stagecoach")
    assert "automated" in panel.message.text()
    assert panel.movers_button.text() == "Movers (2)"
    assert "Runaway wagon 10 paces a round" in panel.movers_button.toolTip()
    _scripted(panel, ON_IN)
    panel.start_round()
    panel.next_segment()
    moves = [(m.mover_id, m.paces) for m in panel.last_event.moves]
    assert moves == [("mover_wagon", 1), ("miranda_valentine", 1)]
    assert "Runaway wagon moves 1 pace(s)" in " ".join(doc.encounter.log[-1].detail["details"])
    assert panel.set_continuous("mover_wagon", None)
    assert [m.mover_id for m in doc.track.state.movers] == ["miranda_valentine"]
    doc.undo_stack.undo()
    assert len(doc.track.state.movers) == 2


def test_continuous_movers_in_the_phases_edition(qtbot):
    """002 Continuous Actions: four shares; the lower of skill and handling says after
    which phases the rider may maneuver."""
    doc, panel = _panel(qtbot, "phases")
    panel.toggle_action_time()
    assert panel.set_continuous("cyril_wellington", 27, skill=2, handling=3)
    mover = doc.track.state.movers[0]
    assert (mover.skill, mover.handling) == (2, 3)
    details = panel.last_event.details
    assert details == ("per continuous step: [7, 7, 7, 6]", "maneuvers after phase I, III")


def test_continuous_dialog_names_a_new_mover_and_previews(qtbot):
    doc, panel = _panel(qtbot, "phases")
    panel.toggle_action_time()
    dlg = ContinuousDialog(panel, doc, doc.track)
    qtbot.addWidget(dlg)
    dlg.who.setEditText("Runaway wagon")
    dlg.paces.setValue(27)
    v = dlg.values()
    assert v["mover_id"] == "mover_runaway_wagon" and v["automated"] and v["paces"] == 27
    assert v["name"] == "Runaway wagon"
    assert "I 7, II 7, III 7, IV 6" in dlg.preview.text()
    assert not dlg.automated.isEnabled()
    dlg.who.setCurrentIndex(dlg.who.findData("miranda_valentine"))
    dlg.skill.setValue(1)
    dlg.handling.setValue(4)
    assert dlg.who.currentData() == "miranda_valentine" and dlg.automated.isEnabled()
    assert not dlg.automated.isChecked() and dlg.paces.value() == 0  # not moving yet
    dlg.paces.setValue(16)
    assert "maneuvers after phase I (002)" in dlg.preview.text()
    assert dlg.values()["name"] is None  # a character keeps their own name


@pytest.mark.parametrize("edition", ["ap_v2", "phases"])
def test_bleeding_is_applied_logged_and_undone(qtbot, edition):
    """001 Optional Bleeding: at the end of the round the engine's new sheets are
    applied inside the same undoable step, one log line per character."""
    enc = small_encounter(edition)
    enc.options = OptionalRules(bleeding=True)
    angus = next(c for c in enc.characters if c.id == "angus_laroq")
    angus.wounds = {**angus.wounds, WoundLocation.TORSO: 3}
    doc = EncounterDocument(enc)
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    angus = doc.character("angus_laroq")
    conc = angus.conc
    _scripted(panel, card(50, d8=[6], d10=[6]))
    assert panel.start_round()
    log = len(doc.encounter.log)
    if edition == "ap_v2":
        assert panel.end_round()  # the Judge ends the round early
    else:
        for cid in panel._row_ids:
            assert panel.declare_speed(cid, Speed.FAST)
        assert panel.flip_card()
        while not doc.track.round_over:  # phases nobody acts in are skipped (004)
            assert panel.next_phase(), panel.message.text()
    assert doc.track.round_over
    assert doc.character("angus_laroq") is angus  # applied in place
    assert angus.conc == conc - 1 and angus.bleeding == 1
    lines = [e for e in doc.encounter.log[log:] if e.kind == "damage"]
    assert len(lines) == 1
    assert lines[0].text.startswith(f"Angus Laroq bleeds 1 Conc: {conc} → {conc - 1}")
    assert lines[0].detail["reasons"]
    steps = doc.undo_stack.count()
    doc.undo_stack.undo()
    assert doc.character("angus_laroq").conc == conc
    assert not any(e.kind == "damage" for e in doc.encounter.log[log:])
    doc.undo_stack.redo()
    assert doc.character("angus_laroq").conc == conc - 1
    assert doc.undo_stack.count() == steps


def test_shortcuts_press_the_shown_button(qtbot):
    doc, panel = _panel(qtbot)
    assert "(F5)" in panel.start_button.toolTip() and "(F6)" in panel.due_button.toolTip()
    assert "(Shift+F6)" in panel.next_button.toolTip()
    assert "(Alt+J)" in panel.join_button.toolTip()
    assert not panel.press("F6")  # no round yet: Next due is disabled
    _scripted(panel, ON_IN)
    assert panel.press("F5")
    assert doc.track.round == 1
    assert panel.press("Shift+F6")  # one segment
    assert doc.track.current_segment == 1
    assert panel.press("F6")  # on to the next segment where something is due
    assert doc.track.current_segment > 1 and "stopped because" in panel.info.toolTip()
    assert set(panel._shortcuts) >= {"F5", "F6", "F7", "F8", "F9", "Alt+S", "Alt+C"}
    _doc2, phases = _panel(qtbot, "phases")
    assert "(F6)" in phases.phase_button.toolTip()
    _scripted(phases, ON_IN)
    assert phases.press("F5")
    assert not phases.press("F6")  # declare first: Next phase waits for the flip


def test_buttons_fit_a_laptop_bottom_dock(qtbot):
    """At 1366×768 the bottom dock spans the window and is its default height (the
    panel's size hint): every button of both editions shows whole, the status line is
    not squeezed, and six rows of the track show with the message line (#16). A narrower dock never widens the window: the last
    buttons move into the tool bar's » menu and their keys still work."""
    for edition in ("ap_v2", "phases"):
        doc, panel = _panel(qtbot, edition)
        assert panel.minimumSizeHint().width() <= 400
        panel.status.setText("Round 10 · after 20 (24)")  # the longest status line
        panel.resize(1366, panel.sizeHint().height())
        panel.show()
        qtbot.waitExposed(panel)
        mine = [b for b in panel._bar_actions if panel.shown(b)]
        assert len(mine) >= 8
        for b in mine:
            assert b.isVisible(), b.text()  # not in the overflow menu
            right = b.mapTo(panel, b.rect().topRight()).x()
            assert right <= panel.width(), b.text()
            assert b.width() >= b.minimumSizeHint().width(), b.text()
        table = panel.stack.currentWidget()
        assert table.viewport().height() >= 6 * table.verticalHeader().defaultSectionSize()
        assert panel.info.isVisible() and panel.info.height() >= panel.info.fontMetrics().height()
        assert panel.status.width() >= panel.status.sizeHint().width()
        panel.resize(700, 190)
        QApplication.processEvents()  # the tool bar lays itself out again
        overflow = [b for b in mine if not b.isVisible()]
        assert overflow, "a 700 px dock cannot show every button"
        if edition == "ap_v2":
            _scripted(panel, ON_IN)
            assert panel.press("F5") and panel.press("F9")  # End round may be in the »
            assert doc.track.state.stage.value == "ended"


def test_menus_keep_ampersands_of_names(qtbot):
    """Menus show "Smith & Wesson" as written, not as a mnemonic on W."""
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    panel.start_round()
    doc.select("t_cyril_wellington")
    panel.fill_menu(panel.declare_menu, panel._build_declare_menu)
    groups = [a.text() for a in panel.declare_menu.actions() if a.menu() is not None]
    assert "Smith && Wesson Schofield (.44)" in groups


# =============================================================================
# Delaying: interrupt, keep waiting, stop waiting (004 Delaying an Action)
# =============================================================================


def _bar_card(number: int, **columns: list) -> Card:
    """A hand-built card with 004's example bar (Fast 7/5/3/1, Slow 13/11/8/3)."""
    c = card(number, **columns)
    data = c.model_dump(mode="json")
    data["initiative"] = {"fast": [7, 5, 3, 1], "normal": [10, 8, 5, 2], "slow": [13, 11, 8, 3]}
    return Card.model_validate(data)


#: every Reflex pool reads 3: on the Fast bar everyone may act in phase III or IV
ALL3 = _bar_card(51, d6=[3, 3, 3], d8=[3, 3, 3], d10=[3, 3, 3], d12=[3, 3, 3])


def _to_phase_three(qtbot) -> tuple[EncounterDocument, TrackPanel]:
    doc, panel = _panel(qtbot, "phases")
    _scripted(panel, ALL3)
    assert panel.start_round()
    for cid in panel._row_ids:
        assert panel.declare_speed(cid, Speed.FAST)
    assert panel._do(Resolve(cards={"all": ALL3}))
    # everyone reads phase III: one Next phase skips I and II, where nobody acts
    # (004 Taking Actions: "If no characters act in a phase it can be skipped")
    log = len(doc.encounter.log)
    assert panel.next_phase(), panel.message.text()
    assert doc.track.state.phase == 3
    texts = " ".join(e.text + str(e.detail) for e in doc.encounter.log[log:])
    assert "Phase I: nobody acts — skipped" in texts and "Phase II: nobody acts" in texts
    return doc, panel


def test_interrupt_is_the_reflex_contest_at_minus_two(qtbot):
    """004 Delaying an Action: only a delaying character may interrupt; they pick
    whom to go before (the next to act first) and a Reflex contest on one card, the
    interrupter at −2, decides; one undoable step. A refusal shows the engine's words."""
    doc, panel = _to_phase_three(qtbot)
    track = doc.track
    assert panel.shown(panel.interrupt_button) and panel.interrupt_button.isEnabled()
    assert "(Alt+I)" in panel.interrupt_button.toolTip()
    assert track.acting_order() == [
        "miranda_valentine",
        "angus_laroq",
        "felicia_laroq",
        "cyril_wellington",
    ]
    doc.select("t_miranda_valentine")
    panel._build_interrupt_menu()
    assert any("Only a delaying character" in t for t, _ in _menu_texts(panel.interrupt_menu))
    assert not panel.interrupt("miranda_valentine")
    assert "is not delaying" in panel.message.text()

    assert panel.delay("miranda_valentine", "a target shows")
    assert track.row("miranda_valentine").waiting_for == "a target shows"
    panel._build_interrupt_menu()
    texts = [t for t, on in _menu_texts(panel.interrupt_menu) if on and not t.startswith("Mir")]
    assert texts == ["Angus Laroq  (next to act)", "Felicia Laroq", "Cyril Wellington"]

    # Miranda's 3d10 reads 9 − 2 = 7 against Angus' 2d10 reading 3: she goes first
    steps = doc.undo_stack.count()
    _scripted(panel, _bar_card(52, d10=[3, 3, 9]))
    assert panel.interrupt("miranda_valentine")
    contest = panel.last_event.contest
    assert contest.target_id == "angus_laroq" and contest.interrupter_wins
    assert (contest.interrupter_result, contest.target_result) == (7, 3)
    assert track.row("miranda_valentine").preempting
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert not track.row("miranda_valentine").preempting
    # a tie stays with the one acting: 5 − 2 = 3 against 3
    _scripted(panel, _bar_card(53, d10=[3, 3, 5]))
    assert panel.interrupt("miranda_valentine", "felicia_laroq")
    assert not panel.last_event.contest.interrupter_wins
    assert not track.row("miranda_valentine").preempting


def test_keep_and_stop_waiting_into_the_next_round(qtbot):
    """004 Delaying an Action: a circumstance still unmet at the round's end may be
    waited for — Fast for readiness, the action's own speed otherwise — or dropped
    for a fresh declaration; each is one undoable step with its own key."""
    doc, panel = _to_phase_three(qtbot)
    track = doc.track
    assert not panel.keep_button.isEnabled()  # only while declaring
    # Delay asks for the circumstance
    from PySide6.QtWidgets import QInputDialog

    orig = QInputDialog.getText
    QInputDialog.getText = staticmethod(lambda *a, **k: ("the stage arrives", True))
    try:
        doc.select("t_miranda_valentine")
        assert panel.press("Alt+D")  # Delay's own key (F9 ends the round in both editions)
    finally:
        QInputDialog.getText = orig
    assert track.row("miranda_valentine").waiting_for == "the stage arrives"
    assert panel.next_phase() and panel.next_phase()
    assert track.round_over
    assert panel.start_round()
    assert track.row("miranda_valentine").waiting_for == "the stage arrives"
    r = panel._row_ids.index("miranda_valentine")
    assert panel.ph_table.item(r, 8).text() == "still waiting?"
    assert "the stage arrives" in panel.ph_table.item(r, 8).toolTip()
    assert panel.keep_button.isEnabled() and panel.stop_button.isEnabled()
    assert "(Alt+K)" in panel.keep_button.toolTip() and "(Alt+W)" in panel.stop_button.toolTip()

    # the engine's refusal, word for word, and nothing changes
    before = track.state
    assert not panel.keep_waiting("cyril_wellington")
    assert "not waiting for anything from last round" in panel.message.text()
    assert track.state == before

    doc.select("t_miranda_valentine")
    steps = doc.undo_stack.count()
    assert panel.press("Alt+K")
    row = track.row("miranda_valentine")
    assert row.delayed and row.bar_speed == Speed.FAST and row.declared == Speed.FAST
    assert doc.undo_stack.count() == steps + 1
    doc.undo_stack.undo()
    assert track.row("miranda_valentine").declared is None
    assert panel.press("Alt+W")
    row = track.row("miranda_valentine")
    assert row.waiting_for is None and row.declared is None
    assert not panel.keep_button.isEnabled()  # nobody waits any more
    doc.undo_stack.undo()
    assert track.row("miranda_valentine").waiting_for == "the stage arrives"


def _cells(panel: TrackPanel) -> list[tuple]:
    t = panel.ap_table
    out = []
    for r in range(t.rowCount()):
        for c in range(t.columnCount()):
            it = t.item(r, c)
            out.append(
                (r, c)
                + (
                    (
                        it.text(),
                        it.toolTip(),
                        it.background().color().name(),
                        int(it.textAlignment()),
                    )
                    if it is not None
                    else (None,)
                )
            )
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    # the current segment's colour is its column's band, on that column only
    current = [t.band == c for c in range(t.columnCount())]
    return [*out, tuple(heads), tuple(current)]


def test_the_track_updates_only_changed_cells_yet_shows_what_a_fresh_panel_shows(qtbot):
    """The AP table is refreshed cell by cell (what changed since it was last drawn):
    after every kind of step — a segment, a declaration, a resolved stack, an undo —
    it shows exactly what a panel built afresh on the same document shows."""
    doc, panel = _panel(qtbot)

    def same() -> None:
        fresh = TrackPanel(doc)
        qtbot.addWidget(fresh)
        assert _cells(panel) == _cells(fresh)
        fresh.deleteLater()

    same()
    _click(qtbot, panel.start_button)
    same()
    track = doc.track
    assert track is not None
    _click(qtbot, panel.next_button)
    seg = track.current_segment
    assert panel.ap_table.band == 2 + seg
    assert sum(x for x in _cells(panel)[-1]) == 1
    while track.counters("miranda_valentine") < 1:
        _click(qtbot, panel.next_button)
        same()
    peacemaker = doc.gear.weapon("colt_peacemaker")
    assert panel.declare("miranda_valentine", A.snap_shot(peacemaker))
    same()
    doc.undo_stack.undo()
    same()
    doc.undo_stack.redo()
    same()
    for _ in range(3):
        _click(qtbot, panel.next_button)
        same()
    if panel.resolve_button.isEnabled():
        _click(qtbot, panel.resolve_button)
        same()
    for _ in range(4):
        doc.undo_stack.undo()
        same()


def test_a_shown_track_draws_the_rows_in_view_and_the_others_when_they_come_into_view(qtbot):
    """On screen, a step redraws only the rows in view (a table of 200 figures shows a
    dozen); rows scrolled or resized into view are drawn then, and show exactly what
    a panel built afresh shows."""
    doc, panel = _panel(qtbot)
    panel.ap_table.setFixedHeight(48)  # a row or two in view
    panel.show()
    qtbot.waitExposed(panel)
    _click(qtbot, panel.start_button)
    for _ in range(4):
        _click(qtbot, panel.next_button)
    t = panel.ap_table
    assert panel._stale_rows  # some rows are out of view, not drawn yet
    assert all(r not in panel._stale_rows for r in panel._visible_rows(t.rowCount()))
    t.verticalScrollBar().setValue(t.verticalScrollBar().maximum())
    QApplication.processEvents()
    panel.ap_table.setMinimumHeight(0)
    panel.ap_table.setMaximumHeight(10_000)
    panel.resize(900, 800)  # every row in view
    QApplication.processEvents()
    assert not panel._stale_rows
    fresh = TrackPanel(doc)
    qtbot.addWidget(fresh)
    assert _cells(panel) == _cells(fresh)


def test_the_track_keeps_twelve_rows_in_view_and_its_names_measured(qtbot):
    """Issue #27 (track/fit.py): room for twelve rows whatever the cast (the longest
    sample's twelve, or nine and three NPCs; the dock does not jump from one encounter
    to the next); more scroll. The character column is as wide as the names, measured
    again when a name changes (a status or ▶ mark), not on every cell's change."""
    from twtw_desktop.ui.panels.track.fit import NAME_WIDTH_MAX, ROWS_IN_VIEW, rows_height

    assert ROWS_IN_VIEW == 12
    _doc, panel = _panel(qtbot)
    panel.show()
    qtbot.waitExposed(panel)
    t = panel.ap_table
    assert panel.stack.minimumHeight() == rows_height(t, ROWS_IN_VIEW)

    def widest() -> int:
        fm = t.fontMetrics()
        return max(fm.horizontalAdvance(t.item(r, 0).text()) for r in range(t.rowCount()))

    assert widest() <= t.columnWidth(0) <= widest() + 40
    before = t.columnWidth(0)
    # a name drawn anew (a status, ⋯ or ▶): its width is noted as it is drawn
    panel._put(t, 0, 0, t.item(0, 0).text() + " (stunned) ⋯", center=False)
    panel._fit()
    assert t.columnWidth(0) > before
    assert widest() <= t.columnWidth(0) <= min(NAME_WIDTH_MAX, widest() + 40)
    panel._put(t, 0, 0, "A name far longer than the column may ever grow to be", center=False)
    panel._fit()
    assert t.columnWidth(0) == NAME_WIDTH_MAX  # (elided; the tooltip has it whole)


def test_a_phases_row_offers_a_free_action_one_a_round(qtbot, monkeypatch):
    """004 Free Actions: "one free action" a round on top of the declaration, further
    ones count as Quick — offered on the row's menu in the Phases round, journaled."""
    from PySide6.QtWidgets import QInputDialog

    from twtw_desktop.play.actions import StartActionTime
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.track_panel import TrackPanel

    doc = EncounterDocument.open(maps_dir() / "laroq_hacienda.encounter.json")
    assert doc.encounter.edition == "phases"
    panel = TrackPanel(doc)
    qtbot.addWidget(panel)
    from twtw_desktop.play.actions import Declare, StartRound

    doc.apply(StartActionTime())
    doc.apply(StartRound())
    for c in doc.table.track.state.rows:
        doc.apply(Declare(who=c, speed=Speed.SLOW))
    doc.apply(Resolve())  # free actions are taken once the round's card is flipped
    panel.refresh()
    table = panel.stack.currentWidget()
    cid = panel._row_ids[0]
    pos = table.visualItemRect(table.item(0, 0)).center()
    acts = [a for a in panel.row_menu_actions(table, pos, None) if "free action" in a.text()]
    assert len(acts) == 1 and acts[0].isEnabled(), [a.text() for a in acts]
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("a shout", True)))
    acts[0].trigger()
    assert any("a shout" in e.text for e in doc.encounter.log)
    assert doc.character(cid).name in doc.encounter.log[-1].text


def test_the_line_under_the_track_says_why_the_run_stopped(qtbot):
    """#37: after a step taken elsewhere (an Apply in the attack panel, a recovery…)
    the line under the track still says why the run stopped — the table's own words,
    as ``play`` prints them — not the list of everyone declaring."""
    doc, panel = _panel(qtbot)
    _scripted(panel, ON_IN)
    assert panel.press("F5") and panel.press("F6")
    stop = next(
        e.detail["stop"] for e in reversed(doc.encounter.log) if e.detail and "stop" in e.detail
    )
    panel.refresh()  # what any other step's change does
    assert panel.info.full.startswith("Stopped: ")
    assert not panel.info.full.startswith("Declaring")
    why = doc.table.why_not(RunOn())
    assert panel.info.full in (f"Stopped: {why}", f"Stopped: {stop} — F6 runs on")


def test_the_current_segment_is_a_coloured_band_and_a_marked_head(qtbot):
    """A counted segment moves the current colour to its column (painted behind the
    cells: the IN marker keeps its own) and marks its head ▶, bold; the column before
    goes back to plain. The table is not painted whole for it (a column's delegate
    changed, or its model announcing the heads, had the view laid out and painted
    again: 3–4 ms a segment with 200 rows)."""
    from PySide6.QtCore import QEvent, QObject, QPoint

    from twtw_desktop.ui.panels.track.widgets import _CUR, _IN

    doc, panel = _panel(qtbot)
    panel.resize(1100, 400)
    panel.show()
    qtbot.waitExposed(panel)
    _click(qtbot, panel.start_button)
    _click(qtbot, panel.next_button)
    t = panel.ap_table
    QApplication.processEvents()

    def colour(row: int, col: int):
        img = t.viewport().grab().toImage()
        x = t.columnViewportPosition(col) + 3  # beside any mark drawn in the cell
        y = t.rowViewportPosition(row) + t.rowHeight(row) // 2
        return img.pixelColor(x, y)

    def plain_row(col: int) -> int:  # a row whose cell there is neither IN nor out
        for r in range(t.rowCount()):
            it = t.item(r, col)
            if it is None or it.background().style() == Qt.BrushStyle.NoBrush:
                return r
        raise AssertionError("no plain cell")

    painted = []  # the regions of the table painted again

    class Count(QObject):
        def eventFilter(self, obj, ev):
            if ev.type() == QEvent.Type.Paint and obj is t.viewport():
                painted.append(ev.region())
            return False

    counter = Count()
    QApplication.instance().installEventFilter(counter)
    for _ in range(2):
        seg = doc.track.current_segment
        col = 2 + seg
        assert t.horizontalHeaderItem(col).text() == f"▶{seg}"
        assert t.horizontalHeaderItem(col).font().bold()
        assert colour(plain_row(col), col) == _CUR
        if seg > 1:
            assert t.horizontalHeaderItem(col - 1).text() == str(seg - 1)
            assert not t.horizontalHeaderItem(col - 1).font().bold()
            assert colour(plain_row(col - 1), col - 1) != _CUR
        marked = [
            r
            for r in range(t.rowCount())
            if (it := t.item(r, col)) and it.background().color() == _IN
        ]
        for r in marked:
            assert colour(r, col) == _IN
        painted.clear()
        _click(qtbot, panel.next_button)
        QApplication.processEvents()
        # a column far from the segments counted is not painted again
        far = t.columnViewportPosition(2 + SEGMENTS - 1) + 3
        assert painted and not any(r.contains(QPoint(far, 5)) for r in painted)
    QApplication.instance().removeEventFilter(counter)


def test_the_message_line_is_selectable_under_the_mouse(qtbot):
    """The line under the track can be selected to copy it once the mouse is over it
    (kept plain otherwise: a selectable label lays its text out as a document on each
    change)."""
    _doc, panel = _panel(qtbot)
    panel.resize(1100, 400)
    panel.show()
    qtbot.waitExposed(panel)
    _click(qtbot, panel.start_button)
    info = panel.info
    assert info.textInteractionFlags() == Qt.TextInteractionFlag.NoTextInteraction
    qtbot.mouseMove(info, info.rect().center())
    qtbot.wait(20)
    assert info.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
