"""The Judge's window: the map in the middle, the panels in docks around it.

Menus: File (New, Open…, Open Recent, Save, Save As…, Close), Edit (Undo/Redo with
the command's name), View (docks, overlays, zoom), Tools, Encounter (action time,
turning the selected token, the edition) — every action with a shortcut and tooltip,
the tools and overlays also on the toolbar. The status bar shows the hovered hex
(offset label, terrain, elevation), the zoom and the time mode.

This module builds the window, installs its add-ons (each puts its own menus, docks
and toolbars on it) and holds the document; the file actions are in
:mod:`.window_files`, the actions, menus, toolbars and status bar in
:mod:`.window_actions`, the docks and the layout in :mod:`.window_layout`.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QUndoGroup
from PySide6.QtWidgets import QWidget

from ..core.datadir import documents_dir
from ..core.document import EncounterDocument
from ..core.settings import AppSettings
from ..scene.map_view import MapView
from ..scene.token_item import READABLE_NAME_PX as READABLE_NAME_PX  # names readable
from .autopilot import install as install_autopilot
from .autosave import Autosaver
from .wheel import install_wheel_guard
from .window_actions import WindowActions
from .window_base import APP_TITLE
from .window_files import save_suggestion
from .window_layout import WindowLayout

#: the window, and the names its tests and add-ons import from here
__all__ = [
    "APP_TITLE",
    "READABLE_NAME_PX",
    "MainWindow",
    "documents_dir",
    "save_suggestion",
]


#: a window shown before it is complete completes itself after this long at the
#: latest (a window that is never painted, e.g. minimised)
COMPLETE_AT_THE_LATEST_MS = 1000


class MainWindow(WindowActions, WindowLayout):
    """The main window over one :class:`EncounterDocument` at a time: this class
    builds it, installs the add-ons and holds the document; its bases bring the file
    actions (:mod:`.window_files`), the actions, menus and status bar
    (:mod:`.window_actions`) and the docks and layout (:mod:`.window_layout`)."""

    #: a new document replaced the old one (New, Open, a sample): add-ons that keep
    #: state per document (editor, players' screen) re-attach on this
    documentReplaced = Signal(object)
    #: the window is complete: its add-ons installed and its panels built (see
    #: :meth:`complete`)
    completed = Signal()

    def __init__(
        self,
        document: EncounterDocument | None = None,
        settings: AppSettings | None = None,
        parent: QWidget | None = None,
        *,
        complete_after_first_frame: bool = False,
    ) -> None:
        """``complete_after_first_frame`` (the app's start-up: the map shows first):
        the map, the window's own menus and toolbars and the docks are there at once;
        the add-ons (editor, players' screen, export… and their menus) and the docks'
        panels come just after the window's first frame (:meth:`complete`)."""
        super().__init__(parent)
        #: the add-ons and the panels are still to come (:meth:`complete`)
        self.incomplete = complete_after_first_frame
        self.settings = settings or AppSettings()
        self.document = None
        self.autosaver = None
        self.undo_group = QUndoGroup(self)
        self.docks = {}
        self._dock_factories = {}
        self.setObjectName("main_window")
        self.setDockNestingEnabled(True)
        self.map_view = MapView(parent=self)
        self.setCentralWidget(self.map_view)
        self._make_tools()
        self._make_actions()
        self._make_menus()
        self._make_toolbars()
        self._make_status_bar()
        self._make_docks()
        self.autopilot = install_autopilot(self)
        self.map_view.hexHovered.connect(self._show_hex)
        self.map_view.zoomChanged.connect(self._show_zoom)
        self.map_view.statusMessage.connect(self._show_message)
        self.map_view.toolChanged.connect(self._tool_changed)
        self.resize(1280, 760)
        if not self.incomplete:
            self._install_addons()
            install_wheel_guard()  # spin boxes take the wheel only when focused
        self.set_document(document or EncounterDocument.new())
        self.restore_layout()
        self.map_view.set_tool("select")
        if self.incomplete:
            self._complete_after_first_frame()

    # -- building -------------------------------------------------------------------------

    def _install_addons(self) -> None:
        """The add-ons that put their own menus, docks and toolbars on the window (each
        follows :attr:`documentReplaced`)."""
        from ..core.icons import decorate
        from ..cover_overlay import install_cover_fire
        from ..devices.devices_dialog import install_devices
        from ..dialogs.care_dialog import install_care_dialogs
        from ..dialogs.check_dialog import install_check_dialog
        from ..dialogs.rules_reference import install_rules_reference
        from ..dialogs.speed_dialog import install_speed_dialog
        from ..editor import install_editor
        from ..files.export_dialog import install_export
        from ..files.library import install_library
        from ..files.party_dialogs import install_party_dialogs
        from ..files.samples_menu import install_samples_menu
        from ..files.uvtt_dialog import install_uvtt
        from ..menus.help_menu import install_help_menu
        from ..menus.melee_menu import install_melee_menu
        from ..menus.mount_menu import install_mount_menu
        from ..players import install_players_screen
        from .autopilot import hook_track_rows
        from .dialog_titles import install_title_fit
        from .dock_rail import install_dock_rail
        from .preferences import install_preferences

        install_title_fit()  # every dialog as wide as its title (the app's, once)
        hook_track_rows()  # the autopilot's entries in the track's rows (their panel next)
        self.editor = install_editor(self)
        self.players_screen = install_players_screen(self)
        self.devices = install_devices(self)  # after the players' screen: its options
        self.samples_menu = install_samples_menu(self)
        self.party_dialogs = install_party_dialogs(self)
        self.export = install_export(self)
        self.uvtt = install_uvtt(self)
        self.library = install_library(self)
        self.preferences = install_preferences(self)
        self.help_menu = install_help_menu(self)
        self.dock_rail = install_dock_rail(self)
        install_check_dialog(self)
        install_care_dialogs(self)  # First aid…, Rest and heal… (001 Healing)
        install_speed_dialog(self)
        install_mount_menu(self)
        install_cover_fire(self)
        install_melee_menu(self)
        install_rules_reference(self)
        decorate(*self.tools_toolbar.actions(), *self.players_screen.toolbar.actions())

    def _make_tools(self) -> None:
        from ..tools import PickTargetTool, make_tools

        self.map_view.pick_tool = PickTargetTool

        for tool in make_tools(self.map_view):
            self.map_view.register_tool(tool)

    def complete(self) -> None:
        """Complete a window shown before it was (``complete_after_first_frame``):
        install the add-ons, put their toolbars and docks where the saved layout has
        them, build the panels (one that cannot be imported is left out, as in a
        window built at once), install the wheel guard, then start the session
        journal or offer the recovery of an unsaved one, as a window built at once
        does last."""
        if not self.incomplete:
            return
        self.incomplete = False
        from ..panels import dock_specs

        self._install_addons()
        state = self.settings.window_state()
        if state is not None:
            self.restoreState(state)
        self._sync_addons()
        available = {spec[0] for spec in dock_specs()}
        for name in [n for n in self.docks if n not in available]:
            dock = self.docks.pop(name)
            del self._dock_factories[name]
            self.docks_menu.removeAction(dock.toggleViewAction())
            self.removeDockWidget(dock)
            dock.deleteLater()
        self._fill_docks()
        # after the panels (one app-wide filter less while they are built); it also
        # sets the boxes built before it
        install_wheel_guard()
        if self.document is not None:
            self._recover_or_journal(self.document)
        if state is None:  # the first run: the bottom row fitted to its panel
            QTimer.singleShot(0, self.fit_bottom_row)
        # the panels took their room: the figures in view again, once laid out
        self.open_view()
        QTimer.singleShot(0, self.open_view)
        self.completed.emit()

    def _complete_after_first_frame(self) -> None:
        """:meth:`complete` as soon as the map has been painted once (the Judge sees
        the window at once, complete a moment later), or after
        :data:`COMPLETE_AT_THE_LATEST_MS` if it is not painted by then."""
        vp = self.map_view.viewport()
        watcher = _FirstPaint(vp)
        watcher.painted.connect(lambda: QTimer.singleShot(0, self, self.complete))
        vp.installEventFilter(watcher)
        QTimer.singleShot(COMPLETE_AT_THE_LATEST_MS, self, self.complete)

    # -- the document -------------------------------------------------------------------------

    def set_document(self, document: EncounterDocument) -> None:
        old = self.document
        editor = getattr(self, "editor", None)
        if editor is not None and editor.mode and document.kind != "map":
            editor.set_mode(False)  # an encounter opens to play, the map editor off
        if old is not None:
            old.changed.disconnect(self._doc_changed)
            self.undo_group.removeStack(old.undo_stack)
            if old is not document:
                old.stop_journal(keep=old.is_dirty())
                if self.autosaver is not None:
                    self.autosaver.discard()
        document.setParent(self)
        self.document = document
        document.follow_track = self.settings.follow_track()
        self.undo_group.addStack(document.undo_stack)
        self.undo_group.setActiveStack(document.undo_stack)
        document.changed.connect(self._doc_changed)
        self.map_view.set_document(document)
        self._fill_docks()
        self._update_title()
        self._update_mode()
        self.documentReplaced.emit(document)
        self._remember_last(document)
        if not self.incomplete:  # (else the start-up does, once the window is shown)
            self.open_view()
        if old is not None and old is not document:
            old.deleteLater()
        if not self.incomplete:  # else complete() does, after the first frame
            self._recover_or_journal(document)
        self.autosaver = Autosaver(document, self.settings.autosave_minutes() * 60)

    def _recover_or_journal(self, doc: EncounterDocument) -> None:
        """Offer what a session journal holds beyond the saved file, then journal
        this session (ui.recovery)."""
        from .recovery import recover_or_journal

        recover_or_journal(self, doc)

    def _doc_changed(self, area: str) -> None:
        if area in ("file", "all"):
            self._update_title()
        if area in ("mode", "track", "all"):
            self._update_mode()

    def closeEvent(self, ev: QCloseEvent) -> None:
        if not self.maybe_save():
            ev.ignore()
            return
        if self.document is not None:
            self.document.stop_journal(keep=self.document.is_dirty())
        if self.autosaver is not None:
            self.autosaver.discard()  # saved, or the Judge chose to discard the changes
        if self.incomplete:
            # closed before its first frame was followed by the rest: nothing is left
            # to complete, and the saved layout (which has the add-ons' toolbars and
            # docks) stays as it was
            self.incomplete = False
        else:
            self.save_layout()
        ev.accept()


class _FirstPaint(QObject):
    """Says when ``widget`` is first painted, then leaves it alone."""

    painted = Signal()

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self._widget = widget

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.Paint:
            self._widget.removeEventFilter(self)
            self.painted.emit()
        return False
