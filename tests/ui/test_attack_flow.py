"""The attack flow across the sample encounter (000 "Action Cards in Combat").

Miranda stands inside the Longhorn saloon behind its west glass window and fires
through it at Felicia in the street: the TN is itemised before the draw, the card is
shown, the glass takes the hit first (000 Armor Penetration/Ablation), Felicia's
sheet takes the wounds, and undo puts everything back — the card on the pile too.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from twtw_desktop.errors import RulesError
from twtw_desktop.hexgrid import Hex
from twtw_desktop.play.attack import Spends, preview
from twtw_desktop.ui.panels.attack_panel import AttackPanel

from .test_panels_support import sample_encounter_path, small_document

#: the window Miranda shoots through (any closed glass window when it is renamed)
PREFERRED_WINDOW = "saloon-window-front"


def _through_a_window(doc) -> tuple[str, Hex, Hex]:
    """A closed glass window and two free hexes on either side whose line of fire
    meets that window and nothing else, covering the whole target."""
    from twtw_desktop.geometry.sight import cover_line
    from twtw_desktop.geometry.walls import WallIndex

    m = doc.map
    idx = WallIndex(m, doc.edition.cover_av)
    layout = m.layout()
    windows = [
        f
        for f in m.features
        if f.kind == "window" and f.material.value == "glass" and not f.is_open
    ]
    windows.sort(key=lambda f: f.id != PREFERRED_WINDOW)
    for f in windows:
        (x1, y1), (x2, y2) = f.points[0], f.points[-1]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        near = []
        for h in m.hexes():
            x, y = layout.hex_to_pixel(h)
            if (x - mx) ** 2 + (y - my) ** 2 < 16 and doc.encounter.token_at(h) is None:
                near.append(h)
        for a in near:
            for b in near:
                if a.distance(b) < 2:
                    continue
                cl = cover_line(m, idx, a, b, edition=doc.edition)
                if [c.feature_id for c in cl.crossings] == [f.id] and len(
                    cl.crossings[0].covers
                ) == 8:
                    return f.id, a, b
    pytest.skip("the sample map has no clear shot through a glass window")


def _ready_everyone(doc) -> None:
    for c in doc.encounter.characters:
        for w in c.weapons:
            w.readied = True


def _put_on_top(deck, number: int) -> None:
    st = deck.snapshot()
    pile = (number, *[n for n in st.draw_pile if n != number])
    deck.restore(st.model_copy(update={"draw_pile": pile}))


@pytest.fixture
def street(qtbot):
    path = sample_encounter_path()
    if path is None:
        pytest.skip("the sample encounter is not there yet")
    from twtw_desktop.ui.core.document import EncounterDocument

    doc = EncounterDocument.open(path)
    enc = doc.encounter
    window, shooter_hex, target_hex = _through_a_window(doc)
    enc.token("token-miranda_valentine").hex = (shooter_hex.q, shooter_hex.r)
    enc.token("token-felicia_laroq").hex = (target_hex.q, target_hex.r)
    _ready_everyone(doc)
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(380, 900)
    panel.window_id = window
    return doc, panel


def _choose_target(panel, token_id: str) -> None:
    i = panel.target_combo.findData(token_id)
    assert i > 0
    panel.target_combo.setCurrentIndex(i)
    panel.target_combo.activated.emit(i)


def _card_that(doc, panel, want) -> int:
    """A card number whose resolution of the current plan satisfies ``want``."""
    deck = doc.deck
    start = deck.snapshot()
    try:
        for n in range(1, 55):
            _put_on_top(deck, n)
            try:
                p = preview(doc.table, panel.plan, Spends())
            except RulesError:
                continue
            if want(p.record):
                return n
    finally:
        deck.restore(start)
    pytest.fail("no card in the deck gives that result")


def test_fire_across_a_window(qtbot, street):
    """000 Armor Penetration/Ablation: glass (AV 1) is hit first; an ablating hit
    deals reduced damage and lowers the window's AV by one, which undo gives back."""
    doc, panel = street
    window_id = panel.window_id
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    qtbot.mouseClick(panel.shot_buttons["snap"], Qt.MouseButton.LeftButton)

    # the TN and the AP are itemised before any card is drawn
    assert panel.plan is not None
    lines = panel.tn_items()
    assert lines[0].startswith("Standard: TN 5")
    assert any("snap shot" in ln for ln in lines)
    assert any(ln.endswith("AP (000 Aim and Snap Shots)") for ln in lines)
    assert any("glass" in g for g in panel.plan.geometry)
    assert [c.feature_id for c in panel.plan.situation.covers] == [window_id]
    assert doc.deck.draw_count == 54 and not doc.deck.in_play

    def ablates(rec) -> bool:
        return (
            rec.hit.success
            and rec.covers
            and rec.covers[0].outcome == "A"
            and rec.damage is not None
            and rec.damage.wounds_added + rec.damage.conc_dealt > 0
        )

    n = _card_that(doc, panel, ablates)
    _put_on_top(doc.deck, n)
    felicia = doc.character("felicia_laroq")
    before = felicia.model_copy(deep=True)
    miranda_before = doc.character("miranda_valentine").model_copy(deep=True)
    window = doc.map.feature(window_id)
    av_before = window.av(doc.edition.cover_av)

    qtbot.mouseClick(panel.draw_button, Qt.MouseButton.LeftButton)
    assert panel.card_view.card() is not None and panel.card_view.card().number == n
    hl = panel.card_view.highlights()
    assert hl.cause and hl.cause_chosen is not None and "shield" in hl.sections
    # Draw deals the card for real (no card is shown the deck has not dealt): it is in
    # play, and Apply joins the draw's undo step
    assert doc.deck.draw_count == 53
    assert [c.number for c in doc.deck.in_play] == [n]

    with qtbot.waitSignal(doc.featureChanged, timeout=1000) as sig:
        qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert sig.args == [window_id]
    rec = panel.attackApplied and doc.encounter.log[-1].detail["record"]
    assert rec["covers"][0]["outcome"] == "A"
    # wounds and Conc on Felicia's sheet, exactly as the record says
    dmg = rec["damage"]
    assert felicia.conc == before.conc - dmg["conc_dealt"]
    loc = dmg["location"]
    assert felicia.wounds[loc] == before.wounds[loc] + dmg["wounds_added"]
    # the window lost one AV and keeps it lost (000)
    assert window.ablation == 1
    assert window.av(doc.edition.cover_av) == av_before - 1
    # the shot left Miranda's gun
    shooter = doc.character("miranda_valentine")
    idx = panel.plan.request.weapon_index
    assert shooter.weapons[idx].loaded == miranda_before.weapons[idx].loaded - 1
    # the card went through the deck to the discard pile; the log has the line
    assert n in [c.number for c in doc.deck.discard_pile()]
    entry = doc.encounter.log[-1]
    assert entry.kind == "attack" and "Miranda Valentine" in entry.text
    assert "Felicia Laroq" in entry.text

    doc.undo_stack.undo()
    assert felicia == before
    assert doc.character("miranda_valentine") == miranda_before
    assert doc.map.feature(window_id).ablation == 0
    assert doc.deck.draw_count == 54
    assert doc.deck.snapshot().draw_pile[0] == n  # the card is back on the pile
    assert not doc.deck.discard_pile()

    doc.undo_stack.redo()
    assert doc.map.feature(window_id).ablation == 1
    assert doc.character("felicia_laroq").conc == before.conc - dmg["conc_dealt"]


