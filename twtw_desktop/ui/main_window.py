"""The Judge's window: the map in the middle, the panels in docks around it.

Menus: File (New, Open…, Open Recent, Save, Save As…, Close), Edit (Undo/Redo with
the command's name), View (docks, overlays, zoom), Tools, Encounter (action time,
turning the selected token, the edition) — every action with a shortcut and tooltip,
the tools and overlays also on the toolbar. The status bar shows the hovered hex
(offset label, terrain, elevation), the zoom and the time mode.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QUndoGroup
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QToolBar,
    QWidget,
)

from ..errors import LoadError, RulesError
from ..hexgrid import Hex
from ..model.party import PARTY_SUFFIX
from .actions import make_action
from .autosave import Autosaver, newer_copy
from .document import EncounterDocument
from .scene.map_view import MapView
from .scene.token_item import READABLE_NAME_PX as READABLE_NAME_PX  # names readable
from .settings import MAX_RECENT, AppSettings
from .wheel import install_wheel_guard

log = logging.getLogger(__name__)

APP_TITLE = "TWTW Desktop"
FILE_FILTER = "Encounters and maps (*.encounter.json *.map.json *.json);;All files (*)"
SAVE_FILTER = "Encounters (*.encounter.json);;All files (*)"
MAP_SAVE_FILTER = "Maps (*.map.json);;Encounters (*.encounter.json);;All files (*)"
#: the settings key of the encounter the app reopens when launched without a file:
#: its file (or, for an untitled copy, the sample it was copied from)
LAST_ENCOUNTER_KEY = "session/last_encounter"
#: first-run dock sizes (pixels): narrow side columns, a short bottom row
DOCK_SIDE_WIDTH = 300
DOCK_BOTTOM_HEIGHT = 232  # the action track shows six rows and its message line
#: below this available screen width the first-run layout keeps one side column
LAPTOP_WIDTH = 1600
#: ...and no closer than this zoom step (100 %) on its figures
OPEN_MAX_ZOOM_K = 0
#: a window shown before it is complete completes itself after this long at the
#: latest (a window that is never painted, e.g. minimised)
COMPLETE_AT_THE_LATEST_MS = 1000

#: (overlay name, menu text, shortcut, tooltip)
OVERLAY_ACTIONS = (
    ("reachable", "&Reachable area", "R", "Where the selected token can go, coloured by AP cost"),
    (
        "field_of_fire",
        "&Field of fire",
        "F",
        "The selected token's field of fire: 60° for long arms, 120° for handguns",
    ),
    (
        "corridor",
        "&Unintended targets",
        "U",
        "The corridor of a shot from the selected token to its target: who may be hit by a stray",
    ),
    ("dodge_front", "&Dodge front", "D", "The 120° front the selected token covers when dodging"),
)


def is_bundled(path: str | Path) -> bool:
    """Whether a file is one of the app's own samples (opened as an untitled copy)."""
    from ..resources import maps_dir

    try:
        return Path(path).resolve().is_relative_to(maps_dir().resolve())
    except (OSError, ValueError):
        return False


def documents_dir() -> Path:
    """The Judge's Documents folder (the home folder where the system names none)."""
    from PySide6.QtCore import QStandardPaths

    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(loc) if loc else Path.home()


def file_stem(name: str, fallback: str) -> str:
    """A file name from an encounter's name: "Showdown on Main Street" →
    ``showdown_on_main_street`` (``fallback`` for a name with no letters)."""
    import re

    stem = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")
    return stem[:60].rstrip("_") or fallback


def save_suggestion(doc: EncounterDocument) -> Path:
    """Where Save As starts: the document's own file; else, in the folder of the
    file it came from (the Documents folder for an untitled copy of a sample or a
    new encounter), a file named after the encounter."""
    is_map = doc.kind == "map"
    suffix = ".map.json" if is_map else ".encounter.json"
    if doc.path is not None and doc.path.name.endswith(suffix):
        return doc.path
    folder = doc.path.parent if doc.path is not None else documents_dir()
    title = (doc.map.name if is_map else doc.encounter.name) or ""
    return folder / (file_stem(title, "map" if is_map else "encounter") + suffix)


