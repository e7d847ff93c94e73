"""What the players' screen remembers between runs, in the app's QSettings (the main
window's ``settings.q``) under ``players/``: the display it goes on, full screen,
its windowed geometry, the fog, the token drawing choices, the camera mode, the
miniature scale (on or off, the hex size in inches, the display's diagonal when the
display reports its size wrongly) and where the TV's view was last put by hand."""

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
KEY_MINIATURE = "players/miniature"
KEY_HEX_INCHES = "players/hex_inches"
KEY_DIAGONAL = "players/diagonal_inches"
KEY_DIAGONAL_ASKED = "players/diagonal_asked"
KEY_TV_CENTRE = "players/tv_centre"

#: a hex on the TV at miniature scale: one inch unless the Judge says otherwise
DEFAULT_HEX_INCHES = 1.0
HEX_INCHES_RANGE = (0.25, 4.0)
#: a typed display diagonal (inches); 0 trusts the size the display reports
DIAGONAL_RANGE = (5.0, 500.0)

AUDIENCES = ("none", "posse", "all")


def _bool(v, default: bool) -> bool:
    if v is None:
        return default
    if isinstance(v, str):
        return v.lower() in ("1", "true", "yes", "on")
    return bool(v)


def _float(v, default: float) -> float:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return default
    return f if f == f and abs(f) != float("inf") else default


def check_hex_inches(inches: float) -> float:
    """``inches`` as a hex size, or ValueError with a one-line reason."""
    lo, hi = HEX_INCHES_RANGE
    f = _float(inches, -1.0)
    if not lo <= f <= hi:
        raise ValueError(f"a hex on the TV is {lo:g} to {hi:g} inches across, not {inches!r}")
    return f


def check_diagonal(inches: float) -> float:
    """``inches`` as a display diagonal (0: trust the display), or ValueError."""
    lo, hi = DIAGONAL_RANGE
    f = _float(inches, -1.0)
    if f != 0 and not lo <= f <= hi:
        raise ValueError(
            f"a display's diagonal is {lo:g} to {hi:g} inches (0: as the display says), "
            f"not {inches!r}"
        )
    return f


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
        from .camera import CAMERA_MODES, DEFAULT_CAMERA

        v = str(self.q.value(KEY_CAMERA, DEFAULT_CAMERA) or DEFAULT_CAMERA)
        return v if v in CAMERA_MODES else DEFAULT_CAMERA

    @camera.setter
    def camera(self, mode: str) -> None:
        self._set(KEY_CAMERA, mode)

    #: hexes of a physical size on the TV, the zoom locked
    @property
    def miniature(self) -> bool | None:
        """Miniature scale as the Judge chose it; None while never chosen: then it is
        on when the players' screen is full screen on a display other than the
        Judge's (a TV on the table), off otherwise."""
        v = self.q.value(KEY_MINIATURE)
        return None if v is None else _bool(v, False)

    @miniature.setter
    def miniature(self, on: bool) -> None:
        self._set(KEY_MINIATURE, bool(on))

    #: the display's diagonal was asked for once (typed or not): never asked again
    diagonal_asked = _flag(KEY_DIAGONAL_ASKED, False)

    @property
    def hex_inches(self) -> float:
        """A hex's width across its flats on the TV at miniature scale (inches)."""
        v = _float(self.q.value(KEY_HEX_INCHES), DEFAULT_HEX_INCHES)
        lo, hi = HEX_INCHES_RANGE
        return v if lo <= v <= hi else DEFAULT_HEX_INCHES

    @hex_inches.setter
    def hex_inches(self, inches: float) -> None:
        self._set(KEY_HEX_INCHES, check_hex_inches(inches))

    @property
    def diagonal(self) -> float:
        """The players' display's diagonal as the Judge typed it (inches); 0 trusts
        the size the display reports."""
        v = _float(self.q.value(KEY_DIAGONAL), 0.0)
        lo, hi = DIAGONAL_RANGE
        return v if lo <= v <= hi else 0.0

    @diagonal.setter
    def diagonal(self, inches: float) -> None:
        self._set(KEY_DIAGONAL, check_diagonal(inches))

    @property
    def tv_centre(self) -> tuple[float, float] | None:
        """Where the Judge last put the TV's view by hand: its centre in map units
        (hex radius 1), or None."""
        v = self.q.value(KEY_TV_CENTRE)
        parts = v if isinstance(v, list) else str(v or "").split(",")
        if len(parts) != 2:
            return None
        x, y = (_float(p, float("nan")) for p in parts)
        return (x, y) if x == x and y == y else None

    @tv_centre.setter
    def tv_centre(self, xy: tuple[float, float] | None) -> None:
        self._set(KEY_TV_CENTRE, "" if xy is None else f"{xy[0]:.4f},{xy[1]:.4f}")
