"""Small pieces shared by the side panels."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget

from ...errors import RulesError

#: Errors a panel shows the Judge inline instead of raising (the command changed nothing).
USER_ERRORS = (RulesError, ValueError, KeyError)


class MessageLabel(QLabel):
    """A one-line (wrapping) message under a form: red for refusals, grey for notes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()

    def error(self, text: str) -> None:
        self.setStyleSheet("color: #b00020; font-weight: bold;")
        self.setText(text)
        self.setVisible(bool(text))

    def note(self, text: str) -> None:
        self.setStyleSheet("color: #555;")
        self.setText(text)
        self.setVisible(bool(text))

    def clear(self) -> None:
        super().clear()
        self.hide()


def error_text(exc: BaseException) -> str:
    """The sentence a Judge should read for a refused request."""
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    return str(exc) or type(exc).__name__


def attempt(label: MessageLabel | None, action: Callable[[], Any]) -> bool:
    """Run ``action``; on a refusal show the reason in ``label`` and return False."""
    try:
        action()
    except USER_ERRORS as e:
        if label is not None:
            label.error(error_text(e))
        return False
    if label is not None:
        label.clear()
    return True


def hline() -> QFrame:
    f = QFrame()
    f.setFrameShape(QFrame.Shape.HLine)
    f.setFrameShadow(QFrame.Shadow.Sunken)
    return f


def format_detail(detail: Any, limit: int = 60) -> str:
    """A readable, indented text of a log entry's record (for tooltips and dialogs).

    Lists of reasons print one per line; ``limit`` caps the number of lines for a
    tooltip (0 = no cap)."""
    lines: list[str] = []

    def walk(value: Any, indent: int, key: str | None) -> None:
        pad = "  " * indent
        head = f"{pad}{key}: " if key is not None else pad
        if isinstance(value, dict):
            if not value:
                return
            if key is not None:
                lines.append(f"{pad}{key}:")
            for k, v in value.items():
                if v in (None, (), [], {}, "") or k.startswith("_"):
                    continue
                walk(v, indent + (1 if key is not None else 0), str(k))
        elif isinstance(value, list | tuple):
            if all(not isinstance(v, dict | list | tuple) for v in value):
                if value and all(isinstance(v, str) for v in value) and len(value) > 1:
                    lines.append(f"{pad}{key}:" if key is not None else pad)
                    lines.extend(f"{pad}  • {v}" for v in value)
                else:
                    lines.append(head + ", ".join(_scalar(v) for v in value))
            else:
                if key is not None:
                    lines.append(f"{pad}{key}:")
                for v in value:
                    walk(v, indent + 1, None)
        else:
            lines.append(head + _scalar(value))

    walk(detail, 0, None)
    if limit and len(lines) > limit:
        lines = [*lines[:limit], f"… ({len(lines) - limit} more lines: double-click for all)"]
    return "\n".join(lines)


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, str | int):
        return str(v)
    try:
        return json.dumps(v, default=str)
    except (TypeError, ValueError):
        return str(v)


def character_name(document: Any, cid: str) -> str:
    try:
        return document.character(cid).name
    except KeyError:
        return cid


def find_map_view(document: Any) -> Any:
    """The map view showing ``document`` (None when there is none, e.g. in tests):
    the one the document was given (MapView.set_document). Never a walk over every
    top-level widget — one being deleted by an earlier window crashed the process."""
    view = getattr(document, "map_view", None)
    if view is None or not shiboken6.isValid(view):
        return None
    return view


class VerticalScroll(QScrollArea):
    """A scroll area that scrolls up and down only and never gets narrower than its
    contents (a dock squeezed below that would clip the fields on the right)."""

    def __init__(self, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(body)

    def minimumSizeHint(self) -> QSize:
        body = self.widget()
        base = super().minimumSizeHint()
        if body is None:
            return base
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(body.minimumSizeHint().width() + bar + 2, base.height())
