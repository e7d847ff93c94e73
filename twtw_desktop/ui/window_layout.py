"""The Judge's window's layout: the docks the panels live in (tabbed by area), the
first-run size (most of the screen; one side column on a laptop), the view a map
opens with, and the layout kept between sessions."""

from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QLabel

from .dock_title import install_head
from .window_base import WindowBase

log = logging.getLogger(__name__)

#: first-run dock sizes (pixels): narrow side columns, a short bottom row
DOCK_SIDE_WIDTH = 300

#: below this available screen width the first-run layout keeps one side column
LAPTOP_WIDTH = 1600

#: ...and no closer than this zoom step (100 %) on its figures
OPEN_MAX_ZOOM_K = 0


class WindowLayout(WindowBase):
    """The docks and layout of :class:`.main_window.MainWindow` (see module docstring)."""

    def _make_docks(self) -> None:
        try:
            from .panels import dock_specs, panel_specs

            # panels built after the first frame are imported then too
            specs = panel_specs() if self.incomplete else dock_specs()
        except ImportError as e:  # panels not there yet: the map alone still works
            log.warning("no side panels: %s", e)
            specs = []
        for name, title, factory, area in specs:
            dock = QDockWidget(title, self)
            dock.setObjectName(name)
            dock.setFeatures(
                QDockWidget.DockWidgetFeature.DockWidgetClosable
                | QDockWidget.DockWidgetFeature.DockWidgetMovable
                | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            )
            self.addDockWidget(area, dock)
            self.docks[name] = dock
            self._dock_factories[name] = factory
            self.docks_menu.addAction(dock.toggleViewAction())
        # docks sharing an area become tabs, so the map keeps most of a laptop screen
        by_area: dict[Qt.DockWidgetArea, list[QDockWidget]] = {}
        for name, _title, _f, area in specs:
            by_area.setdefault(area, []).append(self.docks[name])
        for docks in by_area.values():
            for d in docks[1:]:
                self.tabifyDockWidget(docks[0], d)
            if docks:
                docks[0].raise_()

    def _fill_docks(self) -> None:
        if self.incomplete:
            return  # built by complete(), on the document of that moment
        for name, dock in self.docks.items():
            old = dock.widget()
            try:
                w = self._dock_factories[name](self.document, dock)
            except Exception as e:  # a broken panel must not take the window down
                log.exception("panel %s failed", name)
                w = QLabel(f"This panel could not open:\n{e}")
                w.setWordWrap(True)
            install_head(dock, w)  # the track's buttons ride in its title bar (first:
            dock.setWidget(w)  # the dock never sees the panel with them, a row taller)
            if old is not None:
                old.deleteLater()

    def restore_layout(self) -> None:
        geo = self.settings.window_geometry()
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self._first_run_size()
        state = self.settings.window_state()
        if state is not None:
            self.restoreState(state)
        if not self.incomplete:
            self._sync_addons()
        for name in self.settings.overlays_on():
            a = self.overlay_actions.get(name)
            if a is not None:
                a.setChecked(True)
        QTimer.singleShot(0, self.open_view)

    def _sync_addons(self) -> None:
        self.players_screen.sync_toggle()  # its toolbar shows only while it is open
        self.dock_rail.sync()

    def open_view(self) -> None:
        """The view a map opens with: every figure in view at a readable zoom. The
        whole map when its token names can be read that way, else the largest zoom
        step (100 % at most) that shows all the figures, centred on them."""
        from .scene.grid_painter import bucket_scale
        from .scene.token_item import TokenLook, readable_scale

        mv = self.map_view
        sc = mv.map_scene
        doc = self.document
        if sc is None or doc is None or mv.viewport().width() < 10:
            return
        mv.zoom_fit()
        need = readable_scale(TokenLook(), sc.frame.unit)
        if mv.zoom >= need:
            return
        tokens = doc.encounter.tokens
        if not tokens:
            k = mv.zoom_k
            while bucket_scale(k) < need:
                k += 1
            mv.set_zoom_k(k)
            return
        fr = sc.frame
        rect = fr.hex_rect(tokens[0].at)
        for t in tokens[1:]:
            rect = rect.united(fr.hex_rect(t.at))
        # a hex round them (a step to every side, the name plates below), half a hex
        # above, where a token draws nothing outside its hex: on a 1366×768 laptop a
        # tall cast (the Laroq hacienda's) then opens at a readable zoom
        m = fr.hex_width
        mv.fit_rect(rect.adjusted(-m, -m / 2, m, m), max_k=OPEN_MAX_ZOOM_K)

    def _first_run_size(self) -> None:
        """Most of the screen, and side panels narrow enough to leave the map room."""
        screen = self.screen()
        laptop = False
        if screen is not None:
            avail = screen.availableGeometry()
            laptop = avail.width() < LAPTOP_WIDTH
            if laptop:
                # every pixel counts on a laptop: take the whole screen
                self.setGeometry(avail)
                self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
            else:
                w = min(avail.width(), max(1024, int(avail.width() * 0.92)))
                h = min(avail.height(), max(700, int(avail.height() * 0.92)))
                self.resize(w, h)
                self.move(
                    avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2
                )
        if laptop:
            self._one_side_column()
        by_area: dict[Qt.DockWidgetArea, QDockWidget] = {}
        for d in self.docks.values():
            by_area.setdefault(self.dockWidgetArea(d), d)
        side = [
            d
            for a, d in by_area.items()
            if a in (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
        ]
        if side:
            self.resizeDocks(side, [DOCK_SIDE_WIDTH] * len(side), Qt.Orientation.Horizontal)
        if not self.incomplete:  # (else complete() does, once the panels are built)
            QTimer.singleShot(0, self.fit_bottom_row)

    def _docks_in(self, area: Qt.DockWidgetArea) -> list[QDockWidget]:
        """The docks in ``area``, in the panels' order."""
        return [d for d in self.docks.values() if self.dockWidgetArea(d) == area]

    def fit_bottom_row(self) -> None:
        """The first layout: the bottom row as short as its panel allows (the action
        track with its rows in view, panels/track/fit.py); the map keeps the rest."""
        bottom = [
            d for d in self._docks_in(Qt.DockWidgetArea.BottomDockWidgetArea) if not d.isFloating()
        ]
        if bottom:
            self.resizeDocks(
                bottom[:1], [bottom[0].minimumSizeHint().height()], Qt.Orientation.Vertical
            )

    def _one_side_column(self) -> None:
        """On a narrow screen the left-hand panels join the right-hand column as tabs,
        so the map gets the width (a 1366-pixel laptop keeps a map ~1000 px wide); so do
        the bottom row's panels after its first (the action track), which then needs no
        tab bar under it: those pixels are track rows (issue #27)."""
        right = self._docks_in(Qt.DockWidgetArea.RightDockWidgetArea)
        left = self._docks_in(Qt.DockWidgetArea.LeftDockWidgetArea)
        left += self._docks_in(Qt.DockWidgetArea.BottomDockWidgetArea)[1:]
        if not right or not left:
            return
        for d in left:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, d)
            self.tabifyDockWidget(right[0], d)
        right[0].raise_()

    def save_layout(self) -> None:
        self.settings.save_window(QByteArray(self.saveGeometry()), QByteArray(self.saveState()))
        self.settings.set_overlays_on([n for n, a in self.overlay_actions.items() if a.isChecked()])
