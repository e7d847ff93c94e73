"""The track on a laptop screen (issue #27): compact rows, the rows in view, the
character column as wide as the names, and the line under the track beside the table,
where a long message wraps (under the table when the dock is too narrow for both).

The rows in view: room for :data:`ROWS_IN_VIEW` — twelve: the longest sample's cast
(the Laroq hacienda), or a nine-figure sample and three NPCs added in play — with the
map still at a readable zoom on a 1366×768 laptop; more rows scroll. The pixels come
from the chrome around the table: the panel's top row rides in the dock's title bar
(ui/dock_title.py) and, on a laptop, the Log joins the side column, so the track's dock
has no tab bar under it (window_layout.py).
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

#: the rows in view (more scroll); the dock keeps its height from one encounter to the
#: next, and the map its place
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
    # the character column as wide as the names, noted as they are drawn (fit_names:
    # Qt's ResizeToContents measures all of them whenever any cell of the table changes,
    # a few milliseconds a segment with 200 rows), up to NAME_WIDTH_MAX
    hh = table.horizontalHeader()
    hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
    hh.setMaximumSectionSize(NAME_WIDTH_MAX)


#: room beside a name in its cell (the cell's margins and focus frame)
NAME_PAD = 12


def note_name(panel: TrackHost, table: QTableWidget, row: int, text: str) -> None:
    """A name cell drawn anew (the AP table's :func:`.ap_rows._put`): its width noted,
    so the character column is fitted without measuring every name again."""
    panel._name_widths.setdefault(id(table), {})[row] = table.fontMetrics().horizontalAdvance(text)


def fit_names(table: QTableWidget, widths: dict[int, int] | None) -> dict[int, int]:
    """The character column as wide as the widest name (and its head), up to
    :data:`NAME_WIDTH_MAX`. ``widths``: each row's name width as noted when drawn (a
    table whose rows are not all noted — the Phases table, rebuilt on each refresh,
    or rows not drawn yet — is measured whole); returns the widths used."""
    if widths is None or len(widths) != table.rowCount():
        fm = table.fontMetrics()
        widths = {
            r: fm.horizontalAdvance(item.text()) if (item := table.item(r, 0)) else 0
            for r in range(table.rowCount())
        }
    head = table.horizontalHeaderItem(0)
    head_w = table.fontMetrics().horizontalAdvance(head.text()) + 8 if head is not None else 0
    want = min(NAME_WIDTH_MAX, max([head_w, *widths.values()]) + NAME_PAD)
    if table.columnWidth(0) != want:
        table.setColumnWidth(0, want)
    return widths


def rows_height(table: QTableWidget, rows: int) -> int:
    """The table's height showing ``rows`` rows whole: the header, the rows, the frame
    and a horizontal scroll bar when the columns do not fit the width."""
    h = table.horizontalHeader().height() + rows * row_height(table) + 2 * table.frameWidth()
    bar = table.horizontalScrollBar()
    if table.isVisible() and bar.maximum() > 0:  # (before it shows, its width is no guide)
        h += bar.sizeHint().height()
    return h


def _fit(panel: TrackHost) -> None:
    """After a refresh or a resize: the shown table's rows kept in view."""
    table = panel.stack.currentWidget()
    if not isinstance(table, QTableWidget):
        return
    noted = panel._name_widths.get(id(table)) if table is panel.ap_table else None
    panel._name_widths[id(table)] = fit_names(table, noted)
    want = rows_height(table, ROWS_IN_VIEW)
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
