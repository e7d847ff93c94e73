"""What the Judge pushes onto the players' map, as drawings: the caption box of a
cover line (:class:`Caption`), the focus ring of "Show this to the players"
(:class:`FocusRing`), the ping's double ring (:class:`PingRing`), and the helpers
that read a push's payload (:func:`as_hex`, :func:`scatter_detail`). The players'
view (:mod:`.view`) decides when they show.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from ...hexgrid import Hex
from ..scene import style
from ..scene.map_items import Z_TOOL

#: pushed captions are this fraction of the view's height tall per line
CAPTION_FRACTION = 1 / 22
CAPTION_MIN_PX = 20


class Caption(QGraphicsItem):
    """A few lines of large text in a box, the same size on screen at any zoom."""

    def __init__(self, text: str, colour: QColor, px: int) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(Z_TOOL + 2)
        self.text = text
        self._colour = colour
        self._font = QFont()
        self._font.setPixelSize(max(CAPTION_MIN_PX, px))
        self._font.setBold(True)
        fm = QFontMetricsF(self._font)
        lines = text.split("\n")
        pad = px * 0.4
        w = max(fm.horizontalAdvance(x) for x in lines) + 2 * pad
        h = fm.height() * len(lines) + 2 * pad
        self._rect = QRectF(px * 0.8, px * 0.6, w, h)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-3, -3, 3, 3)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(self._colour, 3))
        painter.setBrush(QColor(255, 252, 240, 240))
        painter.drawRoundedRect(self._rect, 8, 8)
        painter.setFont(self._font)
        painter.setPen(QColor(30, 20, 10))
        pad = self._font.pixelSize() * 0.4
        painter.drawText(
            self._rect.adjusted(pad, pad, -pad, -pad),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
            self.text,
        )


class FocusRing(QGraphicsItem):
    """A bright ring round the hex the Judge points the players to."""

    def __init__(self, frame, h: Hex) -> None:
        super().__init__()
        self.frame = frame
        self.hex = h
        self.setZValue(Z_TOOL + 1)
        self.setPos(frame.center(h))

    def boundingRect(self) -> QRectF:
        u = self.frame.unit
        return QRectF(-1.6 * u, -1.6 * u, 3.2 * u, 3.2 * u)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(0, 0, 0, 140), 0.32 * u))
        painter.drawEllipse(QPointF(0, 0), 1.25 * u, 1.25 * u)
        painter.setPen(QPen(style.SELECTION, 0.18 * u))
        painter.drawEllipse(QPointF(0, 0), 1.25 * u, 1.25 * u)


PING_COLOUR = QColor(255, 70, 40)


class PingRing(FocusRing):
    """The Judge's ping: a double ring round a hex, in a colour of its own."""

    def __init__(self, frame, h: Hex) -> None:
        super().__init__(frame, h)
        self.setZValue(Z_TOOL + 3)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.frame.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for r, w, colour in (
            (1.05, 0.34, QColor(0, 0, 0, 150)),
            (1.05, 0.2, PING_COLOUR),
            (1.45, 0.12, PING_COLOUR),
        ):
            painter.setPen(QPen(colour, w * u))
            painter.drawEllipse(QPointF(0, 0), r * u, r * u)


def as_hex(x) -> Hex:
    return x if isinstance(x, Hex) else Hex(*x)


def scatter_detail(document, payload) -> dict:
    """The throw record to draw for a ``scatter`` push: the log's latest throw with
    these hexes (it has the hour and the path), else the bare hexes."""
    if isinstance(payload, dict):
        return payload
    thrower, target, landing = (as_hex(h) for h in payload)
    want = ([thrower.q, thrower.r], [target.q, target.r], [landing.q, landing.r])
    for e in reversed(document.encounter.log):
        d = e.detail
        if e.kind != "throw" or not d:
            continue
        got = (list(d.get("thrower", [])), list(d.get("target", [])), list(d.get("landing", [])))
        if got == want:
            return d
    return {
        "thrower": want[0],
        "target": want[1],
        "landing": want[2],
        "hit": landing == target,
    }
