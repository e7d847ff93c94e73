"""Application-wide event filters installed once per running application (the wheel
guard, the dialog title fit): each module keeps its own registry, so a test can start
from a fresh one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QObject

F = TypeVar("F", bound=QObject)


def install_app_filter(
    installed: dict[int, F], make: Callable[[QCoreApplication], F]
) -> tuple[F, bool] | None:
    """The filter ``installed`` holds for the running application, else one ``make``
    builds, installed on it and kept in ``installed``: (the filter, whether it is new).
    None when no application runs."""
    app = QCoreApplication.instance()
    if app is None:
        return None
    f = installed.get(id(app))
    if f is not None:
        return f, False
    f = make(app)
    app.installEventFilter(f)
    installed[id(app)] = f
    return f, True
