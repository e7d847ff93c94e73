"""The Judge's window's layout: the docks the panels live in (tabbed by area), the
first-run size (most of the screen; one side column on a laptop), the view a map
opens with, and the layout kept between sessions."""

from __future__ import annotations

import logging

from PySide6.QtCore import QByteArray, QRectF, Qt, QTimer
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


def _round(frame, hexes: list) -> QRectF | None:
    """The scene rectangle round these hexes (None: none): a hex round them (a step
    to every side, the name plates below), half a hex above, where a token draws
    nothing outside its hex."""
    if not hexes:
        return None
    rect = frame.hex_rect(hexes[0])
    for h in hexes[1:]:
        rect = rect.united(frame.hex_rect(h))
    m = frame.hex_width
    return rect.adjusted(-m, -m / 2, m, m)


class WindowLayout(WindowBase):
    """The docks and layout of :class:`.main_window.MainWindow` (see module docstring)."""

    def _make_docks(self) -> None:
        try:
            from ..panels import dock_specs, panel_specs

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
        """The view a map opens with: the whole map when the fight's names can be read
        that way — plates at least READABLE_NAME_PX tall, none cut to initials that
        100 % shows whole (two figures side by side share the room for one name at
        any zoom); else the fight (the posse and the figures they can see,
        play/in_sight.py ``the_fight``) whole at the largest zoom step showing it,
        100 % at most; where that is not readable, the first readable step (and a
        step more while a name is cut short and the posse still fits), centred on
        the fight — on the posse where the fight's centre would leave some of them
        out (the fight's edges may then be off screen: names first)."""
        from ...play.in_sight import the_fight
        from ..scene.token_item import TokenLook, readable_scale

        mv = self.map_view
        sc = mv.map_scene
        doc = self.document
        if sc is None or doc is None or mv.viewport().width() < 10:
            return
        need = readable_scale(TokenLook(), sc.frame.unit)
        # the window opens the view again as it settles (shown, resized): the fight is
        # worked out once per document and table step
        key = (id(doc), doc.table.position, len(doc.table.steps))
        cached = getattr(self, "_fight_cache", None)
        if cached is None or cached[0] != key:
            cached = self._fight_cache = (key, the_fight(doc.table))
        fight_tokens = cached[1]
        fight = [t.id for t in fight_tokens]
        posse = _round(sc.frame, [t.at for t in the_fight(doc.table, only_posse=True)])

        def cut() -> set[str]:
            """The fight's names shortened or left out at the zoom now."""
            items = ((tid, sc.tokens.get(tid)) for tid in fight)
            return {tid for tid, it in items if it is not None and it.plate_text is not None}

        mv.set_zoom_k(OPEN_MAX_ZOOM_K)
        cut_anyway = cut()

        def readable() -> bool:
            return mv.zoom >= need and cut() <= cut_anyway

        mv.zoom_fit()
        if readable():
            return
        rect = _round(sc.frame, [t.at for t in fight_tokens]) or sc.frame.bounds()
        mv.fit_rect(rect, max_k=OPEN_MAX_ZOOM_K)  # the fight whole, as large as it fits
        # too small to read: up to the first readable step, centred on the fight; a
        # name cut short is worth a step more only while the posse stays in view
        posse_k = mv.fit_step(posse) if posse is not None else None
        k = mv.zoom_k
        while k < OPEN_MAX_ZOOM_K and (
            mv.zoom < need or (not readable() and posse_k is not None and k < posse_k)
        ):
            k += 1
            mv.set_zoom_k(k)
        mv.centerOn(rect.center())
        if posse is not None and not mv.visible_scene_rect().contains(posse):
            mv.centerOn(posse.center())  # the posse first

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
