"""The action card drawn as a card (RULES.md "The action card", 000 "Resolution Flow").

The card is painted on a fixed logical canvas (:data:`CARD_W` × :data:`CARD_H`) and
scaled to the widget, so the same drawing is readable at dock width and larger in a
pop-up. The sections follow 000's reading order — top left down to bottom right:
number and fragment, cause grid, burst, hit location stack and shield beside the
effect grid, then the ancillary row (unintended-target figures, wrench, scatter clock
with its step, toggle) and the initiative bar (004).

Highlights show the Judge which cells a resolution read: the cause cells of the pool
(and the one chosen as the result), the effect cell, the hit location reached after
bumps, and whole sections (shield, burst, figures…).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QTransform,
)
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from ...rules.base import EFFECT_ROWS, Speed
from ...rules.card import Card
from .card_layout import CARD_H, CARD_W, SECTIONS, CardHighlights
from .card_paint import (
    card_pixmap,
    card_thumbnail,
    paint_card,
)

#: the card widgets; the face they show is painted by :mod:`.card_paint`
__all__ = [
    "CARD_H",
    "CARD_W",
    "SECTIONS",
    "CardDialog",
    "CardHighlights",
    "CardView",
    "card_pixmap",
    "card_thumbnail",
]


class CardView(QWidget):
    """A scalable view of one action card with highlight APIs.

    ``clicked`` fires on a left click (thumbnails open a larger pop-up with it).
    """

    clicked = Signal()

    def __init__(self, card: Card | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._card = card
        self._hl = CardHighlights()
        self._regions: list[tuple[QRectF, str]] = []
        self._transform = QTransform()
        self.setMouseTracking(True)
        sp = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        sp.setHeightForWidth(True)
        self.setSizePolicy(sp)
        self.setMinimumSize(150, 250)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)

    # -- content ----------------------------------------------------------------------
    def card(self) -> Card | None:
        return self._card

    def set_card(self, card: Card | None, keep_highlights: bool = False) -> None:
        """Show ``card`` (None shows the back). Highlights are cleared unless kept."""
        self._card = card
        if not keep_highlights:
            self._hl = CardHighlights()
        self.update()

    def highlights(self) -> CardHighlights:
        return replace(self._hl, cause=set(self._hl.cause), sections=set(self._hl.sections))

    def set_highlights(self, hl: CardHighlights) -> None:
        self._hl = replace(hl, cause=set(hl.cause), sections=set(hl.sections))
        self.update()

    # -- highlight API ---------------------------------------------------------------
    def clear_highlights(self) -> None:
        self._hl = CardHighlights()
        self.update()

    def highlight_cause_cells(
        self, cells: Iterable[tuple[int, int]], chosen: tuple[int, int] | None = None
    ) -> None:
        """Mark the cause cells a pool read (``(row, die)``), ``chosen`` more strongly."""
        self._hl.cause = {(int(r), int(d)) for r, d in cells}
        self._hl.cause_chosen = chosen
        self.update()

    def highlight_effect_cell(self, row: int | None, die: int | None = None) -> None:
        """Mark the effect cell ``(row)die``; rows past 7 mark row 7 (000: each
        further damage bump adds +1 there). ``None`` clears it."""
        if row is None or die is None:
            self._hl.effect = None
        else:
            self._hl.effect = (max(1, min(EFFECT_ROWS, int(row))), int(die))
        self.update()

    def highlight_hit_location(self, index: int | None) -> None:
        """Mark entry ``index`` (0 = top) of the hit location stack."""
        self._hl.hit = None if index is None else max(0, min(3, int(index)))
        self.update()

    def highlight_sections(self, names: Iterable[str]) -> None:
        """Frame whole sections (see :data:`SECTIONS`)."""
        names = set(names)
        unknown = names - set(SECTIONS)
        if unknown:
            raise ValueError(f"unknown card section(s): {', '.join(sorted(unknown))}")
        self._hl.sections = names
        self.update()

    def highlight_burst(self, value: int | None) -> None:
        self._hl.burst = value
        self.update()

    def highlight_initiative(self, speed: Speed | None, phase_index: int | None = None) -> None:
        self._hl.initiative = None if speed is None or phase_index is None else (speed, phase_index)
        self.update()

    # -- Qt -------------------------------------------------------------------------------
    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, w: int) -> int:
        return round(w * CARD_H / CARD_W)

    def sizeHint(self) -> QSize:
        return QSize(round(CARD_W), round(CARD_H))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        target = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        self._regions = paint_card(painter, self._card, target, self._hl)
        painter.end()
        scale = min(target.width() / CARD_W, target.height() / CARD_H)
        t = QTransform()
        t.translate(
            target.left() + (target.width() - CARD_W * scale) / 2,
            target.top() + (target.height() - CARD_H * scale) / 2,
        )
        t.scale(scale, scale)
        self._transform = t

    def region_text(self, pos: QPointF) -> str | None:
        """Tooltip text of the card section under widget position ``pos``."""
        inv, ok = self._transform.inverted()
        if not ok:
            return None
        lp = inv.map(pos)
        for rect, text in reversed(self._regions):
            if rect.contains(lp):
                return text
        return None

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            text = self.region_text(QPointF(e.pos()))  # type: ignore[attr-defined]
            if text:
                QToolTip.showText(e.globalPos(), text, self)  # type: ignore[attr-defined]
            else:
                QToolTip.hideText()
                e.ignore()
            return True
        return super().event(e)

    def mouseReleaseEvent(self, e: QMouseEvent) -> None:
        if e.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(e)


class CardDialog(QDialog):
    """A larger pop-up of one card, with the same highlights as where it came from."""

    def __init__(
        self,
        card: Card | None,
        highlights: CardHighlights | None = None,
        title: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title or (f"Action card {card.number}" if card else "Action card"))
        lay = QVBoxLayout(self)
        self.view = CardView(card, self)
        if highlights is not None:
            self.view.set_highlights(highlights)
        self.view.setMinimumSize(360, 600)
        lay.addWidget(self.view, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(420, 700)
