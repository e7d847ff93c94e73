"""The action card's face, painted (RULES.md "The action card", 000 "Resolution Flow"):
its layout on a fixed logical canvas (:data:`CARD_W` × :data:`CARD_H`), the painter of
its sections in 000's reading order, and the highlights a resolution marks on it.
:class:`.card_view.CardView` shows it in a widget; thumbnails and exports take a
picture of it (:func:`card_pixmap`, :func:`card_thumbnail`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
)

from ...rules.base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, Speed
from ...rules.card import STANDARD_HIT_INDEX, Card
from .card_layout import (
    _BURST_H,
    _BURST_TOP,
    _CAUSE_HEAD_H,
    _CAUSE_LABEL_W,
    _CAUSE_RECT,
    _CLOCK_CENTRE,
    _CLOCK_R,
    _EFF_HEAD_H,
    _EFF_LABEL_W,
    _EFFECT_RECT,
    _FIG_RECT,
    _FRAGMENT_RECT,
    _INI_LABEL_W,
    _INI_RECT,
    _INI_ROW_H,
    _M,
    _NUMBER_RECT,
    _SHIELD_RECT,
    _STEP_RECT,
    _TOGGLE_RECT,
    _WRENCH_RECT,
    CARD_H,
    CARD_W,
    SECTIONS,
    CardHighlights,
    _burst_slot,
    _cause_rect,
    _effect_rect,
    _hit_rect,
    _ini_cell,
    _section_rect,
)

_PAPER = QColor("#fbf5e6")
_INK = QColor("#2b1d0e")
_FAINT = QColor("#8a7a66")
_RULE = QColor("#c9b79a")
_HEAD = QColor("#e9dcc0")
_CF_BG = QColor("#f6c9c0")
_CF_INK = QColor("#a11a0b")
_EXC = QColor("#1a5c8c")
_INC = QColor("#b3470f")
_HI_FILL = QColor("#ffe38a")
_HI_STRONG = QColor("#ffc928")
_HI_EDGE = QColor("#d9540b")

_SHORT_LOC = {
    "head": "Head",
    "chest": "Chest",
    "belly": "Belly",
    "vitals": "Vitals",
    "left_arm": "L arm",
    "right_arm": "R arm",
    "left_leg": "L leg",
    "right_leg": "R leg",
}
_PHASES = ("I", "II", "III", "IV")
#: the initiative bar's rows, top to bottom (004)
_SPEEDS = (Speed.FAST, Speed.NORMAL, Speed.SLOW)


# -- painting ------------------------------------------------------------------------


def _font(size: float, bold: bool = False, italic: bool = False) -> QFont:
    f = QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    f.setItalic(italic)
    return f


class _Painter:
    """Draws one card face in logical units; records hover regions for tooltips."""

    def __init__(self, p: QPainter, card: Card | None, hl: CardHighlights) -> None:
        self.p = p
        self.card = card
        self.hl = hl
        self.regions: list[tuple[QRectF, str]] = []

    def text(
        self,
        rect: QRectF,
        s: str,
        size: float = 8.0,
        bold: bool = False,
        italic: bool = False,
        color: QColor = _INK,
        align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
    ) -> None:
        self.p.setFont(_font(size, bold, italic))
        self.p.setPen(color)
        self.p.drawText(rect, int(align), s)

    def hi_box(self, rect: QRectF, strong: bool = False) -> None:
        self.p.setPen(QPen(_HI_EDGE, 2.0 if strong else 1.0))
        self.p.setBrush(_HI_STRONG if strong else _HI_FILL)
        self.p.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 3, 3)
        self.p.setBrush(Qt.BrushStyle.NoBrush)

    def section_frame(self, name: str) -> None:
        if name in self.hl.sections:
            self.p.setPen(QPen(_HI_EDGE, 2.5))
            self.p.setBrush(Qt.BrushStyle.NoBrush)
            self.p.drawRoundedRect(_section_rect(name).adjusted(-2, -2, 2, 2), 5, 5)

    def paint(self) -> None:
        p = self.p
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        p.setPen(QPen(_INK, 1.5))
        p.setBrush(_PAPER)
        p.drawRoundedRect(QRectF(1, 1, CARD_W - 2, CARD_H - 2), 14, 14)
        if self.card is None:
            self._back()
            return
        self._header()
        self._cause()
        self._burst()
        self._hits()
        self._shield()
        self._effect()
        self._figures()
        self._wrench()
        self._clock()
        self._step_toggle()
        self._initiative()
        for name in SECTIONS:
            self.section_frame(name)

    def _back(self) -> None:
        p = self.p
        inner = QRectF(14, 14, CARD_W - 28, CARD_H - 28)
        p.save()
        clip = QPainterPath()
        clip.addRoundedRect(inner, 10, 10)
        p.setClipPath(clip)
        p.setPen(QPen(_RULE, 0.8))
        step = 18.0
        k = -CARD_H
        while k < CARD_W + CARD_H:
            p.drawLine(QPointF(k, 0), QPointF(k + CARD_H, CARD_H))
            p.drawLine(QPointF(k + CARD_H, 0), QPointF(k, CARD_H))
            k += step
        p.restore()
        p.setPen(QPen(_INK, 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(inner, 10, 10)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_PAPER)
        p.drawRoundedRect(QRectF(40, CARD_H / 2 - 52, CARD_W - 80, 104), 8, 8)
        self.text(QRectF(0, CARD_H / 2 - 40, CARD_W, 30), "THE WEST", 16, bold=True)
        self.text(QRectF(0, CARD_H / 2 - 10, CARD_W, 30), "THAT WASNT", 16, bold=True)
        self.text(QRectF(0, CARD_H / 2 + 24, CARD_W, 20), "action deck", 10, italic=True)

    # -- header: number and fragment ------------------------------------------------
    def _header(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        p.setPen(QPen(_INK, 1.2))
        p.setBrush(_HEAD)
        p.drawEllipse(QRectF(_M, _M - 2, 22, 22))
        self.text(QRectF(_M, _M - 2, 22, 22), str(c.number), 9, bold=True)
        self.text(
            QRectF(_M + 26, _M - 2, 80, 22),
            "card",
            7,
            color=_FAINT,
            align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )
        self.regions.append((_NUMBER_RECT, f"Card number {c.number} (breaks initiative ties)"))
        # fragment in a diamond, top right (000 The Initiative Stack)
        cx, cy = _FRAGMENT_RECT.right() - 12, _FRAGMENT_RECT.center().y()
        diamond = QPolygonF(
            [QPointF(cx, cy - 11), QPointF(cx + 11, cy), QPointF(cx, cy + 11), QPointF(cx - 11, cy)]
        )
        p.setPen(QPen(_INK, 1.2))
        p.setBrush(_HI_STRONG if "fragment" in self.hl.sections else _HEAD)
        p.drawPolygon(diamond)
        self.text(QRectF(cx - 11, cy - 11, 22, 22), str(c.fragment), 9, bold=True)
        self.text(
            QRectF(_FRAGMENT_RECT.left() - 20, _FRAGMENT_RECT.top(), 52, 22),
            "fragment",
            7,
            color=_FAINT,
            align=Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        )
        self.regions.append((_FRAGMENT_RECT, f"Fragment {c.fragment} (AP v2 initiative stack)"))

    # -- cause grid -----------------------------------------------------------------
    def _cause(self) -> None:
        self._table(
            _CAUSE_RECT,
            _CAUSE_LABEL_W,
            _CAUSE_HEAD_H,
            ("CAUSE", 5.5),
            ([(die, f"d{die}") for die in DIE_TYPES], 8),
            ([(row, str(row)) for row in range(1, CAUSE_ROWS + 1)], 8),
            _cause_rect,
            self._cause_cell,
        )

    def _cause_cell(self, row: int, die: int, rect: QRectF) -> None:
        c = self.card
        assert c is not None
        p = self.p
        face = c.cause_cell(row, die)
        chosen = self.hl.cause_chosen == (row, die)
        if chosen or (row, die) in self.hl.cause:
            self.hi_box(rect, strong=chosen)
        elif face == "CF":
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_CF_BG)
            p.drawRoundedRect(rect.adjusted(2, 2, -2, -2), 3, 3)
        if face == "CF":
            self.text(rect, "CF", 8, bold=True, color=_CF_INK)
            tip = f"Cause {row}-d{die}: CF — critical failure"
        elif face == die:
            # exceptional face: open-ended, drawn with a ring
            p.setPen(QPen(_EXC, 1.2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            side = min(rect.height() - 3, 17.0)
            p.drawEllipse(
                QRectF(
                    rect.center().x() - side / 2 - 1,
                    rect.center().y() - side / 2,
                    side + 2,
                    side,
                )
            )
            self.text(rect, str(face), 8.5, bold=True, color=_EXC)
            tip = f"Cause {row}-d{die}: {face} — exceptional (draw again and add)"
        else:
            self.text(rect, str(face), 8.5)
            tip = f"Cause {row}-d{die}: {face}"
        self.regions.append((rect, tip))

    def _table(
        self,
        outer: QRectF,
        label_w: float,
        head_h: float,
        title: tuple[str, float],
        columns: tuple[Sequence[tuple[Any, str]], float],
        rows: tuple[Sequence[tuple[Any, str]], float],
        cell_rect: Callable[[Any, Any], QRectF],
        paint_cell: Callable[[Any, Any, QRectF], None],
        insets: tuple[float, float] = (0.0, 0.0),
        align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
    ) -> None:
        """A grid of the card (cause, effect, initiative bar): a shaded head band
        with ``title`` (text, size) in its corner over the ``label_w`` wide label
        column, ``columns`` and ``rows`` as ((key, label), …), text size; each cell,
        placed by ``cell_rect(row, col)``, drawn by ``paint_cell(row, col, rect)``
        row by row after its row's label; then the rules. ``insets`` move the title
        and the row labels in from the left edge; ``align`` places both."""
        p = self.p
        (heads, head_size), (labels, label_size) = columns, rows
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(_HEAD)
        p.drawRect(QRectF(outer.left(), outer.top(), outer.width(), head_h))
        inset, label_inset = insets
        self.text(
            QRectF(outer.left() + inset, outer.top(), label_w - inset, head_h),
            title[0],
            title[1],
            bold=True,
            align=align,
        )
        first_row, first_col = labels[0][0], heads[0][0]
        for col, head in heads:
            r = cell_rect(first_row, col)
            self.text(QRectF(r.left(), outer.top(), r.width(), head_h), head, head_size, bold=True)
        for row, label in labels:
            r0 = cell_rect(row, first_col)
            self.text(
                QRectF(outer.left() + label_inset, r0.top(), label_w - label_inset, r0.height()),
                label,
                label_size,
                bold=True,
                align=align,
            )
            for col, _head in heads:
                paint_cell(row, col, cell_rect(row, col))
        self._grid_lines(
            outer, outer.left() + label_w, outer.top() + head_h, len(heads), len(labels)
        )

    def _grid_lines(self, outer: QRectF, x0: float, y0: float, cols: int, rows: int) -> None:
        p = self.p
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(_RULE, 0.7))
        cw = (outer.right() - x0) / cols
        rh = (outer.bottom() - y0) / rows
        for i in range(cols + 1):
            x = x0 + i * cw
            p.drawLine(QPointF(x, outer.top()), QPointF(x, outer.bottom()))
        for j in range(rows + 1):
            y = y0 + j * rh
            p.drawLine(QPointF(outer.left(), y), QPointF(outer.right(), y))
        p.setPen(QPen(_INK, 1.2))
        p.drawRect(outer)

    # -- burst -------------------------------------------------------------------------
    def _burst(self) -> None:
        c = self.card
        assert c is not None
        self.text(
            QRectF(_M, _BURST_TOP, 50, _BURST_H),
            "BURST",
            6.5,
            bold=True,
            align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )
        for i, b in enumerate((3, 5, 10)):
            slot = _burst_slot(i)
            hits = c.burst_hits(b)
            if self.hl.burst == b:
                self.hi_box(slot, strong=True)
            centre = QPointF(slot.left() + 15, slot.center().y())
            self._star(centre, 10.5, 7.0, 9)
            self.text(QRectF(centre.x() - 10, centre.y() - 10, 20, 20), str(b), 7, bold=True)
            self.text(
                QRectF(slot.left() + 28, slot.top(), slot.width() - 28, slot.height()),
                f"→ {hits}",
                9,
                bold=True,
                align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            )
            self.regions.append(
                (slot, f"Burst {b}: {hits} hit(s), {b - hits} stray shot(s) on a hit")
            )

    def _star(self, centre: QPointF, r_out: float, r_in: float, points: int) -> None:
        poly = QPolygonF()
        for k in range(points * 2):
            r = r_out if k % 2 == 0 else r_in
            a = math.pi * k / points - math.pi / 2
            poly.append(QPointF(centre.x() + r * math.cos(a), centre.y() + r * math.sin(a)))
        self.p.setPen(QPen(_INK, 1.0))
        self.p.setBrush(_HEAD)
        self.p.drawPolygon(poly)

    # -- hit location stack ------------------------------------------------------------
    def _hits(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        for i, entry in enumerate(c.hit_locations):
            rect = _hit_rect(i)
            standard = i == STANDARD_HIT_INDEX
            if self.hl.hit == i:
                self.hi_box(rect, strong=True)
            else:
                p.setPen(QPen(_INK, 1.6 if standard else 1.0))
                p.setBrush(_HEAD if standard else _PAPER)
                p.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
            name = _SHORT_LOC.get(entry.location.value, entry.location.value)
            text_rect = QRectF(rect.left() + 4, rect.top(), rect.width() - 8, rect.height())
            self.text(
                text_rect,
                name,
                8.5,
                bold=standard,
                italic=standard,
                align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            )
            # triangles point toward the entry from the standard one: up above, down below
            up = i < STANDARD_HIT_INDEX
            for k in range(entry.triangles):
                x = rect.right() - 9 - k * 9
                y = rect.center().y()
                tri = (
                    [QPointF(x - 4, y + 3.5), QPointF(x + 4, y + 3.5), QPointF(x, y - 4)]
                    if up
                    else [QPointF(x - 4, y - 3.5), QPointF(x + 4, y - 3.5), QPointF(x, y + 4)]
                )
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(_INK)
                p.drawPolygon(QPolygonF(tri))
            if entry.prone:
                # 003's prone attribute: a small lying figure under the name
                y = rect.center().y() + 2
                x = rect.right() - 24 - entry.triangles * 9
                p.setPen(QPen(_INC, 1.3))
                p.setBrush(_INC)
                p.drawEllipse(QPointF(x, y), 1.8, 1.8)
                p.drawLine(QPointF(x + 2, y), QPointF(x + 12, y))
                p.drawLine(QPointF(x + 12, y), QPointF(x + 15, y - 2))
            tip = f"Hit location {i + 1}: {entry.location.value.replace('_', ' ')}"
            if standard:
                tip += " — standard location"
            else:
                word = "up" if up else "down"
                tip += f" — {entry.triangles} bump(s) {word}"
            if entry.prone:
                tip += "; prone attribute (003)"
            self.regions.append((rect, tip))

    def _shield(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        r = _SHIELD_RECT
        path = QPainterPath()
        path.moveTo(r.left(), r.top() + 4)
        path.quadTo(r.center().x(), r.top() - 4, r.right(), r.top() + 4)
        path.lineTo(r.right(), r.top() + r.height() * 0.45)
        path.quadTo(r.right(), r.bottom() - 8, r.center().x(), r.bottom())
        path.quadTo(r.left(), r.bottom() - 8, r.left(), r.top() + r.height() * 0.45)
        path.closeSubpath()
        p.setPen(QPen(_INK, 1.4))
        p.setBrush(_HI_STRONG if "shield" in self.hl.sections else _HEAD)
        p.drawPath(path)
        s = f"{c.shield:+d}" if c.shield else "0"
        self.text(r.adjusted(0, -4, 0, -4), s, 13, bold=True)
        self.regions.append((r, f"Shield {s}: added to the weapon's penetration"))

    # -- effect grid -------------------------------------------------------------------
    def _effect(self) -> None:
        self._table(
            _EFFECT_RECT,
            _EFF_LABEL_W,
            _EFF_HEAD_H,
            ("EFF", 5),
            ([(die, f"d{die}") for die in DIE_TYPES], 8),
            ([(row, f"({row})") for row in range(1, EFFECT_ROWS + 1)], 7),
            _effect_rect,
            self._effect_cell,
        )

    def _effect_cell(self, row: int, die: int, rect: QRectF) -> None:
        c = self.card
        assert c is not None
        p = self.p
        cell = c.effect_cell(row, die)
        if self.hl.effect == (row, die):
            self.hi_box(rect, strong=True)
        self.text(rect, str(cell.value), 8.5, bold=cell.increased)
        tip = f"Effect ({row}){die}: {cell.value}"
        if cell.increased:
            # increased effect: a small corner flag
            tri = QPolygonF(
                [
                    QPointF(rect.right() - 1, rect.top() + 1),
                    QPointF(rect.right() - 1, rect.top() + 8),
                    QPointF(rect.right() - 8, rect.top() + 1),
                ]
            )
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_INC)
            p.drawPolygon(tri)
            tip += " — increased effect (draw again, add the (1) cell)"
        self.regions.append((rect, tip))

    # -- ancillary row -----------------------------------------------------------------
    def _figures(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        self.text(
            QRectF(_FIG_RECT.left(), _FIG_RECT.top(), _FIG_RECT.width(), 12),
            "UNINTENDED",
            6,
            bold=True,
        )
        w = _FIG_RECT.width() / 3
        for i, n in enumerate(c.figures):
            cx = _FIG_RECT.left() + w * i + w / 2
            top = _FIG_RECT.top() + 16
            p.setPen(QPen(_INK, 1.0))
            p.setBrush(_HEAD)
            p.drawEllipse(QPointF(cx, top + 7), 6, 6)
            body = QPainterPath()
            body.moveTo(cx - 11, top + 52)
            body.lineTo(cx - 9, top + 22)
            body.quadTo(cx, top + 13, cx + 9, top + 22)
            body.lineTo(cx + 11, top + 52)
            body.closeSubpath()
            p.drawPath(body)
            self.text(QRectF(cx - 12, top + 24, 24, 22), str(n), 11, bold=True)
            self.regions.append(
                (
                    QRectF(cx - w / 2, _FIG_RECT.top(), w, _FIG_RECT.height()),
                    f"Unintended target figure {i + 1}: hit with {n} or more stray shots",
                )
            )

    def _wrench(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        r = _WRENCH_RECT
        self.text(QRectF(r.left(), r.top(), r.width(), 12), "WRENCH", 6, bold=True)
        cx, cy = r.center().x(), r.top() + 34
        pen = QPen(_FAINT if c.wrench is None else _INK, 5.0)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawLine(QPointF(cx - 13, cy + 13), QPointF(cx + 8, cy - 8))
        p.setPen(QPen(_FAINT if c.wrench is None else _INK, 2.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawArc(QRectF(cx + 2, cy - 18, 16, 16), 200 * 16, 260 * 16)
        if c.wrench is None:
            tip = "Wrench blank: no equipment failure"
        else:
            p.setPen(QPen(_PAPER, 1))
            p.setBrush(_CF_INK)
            p.drawEllipse(QPointF(cx - 4, cy + 4), 10, 10)
            self.text(QRectF(cx - 14, cy - 6, 20, 20), str(c.wrench), 9, bold=True, color=_PAPER)
            tip = f"Wrench {c.wrench}: equipment with Rel above {c.wrench} fails"
        self.regions.append((r, tip))

    def _clock(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        cen, rad = _CLOCK_CENTRE, _CLOCK_R
        p.setPen(QPen(_INK, 1.4))
        p.setBrush(_HI_FILL if "clock" in self.hl.sections else _PAPER)
        p.drawEllipse(cen, rad, rad)
        for h in range(1, 13):
            a = math.radians(h * 30 - 90)
            inner = rad - (5 if h % 3 else 8)
            p.setPen(QPen(_INK, 1.0))
            p.drawLine(
                QPointF(cen.x() + inner * math.cos(a), cen.y() + inner * math.sin(a)),
                QPointF(cen.x() + rad * math.cos(a), cen.y() + rad * math.sin(a)),
            )
            if h % 3 == 0:
                tr = rad - 15
                self.text(
                    QRectF(cen.x() + tr * math.cos(a) - 8, cen.y() + tr * math.sin(a) - 7, 16, 14),
                    str(h),
                    6.5,
                    color=_FAINT,
                )
        a = math.radians(c.clock * 30 - 90)
        tip_pt = QPointF(cen.x() + (rad - 4) * math.cos(a), cen.y() + (rad - 4) * math.sin(a))
        pen = QPen(_CF_INK, 2.6)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawLine(cen, tip_pt)
        p.setBrush(_CF_INK)
        p.drawEllipse(cen, 2.5, 2.5)
        # the hour, large, just outside the hand's tip
        lab = QPointF(cen.x() + (rad + 9) * math.cos(a), cen.y() + (rad + 9) * math.sin(a))
        self.text(QRectF(lab.x() - 11, lab.y() - 9, 22, 18), str(c.clock), 10, bold=True)
        self.regions.append(
            (
                QRectF(cen.x() - rad, cen.y() - rad, 2 * rad, 2 * rad),
                f"Scatter clock: {c.clock} o'clock (6 points back at the thrower)",
            )
        )

    def _step_toggle(self) -> None:
        c = self.card
        assert c is not None
        p = self.p
        p.setPen(QPen(_INK, 1.2))
        p.setBrush(_HI_STRONG if "step" in self.hl.sections else _HEAD)
        p.drawRoundedRect(_STEP_RECT, 4, 4)
        self.text(_STEP_RECT.adjusted(0, 0, 0, -8), str(c.step), 10, bold=True)
        self.text(_STEP_RECT.adjusted(0, 14, 0, 0), "step", 5.5, color=_FAINT)
        self.regions.append((_STEP_RECT, f"Step {c.step}: paces a missed throw scatters"))
        p.setPen(QPen(_INK, 1.2))
        p.setBrush(QColor("#cfe8c8") if c.toggle else QColor("#f0d0c8"))
        if "toggle" in self.hl.sections:
            p.setBrush(_HI_STRONG)
        p.drawRoundedRect(_TOGGLE_RECT, 4, 4)
        word = "YES" if c.toggle else "NO"
        self.text(_TOGGLE_RECT, word, 10, bold=True)
        self.regions.append((_TOGGLE_RECT, f"Toggle {word}"))

    # -- initiative bar ----------------------------------------------------------------
    def _initiative(self) -> None:
        self._table(
            _INI_RECT,
            _INI_LABEL_W,
            _INI_ROW_H,
            ("INITIATIVE", 5.5),
            (list(enumerate(_PHASES)), 7.5),
            ([(j, speed.value.title()) for j, speed in enumerate(_SPEEDS)], 7.5),
            _ini_cell,
            self._initiative_cell,
            insets=(2.0, 4.0),
            align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
        )

    def _initiative_cell(self, j: int, k: int, rect: QRectF) -> None:
        c = self.card
        assert c is not None
        speed = _SPEEDS[j]
        tn = c.initiative.tns(speed)[k]
        if self.hl.initiative == (speed, k):
            self.hi_box(rect, strong=True)
        self.text(rect, str(tn), 8)
        self.regions.append(
            (rect, f"{speed.value.title()} action: phase {_PHASES[k]} on {tn} or more")
        )


def paint_card(
    painter: QPainter, card: Card | None, target: QRectF, hl: CardHighlights | None = None
) -> list[tuple[QRectF, str]]:
    """Paint ``card`` scaled into ``target`` (keeping its shape); return the tooltip
    regions in logical units."""
    scale = min(target.width() / CARD_W, target.height() / CARD_H)
    painter.save()
    painter.translate(
        target.left() + (target.width() - CARD_W * scale) / 2,
        target.top() + (target.height() - CARD_H * scale) / 2,
    )
    painter.scale(scale, scale)
    drawer = _Painter(painter, card, hl or CardHighlights())
    drawer.paint()
    painter.restore()
    return drawer.regions


def card_pixmap(card: Card | None, width: int, hl: CardHighlights | None = None) -> QPixmap:
    """A picture of the card ``width`` pixels wide (thumbnails, exports)."""
    height = round(width * CARD_H / CARD_W)
    pm = QPixmap(width, height)
    pm.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pm)
    paint_card(painter, card, QRectF(0, 0, width, height), hl)
    painter.end()
    return pm


def card_thumbnail(card: Card, width: int) -> QPixmap:
    """A small card-shaped picture showing the card's number large (thumbnails are too
    small for the grids), with its toggle and shield underneath."""
    height = round(width * CARD_H / CARD_W)
    pm = QPixmap(width, height)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setPen(QPen(_INK, 1.2))
    p.setBrush(_PAPER)
    p.drawRoundedRect(QRectF(0.5, 0.5, width - 1, height - 1), width * 0.08, width * 0.08)
    p.setBrush(_HEAD)
    p.setPen(Qt.PenStyle.NoPen)
    p.drawRect(QRectF(width * 0.12, height * 0.12, width * 0.76, height * 0.2))
    p.setPen(_INK)
    p.setFont(_font(max(6.0, width * 0.32), bold=True))
    p.drawText(
        QRectF(0, height * 0.32, width, height * 0.36),
        int(Qt.AlignmentFlag.AlignCenter),
        str(card.number),
    )
    p.setFont(_font(max(5.0, width * 0.14), bold=True))
    p.setPen(_CF_INK if not card.toggle else QColor("#2f6b22"))
    p.drawText(
        QRectF(0, height * 0.7, width, height * 0.2),
        int(Qt.AlignmentFlag.AlignCenter),
        "YES" if card.toggle else "NO",
    )
    p.end()
    return pm
