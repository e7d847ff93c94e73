"""The right-click menu of a token, on the map and on its track row.

Hide it from the players or reveal it (one undoable, logged step; Ctrl+Shift+H),
ring its hex on the players' screen (a ping, as Shift+P does on the hex under the
mouse),
the Judge's override (counters given or taken, the token taken off the map, with a
reason the log keeps), first aid for the character (001 Healing), the bonus
counters (002, the session's end losing them), putting a weapon away, and the
steps of :mod:`.rules_menu` (a Phases action at once, a maneuver, giving up a skill). In action time, covering fire and the Bravery check under
fire (:mod:`.cover_menu`); with the risk rule on, the Hero's risk of death.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from ...play.bonus_actions import (
    SPENDS,
    GiveCounter,
    LoseCounters,
    SpendCounter,
    TakeCounter,
    counters_free,
)
from ...play.entangle_actions import BreakFree, Entangle, entangling_weapon
from ..core.commands import HIDE_TOKEN_SHORTCUT, PING_KEY, toggle_token_hidden
from ..dialogs.care_dialog import first_aid_action
from ..dialogs.judge_dialog import judge_override
from .cover_menu import cover_menu_actions, risk_action
from .rules_menu import rules_menu_actions, table_entry


def token_menu_action(parent: Any, document: Any, token_id: str) -> QAction:
    """The "Hide from the players" / "Reveal to the players" entry."""
    hidden = document.token(token_id).hidden
    act = QAction("Reveal to the players" if hidden else "Hide from the players", parent)
    act.setShortcut(QKeySequence(HIDE_TOKEN_SHORTCUT))
    act.setObjectName("act_token_toggle_hidden")
    act.triggered.connect(lambda: toggle_token_hidden(document, token_id))
    return act


def ping_action(parent: Any, document: Any, token_id: str) -> QAction:
    """The "Ring this hex on the players' screen" entry (Shift+P on the hex under
    the mouse; Alt+click, where the window manager leaves it to the app)."""
    act = QAction("Ring this hex on the players' screen", parent)
    act.setShortcut(QKeySequence(PING_KEY))
    act.setObjectName("act_token_ping")
    act.setStatusTip("Ring the token's hex on the players' screen and devices for two seconds")
    act.triggered.connect(lambda: document.show_players("ping", document.token(token_id).at))
    return act


def judge_action(parent: Any, document: Any, who: str) -> QAction:
    """The "Judge's override…" entry (a token or a character id)."""
    act = QAction("Judge's override…", parent)
    act.setObjectName("act_judge_override")
    act.setStatusTip("Give or take counters, take the token off the map — with a reason")
    act.triggered.connect(lambda: judge_override(document, who))
    return act


def bonus_menu(parent: Any, document: Any, who: str) -> QMenu:
    """The "Bonus counter" submenu (002): take one with a bump, spend it on a result,
    or hand it to another player (I've got your back!)."""
    c = document.table.actor(who)[0]
    held = "holds one" if c.bonus_counter else "holds none"
    menu = QMenu(f"Bonus counter ({held}; {counters_free(document.table)} in the pool)", parent)
    menu.setObjectName("menu_bonus_counter")
    menu.setToolTipsVisible(True)
    table_entry(menu, document, "Take one (a bump spent on it)", TakeCounter(who=c.id))
    for key, (name, value, where) in SPENDS.items():
        table_entry(
            menu,
            document,
            f"Spend: {name} +{value} ({where})",
            SpendCounter.model_validate({"who": c.id, "spend": key}),
        )
    give = menu.addMenu("I've got your back! — hand it to")
    for other in document.encounter.characters:
        if other.id != c.id and other.side == c.side:
            table_entry(give, document, other.name, GiveCounter(who=c.id, to=other.id))
    menu.addSeparator()
    table_entry(
        menu, document, "The session ends: unspent counters are lost", LoseCounters()
    ).setObjectName("act_lose_counters")
    return menu


def entangle_menu(parent: Any, document: Any, who: str) -> QMenu | None:
    """003 Entanglement: "Entangle with the …" and "Trip with the …" (targets within
    the weapon's reach) for a figure with a lasso or net in hand, "Break free" for an
    entangled one."""
    table = document.table
    c, tok = table.actor(who)
    if tok is None:
        return None
    found = entangling_weapon(table, c)
    if found is None and tok.entangled_by is None:
        return None
    menu = QMenu("Entanglement (003)", parent)
    menu.setObjectName("menu_entangle")
    menu.setToolTipsVisible(True)
    if tok.entangled_by is not None:
        table_entry(menu, document, "Break free", BreakFree(who=c.id))
    if found is not None:
        for verb, trip in (("Entangle", False), ("Trip", True)):
            sub = menu.addMenu(f"{verb} with the {found[1].name}")
            for other in document.encounter.tokens:
                if other.id != tok.id:
                    name = table.character_of(other.id).name
                    act = Entangle(who=c.id, target=other.id, trip=trip)
                    table_entry(sub, document, name, act)
    return menu


def token_menu_actions(parent: Any, document: Any, token_id: str | None, who: str) -> list:
    """Every entry of a token's (or a token-less character's) menu."""
    out = [] if token_id is None else [token_menu_action(parent, document, token_id)]
    out.append(judge_action(parent, document, token_id or who))
    out.append(first_aid_action(parent, document, token_id or who))
    if token_id is not None:
        out.append(ping_action(parent, document, token_id))
    menus = [entangle_menu(parent, document, token_id or who)]
    if document.encounter.options.bonus_pool:
        menus.append(bonus_menu(parent, document, token_id or who))
    for menu in menus:
        if menu is not None:
            act = menu.menuAction()
            act.sub_menu = menu  # type: ignore[attr-defined]  # alive with its entry
            out.append(act)
    out += rules_menu_actions(parent, document, token_id or who)
    out += cover_menu_actions(parent, document, token_id or who)
    risk = risk_action(parent, document, token_id or who)
    if risk is not None:
        out.append(risk)
    return out
