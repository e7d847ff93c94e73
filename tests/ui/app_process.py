"""Run a script of the app in its own process, as a person would launch it: Qt's
offscreen platform (with the screens given, e.g. a 1366×768 laptop and a TV), and
its own settings, data and home folders under the test's temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def screen(name: str, x: int, width: int, height: int) -> dict:
    """One display of the offscreen platform's layout, left to right at ``x``."""
    return {
        "name": name,
        "x": x,
        "y": 0,
        "width": width,
        "height": height,
        "logicalDpi": 96,
        "logicalBaseDpi": 96,
        "dpr": 1,
    }


def run_script(
    tmp_path: Path,
    script: str,
    *args: str,
    screens: list[dict] | None = None,
    timeout: float = 180,
) -> subprocess.CompletedProcess:
    """Run ``script`` (Python source) with ``tmp_path`` and ``args`` as its
    arguments; returns the finished process (stdout and stderr as text)."""
    platform = "offscreen"
    if screens:
        config = tmp_path / "screens.json"
        config.write_text(json.dumps({"screens": screens}))
        platform += f":configfile={config}"
    path = tmp_path / "app_script.py"
    path.write_text(script)
    env = dict(os.environ)
    env["QT_QPA_PLATFORM"] = platform
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["TWTW_DATA_DIR"] = str(tmp_path / "app-data")
    env["HOME"] = str(tmp_path / "home")
    env.pop("TWTW_BLOCK_QT", None)
    return subprocess.run(
        [sys.executable, str(path), str(tmp_path), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
