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

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from ...rules.base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, Speed
from ...rules.card import STANDARD_HIT_INDEX, Card

#: Logical size of the card face; everything is drawn in these units and scaled.
CARD_W = 300.0
CARD_H = 500.0

#: Every section name :meth:`CardView.highlight_sections` understands.
SECTIONS = (
    "number",
    "fragment",
    "cause",
    "burst",
    "hit",
    "shield",
    "effect",
    "figures",
    "wrench",
    "clock",
    "step",
    "toggle",
    "initiative",
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


@dataclass
class CardHighlights:
    """What the painter marks on the card."""

    cause: set[tuple[int, int]] = field(default_factory=set)
    cause_chosen: tuple[int, int] | None = None
    effect: tuple[int, int] | None = None
    hit: int | None = None
    sections: set[str] = field(default_factory=set)
    burst: int | None = None
    initiative: tuple[Speed, int] | None = None

    def is_empty(self) -> bool:
        return not (
            self.cause
            or self.cause_chosen
            or self.effect
            or self.hit is not None
            or self.sections
            or self.burst
            or self.initiative
        )


# -- geometry of the card face (logical units) -------------------------------------

_M = 8.0  # margin
_CAUSE_TOP = 34.0
_CAUSE_LABEL_W = 26.0
_CAUSE_HEAD_H = 15.0
_CAUSE_ROW_H = 19.0
_BURST_TOP = _CAUSE_TOP + _CAUSE_HEAD_H + CAUSE_ROWS * _CAUSE_ROW_H + 5.0
_BURST_H = 24.0
_MID_TOP = _BURST_TOP + _BURST_H + 6.0
_LEFT_W = 86.0
_HIT_H = 24.0
_EFF_LABEL_W = 18.0
_EFF_HEAD_H = 15.0
_EFF_ROW_H = 20.0
_ANC_TOP = _MID_TOP + _EFF_HEAD_H + EFFECT_ROWS * _EFF_ROW_H + 6.0
_ANC_H = 84.0
_INI_TOP = _ANC_TOP + _ANC_H + 4.0
_INI_ROW_H = 14.0
_INI_LABEL_W = 58.0  # the speed names' column


def _cause_rect(row: int, die: int) -> QRectF:
    col = DIE_TYPES.index(die)
    cw = (CARD_W - 2 * _M - _CAUSE_LABEL_W) / len(DIE_TYPES)
    return QRectF(
        _M + _CAUSE_LABEL_W + col * cw,
        _CAUSE_TOP + _CAUSE_HEAD_H + (row - 1) * _CAUSE_ROW_H,
        cw,
        _CAUSE_ROW_H,
    )


def _effect_rect(row: int, die: int) -> QRectF:
    col = DIE_TYPES.index(die)
    x0 = _M + _LEFT_W + 6.0
    cw = (CARD_W - _M - x0 - _EFF_LABEL_W) / len(DIE_TYPES)
    return QRectF(
        x0 + _EFF_LABEL_W + col * cw,
        _MID_TOP + _EFF_HEAD_H + (row - 1) * _EFF_ROW_H,
        cw,
        _EFF_ROW_H,
    )


def _hit_rect(index: int) -> QRectF:
    return QRectF(_M, _MID_TOP + index * (_HIT_H + 2.0), _LEFT_W, _HIT_H)


_SHIELD_RECT = QRectF(_M + 18.0, _MID_TOP + 4 * (_HIT_H + 2.0) + 6.0, _LEFT_W - 36.0, 40.0)
_BURST_RECT = QRectF(_M, _BURST_TOP, CARD_W - 2 * _M, _BURST_H)
_FIG_RECT = QRectF(_M, _ANC_TOP, 104.0, _ANC_H)
_WRENCH_RECT = QRectF(_M + 108.0, _ANC_TOP, 48.0, _ANC_H - 28.0)
_CLOCK_CENTRE = QPointF(_M + 204.0, _ANC_TOP + 44.0)
_CLOCK_R = 29.0
_STEP_RECT = QRectF(_M + 122.0, _ANC_TOP + _ANC_H - 26.0, 38.0, 24.0)
_TOGGLE_RECT = QRectF(CARD_W - _M - 44.0, _ANC_TOP + _ANC_H - 26.0, 44.0, 24.0)
_INI_RECT = QRectF(_M, _INI_TOP, CARD_W - 2 * _M, _INI_ROW_H * 4)
_NUMBER_RECT = QRectF(_M, _M - 2.0, 60.0, 22.0)
_FRAGMENT_RECT = QRectF(CARD_W - _M - 58.0, _M - 2.0, 58.0, 22.0)
_CAUSE_RECT = QRectF(_M, _CAUSE_TOP, CARD_W - 2 * _M, _CAUSE_HEAD_H + CAUSE_ROWS * _CAUSE_ROW_H)
_EFFECT_RECT = QRectF(
    _M + _LEFT_W + 6.0,
    _MID_TOP,
    CARD_W - 2 * _M - _LEFT_W - 6.0,
    _EFF_HEAD_H + EFFECT_ROWS * _EFF_ROW_H,
)
_HIT_RECT = QRectF(_M, _MID_TOP, _LEFT_W, 4 * (_HIT_H + 2.0) - 2.0)


def _burst_slot(i: int) -> QRectF:
    w = (CARD_W - 2 * _M - 52.0) / 3
    return QRectF(_M + 52.0 + i * w, _BURST_TOP, w, _BURST_H)


def _ini_cell(speed_row: int, phase: int) -> QRectF:
    """Cell of the initiative bar: speed_row 0..2 (fast, normal, slow), phase 0..3."""
    cw = (CARD_W - 2 * _M - _INI_LABEL_W) / 4
    return QRectF(
        _M + _INI_LABEL_W + phase * cw, _INI_TOP + (speed_row + 1) * _INI_ROW_H, cw, _INI_ROW_H
    )


def _section_rect(name: str) -> QRectF:
    clock = QRectF(
        _CLOCK_CENTRE.x() - _CLOCK_R - 3,
        _CLOCK_CENTRE.y() - _CLOCK_R - 3,
        2 * _CLOCK_R + 6,
        2 * _CLOCK_R + 6,
    )
    return {
        "number": _NUMBER_RECT,
        "fragment": _FRAGMENT_RECT,
        "cause": _CAUSE_RECT,
        "burst": _BURST_RECT,
        "hit": _HIT_RECT,
        "shield": _SHIELD_RECT,
        "effect": _EFFECT_RECT,
        "figures": _FIG_RECT,
        "wrench": _WRENCH_RECT,
        "clock": clock,
        "step": _STEP_RECT,
        "toggle": _TOGGLE_RECT,
        "initiative": _INI_RECT,
    }[name]


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
