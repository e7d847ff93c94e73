"""Encounter ▸ Character library…: add NPCs in two clicks, keep the Judge's own.

The dialog lists the library's shelves (:mod:`twtw_desktop.io.library`): sample
characters, common NPC types and the Judge's saved characters (kept in the user data
folder, :func:`~twtw_desktop.ui.core.datadir.data_dir`). Pick one, set how many, *Add*: the copies
get numbered names ("Laroq gunman 2, 3, 4") and tokens on the free hexes nearest the
middle of the view, as one undo step (:meth:`EncounterDocument.add_characters`).
*Save selected to library* keeps the selected token's character on the Judge's shelf.

Install with :func:`install_library`; the controller is ``window.library``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from ...errors import LoadError
from ...io.library import MAX_COPIES, SHELVES, CharacterLibrary, LibraryEntry, numbered_copies
from ...model.party import middle_hex, new_tokens
from ...rules.character import Character
from ..core.datadir import data_dir
from .party_dialogs import document_of, under_a_title, view_centre_hex

#: the main window that installs this add-on (ui.main_window imports this module, so
#: it is not imported back: no cycle)
MainWindow = Any


class LibraryDialog(QDialog):
    def __init__(self, controller: Library) -> None:
        super().__init__(controller.window)
        self.ctl = controller
        self.setObjectName("library_dialog")
        self.setWindowTitle("Character library")
        self.resize(460, 520)
        lay = QVBoxLayout(self)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Character", "Side"])
        self.tree.itemDoubleClicked.connect(lambda *_: self.add())
        lay.addWidget(self.tree)
        self.problem = QLabel("")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #a00")
        lay.addWidget(self.problem)
        row = QHBoxLayout()
        row.addWidget(QLabel("Copies:"))
        self.count = QSpinBox()
        self.count.setRange(1, MAX_COPIES)
        row.addWidget(self.count)
        self.btn_add = QPushButton("&Add to encounter")
        self.btn_add.clicked.connect(self.add)
        row.addWidget(self.btn_add)
        row.addStretch(1)
        lay.addLayout(row)
        row2 = QHBoxLayout()
        self.btn_save = QPushButton("&Save selected token to library")
        self.btn_save.clicked.connect(self.save_selected)
        row2.addWidget(self.btn_save)
        self.btn_remove = QPushButton("&Remove from my characters")
        self.btn_remove.clicked.connect(self.remove)
        row2.addWidget(self.btn_remove)
        lay.addLayout(row2)
        bb = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)
        self.tree.currentItemChanged.connect(lambda *_: self._enable())
        self.refresh()

    def refresh(self) -> None:
        self.tree.clear()
        entries, problems = self.ctl.library.entries()
        self.problem.setText("\n".join(problems))
        self.problem.setVisible(bool(problems))
        shelves: dict[str, QTreeWidgetItem] = {}
        for key, title in SHELVES.items():
            it = QTreeWidgetItem([title, ""])
            it.setFlags(it.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.tree.addTopLevelItem(it)
            shelves[key] = it
        for e in entries:
            it = QTreeWidgetItem([e.character.name, e.character.side])
            it.setData(0, Qt.ItemDataRole.UserRole, e)
            it.setToolTip(0, e.character.notes[:400])
            shelves[e.shelf].addChild(it)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        self._enable()

    def current(self) -> LibraryEntry | None:
        it = self.tree.currentItem()
        return it.data(0, Qt.ItemDataRole.UserRole) if it is not None else None

    def select(self, name: str) -> None:
        for it in self.tree.findItems(
            name, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive
        ):
            if it.data(0, Qt.ItemDataRole.UserRole) is not None:
                self.tree.setCurrentItem(it)
                return
        raise KeyError(f"no {name!r} in the library")

    def _enable(self) -> None:
        e = self.current()
        self.btn_add.setEnabled(e is not None)
        self.btn_remove.setEnabled(e is not None and e.shelf == "mine")
        self.btn_save.setEnabled(document_of(self.ctl.window).selected_token_id is not None)

    def add(self) -> None:
        e = self.current()
        if e is not None:
            self.ctl.add(e.character, self.count.value())

    def save_selected(self) -> None:
        if self.ctl.save_selected():
            self.refresh()

    def remove(self) -> None:
        e = self.current()
        if e is None or e.shelf != "mine":
            return
        try:
            self.ctl.library.remove(e.character.id)
        except (LoadError, KeyError) as err:
            self.ctl.window.show_error("Library", str(err.args[0] if err.args else err))
        self.refresh()


class Library(QObject):
    """Encounter ▸ Character library… and what it does."""

    def __init__(self, window: MainWindow, folder: Path | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.library = CharacterLibrary(folder if folder is not None else data_dir())
        self.dialog: LibraryDialog | None = None
        self.act_library = QAction("Character &library…", window)
        self.act_library.setObjectName("act_library")
        self.act_library.setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.act_library.setStatusTip("Add sample characters and NPC types, or keep your own")
        self.act_library.triggered.connect(self.show)
        window.encounter_menu.addSeparator()
        window.encounter_menu.addAction(self.act_library)

    def show(self) -> LibraryDialog:
        if self.dialog is None:
            self.dialog = LibraryDialog(self)
        self.dialog.refresh()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def add(self, template: Character, count: int = 1) -> list[Character]:
        """Add ``count`` numbered copies near the middle of the view (one undo step)."""
        win, doc = self.window, document_of(self.window)
        enc = doc.encounter
        try:
            copies = numbered_copies(
                template, count, {c.id for c in enc.characters}, {c.name for c in enc.characters}
            )
            near = view_centre_hex(win) or middle_hex(doc.map)
            tokens = new_tokens(enc, doc.map, copies, near, under_a_title(win))
            doc.add_characters(copies, tokens)
        except ValueError as e:
            win.show_error("Cannot add", str(e))
            return []
        win._show_message(f"Added {', '.join(c.name for c in copies)}")
        return copies

    def save_selected(self) -> bool:
        """Keep the selected token's character on the Judge's shelf."""
        doc = document_of(self.window)
        tok = doc.selected_token()
        if tok is None:
            self.window._show_message("Select a token first.")
            return False
        c = doc.character(tok.character_id)
        try:
            self.library.save_character(c)
        except LoadError as e:
            self.window.show_error("Cannot save to the library", str(e))
            return False
        self.window._show_message(f"{c.name} saved to the library")
        return True


def install_library(window: MainWindow, folder: Path | None = None) -> Library:
    """Add Encounter ▸ Character library… to ``window`` (once)."""
    existing = getattr(window, "library", None)
    if isinstance(existing, Library):
        return existing
    ctl = Library(window, folder)
    window.library = ctl
    return ctl
