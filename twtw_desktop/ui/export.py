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
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
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

from ..errors import LoadError
from ..io import SaveError, write_atomic
from ..model import Encounter, Map
from .scene import style
from .scene.frame import MapFrame
from .scene.grid_painter import GridPainter

MM_PER_INCH = 25.4

#: named print scales (hex width flat to flat, mm)
SCALE_PRESETS: dict[str, float] = {"1in": 25.4, "25mm": 25.0}
#: smallest and largest hex the exporter prints (mm flat to flat); below 5 mm the
#: coordinates cannot be read, 100 mm is the map file's own limit for print_hex_mm
MIN_HEX_MM = 5.0
MAX_HEX_MM = 100.0

#: paper sizes, portrait (width, height) in mm
PAPER_MM: dict[str, tuple[float, float]] = {
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
    "legal": (215.9, 355.6),
    "a3": (297.0, 420.0),
}
PAPER_TITLES = {"letter": "Letter", "a4": "A4", "legal": "Legal", "a3": "A3"}
_PAGE_SIZE_IDS = {
    "letter": QPageSize.PageSizeId.Letter,
    "a4": QPageSize.PageSizeId.A4,
    "legal": QPageSize.PageSizeId.Legal,
    "a3": QPageSize.PageSizeId.A3,
}
ORIENTATIONS = ("auto", "portrait", "landscape")

#: blank border of every page: most home printers cannot print the outer 4–6 mm
PAGE_MARGIN_MM = 8.0
#: band above the map holding the page label, scale bar and page key
HEADER_MM = 13.0
#: width of the strip two neighbouring pages share (the part taped over)
OVERLAP_MM = 12.0
#: paper left around the map's outline
MAP_PAD_MM = 2.0
#: line widths on paper
GRID_LINE_MM = 0.2
EDGE_LINE_MM = 0.5
GUIDE_LINE_MM = 0.25
#: registration mark: circle radius and cross half-length
MARK_RADIUS_MM = 2.2
MARK_ARM_MM = 3.6
#: coordinate text height as a fraction of the hex radius (as on screen)
COORD_TEXT = 0.22
#: most pages one export writes
MAX_PAGES = 1000

#: logical resolution of the PDF's device units (see the module docstring)
PDF_DPI = 96
DEFAULT_PNG_DPI = 150
MIN_PNG_DPI = 30
MAX_PNG_DPI = 1200
#: largest picture the PNG export makes (memory: 4 bytes a pixel)
MAX_PNG_SIDE = 20_000
MAX_PNG_PIXELS = 120_000_000

PAPER = QColor(255, 255, 255)
INK = QColor(40, 32, 24)
GUIDE = QColor(90, 90, 90)
COORD_INK = QColor(110, 96, 74, 200)
ELEVATION_INK = QColor(60, 40, 20, 220)


class ExportError(SaveError):
    """An export could not be written; nothing was left at the target path."""


# --- options ---------------------------------------------------------------------------

_SCALE_RE = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(mm|in|inch|inches|\")?\s*$", re.IGNORECASE)


def parse_scale(scale: str | float | int | None, default_mm: float = 25.4) -> float:
    """Hex width flat to flat in mm from ``"1in"``, ``"25mm"``, ``"0.75in"``, ``"19"``
    (a bare number is millimetres), a number, or None for ``default_mm``.

    ValueError with the offending text when it is not understood or out of range.
    """
    if scale is None:
        mm = float(default_mm)
    elif isinstance(scale, bool):
        raise ValueError(f"the scale {scale!r} is not a size")
    elif isinstance(scale, (int, float)):
        mm = float(scale)
    else:
        text = str(scale).strip()
        key = text.lower().replace(" ", "")
        if key in SCALE_PRESETS:
            mm = SCALE_PRESETS[key]
        else:
            m = _SCALE_RE.match(text)
            if m is None:
                raise ValueError(
                    f"the scale {text!r} is not understood; give 1in, 25mm or a hex width "
                    "in millimetres"
                )
            mm = float(m.group(1))
            if (m.group(2) or "mm").lower() != "mm":
                mm *= MM_PER_INCH
    if not math.isfinite(mm) or not MIN_HEX_MM <= mm <= MAX_HEX_MM:
        raise ValueError(
            f"the scale {scale!r} gives hexes {mm:g} mm wide; choose "
            f"{MIN_HEX_MM:g}–{MAX_HEX_MM:g} mm"
        )
    return mm


