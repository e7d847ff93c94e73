"""The attack panel's less common choices, driven through the real panel: fan firing,
a burst weapon's mode, a called shot's location, the defender's block and dodge, a
holstered gun going off on a calamity, the stray-shot rings on the map, and showing
the players the card (000 Fan Firing, Burst Fire, Hand to Hand Combat, Carrying
Loaded Weapons, Ancillary Effects; 001 Called Shots; 003 Fan Firing)."""

from __future__ import annotations

import uuid

import pytest
from PySide6.QtCore import Qt

from twtw_desktop.errors import RulesError
from twtw_desktop.play.attack import Spends, preview
from twtw_desktop.rules.character import CarriedWeapon
from twtw_desktop.rules.deck import standard_deck
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_panels_support import small_document

MIRANDA, FELICIA, ANGUS, CYRIL = (
    "t_miranda_valentine",
    "t_felicia_laroq",
    "t_angus_laroq",
    "t_cyril_wellington",
)


def put_on_top(deck, number: int) -> None:
    """Stack the deck so card ``number`` is drawn next."""
    st = deck.snapshot()
    pile = (number, *[n for n in st.draw_pile if n != number])
    deck.restore(st.model_copy(update={"draw_pile": pile}))


def card_that(doc, plan, want, spends=None) -> int:
    """A card number whose resolution of ``plan`` satisfies ``want(preview)``."""
    deck = doc.deck
    start = deck.snapshot()
    try:
        for n in range(1, 55):
            put_on_top(deck, n)
            try:
                p = preview(doc.table, plan, spends or [Spends()])
            except RulesError:
                continue
            if want(p):
                return n
    finally:
        deck.restore(start)
    pytest.fail("no card in the deck gives that result")


def judge_window(qtbot, qapp, tmp_path, monkeypatch, doc):
    """The real main window on ``doc``, shown offscreen at 1366×768."""
    from PySide6.QtWidgets import QMessageBox

    from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
    from twtw_desktop.ui.window.main_window import MainWindow

    # closing a changed document asks to save: answer Discard
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    use_ini_folder(tmp_path / "settings")
    qapp.setOrganizationName("TWTW-tests")
    qapp.setApplicationName(f"twtw-{uuid.uuid4().hex[:8]}")
    win = MainWindow(document=doc, settings=AppSettings())
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def _panel(qtbot, doc) -> AttackPanel:
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(300, 900)
    return panel


def _click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


# -- fan firing ------------------------------------------------------------------------


def test_fan_at_two_targets_is_one_undo_step(qtbot):
    """000 Fan Firing: 1 AP a shot and 1 per target switch; every shot is a snap shot
    with one more downgrade than the last and one more for the second target; the
    series draws once, logs each shot, fires three rounds and undoes as one step."""
    doc = small_document()
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    snap_tn = panel.plan.tn
    panel.set_fan(2, ANGUS, 1)
    plan = panel.plan
    assert plan is not None and plan.fan is not None and len(plan.series) == 3
    assert panel.fan_row.isVisibleTo(panel)
    # the AP: three shots and one switch, itemised before the draw
    assert plan.ap.total == 4
    lines = panel.tn_items()
    assert sum("fan shot" in ln for ln in lines) == 3
    assert any("switch target to Angus Laroq" in ln for ln in lines)
    assert any("fan firing, shot 1" in ln for ln in lines)
    mods = [s.tn.result_modifier for s in plan.series]
    assert mods[0] == snap_tn.result_modifier - 1
    assert mods[1] == snap_tn.result_modifier - 2
    assert mods[2] < mods[1]  # shot 3 and a second target
    assert "shot 1:" in panel.tn_headline.text()
    assert any("shot 3 at Angus Laroq" in g for g in plan.geometry)

    miranda = doc.character("miranda_valentine")
    idx = plan.request.weapon_index
    loaded = miranda.weapons[idx].loaded
    before = {c.id: c.model_copy(deep=True) for c in doc.encounter.characters}
    p = panel.draw()
    assert p is not None and len(p.records) == 3
    assert [r.hit.rank for r in p.records] == [1, 2, 3]
    assert panel.shot_spin.isVisibleTo(panel) and panel.shot_spin.maximum() == 3
    log_before = len(doc.encounter.log)
    panel.apply()
    assert len(doc.encounter.log) == log_before + 3
    assert doc.encounter.log[-1].detail["series"] == "shot 3 of 3"
    assert doc.undo_stack.count() == 1
    assert doc.character("miranda_valentine").weapons[idx].loaded == loaded - 3
    doc.undo_stack.undo()
    for c in doc.encounter.characters:
        assert c == before[c.id]
    assert not doc.deck.in_play and not doc.deck.discard_pile()


def test_fan_spends_follow_the_chosen_shot(qtbot):
    """Each shot of the series has its own bumps (002): the shot selector picks which."""
    from twtw_desktop.rules.base import Pool

    doc = small_document()
    doc.encounter.token(FELICIA).hex = (4, 3)
    # a sharper eye, so the second shot (at −4) can score a bump
    doc.character("miranda_valentine").traits["coordination"] = Pool(count=3, die=12)
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_fan(2)
    n = card_that(
        doc,
        panel.plan,
        lambda p: p.records[1].hit.success and p.records[1].hit.bumps >= 1,
    )
    put_on_top(doc.deck, n)
    panel.draw()
    panel.shot_spin.setValue(2)
    assert panel.shot_index == 1
    assert panel.change_spend("damage", 1)
    assert panel.series_spends[1].damage == 1 and panel.series_spends[0].damage == 0
    assert panel.current.records[1].spends.damage == 1


def test_fan_needs_a_single_action_revolver(qtbot):
    doc = small_document()
    panel = _panel(qtbot, doc)
    doc.select(CYRIL)
    panel.set_target(FELICIA)
    assert panel.shot_buttons["fan"].isEnabled()  # his Schofield is single action
    i = panel.weapon_combo.findText("Winchester", Qt.MatchFlag.MatchStartsWith)
    assert i >= 0
    panel.weapon_combo.setCurrentIndex(i)
    panel.weapon_combo.activated.emit(i)
    assert not panel.shot_buttons["fan"].isEnabled()
    panel.set_fan(1)
    assert panel.plan is None and "single-action" in panel.tn_label.text()


