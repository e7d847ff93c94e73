"""View ▸ Collapse panels (Ctrl+Shift+B): the docks fold into a rail of icons.

On a laptop the map wants the whole width. Collapsing hides every open dock and shows
a narrow vertical toolbar (the *rail*) at the window's edge with one icon per panel;
clicking an icon brings that panel back on its own, and unticking Collapse panels
brings back all that were open. The rail and the docks are part of the window state
QSettings keeps, so the layout survives a restart.

Install with :func:`install_dock_rail`; the controller is ``window.dock_rail``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QIcon, QKeySequence, QPainter, QPixmap
from PySide6.QtWidgets import QDockWidget, QToolBar

ICON_PX = 28


def letter_icon(title: str) -> QIcon:
    """A round badge with the panel's initials (the docks have no icons of their own)."""
    words = [w for w in title.replace("&", "").split() if w[:1].isalnum()]
    text = "".join(w[0] for w in words[:2]).upper() or "?"
    pm = QPixmap(ICON_PX, ICON_PX)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QColor(70, 80, 96))
    p.setPen(Qt.PenStyle.NoPen)
    p.drawRoundedRect(QRectF(1, 1, ICON_PX - 2, ICON_PX - 2), 6, 6)
    f = QFont()
    f.setPixelSize(12)
    f.setBold(True)
    p.setFont(f)
    p.setPen(QColor(255, 255, 255))
    p.drawText(QRectF(0, 0, ICON_PX, ICON_PX), Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    return QIcon(pm)


#: the main window that installs this add-on (ui.main_window imports this module, so
#: it is not imported back: no cycle)
MainWindow = Any


class DockRail(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.rail = QToolBar("Panels rail", window)
        self.rail.setObjectName("toolbar_panels_rail")
        self.rail.setOrientation(Qt.Orientation.Vertical)
        self.rail.setMovable(False)
        self.rail.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        window.addToolBar(Qt.ToolBarArea.RightToolBarArea, self.rail)
        self.rail.hide()
        self.rail.toggleViewAction().setVisible(False)  # driven by Collapse panels
        #: docks that were open when the panels collapsed
        self.folded: list[QDockWidget] = []
        self.buttons: dict[str, QAction] = {}
        for name, dock in window.docks.items():
            a = QAction(letter_icon(dock.windowTitle()), dock.windowTitle(), self.rail)
            a.setObjectName(f"rail_{name}")
            a.setToolTip(f"Show the {dock.windowTitle()} panel")
            a.triggered.connect(lambda _=False, d=dock: self.unfold(d))
            self.rail.addAction(a)
            self.buttons[name] = a
        self.act_collapse = QAction("&Collapse panels", window)
        self.act_collapse.setObjectName("act_collapse_panels")
        self.act_collapse.setCheckable(True)
        self.act_collapse.setShortcut(QKeySequence("Ctrl+Shift+B"))
        self.act_collapse.setStatusTip("Fold the panels into a rail of icons, so the map has room")
        self.act_collapse.toggled.connect(self.set_collapsed)
        menu = window.docks_menu
        if menu.actions():
            first = menu.actions()[0]
            menu.insertAction(first, self.act_collapse)
            menu.insertSeparator(first)
        else:
            menu.addAction(self.act_collapse)

    @property
    def collapsed(self) -> bool:
        return self.act_collapse.isChecked()

    def set_collapsed(self, on: bool) -> None:
        if self.act_collapse.isChecked() != on:
            self.act_collapse.setChecked(on)  # comes back here through toggled
            return
        win = self.window
        if on:
            self.folded = [d for d in win.docks.values() if d.isVisible()]
            for d in win.docks.values():
                d.hide()
            self.rail.show()
        else:
            self.rail.hide()
            for d in self.folded or list(win.docks.values()):
                d.show()
            self.folded = []

    def sync(self) -> None:
        """After the window state is restored: tick Collapse panels when the rail came
        back visible (the docks stay as they were restored)."""
        on = not self.rail.isHidden()
        self.act_collapse.blockSignals(True)
        self.act_collapse.setChecked(on)
        self.act_collapse.blockSignals(False)
        if on and not self.folded:
            self.folded = list(self.window.docks.values())

    def unfold(self, dock: QDockWidget) -> None:
        """Bring one panel back from the rail (the others stay folded)."""
        dock.show()
        dock.raise_()


def install_dock_rail(window: MainWindow) -> DockRail:
    existing = getattr(window, "dock_rail", None)
    if isinstance(existing, DockRail):
        return existing
    ctl = DockRail(window)
    window.dock_rail = ctl
    return ctl
