"""The players' screen: a second window for a projector or a second monitor showing
only what the posse may see of the live encounter (issue 8).

``install_players_screen(window)`` adds it to the Judge's window (View > Players'
screen, F12; View > Players' screen options; the "Players' screen" toolbar) and
returns the :class:`PlayersController`, also kept as ``window.players_screen``.
"""

from __future__ import annotations

from ...play.fog import FogOfWar
from ...play.visibility import posse_viewers
from .camera import CAMERA_MODES
from .controller import PlayersController
from .strip import PublicTrack, public_track
from .view import PlayersView
from .window import PlayersWindow


def install_players_screen(window) -> PlayersController:
    """Add the players' screen to a main window (once; a second call returns the
    same controller)."""
    ctl = getattr(window, "players_screen", None)
    if isinstance(ctl, PlayersController):
        return ctl
    ctl = PlayersController(window)
    window.players_screen = ctl
    return ctl


__all__ = [
    "CAMERA_MODES",
    "FogOfWar",
    "PlayersController",
    "PlayersView",
    "PlayersWindow",
    "PublicTrack",
    "install_players_screen",
    "posse_viewers",
    "public_track",
]
