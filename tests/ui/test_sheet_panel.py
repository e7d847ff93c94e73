"""The character sheet panel: validated edits, the body diagram, weapons, and
adding / duplicating / removing characters — each one undoable step."""

from __future__ import annotations

from PySide6.QtCore import Qt

from twtw_desktop.rules.base import WoundLocation
from twtw_desktop.ui.panels.sheet_panel import SheetPanel

from .test_panels_support import small_document


def _panel(qtbot, edition: str = "ap_v2"):
    doc = small_document(edition)
    panel = SheetPanel(doc)
    qtbot.addWidget(panel)
    doc.select("t_miranda_valentine")
    return doc, panel


def test_bad_value_is_refused_and_changes_nothing(qtbot):
    doc, panel = _panel(qtbot)
    miranda = doc.character("miranda_valentine")
    before = miranda.model_copy(deep=True)
    count = doc.undo_stack.count()
    spin = panel.int_spins["ap"]
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "-3")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert miranda == before
    assert doc.undo_stack.count() == count
    assert "AP" in panel.message.text() and "greater than or equal to 0" in panel.message.text()
    assert "nothing changed" in panel.message.text()
    assert spin.value() == before.ap  # the box shows the sheet again
    assert spin.styleSheet()  # marked


def test_cross_field_checks(qtbot):
    doc, panel = _panel(qtbot)
    miranda = doc.character("miranda_valentine")
    assert not panel._commit("conc", miranda.conc_max + 1, "Conc")
    assert "maximum" in panel.message.text()
    panel.trait_edits["strength"].setText("3d7")
    panel._set_trait("strength")
    assert "3d7" not in str(miranda.traits.get("strength"))
    assert panel.message.text()


def test_good_edit_is_one_undoable_command(qtbot):
    doc, panel = _panel(qtbot)
    miranda = doc.character("miranda_valentine")
    panel.int_spins["ap"].setValue(13)
    assert miranda.ap == 13
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert miranda.ap == 12
    assert panel.int_spins["ap"].value() == 12


def test_body_diagram_wounds_level_penalty_and_stun(qtbot):
    """000 Wound Effects: the highest location sets the AP penalty and Stun TN."""
    doc, panel = _panel(qtbot)
    panel.resize(360, 900)
    panel.show()
    diagram = panel.body_diagram
    centre = diagram.region_centre(WoundLocation.TORSO).toPoint()
    qtbot.mouseClick(diagram, Qt.MouseButton.LeftButton, pos=centre)
    qtbot.mouseClick(diagram, Qt.MouseButton.LeftButton, pos=centre)
    miranda = doc.character("miranda_valentine")
    assert miranda.wounds[WoundLocation.TORSO] == 2
    row = doc.edition.wound_row(2)
    info = panel.wound_info.text()
    assert f"Wound level 2: {row.name}" in info
    assert f"AP −{row.ap_penalty}" in info and f"Stun TN {row.stun_tn}" in info
    qtbot.mouseClick(diagram, Qt.MouseButton.RightButton, pos=centre)
    assert miranda.wounds[WoundLocation.TORSO] == 1
    # a sixth wound in a location is refused (000: five at most)
    panel.wound_spins[WoundLocation.HEAD].setValue(6)
    assert miranda.wounds[WoundLocation.HEAD] == 0
    assert "Head" in panel.message.text()


def test_weapons_state_and_reload(qtbot):
    doc, panel = _panel(qtbot)
    miranda = doc.character("miranda_valentine")
    i = next(k for k, w in enumerate(miranda.weapons) if w.weapon_id == "colt_peacemaker")
    assert panel.set_weapon(i, "cocked", False)
    assert not miranda.weapons[i].cocked
    assert panel.set_weapon(i, "loaded", 2)
    assert panel.reload_weapon(i)
    assert miranda.weapons[i].loaded == 3  # one cartridge (gear reload_unit)
    assert not panel.set_weapon(i, "loaded", 99)  # more than the cylinder holds
    assert "holds at most" in panel.message.text()
    assert miranda.weapons[i].loaded == 3


def test_add_duplicate_remove_are_undoable(qtbot):
    doc, panel = _panel(qtbot)
    enc = doc.encounter
    n_chars, n_tokens = len(enc.characters), len(enc.tokens)
    assert panel.add_character("pete_perkins")
    assert len(enc.characters) == n_chars + 1 and len(enc.tokens) == n_tokens + 1
    new = enc.characters[-1]
    assert new.name == "Pete Perkins" and new.id.startswith("pete_perkins-")
    assert doc.token_for(new.id) is not None
    assert panel.duplicate_character()
    assert len(enc.characters) == n_chars + 2
    assert enc.characters[-1].name == "Pete Perkins 2"
    assert panel.remove_character()
    assert len(enc.characters) == n_chars + 1
    for _ in range(3):
        doc.undo_stack.undo()
    assert len(enc.characters) == n_chars and len(enc.tokens) == n_tokens


def test_sheet_follows_the_selected_token(qtbot):
    doc, panel = _panel(qtbot)
    doc.select("t_angus_laroq")
    assert panel.name_edit.text() == "Angus Laroq"
    i = panel.chooser.findData("cyril_wellington")
    panel.chooser.setCurrentIndex(i)
    panel.chooser.activated.emit(i)
    assert doc.selected_token_id == "t_cyril_wellington"


