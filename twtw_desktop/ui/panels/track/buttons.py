"""The track's tool bar: its buttons, their drop-downs and their keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .host import TrackHost
from .menus import _escape_ampersands

# The tool bar's buttons, in their order: (name, label, tooltip, target). Each makes
# ``TrackHost.<name>_button``; a target ``_build_*`` makes a drop-down (``<name>_menu``)
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
        "end",
        "End round",
        "End the round. AP v2: unused AP are lost (000 Ending the Round). Phases: the "
        "phases left are closed in turn, their continuous steps run, and whoever has "
        "not acted has passed (004 Taking Actions)",
        "end_round",
    ),
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


# -- buttons and shortcuts -----------------------------------------------------------
def _button(panel: TrackHost, text: str, tip: str, slot: Callable[[], Any]) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.clicked.connect(lambda _=False: slot())
    panel._bar_actions[b] = panel.button_bar.addWidget(b)
    return b


def _menu_button(
    panel: TrackHost, text: str, tip: str, build: Callable[[], None]
) -> tuple[QToolButton, QMenu]:
    b = QToolButton()
    b.setText(text)
    b.setToolTip(tip)
    b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(b)
    menu.setToolTipsVisible(True)
    menu.aboutToShow.connect(lambda: fill_menu(menu, build))
    b.setMenu(menu)
    panel._bar_actions[b] = panel.button_bar.addWidget(b)
    return b, menu


def fill_menu(menu: QMenu, build: Callable[[], None]) -> None:
    """Build ``menu`` afresh; names from the sheets and the gear catalog keep their
    "&" (Smith & Wesson), which menus would otherwise take for a mnemonic."""
    build()
    _escape_ampersands(menu)


def _shortcut(panel: TrackHost, key: str, buttons: tuple[QAbstractButton, ...]) -> None:
    """One window-wide key for the button(s) (only one of them is shown in each
    edition); the key is added to their tooltips."""
    sc = QShortcut(QKeySequence(key), panel.widget)
    sc.setContext(Qt.ShortcutContext.WindowShortcut)
    sc.activated.connect(lambda: panel.press(key))
    panel._shortcuts[key] = sc
    panel._shortcut_buttons[key] = buttons
    for b in buttons:
        b.setToolTip(f"{b.toolTip()} ({key})")


def press(panel: TrackHost, key: str) -> bool:
    """What the shortcut ``key`` does: click (or open the menu of) the shown,
    enabled button it stands for. Returns whether anything was pressed."""
    for b in panel._shortcut_buttons.get(key, ()):
        if not panel.shown(b) or not b.isEnabled():
            continue
        if isinstance(b, QToolButton) and b.menu() is not None:
            if b.isVisible():
                b.showMenu()
            else:  # in the tool bar's overflow: open the menu under the bar
                bar = panel.button_bar
                b.menu().popup(bar.mapToGlobal(bar.rect().bottomRight()))
        else:
            b.click()
        return True
    return False


def shown(panel: TrackHost, button: QWidget) -> bool:
    """Whether ``button`` belongs to this edition's buttons (it may sit in the tool
    bar's overflow menu when the dock is narrow)."""
    act = panel._bar_actions.get(button)
    return act.isVisible() if act is not None else not button.isHidden()


def _show(panel: TrackHost, button: QWidget, on: bool) -> None:
    act = panel._bar_actions.get(button)
    if act is not None:
        act.setVisible(on)
    else:
        button.setVisible(on)


def _bind_keys(panel: TrackHost) -> None:
    """The panel's keys: each presses the first of its buttons that shows."""
    panel._shortcuts = {}
    panel._shortcut_buttons = {}
    for key, keyed in (
        ("F5", (panel.start_button,)),
        ("F6", (panel.due_button, panel.phase_button)),
        ("Shift+F6", (panel.next_button,)),
        ("F7", (panel.declare_button, panel.act_button)),
        ("F8", (panel.resolve_button, panel.flip_button)),
        ("F9", (panel.end_button,)),
        ("Alt+D", (panel.delay_button,)),
        ("Alt+J", (panel.join_button,)),
        ("Alt+R", (panel.rush_button,)),
        ("Alt+Q", (panel.bonus_button,)),
        ("Alt+S", (panel.surprise_button,)),
        ("Alt+C", (panel.movers_button,)),
        ("Alt+I", (panel.interrupt_button,)),
        ("Alt+K", (panel.keep_button,)),
        ("Alt+W", (panel.stop_button,)),
    ):
        panel._shortcut(key, keyed)
    panel._rush_tip = panel.rush_button.toolTip()
    panel._movers_tip = panel.movers_button.toolTip()


def _build_bar(panel: TrackHost, lay: QVBoxLayout) -> None:
    """The top row (``panel.head``): the status, the tool bar's buttons and their
    drop-downs. In the window it is the dock's title bar (ui/dock_title.py)."""
    panel.head = QWidget()
    top = QHBoxLayout(panel.head)
    top.setContentsMargins(0, 0, 0, 0)
    top.setSpacing(3)
    panel.status = QLabel()
    panel.status.setStyleSheet("font-size: 14px; font-weight: bold;")
    top.addWidget(panel.status)
    top.addStretch(1)
    # the buttons live in a tool bar: too narrow a dock moves the last ones into its
    # "»" menu instead of widening the window past a laptop screen
    panel.button_bar = QToolBar()
    panel.button_bar.setObjectName("track_buttons")
    panel.button_bar.setMovable(False)
    panel.button_bar.setFloatable(False)
    panel.button_bar.setStyleSheet("QToolBar { border: 0px; spacing: 3px; padding: 0px; }")
    panel._bar_actions = {}
    top.addWidget(panel.button_bar)
    # a short toggle (the Encounter menu has the long forms): checked in action time
    panel.action_button = QToolButton()
    panel.action_button.setText("Action time")
    panel.action_button.setCheckable(True)
    panel.action_button.setToolTip(
        "Pressed: action time (rounds on the track). Press to declare action time, "
        "release to go back to narrative time"
    )
    panel.action_button.clicked.connect(lambda _=False: panel.toggle_action_time())
    panel._bar_actions[panel.action_button] = panel.button_bar.addWidget(panel.action_button)
    for name, text, tip, target in _BAR_BUTTONS:
        button: QAbstractButton
        if target.startswith("_build_"):
            button, menu = panel._menu_button(text, tip, getattr(panel, target))
            setattr(panel, f"{name}_menu", menu)
        else:
            button = panel._button(text, tip, _caller(panel, target))
        setattr(panel, f"{name}_button", button)
    lay.addWidget(panel.head)


def _caller(panel: TrackHost, target: str) -> Callable[[], Any]:
    """What a bar button's click calls: the panel method named ``target``, looked up
    at the click (without arguments)."""
    return lambda: getattr(panel, target)()
