"""Miniature scale on the players' screen: hexes of a physical size on the TV.

A hex's size here is its width across the flats, which is also the distance between
neighbouring hex centres (one pace; ``MapFrame.hex_width``, ``sqrt(3)`` times the
hexgrid layout's ``size``, the centre-to-corner radius) — what a miniature's base is
measured against on a printed battle mat.

The pixels per inch come from the display: its size in pixels and its physical size
(``QScreen.physicalSize()``, in millimetres), along the diagonal. Many TVs report
a wrong physical size (or none) over HDMI, so the Judge may type the diagonal in
inches instead; then ``px_per_inch = hypot(width_px, height_px) / diagonal``. Both
in the window system's logical pixels, the unit the players' view draws in.
"""

from __future__ import annotations

import math

MM_PER_INCH = 25.4
SQRT3 = math.sqrt(3.0)


def screen_metrics(screen) -> tuple[float, float, float, float]:
    """(width px, height px, width mm, height mm) of a display, its pixels logical
    (the tests replace this to model a display)."""
    g = screen.geometry()
    mm = screen.physicalSize()
    return float(g.width()), float(g.height()), float(mm.width()), float(mm.height())


def px_per_inch(w_px: float, h_px: float, w_mm: float, h_mm: float, diagonal: float = 0.0):
    """Pixels per inch along the diagonal: from the typed ``diagonal`` (inches) when
    it is above 0, else from the reported physical size; None when neither is known."""
    d_px = math.hypot(w_px, h_px)
    if d_px <= 0:
        return None
    if diagonal > 0:
        return d_px / diagonal
    d_mm = math.hypot(w_mm, h_mm)
    if d_mm <= 0:
        return None
    return d_px / (d_mm / MM_PER_INCH)


def reported_diagonal(screen) -> float:
    """The display's diagonal as it reports its size (inches; 0 when it does not)."""
    _w, _h, w_mm, h_mm = screen_metrics(screen)
    return math.hypot(w_mm, h_mm) / MM_PER_INCH


def display_ppi(screen, diagonal: float = 0.0):
    """Pixels per inch of ``screen`` (see :func:`px_per_inch`), None if unknown."""
    if screen is None:
        return None
    return px_per_inch(*screen_metrics(screen), diagonal)


def miniature_scale(ppi: float, hex_inches: float, unit: float) -> float:
    """The view scale at which a hex of scene radius ``unit`` measures
    ``hex_inches`` across its flats on a display of ``ppi`` pixels per inch."""
    return ppi * hex_inches / (unit * SQRT3)