def test_rename_id_updates_tokens(qtbot):
    doc, panel = _panel(qtbot)
    assert panel.rename_id("miranda")
    assert doc.encounter.token("t_miranda_valentine").character_id == "miranda"
    doc.undo_stack.undo()
    assert doc.encounter.token("t_miranda_valentine").character_id == "miranda_valentine"
    panel.show_character("miranda_valentine")
    assert not panel.rename_id("felicia_laroq")
    assert "already has the id" in panel.message.text()


def test_clicking_the_weapon_boxes_edits_the_sheet(qtbot):
    doc, panel = _panel(qtbot)
    panel.resize(360, 900)
    panel.show()
    miranda = doc.character("miranda_valentine")
    spin = panel.weapons_table.cellWidget(0, 3)
    start = miranda.weapons[0].loaded
    spin.stepDown()
    assert miranda.weapons[0].loaded == start - 1
    spin.stepDown()  # the same box keeps working after the sheet refreshed
    assert miranda.weapons[0].loaded == start - 2
    assert doc.undo_stack.count() == 1  # consecutive edits of one field merge
    box = panel.weapons_table.cellWidget(0, 2).findChild(type(panel.bool_checks["dead"]))
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert miranda.weapons[0].cocked is False


def test_a_character_added_in_action_time_joins_the_next_round(qtbot):
    doc, panel = _panel(qtbot)
    doc.start_action_time()
    doc.track.start_round()
    assert panel.add_character("octavio_vaquero")
    new = doc.encounter.characters[-1]
    doc.track.end_round()
    doc.track.start_round()
    assert new.id in doc.track.state.rows
    assert not panel.remove_character()
    assert "action time" in panel.message.text()


def test_posture_on_the_sheet_moves_the_token_on_the_map(qtbot):
    """The sheet's posture is the truth; the token the map draws follows it, and
    both come back together on undo."""
    from twtw_desktop.rules.character import Posture
    from twtw_desktop.ui.scene.map_scene import MapScene
    from twtw_desktop.ui.scene.token_item import badges_for

    doc, panel = _panel(qtbot)
    scene = MapScene(doc)
    item = scene.tokens["t_miranda_valentine"]
    combo = panel.posture_combo
    i = combo.findData(Posture.PRONE.value)
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    miranda, tok = doc.character("miranda_valentine"), doc.token("t_miranda_valentine")
    assert miranda.posture is Posture.PRONE and tok.posture is Posture.PRONE
    assert doc.undo_stack.count() == 1
    assert item.token.posture is Posture.PRONE
    assert ("P", "prone", "prone") in badges_for(item.token, miranda)
    doc.undo_stack.undo()
    assert miranda.posture is Posture.STANDING and tok.posture is Posture.STANDING
    assert item.token.posture is Posture.STANDING
    assert combo.currentData() == Posture.STANDING.value
    doc.undo_stack.redo()
    assert combo.currentData() == Posture.PRONE.value


def test_declared_posture_changes_show_on_the_sheet_and_map(qtbot):
    """000 Movement AP Cost: dropping prone on the track changes the sheet and the
    token in the same step."""
    from twtw_desktop.rules import actions as A
    from twtw_desktop.rules.character import Posture
    from twtw_desktop.ui.panels.track_panel import TrackPanel

    doc, panel = _panel(qtbot)
    track_panel = TrackPanel(doc)
    qtbot.addWidget(track_panel)
    track_panel.start_round()
    while doc.track.counters("miranda_valentine") < 1:
        track_panel.next_segment()
    assert track_panel.declare("miranda_valentine", A.drop_prone())
    assert doc.token("t_miranda_valentine").posture is Posture.PRONE
    assert panel.posture_combo.currentData() == Posture.PRONE.value
    doc.undo_stack.undo()
    assert doc.token("t_miranda_valentine").posture is Posture.STANDING
    assert panel.posture_combo.currentData() == Posture.STANDING.value


def test_a_token_out_of_step_is_pointed_out(qtbot):
    from twtw_desktop.rules.character import Posture

    doc, panel = _panel(qtbot)
    doc.token("t_miranda_valentine").posture = Posture.PRONE  # an old file, say
    panel.refresh()
    assert "The token shows Miranda Valentine prone" in panel.message.text()
    assert panel.set_posture(Posture.STANDING)  # choosing again puts the map in step
    assert doc.token("t_miranda_valentine").posture is Posture.STANDING


def test_remove_then_undo_keeps_older_edits_undoable(qtbot):
    """An AP edit, then the character removed and brought back: undoing the edit
    reaches the sheet that is in the encounter now."""
    doc, panel = _panel(qtbot)
    panel.int_spins["ap"].setValue(13)
    assert panel.remove_character()
    doc.undo_stack.undo()
    panel.show_character("miranda_valentine")
    assert panel.int_spins["ap"].value() == 13
    doc.undo_stack.undo()
    assert doc.character("miranda_valentine").ap == 12
    assert panel.int_spins["ap"].value() == 12


def test_natural_armour_is_a_field_of_the_sheet(qtbot):
    """000 Armor Penetration/Ablation: a creature's natural armour "works like cover" —
    typed on the sheet like any number, one undoable step, its page in the tooltip."""
    doc, panel = _panel(qtbot)
    miranda = doc.character("miranda_valentine")
    spin = panel.int_spins["natural_armor"]
    assert "000 Armor Penetration/Ablation" in spin.toolTip() or any(
        "000 Armor Penetration/Ablation" in w.toolTip() for w in panel.findChildren(type(spin))
    )
    spin.setValue(3)
    assert miranda.natural_armor == 3
    doc.undo_stack.undo()
    assert miranda.natural_armor == 0