def test_phases_fan_is_one_check_and_buys_hits(qtbot):
    """003 Fan Firing: TN + shots, one check; the burst 3 hits, and a bump buys more
    up to the shots fired; a second target is refused at declaration."""
    doc = small_document("phases")
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    snap = panel.plan.tn.tn
    panel.set_fan(2, ANGUS, 1)
    assert panel.plan is None and "003" in panel.tn_label.text()
    panel.set_fan(3)
    assert panel.plan.tn.tn == snap + 3
    n = card_that(
        doc,
        panel.plan,
        lambda p: p.record.hit.success and p.record.hit.bumps >= 1 and p.record.hits < 3,
    )
    put_on_top(doc.deck, n)
    first = panel.draw()
    assert first.record.burst == 3
    assert panel.extra_hits_widgets[0].isVisibleTo(panel)
    assert panel.change_spend("extra_hits", 1)
    assert panel.current.record.hits == first.record.hits + 1


# -- burst, called shot ------------------------------------------------------------------


def test_burst_mode_changes_the_rounds_and_the_hits_read(qtbot):
    """000 Burst Fire: a weapon with several modes fires the smallest unless told; the
    chosen burst is the card's burst section read, and the rounds used."""
    doc = small_document()
    angus = doc.character("angus_laroq")
    angus.weapons = [
        CarriedWeapon(weapon_id="gatling_gun", readied=True, loaded=40),
        *angus.weapons,
    ]
    panel = _panel(qtbot, doc)
    doc.select(ANGUS)
    panel.set_target(CYRIL)
    panel.set_shot("normal")
    assert panel.burst_combo.isVisibleTo(panel)
    assert panel.plan.burst == 3
    assert any("burst 3: 3 rounds" in g for g in panel.plan.geometry)
    panel.set_burst(10)
    assert panel.plan.burst == 10
    assert any("burst 10: 10 rounds" in g for g in panel.plan.geometry)
    p = panel.draw()
    assert p.record.burst == 10
    panel.apply()
    assert doc.character("angus_laroq").weapons[0].loaded == 30
    doc.undo_stack.undo()
    assert doc.character("angus_laroq").weapons[0].loaded == 40


def test_called_shot_location_is_itemised_and_hit(qtbot):
    """001 Called Shots: a limb is −4, shown before the draw; a hit lands there."""
    doc = small_document()
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    plain = panel.plan.tn.result_modifier
    panel.set_called_shot("limb", "left_leg")
    assert not panel.called_loc_combo.isHidden()
    assert [panel.called_loc_combo.itemData(i) for i in range(4)] == [
        "left_arm",
        "right_arm",
        "left_leg",
        "right_leg",
    ]
    assert panel.plan.tn.result_modifier == plain - 4
    assert any("called shot at the left leg (limb): result -4" in ln for ln in panel.tn_items())
    n = card_that(doc, panel.plan, lambda p: p.record.location is not None)
    put_on_top(doc.deck, n)
    assert panel.draw().record.location.location.value == "left_leg"


# -- block and dodge ---------------------------------------------------------------------


def _engaged(qtbot, facing_felicia=3):
    doc = small_document()
    enc = doc.encounter
    enc.token(FELICIA).hex = (3, 3)  # beside Miranda at (2, 3)
    enc.token(FELICIA).facing = facing_felicia
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_mode("melee")
    panel.set_target(FELICIA)
    return doc, panel


def _engaged_with_counters(qtbot, miranda: int, felicia: int):
    """:func:`_engaged` in action time, the track run on until Miranda holds
    ``miranda`` action counters and Felicia ``felicia``."""
    doc, panel = _engaged(qtbot)
    doc.start_action_time()
    track = doc.track
    track.start_round()
    while (
        track.counters("miranda_valentine") < miranda or track.counters("felicia_laroq") < felicia
    ):
        track.advance_segment()
    # 000 Action Timing: the others let this segment go, so Miranda's attack is its
    # lone action (with others still to declare it would wait on the stack for them)
    others = [c for c in track.pending_declarers() if c != "miranda_valentine"]
    if others:
        track.pass_turn(others)
    return doc, panel, track


def test_block_costs_the_defender_and_tests_a_second_card(qtbot):
    """000 Hand to Hand Combat: a block is 2 AP of the defender's, declared before the
    attack; it is tested on its own card against the attack's result."""
    doc, panel = _engaged(qtbot)
    attacker_ap = panel.plan.ap.total
    panel.set_defense("block", "right_arm")
    assert panel.arm_combo.isVisibleTo(panel)
    assert panel.plan.ap.total == attacker_ap  # the attacker pays the same
    assert "Felicia Laroq: block: 2 AP (000 Hand to Hand Combat)" in panel.tn_items()
    assert f"{attacker_ap} AP (+2 Felicia)" in panel.tn_headline.text()
    assert any("blocks with bare hands" in g for g in panel.plan.geometry)
    n = card_that(doc, panel.plan, lambda p: p.record.hit.success)
    put_on_top(doc.deck, n)
    p = panel.draw()
    rec = p.record
    assert rec.block_outcome in ("failed", "to_arm", "blocked")
    assert len(rec.cards) >= 2 and any("blocks: card" in x for x in rec.notes)
    if rec.block_outcome == "blocked":
        assert rec.damage is None
    if rec.block_outcome == "to_arm":
        assert rec.location.location.value == "right_arm"
    panel.apply()
    assert not doc.deck.in_play  # the block card went to the discard pile too
    assert rec.cards[-1] in [c.number for c in doc.deck.discard_pile()]
    doc.undo_stack.undo()
    assert not doc.deck.discard_pile()


