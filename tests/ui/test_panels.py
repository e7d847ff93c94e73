"""The deck and log panels, and the dock list the main window builds."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from twtw_desktop.rules.deck import standard_deck
from twtw_desktop.ui.panels import dock_specs
from twtw_desktop.ui.panels.deck_panel import DeckPanel
from twtw_desktop.ui.panels.log_panel import LogPanel
from twtw_desktop.ui.widgets.card_entry import PhysicalCardDialog

from .test_panels_support import small_document


def test_dock_specs_build_every_panel(qtbot):
    doc = small_document()
    specs = dock_specs()
    names = [s[0] for s in specs]
    assert names == ["dock_attack", "dock_track", "dock_sheet", "dock_deck", "dock_log"]
    for _name, title, factory, area in specs:
        w = factory(doc)
        qtbot.addWidget(w)
        assert title and w.objectName()
        assert isinstance(area, Qt.DockWidgetArea)


def test_draw_and_undo_put_the_card_back(qtbot):
    doc = small_document()
    panel = DeckPanel(doc)
    qtbot.addWidget(panel)
    top = doc.deck.snapshot().draw_pile[0]
    card = panel.draw_card()
    assert card.number == top
    assert panel.draw_label.text() == "53" and panel.in_play_label.text() == "1"
    assert panel.current.card().number == top
    assert panel.last_cards()[0].number == top
    doc.undo_stack.undo()
    assert doc.deck.draw_count == 54 and doc.deck.snapshot().draw_pile[0] == top
    assert panel.draw_label.text() == "54"


def test_reshuffle_and_seed(qtbot):
    doc = small_document()
    panel = DeckPanel(doc)
    qtbot.addWidget(panel)
    panel.draw_card()
    assert panel.discard_in_play()
    assert panel.discard_label.text() == "1"
    assert panel.reshuffle()
    assert doc.deck.draw_count == 54 and doc.deck.reshuffles == 1
    order_a = doc.deck.snapshot().draw_pile
    assert panel.set_seed(42)
    assert doc.deck.seed == 42 and doc.encounter.deck_seed == 42
    assert doc.deck.snapshot().draw_pile != order_a
    doc.undo_stack.undo()
    assert doc.deck.snapshot().draw_pile == order_a


def test_physical_card_entry_names_the_wrong_field(qtbot):
    """A typed card is checked against the card schema; the error names the field."""
    doc = small_document()
    panel = DeckPanel(doc)
    qtbot.addWidget(panel)
    assert panel.set_physical(True)
    assert not panel.draw_button.isEnabled()
    dlg = panel.physical_dialog()
    qtbot.addWidget(dlg)
    dlg.form.set_card(standard_deck()[4])
    dlg.form.cause[(2, 6)].setText("9")  # a d6 cannot show 9
    assert not dlg.try_accept()
    assert "cause.6.2" in dlg.error_text()
    assert dlg.form.cause[(2, 6)].styleSheet()  # the box is marked
    assert not doc.deck.in_play
    dlg.form.cause[(2, 6)].setText("CF")
    dlg.form.effect[(1, 4)].setText("x")
    assert not dlg.try_accept()
    assert "effect.4.1" in dlg.error_text()
    dlg.form.effect[(1, 4)].setText("3+")
    assert dlg.try_accept()
    assert [c.number for c in doc.deck.in_play] == [5]
    assert doc.deck.in_play[0].cause_cell(2, 6) == "CF"
    doc.undo_stack.undo()
    assert not doc.deck.in_play


def test_physical_dialog_field_names_for_every_section(qtbot):
    dlg = PhysicalCardDialog()
    qtbot.addWidget(dlg)
    dlg.form.set_card(standard_deck()[0])
    dlg.form.shield.setValue(5)
    assert not dlg.try_accept() and "shield" in dlg.error_text()
    dlg.form.shield.setValue(0)
    dlg.form.figures[1].setValue(0)
    assert not dlg.try_accept() and "figures.2" in dlg.error_text()
    dlg.form.figures[1].setValue(3)
    dlg.form.clock.setValue(13)
    assert not dlg.try_accept() and "clock" in dlg.error_text()
    dlg.form.clock.setValue(3)
    assert dlg.try_accept() and dlg.card is not None


def test_log_lists_copies_and_explains(qtbot):
    doc = small_document()
    panel = LogPanel(doc)
    qtbot.addWidget(panel)
    doc.log("Round 1 begins.", "round")
    doc.log("Miranda fires.", "attack", {"record": {"tn": 5, "reasons": ["a", "b"]}})
    assert panel.list.count() == 2
    item = panel.list.item(1)
    assert "Miranda fires." in item.text()
    assert "tn: 5" in item.toolTip() and "• a" in item.toolTip()
    panel.list.setCurrentRow(1)
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Miranda fires."
    panel.copy_all()
    text = QGuiApplication.clipboard().text()
    assert "Round 1 begins." in text and "tn: 5" in text
    doc.undo_stack.undo()
    assert panel.list.count() == 1
    i = panel.kind_filter.findData("round")
    panel.kind_filter.setCurrentIndex(i)
    assert panel.list.count() == 1
