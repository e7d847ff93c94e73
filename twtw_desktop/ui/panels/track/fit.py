"""The track on a laptop screen (issue #27): compact rows, the rows in view, the
character column as wide as the names, and the line under the track beside the table,
where a long message wraps (under the table when the dock is too narrow for both).

The rows in view: room for :data:`ROWS_AT_OPEN` when an encounter opens — a sample's
nine, with the map still at a readable zoom on a 1366×768 laptop — and a row more for
each figure added in play (NPCs), up to :data:`ROWS_IN_VIEW`; more rows scroll. (A
sample with more figures than that opens with the rest scrolled: its twelve rows and a
readable map do not both fit 768 pixels with the window's bars.)
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QBoxLayout,
    QHeaderView,
    QSizePolicy,
    QTableWidget,
)

from .host import TrackHost

#: the rows in view when an encounter opens (with fewer figures too: the dock keeps its
#: height from one encounter to the next, and the map its place)
ROWS_AT_OPEN = 9
#: ...and at most, with the figures added in play: a sample's nine and three NPCs
ROWS_IN_VIEW = 12
#: the character column's widest (a longer name is elided; its tooltip has it whole)
NAME_WIDTH_MAX = 280
#: the width the message line needs beside the table, else it goes under it
INFO_WIDTH_MIN = 260


def row_height(table: QAbstractItemView) -> int:
    """A compact row: the font's height and a pixel above and below."""
    return table.fontMetrics().height() + 2


def compact(table: QTableWidget) -> None:
    """Compact fixed rows and header; the table as wide as its columns (it gives the
    rest of the dock's width to the message line), as tall as the dock allows."""
    row = row_height(table)
    vh = table.verticalHeader()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setMinimumSectionSize(row)
    vh.setDefaultSectionSize(row)
    table.horizontalHeader().setFixedHeight(row + 2)
    table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
    table.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Expanding)
    # the character column as wide as the names (Qt measures them once per layout
    # pass), up to NAME_WIDTH_MAX (every other column is narrower)
    hh = table.horizontalHeader()
    hh.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
    hh.setMaximumSectionSize(NAME_WIDTH_MAX)


def rows_height(table: QTableWidget, rows: int) -> int:
    """The table's height showing ``rows`` rows whole: the header, the rows, the frame
    and a horizontal scroll bar when the columns do not fit the width."""
    h = table.horizontalHeader().height() + rows * row_height(table) + 2 * table.frameWidth()
    bar = table.horizontalScrollBar()
    if table.isVisible() and bar.maximum() > 0:  # (before it shows, its width is no guide)
        h += bar.sizeHint().height()
    return h


def rows_to_show(in_view: int | None, seen: int | None, rows: int) -> int:
    """The rows to keep in view: :data:`ROWS_AT_OPEN` at first (``in_view`` None), then
    one more for each row added since the last count (``seen``), up to
    :data:`ROWS_IN_VIEW`; never fewer than before (the dock does not jump back)."""
    if in_view is None or seen is None:
        return ROWS_AT_OPEN
    if rows > seen:
        return max(in_view, min(ROWS_IN_VIEW, in_view + rows - seen))
    return in_view


def _fit(panel: TrackHost) -> None:
    """After a refresh or a resize: the shown table's rows kept in view."""
    table = panel.stack.currentWidget()
    if not isinstance(table, QTableWidget):
        return
    n = table.rowCount()
    panel._rows_in_view = rows_to_show(panel._rows_in_view, panel._rows_seen, n)
    panel._rows_seen = n
    want = rows_height(table, panel._rows_in_view)
    if panel.stack.minimumHeight() != want:
        panel.stack.setMinimumHeight(want)  # the dock grows to it, the map gives way
    _arrange(panel)


def _arrange(panel: TrackHost) -> None:
    """The message line beside the table when the dock is wide enough, else under it
    (beside until the panel shows: its width is no guide before)."""
    if not panel.isVisible():
        return
    beside = panel.width() >= panel.stack.sizeHint().width() + INFO_WIDTH_MIN
    want = QBoxLayout.Direction.LeftToRight if beside else QBoxLayout.Direction.TopToBottom
    if panel.body.direction() != want:
        panel.body.setDirection(want)
        # beside: the message line takes the width left; under: the table the height
        panel.body.setStretch(0, 0 if beside else 1)
        panel.body.setStretch(1, 1 if beside else 0)
