"""Spin boxes and combo boxes take the mouse wheel only when they have the focus.

Scrolling a character sheet must never change the ammunition under the pointer. One
application-wide event filter (:func:`install_wheel_guard`) covers every
``QAbstractSpinBox`` (QSpinBox, QDoubleSpinBox…) and ``QComboBox`` in every window,
now and later:

* when such a widget is polished its focus policy loses ``WheelFocus`` (a wheel turn
  no longer gives it the focus first — Qt would otherwise focus it and then change it);
* a wheel event reaching one without the focus is handed to the nearest scroll area
  around it instead, so the sheet scrolls as if the box were not there.

Click (or Tab into) the box and the wheel changes it as usual.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox

from .app_filters import install_app_filter

GUARDED = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        t = ev.type()
        if t == QEvent.Type.Polish and isinstance(obj, GUARDED):
            if obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif (
            t == QEvent.Type.Wheel
            and isinstance(obj, GUARDED)
            and isinstance(ev, QWheelEvent)
            and not obj.hasFocus()
        ):
            _to_scroll_area(obj, ev)
            ev.accept()
            return True
        return False


def _to_scroll_area(widget, ev: QWheelEvent) -> None:
    """Send a copy of ``ev`` to the viewport of the scroll area ``widget`` sits in."""
    w = widget.parentWidget()
    while w is not None and not isinstance(w, QAbstractScrollArea):
        w = w.parentWidget()
    if w is None:
        return
    vp = w.viewport()
    p = ev.position()
    # through the screen: the box need not sit inside the viewport (a box in a dock
    # title or a corner of the area), and mapFrom() warns when it does not
    pos = vp.mapFromGlobal(widget.mapToGlobal(QPoint(round(p.x()), round(p.y()))))
    copy = QWheelEvent(
        pos.toPointF(),
        ev.globalPosition(),
        ev.pixelDelta(),
        ev.angleDelta(),
        ev.buttons(),
        ev.modifiers(),
        ev.phase(),
        ev.inverted(),
    )
    QApplication.sendEvent(vp, copy)


_guards: dict[int, WheelGuard] = {}


def install_wheel_guard() -> WheelGuard | None:
    """Install the guard on the running application (once); returns it."""
    got = install_app_filter(_guards, WheelGuard)
    if got is None:
        return None
    guard, new = got
    if new:
        # the boxes that already exist (built before the guard, e.g. the panels of a
        # window shown before them) lose WheelFocus now, as a polish would do
        for w in QApplication.allWidgets():
            if isinstance(w, GUARDED) and w.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return guard
