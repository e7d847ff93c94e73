"""The editor controller: turns the Judge's window into a map editor on demand.

Map > Edit map (Ctrl+E) shows the editor toolbar and the Palette, Layers and
Properties docks and enables the editing tools and commands; turning it off hides
them again and hands the map back to the play tools. Everything the editor changes
goes through the document's undo stack; the model is the truth and the scene follows
it.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMenu,
    QToolBar,
)

from ...hexgrid import Hex
from ...model import edit as ed
from ..core.actions import make_action
from ..core.document import EncounterDocument
from .items import HexSetItem, OutlineItem
from .layers import LayersPanel
from .palette import PaletteState, PaletteWidget
from .properties import PropertiesPanel
from .tools import EditorTool, make_editor_tools
from .whole_map import WholeMapEditing

#: first-time widths of the editor's docks, and the height of the Layers list (px)
EDITOR_DOCK_WIDTH = 290
LAYERS_DOCK_HEIGHT = 210

#: (tool name, toolbar word) — the toolbar shows the short word, menus the full title
TOOLBAR_WORDS = {
    "ed_region": "Select",
    "ed_brush": "Brush",
    "ed_fill": "Fill",
    "ed_rect": "Rectangle",
    "ed_elevation": "Height",
    "ed_wall": "Wall",
    "ed_cover": "Cover",
    "ed_door": "Door",
    "ed_window": "Window",
    "ed_label": "Label",
    "ed_note": "Note",
    "ed_erase": "Erase",
}


class EditorController(WholeMapEditing):
    """The editor add-on of one main window (see module docstring): its actions,
    menu, toolbar and docks, and the mode; the feedback, the selection and the
    whole-map edits come from its bases (:mod:`.editor_base`, :mod:`.selection`,
    :mod:`.whole_map`)."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.view = window.map_view
        self.mode = False
        self.palette = PaletteState(self)
        self.region: frozenset[Hex] = frozenset()
        self.selected_id: str | None = None
        self.clipboard: ed.Clip | None = None
        self.document: EncounterDocument | None = None
        self._region_item: HexSetItem | None = None
        self._select_item: OutlineItem | None = None
        self._before_align = None
        self.tools: dict[str, EditorTool] = {}
        for t in make_editor_tools(self.view, self):
            self.view.register_tool(t)
            self.tools[t.name] = t
        self._make_actions()
        self._make_menu()
        self._make_toolbar()
        self._make_docks()
        window.documentReplaced.connect(self._on_document)
        self.view.toolChanged.connect(self._on_tool)
        self._on_document(window.document)
        self._apply_mode()
        # the window may restore its saved dock layout after add-ons are installed
        QTimer.singleShot(0, self._apply_mode)
        window.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        """Before the window saves its layout on closing, put the play panels back,
        so the next start shows them; editing resumes if the close is cancelled."""
        if obj is self.window and event.type() == QEvent.Type.Close and self.mode:
            self.set_mode(False)
            QTimer.singleShot(0, self._resume_if_still_open)
        return False

    def _resume_if_still_open(self) -> None:
        with contextlib.suppress(RuntimeError):
            if self.window.isVisible() and not self.mode:
                self.set_mode(True)

    # -- building ----------------------------------------------------------------------

    def _act(self, text, slot, shortcut=None, tip="", name="", checkable=False, view=False):
        a = make_action(self.window, text, slot, shortcut, tip, name, checkable)
        if view:
            # clipboard keys work when the map has focus, leaving Ctrl+C to text fields
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(a)
        return a

    def _make_actions(self) -> None:
        self.act_edit_mode = self._act(
            "&Edit map",
            self.set_mode,
            "Ctrl+E",
            "Turn the map editor on or off",
            "act_edit_map",
            checkable=True,
        )
        self.act_new_map = self._act(
            "New &map…",
            self.new_map_dialog,
            "Ctrl+Alt+N",
            "Start a blank map to draw",
            "act_new_map",
        )
        self.act_save_map_as = self._act(
            "Save &Map As…",
            lambda: self.save_map_as(),
            "Ctrl+Alt+S",
            "Write this map alone to a .map.json file",
            "act_save_map_as",
        )
        self.act_resize = self._act(
            "&Resize map…",
            self.resize_dialog,
            "Ctrl+Alt+R",
            "Change the map's size in hexes, keeping what fits",
            "act_resize_map",
        )
        self.act_copy = self._act(
            "&Copy hexes",
            self.copy_region,
            QKeySequence.StandardKey.Copy,
            "Copy the selected hexes with everything on them",
            "act_map_copy",
            view=True,
        )
        self.act_cut = self._act(
            "Cu&t hexes",
            self.cut_region,
            QKeySequence.StandardKey.Cut,
            "Cut the selected hexes with everything on them",
            "act_map_cut",
            view=True,
        )
        self.act_paste = self._act(
            "&Paste hexes",
            self.paste,
            QKeySequence.StandardKey.Paste,
            "Paste copied hexes: click where they go",
            "act_map_paste",
            view=True,
        )
        self.act_delete = self._act(
            "&Delete",
            self.delete_selection,
            QKeySequence.StandardKey.Delete,
            "Delete the selected thing, or clear the selected hexes",
            "act_map_delete",
            view=True,
        )
        self.act_select_all = self._act(
            "Select &whole map",
            self.select_all,
            QKeySequence.StandardKey.SelectAll,
            "Select every hex of the map",
            "act_map_select_all",
            view=True,
        )
        self.act_bg_import = self._act(
            "&Import picture…",
            lambda: self.import_background(),
            "Ctrl+Alt+I",
            "Put a PNG or JPEG under the grid (copied beside the map file)",
            "act_bg_import",
        )
        self.act_bg_align = self._act(
            "&Align grid to picture…",
            self.begin_align,
            "Ctrl+Alt+A",
            "Click two points on the picture and say which hexes they are",
            "act_bg_align",
        )
        self.act_bg_settings = self._act(
            "Picture &settings",
            self.show_background_settings,
            "Ctrl+Alt+B",
            "Scale, turn, offset, opacity and player visibility of the picture",
            "act_bg_settings",
        )
        self.act_bg_remove = self._act(
            "&Remove picture",
            self.remove_background,
            None,
            "Take the background picture off the map",
            "act_bg_remove",
        )
        self.tool_actions: dict[str, QAction] = {}
        group = getattr(self.window, "tool_group", None)
        for name, tool in self.tools.items():
            if name == "ed_align":
                continue
            a = self._act(
                tool.title, None, tool.shortcut or None, tool.tooltip, f"tool_{name}", True
            )
            a.setIconText(TOOLBAR_WORDS.get(name, tool.title))
            a.triggered.connect(lambda _=False, n=name: self.use_tool(n))
            if group is not None:
                group.addAction(a)
            self.tool_actions[name] = a
        self.size_actions: dict[int, QAction] = {}
        for n in ed.BRUSH_SIZES:
            tip = f"Brush size {n}: " + ("one hex" if n == 1 else f"{n - 1} ring(s) round it")
            a = self._act(f"Brush size {n}", None, str(n), tip, f"act_brush_{n}", True)
            a.setIconText(str(n))
            a.triggered.connect(lambda _=False, n=n: self.palette.set(brush_size=n))
            self.size_actions[n] = a
        self.palette.changed.connect(self._sync_size_actions)
        self._sync_size_actions()
        self._mode_actions = [
            self.act_resize,
            self.act_copy,
            self.act_cut,
            self.act_paste,
            self.act_delete,
            self.act_select_all,
            self.act_bg_import,
            self.act_bg_align,
            self.act_bg_settings,
            self.act_bg_remove,
            *self.tool_actions.values(),
            *self.size_actions.values(),
        ]

    def _make_menu(self) -> None:
        w = self.window
        m = QMenu("&Map", w)
        m.setObjectName("menu_map")
        m.addAction(self.act_edit_mode)
        m.addSeparator()
        m.addAction(self.act_new_map)
        m.addAction(self.act_resize)
        m.addAction(self.act_save_map_as)
        m.addSeparator()
        tools = m.addMenu("&Tools")
        for a in self.tool_actions.values():
            tools.addAction(a)
        sizes = m.addMenu("&Brush size")
        for a in self.size_actions.values():
            sizes.addAction(a)
        m.addSeparator()
        for a in (
            self.act_copy,
            self.act_cut,
            self.act_paste,
            self.act_delete,
            self.act_select_all,
        ):
            m.addAction(a)
        m.addSeparator()
        bg = m.addMenu("Background &picture")
        for a in (self.act_bg_import, self.act_bg_settings, self.act_bg_align, self.act_bg_remove):
            bg.addAction(a)
        self.menu = m
        before = getattr(w, "tools_menu", None)
        if before is not None:
            w.menuBar().insertMenu(before.menuAction(), m)
        else:
            w.menuBar().addMenu(m)
        # File menu: a new map and saving the map alone sit with the other file actions
        tail = getattr(w, "file_menu_tail", None)
        if tail is not None:
            w.file_menu.insertAction(tail, self.act_new_map)
            w.file_menu.insertAction(tail, self.act_save_map_as)
        tb = getattr(w, "tools_toolbar", None)
        if tb is not None:
            tb.addSeparator()
            tb.addAction(self.act_edit_mode)

    def _make_toolbar(self) -> None:
        w = self.window
        tb = QToolBar("Map editor", w)
        tb.setObjectName("toolbar_editor")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in self.tool_actions.values():
            tb.addAction(a)
        tb.addSeparator()
        tb.addWidget(QLabel(" Brush size: "))
        for a in self.size_actions.values():
            tb.addAction(a)
        w.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, tb)
        self.toolbar = tb

    def _make_docks(self) -> None:
        w = self.window
        doc = w.document
        self.palette_widget = PaletteWidget(self.palette, doc.cover_av() if doc else {})
        self.layers_panel = LayersPanel(self.view)
        self.properties_panel = PropertiesPanel(self)
        self.docks: dict[str, QDockWidget] = {}
        right, left = Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.LeftDockWidgetArea
        # Tiled's arrangement: what to paint with on one side, what is selected and
        # the layers on the other (the play panels step aside while editing)
        for name, title, widget, area in (
            ("dock_editor_palette", "Palette", self.palette_widget, right),
            ("dock_editor_properties", "Properties", self.properties_panel, left),
            ("dock_editor_layers", "Layers", self.layers_panel, left),
        ):
            d = QDockWidget(title, w)
            d.setObjectName(name)
            d.setWidget(widget)
            w.addDockWidget(area, d)
            self.docks[name] = d
        w.splitDockWidget(
            self.docks["dock_editor_properties"],
            self.docks["dock_editor_layers"],
            Qt.Orientation.Vertical,
        )
        self._sized = False
        for d in self.docks.values():
            with contextlib.suppress(RuntimeError):
                w.restoreDockWidget(d)
            menu = getattr(w, "docks_menu", None)
            if menu is not None:
                menu.addAction(d.toggleViewAction())

    # -- mode ------------------------------------------------------------------------------

    def set_mode(self, on: bool) -> None:
        """Turn the editor on or off."""
        on = bool(on)
        if on == self.mode:
            self._apply_mode()
            return
        self.mode = on
        self._swap_play_docks(on)
        self._apply_mode()
        if on:
            if not isinstance(self.view.tool, EditorTool):
                self.use_tool("ed_region")
            self.say("Map editor on: pick a tool on the editor toolbar. Ctrl+E turns it off.")
        else:
            if isinstance(self.view.tool, EditorTool):
                self.view.set_tool("select")
            self.set_region(())
            self.select_object(None)
            self.say("Map editor off.")
        self.modeChanged.emit(on)

    def _apply_mode(self) -> None:
        on = self.mode
        if self.act_edit_mode.isChecked() != on:
            self.act_edit_mode.blockSignals(True)
            self.act_edit_mode.setChecked(on)
            self.act_edit_mode.blockSignals(False)
        for a in self._mode_actions:
            a.setEnabled(on)
        self.toolbar.setVisible(on)
        for d in self.docks.values():
            d.setVisible(on)
        if on:
            for d in self.docks.values():
                d.raise_()
            if not self._sized:
                self._sized = True
                self._first_sizes()

    def _first_sizes(self) -> None:
        """Dock sizes the first time the editor opens: narrow columns, the layers
        list short under the properties."""
        w = self.window
        d = self.docks
        w.resizeDocks(
            [d["dock_editor_properties"], d["dock_editor_palette"]],
            [EDITOR_DOCK_WIDTH, EDITOR_DOCK_WIDTH],
            Qt.Orientation.Horizontal,
        )
        w.resizeDocks(
            [d["dock_editor_properties"], d["dock_editor_layers"]],
            [3 * LAYERS_DOCK_HEIGHT, LAYERS_DOCK_HEIGHT],
            Qt.Orientation.Vertical,
        )

    def _swap_play_docks(self, editing: bool) -> None:
        """Editing a map needs the room: the play panels (sheet, track, attack…) step
        aside while the editor is on and come back as they were when it goes off."""
        play = getattr(self.window, "docks", {})
        if editing:
            # isHidden, not isVisible: the window may not be shown yet, and a dock
            # behind another's tab is not visible but still wanted
            self._hidden_play_docks = [n for n, d in play.items() if not d.isHidden()]
            for n in self._hidden_play_docks:
                play[n].hide()
        else:
            for n in getattr(self, "_hidden_play_docks", []):
                if n in play:
                    play[n].show()
            self._hidden_play_docks = []

    def use_tool(self, name: str) -> None:
        if not self.mode:
            self.set_mode(True)
        self.view.set_tool(name)
        self.view.setFocus()

    def tool_activated(self, tool: EditorTool) -> None:
        self.palette_widget.set_kind(tool.palette_kind)

    def _on_tool(self, tool) -> None:
        a = self.tool_actions.get(getattr(tool, "name", ""))
        if a is not None and not a.isChecked():
            a.setChecked(True)
        elif a is None:
            for b in self.tool_actions.values():
                if b.isChecked() and b.actionGroup() is None:
                    b.setChecked(False)

    def _sync_size_actions(self) -> None:
        for n, a in self.size_actions.items():
            a.setChecked(n == self.palette.brush_size)

    # -- document -----------------------------------------------------------------------

    def _on_document(self, document: EncounterDocument | None) -> None:
        old = self.document
        if old is not None and old is not document:
            with contextlib.suppress(RuntimeError, TypeError):
                old.changed.disconnect(self._on_changed)
        self.document = document
        self.region = frozenset()
        self.selected_id = None
        self._region_item = None
        self._select_item = None
        if document is None:
            return
        document.changed.connect(self._on_changed)
        self.palette_widget.set_cover_av(document.cover_av())
        self.layers_panel.attach()
        self.selectionChanged.emit(None)
        self.regionChanged.emit()
        self.properties_panel.refresh()

    def _on_changed(self, area: str) -> None:
        if area not in ("map", "all", "file"):
            return
        doc = self.document
        if doc is None:
            return
        if self.selected_id is not None:
            try:
                ed.find_object(doc.map, self.selected_id)
            except KeyError:
                self.selected_id = None
                self.selectionChanged.emit(None)
        if self.region and any(not doc.map.contains(h) for h in self.region):
            self.set_region([h for h in self.region if doc.map.contains(h)])
        self._show_selection()
        self._show_region()
        self.properties_panel.refresh()
        self.layers_panel.attach()
