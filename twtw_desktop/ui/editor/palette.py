"""The editor's palette: what the painting and drawing tools put down.

Terrain types carry their movement price from 000 Movement AP Cost in the tooltip;
materials show the edition's AV (``document.edition.cover_av``), so a Judge drawing a
wall sees at once what it stops.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...model.edit import BRUSH_SIZES
from ...model.map import CoverHeight, Material, Terrain
from ..scene import style
from ..scene.map_items import MATERIAL_WORD

#: palette names of the terrain types, and what a Judge needs to know about them
#: (movement prices from 000 Movement AP Cost)
TERRAIN_WORDS: dict[Terrain, tuple[str, str]] = {
    Terrain.OPEN: ("Open", "Open ground: no extra AP"),
    Terrain.ROUGH: ("Rough", "Rough ground (the Judge's call; the track prices it as open)"),
    Terrain.STEEP: ("Steep grade", "Steep grade: +1 AP per pace going up (000)"),
    Terrain.GENTLE: ("Gentle grade", "Gentle grade: +1 AP per 2 paces going up (000)"),
    Terrain.STAIRS: ("Stairs", "Stairs: +1 AP per 2 paces climbed (000)"),
    Terrain.LADDER: ("Ladder", "Ladder: +1 AP per pace climbed (000)"),
    Terrain.CLIMB: ("Cliff face", "Wall or cliff face to climb: +2 AP per pace (000)"),
    Terrain.WATER: ("Water", "Water"),
    Terrain.IMPASSABLE: ("Impassable", "Impassable: nobody walks here"),
}

NOTE_KINDS: tuple[tuple[str, str], ...] = (
    ("note", "Judge note"),
    ("trap", "Trap marker"),
    ("ambush", "Ambush marker"),
    ("objective", "Objective marker"),
    ("other", "Other marker"),
)


class PaletteState(QObject):
    """The palette's current choices (plain values; ``changed`` after each set)."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.terrain: Terrain = Terrain.ROUGH
        self.brush_size: int = 1
        self.material: Material = Material.HARDWOOD
        #: windows have their own material so a Judge can draw glass windows into
        #: hardwood walls without switching back and forth
        self.window_material: Material = Material.GLASS
        self.height: CoverHeight = CoverHeight.FULL
        self.opening_open: bool = False
        self.judge_only: bool = False
        self.note_kind: str = "note"
        self.stop_at_walls: bool = True
        self.label_size: float = 1.0

    def set(self, **values) -> None:
        changed = False
        for k, v in values.items():
            if not hasattr(self, k):
                raise AttributeError(f"the palette has no {k!r}")
            if k == "brush_size" and v not in BRUSH_SIZES:
                raise ValueError(f"brush size must be one of {BRUSH_SIZES}")
            if getattr(self, k) != v:
                setattr(self, k, v)
                changed = True
        if changed:
            self.changed.emit()

    def material_for(self, kind: str) -> Material:
        return self.window_material if kind == "window" else self.material


def scroll_pane(area: QScrollArea, name: str) -> tuple[QWidget, QVBoxLayout]:
    """Make ``area`` (named ``name``) a dock pane that scrolls only up and down; returns
    the body to fill through its column layout and then hand to ``area.setWidget``."""
    area.setObjectName(name)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    body = QWidget()
    lay = QVBoxLayout(body)
    lay.setContentsMargins(4, 4, 4, 4)
    return body, lay


def swatch(colour: QColor, size: int = 14) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(colour)
    return QIcon(pm)


