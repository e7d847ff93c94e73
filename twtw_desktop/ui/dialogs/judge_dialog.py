"""The Judge's override, one right-click away on a token or a track row.

The dialog builds the table's ``judge`` action: counters given or taken on the AP v2
track, the token taken off the map, always with a reason the log keeps. Values on the
sheet are changed in the Character panel (each change is journaled as the Judge's).
The table says why an override is refused, in the dialog, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...errors import RulesError
from ...play.actions import Judge


class JudgeDialog(QDialog):
    """Override the rules for one character (see the module docstring)."""

    def __init__(self, document: Any, who: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        table = document.table
        self.character, self.token = table.actor(who)
        self.who = who
        self.setWindowTitle(f"The Judge's override — {self.character.name}")
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why (kept in the log)")
        form.addRow("Reason:", self.reason)
        self.counters = QSpinBox()
        self.counters.setRange(-40, 40)
        now = table.ap_available(self.character.id)
        segments = table.time is not None and table.time.kind == "segments"
        self.counters.setEnabled(segments and now is not None)
        self.counters.setSuffix(" counter(s)")
        self.counters.setToolTip(
            "Give (+) or take (−) counters in front of the character now (AP v2 action time)"
        )
        form.addRow(
            "Counters:" if now is None else f"Counters ({now} now):",
            self.counters,
        )
        self.remove = QCheckBox("Take the token off the map (the sheet stays)")
        self.remove.setEnabled(self.token is not None)
        form.addRow("", self.remove)
        lay.addLayout(form)
        note = QLabel(
            "Sheet values (wounds, Conc, ammunition…) are changed in the Character panel."
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: #555;")
        lay.addWidget(note)
        #: a refusal, in red under the fields
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #a00;")
        lay.addWidget(self.message)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.reason.setFocus()

    def action(self) -> Judge:
        reason = self.reason.text().strip()
        if not reason:
            raise RulesError("Give a reason: the log keeps it with the override.")
        return Judge(
            reason=reason,
            who=self.who,
            counters=self.counters.value() if self.counters.isEnabled() else 0,
            remove_token=self.remove.isChecked(),
        )

    def apply(self) -> None:
        """Apply the override as one undo step; a refusal stays in the dialog."""
        try:
            self.document.apply(self.action())
        except (RulesError, ValueError, KeyError) as e:
            self.message.setText(str(e).strip("'\""))
            return
        self.accept()


def judge_override(document: Any, who: str, parent: QWidget | None = None) -> bool:
    """Show the dialog for ``who`` (a token or character id); True when applied."""
    return JudgeDialog(document, who, parent).exec() == QDialog.DialogCode.Accepted
