"""Help menu, Quit, the shortcuts list built from the actions, and the preferences —
each stored in QSettings and each taking effect."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox

from twtw_desktop import __version__
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.menus.help_menu import shortcut_rows
from twtw_desktop.ui.scene import style
from twtw_desktop.ui.window.preferences import SIDE_PALETTES, apply_palette

from .conftest import fresh_window


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    win = fresh_window(qtbot, tmp_path, monkeypatch, show=False)
    yield win
    # what these tests change is app-wide: put it back for the other tests
    apply_palette("standard")
    app = QApplication.instance()
    f = app.font()
    f.setPointSizeF(win.preferences.base_point_size)
    app.setFont(f)


def _titles(menu) -> list[str]:
    return [a.text() for a in menu.actions() if not a.isSeparator()]


def test_help_menu_entries(window):
    assert _titles(window.help_menu.menu) == [
        "&Quick start",
        "&Manual…",
        "&Keyboard shortcuts",
        "&Rules reference…",
        "&About TWTW Desktop",
    ]
    keys = [k.toString() for k in window.help_menu.act_shortcuts.shortcuts()]
    assert keys == ["F1", "?"]
    assert __version__ in window.help_menu.about_text()
    dlg = window.help_menu.quick_start()
    assert dlg.page_text().count("\n") >= 5 and "five steps" in dlg.page_text()
    dlg.close()


def test_the_shortcut_list_is_made_from_the_actions_themselves(window):
    rows = shortcut_rows(window)
    assert ("Ctrl+Q", "Quit", "File") in rows
    assert any(r[1] == "Start action time" and r[0] == "Ctrl+T" for r in rows)
    # the panels' own keys too, named after the buttons they press
    assert ("F5", "Start round", "Action track panel") in rows
    assert ("F6", "Run on / Next phase", "Action track panel") in rows
    # a new action shows up without anyone editing a list
    a = QAction("Juggle the deck", window)
    a.setShortcut(QKeySequence("Ctrl+Alt+J"))
    window.encounter_menu.addAction(a)
    assert ("Ctrl+Alt+J", "Juggle the deck", "Encounter") in shortcut_rows(window)
    dlg = window.help_menu.shortcuts()
    assert dlg.table.rowCount() == len(shortcut_rows(window))
    dlg.close()


def test_no_two_actions_share_a_shortcut(window):
    seen: dict[str, str] = {}
    for keys, text, _where in shortcut_rows(window):
        for k in keys.split(", "):
            assert k not in seen, f"{k} is both {seen[k]!r} and {text!r}"
            seen[k] = text


def test_quit_asks_to_save_like_closing(window, monkeypatch):
    asked = []

    def question(*a, **k):
        asked.append(a[1])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    window.show()
    window.document.log("a change")
    assert window.document.is_dirty()
    assert window.help_menu.quit() is False
    assert asked == ["Save changes?"] and window.isVisible()
    window.document.undo_stack.setClean()
    assert window.help_menu.quit() is True
    assert not window.isVisible()


def test_preference_interface_scale_changes_the_font(window):
    base = window.preferences.base_point_size
    window.settings.set_interface_scale(1.5)
    window.preferences.apply()
    assert QApplication.instance().font().pointSizeF() == pytest.approx(base * 1.5, abs=0.1)
    assert AppSettings(window.settings.q).interface_scale() == 1.5


def test_preference_palette_recolours_the_tokens(window):
    assert window.open_path(maps_dir() / "main_street.encounter.json", ask=False)
    scene = window.map_view.map_scene
    tid = window.document.encounter.token_for("miranda_valentine").id
    before = scene.tokens[tid].colour.name()
    window.settings.set_side_palette("okabe_ito")
    window.preferences.apply()
    item = window.map_view.map_scene.tokens[tid]
    assert item.colour.name() != before
    assert item.colour == SIDE_PALETTES["okabe_ito"]["posse"]
    assert style.SIDE_COLOURS["hombres"] == SIDE_PALETTES["okabe_ito"]["hombres"]


def test_preference_default_edition_for_new_encounters(window):
    window.settings.set_default_edition("phases")
    window.new_encounter()
    assert window.document.encounter.edition == "phases"
    assert window.document.edition.id == "phases"
    window.settings.set_default_edition("ap_v2")
    window.new_encounter()
    assert window.document.edition.id == "ap_v2"


def test_preference_players_screen(window, qtbot):
    dlg = window.preferences.show()
    name = dlg.screen_box.itemData(1)
    dlg.screen_box.setCurrentIndex(1)
    dlg.accept()
    assert window.players_screen.settings.screen_name == name
    assert window.players_screen.chosen_screen() is not None


def test_the_autosave_preference_sets_the_recovery_copy_interval(window):
    """The preference drives the map editor's autosave (ui.autosave); 0 turns it off.
    (Rewritten: the preference's own autosave timer is gone, the window's Autosaver
    writes the copy.)"""
    window.settings.set_autosave_minutes(3)
    window.preferences.apply()
    assert window.autosaver.enabled and window.autosaver.timer.interval() == 3 * 60_000
    window.settings.set_autosave_minutes(0)
    window.preferences.apply()
    assert not window.autosaver.enabled
    window.document.log("Miranda tips her hat.")
    window.document.changed.emit("map")
    assert not window.autosaver.timer.isActive()


def test_the_preferences_dialog_stores_every_field(window):
    dlg = window.preferences.show()
    dlg.scale.setValue(1.25)
    dlg.palette_box.setCurrentIndex(dlg.palette_box.findData("okabe_ito"))
    dlg.edition.setCurrentIndex(dlg.edition.findData("phases"))
    dlg.autosave.setValue(0)
    assert dlg.follow.isChecked() and window.document.follow_track  # on by default
    dlg.follow.setChecked(False)
    dlg.accept()
    s = AppSettings(window.settings.q)
    assert (s.interface_scale(), s.side_palette(), s.default_edition(), s.autosave_minutes()) == (
        1.25,
        "okabe_ito",
        "phases",
        0,
    )
    assert not s.follow_track() and not window.document.follow_track