def describe_scale(mm: float) -> str:
    """``1 in (25.4 mm)``, ``25 mm``, ``19.05 mm (0.75 in)``."""
    inches = mm / MM_PER_INCH
    if abs(inches - round(inches, 2)) < 1e-9 and round(inches, 2) > 0:
        return f"{round(inches, 2):g} in ({mm:g} mm)"
    return f"{mm:g} mm"


def _paper(paper: str) -> str:
    key = str(paper).strip().lower().replace(" ", "").replace("-", "")
    if key not in PAPER_MM:
        raise ValueError(f"the paper {paper!r} is not known; choose {', '.join(PAPER_MM)}")
    return key


# --- sources ---------------------------------------------------------------------------


def _map_of(source) -> Map:
    from .document import EncounterDocument

    if isinstance(source, Map):
        return source
    if isinstance(source, EncounterDocument):
        return source.map
    if isinstance(source, Encounter):
        if source.map is None:
            raise LoadError("encounter", "its map is not loaded (it refers to a map file)")
        return source.map
    if isinstance(source, (str, os.PathLike)):
        from ..io import open_any

        return open_any(source).map  # the window's own open path and checks
    m = getattr(source, "map", None)  # a LoadedEncounter
    if isinstance(m, Map):
        return m
    raise TypeError(f"cannot export a {type(source).__name__}")


def _document(source):
    """(document, made_here): the EncounterDocument to render ``source`` from."""
    from .document import EncounterDocument

    if isinstance(source, EncounterDocument):
        return source, False
    if isinstance(source, (str, os.PathLike)):
        return EncounterDocument.open(source), True
    if isinstance(source, Map):
        return EncounterDocument(Encounter(name=source.name, map=source)), True
    if isinstance(source, Encounter):
        return EncounterDocument(source), True
    m = getattr(source, "map", None)
    enc = getattr(source, "encounter", None)
    if isinstance(m, Map) and isinstance(enc, Encounter):  # a LoadedEncounter
        doc = EncounterDocument(
            enc, path=source.path, map_=m, map_path=getattr(source, "map_path", None)
        )
        return doc, True
    raise TypeError(f"cannot export a {type(source).__name__}")


# --- page plan -------------------------------------------------------------------------


