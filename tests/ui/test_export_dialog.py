"""File > Export Map… on the real main window: the menu entry, the dialog's choices
and page-count preview, remembered choices, and errors shown instead of raised."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialog

pdfium = pytest.importorskip("pypdfium2")

from twtw_desktop.model import Encounter, Map  # noqa: E402
from twtw_desktop.ui.core.document import EncounterDocument  # noqa: E402
from twtw_desktop.ui.core.settings import AppSettings  # noqa: E402
from twtw_desktop.ui.files import export as ex  # noqa: E402
from twtw_desktop.ui.files import export_dialog  # noqa: E402
from twtw_desktop.ui.files.export_dialog import (  # noqa: E402
    ExportDialog,
    install_export,
    load_options,
    scale_of,
)
from twtw_desktop.ui.window.main_window import MainWindow  # noqa: E402


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


# --- the print preview -------------------------------------------------------------------


def _same(a, b) -> bool:
    return all(
        abs(x - y) < 1e-6
        for x, y in zip(
            (a.x(), a.y(), a.width(), a.height()),
            (b.x(), b.y(), b.width(), b.height()),
            strict=True,
        )
    )


def test_preview_pages_match_plan_pages_for_two_scales(window, ctl, qtbot):
    dlg = ctl.make_dialog()
    qtbot.addWidget(dlg)
    thumb = dlg.thumbnail
    dlg.resize(900, 500)
    m = window.document.map
    for scale, opts in (
        ("1in", {"scale": "1in"}),
        (10.0, {"scale": "custom", "custom_mm": 10.0}),
    ):
        dlg.set_options({**dlg.options(), **opts, "paper": "letter", "orientation": "auto"})
        dlg.update_preview()
        plan = ex.plan_pages(m, scale=scale, paper="letter")
        rects = thumb.page_rects()
        assert sorted(rects) == [(r, c) for r in range(plan.rows) for c in range(plan.cols)]
        for (r, c), rect in rects.items():
            assert _same(rect, plan.page_scene_rect(r, c))
        # every neighbouring pair shares a strip OVERLAP_MM wide on paper
        strips = thumb.overlap_rects()
        assert len(strips) == plan.rows * (plan.cols - 1) + (plan.rows - 1) * plan.cols
        for s in strips:
            assert min(s.width(), s.height()) * plan.mm_per_scene == pytest.approx(ex.OVERLAP_MM)
        # drawn inside the widget, each page keeping the paper's proportions
        area = thumb.rect()
        for wr in thumb.widget_page_rects().values():
            assert area.contains(wr.toAlignedRect())
            assert wr.width() / wr.height() == pytest.approx(plan.content_w / plan.content_h)
    assert plan.pages < ex.plan_pages(m, scale="1in", paper="letter").pages


def test_preview_follows_the_choices_after_a_pause_and_renders_the_map_once(
    window, ctl, qtbot, monkeypatch
):
    renders: list[tuple] = []
    real = ExportDialog._render_picture

    def counting(self, *key):
        renders.append(key)
        return real(self, *key)

    monkeypatch.setattr(ExportDialog, "_render_picture", counting)
    dlg = ctl.make_dialog()
    qtbot.addWidget(dlg)
    dlg.set_options({**dlg.options(), "format": "pdf", "scale": "1in", "paper": "letter"})
    qtbot.waitUntil(lambda: dlg.thumbnail.plan is not None)
    assert len(renders) == 1
    pic = dlg.thumbnail.picture
    assert pic is not None and not pic.isNull()
    assert max(pic.width(), pic.height()) <= export_dialog.PREVIEW_PX + 1
    # the picture covers the whole map
    from twtw_desktop.ui.scene.frame import MapFrame

    assert dlg.thumbnail.picture_rect.contains(MapFrame(window.document.map).bounds())
    # paper and orientation: a new grid, the same picture, after the pause
    dlg.paper.setCurrentIndex(dlg.paper.findData("a3"))
    dlg.orientation.setCurrentIndex(dlg.orientation.findData("landscape"))
    assert dlg.thumbnail.plan.paper == "letter"  # not yet: debounced
    a3 = ex.plan_pages(window.document.map, scale="1in", paper="a3", orientation="landscape")
    qtbot.waitUntil(lambda: dlg.thumbnail.plan == a3)
    assert len(renders) == 1 and dlg.thumbnail.picture is pic
    # what the map shows: drawn again
    dlg.judge.setChecked(True)
    qtbot.waitUntil(lambda: len(renders) == 2)
    assert renders[-1] == (True, True, False)
    dlg.coordinates.setChecked(False)
    qtbot.waitUntil(lambda: len(renders) == 3)
    assert renders[-1] == (False, True, False)
    # a PNG is one picture: no page grid
    dlg.format.setCurrentIndex(dlg.format.findData("png"))
    qtbot.waitUntil(lambda: dlg.thumbnail.plan is None)
    assert dlg.thumbnail.page_rects() == {} and dlg.thumbnail.overlap_rects() == []
    assert len(renders) == 3


def test_preview_shows_the_pages_on_screen(window, ctl, qtbot):
    """The thumbnail paints the map and the page outlines (sampled from a grab)."""
    dlg = ctl.make_dialog()
    qtbot.addWidget(dlg)
    dlg.set_options({**dlg.options(), "format": "pdf", "scale": "1in", "paper": "letter"})
    dlg.update_preview()
    dlg.thumbnail.resize(400, 300)
    img = dlg.thumbnail.grab().toImage()
    rects = dlg.thumbnail.widget_page_rects()
    first = rects[(0, 0)]
    # the page's left edge is drawn in the page-line colour, its middle is the map
    edge = img.pixelColor(round(first.left()), round(first.center().y()))
    assert edge.blue() > edge.red() + 60
    mid = img.pixelColor(round(first.center().x()), round(first.center().y()))
    assert mid != export_dialog.PREVIEW_BACKGROUND
