"""Help ▸ Keyboard shortcuts at 1366×768 (issue 37): opened with F1, its rows sorted
(by menu or panel, then action) and no column cut ("Me…" was the third column's
header)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from twtw_desktop.ui.menus.help_menu import ShortcutsDialog

from .conftest import fresh_window


def test_the_shortcut_list_is_sorted_and_nothing_is_cut(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch)
    qtbot.wait(10)
    win.map_view.setFocus()
    qtbot.keyClick(win.map_view, Qt.Key.Key_F1)
    dlg = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ShortcutsDialog))
    qtbot.waitExposed(dlg)
    table = dlg.table
    head = [table.horizontalHeaderItem(j).text() for j in range(3)]
    assert head == ["Menu / panel", "Action", "Keys"]
    rows = [tuple(table.item(i, j).text() for j in range(3)) for i in range(table.rowCount())]
    assert len(rows) > 20
    assert rows == sorted(rows, key=lambda r: (r[0], r[1]))
    # every column as wide as its widest text and its header: nothing elided
    header = table.horizontalHeader()
    for j in range(3):
        assert table.columnWidth(j) >= table.sizeHintForColumn(j), head[j]
        assert table.columnWidth(j) >= header.sectionSizeHint(j), head[j]
    assert table.horizontalScrollBar().maximum() == 0
    assert dlg.frameGeometry().width() <= 1366
    # a click on a header sorts by it
    qtbot.mouseClick(
        header.viewport(),
        Qt.MouseButton.LeftButton,
        pos=QPoint(header.sectionViewportPosition(2) + 5, 5),
    )
    keys = [table.item(i, 2).text() for i in range(table.rowCount())]
    assert keys == sorted(keys)
    dlg.close()
