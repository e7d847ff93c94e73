"""One way to make a menu/toolbar action: text, shortcut, a tooltip that names the
shortcut, an object name (for icons, tests and saved layouts), and the slot."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence


def make_action(
    parent: QObject,
    text: str,
    slot: Callable | None = None,
    shortcut: QKeySequence | QKeySequence.StandardKey | str | list | None = None,
    tip: str = "",
    name: str = "",
    checkable: bool = False,
) -> QAction:
    """A QAction; a checkable one calls ``slot(on)`` when toggled, others ``slot()``
    when triggered. ``shortcut`` may be a list (the first is shown in the tooltip)."""
    a = QAction(text, parent)
    if shortcut:
        if isinstance(shortcut, list):
            a.setShortcuts([QKeySequence(s) for s in shortcut])
        else:
            a.setShortcut(QKeySequence(shortcut))
    if tip:
        keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        a.setToolTip(f"{tip} ({keys})" if keys else tip)
        a.setStatusTip(tip)
    if name:
        a.setObjectName(name)
    a.setCheckable(checkable)
    if slot is not None:
        (a.toggled if checkable else a.triggered).connect(slot)
    return a
