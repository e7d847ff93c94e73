"""Dialog titles that fit (issue 27: "Session j… Desktop"). A message box sizes
itself to its text, so a short text gets a window too narrow for its title bar,
where the window manager cuts the title. One application-wide filter
(:func:`install_title_fit`) widens every dialog, as it is first shown, to its whole
title — the app's name the system adds included — plus room for the title bar's
buttons.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QMessageBox,
    QSizePolicy,
    QSpacerItem,
)

from .app_filters import install_app_filter

#: the title bar's buttons and margins, beside the title (pixels)
TITLE_BAR_EXTRA = 150
#: never wider than this share of the screen for its title alone
MAX_SCREEN_FRACTION = 0.8


def title_width(dialog: QDialog) -> int:
    """Pixels the dialog's title bar needs for its whole title."""
    title = dialog.windowTitle()
    app_name = QGuiApplication.applicationDisplayName()
    if app_name and app_name not in title:
        title = f"{title} — {app_name}"
    font = QFont(dialog.font())
    font.setBold(True)  # title bars are often bold: measure as if
    fm = QFontMetrics(font)
    need = fm.horizontalAdvance(title) + TITLE_BAR_EXTRA
    screen = dialog.screen()
    if screen is not None:
        need = min(need, int(screen.availableGeometry().width() * MAX_SCREEN_FRACTION))
    return need


def fit_title(dialog: QDialog) -> None:
    """Widen ``dialog`` to its title (a message box through its grid, which it
    lays out itself)."""
    need = title_width(dialog)
    if isinstance(dialog, QMessageBox):
        lay = dialog.layout()
        if isinstance(lay, QGridLayout) and not dialog.property("twtw_title_fit"):
            dialog.setProperty("twtw_title_fit", True)
            spacer = QSpacerItem(need, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Expanding)
            lay.addItem(spacer, lay.rowCount(), 0, 1, lay.columnCount())
        return
    if dialog.minimumWidth() < need:
        dialog.setMinimumWidth(need)


class TitleFit(QObject):
    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.Show and isinstance(obj, QDialog) and obj.isWindow():
            fit_title(obj)
        return False


_filters: dict[int, TitleFit] = {}


def install_title_fit() -> TitleFit | None:
    """Install the filter on the running application (once); returns it."""
    got = install_app_filter(_filters, TitleFit)
    return None if got is None else got[0]
