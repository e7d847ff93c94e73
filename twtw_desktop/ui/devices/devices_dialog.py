"""View ▸ Players' devices…: each posse character's page on the players' phones.

Off until the Judge presses Start. Then the service (:mod:`twtw_desktop.web`, its own
thread and asyncio loop) listens on the chosen interface and the dialog lists each
posse character's page and the table page with the devices that have it open now
(address, since when). The Judge shows one page's QR code and address at a time
(never every character's side by side for anyone to scan), and gives one page a new
address (its old one stops working, its devices are closed) without touching the
others. With "Ask to join" on, a new device on a page is listed as waiting and sees
nothing until the Judge lets it in. Stop, or "New addresses", revokes every address. Every table step, and every change of the
players' screen options that decides what the players see (names, badges, fog), is
copied into a frame here on the GUI thread (about a millisecond) and handed to the
service; the pages are built and sent on the service's thread. The Judge's pushes
are the document's (``playersShow``), heard here whether or not the players' screen
is open: the last card, and a ringed hex (a ping for two seconds, "show this" for
five) go to the pages. Closing the dialog
leaves the service running; closing the window stops it.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...errors import TwtwError
from ...hexgrid import Hex
from ...play.visibility import PlayersOptions
from ...web.net import DEFAULT_PORT, interfaces
from ...web.state import FrameMaker
from ..core.actions import make_action
from ..players.view import FOCUS_RING_MS, PING_MS

if TYPE_CHECKING:
    from ...web.server import DeviceService

log = logging.getLogger(__name__)

#: QR modules drawn this many pixels wide
QR_SCALE = 4
#: the areas of the document's ``changed`` signal that may change what a page shows
PAGE_AREAS = {"map", "all", "tokens", "characters", "track", "mode", "deck", "rules"}


def qr_pixmap(text: str, scale: int = QR_SCALE) -> QPixmap:
    """``text`` as a QR code (segno), black on white with the quiet zone."""
    import segno  # lazy: start-up (only when addresses are shown)

    qr = segno.make(text, error="m")
    rows = [list(r) for r in qr.matrix_iter(border=4)]
    n = len(rows)
    img = QImage(n, n, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    black = QColor("black").rgb()
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                img.setPixel(x, y, black)
    return QPixmap.fromImage(img.scaled(n * scale, n * scale))


class DevicesController(QObject):
    """Owns the service for the window; the dialog only shows and drives it."""

    #: a live page opened or closed (emitted from the service's thread, queued here)
    devicesChanged = Signal()

    def __init__(self, window) -> None:
        super().__init__(window)
        self.setObjectName("players_devices")
        self.main = window
        self._service: DeviceService | None = None
        #: takes each page's request on the service's thread (the players' requests)
        self.on_request: Any = None
        #: the window's side of the players' requests (ui/player_requests.py)
        self.requests: Any = None
        self.maker = FrameMaker()
        self.dialog: DevicesDialog | None = None
        self.card = None
        #: the hex rung now: (push kind, q, r) until its time is up
        self.ring: tuple[str, int, int] | None = None
        self._ring_timer = QTimer(self)
        self._ring_timer.setSingleShot(True)
        self._ring_timer.timeout.connect(self._ring_over)
        self.document: Any = None
        self._map_dirty = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.publish)
        self.act_open = make_action(
            window,
            "Players' &devices…",
            self.open_dialog,
            None,
            "Each posse character's page on the players' phones, over the local network",
            "act_players_devices",
        )
        window.view_menu.addAction(self.act_open)
        self._attach(window.document)
        window.documentReplaced.connect(self._document_replaced)
        window.destroyed.connect(self._window_gone)
        window.installEventFilter(self)
        players = getattr(window, "players_screen", None)
        for name in ("act_names", "act_fog"):
            a = getattr(players, name, None)
            if a is not None:
                a.toggled.connect(self._options_changed)
        for a in getattr(players, "condition_actions", {}).values():
            a.toggled.connect(self._options_changed)

    @property
    def service(self) -> DeviceService:
        """The service (made on first use: aiohttp loads only then)."""
        if self._service is None:
            from ...web.server import DeviceService  # lazy: start-up (aiohttp)
            from .picture_cut import cut_picture

            self._service = DeviceService(cutter=cut_picture)
            self._service.on_devices = self._devices_changed
            self._service.on_request = self._request
        return self._service

    def _request(self, req: Any) -> None:
        """On the service's thread: a page's request, for the window's requests."""
        if self.on_request is not None:
            self.on_request(req)

    def _devices_changed(self) -> None:
        """On the service's thread: the signal is queued to the window's thread."""
        with contextlib.suppress(RuntimeError):  # the window is gone
            self.devicesChanged.emit()

    @property
    def running(self) -> bool:
        return self._service is not None and self._service.running

    # -- the document ------------------------------------------------------------------

    def _attach(self, document) -> None:
        if self.document is not None:
            for signal, slot in self._links(self.document):
                with contextlib.suppress(RuntimeError, TypeError):
                    signal.disconnect(slot)
        self.document = document
        self.card = None
        self.ring = None
        self._ring_timer.stop()
        if document is not None:
            for signal, slot in self._links(document):
                signal.connect(slot)

    def _links(self, doc) -> list:
        return [
            (doc.changed, self._changed),
            (doc.tokenChanged, self._options_changed),
            (doc.characterChanged, self._options_changed),
            (doc.featureChanged, self._feature_changed),
            (doc.playersShow, self._pushed),
        ]

    def _feature_changed(self, *_args) -> None:
        self._map_dirty = True
        self._schedule()

    def _document_replaced(self, document) -> None:
        self._attach(document)
        self.maker = FrameMaker()
        if self.running:  # another posse: other pages and addresses
            host, port = self.service.host, self.service.port
            self.stop()
            self.start(host, port)

    def _changed(self, area: str) -> None:
        if area in PAGE_AREAS:
            if area in ("map", "all"):
                self._map_dirty = True
            self._schedule()

    def _pushed(self, kind: str, payload) -> None:
        if kind == "card":
            self.card = payload
        elif kind == "clear":
            self.card = None
            self._ring_over()
        elif kind in ("ping", "focus"):
            h = self._ring_hex(payload)
            if h is None:
                return
            self.ring = (kind, h.q, h.r)
            self._ring_timer.start(PING_MS if kind == "ping" else FOCUS_RING_MS)
        else:
            return
        self._schedule()

    def _ring_hex(self, payload) -> Hex | None:
        """The hex a ping or "show this" rings (a token's, unless it is hidden)."""
        if isinstance(payload, str):
            try:
                t = self.document.token(payload)
            except KeyError:
                return None
            return None if t.hidden else t.at
        h = payload if isinstance(payload, Hex) else Hex(*payload)
        return h if self.document.map.contains(h) else None

    def _ring_over(self) -> None:
        self._ring_timer.stop()
        if self.ring is not None:
            self.ring = None
            self._schedule()

    def _options_changed(self, *_args) -> None:
        self._schedule()

    def _schedule(self) -> None:
        if self.running and not self._timer.isActive():
            self._timer.start()

    def options(self) -> PlayersOptions:
        s = getattr(getattr(self.main, "players_screen", None), "settings", None)
        if s is None:
            return PlayersOptions()
        return PlayersOptions(conditions=s.conditions, names=s.names, fog=s.fog)

    def frame(self):
        dirty, self._map_dirty = self._map_dirty, False
        doc = self.document
        return self.maker(
            doc.table,
            self.options(),
            map_changed=dirty,
            card=self.card,
            map_path=doc.map_path or doc.path,
            ring=self.ring,
        )

    def publish(self) -> None:
        if self.running and self.document is not None:
            self.service.publish(self.frame())

    # -- the service -----------------------------------------------------------------

    def start(self, host: str, port: int) -> None:
        """Raises :class:`ServiceError` with a one-line reason."""
        self.service.start(self.frame(), host, port)
        self._say(f"Players' devices: serving on {self.service.host}:{self.service.port}.")

    def stop(self) -> None:
        if self._service is not None:
            self._service.stop()
        self._say("Players' devices: stopped; every address is revoked.")

    def new_addresses(self) -> None:
        self.service.new_addresses()
        self._say("Players' devices: new addresses; the old ones no longer work.")

    def set_ask_to_join(self, on: bool) -> None:
        """New devices wait to be let in (off: every waiting device is let in)."""
        self.service.set_ask_to_join(on)

    def revoke_page(self, key: str) -> None:
        """A new address for one page; the others keep theirs."""
        name = next((a.name for a in self.service.addresses() if a.key == key), key)
        self.service.revoke_page(key)
        self._say(
            f"Players' devices: a new address for {name}'s page; its old one no longer "
            "works and its devices are closed."
        )

    def _say(self, text: str) -> None:
        with contextlib.suppress(RuntimeError):
            self.main.statusBar().showMessage(text, 8000)
        if self.dialog is not None:
            self.dialog.refresh(text)

    def eventFilter(self, obj, ev) -> bool:
        # the window closed (a close may still be refused: look once it is decided)
        if obj is self.main and ev.type() == QEvent.Type.Close:
            QTimer.singleShot(0, self._after_close)
        return False

    def _after_close(self) -> None:
        with contextlib.suppress(RuntimeError):
            if self.main.isVisible():
                return
        self._window_gone()
        if self.dialog is not None:
            self.dialog.hide()

    def _window_gone(self, *_args) -> None:
        if self._service is not None:
            self._service.stop()

    def open_dialog(self) -> DevicesDialog:
        if self.dialog is None:
            self.dialog = DevicesDialog(self, self.main)
        self.dialog.refresh()
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog


