"""File > Export Map…: the dialog and the controller that runs :mod:`.export`.

The dialog offers PDF (tiled printable pages) or PNG (one picture), the print scale
(1 inch or 25 mm a hex, or a custom width in millimetres, always flat to flat), the
paper and its orientation, the PNG resolution, and whether to print the hex
coordinates, the Judge-only layers and the tokens. A line under the choices says
what will be written (how many pages, on what paper, or the picture's size) before
anything is; choices the exporter would refuse disable the Export button and say why.
Beside the choices, :class:`PrintPreview` shows a thumbnail of the whole map with the
PDF's page grid over it (each page's outline and number, the strips neighbouring pages
share tinted). The map is rendered once to a small picture by the exporter itself, and
again only when what it shows changes (coordinates, Judge-only layers, tokens); the grid
comes from :func:`.export.plan_pages`, so it is the one the PDF will use. Changes are
gathered for :data:`PREVIEW_DELAY_MS` before the preview is redrawn.
The choices are remembered in the window's settings (keys under ``export/``).

:func:`install_export` adds the menu entry to a :class:`MainWindow` (add-on hook
convention of session 2) and returns the :class:`ExportController`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QImage, QKeySequence, QPainter, QPen, QTransform
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...errors import TwtwError
from ...model import Map
from . import export as ex

#: the scale choices of the dialog: (key, menu text, mm or None for custom)
SCALE_CHOICES = (
    ("1in", "1 inch a hex (25.4 mm)", 25.4),
    ("25mm", "25 mm a hex", 25.0),
    ("custom", "Custom…", None),
)
FORMATS = (("pdf", "PDF — printable pages"), ("png", "PNG — one picture"))
ORIENTATION_TITLES = {"auto": "Fewest pages", "portrait": "Portrait", "landscape": "Landscape"}

#: a PDF export of at least this many pages shows a progress bar with Cancel
PROGRESS_MIN_PAGES = 12

#: the preview's map picture: its longer side in pixels (painted scaled to the widget)
PREVIEW_PX = 480
#: the preview is redrawn this long after the last change of a choice (ms)
PREVIEW_DELAY_MS = 150
#: the preview widget's smallest size (pixels)
PREVIEW_MIN_W, PREVIEW_MIN_H = 300, 260
#: the preview's colours: around the sheet, page outlines, overlap strips, page numbers
PREVIEW_BACKGROUND = QColor(150, 150, 150)
PREVIEW_PAGE_LINE = QColor(30, 80, 190)
PREVIEW_OVERLAP = QColor(30, 80, 190, 60)
PREVIEW_NUMBER = QColor(30, 80, 190, 220)

SETTINGS_PREFIX = "export/"
#: option name -> default (the paper default follows the locale, see _defaults)
OPTION_KEYS = (
    "format",
    "scale",
    "custom_mm",
    "paper",
    "orientation",
    "dpi",
    "coordinates",
    "judge_layers",
    "tokens",
    "folder",
)


def _slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_-]+", "_", name.strip()).strip("_")
    return s[:60] or "map"


def scale_key_for(mm: float) -> str:
    """The dialog's scale choice for a hex width in mm."""
    for key, _, v in SCALE_CHOICES:
        if v is not None and abs(v - mm) < 1e-6:
            return key
    return "custom"


def _defaults(m: Map | None) -> dict:
    mm = m.print_hex_mm if m is not None else 25.4
    us = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
    return {
        "format": "pdf",
        "scale": scale_key_for(mm),
        "custom_mm": mm,
        "paper": "letter" if us else "a4",
        "orientation": "auto",
        "dpi": ex.DEFAULT_PNG_DPI,
        "coordinates": True,
        "judge_layers": False,
        "tokens": False,
        "folder": "",
    }


def _as_bool(v, default: bool) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        return v.strip().lower() in ("1", "true", "yes", "on")
    if v is None:
        return default
    return bool(v)


#: the range each number read from the settings is clamped to
_NUMBER_RANGES = {
    "dpi": (ex.MIN_PNG_DPI, ex.MAX_PNG_DPI),
    "custom_mm": (ex.MIN_HEX_MM, ex.MAX_HEX_MM),
}


