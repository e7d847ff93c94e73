"""The editor controller: turns the Judge's window into a map editor on demand.

Map > Edit map (Ctrl+E) shows the editor toolbar and the Palette, Layers and
Properties docks and enables the editing tools and commands; turning it off hides
them again and hands the map back to the play tools. Everything the editor changes
goes through the document's undo stack; the model is the truth and the scene follows
it.
"""

from __future__ import annotations

import contextlib
import filecmp
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import QEvent, QObject, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainterPath
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QToolBar,
)

from ...errors import LoadError, RulesError
from ...hexgrid import Hex
from ...model import edit as ed
from ...model.map import BackgroundImage, Feature, Label, Map, Marker, Note
from ..actions import make_action
from ..document import EncounterDocument
from ..scene.map_items import FeatureItem, LabelItem, MarkerItem
from ..scene.map_scene import LAYER_TITLES, feature_layer
from .commands import MapStateCommand, ObjectsCommand, SetFieldCommand
from .dialogs import AlignDialog, NewMapDialog, NewMapSpec, ResizeDialog
from .items import REGION_COLOUR, REGION_FILL, HexSetItem, OutlineItem, remove
from .layers import LayersPanel
from .palette import PaletteState, PaletteWidget
from .properties import PropertiesPanel
from .tools import EditorTool, make_editor_tools

MAP_FILTER = "Maps (*.map.json);;All files (*)"
PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg);;All files (*)"
#: first-time widths of the editor's docks, and the height of the Layers list (px)
EDITOR_DOCK_WIDTH = 290
LAYERS_DOCK_HEIGHT = 210
#: layers every region operation changes (terrain, walls, doors, labels, notes)
REGION_LAYERS = ("terrain", "walls", "objects", "labels", "notes")

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