class PaletteWidget(QScrollArea):
    """Terrain, brush size, material (with AV) and height, door/window state, and the
    options of labels and notes."""

    def __init__(self, state: PaletteState, cover_av: dict[str, int], parent=None) -> None:
        super().__init__(parent)
        self.state = state
        body, lay = scroll_pane(self, "editor_palette")
        lay.setSpacing(6)
        self._updating = False

        # terrain
        box = QGroupBox("Terrain")
        grid = QGridLayout(box)
        grid.setSpacing(2)
        self.terrain_group = QButtonGroup(self)
        self.terrain_buttons: dict[Terrain, QToolButton] = {}
        for i, t in enumerate(Terrain):
            word, tip = TERRAIN_WORDS[t]
            b = QToolButton()
            b.setText(word)
            b.setIcon(swatch(style.TERRAIN_COLOURS[t]))
            b.setIconSize(QSize(14, 14))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.setCheckable(True)
            b.setToolTip(tip)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.setObjectName(f"terrain_{t.value}")
            b.clicked.connect(lambda _=False, t=t: self.state.set(terrain=t))
            self.terrain_group.addButton(b)
            self.terrain_buttons[t] = b
            grid.addWidget(b, i // 2, i % 2)
        row = QHBoxLayout()
        row.addWidget(QLabel("Brush:"))
        self.size_buttons: dict[int, QToolButton] = {}
        sizes = QButtonGroup(self)
        for n in BRUSH_SIZES:
            b = QToolButton()
            b.setText(str(n))
            b.setCheckable(True)
            b.setToolTip(
                f"Brush size {n}: " + ("one hex" if n == 1 else f"{n - 1} ring(s) round it")
            )
            b.clicked.connect(lambda _=False, n=n: self.state.set(brush_size=n))
            sizes.addButton(b)
            self.size_buttons[n] = b
            row.addWidget(b)
        row.addStretch(1)
        grid.addLayout(row, 5, 0, 1, 2)
        self.stop_at_walls = QCheckBox("Fill stops at walls")
        self.stop_at_walls.setToolTip(
            "Flood fill does not cross walls, closed doors, windows or full cover"
        )
        self.stop_at_walls.toggled.connect(lambda on: self.state.set(stop_at_walls=on))
        grid.addWidget(self.stop_at_walls, 6, 0, 1, 2)
        lay.addWidget(box)

        # materials
        box = QGroupBox("Walls, cover, doors and windows")
        v = QVBoxLayout(box)
        v.setSpacing(2)
        self.material_hint = QLabel("")
        self.material_hint.setWordWrap(True)
        v.addWidget(self.material_hint)
        mgrid = QGridLayout()
        mgrid.setSpacing(2)
        self.material_group = QButtonGroup(self)
        self.material_buttons: dict[Material, QToolButton] = {}
        for i, mat in enumerate(Material):
            b = QToolButton()
            b.setCheckable(True)
            b.setIcon(swatch(style.MATERIAL_COLOURS[mat]))
            b.setIconSize(QSize(14, 14))
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            b.setObjectName(f"material_{mat.value}")
            b.clicked.connect(lambda _=False, mat=mat: self._pick_material(mat))
            self.material_group.addButton(b)
            self.material_buttons[mat] = b
            mgrid.addWidget(b, i, 0)  # one column: the AV must stay readable
        v.addLayout(mgrid)
        self.full = QRadioButton("Full")
        self.full.setToolTip("Full height: blocks sight and movement")
        self.low = QRadioButton("Low")
        self.low.setToolTip("Low: covers legs and belly of a standing figure; no block to sight")
        self.full.toggled.connect(lambda on: self._set_if(on, height=CoverHeight.FULL))
        self.low.toggled.connect(lambda on: self._set_if(on, height=CoverHeight.LOW))
        v.addLayout(self._choice_row("Height:", self.full, self.low))
        self.closed = QRadioButton("Closed")
        self.closed.setToolTip("New doors and windows start closed")
        self.opened = QRadioButton("Open")
        self.closed.toggled.connect(lambda on: self._set_if(on, opening_open=False))
        self.opened.toggled.connect(lambda on: self._set_if(on, opening_open=True))
        v.addLayout(self._choice_row("New doors:", self.closed, self.opened))
        lay.addWidget(box)

        # labels and notes
        box = QGroupBox("Labels and notes")
        form = QFormLayout(box)
        self.judge_only = QCheckBox("New labels for the Judge only")
        self.judge_only.setToolTip("Judge-only labels never reach the players' screen")
        self.judge_only.toggled.connect(lambda on: self.state.set(judge_only=on))
        form.addRow(self.judge_only)
        self.label_size = QDoubleSpinBox()
        self.label_size.setRange(0.3, 20.0)
        self.label_size.setSingleStep(0.1)
        self.label_size.valueChanged.connect(lambda x: self.state.set(label_size=float(x)))
        form.addRow("Label size:", self.label_size)
        self.note_kind = QComboBox()
        for key, word in NOTE_KINDS:
            self.note_kind.addItem(word, key)
        self.note_kind.setToolTip("What the Note tool pins to a hex (always Judge-only)")
        self.note_kind.currentIndexChanged.connect(
            lambda _i: self.state.set(note_kind=self.note_kind.currentData())
        )
        form.addRow("Note tool:", self.note_kind)
        lay.addWidget(box)
        lay.addStretch(1)
        self.setWidget(body)

        self._kind = "wall"
        self.set_cover_av(cover_av)
        state.changed.connect(self.sync)
        self.sync()

    def _choice_row(self, title: str, *choices: QRadioButton) -> QHBoxLayout:
        """A row "title: ( ) … ( )" of mutually exclusive ``choices``."""
        row = QHBoxLayout()
        row.addWidget(QLabel(title))
        group = QButtonGroup(self)
        for b in choices:
            group.addButton(b)
            row.addWidget(b)
        row.addStretch(1)
        return row

    def _set_if(self, on: bool, **values: object) -> None:
        """A radio button turned on sets its value on the palette."""
        if on:
            self.state.set(**values)

    def set_cover_av(self, cover_av: dict[str, int]) -> None:
        """Show the AV of each material in the document's edition."""
        self.cover_av = dict(cover_av)
        for mat, b in self.material_buttons.items():
            av = self.cover_av.get(mat.value)
            word = MATERIAL_WORD[mat].capitalize()
            b.setText(f"{word} — AV {av}" if av is not None else word)
            b.setToolTip(f"{word}: armour value {av} against shots (000 Cover Penetration)")

    def set_kind(self, kind: str) -> None:
        """Which kind of feature the material buttons are for (windows differ)."""
        self._kind = kind
        self.sync()

    def _pick_material(self, mat: Material) -> None:
        if self._kind == "window":
            self.state.set(window_material=mat)
        else:
            self.state.set(material=mat)

    def sync(self) -> None:
        s = self.state
        self._updating = True
        try:
            self.terrain_buttons[s.terrain].setChecked(True)
            self.size_buttons[s.brush_size].setChecked(True)
            self.stop_at_walls.setChecked(s.stop_at_walls)
            self.material_buttons[s.material_for(self._kind)].setChecked(True)
            which = "windows" if self._kind == "window" else "walls, cover and doors"
            self.material_hint.setText(f"Material for new {which}:")
            (self.full if s.height is CoverHeight.FULL else self.low).setChecked(True)
            (self.opened if s.opening_open else self.closed).setChecked(True)
            self.judge_only.setChecked(s.judge_only)
            if abs(self.label_size.value() - s.label_size) > 1e-9:
                self.label_size.setValue(s.label_size)
            i = self.note_kind.findData(s.note_kind)
            if i >= 0 and i != self.note_kind.currentIndex():
                self.note_kind.setCurrentIndex(i)
        finally:
            self._updating = False
