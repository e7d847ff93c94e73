"""The export's options and page plan (no painting): the print scale, the paper, the
pages a map is tiled over and the size of a PNG — what :mod:`.export` writes and the
export dialog previews. Limits and their errors are named here, once."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRectF

from ...errors import LoadError
from ...io import SaveError
from ...model import Encounter, Map
from ..scene.frame import MapFrame

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


def map_of(source) -> Map:
    from ..core.document import EncounterDocument

    if isinstance(source, Map):
        return source
    if isinstance(source, EncounterDocument):
        return source.map
    if isinstance(source, Encounter):
        if source.map is None:
            raise LoadError("encounter", "its map is not loaded (it refers to a map file)")
        return source.map
    if isinstance(source, (str, os.PathLike)):
        from ...io import open_any

        return open_any(os.fspath(source)).map  # the window's own open path and checks
    m = getattr(source, "map", None)  # a LoadedEncounter
    if isinstance(m, Map):
        return m
    raise TypeError(f"cannot export a {type(source).__name__}")


def document_of(source):
    """(document, made_here): the EncounterDocument to render ``source`` from."""
    from ..core.document import EncounterDocument

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
    m = map_of(source)
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
    m = map_of(source)
    mm = parse_scale(scale, m.print_hex_mm)
    check_dpi(dpi)
    frame = MapFrame(m)
    b = frame.bounds()
    k = mm / frame.hex_width
    px_per_mm = dpi / MM_PER_INCH
    w = math.ceil((b.width() * k + 2 * MAP_PAD_MM) * px_per_mm)
    h = math.ceil((b.height() * k + 2 * MAP_PAD_MM) * px_per_mm)
    return w, h


def check_dpi(dpi) -> float:
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