def test_dodge_downgrades_only_from_the_front(qtbot):
    """000: a dodge gives the attack AD downgrades against attacks from the defender's
    120° front (geometry's dodge front); from behind it does nothing."""
    doc, panel = _engaged(qtbot, facing_felicia=3)
    base = panel.plan.tn.result_modifier
    panel.set_defense("dodge")
    assert "Felicia Laroq: dodge: 3 AP (000 Hand to Hand Combat)" in panel.tn_items()
    front = any("inside Felicia Laroq's dodge front" in g for g in panel.plan.geometry)
    doc.encounter.token(FELICIA).facing = 0  # turn her back on Miranda
    panel.set_defense("dodge")
    behind = any("outside Felicia Laroq's dodge front" in g for g in panel.plan.geometry)
    assert front and behind
    assert panel.plan.tn.result_modifier == base
    assert any("outside the dodge" in n for n in panel.plan.tn.notes)
    doc.encounter.token(FELICIA).facing = 3
    panel.set_defense("dodge")
    assert panel.plan.tn.result_modifier == base - 1  # AD 1: Felicia has no Brawl
    assert any("dodges (AD 1)" in ln for ln in panel.tn_items())


def test_no_dodge_after_attacking_this_round(qtbot):
    """000: a dodge is an active defence, only for a fighter who makes no attacks."""
    doc, panel = _engaged(qtbot)
    doc.start_action_time()
    doc.track.start_round()
    panel.charge_check.setChecked(False)
    doc.select(FELICIA)
    panel.set_mode("melee")
    panel.set_target(MIRANDA)
    panel.draw()
    assert panel.apply() is not None  # Felicia swings at Miranda this round
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_defense("dodge")
    assert panel.plan is None and "cannot dodge" in panel.tn_label.text()
    panel.set_defense("block")
    assert panel.plan is not None


def test_defender_pays_on_the_track(qtbot):
    doc, panel, track = _engaged_with_counters(qtbot, 3, 2)
    panel.set_defense("block")
    felicia_spent = track.row("felicia_laroq").spent
    panel.draw()
    panel.apply()
    assert track.row("felicia_laroq").spent >= felicia_spent + 2
    assert "defense" in doc.encounter.log[-1].detail


# -- a gun going off in the holster ---------------------------------------------------------


def test_calamity_while_walking_fires_the_holstered_revolver(qtbot):
    """000 Carrying Loaded Weapons: Miranda walked this round with her second
    Peacemaker holstered fully loaded; card 32's CF sets it off and its toggle NO puts
    the round in her leg — the record, the sheet and undo all agree."""
    doc = small_document()
    enc = doc.encounter
    enc.token(MIRANDA).moved = 3
    miranda = doc.character("miranda_valentine")
    spare = miranda.weapons[1]
    spare.readied, spare.fully_loaded, spare.loaded = False, True, 6
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    assert any("fully loaded: a CF" in g for g in panel.plan.geometry)
    card32 = next(c for c in standard_deck() if c.number == 32)
    assert not card32.toggle
    put_on_top(doc.deck, 32)
    p = panel.draw()
    rec = p.record
    assert rec.hit.cf and len(rec.discharges) == 1 and rec.discharges[0].hit
    assert "goes off in its holster" in panel.result_label.text()
    before = miranda.model_copy(deep=True)
    panel.apply()
    d = rec.discharges[0]
    after = doc.character("miranda_valentine")
    loc = d.damage.location
    assert after.wounds[loc] == before.wounds[loc] + d.damage.wounds_added
    assert after.weapons[1].loaded == 5 and not after.weapons[1].fully_loaded
    assert doc.encounter.log[-1].detail["record"]["discharges"][0]["weapon_id"] == "colt_peacemaker"
    doc.undo_stack.undo()
    assert doc.character("miranda_valentine") == before


def test_standing_still_the_holstered_gun_stays_quiet(qtbot):
    doc = small_document()
    miranda = doc.character("miranda_valentine")
    spare = miranda.weapons[1]
    spare.readied, spare.fully_loaded = False, True
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    assert any("safe while standing still" in g for g in panel.plan.geometry)
    put_on_top(doc.deck, 32)
    assert panel.draw().record.discharges == ()


# -- the map: stray-shot rings, and the players' screen -------------------------------------


@pytest.fixture
def window(qtbot, qapp, tmp_path, monkeypatch):
    doc = small_document()
    doc.encounter.token(CYRIL).hex = (5, 3)  # on Miranda's line of fire at Felicia
    return judge_window(qtbot, qapp, tmp_path, monkeypatch, doc)


def _window_panel(win) -> AttackPanel:
    panel = win.findChild(AttackPanel)
    assert panel is not None
    return panel


def _snap_at_felicia(window):
    """Miranda's snap shot at Felicia planned in the window's attack panel."""
    doc = window.document
    panel = _window_panel(window)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    return doc, panel, window.map_view.overlays


def test_unintended_targets_are_ringed_before_the_shot(window, qtbot):
    """000 Ancillary Effects: the Judge tells the table who could be hit before the
    shot — the candidates are ringed; a new attack replaces the rings; Clear takes
    them down; the rings follow a token that moves."""
    doc, panel, ov = _snap_at_felicia(window)
    assert ov.stray_flags == {CYRIL: False}
    item = ov.flag_items[CYRIL]
    assert item.scene() is window.map_view.map_scene and item.label == "stray?"
    frame = window.map_view.map_scene.frame
    assert item.pos() == frame.center(doc.token(CYRIL).at)
    # the next attack (another target, nobody in the way) replaces them
    panel.set_target(ANGUS)
    assert ov.stray_flags == dict.fromkeys(panel.plan.situation.unintended_candidates, False)
    panel.set_mode("melee")  # no line of fire, no rings
    assert ov.stray_flags == {}
    panel.set_mode("ranged")
    panel.set_target(FELICIA)
    assert CYRIL in ov.flag_items
    _click(qtbot, panel.clear_flags_button)
    assert ov.stray_flags == {} and ov.flag_items == {}
    assert item.scene() is None


def test_overlay_flags_directly(window, qtbot):
    ov = window.map_view.overlays
    doc = window.document
    ov.flag_stray_targets([CYRIL], hit=[ANGUS])
    assert ov.flag_items[ANGUS].hit and ov.flag_items[ANGUS].label == "stray hit"
    assert not ov.flag_items[CYRIL].hit
    doc.encounter.token(CYRIL).hex = (6, 6)
    doc.tokenChanged.emit(CYRIL)
    frame = window.map_view.map_scene.frame
    qtbot.waitUntil(lambda: ov.flag_items[CYRIL].pos() == frame.center(doc.token(CYRIL).at))
    ov.clear_flags_action.trigger()
    assert ov.flag_items == {}