def test_routine_snap_shot_in_five_clicks(qtbot, street):
    """Shooter selected → target → Snap → Draw → Apply: at most five clicks."""
    doc, panel = street
    clicks = 0

    def click(widget) -> None:
        nonlocal clicks
        clicks += 1
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

    doc.select("token-miranda_valentine")
    assert panel.target_token() is not None  # the nearest enemy is pre-chosen
    clicks += 1  # choosing the target in the list counts as a click
    _choose_target(panel, "token-felicia_laroq")
    click(panel.shot_buttons["snap"])
    click(panel.draw_button)
    log_before = len(doc.encounter.log)
    click(panel.apply_button)
    assert clicks <= 5
    assert len(doc.encounter.log) == log_before + 1
    assert doc.encounter.log[-1].kind == "attack"
    assert doc.undo_stack.count() == 1


def test_the_card_shown_is_the_card_applied(qtbot, street):
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    panel.set_shot("snap")
    shown = panel.draw().card.number
    panel.apply()
    assert doc.encounter.log[-1].detail["record"]["cards"][0] == shown


def test_bump_spends_follow_the_clicks(qtbot, street):
    """002 Spending Bumps: the Judge buys damage rows with standard bumps."""
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    panel.set_shot("snap")
    n = _card_that(
        doc, panel, lambda r: r.hit.success and r.hit.bumps >= 1 and r.effect is not None
    )
    _put_on_top(doc.deck, n)
    first = panel.draw()
    qtbot.mouseClick(panel.spin_rows["damage"][1], Qt.MouseButton.LeftButton)
    assert panel.spends.damage == 1
    assert panel.current.record.effect.row_bumps >= first.record.effect.row_bumps + 1
    # more damage bumps than there are: refused, the last good spend stays
    for _ in range(10):
        panel.change_spend("damage", 1)
    assert panel.spends.damage <= first.record.hit.bumps
    assert not panel.message.isHidden() and "bump" in panel.message.text()


