"""The window, played and saved by a fixed script, for the fault test to kill at a
random instant (``python -m tests.ui.fault_worker FOLDER``).

After each step the state's fingerprint hash is appended, fsynced, to
``FOLDER/shown.txt`` ("k hash"): the last state the Judge saw. ``FOLDER/ready`` appears
once the window is open and journaling."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

HANK = "token-hank_daggett"


def state_hash(doc) -> str:
    data = json.dumps(doc.table.state_fingerprint(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()


def steps():
    """The fixed session: play, saves, undos and redos across the saves."""
    from twtw_desktop.play.actions import EndSegment, Place, StartActionTime, StartRound

    def do(action):
        return lambda win: win.document.apply(action)

    def undo(win):
        win.document.undo_stack.undo()

    def redo(win):
        win.document.undo_stack.redo()

    def save(win):
        assert win.save()

    return [
        do(Place(who=HANK, to=[21, 16])),
        do(StartActionTime()),
        save,
        undo,  # across the save
        undo,
        redo,
        do(StartActionTime()),
        do(StartRound()),
        save,
        do(EndSegment()),
        do(EndSegment()),
        save,
        undo,
        save,
        undo,  # across two saves
        redo,
        do(EndSegment()),
        do(Place(who=HANK, to=[20, 16])),
        save,
        undo,
        undo,
        do(EndSegment()),
        save,
    ]


def main(folder: str) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QMessageBox

    from twtw_desktop.ui.core.settings import AppSettings, use_ini_folder
    from twtw_desktop.ui.window.main_window import MainWindow

    out = Path(folder)
    use_ini_folder(out / "settings")
    app = QApplication.instance() or QApplication([])
    app.setApplicationName("twtw-fault")
    QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes)
    QMessageBox.information = staticmethod(lambda *a, **k: None)
    win = MainWindow(settings=AppSettings())
    assert win.open_path(out / "main_street.encounter.json", ask=False)
    pause = float(os.environ.get("TWTW_FAULT_PAUSE", "0.01"))
    with open(out / "shown.txt", "a", encoding="utf-8") as shown:

        def say(k: int) -> None:
            shown.write(f"{k} {state_hash(win.document)}\n")
            shown.flush()
            os.fsync(shown.fileno())

        say(-1)
        (out / "ready").write_text("")
        stop = int(os.environ.get("TWTW_FAULT_STOP", "-2"))
        for k, step in enumerate(steps()):
            step(win)
            say(k)
            if k == stop:
                os._exit(0)  # killed right after step k was shown
            time.sleep(pause)
    (out / "done").write_text("")
    win.document.undo_stack.setClean()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