def test_a_stray_hit_is_ringed_red_after_apply(window, qtbot):
    doc, panel, ov = _snap_at_felicia(window)
    n = card_that(
        doc, panel.plan, lambda p: p.record.strays is not None and p.record.strays.candidates_hit
    )
    put_on_top(doc.deck, n)
    panel.draw()
    panel.apply()
    assert ov.stray_flags.get(CYRIL) is True
    assert ov.flag_items[CYRIL].label == "stray hit"
    # any document change re-plans the same shot; the red ring stays until the next attack
    doc.changed.emit("tokens")
    assert ov.stray_flags.get(CYRIL) is True
    panel.set_shot("normal")
    assert ov.stray_flags.get(CYRIL) is False


def test_show_the_players_the_card(window, qtbot):
    doc = window.document
    panel = _window_panel(window)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    assert not panel.show_card_button.isEnabled()
    p = panel.draw()
    assert panel.show_card_button.isEnabled()
    with qtbot.waitSignal(doc.playersShow, timeout=1000) as sig:
        _click(qtbot, panel.show_card_button)
    assert sig.args[0] == "card" and sig.args[1].number == p.card.number
    assert not panel.show_scatter_button.isEnabled()  # a shot has no scatter


def test_routine_snap_shot_in_five_clicks_in_the_window(window, qtbot):
    """The routine snap shot from a selected shooter: Snap → Draw → Apply."""
    doc = window.document
    panel = _window_panel(window)
    clicks = 0

    def click(widget) -> None:
        nonlocal clicks
        clicks += 1
        _click(qtbot, widget)

    doc.select(MIRANDA)
    assert panel.target_token() is not None  # the nearest enemy is pre-chosen
    click(panel.shot_buttons["snap"])
    click(panel.draw_button)
    click(panel.apply_button)
    assert clicks <= 5
    assert doc.encounter.log[-1].kind == "attack" and doc.undo_stack.count() == 1
    # back to the selection: the shooter stays selected and the keys go to the map
    assert doc.selected_token().id == MIRANDA
    assert window.focusWidget() is window.map_view


@pytest.mark.parametrize("mode", ["fan", "burst", "melee", "thrown"])
def test_the_panel_fits_a_300_pixel_dock(qtbot, mode):
    """Every control set fits a ~300 px dock at 1366×768 (nothing clipped on the right)."""
    doc = small_document()
    doc.encounter.token(FELICIA).hex = (3, 3)
    angus = doc.character("angus_laroq")
    angus.weapons = [CarriedWeapon(weapon_id="gatling_gun", readied=True, loaded=40)]
    panel = _panel(qtbot, doc)
    panel.situation_toggle.setChecked(True)
    if mode == "burst":
        doc.select(ANGUS)
        panel.set_target(CYRIL)
        panel.set_shot("normal")
        assert panel.burst_combo.isVisibleTo(panel)
        panel.set_burst_second(MIRANDA, 2)
        assert panel.burst_row.isVisibleTo(panel)
    else:
        doc.select(MIRANDA)
        panel.set_target(FELICIA)
    if mode == "fan":
        panel.set_fan(2, ANGUS, 1)
        panel.set_called_shot("head_hand_foot", "head")
    elif mode == "melee":
        panel.set_mode("melee")
        panel.set_defense("block")
    elif mode == "thrown":
        panel.set_mode("thrown")
    panel.show()
    assert panel.scroll.minimumSizeHint().width() <= 300, mode


def test_moving_the_hit_location_pays_bumps(qtbot):
    """000 Hit Location: each triangle is one bump to move up or down the stack."""
    doc = small_document()
    doc.encounter.token(FELICIA).hex = (4, 3)
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("normal")
    n = card_that(
        doc,
        panel.plan,
        lambda p: (
            p.record.hit.bumps >= 2
            and p.record.location is not None
            and p.record.location.stack_index == 2
        ),
    )
    put_on_top(doc.deck, n)
    panel.draw()
    assert panel.move_location(-1)
    loc = panel.current.record.location
    assert loc.stack_index == 1 and loc.bumps_spent == panel.current.card.hit_locations[1].triangles
    assert f"{loc.bumps_spent} bump(s)" in panel.message.text()


# -- review fixes: ablation across a fan, 003 secondary targets, the block's card ---------


def test_second_fan_shot_meets_the_cover_the_first_ablated(qtbot):
    """000 Armor Penetration/Ablation: an ablated cover keeps its lowered AV, so the
    second shot of a fan through the same crate (thin wood, AV 2) meets the AV the
    first shot left, and Apply lowers the crate once per ablation."""
    from twtw_desktop.rules.base import Pool

    doc = small_document(with_cover=True)
    doc.character("miranda_valentine").traits["coordination"] = Pool(count=3, die=12)
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_fan(2)
    assert panel.plan is not None and [c.feature_id for c in panel.plan.situation.covers]

    def both_meet_the_crate(p) -> bool:
        a, b = p.records
        return bool(
            a.hit.success and a.covers and a.covers[0].outcome == "A"
            and b.hit.success and b.covers
        )  # fmt: skip

    n = card_that(doc, panel.plan, both_meet_the_crate)
    put_on_top(doc.deck, n)
    p = panel.draw()
    first, second = p.records
    assert first.covers[0].new_av == first.covers[0].av - 1
    assert second.covers[0].av == first.covers[0].new_av
    crate = doc.map.feature("crate")
    panel.apply()
    assert crate.ablation == 1 + len(second.ablated_covers)
    doc.undo_stack.undo()
    assert doc.map.feature("crate").ablation == 0


def _phases_fan_with_a_bystander(qtbot):
    from twtw_desktop.rules.base import Pool

    doc = small_document("phases")
    doc.encounter.token(ANGUS).hex = (9, 4)  # a pace from Felicia at (9, 3)
    doc.character("miranda_valentine").traits["coordination"] = Pool(count=3, die=12)
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_fan(2)
    return doc, panel