def test_refused_shot_says_why_and_draws_nothing(qtbot, street):
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    for w in doc.character("miranda_valentine").weapons:
        w.loaded = 0
    panel.set_shot("snap")
    assert panel.plan is None
    assert "not loaded" in panel.tn_label.text()
    assert not panel.draw_button.isEnabled()


def test_hand_to_hand_uses_the_same_flow(qtbot):
    doc = small_document()
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    enc = doc.encounter
    enc.token("t_felicia_laroq").hex = (3, 3)  # beside Miranda at (2, 3)
    doc.select("t_miranda_valentine")
    panel.set_mode("melee")
    panel.set_target("t_felicia_laroq")
    assert panel.plan is not None
    assert panel.plan.tn.base_label  # the Defense, itemised
    assert panel.draw() is not None
    assert panel.apply() is not None
    assert doc.encounter.log[-1].detail["record"]["attack_kind"] == "melee"


def test_ap_is_spent_on_the_track_and_refunded_by_undo(qtbot):
    """000 Action Timing: the shot removes the counters in front of the shooter."""
    doc = small_document()
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.start_action_time()
    track = doc.track
    track.start_round()
    while track.counters("miranda_valentine") < 1:
        track.advance_segment()
    doc.select("t_miranda_valentine")
    panel.set_target("t_felicia_laroq")
    panel.set_shot("snap")
    counters = track.counters("miranda_valentine")
    spent = track.row("miranda_valentine").spent
    cost = panel.plan.ap.total
    panel.draw()
    assert panel.apply() is not None
    assert track.counters("miranda_valentine") == 0
    assert track.row("miranda_valentine").spent == spent + cost
    assert "declares" in doc.encounter.log[-1].detail["track"]
    doc.undo_stack.undo()
    assert track.counters("miranda_valentine") == counters
    assert track.row("miranda_valentine").spent == spent


def _printed_deck_miranda_at_felicia(qtbot):
    """A printed deck (the Judge types each card), Miranda attacking Felicia."""
    doc = small_document()
    doc.deck.physical = True
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    doc.select("t_miranda_valentine")
    panel.set_target("t_felicia_laroq")
    return doc, panel


