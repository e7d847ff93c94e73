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

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from .settings import DIAGONAL_RANGE, HEX_INCHES_RANGE, PlayersSettings

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


class MiniatureDialog(QDialog):
    """View ▸ Players' screen options ▸ Miniature scale settings…: the hex size and
    the display's diagonal (0 trusts the display), with what the display reports."""

    def __init__(self, settings: PlayersSettings, screen, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("players_miniature_dialog")
        self.setWindowTitle("Miniature scale")
        self.settings = settings
        self.screen = screen
        lay = QVBoxLayout(self)
        intro = QLabel(
            "At miniature scale each hex on the players' screen is a fixed size across "
            "its flats (a miniature's base), and the zoom is locked. If the hexes come "
            "out the wrong size, the display reports its size wrongly: type its "
            "diagonal."
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        form = QFormLayout()
        self.hex_inches = QDoubleSpinBox()
        self.hex_inches.setObjectName("players_hex_inches")
        self.hex_inches.setRange(*HEX_INCHES_RANGE)
        self.hex_inches.setDecimals(2)
        self.hex_inches.setSingleStep(0.25)
        self.hex_inches.setSuffix(" in")
        self.hex_inches.setValue(settings.hex_inches)
        self.hex_inches.setToolTip("A hex's width across its flats on the TV")
        form.addRow("Hex size:", self.hex_inches)
        self.diagonal = QDoubleSpinBox()
        self.diagonal.setObjectName("players_diagonal")
        self.diagonal.setRange(0.0, DIAGONAL_RANGE[1])
        self.diagonal.setDecimals(1)
        self.diagonal.setSuffix(" in")
        self.diagonal.setSpecialValueText("as the display says")
        self.diagonal.setValue(settings.diagonal)
        self.diagonal.setToolTip(
            f"The players' display's diagonal in inches ({DIAGONAL_RANGE[0]:g} or more); "
            "0 trusts the size the display reports"
        )
        form.addRow("Display diagonal:", self.diagonal)
        lay.addLayout(form)
        self.info = QLabel()
        self.info.setObjectName("players_miniature_info")
        self.info.setWordWrap(True)
        lay.addWidget(self.info)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.hex_inches.valueChanged.connect(self._explain)
        self.diagonal.valueChanged.connect(self._explain)
        self._explain()

    def _explain(self, *_args) -> None:
        sc = self.screen
        if sc is None:
            self.info.setText("No display.")
            return
        w, h, _wm, _hm = screen_metrics(sc)
        told = reported_diagonal(sc)
        said = f'reports {told:.1f}"' if told > 0 else "does not report its size"
        diag = self.diagonal.value()
        if 0 < diag < DIAGONAL_RANGE[0]:
            self.info.setText(f"A display's diagonal is at least {DIAGONAL_RANGE[0]:g} inches.")
            return
        ppi = display_ppi(sc, diag)
        if ppi is None:
            self.info.setText(
                f"{sc.name() or 'The display'} ({w:.0f}×{h:.0f}) {said}: type its diagonal."
            )
            return
        self.info.setText(
            f"{sc.name() or 'The display'} ({w:.0f}×{h:.0f}) {said}; at {ppi:.1f} pixels "
            f"per inch a hex is {ppi * self.hex_inches.value():.0f} pixels across."
        )

    def accept(self) -> None:
        diag = self.diagonal.value()
        if 0 < diag < DIAGONAL_RANGE[0]:
            self._explain()  # says what is wrong; nothing changes
            return
        self.settings.hex_inches = self.hex_inches.value()
        self.settings.diagonal = diag
        super().accept()
