"""The players' screen window: the players' map, a pushed card beside it, and the time
strip along the bottom. A separate top-level window (no parent), so the Judge can put
it full screen on a projector while the Judge's window stays on the laptop.

It offers nothing to edit: no menus, no tools, no tooltips — and it never takes the
keyboard: it is shown without being activated and accepts no focus, so after F12,
F1 and every shortcut still reach the Judge's window (full screen is the Judge's
View ▸ Players' screen options ▸ Full screen; the controller does the placing).

While the Judge edits the map (:meth:`PlayersWindow.freeze`), the window keeps the
last picture of play and says nothing; it follows the table again when the editor
closes.

Blackout (:meth:`PlayersWindow.set_blackout`, the Judge's Ctrl+B) covers the whole
window in black — map, card and strip — while the Judge rearranges; nothing under
it is drawn to the display until it comes off.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QColor, QFont, QKeyEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ...play.fog import SeenMemory
from ..widgets.card_view import CARD_H, CARD_W, CardView
from .strip import TEXT_FRACTION, TrackStrip, public_track
from .view import PlayersView

WINDOW_TITLE = "Players' screen — TWTW Desktop"
#: a pushed card takes at most this share of the window's width
CARD_MAX_WIDTH_FRACTION = 0.38


class CardPanel(QWidget):
    """A pushed action card, as large as the window allows, with its number above."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("players_card_panel")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("#players_card_panel { background: #1c1814; }")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 12, 12, 12)
        self.title = QLabel("")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setStyleSheet("color: #faecc8;")
        lay.addWidget(self.title)
        self.card_view = CardView(None, self)
        self.card_view.setToolTip("")
        lay.addWidget(self.card_view, 1)
        self.card = None

    def set_card(self, card) -> None:
        self.card = card
        self.card_view.set_card(card)
        self.title.setText(f"Card {card.number}" if card is not None else "")

    def fit(self, win_w: int, win_h: int, text_px: int) -> None:
        f = QFont()
        f.setPixelSize(round(text_px * 1.2))
        f.setBold(True)
        self.title.setFont(f)
        avail_h = max(200, win_h - round(text_px * 3.5))
        w = min(int(win_w * CARD_MAX_WIDTH_FRACTION), int(avail_h * CARD_W / CARD_H) + 24)
        self.setFixedWidth(max(160, w))