def test_physical_card_attack(qtbot):
    """RULES.md: with a printed deck the Judge types the card drawn for the attack."""
    from twtw_desktop.rules.deck import standard_deck

    doc, panel = _printed_deck_miranda_at_felicia(qtbot)
    panel.set_shot("snap")
    # a card that resolves on its own (no stun check, no open-ended cell)
    card = next(
        c
        for c in standard_deck()
        if preview(doc.table, panel.plan, [Spends()], typed=c).outcome.card_needed is None
    )
    assert panel.draw() is None  # the entry form opens instead
    dlg = panel._dialog
    qtbot.addWidget(dlg)
    dlg.form.set_card(card)
    assert dlg.try_accept()
    assert panel.current is not None and panel.current.card.number == card.number
    assert panel.needs_more_card() is None
    assert panel.apply() is not None
    assert [c.number for c in doc.deck.discard_pile()] == [card.number]
    assert doc.encounter.log[-1].detail["record"]["cards"][0] == card.number
    doc.undo_stack.undo()
    assert not doc.deck.discard_pile() and not doc.deck.in_play


def _answer(qtbot, panel, cards, used) -> list[str]:
    """Type a fresh card into every question the panel asks; returns the questions."""
    asked = []
    while panel.needs_more_card() is not None:
        dlg = panel._dialog
        qtbot.addWidget(dlg)
        asked.append(dlg.windowTitle())
        card = next(c for c in cards if c.number not in used)
        used.add(card.number)
        dlg.form.set_card(card)
        assert dlg.try_accept()
        assert len(asked) < 10
    return asked


def test_physical_stun_check_asks_for_its_card(qtbot):
    """000 Wound Effects: damage calls for a Fortitude stun check on a card of its
    own. With a printed deck the Judge is asked for it; Apply waits until it is typed."""
    from twtw_desktop.rules.deck import standard_deck

    doc, panel = _printed_deck_miranda_at_felicia(qtbot)
    panel.set_shot("snap")
    deck = standard_deck()

    def stuns(c) -> bool:
        need = preview(doc.table, panel.plan, [Spends()], typed=c).outcome.card_needed
        return need is not None and "stun check" in need

    attack = next(c for c in deck if stuns(c))
    panel.draw()
    qtbot.addWidget(panel._dialog)
    panel._dialog.form.set_card(attack)
    assert panel._dialog.try_accept()
    assert "Felicia Laroq's stun check" in panel.needs_more_card()
    stun_dlg = panel._dialog
    assert "stun check" in stun_dlg.windowTitle()
    assert "Provisional" in panel.result_label.text()
    assert panel.current.record.stun_pending
    # Apply is refused (nothing changes) and asks again
    stun_dlg.reject()
    assert panel.apply() is None
    assert "stun check" in panel.message.text() and "before applying" in panel.message.text()
    assert doc.undo_stack.count() == 0 and not doc.deck.in_play
    # the attack's own card is refused for the stun check
    qtbot.addWidget(panel._dialog)
    panel._dialog.form.set_card(attack)
    assert panel._dialog.try_accept()
    assert "already part of this attack" in panel.message.text()
    assert panel.needs_more_card() is not None
    panel._ask_cards_if_needed()
    used = {attack.number}
    asked = _answer(qtbot, panel, deck, used)
    assert asked and "stun check" in asked[0]
    rec = panel.current.record
    assert rec.stun is not None and not rec.stun_pending
    second = sorted(used - {attack.number})
    assert set(second) <= set(rec.cards)
    assert panel.apply() is not None
    assert sorted(c.number for c in doc.deck.discard_pile()) == sorted(used)
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert not doc.deck.discard_pile() and not doc.deck.in_play


def test_physical_fan_reads_each_shot_on_its_own_card(qtbot):
    """000 Fan Firing: after the first, each shot of a fan reads its hit location on
    a card of its own. With a printed deck the Judge types each of those cards."""
    from twtw_desktop.rules.deck import standard_deck

    doc, panel = _printed_deck_miranda_at_felicia(qtbot)
    panel.set_fan(2)
    deck = standard_deck()

    def both_hit(c) -> bool:
        out = preview(doc.table, panel.plan, [Spends(), Spends()], typed=c).outcome
        return all(r.hit.success for r in out.records)

    attack = next(c for c in deck if both_hit(c))
    panel.draw()
    qtbot.addWidget(panel._dialog)
    panel._dialog.form.set_card(attack)
    assert panel._dialog.try_accept()
    assert panel.needs_more_card() is not None
    used = {attack.number}
    asked = _answer(qtbot, panel, deck, used)
    assert any("shot 2's hit location on Felicia Laroq" in q for q in asked)
    second = panel.current.records[1]
    loc_card = second.location.reasons[0]
    assert not loc_card.startswith(f"card {attack.number}:")
    assert int(loc_card.split()[1].rstrip(":")) in used
    assert panel.apply() is not None
    assert sorted(c.number for c in doc.deck.discard_pile()) == sorted(used)
    doc.undo_stack.undo()
    assert not doc.deck.discard_pile() and not doc.deck.in_play


