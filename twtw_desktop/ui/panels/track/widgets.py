"""The track's constants and its small helper widgets: the row hover, the current segment's column, the line under the track."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt
from PySide6.QtGui import QColor, QEnterEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QLabel,
    QSizePolicy,
    QTableWidget,
    QWidget,
)

from ....rules import actions as A

#: 000 Action Time: a round has 20 segments.
SEGMENTS = 20


_PHASES = ("I", "II", "III", "IV")


_CUR = QColor("#fff2b3")


_IN = QColor("#cfe3f7")


_OUT = QColor("#e6e6e6")


_HOVER = QColor("#ffd9a0")


_SEL = QColor("#f2c48d")


#: One-letter codes of declared actions on the track.
_CODES = {
    A.ActionKind.DRAW: "D",
    A.ActionKind.READY: "D",
    A.ActionKind.COCK: "C",
    A.ActionKind.SNAP_SHOT: "S",
    A.ActionKind.NORMAL_SHOT: "N",
    A.ActionKind.AIMED_SHOT: "A",
    A.ActionKind.FAN_FIRE: "F",
    A.ActionKind.AIM: "a",
    A.ActionKind.RELOAD: "L",
    A.ActionKind.MOVE: "M",
    A.ActionKind.RUN: "R",
    A.ActionKind.DROP_PRONE: "P",
    A.ActionKind.STAND_UP: "U",
    A.ActionKind.DUCK: "d",
    A.ActionKind.EMERGE: "e",
    A.ActionKind.FACE: "f",
    A.ActionKind.TURN_IN_MOVE: "f",
    A.ActionKind.SWITCH_TARGET: "T",
    A.ActionKind.SKILL: "K",
    A.ActionKind.MELEE_ATTACK: "H",
    A.ActionKind.BLOCK: "B",
    A.ActionKind.DODGE: "G",
    A.ActionKind.RECOVER: "V",
    A.ActionKind.DISENGAGE: "E",
    A.ActionKind.OTHER: "O",
}


class _RowHover(QObject):
    """Tells the panel which row the mouse is over (None when it leaves)."""

    def __init__(self, table: QTableWidget, callback: Callable[[int | None], None]) -> None:
        super().__init__(table)
        self.table = table
        self.cb = callback
        table.setMouseTracking(True)
        table.viewport().setMouseTracking(True)
        table.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.MouseMove:
            row = self.table.rowAt(int(ev.position().y()))  # type: ignore[attr-defined]
            self.cb(row if row >= 0 else None)
        elif ev.type() == QEvent.Type.Leave:
            self.cb(None)
        return False


class _OnResize(QObject):
    """Calls back when a widget is resized or shown (more rows come into view)."""

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self.cb = callback
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.cb()
        return False


class _TrackTable(QTableWidget):
    """The track's table. ``band``: the current segment's column, drawn in the
    current colour behind its cells (a cell's own colour, the IN marker's or an out
    row's grey, shows over it). A counted segment moves the band and repaints those
    two columns: no cell of the 200 rows changes, and the table is not laid out and
    painted whole, as handing the column another delegate did (a delegate drawing
    every segment cell would cost a Python call per cell painted)."""

    band: int | None = None

    def set_band(self, column: int | None) -> None:
        if column == self.band:
            return
        vp = self.viewport()
        for c in (self.band, column):
            if c is not None:
                vp.update(self.columnViewportPosition(c), 0, self.columnWidth(c), vp.height())
        self.band = column

    def paintEvent(self, event: QPaintEvent) -> None:
        c = self.band
        if c is not None and self.rowCount():
            x = self.columnViewportPosition(c)
            last = self.rowCount() - 1
            bottom = self.rowViewportPosition(last) + self.rowHeight(last)
            band = QRect(x, 0, self.columnWidth(c), bottom).intersected(event.rect())
            if not band.isEmpty():
                painter = QPainter(self.viewport())
                painter.fillRect(band, _CUR)
                painter.end()
        super().paintEvent(event)


class _InfoLabel(QLabel):
    """The line under the track (beside the table on a laptop): it wraps over as many
    lines as it has room for; only a text longer than all of them (a segment with
    200 figures) is cut, at a word, its whole text in the tooltip."""

    def __init__(self) -> None:
        super().__init__()
        self.full = ""
        self._cut = False  # the text shown is shorter than ``full``
        self.setWordWrap(True)
        self.setStyleSheet("color: #333;")
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    # the layout gives the label the height beside (or under) the table: it never asks
    # the wrapped text's size, which would lay out a long text several times an update
    def hasHeightForWidth(self) -> bool:
        return False

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint()

    def minimumSizeHint(self) -> QSize:
        return QSize(120, self.minimumHeight())

    def room(self) -> int:
        """About how many characters the label shows whole (at least two lines of a
        600-pixel line): laying out a wrapped text costs with its length."""
        fm = self.fontMetrics()
        lines = max(2, self.height() // max(1, fm.lineSpacing()))
        return lines * max(self.width(), 600) // max(1, fm.averageCharWidth())

    # The text can be selected (and copied) once the mouse is over it. A selectable
    # label keeps its text as a rich-text document, laid out again on each change:
    # about 1 ms of each segment counted with 200 names in the line
    def enterEvent(self, event: QEnterEvent) -> None:
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        super().enterEvent(event)

    def setText(self, text: str) -> None:
        if not self.underMouse():
            self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.full = text  # what the label says, whole (also in its tooltip)
        room = self.room()
        self._cut = len(text) > room
        if self._cut:
            cut = text.rfind(" ", 0, room)
            text = text[: cut if cut > 0 else room] + " …"
        super().setText(text)
        self.setToolTip(self.full.replace(" · ", "\n"))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._cut:
            self.setText(self.full)  # more room: more of a long text
