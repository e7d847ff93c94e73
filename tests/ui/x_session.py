"""The installed ``twtw-desktop`` command run as a person runs it: on an X server
(Xvfb, 1366×768) with real key presses (xdotool), its own home, settings and data
folders, killed with SIGKILL or quit with Ctrl+Q. Nothing in the app is replaced:
the process takes the user's path from ``main()`` on; what it did is read from its
``-v`` log, its journal and settings files, and the X windows it shows."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

#: the command the package installs (pyproject's [project.scripts])
COMMAND = Path(sys.executable).parent / "twtw-desktop"


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """An Xvfb server on a free display: (its process, ``:N``); skips without it."""
    missing = [t for t in ("Xvfb", "xdotool") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"needs {' and '.join(missing)} (apt-get install xvfb xdotool)")
    r, w = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as f:
        while not number.endswith(b"\n"):
            ch = f.read(1)
            if not ch:
                break
            number += ch
    if not number.strip():
        proc.kill()
        pytest.skip("Xvfb did not start")
    return proc, f":{number.decode().strip()}"


def xserver() -> Iterator[str]:
    """A module fixture's body: the display, the server stopped afterwards."""
    proc, display = start_xvfb()
    try:
        yield display
    finally:
        proc.terminate()
        proc.wait(10)


def wait_for(what: str, check, timeout: float = 30.0):
    """Poll ``check()`` until it gives something true; fail naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


class User:
    """One user's machine: a home folder and the display; runs the command."""

    def __init__(self, display: str, home: Path) -> None:
        self.display = display
        self.home = home
        home.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "TWTW_"))}
        env.update(
            DISPLAY=display,
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            XDG_CACHE_HOME=str(home / ".cache"),
        )
        env.pop("WAYLAND_DISPLAY", None)
        self.env = env
        self.runs = 0

    def settings_file(self) -> Path:
        return self.home / ".config" / "TWTW" / "TWTW Desktop.conf"

    def setting(self, key: str) -> str | None:
        """A value of the app's settings file (``section/key``)."""
        section, name = key.split("/", 1)
        try:
            text = self.settings_file().read_text()
        except OSError:
            return None
        part = re.search(rf"^\[{re.escape(section)}\]\n(.*?)(?:^\[|\Z)", text, re.M | re.S)
        if part is None:
            return None
        m = re.search(rf"^{re.escape(name)}=(.*)$", part.group(1), re.M)
        return m.group(1) if m else None

    def data_dir(self) -> Path:
        return self.home / ".local" / "share" / "TWTW" / "TWTW Desktop"

    def launch(self, *args: str) -> App:
        assert COMMAND.is_file(), f"the installed command {COMMAND} is missing"
        self.runs += 1
        log = self.home.parent / f"run{self.runs}.log"
        return App(self, [str(COMMAND), "-v", *args], log)

    def xdotool(self, *args: str) -> str:
        r = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=30
        )
        return r.stdout.strip()


class App:
    """One run of the command."""

    def __init__(self, user: User, argv: list[str], log: Path) -> None:
        self.user = user
        self.log = log
        self._out = log.open("w")
        self.proc = subprocess.Popen(
            argv, env=user.env, cwd=user.home, stdout=self._out, stderr=subprocess.STDOUT
        )

    def text(self) -> str:
        return self.log.read_text()

    def wait_log(self, pattern: str, timeout: float = 60.0) -> re.Match:
        def found():
            self._alive()
            return re.search(pattern, self.text())

        return wait_for(f"{pattern!r} in the log of {self.log.name}", found, timeout)

    def _alive(self) -> None:
        if self.proc.poll() is not None:
            raise AssertionError(f"the app ended ({self.proc.returncode}):\n{self.text()}")

    def window(self, pattern: str, timeout: float = 60.0) -> str:
        """The id of this app's visible window whose title matches ``pattern``."""

        def found():
            self._alive()
            out = self.user.xdotool(
                "search", "--all", "--onlyvisible", "--pid", str(self.proc.pid), "--name", pattern
            )
            return out.split()[0] if out else None

        wid = wait_for(f"a window named {pattern!r}", found, timeout)
        time.sleep(1.0)  # mapped is not yet taking keys: a person too looks first
        return wid

    def title(self, wid: str) -> str:
        return self.user.xdotool("getwindowname", wid)

    def keys(self, wid: str, *keys: str) -> None:
        """Key presses into the window ``wid`` (given the keyboard focus first)."""
        self.user.xdotool("windowfocus", "--sync", wid)
        time.sleep(0.3)
        for k in keys:
            self.user.xdotool("key", "--clearmodifiers", k)
            time.sleep(0.3)

    def type(self, wid: str, text: str) -> None:
        self.user.xdotool("windowfocus", "--sync", wid)
        self.user.xdotool("type", "--delay", "20", text)

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._out.close()

    def wait_exit(self, timeout: float = 30.0) -> int:
        code = self.proc.wait(timeout)
        self._out.close()
        return code

    def stop(self) -> None:
        """The end of a test: a run still going is killed."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        if not self._out.closed:
            self._out.close()