def test_a_throw_uses_the_same_flow_and_leaves_the_hand(qtbot):
    """000 Throwing Things / Missed Throws: the same panel throws; a miss scatters."""
    doc = small_document()
    panel = AttackPanel(doc)
    qtbot.addWidget(panel)
    cyril = doc.character("cyril_wellington")
    from twtw_desktop.rules.character import CarriedWeapon

    cyril.weapons = [*cyril.weapons, CarriedWeapon(weapon_id="dynamite", readied=True)]
    doc.select("t_cyril_wellington")
    panel.set_mode("thrown")
    assert panel.weapon_combo.currentText().startswith("Dynamite")
    panel.set_target("t_felicia_laroq")
    panel.set_shot("normal")
    assert panel.plan is not None and any("throw" in ln for ln in panel.tn_items())
    panel.draw()
    rec = panel.apply()
    assert rec is not None and rec.attack_kind == "thrown"
    assert all(w.weapon_id != "dynamite" for w in cyril.weapons)
    if not rec.hit.success:
        assert rec.scatter is not None
    doc.undo_stack.undo()
    assert any(w.weapon_id == "dynamite" for w in doc.character("cyril_wellington").weapons)


def test_draw_deals_the_card_for_real_and_put_back_undoes_the_draw(qtbot, street):
    """No card is shown that the deck has not dealt (#16): Draw is a table step (the
    journal keeps it); Put back undoes it and the card is on top again."""
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    qtbot.mouseClick(panel.shot_buttons["snap"], Qt.MouseButton.LeftButton)
    top = doc.deck.snapshot().draw_pile[0]
    steps = doc.undo_stack.count()
    qtbot.mouseClick(panel.draw_button, Qt.MouseButton.LeftButton)
    assert panel.card_view.card().number == top
    assert [c.number for c in doc.deck.in_play] == [top]
    assert doc.undo_stack.count() == steps + 1
    assert "draws card" in doc.encounter.log[-1].text
    assert panel.clear_button.isEnabled()
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert panel.card_view.card() is None and panel.current is None
    assert doc.deck.snapshot().draw_pile[0] == top and not doc.deck.in_play
    assert panel.draw_button.isEnabled()


def test_the_card_flipped_on_the_stack_resolves_the_shot_in_the_window(qtbot, street):
    """000 Initiative Stack: the card flipped for the first place's declared snap shot
    is the card the attack panel reads; Draw takes nothing off the deck."""
    from twtw_desktop.play.actions import EndSegment, StartActionTime, StartRound
    from twtw_desktop.play.declarations import PassTurn
    from twtw_desktop.play.track_actions import DeclareAction, Resolve

    doc, panel = street
    doc.apply(StartActionTime())
    doc.apply(StartRound())
    m = DeclareAction(who="miranda_valentine", action="snap_shot")
    f = DeclareAction(who="felicia_laroq", action="snap_shot")
    for _ in range(20):
        if doc.table.why_not(m) is None and doc.table.why_not(f) is None:
            break
        doc.apply(EndSegment())
    doc.apply(m)
    doc.apply(f)
    doc.apply(PassTurn())  # the others let the segment go before the flip (000 Action Timing)
    doc.apply(Resolve())
    # the stack's first place fires first (000 The Initiative Stack: "actions are
    # resolved in descending order on the current card")
    first, second = (e.character_id for e in doc.table.track.stack())
    flipped = {e.character_id: e.card for e in doc.table.track.stack()}[first]
    doc.select(f"token-{first}")
    _choose_target(panel, f"token-{second}")
    qtbot.mouseClick(panel.shot_buttons["snap"], Qt.MouseButton.LeftButton)
    assert f"Card {flipped.number}, flipped for this action" in panel.tn_label.text()
    drawn = doc.deck.draw_count
    qtbot.mouseClick(panel.draw_button, Qt.MouseButton.LeftButton)
    assert panel.card_view.card().number == flipped.number
    assert doc.deck.draw_count == drawn  # nothing drawn: the stack's card is read
    qtbot.mouseClick(panel.apply_button, Qt.MouseButton.LeftButton)
    assert doc.encounter.log[-1].detail["record"]["cards"][0] == flipped.number


