"""Where everything sits on the action card's face, in logical units of the fixed
canvas (:data:`CARD_W` × :data:`CARD_H`), and what a resolution marks on it
(:class:`CardHighlights`): shared by the painter (:mod:`.card_paint`) and the card
widgets (:mod:`.card_view`). The underscored names are the face's own geometry, for
the painter only."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF

from ...rules.base import CAUSE_ROWS, DIE_TYPES, EFFECT_ROWS, Speed

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