class EditorController(QObject):
    """The editor add-on of one main window (see module docstring)."""

    modeChanged = Signal(bool)
    #: the selected map object's id (or None)
    selectionChanged = Signal(object)
    regionChanged = Signal()

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

    # -- feedback -------------------------------------------------------------------------

    def say(self, text: str) -> None:
        if text:
            self.window.statusBar().showMessage(text, 8000)

    def push(self, cmd, *, quiet: bool = False) -> bool:
        """Push a command; a refused edit becomes a status message (False)."""
        try:
            self.document.push(cmd)
        except (RulesError, ValueError, KeyError) as e:
            msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            if not quiet:
                self.say(str(msg))
            return False
        return True

    def ask_text(self, title: str, prompt: str, multiline: bool = False) -> str | None:
        """Ask the Judge for a line (or lines) of text; None when cancelled."""
        if multiline:
            text, ok = QInputDialog.getMultiLineText(self.window, title, prompt)
        else:
            text, ok = QInputDialog.getText(self.window, title, prompt)
        return text if ok else None

    def ask_alignment(self, hex_a: Hex, hex_b: Hex) -> tuple | None:
        dlg = AlignDialog(self.document.map, hex_a, hex_b, self.window)
        if dlg.exec() != AlignDialog.DialogCode.Accepted:
            return None
        return dlg.answer()

    def layer_locked(self, layer: str) -> bool:
        sc = self.view.map_scene
        return sc is not None and sc.layer_locked(layer)

    def refuse_locked(self, layers) -> bool:
        """True (and a status message) when any of ``layers`` is locked."""
        locked = [x for x in layers if self.layer_locked(x)]
        if locked:
            names = ", ".join(LAYER_TITLES[x] for x in locked)
            self.say(f"Locked: {names}. Unlock it in the Layers panel to make this edit.")
            return True
        return False

    def _need_mode(self) -> bool:
        if not self.mode:
            self.say("Turn on Map > Edit map (Ctrl+E) first.")
            return False
        return self.document is not None

    # -- objects ---------------------------------------------------------------------------

    def object_at(self, pos: QPointF, layers=None) -> str | None:
        """The id of the topmost wall, door, label, note or marker under a scene point
        (on a shown layer, and of ``layers`` when given)."""
        sc = self.view.map_scene
        if sc is None:
            return None
        for it in sc.items(pos):
            if not it.isVisible():
                continue
            oid = None
            if isinstance(it, FeatureItem):
                oid = it.feature_id
            elif isinstance(it, LabelItem):
                oid = it.label_id
            elif isinstance(it, MarkerItem):
                oid = it.obj_id
            if oid is None:
                continue
            if layers is not None and it.data(0) not in layers:
                continue
            return oid
        return None

    def layer_of(self, oid: str) -> str:
        obj = ed.find_object(self.document.map, oid)
        if isinstance(obj, Feature):
            return feature_layer(obj.kind)
        if isinstance(obj, Label):
            return "labels"
        return "notes"

    def selected_object(self):
        if self.selected_id is None or self.document is None:
            return None
        try:
            return ed.find_object(self.document.map, self.selected_id)
        except KeyError:
            return None

    def select_object(self, oid: str | None) -> None:
        if oid == self.selected_id:
            self._show_selection()
            return
        self.selected_id = oid
        self._show_selection()
        self.selectionChanged.emit(oid)

    def _show_selection(self) -> None:
        sc = self.view.map_scene
        obj = self.selected_object()
        if sc is None or obj is None:
            remove(self._select_item)
            self._select_item = None
            return
        path = QPainterPath()
        item = sc.features.get(obj.id) or sc.others.get(obj.id)
        if isinstance(item, FeatureItem):
            path = item.shape()
        elif item is not None:
            path.addRect(item.mapRectToScene(item.boundingRect()))
        else:
            return
        if self._select_item is None or self._select_item.scene() is not sc:
            self._select_item = OutlineItem()
            sc.addItem(self._select_item)
        self._select_item.set_path(path)

    def set_field(self, obj, field: str, value, *, merge: bool = True) -> tuple[bool, str]:
        """Change one field of a map object, the map or its picture (undoable,
        validated). Returns (done, reason when refused)."""
        if self.document is None:
            return False, "No map."
        layer = None
        if isinstance(obj, Feature):
            layer = feature_layer(obj.kind)
        elif isinstance(obj, Label):
            layer = "labels"
        elif isinstance(obj, (Note, Marker)):
            layer = "notes"
        if layer is not None and self.layer_locked(layer):
            msg = f"The {LAYER_TITLES[layer]} layer is locked."
            self.say(msg)
            return False, msg
        try:
            cmd = SetFieldCommand(self.document, obj, field, value, merge=merge)
        except ValueError as e:
            self.say(str(e))
            return False, str(e)
        if not self.push(cmd):
            return False, "The change was refused."
        return True, ""

    def delete_selected(self) -> bool:
        obj = self.selected_object()
        if obj is None:
            self.say("Nothing selected.")
            return False
        layer = self.layer_of(obj.id)
        if self.refuse_locked([layer]):
            return False
        if self.push(ObjectsCommand(self.document, f"Delete {obj.id}", remove=[obj])):
            self.select_object(None)
            return True
        return False

    def delete_selection(self) -> None:
        """Del: the selected object, else the selected hexes."""
        if self.selected_object() is not None:
            self.delete_selected()
        elif self.region:
            self.delete_region()
        else:
            self.say("Select hexes or a thing on the map first.")

    # -- regions ------------------------------------------------------------------------------

    def set_region(self, hexes) -> None:
        m = self.document.map if self.document else None
        hs = frozenset(h for h in hexes if m is not None and m.contains(h))
        if hs == self.region:
            return
        self.region = hs
        self._show_region()
        self.regionChanged.emit()
        if hs:
            # one selection at a time: hexes or a single thing
            self.select_object(None)
            self.say(f"{len(hs)} hexes selected.")

    def _show_region(self) -> None:
        sc = self.view.map_scene
        if sc is None or not self.region:
            remove(self._region_item)
            self._region_item = None
            return
        item = self._region_item
        if item is None or item.scene() is not sc or item.frame is not sc.frame:
            # a new scene, or the same one rebuilt for another hex size
            remove(self._region_item)
            self._region_item = HexSetItem(sc.frame, REGION_COLOUR, REGION_FILL, dashed=True)
            sc.addItem(self._region_item)
        self._region_item.set_hexes(self.region)

    def select_all(self) -> None:
        if self._need_mode():
            self.set_region(self.document.map.hexes())

    def copy_region(self) -> bool:
        if not self._need_mode():
            return False
        if not self.region:
            self.say("Select some hexes first (Select region, Shift+S).")
            return False
        self.clipboard = ed.copy_region(self.document.map, self.region)
        self.say(
            f"Copied {len(self.clipboard.cells)} hexes and {self.clipboard.object_count} "
            "things on them."
        )
        return True

    def cut_region(self) -> bool:
        if not self.region or self.refuse_locked(REGION_LAYERS):
            if not self.region:
                self.say("Select some hexes first (Select region, Shift+S).")
            return False
        if not self.copy_region():
            return False
        return self.delete_region(text="Cut hexes")

    def delete_region(self, text: str = "Clear hexes") -> bool:
        if not self._need_mode() or not self.region:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        region = set(self.region)
        cmd = MapStateCommand(self.document, text, lambda m: ed.delete_region(m, region))
        if self.push(cmd):
            self.select_object(None)
            self.say(cmd.result.message())
            return True
        return False

    def paste(self) -> None:
        """Ctrl+V: the copied hexes follow the mouse until a click puts them down."""
        if not self._need_mode():
            return
        if self.clipboard is None:
            self.say("Copy some hexes first (select them, then Ctrl+C).")
            return
        if self.refuse_locked(REGION_LAYERS):
            return
        self.view.set_tool("ed_region")
        self.tools["ed_region"].start_paste()

    def paste_at(self, at: Hex) -> bool:
        """Put the copied hexes down with their top-left hex on ``at``."""
        if not self._need_mode() or self.clipboard is None:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        clip = self.clipboard
        cmd = MapStateCommand(self.document, "Paste hexes", lambda m: ed.paste_clip(m, clip, at))
        if self.push(cmd):
            self.set_region(cmd.result.hexes)
            self.say(cmd.result.message())
            return True
        return False

    def move_region(self, delta: Hex, *, copy: bool = False) -> bool:
        """Move (or copy) the selected hexes with everything on them by ``delta``."""
        if not self._need_mode() or not self.region:
            return False
        if self.refuse_locked(REGION_LAYERS):
            return False
        region = set(self.region)
        to = ed.region_anchor(self.document.map, region) + delta

        def go(m: Map):
            if copy:
                return ed.paste_clip(m, ed.copy_region(m, region), to)
            return ed.move_region(m, region, to)

        cmd = MapStateCommand(self.document, "Copy hexes" if copy else "Move hexes", go)
        if self.push(cmd):
            self.set_region(cmd.result.hexes)
            self.say(cmd.result.message().replace("Pasted", "Copied" if copy else "Moved"))
            return True
        return False

    # -- the map as a whole ----------------------------------------------------------------------

    def new_map_dialog(self) -> None:
        dlg = NewMapDialog(self.window)
        if dlg.exec() == NewMapDialog.DialogCode.Accepted:
            self.create_map(dlg.spec())

    def create_map(self, spec: NewMapSpec, *, ask: bool = True) -> EncounterDocument | None:
        """Open a blank map of ``spec`` in the window, in editor mode."""
        if ask and not self.window.maybe_save():
            return None
        doc = EncounterDocument.new(
            spec.cols,
            spec.rows,
            orientation=spec.orientation,
            hex_px=spec.hex_px,
            print_hex_mm=spec.print_hex_mm,
        )
        doc.kind = "map"
        doc.map.name = spec.name
        doc.encounter.name = spec.name
        self.window.set_document(doc)
        self.set_mode(True)
        self.say(f"New map {spec.cols}×{spec.rows}: save it with Save Map As… (Ctrl+Alt+S).")
        return doc

    def resize_dialog(self) -> None:
        if not self._need_mode():
            return
        dlg = ResizeDialog(self.document.map, self.window)
        if dlg.exec() == ResizeDialog.DialogCode.Accepted:
            cols, rows, shift = dlg.values()
            self.window._guarded(lambda: self.resize_map(cols, rows, shift, confirm=True))

    def resize_map(
        self, cols: int, rows: int, shift: tuple[int, int] = (0, 0), *, confirm: bool = False
    ) -> bool:
        """Resize the map (undoable), keeping what fits. Tokens move with the content;
        a token that would fall off refuses the resize (RulesError)."""
        doc = self.document
        if not self._need_mode():
            return False
        if self.refuse_locked((*REGION_LAYERS, "background")):
            return False
        m = doc.map
        t = ed.translation(m, *shift)
        _preview, rep = ed.resize(m, cols, rows, shift)
        for tok in doc.encounter.tokens:
            if not _preview.contains(tok.at + t):
                try:
                    who = doc.character_of(tok.id).name
                except KeyError:
                    who = tok.id
                raise RulesError(f"{who} would fall off the map; move the token first.")
        lines = rep.lines()
        if confirm and lines:
            r = QMessageBox.question(
                self.window,
                "Resize the map?",
                "\n".join(lines) + "\n\nResize anyway? (Undo brings them back.)",
            )
            if r != QMessageBox.StandardButton.Yes:
                return False

        def go(m: Map):
            new, report = ed.resize(m, cols, rows, shift)
            m.assign_fields(new.field_values())
            for tok in doc.encounter.tokens:
                h = tok.at + t
                tok.hex = (h.q, h.r)
            return report

        cmd = MapStateCommand(doc, f"Resize map to {cols}×{rows}", go, tokens=True)
        if not self.push(cmd):
            return False
        self.set_region(())
        self.say(" ".join([f"The map is now {cols}×{rows} hexes.", *lines]))
        return True

    def save_map_as(self, path: str | Path | None = None) -> bool:
        """Write the map alone to a ``.map.json`` (atomic; its picture is copied
        along). A map-only document then lives in that file; an encounter keeps its
        own file and only exports a copy of its map."""
        doc = self.document
        if doc is None:
            return False
        if path is None:
            start = doc.map_path or doc.path
            folder = start.parent if start else Path(self.window.settings.last_dir() or Path.cwd())
            stem = _slug(doc.map.name) or "map"
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save map", str(folder / f"{stem}.map.json"), MAP_FILTER
            )
            if not path:
                return False
        path = Path(path)
        if not path.name.endswith(".map.json"):
            base = path.name[: -len(".json")] if path.name.endswith(".json") else path.name
            path = path.with_name(base + ".map.json")
        try:
            self._carry_background(path)
            if doc.kind == "map":
                doc.save(path)
            else:
                from ... import io as io_mod

                io_mod.save_map(doc.map, path)
        except LoadError as e:
            self.window.show_error("Cannot save the map", str(e))
            return False
        except OSError as e:
            self.window.show_error("Cannot save the map", f"{path}: {e.strerror or e}")
            return False
        with contextlib.suppress(Exception):
            self.window.settings.add_recent(path)
        self.say(f"Saved the map as {path.name}")
        return True

    def _carry_background(self, target: Path) -> None:
        """Copy the background picture into the folder of ``target`` (same relative
        path) when the map is saved somewhere else — checked like any picture the
        map opens, and never outside that folder (io.copy_picture)."""
        from ... import io as io_mod

        doc = self.document
        bg = doc.map.background
        base = doc.map_path or doc.path
        if bg is None or base is None:
            return
        io_mod.copy_picture(base, bg, target)

    # -- background picture ------------------------------------------------------------------------

    def import_background(self, path: str | Path | None = None) -> bool:
        """Put a PNG or JPEG under the grid. It is copied beside the map file (an
        unsaved map is saved first) and named by a relative path; only its header is
        read here, to check its size against the limits."""
        from ...io import check_background, check_picture_size, image_size
        from ...io.images import ImageHeaderError, read_picture_file

        if not self._need_mode():
            return False
        if self.refuse_locked(["background"]):
            return False
        doc = self.document
        base = doc.map_path or doc.path
        if base is None:
            r = QMessageBox.question(
                self.window,
                "Save the map first?",
                "The picture is kept beside the map file, so the map needs a file first. "
                "Save it now?",
                QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Save,
            )
            if r != QMessageBox.StandardButton.Save:
                return False
            ok = self.save_map_as() if doc.kind == "map" else self.window.save()
            base = doc.map_path or doc.path
            if not ok or base is None:
                return False
        if path is None:
            start = str(base.parent)
            path, _ = QFileDialog.getOpenFileName(
                self.window, "Background picture", start, PICTURE_FILTER
            )
            if not path:
                return False
        src = Path(path)
        try:
            _fmt, width, height = image_size(read_picture_file(src))
            check_picture_size(width, height)
            rel = _place_beside(src, base.parent)
            old = doc.map.background
            keep = {}
            if old is not None:
                keep = {"opacity": old.opacity, "visible_to_players": old.visible_to_players}
            bg = BackgroundImage(
                path=rel,
                width=width,
                height=height,
                **ed.fit_background(doc.map, width, height),
                **keep,
            )
            check_background(base, bg)
        except ImageHeaderError as e:
            self.window.show_error("Cannot use that picture", f"{src.name}: {e}")
            return False
        except LoadError as e:
            self.window.show_error("Cannot use that picture", str(e))
            return False
        except (OSError, ValueError) as e:
            reason = getattr(e, "strerror", None) or str(e)
            self.window.show_error("Cannot use that picture", f"{src.name}: {reason}")
            return False
        cmd = SetFieldCommand(
            doc, doc.map, "background", bg, text="Import background picture", merge=False
        )
        if not self.push(cmd):
            return False
        self.say(
            f"{rel} is under the grid ({width}×{height}). Use Align grid to picture "
            "(Ctrl+Alt+A) to fit the hexes."
        )
        return True

    def set_background(self, **changes) -> tuple[bool, str]:
        doc = self.document
        bg = doc.map.background if doc else None
        if bg is None:
            return False, "There is no background picture."
        if self.refuse_locked(["background"]):
            return False, "The background layer is locked."
        try:
            new = BackgroundImage.model_validate({**bg.model_dump(), **changes})
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in err.get("loc", ())) or "value"
            msg = f"{where.replace('_', ' ')}: {err['msg']}"
            self.say(msg)
            return False, msg
        if new == bg:
            return True, ""
        if not self.push(
            SetFieldCommand(doc, doc.map, "background", new, text="Change background picture")
        ):
            return False, "The change was refused."
        return True, ""

    def remove_background(self) -> bool:
        doc = self.document
        if not self._need_mode() or doc.map.background is None:
            return False
        if self.refuse_locked(["background"]):
            return False
        return self.push(
            SetFieldCommand(
                doc, doc.map, "background", None, text="Remove background picture", merge=False
            )
        )

    def show_background_settings(self) -> None:
        d = self.docks["dock_editor_properties"]
        d.show()
        d.raise_()
        self.properties_panel.ensureWidgetVisible(self.properties_panel.bg_form)

    def begin_align(self) -> None:
        if not self._need_mode():
            return
        if self.document.map.background is None:
            self.say("Import a background picture first (Ctrl+Alt+I).")
            return
        if self.refuse_locked(["background"]):
            return
        if not isinstance(self.view.tool, type(self.tools["ed_align"])):
            self._before_align = self.view.tool
        self.view.set_tool("ed_align")

    def end_align(self) -> None:
        prev, self._before_align = self._before_align, None
        if self.view.tool is self.tools["ed_align"]:
            self.view.set_tool(prev if prev is not None else "ed_region")

    def align_background(self, img_a, img_b, hex_a: Hex, hex_b: Hex, answer=None) -> bool:
        """Scale and shift the picture from two picked points (picture pixels) and the
        Judge's answer: ("hexes", hex_a, hex_b) or ("distance", paces)."""
        doc = self.document
        bg = doc.map.background
        if bg is None:
            return False
        if answer is None:
            answer = self.ask_alignment(hex_a, hex_b)
            if answer is None:
                self.say("Alignment cancelled.")
                return False
        try:
            if answer[0] == "distance":
                new = ed.align_to_distance(doc.map, bg, img_a, img_b, float(answer[1]))
            else:
                new = ed.align_to_hexes(doc.map, bg, img_a, img_b, answer[1], answer[2])
        except RulesError as e:
            self.say(str(e))
            QMessageBox.information(self.window, "Cannot align", str(e))
            return False
        ok = self.push(
            SetFieldCommand(
                doc, doc.map, "background", new, text="Align grid to picture", merge=False
            )
        )
        if ok:
            self.say(f"Picture aligned: scale {new.scale:.4f}, turned {new.rotation}°.")
        return ok


# -- files ----------------------------------------------------------------------------------


def _slug(name: str) -> str:
    keep = [c.lower() if c.isalnum() else "_" for c in name.strip()]
    return "".join(keep).strip("_")[:60]


def _copy_atomic(src: Path, dst: Path) -> None:
    """Copy a picture the Judge picked through the package's one atomic write: a
    reader never sees half a picture, a pipe or device is never read."""
    from ... import io as io_mod
    from ...io.images import read_picture_file

    dst.parent.mkdir(parents=True, exist_ok=True)
    io_mod.write_atomic(dst, read_picture_file(src))


def _place_beside(src: Path, folder: Path) -> str:
    """The picture's path relative to ``folder``: itself when it already lies in that
    folder (or below), else a copy put there (a new name when another picture of the
    same name is in the way)."""
    src_r = src.resolve()
    folder_r = folder.resolve()
    if src_r.is_relative_to(folder_r):
        return src_r.relative_to(folder_r).as_posix()
    dst = folder / src.name
    n = 2
    while dst.exists() and not filecmp.cmp(src, dst, shallow=False):
        dst = folder / f"{src.stem}-{n}{src.suffix}"
        n += 1
    if not dst.exists():
        _copy_atomic(src, dst)
    return dst.name
