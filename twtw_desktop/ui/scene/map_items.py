"""Scene items for the map's features: walls, cover, doors, windows, labels, Judge
notes and markers, and the background image. Thin views over the model objects."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from ...model.map import CoverHeight, Feature, Label, Marker, Material, Note
from . import style
from .frame import MapFrame

#: z order of the layers above the grid: overlays tint the ground under the walls
#: and tokens; what the tools draw (and the scatter clock) goes on top
Z_OVERLAY = 2
Z_FEATURE = 5
Z_LABEL = 6
Z_NOTE = 7
Z_TOKEN = 10
Z_TOOL = 30

#: AV text is drawn from this on-screen hex radius up
AV_TEXT_MIN_HEX_PX = 12.0

KIND_WORD = {"wall": "Wall", "cover": "Cover", "door": "Door", "window": "Window"}
MATERIAL_WORD = {
    Material.GLASS: "glass",
    Material.THIN_WOOD: "thin wood",
    Material.HARDWOOD: "hardwood",
    Material.ADOBE: "adobe",
    Material.THIN_IRON: "thin iron",
    Material.BRICK: "brick",
    Material.THICK_IRON: "thick iron",
}


def _lod(painter: QPainter, option: QStyleOptionGraphicsItem) -> float:
    return option.levelOfDetailFromTransform(painter.worldTransform())


class FeatureItem(QGraphicsItem):
    """A wall, cover, door or window: coloured by material, its AV written beside it."""

    def __init__(self, feature: Feature, frame: MapFrame, cover_av: dict[str, int]) -> None:
        super().__init__()
        self.feature_id = feature.id
        self.frame = frame
        self.cover_av = cover_av
        self.setZValue(Z_FEATURE)
        self.setAcceptHoverEvents(False)
        # a frame with thousands of walls in view blits their pixels, not their paint()
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.refresh(feature)

    def refresh(self, feature: Feature) -> None:
        self.prepareGeometryChange()
        self.feature = feature
        u = self.frame.unit
        pts = [self.frame.to_scene(p) for p in feature.points]
        self._pts = pts
        path = QPainterPath(pts[0])
        for p in pts[1:]:
            path.lineTo(p)
        self._path = path
        width = {"wall": 0.22, "cover": 0.16, "door": 0.16, "window": 0.14}[feature.kind] * u
        self._width = width
        # AV label beside the longest segment, on its left side
        best = max(range(len(pts) - 1), key=lambda i: _seglen(pts[i], pts[i + 1]))
        a, b = pts[best], pts[best + 1]
        mid = QPointF((a.x() + b.x()) / 2, (a.y() + b.y()) / 2)
        dx, dy = b.x() - a.x(), b.y() - a.y()
        n = math.hypot(dx, dy) or 1.0
        off = 0.42 * u
        self._label_at = QPointF(mid.x() + dy / n * off, mid.y() - dx / n * off)
        self._seg = (a, b)
        stroker = QPainterPathStroker()
        stroker.setWidth(max(width, 0.3 * u))
        self._shape = stroker.createStroke(path)
        self._bounds = path.boundingRect().adjusted(-u, -u, u, u)
        av = feature.av(self.cover_av)
        base = self.cover_av.get(feature.material.value, av)
        what = KIND_WORD[feature.kind]
        state = ""
        if feature.kind in ("door", "window"):
            state = " (open)" if feature.is_open else " (closed)"
        height = ", low" if feature.height is CoverHeight.LOW and feature.kind != "window" else ""
        abl = f", shot down from {base}" if feature.ablation else ""
        name = f"{feature.name}: " if feature.name else ""
        self._av_text = f"{av}" if not feature.ablation else f"{base}→{av}"
        self.setToolTip(
            f"{name}{what}{state} of {MATERIAL_WORD[feature.material]}{height} — AV {av}{abl}"
            + (" — Judge only" if feature.judge_only else "")
        )
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(self, painter: QPainter, option, widget=None) -> None:
        f = self.feature
        colour = QColor(style.MATERIAL_COLOURS[f.material])
        if f.judge_only:
            colour.setAlpha(150)
        lod = _lod(painter, option)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, lod * self.frame.unit > 6)
        u = self.frame.unit
        if f.kind == "door":
            self._paint_door(painter, colour, u)
        elif f.kind == "window":
            self._paint_window(painter, colour, u)
        else:
            pen = QPen(colour, self._width)
            pen.setCapStyle(
                Qt.PenCapStyle.FlatCap if f.kind == "cover" else Qt.PenCapStyle.SquareCap
            )
            pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
            if f.height is CoverHeight.LOW:
                pen.setDashPattern([2.0, 1.0])
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._path)
        if lod * u >= AV_TEXT_MIN_HEX_PX:
            self._paint_av(painter, u)

    def _frame_ticks(self, painter: QPainter, colour: QColor, u: float) -> None:
        a, b = self._seg
        dx, dy = b.x() - a.x(), b.y() - a.y()
        n = math.hypot(dx, dy) or 1.0
        px, py = -dy / n * 0.18 * u, dx / n * 0.18 * u
        pen = QPen(colour.darker(140), 0.08 * u)
        painter.setPen(pen)
        for p in (a, b):
            painter.drawLine(QPointF(p.x() - px, p.y() - py), QPointF(p.x() + px, p.y() + py))

    def _paint_door(self, painter: QPainter, colour: QColor, u: float) -> None:
        a, b = self._seg
        if self.feature.is_open:
            # the leaf swung about its first point, and a dotted line where it closes
            dx, dy = b.x() - a.x(), b.y() - a.y()
            ang = math.radians(70)
            ex = a.x() + dx * math.cos(ang) - dy * math.sin(ang)
            ey = a.y() + dx * math.sin(ang) + dy * math.cos(ang)
            painter.setPen(
                QPen(colour, self._width * 0.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
            )
            painter.drawLine(a, QPointF(ex, ey))
            dotted = QPen(colour, 0.05 * u, Qt.PenStyle.DotLine)
            painter.setPen(dotted)
            painter.drawLine(a, b)
        else:
            pen = QPen(colour, self._width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawPath(self._path)
            inner = QPen(
                colour.lighter(160),
                self._width * 0.3,
                Qt.PenStyle.SolidLine,
                Qt.PenCapStyle.FlatCap,
            )
            painter.setPen(inner)
            painter.drawPath(self._path)
        self._frame_ticks(painter, colour, u)

    def _paint_window(self, painter: QPainter, colour: QColor, u: float) -> None:
        glass = QColor(style.MATERIAL_COLOURS[Material.GLASS])
        frame_col = colour if self.feature.material is not Material.GLASS else QColor(90, 70, 50)
        if self.feature.is_open:
            painter.setPen(QPen(glass, 0.05 * u, Qt.PenStyle.DashLine))
            painter.drawPath(self._path)
        else:
            painter.setPen(
                QPen(glass.lighter(130), self._width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap)
            )
            painter.drawPath(self._path)
            painter.setPen(QPen(glass.darker(150), 0.04 * u))
            painter.drawPath(self._path)
        self._frame_ticks(painter, frame_col, u)

    def _paint_av(self, painter: QPainter, u: float) -> None:
        font = QFont()
        font.setPointSizeF(max(1.0, 0.30 * u))
        font.setBold(True)
        fm = QFontMetricsF(font)
        text = self._av_text
        w = fm.horizontalAdvance(text) + 0.16 * u
        h = fm.height()
        r = QRectF(self._label_at.x() - w / 2, self._label_at.y() - h / 2, w, h)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 255, 255, 200))
        painter.drawRoundedRect(r, 0.1 * u, 0.1 * u)
        painter.setFont(font)
        painter.setPen(style.REFUSED if self.feature.ablation else QColor(30, 30, 30))
        painter.drawText(r, Qt.AlignmentFlag.AlignCenter, text)


def _seglen(a: QPointF, b: QPointF) -> float:
    return math.hypot(b.x() - a.x(), b.y() - a.y())


class LabelItem(QGraphicsItem):
    """A text label placed on the map (street names, buildings)."""

    def __init__(self, label: Label, frame: MapFrame) -> None:
        super().__init__()
        self.label_id = label.id
        self.frame = frame
        self.setZValue(Z_LABEL)
        self.refresh(label)

    def refresh(self, label: Label) -> None:
        self.prepareGeometryChange()
        self.label = label
        self._font = QFont("Serif")
        self._font.setPointSizeF(max(1.0, 0.5 * self.frame.unit * label.size))
        self._font.setItalic(True)
        fm = QFontMetricsF(self._font)
        w = fm.horizontalAdvance(label.text) + 4
        h = fm.height() + 2
        self.setPos(self.frame.to_scene(label.at))
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.setToolTip("Judge only" if label.judge_only else "")
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if _lod(painter, option) * self.frame.unit < 6:
            return
        painter.setFont(self._font)
        painter.setPen(QColor(60, 40, 20, 140 if self.label.judge_only else 230))
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.label.text)


MARKER_GLYPH = {"trap": "!", "ambush": "×", "objective": "★", "other": "•", "note": "i"}
MARKER_COLOUR = {
    "trap": QColor(200, 40, 30),
    "ambush": QColor(150, 30, 120),
    "objective": QColor(220, 160, 20),
    "other": QColor(80, 80, 80),
    "note": QColor(230, 200, 80),
}


class MarkerItem(QGraphicsItem):
    """A Judge note or a trap/ambush/objective marker, drawn as a small icon; the text
    shows on hover."""

    def __init__(self, obj: Note | Marker, frame: MapFrame) -> None:
        super().__init__()
        self.obj_id = obj.id
        self.frame = frame
        self.setZValue(Z_NOTE)
        self.refresh(obj)

    def refresh(self, obj: Note | Marker) -> None:
        from ...hexgrid import Hex

        self.obj = obj
        self.kind = obj.kind if isinstance(obj, Marker) else "note"
        c = self.frame.center(Hex(*obj.hex))
        u = self.frame.unit
        self.setPos(c.x() + 0.45 * u, c.y() - 0.55 * u)
        head = {"note": "Note", "trap": "Trap", "ambush": "Ambush", "objective": "Objective"}
        self.setToolTip(f"{head.get(self.kind, 'Marker')}: {obj.text}" if obj.text else self.kind)
        self.update()

    def boundingRect(self) -> QRectF:
        r = 0.3 * self.frame.unit
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = 0.26 * self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        col = MARKER_COLOUR[self.kind]
        painter.setPen(QPen(col.darker(160), 0.04 * self.frame.unit))
        painter.setBrush(col)
        if self.kind == "note":
            painter.drawRect(QRectF(-r, -r, 2 * r, 2 * r))
        elif self.kind == "trap":
            painter.drawPolygon(QPolygonF([QPointF(0, -r), QPointF(r, r), QPointF(-r, r)]))
        else:
            painter.drawEllipse(QPointF(0, 0), r, r)
        if _lod(painter, option) * self.frame.unit < 10:
            return
        font = QFont()
        font.setPixelSize(max(1, int(1.3 * r)))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor(255, 255, 255) if self.kind != "note" else QColor(60, 40, 0))
        painter.drawText(
            QRectF(-r, -r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, MARKER_GLYPH[self.kind]
        )


def solid(colour: QColor) -> QBrush:
    return QBrush(colour)