def _two_successes(p) -> bool:
    rec = p.record
    cells = [c for c in rec.hit.cells if c != "CF"]
    ok = sum(1 for c in cells if c + rec.tn.result_modifier >= rec.tn.tn)
    return rec.hit.success and rec.hit.bumps >= 1 and ok >= 2 and rec.hits >= 2


def test_phases_fan_buys_a_secondary_target_with_a_bump(qtbot):
    """003 Secondary Targets (Jonah's example): with two successes in the pool and a
    bump, one of the fan's hits may strike an eligible second target; it costs the
    bump, the first target keeps the other hit, and Apply writes both as one step."""
    doc, panel = _phases_fan_with_a_bystander(qtbot)
    plan = panel.plan
    assert plan is not None and plan.fan.mode == "burst3"
    assert list(plan.fan_secondary) == [ANGUS]
    assert any("003 Secondary Targets" in g for g in plan.geometry)
    n = card_that(doc, plan, _two_successes)
    put_on_top(doc.deck, n)
    p = panel.draw()
    assert panel.secondary_combo.isVisibleTo(panel)
    assert [panel.secondary_combo.itemText(i) for i in range(2)] == ["— none —", "Angus Laroq"]
    hits = p.record.hits
    bumps = p.record.hit.bumps
    panel.secondary_combo.setCurrentIndex(1)
    panel.secondary_combo.activated.emit(1)
    cur = panel.current
    assert len(cur.records) == 2 and cur.records[1].target_id == "angus_laroq"
    first = cur.records[0]
    assert first.hits == hits and first.hits_for_other_targets == 1
    assert first.spends.secondary_targets == 1
    assert f"{bumps - 1} left" in panel.bumps_label.text()
    assert not panel.shot_spin.isVisibleTo(panel)  # one check: one set of spends
    panel.show()
    assert panel.scroll.minimumSizeHint().width() <= 300
    angus_before = doc.character("angus_laroq").model_copy(deep=True)
    log_before = len(doc.encounter.log)
    panel.apply()
    assert len(doc.encounter.log) == log_before + 2
    assert doc.encounter.log[-1].detail["record"]["target_id"] == "angus_laroq"
    dmg = doc.encounter.log[-1].detail["record"]["damage"]
    if dmg is not None:
        assert doc.character("angus_laroq").conc == angus_before.conc - dmg["conc_dealt"]
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert doc.character("angus_laroq") == angus_before


def test_secondary_target_needs_the_bump(qtbot):
    """003 Secondary Targets: without a bump to spend, the choice is refused with
    the reason and nothing changes."""
    doc, panel = _phases_fan_with_a_bystander(qtbot)

    def no_bump(p) -> bool:
        return p.record.hit.success and p.record.hit.bumps == 0

    n = card_that(doc, panel.plan, no_bump)
    put_on_top(doc.deck, n)
    panel.draw()
    assert panel.secondary_combo.isVisibleTo(panel)  # offered on every hit
    assert not panel.set_fan_secondary([ANGUS])
    assert panel.spends.secondary == [] and len(panel.current.records) == 1
    assert panel.message.text()


def _physical_block(qtbot):
    doc, panel = _engaged(qtbot)
    doc.deck.physical = True
    panel.set_defense("block")
    plan = panel.plan

    def hits(c) -> bool:
        try:
            p = preview(doc.table, plan, [Spends()], typed=c)
        except RulesError:
            return False
        return p.record.hit.success and p.outcome.needs_block_card

    attack = next(c for c in standard_deck() if hits(c))
    return doc, panel, attack


def test_physical_block_asks_for_its_own_card(qtbot):
    """000 Hand to Hand Combat: the block is its own test against the attack's
    result; with a printed deck its card is typed in the way the attack's is."""
    doc, panel, attack = _physical_block(qtbot)
    assert panel.draw() is None
    dlg = panel._dialog
    qtbot.addWidget(dlg)
    dlg.form.set_card(attack)
    assert dlg.try_accept()
    assert panel.needs_block_card()
    block_dlg = panel._dialog
    assert block_dlg is not dlg and "Felicia Laroq's block" in block_dlg.windowTitle()
    qtbot.addWidget(block_dlg)
    block = next(c for c in standard_deck() if c.number != attack.number)
    block_dlg.form.set_card(block)
    assert block_dlg.try_accept()
    rec = panel.current.record
    assert not panel.needs_block_card()
    assert rec.block_outcome in ("failed", "to_arm", "blocked")
    assert any(f"blocks: card {block.number}" in x for x in rec.notes)
    assert panel.apply() is not None
    assert sorted(c.number for c in doc.deck.discard_pile()) == sorted(
        [attack.number, block.number]
    )
    assert doc.encounter.log[-1].detail["record"]["block_outcome"] == rec.block_outcome
    doc.undo_stack.undo()
    assert not doc.deck.discard_pile() and not doc.deck.in_play


def test_physical_block_refuses_apply_until_its_card_is_typed(qtbot):
    """The block was declared before the attack (000): Apply waits for its card."""
    doc, panel, attack = _physical_block(qtbot)
    panel.draw()
    dlg = panel._dialog
    qtbot.addWidget(dlg)
    dlg.form.set_card(attack)
    assert dlg.try_accept()
    block_dlg = panel._dialog
    qtbot.addWidget(block_dlg)
    block_dlg.reject()
    assert panel.apply() is None
    assert "block" in panel.message.text()
    assert panel._dialog is not block_dlg  # asked again
    qtbot.addWidget(panel._dialog)
    assert not doc.deck.discard_pile() and doc.undo_stack.count() == 0
    # the attack's own card cannot be typed again for the block
    panel._dialog.form.set_card(attack)
    assert panel._dialog.try_accept()
    assert panel.needs_block_card() and "attack's card" in panel.message.text()