class DevicesDialog(QDialog):
    """Start/Stop, the interface and port; each page with the devices that have it
    open now, its "Show code" and "New address"; and the one QR code and address the
    Judge chose to show."""

    def __init__(self, controller: DevicesController, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("players_devices_dialog")
        self.setWindowTitle("Players' devices")
        self.ctl = controller
        lay = QVBoxLayout(self)
        intro = QLabel(
            "Each player scans their character's code with a phone on the same network "
            "and sees their own map, sight and sheet. Nothing is served until you start. "
            "The pages are plain HTTP: use a network you trust. Show one code at a time; "
            "New address on a page makes its old address stop working."
        )
        intro.setWordWrap(True)
        lay.addWidget(intro)
        row = QHBoxLayout()
        self.interface = QComboBox()
        self.interface.setObjectName("devices_interface")
        self.interface.setToolTip("The network the phones are on (this computer only for a test)")
        for i in interfaces():
            self.interface.addItem(i.label(), i.address)
        if self.interface.count() > 1:
            self.interface.setCurrentIndex(1)
        row.addWidget(QLabel("Network:"))
        row.addWidget(self.interface, 1)
        self.port = QSpinBox()
        self.port.setObjectName("devices_port")
        self.port.setRange(0, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.port.setToolTip("The port (0: any free one)")
        row.addWidget(QLabel("Port:"))
        row.addWidget(self.port)
        lay.addLayout(row)
        buttons = QHBoxLayout()
        self.start_button = QPushButton("&Start")
        self.start_button.setObjectName("devices_start")
        self.start_button.clicked.connect(self.toggle)
        self.new_button = QPushButton("&New addresses")
        self.new_button.setObjectName("devices_new")
        self.new_button.setToolTip("Revoke every page's address and make new ones")
        self.new_button.clicked.connect(self.ctl.new_addresses)
        self.ask = QCheckBox("Ask to &join")
        self.ask.setObjectName("devices_ask")
        self.ask.setToolTip(
            "A new device on a page sees nothing until you let it in (Let in on its page)"
        )
        self.ask.toggled.connect(self.ctl.set_ask_to_join)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        buttons.addWidget(self.ask)
        lay.addLayout(buttons)
        self.status = QLabel()
        self.status.setObjectName("devices_status")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        body = QHBoxLayout()
        self.pages = QWidget()
        self.grid = QGridLayout(self.pages)
        self.grid.setColumnStretch(1, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.pages)
        scroll.setMinimumSize(420, 300)
        body.addWidget(scroll, 1)
        body.addWidget(self._code_panel())
        lay.addLayout(body, 1)
        self.resize(900, 620)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.hide)
        lay.addWidget(close)
        #: the addresses listed now, and the page whose code is shown (tests read them)
        self.shown: list = []
        self.showing: str | None = None
        self._now: dict[str, QLabel] = {}
        self._let_in: dict[str, QPushButton] = {}
        controller.devicesChanged.connect(self.show_devices)

    def _code_panel(self) -> QWidget:
        """The one code shown: the page's name, its QR code and address, and Hide."""
        panel = QWidget()
        panel.setObjectName("devices_code_panel")
        v = QVBoxLayout(panel)
        self.code_name = QLabel()
        self.code_name.setObjectName("devices_code_name")
        self.code = QLabel()
        self.code.setObjectName("devices_qr")
        self.code.setMinimumSize(QR_SCALE * 45, QR_SCALE * 45)
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.url = QLabel()
        self.url.setObjectName("devices_url")
        self.url.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.url.setWordWrap(True)
        self.url.setMaximumWidth(QR_SCALE * 75)
        self.hide_button = QPushButton("&Hide code")
        self.hide_button.setObjectName("devices_hide")
        self.hide_button.clicked.connect(lambda: self.show_code(None))
        for w in (self.code_name, self.code, self.url, self.hide_button):
            v.addWidget(w)
        v.addStretch(1)
        return panel

    def toggle(self) -> None:
        if self.ctl.running:
            self.ctl.stop()
            return
        try:
            self.ctl.start(str(self.interface.currentData()), self.port.value())
        except TwtwError as e:
            self.refresh(f"Could not start: {e}")

    def refresh(self, message: str = "") -> None:
        running = self.ctl.running
        self.start_button.setText("&Stop" if running else "&Start")
        self.new_button.setEnabled(running)
        self.interface.setEnabled(not running)
        self.port.setEnabled(not running)
        if message:
            self.status.setText(message)
        elif not running:
            self.status.setText("Stopped: nothing is served.")
        while self.grid.count():
            item = self.grid.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        self.shown = self.ctl.service.addresses() if running else []
        self._now, self._let_in = {}, {}
        for i, a in enumerate(self.shown):
            self._page_row(i, a)
        self.show_devices()
        keys = {a.key for a in self.shown}
        self.show_code(self.showing if self.showing in keys else None)

    def _page_row(self, i: int, a) -> None:
        """One page: its name, the devices on it now, Show code and New address."""
        name = QLabel(f"<b>{a.name}</b>")
        name.setTextFormat(Qt.TextFormat.RichText)
        now = QLabel()
        now.setObjectName(f"devices_now_{a.key}")
        now.setWordWrap(True)
        self._now[a.key] = now
        show = QPushButton("Show code")
        show.setObjectName(f"devices_show_{a.key}")
        show.setToolTip(f"Show the code and address of {a.name}'s page (and no other)")
        show.clicked.connect(lambda _=False, k=a.key: self.show_code(k))
        revoke = QPushButton("New address")
        revoke.setObjectName(f"devices_revoke_{a.key}")
        revoke.setToolTip(
            f"Give {a.name}'s page a new address: the old one stops working and the devices "
            "on it are closed; the other pages keep theirs"
        )
        revoke.clicked.connect(lambda _=False, k=a.key: self.ctl.revoke_page(k))
        let_in = QPushButton("Let in")
        let_in.setObjectName(f"devices_let_in_{a.key}")
        let_in.setToolTip(f"Let the devices waiting on {a.name}'s page in")
        let_in.clicked.connect(lambda _=False, k=a.key: self.ctl.service.let_in(k))
        self._let_in[a.key] = let_in
        for col, w in enumerate((name, now, show, revoke, let_in)):
            self.grid.addWidget(w, i, col)

    def show_devices(self) -> None:
        """Each page's devices now: address and since when (local time)."""
        by_page: dict[str, list[str]] = {}
        waiting = set()
        if self.ctl.running:
            for d in self.ctl.service.devices():
                since = datetime.datetime.fromtimestamp(d.since).strftime("%H:%M:%S")
                asks = " (asks to join)" if d.waiting else ""
                by_page.setdefault(d.page, []).append(f"{d.address} since {since}{asks}")
                if d.waiting:
                    waiting.add(d.page)
        for key, label in self._now.items():
            label.setText("\n".join(by_page.get(key, [])) or "no device")
            self._let_in[key].setVisible(key in waiting)

    def show_code(self, key: str | None) -> None:
        """Show page ``key``'s code and address alone (None: none)."""
        a = next((a for a in self.shown if a.key == key), None)
        self.showing = a.key if a is not None else None
        self.code_name.setText(f"<b>{a.name}</b>" if a is not None else "No code shown")
        if a is not None:
            self.code.setPixmap(qr_pixmap(a.url))
        else:
            self.code.clear()
        self.url.setText(a.url if a is not None else "")
        self.hide_button.setEnabled(a is not None)


def install_devices(window) -> DevicesController:
    """Add View ▸ Players' devices… to ``window``, and the players' requests."""
    from .player_requests import install_requests

    ctl = DevicesController(window)
    ctl.requests = install_requests(ctl)
    return ctl


__all__ = ["DevicesController", "DevicesDialog", "install_devices", "qr_pixmap"]
