"""The editor's dialogs: a new map, resizing, and naming the two alignment points."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...hexgrid import Hex, Orientation, hex_to_offset, offset_to_hex
from ...model.map import MAX_MAP_SIDE, Map

MM_PER_INCH = 25.4
#: a new map's defaults: 30×20 hexes, 32 px hexes on screen, one-inch printed hexes
#: (the usual battle-mat scale: one pace a hex)
NEW_MAP_DEFAULTS: dict[str, int | float] = {
    "cols": 30,
    "rows": 20,
    "hex_px": 32.0,
    "print_hex_mm": 25.4,
}


@dataclass
class NewMapSpec:
    name: str
    cols: int
    rows: int
    orientation: Orientation
    hex_px: float
    print_hex_mm: float


def ok_cancel(dialog: QDialog) -> QDialogButtonBox:
    """OK and Cancel buttons that accept or reject ``dialog``."""
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def print_size_widgets(mm: float) -> tuple[QDoubleSpinBox, QComboBox]:
    """A spin box and a mm/in unit chooser for the printed hex width."""
    spin = QDoubleSpinBox()
    spin.setDecimals(2)
    unit = QComboBox()
    unit.addItem("mm", "mm")
    unit.addItem("inches", "in")

    def set_unit(_i: int) -> None:
        mm_now = spin.property("mm") or mm
        if unit.currentData() == "in":
            spin.setRange(1.01 / MM_PER_INCH, 100 / MM_PER_INCH)
            spin.setSingleStep(0.05)
            spin.setValue(mm_now / MM_PER_INCH)
        else:
            spin.setRange(1.01, 100.0)
            spin.setSingleStep(1.0)
            spin.setValue(mm_now)

    def remember(v: float) -> None:
        spin.setProperty("mm", v * MM_PER_INCH if unit.currentData() == "in" else v)

    spin.setProperty("mm", mm)
    spin.valueChanged.connect(remember)
    unit.currentIndexChanged.connect(set_unit)
    set_unit(0)
    return spin, unit


def print_mm(spin: QDoubleSpinBox, unit: QComboBox) -> float:
    v = spin.value()
    return v * MM_PER_INCH if unit.currentData() == "in" else v


class NewMapDialog(QDialog):
    """Size in hexes, pointy or flat hexes, hex size on screen and on paper."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New map")
        form = QFormLayout(self)
        self.name = QLineEdit("New map")
        self.name.setMaxLength(200)
        form.addRow("Name:", self.name)
        size = QHBoxLayout()
        self.cols = QSpinBox()
        self.cols.setRange(1, MAX_MAP_SIDE)
        self.cols.setValue(int(NEW_MAP_DEFAULTS["cols"]))
        self.rows = QSpinBox()
        self.rows.setRange(1, MAX_MAP_SIDE)
        self.rows.setValue(int(NEW_MAP_DEFAULTS["rows"]))
        size.addWidget(self.cols)
        size.addWidget(QLabel("columns ×"))
        size.addWidget(self.rows)
        size.addWidget(QLabel("rows"))
        form.addRow("Size in hexes:", size)
        self.pointy = QRadioButton("Pointy top (rows of hexes)")
        self.flat = QRadioButton("Flat top (columns of hexes)")
        self.pointy.setChecked(True)
        grp = QButtonGroup(self)
        grp.addButton(self.pointy)
        grp.addButton(self.flat)
        o = QVBoxLayout()
        o.addWidget(self.pointy)
        o.addWidget(self.flat)
        form.addRow("Hexes:", o)
        self.hex_px = QDoubleSpinBox()
        self.hex_px.setRange(4.5, 400.0)
        self.hex_px.setValue(NEW_MAP_DEFAULTS["hex_px"])
        self.hex_px.setSuffix(" px")
        self.hex_px.setToolTip("Hex radius on screen at 100 % zoom")
        form.addRow("Hex size on screen:", self.hex_px)
        self.print_size, self.print_unit = print_size_widgets(NEW_MAP_DEFAULTS["print_hex_mm"])
        self.print_size.setToolTip("Printed hex width, flat side to flat side")
        pr = QHBoxLayout()
        pr.addWidget(self.print_size)
        pr.addWidget(self.print_unit)
        form.addRow("Printed hex width:", pr)
        form.addRow(ok_cancel(self))

    def spec(self) -> NewMapSpec:
        return NewMapSpec(
            name=self.name.text().strip() or "New map",
            cols=self.cols.value(),
            rows=self.rows.value(),
            orientation=Orientation.FLAT if self.flat.isChecked() else Orientation.POINTY,
            hex_px=self.hex_px.value(),
            print_hex_mm=print_mm(self.print_size, self.print_unit),
        )


