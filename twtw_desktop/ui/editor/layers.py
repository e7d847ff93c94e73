"""The Layers panel: show, hide and lock the map's layers (MapScene's layer API).

A hidden layer is only hidden on this screen (never saved); a locked layer still
shows but the editor's tools refuse to change it, with a status message.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from ..scene.map_scene import LAYER_TITLES, LAYERS

#: layers the editor can lock (tokens are moved in play, not edited here)
LOCKABLE = ("terrain", "walls", "objects", "labels", "notes", "background")


class LayersPanel(QWidget):
    def __init__(self, view, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editor_layers")
        self.view = view
        self._scene = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        grid = QGridLayout()
        grid.setHorizontalSpacing(10)
        head = QLabel("Layer")
        head.setStyleSheet("font-weight: bold")
        grid.addWidget(head, 0, 0)
        for col, word in ((1, "Show"), (2, "Lock")):
            lab = QLabel(word)
            lab.setStyleSheet("font-weight: bold")
            grid.addWidget(lab, 0, col, Qt.AlignmentFlag.AlignHCenter)
        self.show_boxes: dict[str, QCheckBox] = {}
        self.lock_boxes: dict[str, QCheckBox] = {}
        for i, name in enumerate(LAYERS, start=1):
            grid.addWidget(QLabel(LAYER_TITLES[name]), i, 0)
            vis = QCheckBox()
            vis.setObjectName(f"layer_show_{name}")
            vis.setToolTip(f"Show or hide {LAYER_TITLES[name].lower()} on this screen")
            vis.toggled.connect(lambda on, n=name: self._set_visible(n, on))
            grid.addWidget(vis, i, 1, Qt.AlignmentFlag.AlignHCenter)
            self.show_boxes[name] = vis
            if name in LOCKABLE:
                lock = QCheckBox()
                lock.setObjectName(f"layer_lock_{name}")
                lock.setToolTip(
                    f"Lock {LAYER_TITLES[name].lower()}: the editor will not change them"
                )
                lock.toggled.connect(lambda on, n=name: self._set_locked(n, on))
                grid.addWidget(lock, i, 2, Qt.AlignmentFlag.AlignHCenter)
                self.lock_boxes[name] = lock
        outer.addLayout(grid)
        outer.addStretch(1)
        self.attach()

    def attach(self) -> None:
        """Follow the view's current scene (after a new document)."""
        sc = self.view.map_scene
        if sc is self._scene:
            self.sync()
            return
        if self._scene is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self._scene.layersChanged.disconnect(self.sync)
        self._scene = sc
        if sc is not None:
            sc.layersChanged.connect(self.sync)
        self.sync()

    def sync(self) -> None:
        sc = self._scene
        if sc is None:
            return
        for name, box in self.show_boxes.items():
            box.blockSignals(True)
            box.setChecked(sc.layer_visible(name))
            box.blockSignals(False)
        for name, box in self.lock_boxes.items():
            box.blockSignals(True)
            box.setChecked(sc.layer_locked(name))
            box.blockSignals(False)

    def _set_visible(self, name: str, on: bool) -> None:
        if self._scene is not None:
            self._scene.set_layer_visible(name, on)

    def _set_locked(self, name: str, on: bool) -> None:
        if self._scene is not None:
            self._scene.set_layer_locked(name, on)
