"""File ▸ Export party… and File ▸ Import party…: the posse between fights.

Export writes the chosen characters (the posse ticked by default) to a
``*.party.json`` file with everything that lasts (:mod:`twtw_desktop.model.party`).
Import reads one into the open encounter as ONE undo step: characters with an id
already there are replaced after a confirmation listing what changes, newcomers are
placed on the map's entry marker or, lacking one, around the middle of the view, on
the nearest free hexes. Import is refused in action time (the track would not know
the newcomers); rest and healing between fights are left to the rules.

Install with :func:`install_party_dialogs`; the controller is ``window.party_dialogs``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QVBoxLayout,
)

from ...errors import LoadError
from ...hexgrid import Hex
from ...io.party import load_party, save_party
from ...model.party import PARTY_SUFFIX, entry_hex, merge_party, party_differences, party_from
from ..core.commands import SnapshotCommand

if TYPE_CHECKING:
    from ..core.document import EncounterDocument

PARTY_FILTER = "Parties (*.party.json);;All files (*)"


def document_of(window: MainWindow) -> EncounterDocument:
    """The window's document (a built window always holds one)."""
    doc = window.document
    assert doc is not None, "the window holds no document"
    return doc


def view_centre_hex(window: MainWindow) -> Hex | None:
    """The map hex in the middle of the view (None when it is off the map)."""
    view = window.map_view
    sc = view.map_scene
    if sc is None:
        return None
    h = sc.frame.hex_at(view.visible_scene_rect().center())
    return h if document_of(window).map.contains(h) else None


def under_a_title(window: MainWindow):
    """Whether a hex lies under one of the map's titles (a label's text) in the
    Judge's view: newcomers stand elsewhere when they can."""
    sc = window.map_view.map_scene
    if sc is None:
        return None
    from ..scene.map_items import LabelItem

    rects = [it.sceneBoundingRect() for it in sc.others.values() if isinstance(it, LabelItem)]
    frame = sc.frame
    return lambda h: any(r.contains(frame.center(h)) for r in rects)


#: the main window that installs this add-on (ui.main_window imports this module, so
#: it is not imported back: no cycle)
MainWindow = Any


