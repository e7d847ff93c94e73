"""The shape every dialog that makes one table action shares (Make a check…, First
aid…, Rest and heal…): its form above; below it the preview of the action before any
card is drawn, the reason it cannot be made (in red) and the button that makes it as
one undo step. A refusal is shown in the dialog, which stays open, and nothing
changes."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ..core.document import EncounterDocument


class ActionDialog(QDialog):
    """A dialog over ``document`` that builds one table action (:meth:`action`),
    previews it and applies it (:meth:`apply_action`); :attr:`event` is what the table
    logged."""

    def __init__(
        self, document: EncounterDocument, title: str, name: str, parent: QWidget | None = None
    ):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(name)
        self.document = document
        #: the table's event (a :class:`..play.table.TableEvent`) once the action is
        #: made; the name is older than this base and shadows QWidget.event, hence Any
        self.event: Any = None

    def action(self) -> Any:
        """The table action as the dialog shows it (ValueError naming a bad field)."""
        raise NotImplementedError

    def _finish(self, lay: QVBoxLayout, button: str, names: str) -> None:
        """The preview, the message line and the buttons under the form (their object
        names ``{names}_preview`` and ``{names}_message``); :attr:`go` makes it."""
        self.preview_label = QLabel()
        self.preview_label.setObjectName(f"{names}_preview")
        self.preview_label.setWordWrap(True)
        lay.addWidget(self.preview_label)
        self.message = QLabel()
        self.message.setObjectName(f"{names}_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00000;")
        lay.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = QPushButton(button)
        self.go.setDefault(True)
        self.buttons.addButton(self.go, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def _show(self, preview: str | None, why_not: str | None) -> None:
        self.preview_label.setText(preview or "")
        self.message.setText(why_not or "")
        self.go.setEnabled(preview is not None and not why_not)

    def _preview(self) -> dict[str, Any] | None:
        """The table's preview of :meth:`action`; None when it cannot be built or the
        table refuses it (the reason is shown)."""
        try:
            act = self.action()
        except ValueError as e:
            self._show(None, first_line(e))
            return None
        p: dict[str, Any] = self.document.table.preview(act)
        if "refused" in p:
            self._show(None, p["refused"])
            return None
        return p

    def apply_action(self, act: Any = None) -> bool:
        """Apply ``act`` (by default :meth:`action`) as one undo step: True when made;
        a refusal stays in the dialog's message line."""
        try:
            self.event = self.document.apply(self.action() if act is None else act)
        except (RulesError, ValueError) as e:
            self.message.setText(first_line(e))
            return False
        return True


def pool_lines(p: dict[str, Any]) -> list[str]:
    """A check's preview: the pool against the TN, then what makes each."""
    return [
        f"Pool {p['pool']} against TN {p['tn']}",
        *(f"· {line}" for line in (*p["pool_items"], *p["tn_items"])),
    ]


def first_line(e: Exception) -> str:
    """One line for the Judge from an error (pydantic's: its first complaint)."""
    text = str(e)
    errors = getattr(e, "errors", None)
    if callable(errors):  # pydantic: the first complaint only
        first = errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        text = f"{where}: {first['msg']}"
    return text.splitlines()[0] if text else type(e).__name__


def selected_character(document: Any) -> str | None:
    """The character of the document's selected token (None: none selected)."""
    tok = document.selected_token_id
    if tok is None:
        return None
    try:
        character_id: str = document.token(tok).character_id
    except KeyError:
        return None
    return character_id
