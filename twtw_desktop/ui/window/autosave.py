"""Map editing is never lost: a recovery copy at most a minute after the last change.

Play at the table is journaled step by step (:mod:`twtw_desktop.play.journal`); map
editing is not, so while the map has unsaved changes the window writes a recovery copy
of the whole document — ``NAME.json.autosave`` beside the file, or in the app's data
folder for a document never saved — at most :data:`DEFAULT_INTERVAL_S` seconds after
the last change. The copy is serialised on the GUI thread (the model is only touched
there) and written by the project's one atomic write on a worker thread. Saving, or
closing with nothing unsaved, removes it. Opening a file whose recovery copy is newer
offers to open the copy instead (it then counts as unsaved changes to the file).
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer

from ... import io as io_mod
from ...errors import LoadError
from ..core.datadir import unsaved_folder

log = logging.getLogger(__name__)

#: seconds from the last unsaved map change to the recovery copy (Preferences changes it)
DEFAULT_INTERVAL_S = 60
SUFFIX = ".autosave"


def autosave_path(doc: Any) -> Path | None:
    """Where ``doc``'s recovery copy goes (None: the data folder cannot be used)."""
    if doc.path is not None:
        return doc.path.with_name(doc.path.name + SUFFIX)
    origin = getattr(doc, "origin", None)
    stem = origin.name if origin is not None else "untitled.encounter.json"
    folder = unsaved_folder()
    return folder / (stem + SUFFIX) if folder is not None else None


def newer_copy(path: Path) -> Path | None:
    """The recovery copy of ``path`` when it is newer than the file itself."""
    copy = path.with_name(path.name + SUFFIX)
    try:
        return copy if copy.stat().st_mtime >= path.stat().st_mtime else None
    except OSError:
        return None


class _Write(QRunnable):
    def __init__(self, target: Path, blob: bytes) -> None:
        super().__init__()
        self.target = target
        self.blob = blob

    def run(self) -> None:
        try:
            io_mod.write_atomic(self.target, self.blob)
        except LoadError as e:  # a full disk must not stop the Judge: say it in the log
            log.warning("autosave failed: %s", e)


class Autosaver(QObject):
    """Follows one document's map changes and writes its recovery copy."""

    def __init__(self, doc: Any, interval_s: float = DEFAULT_INTERVAL_S) -> None:
        super().__init__(doc)
        self.doc = doc
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(int(interval_s * 1000))
        self.timer.timeout.connect(self.write_now)
        self.written: Path | None = None
        self.enabled = True
        self.set_interval(interval_s)
        doc.changed.connect(self._changed)
        doc.featureChanged.connect(lambda _fid: self._changed("map"))

    def set_interval(self, seconds: float) -> None:
        """At most ``seconds`` from an unsaved change to the copy; 0 turns it off."""
        self.enabled = seconds > 0
        if not self.enabled:
            self.timer.stop()
        self.timer.setInterval(int(max(1.0, seconds) * 1000))

    def _changed(self, area: str) -> None:
        if area == "file" and not self.doc.is_dirty():
            self.discard()  # saved: the file holds everything
            return
        # the undo stack counts the change only after announcing it: start the clock on
        # any map change, and write_now checks that something is unsaved
        if area in ("map", "all") and self.enabled and not self.timer.isActive():
            self.timer.start()  # at most one interval after the first unsaved change

    def write_now(self) -> Path | None:
        """Serialise the document now and write it in the background."""
        doc = self.doc
        if not doc.is_dirty():
            return None
        target = autosave_path(doc)
        if target is None:
            log.warning("autosave skipped: the app's data folder cannot be used")
            return None
        doc.sync_to_model()
        model: Any = doc.map if doc.kind == "map" else doc.encounter
        if doc.kind != "map" and doc.encounter.map is None:
            model = doc.encounter.model_copy(update={"map": doc.map, "map_ref": None})
        try:
            blob = io_mod.snapshot_bytes(model, target)
        except LoadError as e:
            log.warning("autosave skipped: %s", e)
            return None
        QThreadPool.globalInstance().start(_Write(target, blob))
        self.written = target
        return target

    def wait(self) -> None:
        """Wait for a write in flight (tests, closing)."""
        QThreadPool.globalInstance().waitForDone(5000)

    def discard(self) -> None:
        """No recovery copy needed any more (saved, or closed with nothing unsaved)."""
        self.timer.stop()
        self.wait()
        target = self.written or autosave_path(self.doc)
        if target is not None:
            with contextlib.suppress(OSError):
                os.unlink(target)
        self.written = None
