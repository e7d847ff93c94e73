"""The players' requests in the window (issue 39): what the posse's phones ask for,
waiting for the Judge beside the action track.

The devices service hands each page's request over from its own thread; it is
queued to the window's thread (:attr:`RequestsController.arrived`) and checked there
by the table (:class:`~twtw_desktop.play.player_requests.RequestDesk`). A page's
``{"options": …}`` (asked after every update, ~13 ms a page on Main Street) is not
worked out on the window's thread: the latest ask of each page waits, and one task
of the thread pool answers them all on a copy of the table (and of each character's
sight record) made on the window's thread — as the autopilot plans — so nothing a
Judge does hitches the window, and the answer never reads a table being changed. A request
that may be taken waits in the "Players' requests" dock, one row each: the
character, what it asks, **Approve** and **Refuse…** (a small dialog asks the reason
the phone then shows). **Ctrl+Shift+Y** approves every request waiting, oldest
first. An approved request is applied through the document like the window's own
actions (journaled, one undo step each). "Approve the posse's requests" for this
fight (**Ctrl+Alt+Y**, checked in the dock and in Encounter ▸ Players' requests;
remembered per fight for the session: off with another encounter, on again when
this one is opened again; the dock's title says it) applies them as they come.

**The run goes on by itself** (AP v2): when the run (F6) stopped only to wait for
characters able with nothing declared (000 Action Timing) or offered AP from the
pool for the stack (000 Determine Bonus), and their phones' answers (a declaration,
a pass, a bid or "no bid") arrive approved, the run goes on as if the Judge pressed
F6 again — the Judge already approved; nothing about how the table decides
changes. The track's line says whose phone the run waits for; F6 still passes them.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from ...play.declarations import segments
from ...play.player_options import answer_options
from ...play.player_requests import RequestDesk
from ...tactics.view import scratch_of

if TYPE_CHECKING:
    from ...web.server import PlayerRequest

#: the key that approves every request waiting
APPROVE_ALL_KEY = "Ctrl+Shift+Y"
#: the key that turns "approve the posse's requests" for this fight on or off
APPROVE_FIGHT_KEY = "Ctrl+Alt+Y"
#: the track line's words for the phones the run waits for
PHONE_MARK = " · waiting for "
DOCK_TITLE = "Players' requests"


class RefuseDialog(QDialog):
    """Asks the reason a refused request's phone shows."""

    def __init__(self, parent: QWidget, who: str) -> None:
        super().__init__(parent)
        self.setObjectName("refuse_request")
        self.setWindowTitle("Refuse the request")
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"Why not? {who}'s phone shows it."))
        self.reason = QLineEdit()
        self.reason.setObjectName("refuse_reason")
        self.reason.setMaxLength(200)
        lay.addWidget(self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)


class _Relay(QObject):
    #: [(character id, answer)] of one options task, to the window's thread
    done = Signal(object)


class _OptionsTask(QRunnable):
    """Answers pages' options asks on a copy of the table (made on the GUI thread)."""

    def __init__(self, scratch: Any, asks: list[PlayerRequest], relay: _Relay) -> None:
        super().__init__()
        self.scratch, self.asks, self.relay = scratch, asks, relay
        self.setAutoDelete(True)

    def run(self) -> None:
        out = []
        for req in self.asks:
            try:
                got = answer_options(self.scratch, req.n, req.view, req.declare)
            except Exception:  # never kills the pool: the page asks again after an update
                continue
            out.append((req.view.character_id, got))
        with contextlib.suppress(RuntimeError):  # the window is gone
            self.relay.done.emit(out)


