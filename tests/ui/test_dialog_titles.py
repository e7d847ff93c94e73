"""Dialog titles fit (issue 27: "Session j… Desktop"): a message box with a short
text is as wide as its whole title."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from twtw_desktop.ui.window.app import make_app
from twtw_desktop.ui.window.dialog_titles import _filters, install_title_fit, title_width


def test_a_short_message_box_is_as_wide_as_its_title(qtbot):
    install_title_fit()  # (the window installs it with its add-ons)
    box = QMessageBox(QMessageBox.Icon.Information, "Session journal", "Recovered 5 of 5 steps.")
    qtbot.addWidget(box)
    need = title_width(box)
    assert "Session journal" in box.windowTitle()
    box.show()
    qtbot.waitExposed(box)
    assert box.width() >= need
    box.close()


def test_the_window_installs_the_filter_with_its_add_ons(qtbot, tmp_path, monkeypatch):
    """Not make_app: an application-wide filter sees every event of the start-up's
    first frame; the window installs it with its add-ons, just after."""
    from PySide6.QtWidgets import QApplication

    from .conftest import fresh_window

    app = make_app([])
    old = _filters.pop(id(QApplication.instance()), None)
    if old is not None:  # (an earlier test's window installed it)
        app.removeEventFilter(old)
    fresh_window(qtbot, tmp_path, monkeypatch)
    assert id(app) in _filters
