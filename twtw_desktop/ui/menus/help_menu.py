"""Help ▸ Quick start, Manual (both the pages of resources/manual/, ui/manual_dialog.py),
Keyboard shortcuts (F1, ?), About; and File ▸ Quit (Ctrl+Q).

The shortcuts list is built from the window's own actions when it opens — every
QAction with a shortcut, under the menu it sits in, and the panels' own keys (a
QShortcut names the buttons whose tooltips give its key) — so it cannot drift
from what the keys really do. Quit closes the window the way closing it does (unsaved changes are
offered for saving first) and then the players' screen with it.

Install with :func:`install_help_menu`; the controller is ``window.help_menu``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...manual import QUICK_START
from ...resources import version
from ..dialogs.manual_dialog import ManualDialog


def _plain(text: str) -> str:
    return text.replace("&&", "\x00").replace("&", "").replace("\x00", "&").rstrip(".…")


def _menu_paths(window: MainWindow) -> dict[int, str]:
    """id(action) → "File ▸ Open Recent" for every action in the menu bar."""
    out: dict[int, str] = {}

    def walk(menu: QMenu, path: str) -> None:
        for a in menu.actions():
            sub = a.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{path} ▸ {_plain(sub.title())}")
            elif not a.isSeparator():
                out.setdefault(id(a), path)

    for top in window.menuBar().actions():
        m = top.menu()
        if isinstance(m, QMenu):
            walk(m, _plain(m.title()))
    return out


def _dock_of(widget) -> QDockWidget | None:
    w = widget
    while w is not None and not isinstance(w, QDockWidget):
        w = w.parentWidget()
    return w


def _panel_of(widget) -> str:
    """The title of the dock a widget sits in ("panel" when none)."""
    w = _dock_of(widget)
    return f"{w.windowTitle()} panel" if w is not None else "panel"


def shortcut_rows(window: MainWindow) -> list[tuple[str, str, str]]:
    """(keys, what it does, where) for every action of the window with a shortcut,
    and every panel button with one (the action track's F5–F9…)."""
    paths = _menu_paths(window)
    rows: dict[tuple[str, str], str] = {}

    def keys_text(keys) -> str:
        return ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys)

    for a in window.findChildren(QAction):
        keys = [k for k in a.shortcuts() if not k.isEmpty()]
        if keys and a.text():
            rows.setdefault((keys_text(keys), _plain(a.text())), paths.get(id(a), "toolbar / map"))
    for b in window.findChildren(QAbstractButton):
        k = b.shortcut()
        if not k.isEmpty() and b.text():
            rows.setdefault((keys_text([k]), _plain(b.text())), _panel_of(b.parentWidget()))
    # a panel's own keys (QShortcut) name the buttons whose tooltips say "(KEY)"
    for sc in window.findChildren(QShortcut):
        owner = sc.parent()
        if sc.key().isEmpty() or not isinstance(owner, QWidget):
            continue
        key = sc.key().toString()
        names = []
        # (the panel's buttons may ride in its dock's title bar: ui/dock_title.py)
        dock = _dock_of(owner)
        bar = dock.titleBarWidget() if dock is not None else None
        for b in owner.findChildren(QAbstractButton) + (
            bar.findChildren(QAbstractButton) if bar is not None else []
        ):
            name = _plain(b.text())
            if name and f"({key})" in b.toolTip() and name not in names:
                names.append(name)
        what = " / ".join(names) or sc.whatsThis()
        if what:
            rows.setdefault((keys_text([sc.key()]), what), _panel_of(owner))
    return sorted(((k, t, w) for (k, t), w in rows.items()), key=lambda r: (r[2], r[1]))


#: the main window that installs this add-on (ui.main_window imports this module, so
#: it is not imported back: no cycle)
MainWindow = Any


