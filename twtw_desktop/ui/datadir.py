"""Where the app keeps what belongs to no file the Judge chose: the journals of
untitled encounters (a sample opened as an untitled copy).

``TWTW_DATA_DIR`` overrides the platform's application data folder (tests, portable
installs).
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


def unsaved_journal(origin: Path) -> Path:
    """The journal of an untitled copy of ``origin`` (one per origin file)."""
    folder = data_dir() / "unsaved"
    folder.mkdir(parents=True, exist_ok=True)
    name = origin.name[: -len(".json")] if origin.name.endswith(".json") else origin.name
    return folder / f"{name}.journal.jsonl"