class Blackout(QWidget):
    """Black, every pixel of it, painted here (not by a style, which an opaque
    widget would skip)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("players_blackout")
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    def paintEvent(self, _ev: QPaintEvent) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor(0, 0, 0))
        p.end()


class PlayersWindow(QWidget):
    """What the posse may see of the encounter."""

    #: the window was closed (by the Judge or the window manager)
    closed = Signal()
    #: F11 / Esc: the window asks the controller for (or out of) full screen
    fullscreenRequested = Signal(bool)

    def __init__(self, document, remembered: SeenMemory | None = None) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.setObjectName("players_window")
        self.setWindowTitle(WINDOW_TITLE)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        # the Judge's window keeps the keyboard (F1, the shortcuts)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating, True)
        self.setWindowFlag(Qt.WindowType.WindowDoesNotAcceptFocus, True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.document = None
        #: the last picture of play, shown over everything while the map is edited
        self.frozen: QLabel | None = None
        #: the black cover while the Judge rearranges (None when off)
        self.blackout: Blackout | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.view = PlayersView(document, remembered, self)
        row.addWidget(self.view, 1)
        self.card_panel = CardPanel(self)
        self.card_panel.hide()
        row.addWidget(self.card_panel)
        outer.addLayout(row, 1)
        self.strip = TrackStrip(self)
        outer.addWidget(self.strip)
        self._strip_timer = QTimer(self)
        self._strip_timer.setSingleShot(True)
        self._strip_timer.setInterval(0)
        self._strip_timer.timeout.connect(self.refresh_strip)
        self.view.shownChanged.connect(self._strip_timer.start)
        self._attach(document)
        self.resize(960, 600)
        self._fit_type()
        self.refresh_strip()

    # -- document -----------------------------------------------------------------------

    def _attach(self, document) -> None:
        if self.document is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.document.changed.disconnect(self._doc_changed)
        self.document = document
        document.changed.connect(self._doc_changed)

    def set_document(self, document, remembered: SeenMemory | None = None) -> None:
        self.show_push("clear", None)
        self._attach(document)
        self.view.set_document(document, remembered)
        self.refresh_strip()

    def _doc_changed(self, area: str) -> None:
        if area in ("track", "mode", "all", "characters", "tokens"):
            self._strip_timer.start()

    def refresh_strip(self) -> None:
        doc = self.document
        if doc is None:
            return
        self.strip.set_content(public_track(doc, self.view.shown_character_ids()))

    # -- pushes ---------------------------------------------------------------------------

    def show_push(self, kind: str, payload) -> None:
        if kind == "card":
            self.card_panel.set_card(payload)
            self.card_panel.setVisible(payload is not None)
            self._fit_type()
            return
        if kind == "clear":
            self.card_panel.set_card(None)
            self.card_panel.hide()
        self.view.show_push(kind, payload)

    # -- the map editor -----------------------------------------------------------------------

    def freeze(self, on: bool) -> None:
        """Keep the picture shown now (on) while the Judge edits the map, or follow
        the table again (off)."""
        if on and self.frozen is None:
            black = self.blackout
            if black is not None:  # the picture is of play, not of the black cover
                black.hide()
            picture = self.grab()
            if black is not None:
                black.show()
            cover = QLabel(self)
            cover.setObjectName("players_frozen")
            cover.setPixmap(picture)
            cover.setScaledContents(True)
            cover.setGeometry(self.rect())
            cover.show()
            cover.raise_()
            self.frozen = cover
            if self.blackout is not None:
                self.blackout.raise_()
        elif not on and self.frozen is not None:
            cover, self.frozen = self.frozen, None
            cover.hide()
            cover.deleteLater()
            self.view.refresh()
            self.refresh_strip()

    # -- blackout -------------------------------------------------------------------------------

    def set_blackout(self, on: bool) -> None:
        """Black out the whole window (on) or show the table again (off)."""
        if on and self.blackout is None:
            cover = Blackout(self)
            cover.setCursor(Qt.CursorShape.BlankCursor)
            cover.setGeometry(self.rect())
            cover.show()
            cover.raise_()
            self.blackout = cover
        elif not on and self.blackout is not None:
            old, self.blackout = self.blackout, None
            old.hide()
            old.deleteLater()

    # -- size, keys, closing -----------------------------------------------------------------

    def _fit_type(self) -> None:
        px = round(self.height() * TEXT_FRACTION)
        self.strip.set_text_px(px)
        self.card_panel.fit(self.width(), self.height(), self.strip.text_px)

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        self._fit_type()
        if self.frozen is not None:
            self.frozen.setGeometry(self.rect())
        if self.blackout is not None:
            self.blackout.setGeometry(self.rect())

    def changeEvent(self, ev) -> None:
        super().changeEvent(ev)
        view = getattr(self, "view", None)
        if view is None:
            return
        # no pointer over a projected map
        full = self.isFullScreen()
        view.viewport().setCursor(
            Qt.CursorShape.BlankCursor if full else Qt.CursorShape.ArrowCursor
        )

    def keyPressEvent(self, ev: QKeyEvent) -> None:
        if ev.key() == Qt.Key.Key_F11:
            self.fullscreenRequested.emit(not self.isFullScreen())
            ev.accept()
            return
        if ev.key() == Qt.Key.Key_Escape and self.isFullScreen():
            self.fullscreenRequested.emit(False)
            ev.accept()
            return
        super().keyPressEvent(ev)

    def closeEvent(self, ev: QCloseEvent) -> None:
        ev.accept()
        self.closed.emit()
