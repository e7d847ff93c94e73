"""A body diagram of wounds per location (000 "Hit Location and Damage": head,
torso = chest + belly + vitals, each arm, each leg; the 5th wound disables).

Left click adds a wound to a location, right click takes one away; the panel that
owns the diagram turns those clicks into undoable edits.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...rules.base import WoundLocation
from ...rules.character import MAX_WOUNDS
from ...rules.healing import LOCATION_NAMES

_W, _H = 120.0, 170.0
#: Shade per wound count 0..5.
_SHADES = ("#f4efe4", "#f7d9a8", "#f2b36b", "#e07b3c", "#c0392b", "#6e1010")

#: Region rectangles in logical units (figure seen from the front: its right arm on
#: the viewer's left).
_REGIONS: dict[WoundLocation, QRectF] = {
    WoundLocation.HEAD: QRectF(44, 4, 32, 32),
    WoundLocation.TORSO: QRectF(38, 40, 44, 58),
    WoundLocation.RIGHT_ARM: QRectF(16, 42, 20, 56),
    WoundLocation.LEFT_ARM: QRectF(84, 42, 20, 56),
    WoundLocation.RIGHT_LEG: QRectF(38, 101, 20, 64),
    WoundLocation.LEFT_LEG: QRectF(62, 101, 20, 64),
}


class BodyDiagram(QWidget):
    """Wounds per location; emits ``woundClicked(location value, +1 or −1)``."""

    woundClicked = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._wounds: dict[WoundLocation, int] = {loc: 0 for loc in WoundLocation}
        self.setMinimumSize(96, 136)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        self.setToolTip("Left click: add a wound · right click: remove one")

    def sizeHint(self) -> QSize:
        return QSize(round(_W), round(_H))

    def set_wounds(self, wounds: dict) -> None:
        self._wounds = {WoundLocation(k): int(v) for k, v in wounds.items()}
        self.update()

    def _scale(self) -> tuple[float, float, float]:
        s = min(self.width() / _W, self.height() / _H)
        return s, (self.width() - _W * s) / 2, (self.height() - _H * s) / 2

    def region_at(self, pos: QPointF) -> WoundLocation | None:
        s, ox, oy = self._scale()
        lp = QPointF((pos.x() - ox) / s, (pos.y() - oy) / s)
        for loc, r in _REGIONS.items():
            if r.contains(lp):
                return loc
        return None

    def region_centre(self, loc: WoundLocation) -> QPointF:
        """Widget position of a location's centre (for clicks in tests)."""
        s, ox, oy = self._scale()
        c = _REGIONS[loc].center()
        return QPointF(ox + c.x() * s, oy + c.y() * s)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        s, ox, oy = self._scale()
        p.translate(ox, oy)
        p.scale(s, s)
        f = QFont()
        f.setPointSizeF(9)
        f.setBold(True)
        p.setFont(f)
        for loc, r in _REGIONS.items():
            n = min(self._wounds.get(loc, 0), MAX_WOUNDS)
            p.setPen(QPen(QColor("#2b1d0e"), 1.2))
            p.setBrush(QColor(_SHADES[n]))
            if loc is WoundLocation.HEAD:
                p.drawEllipse(r)
            else:
                path = QPainterPath()
                path.addRoundedRect(r, 6, 6)
                p.drawPath(path)
            if n >= MAX_WOUNDS:
                p.setPen(QPen(QColor("#ffffff"), 2))
                p.drawLine(r.topLeft() + QPointF(4, 4), r.bottomRight() - QPointF(4, 4))
            p.setPen(QColor("#ffffff") if n >= 4 else QColor("#2b1d0e"))
            p.drawText(r, int(Qt.AlignmentFlag.AlignCenter), str(n))
        p.end()

    def mousePressEvent(self, e: QMouseEvent) -> None:
        loc = self.region_at(e.position())
        if loc is None:
            return
        if e.button() == Qt.MouseButton.LeftButton:
            self.woundClicked.emit(loc.value, 1)
        elif e.button() == Qt.MouseButton.RightButton:
            self.woundClicked.emit(loc.value, -1)

    def mouseMoveEvent(self, e: QMouseEvent) -> None:
        loc = self.region_at(e.position())
        if loc is None:
            self.setToolTip("Left click: add a wound · right click: remove one")
        else:
            n = self._wounds.get(loc, 0)
            self.setToolTip(
                f"{LOCATION_NAMES[loc].title()}: {n} wound(s)"
                + (" — disabled" if n >= MAX_WOUNDS else "")
                + "\nLeft click: add a wound · right click: remove one"
            )
