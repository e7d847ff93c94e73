"""View ▸ Players' screen options ▸ Miniature scale settings…: the hex size in inches
and the players' display's diagonal (0 trusts the size the display reports), with
what the display reports and what the hexes come to (:mod:`.miniature`)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from .miniature import display_ppi, reported_diagonal, screen_metrics
from .settings import DIAGONAL_RANGE, HEX_INCHES_RANGE, PlayersSettings


class MiniatureDialog(QDialog):
    """View ▸ Players' screen options ▸ Miniature scale settings…: the hex size and
    the display's diagonal (0 trusts the display), with what the display reports."""

    def __init__(self, settings: PlayersSettings, screen, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("players_miniature_dialog")
        self.setWindowTitle("Miniature scale")
        self.settings = settings
        self.display = screen
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
        sc = self.display
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