def _clamped(key: str, v: float, default: float) -> float:
    """A number from the settings, in its range (NaN or infinite: the default)."""
    if not math.isfinite(v):
        return float(default)
    lo, hi = _NUMBER_RANGES.get(key, (-math.inf, math.inf))
    return min(hi, max(lo, v))


def load_options(qsettings, m: Map | None = None) -> dict:
    """The remembered choices (defaults where none or unreadable)."""
    opts = _defaults(m)
    if qsettings is None:
        return opts
    for key in OPTION_KEYS:
        v = qsettings.value(SETTINGS_PREFIX + key)
        if v is None:
            continue
        d = opts[key]
        try:
            if isinstance(d, bool):
                opts[key] = _as_bool(v, d)
            elif isinstance(d, (int, float)):
                opts[key] = _clamped(key, float(v), d)
            else:
                opts[key] = str(v)
        except (TypeError, ValueError):
            continue
    if opts["format"] not in dict(FORMATS):
        opts["format"] = "pdf"
    if opts["scale"] not in {k for k, _, _ in SCALE_CHOICES}:
        opts["scale"] = "1in"
    if opts["paper"] not in ex.PAPER_MM:
        opts["paper"] = _defaults(m)["paper"]
    if opts["orientation"] not in ex.ORIENTATIONS:
        opts["orientation"] = "auto"
    return opts


def save_options(qsettings, opts: dict) -> None:
    if qsettings is None:
        return
    for key in OPTION_KEYS:
        if key in opts:
            qsettings.setValue(SETTINGS_PREFIX + key, opts[key])
    qsettings.sync()


def scale_of(opts: dict):
    """What to pass as ``scale`` to the exporter for these choices."""
    return opts["custom_mm"] if opts["scale"] == "custom" else opts["scale"]