@dataclass(frozen=True)
class PagePlan:
    """How a map falls on the pages of a PDF: everything in millimetres.

    "Sheet" coordinates place the map on the assembled, taped-together sheet: page
    ``(r, c)`` shows the sheet rectangle starting at ``(c * step_x, r * step_y)`` of
    the content's size, so neighbouring pages share :data:`OVERLAP_MM`.
    """

    map_name: str
    scale_mm: float
    paper: str
    orientation: str  # "portrait" | "landscape"
    page_w: float
    page_h: float
    content_x: float
    content_y: float
    content_w: float
    content_h: float
    rows: int
    cols: int
    overlap: float
    #: the map (with its padding) on the sheet: its top-left corner and size
    map_x: float
    map_y: float
    map_w: float
    map_h: float
    #: scene rectangle of the padded map (x, y, w, h) and mm per scene unit
    scene_left: float
    scene_top: float
    mm_per_scene: float

    @property
    def pages(self) -> int:
        return self.rows * self.cols

    @property
    def step_x(self) -> float:
        return self.content_w - self.overlap

    @property
    def step_y(self) -> float:
        return self.content_h - self.overlap

    def sheet_origin(self, r: int, c: int) -> tuple[float, float]:
        """Sheet position of page ``(r, c)``'s content top-left corner."""
        return (c * self.step_x, r * self.step_y)

    def scene_to_sheet(self, x: float, y: float) -> tuple[float, float]:
        return (
            self.map_x + (x - self.scene_left) * self.mm_per_scene,
            self.map_y + (y - self.scene_top) * self.mm_per_scene,
        )

    def scene_to_page(self, r: int, c: int, x: float, y: float) -> tuple[float, float]:
        """Where scene point ``(x, y)`` lands on page ``(r, c)``, mm from the paper's
        top-left corner (it may fall outside the page's content)."""
        sx, sy = self.scene_to_sheet(x, y)
        ox, oy = self.sheet_origin(r, c)
        return (self.content_x + sx - ox, self.content_y + sy - oy)

    def page_scene_rect(self, r: int, c: int) -> QRectF:
        """The scene rectangle page ``(r, c)`` shows."""
        ox, oy = self.sheet_origin(r, c)
        k = self.mm_per_scene
        return QRectF(
            self.scene_left + (ox - self.map_x) / k,
            self.scene_top + (oy - self.map_y) / k,
            self.content_w / k,
            self.content_h / k,
        )

    def registration_marks(self) -> list[tuple[float, float]]:
        """Sheet positions of the registration marks: two in the middle of every
        overlap strip between side-by-side pages, placed a quarter and three quarters
        of the way along the page they border."""
        out: list[tuple[float, float]] = []
        ov = self.overlap
        for r in range(self.rows):
            y0 = r * self.step_y
            for c in range(self.cols - 1):
                x = (c + 1) * self.step_x + ov / 2
                out += [(x, y0 + self.content_h * 0.25), (x, y0 + self.content_h * 0.75)]
        for r in range(self.rows - 1):
            y = (r + 1) * self.step_y + ov / 2
            for c in range(self.cols):
                x0 = c * self.step_x
                out += [(x0 + self.content_w * 0.25, y), (x0 + self.content_w * 0.75, y)]
        return out

    def describe(self) -> str:
        n = self.pages
        grid = f" ({self.rows} × {self.cols})" if n > 1 else ""
        return (
            f"{n} page{'s' if n != 1 else ''}{grid}, {PAPER_TITLES[self.paper]} "
            f"{self.orientation}, 1 hex = {describe_scale(self.scale_mm)} flat to flat"
        )


def _tiles(length: float, content: float, overlap: float) -> int:
    if length <= content + 1e-9:
        return 1
    return math.ceil((length - overlap) / (content - overlap) - 1e-9)


def _plan(m: Map, mm: float, paper: str, orientation: str) -> PagePlan:
    pw, ph = PAPER_MM[paper]
    if orientation == "landscape":
        pw, ph = ph, pw
    frame = MapFrame(m)
    b = frame.bounds()
    k = mm / frame.hex_width  # mm per scene unit
    pad = MAP_PAD_MM / k
    map_w = b.width() * k + 2 * MAP_PAD_MM
    map_h = b.height() * k + 2 * MAP_PAD_MM
    cx, cy = PAGE_MARGIN_MM, PAGE_MARGIN_MM + HEADER_MM
    cw, ch = pw - 2 * PAGE_MARGIN_MM, ph - 2 * PAGE_MARGIN_MM - HEADER_MM
    cols = _tiles(map_w, cw, OVERLAP_MM)
    rows = _tiles(map_h, ch, OVERLAP_MM)
    # centre the map on the assembled sheet
    span_w = cols * cw - (cols - 1) * OVERLAP_MM
    span_h = rows * ch - (rows - 1) * OVERLAP_MM
    return PagePlan(
        map_name=m.name,
        scale_mm=mm,
        paper=paper,
        orientation=orientation,
        page_w=pw,
        page_h=ph,
        content_x=cx,
        content_y=cy,
        content_w=cw,
        content_h=ch,
        rows=rows,
        cols=cols,
        overlap=OVERLAP_MM,
        map_x=(span_w - map_w) / 2,
        map_y=(span_h - map_h) / 2,
        map_w=map_w,
        map_h=map_h,
        scene_left=b.left() - pad,
        scene_top=b.top() - pad,
        mm_per_scene=k,
    )


