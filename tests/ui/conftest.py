"""UI tests need PySide6; they are skipped when Qt is blocked or missing."""

import pytest

pytest.importorskip("PySide6.QtWidgets")


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path, monkeypatch):
    """Each test keeps the app's data (untitled journals) and its default settings
    in its own folders: no test reopens the encounter another one left as the last
    (a launch without a file reopens it) or reads another's recent files."""
    from twtw_desktop.ui.core.settings import use_ini_folder

    monkeypatch.setenv("TWTW_DATA_DIR", str(tmp_path / "app-data"))
    use_ini_folder(tmp_path / "default-settings")


def fresh_window(qtbot, tmp_path, monkeypatch, *, size=(1366, 768), show: bool = True):
    """A main window with its own settings file, "Discard" answered to questions, shown
    at a laptop's size (the window tests' shared start)."""
    import uuid

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMessageBox

    from twtw_desktop.ui.core.settings import AppSettings
    from twtw_desktop.ui.window.main_window import MainWindow

    ini = QSettings(str(tmp_path / f"s-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    if show:
        win.resize(*size)
        win.show()
        qtbot.waitExposed(win)
    return win
