"""The map view: one QGraphicsView over the encounter's scene.

* The hex grid is painted in :meth:`drawBackground` from the grid painter's tiles.
* Pan: drag with the middle or right button, or hold Space and drag; arrow keys.
* Zoom: the wheel (anchored under the mouse), ``zoom_in``/``zoom_out``/``zoom_fit``.
  Zoom levels are the grid painter's buckets so cached tiles blit 1:1.
* Mouse and key events go to the one active tool first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal, SignalInstance
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QTransform, QWheelEvent
from PySide6.QtWidgets import QFrame, QGraphicsView, QWidget

from ...hexgrid import Hex
from ..core.document import EncounterDocument
from . import style
from .grid_painter import bucket_index, bucket_scale
from .map_scene import MapScene


class ViewTool(Protocol):
    """What the view asks of a map tool (:class:`..tools.base.Tool`: the tools import
    the scene, so the view names them by what it calls, not by their class)."""

    name: str
    title: str
    shortcut: str
    tooltip: str
    cursor: Qt.CursorShape

    @property
    def statusMessage(self) -> SignalInstance: ...
    def activate(self) -> None: ...
    def deactivate(self) -> None: ...
    def document_changed(self) -> None: ...
    def mouse_press(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool: ...
    def mouse_move(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool: ...
    def mouse_release(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool: ...
    def mouse_double_click(self, ev: QMouseEvent, pos: QPointF, h: Hex) -> bool: ...
    def key_press(self, ev: QKeyEvent) -> bool: ...
    def wheel(self, ev: QWheelEvent) -> bool: ...


#: zoom limits as bucket indices (bucket_scale(8) = 4×, bucket_scale(-20) ≈ 3 %)
MAX_ZOOM_K = 8
MIN_ZOOM_K = -20
#: arrow-key pan step in device pixels (Shift: four times as far)
ARROW_STEP_PX = 60
#: wheel notch
WHEEL_NOTCH = 120


class MapView(QGraphicsView):
    """Shows a :class:`MapScene`; forwards input to the active tool."""

    hexHovered = Signal(object)  # Hex or None
    zoomChanged = Signal(float)
    toolChanged = Signal(object)
    statusMessage = Signal(str)
    documentReplaced = Signal()
    #: the part of the scene on screen changed (pan, zoom, resize): the visible scene
    #: rectangle, for the players' screen's follow camera
    viewportChanged = Signal(QRectF)

    def __init__(self, document: EncounterDocument | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.document: EncounterDocument | None = None
        self.map_scene: MapScene | None = None
        self.tool: ViewTool | None = None
        self._tools: dict[str, ViewTool] = {}
        self._pick_callback: Callable[[str | None], None] | None = None
        self._pick_previous: ViewTool | None = None
        self._pan_from: QPoint | None = None
        self._space = False
        self._wheel_acc = 0
        self._hover: Hex | None = None
        self._hover_tid: str | None = None
        self._zoom_k = 0
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setBackgroundBrush(style.OFF_MAP)
        # drawBackground paints every pixel it is asked for (the ground's opaque tiles,
        # or the off-map colour): no fill of the whole viewport before each frame
        self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)
        self.viewport().setAutoFillBackground(False)
        from .overlays import Overlays

        self.overlays = Overlays(self)
        self.overlays.message.connect(self.statusMessage)
        self.horizontalScrollBar().valueChanged.connect(self._viewport_moved)
        self.verticalScrollBar().valueChanged.connect(self._viewport_moved)
        self.zoomChanged.connect(self._viewport_moved)
        if document is not None:
            self.set_document(document)

    def visible_scene_rect(self) -> QRectF:
        """The scene rectangle on screen now."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def _viewport_moved(self, *_args) -> None:
        self.viewportChanged.emit(self.visible_scene_rect())

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        self._viewport_moved()

    # -- document ---------------------------------------------------------------------------

    def set_document(self, document: EncounterDocument) -> None:
        old = self.map_scene
        if self.document is not None and self.document.map_view is self:
            self.document.map_view = None
        self.document = document
        document.map_view = self
        self.map_scene = MapScene(document, self)
        self.setScene(self.map_scene)
        if old is not None:
            old.deleteLater()
        for t in self._tools.values():
            t.document_changed()
        self.overlays.attach(self.map_scene)
        self.documentReplaced.emit()
        self.zoom_fit()

    # -- tools ------------------------------------------------------------------------------

    def register_tool(self, tool: ViewTool) -> None:
        self._tools[tool.name] = tool
        tool.statusMessage.connect(self.statusMessage)

    def tools(self) -> dict[str, ViewTool]:
        return dict(self._tools)

    def set_tool(self, tool_or_name: ViewTool | str | None) -> None:
        tool = self._tools.get(tool_or_name) if isinstance(tool_or_name, str) else tool_or_name
        if tool is self.tool:
            return
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        if tool is not None:
            tool.activate()
        self.toolChanged.emit(tool)

    #: the tool class that lets the Judge click a target (ui.tools.pick, handed over by
    #: the window with the other tools: the tools import the scene, not the reverse)
    pick_tool: Any = None

    def pick_target(self, callback: Callable[[str | None], None]) -> None:
        """Ask the Judge to click a token; ``callback(token_id)`` — or ``None`` when the
        pick is cancelled with Esc or another tool is chosen. Used by the attack panel."""
        if self._pick_callback is not None:
            self._finish_pick(None)
        picker = self._tools.get("pick_target")
        if picker is None:
            if self.pick_tool is None:
                raise RuntimeError("no pick tool: the window gives the view its tools")
            picker = self.pick_tool(self)
            self.register_tool(picker)
        self._pick_previous = self.tool
        self._pick_callback = callback
        self.set_tool(picker)
        self.setFocus()

    def _finish_pick(self, token_id: str | None) -> None:
        cb, self._pick_callback = self._pick_callback, None
        prev, self._pick_previous = self._pick_previous, None
        if self.tool is not None and self.tool.name == "pick_target":
            self.set_tool(prev)
        if token_id is not None:
            self.overlays.set_target(token_id)
        if cb is not None:
            cb(token_id)

    # -- tokens ---------------------------------------------------------------------------------

    def highlight_token(self, token_id: str | None, on: bool = True) -> None:
        """Light a token up (the track panel calls this while a row is hovered)."""
        if self.map_scene is None:
            return
        for tid, it in self.map_scene.tokens.items():
            it.set_highlighted(on and tid == token_id)

    def center_on_hex(self, h: Hex) -> None:
        if self.map_scene is not None:
            self.centerOn(self.map_scene.frame.center(h))

    # -- zoom ---------------------------------------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    @property
    def zoom_k(self) -> int:
        return self._zoom_k

    def set_zoom_k(self, k: int, anchor: QPoint | None = None) -> None:
        k = max(MIN_ZOOM_K, min(MAX_ZOOM_K, k))
        if anchor is None:
            anchor = self.viewport().rect().center()
        old = self.mapToScene(anchor)
        s = bucket_scale(k)
        self._zoom_k = k
        self.setTransform(QTransform.fromScale(s, s))
        if self.map_scene is not None:
            self.map_scene.set_plate_scale(s)  # names laid out for this zoom
        new = self.mapToScene(anchor)
        d = (new - old) * s
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(d.x()))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(d.y()))
        self.zoomChanged.emit(s)

    def zoom_in(self, anchor: QPoint | None = None) -> None:
        self.set_zoom_k(self._zoom_k + 1, anchor)

    def zoom_out(self, anchor: QPoint | None = None) -> None:
        self.set_zoom_k(self._zoom_k - 1, anchor)

    def zoom_fit(self) -> None:
        """The largest zoom step showing the whole map."""
        if self.map_scene is None:
            return
        self.fit_rect(self.map_scene.frame.bounds())

    def fit_step(self, rect: QRectF) -> int | None:
        """The largest zoom step at which ``rect`` (scene) fits the viewport (None
        while there is no viewport to speak of)."""
        vp = self.viewport().rect()
        if rect.width() <= 0 or rect.height() <= 0 or vp.width() < 10 or vp.height() < 10:
            return None
        fit = min((vp.width() - 8) / rect.width(), (vp.height() - 8) / rect.height())
        k = bucket_index(fit)
        while k > MIN_ZOOM_K and bucket_scale(k) > fit:
            k -= 1
        return min(k, MAX_ZOOM_K)

    def fit_rect(self, rect: QRectF, max_k: int = MAX_ZOOM_K) -> None:
        """Show ``rect`` (scene) whole, centred, at the largest zoom step that fits
        it, ``max_k`` at most."""
        k = self.fit_step(rect)
        if k is None:
            return
        self.set_zoom_k(min(k, max_k))
        self.centerOn(rect.center())

    # -- painting -------------------------------------------------------------------------------------

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        rect = QRectF(rect)  # Qt passes a QRectF; its signature allows a QRect too
        sc = self.map_scene
        if sc is None:
            painter.fillRect(rect, style.OFF_MAP)
            return
        sc.drawBackground(painter, rect)

    # -- input ------------------------------------------------------------------------------------------

    def _hex(self, ev) -> tuple[QPointF, Hex | None]:
        pos = self.mapToScene(ev.position().toPoint())
        if self.map_scene is None:
            return pos, None
        return pos, self.map_scene.frame.hex_at(pos)

    def mousePressEvent(self, ev: QMouseEvent) -> None:
        btn = ev.button()
        if btn in (Qt.MouseButton.MiddleButton, Qt.MouseButton.RightButton) or (
            btn == Qt.MouseButton.LeftButton and self._space
        ):
            self._pan_from = ev.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            ev.accept()
            return
        pos, h = self._hex(ev)
        if self.tool is not None and h is not None and self.tool.mouse_press(ev, pos, h):
            ev.accept()
            return
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev: QMouseEvent) -> None:
        if self._pan_from is not None:
            p = ev.position().toPoint()
            d = p - self._pan_from
            self._pan_from = p
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
            ev.accept()
            return
        pos, h = self._hex(ev)
        sc = self.map_scene
        inside = h if (h is not None and sc is not None and sc.frame.contains(h)) else None
        if inside != self._hover:
            self._hover = inside
            self.hexHovered.emit(inside)
            self._hover_token(inside)
        if self.tool is not None and h is not None and self.tool.mouse_move(ev, pos, h):
            ev.accept()
            return
        super().mouseMoveEvent(ev)

    def mouseReleaseEvent(self, ev: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            cur = self.tool.cursor if self.tool is not None else Qt.CursorShape.ArrowCursor
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else cur)
            ev.accept()
            return
        pos, h = self._hex(ev)
        if self.tool is not None and h is not None and self.tool.mouse_release(ev, pos, h):
            ev.accept()
            return
        super().mouseReleaseEvent(ev)

    def mouseDoubleClickEvent(self, ev: QMouseEvent) -> None:
        pos, h = self._hex(ev)
        if self.tool is not None and h is not None and self.tool.mouse_double_click(ev, pos, h):
            ev.accept()
            return
        super().mouseDoubleClickEvent(ev)

    def _hover_token(self, h: Hex | None) -> None:
        doc = self.document
        tok = doc.encounter.token_at(h) if (h is not None and doc is not None) else None
        tid = tok.id if tok is not None else None
        if tid != self._hover_tid and doc is not None:
            self._hover_tid = tid
            doc.tokenHovered.emit(tid)

    def leaveEvent(self, ev) -> None:
        if self._hover is not None:
            self._hover = None
            self.hexHovered.emit(None)
            self._hover_token(None)
        super().leaveEvent(ev)

    def wheelEvent(self, ev: QWheelEvent) -> None:
        if self.tool is not None and self.tool.wheel(ev):
            ev.accept()
            return
        if ev.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            ev.ignore()
            return
        self._wheel_acc += ev.angleDelta().y()
        anchor = ev.position().toPoint()
        while self._wheel_acc >= WHEEL_NOTCH:
            self._wheel_acc -= WHEEL_NOTCH
            self.zoom_in(anchor)
        while self._wheel_acc <= -WHEEL_NOTCH:
            self._wheel_acc += WHEEL_NOTCH
            self.zoom_out(anchor)
        ev.accept()

    def keyPressEvent(self, ev: QKeyEvent) -> None:
        key = ev.key()
        if key == Qt.Key.Key_Space and not ev.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            ev.accept()
            return
        if self.tool is not None and self.tool.key_press(ev):
            ev.accept()
            return
        step = ARROW_STEP_PX * (4 if ev.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
        arrows: dict[int, tuple[int, int]] = {
            Qt.Key.Key_Left: (-step, 0),
            Qt.Key.Key_Right: (step, 0),
            Qt.Key.Key_Up: (0, -step),
            Qt.Key.Key_Down: (0, step),
        }
        if key in arrows:
            dx, dy = arrows[key]
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + dx)
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + dy)
            ev.accept()
            return
        if key == Qt.Key.Key_Escape and self._pick_callback is not None:
            self._finish_pick(None)
            ev.accept()
            return
        super().keyPressEvent(ev)

    def keyReleaseEvent(self, ev: QKeyEvent) -> None:
        if ev.key() == Qt.Key.Key_Space and not ev.isAutoRepeat():
            self._space = False
            cur = self.tool.cursor if self.tool is not None else Qt.CursorShape.ArrowCursor
            self.viewport().setCursor(cur)
            ev.accept()
            return
        super().keyReleaseEvent(ev)

    def hovered_hex(self) -> Hex | None:
        return self._hover
