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

Phases: the speed each character declares (typed on the row: 1/F, 2/N, 3/S —
track/speed_keys.py), the initiative card's bar, everyone's Reflex result and the
phases it reaches (the chosen one marked), with Start round (F5), Flip card (F8),
Next phase (F6: past every phase nobody acts in, 004 Taking Actions), Act (F7), Delay
(Alt+D), Interrupt (Alt+I: a delaying character's Reflex contest at −2), Keep waiting
(Alt+K) and Stop waiting (Alt+W) for a circumstance still unmet from last round (004
Delaying an Action), End round (F9). Each key means one thing in both editions.

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

from typing import Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...rules.character import Character
from ._common import MessageLabel
from .track import ap_rows, buttons, fit, marks, menus, phase_rows, phase_steps, steps
from .track.dialogs import (
    ContinuousDialog,
    ModifiersDialog,
)
from .track.fit import compact
from .track.widgets import (
    SEGMENTS,
    _InfoLabel,
    _OnResize,
    _RowHover,
    _TrackTable,
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

    # built by the parts (track/buttons.py: the top row and the keys; track/ap_rows.py
    # and track/phase_rows.py: the two tables)
    head: QWidget
    status: QLabel
    button_bar: QToolBar
    action_button: QToolButton
    _bar_actions: dict[QWidget, Any]
    _shortcuts: dict[str, QShortcut]
    _shortcut_buttons: dict[str, tuple[QAbstractButton, ...]]
    _rush_tip: str
    _movers_tip: str
    ap_table: _TrackTable
    ph_table: _TrackTable
    #: AP rows out of view at the last refresh, drawn when they come into view
    _stale_rows: set[int]
    _catch_up_filter: _OnResize
    # the tool bar's buttons (track/buttons.py _BAR_BUTTONS): a click calls the panel
    start_button: QPushButton
    due_button: QPushButton
    next_button: QPushButton
    resolve_button: QPushButton
    end_button: QPushButton
    flip_button: QPushButton
    phase_button: QPushButton
    act_button: QPushButton
    delay_button: QPushButton
    keep_button: QPushButton
    stop_button: QPushButton
    # ... or opens its drop-down, filled afresh each time
    declare_button: QToolButton
    declare_menu: QMenu
    join_button: QToolButton
    join_menu: QMenu
    rush_button: QToolButton
    rush_menu: QMenu
    bonus_button: QToolButton
    bonus_menu: QMenu
    interrupt_button: QToolButton
    interrupt_menu: QMenu
    surprise_button: QToolButton
    surprise_menu: QMenu
    movers_button: QToolButton
    movers_menu: QMenu

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("TrackPanel")
        self._row_ids: list[str] = []
        self._followed: tuple[int, int, str] | None = None
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
        self._name_widths: dict[int, dict[int, int]] = {}
        #: the colour :meth:`_mark_rows` gave each row's name cell, per table
        self._marks: dict[int, dict[int, QColor | None]] = {}

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(3)
        self._build_bar(lay)
        self._bind_keys()
        self.stack = QStackedWidget()
        self.stack.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Expanding)
        self._build_ap_table()
        self.stack.addWidget(self.ap_table)
        self._build_phase_table()
        # the line under the track sits beside the table, where it wraps (under it in a
        # narrow dock: track/fit.py)
        self.info = _InfoLabel()
        self.message = MessageLabel()
        side = QVBoxLayout()
        side.setSpacing(3)
        side.addWidget(self.info, 1)
        side.addWidget(self.message)
        self.body = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.body.setSpacing(6)
        self.body.addWidget(self.stack)
        self.body.addLayout(side, 1)
        lay.addLayout(self.body, 1)

        self._hover_filters = [
            _RowHover(self.ap_table, self._row_hovered),
            _RowHover(self.ph_table, self._row_hovered),
        ]
        document.changed.connect(self._on_changed)
        document.characterChanged.connect(self._on_character)
        document.selectionChanged.connect(lambda _t: self._mark_rows())
        self.refresh()

    def sizeHint(self) -> QSize:
        # as short as its rows in view allow (track/fit.py): the map keeps the rest
        return QSize(900, self.minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()  # a horizontal scroll bar may come or go

    # The handlers of each part: functions of the panel, one idea a file under track/
    _fit = fit._fit
    _arrange = fit._arrange
    _button = buttons._button
    _menu_button = buttons._menu_button
    fill_menu = staticmethod(buttons.fill_menu)
    _shortcut = buttons._shortcut
    press = buttons.press
    shown = buttons.shown
    _show = buttons._show

    def _make_table(self, cols: int) -> _TrackTable:
        t = _TrackTable(0, cols)
        t.verticalHeader().hide()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        compact(t)  # every row in view on a laptop (track/fit.py)
        t.itemSelectionChanged.connect(self._row_selected)
        t.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        t.customContextMenuRequested.connect(lambda p, t=t: self._row_menu(t, p))
        return t

    _row_menu = menus._row_menu
    row_menu_actions = menus.row_menu_actions
    _declaration_actions = menus._declaration_actions
    _build_declare_menu = menus._build_declare_menu
    _declare_other = menus._declare_other
    _fill_actions = menus._fill_actions
    _menu_head = menus._menu_head
    _note = menus._note
    _menu_track = menus._menu_track
    _build_join_menu = menus._build_join_menu
    _build_rush_menu = menus._build_rush_menu
    _build_bonus_menu = menus._build_bonus_menu
    _ask_modifiers = menus._ask_modifiers
    _build_surprise_menu = menus._build_surprise_menu
    _build_movers_menu = menus._build_movers_menu
    _build_interrupt_menu = menus._build_interrupt_menu

    def dock_head(self) -> QWidget:
        """The top row, for the dock to carry as its title bar (ui/dock_title.py):
        taken out of the panel, the rows get its height."""
        return self.head

    # -- state -----------------------------------------------------------------------
    @property
    def widget(self) -> QWidget:
        """The panel as a widget: the parent of its parts' dialogs, menus and keys."""
        return self

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

    _do = steps._do
    _why = steps._why
    toggle_action_time = steps.toggle_action_time
    _typed_cards = steps._typed_cards
    start_round = steps.start_round
    next_segment = steps.next_segment
    next_due = steps.next_due
    pass_turn = steps.pass_turn
    clear_standing = steps.clear_standing
    wait_until = steps.wait_until
    declare = steps.declare
    resolve_stack = steps.resolve_stack
    end_round = steps.end_round
    join_stack = steps.join_stack
    rush = steps.rush
    stack_entry = steps.stack_entry
    quick_draw = steps.quick_draw
    buy_stack_bonus = steps.buy_stack_bonus
    set_stack_modifiers = steps.set_stack_modifiers
    surprise = steps.surprise
    edit_mover = steps.edit_mover
    set_continuous = steps.set_continuous
    declare_speed = steps.declare_speed

    flip_card = phase_steps.flip_card
    choose_phase = phase_steps.choose_phase
    next_phase = phase_steps.next_phase
    act = phase_steps.act
    delay = phase_steps.delay
    _delay_asking = phase_steps._delay_asking
    _waiting_character = phase_steps._waiting_character
    _waiting_step = phase_steps._waiting_step
    keep_waiting = phase_steps.keep_waiting
    stop_waiting = phase_steps.stop_waiting
    interrupt = phase_steps.interrupt
    free_action = phase_steps.free_action
    _phase_cell_clicked = phase_steps._phase_cell_clicked

    # -- view ------------------------------------------------------------------------------
    def _on_changed(self, area: str) -> None:
        if area in ("track", "mode", "characters", "all", "file"):
            self.refresh()

    def _on_character(self, _cid: str) -> None:
        # a table step names its changed characters one by one, then "characters":
        # one refresh for the step, not one per figure
        if not self.document.announcing_step:
            self.refresh()

    def refresh(self) -> None:
        shown = self.ph_table if self.phases else self.ap_table
        if self.stack.currentWidget() is not shown:
            self.stack.setCurrentWidget(shown)
            # the stack as wide as the table shown (a stacked layout leaves out an
            # Ignored widget): the Phases table's width, not the AP table's 24 columns
            for t in (self.ap_table, self.ph_table):
                h = QSizePolicy.Policy.Maximum if t is shown else QSizePolicy.Policy.Ignored
                t.setSizePolicy(h, QSizePolicy.Policy.Expanding)
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
        self._fit()

    def _chars(self) -> list[Character]:
        return list(self.document.encounter.characters)

    _refresh_ap = ap_rows._refresh_ap
    _draw_ap_rows = ap_rows._draw_ap_rows
    _visible_rows = ap_rows._visible_rows
    _catch_up = ap_rows._catch_up
    _segment_cell = staticmethod(ap_rows._segment_cell)
    _put = ap_rows._put

    _refresh_phases = phase_rows._refresh_phases

    _row_hovered = marks._row_hovered
    _row_selected = marks._row_selected
    _hook_map = marks._hook_map
    _map_hovered = marks._map_hovered
    set_map_hover = marks.set_map_hover
    _mark_rows = marks._mark_rows
    row_marked = marks.row_marked

    _build_phase_table = phase_rows._build_phase_table

    _build_ap_table = ap_rows._build_ap_table

    _build_bar = buttons._build_bar
    _bind_keys = buttons._bind_keys


__all__ = [
    "SEGMENTS",
    "ContinuousDialog",
    "ModifiersDialog",
    "TrackPanel",
]
