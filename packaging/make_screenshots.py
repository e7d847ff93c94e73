"""Render the README's screenshot of the Judge's window from the app itself.

    python packaging/make_screenshots.py [OUT_DIR]     # default: packaging/screenshots

Runs the window on Qt's offscreen platform with one 1366×768 screen (a laptop) and
fresh settings, opens Main Street, declares action time, starts the round, selects
Miranda Valentine (her reachable area and field of fire on) and saves the window as
``main_window.png``. Run it again after changing what that window shows. (The
players' screen's picture, ``players_screen.png``, comes from the players' window on
a TV and is kept as it is.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.window.app import make_app, open_window

out = sys.argv[1]
app = make_app([])
win = open_window(None)


def go():
    win.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    QTest.qWait(300)
    win.act_action_time.trigger()
    QTest.qWait(100)
    win.docks["dock_track"].widget().start_button.click()
    QTest.qWait(100)
    doc = win.document
    miranda = next(t for t in doc.encounter.tokens if t.character_id == "miranda_valentine")
    doc.select(miranda.id)
    for name in ("reachable", "field_of_fire"):
        win.overlay_actions[name].setChecked(True)
    QTest.qWait(800)
    win.grab().save(out)
    import os
    os._exit(0)


QTimer.singleShot(1500, go)
QTimer.singleShot(60000, lambda: __import__("os")._exit(3))
app.exec()
"""


def main(out_dir: Path) -> int:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        screens = {
            "screens": [
                {"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768,
                 "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}
            ]
        }  # fmt: skip
        (t / "screens.json").write_text(json.dumps(screens))
        (t / "shot.py").write_text(SCRIPT)
        env = dict(os.environ)
        env["QT_QPA_PLATFORM"] = f"offscreen:configfile={t / 'screens.json'}"
        for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                         ("TWTW_DATA_DIR", "app-data"), ("HOME", "home")):  # fmt: skip
            env[var] = str(t / sub)
        out = out_dir / "main_window.png"
        run = subprocess.run([sys.executable, str(t / "shot.py"), str(out)], env=env, timeout=120)
        if run.returncode != 0:
            print(f"the window did not render (exit {run.returncode})", file=sys.stderr)
            return 1
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "packaging" / "screenshots"))
