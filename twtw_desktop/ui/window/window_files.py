"""The Judge's window's file actions: New, Open…, Open Recent, Save, Save As…, asking
to save unsaved changes, the recovery copy of a map being edited, and the file a
launch without one reopens."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ...errors import LoadError
from ..core.datadir import documents_dir
from ..core.document import EncounterDocument
from ..core.settings import MAX_RECENT
from .autosave import newer_copy
from .window_base import WindowBase

FILE_FILTER = "Encounters and maps (*.encounter.json *.map.json *.json);;All files (*)"

SAVE_FILTER = "Encounters (*.encounter.json);;All files (*)"

MAP_SAVE_FILTER = "Maps (*.map.json);;Encounters (*.encounter.json);;All files (*)"

#: the settings key of the encounter the app reopens when launched without a file:
#: its file (or, for an untitled copy, the sample it was copied from)
LAST_ENCOUNTER_KEY = "session/last_encounter"


def is_bundled(path: str | Path) -> bool:
    """Whether a file is one of the app's own samples (opened as an untitled copy)."""
    from ...resources import maps_dir

    try:
        return Path(path).resolve().is_relative_to(maps_dir().resolve())
    except (OSError, ValueError):
        return False


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


class WindowFiles(WindowBase):
    """The file actions of :class:`.main_window.MainWindow` (see module docstring)."""

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
        from ...model.party import PARTY_SUFFIX  # lazy: start-up (the party files)

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
        if self.document is None:
            return False
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

    def _remember_last(self, doc: EncounterDocument) -> None:
        """Note the file a launch without a file reopens: this document's own, or the
        sample an untitled copy came from (a new encounter never saved has none, and
        leaves the last one noted)."""
        src = doc.path if doc.path is not None else getattr(doc, "origin", None)
        if src is not None and self.settings.q.value(LAST_ENCOUNTER_KEY) != str(src):
            self.settings.q.setValue(LAST_ENCOUNTER_KEY, str(src))
            if self.incomplete:
                # the start-up: written just after the first frame, with the rest of
                # the window (a write and sync delayed the map by milliseconds)
                self.completed.connect(self.settings.q.sync)
            else:
                self.settings.q.sync()  # on disk now: the app may be killed before it quits
