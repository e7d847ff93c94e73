"""Export a map to PNG or PDF at a print scale, for the table (no window needed).

Print scale
    One hex is printed ``scale`` millimetres wide measured *flat to flat* (the
    distance between neighbouring hex centres, one pace); this is the meaning of the
    map's ``print_hex_mm`` field, which is the default. ``"1in"`` (25.4 mm) suits
    standard 25–28 mm miniatures on a one-inch battle mat; ``"25mm"`` is the metric
    mat. Any other size is given in millimetres (:func:`parse_scale`).

PDF
    Vector output: the scene's items are rendered through :class:`MapScene` and the
    hexes are drawn with the painter (never the on-screen pixmap tiles). A map larger
    than the paper is tiled over several pages that overlap by :data:`OVERLAP_MM`;
    every page carries its label (map name, page number, row and column, scale, a
    one-hex scale bar and a small key of the page grid), dashed lines where the
    neighbouring pages' edges land, and registration marks (circle and cross) that
    print at the same map spot on both pages of an overlap, so a Judge can lay one
    sheet over the other, line the marks up and tape them together.

PNG
    One picture of the whole map at the print scale and a resolution (``dpi``, stored
    in the file so an image viewer prints it at the right size).

Both leave the Judge's layers out unless ``judge_layers=True`` (a
``MapScene(public=True)`` never creates their items), draw the hex coordinates only
with ``coordinates=True``, and leave tokens off unless ``tokens=True`` (a printed
map is for miniatures). Files are written to a temporary name in the same folder and
moved over the target only when complete; a bad path, scale, paper or resolution
raises :class:`ExportError` naming it, before anything is written.

Qt's fonts are sized in points, which each paint device turns into pixels at its own
resolution; the PDF is therefore written at a logical :data:`PDF_DPI` of 96 (the
screen's), so scene text keeps its size relative to the hexes. Coordinates are
floating point, so the output stays vector and exact at any zoom.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPainterPath,
    QPdfWriter,
    QPen,
    QTransform,
)

from ...io import write_atomic
from ..scene import style
from ..scene.frame import MapFrame
from ..scene.grid_painter import GridPainter
from .export_plan import (
    COORD_TEXT,
    DEFAULT_PNG_DPI,
    EDGE_LINE_MM,
    GRID_LINE_MM,
    GUIDE_LINE_MM,
    HEADER_MM,
    MAP_PAD_MM,
    MARK_ARM_MM,
    MARK_RADIUS_MM,
    MAX_HEX_MM,
    MAX_PAGES,
    MAX_PNG_DPI,
    MAX_PNG_PIXELS,
    MAX_PNG_SIDE,
    MIN_HEX_MM,
    MIN_PNG_DPI,
    MM_PER_INCH,
    ORIENTATIONS,
    OVERLAP_MM,
    PAGE_MARGIN_MM,
    PAPER_MM,
    PAPER_TITLES,
    PDF_DPI,
    SCALE_PRESETS,
    ExportError,
    ExportResult,
    PagePlan,
    check_dpi,
    describe_scale,
    document_of,
    parse_scale,
    plan_pages,
    png_size,
)

_PAGE_SIZE_IDS = {
    "letter": QPageSize.PageSizeId.Letter,
    "a4": QPageSize.PageSizeId.A4,
    "legal": QPageSize.PageSizeId.Legal,
    "a3": QPageSize.PageSizeId.A3,
}


PAPER = QColor(255, 255, 255)
INK = QColor(40, 32, 24)
GUIDE = QColor(90, 90, 90)
COORD_INK = QColor(110, 96, 74, 200)
ELEVATION_INK = QColor(60, 40, 20, 220)

# --- the print scene -------------------------------------------------------------------


class _PrintGround(GridPainter):
    """The ground for paper: the same hexes as on screen, drawn as vectors straight
    into the painter (no pixmap tiles), white paper off the map, grid lines and the
    map's edge at fixed widths in millimetres, coordinates sized to the hexes."""

    def __init__(self, frame: MapFrame, mm_per_scene: float) -> None:
        super().__init__(frame)
        self.mm_per_scene = mm_per_scene

    def paint(self, painter: QPainter, exposed: QRectF) -> None:
        fr = self.frame
        k = self.mm_per_scene
        outline = fr.outline()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        off = QPainterPath()  # a little beyond the exposed rect: no seam at its edge
        off.addRect(exposed.adjusted(-fr.unit, -fr.unit, fr.unit, fr.unit))
        painter.fillPath(off.subtracted(outline), PAPER)
        if not self.transparent_ground:
            painter.fillPath(outline, style.GROUND)
        hex_dev = fr.unit * painter.worldTransform().m11()
        if self.show_terrain:
            self._paint_hexes(painter, exposed, hex_dev)
        if self.show_grid:
            self._print_grid(painter, exposed, GRID_LINE_MM / k)
        self._print_text(painter, exposed, hex_dev)
        pen = QPen(style.MAP_EDGE, EDGE_LINE_MM / k)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(outline)
        painter.restore()

    def _print_grid(self, p: QPainter, rect: QRectF, width: float) -> None:
        """Three sides of every hex (together each shared side once); the map edge
        line closes the outer ones."""
        fr = self.frame
        c = fr._corners
        lay = fr.layout
        path = QPainterPath()
        for h in fr.hexes_in(rect):
            cx, cy = lay.hex_to_pixel(h)
            path.moveTo(cx + c[0][0], cy + c[0][1])
            for i in (1, 2, 3):
                path.lineTo(cx + c[i][0], cy + c[i][1])
        pen = QPen(style.GRID_LINE, width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)

    def _print_text(self, p: QPainter, rect: QRectF, hex_dev: float) -> None:
        """Coordinates (when shown) near the top of each hex and elevation numbers
        near the bottom, laid out in device units so the font is not scaled."""
        fr = self.frame
        m = fr.map
        elev = m.elevation
        if not self.show_labels and (elev is None or not any(any(r) for r in elev)):
            return
        t = p.worldTransform()
        dpi = p.device().logicalDpiY() or 96
        font = QFont()
        font.setPointSizeF(max(0.5, hex_dev * COORD_TEXT * 72.0 / dpi))
        p.save()
        p.setWorldTransform(QTransform())
        p.setFont(font)
        top = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        for h in fr.hexes_in(rect):
            d = t.map(QPointF(*fr.center_xy(h)))
            if self.show_labels:
                p.setPen(COORD_INK)
                box = QRectF(d.x() - hex_dev, d.y() - hex_dev * 0.82, 2 * hex_dev, hex_dev * 0.4)
                p.drawText(box, top, fr.label(h))
            if elev is not None:
                col, row = fr.offset(h)
                e = elev[row][col]
                if e:
                    p.setPen(ELEVATION_INK)
                    box = QRectF(
                        d.x() - hex_dev, d.y() + hex_dev * 0.42, 2 * hex_dev, hex_dev * 0.4
                    )
                    p.drawText(box, top, f"{e:+d}")
        p.restore()


