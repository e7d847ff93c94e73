"""The side panels of the Judge's window (docks).

Each panel is a ``QWidget`` built as ``Panel(document, parent=None)``; it reads the
:class:`~twtw_desktop.ui.core.document.EncounterDocument`, listens to its signals and
changes it only through ``document.push``. The main window builds one dock per
entry of :func:`dock_specs`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

log = logging.getLogger(__name__)

Area = Qt.DockWidgetArea

#: (objectName, title, module, class, default area) of every panel, in dock order.
_PANELS: tuple[tuple[str, str, str, str, Qt.DockWidgetArea], ...] = (
    ("dock_attack", "Attack", "attack_panel", "AttackPanel", Area.RightDockWidgetArea),
    ("dock_track", "Action track", "track_panel", "TrackPanel", Area.BottomDockWidgetArea),
    ("dock_sheet", "Character sheet", "sheet_panel", "SheetPanel", Area.LeftDockWidgetArea),
    ("dock_deck", "Deck", "deck_panel", "DeckPanel", Area.RightDockWidgetArea),
    ("dock_log", "Log", "log_panel", "LogPanel", Area.BottomDockWidgetArea),
)


def _factory(module: str, cls: str) -> Callable[..., QWidget]:
    def make(document, parent: QWidget | None = None) -> QWidget:
        mod = importlib.import_module(f"{__name__}.{module}")
        return getattr(mod, cls)(document, parent)

    make.__name__ = f"make_{cls}"
    return make


def panel_specs() -> list[tuple[str, str, Callable[..., QWidget], Qt.DockWidgetArea]]:
    """What :func:`dock_specs` gives, without importing the panels (each factory
    imports its panel when it first builds one): the window shown before its panels
    are built names its docks with this, then checks them with :func:`dock_specs`."""
    return [
        (name, title, _factory(module, cls), area) for name, title, module, cls, area in _PANELS
    ]


def dock_specs() -> list[tuple[str, str, Callable[..., QWidget], Qt.DockWidgetArea]]:
    """(objectName, title, factory(document) -> QWidget, default dock area) per panel.

    A panel whose module cannot be imported (a rules module it needs is missing) is
    left out and logged, so the window still opens with the others.
    """
    specs = []
    for name, title, module, cls, area in _PANELS:
        try:
            mod = importlib.import_module(f"{__name__}.{module}")
            getattr(mod, cls)
        except (ImportError, AttributeError) as e:
            log.warning("panel %s unavailable: %s", title, e)
            continue
        specs.append((name, title, _factory(module, cls), area))
    return specs


__all__ = ["dock_specs", "panel_specs"]
