"""A dock whose panel has a row of its own to show on top (the action track's status
and buttons) carries that row as its title bar: the panel's title, the row, and the
float and close buttons, in the height of one title bar. On a 1366×768 laptop those
pixels are the action track's last rows (issue #27: all twelve of a long cast in view
with the map still at a readable zoom).

A panel offers the row with a ``dock_head()`` method returning the widget;
:func:`install_head` puts it (or the native title bar, for a panel without one) on
its dock. Mouse presses the row does not use go to the dock: it is dragged, floated
and docked by its title bar as any other."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QWidget,
)


class DockTitle(QWidget):
    """The title bar of ``dock``: its title, the panel's ``head`` and the dock's float
    and close buttons."""

    def __init__(self, dock: QDockWidget, head: QWidget) -> None:
        # lazy: start-up (importing QStyle makes its dozen enums, some 600 members; the
        # first frame has no panel with a head of its own yet)
        from PySide6.QtWidgets import QStyle

        super().__init__(dock)
        self.dock = dock
        self.head = head
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 1, 2, 1)
        lay.setSpacing(6)
        self.title = QLabel(dock.windowTitle())
        self.title.setStyleSheet("color: #555;")
        lay.addWidget(self.title)
        lay.addWidget(head, 1)
        style = self.style()
        self.float_button = self._button(
            style.standardIcon(QStyle.StandardPixmap.SP_TitleBarNormalButton),
            "Float the panel in its own window (double-click the title does it too)",
            lambda: dock.setFloating(not dock.isFloating()),
        )
        self.close_button = self._button(
            style.standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton),
            "Close the panel (View ▸ Panels brings it back)",
            dock.close,
        )
        lay.addWidget(self.float_button, 0, Qt.AlignmentFlag.AlignVCenter)
        lay.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignVCenter)
        dock.windowTitleChanged.connect(self.title.setText)

    def _button(self, icon, tip: str, slot) -> QToolButton:
        b = QToolButton(self)
        b.setIcon(icon)
        b.setAutoRaise(True)
        b.setToolTip(tip)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.clicked.connect(lambda _=False: slot())
        return b


def install_head(dock: QDockWidget, panel: QWidget) -> None:
    """The title bar ``panel`` asks for on ``dock`` (its ``dock_head()`` row), else the
    native one; the title bar of the panel it replaces goes with it."""
    old = dock.titleBarWidget()
    head = getattr(panel, "dock_head", None)
    if callable(head):
        dock.setTitleBarWidget(DockTitle(dock, head()))
    else:  # (PySide6's stub says a widget, Qt takes None: the native bar back)
        dock.setTitleBarWidget(None)  # type: ignore[arg-type]
    if old is not None:
        old.deleteLater()