class PrintPreview(QWidget):
    """The map in small with the page grid of the PDF over it.

    :meth:`set_picture` gives the map's picture and the scene rectangle it shows;
    :meth:`set_plan` the page layout (None for one picture, as PNG). Everything is
    kept in scene coordinates and fitted to the widget when painted.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("export_thumbnail")
        self.setMinimumSize(PREVIEW_MIN_W, PREVIEW_MIN_H)
        self.setToolTip(
            "How the map falls on the pages: each page outlined and numbered, the "
            "strips two pages share (to tape over) tinted"
        )
        self.picture: QImage | None = None
        self.picture_rect = QRectF()
        self.plan: ex.PagePlan | None = None

    def set_picture(self, picture: QImage, scene_rect: QRectF) -> None:
        self.picture, self.picture_rect = picture, QRectF(scene_rect)
        self.update()

    def set_plan(self, plan: ex.PagePlan | None) -> None:
        self.plan = plan
        self.update()

    # -- geometry (scene coordinates) -------------------------------------------------

    def page_rects(self) -> dict[tuple[int, int], QRectF]:
        """The scene rectangle each page (row, column) shows; empty for no plan."""
        p = self.plan
        if p is None:
            return {}
        return {(r, c): p.page_scene_rect(r, c) for r in range(p.rows) for c in range(p.cols)}

    def overlap_rects(self) -> list[QRectF]:
        """The strips two neighbouring pages both show."""
        pages = self.page_rects()
        out = []
        for (r, c), rect in pages.items():
            for nb in ((r, c + 1), (r + 1, c)):
                if nb in pages:
                    out.append(rect.intersected(pages[nb]))
        return out

    def scene_rect(self) -> QRectF:
        """What the widget shows: the map's picture and every page."""
        rect = QRectF(self.picture_rect)
        for page in self.page_rects().values():
            rect = rect.united(page) if not rect.isEmpty() else QRectF(page)
        return rect

    def to_widget(self) -> QTransform:
        """Scene to widget coordinates: the whole :meth:`scene_rect` fitted in,
        centred, with a small border."""
        src = self.scene_rect()
        area = QRectF(self.rect()).adjusted(6, 6, -6, -6)
        if src.isEmpty() or area.isEmpty():
            return QTransform()
        k = min(area.width() / src.width(), area.height() / src.height())
        dx = area.left() + (area.width() - src.width() * k) / 2 - src.left() * k
        dy = area.top() + (area.height() - src.height() * k) / 2 - src.top() * k
        return QTransform(k, 0, 0, k, dx, dy)

    def widget_page_rects(self) -> dict[tuple[int, int], QRectF]:
        t = self.to_widget()
        return {rc: t.mapRect(rect) for rc, rect in self.page_rects().items()}

    # -- painting ---------------------------------------------------------------------

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), PREVIEW_BACKGROUND)
        if self.picture is None:
            p.setPen(Qt.GlobalColor.white)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Drawing the preview…")
            return
        t = self.to_widget()
        pages = self.widget_page_rects()
        for rect in pages.values():  # blank paper beyond the map
            p.fillRect(rect, ex.PAPER)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        p.drawImage(t.mapRect(self.picture_rect), self.picture)
        for rect in self.overlap_rects():
            p.fillRect(t.mapRect(rect), PREVIEW_OVERLAP)
        p.setPen(QPen(PREVIEW_PAGE_LINE, 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for rect in pages.values():
            p.drawRect(rect)
        if not pages or self.plan is None:
            return
        font = p.font()
        font.setBold(True)
        p.setFont(font)
        p.setPen(PREVIEW_NUMBER)
        fits = min(r.width() for r in pages.values()) >= 2 * p.fontMetrics().horizontalAdvance(
            str(self.plan.pages)
        )
        if fits:
            for (r, c), rect in pages.items():
                n = r * self.plan.cols + c + 1
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(n))


class ExportDialog(QDialog):
    """The export choices and the output file; :meth:`options` reads them back."""

    def __init__(
        self,
        game_map: Map,
        opts: dict,
        path: str,
        parent: QWidget | None = None,
        document=None,
    ):
        """``document``: the EncounterDocument the map belongs to, so the preview can
        show its tokens (None: the map alone)."""
        super().__init__(parent)
        self.setObjectName("export_dialog")
        self.setWindowTitle("Export Map")
        self.map = game_map
        self.document = document
        self._picture_key: tuple | None = None
        form = QFormLayout()

        self.format = QComboBox()
        for key, text in FORMATS:
            self.format.addItem(text, key)
        self.format.setToolTip("PDF: vector pages to print and tape together. PNG: one picture.")
        form.addRow("&Format:", self.format)

        self.scale = QComboBox()
        for key, text, _ in SCALE_CHOICES:
            self.scale.addItem(text, key)
        self.custom = QDoubleSpinBox()
        self.custom.setRange(ex.MIN_HEX_MM, ex.MAX_HEX_MM)
        self.custom.setDecimals(1)
        self.custom.setSingleStep(0.5)
        self.custom.setSuffix(" mm")
        self.custom.setToolTip("Width of one hex on paper, measured flat side to flat side")
        row = QHBoxLayout()
        row.addWidget(self.scale, 1)
        row.addWidget(self.custom)
        self.scale.setToolTip(
            "Hex width on paper, flat side to flat side: 1 inch suits a battle mat and "
            "25–28 mm miniatures"
        )
        form.addRow(_buddy("&Scale:", self.scale), row)

        self.paper = QComboBox()
        for key in ex.PAPER_MM:
            self.paper.addItem(ex.PAPER_TITLES[key], key)
        self.orientation = QComboBox()
        for key in ex.ORIENTATIONS:
            self.orientation.addItem(ORIENTATION_TITLES[key], key)
        self.orientation.setToolTip("Fewest pages picks portrait or landscape for you")
        row = QHBoxLayout()
        row.addWidget(self.paper, 1)
        row.addWidget(self.orientation, 1)
        self.paper_label = QLabel("&Paper:")
        self.paper_label.setBuddy(self.paper)
        form.addRow(self.paper_label, row)

        self.dpi = QSpinBox()
        self.dpi.setRange(ex.MIN_PNG_DPI, ex.MAX_PNG_DPI)
        self.dpi.setSingleStep(50)
        self.dpi.setSuffix(" dpi")
        self.dpi.setToolTip("Dots per inch of the picture (stored in it, so it prints to scale)")
        self.dpi_label = QLabel("&Resolution:")
        self.dpi_label.setBuddy(self.dpi)
        form.addRow(self.dpi_label, self.dpi)

        self.coordinates = QCheckBox("Hex &coordinates")
        self.coordinates.setToolTip("Print each hex's column and row number")
        self.judge = QCheckBox("&Judge-only layers (notes, traps, hidden walls and labels)")
        self.judge.setToolTip("For the Judge's own copy: never hand this print to the players")
        self.tokens = QCheckBox("&Tokens")
        self.tokens.setToolTip("Draw the encounter's tokens (leave off when using miniatures)")
        box = QVBoxLayout()
        for w in (self.coordinates, self.judge, self.tokens):
            box.addWidget(w)
        form.addRow("Show:", box)

        self.path = QLineEdit(path)
        self.path.setObjectName("export_path")
        self.browse = QPushButton("&Browse…")
        self.browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        form.addRow(_buddy("Save &to:", self.path), row)

        self.preview = QLabel()
        self.preview.setObjectName("export_preview")
        self.preview.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("&Export")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        self.thumbnail = PrintPreview()
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.update_preview)

        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addWidget(self.thumbnail, 1)
        lay.addLayout(top, 1)
        lay.addWidget(self.preview)
        lay.addWidget(self.buttons)

        self.set_options(opts)
        for sig in (
            self.format.currentIndexChanged,
            self.scale.currentIndexChanged,
            self.custom.valueChanged,
            self.paper.currentIndexChanged,
            self.orientation.currentIndexChanged,
            self.dpi.valueChanged,
            self.path.textChanged,
        ):
            sig.connect(self._refresh)
        for check in (self.coordinates, self.judge, self.tokens):
            check.toggled.connect(self._preview_timer.start)
        self.format.currentIndexChanged.connect(self._fix_suffix)
        self._refresh()

    # -- options ----------------------------------------------------------------------

    def set_options(self, opts: dict) -> None:
        _select(self.format, opts["format"])
        _select(self.scale, opts["scale"])
        self.custom.setValue(float(opts["custom_mm"]))
        _select(self.paper, opts["paper"])
        _select(self.orientation, opts["orientation"])
        self.dpi.setValue(round(float(opts["dpi"])))
        self.coordinates.setChecked(bool(opts["coordinates"]))
        self.judge.setChecked(bool(opts["judge_layers"]))
        self.tokens.setChecked(bool(opts["tokens"]))

    def options(self) -> dict:
        return {
            "format": self.format.currentData(),
            "scale": self.scale.currentData(),
            "custom_mm": self.custom.value(),
            "paper": self.paper.currentData(),
            "orientation": self.orientation.currentData(),
            "dpi": float(self.dpi.value()),
            "coordinates": self.coordinates.isChecked(),
            "judge_layers": self.judge.isChecked(),
            "tokens": self.tokens.isChecked(),
            "folder": str(Path(self.path.text()).parent) if self.path.text() else "",
        }

    def target(self) -> str:
        return self.path.text().strip()

    # -- behaviour ----------------------------------------------------------------------

    def _fix_suffix(self) -> None:
        text = self.path.text().strip()
        if not text:
            return
        suffix = "." + self.format.currentData()
        p = Path(text)
        if p.suffix.lower() in (".pdf", ".png") and p.suffix.lower() != suffix:
            self.path.setText(str(p.with_suffix(suffix)))

    def _browse(self) -> None:
        fmt = self.format.currentData()
        filt = "PDF files (*.pdf)" if fmt == "pdf" else "PNG pictures (*.png)"
        path, _ = QFileDialog.getSaveFileName(self, "Export map to", self.path.text(), filt)
        if path:
            if Path(path).suffix.lower() != "." + fmt:
                path += "." + fmt
            self.path.setText(path)

    def _refresh(self) -> None:
        """Show only the choices that matter for the format, and what would be written."""
        opts = self.options()
        pdf = opts["format"] == "pdf"
        self.custom.setEnabled(opts["scale"] == "custom")
        for w in (self.paper, self.orientation, self.paper_label):
            w.setVisible(pdf)
        for png_only in (self.dpi, self.dpi_label):
            png_only.setVisible(not pdf)
        text, ok = self.describe(opts)
        if ok and not self.target():
            text, ok = text + " — choose where to save it.", False
        self.preview.setText(text)
        self.preview.setStyleSheet("" if ok else "color: #b02020;")
        self.ok.setEnabled(ok)
        self._preview_timer.start()

    def update_preview(self) -> None:
        """Redraw the preview now (the choices' changes call this after a pause): the
        map's picture when what it shows has changed, the page grid always."""
        self._preview_timer.stop()
        opts = self.options()
        key = (opts["coordinates"], opts["judge_layers"], opts["tokens"])
        if key != self._picture_key:
            self.thumbnail.set_picture(*self._render_picture(*key))
            self._picture_key = key
        plan = None
        if opts["format"] == "pdf":
            try:
                plan = ex.plan_pages(
                    self.map,
                    scale=scale_of(opts),
                    paper=opts["paper"],
                    orientation=opts["orientation"],
                )
            except ValueError:
                plan = None  # the line under the choices says why
            if plan is not None and plan.pages > ex.MAX_PAGES:
                plan = None
        self.thumbnail.set_plan(plan)

    def _render_picture(
        self, coordinates: bool, judge_layers: bool, tokens: bool
    ) -> tuple[QImage, QRectF]:
        """The whole map (with the exporter's padding) about :data:`PREVIEW_PX` on its
        longer side, drawn by the exporter as the PNG export draws it, and the scene
        rectangle it shows."""
        source = self.document if self.document is not None else self.map
        return ex.render_thumbnail(
            source,
            PREVIEW_PX,
            coordinates=coordinates,
            judge_layers=judge_layers,
            tokens=tokens,
        )

    def describe(self, opts: dict) -> tuple[str, bool]:
        """(what the export would write, whether the exporter accepts the choices)."""
        try:
            if opts["format"] == "pdf":
                plan = ex.plan_pages(
                    self.map,
                    scale=scale_of(opts),
                    paper=opts["paper"],
                    orientation=opts["orientation"],
                )
                if plan.pages > ex.MAX_PAGES:
                    return (
                        f"{plan.pages} pages is more than the {ex.MAX_PAGES} an export makes; "
                        "choose a smaller scale or larger paper.",
                        False,
                    )
                return _cap(plan.describe()) + ".", True
            w, h = ex.png_size(self.map, scale=scale_of(opts), dpi=opts["dpi"])
            mm = ex.parse_scale(scale_of(opts), self.map.print_hex_mm)
            if max(w, h) > ex.MAX_PNG_SIDE or w * h > ex.MAX_PNG_PIXELS:
                return (
                    f"The picture would be {w} × {h} pixels, too large; lower the resolution "
                    "or the scale.",
                    False,
                )
            return (
                f"One picture, {w} × {h} pixels at {opts['dpi']:g} dpi, 1 hex = "
                f"{ex.describe_scale(mm)} flat to flat.",
                True,
            )
        except ValueError as e:
            return (_cap(str(e)) + ".", False)


