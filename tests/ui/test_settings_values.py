"""Every value read from the settings is checked and clamped (issue 28): a settings
file edited by hand, or written by a broken build, never makes a dialog raise."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QSettings

from twtw_desktop.model import Map
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.files import export as ex
from twtw_desktop.ui.files.export_dialog import ExportDialog, load_options


@pytest.mark.parametrize("dpi", ["nan", "inf", "-inf", "1e308", "-5", "banana", ""])
def test_export_dpi_from_the_settings_is_clamped(qtbot, tmp_path, dpi):
    q = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    q.setValue("export/dpi", dpi)
    q.setValue("export/custom_mm", dpi)
    opts = load_options(q, Map.blank(5, 5))
    for key, lo, hi in (
        ("dpi", ex.MIN_PNG_DPI, ex.MAX_PNG_DPI),
        ("custom_mm", ex.MIN_HEX_MM, ex.MAX_HEX_MM),
    ):
        assert math.isfinite(opts[key]) and lo <= opts[key] <= hi
    dialog = ExportDialog(Map.blank(5, 5), opts, str(tmp_path / "map.pdf"))
    qtbot.addWidget(dialog)
    dialog.set_options(opts)  # never raises


@pytest.mark.parametrize("raw", ["nan", "inf", "1e308", "-1e308", "x"])
def test_preferences_from_the_settings_are_clamped(tmp_path, raw):
    q = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    for key in ("prefs/interface_scale", "prefs/autosave_minutes"):
        q.setValue(key, raw)
    s = AppSettings(q)
    assert 0.75 <= s.interface_scale() <= 2.0
    assert 0 <= s.autosave_minutes() <= 120
