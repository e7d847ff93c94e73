"""Scene coordinates of a map: every hex <-> pixel conversion of the view goes here.

Scene units are the map's pixels at 100 % zoom: a hex of radius ``map.hex_px``.
Free geometry in the map file (walls, labels, the background) is in map units
(hex radius 1), so scene = map units × ``hex_px``. All conversions go through the
map's :class:`~twtw_desktop.hexgrid.Layout` (DESIGN.md habit 4).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF

from ...hexgrid import Hex, Layout, Orientation, hex_to_offset, offset_label, offset_to_hex
from ...model import Map

SQRT3 = math.sqrt(3.0)


class MapFrame:
    """The layout of one map in scene pixels, with the map's outline and bounds."""

    def __init__(self, m: Map) -> None:
        self.map = m
        self.unit = float(m.hex_px)
        self.layout: Layout = m.layout(size=self.unit)
        self.orientation = m.orientation
        self._corners = [self.layout.corner_offset(i) for i in range(6)]
        self._outline: QPainterPath | None = None
        self._bounds: QRectF | None = None

    # -- points --------------------------------------------------------------------

    def center(self, h: Hex) -> QPointF:
        x, y = self.layout.hex_to_pixel(h)
        return QPointF(x, y)

    def center_xy(self, h: Hex) -> tuple[float, float]:
        return self.layout.hex_to_pixel(h)

    def hex_at(self, p: QPointF) -> Hex:
        return self.layout.pixel_to_hex(p.x(), p.y())

    def to_scene(self, pt: tuple[float, float]) -> QPointF:
        """A map-unit point as a scene point."""
        return QPointF(pt[0] * self.unit, pt[1] * self.unit)

    def to_map(self, p: QPointF) -> tuple[float, float]:
        return (p.x() / self.unit, p.y() / self.unit)

    def polygon(self, h: Hex, shrink: float = 1.0) -> QPolygonF:
        cx, cy = self.layout.hex_to_pixel(h)
        return QPolygonF([QPointF(cx + dx * shrink, cy + dy * shrink) for dx, dy in self._corners])

    def contains(self, h: Hex) -> bool:
        return self.map.contains(h)

    def label(self, h: Hex) -> str:
        return offset_label(h, self.orientation)

    def facing_vector(self, facing: int) -> tuple[float, float]:
        """Unit vector on screen (y down) pointing out of the hexside ``facing``."""
        a = math.radians(self.layout.facing_angle(facing))
        return (math.cos(a), -math.sin(a))

    def facing_toward_point(self, origin: Hex, p: QPointF) -> int:
        """The facing whose hexside direction is nearest the direction to ``p``."""
        cx, cy = self.layout.hex_to_pixel(origin)
        ang = math.degrees(math.atan2(-(p.y() - cy), p.x() - cx)) % 360.0
        base = self.layout.facing_angle(0)
        return round(((ang - base) % 360.0) / 60.0) % 6

    # -- the map as a whole --------------------------------------------------------

    @property
    def hex_width(self) -> float:
        """Distance between neighbouring centres (one pace)."""
        return self.unit * SQRT3

    def bounds(self) -> QRectF:
        """Scene rectangle holding every hex of the map."""
        if self._bounds is None:
            xs: list[float] = []
            ys: list[float] = []
            for h in self._rim():
                for x, y in self.layout.polygon_corners(h):
                    xs.append(x)
                    ys.append(y)
            self._bounds = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        return self._bounds

    def _rim(self) -> list[Hex]:
        m = self.map
        out = []
        for c in range(m.cols):
            out.append(offset_to_hex(c, 0, m.orientation))
            out.append(offset_to_hex(c, m.rows - 1, m.orientation))
            if m.rows > 1:
                out.append(offset_to_hex(c, 1, m.orientation))
                out.append(offset_to_hex(c, m.rows - 2, m.orientation))
        for r in range(m.rows):
            out.append(offset_to_hex(0, r, m.orientation))
            out.append(offset_to_hex(m.cols - 1, r, m.orientation))
            if m.cols > 1:
                out.append(offset_to_hex(1, r, m.orientation))
                out.append(offset_to_hex(m.cols - 2, r, m.orientation))
        return out

    def outline(self) -> QPainterPath:
        """The map's jagged outline (the union of its hexes) as one closed path."""
        if self._outline is not None:
            return self._outline
        edges: dict[tuple, tuple] = {}
        for h in set(self._rim()):
            pts = self.layout.polygon_corners(h)
            for i in range(6):
                a = _key(pts[i])
                b = _key(pts[(i + 1) % 6])
                # an edge shared with an in-map neighbour is interior: drop it
                if (b, a) in edges:
                    del edges[(b, a)]
                    continue
                edges[(a, b)] = (pts[i], pts[(i + 1) % 6])
        # Interior hexes are not in the rim, so edges between rim and interior hexes
        # remain; keep only the ones that have no in-map hex on the other side.
        keep: dict[tuple, tuple] = {}
        for (a, b), (pa, pb) in edges.items():
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            cx, cy = self._outward(pa, pb)
            other = self.layout.pixel_to_hex(mx + cx, my + cy)
            if not self.map.contains(other):
                keep[a] = (b, pa)
        path = QPainterPath()
        if keep:
            start = next(iter(keep))
            cur = start
            first = True
            for _ in range(len(keep) + 1):
                nxt, p = keep[cur]
                if first:
                    path.moveTo(p[0], p[1])
                    first = False
                else:
                    path.lineTo(p[0], p[1])
                cur = nxt
                if cur == start:
                    break
            path.closeSubpath()
        self._outline = path
        return path

    def _outward(self, pa: tuple[float, float], pb: tuple[float, float]) -> tuple[float, float]:
        # polygon corners go clockwise on screen, so the outside is to the left of a→b
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        n = math.hypot(dx, dy) or 1.0
        k = self.unit * 0.3 / n
        return (dy * k, -dx * k)

    def offset_range(self, rect: QRectF) -> tuple[int, int, int, int]:
        """Inclusive (col0, col1, row0, row1) of the hexes that may touch ``rect``."""
        m = self.map
        w, s = self.hex_width, self.unit
        if self.orientation is Orientation.POINTY:
            c0 = math.floor((rect.left() - w) / w)
            c1 = math.ceil((rect.right() + w) / w)
            r0 = math.floor((rect.top() - s) / (1.5 * s))
            r1 = math.ceil((rect.bottom() + s) / (1.5 * s))
        else:
            c0 = math.floor((rect.left() - s) / (1.5 * s))
            c1 = math.ceil((rect.right() + s) / (1.5 * s))
            r0 = math.floor((rect.top() - w) / w)
            r1 = math.ceil((rect.bottom() + w) / w)
        return (max(0, c0), min(m.cols - 1, c1), max(0, r0), min(m.rows - 1, r1))

    def hexes_in(self, rect: QRectF) -> list[Hex]:
        c0, c1, r0, r1 = self.offset_range(rect)
        o = self.orientation
        return [offset_to_hex(c, r, o) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def hex_rect(self, h: Hex) -> QRectF:
        x, y = self.layout.hex_to_pixel(h)
        s = self.unit
        return QRectF(x - s, y - s, 2 * s, 2 * s)

    def offset(self, h: Hex) -> tuple[int, int]:
        return hex_to_offset(h, self.orientation)


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return (round(p[0] * 64), round(p[1] * 64))