def _buddy(text: str, widget: QWidget) -> QLabel:
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _select(combo: QComboBox, key) -> None:
    i = combo.findData(key)
    if i >= 0:
        combo.setCurrentIndex(i)


class ExportController(QObject):
    """Owns File > Export Map… on one main window."""

    #: an export finished (its ExportResult)
    exported = Signal(object)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.last_result: ex.ExportResult | None = None
        self._bar: QProgressDialog | None = None
        self._cancelled = False
        a = QAction("&Export Map…", window)
        a.setObjectName("act_export_map")
        a.setShortcut(QKeySequence("Ctrl+Shift+E"))
        keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        tip = "Export the map to PDF pages at a print scale, or to a PNG picture"
        a.setToolTip(f"{tip} ({keys})")
        a.setStatusTip(tip)
        a.triggered.connect(self.open_dialog)
        self.action = a
        window.file_menu.insertAction(window.file_menu_tail, a)
        window.documentReplaced.connect(self._on_document)
        self._on_document(window.document)

    @property
    def qsettings(self):
        s = getattr(self.window, "settings", None)
        return getattr(s, "q", None)

    def _on_document(self, document) -> None:
        self.action.setEnabled(document is not None)

    # -- the dialog ----------------------------------------------------------------------

    def default_path(self, opts: dict) -> str:
        doc = self.window.document
        folder = opts.get("folder") or ""
        if not folder or not Path(folder).is_dir():
            base = (doc.map_path or doc.path) if doc is not None else None
            if base is not None:
                folder = str(Path(base).parent)
            else:
                s = getattr(self.window, "settings", None)
                from ..core.datadir import documents_dir

                folder = (s.last_dir() if s is not None else "") or str(documents_dir())
        name = _slug(doc.map.name if doc is not None else "map")
        return str(Path(folder) / f"{name}.{opts['format']}")

    def make_dialog(self) -> ExportDialog:
        doc = self.window.document
        opts = load_options(self.qsettings, doc.map)
        return ExportDialog(doc.map, opts, self.default_path(opts), self.window, document=doc)

    def open_dialog(self) -> ex.ExportResult | None:
        """Ask for the choices and export; None when cancelled or refused."""
        if self.window.document is None:
            return None
        dlg = self.make_dialog()
        try:
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return None
            return self.run(dlg.options(), dlg.target())
        finally:
            dlg.deleteLater()

    def run(self, opts: dict, path: str) -> ex.ExportResult | None:
        """Export the window's document with these choices; a refusal shows a dialog
        naming what is wrong and writes nothing. The choices are remembered."""
        doc = self.window.document
        save_options(self.qsettings, {k: v for k, v in opts.items() if k != "folder"})
        common = {
            "scale": scale_of(opts),
            "coordinates": opts["coordinates"],
            "judge_layers": opts["judge_layers"],
            "tokens": opts["tokens"],
        }
        self.window.setCursor(Qt.CursorShape.WaitCursor)
        try:
            if opts["format"] == "pdf":
                result = ex.export_pdf(
                    doc,
                    path,
                    paper=opts["paper"],
                    orientation=opts["orientation"],
                    progress=self._progress(),
                    **common,
                )
            else:
                result = ex.export_png(doc, path, dpi=opts["dpi"], **common)
        except TwtwError as e:
            if not self._cancelled:
                self.window.show_error("Cannot export the map", str(e))
            return None
        finally:
            self.window.unsetCursor()
            if self._bar is not None:
                self._bar.close()
                self._bar.deleteLater()
                self._bar = None
        save_options(self.qsettings, {"folder": str(Path(path).absolute().parent)})
        self.last_result = result
        self.window.statusBar().showMessage(_cap(result.describe()), 10000)
        self.exported.emit(result)
        return result

    def _progress(self):
        """A progress callback that shows a cancellable bar once an export runs to
        more than a few pages."""
        self._cancelled = False

        def report(done: int, total: int) -> bool:
            if total < PROGRESS_MIN_PAGES:
                return True
            if self._bar is None:
                self._bar = QProgressDialog("Writing the pages…", "Cancel", 0, total, self.window)
                self._bar.setWindowTitle("Export Map")
                self._bar.setWindowModality(Qt.WindowModality.WindowModal)
                self._bar.setMinimumDuration(300)
            self._bar.setValue(done)
            QApplication.processEvents()
            if self._bar.wasCanceled():
                self._cancelled = True
                self.window.statusBar().showMessage("Export cancelled; nothing was written.", 8000)
                return False
            return True

        return report


def install_export(window) -> ExportController:
    """Add File > Export Map… to ``window`` (session 2 add-on hook)."""
    ctl = ExportController(window)
    window.export = ctl
    return ctl
