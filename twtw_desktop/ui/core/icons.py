"""The app's toolbar icons: small SVGs in ``resources/icons`` named after the action's
object name (``tool_select.svg`` for the action ``tool_select``).

Icons are drawn for this app (no icon theme is needed, nothing is fetched); a missing
file gives an empty icon and a log line, never an error, so a broken install still
runs with text buttons.
"""

from __future__ import annotations

import logging
from functools import cache

from PySide6.QtGui import QAction, QIcon

from ...resources import resource_path

log = logging.getLogger(__name__)


@cache
def icon(name: str) -> QIcon:
    """The icon called ``name`` (an empty QIcon when there is none)."""
    try:
        path = resource_path("icons", f"{name}.svg")
    except (FileNotFoundError, OSError):
        path = None
    if path is None or not path.exists():
        log.info("no icon %s", name)
        return QIcon()
    ic = QIcon(str(path))
    if ic.isNull():
        log.warning("icon %s could not be read", path)
    return ic


def has_icon(name: str) -> bool:
    return not icon(name).isNull()


def decorate(*actions: QAction) -> None:
    """Give each action the icon named after its object name, when there is one."""
    for a in actions:
        name = a.objectName()
        if name and has_icon(name):
            a.setIcon(icon(name))
