"""Offering a session journal's steps back after the app was killed.

The window calls :func:`recover_or_journal` once a document is open and the window is
complete. A journal holding steps beyond what the saved file holds (matched by hash:
see :mod:`twtw_desktop.io.journal`) is offered; Yes replays it through the undo stack
in chunks under a progress dialog with Cancel, so the window keeps painting; No keeps
it aside, renamed ``….declined-<time>``. A journal of another encounter, or one that
cannot be read, is never applied: it is set aside as ``….refused-<time>`` and the
Judge is told whose it is. Whatever happens the session is journaled afresh.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QProgressDialog, QWidget

from ...errors import LoadError
from ...io.journal import set_aside
from ...play.journal import Pending, pending_journal
from ..core.datadir import data_dir_problem

log = logging.getLogger(__name__)

#: a replay longer than this shows a progress dialog with Cancel
PROGRESS_FROM = 200
#: the data folder's problem is said once per run
_said: set[str] = set()


def _question(parent: QWidget, target_name: str, pending: Pending) -> bool:
    n = len(pending.lines)
    text = (
        f"The session journal of {target_name} holds {n} step"
        f"{'s' if n != 1 else ''} newer than the saved file: the app was closed "
        "without saving (a crash, or the battery ran out).\n\nRecover them? "
        "The encounter comes back exactly as it was at the last step shown."
    )
    if not pending.matches:
        text += (
            "\n\nThe file was changed since the journal began; steps that no "
            "longer apply stop the recovery, and you are told which."
        )
    log.info("recovery offered: %s", text.replace("\n", " "))
    answer = QMessageBox.question(
        parent,
        "Recover the last session?",
        text,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes,
    )
    return answer == QMessageBox.StandardButton.Yes


def _replay(parent: QWidget, doc: Any, pending: Pending) -> list[str]:
    total = len(pending.lines)
    dialog: QProgressDialog | None = None
    if total > PROGRESS_FROM:
        dialog = QProgressDialog("Recovering the last session…", "Cancel", 0, total, parent)
        dialog.setWindowTitle("Session journal")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)

    def progress(done: int) -> bool:
        if dialog is None:
            return True
        dialog.setValue(done)
        QCoreApplication.processEvents()
        return not dialog.wasCanceled()

    try:
        result = doc.replay(pending.lines, progress if dialog is not None else None)
    finally:
        if dialog is not None:
            dialog.reset()
            dialog.deleteLater()
    notes = [f"Recovered {result.applied} of {total} steps."]
    return notes + result.messages


def recover_or_journal(parent: QWidget, doc: Any) -> None:
    """Offer the steps a journal holds beyond the saved file (the app was killed),
    then journal this session (see the module docstring)."""
    notes: list[str] = []
    target = doc.journal_base() if doc.kind == "encounter" else None
    jp = doc.journal_file()
    if target is not None and jp is None and doc.path is None:
        problem = data_dir_problem()
        if problem and problem not in _said:
            _said.add(problem)
            notes.append(problem)
    pending = pending_journal(target, jp) if target is not None and jp else None
    if pending is not None and target is not None:
        notes += pending.problems
        try:
            if pending.refused is not None:
                kept = set_aside(pending.path, "refused")
                notes.append(f"It was kept aside as {kept.name}.")
            else:
                named = f"“{doc.encounter.name}” ({target.name})"
                recover = bool(pending.lines) and _question(parent, named, pending)
                kept = set_aside(pending.path, "recovered" if recover else "declined")
                if recover:
                    doc.start_journal()
                    notes += _replay(parent, doc, pending)
                    notes.append(f"The journal was kept aside as {kept.name}.")
                else:
                    notes.append(f"The journal was kept aside as {kept.name}.")
        except (OSError, LoadError) as e:
            notes.append(f"The journal could not be set aside ({e}); it is not applied.")
    if doc.journal is None:
        doc.start_journal()
    if notes:
        log.info("session journal: %s", " ".join(notes))
        QMessageBox.information(parent, "Session journal", "\n".join(notes))


__all__ = ["PROGRESS_FROM", "recover_or_journal"]
