"""Where the players' screen goes: the displays (remembered by name), full screen,
the first F12 at a table with a TV, and a display unplugged or plugged in again.
:class:`PlayersDisplays` is the base of :class:`.controller.PlayersController`,
holding the state every part of it shares.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import QObject, QRect, Qt
from PySide6.QtGui import QAction, QGuiApplication

from .settings import PlayersSettings
from .window import PlayersWindow

#: a windowed players' screen opens at this share of its display's free area
WINDOWED_FRACTION = 0.6


def screen_id(screen) -> str:
    """The name a display is remembered by: the system's name for it, or "display N"
    when the system gives none."""
    name = screen.name() if screen is not None else ""
    if name:
        return name
    screens = QGuiApplication.screens()
    return f"display {screens.index(screen) + 1}" if screen in screens else ""


class PlayersDisplays(QObject):
    """Placing the players' window on a display (the controller's base)."""

    #: the Judge's main window
    main: Any
    settings: PlayersSettings
    players_window: PlayersWindow | None
    act_fullscreen: QAction

    def chosen_screen(self):
        """The remembered display if it is connected, else None."""
        name = self.settings.screen_name
        if not name:
            return None
        for sc in QGuiApplication.screens():
            if screen_id(sc) == name:
                return sc
        return None

    def other_display(self):
        """The largest connected display that is not the Judge's (None with one)."""
        judge = self.main.screen()
        others = [sc for sc in QGuiApplication.screens() if sc is not judge]
        if judge is not None:
            others = [sc for sc in others if screen_id(sc) != screen_id(judge)]
        if not others:
            return None
        return max(others, key=lambda sc: sc.geometry().width() * sc.geometry().height())

    def place(self) -> None:
        """Put the players' window on its display: full screen on the chosen display
        when that is connected and full screen is on, else an ordinary window there;
        with no chosen display connected, full screen on the largest display that is
        not the Judge's (remembered when none was chosen yet), else an ordinary
        window on the primary display."""
        pw = self.players_window
        if pw is None:
            return
        chosen = self.chosen_screen()
        full = self.act_fullscreen.isChecked()
        if chosen is None:
            chosen = self.other_display()
            if chosen is not None:
                full = True
                if not self.settings.screen_name:  # the first F12 at this table
                    self.settings.screen_name = screen_id(chosen)
                    self.settings.fullscreen = True
                    self.act_fullscreen.blockSignals(True)
                    self.act_fullscreen.setChecked(True)
                    self.act_fullscreen.blockSignals(False)
        target = chosen or QGuiApplication.primaryScreen()
        if target is None:
            pw.show()
            return
        if chosen is not None and full:
            pw.setScreen(target)
            pw.setGeometry(target.geometry())
            # not showFullScreen(): it activates the window, which takes no focus
            pw.setWindowState(
                (pw.windowState() & ~Qt.WindowState.WindowMinimized)
                | Qt.WindowState.WindowFullScreen
            )
            pw.show()
            return
        if pw.isFullScreen():
            pw.showNormal()
        pw.setScreen(target)
        geo = self.settings.geometry
        placed = False
        if geo is not None and pw.restoreGeometry(geo):
            placed = target.geometry().contains(pw.frameGeometry().center())
        if not placed:
            self._default_geometry(target)
        pw.show()

    def _default_geometry(self, screen) -> None:
        pw = self.players_window
        avail: QRect = screen.availableGeometry()
        w = max(640, int(avail.width() * WINDOWED_FRACTION))
        h = max(400, int(avail.height() * WINDOWED_FRACTION))
        w, h = min(w, avail.width()), min(h, avail.height())
        pw.setGeometry(
            avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2, w, h
        )

    def choose_screen(self, name: str) -> None:
        """Remember ``name`` as the players' display (full screen when it is not the
        Judge's own display) and move the window there."""
        self.settings.screen_name = name
        judge = self.main.screen()
        if judge is not None and screen_id(judge) != name and not self.act_fullscreen.isChecked():
            self.act_fullscreen.setChecked(True)  # places the window via set_fullscreen
            return
        self.place()

    def set_fullscreen(self, on: bool) -> None:
        on = bool(on)
        self.settings.fullscreen = on
        if self.act_fullscreen.isChecked() != on:
            self.act_fullscreen.blockSignals(True)
            self.act_fullscreen.setChecked(on)
            self.act_fullscreen.blockSignals(False)
        pw = self.players_window
        if pw is None:
            return
        if on and self.chosen_screen() is None:
            # no display chosen yet: full screen where the window is now
            sc = pw.screen()
            if sc is not None:
                self.settings.screen_name = screen_id(sc)
        if not on and pw.isFullScreen():
            pw.showNormal()
        self.place()

    def _on_screen_removed(self, screen) -> None:
        pw = self.players_window
        if pw is None:
            return
        name = screen.name() or self.settings.screen_name
        here = pw.screen()
        on_it = (
            name == self.settings.screen_name
            or here is screen
            or (here is not None and here.name() and here.name() == screen.name())
        )
        if not on_it:
            return
        primary = QGuiApplication.primaryScreen()
        if pw.isFullScreen():
            pw.showNormal()
        if primary is not None:
            pw.setScreen(primary)
            self._default_geometry(primary)
        pw.show()
        self._say(f"The display {name} went away: the players' screen is back on the main display.")

    def _on_screen_added(self, screen) -> None:
        if self.players_window is not None and screen_id(screen) == self.settings.screen_name:
            self.place()

    def _say(self, text: str) -> None:
        with contextlib.suppress(RuntimeError):
            self.main.statusBar().showMessage(text, 8000)
