"""The properties panel: the map's own settings, its background picture, and the
selected wall, door, window, label, note or marker.

Every edit is one undoable :class:`~twtw_desktop.ui.editor.commands.SetFieldCommand`
(validated first: a bad value is refused with a message and nothing changes);
repeated edits of one field merge, Tiled's way.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...hexgrid import Hex, offset_label
from ...model.map import CoverHeight, Feature, Label, Marker, Material, Note
from ..scene.map_items import KIND_WORD, MATERIAL_WORD
from .dialogs import MM_PER_INCH
from .palette import NOTE_KINDS, scroll_pane

#: the editor that owns these docks (ui.editor.controller, which imports this module:
#: not imported back, so there is no cycle)
EditorController = Any

ERROR_STYLE = "color: #b3261e"


def _form(parent: QWidget | None = None) -> QFormLayout:
    """A form that puts long rows under their label when the dock is narrow."""
    form = QFormLayout(parent)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    return form


def _spin(lo: float, hi: float, step: float, decimals: int = 2) -> QDoubleSpinBox:
    s = QDoubleSpinBox()
    s.setRange(lo, hi)
    s.setSingleStep(step)
    s.setDecimals(decimals)
    s.setKeyboardTracking(False)
    return s


class PropertiesPanel(QScrollArea):
    def __init__(self, controller: EditorController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctl = controller
        body, lay = scroll_pane(self, "editor_properties")
        self._syncing = False
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setObjectName("properties_error")
        self.error.hide()
        lay.addWidget(self.error)
        lay.addWidget(self._selected_box())
        lay.addWidget(self._map_box())
        lay.addWidget(self._background_box())
        lay.addStretch(1)
        self.setWidget(body)
        controller.selectionChanged.connect(lambda _id: self.refresh())
        self.refresh()

    # -- building --------------------------------------------------------------------

    def _map_box(self) -> QGroupBox:
        box = QGroupBox("Map")
        form = _form(box)
        self.map_name = QLineEdit()
        self.map_name.setMaxLength(200)
        self.map_name.editingFinished.connect(
            lambda: self._set_map("name", self.map_name.text().strip() or "Untitled map")
        )
        form.addRow("Name:", self.map_name)
        self.map_size = QLabel("")
        resize = QPushButton("Resize…")
        resize.setToolTip("Change the number of hexes, keeping what fits (Ctrl+Alt+R)")
        resize.clicked.connect(self.ctl.resize_dialog)
        row = QHBoxLayout()
        row.addWidget(self.map_size, 1)
        row.addWidget(resize)
        form.addRow("Size:", row)
        self.hex_px = _spin(4.5, 400.0, 1.0, 1)
        self.hex_px.setSuffix(" px")
        self.hex_px.setToolTip("Hex radius on screen at 100 % zoom")
        self.hex_px.valueChanged.connect(lambda v: self._set_map("hex_px", float(v)))
        form.addRow("Hex on screen:", self.hex_px)
        self.print_mm = _spin(1.01, 100.0, 0.5, 2)
        self.print_unit = QComboBox()
        self.print_unit.addItem("mm", "mm")
        self.print_unit.addItem("inches", "in")
        self.print_unit.currentIndexChanged.connect(lambda _i: self.refresh())
        self.print_mm.valueChanged.connect(self._print_changed)
        self.print_mm.setToolTip("Printed hex width, flat side to flat side")
        prow = QHBoxLayout()
        prow.addWidget(self.print_mm, 1)
        prow.addWidget(self.print_unit)
        form.addRow("Printed hex:", prow)
        self.description = QPlainTextEdit()
        self.description.setPlaceholderText("Notes about this map (the Judge's)")
        self.description.setFixedHeight(60)
        self.description.textChanged.connect(
            lambda: self._set_map("description", self.description.toPlainText())
        )
        form.addRow("About:", self.description)
        return box

    def _background_box(self) -> QGroupBox:
        box = QGroupBox("Background picture")
        v = QVBoxLayout(box)
        self.bg_none = QLabel("No picture under this map.")
        v.addWidget(self.bg_none)
        self.bg_form = QWidget()
        form = _form(self.bg_form)
        form.setContentsMargins(0, 0, 0, 0)
        self.bg_file = QLabel("")
        self.bg_file.setWordWrap(True)
        form.addRow("File:", self.bg_file)
        self.bg_scale = _spin(0.0001, 1000.0, 0.001, 4)
        self.bg_scale.setToolTip("Map units (hex radii) per picture pixel")
        self.bg_scale.valueChanged.connect(lambda v: self._set_bg(scale=float(v)))
        form.addRow("Scale:", self.bg_scale)
        self.bg_rotation = QComboBox()
        for deg in (0, 60, 120, 180, 240, 300):
            self.bg_rotation.addItem(f"{deg}°", deg)
        self.bg_rotation.currentIndexChanged.connect(
            lambda _i: self._set_bg(rotation=int(self.bg_rotation.currentData()))
        )
        form.addRow("Turn:", self.bg_rotation)
        self.bg_x = _spin(-100_000, 100_000, 0.1, 3)
        self.bg_y = _spin(-100_000, 100_000, 0.1, 3)
        self.bg_x.valueChanged.connect(lambda v: self._set_bg(x=float(v)))
        self.bg_y.valueChanged.connect(lambda v: self._set_bg(y=float(v)))
        self.bg_x.setToolTip("Left edge of the picture, in hex radii from the first hex's centre")
        self.bg_y.setToolTip("Top edge of the picture, in hex radii from the first hex's centre")
        form.addRow("Offset x:", self.bg_x)
        form.addRow("Offset y:", self.bg_y)
        self.bg_opacity = QSpinBox()
        self.bg_opacity.setRange(0, 100)
        self.bg_opacity.setSuffix(" %")
        self.bg_opacity.setKeyboardTracking(False)
        self.bg_opacity.valueChanged.connect(lambda v: self._set_bg(opacity=v / 100.0))
        form.addRow("Opacity:", self.bg_opacity)
        self.bg_players = QCheckBox("Players see it")
        self.bg_players.toggled.connect(lambda on: self._set_bg(visible_to_players=on))
        form.addRow(self.bg_players)
        v.addWidget(self.bg_form)
        row = QHBoxLayout()
        self.bg_import = QPushButton("Import…")
        self.bg_import.setToolTip("A PNG or JPEG, copied beside the map file (Ctrl+Alt+I)")
        self.bg_import.clicked.connect(lambda: self.ctl.import_background())
        self.bg_align = QPushButton("Align…")
        self.bg_align.setToolTip("Click two points on the picture and say which hexes they are")
        self.bg_align.clicked.connect(self.ctl.begin_align)
        self.bg_remove = QPushButton("Remove")
        self.bg_remove.clicked.connect(self.ctl.remove_background)
        row.addWidget(self.bg_import)
        row.addWidget(self.bg_align)
        v.addLayout(row)
        v.addWidget(self.bg_remove, 0, Qt.AlignmentFlag.AlignRight)
        return box

    def _selected_box(self) -> QGroupBox:
        self.sel_box = box = QGroupBox("Selected")
        v = QVBoxLayout(box)
        self.sel_title = QLabel(
            "Nothing selected. Pick a wall, door, label or note with Select region (Shift+S)."
        )
        self.sel_title.setWordWrap(True)
        v.addWidget(self.sel_title)
        self.stack = QStackedWidget()
        self.stack.addWidget(QWidget())  # 0: nothing
        self.stack.addWidget(self._feature_form())  # 1
        self.stack.addWidget(self._label_form())  # 2
        self.stack.addWidget(self._note_form())  # 3
        self.stack.addWidget(self._marker_form())  # 4
        v.addWidget(self.stack)
        self.delete_btn = QPushButton("Delete")
        self.delete_btn.setToolTip("Remove the selected thing from the map (Del)")
        self.delete_btn.clicked.connect(self.ctl.delete_selected)
        v.addWidget(self.delete_btn, 0, Qt.AlignmentFlag.AlignRight)
        return box

    def _feature_form(self) -> QWidget:
        w = QWidget()
        form = _form(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.f_name = QLineEdit()
        self.f_name.setMaxLength(200)
        self.f_name.editingFinished.connect(lambda: self._set_sel("name", self.f_name.text()))
        form.addRow("Name:", self.f_name)
        self.f_material = QComboBox()
        for mat in Material:
            self.f_material.addItem(MATERIAL_WORD[mat], mat.value)
        self.f_material.currentIndexChanged.connect(
            lambda _i: self._set_sel("material", Material(self.f_material.currentData()))
        )
        form.addRow("Material:", self.f_material)
        self.f_height = QComboBox()
        self.f_height.addItem("Full height", CoverHeight.FULL.value)
        self.f_height.addItem("Low", CoverHeight.LOW.value)
        self.f_height.currentIndexChanged.connect(
            lambda _i: self._set_sel("height", CoverHeight(self.f_height.currentData()))
        )
        form.addRow("Height:", self.f_height)
        self.f_open = QCheckBox("Open")
        self.f_open.toggled.connect(lambda on: self._set_sel("is_open", on, merge=False))
        form.addRow(self.f_open)
        self.f_opaque = QCheckBox("Shuttered")
        self.f_opaque.toggled.connect(lambda on: self._set_sel("opaque", on))
        self.f_opaque.setToolTip("Shuttered or curtained: a closed window then blocks sight")
        form.addRow(self.f_opaque)
        self.f_ablation = QSpinBox()
        self.f_ablation.setRange(0, 10)
        self.f_ablation.setKeyboardTracking(False)
        self.f_ablation.setToolTip("AV already shot away (000: an ablating hit lowers AV by 1)")
        self.f_ablation.valueChanged.connect(lambda v: self._set_sel("ablation", int(v)))
        form.addRow("AV shot away:", self.f_ablation)
        self.f_judge = QCheckBox("Judge only")
        self.f_judge.toggled.connect(lambda on: self._set_sel("judge_only", on, merge=False))
        self.f_judge.setToolTip("Judge only: the players' screen never shows it")
        form.addRow(self.f_judge)
        self.f_av = QLabel("")
        form.addRow("AV now:", self.f_av)
        return w

    def _label_form(self) -> QWidget:
        w = QWidget()
        form = _form(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.l_text = QLineEdit()
        self.l_text.setMaxLength(500)
        self.l_text.editingFinished.connect(lambda: self._set_sel("text", self.l_text.text()))
        form.addRow("Text:", self.l_text)
        self.l_size = _spin(0.1, 20.0, 0.1, 2)
        self.l_size.valueChanged.connect(lambda v: self._set_sel("size", float(v)))
        form.addRow("Size:", self.l_size)
        self.l_judge = QCheckBox("Judge only")
        self.l_judge.toggled.connect(lambda on: self._set_sel("judge_only", on, merge=False))
        form.addRow(self.l_judge)
        return w

    def _note_form(self) -> QWidget:
        w = QWidget()
        form = _form(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.n_where = QLabel("")
        form.addRow("Hex:", self.n_where)
        self.n_text = QPlainTextEdit()
        self.n_text.setFixedHeight(90)
        self.n_text.textChanged.connect(lambda: self._set_sel("text", self.n_text.toPlainText()))
        form.addRow("Text:", self.n_text)
        alone = QLabel("Notes are always the Judge's alone.")
        alone.setWordWrap(True)
        form.addRow(alone)
        return w

    def _marker_form(self) -> QWidget:
        w = QWidget()
        form = _form(w)
        form.setContentsMargins(0, 0, 0, 0)
        self.m_where = QLabel("")
        form.addRow("Hex:", self.m_where)
        self.m_kind = QComboBox()
        for key, word in NOTE_KINDS[1:]:
            self.m_kind.addItem(word, key)
        self.m_kind.currentIndexChanged.connect(
            lambda _i: self._set_sel("kind", self.m_kind.currentData())
        )
        form.addRow("Kind:", self.m_kind)
        self.m_text = QPlainTextEdit()
        self.m_text.setFixedHeight(70)
        self.m_text.textChanged.connect(lambda: self._set_sel("text", self.m_text.toPlainText()))
        form.addRow("Text:", self.m_text)
        self.m_judge = QCheckBox("Judge only")
        self.m_judge.toggled.connect(lambda on: self._set_sel("judge_only", on, merge=False))
        form.addRow(self.m_judge)
        return w

    # -- edits ------------------------------------------------------------------------

    def _report(self, ok: bool, message: str = "") -> None:
        if ok:
            self.error.hide()
        else:
            self.error.setText(message)
            self.error.show()
            self.refresh()

    def _set_map(self, field: str, value) -> None:
        if self._syncing or self.ctl.document is None:
            return
        m = self.ctl.document.map
        if getattr(m, field) == value:
            return
        ok, msg = self.ctl.set_field(m, field, value)
        self._report(ok, msg)

    def _print_changed(self, v: float) -> None:
        mm = v * MM_PER_INCH if self.print_unit.currentData() == "in" else v
        self._set_map("print_hex_mm", round(float(mm), 4))

    def _set_bg(self, **changes) -> None:
        if self._syncing:
            return
        ok, msg = self.ctl.set_background(**changes)
        self._report(ok, msg)

    def _set_sel(self, field: str, value, merge: bool = True) -> None:
        if self._syncing:
            return
        obj = self.ctl.selected_object()
        if obj is None or getattr(obj, field) == value:
            return
        ok, msg = self.ctl.set_field(obj, field, value, merge=merge)
        self._report(ok, msg)

    # -- showing ----------------------------------------------------------------------

    def refresh(self) -> None:
        doc = self.ctl.document
        if doc is None:
            return
        self._syncing = True
        try:
            self._refresh_map(doc)
            self._refresh_background(doc)
            self._refresh_selected(doc)
        finally:
            self._syncing = False

    def _refresh_map(self, doc) -> None:
        m = doc.map
        if not self.map_name.hasFocus():
            self.map_name.setText(m.name)
        self.map_size.setText(f"{m.cols} × {m.rows} hexes, {m.orientation.value} top")
        self.hex_px.setValue(m.hex_px)
        inch = self.print_unit.currentData() == "in"
        if inch:
            self.print_mm.setRange(1.01 / MM_PER_INCH, 100 / MM_PER_INCH)
            self.print_mm.setSingleStep(0.05)
            self.print_mm.setDecimals(3)
            self.print_mm.setValue(m.print_hex_mm / MM_PER_INCH)
        else:
            self.print_mm.setRange(1.01, 100.0)
            self.print_mm.setSingleStep(0.5)
            self.print_mm.setDecimals(2)
            self.print_mm.setValue(m.print_hex_mm)
        if self.description.toPlainText() != m.description:
            self.description.setPlainText(m.description)

    def _refresh_background(self, doc) -> None:
        bg = doc.map.background
        self.bg_none.setVisible(bg is None)
        self.bg_form.setVisible(bg is not None)
        self.bg_align.setEnabled(bg is not None)
        self.bg_remove.setEnabled(bg is not None)
        if bg is None:
            return
        self.bg_file.setText(f"{bg.path} ({bg.width}×{bg.height} px)")
        self.bg_scale.setValue(bg.scale)
        self.bg_rotation.setCurrentIndex(self.bg_rotation.findData(bg.rotation))
        self.bg_x.setValue(bg.x)
        self.bg_y.setValue(bg.y)
        self.bg_opacity.setValue(round(bg.opacity * 100))
        self.bg_players.setChecked(bg.visible_to_players)

    def _refresh_selected(self, doc) -> None:
        obj = self.ctl.selected_object()
        self.delete_btn.setEnabled(obj is not None)
        o = doc.map.orientation
        if obj is None:
            self.sel_title.setText(
                "Nothing selected. Pick a wall, door, label or note with Select region "
                "(Shift+S), or draw one."
            )
            self.stack.setCurrentIndex(0)
            return
        if isinstance(obj, Feature):
            self.sel_title.setText(f"{KIND_WORD[obj.kind]} “{obj.id}”")
            self.stack.setCurrentIndex(1)
            if not self.f_name.hasFocus():
                self.f_name.setText(obj.name)
            av = doc.cover_av()
            for i, mat in enumerate(Material):
                self.f_material.setItemText(i, f"{MATERIAL_WORD[mat]} — AV {av.get(mat.value)}")
            self.f_material.setCurrentIndex(self.f_material.findData(obj.material.value))
            self.f_height.setCurrentIndex(self.f_height.findData(obj.height.value))
            self.f_open.setVisible(obj.kind in ("door", "window"))
            self.f_open.setChecked(obj.is_open)
            self.f_opaque.setVisible(obj.kind == "window")
            self.f_opaque.setChecked(obj.opaque)
            self.f_ablation.setValue(obj.ablation)
            self.f_judge.setChecked(obj.judge_only)
            self.f_av.setText(str(obj.av(av)))
        elif isinstance(obj, Label):
            self.sel_title.setText(f"Label “{obj.id}”")
            self.stack.setCurrentIndex(2)
            if not self.l_text.hasFocus():
                self.l_text.setText(obj.text)
            self.l_size.setValue(obj.size)
            self.l_judge.setChecked(obj.judge_only)
        elif isinstance(obj, Note):
            self.sel_title.setText(f"Judge note “{obj.id}”")
            self.stack.setCurrentIndex(3)
            self.n_where.setText(offset_label(Hex(*obj.hex), o))
            if self.n_text.toPlainText() != obj.text:
                self.n_text.setPlainText(obj.text)
        elif isinstance(obj, Marker):
            self.sel_title.setText(f"Marker “{obj.id}”")
            self.stack.setCurrentIndex(4)
            self.m_where.setText(offset_label(Hex(*obj.hex), o))
            self.m_kind.setCurrentIndex(self.m_kind.findData(obj.kind))
            if self.m_text.toPlainText() != obj.text:
                self.m_text.setPlainText(obj.text)
            self.m_judge.setChecked(obj.judge_only)