def _print_scene(doc, mm_per_scene: float, *, coordinates: bool, judge_layers: bool, tokens: bool):
    """A private scene of ``doc`` set up for paper."""
    from PySide6.QtWidgets import QGraphicsItem

    from ..scene.map_scene import MapScene

    scene = MapScene(doc, public=not judge_layers)
    scene.wait_for_background()  # a print must show the picture, however big
    ground = _PrintGround(scene.frame, mm_per_scene)
    ground.transparent_ground = scene.grid.transparent_ground
    ground.show_labels = coordinates
    scene.grid = ground
    scene.set_layer_visible("tokens", tokens)
    for it in scene.items():  # vectors, not cached pixmaps (tokens, walls)
        it.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    return scene


# --- writing ---------------------------------------------------------------------------


def _target(path, suffix: str) -> Path:
    """Check the output path before anything is made (ExportError naming it)."""
    try:
        p = Path(path)
    except TypeError:
        raise ExportError(str(path), "is not a file name") from None
    if not p.name or p.name in (".", ".."):
        raise ExportError(p, f"give a file name ending in {suffix}")
    if p.suffix.lower() != suffix:
        raise ExportError(p, f"the file name must end in {suffix} for a {suffix[1:].upper()}")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(p, f"the folder {folder} does not exist")
    if p.exists() and not p.is_file():
        raise ExportError(p, "there is a folder or a special file at this path")
    if p.exists() and not os.access(p, os.W_OK):
        raise ExportError(p, "the file is read-only")
    if not os.access(folder, os.W_OK):
        raise ExportError(p, f"the folder {folder} cannot be written to")
    return p


