"""Phases: the speeds typed ahead on the track (004 Declaration), one key a character.

While speeds are declared the Phases table takes the keyboard (Start round puts it
there, on the first row still to declare): 1 or F declares a Fast (Quick) action for
the row's character, 2 or N a Normal (Half) one, 3 or S a Slow (Full) one, and the
row moves on to the next character still to declare. Each key is the Judge's
declaration, one undo step (the table's ``declare``); a refusal shows its reason and
the row stays. The speed drop-down in the row does the same with the mouse.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

from ....rules.base import Speed
from .host import TrackHost

#: the key → the speed declared (digits, and the speed's initial as the row shows it)
SPEED_KEYS: dict[int, Speed] = {
    Qt.Key.Key_1: Speed.FAST,
    Qt.Key.Key_F: Speed.FAST,
    Qt.Key.Key_2: Speed.NORMAL,
    Qt.Key.Key_N: Speed.NORMAL,
    Qt.Key.Key_3: Speed.SLOW,
    Qt.Key.Key_S: Speed.SLOW,
}
#: for tooltips and Help
SPEED_KEYS_TEXT = "1 or F: Fast (Quick) · 2 or N: Normal (Half) · 3 or S: Slow (Full)"


def declaring(panel: TrackHost) -> bool:
    t = panel.track
    return panel.phases and t is not None and t.state.stage.value == "declare"


def still_to_declare(panel: TrackHost) -> list[int]:
    """The table's rows whose character has still to declare a speed."""
    t = panel.track
    if t is None:
        return []
    rows = t.state.rows
    return [
        r
        for r, cid in enumerate(panel._row_ids)
        if cid in rows and rows[cid].status.value == "waiting"
    ]


def focus_first_to_declare(panel: TrackHost) -> None:
    """Put the keyboard on the Phases table, at the first character still to declare
    (after Start round): the Judge types the speeds."""
    if not declaring(panel):
        return
    todo = still_to_declare(panel)
    table = panel.ph_table
    if todo:
        table.setCurrentCell(todo[0], 0)
        table.selectRow(todo[0])
    table.setFocus(Qt.FocusReason.OtherFocusReason)


def _key_speed(panel: TrackHost, event: QEvent) -> Speed | None:
    if not isinstance(event, QKeyEvent) or not declaring(panel):
        return None
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    if mods != Qt.KeyboardModifier.NoModifier:
        return None
    return SPEED_KEYS.get(event.key())


def declare_by_key(panel: TrackHost, speed: Speed) -> bool:
    """The current row's character declares ``speed``; the row moves on to the next
    character still to declare."""
    table = panel.ph_table
    r = table.currentRow()
    if r < 0 or r >= len(panel._row_ids):
        todo = still_to_declare(panel)
        if not todo:
            return False
        r = todo[0]
    if not panel.declare_speed(panel._row_ids[r], speed):
        table.setCurrentCell(r, 0)
        return False
    todo = still_to_declare(panel)
    nxt = next((x for x in todo if x > r), todo[0] if todo else r)
    table.setCurrentCell(nxt, 0)
    table.selectRow(nxt)
    return True


def install_speed_keys(panel: TrackHost) -> None:
    """The key filter on the Phases table. (Not window shortcuts: the digits are the
    map editor's brush sizes; these keys belong to the track's rows while speeds are
    declared. Help ▸ Quick start and the Speed column's tooltip name them.)"""
    panel.ph_table.installEventFilter(SpeedKeys(panel))


class SpeedKeys(QObject):
    """The Phases table's key filter: a speed key declares (and the window's
    one-letter keys, F for the field of fire, wait while speeds are declared)."""

    def __init__(self, panel: TrackHost) -> None:
        super().__init__(panel.ph_table)
        self.panel = panel

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride and _key_speed(self.panel, event) is not None:
            event.accept()  # the key is this table's, not a window shortcut's
            return True
        if kind == QEvent.Type.KeyPress:
            speed = _key_speed(self.panel, event)
            if speed is not None:
                declare_by_key(self.panel, speed)
                return True
        return False
