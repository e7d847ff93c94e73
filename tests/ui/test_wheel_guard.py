"""The wheel over an unfocused spin box or combo box scrolls the page instead of
changing the value (ammunition 5 → 2 unnoticed); once focused, the wheel works."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDoubleSpinBox,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from twtw_desktop.ui.panels.sheet_panel import SheetPanel
from twtw_desktop.ui.window.wheel import install_wheel_guard

from .test_panels_support import small_document


def _wheel(widget, notches: int = -1) -> None:
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(
        pos,
        QPointF(widget.mapToGlobal(QPoint(int(pos.x()), int(pos.y())))),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, ev)


def _page(qtbot):
    install_wheel_guard()
    area = QScrollArea()
    page = QWidget()
    lay = QVBoxLayout(page)
    spin, dspin, combo = QSpinBox(), QDoubleSpinBox(), QComboBox()
    combo.addItems(["a", "b", "c"])
    spin.setValue(5)
    dspin.setValue(5.0)
    combo.setCurrentIndex(1)
    for w in (spin, dspin, combo):
        lay.addWidget(w)
    lay.addSpacing(3000)
    area.setWidget(page)
    area.resize(300, 200)
    qtbot.addWidget(area)
    area.show()
    qtbot.waitExposed(area)
    return area, spin, dspin, combo


def test_unfocused_boxes_pass_the_wheel_to_the_scroll_area(qtbot):
    area, spin, dspin, combo = _page(qtbot)
    bar = area.verticalScrollBar()
    for w in (spin, dspin, combo):
        assert w.focusPolicy() == Qt.FocusPolicy.StrongFocus  # the wheel gives no focus
        _wheel(w)
    assert (spin.value(), dspin.value(), combo.currentIndex()) == (5, 5.0, 1)
    assert bar.value() > 0  # the page scrolled instead


def test_a_focused_box_takes_the_wheel(qtbot):
    _area, spin, _dspin, _combo = _page(qtbot)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    _wheel(spin, +1)
    assert spin.value() == 6


def test_the_sheet_panel_spin_boxes_are_guarded(qtbot):
    install_wheel_guard()
    doc = small_document()
    panel = SheetPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    spins = panel.findChildren(QSpinBox)
    assert spins
    spin = next(s for s in spins if s.isVisible())
    before = spin.value()
    _wheel(spin, -3)
    assert spin.value() == before


def test_a_box_outside_the_viewport_passes_the_wheel_without_a_warning(qtbot, qtlog):
    """Issue 27: the console said ``QWidget::mapFrom(): parent must be in parent
    hierarchy`` for a box in a scroll area but not in its viewport (a corner widget)."""
    area, _spin, _dspin, _combo = _page(qtbot)
    corner = QSpinBox()
    corner.setValue(3)
    area.setCornerWidget(corner)
    area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    qtbot.wait(20)
    _wheel(corner)
    assert corner.value() == 3
    assert not [m for m in qtlog.records if "mapFrom" in m.message]
