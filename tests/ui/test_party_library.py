"""File ▸ Export/Import party and the character library in the window: one undo step
each, a confirmation listing the differences, numbered copies near the view."""

from __future__ import annotations

import uuid

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.io.library import CharacterLibrary
from twtw_desktop.io.party import load_party
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.window.main_window import MainWindow


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ini = QSettings(str(tmp_path / f"s-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    win.library.library = CharacterLibrary(tmp_path / "data")
    assert win.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    # closing the window at the end asks no "Save changes?"
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
    )
    return win


def _file_entries(win) -> list[str]:
    return [a.objectName() for a in win.file_menu.actions()]


def test_menus_are_installed_once(window):
    names = _file_entries(window)
    assert names.count("act_export_party") == 1 and names.count("act_import_party") == 1
    assert "act_library" in [a.objectName() for a in window.encounter_menu.actions()]


def test_export_then_import_is_one_undo_step_with_a_confirmation(window, tmp_path, monkeypatch):
    doc = window.document
    path = tmp_path / "posse.party.json"
    assert window.party_dialogs.export_party(path, ["miranda_valentine", "hank_daggett"])
    assert [c.id for c in load_party(path).characters] == ["miranda_valentine", "hank_daggett"]
    # the fight goes on: Miranda gets better in this encounter, then the saved sheet returns
    doc.character("miranda_valentine").conc = 14
    saved = load_party(path)
    saved.characters[0].conc = 4
    saved.characters[0].wounds["left_leg"] = 1
    from twtw_desktop.io.party import save_party

    save_party(saved, path)
    asked = []

    def exec_(box):
        asked.append(box.informativeText())
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "exec", exec_)
    depth = doc.undo_stack.count()
    assert window.party_dialogs.import_party(path)
    assert "conc: 14 → 4" in asked[0] and "Miranda Valentine" in asked[0]
    assert doc.undo_stack.count() == depth + 1
    assert doc.character("miranda_valentine").conc == 4
    doc.undo_stack.undo()
    assert doc.character("miranda_valentine").conc == 14
    doc.undo_stack.redo()
    assert doc.character("miranda_valentine").wounds["left_leg"] == 1


def test_cancelling_the_confirmation_changes_nothing(window, tmp_path, monkeypatch):
    path = tmp_path / "p.party.json"
    window.party_dialogs.export_party(path, ["hank_daggett"])
    monkeypatch.setattr(QMessageBox, "exec", lambda box: QMessageBox.StandardButton.Cancel)
    depth = window.document.undo_stack.count()
    assert not window.party_dialogs.import_party(path)
    assert window.document.undo_stack.count() == depth


def test_a_broken_party_file_is_a_dialog_not_a_traceback(window, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(window, "show_error", lambda t, m: shown.append(m))
    bad = tmp_path / "bad.party.json"
    bad.write_text('{"format_version": 1}')
    assert not window.party_dialogs.import_party(bad)
    assert "characters" in shown[0] and "required" in shown[0]


def test_library_adds_numbered_copies_as_one_step(window):
    doc = window.document
    lib = window.library
    gunman = next(e.character for e in lib.library.entries()[0] if e.character.id == "laroq_gunman")
    n_chars, n_tok, depth = (
        len(doc.encounter.characters),
        len(doc.encounter.tokens),
        doc.undo_stack.count(),
    )
    first = lib.add(gunman, 1)
    more = lib.add(gunman, 3)
    assert [c.name for c in first + more] == [
        "Laroq gunman",
        "Laroq gunman 2",
        "Laroq gunman 3",
        "Laroq gunman 4",
    ]
    assert doc.undo_stack.count() == depth + 2
    assert len(doc.encounter.characters) == n_chars + 4 and len(doc.encounter.tokens) == n_tok + 4
    hexes = [t.hex for t in doc.encounter.tokens]
    assert len(hexes) == len(set(hexes))
    doc.undo_stack.undo()
    assert len(doc.encounter.characters) == n_chars + 1
    assert doc.undo_stack.undoText() == "Add Laroq gunman"


def test_library_shelves_and_saving_the_selected_character(window, qtbot):
    doc = window.document
    dlg = window.library.show()
    qtbot.addWidget(dlg)
    names = {e.character.name for e in window.library.library.entries()[0]}
    assert {"Miranda Valentine", "Sheriff", "Townsman", "Horse", "Hired gunman"} <= names
    doc.select(doc.encounter.token_for("hank_daggett").id)
    assert window.library.save_selected()
    dlg.refresh()
    dlg.select("Hank Daggett")
    mine = [e for e in window.library.library.entries()[0] if e.shelf == "mine"]
    assert [e.character.id for e in mine] == ["hank_daggett"]
    dlg.tree.setCurrentItem(dlg.tree.topLevelItem(2).child(0))
    assert dlg.btn_remove.isEnabled()
    dlg.remove()
    assert window.library.library.mine() == []


def test_adding_in_action_time_places_them_and_undoes_in_one_step(window):
    doc = window.document
    doc.start_action_time()
    gunman = next(
        e.character for e in window.library.library.entries()[0] if e.character.id == "sheriff"
    )
    depth = doc.undo_stack.count()
    added = window.library.add(gunman, 2)
    assert [c.name for c in added] == ["Sheriff", "Sheriff 2"]
    assert all(doc.encounter.token_for(c.id) is not None for c in added)
    assert doc.undo_stack.count() == depth + 1
    doc.undo_stack.undo()
    assert all(c.id not in {x.id for x in doc.encounter.characters} for c in added)


def test_import_is_refused_in_action_time(window, tmp_path, monkeypatch):
    path = tmp_path / "p.party.json"
    window.party_dialogs.export_party(path, ["hank_daggett"])
    shown = []
    monkeypatch.setattr(window, "show_error", lambda t, m: shown.append(m))
    window.document.start_action_time()
    assert not window.party_dialogs.import_party(path)
    assert "narrative time" in shown[0]


def test_the_export_dialog_ticks_the_posse(window, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialog, QFileDialog

    from twtw_desktop.ui.files.party_dialogs import ChooseCharacters

    dlg = ChooseCharacters(window)
    posse = [c.id for c in window.document.encounter.characters if c.side == "posse"]
    assert dlg.chosen() == posse
    dlg.list.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert dlg.chosen() == posse[1:]
    # the whole flow: the dialog accepted as ticked, the file named without a suffix
    monkeypatch.setattr(ChooseCharacters, "exec", lambda self: QDialog.DialogCode.Accepted)
    target = tmp_path / "evening"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), ""))
    )
    assert window.party_dialogs.export_party()
    assert [c.id for c in load_party(tmp_path / "evening.party.json").characters] == posse
