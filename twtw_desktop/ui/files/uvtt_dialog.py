"""File ▸ Import battle map… and File ▸ Export Universal VTT… (``.dd2vtt``,
``.df2vtt``, ``.uvtt``).

The conversion itself is Qt-free (:mod:`twtw_desktop.io.uvtt`); this module adds the
one step that needs Qt — decoding the embedded picture (:func:`picture_to_png`), with
the header checked first and the reader's allocation limit set — and the window's
side: a dialog that previews the picture with the walls drawn over it and the hex
grid, the hex size and the wall material adjustable before accepting. The file is
read and the picture decoded on a worker thread, with a busy indicator, so a big map
never freezes the window.

A battle-map file dropped on the window opens the same preview. Install with
:func:`install_uvtt`; the controller is kept as ``window.uvtt``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QEvent,
    QEventLoop,
    QIODevice,
    QObject,
    QPointF,
    Qt,
    QThread,
    QTimer,
)
from PySide6.QtCore import Signal as _Signal
from PySide6.QtGui import QAction, QColor, QImage, QImageReader, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGraphicsPathItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QProgressBar,
    QProgressDialog,
    QVBoxLayout,
    QWidget,
)

from ...errors import LoadError
from ...io import uvtt
from ...io.images import MAX_IMAGE_PIXELS
from ...model.map import Material

UVTT_FILTER = "Universal VTT battle maps (*.dd2vtt *.df2vtt *.uvtt);;All files (*)"
EXPORT_FILTER = "Universal VTT (*.uvtt);;Dungeondraft (*.dd2vtt)"
#: Longest side of the preview picture (the full picture is only written to disk).
PREVIEW_SIDE = 2048
#: Most hexes whose outlines the preview draws (a denser grid is left out, and said so).
PREVIEW_HEXES = 40_000


# --- the picture step ------------------------------------------------------------------


def _reader(data: bytes, fmt: str) -> tuple[QImageReader, QBuffer]:
    buf = QBuffer()
    buf.setData(QByteArray(data))
    buf.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buf, fmt.encode("ascii"))
    reader.setDecideFormatFromContent(False)
    return reader, buf


def _allow_decoding() -> None:
    # megabytes of decoded RGBA the biggest allowed picture needs, and no more
    QImageReader.setAllocationLimit(max(QImageReader.allocationLimit(), MAX_IMAGE_PIXELS * 4 >> 20))


def _decode(data: bytes, fmt: str, width: int, height: int, side: int | None = None) -> QImage:
    """Decode picture bytes whose header said ``width``×``height`` (ValueError if
    the decoder disagrees or fails); ``side`` scales it down while decoding."""
    uvtt.check_picture_size(width, height)
    _allow_decoding()
    reader, buf = _reader(data, fmt)
    size = reader.size()
    if (size.width(), size.height()) != (width, height):
        raise ValueError(
            f"the {fmt.upper()} picture says {width}×{height} pixels but decodes as "
            f"{size.width()}×{size.height()}"
        )
    if side is not None and max(width, height) > side:
        k = side / max(width, height)
        reader.setScaledSize(
            size.scaled(
                max(1, round(width * k)),
                max(1, round(height * k)),
                Qt.AspectRatioMode.KeepAspectRatio,
            )
        )
    img = reader.read()
    buf.close()
    if img.isNull():
        raise ValueError(f"the {fmt.upper()} picture cannot be decoded ({reader.errorString()})")
    return img


def picture_to_png(data: bytes, fmt: str, width: int, height: int) -> bytes:
    """PNG bytes of a PNG/WebP/JPEG picture at its own pixel size, after decoding it
    in full (so a broken picture is refused here, not later under the grid). A PNG is
    returned unchanged; anything else is encoded as PNG. Raises ValueError."""
    img = _decode(data, fmt, width, height)
    if fmt == "png":
        return data
    out = QBuffer()
    out.open(QIODevice.OpenModeFlag.WriteOnly)
    # the stubs want the format as bytes; PySide6 takes only a str (bytes: ValueError)
    if not img.save(out, "PNG"):  # type: ignore[call-overload]
        raise ValueError("the picture could not be written as PNG")
    return bytes(out.data().data())


# --- the worker ------------------------------------------------------------------------


class _Loader(QThread):
    """Reads and checks a file and decodes a preview picture off the GUI thread."""

    loaded = _Signal(object, object)  # UvttFile, QImage (preview)
    failed = _Signal(str)

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path

    def run(self) -> None:
        try:
            uv = uvtt.parse(self.path)
            img = _decode(uv.image, uv.image_format, uv.width, uv.height, PREVIEW_SIDE)
        except LoadError as e:
            self.failed.emit(str(e))
        except ValueError as e:
            self.failed.emit(f"{self.path}: {e}")
        except Exception as e:  # one line, never a traceback
            self.failed.emit(f"{self.path}: cannot read the battle map ({type(e).__name__}: {e})")
        else:
            self.loaded.emit(uv, img)


class _Job(QThread):
    """Runs one call off the GUI thread; ``result``/``error`` once it has finished."""

    def __init__(self, fn, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.fn = fn
        self.result = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.fn()
        except BaseException as e:  # handed back to the GUI thread
            self.error = e


def run_with_progress(parent: QWidget, label: str, fn):
    """Call ``fn`` on a worker thread while a busy progress dialog keeps the window
    alive; returns its result or raises its exception on the GUI thread."""
    job = _Job(fn, parent)
    bar = QProgressDialog(label, "", 0, 0, parent)
    bar.setCancelButton(None)
    bar.setWindowModality(Qt.WindowModality.WindowModal)
    bar.setMinimumDuration(300)
    loop = QEventLoop()
    job.finished.connect(loop.quit)
    job.start()
    if not job.isFinished():
        loop.exec()
    job.wait()
    bar.close()
    bar.deleteLater()
    job.deleteLater()
    if job.error is not None:
        raise job.error
    return job.result


# --- the dialog ------------------------------------------------------------------------

MATERIAL_WORDS = {m: m.value.replace("_", " ") for m in Material}


class ImportDialog(QDialog):
    """Preview a battle map and choose the hex size and the wall material."""

    def __init__(
        self,
        path: Path | str,
        material: Material = Material.HARDWOOD,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("uvtt_import_dialog")
        self.path = Path(path)
        self.setWindowTitle(f"Import battle map — {self.path.name}")
        self.uv: uvtt.UvttFile | None = None
        self.error: str | None = None
        self.preview_scale = 1.0
        v = QVBoxLayout(self)
        self.scene = QGraphicsScene(self)
        self.view = QGraphicsView(self.scene)
        self.view.setMinimumSize(520, 380)
        self.view.setRenderHint(self.view.renderHints().Antialiasing)
        v.addWidget(self.view, 1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy: decoding time is not known in advance
        self.progress.setFormat("Reading the picture…")
        v.addWidget(self.progress)
        form = QFormLayout()
        self.hex_size = QDoubleSpinBox()
        self.hex_size.setObjectName("uvtt_hex_size")
        self.hex_size.setRange(uvtt.MIN_HEX_SIZE, uvtt.MAX_HEX_SIZE)
        self.hex_size.setDecimals(2)
        self.hex_size.setSingleStep(0.25)
        self.hex_size.setValue(1.0)
        self.hex_size.setSuffix(" grid squares")
        self.hex_size.setToolTip("How many of the picture's grid squares one hex spans")
        self.hex_size.valueChanged.connect(self.refresh)
        form.addRow("One hex spans:", self.hex_size)
        self.material = QComboBox()
        self.material.setObjectName("uvtt_material")
        for m in Material:
            self.material.addItem(MATERIAL_WORDS[m], m.value)
        self.material.setCurrentIndex(list(Material).index(material))
        form.addRow("Walls and doors are:", self.material)
        v.addLayout(form)
        self.summary = QLabel("")
        self.summary.setObjectName("uvtt_summary")
        self.summary.setWordWrap(True)
        v.addWidget(self.summary)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import…")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        v.addWidget(self.buttons)
        self._pixmap_item: QGraphicsPixmapItem | None = None
        self._overlay: list = []
        self.loader = _Loader(self.path, self)
        self.loader.loaded.connect(self._loaded)
        self.loader.failed.connect(self._failed)
        self.loader.start()

    # -- choices --------------------------------------------------------------------

    def chosen_material(self) -> Material:
        return Material(self.material.currentData())

    def chosen_hex_size(self) -> float:
        return float(self.hex_size.value())

    def wait_loaded(self, ms: int = 30_000) -> bool:
        """Block until the worker is done (tests and scripts)."""
        return self.loader.wait(ms)

    # -- worker results -------------------------------------------------------------

    def _loaded(self, uv: uvtt.UvttFile, img: QImage) -> None:
        self.uv = uv
        self.progress.hide()
        self.preview_scale = img.width() / uv.width
        self._pixmap_item = self.scene.addPixmap(QPixmap.fromImage(img))
        self._pixmap_item.setZValue(-1)
        self.refresh()

    def _failed(self, message: str) -> None:
        self.error = message
        self.progress.hide()
        self.summary.setText(message)

    def closeEvent(self, event) -> None:
        self.loader.wait()
        super().closeEvent(event)

    def done(self, r: int) -> None:
        self.loader.wait()
        super().done(r)

    # -- the preview ----------------------------------------------------------------

    def refresh(self) -> None:
        uv = self.uv
        if uv is None:
            return
        for item in self._overlay:
            self.scene.removeItem(item)
        self._overlay = []
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        try:
            report = uvtt.to_map(uv, hex_size=self.chosen_hex_size())
        except ValueError as e:
            self.summary.setText(f"Cannot import at this hex size: {e}")
            ok.setEnabled(False)
            return
        m = report.map
        if m.background is None:  # a UVTT map carries its picture
            self.summary.setText("Cannot import: the file has no picture.")
            ok.setEnabled(False)
            return
        # map units → preview pixels: map units / bg.scale = picture px
        k = self.preview_scale / m.background.scale
        lay = m.layout(size=k)
        grid = QPainterPath()
        for h in m.hexes() if m.cols * m.rows <= PREVIEW_HEXES else ():
            corners = lay.polygon_corners(h)
            grid.moveTo(*corners[0])
            for c in corners[1:]:
                grid.lineTo(*c)
            grid.closeSubpath()
        self._overlay.append(self._path(grid, QColor(40, 40, 40, 110), 1.0))
        walls, doors, windows = QPainterPath(), QPainterPath(), QPainterPath()
        for f in m.features:
            path = {"wall": walls, "door": doors, "window": windows}[f.kind]
            path.moveTo(QPointF(f.points[0][0] * k, f.points[0][1] * k))
            for x, y in f.points[1:]:
                path.lineTo(QPointF(x * k, y * k))
        width = max(2.0, 0.12 * k)
        self._overlay.append(self._path(walls, QColor(200, 30, 30), width))
        self._overlay.append(self._path(doors, QColor(230, 150, 20), width))
        self._overlay.append(self._path(windows, QColor(40, 140, 230), width))
        self.scene.setSceneRect(self.scene.itemsBoundingRect())
        self.view.fitInView(self.scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)
        self.summary.setText(
            f"{uv.width}×{uv.height} pixels, {uv.size[0]:g}×{uv.size[1]:g} squares of "
            f"{uv.ppg:g} pixels → {report.describe()}."
            + ("" if m.cols * m.rows <= PREVIEW_HEXES else " (the grid is too fine to draw here)")
        )
        ok.setEnabled(True)

    def _path(self, path: QPainterPath, color: QColor, width: float) -> QGraphicsPathItem:
        pen = QPen(color, width)
        pen.setCosmetic(width <= 1.0)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        return self.scene.addPath(path, pen)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.uv is not None:
            self.view.fitInView(self.scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)


# --- the window's menus ----------------------------------------------------------------


class UvttController(QObject):
    """File ▸ Import battle map… and File ▸ Export Universal VTT…."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: ImportDialog | None = None
        a = QAction("Import &battle map…", window)
        a.setObjectName("act_import_uvtt")
        tip = "Make a map from a Universal VTT battle map (.dd2vtt, .df2vtt, .uvtt)"
        a.setToolTip(tip)
        a.setStatusTip(tip)
        a.triggered.connect(lambda: self.import_map())
        self.import_action = a
        b = QAction("Export &Universal VTT…", window)
        b.setObjectName("act_export_uvtt")
        tip = "Write the map's walls, doors and picture as a Universal VTT battle map"
        b.setToolTip(tip)
        b.setStatusTip(tip)
        b.triggered.connect(lambda: self.export_map())
        self.export_action = b
        # before File > Export Map… when it is there (it stays last before the tail)
        export = getattr(getattr(window, "export", None), "action", None)
        before = export if export in window.file_menu.actions() else window.file_menu_tail
        window.file_menu.insertAction(before, a)
        window.file_menu.insertAction(before, b)
        window.documentReplaced.connect(self._on_document)
        self._on_document(window.document)
        # a battle map dropped on the window is imported
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    def _on_document(self, document) -> None:
        self.export_action.setEnabled(document is not None)

    @staticmethod
    def dropped_map(mime) -> Path | None:
        """The one local Universal VTT file a drag carries, if it carries one."""
        urls = [u for u in mime.urls() if u.isLocalFile()] if mime.hasUrls() else []
        if len(urls) != 1:
            return None
        path = Path(urls[0].toLocalFile())
        return path if path.suffix.lower() in uvtt.SUFFIXES else None

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if self.dropped_map(event.mimeData()) is not None:
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            path = self.dropped_map(event.mimeData())
            if path is not None:
                event.acceptProposedAction()
                # after the drop has returned, so the drag source is not kept waiting
                QTimer.singleShot(0, lambda: self.import_map(path))
                return True
        return super().eventFilter(obj, event)

    def _start_dir(self) -> str:
        doc = self.window.document
        base = getattr(doc, "map_path", None) or getattr(doc, "path", None)
        if base is not None:
            return str(Path(base).parent)
        from ..core.datadir import documents_dir

        return self.window.settings.last_dir() or str(documents_dir())

    def _editor_material(self) -> Material:
        state = getattr(getattr(self.window, "editor", None), "palette", None)
        mat = getattr(state, "material", None)
        return mat if isinstance(mat, Material) else Material.HARDWOOD

    def import_map(self, src: str | Path | None = None, out: str | Path | None = None) -> bool:
        """Ask for a file (unless given), preview it, ask where to save the map
        (unless given), write it and open it. False when cancelled or refused."""
        if not self.window.maybe_save():
            return False
        if src is None:
            src, _ = QFileDialog.getOpenFileName(
                self.window, "Import battle map", self._start_dir(), UVTT_FILTER
            )
            if not src:
                return False
        src = Path(src)
        dlg = ImportDialog(src, self._editor_material(), self.window)
        self.dialog = dlg
        if dlg.exec() != QDialog.DialogCode.Accepted or dlg.uv is None:
            if dlg.error:
                self.window.show_error("Cannot import the battle map", dlg.error)
            return False
        if out is None:
            stem = src.name.rsplit(".", 1)[0]
            out, _ = QFileDialog.getSaveFileName(
                self.window,
                "Save the imported map",
                str(src.parent / f"{stem}.map.json"),
                "Maps (*.map.json)",
            )
            if not out:
                return False
        out = Path(out)
        if not out.name.endswith(".json"):
            out = out.with_name(out.name + ".map.json")
        hex_size, material, uv = dlg.chosen_hex_size(), dlg.chosen_material(), dlg.uv
        try:
            report = run_with_progress(
                self.window,
                f"Writing {out.name} and its picture…",
                lambda: uvtt.import_file(
                    src, out, picture_to_png, hex_size=hex_size, material=material, uv=uv
                ),
            )
        except LoadError as e:
            self.window.show_error("Cannot import the battle map", str(e))
            return False
        if not self.window.open_path(out, ask=False):
            return False
        self.window.statusBar().showMessage(f"Imported {src.name}: {report.describe()}", 10_000)
        return True

    def export_map(self, out: str | Path | None = None) -> bool:
        doc = self.window.document
        if doc is None:
            return False
        if out is None:
            stem = (getattr(doc, "map_path", None) or doc.path or Path("map")).name.split(".")[0]
            out, _ = QFileDialog.getSaveFileName(
                self.window,
                "Export Universal VTT",
                str(Path(self._start_dir()) / f"{stem}.uvtt"),
                EXPORT_FILTER,
            )
            if not out:
                return False
        base = getattr(doc, "map_path", None) or doc.path
        game_map = doc.map.model_copy(deep=True)
        try:
            report = run_with_progress(
                self.window,
                f"Writing {Path(out).name}…",
                lambda: uvtt.export_file(game_map, base, out, picture_to_png),
            )
        except LoadError as e:
            self.window.show_error("Cannot export the battle map", str(e))
            return False
        self.window.statusBar().showMessage(report.describe(), 10_000)
        return True


def install_uvtt(window) -> UvttController:
    """Add File ▸ Import battle map… and File ▸ Export Universal VTT… to ``window``."""
    ctl = UvttController(window)
    window.uvtt = ctl
    return ctl


__all__ = ["ImportDialog", "UvttController", "install_uvtt", "picture_to_png"]
