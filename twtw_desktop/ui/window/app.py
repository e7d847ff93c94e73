"""Start the Judge's window: ``python -m twtw_desktop.ui.window.app [FILE]``.

Without a file the last encounter reopens — the file last opened or saved, or the
sample an untitled fight was copied from — and its recovery is offered when its
session journal holds steps newer than the file (the app was killed). On the very
first launch (nothing to reopen) the bundled sample encounter opens (a Western
street, the posse against the Laroq gang), so a newcomer sees a working scene at
once. A file that
cannot be opened gets a dialog with the reason — never a traceback — and the window
opens anyway. An unexpected error while playing is shown in a dialog (short message,
details on request) and logged; the window stays up.
"""

from __future__ import annotations

import gc
import logging
import sys
import time
import traceback
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from ...errors import LoadError
from ...resources import maps_dir, resource_path
from ..core import settings as app_settings

log = logging.getLogger("twtw_desktop")
#: the windows the app opened (a reference kept for the life of the app)
_windows: list[object] = []

SAMPLE_ENCOUNTER = "main_street.encounter.json"


def sample_path() -> Path:
    return maps_dir() / SAMPLE_ENCOUNTER


def last_encounter(settings) -> Path | None:
    """The encounter a launch without a file reopens (None: the first launch, or its
    file is gone)."""
    from .window_files import LAST_ENCOUNTER_KEY

    last = settings.q.value(LAST_ENCOUNTER_KEY)
    if not last:
        return None
    p = Path(str(last))
    return p if p.is_file() else None


def _show_exception(exc_type, exc, tb, parent=None) -> None:
    """The dialog for an unexpected error: one line, the traceback under Details."""
    details = "".join(traceback.format_exception(exc_type, exc, tb))
    log.error("unexpected error\n%s", details)
    if QApplication.instance() is None:
        return
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("Something went wrong")
    box.setText(
        f"That did not work: {exc}" if str(exc) else f"That did not work ({exc_type.__name__})."
    )
    box.setInformativeText("The encounter is as it was before. Undo is still available.")
    box.setDetailedText(details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.exec()


def install_excepthook() -> None:
    """Route unexpected exceptions to a dialog instead of ending the program."""
    busy = {"on": False}

    def hook(exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        if busy["on"]:  # an error inside the dialog: just log it
            log.error("error while reporting an error", exc_info=(exc_type, exc, tb))
            return
        busy["on"] = True
        try:
            _show_exception(exc_type, exc, tb, QApplication.activeWindow())
        finally:
            busy["on"] = False

    sys.excepthook = hook


def make_app(argv: list[str] | None = None) -> QApplication:
    running = QApplication.instance()
    app = (
        running
        if isinstance(running, QApplication)
        else QApplication(argv if argv is not None else sys.argv[:1])
    )
    app.setOrganizationName(app_settings.ORGANISATION)
    app.setApplicationName(app_settings.APPLICATION)
    app.setApplicationDisplayName(app_settings.APPLICATION)
    # title bar and task bar: the app icon in every size (packaging/make_icons.py);
    # the desktop file name lets a Wayland/X11 task bar match the installed entry
    icon = QIcon()
    for png in sorted(resource_path("icons").glob("app-*.png")):
        icon.addFile(str(png))
    app.setWindowIcon(icon)
    app.setDesktopFileName("twtw-desktop")
    # (every dialog as wide as its title: installed with the window's add-ons, after
    # the first frame, main_window.py; an application-wide filter in Python sees every
    # event, and the start-up's first frame is made of thousands)
    return app


def open_window(path: str | Path | None = None, *, show: bool = True):
    """Create the main window on ``path`` (else the last encounter, else the
    sample); errors become dialogs."""
    paused = show and _pause_collector()
    try:
        win = _open_window(path, show=show)
    except BaseException:
        if paused:
            gc.enable()
        raise
    if paused:
        _resume_collector_when_complete(win)
    return win


def _open_window(path: str | Path | None, *, show: bool):
    from ..core.document import EncounterDocument
    from .main_window import MainWindow
    from .window_files import is_bundled

    party = Path(path) if path and str(path).lower().endswith(".party.json") else None
    if party is not None:
        path = None  # a party double-clicked: the window opens, then offers the import
    settings = app_settings.AppSettings()
    last = None if path else last_encounter(settings)
    target = Path(path) if path else last or sample_path()
    why = "the file asked for" if path else "the last encounter" if last else "the first run"
    log.info("opening %s (%s)", target, why)
    problem: tuple[str, str] | None = None
    try:
        doc = EncounterDocument.open(target)
    except LoadError as e:
        doc = None
        if path or last is not None:
            # the Judge asked for this file (or had it open last): say why it did not
            # open, then offer the sample
            what = "the file" if path else "the last encounter"
            problem = (f"Cannot open {what}", str(e))
            try:
                doc = EncounterDocument.open(sample_path())
            except LoadError:
                doc = None
        else:
            problem = ("Cannot open the sample encounter", str(e))
    if doc is not None and doc.path is not None and is_bundled(doc.path):
        doc.make_untitled()
    # the window is built on the document at once (no blank encounter built and dropped);
    # a shown window gets its add-ons and panels just after its first frame: the map
    # comes first
    win = MainWindow(document=doc, settings=settings, complete_after_first_frame=show)
    if doc is not None and path and doc.path == target:
        win.settings.add_recent(target)
        win._fill_recent()
    if show:
        win.show()
        win.open_view()
    if problem is not None:
        win.show_error(*problem)
    if party is not None:
        QTimer.singleShot(0, win, lambda: win.open_path(party, ask=False))
    return win


def _pause_collector() -> bool:
    """No cyclic garbage collection while the window is built and first painted: its
    modules, the encounter's models and the window itself are thousands of
    long-lived objects and next to no garbage, and each collector pass over them
    would delay the first frame (as for the Qt-free layers' imports, ui/__init__.py).
    True if it was on (and is now paused)."""
    if not gc.isenabled():
        return False
    gc.disable()
    return True


def _resume_collector_when_complete(win) -> None:
    """The collector back on once ``win`` is complete (just after its first frame)
    or gone, whichever comes first."""
    resumed = [False]

    def resume(*_args) -> None:
        if not resumed[0]:
            resumed[0] = True
            gc.enable()

    if not win.incomplete:
        resume()
        return
    win.completed.connect(resume)
    win.destroyed.connect(resume)


def run_app(path: str | None = None) -> int:
    """Run the app on ``path`` (an encounter or a map) or the bundled sample."""
    # quiet unless the command line asked for more (twtw-desktop -v)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    t0 = time.perf_counter()
    app = make_app()
    install_excepthook()
    win = open_window(path)
    log.info("window shown in %.0f ms", (time.perf_counter() - t0) * 1000)
    _windows.append(win)  # kept for the life of the app
    return app.exec()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = next((a for a in args if not a.startswith("-")), None)
    from .display import display_problem

    problem = display_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return run_app(path)


if __name__ == "__main__":
    raise SystemExit(main())
