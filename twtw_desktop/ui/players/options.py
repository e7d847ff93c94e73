"""The Judge's choices for the players' screen, each remembered: the fog (on,
remembering seen areas, dimming the never-seen), names and wound marks, the camera;
and the TV on the table (issue 29): miniature scale, blackout, the ping, moving the
TV's view by hand. :class:`PlayersChoices` sits between
:class:`.displays.PlayersDisplays` and :class:`.controller.PlayersController`, which
builds the menu actions these read.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication

from ...hexgrid import Hex, Orientation
from ...play.fog import SeenMemory
from ..core.commands import PING_KEY
from ..scene.token_item import PLAYERS_LOOK
from .camera import DEFAULT_CAMERA
from .displays import PlayersDisplays, screen_id
from .miniature import SQRT3, display_ppi
from .miniature_dialog import MiniatureDialog


class PlayersChoices(PlayersDisplays):
    """The options' and the TV's slots (the controller's middle)."""

    act_fog: QAction
    act_remember: QAction
    act_fog_dim: QAction
    act_names: QAction
    act_miniature: QAction
    act_blackout: QAction
    condition_actions: dict[str, QAction]
    camera_actions: dict[str, QAction]
    #: hexes the posse has seen in this document (kept across reopening)
    remembered: SeenMemory

    def _look(self):
        from dataclasses import replace

        who = next((w for w, a in self.condition_actions.items() if a.isChecked()), "posse")
        return replace(
            PLAYERS_LOOK, conditions=who, ap_counters="posse", names=self.act_names.isChecked()
        )

    def _checked_camera(self) -> str:
        return next((m for m, a in self.camera_actions.items() if a.isChecked()), DEFAULT_CAMERA)

    @staticmethod
    def _ticked(act: QAction, on: bool) -> bool:
        """Whether ``act`` already shows ``on``; if not, tick it to match (its slot
        runs again from the tick) and say False."""
        if act.isChecked() != bool(on):
            act.setChecked(bool(on))
            return False
        return True

    def set_fog(self, on: bool) -> None:
        self.settings.fog = bool(on)
        if self._ticked(self.act_fog, on) and self.players_window is not None:
            self.players_window.view.set_fog(on)

    def set_fog_dim(self, on: bool) -> None:
        self.settings.fog_dim = bool(on)
        if self._ticked(self.act_fog_dim, on) and self.players_window is not None:
            self.players_window.view.set_fog_dim(on)

    def set_remember(self, on: bool) -> None:
        self.settings.remember_seen = bool(on)
        if self._ticked(self.act_remember, on) and self.players_window is not None:
            self.players_window.view.set_remember(on)

    def forget(self) -> None:
        if self.players_window is not None:
            self.players_window.view.forget()
        else:
            self.remembered.forget()

    def set_names(self, on: bool) -> None:
        self.settings.names = bool(on)
        if self._ticked(self.act_names, on):
            self._restyle()

    def set_conditions(self, who: str) -> None:
        self.settings.conditions = who
        a = self.condition_actions[who]
        if not a.isChecked():
            a.setChecked(True)
        self._restyle()

    def _restyle(self) -> None:
        if self.players_window is not None:
            self.players_window.view.set_look(self._look())

    def set_camera(self, mode: str) -> None:
        """The Judge's camera choice (remembered)."""
        self.settings.camera = mode
        a = self.camera_actions[mode]
        if not a.isChecked():
            a.setChecked(True)
        if self.players_window is not None:
            self.players_window.view.set_camera(mode)

    def _camera_changed(self, mode: str) -> None:
        # the focus push locks the camera: show it in the menu (not remembered)
        a = self.camera_actions.get(mode)
        if a is not None and not a.isChecked():
            a.setChecked(True)

    # -- the TV on the table -------------------------------------------------------------------

    def set_miniature(self, on: bool) -> None:
        """Miniature scale on or off (remembered)."""
        self.settings.miniature = bool(on)
        if self._ticked(self.act_miniature, on):
            self._apply_miniature()

    def place(self) -> None:
        """Put the window on its display (:class:`.displays.PlayersDisplays`), then
        miniature scale as it comes out there (on by itself on a TV at the table)."""
        super().place()
        self._apply_miniature()

    def on_a_tv(self) -> bool:
        """Whether the players' screen is full screen on a display other than the
        Judge's (a TV or projector at the table)."""
        pw = self.players_window
        if pw is None or not pw.windowState() & Qt.WindowState.WindowFullScreen:
            return False
        mine, theirs = self.main.screen(), pw.screen()
        return theirs is not None and (mine is None or screen_id(mine) != screen_id(theirs))

    def _apply_miniature(self, *_args) -> None:
        pw = self.players_window
        if pw is None:
            return
        if self.settings.miniature is None:  # never chosen: on for a TV at the table
            on = self.on_a_tv()
            if self.act_miniature.isChecked() != on:
                self.act_miniature.blockSignals(True)
                self.act_miniature.setChecked(on)
                self.act_miniature.blockSignals(False)
        if not self.act_miniature.isChecked():
            pw.view.set_miniature(None)
            return
        ppi = display_ppi(pw.screen(), self.settings.diagonal)
        if ppi is None and not self.settings.diagonal_asked:
            # the display does not report its size: its diagonal, asked once
            self.settings.diagonal_asked = True
            QTimer.singleShot(0, self.edit_miniature)
        if ppi is None:
            pw.view.set_miniature(None)
            self._say(
                "The players' display does not report its size: type its diagonal in "
                "Miniature scale settings."
            )
            return
        pw.view.set_miniature(ppi, self.settings.hex_inches)

    def edit_miniature(self) -> bool:
        """The hex size and the display's diagonal (a dialog); True when changed."""
        pw = self.players_window
        screen = pw.screen() if pw is not None else (self.chosen_screen() or self.other_display())
        dlg = MiniatureDialog(self.settings, screen or QGuiApplication.primaryScreen(), self.main)
        if dlg.exec() != MiniatureDialog.DialogCode.Accepted:
            return False
        self._apply_miniature()
        return True

    def set_blackout(self, on: bool) -> None:
        """Blank the players' screen (on) or show the table again (off)."""
        if self._ticked(self.act_blackout, on) and self.players_window is not None:
            self.players_window.set_blackout(bool(on))
            self._say("Players' screen blacked out." if on else "Players' screen shows the table.")

    def ping_heard(self) -> bool:
        """Whether a ping reaches anyone: the players' screen is open or the
        players' devices are served."""
        devices = getattr(self.main, "devices", None)
        return self.players_window is not None or bool(getattr(devices, "running", False))

    def ping_under_mouse(self) -> bool:
        """Ring the hex under the mouse on the players' screen (P)."""
        if not self.ping_heard():
            self._say("Open the players' screen (F12) first: nobody would see the ring.")
            return False
        h = self.main.map_view.hovered_hex()
        if h is None:
            self._say(f"Point at a hex on the map, then press {PING_KEY} to ring it.")
            return False
        return self.ping(h)

    def ping(self, h: Hex) -> bool:
        """Ring the hex ``h`` on the players' screen for a moment (the Judge's
        Alt+click)."""
        doc = self.main.document
        if not doc.map.contains(h):
            return False
        doc.show_players("ping", h)
        return True

    def move_tv_by(self, dx: float, dy: float) -> None:
        """Move the TV's view by (dx, dy) scene units (the Judge drags the frame)."""
        pw = self.players_window
        if pw is None:
            return
        c = pw.view.hand_centre()
        pw.view.pan_to(QPointF(c.x() + dx, c.y() + dy))

    def move_tv_hexes(self, cols: int, rows: int) -> None:
        """Move the TV's view by whole hexes: ``cols`` columns and ``rows`` rows
        (Alt+arrow: one), and remember where it is."""
        pw = self.players_window
        if pw is None or pw.view.map_scene is None:
            return
        fr = pw.view.map_scene.frame
        across, down = fr.hex_width, 1.5 * fr.unit  # pointy-top: columns and rows
        if fr.orientation == Orientation.FLAT:
            across, down = 1.5 * fr.unit, fr.unit * SQRT3
        self.move_tv_by(cols * across, rows * down)
        self.remember_tv_centre()

    def remember_tv_centre(self) -> None:
        """Keep where the Judge put the TV's view (map units), for the next opening."""
        pw = self.players_window
        if pw is None or pw.view.map_scene is None:
            return
        c, u = pw.view.hand_centre(), pw.view.map_scene.frame.unit
        self.settings.tv_centre = (c.x() / u, c.y() / u)
        self.settings.camera = "lock"  # put by hand: it stays there next time

    def _restore_tv_centre(self) -> None:
        """A locked camera goes back where the Judge last put it by hand (when that
        is on this map)."""
        pw = self.players_window
        xy = self.settings.tv_centre
        if pw is None or xy is None or pw.view.camera != "lock" or pw.view.map_scene is None:
            return
        fr = pw.view.map_scene.frame
        p = QPointF(xy[0] * fr.unit, xy[1] * fr.unit)
        if fr.bounds().contains(p):
            pw.view.centerOn(p)
