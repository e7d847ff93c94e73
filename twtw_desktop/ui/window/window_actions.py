"""The Judge's window's actions, menus, toolbars and status bar: File, Edit, View,
Tools and Encounter, every action with a shortcut and tooltip, the tools and
overlays also on the toolbar; and what the actions of the View and Encounter menus
do (the grid, the labels, the overlays, action time, turning a token). The status
bar shows the hovered hex (offset label, terrain, elevation), the zoom and the time
mode."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QLabel, QToolBar, QToolButton

from ...errors import RulesError
from ...hexgrid import Hex
from ..core.actions import make_action
from .window_files import WindowFiles

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


class WindowActions(WindowFiles):
    """The actions, menus, toolbars and status bar of :class:`.main_window.MainWindow`
    (see module docstring)."""

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
        from ..core.icons import decorate

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
            if isinstance(btn, QToolButton) and not a.icon().isNull():
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
        if isinstance(btn, QToolButton):
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

    def start_action_time(self) -> None:
        if self.document is not None:
            self._guarded(self.document.start_action_time)

    def edit_rules(self) -> None:
        from ..dialogs.rules_dialog import edit_rules

        edit_rules(self)

    def end_action_time(self) -> None:
        if self.document is not None:
            self._guarded(self.document.end_action_time)

    def turn_selected(self, steps: int) -> None:
        from ..tools.select import turn_token

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

    def _toggle_grid(self, on: bool) -> None:
        self._show_on_grid("show_grid", on)

    def _toggle_labels(self, on: bool) -> None:
        self._show_on_grid("show_labels", on)

    def _show_on_grid(self, what: str, on: bool) -> None:
        """Show or hide the grid lines (``show_grid``) or the hex labels
        (``show_labels``): the tiles are drawn again."""
        sc = self.map_view.map_scene
        if sc is not None:
            setattr(sc.grid, what, on)
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

    def _show_hex(self, h: Hex | None) -> None:
        doc = self.document
        sc = self.map_view.map_scene
        if h is None or doc is None or sc is None:
            self.st_hex.setText("")
            return
        m = doc.map
        label = sc.frame.label(h)
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
