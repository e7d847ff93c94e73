"""Toolbar icons: every bundled SVG loads, and the toolbars' buttons carry them."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from twtw_desktop.resources import resource_path
from twtw_desktop.ui.core.icons import icon
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.window.main_window import MainWindow


def test_every_bundled_icon_renders(qapp):
    names = sorted(p.stem for p in resource_path("icons").glob("*.svg"))
    assert len(names) >= 20
    for n in names:
        pm = icon(n).pixmap(24, 24)
        assert not pm.isNull(), n
        img = pm.toImage()
        # something was drawn (not a fully transparent square)
        assert any(img.pixelColor(x, y).alpha() > 0 for x in range(24) for y in range(24)), n


def test_toolbar_actions_have_icons(qtbot, tmp_path):
    win = MainWindow(settings=AppSettings(QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat)))
    qtbot.addWidget(win)
    for tb in (win.tools_toolbar, win.time_toolbar, win.file_toolbar):
        for a in tb.actions():
            if a.isSeparator():
                continue
            assert not a.icon().isNull(), a.objectName()
    assert icon("no_such_icon").isNull()
