"""Line-of-sight fog for the players' screen: drawing it, and working it out off the
GUI thread.

What the posse sees and remembers, and what is certain while an answer is pending,
is :mod:`twtw_desktop.play.fog` (no Qt). Here:

* :class:`FogRunner` runs a :class:`~twtw_desktop.play.fog.FogJob` on the global
  thread pool (one at a time; a newer request replaces a waiting one) and hands the
  answer back on the GUI thread; the view applies it at once, so the screen is
  updated within a frame of the result. Answers for older walls are dropped.
* :class:`FogItem` draws the fog as one cached tiled layer: each tile is an image
  whose pixels look up the state of the hex under them (vectorised hex rounding
  through the map's layout), so there is no item per hex and no seam between
  neighbouring dark hexes. A new fog item starts *unknown everywhere* (never
  transparent), so a rebuilt scene shows nothing before its fog is set.
* Never-seen hexes are opaque by default; the Judge may choose to dim them instead
  (:data:`FOG_UNKNOWN_DIM`), leaving walls and labels faintly readable.
"""

from __future__ import annotations

import contextlib

import numpy as np
from PySide6.QtCore import QObject, QRectF, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QGraphicsItem

from ...geometry.raster import offsets_at
from ...play.fog import REMEMBERED, SEEN, UNKNOWN, FogJob
from ..scene.grid_painter import TILE, TiledLayer, bucket_scale
from ..scene.map_items import Z_NOTE, Z_TOKEN

__all__ = ["REMEMBERED", "SEEN", "UNKNOWN", "FogItem", "FogRunner"]

#: never-seen hexes: opaque by default, or dimmed when the Judge prefers (ARGB)
FOG_UNKNOWN = QColor(14, 11, 8, 255)
FOG_UNKNOWN_DIM = QColor(14, 11, 8, 238)
#: remembered hexes
FOG_REMEMBERED = QColor(14, 11, 8, 150)
#: fog tiles sample the map every this many device pixels (then scale up smoothly)
FOG_SAMPLE_PX = 2
#: the fog lies over walls, labels and markers but under the tokens
Z_FOG = (Z_NOTE + Z_TOKEN) / 2


class _Relay(QObject):
    done = Signal(object, object)


class _Task(QRunnable):
    def __init__(self, job: FogJob, relay: _Relay) -> None:
        super().__init__()
        self.job = job
        self.relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:
        result: object
        try:
            result = self.job.run()
        except Exception as e:  # report on the GUI thread, never kill the pool
            result = e
        with contextlib.suppress(RuntimeError):
            self.relay.done.emit(self.job, result)


class FogRunner(QObject):
    """Runs fog jobs off the GUI thread, one at a time; ``finished(job, result)``
    comes back on the GUI thread (``result`` is an exception if the job failed)."""

    finished = Signal(object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._relay = _Relay(self)
        self._relay.done.connect(self._done, Qt.ConnectionType.QueuedConnection)
        self._running: FogJob | None = None
        self._waiting: FogJob | None = None

    @property
    def busy(self) -> bool:
        return self._running is not None or self._waiting is not None

    def submit(self, job: FogJob) -> None:
        if self._running is not None:
            self._waiting = job  # a newer request replaces one not yet started
            return
        self._start(job)

    def _start(self, job: FogJob) -> None:
        self._running = job
        QThreadPool.globalInstance().start(_Task(job, self._relay))

    def _done(self, job, result) -> None:
        self._running = None
        nxt, self._waiting = self._waiting, None
        if nxt is not None:
            self._start(nxt)
        self.finished.emit(job, result)

    def wait(self, msecs: int = 5000) -> bool:
        """Block until the running jobs are done (tests, closing)."""
        return QThreadPool.globalInstance().waitForDone(msecs)


class _FogTiles(TiledLayer):
    """The fog rendered into image tiles (see the module docstring)."""

    def __init__(self, frame) -> None:
        super().__init__(frame)
        self.dim = False
        self.set_states(np.zeros((frame.map.rows, frame.map.cols), dtype=np.uint8))

    def set_states(self, states: np.ndarray) -> None:
        unknown = FOG_UNKNOWN_DIM if self.dim else FOG_UNKNOWN
        lut = np.array([unknown.rgba(), FOG_REMEMBERED.rgba(), 0], dtype=np.uint32)
        self.states = states
        self.colours = lut[states]
        self.clear()

    def _render_tile(self, k: int, tx: int, ty: int) -> QPixmap | None:
        fr = self.frame
        rect = self.tile_rect(k, tx, ty)
        if not rect.intersects(fr.bounds()):
            return None
        m = fr.map
        b = bucket_scale(k)
        n = TILE // FOG_SAMPLE_PX
        step = FOG_SAMPLE_PX / b  # scene units per sample
        xs = (rect.left() + (np.arange(n) + 0.5) * step) / fr.unit
        ys = (rect.top() + (np.arange(n) + 0.5) * step) / fr.unit
        px, py = np.meshgrid(xs, ys)
        col, row, inside = offsets_at(m, px, py)
        if not inside.any():
            return None
        out = np.zeros((n, n), dtype=np.uint32)
        out[inside] = self.colours[row[inside], col[inside]]
        if not out.any():
            return None
        out = np.ascontiguousarray(out)
        small = QImage(out.data, n, n, n * 4, QImage.Format.Format_ARGB32).copy()
        img = small.scaled(
            TILE,
            TILE,
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        return QPixmap.fromImage(img)


class FogItem(QGraphicsItem):
    """The fog over the whole map: one item, drawn from cached tiles."""

    def __init__(self, frame) -> None:
        super().__init__()
        self.frame = frame
        self.setZValue(Z_FOG)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._tiles = _FogTiles(frame)
        self._rect = frame.bounds()
        #: the states last drawn (tests read this): unknown everywhere at first
        self.states: np.ndarray = self._tiles.states

    def set_states(self, states: np.ndarray) -> None:
        self.states = states
        self._tiles.set_states(states)
        self.update()

    def set_dim(self, dim: bool) -> None:
        """Dim never-seen hexes instead of covering them."""
        if self._tiles.dim != bool(dim):
            self._tiles.dim = bool(dim)
            self._tiles.set_states(self.states)
            self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        self._tiles.paint(painter, option.exposedRect)