def _render_png(doc, mm, dpi, w, h, coordinates, judge_layers, tokens) -> QImage:
    """The whole map as a ``w`` × ``h`` picture (null when memory runs out)."""
    frame = MapFrame(doc.map)
    k = mm / frame.hex_width  # mm per scene unit
    px_per_mm = dpi / MM_PER_INCH
    img = QImage(w, h, QImage.Format.Format_RGB32)
    if img.isNull():
        return img
    scene = _print_scene(doc, k, coordinates=coordinates, judge_layers=judge_layers, tokens=tokens)
    pad = MAP_PAD_MM / k
    b = frame.bounds()
    src = QRectF(b.left() - pad, b.top() - pad, w / px_per_mm / k, h / px_per_mm / k)
    img.fill(PAPER)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    scene.render(p, QRectF(0, 0, w, h), src, Qt.AspectRatioMode.IgnoreAspectRatio)
    p.end()
    # painted at the screen's logical dpi (so fonts keep their size), stamped with
    # the print resolution so viewers print it at the right size
    dpm = round(px_per_mm * 1000)
    img.setDotsPerMeterX(dpm)
    img.setDotsPerMeterY(dpm)
    return img


def export_png(
    source,
    path: str | os.PathLike,
    *,
    scale: str | float | None = None,
    dpi: float = DEFAULT_PNG_DPI,
    coordinates: bool = True,
    judge_layers: bool = False,
    tokens: bool = False,
) -> ExportResult:
    """Write the whole map as one PNG with hexes ``scale`` wide at ``dpi``.

    ``source`` is an EncounterDocument, a Map, an Encounter with its map, a
    LoadedEncounter or a map/encounter file path. Raises ExportError (bad path,
    scale, resolution, too large a picture) with nothing written.
    """
    target = _target(path, ".png")
    ensure_app()
    doc, made = document_of(source)
    try:
        try:
            mm = parse_scale(scale, doc.map.print_hex_mm)
            d = check_dpi(dpi)
            w, h = png_size(doc.map, scale=mm, dpi=d)
        except ValueError as e:
            raise ExportError(target, str(e)) from None
        if max(w, h) > MAX_PNG_SIDE or w * h > MAX_PNG_PIXELS:
            raise ExportError(
                target,
                f"the picture would be {w} × {h} pixels, more than this export makes "
                f"({MAX_PNG_SIDE} a side, {MAX_PNG_PIXELS // 1_000_000} million in all); "
                "lower the resolution or the scale",
            )
        img = _render_png(doc, mm, d, w, h, coordinates, judge_layers, tokens)
        if img.isNull():
            raise ExportError(target, f"there is not enough memory for a {w} × {h} picture")

        def write(tmp: Path) -> None:
            # the stubs want the format as bytes; PySide6 takes only a str (bytes: ValueError)
            if not img.save(str(tmp), "PNG"):  # type: ignore[call-overload]
                raise ExportError(target, "the PNG could not be written")

        write_atomic(target, write, cls=ExportError)
    finally:
        _drop(doc, made)
    return ExportResult(target, "png", mm, width_px=w, height_px=h, dpi=d)


