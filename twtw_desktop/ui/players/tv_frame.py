"""Where the TV's view is, on the Judge's map, and the Judge's hand on it.

* :class:`TvFrameItem`: a rectangle on the Judge's scene round the part of the map
  the players' screen shows now, kept up to date as the TV's view pans, zooms or is
  resized; it is there only while the players' screen is open. It is view state,
  not the table: nothing is journaled or undone.
* :class:`TvHand`: an event filter on the Judge's map view. Dragging the frame's
  edge moves the TV's view (its camera locks: no mode takes it elsewhere); Alt+click
  on a hex rings that hex on the TV and on the players' devices' pages (a ``ping``
  push; only while one of them is there). Every other click goes to the Judge's tool
  as before.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem

from ..scene.map_items import Z_TOOL

#: the frame's edge can be taken this many screen pixels either side of it
GRAB_PX = 7
FRAME_COLOUR = QColor(40, 170, 255)


class TvFrameItem(QGraphicsRectItem):
    """The TV's view on the Judge's map (drawn, never clicked: :class:`TvHand`
    handles the mouse)."""

    def __init__(self) -> None:
        super().__init__()
        pen = QPen(FRAME_COLOUR, 3)
        pen.setCosmetic(True)
        pen.setStyle(Qt.PenStyle.DashLine)
        self.setPen(pen)
        self.setBrush(Qt.BrushStyle.NoBrush)
        self.setZValue(Z_TOOL + 10)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setData(0, "tv_frame")


class TvHand(QObject):
    """The frame on the Judge's map and the Judge's mouse on it (drag, Alt+click)."""

    def __init__(self, controller) -> None:
        super().__init__(controller)
        self.ctl = controller
        self.map_view = controller.main.map_view
        self.item: TvFrameItem | None = None
        self._drag_from: QPointF | None = None
        self._hover = False
        self.map_view.viewport().installEventFilter(self)
        self.map_view.documentReplaced.connect(self._scene_replaced)

    # -- the frame -------------------------------------------------------------------------

    def show_frame(self, rect: QRectF) -> None:
        """Put the frame round ``rect`` (scene) on the Judge's map."""
        sc = self.map_view.map_scene
        if sc is None:
            return
        if self.item is None or self.item.scene() is not sc:
            self.hide_frame()
            self.item = TvFrameItem()
            sc.addItem(self.item)
        self.item.setRect(rect)

    def hide_frame(self) -> None:
        it, self.item = self.item, None
        self._drag_from = None
        if it is not None:
            with contextlib.suppress(RuntimeError):
                if it.scene() is not None:
                    it.scene().removeItem(it)
        self._set_hover(False)

    def _scene_replaced(self) -> None:
        pw = self.ctl.players_window
        self.item = None  # it went with the old scene
        if pw is not None:
            self.show_frame(pw.view.visible_scene_rect())

    # -- the mouse ---------------------------------------------------------------------------

    def on_edge(self, pos: QPointF) -> bool:
        """Whether the viewport point ``pos`` is on the frame's edge."""
        if self.item is None:
            return False
        r = QRectF(self.map_view.mapFromScene(self.item.rect()).boundingRect())
        g = GRAB_PX
        outer = r.adjusted(-g, -g, g, g)
        inner = r.adjusted(g, g, -g, -g)
        return outer.contains(pos) and not (inner.isValid() and inner.contains(pos))

    def _set_hover(self, on: bool) -> None:
        if on == self._hover:
            return
        self._hover = on
        vp = self.map_view.viewport()
        if on:
            vp.setCursor(Qt.CursorShape.SizeAllCursor)
        else:
            tool = self.map_view.tool
            vp.setCursor(getattr(tool, "cursor", None) or Qt.CursorShape.ArrowCursor)

    def eventFilter(self, obj, ev) -> bool:
        t = ev.type()
        if t not in (
            QEvent.Type.MouseButtonPress,
            QEvent.Type.MouseMove,
            QEvent.Type.MouseButtonRelease,
        ):
            return False
        pos = ev.position()
        scene_pos = self.map_view.mapToScene(pos.toPoint())
        left = t == QEvent.Type.MouseButtonPress and ev.button() == Qt.MouseButton.LeftButton
        if left and ev.modifiers() & Qt.KeyboardModifier.AltModifier and self.ctl.ping_heard():
            sc = self.map_view.map_scene
            if sc is not None:
                self.ctl.ping(sc.frame.hex_at(scene_pos))
            return True
        if self.ctl.players_window is None:
            return False
        if left:
            if self.on_edge(pos):
                self._drag_from = scene_pos
                self.map_view.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                return True
            return False
        if t == QEvent.Type.MouseMove:
            if self._drag_from is not None:
                d = scene_pos - self._drag_from
                self._drag_from = scene_pos
                self.ctl.move_tv_by(d.x(), d.y())
                return True
            if not ev.buttons():
                self._set_hover(self.on_edge(pos))
            return False
        if self._drag_from is not None and ev.button() == Qt.MouseButton.LeftButton:
            self._drag_from = None
            edge = self.on_edge(pos)
            self._hover = not edge  # the grab cursor goes: set the hover one afresh
            self._set_hover(edge)
            self.ctl.remember_tv_centre()
            return True
        return False
