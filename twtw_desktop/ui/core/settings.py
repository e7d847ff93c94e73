"""What the app remembers between runs (QSettings): recent files, window geometry and
dock layout, which overlays were on, and the Judge's preferences (interface scale,
side palette, default edition, autosave interval; Edit ▸ Preferences…).

The organisation and application names are set by :func:`twtw_desktop.ui.window.app.run_app`
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
#: the folder a party was last exported to or imported from
KEY_PARTY_DIR = "files/party_dir"
KEY_GEOMETRY = "window/geometry"
KEY_STATE = "window/state"
KEY_OVERLAYS = "view/overlays"
KEY_SCALE = "prefs/interface_scale"
KEY_PALETTE = "prefs/side_palette"
KEY_EDITION = "prefs/default_edition"
KEY_AUTOSAVE = "prefs/autosave_minutes"
KEY_FOLLOW = "prefs/follow_track"

#: interface scale range (1.0 = the system's font size)
SCALE_RANGE = (0.75, 2.0)
#: side palettes: "standard" or the colour-blind-safe Okabe–Ito colours
PALETTES = ("standard", "okabe_ito")
#: the map editor's recovery copy at most N minutes after a change (0 = off); default 1
AUTOSAVE_DEFAULT = 1
AUTOSAVE_MAX = 120


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
        return _names(self.q.value(KEY_RECENT, []))[:MAX_RECENT]

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

    def party_dir(self) -> str:
        """The folder of the last party exported or imported ("" if none yet)."""
        return str(self.q.value(KEY_PARTY_DIR, "") or "")

    def set_party_dir(self, folder: str | os.PathLike) -> None:
        self.q.setValue(KEY_PARTY_DIR, str(Path(folder).absolute()))
        self.q.sync()

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
        return _names(self.q.value(KEY_OVERLAYS, []))

    def set_overlays_on(self, names: list[str]) -> None:
        self.q.setValue(KEY_OVERLAYS, list(names))
        self.q.sync()

    # -- preferences ---------------------------------------------------------------------

    def _number(self, key: str, default: float, lo: float, hi: float) -> float:
        raw = self.q.value(key, default)
        try:
            v = float(raw) if isinstance(raw, int | float | str) else default
        except ValueError:
            return default
        return min(hi, max(lo, v)) if v == v else default

    def _put(self, key: str, value) -> None:
        self.q.setValue(key, value)
        self.q.sync()

    def interface_scale(self) -> float:
        return self._number(KEY_SCALE, 1.0, *SCALE_RANGE)

    def set_interface_scale(self, scale: float) -> None:
        self._put(KEY_SCALE, min(SCALE_RANGE[1], max(SCALE_RANGE[0], float(scale))))

    def side_palette(self) -> str:
        v = str(self.q.value(KEY_PALETTE, "standard") or "standard")
        return v if v in PALETTES else "standard"

    def set_side_palette(self, name: str) -> None:
        if name not in PALETTES:
            raise ValueError(f"no side palette {name!r} ({', '.join(PALETTES)})")
        self._put(KEY_PALETTE, name)

    def default_edition(self) -> str:
        from ...rules.editions import edition_ids

        v = str(self.q.value(KEY_EDITION, "ap_v2") or "ap_v2")
        return v if v in edition_ids() else "ap_v2"

    def set_default_edition(self, edition_id: str) -> None:
        from ...rules.editions import edition_ids

        if edition_id not in edition_ids():
            raise ValueError(f"no edition {edition_id!r}")
        self._put(KEY_EDITION, edition_id)

    def autosave_minutes(self) -> int:
        return int(self._number(KEY_AUTOSAVE, AUTOSAVE_DEFAULT, 0, AUTOSAVE_MAX))

    def set_autosave_minutes(self, minutes: int) -> None:
        self._put(KEY_AUTOSAVE, int(min(AUTOSAVE_MAX, max(0, minutes))))

    def follow_track(self) -> bool:
        """AP v2: select whoever is due next once the selected character has acted."""
        v = self.q.value(KEY_FOLLOW, True)
        return v not in (False, "false", "0", 0)

    def set_follow_track(self, on: bool) -> None:
        self._put(KEY_FOLLOW, bool(on))


def _names(v: object) -> list[str]:
    """A list of names as QSettings gives it back: a list, one name alone (an INI
    file's list of one), or nothing."""
    if isinstance(v, str):
        return [v] if v else []
    if isinstance(v, (list, tuple)):
        return [str(x) for x in v]
    return []