def test_a_dodge_is_paid_once_a_round(qtbot):
    """000 Hand to Hand Combat: a dodge (3 AP) works against every attack from its
    front, so a second attack the same round costs the defender nothing more."""
    doc, panel, track = _engaged_with_counters(qtbot, 6, 3)
    panel.set_defense("dodge")
    spent = track.row("felicia_laroq").spent
    panel.draw()
    assert panel.apply() is not None
    assert track.row("felicia_laroq").spent == spent + 3
    # Miranda attacks again on a later segment, once her counters cover it again
    # (segment by segment, the others letting each one go: 000 Action Timing)
    while track.counters("miranda_valentine") < panel.plan.ap.total:
        track.advance_segment()
        others = [c for c in track.pending_declarers() if c != "miranda_valentine"]
        if others:
            track.pass_turn(others)
    panel.set_defense("dodge")
    panel.draw()
    assert panel.apply() is not None, panel.message.text()
    assert track.row("felicia_laroq").spent == spent + 3
    assert "already dodging" in doc.encounter.log[-1].detail["defense"]


def test_a_dodging_fighter_cannot_attack_that_round(qtbot):
    """000 Hand to Hand Combat: a dodge is an active defence, employed only by a
    fighter who makes no attacks — once Felicia dodged, her own attack is refused."""
    doc, panel = _engaged(qtbot)
    doc.start_action_time()
    doc.track.start_round()
    panel.charge_check.setChecked(False)
    panel.set_defense("dodge")
    panel.draw()
    assert panel.apply() is not None
    doc.select(FELICIA)
    panel.set_mode("melee")
    panel.set_target(MIRANDA)
    assert panel.plan is None and "dodging this round" in panel.tn_label.text()


# -- a burst spread over two targets -------------------------------------------------------


def _gatling(qtbot):
    from twtw_desktop.rules.character import SkillRating

    doc = small_document()
    angus = doc.character("angus_laroq")
    # a practised gunner: 3d10, so the pool can show a second success
    angus.skills = {
        **angus.skills,
        "shooting_gatling": SkillRating(level=3, trait="coordination"),
    }
    angus.weapons = [
        CarriedWeapon(weapon_id="gatling_gun", readied=True, loaded=40),
        *angus.weapons,
    ]
    panel = _panel(qtbot, doc)
    doc.select(ANGUS)
    panel.set_target(CYRIL)
    panel.set_shot("normal")
    return doc, panel


def test_a_burst_spreads_its_hits_over_two_targets(qtbot):
    """000 Hitting Multiple Targets: each success after the first may send a hit of
    the burst to another target; the hits in all stay the card's burst hits. The
    spread is one Apply and one undo step."""
    doc, panel = _gatling(qtbot)
    assert panel.burst_row.isVisibleTo(panel)
    panel.set_burst(5)
    panel.set_burst_second(MIRANDA, 2)
    plan = panel.plan
    assert len(plan.burst_others) == 1 and plan.burst_others[0][3] == 2
    assert any("go on to Miranda Valentine" in g for g in plan.geometry)
    n = card_that(doc, plan, lambda p: len(p.records) == 2)
    put_on_top(doc.deck, n)
    p = panel.draw()
    first, sent = p.records
    assert first.target_id == "cyril_wellington" and sent.target_id == "miranda_valentine"
    assert 1 <= first.hits_for_other_targets <= 2 and sent.hits == first.hits_for_other_targets
    assert first.hits - first.hits_for_other_targets >= 1  # the first target keeps one
    assert any("sent on to Miranda Valentine" in x for x in sent.notes)
    assert "Sent on" in panel.result_label.text()
    assert not panel.shot_spin.isVisibleTo(panel)  # the bumps are the first target's
    before = {c.id: c.model_copy(deep=True) for c in doc.encounter.characters}
    log_before = len(doc.encounter.log)
    assert panel.apply() is not None
    assert len(doc.encounter.log) == log_before + 2
    assert doc.encounter.log[-1].detail["record"]["target_id"] == "miranda_valentine"
    assert doc.character("angus_laroq").weapons[0].loaded == 35
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    for c in doc.encounter.characters:
        assert c == before[c.id]


def test_a_burst_with_one_success_keeps_every_hit_on_the_target(qtbot):
    """000 Hitting Multiple Targets: only a further success can send a hit on."""
    doc, panel = _gatling(qtbot)
    panel.set_burst_second(MIRANDA, 1)

    def one_success(p) -> bool:
        return p.record.hit.success and len(p.records) == 1

    n = card_that(doc, panel.plan, one_success)
    put_on_top(doc.deck, n)
    p = panel.draw()
    assert p.record.hits_for_other_targets == 0
    assert any("Miranda Valentine" in x for x in p.record.notes)


def test_the_second_target_row_is_for_bursts_only(qtbot):
    doc = small_document()
    panel = _panel(qtbot, doc)
    doc.select(MIRANDA)
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    assert not panel.burst_row.isVisibleTo(panel)  # a Schofield fires single shots
    _doc2, gat = _gatling(qtbot)
    gat.set_burst_second(CYRIL, 1)  # the first target again
    assert gat.plan is None and "other than" in gat.tn_label.text()
    gat.set_burst_second(MIRANDA, 3)  # a burst of 3 keeps one for the target
    assert gat.plan is None and "at most 2" in gat.tn_label.text()


# -- dodging shots (the dodge_vs_ranged switch) ----------------------------------------------


def _allow_ranged_dodge(doc, monkeypatch) -> None:
    """Turn on the dodge_vs_ranged switch (a class attribute until editions.py has
    the field)."""
    opts = doc.encounter.options
    if "dodge_vs_ranged" in type(opts).model_fields:
        doc.encounter.options = opts.model_copy(update={"dodge_vs_ranged": True})
    else:
        monkeypatch.setattr(type(opts), "dodge_vs_ranged", True, raising=False)


