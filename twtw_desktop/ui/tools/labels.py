"""Small scene items the tools draw: a text bubble, a hex outline, a path."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from ..scene.map_items import Z_TOOL


class Bubble(QGraphicsItem):
    """A few lines of text in a rounded box that keeps its screen size whatever the zoom."""

    def __init__(self, text: str = "", colour: QColor | None = None) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(Z_TOOL + 1)
        self._font = QFont()
        self._font.setPointSizeF(9.5)
        self._colour = colour or QColor(30, 30, 30)
        self._lines: list[str] = []
        self._rect = QRectF()
        self.set_text(text)

    def set_text(self, text: str, colour: QColor | None = None) -> None:
        self.prepareGeometryChange()
        if colour is not None:
            self._colour = colour
        self._lines = text.split("\n") if text else []
        fm = QFontMetricsF(self._font)
        w = max((fm.horizontalAdvance(x) for x in self._lines), default=0) + 12
        h = fm.height() * len(self._lines) + 8
        self._rect = QRectF(14, 10, w, h)  # down-right of the anchor, clear of the cursor
        self.update()

    def keep_in_view(self, view, clear_px: float = 14.0) -> None:
        """Put the box on the side of its anchor where it fits in ``view``'s viewport
        (down-right, up-right, down-left, up-left, in that order), clear of a square
        of ``clear_px`` around the anchor (the token and its name under it); when no
        side fits, the side showing most of it, pushed inside the view."""
        vp = QRectF(view.viewport().rect())
        a = QPointF(view.mapFromScene(self.pos()))
        w, h, d = self._rect.width(), self._rect.height(), max(0.0, clear_px)
        best, best_area = QRectF(d, d, w, h), -1.0
        for dx, dy in ((d, d), (d, -d - h), (-d - w, d), (-d - w, -d - h)):
            r = QRectF(a.x() + dx, a.y() + dy, w, h)
            if vp.contains(r):
                best = QRectF(dx, dy, w, h)
                break
            inter = vp.intersected(r)
            area = inter.width() * inter.height()
            if area > best_area:
                best, best_area = QRectF(dx, dy, w, h), area
        else:  # no side has room: inside the view matters more than off the token
            r = best.translated(a)
            sx = max(vp.left() - r.left(), 0.0) + min(vp.right() - r.right(), 0.0)
            sy = max(vp.top() - r.top(), 0.0) + min(vp.bottom() - r.bottom(), 0.0)
            best = best.translated(sx, sy)
        self.prepareGeometryChange()
        self._rect = best
        self.update()

    def screen_rect(self, view) -> QRectF:
        """The box in ``view``'s viewport coordinates."""
        a = QPointF(view.mapFromScene(self.pos()))
        return self._rect.translated(a)

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self._lines:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(self._colour, 1.5))
        painter.setBrush(QColor(255, 255, 250, 235))
        painter.drawRoundedRect(self._rect, 5, 5)
        painter.setFont(self._font)
        painter.setPen(self._colour)
        fm = QFontMetricsF(self._font)
        y = self._rect.top() + 4
        for line in self._lines:
            painter.drawText(
                QRectF(self._rect.left() + 6, y, self._rect.width() - 8, fm.height()),
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                line,
            )
            y += fm.height()


class PathItem(QGraphicsItem):
    """A polyline through hex centres with dots on the hexes (a move path, a line)."""

    def __init__(self, colour: QColor, width: float, dots: bool = True, dashed: bool = False):
        super().__init__()
        self.setZValue(Z_TOOL)
        self.colour = colour
        self.width = width
        self.dots = dots
        self.dashed = dashed
        self.points: list[QPointF] = []
        self._path = QPainterPath()

    def set_points(self, points: list[QPointF], colour: QColor | None = None) -> None:
        self.prepareGeometryChange()
        self.points = list(points)
        if colour is not None:
            self.colour = colour
        p = QPainterPath()
        if self.points:
            p.moveTo(self.points[0])
            for q in self.points[1:]:
                p.lineTo(q)
        self._path = p
        self.update()

    def boundingRect(self) -> QRectF:
        return self._path.boundingRect().adjusted(
            -self.width * 2, -self.width * 2, self.width * 2, self.width * 2
        )

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if not self.points:
            return
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pen = QPen(
            self.colour, self.width, Qt.PenStyle.DashLine if self.dashed else Qt.PenStyle.SolidLine
        )
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        if self.dots:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self.colour)
            for q in self.points[1:]:
                painter.drawEllipse(q, self.width * 1.2, self.width * 1.2)
