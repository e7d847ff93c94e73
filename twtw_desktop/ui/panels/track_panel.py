"""The action track (AP v2, 000 "Action Time") and the Phases round (004).

AP v2: segments 1–20 as columns and a row per character — the AP of the round, the
counters in front of them, the IN marker (their first counter's segment), the
counters placed (● on the track, · already paid), the actions declared (a letter,
with the stack position once resolved) and the spent box; ▶ marks who may declare now
with nothing declared, ⋯ a standing declaration (the tooltip says what). Buttons: Start
round (the initiative step, F5, after the recovery checks due), Run on (F6: the table
counts the segments and stops where the Judge decides, :mod:`~twtw_desktop.play.
declarations`; Shift+F6 one segment), Declare (F7: the action catalogue with its
costs; entries the counters cannot pay are shown disabled with the reason), Join
(Alt+J: an action onto another's stack for 1 AP more, 000 Simultaneous Actions), Rush
(Alt+R: the optional rule, 000 Rushing Actions), Quick Draw (Alt+Q: the check, AP
for the stack and the Judge's modifiers, 000 Determine Bonus), Resolve stack (F8),
End round (F9).

Phases: the speed each character declares, the initiative card's bar, everyone's
Reflex result and the phases it reaches (the chosen one marked), with Start round
(F5), Flip card (F8), Next phase (F6), Act (F7), Delay (F9), Interrupt (Alt+I: a
delaying character's Reflex contest at −2), Keep waiting (Alt+K) and Stop waiting
(Alt+W) for a circumstance still unmet from last round (004 Delaying an Action).

Both: Surprise (Alt+S: one character, a whole side, or anyone, 001/003 Surprise) and
Movers (Alt+C: continuous movers, 000 / 002). The keys work while the panel shows.

Every button is one :class:`SnapshotCommand` (the track, the deck, the sheets and the
log together), so undo takes a step back exactly — including the sheets a round's
bleeding changed (001 Optional Bleeding, :func:`apply_bleeding`). Menus try each step
on the engine and take it straight back, so a disabled entry shows the engine's own
reason. Hovering a row lights the token up on the map; hovering a token on the map
(or selecting it) marks its row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QStyledItemDelegate,
    QTableWidget,
    QTableWidgetItem,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...play.actions import Declare, EndRound, EndSegment, StartRound
from ...play.catalogue import catalogue
from ...play.declarations import (
    ClearStanding,
    PassTurn,
    RecoveryCheck,
    RunOn,
    WaitUntil,
    due_recovery,
)
from ...play.track_actions import (
    Act,
    ChoosePhase,
    Continuous,
    DeclareAction,
    Delay,
    Interrupt,
    JoinStack,
    KeepWaiting,
    QuickDraw,
    Resolve,
    Rush,
    StackBonus,
    StackModifiers,
    StartRoundWithCards,
    StopWaiting,
    Surprise,
    skip_reason,
)
from ...rules import actions as A
from ...rules.action_track import QUICK_DRAW_TN, continuous_schedule
from ...rules.base import Speed
from ...rules.character import Character
from ...rules.phases import CONTINUOUS_STEPS, maneuver_phases, roman
from ...rules.timecommon import split_evenly, surprise_tn
from ._common import USER_ERRORS, MessageLabel, attempt, error_text, find_map_view

#: 000 Action Time: a round has 20 segments.
SEGMENTS = 20
_PHASES = ("I", "II", "III", "IV")

_CUR = QColor("#fff2b3")
_IN = QColor("#cfe3f7")
_OUT = QColor("#e6e6e6")
_HOVER = QColor("#ffd9a0")
_SEL = QColor("#f2c48d")

#: One-letter codes of declared actions on the track.
_CODES = {
    A.ActionKind.DRAW: "D",
    A.ActionKind.READY: "D",
    A.ActionKind.COCK: "C",
    A.ActionKind.SNAP_SHOT: "S",
    A.ActionKind.NORMAL_SHOT: "N",
    A.ActionKind.AIMED_SHOT: "A",
    A.ActionKind.FAN_FIRE: "F",
    A.ActionKind.AIM: "a",
    A.ActionKind.RELOAD: "L",
    A.ActionKind.MOVE: "M",
    A.ActionKind.RUN: "R",
    A.ActionKind.DROP_PRONE: "P",
    A.ActionKind.STAND_UP: "U",
    A.ActionKind.DUCK: "d",
    A.ActionKind.EMERGE: "e",
    A.ActionKind.FACE: "f",
    A.ActionKind.TURN_IN_MOVE: "f",
    A.ActionKind.SWITCH_TARGET: "T",
    A.ActionKind.SKILL: "K",
    A.ActionKind.MELEE_ATTACK: "H",
    A.ActionKind.BLOCK: "B",
    A.ActionKind.DODGE: "G",
    A.ActionKind.RECOVER: "V",
    A.ActionKind.DISENGAGE: "E",
    A.ActionKind.OTHER: "O",
}


# =============================================================================
# Hover between rows and tokens
# =============================================================================


class _RowHover(QObject):
    """Tells the panel which row the mouse is over (None when it leaves)."""

    def __init__(self, table: QTableWidget, callback: Callable[[int | None], None]) -> None:
        super().__init__(table)
        self.table = table
        self.cb = callback
        table.setMouseTracking(True)
        table.viewport().setMouseTracking(True)
        table.viewport().installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.MouseMove:
            row = self.table.rowAt(int(ev.position().y()))  # type: ignore[attr-defined]
            self.cb(row if row >= 0 else None)
        elif ev.type() == QEvent.Type.Leave:
            self.cb(None)
        return False


class _OnResize(QObject):
    """Calls back when a widget is resized or shown (more rows come into view)."""

    def __init__(self, widget: QWidget, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self.cb = callback
        widget.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:
        if ev.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self.cb()
        return False


class _CurrentSegment(QStyledItemDelegate):
    """Draws the current segment's column: its cells take the current colour unless
    they show the IN marker (a counted segment moves this delegate to the next
    column: no cell of the 200 rows changes)."""

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        brush = option.backgroundBrush
        if brush.style() == Qt.BrushStyle.NoBrush or brush.color() != _IN:
            option.backgroundBrush = QBrush(_CUR)


class _InfoLabel(QLabel):
    """Two lines at most under the track (the whole text is in the tooltip), so the
    dock stays short on a laptop screen."""

    def __init__(self) -> None:
        super().__init__()
        self.full = ""
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("color: #333;")
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * 2 + 4)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def setText(self, text: str) -> None:
        # laying out a wrapped text costs with its length (a segment with 200 figures
        # says thousands of characters): show no more than two lines can hold
        room = 3 * max(self.width(), 600) // max(1, self.fontMetrics().averageCharWidth())
        self.full = text  # what the label says, whole (also in its tooltip)
        super().setText(text if len(text) <= room else text[:room] + "…")
        self.setToolTip(text.replace(" · ", "\n"))


# The tool bar's buttons, in their order: (name, label, tooltip, target). Each makes
# ``TrackPanel.<name>_button``; a target ``_build_*`` makes a drop-down (``<name>_menu``)
# that the method fills afresh whenever it opens, any other target is the panel method
# a click calls (looked up at the click, without arguments).
_BAR_BUTTONS: tuple[tuple[str, str, str, str], ...] = (
    (
        "start",
        "Start round",
        "The initiative step: everyone draws for the round",
        "start_round",
    ),
    # AP v2
    (
        "due",
        "Run on",
        "The table counts the segments: counters are placed, standing declarations the "
        "counters cover are declared (slowest first), simultaneous actions go through the "
        "initiative stack. It stops where you decide: someone may newly act with nothing "
        "declared (F6 again passes them all), a declaration no longer applies, a result "
        "has choices, the round ends. The line under the track says why it stopped "
        "(000 Action Timing, Simultaneous Actions)",
        "next_due",
    ),
    (
        "next",
        "+1 segment",
        "Count just the next segment: counters are placed (000)",
        "next_segment",
    ),
    (
        "declare",
        "Declare",
        "Declare an action for the selected row's character, paid with the counters "
        "in front of them (000 Action Timing)",
        "_build_declare_menu",
    ),
    (
        "join",
        "Join",
        "Put the selected character's action on this segment's stack beside another's: "
        "its cost plus 1 AP from the pool, or from next round's AP (000 Simultaneous "
        "Actions)",
        "_build_join_menu",
    ),
    (
        "rush",
        "Rush",
        "Rush an action: every counter on the track plus AP from the pool, at most half "
        "its cost; the card's step is paid as rush tax (optional rule, 000 Rushing "
        "Actions)",
        "_build_rush_menu",
    ),
    (
        "bonus",
        "Quick Draw",
        "A better place on the stack: the Quick Draw check, AP spent from the pool, and "
        "the Judge's gear / wound / environment modifiers (000 Determine Bonus)",
        "_build_bonus_menu",
    ),
    (
        "resolve",
        "Resolve stack",
        "Flip a card per action on this segment; order by fragment + bonus",
        "resolve_stack",
    ),
    (
        "end",
        "End round",
        "End the round: unused AP are lost (000 Ending the Round)",
        "end_round",
    ),
    # Phases
    (
        "flip",
        "Flip card",
        "Flip the initiative card and read everyone's Reflex (004)",
        "flip_card",
    ),
    (
        "phase",
        "Next phase",
        "Close this phase (its continuous step runs) and open the next (004, 002)",
        "next_phase",
    ),
    (
        "act",
        "Act",
        "The selected character acts now with their declared speed (004 Taking Actions)",
        "act",
    ),
    (
        "delay",
        "Delay",
        "The selected character holds their action: for a circumstance, or to act at "
        "any later moment (004 Delaying an Action)",
        "_delay_asking",
    ),
    (
        "interrupt",
        "Interrupt",
        "The selected delaying character tries to act before someone about to act: a "
        "Reflex contest on one card, the interrupter at −2; a tie stays with the one "
        "acting (004 Delaying an Action)",
        "_build_interrupt_menu",
    ),
    (
        "keep",
        "Keep waiting",
        "The selected character goes on waiting for last round's circumstance: Fast for "
        "readiness, the waiting action's own speed otherwise (004 Delaying an Action)",
        "keep_waiting",
    ),
    (
        "stop",
        "Stop waiting",
        "The selected character drops last round's circumstance and declares a speed "
        "afresh (004 Delaying an Action)",
        "stop_waiting",
    ),
    # both editions
    (
        "surprise",
        "Surprise",
        "Surprise check: Acuity against 5 when expecting danger (AP v2: also once action "
        "time is under way, 001), else 9; the surprised sit the round out (001/003 "
        "Surprise)",
        "_build_surprise_menu",
    ),
    (
        "movers",
        "Movers",
        "Continuous movers — mounts, vehicles, a runaway wagon — moving a share of their "
        "movement every segment or continuous step (000, 002)",
        "_build_movers_menu",
    ),
)


# =============================================================================
# The panel
# =============================================================================


class TrackPanel(QWidget):
    """The action track or the Phases round, whichever the encounter's edition uses.

    ``hoverCharacter`` (character id or None) is emitted while a row is hovered, for
    any other view that wants to follow (the map view is lit up directly).
    """

    hoverCharacter = Signal(object)

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("TrackPanel")
        self._row_ids: list[str] = []
        self._hover_row: int | None = None
        self._map_hover_cid: str | None = None
        self._hooked_view: Any = None
        self.last_event: Any = None
        #: what each cell of each table shows (refreshes touch only changed cells)
        self._cells: dict[int, dict[tuple[int, int], tuple]] = {}
        #: each AP row's inputs when last drawn, and the segment then current
        self._row_sigs: dict[int, tuple] = {}
        self._shown_seg = 0
        self._shown_running = False
        self._shown_header: int | None = -1
        #: the colour :meth:`_mark_rows` gave each row's name cell, per table
        self._marks: dict[int, dict[int, QColor | None]] = {}

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(3)
        top = QHBoxLayout()
        top.setSpacing(3)
        self.status = QLabel()
        self.status.setStyleSheet("font-size: 14px; font-weight: bold;")
        top.addWidget(self.status)
        top.addStretch(1)
        # the buttons live in a tool bar: too narrow a dock moves the last ones into its
        # "»" menu instead of widening the window past a laptop screen
        self.button_bar = QToolBar()
        self.button_bar.setObjectName("track_buttons")
        self.button_bar.setMovable(False)
        self.button_bar.setFloatable(False)
        self.button_bar.setStyleSheet("QToolBar { border: 0px; spacing: 3px; padding: 0px; }")
        self._bar_actions: dict[QWidget, Any] = {}
        top.addWidget(self.button_bar)
        # a short toggle (the Encounter menu has the long forms): checked in action time
        self.action_button = QToolButton()
        self.action_button.setText("Action time")
        self.action_button.setCheckable(True)
        self.action_button.setToolTip(
            "Pressed: action time (rounds on the track). Press to declare action time, "
            "release to go back to narrative time"
        )
        self.action_button.clicked.connect(lambda _=False: self.toggle_action_time())
        self._bar_actions[self.action_button] = self.button_bar.addWidget(self.action_button)
        for name, text, tip, target in _BAR_BUTTONS:
            if target.startswith("_build_"):
                button, menu = self._menu_button(text, tip, getattr(self, target))
                setattr(self, f"{name}_menu", menu)
            else:
                button = self._button(text, tip, lambda t=target: getattr(self, t)())
            setattr(self, f"{name}_button", button)
        self._shortcuts: dict[str, QShortcut] = {}
        self._shortcut_buttons: dict[str, tuple[QAbstractButton, ...]] = {}
        for key, buttons in (
            ("F5", (self.start_button,)),
            ("F6", (self.due_button, self.phase_button)),
            ("Shift+F6", (self.next_button,)),
            ("F7", (self.declare_button, self.act_button)),
            ("F8", (self.resolve_button, self.flip_button)),
            ("F9", (self.end_button, self.delay_button)),
            ("Alt+J", (self.join_button,)),
            ("Alt+R", (self.rush_button,)),
            ("Alt+Q", (self.bonus_button,)),
            ("Alt+S", (self.surprise_button,)),
            ("Alt+C", (self.movers_button,)),
            ("Alt+I", (self.interrupt_button,)),
            ("Alt+K", (self.keep_button,)),
            ("Alt+W", (self.stop_button,)),
        ):
            self._shortcut(key, buttons)
        self._rush_tip = self.rush_button.toolTip()
        self._movers_tip = self.movers_button.toolTip()
        lay.addLayout(top)

        self.stack = QStackedWidget()
        self.ap_table = self._make_table(3 + SEGMENTS + 1)
        self.ap_table.setHorizontalHeaderLabels(
            ["Character", "AP", "●", *[str(s) for s in range(1, SEGMENTS + 1)], "Spent"]
        )
        hh = self.ap_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        hh.setMinimumSectionSize(20)
        for c in range(1, 3 + SEGMENTS + 1):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            self.ap_table.setColumnWidth(c, 24)
        self.ap_table.setColumnWidth(1, 30)
        self.ap_table.setColumnWidth(3 + SEGMENTS, 58)
        self.ap_table.horizontalHeaderItem(3 + SEGMENTS).setToolTip("AP spent (AP lost)")
        self._current_segment = _CurrentSegment(self.ap_table)
        #: AP rows out of view at the last refresh, drawn when they come into view
        self._stale_rows: set[int] = set()
        self.ap_table.verticalScrollBar().valueChanged.connect(lambda _v: self._catch_up())
        self._catch_up_filter = _OnResize(self.ap_table.viewport(), self._catch_up)
        self.stack.addWidget(self.ap_table)

        self.ph_table = self._make_table(4 + 4 + 1)
        self.ph_table.setHorizontalHeaderLabels(
            ["Character", "Reflex", "Speed", "Result", *_PHASES, "Status"]
        )
        hh = self.ph_table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, 9):
            hh.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.ph_table.cellClicked.connect(self._phase_cell_clicked)
        self.stack.addWidget(self.ph_table)
        lay.addWidget(self.stack, 1)

        self.info = _InfoLabel()
        lay.addWidget(self.info)
        self.message = MessageLabel()
        lay.addWidget(self.message)

        self._hover_filters = [
            _RowHover(self.ap_table, self._row_hovered),
            _RowHover(self.ph_table, self._row_hovered),
        ]
        document.changed.connect(self._on_changed)
        document.characterChanged.connect(lambda _c: self.refresh())
        document.selectionChanged.connect(lambda _t: self._mark_rows())
        self.refresh()

    def sizeHint(self) -> QSize:
        # short by default, yet six rows and the message line: the map keeps most of a
        # laptop screen (more rows scroll)
        return QSize(900, 232)

    # -- buttons and shortcuts -----------------------------------------------------------
    def _button(self, text: str, tip: str, slot: Callable[[], Any]) -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False: slot())
        self._bar_actions[b] = self.button_bar.addWidget(b)
        return b

    def _menu_button(
        self, text: str, tip: str, build: Callable[[], None]
    ) -> tuple[QToolButton, QMenu]:
        b = QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(b)
        menu.setToolTipsVisible(True)
        menu.aboutToShow.connect(lambda: self.fill_menu(menu, build))
        b.setMenu(menu)
        self._bar_actions[b] = self.button_bar.addWidget(b)
        return b, menu

    @staticmethod
    def fill_menu(menu: QMenu, build: Callable[[], None]) -> None:
        """Build ``menu`` afresh; names from the sheets and the gear catalog keep their
        "&" (Smith & Wesson), which menus would otherwise take for a mnemonic."""
        build()
        _escape_ampersands(menu)

    def _shortcut(self, key: str, buttons: tuple[QAbstractButton, ...]) -> None:
        """One window-wide key for the button(s) (only one of them is shown in each
        edition); the key is added to their tooltips."""
        sc = QShortcut(QKeySequence(key), self)
        sc.setContext(Qt.ShortcutContext.WindowShortcut)
        sc.activated.connect(lambda: self.press(key))
        self._shortcuts[key] = sc
        self._shortcut_buttons[key] = buttons
        for b in buttons:
            b.setToolTip(f"{b.toolTip()} ({key})")

    def press(self, key: str) -> bool:
        """What the shortcut ``key`` does: click (or open the menu of) the shown,
        enabled button it stands for. Returns whether anything was pressed."""
        for b in self._shortcut_buttons.get(key, ()):
            if not self.shown(b) or not b.isEnabled():
                continue
            if isinstance(b, QToolButton) and b.menu() is not None:
                if b.isVisible():
                    b.showMenu()
                else:  # in the tool bar's overflow: open the menu under the bar
                    bar = self.button_bar
                    b.menu().popup(bar.mapToGlobal(bar.rect().bottomRight()))
            else:
                b.click()
            return True
        return False

    def shown(self, button: QWidget) -> bool:
        """Whether ``button`` belongs to this edition's buttons (it may sit in the tool
        bar's overflow menu when the dock is narrow)."""
        act = self._bar_actions.get(button)
        return act.isVisible() if act is not None else not button.isHidden()

    def _show(self, button: QWidget, on: bool) -> None:
        act = self._bar_actions.get(button)
        if act is not None:
            act.setVisible(on)
        else:
            button.setVisible(on)

    def _make_table(self, cols: int) -> QTableWidget:
        t = QTableWidget(0, cols)
        t.verticalHeader().hide()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        row = max(18, t.fontMetrics().height() + 4)  # compact rows: six fit a laptop's dock
        t.verticalHeader().setDefaultSectionSize(row)
        t.verticalHeader().setMinimumSectionSize(row)
        t.horizontalHeader().setFixedHeight(row + 2)
        t.itemSelectionChanged.connect(self._row_selected)
        t.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        t.customContextMenuRequested.connect(lambda p, t=t: self._row_menu(t, p))
        return t

    def _row_menu(self, table: QTableWidget, pos) -> None:
        menu = QMenu(table)
        for act in self.row_menu_actions(table, pos, menu):
            menu.addAction(act)
        if menu.actions():
            menu.exec(table.viewport().mapToGlobal(pos))

    def row_menu_actions(self, table: QTableWidget, pos, parent) -> list:
        """A row's menu: hide its character's token from the players or reveal it,
        and the Judge's override."""
        from ..token_menu import token_menu_actions  # lazy: the menu's dialogs on first use

        r = table.rowAt(pos.y())
        if not 0 <= r < len(self._row_ids):
            return []
        cid = self._row_ids[r]
        tok = self.document.token_for(cid)
        acts = token_menu_actions(parent, self.document, tok.id if tok else None, cid)
        return self._declaration_actions(cid, parent) + acts

    def _declaration_actions(self, cid: str, parent) -> list:
        """AP v2: a row's standing declaration — pass, wait until N counters, or drop
        what is declared (000 Action Timing)."""
        from PySide6.QtGui import QAction

        t = self.track
        if t is None or self.phases or not self.document.table.time.round_running():
            return []
        out = []
        name = self.document.character(cid).name
        if cid in t.pending_declarers():
            act = QAction(f"{name} passes this segment", parent)
            act.triggered.connect(lambda: self.pass_turn([cid]))
            out.append(act)
        act = QAction(f"{name} waits until N counters…", parent)
        act.triggered.connect(lambda: self.wait_until(cid))
        out.append(act)
        if t.state.standing.get(cid):
            act = QAction(f"{name}: drop the standing declaration", parent)
            act.triggered.connect(lambda: self.clear_standing(cid))
            out.append(act)
        return out

    # -- state -----------------------------------------------------------------------
    @property
    def track(self):
        return self.document.track if getattr(self.document, "in_action", False) else None

    @property
    def phases(self) -> bool:
        return self.document.edition.time == "phases"

    def selected_character(self) -> str | None:
        """The character of the selected row, else of the selected token."""
        t = self.stack.currentWidget()
        rows = {i.row() for i in t.selectedIndexes()}  # type: ignore[union-attr]
        if rows:
            r = min(rows)
            if r < len(self._row_ids):
                return self._row_ids[r]
        tok = self.document.selected_token()
        return tok.character_id if tok is not None else None

    # -- pushing steps ----------------------------------------------------------------
    def _do(self, action: Any) -> bool:
        """Apply one table action as one undoable step; show its event, or the
        table's reason for refusing it."""
        done: list[Any] = []
        ok = attempt(self.message, lambda: done.append(self.document.apply(action)))
        if ok and done and done[0] is not None:
            ev = done[0]
            self.last_event = ev.raw[-1] if ev.raw else None
            self.info.setText(ev.text)
        return ok

    def _why(self, action: Any) -> str:
        """Why the table refuses ``action`` now ("" when it would accept it); the table
        builds the step without keeping it, so menus show the engine's own reasons."""
        return _short(self.document.table.why_not(action) or "")

    def toggle_action_time(self) -> bool:
        """Declare action time, or go back to narrative time (one undoable step)."""
        doc = self.document
        try:
            if doc.in_action:
                doc.end_action_time()
            else:
                doc.start_action_time()
        except USER_ERRORS as e:
            self.message.error(error_text(e))
            return False
        finally:
            self.action_button.setChecked(self.track is not None)
        self.message.clear()
        return True

    def _typed_cards(self, keys: list[tuple[str, str]]) -> dict | None:
        """With a printed deck, ask the Judge for each card the step reads
        (``keys``: (key, who it is for)); None when the Judge cancels. Without one, {}."""
        if not self.document.deck.physical:
            return {}
        from ..widgets.card_entry import PhysicalCardDialog

        out = {}
        for key, who in keys:
            dlg = PhysicalCardDialog(self, title=f"Type the card drawn for {who}")
            if not dlg.exec() or dlg.card is None:
                return None
            out[key] = dlg.card
        return out

    def start_round(self) -> bool:
        if self.track is None and not self.toggle_action_time():
            return False
        chars = [
            c for c in self.document.encounter.characters if not (c.out_of_action or c.stunned)
        ]
        cards = self._typed_cards([(c.id, c.name) for c in chars])
        if cards is None:
            return False
        self.document.running_on = False
        # 000 Wound Effects: "Each round, stunned characters use their action (Recover,
        # all APs) to attempt a recovery check" — the round they spent is over: F5
        # draws each check due before the next round starts
        for cid in due_recovery(self.document.table):
            card = None
            if self.document.deck.physical:
                typed = self._typed_cards([(cid, self.document.character(cid).name)])
                if typed is None:
                    return False
                card = typed.get(cid)
            if not self._do(RecoveryCheck(who=cid, card=card)):
                return False
        return self._do(StartRoundWithCards(cards=cards) if cards else StartRound())

    # AP v2 ----------------------------------------------------------------------------
    def next_segment(self) -> bool:
        return self._do(EndSegment())

    def next_due(self) -> bool:
        """Run on (F6): the table counts the segments until the Judge must decide
        (one undo step); those the last stop named as able to act with nothing
        declared pass first, in the same step."""
        t = self.track
        passing = t.pending_declarers() if t is not None else []
        self.document.running_on = True
        return self._do(RunOn(passing=passing))

    def pass_turn(self, cids: list[str]) -> bool:
        return self._do(PassTurn(who=cids))

    def clear_standing(self, cid: str) -> bool:
        return self._do(ClearStanding(who=cid))

    def wait_until(self, cid: str, counters: int | None = None) -> bool:
        if counters is None:
            from PySide6.QtWidgets import QInputDialog

            name = self.document.character(cid).name
            value, ok = QInputDialog.getInt(
                self, "Wait", f"{name} waits until this many counters are out:", 3, 1, 40
            )
            if not ok:
                return False
            counters = value
        return self._do(WaitUntil(who=cid, counters=counters))

    def declare(self, cid: str, spec: A.ActionSpec) -> bool:
        """Declare ``spec`` for ``cid`` on the track (pays the counters), with its
        effect on the sheet (ready, cock, reload, posture)."""
        return self._do(DeclareAction(who=cid, declared=spec))

    def resolve_stack(self) -> bool:
        t = self.track
        waiting = [e for e in t.stack() if not e.resolved] if t is not None else []
        cards = self._typed_cards(
            [(e.character_id, self.document.character(e.character_id).name) for e in waiting]
        )
        if cards is None:
            return False
        return self._do(Resolve(cards=cards or None))

    def end_round(self) -> bool:
        return self._do(EndRound())

    def _build_declare_menu(self) -> None:
        m = self.declare_menu
        cid = self._menu_head(m)
        t = self.track
        if cid is None:
            return
        c = self.document.character(cid)
        counters = None
        row = None
        if t is not None and hasattr(t, "row"):
            try:
                row = t.row(cid)
                counters = getattr(row, "counters", None)
            except RulesError:
                row = None
        head = f"{c.name}: {counters} counter(s) on the track" if counters is not None else c.name
        m.addSection(head)
        self._fill_actions(
            m,
            cid,
            _ap_cost,
            lambda s: self._why(DeclareAction(who=cid, declared=s)),
            self.declare,
            reason_tip=False,
        )
        other = m.addAction("Other action (the Judge's cost)…")
        other.triggered.connect(lambda: self._declare_other(cid))

    def _declare_other(self, cid: str) -> None:
        label, ok = QInputDialog.getText(self, "Other action", "What does the character do?")
        if not ok or not label.strip():
            return
        ap, ok = QInputDialog.getInt(self, "Other action", "AP it costs:", 1, 0, 40)
        if ok:
            self.declare(cid, A.other_action(label.strip(), ap))

    def _fill_actions(
        self,
        menu: QMenu,
        cid: str,
        cost: Callable[[A.ActionSpec], str],
        refusal: Callable[[A.ActionSpec], str],
        go: Callable[[str, A.ActionSpec], bool],
        reason_tip: bool = True,
    ) -> None:
        """The action catalogue as submenus, each entry with its cost, disabled with
        ``refusal``'s reason ("" when the step would be accepted: :meth:`_why` asks
        the table); with ``reason_tip`` that reason also closes the tooltip."""
        groups: dict[str, QMenu] = {}
        for entry in catalogue(self.document, self.document.character(cid)):
            sub = groups.get(entry.group)
            if sub is None:
                sub = menu.addMenu(entry.group)
                sub.setToolTipsVisible(True)
                groups[entry.group] = sub
            if entry.spec is None:
                act = sub.addAction(f"{entry.label} — {entry.why}")
                act.setEnabled(False)
                continue
            spec = entry.spec
            why = refusal(spec)
            act = sub.addAction(f"{entry.label} — {cost(spec)}" + (f"  ({why})" if why else ""))
            tip = [f"{i.label}: {i.ap} AP ({i.source})" for i in spec.breakdown]
            act.setToolTip("\n".join([*tip, why] if why and reason_tip else tip))
            act.setEnabled(not why)
            act.triggered.connect(lambda _=False, s=spec, k=cid: go(k, s))

    def _menu_head(self, menu: QMenu) -> str | None:
        """Clear ``menu`` and return the selected character, or say why there is none."""
        menu.clear()
        cid = self.selected_character()
        if cid is None:
            menu.addAction("Select a character's row or token first").setEnabled(False)
        return cid

    def _note(self, menu: QMenu, text: str) -> None:
        act = menu.addAction(text)
        act.setEnabled(False)

    def _menu_track(self, menu: QMenu, engine_step: str, missing: str) -> tuple[str, Any] | None:
        """:meth:`_menu_head`, then the track when its engine offers ``engine_step``;
        None (with ``missing`` noted in the menu when the engine lacks it) otherwise."""
        cid = self._menu_head(menu)
        t = self.track
        if cid is None:
            return None
        if t is None or not hasattr(t, engine_step):
            self._note(menu, missing)
            return None
        return cid, t

    # -- the initiative stack: joining, rushing, bonuses (AP v2) ---------------------------
    def _build_join_menu(self) -> None:
        m = self.join_menu
        found = self._menu_track(
            m, "join_stack", "Joining the stack is part of the AP v2 action track"
        )
        if found is None:
            return
        cid, t = found
        name = self.document.character(cid).name
        others = [e for e in t.stack() if not e.resolved and e.character_id != cid]
        if not others:
            self._note(
                m,
                f"No other action waits on the stack of segment {t.current_segment}: "
                "declare normally",
            )
            return
        who = ", ".join(dict.fromkeys(t.row(e.character_id).name for e in others))
        head = m.addSection(f"{name} joins {who} on segment {t.current_segment}")
        head.setToolTip(
            "\n".join(f"{t.row(e.character_id).name}: {e.action.describe()}" for e in others)
        )
        self._fill_actions(
            m,
            cid,
            lambda s: _ap_cost(s) + " + 1 AP to join",
            lambda s: self._why(JoinStack(who=cid, declared=s)),
            self.join_stack,
        )

    def join_stack(self, cid: str, spec: A.ActionSpec) -> bool:
        """Put ``spec`` on this segment's stack beside another character's action
        (000 Simultaneous Actions), with its effect on the sheet; one undoable step."""
        return self._do(JoinStack(who=cid, declared=spec))

    def _build_rush_menu(self) -> None:
        m = self.rush_menu
        found = self._menu_track(m, "rush", "Rushing is part of the AP v2 action track")
        if found is None:
            return
        cid, t = found
        if not self.document.encounter.options.rushing:
            self._note(m, "Rushing actions is an optional rule, off for this encounter")
            return
        try:
            counters = t.row(cid).counters
        except RulesError as e:
            self._note(m, str(e))
            return
        m.addSection(
            f"{self.document.character(cid).name}: {counters} counter(s), "
            f"{t.row(cid).pool} AP in the pool"
        )

        def cost(spec: A.ActionSpec) -> str:
            extra = max(0, spec.ap - counters)
            if extra == 0:
                return f"{spec.ap} AP, paid from the track: no rush tax"
            return f"{spec.ap} AP: {counters} from the track + {extra} from the pool, rushed by {extra}"

        self._fill_actions(m, cid, cost, lambda s: self._why(Rush(who=cid, declared=s)), self.rush)

    def rush(self, cid: str, spec: A.ActionSpec) -> bool:
        """Rush ``spec`` (optional rule, 000 Rushing Actions): counters plus pool AP;
        the rush tax is paid when the stack resolves. One undoable step."""
        return self._do(Rush(who=cid, declared=spec))

    def stack_entry(self, cid: str):
        """``cid``'s action waiting on the current segment's stack (None if none)."""
        t = self.track
        if t is None or not hasattr(t, "stack"):
            return None
        mine = [e for e in t.stack() if e.character_id == cid and not e.resolved]
        return mine[-1] if mine else None

    def _build_bonus_menu(self) -> None:
        m = self.bonus_menu
        found = self._menu_track(
            m, "quick_draw_check", "The initiative stack is part of the AP v2 action track"
        )
        if found is None:
            return
        cid, t = found
        c = self.document.character(cid)
        entry = self.stack_entry(cid)
        if entry is None:
            self._note(
                m, f"{c.name} has no action waiting on the stack of segment {t.current_segment}"
            )
            return
        head = m.addSection(f"{c.name}: {entry.action.describe()} — bonus {entry.bonus:+d}")
        head.setToolTip(
            "\n".join(f"{b.label} {b.value:+d} ({b.source})" for b in entry.bonus_items())
            or "no bonus yet"
        )
        pool = _quick_draw_pool(t, c)
        qd = m.addAction(f"Quick Draw check — {pool} against TN {QUICK_DRAW_TN}: +1, and +1 a bump")
        why = _short(t.quick_draw_refusal(cid))
        if why:
            qd.setText(f"{qd.text()}  ({why})")
        qd.setEnabled(not why)
        qd.setToolTip("000 Determine Bonus: a calamity gives nothing and bars spending AP")
        qd.triggered.connect(lambda _=False: self.quick_draw(cid))
        room = max(1, c.quick_draw - entry.bonus_ap)
        for n in range(1, room + 1):
            why = self._why(StackBonus(who=cid, ap=n))
            act = m.addAction(f"Spend {n} AP from the pool: +{n}" + (f"  ({why})" if why else ""))
            act.setToolTip(
                f"At most the Quick Draw level ({c.quick_draw}) in all; counters lost to "
                "overpaying are not in the pool (000 Determine Bonus)"
            )
            act.setEnabled(not why)
            act.triggered.connect(lambda _=False, n=n: self.buy_stack_bonus(cid, n))
        m.addSeparator()
        mod = m.addAction(
            f"Gear, wound and environment modifiers… (now {entry.gear_modifier:+d}, "
            f"{entry.environment_modifier:+d})"
        )
        mod.setToolTip("The Judge's numbers for 000 Determine Bonus 1–2 (the page gives none)")
        mod.triggered.connect(lambda _=False: self._ask_modifiers(cid))

    def quick_draw(self, cid: str) -> bool:
        """The TN 5 Quick Draw check for ``cid``'s action on the stack; one undoable step."""
        name = self.document.character(cid).name
        cards = self._typed_cards([(cid, f"{name}'s Quick Draw check")])
        if cards is None:
            return False
        return self._do(QuickDraw(who=cid, card=cards.get(cid)))

    def buy_stack_bonus(self, cid: str, ap: int) -> bool:
        """Spend ``ap`` AP from the pool for +1 each on the stack; one undoable step."""
        return self._do(StackBonus(who=cid, ap=ap))

    def set_stack_modifiers(
        self, cid: str, gear: int = 0, environment: int = 0, note: str = ""
    ) -> bool:
        """The Judge's gear and wound/environment modifiers for ``cid``'s action on the
        stack; one undoable step."""
        return self._do(StackModifiers(who=cid, gear=gear, environment=environment, note=note))

    def _ask_modifiers(self, cid: str) -> None:
        entry = self.stack_entry(cid)
        dlg = ModifiersDialog(self, entry)
        if dlg.exec():
            self.set_stack_modifiers(cid, *dlg.values())

    # -- surprise (both editions) -------------------------------------------------------------
    def _build_surprise_menu(self) -> None:
        m = self.surprise_menu
        m.clear()
        doc = self.document
        t = self.track
        # 001 (AP v2) makes every check Standard once action time is under way; 003
        # (Phases) does not: the engine says which
        alert = t is not None and t.round > 0 and t.surprise_alert_in_action_time
        chars = [c for c in doc.encounter.characters if not c.out_of_action]
        if not chars:
            self._note(m, "Nobody here can be surprised")
            return

        def add(menu: QMenu, ids: list[str], label: str) -> None:
            for expecting in (True, False):
                tn = surprise_tn(doc.edition, expecting, alert)
                why = (
                    "expecting danger"
                    if expecting
                    else (
                        "not expecting (action time is under way)"
                        if alert
                        else "not expecting danger"
                    )
                )
                act = menu.addAction(f"{label}{why} — Acuity against TN {tn}")
                act.setToolTip(
                    "Failing: no action this round, then an Easy (3) Bravery check before "
                    "acting again (001/003 Surprise)"
                )
                act.triggered.connect(lambda _=False, i=list(ids), e=expecting: self.surprise(i, e))

        cid = self.selected_character()
        if cid is not None and any(c.id == cid for c in chars):
            c = doc.character(cid)
            acuity = c.traits.get("acuity")
            m.addSection(f"{c.name} (Acuity {acuity or '—'})")
            add(m, [cid], "")
        sides = m.addMenu("A whole side")
        for side in dict.fromkeys(c.side for c in chars):
            ids = [c.id for c in chars if c.side == side]
            add(sides, ids, f"The {side} ({len(ids)}): ")
        others = m.addMenu("Someone else")
        for c in chars:
            add(others.addMenu(c.name), [c.id], "")

    def surprise(self, cids: list[str] | str, expecting_danger: bool) -> bool:
        """Surprise checks for ``cids`` (one card each) as one undoable step; in
        narrative time action time is declared first (001/003 Surprise)."""
        ids = [cids] if isinstance(cids, str) else list(cids)
        if not ids:
            return False
        if self.track is None and not self.toggle_action_time():
            return False
        doc = self.document
        names = [doc.character(i).name for i in ids]
        cards = self._typed_cards(
            [(i, f"{n}'s surprise check") for i, n in zip(ids, names, strict=True)]
        )
        if cards is None:
            return False
        return self._do(Surprise(who=ids, expecting_danger=expecting_danger, cards=cards or None))

    # -- continuous movers (both editions) ---------------------------------------------------
    def _build_movers_menu(self) -> None:
        m = self.movers_menu
        m.clear()
        t = self.track
        if t is None:
            self._note(m, "Declare action time first")
            return
        act = m.addAction("Start or change a continuous mover…")
        act.setToolTip(
            "A mount, vehicle or runaway wagon: the round's paces spread over the round "
            "(000 Continuous Action Movement, 002 Continuous Actions)"
        )
        act.triggered.connect(lambda _=False: self.edit_mover(self.selected_character()))
        movers = list(t.state.movers)
        if not movers:
            return
        m.addSection("Moving continuously")
        for mv in movers:
            sub = m.addMenu(
                f"{mv.name} — {mv.paces} paces a round" + (" (automated)" if mv.automated else "")
            )
            sub.addAction("Change…").triggered.connect(
                lambda _=False, k=mv.mover_id: self.edit_mover(k)
            )
            sub.addAction("Stop").triggered.connect(
                lambda _=False, k=mv.mover_id: self.set_continuous(k, None)
            )

    def edit_mover(self, mover_id: str | None = None) -> bool:
        """Ask for a continuous mover's paces (and, in the Phases edition, the rider's
        skill and the mount's handling), then set it."""
        t = self.track
        if t is None:
            self.message.error("Declare action time first (Start action time).")
            return False
        dlg = ContinuousDialog(self, self.document, t, mover_id)
        if not dlg.exec():
            return False
        v = dlg.values()
        return self.set_continuous(
            v["mover_id"],
            v["paces"],
            name=v["name"],
            automated=v["automated"],
            skill=v["skill"],
            handling=v["handling"],
        )

    def set_continuous(
        self,
        mover_id: str,
        paces: int | None,
        *,
        name: str | None = None,
        automated: bool = False,
        skill: int = 0,
        handling: int = 0,
    ) -> bool:
        """Start, change or (``paces`` None/0) stop a continuous mover; one undoable
        step. ``skill``/``handling`` count in the Phases edition only (002)."""
        return self._do(
            Continuous(
                mover=mover_id,
                paces=paces,
                name=name,
                automated=automated,
                skill=skill,
                handling=handling,
            )
        )

    # Phases ----------------------------------------------------------------------------
    def declare_speed(self, cid: str, speed: Speed) -> bool:
        return self._do(Declare(who=cid, speed=speed))

    def flip_card(self) -> bool:
        t = self.track
        keys: list[tuple[str, str]] = []
        if t is not None and self.document.deck.physical:
            per = self.document.encounter.options.phases_card_per
            active = [r for r in t.state.rows.values() if r.status.value == "active"]
            if per == "all":
                keys = [("all", "everyone")]
            elif per == "side":
                keys = [(side, f"the {side}") for side in dict.fromkeys(r.side for r in active)]
            else:
                keys = [(r.character_id, r.name) for r in active]
        cards = self._typed_cards(keys)
        if cards is None:
            return False
        return self._do(Resolve(cards=cards or None))

    def choose_phase(self, cid: str, phase: int) -> bool:
        return self._do(ChoosePhase(who=cid, phase=phase))

    def next_phase(self) -> bool:
        return self._do(EndSegment())

    def act(self, cid: str | None = None, action: Speed | A.ActionSpec | None = None) -> bool:
        t = self.track
        cid = cid or self.selected_character() or (t.next_to_act() if t is not None else None)
        if cid is None:
            self.message.error("Select who acts.")
            return False
        if isinstance(action, A.ActionSpec):
            return self._do(Act(who=cid, declared=action))
        return self._do(Act(who=cid, speed=action))

    def delay(
        self, cid: str | None = None, circumstance: str | None = None, ask: bool = False
    ) -> bool:
        """``cid`` holds their action (004 Delaying an Action): for a circumstance
        (which may be waited for into the next round) or, left blank, to act later.
        ``ask``: the button asks the Judge for the circumstance first."""
        cid = cid or self.selected_character()
        if cid is None:
            self.message.error("Select who delays.")
            return False
        name = self.document.character(cid).name
        if ask:
            text, ok = QInputDialog.getText(
                self, "Delay", f"{name} waits for (leave blank to act at any later moment):"
            )
            if not ok:
                return False
            circumstance = text.strip() or None
        return self._do(Delay(who=cid, circumstance=circumstance))

    def _delay_asking(self) -> bool:
        """The Delay button: the selected character delays, the Judge typing the
        circumstance."""
        return self.delay(ask=True)

    def _waiting_character(self) -> str | None:
        """The selected character, else the only one still waiting from last round."""
        cid = self.selected_character()
        t = self.track
        if cid is None and t is not None and hasattr(t, "keep_waiting"):
            waiting = [r.character_id for r in t.state.rows.values() if r.waiting_for]
            cid = waiting[0] if len(waiting) == 1 else None
        return cid

    def _waiting_step(self, cid: str | None, what: str, make: Callable[[str], Any]) -> bool:
        """The action ``make(cid)`` for ``cid`` or else :meth:`_waiting_character`."""
        cid = cid or self._waiting_character()
        if cid is None:
            self.message.error(f"Select who {what}.")
            return False
        return self._do(make(cid))

    def keep_waiting(self, cid: str | None = None) -> bool:
        """``cid`` goes on waiting for last round's circumstance (004 Delaying an
        Action): one undoable step; a refusal shows the engine's reason."""
        return self._waiting_step(cid, "keeps waiting", lambda k: KeepWaiting(who=k))

    def stop_waiting(self, cid: str | None = None) -> bool:
        """``cid`` drops last round's circumstance and declares afresh (004 Delaying
        an Action): one undoable step; a refusal shows the engine's reason."""
        return self._waiting_step(cid, "stops waiting", lambda k: StopWaiting(who=k))

    def _build_interrupt_menu(self) -> None:
        m = self.interrupt_menu
        found = self._menu_track(
            m, "check_preempt", "Interrupting is part of the Phases round (004)"
        )
        if found is None:
            return
        cid, t = found
        try:
            t.check_preempt(cid)
        except RulesError as e:
            self._note(m, _short(str(e)))
            return
        name = self.document.character(cid).name
        mine = self.document.character(cid).traits.get("reflex")
        m.addSection(f"{name} (Reflex {mine or '—'} −2) tries to go before…")
        nxt = t.next_to_act()
        for target in t.preempt_targets(cid):
            other = self.document.character(target)
            act = m.addAction(other.name + ("  (next to act)" if target == nxt else ""))
            act.setToolTip(
                f"A Reflex contest on one card: {name} {mine or '—'} at −2 against "
                f"{other.name} {other.traits.get('reflex') or '—'}; a tie stays with "
                f"{other.name} (004 Delaying an Action)"
            )
            act.triggered.connect(lambda _=False, k=target: self.interrupt(cid, k))

    def interrupt(self, cid: str | None = None, against: str | None = None) -> bool:
        """``cid`` (delaying) tries to act before ``against`` (default: the next to
        act): the Reflex contest of 004 Delaying an Action, one undoable step."""
        cid = cid or self.selected_character()
        if cid is None:
            self.message.error("Select who interrupts.")
            return False
        name = self.document.character(cid).name
        cards = self._typed_cards([(cid, f"{name}'s interruption (one card for both)")])
        if cards is None:
            return False
        return self._do(Interrupt(who=cid, against=against, card=cards.get(cid)))

    def _phase_cell_clicked(self, r: int, c: int) -> None:
        if not 4 <= c <= 7 or r >= len(self._row_ids):
            return
        t = self.track
        if t is None or t.state.stage.value != "resolved":
            return
        cid = self._row_ids[r]
        if (c - 3) in t.row(cid).qualifying:
            self.choose_phase(cid, c - 3)

    # -- view ------------------------------------------------------------------------------
    def _on_changed(self, area: str) -> None:
        if area in ("track", "mode", "characters", "all", "file"):
            self.refresh()

    def refresh(self) -> None:
        self.stack.setCurrentWidget(self.ph_table if self.phases else self.ap_table)
        t = self.track
        in_action = t is not None
        self.action_button.setChecked(in_action)
        ap = not self.phases
        for b in (
            self.due_button,
            self.next_button,
            self.declare_button,
            self.join_button,
            self.rush_button,
            self.bonus_button,
            self.resolve_button,
            self.end_button,
        ):
            self._show(b, ap)
        for b in (
            self.flip_button,
            self.phase_button,
            self.act_button,
            self.delay_button,
            self.interrupt_button,
            self.keep_button,
            self.stop_button,
        ):
            self._show(b, not ap)
        movers = list(t.state.movers) if t is not None else []
        self.movers_button.setEnabled(in_action)
        self.movers_button.setText(f"Movers ({len(movers)})" if movers else "Movers")
        if movers:
            self.movers_button.setToolTip(
                self._movers_tip
                + "\nMoving now: "
                + "; ".join(f"{m.name} {m.paces} paces a round" for m in movers)
            )
        else:
            self.movers_button.setToolTip(self._movers_tip)
        if ap:
            self._refresh_ap(t)
        else:
            self._refresh_phases(t)
        self._mark_rows()
        self._hook_map()

    def _chars(self) -> list[Character]:
        return list(self.document.encounter.characters)

    def _refresh_ap(self, t) -> None:
        st = t.state if t is not None else None
        stage = st.stage.value if st is not None else "narrative"
        seg = st.segment if st is not None else 0
        if t is None:
            self.status.setText("Narrative time")
        elif stage == "idle":
            self.status.setText("Action time — start the first round")
        elif stage == "ended":
            self.status.setText(f"Round {st.round} over — start the next")
        else:
            label = f"segment {seg}" if seg <= SEGMENTS else f"after 20 ({seg})"
            self.status.setText(
                f"Round {st.round} · {label}" if seg else f"Round {st.round} · initiative done"
            )
        running = stage in ("running", "overtime")
        self.start_button.setEnabled(t is None or stage in ("idle", "ended"))
        self.next_button.setEnabled(running)
        self.due_button.setEnabled(running)
        self.declare_button.setEnabled(running)
        pending = bool(running and [e for e in t.stack() if not e.resolved])
        self.resolve_button.setEnabled(pending)
        self.end_button.setEnabled(running)
        self.join_button.setEnabled(running)
        self.bonus_button.setEnabled(running)
        rushing = self.document.encounter.options.rushing
        self.rush_button.setEnabled(running and rushing)
        self.rush_button.setToolTip(
            self._rush_tip
            + ("" if rushing else "\nRushing is an optional rule, off for this encounter.")
        )
        table = self.ap_table
        chars = self._chars()
        self._row_ids = [c.id for c in chars]
        if table.rowCount() != len(chars):
            table.setRowCount(len(chars))
            cells = self._cells.get(id(table), {})
            for key in [k for k in cells if k[0] >= len(chars)]:
                del cells[key]
            marks = self._marks.get(id(table), {})
            for r in [r for r in marks if r >= len(chars)]:
                del marks[r]
        now_seg = seg if running else None
        last_seg = self._shown_seg if self._shown_running else None
        if self._shown_header != now_seg:
            self._shown_header = now_seg
            bold = QFont()
            bold.setBold(True)
            for col in range(3, 3 + SEGMENTS):
                item = table.horizontalHeaderItem(col) or QTableWidgetItem()
                s = col - 2
                item.setText(f"▶{s}" if s == now_seg else str(s))
                item.setFont(bold if s == now_seg else QFont())
                table.setHorizontalHeaderItem(col, item)
        if last_seg != now_seg:  # the current segment's colour: a column's, not 200 cells'
            for x in (last_seg, now_seg):
                if x is not None and 1 <= x <= SEGMENTS:
                    table.setItemDelegateForColumn(
                        2 + x, self._current_segment if x == now_seg else table.itemDelegate()
                    )
        by_char = _entries_by_character(st)
        shown = self._visible_rows(len(chars))
        if shown is None:  # not on screen: every row now
            rows: Iterable[int] = range(len(chars))
            self._stale_rows.clear()
        else:  # on screen: the rows in view now, the others when they scroll into it
            rows = shown
            self._stale_rows = set(range(len(chars))).difference(shown)
        self._draw_ap_rows(rows, chars, st, by_char)
        for r in list(self._row_sigs):
            if r >= len(chars):
                del self._row_sigs[r]
        self._shown_seg, self._shown_running = seg, running
        # stack / order line
        if running:
            stack = t.stack()
            if stack:
                parts = []
                for e in stack:
                    who = (
                        st.rows[e.character_id].name
                        if e.character_id in st.rows
                        else e.character_id
                    )
                    pos = f"{e.position}. " if e.position else ""
                    parts.append(f"{pos}{who}: {e.action.describe()}")
                self.info.setText(f"Segment {seg} stack — " + "; ".join(parts))
            else:
                order = [st.rows[i].name for i in t.declaration_order()] if seg else []
                self.info.setText(
                    ("Declaring (slowest first): " + ", ".join(order)) if order else self.info.full
                )

    def _draw_ap_rows(
        self, rows: Iterable[int], chars: list[Character], st: Any, by_char: dict[str, list[Any]]
    ) -> None:
        """Bring the AP table's ``rows`` up to date, touching only what changed since
        each was last drawn."""
        table = self.ap_table
        cache = self._cells.setdefault(id(table), {})

        def put(r: int, c: int, text: str, tip: str = "", bg=None, **kw) -> None:
            self._put(table, r, c, text, tip, bg, cache=cache, **kw)

        every = range(1, SEGMENTS + 1)
        marks_shown = self._marks.setdefault(id(table), {})
        t = self.track
        pending = set(t.pending_declarers()) if t is not None and not self.phases else set()
        for r in rows:
            c = chars[r]
            row = st.rows.get(c.id) if st is not None else None
            mine = by_char.get(c.id, [])
            # what each cell is drawn from: the four columns around the segments, and
            # the segments' own (see _row_marks); only what changed is drawn again
            if row is None:
                heads: tuple = ((c.name, c.initiative, c.ap), (None, c.ap), None, None)
            else:
                status = row.status
                heads = (
                    (
                        c.name,
                        c.initiative,
                        c.ap,
                        row.initiative_reasons,
                        row.ap_reasons,
                        status,
                        row.status_reason,
                        tuple(q.label for q in st.standing.get(c.id, ())),
                        c.id in pending,
                    ),
                    (row.round_ap, status, c.ap, row.pool, row.ap_reasons),
                    row.counters,
                    (row.spent, row.lost, row.borrowed),
                )
            marks = _row_marks(c, row, mine)
            old = self._row_sigs.get(r)
            self._row_sigs[r] = (c.id, heads, marks)
            if old is None or old[0] != c.id:
                dirty: Iterable[int] = every
                changed = (True, True, True, True)
                marks_shown.pop(r, None)  # its name cell may be new: mark it again
            else:
                dirty = () if old[2] == marks else _changed_segments(old[2], marks)
                changed = tuple(a != b for a, b in zip(old[1], heads, strict=True))
            for s in dirty:
                put(r, 2 + s, *self._segment_cell(c, row, mine, s))
            if changed[0]:
                name = c.name
                tip = [f"{c.name} — IN {c.initiative}, AP {c.ap}"]
                if row is not None:
                    tip += list(row.initiative_reasons) + list(row.ap_reasons)
                    if row.status.value != "active":
                        name = f"{c.name} ({row.status.value})"
                        tip.append(row.status_reason)
                    standing = heads[0][7]
                    if standing:
                        name = f"{name} ⋯"
                        tip.append(
                            "Declared, when the counters cover it: " + "; then ".join(standing)
                        )
                    elif heads[0][8]:
                        name = f"▶ {name}"
                        tip.append(
                            "May declare now with nothing declared: act with them, or F6 passes "
                            "(000 Action Timing)"
                        )
                    skipped = skip_reason(self.document.table, c.id) if t is not None else None
                    if skipped:
                        tip.append(f"Not chosen as due next: {skipped}")
                put(r, 0, name, "\n".join(x for x in tip if x), center=False)
            if changed[1]:
                put(
                    r,
                    1,
                    str(row.round_ap)
                    if row is not None and row.status.value == "active"
                    else str(c.ap),
                    f"pool {row.pool} AP not yet on the track\n" + "\n".join(row.ap_reasons)
                    if row is not None
                    else "",
                )
            if changed[2]:
                put(
                    r,
                    2,
                    str(row.counters) if row is not None else "",
                    "counters in front of the character now",
                    bold=True,
                )
            if changed[3]:
                put(
                    r,
                    3 + SEGMENTS,
                    (f"{row.spent}" + (f" ({row.lost})" if row.lost else ""))
                    if row is not None
                    else "",
                    f"spent {row.spent} AP, lost {row.lost}, borrowed {row.borrowed}"
                    if row is not None
                    else "",
                )

    def _visible_rows(self, n: int) -> range | None:
        """The AP table's rows on screen (one more either side), or None when the table
        is not shown (then it is drawn whole: it may be read without being seen)."""
        t = self.ap_table
        if not t.isVisible():
            return None
        top = t.rowAt(0)
        bottom = t.rowAt(t.viewport().height() - 1)
        top = 0 if top < 0 else top
        bottom = n - 1 if bottom < 0 else bottom
        return range(max(0, top - 1), min(n, bottom + 2))

    def _catch_up(self) -> None:
        """Draw the rows that scrolled (or were resized) into view since the last
        refresh drew only the ones then in view."""
        if not self._stale_rows or self.phases:
            return
        chars = self._chars()
        shown = self._visible_rows(len(chars))
        rows = [
            r for r in (shown if shown is not None else range(len(chars))) if r in self._stale_rows
        ]
        if not rows:
            return
        self._stale_rows.difference_update(rows)
        t = self.track
        st = t.state if t is not None else None
        self._draw_ap_rows(rows, chars, st, _entries_by_character(st))
        self._mark_rows()

    @staticmethod
    def _segment_cell(
        c: Character, row: Any, mine: list[Any], s: int
    ) -> tuple[str, str, QColor | None]:
        """(text, tooltip, background) of segment ``s`` in a character's row; the
        current segment's colour is the column's (:class:`_CurrentSegment`)."""
        first = row.first_segment if row is not None else None
        marker = first if first is not None else (c.initiative if row is None else None)
        placed = row.placed if row is not None else 0
        on_track_from = (first or 0) + placed - (row.counters if row is not None else 0)
        out = row is not None and row.status.value in ("out", "stunned", "surprised")
        text = ""
        tips: list[str] = []
        if row is not None and first is not None and placed and first <= s < first + placed:
            if s >= on_track_from:
                text = "●"
                tips.append("a counter on the track")
            else:
                text = "·"
                tips.append("a counter already paid")
        for e in mine:
            if e.segment == s:
                code = _CODES.get(e.action.kind, "?")
                if e.position is not None:
                    code += str(e.position)
                text = code
                tips.append(
                    e.action.describe() + (f" — stack place {e.position}" if e.position else "")
                )
        bg = None
        if s == marker:
            bg = _IN
            tips.insert(0, f"IN: first counter on segment {s}")
        elif out:
            bg = _OUT
        return text, "\n".join(tips), bg

    def _put(
        self,
        table: QTableWidget,
        r: int,
        c: int,
        text: str,
        tip: str = "",
        bg: QColor | None = None,
        *,
        center: bool = True,
        bold: bool = False,
        cache: dict[tuple[int, int], tuple] | None = None,
    ) -> None:
        """Show a cell, touching the table only where what it shows changed (a segment
        counted changes a few cells of the 24 × rows, and of those mostly one property:
        a counter's mark, or the current segment's colour). The name column's colour is
        :meth:`_mark_rows`'s. ``cache``: the table's entry of ``_cells``."""
        if cache is None:
            cache = self._cells.setdefault(id(table), {})
        old = cache.get((r, c))
        if (
            old is not None
            and old[0] == text
            and old[1] == tip
            and _same_colour(old[2], bg)
            and old[3] == center
            and old[4] == bold
        ):
            return
        cache[(r, c)] = (text, tip, bg, center, bold)
        item = table.item(r, c)
        if item is None or old is None:
            if item is None:
                item = QTableWidgetItem()
                table.setItem(r, c, item)
            old = (None, None, False, None, None)
        if text != old[0]:
            item.setText(text)
        if tip != old[1]:
            item.setToolTip(tip)
        if center != old[3] and center:
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        if bold != old[4] and bold:
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        if c != 0 and (old[2] is False or not _same_colour(old[2], bg)):
            item.setBackground(QBrush(bg) if bg is not None else QBrush())

    def _refresh_phases(self, t) -> None:
        st = t.state if t is not None else None
        stage = st.stage.value if st is not None else "narrative"
        if t is None:
            self.status.setText("Narrative time")
        elif stage == "idle":
            self.status.setText("Action time — start the first round")
        elif stage == "declare":
            self.status.setText(f"Round {st.round} · declare speeds")
        elif stage == "resolved":
            cards = ", ".join(str(n) for n in st.initiative_cards.values())
            self.status.setText(f"Round {st.round} · card {cards} · choose phases")
        elif stage == "acting":
            self.status.setText(f"Round {st.round} · phase {_PHASES[st.phase - 1]}")
        else:
            self.status.setText(f"Round {st.round} over")
        self.start_button.setEnabled(t is None or stage in ("idle", "ended"))
        self.flip_button.setEnabled(stage == "declare")
        self.phase_button.setEnabled(stage in ("resolved", "acting"))
        self.act_button.setEnabled(stage == "acting")
        self.delay_button.setEnabled(stage == "acting")
        self.interrupt_button.setEnabled(stage == "acting")
        waiting = stage == "declare" and any(r.waiting_for for r in st.rows.values())
        self.keep_button.setEnabled(waiting)
        self.stop_button.setEnabled(waiting)
        table = self.ph_table
        chars = self._chars()
        self._row_ids = [c.id for c in chars]
        table.setRowCount(0)  # drops the old speed combos at once
        self._marks.pop(id(table), None)  # and the marked name cells
        table.setRowCount(len(chars))
        current = st.phase if st is not None and stage == "acting" else 0
        for k, ph in enumerate(_PHASES):
            item = table.horizontalHeaderItem(4 + k) or QTableWidgetItem()
            item.setText(f"▶{ph}" if current == k + 1 else ph)
            table.setHorizontalHeaderItem(4 + k, item)
        nxt = t.next_to_act() if t is not None and stage == "acting" else None
        for r, c in enumerate(chars):
            row = st.rows.get(c.id) if st is not None else None
            name = QTableWidgetItem(("▶ " if c.id == nxt else "") + c.name)
            if row is not None:
                name.setToolTip(
                    "\n".join([*row.declared_reasons, *row.bar_reasons, *row.reflex_reasons])
                )
            table.setItem(r, 0, name)
            reflex = c.traits.get("reflex")
            table.setItem(r, 1, QTableWidgetItem(str(reflex) if reflex else "—"))
            combo = QComboBox()
            combo.addItem("—", None)
            for sp in (Speed.FAST, Speed.NORMAL, Speed.SLOW):
                combo.addItem(sp.value.title(), sp.value)
            if row is not None and row.declared is not None:
                combo.setCurrentIndex(combo.findData(row.declared.value))
            combo.setEnabled(
                stage == "declare"
                and row is not None
                and row.status.value not in ("out", "stunned", "surprised")
            )
            combo.activated.connect(
                lambda _i, cb=combo, k=c.id: (
                    cb.currentData() and self.declare_speed(k, Speed(cb.currentData()))
                )
            )
            table.setCellWidget(r, 2, combo)
            res = ""
            if row is not None and row.card_number is not None:
                res = "CF" if row.reflex_cf else str(row.reflex_result)
            ri = QTableWidgetItem(res)
            ri.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if row is not None and row.card_number is not None:
                ri.setToolTip(f"card {row.card_number}\n" + "\n".join(row.reflex_reasons))
            table.setItem(r, 3, ri)
            for k in range(4):
                text = ""
                item = QTableWidgetItem()
                if row is not None and row.bar is not None:
                    tn = row.bar[k]
                    text = str(tn)
                    if k + 1 in row.qualifying:
                        text += " ✓"
                    if row.phase == k + 1 and not row.hesitated:
                        item.setBackground(QBrush(_IN))
                        item.setFont(QFont("", -1, QFont.Weight.Bold))
                    item.setToolTip(
                        f"phase {_PHASES[k]}: TN {tn} on the {(row.bar_speed or row.declared or Speed.NORMAL).value} bar"
                        + (
                            " — click to act in this phase"
                            if k + 1 in row.qualifying and stage == "resolved"
                            else ""
                        )
                    )
                if current == k + 1 and not item.background().color().isValid():
                    item.setBackground(QBrush(_CUR))
                item.setText(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                table.setItem(r, 4 + k, item)
            status = ""
            if row is not None:
                if row.status.value != "active" and row.status.value != "waiting":
                    status = row.status.value
                elif row.hesitated:
                    status = "hesitates"
                elif row.acted:
                    status = "acted"
                elif row.delayed:
                    status = "delaying"
                elif row.waiting_for and stage == "declare":
                    status = "still waiting?"
                elif row.passed:
                    status = "passed"
                elif row.phase is not None:
                    status = f"phase {_PHASES[row.phase - 1]}"
            status_item = QTableWidgetItem(status)
            if row is not None and row.waiting_for:
                status_item.setToolTip(
                    f"waiting for: {row.waiting_for} — Keep waiting (Alt+K) or Stop waiting "
                    "(Alt+W) before the card is flipped (004 Delaying an Action)"
                )
            table.setItem(r, 8, status_item)
        if t is not None and stage == "acting":
            order = [st.rows[i].name for i in t.acting_order()]
            self.info.setText(
                f"Phase {_PHASES[st.phase - 1]}: " + (", ".join(order) or "nobody acts")
            )

    # -- hover and selection --------------------------------------------------------------
    def _row_hovered(self, r: int | None) -> None:
        if r == self._hover_row:
            return
        self._hover_row = r
        cid = self._row_ids[r] if r is not None and r < len(self._row_ids) else None
        self.hoverCharacter.emit(cid)
        view = find_map_view(self.document)
        if view is not None and hasattr(view, "highlight_token"):
            tok = self.document.token_for(cid) if cid else None
            view.highlight_token(tok.id if tok is not None else None, tok is not None)

    def _row_selected(self) -> None:
        cid = self.selected_character()
        t = self.stack.currentWidget()
        if cid is None or not t.selectedIndexes():  # type: ignore[union-attr]
            return
        tok = self.document.token_for(cid)
        if tok is not None and self.document.selected_token_id != tok.id:
            self.document.select(tok.id)

    def _hook_map(self) -> None:
        view = find_map_view(self.document)
        if view is None or view is self._hooked_view:
            return
        self._hooked_view = view
        sig = getattr(view, "hexHovered", None)
        if sig is not None:
            sig.connect(self._map_hovered)

    def _map_hovered(self, h) -> None:
        cid = None
        if h is not None:
            tok = self.document.encounter.token_at(h)
            cid = tok.character_id if tok is not None else None
        if cid != self._map_hover_cid:
            self._map_hover_cid = cid
            self._mark_rows()

    def set_map_hover(self, cid: str | None) -> None:
        """Mark ``cid``'s row as hovered on the map (what the map view's hover does)."""
        self._map_hover_cid = cid
        self._mark_rows()

    def _mark_rows(self) -> None:
        """Colour the name cell of the selected token's row and the map-hovered row
        (only the cells whose colour changes are touched)."""
        tok = self.document.selected_token()
        sel = tok.character_id if tok is not None else None
        table = self.stack.currentWidget()
        shown = self._marks.setdefault(id(table), {})  # (a new name cell drops its row's)
        hover = self._map_hover_cid
        for r, cid in enumerate(self._row_ids):
            mark = _HOVER if cid == hover else _SEL if cid == sel else None
            if shown.get(r, 0) is mark:
                continue
            item = table.item(r, 0)  # type: ignore[union-attr]
            if item is None:
                continue
            shown[r] = mark
            item.setBackground(QBrush(mark) if mark is not None else QBrush())

    def row_marked(self, cid: str) -> bool:
        """Whether ``cid``'s row is marked (selected or hovered on the map)."""
        if cid not in self._row_ids:
            return False
        item = self.stack.currentWidget().item(self._row_ids.index(cid), 0)  # type: ignore[union-attr]
        return item is not None and item.background().style() != Qt.BrushStyle.NoBrush


def _entries_by_character(st: Any) -> dict[str, list[Any]]:
    """The track's declared entries of each character, in order."""
    out: dict[str, list[Any]] = {}
    for e in st.entries if st is not None else ():
        out.setdefault(e.character_id, []).append(e)
    return out


def _same_colour(a: QColor | None, b: QColor | None) -> bool:
    """Two cell colours are the same (the track's colours are module constants: most
    comparisons are an identity)."""
    return a is b or (a is not None and b is not None and a == b)


def _row_marks(c: Character, row: Any, mine: list[Any]) -> tuple:
    """What a row's segment cells are drawn from, but the current segment: the IN
    marker, whether the character is out, the counters placed (segments ``lo`` to
    ``hi``, paid before ``paid_to``) and the actions declared by segment."""
    first = row.first_segment if row is not None else None
    marker = first if first is not None else (c.initiative if row is None else None)
    placed = row.placed if row is not None else 0
    if row is not None and first is not None and placed:
        lo, hi = first, first + placed
        paid_to = lo + placed - row.counters
    else:
        lo = hi = paid_to = 0
    out = row is not None and row.status.value in ("out", "stunned", "surprised")
    by_seg: dict[int, list[Any]] = {}
    for e in mine:
        by_seg.setdefault(e.segment, []).append(e)
    return (marker, out, lo, hi, paid_to, by_seg)


def _changed_segments(old: tuple, new: tuple) -> set[int]:
    """The segments whose cells differ between two :func:`_row_marks`."""
    if old[:2] != new[:2]:
        return set(range(1, SEGMENTS + 1))
    out = set()
    _m, _o, lo0, hi0, paid0, seg0 = old
    _m, _o, lo1, hi1, paid1, seg1 = new
    if (lo0, hi0, paid0) != (lo1, hi1, paid1):
        for s in range(max(1, min(lo0 or lo1, lo1 or lo0)), min(SEGMENTS, max(hi0, hi1)) + 1):
            a = 0 if not lo0 <= s < hi0 else 1 if s >= paid0 else 2
            b = 0 if not lo1 <= s < hi1 else 1 if s >= paid1 else 2
            if a != b:
                out.add(s)
    if seg0 != seg1:
        out.update(s for s in seg0.keys() | seg1.keys() if seg0.get(s) != seg1.get(s))
    return {s for s in out if 1 <= s <= SEGMENTS}


def _escape_ampersands(menu: QMenu) -> None:
    for act in menu.actions():
        text = act.text()
        if "&" in text and "&&" not in text:
            act.setText(text.replace("&", "&&"))
        if act.menu() is not None:
            _escape_ampersands(act.menu())


def _ap_cost(spec: A.ActionSpec) -> str:
    """What ``spec`` costs, as a menu line shows it."""
    return "all AP" if spec.all_ap else f"{spec.ap} AP"


def _short(reason: str) -> str:
    """An engine refusal trimmed for a menu line (the whole sentence is the tooltip)."""
    return reason.removesuffix(".").removesuffix("; nothing was removed")


def _quick_draw_pool(track, c: Character) -> str:
    """The Quick Draw pool the track will read for ``c`` (000 Determine Bonus)."""
    pool = getattr(track, "_quick_draw_pool", None)
    try:
        return str(pool(c)) if callable(pool) else f"{c.quick_draw} dice"
    except (RulesError, ValueError):
        return "—"


# =============================================================================
# Small dialogs
# =============================================================================


class ModifiersDialog(QDialog):
    """The Judge's stack modifiers for one action: gear, and wounds or the
    environment (000 Determine Bonus 1–2 name them but give no numbers)."""

    def __init__(self, parent: QWidget | None, entry=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Stack modifiers")
        form = QFormLayout(self)
        self.gear = QSpinBox()
        self.gear.setRange(-10, 10)
        self.environment = QSpinBox()
        self.environment.setRange(-10, 10)
        self.note = QLineEdit()
        self.note.setPlaceholderText("why (shown in the log)")
        if entry is not None:
            self.gear.setValue(entry.gear_modifier)
            self.environment.setValue(entry.environment_modifier)
            self.note.setText(entry.modifier_note)
        form.addRow("Gear", self.gear)
        form.addRow("Wounds / environment", self.environment)
        form.addRow("Note", self.note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[int, int, str]:
        return self.gear.value(), self.environment.value(), self.note.text().strip()


class ContinuousDialog(QDialog):
    """Start or change a continuous mover: a character riding or driving, or an
    automated mover the Judge names (a train, a runaway wagon). Shows how the round's
    paces are shared out before anything changes."""

    def __init__(
        self, parent: QWidget | None, document, track, mover_id: str | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Continuous mover")
        self.document = document
        self.phases = document.edition.time == "phases"
        movers = {m.mover_id: m for m in track.state.movers}
        form = QFormLayout(self)
        self.who = QComboBox()
        self.who.setEditable(True)
        self.who.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.who.lineEdit().setPlaceholderText("a character, or name a wagon or a train")
        for c in document.encounter.characters:
            self.who.addItem(c.name, c.id)
        for m in movers.values():
            if self.who.findData(m.mover_id) < 0:
                self.who.addItem(m.name, m.mover_id)
        self.paces = QSpinBox()
        self.paces.setRange(0, 999)
        self.paces.setSuffix(" paces a round")
        self.automated = QCheckBox("moved by the Judge (no rider)")
        self.skill = QSpinBox()
        self.skill.setRange(0, 10)
        self.skill.setToolTip("The rider's or driver's skill level (002)")
        self.handling = QSpinBox()
        self.handling.setRange(0, 10)
        self.handling.setToolTip("The mount's or vehicle's handling (002)")
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        form.addRow("Who", self.who)
        form.addRow("Movement", self.paces)
        form.addRow("", self.automated)
        if self.phases:
            form.addRow("Skill", self.skill)
            form.addRow("Handling", self.handling)
        form.addRow(self.preview)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._movers = movers
        self._matched: object = ()
        self.who.editTextChanged.connect(lambda _t: self._text_changed())
        for w in (self.paces, self.skill, self.handling):
            w.valueChanged.connect(lambda _v: self._update())
        self.automated.toggled.connect(lambda _on: self._update())
        i = self.who.findData(mover_id) if mover_id else -1
        self.who.setCurrentIndex(max(i, 0))
        self._text_changed()

    def _text_changed(self) -> None:
        """Picking (or typing) another name loads that mover's values."""
        mid = self._matched_id()
        if mid != self._matched:
            self._matched = mid
            self._picked()
        else:
            self._update()

    def _is_character(self) -> bool:
        cid = self._matched_id()
        return cid is not None and any(c.id == cid for c in self.document.encounter.characters)

    def _matched_id(self) -> str | None:
        text = self.who.currentText().strip()
        i = self.who.findText(text)
        return self.who.itemData(i) if i >= 0 else None

    def _picked(self) -> None:
        mid = self._matched_id()
        m = self._movers.get(mid) if mid else None
        self.paces.setValue(m.paces if m is not None else 0)
        self.automated.setChecked(bool(m.automated) if m is not None else not self._is_character())
        if m is not None and self.phases:
            self.skill.setValue(getattr(m, "skill", 0))
            self.handling.setValue(getattr(m, "handling", 0))
        self._update()

    def _update(self) -> None:
        is_char = self._is_character()
        if not is_char:
            self.automated.setChecked(True)
        self.automated.setEnabled(is_char)
        for w in (self.skill, self.handling):
            w.setEnabled(not self.automated.isChecked())
        paces = self.paces.value()
        if paces <= 0:
            self.preview.setText("0 paces: stops the mover.")
            return
        if self.phases:
            shares = split_evenly(paces, CONTINUOUS_STEPS)
            text = "After each phase: " + ", ".join(
                f"{roman(i + 1)} {n}" for i, n in enumerate(shares)
            )
            if not self.automated.isChecked():
                man = maneuver_phases(self.skill.value(), self.handling.value())
                ok = ", ".join(roman(i + 1) for i, on in enumerate(man) if on) or "none"
                text += f"; maneuvers after phase {ok} (002)"
            else:
                text += "; automated movers go first (002)"
        else:
            per = continuous_schedule(paces)
            text = (
                f"Per segment: {min(per)}–{max(per)} paces (segments 1–20: "
                + " ".join(str(n) for n in per)
                + "); before anyone acts, slowest Quickness first (000)"
            )
        self.preview.setText(text)

    def values(self) -> dict[str, Any]:
        """What the Judge chose: mover id, name, paces, automated, skill, handling."""
        text = self.who.currentText().strip()
        mid = self._matched_id()
        if mid is None:
            slug = "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")
            mid = f"mover_{slug or 'unnamed'}"
        is_char = self._is_character()
        return {
            "mover_id": mid,
            "name": None if is_char else (text or mid),
            "paces": self.paces.value() or None,
            "automated": self.automated.isChecked() or not is_char,
            "skill": self.skill.value(),
            "handling": self.handling.value(),
        }


__all__ = [
    "ContinuousDialog",
    "ModifiersDialog",
    "TrackPanel",
]