def export_pdf(
    source,
    path: str | os.PathLike,
    *,
    scale: str | float | None = None,
    paper: str = "letter",
    orientation: str = "auto",
    coordinates: bool = True,
    judge_layers: bool = False,
    tokens: bool = False,
    progress: Callable[[int, int], bool] | None = None,
) -> ExportResult:
    """Write the map as a vector PDF at ``scale`` on ``paper``, tiled over as many
    pages as it needs (module docstring). Raises ExportError with nothing written.

    ``progress(done, total)`` is called before each page; returning False cancels
    the export (ExportError, nothing written)."""
    target = _target(path, ".pdf")
    ensure_app()
    doc, made = document_of(source)
    try:
        try:
            plan = plan_pages(doc.map, scale=scale, paper=paper, orientation=orientation)
        except ValueError as e:
            raise ExportError(target, str(e)) from None
        if plan.pages > MAX_PAGES:
            raise ExportError(
                target,
                f"the map would need {plan.pages} pages ({plan.rows} × {plan.cols}); this "
                f"export makes at most {MAX_PAGES}; choose a smaller scale or larger paper",
            )
        scene = _print_scene(
            doc,
            plan.mm_per_scene,
            coordinates=coordinates,
            judge_layers=judge_layers,
            tokens=tokens,
        )

        def write(tmp: Path) -> None:
            _write_pdf(tmp, target, plan, scene, progress)

        write_atomic(target, write, cls=ExportError)
    finally:
        _drop(doc, made)
    return ExportResult(
        target,
        "pdf",
        plan.scale_mm,
        pages=plan.pages,
        rows=plan.rows,
        cols=plan.cols,
        paper=plan.paper,
        orientation=plan.orientation,
    )


def render_thumbnail(
    source, max_px: int, *, coordinates: bool, judge_layers: bool, tokens: bool
) -> tuple[QImage, QRectF]:
    """The whole map (with the print padding) about ``max_px`` on its longer side,
    drawn as the PNG export draws it, and the scene rectangle the picture shows (the
    export dialog's preview)."""
    doc, made = document_of(source)
    try:
        m = doc.map
        frame = MapFrame(m)
        b = frame.bounds()
        try:
            mm = parse_scale(None, m.print_hex_mm)
        except ValueError:
            mm = SCALE_PRESETS["1in"]
        k = mm / frame.hex_width  # mm per scene unit
        w_mm = b.width() * k + 2 * MAP_PAD_MM
        h_mm = b.height() * k + 2 * MAP_PAD_MM
        px_per_mm = max_px / max(w_mm, h_mm)
        w = max(1, math.ceil(w_mm * px_per_mm))
        h = max(1, math.ceil(h_mm * px_per_mm))
        img = _render_png(doc, mm, px_per_mm * MM_PER_INCH, w, h, coordinates, judge_layers, tokens)
    finally:
        _drop(doc, made)
    pad = MAP_PAD_MM / k
    return img, QRectF(b.left() - pad, b.top() - pad, w / px_per_mm / k, h / px_per_mm / k)


def _drop(doc, made: bool) -> None:
    if made:
        with contextlib.suppress(RuntimeError):
            doc.deleteLater()


def _write_pdf(tmp: Path, target: Path, plan: PagePlan, scene, progress=None) -> None:
    writer = QPdfWriter(str(tmp))
    writer.setResolution(PDF_DPI)
    writer.setTitle(plan.map_name)
    writer.setCreator("TWTW Desktop")
    o = (
        QPageLayout.Orientation.Landscape
        if plan.orientation == "landscape"
        else QPageLayout.Orientation.Portrait
    )
    layout = QPageLayout(
        QPageSize(_PAGE_SIZE_IDS[plan.paper]),
        o,
        QMarginsF(0, 0, 0, 0),
        QPageLayout.Unit.Millimeter,
    )
    if not writer.setPageLayout(layout):
        raise ExportError(target, "the page size could not be set")
    p = QPainter()
    if not p.begin(writer):
        raise ExportError(target, "the PDF could not be started")
    try:
        d = PDF_DPI / MM_PER_INCH  # device units per mm
        marks = plan.registration_marks()
        first = True
        for r in range(plan.rows):
            for c in range(plan.cols):
                if progress is not None and progress(r * plan.cols + c, plan.pages) is False:
                    raise ExportError(target, "the export was cancelled; nothing was written")
                if not first and not writer.newPage():
                    raise ExportError(target, "a new page could not be started")
                first = False
                target_rect = QRectF(
                    plan.content_x * d, plan.content_y * d, plan.content_w * d, plan.content_h * d
                )
                p.save()
                scene.render(
                    p,
                    target_rect,
                    plan.page_scene_rect(r, c),
                    Qt.AspectRatioMode.IgnoreAspectRatio,
                )
                p.restore()
                _paint_page_furniture(p, plan, r, c, marks, d, judge_copy=not scene.public)
    finally:
        ended = p.end()
    if not ended:
        raise ExportError(target, "the PDF could not be finished (the disk may be full)")