class ResizeDialog(QDialog):
    """New size, and how far the content moves (columns/rows)."""

    def __init__(self, m: Map, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Resize map")
        form = QFormLayout(self)
        form.addRow(QLabel(f"Now {m.cols} columns × {m.rows} rows."))
        self.cols = QSpinBox()
        self.cols.setRange(1, MAX_MAP_SIDE)
        self.cols.setValue(m.cols)
        self.rows = QSpinBox()
        self.rows.setRange(1, MAX_MAP_SIDE)
        self.rows.setValue(m.rows)
        form.addRow("Columns:", self.cols)
        form.addRow("Rows:", self.rows)
        self.dcol = QSpinBox()
        self.dcol.setRange(-MAX_MAP_SIDE, MAX_MAP_SIDE)
        self.drow = QSpinBox()
        self.drow.setRange(-MAX_MAP_SIDE, MAX_MAP_SIDE)
        self.dcol.setToolTip("Positive: new columns appear on the left")
        self.drow.setToolTip("Positive: new rows appear at the top")
        form.addRow("Move content right by (columns):", self.dcol)
        form.addRow("Move content down by (rows):", self.drow)
        hint = QLabel(
            "What falls outside the new size is left out (you are told what before "
            "anything changes). Tokens must stay on the map."
        )
        hint.setWordWrap(True)
        form.addRow(hint)
        form.addRow(ok_cancel(self))

    def values(self) -> tuple[int, int, tuple[int, int]]:
        return self.cols.value(), self.rows.value(), (self.dcol.value(), self.drow.value())


class AlignDialog(QDialog):
    """Which hexes the two clicked points are, or how many hexes apart they lie."""

    def __init__(self, m: Map, hex_a: Hex, hex_b: Hex, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Align the grid to the picture")
        self.map = m
        lay = QVBoxLayout(self)
        self.by_hexes = QRadioButton("The two points are the centres of these hexes:")
        self.by_distance = QRadioButton("The two points are this many hexes apart (along a row):")
        self.by_hexes.setChecked(True)
        grp = QButtonGroup(self)
        grp.addButton(self.by_hexes)
        grp.addButton(self.by_distance)
        lay.addWidget(self.by_hexes)
        grid = QGridLayout()
        self.spins = []
        for i, (word, h) in enumerate((("First point", hex_a), ("Second point", hex_b))):
            col, row = hex_to_offset(h, m.orientation)
            c = QSpinBox()
            c.setRange(1, m.cols)
            c.setValue(min(max(col + 1, 1), m.cols))
            r = QSpinBox()
            r.setRange(1, m.rows)
            r.setValue(min(max(row + 1, 1), m.rows))
            grid.addWidget(QLabel(f"{word}: column"), i, 0)
            grid.addWidget(c, i, 1)
            grid.addWidget(QLabel("row"), i, 2)
            grid.addWidget(r, i, 3)
            self.spins.append((c, r))
        lay.addLayout(grid)
        lay.addWidget(self.by_distance)
        self.distance = QDoubleSpinBox()
        self.distance.setRange(0.1, 10_000)
        self.distance.setDecimals(1)
        self.distance.setValue(max(1.0, float(hex_a.distance(hex_b))))
        self.distance.setSuffix(" hexes")
        lay.addWidget(self.distance)
        lay.addWidget(ok_cancel(self))

    def answer(self) -> tuple:
        """("hexes", hex_a, hex_b) or ("distance", paces)."""
        if self.by_distance.isChecked():
            return ("distance", self.distance.value())
        hexes = [
            offset_to_hex(c.value() - 1, r.value() - 1, self.map.orientation) for c, r in self.spins
        ]
        return ("hexes", hexes[0], hexes[1])
