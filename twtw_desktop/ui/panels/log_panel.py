"""The encounter log: every resolution and round event, copyable, with the record on
hover.

Each line is one :class:`~twtw_desktop.model.encounter.LogEntry`; its ``detail`` (the
full attack record, the throw, the round step) shows as a tooltip and, on a
double-click, in a window the Judge can select and copy from.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...model.encounter import LogEntry
from ._common import format_detail

#: Colours of the log kinds (anything else is plain ink).
KIND_COLOURS = {
    "attack": "#7a1f0f",
    "throw": "#7a4a0f",
    "round": "#1f4f7a",
    "track": "#1f4f7a",
    "phase": "#1f4f7a",
    "deck": "#4b5a23",
    "sheet": "#555555",
    "damage": "#8a1538",
    "error": "#b00020",
}


def entry_line(entry: LogEntry) -> str:
    """The one-line text of a log entry, with its round/segment stamp."""
    stamp = ""
    if entry.round:
        stamp = f"R{entry.round}"
        if entry.segment:
            stamp += f"·{entry.segment}"
        stamp += "  "
    return f"{stamp}{entry.text}"


def entry_detail(entry: LogEntry, limit: int = 60) -> str:
    """Tooltip text: the line and its full record."""
    head = entry_line(entry)
    if not entry.detail:
        return head
    return head + "\n\n" + format_detail(entry.detail, limit)


class LogPanel(QWidget):
    """The encounter log as a list; select lines and Ctrl+C, or Copy all."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("LogPanel")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(QLabel("Show:"))
        self.kind_filter = QComboBox()
        self.kind_filter.addItem("everything", None)
        for k in ("attack", "throw", "round", "track", "deck", "sheet", "note"):
            self.kind_filter.addItem(k, k)
        self.kind_filter.currentIndexChanged.connect(self.refresh)
        top.addWidget(self.kind_filter, 1)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the selected lines (Ctrl+C)")
        self.copy_button.clicked.connect(self.copy_selected)
        self.copy_all_button = QPushButton("Copy all")
        self.copy_all_button.setToolTip("Copy the whole log, with each line's record")
        self.copy_all_button.clicked.connect(self.copy_all)
        top.addWidget(self.copy_button)
        top.addWidget(self.copy_all_button)
        lay.addLayout(top)
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)
        self.list.setUniformItemSizes(False)
        self.list.setAlternatingRowColors(True)
        self.list.itemDoubleClicked.connect(self._show_item)
        lay.addWidget(self.list, 1)
        sc = QShortcut(QKeySequence(QKeySequence.StandardKey.Copy), self.list)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        sc.activated.connect(self.copy_selected)
        self._shown: list[LogEntry] = []
        document.changed.connect(self._on_changed)
        self.refresh()

    def sizeHint(self) -> QSize:
        return QSize(500, 170)  # shares the bottom dock area with the action track

    # -- model → view --------------------------------------------------------------
    def _on_changed(self, area: str) -> None:
        if area in ("log", "all", "file"):
            self.refresh()

    def entries(self) -> list[LogEntry]:
        """The entries currently listed (after the filter)."""
        return list(self._shown)

    def refresh(self) -> None:
        want = self.kind_filter.currentData()
        log = list(self.document.encounter.log)
        shown = [e for e in log if want is None or e.kind == want]
        at_bottom = (
            self.list.verticalScrollBar().value() >= self.list.verticalScrollBar().maximum() - 2
        )
        if shown[: len(self._shown)] == self._shown and len(shown) >= len(self._shown):
            new = shown[len(self._shown) :]  # only appended lines: keep selection
        else:
            self.list.clear()
            new = shown
        for e in new:
            self.list.addItem(self._item(e))
        self._shown = shown
        if at_bottom or new:
            self.list.scrollToBottom()

    def _item(self, entry: LogEntry) -> QListWidgetItem:
        item = QListWidgetItem(entry_line(entry))
        item.setToolTip(entry_detail(entry))
        item.setData(Qt.ItemDataRole.UserRole, entry)
        colour = KIND_COLOURS.get(entry.kind)
        if colour:
            item.setForeground(QBrush(QColor(colour)))
        return item

    # -- copying -------------------------------------------------------------------
    def selected_text(self) -> str:
        rows = sorted(self.list.row(i) for i in self.list.selectedItems())
        return "\n".join(entry_line(self._shown[r]) for r in rows)

    def copy_selected(self) -> None:
        text = self.selected_text()
        if text:
            QGuiApplication.clipboard().setText(text)

    def all_text(self) -> str:
        """The whole (filtered) log, each line followed by its record, indented."""
        out = []
        for e in self._shown:
            out.append(entry_line(e))
            if e.detail:
                out.extend("    " + ln for ln in format_detail(e.detail, 0).splitlines())
        return "\n".join(out)

    def copy_all(self) -> None:
        QGuiApplication.clipboard().setText(self.all_text())

    def _show_item(self, item: QListWidgetItem) -> None:
        entry = item.data(Qt.ItemDataRole.UserRole)
        dlg = QDialog(self)
        dlg.setWindowTitle("Log entry")
        lay = QVBoxLayout(dlg)
        text = QPlainTextEdit(entry_detail(entry, 0))
        text.setReadOnly(True)
        lay.addWidget(text)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        bb.rejected.connect(dlg.reject)
        lay.addWidget(bb)
        dlg.resize(520, 480)
        dlg.open()
