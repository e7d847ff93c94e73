"""Where the app keeps what belongs to no file the Judge chose: the journals and
recovery copies of untitled encounters (a sample opened as an untitled copy).

``TWTW_DATA_DIR`` overrides the platform's application data folder (tests, portable
installs). A data folder that cannot be used (a regular file by that name, a
read-only folder) never stops a file from opening: :func:`unsaved_folder` gives None
and :func:`data_dir_problem` the one sentence the window says once.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def data_dir() -> Path:
    """The app's own data folder (created on demand by the callers that write)."""
    env = os.environ.get("TWTW_DATA_DIR")
    if env:
        return Path(env)
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(loc) if loc else Path.home() / ".twtw-desktop"


def unsaved_folder() -> Path | None:
    """``<data folder>/unsaved``, created; None when it cannot be made or written."""
    folder = data_dir() / "unsaved"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return None
    return folder


def data_dir_problem() -> str | None:
    """Why recovery copies of untitled encounters cannot be kept (None: they can)."""
    if unsaved_folder() is not None:
        return None
    return (
        f"The app's data folder {data_dir() / 'unsaved'} cannot be used (it is not a "
        "writable folder): recovery copies and journals of untitled encounters cannot "
        "be kept. Save the encounter to a file of its own to have them beside it."
    )


def unsaved_journal(origin: Path) -> Path | None:
    """The journal of an untitled copy of ``origin`` (one per origin file); None when
    the data folder cannot be used."""
    folder = unsaved_folder()
    if folder is None:
        return None
    name = origin.name[: -len(".json")] if origin.name.endswith(".json") else origin.name
    return folder / f"{name}.journal.jsonl"


def documents_dir() -> Path:
    """The Judge's Documents folder; the home folder where the system names none or
    it does not exist (Qt names ``~/Documents`` regardless, and a file dialog on a
    missing folder opens in the process's working folder)."""
    loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(loc) if loc and Path(loc).is_dir() else Path.home()
