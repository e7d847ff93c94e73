"""File > Open Sample ▸: one entry per bundled sample encounter.

The entries are the ``*.encounter.json`` files in the bundled maps folder
(:func:`twtw_desktop.resources.maps_dir`, which is inside the package in a wheel),
titled with each encounter's name and listed in the order of
:data:`twtw_desktop.sample_maps.ENCOUNTER_ORDER` (any other encounter files found
there follow, by title). Choosing one goes through :meth:`MainWindow.open_path`, so
unsaved changes are offered for saving first and a broken file shows a dialog.

Install with :func:`install_samples_menu`; the controller is kept as
``window.samples_menu``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from ...errors import LoadError
from ...io.files import ENCOUNTER_SUFFIX
from ...io.jsonsafe import read_json
from ...resources import maps_dir
from ...sample_maps import ENCOUNTER_ORDER

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SampleEntry:
    """One bundled sample encounter: its menu title and its file."""

    title: str
    path: Path


def _title(path: Path) -> str | None:
    """The encounter's name, the file's stem when it has none, None when unreadable."""
    try:
        raw = read_json(path)
    except LoadError as e:
        log.warning("sample %s skipped: %s", path.name, e)
        return None
    name = raw.get("name") if isinstance(raw, dict) else None
    if isinstance(name, str) and name.strip():
        return name.strip()
    return path.name.removesuffix(ENCOUNTER_SUFFIX).replace("_", " ")


def bundled_samples(folder: Path | None = None) -> list[SampleEntry]:
    """The sample encounters in ``folder`` (default: the bundled maps), in menu
    order: the bundled samples' own order first, then any others by title."""
    folder = Path(folder) if folder is not None else maps_dir()
    if not folder.is_dir():
        return []
    rank = {name: i for i, name in enumerate(ENCOUNTER_ORDER)}
    entries = []
    for path in sorted(folder.glob(f"*{ENCOUNTER_SUFFIX}")):
        title = _title(path)
        if title is not None:
            entries.append(SampleEntry(title, path))
    entries.sort(key=lambda e: (rank.get(e.path.name, len(rank)), e.title.casefold()))
    return entries


class SampleWindow(Protocol):
    """What the submenu needs of the main window (named here, so this module does not
    import the window that installs it)."""

    file_menu: QMenu
    file_menu_tail: QAction
    samples_menu: SamplesMenu

    def open_path(self, path: str | Path, ask: bool = True) -> bool: ...


class SamplesMenu(QObject):
    """The File > Open Sample submenu and what its entries do."""

    def __init__(self, window: SampleWindow, folder: Path | None = None) -> None:
        super().__init__(window.file_menu)
        self.window = window
        self.folder = folder
        self.entries: list[SampleEntry] = []
        self.actions: list[QAction] = []
        self.menu = QMenu("Open &Sample", window.file_menu)
        self.menu.setObjectName("menu_open_sample")
        self.menu.setToolTipsVisible(True)
        self.menu.menuAction().setStatusTip("Open one of the sample encounters that come with TWTW")
        window.file_menu.insertMenu(window.file_menu_tail, self.menu)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the entries from the files in the maps folder."""
        self.menu.clear()
        self.entries = bundled_samples(self.folder)
        self.actions = []
        for i, entry in enumerate(self.entries):
            text = entry.title.replace("&", "&&")
            a = QAction(f"&{i + 1} {text}" if i < 9 else text, self.menu)
            a.setObjectName(f"act_sample_{entry.path.name.removesuffix(ENCOUNTER_SUFFIX)}")
            tip = f"Open the sample encounter “{entry.title}” ({entry.path.name})"
            a.setToolTip(tip)
            a.setStatusTip(tip)
            a.setData(str(entry.path))
            a.triggered.connect(lambda _checked=False, p=entry.path: self.open_sample(p))
            self.menu.addAction(a)
            self.actions.append(a)
        if not self.entries:
            empty = self.menu.addAction("(no samples found)")
            empty.setEnabled(False)

    def titles(self) -> list[str]:
        return [e.title for e in self.entries]

    def open_sample(self, path: Path | str) -> bool:
        """Open a sample in the window (asks to save unsaved changes first)."""
        return self.window.open_path(path)


def install_samples_menu(window: SampleWindow) -> SamplesMenu:
    """Add File > Open Sample ▸ to ``window`` (once) and return its controller."""
    existing = getattr(window, "samples_menu", None)
    if isinstance(existing, SamplesMenu):
        return existing
    ctl = SamplesMenu(window)
    window.samples_menu = ctl
    return ctl
