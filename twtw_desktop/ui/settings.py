"""What the app remembers between runs (QSettings): recent files, window geometry and
dock layout, which overlays were on.

The organisation and application names are set by :func:`twtw_desktop.ui.app.run_app`
(tests use their own names and a temporary folder, see :func:`use_ini_folder`).
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

ORGANISATION = "TWTW"
APPLICATION = "TWTW Desktop"
#: Open Recent keeps this many files
MAX_RECENT = 8

KEY_RECENT = "files/recent"
KEY_LAST_DIR = "files/last_dir"
KEY_GEOMETRY = "window/geometry"
KEY_STATE = "window/state"
KEY_OVERLAYS = "view/overlays"


def use_ini_folder(folder: str | os.PathLike) -> None:
    """Keep settings as INI files under ``folder`` (tests, portable installs)."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, str(folder))


class AppSettings:
    """Typed access to the app's QSettings."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self.q = settings if settings is not None else QSettings()

    # -- recent files --------------------------------------------------------------

    def recent_files(self) -> list[str]:
        v = self.q.value(KEY_RECENT, [])
        if isinstance(v, str):
            v = [v] if v else []
        return [str(x) for x in (v or [])][:MAX_RECENT]

    def add_recent(self, path: str | os.PathLike) -> list[str]:
        p = str(Path(path).absolute())
        files = [f for f in self.recent_files() if f != p]
        files.insert(0, p)
        files = files[:MAX_RECENT]
        self.q.setValue(KEY_RECENT, files)
        self.q.setValue(KEY_LAST_DIR, str(Path(p).parent))
        self.q.sync()
        return files

    def remove_recent(self, path: str | os.PathLike) -> list[str]:
        p = str(Path(path).absolute())
        files = [f for f in self.recent_files() if f != p]
        self.q.setValue(KEY_RECENT, files)
        self.q.sync()
        return files

    def clear_recent(self) -> None:
        self.q.setValue(KEY_RECENT, [])
        self.q.sync()

    def last_dir(self) -> str:
        return str(self.q.value(KEY_LAST_DIR, "") or "")

    # -- window --------------------------------------------------------------------

    def window_geometry(self) -> QByteArray | None:
        v = self.q.value(KEY_GEOMETRY)
        return v if isinstance(v, QByteArray) and not v.isEmpty() else None

    def window_state(self) -> QByteArray | None:
        v = self.q.value(KEY_STATE)
        return v if isinstance(v, QByteArray) and not v.isEmpty() else None

    def save_window(self, geometry: QByteArray, state: QByteArray) -> None:
        self.q.setValue(KEY_GEOMETRY, geometry)
        self.q.setValue(KEY_STATE, state)
        self.q.sync()

    # -- overlays ------------------------------------------------------------------------

    def overlays_on(self) -> list[str]:
        v = self.q.value(KEY_OVERLAYS, [])
        if isinstance(v, str):
            v = [v] if v else []
        return [str(x) for x in (v or [])]

    def set_overlays_on(self, names: list[str]) -> None:
        self.q.setValue(KEY_OVERLAYS, list(names))
        self.q.sync()
