"""Dialog titles fit (issue 27: "Session j… Desktop"): a message box with a short
text is as wide as its whole title."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from twtw_desktop.ui.app import make_app
from twtw_desktop.ui.dialog_titles import title_width


def test_a_short_message_box_is_as_wide_as_its_title(qtbot):
    make_app([])  # installs the filter
    box = QMessageBox(QMessageBox.Icon.Information, "Session journal", "Recovered 5 of 5 steps.")
    qtbot.addWidget(box)
    need = title_width(box)
    assert "Session journal" in box.windowTitle()
    box.show()
    qtbot.waitExposed(box)
    assert box.width() >= need
    box.close()
