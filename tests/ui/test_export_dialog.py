"""File > Export Map… on the real main window: the menu entry, the dialog's choices
and page-count preview, remembered choices, and errors shown instead of raised."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog

pdfium = pytest.importorskip("pypdfium2")

from twtw_desktop.model import Encounter, Map  # noqa: E402
from twtw_desktop.ui import export as ex  # noqa: E402
from twtw_desktop.ui.document import EncounterDocument  # noqa: E402
from twtw_desktop.ui.export_dialog import (  # noqa: E402
    ExportDialog,
    install_export,
    load_options,
    scale_of,
)
from twtw_desktop.ui.main_window import MainWindow  # noqa: E402
from twtw_desktop.ui.settings import AppSettings  # noqa: E402


def _doc(name: str = "Dry Gulch", cols: int = 20, rows: int = 12) -> EncounterDocument:
    return EncounterDocument(Encounter(map=Map.blank(cols, rows, name=name)))


@pytest.fixture
def window(qtbot, tmp_path):
    settings = AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    win = MainWindow(document=_doc(), settings=settings)
    qtbot.addWidget(win)
    return win


@pytest.fixture
def ctl(window):
    return getattr(window, "export", None) or install_export(window)


@pytest.fixture
def errors(window, monkeypatch):
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "show_error", lambda title, text: shown.append((title, text)))
    return shown


def _pdf_pages(path) -> int:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def test_menu_entry_sits_in_the_file_menu_with_shortcut_and_tooltip(window, ctl):
    actions = window.file_menu.actions()
    i = actions.index(ctl.action)
    assert actions[i + 1] is window.file_menu_tail
    assert ctl.action.shortcut().toString() == "Ctrl+Shift+E"
    assert "PDF" in ctl.action.toolTip() and "Ctrl+Shift+E" in ctl.action.toolTip()
    assert ctl.action.isEnabled()


def test_preview_counts_pages_and_follows_the_choices(window, ctl, tmp_path):
    dlg = ctl.make_dialog()
    dlg.path.setText(str(tmp_path / "x.pdf"))
    dlg.set_options({**dlg.options(), "scale": "1in", "paper": "letter", "orientation": "auto"})
    plan = ex.plan_pages(window.document.map, scale="1in", paper="letter")
    assert plan.pages > 1
    assert f"{plan.pages} pages ({plan.rows} × {plan.cols})" in dlg.preview.text()
    assert dlg.ok.isEnabled()
    # a smaller custom scale needs fewer pages
    dlg.scale.setCurrentIndex(dlg.scale.findData("custom"))
    assert dlg.custom.isEnabled()
    dlg.custom.setValue(10.0)
    small = ex.plan_pages(window.document.map, scale=10.0, paper="letter")
    assert small.pages < plan.pages
    assert f"{small.pages} page" in dlg.preview.text()
    # PNG: the resolution matters, the paper does not; the file name follows
    dlg.format.setCurrentIndex(dlg.format.findData("png"))
    assert dlg.path.text().endswith("x.png")
    assert not dlg.paper.isVisibleTo(dlg) and dlg.dpi.isVisibleTo(dlg)
    w, h = ex.png_size(window.document.map, scale=10.0, dpi=dlg.dpi.value())
    assert f"{w} × {h} pixels" in dlg.preview.text()
    # too large a picture: said in the preview, Export disabled
    dlg.scale.setCurrentIndex(dlg.scale.findData("1in"))
    dlg.dpi.setValue(1200)
    assert "too large" in dlg.preview.text() and not dlg.ok.isEnabled()
    # no file name: Export disabled
    dlg.dpi.setValue(100)
    dlg.path.setText("")
    assert not dlg.ok.isEnabled()


def test_export_through_the_dialog_writes_and_remembers(window, ctl, tmp_path, monkeypatch):
    out = tmp_path / "gulch.pdf"

    def fill(dlg: ExportDialog) -> int:
        dlg.format.setCurrentIndex(dlg.format.findData("pdf"))
        dlg.scale.setCurrentIndex(dlg.scale.findData("25mm"))
        dlg.paper.setCurrentIndex(dlg.paper.findData("a4"))
        dlg.orientation.setCurrentIndex(dlg.orientation.findData("portrait"))
        dlg.coordinates.setChecked(False)
        dlg.judge.setChecked(True)
        dlg.path.setText(str(out))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fill)
    result = ctl.open_dialog()
    assert result is not None and out.is_file()
    plan = ex.plan_pages(window.document.map, scale="25mm", paper="a4", orientation="portrait")
    assert result.pages == plan.pages == _pdf_pages(out)
    assert "Wrote" in window.statusBar().currentMessage()
    # the choices are remembered
    opts = load_options(window.settings.q, window.document.map)
    assert opts["scale"] == "25mm" and opts["paper"] == "a4"
    assert opts["orientation"] == "portrait"
    assert opts["coordinates"] is False and opts["judge_layers"] is True
    dlg = ctl.make_dialog()
    assert dlg.scale.currentData() == "25mm" and dlg.paper.currentData() == "a4"
    assert not dlg.coordinates.isChecked() and dlg.judge.isChecked()
    assert dlg.path.text() == str(tmp_path / "Dry_Gulch.pdf")


def test_cancel_writes_nothing(window, ctl, tmp_path, monkeypatch):
    opened = []

    def cancel(dlg):
        opened.append(dlg)
        return QDialog.DialogCode.Rejected

    monkeypatch.setattr(ExportDialog, "exec", cancel)
    ctl.action.trigger()
    assert len(opened) == 1
    assert ctl.open_dialog() is None
    assert list(tmp_path.glob("*.pdf")) == []


def test_a_refused_export_shows_the_reason_and_writes_nothing(window, ctl, tmp_path, errors):
    opts = load_options(window.settings.q, window.document.map)
    bad = tmp_path / "no such folder" / "map.pdf"
    assert ctl.run(opts, str(bad)) is None
    assert errors and "does not exist" in errors[0][1] and "map.pdf" in errors[0][1]
    assert not bad.parent.exists()
    assert ctl.run({**opts, "format": "png"}, str(tmp_path / "map.pdf")) is None
    assert "must end in .png" in errors[1][1]
    assert list(tmp_path.iterdir()) == [tmp_path / "settings.ini"]


def test_follows_the_window_document(window, ctl, tmp_path):
    window.set_document(_doc("Second Map", 6, 5))
    opts = {**load_options(window.settings.q, window.document.map), "format": "png", "dpi": 40}
    result = ctl.run(opts, str(tmp_path / "second.png"))
    assert result is not None
    assert (result.width_px, result.height_px) == ex.png_size(
        window.document.map, scale=scale_of(opts), dpi=40
    )
    assert ctl.make_dialog().path.text() == str(tmp_path / "Second_Map.png")


def test_a_long_export_shows_progress_and_can_be_cancelled(
    window, ctl, tmp_path, errors, monkeypatch
):
    from PySide6.QtWidgets import QProgressDialog

    from twtw_desktop.ui import export_dialog

    window.set_document(_doc("Big Town", 40, 30))
    opts = {**load_options(window.settings.q, window.document.map), "scale": "1in"}
    opts.update(paper="letter", orientation="auto", format="pdf")
    assert ex.plan_pages(window.document.map, scale="1in").pages >= export_dialog.PROGRESS_MIN_PAGES
    values: list[int] = []
    monkeypatch.setattr(QProgressDialog, "setValue", lambda bar, v: values.append(v))
    monkeypatch.setattr(QProgressDialog, "wasCanceled", lambda bar: len(values) >= 3)
    out = tmp_path / "big.pdf"
    assert ctl.run(opts, str(out)) is None
    assert values == [0, 1, 2]
    assert not errors, "cancelling is not an error"
    assert "cancelled" in window.statusBar().currentMessage()
    assert list(tmp_path.glob("*.pdf")) == [] and list(tmp_path.glob(".*")) == []
