"""Opening a party file in the window (File ▸ Open, the installed double-click) offers
to import it into the open encounter (issue 28)."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.ui.test_party_library import window  # noqa: F401 (fixture)
from twtw_desktop.io.party import load_party


def _party(win, tmp_path):
    path = tmp_path / "posse.party.json"
    assert win.party_dialogs.export_party(path, ["miranda_valentine", "hank_daggett"])
    return path


def test_opening_a_party_file_offers_the_import(window, tmp_path, monkeypatch):  # noqa: F811
    path = _party(window, tmp_path)
    doc = window.document
    asked = []

    def question(*a, **k):
        asked.append(a[2])
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Yes)
    depth = doc.undo_stack.count()
    assert window.open_path(path)
    assert window.document is doc  # the encounter stays open
    assert "party file" in asked[0] and "Miranda Valentine" in asked[0]
    assert doc.undo_stack.count() == depth + 1
    assert len(load_party(path).characters) == 2


def test_declining_changes_nothing(window, tmp_path, monkeypatch):  # noqa: F811
    path = _party(window, tmp_path)
    doc = window.document
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.No)
    )
    depth = doc.undo_stack.count()
    assert not window.open_path(path)
    assert window.document is doc and doc.undo_stack.count() == depth


def test_a_broken_party_file_opened_is_one_error(window, tmp_path, monkeypatch):  # noqa: F811
    path = tmp_path / "bad.party.json"
    path.write_text('{"format_version": 1, "characters": [1]}')
    shown = []
    monkeypatch.setattr(window, "show_error", lambda title, text: shown.append(text))
    assert not window.open_path(path)
    assert len(shown) == 1 and "bad.party.json" in shown[0]


def test_launching_on_a_party_file_opens_the_window_then_offers(qtbot, tmp_path, monkeypatch):
    from twtw_desktop.ui.window.app import open_window

    asked = []
    monkeypatch.setattr(
        QMessageBox,
        "question",
        staticmethod(lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No),
    )
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    first = open_window(None, show=False)
    qtbot.addWidget(first)
    first.complete()
    path = tmp_path / "posse.party.json"
    assert first.party_dialogs.export_party(path, ["miranda_valentine"])
    win = open_window(path, show=False)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    assert "party file" in asked[-1]
    assert win.document is not None
