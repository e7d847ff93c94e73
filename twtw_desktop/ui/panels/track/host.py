"""What the parts under track/ may use of the panel (TrackPanel): its state, its
widgets and its handlers. The parts take the panel typed as this, so none of them
imports the panel (whose module imports them) and mypy checks that the panel fits."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QColor, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableWidget,
    QToolBar,
    QToolButton,
    QWidget,
)

from ....rules import actions as A
from ....rules.base import Speed
from ....rules.character import Character
from .._common import MessageLabel
from .widgets import _InfoLabel, _OnResize, _TrackTable


class TrackHost(Protocol):
    body: QBoxLayout
    #: each table's name widths by row, noted as they are drawn (track/fit.py)
    _name_widths: dict[int, dict[int, int]]
    _bar_actions: dict[QWidget, Any]
    _catch_up_filter: _OnResize
    _cells: dict[int, dict[tuple[int, int], tuple[Any, ...]]]
    _hooked_view: Any
    _hover_row: int | None
    _map_hover_cid: str | None
    _marks: dict[int, dict[int, QColor | None]]
    _movers_tip: str
    _row_ids: list[str]
    #: (round, phase, whose turn) last selected for the Judge (track/phase_rows.py)
    _followed: tuple[int, int, str] | None
    _row_sigs: dict[int, tuple[Any, ...]]
    _rush_tip: str
    _shortcut_buttons: dict[str, tuple[QAbstractButton, ...]]
    _shortcuts: dict[str, QShortcut]
    _shown_header: int | None
    _shown_running: bool
    _shown_seg: int
    _stale_rows: set[int]
    act_button: QPushButton
    action_button: QToolButton
    ap_table: _TrackTable
    bonus_button: QToolButton
    bonus_menu: QMenu
    button_bar: QToolBar
    declare_button: QToolButton
    declare_menu: QMenu
    delay_button: QPushButton
    document: Any
    due_button: QPushButton
    end_button: QPushButton
    flip_button: QPushButton
    hoverCharacter: SignalInstance
    info: _InfoLabel
    interrupt_button: QToolButton
    interrupt_menu: QMenu
    join_button: QToolButton
    join_menu: QMenu
    keep_button: QPushButton
    last_event: Any
    message: MessageLabel
    movers_button: QToolButton
    movers_menu: QMenu
    next_button: QPushButton
    ph_table: _TrackTable
    phase_button: QPushButton
    resolve_button: QPushButton
    rush_button: QToolButton
    rush_menu: QMenu
    stack: QStackedWidget
    start_button: QPushButton
    status: QLabel
    head: QWidget
    stop_button: QPushButton
    surprise_button: QToolButton
    surprise_menu: QMenu

    @property
    def widget(self) -> QWidget: ...
    def width(self) -> int: ...
    def isVisible(self) -> bool: ...
    @property
    def phases(self) -> bool: ...
    @property
    def track(self) -> Any: ...
    def _ask_modifiers(self, cid: str) -> None: ...
    def _button(self, text: str, tip: str, slot: Callable[[], Any]) -> QPushButton: ...
    def _catch_up(self) -> None: ...
    def _chars(self) -> list[Character]: ...
    def _declaration_actions(self, cid: str, parent) -> list: ...
    def _declare_other(self, cid: str) -> None: ...
    def _do(self, action: Any) -> bool: ...
    def _draw_ap_rows(
        self, rows: Iterable[int], chars: list[Character], st: Any, by_char: dict[str, list[Any]]
    ) -> None: ...
    def _fill_actions(
        self,
        menu: QMenu,
        cid: str,
        cost: Callable[[A.ActionSpec], str],
        refusal: Callable[[A.ActionSpec], str],
        go: Callable[[str, A.ActionSpec], bool],
        reason_tip: bool = ...,
    ) -> None: ...
    def _make_table(self, cols: int) -> _TrackTable: ...
    def _map_hovered(self, h) -> None: ...
    def _mark_rows(self) -> None: ...
    def _menu_button(
        self, text: str, tip: str, build: Callable[[], None]
    ) -> tuple[QToolButton, QMenu]: ...
    def _menu_head(self, menu: QMenu) -> str | None: ...
    def _menu_track(
        self, menu: QMenu, engine_step: str, missing: str
    ) -> tuple[str, Any] | None: ...
    def _note(self, menu: QMenu, text: str) -> None: ...
    def _phase_cell_clicked(self, r: int, c: int) -> None: ...
    def _put(
        self,
        table: QTableWidget,
        r: int,
        c: int,
        text: str,
        tip: str = ...,
        bg: QColor | None = ...,
        *,
        center: bool = ...,
        bold: bool = ...,
        cache: dict[tuple[int, int], tuple] | None = ...,
    ) -> None: ...
    def _shortcut(self, key: str, buttons: tuple[QAbstractButton, ...]) -> None: ...
    def _typed_cards(self, keys: list[tuple[str, str]]) -> dict | None: ...
    def _visible_rows(self, n: int) -> range | None: ...
    def _waiting_character(self) -> str | None: ...
    def _waiting_step(self, cid: str | None, what: str, make: Callable[[str], Any]) -> bool: ...
    def _why(self, action: Any) -> str: ...
    def buy_stack_bonus(self, cid: str, ap: int) -> bool: ...
    def choose_phase(self, cid: str, phase: int) -> bool: ...
    def clear_standing(self, cid: str) -> bool: ...
    def declare(self, cid: str, spec: A.ActionSpec) -> bool: ...
    def declare_speed(self, cid: str, speed: Speed) -> bool: ...
    def delay(
        self, cid: str | None = ..., circumstance: str | None = ..., ask: bool = ...
    ) -> bool: ...
    def edit_mover(self, mover_id: str | None = ...) -> bool: ...
    def interrupt(self, cid: str | None = ..., against: str | None = ...) -> bool: ...
    def join_stack(self, cid: str, spec: A.ActionSpec) -> bool: ...
    def pass_turn(self, cids: list[str]) -> bool: ...
    def press(self, key: str) -> bool: ...
    def quick_draw(self, cid: str) -> bool: ...
    def row_menu_actions(self, table: QTableWidget, pos, parent) -> list: ...
    def rush(self, cid: str, spec: A.ActionSpec) -> bool: ...
    def selected_character(self) -> str | None: ...
    def set_continuous(
        self,
        mover_id: str,
        paces: int | None,
        *,
        name: str | None = ...,
        automated: bool = ...,
        skill: int = ...,
        handling: int = ...,
    ) -> bool: ...
    def set_stack_modifiers(
        self, cid: str, gear: int = ..., environment: int = ..., note: str = ...
    ) -> bool: ...
    def shown(self, button: QWidget) -> bool: ...
    def stack_entry(self, cid: str): ...
    def surprise(self, cids: list[str] | str, expecting_danger: bool) -> bool: ...
    def toggle_action_time(self) -> bool: ...
    def wait_until(self, cid: str, counters: int | None = ...) -> bool: ...
    def free_action(self, cid: str, what: str | None = ...) -> bool: ...