def test_dodge_is_for_hand_to_hand_unless_the_judge_allows_shots(qtbot, monkeypatch):
    """000 Hand to Hand Combat: the dodge sits with the block and covers every attack
    from its front. Read as hand to hand by default; the dodge_vs_ranged switch lets
    a dodge from the front downgrade a shot too (the same AD, the same 3 AP)."""
    doc, panel = _engaged(qtbot, facing_felicia=3)
    panel.set_mode("ranged")
    panel.set_shot("snap")
    assert not panel.defense_row.isVisibleTo(panel)
    base = panel.plan.tn.result_modifier
    panel.set_defense("dodge")
    assert panel.plan.request.defense is None  # not offered, not applied
    assert panel.plan.tn.result_modifier == base

    _allow_ranged_dodge(doc, monkeypatch)
    panel.set_mode("ranged")
    assert panel.defense_row.isVisibleTo(panel)
    block = panel.defense_combo.model().item(panel.defense_combo.findData("block"))
    assert not block.isEnabled()  # a shot cannot be blocked
    panel.set_defense("dodge")
    assert panel.plan.tn.result_modifier == base - 1  # AD 1: Felicia has no Brawl
    assert "Felicia Laroq: dodge: 3 AP (000 Hand to Hand Combat)" in panel.tn_items()
    assert any("inside Felicia Laroq's dodge front" in g for g in panel.plan.geometry)
    doc.encounter.token(FELICIA).facing = 0  # her back to Miranda
    panel.set_defense("dodge")
    assert panel.plan.tn.result_modifier == base
    assert any("outside the dodge" in n for n in panel.plan.tn.notes)
    panel.draw()
    assert panel.apply() is not None
    assert doc.encounter.log[-1].detail.get("dodge_by") == "felicia_laroq"
    panel.set_mode("melee")  # back to hand to hand: block offered again
    assert block.isEnabled()


# -- Draw and Apply need a shooter and a target -----------------------------------------------


def test_draw_and_apply_wait_for_a_shooter_and_a_target(qtbot):
    doc = small_document()
    doc.select(None)
    panel = _panel(qtbot, doc)
    assert not panel.draw_button.isEnabled() and not panel.apply_button.isEnabled()
    assert "Select the attacker" in panel.draw_button.toolTip()
    assert "Select the attacker" in panel.apply_button.toolTip()
    assert panel.draw() is None and panel.apply() is None
    doc.select(MIRANDA)
    panel.set_target(None)
    assert not panel.draw_button.isEnabled()
    assert "Choose a target" in panel.draw_button.toolTip()
    panel.set_target(FELICIA)
    panel.set_shot("snap")
    assert panel.draw_button.isEnabled() and "Draw the action card" in panel.draw_button.toolTip()
    assert not panel.apply_button.isEnabled()
    panel.draw()
    assert panel.apply_button.isEnabled()


def test_a_holstered_gun_offers_draw_and_shoot_in_one_action(qtbot):
    """#16: shooting with a holstered gun is one flow: "draw first" is ticked, the draw's
    AP is in the cost shown before the card, and Apply leaves the gun in hand."""
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.attack_panel import AttackPanel

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.select("token-miranda_valentine")
    assert not doc.character("miranda_valentine").weapons[0].readied
    assert panel.draw_check.isEnabled() and panel.draw_check.isChecked()
    req = panel.request()
    assert req is not None and req.draw_first


def test_draw_waits_until_the_whole_action_is_payable(qtbot):
    """No card is shown and nothing is declared for an attack the round cannot pay
    (here: Miranda has 2 AP this round and the snap shot needs 3); the reason is shown."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.attack_panel import AttackPanel

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.character("miranda_valentine").ap = 2
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.select("token-miranda_valentine")
    panel.shot_buttons["snap"].click()
    assert panel.plan is not None and panel.refusal and panel.declare_mode == "now"
    assert "at most 2 counter" in panel.refusal
    assert not panel.draw_button.isEnabled()
    assert panel.refusal in panel.draw_button.toolTip()


def test_draw_declares_a_shot_the_counters_do_not_cover_yet(qtbot):
    """000 Action Timing: at segment 0 nobody has counters; Declare keeps the shot as
    Miranda's standing declaration (the TN panel says so) — nothing is counted past
    anyone — and the run declares it on the first segment her counters cover it."""
    from twtw_desktop.play.actions import StartActionTime, StartRound
    from twtw_desktop.play.declarations import RunOn
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.attack_panel import AttackPanel

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.character("miranda_valentine").weapons[0].readied = True
    doc.apply(StartActionTime())
    doc.apply(StartRound())  # segment 0: nobody has counters yet
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.select("token-miranda_valentine")
    panel.shot_buttons["snap"].click()
    assert panel.plan is not None and not panel.refusal
    assert panel.declare_mode == "standing" and panel.draw_button.text() == "Declare"
    assert "Declare: the attack is carried out when" in panel.tn_label.text()
    steps = doc.undo_stack.count()
    qtbot.mouseClick(panel.draw_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == steps + 1 and doc.table.track.state.segment == 0
    assert doc.table.track.state.standing["miranda_valentine"]
    for _ in range(20):
        if any(e.kind == "attack" for e in doc.encounter.log):
            break
        if doc.table.why_not(RunOn()) and not doc.table.track.pending_declarers():
            break  # a result with choices: the panel shows it
        doc.apply(RunOn(passing=doc.table.track.pending_declarers()))
    assert not doc.table.track.state.standing.get("miranda_valentine")
    doc.undo_stack.undo()
    assert doc.undo_stack.count() >= steps


def test_the_panel_follows_undo_of_an_applied_attack(qtbot):
    """#16: after an applied shot is undone the panel no longer shows its card."""
    from twtw_desktop.play.actions import Draw
    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.attack_panel import AttackPanel

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    doc.apply(Draw(who="miranda_valentine", weapon="colt_peacemaker"))
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.select("token-miranda_valentine")
    panel.shot_buttons["normal"].click()
    assert panel.draw() is not None
    assert panel.apply() is not None
    assert panel.card_view.card() is not None  # the result stays in view
    doc.undo_stack.undo()
    assert panel.card_view.card() is None and panel.current is None
    assert "undone" in panel.message.text()