class ChooseCharacters(QDialog):
    """A ticked list of the encounter's characters (the posse ticked)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setWindowTitle("Export party")
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("Characters to carry into the next encounter:"))
        self.list = QListWidget()
        for c in document_of(window).encounter.characters:
            it = QListWidgetItem(f"{c.name}  ({c.side})")
            it.setData(Qt.ItemDataRole.UserRole, c.id)
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            on = c.side == "posse"
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            self.list.addItem(it)
        lay.addWidget(self.list)
        bb = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)

    def chosen(self) -> list[str]:
        out = []
        for i in range(self.list.count()):
            it = self.list.item(i)
            if it.checkState() == Qt.CheckState.Checked:
                out.append(it.data(Qt.ItemDataRole.UserRole))
        return out


class PartyDialogs(QObject):
    """The two File entries and what they do."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.act_export = QAction("E&xport party…", window)
        self.act_export.setObjectName("act_export_party")
        self.act_export.setStatusTip("Write characters with their wounds and ammunition to a file")
        self.act_export.triggered.connect(lambda: self.export_party())
        self.act_import = QAction("&Import party…", window)
        self.act_import.setObjectName("act_import_party")
        self.act_import.setStatusTip("Bring a posse saved from another encounter into this one")
        self.act_import.triggered.connect(lambda: self.import_party())
        window.file_menu.insertAction(window.file_menu_tail, self.act_export)
        window.file_menu.insertAction(window.file_menu_tail, self.act_import)

    def _start_dir(self) -> str:
        """Where Export and Import party start: the folder of the last party exported
        or imported, else the encounter's, else the last folder used, else Documents
        (the home folder without one); never the process's working folder."""
        from ..core.datadir import documents_dir

        settings = self.window.settings
        remembered = settings.party_dir()
        if remembered and Path(remembered).is_dir():
            return remembered
        doc = document_of(self.window)
        if doc.path is not None:
            return str(doc.path.parent)
        last = settings.last_dir()
        return last if last and Path(last).is_dir() else str(documents_dir())

    def export_party(self, path: str | Path | None = None, who: list[str] | None = None) -> bool:
        """Write a party file; asks which characters and where when not given."""
        doc = document_of(self.window)
        if not doc.encounter.characters:
            self.window.show_error("Export party", "This encounter has no characters.")
            return False
        if who is None:
            dlg = ChooseCharacters(self.window)
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return False
            who = dlg.chosen()
            if not who:
                return False
        if path is None:
            start = str(Path(self._start_dir()) / f"posse{PARTY_SUFFIX}")
            path, _ = QFileDialog.getSaveFileName(self.window, "Export party", start, PARTY_FILTER)
            if not path:
                return False
            if not path.endswith(".json"):
                path += PARTY_SUFFIX
        doc.sync_to_model()
        try:
            save_party(party_from(doc.encounter, who), path)
        except (LoadError, KeyError, ValueError) as e:
            self.window.show_error("Cannot export the party", str(e.args[0] if e.args else e))
            return False
        self.window.settings.set_party_dir(Path(path).parent)  # Import starts there
        self.window._show_message(f"Exported {len(who)} characters to {Path(path).name}")
        return True

    def offer_import(self, path: Path) -> bool:
        """A party file opened like an encounter (File ▸ Open, a double-click): check
        it, then offer to bring it into the open encounter."""
        win, doc = self.window, document_of(self.window)
        try:
            party = load_party(path)
        except LoadError as e:
            win.show_error("Cannot open the party", str(e))
            return False
        names = ", ".join(c.name for c in party.characters[:6])
        more = len(party.characters) - 6
        if more > 0:
            names += f" and {more} more"
        answer = QMessageBox.question(
            win,
            "Import the party?",
            f"{path.name} is a party file: {party.name} ({names}).\n\nBring them into "
            f"the open encounter, “{doc.encounter.name}”? (One undo step; saving is "
            "up to you.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        return self.import_party(path)

    def import_party(self, path: str | Path | None = None, *, confirm: bool = True) -> bool:
        """Bring a party file into the encounter (one undo step)."""
        win, doc = self.window, document_of(self.window)
        if doc.in_action:
            win.show_error(
                "Import party", "Return to narrative time first: parties join between fights."
            )
            return False
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                win, "Import party", self._start_dir(), PARTY_FILTER
            )
            if not path:
                return False
        try:
            party = load_party(path)
        except LoadError as e:
            win.show_error("Cannot import the party", str(e))
            return False
        win.settings.set_party_dir(Path(path).parent)
        diffs = party_differences(doc.encounter, party.characters)
        if diffs and confirm and not self._confirm(party.name, diffs):
            return False
        near = entry_hex(doc.map) or view_centre_hex(win)
        report = {}

        def mutate() -> None:
            report["r"] = merge_party(doc.encounter, doc.map, party.characters, near)
            doc.log(f"Party “{party.name}” joined: {report['r'].describe()}.", "note")

        try:
            doc.push(SnapshotCommand(doc, f"Import party “{party.name}”", mutate, ("all",)))
        except ValueError as e:
            win.show_error("Cannot import the party", str(e))
            return False
        win._show_message(f"Imported {party.name}: {report['r'].describe()}")
        return True

    def _confirm(self, name: str, diffs: dict[str, list[str]]) -> bool:
        doc = document_of(self.window)
        lines = []
        for cid, changes in diffs.items():
            who = doc.character(cid).name
            lines.append(f"{who}: " + ("; ".join(changes) if changes else "no differences"))
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Replace characters?")
        box.setText(
            f"“{name}” replaces {len(diffs)} character(s) already in this encounter. "
            "Their sheets will be the ones from the party file:"
        )
        box.setInformativeText("\n".join(lines[:20]) + ("\n…" if len(lines) > 20 else ""))
        box.setDetailedText("\n".join(lines))
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Yes)
        return box.exec() == QMessageBox.StandardButton.Yes


def install_party_dialogs(window: MainWindow) -> PartyDialogs:
    """Add File ▸ Export party… / Import party… to ``window`` (once)."""
    existing = getattr(window, "party_dialogs", None)
    if isinstance(existing, PartyDialogs):
        return existing
    ctl = PartyDialogs(window)
    window.party_dialogs = ctl
    return ctl
