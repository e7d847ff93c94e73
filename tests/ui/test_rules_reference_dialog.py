"""Help ▸ Rules reference: the dialog shows every seed section with its handling and
filters by a word; the entry goes into an existing Help menu or makes one."""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from twtw_desktop.ui.dialogs.rules_reference import (
    RulesReferenceDialog,
    help_menu,
    install_rules_reference,
)


def test_the_dialog_filters_the_sections(qtbot):
    dlg = RulesReferenceDialog()
    qtbot.addWidget(dlg)
    full = dlg.view.toPlainText()
    assert "Cocking and Readying" in full and "Healing — table action" in full
    dlg.filter.setText("victory")
    some = dlg.view.toPlainText()
    assert "Setting Victory Threshold" in some and "Cocking and Readying" not in some


def test_it_finds_the_help_menu_or_makes_one(qtbot):
    win = QMainWindow()
    qtbot.addWidget(win)
    act = install_rules_reference(win)
    menu = help_menu(win)
    assert menu.objectName() == "help_menu" and act in menu.actions()
    other = QMainWindow()
    qtbot.addWidget(other)
    theirs = other.menuBar().addMenu("&Help")
    install_rules_reference(other)
    assert help_menu(other) is theirs and len(other.menuBar().actions()) == 1