# --- page furniture ----------------------------------------------------------------------


def _font(pt: float, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(pt)
    f.setBold(bold)
    return f


def _paint_page_furniture(
    p: QPainter,
    plan: PagePlan,
    r: int,
    c: int,
    marks: list[tuple[float, float]],
    d: float,
    judge_copy: bool = False,
) -> None:
    """Label, scale bar and page key above the map; overlap guides and registration
    marks on it; which page goes where in the margins."""
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    cx, cy, cw, ch = plan.content_x, plan.content_y, plan.content_w, plan.content_h
    n = r * plan.cols + c + 1

    def mm_rect(x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(x * d, y * d, w * d, h * d)

    # -- the label (left), the page key and a one-hex scale bar (right)
    top = PAGE_MARGIN_MM
    cell_w = min(2.4, 36.0 / plan.cols)
    cell_h = min(2.4, 9.0 / plan.rows)
    key_w = cell_w * plan.cols if plan.pages > 1 else 0.0
    bar_w = plan.scale_mm
    text_w = cw - key_w - bar_w - 10
    left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    title = f"{plan.map_name} — page {n} of {plan.pages}"
    if plan.pages > 1:
        title += f" (row {r + 1} of {plan.rows}, column {c + 1} of {plan.cols})"
    subtitle = (
        f"1 hex = {describe_scale(plan.scale_mm)} flat to flat — print at 100 % "
        "(actual size, no “fit to page”)"
    )
    if judge_copy:
        subtitle = "JUDGE'S COPY (secret layers shown) — " + subtitle
    p.setPen(INK)
    for text, pt, bold, y, h in ((title, 9, True, top, 5), (subtitle, 7, False, top + 5, 4.5)):
        f = _font(pt, bold)
        p.setFont(f)
        elided = QFontMetricsF(f).elidedText(text, Qt.TextElideMode.ElideRight, text_w * d)
        p.drawText(mm_rect(cx, y, text_w, h), left, elided)
    bx = cx + cw - bar_w
    by = top + 6.5
    p.setPen(QPen(INK, 0.3 * d))
    p.drawLine(QPointF(bx * d, by * d), QPointF((bx + bar_w) * d, by * d))
    for x in (bx, bx + bar_w):
        p.drawLine(QPointF(x * d, (by - 1.5) * d), QPointF(x * d, (by + 1.5) * d))
    p.setFont(_font(6.5))
    p.drawText(mm_rect(bx, top, bar_w, 5), Qt.AlignmentFlag.AlignCenter, "1 hex")
    if plan.pages > 1:
        kx = bx - 5 - key_w
        ky = top + (9.5 - cell_h * plan.rows) / 2
        p.setPen(QPen(INK, 0.15 * d))
        for rr in range(plan.rows):
            for cc in range(plan.cols):
                p.setBrush(INK if (rr, cc) == (r, c) else Qt.BrushStyle.NoBrush)
                p.drawRect(mm_rect(kx + cc * cell_w, ky + rr * cell_h, cell_w, cell_h))
        p.setBrush(Qt.BrushStyle.NoBrush)

    # -- overlap guides: where the neighbouring pages' edges land
    ov = plan.overlap
    pen = QPen(GUIDE, GUIDE_LINE_MM * d, Qt.PenStyle.DashLine)
    p.setPen(pen)
    guides = []
    if c + 1 < plan.cols:
        guides.append(((cx + plan.step_x, cy), (cx + plan.step_x, cy + ch)))
    if c > 0:
        guides.append(((cx + ov, cy), (cx + ov, cy + ch)))
    if r + 1 < plan.rows:
        guides.append(((cx, cy + plan.step_y), (cx + cw, cy + plan.step_y)))
    if r > 0:
        guides.append(((cx, cy + ov), (cx + cw, cy + ov)))
    for (x0, y0), (x1, y1) in guides:
        p.drawLine(QPointF(x0 * d, y0 * d), QPointF(x1 * d, y1 * d))

    # -- registration marks that fall on this page
    ox, oy = plan.sheet_origin(r, c)
    for sx, sy in marks:
        if ox <= sx <= ox + cw and oy <= sy <= oy + ch:
            _mark(p, QPointF((cx + sx - ox) * d, (cy + sy - oy) * d), d)

    # -- neighbours, named in the margins
    p.setPen(GUIDE)
    p.setFont(_font(6))
    centre = Qt.AlignmentFlag.AlignCenter

    def name(rr: int, cc: int) -> str:
        return f"page {rr * plan.cols + cc + 1} (row {rr + 1}, column {cc + 1})"

    if r > 0:
        p.drawText(mm_rect(cx, cy - 3.1, cw, 3), centre, f"↑ overlaps {name(r - 1, c)}")
    if r + 1 < plan.rows:
        p.drawText(mm_rect(cx, cy + ch + 0.3, cw, 3), centre, f"↓ overlaps {name(r + 1, c)}")
    for side, cc in (("left", c - 1), ("right", c + 1)):
        if not 0 <= cc < plan.cols:
            continue
        p.save()
        x = cx - 0.4 if side == "left" else cx + cw + 0.4
        p.translate(x * d, (cy + ch / 2) * d)
        p.rotate(-90 if side == "left" else 90)
        p.drawText(
            QRectF(-ch / 2 * d, -3.2 * d, ch * d, 3 * d), centre, f"↑ overlaps {name(r, cc)}"
        )
        p.restore()
    p.restore()


def _mark(p: QPainter, at: QPointF, d: float) -> None:
    """A registration mark: white halo, circle and cross."""
    rad, arm = MARK_RADIUS_MM * d, MARK_ARM_MM * d
    for colour, width in ((PAPER, 0.9), (INK, 0.25)):
        p.setPen(QPen(colour, width * d))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(at, rad, rad)
        p.drawLine(QPointF(at.x() - arm, at.y()), QPointF(at.x() + arm, at.y()))
        p.drawLine(QPointF(at.x(), at.y() - arm), QPointF(at.x(), at.y() + arm))


# --- application ----------------------------------------------------------------------------


def ensure_app():
    """The running QApplication, or a new one (offscreen when there is no display), so
    the exporter works from a script or the command line."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        no_display = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        if sys.platform.startswith("linux") and no_display:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication([sys.argv[0] if sys.argv and sys.argv[0] else "twtw-desktop"])
    return app


#: the export's interface (the options, limits and page plan live in :mod:`.export_plan`)
__all__ = [
    "DEFAULT_PNG_DPI",
    "HEADER_MM",
    "MAP_PAD_MM",
    "MAX_HEX_MM",
    "MAX_PAGES",
    "MAX_PNG_DPI",
    "MAX_PNG_PIXELS",
    "MAX_PNG_SIDE",
    "MIN_HEX_MM",
    "MIN_PNG_DPI",
    "ORIENTATIONS",
    "OVERLAP_MM",
    "PAGE_MARGIN_MM",
    "PAPER",
    "PAPER_MM",
    "PAPER_TITLES",
    "SCALE_PRESETS",
    "ExportError",
    "ExportResult",
    "PagePlan",
    "describe_scale",
    "ensure_app",
    "export_pdf",
    "export_png",
    "parse_scale",
    "plan_pages",
    "png_size",
    "render_thumbnail",
]