class MainWindow(QMainWindow):
    """The main window over one :class:`EncounterDocument` at a time."""

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
        self.document: EncounterDocument | None = None
        self.autosaver: Autosaver | None = None
        self.undo_group = QUndoGroup(self)
        self.docks: dict[str, QDockWidget] = {}
        self._dock_factories: dict[str, object] = {}
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
        from .care_dialog import install_care_dialogs
        from .check_dialog import install_check_dialog
        from .cover_overlay import install_cover_fire
        from .devices_dialog import install_devices
        from .dock_rail import install_dock_rail
        from .editor import install_editor
        from .export_dialog import install_export
        from .help_menu import install_help_menu
        from .icons import decorate
        from .library import install_library
        from .melee_menu import install_melee_menu
        from .mount_menu import install_mount_menu
        from .party_dialogs import install_party_dialogs
        from .players import install_players_screen
        from .preferences import install_preferences
        from .rules_reference import install_rules_reference
        from .samples_menu import install_samples_menu
        from .speed_dialog import install_speed_dialog
        from .uvtt_dialog import install_uvtt

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
        from .tools import PickTargetTool, make_tools

        self.map_view.pick_tool = PickTargetTool

        for tool in make_tools(self.map_view):
            self.map_view.register_tool(tool)

    def _act(
        self,
        text: str,
        slot=None,
        shortcut: QKeySequence | str | QKeySequence.StandardKey | None = None,
        tip: str = "",
        name: str = "",
        checkable: bool = False,
    ) -> QAction:
        return make_action(self, text, slot, shortcut, tip, name, checkable)

    def _make_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.act_new = self._act(
            "&New encounter",
            self.new_encounter,
            S.New,
            "Start an encounter on a blank map",
            "act_new",
        )
        self.act_open = self._act(
            "&Open…", self.open_dialog, S.Open, "Open an encounter or a map", "act_open"
        )
        self.act_save = self._act("&Save", self.save, S.Save, "Save the encounter", "act_save")
        self.act_save_as = self._act(
            "Save &As…",
            self.save_as,
            S.SaveAs,
            "Save the encounter under another name",
            "act_save_as",
        )
        self.act_close = self._act("&Close", self.close, S.Close, "Close the window", "act_close")
        self.act_undo = self.undo_group.createUndoAction(self, "&Undo")
        self.act_undo.setShortcut(QKeySequence(S.Undo))
        self.act_undo.setObjectName("act_undo")
        self.act_redo = self.undo_group.createRedoAction(self, "&Redo")
        # where the platform's Redo already is Ctrl+Y, one key sequence, not two
        redo_keys = [QKeySequence(S.Redo), QKeySequence("Ctrl+Y")]
        self.act_redo.setShortcuts(redo_keys[:1] if redo_keys[0] == redo_keys[1] else redo_keys)
        self.act_redo.setObjectName("act_redo")
        self.act_zoom_in = self._act(
            "Zoom &in", lambda: self.map_view.zoom_in(), "Ctrl++", "Zoom in", "act_zoom_in"
        )
        self.act_zoom_in.setShortcuts([QKeySequence("Ctrl++"), QKeySequence("Ctrl+=")])
        self.act_zoom_out = self._act(
            "Zoom &out", lambda: self.map_view.zoom_out(), "Ctrl+-", "Zoom out", "act_zoom_out"
        )
        self.act_zoom_fit = self._act(
            "&Fit map", self.map_view.zoom_fit, "Ctrl+0", "Show the whole map", "act_zoom_fit"
        )
        self.act_grid = self._act(
            "&Grid lines", self._toggle_grid, "Ctrl+G", "Show the hex grid lines", "act_grid", True
        )
        self.act_grid.setChecked(True)
        self.act_labels = self._act(
            "Hex &labels",
            self._toggle_labels,
            "Ctrl+L",
            "Show hex coordinates when zoomed in",
            "act_labels",
            True,
        )
        self.act_labels.setChecked(True)
        # tools: one active at a time
        self.tool_group = QActionGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for name, tool in self.map_view.tools().items():
            if name == "pick_target":
                continue
            a = self._act(tool.title, None, tool.shortcut, tool.tooltip, f"tool_{name}", True)
            a.triggered.connect(lambda _=False, n=name: self.map_view.set_tool(n))
            self.tool_group.addAction(a)
            self.tool_actions[name] = a
        # overlays
        self.overlay_actions: dict[str, QAction] = {}
        for name, text, key, tip in OVERLAY_ACTIONS:
            a = self._act(text, None, key, tip, f"overlay_{name}", True)
            a.toggled.connect(lambda on, n=name: self.map_view.overlays.set_enabled(n, on))
            self.overlay_actions[name] = a
        self.map_view.overlays.toggled.connect(self._overlay_toggled)
        # encounter
        self.act_action_time = self._act(
            "Start &action time",
            self.start_action_time,
            "Ctrl+T",
            "Declare action time: the action track takes over",
            "act_action_time",
        )
        self.act_narrative = self._act(
            "Return to &narrative time",
            self.end_action_time,
            "Ctrl+Shift+T",
            "Leave action time: tokens move freely again",
            "act_narrative",
        )
        self.act_turn_left = self._act(
            "Turn &left",
            lambda: self.turn_selected(1),
            "[",
            "Turn the selected token 60° left (AP in action time)",
            "act_turn_left",
        )
        self.act_turn_right = self._act(
            "Turn &right",
            lambda: self.turn_selected(-1),
            "]",
            "Turn the selected token 60° right (AP in action time)",
            "act_turn_right",
        )
        self.act_edition = self._act(
            "Edition:",
            self.edit_rules,
            "Ctrl+Shift+O",
            "The edition and the optional rules of this encounter (rushing, bleeding…)",
            "act_edition",
        )

    def _make_menus(self) -> None:
        mb = self.menuBar()
        self.file_menu = m = mb.addMenu("&File")
        m.addAction(self.act_new)
        m.addAction(self.act_open)
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        m.addSeparator()
        m.addAction(self.act_save)
        m.addAction(self.act_save_as)
        m.addSeparator()
        #: add-ons (export, samples) insert their File entries before this separator
        self.file_menu_tail = m.addSeparator()
        m.addAction(self.act_close)
        self.edit_menu = m = mb.addMenu("&Edit")
        m.addAction(self.act_undo)
        m.addAction(self.act_redo)
        self.view_menu = m = mb.addMenu("&View")
        self.docks_menu = m.addMenu("&Panels")
        m.addSeparator()
        for a in self.overlay_actions.values():
            m.addAction(a)
        flags = self.map_view.overlays.clear_flags_action
        flags.setShortcut(QKeySequence("Ctrl+Shift+U"))
        m.addAction(flags)
        m.addSeparator()
        m.addAction(self.act_zoom_in)
        m.addAction(self.act_zoom_out)
        m.addAction(self.act_zoom_fit)
        m.addSeparator()
        m.addAction(self.act_grid)
        m.addAction(self.act_labels)
        self.tools_menu = m = mb.addMenu("&Tools")
        for a in self.tool_actions.values():
            m.addAction(a)
        self.encounter_menu = m = mb.addMenu("E&ncounter")
        m.addAction(self.act_action_time)
        m.addAction(self.act_narrative)
        m.addSeparator()
        m.addAction(self.act_turn_left)
        m.addAction(self.act_turn_right)
        m.addSeparator()
        m.addAction(self.act_edition)

    def _make_toolbars(self) -> None:
        from .icons import decorate

        decorate(
            *self.tool_actions.values(),
            *self.overlay_actions.values(),
            self.act_new,
            self.act_open,
            self.act_save,
            self.act_undo,
            self.act_redo,
            self.act_action_time,
            self.act_narrative,
            self.act_zoom_fit,
            self.act_turn_left,
            self.act_turn_right,
        )
        tb0 = QToolBar("File", self)
        tb0.setObjectName("toolbar_file")
        tb0.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        for a in (self.act_open, self.act_save, self.act_undo, self.act_redo):
            tb0.addAction(a)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb0)
        self.file_toolbar = tb0
        tb = QToolBar("Tools", self)
        tb.setObjectName("toolbar_tools")
        # the tools carry their names (a Judge looks for "Throw"); the overlays are
        # toggles whose tooltips name them and their one-key shortcuts
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for a in self.tool_actions.values():
            tb.addAction(a)
        tb.addSeparator()
        for a in self.overlay_actions.values():
            tb.addAction(a)
            btn = tb.widgetForAction(a)
            if btn is not None and not a.icon().isNull():
                btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb)
        self.tools_toolbar = tb
        tb2 = QToolBar("Action time", self)
        tb2.setObjectName("toolbar_time")
        tb2.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb2.addAction(self.act_action_time)
        tb2.addAction(self.act_narrative)
        tb2.addSeparator()
        tb2.addAction(self.act_zoom_fit)
        btn = tb2.widgetForAction(self.act_zoom_fit)
        if btn is not None:
            btn.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb2)
        self.time_toolbar = tb2

    def _make_status_bar(self) -> None:
        sb = self.statusBar()
        self.st_hex = QLabel("")
        self.st_hex.setMinimumWidth(200)
        self.st_hex.setObjectName("status_hex")
        self.st_zoom = QLabel("")
        self.st_mode = QLabel("")
        self.st_mode.setObjectName("status_mode")
        sb.addPermanentWidget(self.st_hex)
        sb.addPermanentWidget(self.st_zoom)
        sb.addPermanentWidget(self.st_mode)

    def _make_docks(self) -> None:
        try:
            from .panels import dock_specs, panel_specs

            # panels built after the first frame are imported then too
            specs = panel_specs() if self.incomplete else dock_specs()
        except ImportError as e:  # panels not there yet: the map alone still works
            log.warning("no side panels: %s", e)
            specs = []
        for name, title, factory, area in specs:
            dock = QDockWidget(title, self)
            dock.setObjectName(name)
            dock.setFeatures(
                QDockWidget.DockWidgetFeature.DockWidgetClosable
                | QDockWidget.DockWidgetFeature.DockWidgetMovable
                | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            )
            self.addDockWidget(area, dock)
            self.docks[name] = dock
            self._dock_factories[name] = factory
            self.docks_menu.addAction(dock.toggleViewAction())
        # docks sharing an area become tabs, so the map keeps most of a laptop screen
        by_area: dict[Qt.DockWidgetArea, list[QDockWidget]] = {}
        for name, _title, _f, area in specs:
            by_area.setdefault(area, []).append(self.docks[name])
        for docks in by_area.values():
            for d in docks[1:]:
                self.tabifyDockWidget(docks[0], d)
            if docks:
                docks[0].raise_()

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
        from .panels import dock_specs

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

    def _fill_docks(self) -> None:
        if self.incomplete:
            return  # built by complete(), on the document of that moment
        for name, dock in self.docks.items():
            old = dock.widget()
            try:
                w = self._dock_factories[name](self.document, dock)
            except Exception as e:  # a broken panel must not take the window down
                log.exception("panel %s failed", name)
                w = QLabel(f"This panel could not open:\n{e}")
                w.setWordWrap(True)
            dock.setWidget(w)
            if old is not None:
                old.deleteLater()

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
        self.open_view()
        if old is not None and old is not document:
            old.deleteLater()
        if not self.incomplete:  # else complete() does, after the first frame
            self._recover_or_journal(document)
        self.autosaver = Autosaver(document, self.settings.autosave_minutes() * 60)

    def _remember_last(self, doc: EncounterDocument) -> None:
        """Note the file a launch without a file reopens: this document's own, or the
        sample an untitled copy came from (a new encounter never saved has none, and
        leaves the last one noted)."""
        src = doc.path if doc.path is not None else getattr(doc, "origin", None)
        if src is not None and self.settings.q.value(LAST_ENCOUNTER_KEY) != str(src):
            self.settings.q.setValue(LAST_ENCOUNTER_KEY, str(src))
            self.settings.q.sync()  # on disk now: the app may be killed before it quits

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

    def _update_title(self) -> None:
        doc = self.document
        if doc is None:
            return
        self.setWindowTitle(f"{doc.title}[*] — {APP_TITLE}")
        self.setWindowModified(doc.is_dirty())

    def _update_mode(self) -> None:
        doc = self.document
        if doc is None:
            return
        action = doc.in_action
        self.act_action_time.setEnabled(not action)
        self.act_narrative.setEnabled(action)
        self.act_edition.setText(f"Rules and &options… (edition: {doc.edition.name})")
        if action:
            rnd, seg = doc.table.now()
            unit = "segment" if doc.edition.time == "segments" else "phase"
            text = f"Action time — round {rnd}, {unit} {seg}"
        else:
            text = "Narrative time"
        self.st_mode.setText(f"{text} · {doc.edition.name}")

    # -- file actions ------------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Ask "Save changes?" when the encounter has unsaved edits; False = cancel."""
        doc = self.document
        if doc is None or not doc.is_dirty():
            return True
        r = QMessageBox.question(
            self,
            "Save changes?",
            f"“{doc.title}” has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if r == QMessageBox.StandardButton.Save:
            return self.save()
        return r == QMessageBox.StandardButton.Discard

    def new_encounter(self) -> None:
        if not self.maybe_save():
            return
        doc = EncounterDocument.new()
        edition = self.settings.default_edition()  # Edit ▸ Preferences
        if edition != doc.encounter.edition:
            enc = doc.encounter.model_copy(update={"edition": edition})
            doc.deleteLater()
            doc = EncounterDocument(enc)
        self.set_document(doc)

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = self.settings.last_dir() or str(documents_dir())
        path, _ = QFileDialog.getOpenFileName(self, "Open encounter or map", start, FILE_FILTER)
        if path:
            self.open_path(path, ask=False)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open a file in this window. A file that cannot be opened shows a dialog with
        the reason and leaves the current encounter as it was. A party file is
        offered for import into the open encounter instead."""
        if str(path).lower().endswith(PARTY_SUFFIX):
            if self.incomplete:
                self.complete()
            return self.party_dialogs.offer_import(Path(path))
        if ask and not self.maybe_save():
            return False
        try:
            doc = self._open_or_recovered(Path(path))
        except LoadError as e:
            self.show_error("Cannot open the file", str(e))
            return False
        if is_bundled(path):
            doc.make_untitled()
        self.set_document(doc)
        if doc.path is not None:
            self.settings.add_recent(path)
            self._fill_recent()
        self._show_message(f"Opened {Path(path).name}")
        return True

    def _open_or_recovered(self, path: Path) -> EncounterDocument:
        """Open ``path``, or its newer recovery copy (the map editor's autosave) when
        the Judge chooses it: the copy then counts as unsaved changes to the file."""
        copy = newer_copy(path)
        if copy is not None:
            answer = QMessageBox.question(
                self,
                "Open the autosaved copy?",
                f"A recovery copy of {path.name}, written while editing, is newer than the "
                "file: the app was closed without saving.\n\nOpen the copy instead? "
                "(No opens the file as it was saved; the copy is kept.)",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.Yes,
            )
            if answer == QMessageBox.StandardButton.Yes:
                doc = EncounterDocument.open(copy)
                doc.path = path
                doc.table.source = path
                doc.undo_stack.resetClean()  # unsaved changes to the file
                return doc
        return EncounterDocument.open(path)

    def save(self) -> bool:
        doc = self.document
        if doc is None:
            return False
        if doc.path is None or not str(doc.path).endswith(".json"):
            return self.save_as()
        if doc.kind != "map" and doc.path.name.endswith(".map.json"):
            # an encounter never overwrites a map file
            return self.save_as()
        return self._save_to(doc.path)

    def save_as(self) -> bool:
        doc = self.document
        if doc is None:
            return False
        is_map = doc.kind == "map"
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save map" if is_map else "Save encounter",
            str(save_suggestion(doc)),
            MAP_SAVE_FILTER if is_map else SAVE_FILTER,
        )
        if not path:
            return False
        if not path.endswith(".json"):
            path += ".map.json" if is_map else ".encounter.json"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            self.document.save(path)
        except LoadError as e:
            self.show_error("Cannot save", str(e))
            return False
        self.settings.add_recent(path)
        self._fill_recent()
        if self.document is not None:
            self._remember_last(self.document)
        self._update_title()
        self._show_message(f"Saved {path.name}")
        return True

    def _fill_recent(self) -> None:
        m = self.recent_menu
        m.clear()
        files = self.settings.recent_files()
        for i, f in enumerate(files[:MAX_RECENT]):
            a = m.addAction(f"&{i + 1} {Path(f).name}")
            a.setToolTip(f)
            a.setStatusTip(f)
            a.triggered.connect(lambda _=False, p=f: self._open_recent(p))
        if not files:
            a = m.addAction("(none yet)")
            a.setEnabled(False)
        else:
            m.addSeparator()
            m.addAction("Clear the list", self._clear_recent)

    def _open_recent(self, path: str) -> None:
        if not Path(path).exists():
            self.settings.remove_recent(path)
            self._fill_recent()
            self.show_error(
                "Cannot open the file", f"{path}: file not found (removed from the list)"
            )
            return
        self.open_path(path)

    def _clear_recent(self) -> None:
        self.settings.clear_recent()
        self._fill_recent()

    def show_error(self, title: str, text: str) -> None:
        QMessageBox.critical(self, title, text)

    # -- encounter actions -------------------------------------------------------------------

    def _guarded(self, fn) -> bool:
        try:
            fn()
        except (RulesError, ValueError, KeyError) as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            self._show_message(str(msg))
            QMessageBox.information(self, "Not allowed", str(msg))
            return False
        return True

    def start_action_time(self) -> None:
        self._guarded(self.document.start_action_time)

    def edit_rules(self) -> None:
        from .rules_dialog import edit_rules

        edit_rules(self)

    def end_action_time(self) -> None:
        self._guarded(self.document.end_action_time)

    def turn_selected(self, steps: int) -> None:
        from .tools.select import turn_token

        doc = self.document
        if doc is None or doc.selected_token_id is None:
            self._show_message("Select a token first.")
            return
        try:
            text = turn_token(doc, doc.selected_token_id, steps)
        except (RulesError, ValueError, KeyError) as e:
            self._show_message(str(e.args[0] if isinstance(e, KeyError) else e))
            return
        self._show_message(text)

    # -- view toggles ---------------------------------------------------------------------------------

    def _toggle_grid(self, on: bool) -> None:
        sc = self.map_view.map_scene
        if sc is not None:
            sc.grid.show_grid = on
            sc.grid.clear()
            self.map_view.viewport().update()

    def _toggle_labels(self, on: bool) -> None:
        sc = self.map_view.map_scene
        if sc is not None:
            sc.grid.show_labels = on
            sc.grid.clear()
            self.map_view.viewport().update()

    def _overlay_toggled(self, name: str, on: bool) -> None:
        a = self.overlay_actions.get(name)
        if a is not None and a.isChecked() != on:
            a.blockSignals(True)
            a.setChecked(on)
            a.blockSignals(False)

    def _tool_changed(self, tool) -> None:
        if tool is None:
            return
        a = self.tool_actions.get(tool.name)
        if a is not None:
            a.setChecked(True)
        self._show_message(tool.tooltip)

    # -- status bar ------------------------------------------------------------------------------------

    def _show_hex(self, h: Hex | None) -> None:
        doc = self.document
        if h is None or doc is None:
            self.st_hex.setText("")
            return
        m = doc.map
        label = self.map_view.map_scene.frame.label(h)
        terrain = m.terrain_at(h).value
        elev = m.elevation_at(h)
        text = f"Hex {label} · {terrain} · elevation {elev}"
        tok = doc.encounter.token_at(h)
        if tok is not None:
            with contextlib.suppress(KeyError):
                text += f" · {doc.character(tok.character_id).name}"
        self.st_hex.setText(text)

    def _show_zoom(self, scale: float) -> None:
        self.st_zoom.setText(f"{round(scale * 100)} %")

    def _show_message(self, text: str) -> None:
        if text:
            self.statusBar().showMessage(text, 8000)

    # -- layout memory -------------------------------------------------------------------------------

    def restore_layout(self) -> None:
        geo = self.settings.window_geometry()
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self._first_run_size()
        state = self.settings.window_state()
        if state is not None:
            self.restoreState(state)
        if not self.incomplete:
            self._sync_addons()
        for name in self.settings.overlays_on():
            a = self.overlay_actions.get(name)
            if a is not None:
                a.setChecked(True)
        QTimer.singleShot(0, self.open_view)

    def _sync_addons(self) -> None:
        self.players_screen.sync_toggle()  # its toolbar shows only while it is open
        self.dock_rail.sync()

    def open_view(self) -> None:
        """The view a map opens with: every figure in view at a readable zoom. The
        whole map when its token names can be read that way, else the largest zoom
        step (100 % at most) that shows all the figures, centred on them."""
        from .scene.grid_painter import bucket_scale
        from .scene.token_item import TokenLook, readable_scale

        mv = self.map_view
        sc = mv.map_scene
        doc = self.document
        if sc is None or doc is None or mv.viewport().width() < 10:
            return
        mv.zoom_fit()
        need = readable_scale(TokenLook(), sc.frame.unit)
        if mv.zoom >= need:
            return
        tokens = doc.encounter.tokens
        if not tokens:
            k = mv.zoom_k
            while bucket_scale(k) < need:
                k += 1
            mv.set_zoom_k(k)
            return
        fr = sc.frame
        rect = fr.hex_rect(tokens[0].at)
        for t in tokens[1:]:
            rect = rect.united(fr.hex_rect(t.at))
        m = fr.hex_width  # a hex round them: the name plates, a step to every side
        mv.fit_rect(rect.adjusted(-m, -m, m, m), max_k=OPEN_MAX_ZOOM_K)

    def _first_run_size(self) -> None:
        """Most of the screen, and side panels narrow enough to leave the map room."""
        screen = self.screen()
        laptop = False
        if screen is not None:
            avail = screen.availableGeometry()
            laptop = avail.width() < LAPTOP_WIDTH
            if laptop:
                # every pixel counts on a laptop: take the whole screen
                self.setGeometry(avail)
                self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
            else:
                w = min(avail.width(), max(1024, int(avail.width() * 0.92)))
                h = min(avail.height(), max(700, int(avail.height() * 0.92)))
                self.resize(w, h)
                self.move(
                    avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2
                )
        if laptop:
            self._one_side_column()
        by_area: dict[Qt.DockWidgetArea, QDockWidget] = {}
        for d in self.docks.values():
            by_area.setdefault(self.dockWidgetArea(d), d)
        side = [
            d
            for a, d in by_area.items()
            if a in (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
        ]
        if side:
            self.resizeDocks(side, [DOCK_SIDE_WIDTH] * len(side), Qt.Orientation.Horizontal)
        bottom = [d for a, d in by_area.items() if a == Qt.DockWidgetArea.BottomDockWidgetArea]
        if bottom:
            self.resizeDocks(bottom, [DOCK_BOTTOM_HEIGHT], Qt.Orientation.Vertical)

    def _one_side_column(self) -> None:
        """On a narrow screen the left-hand panels join the right-hand column as tabs,
        so the map gets the width (a 1366-pixel laptop keeps a map ~1000 px wide)."""
        right = [
            d
            for d in self.docks.values()
            if self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea
        ]
        left = [
            d
            for d in self.docks.values()
            if self.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea
        ]
        if not right or not left:
            return
        for d in left:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
            self.tabifyDockWidget(right[0], d)
        right[0].raise_()

    def save_layout(self) -> None:
        self.settings.save_window(QByteArray(self.saveGeometry()), QByteArray(self.saveState()))
        self.settings.set_overlays_on([n for n, a in self.overlay_actions.items() if a.isChecked()])

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