def test_a_snap_shot_from_a_selected_shooter_takes_three_clicks_even_holstered(qtbot):
    """#16 flow target: a snap shot in at most 4 clicks from a selected shooter with the
    gun holstered (at most 3 readied). Snap, Draw, Apply: the nearest enemy is the
    default target and "draw first" is ticked for the holstered gun."""
    from PySide6.QtCore import Qt

    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument
    from twtw_desktop.ui.panels.attack_panel import AttackPanel

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    doc.select("token-miranda_valentine")  # the selected shooter, holstered
    applied = []
    panel.attackApplied.connect(applied.append)
    clicks = 0
    for button in (panel.shot_buttons["snap"], panel.draw_button, panel.apply_button):
        assert button.isEnabled(), button.text()
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        clicks += 1
    assert applied and clicks <= 4
    assert doc.character("miranda_valentine").weapons[0].readied


def test_a_stray_hit_is_resolved_against_the_unintended_target(window, qtbot):
    """#14 Unintended targets: a stray shot that hits Cyril is resolved against him —
    its own card, his own line of fire — and his sheet and the log say so."""
    doc, panel, _ov = _snap_at_felicia(window)
    n = card_that(
        doc, panel.plan, lambda p: p.record.strays is not None and p.record.strays.candidates_hit
    )
    put_on_top(doc.deck, n)
    cyril_id = doc.character_of(CYRIL).id
    before = doc.character(cyril_id).model_copy(deep=True)
    p = panel.draw()
    strays = [r for r in p.outcome.records if r.stray_of is not None]
    assert [r.target_id for r in strays] == [cyril_id]
    rec = strays[0]
    assert rec.cards and rec.cards[0] != n  # a card of its own
    assert any("unintended target" in x for x in rec.notes)
    panel.apply()
    lines = [e for e in doc.encounter.log if e.kind == "attack"]
    assert any("stray shot" in e.text and "Cyril" in e.text for e in lines)
    after = doc.character(cyril_id)
    if rec.damage is not None and rec.damage.wounds_added + rec.damage.conc_dealt:
        assert after != before
    doc.undo_stack.undo()
    assert doc.character(cyril_id) == before


def test_a_series_from_one_pool_is_declared_in_the_panel(window, qtbot):
    """000 Multiple Attacks from the window: Cyril declares a normal shot at Angus,
    then a snap at Felicia; one card, the pool's second result for the second
    attack, one undo step."""
    doc = window.document
    panel = _window_panel(window)
    for w in doc.character_of(CYRIL).weapons:
        w.readied = True
    doc.select(CYRIL)
    panel.set_target(ANGUS)
    panel.set_shot("normal")
    assert panel.series_row.isVisibleTo(panel)
    panel.series_combo.setCurrentIndex(panel.series_combo.findData(FELICIA))
    panel.series_kind.setCurrentIndex(panel.series_kind.findData("snap"))
    _click(qtbot, panel.series_add)
    assert "snap at Felicia" in panel.series_label.text()
    assert panel.plan is not None and len(panel.plan.series) == 2, panel.tn_label.text()
    assert any("switch target" in ln for ln in panel.tn_items())
    steps = doc.undo_stack.count()
    p = panel.draw()
    assert len(p.outcome.records) == 2 and panel.shot_spin.isVisibleTo(panel)
    panel.apply()
    assert doc.undo_stack.count() == steps + 1
    attacks = [e for e in doc.encounter.log if e.kind == "attack"][-2:]
    assert [e.detail["record"]["hit"]["rank"] for e in attacks] == [1, 2]
    assert panel.series_label.text() == ""  # made: the next attack is declared anew


def test_a_third_success_sends_hits_to_a_third_target(qtbot):
    """000 Hitting Multiple Targets: one other target per success after the first. A
    third target is offered once a second is named; a card with three successes
    sends hits to both, one with two only to the second (and says why)."""
    doc, panel = _gatling(qtbot)
    panel.set_burst(5)
    panel.set_burst_second(MIRANDA, 1)
    assert panel.burst_third_row.isVisibleTo(panel)
    panel.set_burst_third(FELICIA, 1)
    assert [o[0].id for o in panel.plan.burst_others] == [MIRANDA, FELICIA]
    assert panel.plan.pool.count >= 3
    n = card_that(doc, panel.plan, lambda p: len(p.records) == 3)
    put_on_top(doc.deck, n)
    p = panel.draw()
    assert [r.target_id for r in p.records] == [
        "cyril_wellington",
        "miranda_valentine",
        "felicia_laroq",
    ]
    assert p.records[0].hits - p.records[0].hits_for_other_targets >= 1
    panel.put_back()
    two = card_that(
        doc,
        panel.plan,
        lambda p: (
            len(p.records) == 2 and any("no success number 3" in x for x in p.records[0].notes)
        ),
    )
    assert two


def test_the_routine_snap_shot_is_two_clicks_from_a_selected_shooter(qtbot):
    """#16 flow: Snap is chosen from the start and the nearest enemy is the target, so
    a selected shooter's snap shot, holstered gun included, is Draw then Apply."""
    from PySide6.QtCore import Qt

    from twtw_desktop.resources import maps_dir
    from twtw_desktop.ui.core.document import EncounterDocument

    doc = EncounterDocument.open(maps_dir() / "main_street.encounter.json")
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    doc.select("token-miranda_valentine")
    assert panel.shot_kind() == "snap" and panel.target_token() is not None
    applied = []
    panel.attackApplied.connect(applied.append)
    for button in (panel.draw_button, panel.apply_button):
        assert button.isEnabled(), button.toolTip()
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert applied and doc.character("miranda_valentine").weapons[0].readied


def test_burst_bumps_go_to_penetration_by_choice(qtbot):
    """002 Bump Types: a burst's extra-hit bumps are damage or penetration, the
    player's choice — the spends' Burst → Pen row moves them."""
    doc, panel = _gatling(qtbot)
    panel.set_burst(5)

    def burst_bumps(p) -> bool:
        sp = p.record.spends
        return bool(sp is not None and sp.conditional_available.get("burst"))

    n = card_that(doc, panel.plan, burst_bumps)
    put_on_top(doc.deck, n)
    panel.draw()
    assert all(w.isVisibleTo(panel) for w in panel.burst_pen_widgets)
    assert panel.change_spend("burst_pen", 1)
    rec = panel.current.record
    assert any("(burst bumps)" in r and "penetration" in r for r in rec.spends.reasons)
    panel.apply()
    assert doc.encounter.log[-1].kind == "attack"