def test_the_judges_situation_calls_are_itemised_before_the_draw(qtbot, street):
    """000 Modifiers from the TN panel: the firer called running (−4) and a small
    target (Size 2: +2 TN) show in the itemised TN before any card is drawn."""
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    qtbot.mouseClick(panel.shot_buttons["snap"], Qt.MouseButton.LeftButton)
    base_tn = panel.plan.tn.tn
    base_mod = panel.plan.tn.result_modifier
    panel.situation_toggle.setChecked(True)
    i = panel.firer_move_combo.findData("running")
    panel.firer_move_combo.setCurrentIndex(i)
    panel.firer_move_combo.activated.emit(i)
    panel.size_spin.setValue(2)
    assert panel.plan.tn.tn == base_tn + 2
    assert panel.plan.tn.result_modifier == base_mod - 4
    assert any("Judge calls the firer running" in g for g in panel.plan.geometry)
    assert doc.deck.draw_count == 54 and not doc.deck.in_play


def test_trying_to_miss_from_the_situation_box(qtbot, street):
    """000 Action Sabotage from the window: the shot fails unless a calamity."""
    doc, panel = street
    doc.select("token-miranda_valentine")
    _choose_target(panel, "token-felicia_laroq")
    qtbot.mouseClick(panel.shot_buttons["snap"], Qt.MouseButton.LeftButton)
    panel.situation_toggle.setChecked(True)
    panel.sabotage_check.setChecked(True)
    assert panel.plan.request.sabotage
    p = panel.draw()
    rec = p.outcome.records[0]
    assert rec.hit.success == rec.hit.cf
    assert any("000 Action Sabotage" in r for r in rec.hit.reasons)


def test_physical_card_attack_short_of_counters_is_declared_before_any_card(qtbot):
    """000 Action Timing with a printed deck: a shooter short of counters — Declare
    keeps the shot as a standing declaration (one undo step) and asks for no card;
    the card is typed when the shot resolves. (#16 counted on past everyone else
    instead; the seed calls each segment for every character.)"""
    from twtw_desktop.play.actions import StartActionTime
    from twtw_desktop.play.track_actions import StartRoundWithCards
    from twtw_desktop.rules.deck import standard_deck

    doc, panel = _printed_deck_miranda_at_felicia(qtbot)
    doc.character_of("t_miranda_valentine").weapons[0].readied = True
    doc.apply(StartActionTime())
    deck = standard_deck()
    typed = {c.id: deck[i] for i, c in enumerate(doc.encounter.characters)}  # initiative
    doc.apply(StartRoundWithCards(cards=typed))
    panel.set_shot("snap")
    assert panel.declare_mode == "standing", panel.tn_label.text()
    assert panel.draw_button.text() == "Declare"
    steps = doc.undo_stack.count()
    segment = doc.table.track.state.segment
    assert panel.draw() is None
    assert getattr(panel, "_dialog", None) is None  # no card asked for yet
    assert doc.undo_stack.count() == steps + 1
    assert doc.table.track.state.segment == segment  # nothing was counted
    mid = doc.character_of("t_miranda_valentine").id
    (standing,) = doc.table.track.state.standing[mid]
    assert standing.act["do"] == "snap_shot" and standing.act["target"] == "t_felicia_laroq"
