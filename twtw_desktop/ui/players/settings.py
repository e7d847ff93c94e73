"""What the players' screen remembers between runs, in the app's QSettings (the main
window's ``settings.q``) under ``players/``: the display it goes on, full screen,
its windowed geometry, the fog, the token drawing choices and the camera mode."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

KEY_SCREEN = "players/screen"
KEY_FULLSCREEN = "players/fullscreen"
KEY_GEOMETRY = "players/geometry"
KEY_FOG = "players/fog"
KEY_REMEMBER = "players/remember_seen"
KEY_CONDITIONS = "players/conditions"
KEY_NAMES = "players/names"
KEY_CAMERA = "players/camera"
KEY_FOG_DIM = "players/fog_dim"

AUDIENCES = ("none", "posse", "all")


def _bool(v, default: bool) -> bool:
    if v is None:
        return default
    if isinstance(v, str):
        return v.lower() in ("1", "true", "yes", "on")
    return bool(v)


def _flag(key: str, default: bool) -> property:
    """A yes/no setting under ``key``, ``default`` until it is set."""
    return property(
        lambda self: _bool(self.q.value(key), default),
        lambda self, on: self._set(key, bool(on)),
    )


class PlayersSettings:
    """Typed access to the ``players/`` keys."""

    def __init__(self, q: QSettings) -> None:
        self.q = q

    def _set(self, key: str, value) -> None:
        self.q.setValue(key, value)
        self.q.sync()

    @property
    def screen_name(self) -> str:
        return str(self.q.value(KEY_SCREEN, "") or "")

    @screen_name.setter
    def screen_name(self, name: str) -> None:
        self._set(KEY_SCREEN, name or "")

    fullscreen = _flag(KEY_FULLSCREEN, False)

    @property
    def geometry(self) -> QByteArray | None:
        v = self.q.value(KEY_GEOMETRY)
        return v if isinstance(v, QByteArray) and not v.isEmpty() else None

    @geometry.setter
    def geometry(self, geo: QByteArray) -> None:
        self._set(KEY_GEOMETRY, geo)

    fog = _flag(KEY_FOG, False)

    remember_seen = _flag(KEY_REMEMBER, True)

    #: never-seen areas dimmed rather than covered (off: opaque, the default)
    fog_dim = _flag(KEY_FOG_DIM, False)

    @property
    def conditions(self) -> str:
        v = str(self.q.value(KEY_CONDITIONS, "posse") or "posse")
        return v if v in AUDIENCES else "posse"

    @conditions.setter
    def conditions(self, who: str) -> None:
        if who not in AUDIENCES:
            raise ValueError(f"conditions are shown to one of {AUDIENCES}, not {who!r}")
        self._set(KEY_CONDITIONS, who)

    names = _flag(KEY_NAMES, True)

    @property
    def camera(self) -> str:
        from .view import CAMERA_MODES, DEFAULT_CAMERA

        v = str(self.q.value(KEY_CAMERA, DEFAULT_CAMERA) or DEFAULT_CAMERA)
        return v if v in CAMERA_MODES else DEFAULT_CAMERA

    @camera.setter
    def camera(self, mode: str) -> None:
        self._set(KEY_CAMERA, mode)
