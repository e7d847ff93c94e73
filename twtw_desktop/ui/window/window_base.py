"""What the parts of the Judge's window share (:mod:`.main_window`, :mod:`.window_files`,
:mod:`.window_actions`, :mod:`.window_layout`): the state they read, declared once,
and the window's word to the Judge — the title, status messages, errors and a refused
table step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QAction, QUndoGroup
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QMessageBox, QWidget

from ...errors import RulesError
from ..core.document import EncounterDocument
from ..core.settings import AppSettings
from ..scene.map_view import MapView
from .autosave import Autosaver

APP_TITLE = "TWTW Desktop"

#: builds a dock's panel over a document: (document, dock) -> the panel
PanelFactory = Callable[[EncounterDocument | None, QDockWidget], QWidget]


class WindowBase(QMainWindow):
    """The state and feedback of :class:`.main_window.MainWindow`, which builds it."""

    settings: AppSettings
    document: EncounterDocument | None
    autosaver: Autosaver | None
    undo_group: QUndoGroup
    map_view: MapView
    #: the add-ons and the panels are still to come (:meth:`complete`)
    incomplete: bool
    #: emitted once the window is complete (the signal is :class:`.main_window.MainWindow`'s)
    completed: Any
    docks: dict[str, QDockWidget]
    _dock_factories: dict[str, PanelFactory]
    docks_menu: QMenu
    recent_menu: QMenu
    tool_actions: dict[str, QAction]
    overlay_actions: dict[str, QAction]
    st_hex: QLabel
    st_zoom: QLabel
    st_mode: QLabel
    # the add-ons (ui.main_window installs them; they import nothing of the window)
    party_dialogs: Any
    players_screen: Any
    dock_rail: Any

    def set_document(self, document: EncounterDocument) -> None:
        """Show ``document`` in this window (:class:`.main_window.MainWindow`)."""
        raise NotImplementedError

    def complete(self) -> None:
        """Install the add-ons and build the panels of a window shown before it was
        complete (:class:`.main_window.MainWindow`)."""
        raise NotImplementedError

    def _update_title(self) -> None:
        doc = self.document
        if doc is None:
            return
        # the encounter's (or map's) own name first, then the file it is in
        name = (doc.map.name if doc.kind == "map" else doc.encounter.name).strip()
        caption = f"{name} ({doc.path.name})" if doc.path is not None and name else doc.title
        self.setWindowTitle(f"{caption}[*] — {APP_TITLE}")
        self.setWindowModified(doc.is_dirty())

    def show_error(self, title: str, text: str) -> None:
        from .dialog_titles import install_title_fit  # lazy: start-up (before add-ons)

        install_title_fit()  # (an error at start-up comes before the add-ons)
        QMessageBox.critical(self, title, text)

    def _show_message(self, text: str) -> None:
        if text:
            self.statusBar().showMessage(text, 8000)

    def _guarded(self, fn) -> bool:
        try:
            fn()
        except (RulesError, ValueError, KeyError) as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            self._show_message(str(msg))
            QMessageBox.information(self, "Not allowed", str(msg))
            return False
        return True
