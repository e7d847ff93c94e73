"""Encounter ▸ Mount ▸ … and Encounter ▸ Dismount for the selected figure.

The table's ``mount`` / ``dismount`` (:mod:`twtw_desktop.play.mount_actions`): Mount
lists the tokens next to the selected figure (the horse or wagon it gets on, taking
its hex and speed) and "without a mount token"; each is one undo step. A refusal is
shown in the status bar and a message box, and nothing changes.
"""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ...play.mount_actions import Dismount, Mount
from .melee_menu import _selected


def _fill(window, menu: QMenu) -> None:
    menu.clear()
    doc, tok = _selected(window)
    if tok is None:
        menu.addAction("Select a figure on the map first").setEnabled(False)
        return
    rider = tok.character_id

    def add(text: str, horse: str | None) -> None:
        act = menu.addAction(text)
        act.triggered.connect(
            lambda: window._guarded(lambda: doc.apply(Mount(who=rider, horse=horse)))
        )

    add("Without a mount token", None)
    for other in doc.encounter.tokens:
        if other is not tok and other.at.distance(tok.at) <= 1:
            add(f"On {doc.character(other.character_id).name}", other.character_id)


def install_mount_menu(window) -> QMenu:
    """Encounter ▸ Mount (a submenu filled when opened) and Encounter ▸ Dismount."""
    menu = window.encounter_menu.addMenu("&Mount")
    menu.setObjectName("mount_menu")
    menu.aboutToShow.connect(lambda: _fill(window, menu))
    act = QAction("&Dismount", window)
    act.setObjectName("act_dismount")

    def dismount() -> None:
        doc, tok = _selected(window)
        if tok is not None:
            window._guarded(lambda: doc.apply(Dismount(who=tok.character_id)))

    act.triggered.connect(dismount)
    window.encounter_menu.addAction(act)
    window.mount_menu = menu
    window.act_dismount = act
    return menu
