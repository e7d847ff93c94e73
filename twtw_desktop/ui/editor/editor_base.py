"""What the editor controller's parts share (:mod:`.controller`, :mod:`.selection`,
:mod:`.whole_map`): its signals, the state they read, and its feedback to the Judge —
status messages, questions, refused edits and locked layers."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget, QInputDialog

from ...errors import RulesError
from ...hexgrid import Hex
from ...model import edit as ed
from ..core.document import EncounterDocument
from ..scene.map_scene import LAYER_TITLES
from ..scene.map_view import MapView, ViewTool
from .dialogs import AlignDialog
from .items import HexSetItem, OutlineItem
from .palette import PaletteState
from .properties import PropertiesPanel
from .tool_base import EditorTool

#: the main window the editor is installed on (ui.main_window imports the editor, so
#: it is not imported back: no cycle)
MainWindow = Any


class EditorBase(QObject):
    """The editor add-on's state and feedback; :class:`.controller.EditorController`
    builds it and adds the selection and the whole-map edits."""

    modeChanged = Signal(bool)
    #: the selected map object's id (or None)
    selectionChanged = Signal(object)
    regionChanged = Signal()

    window: MainWindow
    view: MapView
    #: the editor is on (Map > Edit map)
    mode: bool
    palette: PaletteState
    region: frozenset[Hex]
    selected_id: str | None
    clipboard: ed.Clip | None
    document: EncounterDocument | None
    tools: dict[str, EditorTool]
    docks: dict[str, QDockWidget]
    properties_panel: PropertiesPanel
    _region_item: HexSetItem | None
    _select_item: OutlineItem | None
    #: the tool to go back to when aligning the picture ends
    _before_align: ViewTool | None

    def set_mode(self, on: bool) -> None:
        """Turn the editor on or off (:class:`.controller.EditorController`)."""
        raise NotImplementedError

    # -- feedback -------------------------------------------------------------------------

    def say(self, text: str) -> None:
        if text:
            self.window.statusBar().showMessage(text, 8000)

    def push(self, cmd, *, quiet: bool = False) -> bool:
        """Push a command; a refused edit becomes a status message (False)."""
        try:
            self._doc().push(cmd)
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
        dlg = AlignDialog(self._doc().map, hex_a, hex_b, self.window)
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

    def _editing(self) -> EncounterDocument | None:
        """The document while the editor is on; None when it is off (the Judge is told
        how to turn it on) or there is no document."""
        if not self.mode:
            self.say("Turn on Map > Edit map (Ctrl+E) first.")
            return None
        return self.document

    def _doc(self) -> EncounterDocument:
        """The document an edit asked for works on (RulesError when there is none)."""
        if self.document is None:
            raise RulesError("There is no map to edit.")
        return self.document