def plan_pages(
    source, *, scale: str | float | None = None, paper: str = "letter", orientation: str = "auto"
) -> PagePlan:
    """The page layout a PDF export would use (no painting; for previews and tests).

    ``orientation="auto"`` takes whichever of portrait and landscape needs fewer
    pages (portrait on a tie). ValueError for an unknown scale, paper or orientation.
    """
    m = _map_of(source)
    mm = parse_scale(scale, m.print_hex_mm)
    paper = _paper(paper)
    o = str(orientation).strip().lower()
    if o not in ORIENTATIONS:
        raise ValueError(
            f"the orientation {orientation!r} is not known; choose {', '.join(ORIENTATIONS)}"
        )
    if o != "auto":
        return _plan(m, mm, paper, o)
    portrait = _plan(m, mm, paper, "portrait")
    landscape = _plan(m, mm, paper, "landscape")
    return landscape if landscape.pages < portrait.pages else portrait


def png_size(source, *, scale: str | float | None = None, dpi: float = DEFAULT_PNG_DPI):
    """(width, height) in pixels of the PNG :func:`export_png` would write."""
    m = _map_of(source)
    mm = parse_scale(scale, m.print_hex_mm)
    _check_dpi(dpi)
    frame = MapFrame(m)
    b = frame.bounds()
    k = mm / frame.hex_width
    px_per_mm = dpi / MM_PER_INCH
    w = math.ceil((b.width() * k + 2 * MAP_PAD_MM) * px_per_mm)
    h = math.ceil((b.height() * k + 2 * MAP_PAD_MM) * px_per_mm)
    return w, h


def _check_dpi(dpi) -> float:
    try:
        d = float(dpi)
    except (TypeError, ValueError):
        raise ValueError(f"the resolution {dpi!r} is not a number of dots per inch") from None
    if not math.isfinite(d) or not MIN_PNG_DPI <= d <= MAX_PNG_DPI:
        raise ValueError(
            f"the resolution {dpi!r} dpi is out of range; choose {MIN_PNG_DPI}–{MAX_PNG_DPI}"
        )
    return d


# --- results ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote."""

    path: Path
    format: str  # "pdf" | "png"
    scale_mm: float
    pages: int = 1
    rows: int = 1
    cols: int = 1
    paper: str = ""
    orientation: str = ""
    width_px: int = 0
    height_px: int = 0
    dpi: float = 0.0

    def describe(self) -> str:
        scale = f"1 hex = {describe_scale(self.scale_mm)} flat to flat"
        if self.format == "pdf":
            grid = f" ({self.rows} × {self.cols})" if self.pages > 1 else ""
            return (
                f"wrote {self.path}: {self.pages} page{'s' if self.pages != 1 else ''}{grid}, "
                f"{PAPER_TITLES.get(self.paper, self.paper)} {self.orientation}, {scale}"
            )
        return (
            f"wrote {self.path}: {self.width_px} × {self.height_px} px at {self.dpi:g} dpi, {scale}"
        )


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

    from .scene.map_scene import MapScene

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
    doc, made = _document(source)
    try:
        try:
            mm = parse_scale(scale, doc.map.print_hex_mm)
            d = _check_dpi(dpi)
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
            if not img.save(str(tmp), "PNG"):
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
    doc, made = _document(source)
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
    doc, made = _document(source)
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


__all__ = [
    "MAX_HEX_MM",
    "MIN_HEX_MM",
    "OVERLAP_MM",
    "PAPER_MM",
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
]
