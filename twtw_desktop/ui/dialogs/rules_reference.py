"""Help ▸ Rules reference: "does the app know about X?" in two clicks.

Every section of the five seed pages with how the app handles it (a table action, a
panel, automatically, a house value, partly, or not at all — and why), the table
actions with their seed pages and the editions' house values; the same text as
``twtw-desktop rules`` (:mod:`twtw_desktop.play.rules_reference`). A filter box keeps
the sections whose heading or handling mention a word.
"""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ...play.rules_reference import KIND_LABELS, reference_entries, summary_counts

HELP_MENU = "help_menu"


def reference_html(words: str = "") -> str:
    """The reference as HTML; with ``words``, only the entries mentioning them."""
    wanted = words.strip().lower()
    blocks: list[tuple[int, str, list[str]]] = []
    for level, text in reference_entries():
        if level <= 2:
            blocks.append((level, text, []))
        elif blocks:
            blocks[-1][2].append(text)
    out: list[str] = []
    for level, text, details in blocks:
        if level == 2 and wanted and wanted not in " ".join([text, *details]).lower():
            continue
        if level == 0:
            out.append(f"<h2>{escape(text)}</h2>")
        elif level == 1:
            out.append(f"<h3>{escape(text)}</h3>")
        else:
            lines = "".join(f"<br>&nbsp;&nbsp;{escape(d)}" for d in details)
            out.append(f"<p><b>{escape(text)}</b>{lines}</p>")
    return "\n".join(out)


class RulesReferenceDialog(QDialog):
    """The reference, with a filter."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Rules reference")
        self.setObjectName("rules_reference")
        self.resize(760, 640)
        lay = QVBoxLayout(self)
        counts = summary_counts()
        total = sum(counts.values())
        tally = ", ".join(f"{n} {KIND_LABELS[k]}" for k, n in counts.items() if n)
        head = QLabel(f"The five seed pages: {total} sections — {tally}.")
        head.setWordWrap(True)
        lay.addWidget(head)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: a rule, an action, a word…")
        self.filter.setClearButtonEnabled(True)
        lay.addWidget(self.filter)
        self.view = QTextBrowser()
        self.view.setObjectName("rules_reference_text")
        lay.addWidget(self.view, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.filter.textChanged.connect(self.show_words)
        self.show_words("")

    def show_words(self, words: str) -> None:
        self.view.setHtml(reference_html(words))


def help_menu(window) -> QMenu:
    """The window's Help menu: found by its object name or title, else made."""
    bar = window.menuBar()
    for act in bar.actions():
        menu = act.menu()
        if isinstance(menu, QMenu) and (
            menu.objectName() == HELP_MENU or menu.title().replace("&", "") == "Help"
        ):
            return menu
    menu = bar.addMenu("&Help")
    menu.setObjectName(HELP_MENU)
    return menu


def install_rules_reference(window) -> QAction:
    """Help ▸ Rules reference… on ``window``."""
    act = QAction("&Rules reference…", window)
    act.setObjectName("act_rules_reference")
    act.setStatusTip("Every section of the seed pages and how the app handles it")

    def show() -> None:
        RulesReferenceDialog(window).exec()

    act.triggered.connect(show)
    menu = help_menu(window)
    about = next((a for a in menu.actions() if a.text().replace("&", "").startswith("About")), None)
    if about is not None:
        menu.insertAction(about, act)  # About stays last
    else:
        menu.addAction(act)
    window.act_rules_reference = act
    return act
