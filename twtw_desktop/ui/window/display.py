"""Can a window open here? Checked before Qt starts (standard library only).

Qt aborts with its own plugin message when there is no display or when the X
libraries its xcb plugin needs are missing. :func:`display_problem` finds both cases
first so the app can say what to do in its own words and exit with status 1.
"""

from __future__ import annotations

import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping

#: shared libraries Qt's xcb plugin loads (find_library name → Debian package)
XCB_LIBRARIES: dict[str, str] = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
}


def display_problem(
    env: Mapping[str, str] | None = None,
    platform: str | None = None,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> str | None:
    """None when a window can open, else a message naming what to do."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    qpa = env.get("QT_QPA_PLATFORM", "")
    if qpa and not qpa.startswith("xcb"):
        return None  # offscreen, wayland, vnc…: the Judge chose; Qt knows what to do
    if not qpa and env.get("WAYLAND_DISPLAY"):
        return None
    if not env.get("DISPLAY"):
        return (
            "twtw-desktop: no display to open the window on (DISPLAY is not set).\n"
            "  Run it from a desktop session, or set DISPLAY (e.g. DISPLAY=:0).\n"
            "  Commands without a window work anywhere: summary, validate, export, bench;\n"
            "  to run the window headless anyway set QT_QPA_PLATFORM=offscreen."
        )
    missing = [pkg for lib, pkg in XCB_LIBRARIES.items() if not find_library(lib)]
    if missing:
        return (
            "twtw-desktop: the X libraries the window needs are not installed.\n"
            f"  Install them with: sudo apt-get install {' '.join(missing)}\n"
            "  (or use QT_QPA_PLATFORM=offscreen for headless commands)."
        )
    return None