class ShortcutsDialog(QDialog):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("shortcuts_dialog")
        self.setWindowTitle("Keyboard shortcuts")
        lay = QVBoxLayout(self)
        rows = shortcut_rows(window)
        # sorted by where the action is, then by its name, the keys last; a click on
        # a column's header sorts by that column
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Menu / panel", "Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, (keys, what, where) in enumerate(rows):
            for j, v in enumerate((where, what, keys)):
                self.table.setItem(i, j, QTableWidgetItem(v))
        self.table.setSortingEnabled(True)
        self.table.sortItems(0)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        lay.addWidget(self.table)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)
        # as wide as the three columns (no column cut), within the screen
        width = sum(self.table.columnWidth(j) for j in range(3))
        width += self.table.verticalScrollBar().sizeHint().width() + 4 * lay.spacing() + 24
        screen = window.screen()
        most = screen.availableGeometry().width() - 40 if screen is not None else width
        self.resize(min(max(620, width), most), 560)


class HelpMenu(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.menu = window.menuBar().addMenu("&Help")
        self.menu.setObjectName("menu_help")
        self.act_quick_start = self._add("&Quick start", self.quick_start, "act_quick_start")
        self.act_manual = self._add("&Manual…", self.manual, "act_manual")
        self.act_manual.setStatusTip("The manual, offline: contents, search, every page")
        self.act_shortcuts = self._add("&Keyboard shortcuts", self.shortcuts, "act_shortcuts")
        self.act_shortcuts.setShortcuts([QKeySequence("F1"), QKeySequence("?")])
        self.act_shortcuts.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.menu.addSeparator()
        self.act_about = self._add("&About TWTW Desktop", self.about, "act_about")
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        self.act_quit = QAction("&Quit", window)
        self.act_quit.setObjectName("act_quit")
        self.act_quit.setShortcut(QKeySequence("Ctrl+Q"))
        self.act_quit.setMenuRole(QAction.MenuRole.QuitRole)
        self.act_quit.setStatusTip("Close TWTW Desktop (asks to save unsaved changes)")
        self.act_quit.triggered.connect(self.quit)
        window.file_menu.addAction(self.act_quit)
        self.dialog: QDialog | None = None

    def _add(self, text: str, slot, name: str) -> QAction:
        a = QAction(text, self.window)
        a.setObjectName(name)
        a.triggered.connect(slot)
        self.menu.addAction(a)
        return a

    def _open(self, dialog: QDialog) -> QDialog:
        self.dialog = dialog
        dialog.open()
        return dialog

    def quick_start(self) -> QDialog:
        """The manual's quick-start page (the same page the repository shows)."""
        return self._open(ManualDialog(self.window, QUICK_START))

    def manual(self) -> QDialog:
        return self._open(ManualDialog(self.window))

    def shortcuts(self) -> QDialog:
        return self._open(ShortcutsDialog(self.window))

    def about_text(self) -> str:
        return (
            f"<h3>TWTW Desktop {version()}</h3>"
            "<p>A rules-aware hex tactical map for Judges of <i>The West That Wasn't</i>: "
            "maps with walls and cover, the action track, the card deck and the "
            "players' screen.</p>"
        )

    def about(self) -> None:
        QMessageBox.about(self.window, "About TWTW Desktop", self.about_text())

    def quit(self) -> bool:
        """Close the window (asking to save first); False when the Judge cancelled."""
        if not self.window.close():
            return False
        app = QApplication.instance()
        ps = getattr(self.window, "players_screen", None)
        pw = getattr(ps, "players_window", None)
        if pw is not None:
            pw.close()
        if app is not None:
            app.quit()
        return True


def install_help_menu(window: MainWindow) -> HelpMenu:
    """Add the Help menu and File ▸ Quit to ``window`` (once)."""
    existing = getattr(window, "help_menu", None)
    if isinstance(existing, HelpMenu):
        return existing
    ctl = HelpMenu(window)
    window.help_menu = ctl
    return ctl
