"""The map's background picture cut to the hexes a character has seen, for that
character's page on the players' devices (issue 36): worked out on the Judge's
machine (the devices service calls :func:`cut_picture` in a worker thread), so a
page never receives a pixel of a hex its character has not seen. QImage and
QPainter on a QImage are safe off the GUI thread."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QBuffer, QIODevice, QPointF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPolygonF

from ...model.map import BackgroundImage


def cut_picture(
    data: bytes, background: BackgroundImage, hexes: Sequence[Sequence[tuple[float, float]]]
) -> bytes:
    """``data`` (the checked picture file) as a PNG of the same size, transparent
    everywhere but inside ``hexes`` (polygons in map units). ``background`` places
    the picture: its top-left corner at ``x, y``, ``scale`` map units per pixel,
    turned by ``rotation`` degrees about that corner (as the window draws it).
    Raises ValueError when the picture cannot be decoded."""
    src = QImage.fromData(data)
    if src.isNull():
        raise ValueError("the background picture could not be decoded")
    b = background
    a = -math.radians(b.rotation)
    ca, sa = math.cos(a), math.sin(a)

    def pixel(x: float, y: float) -> QPointF:
        dx, dy = x - b.x, y - b.y
        return QPointF((dx * ca - dy * sa) / b.scale, (dx * sa + dy * ca) / b.scale)

    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    for ring in hexes:
        path.addPolygon(QPolygonF([pixel(x, y) for x, y in ring]))
        path.closeSubpath()
    out = QImage(src.width(), src.height(), QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(Qt.GlobalColor.transparent)
    painter = QPainter(out)
    painter.setClipPath(path)
    painter.drawImage(0, 0, src)
    painter.end()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    out.save(buf, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; PySide takes str
    return bytes(buf.data().data())
