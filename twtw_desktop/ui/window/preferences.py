"""Edit ▸ Preferences… (Ctrl+,): what the Judge sets once and the app remembers.

Each preference is stored in QSettings (:class:`~twtw_desktop.ui.core.settings.AppSettings`)
and takes effect at once:

* **interface scale** — the application font, as a multiple of the system's size;
* **side palette** — the token colours of the posse, the hombres and neutrals; the
  colour-blind-safe choice uses the Okabe–Ito colours (blue, vermilion, reddish
  purple), which stay apart under deuteranopia and protanopia;
* **default edition** — the edition File ▸ New encounter starts with;
* **players' screen** — the display the players' window goes on (the same setting
  as the players' toolbar menu);
* **autosave** — at most N minutes (0 = off) after the last unsaved map change a
  recovery copy is written (:mod:`twtw_desktop.ui.window.autosave`); the Judge's own file
  is never touched by it. Play at the table is journaled step by step anyway.

Install with :func:`install_preferences`; the controller is ``window.preferences``.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
)

from ...rules.editions import edition_ids, load_edition
from ..core.settings import AUTOSAVE_MAX, SCALE_RANGE
from ..players.displays import screen_id
from ..scene import style

log = logging.getLogger(__name__)

#: side colours per palette; "okabe_ito" is Okabe & Ito's colour-blind-safe set
SIDE_PALETTES: dict[str, dict[str, QColor]] = {
    "standard": {k: QColor(v) for k, v in style.SIDE_COLOURS.items()},
    "okabe_ito": {
        "posse": QColor(0, 114, 178),  # blue
        "hombres": QColor(213, 94, 0),  # vermilion
        "neutral": QColor(204, 121, 167),  # reddish purple
    },
}
PALETTE_TITLES = {"standard": "Standard", "okabe_ito": "Colour-blind safe (Okabe–Ito)"}


def apply_palette(name: str) -> None:
    """Make ``name`` the side palette every token and strip row is drawn with."""
    style.SIDE_COLOURS.update({k: QColor(v) for k, v in SIDE_PALETTES[name].items()})


#: the main window that installs this add-on (ui.main_window imports this module, so
#: it is not imported back: no cycle)
MainWindow = Any


class PreferencesDialog(QDialog):
    def __init__(self, controller: Preferences) -> None:
        win = controller.window
        super().__init__(win)
        self.ctl = controller
        self.setObjectName("preferences_dialog")
        self.setWindowTitle("Preferences")
        s = win.settings
        form = QFormLayout(self)
        self.scale = QDoubleSpinBox()
        self.scale.setRange(*SCALE_RANGE)
        self.scale.setSingleStep(0.05)
        self.scale.setSuffix(" ×")
        self.scale.setValue(s.interface_scale())
        form.addRow("Interface &scale:", self.scale)
        self.palette_box = QComboBox()
        for key, title in PALETTE_TITLES.items():
            self.palette_box.addItem(title, key)
        self.palette_box.setCurrentIndex(self.palette_box.findData(s.side_palette()))
        form.addRow("Side &colours:", self.palette_box)
        self.edition = QComboBox()
        for eid in edition_ids():
            self.edition.addItem(load_edition(eid).name, eid)
        self.edition.setCurrentIndex(self.edition.findData(s.default_edition()))
        form.addRow("&Edition of new encounters:", self.edition)
        self.screen_box = QComboBox()
        chosen = win.players_screen.settings.screen_name
        self.screen_box.addItem("(the main display)", "")
        for sc in QGuiApplication.screens():
            g = sc.geometry()
            self.screen_box.addItem(f"{screen_id(sc)} — {g.width()}×{g.height()}", screen_id(sc))
        self.screen_box.setCurrentIndex(max(0, self.screen_box.findData(chosen)))
        form.addRow("&Players' window on:", self.screen_box)
        self.autosave = QSpinBox()
        self.autosave.setRange(0, AUTOSAVE_MAX)
        self.autosave.setSuffix(" min")
        self.autosave.setSpecialValueText("off")
        self.autosave.setValue(s.autosave_minutes())
        form.addRow("&Autosave every:", self.autosave)
        self.follow = QCheckBox("Select who is due next once a character has acted (AP v2)")
        self.follow.setChecked(s.follow_track())
        self.follow.setToolTip(
            "After a move or an attack leaves the selected character short of counters, "
            "the character whose counters first cover a shot, blow or draw is selected."
        )
        form.addRow("&Action track:", self.follow)
        bb = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)
        self.accepted.connect(self.store)

    def store(self) -> None:
        s = self.ctl.window.settings
        s.set_interface_scale(self.scale.value())
        s.set_side_palette(self.palette_box.currentData())
        s.set_default_edition(self.edition.currentData())
        s.set_autosave_minutes(self.autosave.value())
        s.set_follow_track(self.follow.isChecked())
        screen = self.screen_box.currentData()
        ps = self.ctl.window.players_screen
        if screen != ps.settings.screen_name:
            if screen:
                ps.choose_screen(screen)
            else:
                ps.settings.screen_name = ""
                ps.place()
        self.ctl.apply()


class Preferences(QObject):
    """Edit ▸ Preferences… and the preferences' effects."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dialog: PreferencesDialog | None = None
        app = QApplication.instance()
        #: the system's font size, which the interface scale multiplies (kept on the
        #: application, so a second window does not scale an already scaled font)
        base = app.property("twtw_base_point_size") if app is not None else None
        if base is None and app is not None:
            base = QApplication.font().pointSizeF()
            app.setProperty("twtw_base_point_size", base)
        self.base_point_size = float(base or 10.0)
        self.act_preferences = QAction("&Preferences…", window)
        self.act_preferences.setObjectName("act_preferences")
        self.act_preferences.setShortcut(QKeySequence("Ctrl+,"))
        self.act_preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.act_preferences.setStatusTip(
            "Interface scale, side colours, default edition, players' display, autosave"
        )
        self.act_preferences.triggered.connect(self.show)
        window.edit_menu.addSeparator()
        window.edit_menu.addAction(self.act_preferences)
        self.apply()

    def show(self) -> PreferencesDialog:
        self.dialog = PreferencesDialog(self)
        self.dialog.open()
        return self.dialog

    def apply(self) -> None:
        """Make the stored preferences take effect."""
        s = self.window.settings
        if QApplication.instance() is not None and self.base_point_size > 0:
            f = QApplication.font()
            size = round(self.base_point_size * s.interface_scale(), 1)
            if abs(f.pointSizeF() - size) > 0.05:
                f.setPointSizeF(size)
                QApplication.setFont(f)
        apply_palette(s.side_palette())
        doc = self.window.document
        if doc is not None:
            doc.follow_track = s.follow_track()
            doc.emit_all()  # tokens and strip rows redraw in the new colours
        if self.window.autosaver is not None:  # the map editor's recovery copy
            self.window.autosaver.set_interval(s.autosave_minutes() * 60)


def install_preferences(window: MainWindow) -> Preferences:
    """Add Edit ▸ Preferences… to ``window`` (once) and apply the stored preferences."""
    existing = getattr(window, "preferences", None)
    if isinstance(existing, Preferences):
        return existing
    ctl = Preferences(window)
    window.preferences = ctl
    return ctl