class RequestsController(QObject):
    """The window's side of the players' requests (see the module docstring)."""

    #: a page's request, emitted on the service's thread, taken on the window's
    arrived = Signal(object)

    def __init__(self, devices: Any) -> None:
        super().__init__(devices)
        self.setObjectName("players_requests")
        self.devices = devices
        self.main = devices.main
        self.desk = RequestDesk(self._apply, on_change=self._refresh)
        self.arrived.connect(self._receive, Qt.ConnectionType.QueuedConnection)
        #: each page's latest options ask not yet handed to the pool, and the
        #: document a task is answering some of now (one at a time: the asks
        #: coalesce meanwhile), else None
        self._asks: dict[str, PlayerRequest] = {}
        self._asking: Any = None
        self._relay = _Relay(self)
        self._relay.done.connect(self._answered, Qt.ConnectionType.QueuedConnection)
        self.dialog: RefuseDialog | None = None
        self.widget = QWidget()
        self.widget.setObjectName("requests_box")
        lay = QVBoxLayout(self.widget)
        lay.setContentsMargins(4, 2, 4, 2)
        top = QHBoxLayout()
        self.auto = QCheckBox(f"Approve the posse's requests ({APPROVE_FIGHT_KEY})")
        self.auto.setObjectName("requests_auto")
        self.auto.setToolTip("For this fight: each request the table allows is applied as it comes")
        self.auto.toggled.connect(self._auto_toggled)
        #: "approve the posse's requests", per fight (the encounter's file) this session
        self._auto_by_fight: dict[str, bool] = {}
        self.all_button = QPushButton(f"Approve all ({APPROVE_ALL_KEY})")
        self.all_button.setObjectName("requests_approve_all")
        self.all_button.clicked.connect(self.approve_all)
        top.addWidget(self.auto)
        top.addStretch(1)
        top.addWidget(self.all_button)
        lay.addLayout(top)
        self.rows = QGridLayout()
        lay.addLayout(self.rows)
        self.empty = QLabel("No request from the phones.")
        lay.addWidget(self.empty)
        lay.addStretch(1)
        self.dock = QDockWidget(DOCK_TITLE, self.main)
        self.dock.setObjectName("dock_requests")
        self.dock.setWidget(self.widget)
        self.main.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        track = getattr(self.main, "docks", {}).get("dock_track")
        if track is not None:
            self.main.splitDockWidget(track, self.dock, Qt.Orientation.Horizontal)
        self.dock.hide()
        with contextlib.suppress(AttributeError):
            self.main.docks_menu.addAction(self.dock.toggleViewAction())
        self.act_approve_all = QAction("Approve the players' requests", self.main)
        self.act_approve_all.setObjectName("act_approve_requests")
        self.act_approve_all.setShortcut(QKeySequence(APPROVE_ALL_KEY))
        self.act_approve_all.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.act_approve_all.triggered.connect(self.approve_all)
        self.main.addAction(self.act_approve_all)
        self.act_auto = QAction("Approve the posse's requests for this fight", self.main)
        self.act_auto.setObjectName("act_approve_posse")
        self.act_auto.setCheckable(True)
        self.act_auto.setShortcut(QKeySequence(APPROVE_FIGHT_KEY))
        self.act_auto.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.act_auto.setStatusTip(
            "Each request a posse phone sends is applied as it comes, if the table allows it"
        )
        self.act_auto.toggled.connect(self.auto.setChecked)
        self.main.addAction(self.act_auto)
        menu = getattr(self.main, "encounter_menu", None)
        if menu is not None:
            sub = menu.addMenu("Players' &requests")
            sub.addAction(self.act_approve_all)
            sub.addAction(self.act_auto)
        self.main.documentReplaced.connect(self._document_replaced)
        self._hooked: Any = None
        self._hook_document()
        self._refresh()

    def _hook_document(self) -> None:
        """The track redraws its rows on the document's changes: the marks go back
        on after it."""
        doc = getattr(self.main, "document", None)
        if doc is None or doc is self._hooked:
            return
        self._hooked = doc
        doc.changed.connect(lambda *_a: self._mark_track(), Qt.ConnectionType.QueuedConnection)

    # -- requests ----------------------------------------------------------------------

    def hand_over(self, req: PlayerRequest) -> None:
        """On the service's thread: queued to the window's thread."""
        with contextlib.suppress(RuntimeError):  # the window is gone
            self.arrived.emit(req)

    def _table(self) -> Any:
        return self.main.document.table

    def _apply(self, action: Any) -> None:
        self.main.document.apply(action)

    # -- the run goes on by itself -------------------------------------------------------

    def _awaited(self) -> list[str]:
        """Whom the run stands waiting for (AP v2 action time): able with nothing
        declared, else offered AP for the stack and not answered from a phone."""
        table = self._table()
        if not segments(table):
            return []
        return table.track.pending_declarers() or self.desk.unanswered_offers(table)

    def _mark(self) -> tuple[Any, ...]:
        table = self._table()
        st = table.track.state if segments(table) else None
        where = (st.round, st.segment) if st is not None else ()
        return (id(self.main.document), len(table.encounter.log), *where)

    def _after_approved(self, cid: str, waited: bool) -> None:
        """A phone's answer the run stood waiting for was approved: once nobody else
        is waited for, the run goes on (a moment later: the document's own run-on
        after a pass goes first, and this one then stands down)."""
        if waited and getattr(self.main.document, "running_on", False):
            mark = self._mark()
            QTimer.singleShot(0, lambda: self._go_on(mark))

    def _go_on(self, mark: tuple[Any, ...]) -> None:
        doc = self.main.document
        if doc is None or mark != self._mark() or not getattr(doc, "running_on", False):
            return
        if self._awaited():
            return  # still waiting for a phone: the stop stands
        # the document's own run-on, as after the Judge's pass: it runs on, or, where
        # the table will not (a result with choices the answer brought), shows the
        # stop (the Attack panel loads the attack waiting)
        doc.go_on()

    def _answer(self, reply: dict[str, Any] | None, key: str) -> None:
        if reply is not None and self.devices.running:
            self.devices.service.answer(key, reply)

    def _receive(self, req: PlayerRequest) -> None:
        if req.kind == "options":
            self._asks[req.view.character_id] = req
            self._ask_pool()
            return
        cid = req.view.character_id
        waited = cid in self._awaited()
        reply = self.desk.receive(self._table(), req.n, req.view, req.declare)
        self._answer(reply, cid)
        if reply["status"] == "waiting":
            self.dock.show()
            self.dock.raise_()
        elif reply["status"] == "approved":
            self._after_approved(cid, waited)

    def _ask_pool(self) -> None:
        """Hand the asks waiting to one task of the pool, on a copy of the table."""
        if self._asking is not None or not self._asks or self.main.document is None:
            return
        table = self._table()
        shape = (table.map.rows, table.map.cols)
        asks = [
            dataclasses.replace(
                r, view=dataclasses.replace(r.view, seen=table.sight.seen(cid, shape))
            )
            for cid, r in self._asks.items()
        ]
        self._asks.clear()
        self._asking = self.main.document
        QThreadPool.globalInstance().start(_OptionsTask(scratch_of(table), asks, self._relay))

    def _answered(self, out: list[tuple[str, dict[str, Any]]]) -> None:
        asked_of, self._asking = self._asking, None
        if asked_of is self.main.document:  # else another fight's: its pages ask anew
            for key, reply in out:
                self._answer(reply, key)
        self._ask_pool()

    def approve(self, n: int) -> None:
        req = self.desk.waiting.get(n)
        if req is None:
            return
        cid = req.view.character_id
        waited = cid in self._awaited()
        reply = self.desk.approve(self._table(), n)
        self._answer(reply, cid)
        if reply is not None and reply["status"] == "approved":
            self._after_approved(cid, waited)

    def approve_all(self) -> None:
        for n in sorted(self.desk.waiting):
            self.approve(n)

    def ask_refusal(self, n: int) -> None:
        req = self.desk.waiting.get(n)
        if req is None:
            return
        name = self._table().character(req.view.character_id).name
        dlg = self.dialog = RefuseDialog(self.widget, name)
        dlg.accepted.connect(lambda: self.refuse(n, dlg.reason.text()))
        dlg.open()

    def refuse(self, n: int, why: str) -> None:
        req = self.desk.waiting.get(n)
        if req is not None:
            self._answer(self.desk.refuse(n, why), req.view.character_id)

    def _fight(self) -> str:
        doc = self.main.document
        path = getattr(doc, "path", None)
        return str(path) if path is not None else f"unsaved-{id(doc)}"

    def _auto_toggled(self, on: bool) -> None:
        self.desk.approve_all = on
        self._auto_by_fight[self._fight()] = on
        if self.act_auto.isChecked() != on:
            self.act_auto.setChecked(on)
        self.dock.setWindowTitle(DOCK_TITLE + (" — approved as they come" if on else ""))
        if on:
            self.approve_all()

    def _mark_track(self) -> None:
        """The track's row of each character with a request waiting shows a mark (an
        icon on its name; the dock's row says what it asks). Again after the track
        redraws its rows."""
        dock = getattr(self.main, "docks", {}).get("dock_track")
        panel = dock.widget() if dock is not None else None
        ids = getattr(panel, "_row_ids", None)
        if panel is None or ids is None:
            return
        asking: dict[str, list[str]] = {}
        for req in self.desk.waiting.values():
            asking.setdefault(req.view.character_id, []).append(req.label)
        icon = self.widget.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxQuestion)
        for name in ("ap_table", "ph_table"):
            table = getattr(panel, name, None)
            if table is None:
                continue
            for r, cid in enumerate(ids):
                item = table.item(r, 0)
                if item is None:
                    continue
                want = cid in asking
                if (item.data(Qt.ItemDataRole.DecorationRole) is not None) != want:
                    item.setData(Qt.ItemDataRole.DecorationRole, icon if want else None)
                if want:
                    item.setStatusTip("Request waiting: " + "; ".join(asking[cid]))
        self._say_phones(panel)

    def _say_phones(self, panel: Any) -> None:
        """The track's line ends with whose phone the run waits for (those it waits
        for whose page is open)."""
        info = getattr(panel, "info", None)
        if info is None or self.main.document is None:
            return
        live = {d.page for d in self.devices.service.devices()} if self.devices.running else set()
        table = self._table()
        asking = {r.view.character_id for r in self.desk.waiting.values()}
        names = [
            table.character(c).name + ("'s request (you approve)" if c in asking else "'s phone")
            for c in self._awaited()
            if c in live
        ]
        full = str(getattr(info, "full", info.text()))
        text = full.split(PHONE_MARK)[0] + (PHONE_MARK + ", ".join(names) if names else "")
        if text != full:
            info.setText(text)

    def _document_replaced(self, *_a: Any) -> None:
        """Another fight: nothing waits, and requests are held again."""
        for n in sorted(self.desk.waiting):
            self.refuse(n, "The Judge opened another encounter.")
        self._hook_document()
        self.auto.setChecked(self._auto_by_fight.get(self._fight(), False))

    # -- the rows ----------------------------------------------------------------------

    def _refresh(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        for i, (n, req) in enumerate(sorted(self.desk.waiting.items())):
            try:
                name = self._table().character(req.view.character_id).name
            except (KeyError, AttributeError):
                name = req.view.character_id
            label = QLabel(f"{name}: {req.label}")
            label.setObjectName(f"request_{n}")
            label.setWordWrap(True)
            ok = QPushButton("Approve")
            ok.setObjectName(f"request_approve_{n}")
            ok.clicked.connect(lambda _c=False, n=n: self.approve(n))
            no = QPushButton("Refuse…")
            no.setObjectName(f"request_refuse_{n}")
            no.clicked.connect(lambda _c=False, n=n: self.ask_refusal(n))
            self.rows.addWidget(label, i, 0)
            self.rows.addWidget(ok, i, 1)
            self.rows.addWidget(no, i, 2)
        self.empty.setVisible(not self.desk.waiting)
        self._mark_track()
        self.all_button.setEnabled(bool(self.desk.waiting))


def install_requests(devices: Any) -> RequestsController:
    """The players' requests beside the track, taking the devices service's requests."""
    ctl = RequestsController(devices)
    devices.on_request = ctl.hand_over
    return ctl


__all__ = [
    "APPROVE_ALL_KEY",
    "APPROVE_FIGHT_KEY",
    "RefuseDialog",
    "RequestsController",
    "install_requests",
]
