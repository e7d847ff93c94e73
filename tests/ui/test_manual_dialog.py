"""Help ▸ Manual: the manual's pages open offline from the Help menu; a link to
another page's heading opens it there, Back returns, and the search box lists the
sections holding the words and selects the first match. Help ▸ Quick start is the
manual's own quick-start page (one source)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from twtw_desktop import manual
from twtw_desktop.ui.dialogs.manual_dialog import ManualDialog

from .conftest import fresh_window


def _click_menu(qtbot, window, title: str, entry: str) -> None:
    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(top).center())
    menu = top.menu()
    qtbot.waitUntil(menu.isVisible)
    act = next(a for a in menu.actions() if a.text().replace("&", "") == entry)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(act).center())


def _click_link(view, text: str) -> None:
    """Click the middle of the first link whose words are ``text``."""
    cursor = view.document().find(text)
    while not cursor.isNull() and not cursor.charFormat().isAnchor():
        cursor = view.document().find(text, cursor)
    assert not cursor.isNull(), text
    mid = QTextCursor(cursor)
    mid.setPosition((cursor.selectionStart() + cursor.selectionEnd()) // 2)
    view.setTextCursor(mid)
    view.ensureCursorVisible()
    rect = view.cursorRect(mid)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _heading_at_top(view) -> str:
    block = view.cursorForPosition(QPoint(4, 4)).block()
    while block.isValid() and block.blockFormat().headingLevel() == 0:
        block = block.next()
    return block.text()


def test_help_manual_opens_follows_a_link_and_searches(qtbot, tmp_path, monkeypatch):
    window = fresh_window(qtbot, tmp_path, monkeypatch)
    _click_menu(qtbot, window, "Help", "Manual…")
    dlg = window.help_menu.dialog
    assert isinstance(dlg, ManualDialog)
    qtbot.waitExposed(dlg)
    assert dlg.current == (manual.INDEX, "")
    # the contents list every page found in resources/manual/
    titles = [dlg.contents.topLevelItem(i).text(0) for i in range(dlg.contents.topLevelItemCount())]
    assert titles == [p.title for p in manual.pages()]
    # a link from the index to a heading of another page
    _click_link(dlg.view, "The TV")
    qtbot.waitUntil(lambda: dlg.current == ("user-guide.md", "the-tv"))
    assert "The TV" in _heading_at_top(dlg.view) and "Miniature scale" in dlg.page_text()
    QTest.mouseClick(dlg.back, Qt.MouseButton.LeftButton)
    assert dlg.current == (manual.INDEX, "")
    # search: the sections holding the words, then the first match selected
    QTest.keyClicks(dlg.search, "blacks the TV")
    assert dlg.contents.topLevelItemCount() >= 1 and "section" in dlg.found.text()
    first = dlg.contents.topLevelItem(0)
    rect = dlg.contents.visualItemRect(first)
    QTest.mouseClick(dlg.contents.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert dlg.current[0] == "user-guide.md"
    assert dlg.view.textCursor().selectedText().lower() == "blacks"
    QTest.keyClicks(dlg.search, "zzqx")
    assert dlg.contents.topLevelItemCount() == 0 and dlg.found.text() == "Nothing found"
    QTest.mouseClick(dlg.findChild(type(dlg.back), "manual_back"), Qt.MouseButton.LeftButton)
    dlg.close()
    QApplication.processEvents()


def test_quick_start_is_the_manuals_page(qtbot, tmp_path, monkeypatch):
    window = fresh_window(qtbot, tmp_path, monkeypatch)
    _click_menu(qtbot, window, "Help", "Quick start")
    dlg = window.help_menu.dialog
    assert isinstance(dlg, ManualDialog) and dlg.current == (manual.QUICK_START, "")
    shown = dlg.page_text()
    assert "five steps" in shown and "Run on (F6)" in shown
    # a link to a heading of the same kind as the README's: into the user guide
    _click_link(dlg.view, "action time")
    qtbot.waitUntil(lambda: dlg.current == ("user-guide.md", "action-time"))
    dlg.close()
