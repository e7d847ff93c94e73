"""What the editor draws over the map: the brush outline, the selected region, the
selected object's highlight, a wall being drawn, and the alignment points."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from ...hexgrid import Hex
from ..scene.frame import MapFrame
from ..scene.map_items import Z_TOOL

BRUSH_COLOUR = QColor(30, 90, 200)
REGION_COLOUR = QColor(255, 190, 0)
REGION_FILL = QColor(255, 210, 60, 50)
SELECT_COLOUR = QColor(255, 120, 0)
DRAW_COLOUR = QColor(200, 40, 160)
#: regions larger than this are outlined without the per-hex tint (speed)
REGION_FILL_MAX = 4000


class HexSetItem(QGraphicsItem):
    """The outline of a set of hexes (only the sides not shared inside the set),
    optionally tinted."""

    def __init__(self, frame: MapFrame, colour: QColor, fill: QColor | None = None, dashed=False):
        super().__init__()
        self.frame = frame
        self.colour = colour
        self.fill = fill
        self.dashed = dashed
        self.hexes: frozenset[Hex] = frozenset()
        self._edges = QPainterPath()
        self._body = QPainterPath()
        self._rect = QRectF()
        self.setZValue(Z_TOOL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_hexes(self, hexes: Iterable[Hex]) -> None:
        hs = frozenset(hexes)
        if hs == self.hexes:
            return
        self.prepareGeometryChange()
        self.hexes = hs
        lay = self.frame.layout
        corners = [lay.corner_offset(i) for i in range(6)]
        steps = _side_steps(self.frame)
        edges = QPainterPath()
        body = QPainterPath()
        tint = self.fill is not None and len(hs) <= REGION_FILL_MAX
        for h in hs:
            cx, cy = lay.hex_to_pixel(h)
            for i in range(6):
                # the side from corner i to i+1 faces one neighbour: skip it when
                # that neighbour is in the set too
                if h + steps[i] in hs:
                    continue
                a, b = corners[i], corners[(i + 1) % 6]
                edges.moveTo(cx + a[0], cy + a[1])
                edges.lineTo(cx + b[0], cy + b[1])
            if tint:
                body.addPolygon(self.frame.polygon(h))
        self._edges = edges
        self._body = body
        u = self.frame.unit
        self._rect = edges.boundingRect().adjusted(-u * 0.2, -u * 0.2, u * 0.2, u * 0.2)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.hexes:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.fill is not None and not self._body.isEmpty():
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.fill)
            painter.drawPath(self._body)
        pen = QPen(self.colour, 2.5)
        pen.setCosmetic(True)
        if self.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._edges)


class OutlineItem(QGraphicsItem):
    """A dashed outline round a path (the selected wall, label or note)."""

    def __init__(self, colour: QColor = SELECT_COLOUR) -> None:
        super().__init__()
        self.colour = colour
        self._path = QPainterPath()
        self.setZValue(Z_TOOL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_path(self, path: QPainterPath) -> None:
        self.prepareGeometryChange()
        self._path = path
        self.update()

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(-4, -4, 4, 4)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pen = QPen(self.colour, 2.0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)


class PolylineItem(QGraphicsItem):
    """A wall being drawn: its corners so far and the stretch to the mouse."""

    def __init__(self, width: float, colour: QColor = DRAW_COLOUR) -> None:
        super().__init__()
        self.colour = colour
        self.width = width
        self.points: list[QPointF] = []
        self.preview: list[QPointF] = []
        self._path = QPainterPath()
        self.setZValue(Z_TOOL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_points(self, points: list[QPointF], preview: list[QPointF]) -> None:
        self.prepareGeometryChange()
        self.points = list(points)
        self.preview = list(preview)
        p = QPainterPath()
        allp = self.points + self.preview
        if allp:
            p.moveTo(allp[0])
            for q in allp[1:]:
                p.lineTo(q)
        self._path = p
        self.update()

    def boundingRect(self) -> QRectF:
        w = self.width * 2
        return self._path.boundingRect().adjusted(-w, -w, w, w)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pen = QPen(self.colour, self.width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.colour)
        for q in self.points:
            painter.drawEllipse(q, self.width * 0.9, self.width * 0.9)


class CrossItem(QGraphicsItem):
    """A numbered cross marking a point picked on the background picture."""

    def __init__(self, number: int, size: float) -> None:
        super().__init__()
        self.number = number
        self.size = size
        self.setZValue(Z_TOOL + 1)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        s = self.size
        return QRectF(-s, -s, 3 * s, 2 * s)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        s = self.size
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pen = QPen(QColor(220, 20, 60), 2.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawLine(QPointF(-s, 0), QPointF(s, 0))
        painter.drawLine(QPointF(0, -s), QPointF(0, s))
        painter.drawText(QRectF(s * 0.3, -s, 2 * s, s), str(self.number))


def _side_steps(frame: MapFrame) -> list[Hex]:
    """For each side (corner i to i+1) of a hex, the step to the neighbour across it."""
    lay = frame.layout
    cs = [lay.corner_offset(i) for i in range(6)]
    out = []
    for i in range(6):
        a, b = cs[i], cs[(i + 1) % 6]
        out.append(lay.pixel_to_hex(a[0] + b[0], a[1] + b[1]))
    return out


def remove(item: QGraphicsItem | None) -> None:
    """Take an item off its scene (if it is on one)."""
    if item is not None and item.scene() is not None:
        item.scene().removeItem(item)
