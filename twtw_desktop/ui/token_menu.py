"""The right-click menu of a token, on the map and on its track row.

Hide it from the players or reveal it (one undoable, logged step; Ctrl+Shift+H), and
the Judge's override (counters given or taken, the token taken off the map, with a
reason the log keeps). In action time, covering fire and the Bravery check under
fire (:mod:`.cover_menu`); with the risk rule on, the Hero's risk of death.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QAction, QKeySequence

from .commands import HIDE_TOKEN_SHORTCUT, toggle_token_hidden
from .cover_menu import cover_menu_actions, risk_action
from .judge_dialog import judge_override


def token_menu_action(parent: Any, document: Any, token_id: str) -> QAction:
    """The "Hide from the players" / "Reveal to the players" entry."""
    hidden = document.token(token_id).hidden
    act = QAction("Reveal to the players" if hidden else "Hide from the players", parent)
    act.setShortcut(QKeySequence(HIDE_TOKEN_SHORTCUT))
    act.setObjectName("act_token_toggle_hidden")
    act.triggered.connect(lambda: toggle_token_hidden(document, token_id))
    return act


def judge_action(parent: Any, document: Any, who: str) -> QAction:
    """The "Judge's override…" entry (a token or a character id)."""
    act = QAction("Judge's override…", parent)
    act.setObjectName("act_judge_override")
    act.setStatusTip("Give or take counters, take the token off the map — with a reason")
    act.triggered.connect(lambda: judge_override(document, who))
    return act


def token_menu_actions(parent: Any, document: Any, token_id: str | None, who: str) -> list:
    """Every entry of a token's (or a token-less character's) menu."""
    out = [] if token_id is None else [token_menu_action(parent, document, token_id)]
    out.append(judge_action(parent, document, token_id or who))
    out += cover_menu_actions(parent, document, token_id or who)
    risk = risk_action(parent, document, token_id or who)
    if risk is not None:
        out.append(risk)
    return out
