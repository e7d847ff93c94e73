"""File > Open Sample: the bundled sample encounters, listed and opened."""

from __future__ import annotations

import json
import shutil
import uuid

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QMessageBox

from twtw_desktop.resources import maps_dir
from twtw_desktop.sample_maps import SAMPLES
from twtw_desktop.ui.core.settings import AppSettings
from twtw_desktop.ui.files.samples_menu import SamplesMenu, bundled_samples, install_samples_menu
from twtw_desktop.ui.window.main_window import MainWindow

TITLES = [
    "Showdown on Main Street",
    "Trouble at the Longhorn",
    "Ambush at Legless Gulch",
    "Jailbreak at the Laroq hacienda",
]


@pytest.fixture
def window(qtbot, tmp_path):
    ini = QSettings(
        str(tmp_path / f"settings-{uuid.uuid4().hex[:8]}.ini"), QSettings.Format.IniFormat
    )
    win = MainWindow(settings=AppSettings(ini))
    qtbot.addWidget(win)
    return win


@pytest.fixture
def samples(window):
    return getattr(window, "samples_menu", None) or install_samples_menu(window)


def _answer(monkeypatch, button) -> list[str]:
    """Answer "Save changes?" with ``button``; returns the questions asked."""
    asked: list[str] = []

    def question(_parent, title, *_a, **_k):
        asked.append(title)
        return button

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def test_the_menu_lists_the_four_samples_in_order(window, samples):
    assert samples.titles() == TITLES
    assert [a.text() for a in samples.actions] == [f"&{i} {t}" for i, t in enumerate(TITLES, 1)]
    assert [e.path.name for e in samples.entries] == [s.encounter_file for s in SAMPLES]
    assert all(e.path.parent == maps_dir() for e in samples.entries)
    assert all("Open the sample encounter" in a.toolTip() for a in samples.actions)
    file_actions = window.file_menu.actions()
    sub = samples.menu.menuAction()
    assert sub in file_actions
    assert file_actions.index(sub) < file_actions.index(window.file_menu_tail)
    assert sub.text() == "Open &Sample"


def test_installing_twice_keeps_one_menu(window, samples):
    assert install_samples_menu(window) is samples
    subs = [a for a in window.file_menu.actions() if a.menu() is samples.menu]
    assert len(subs) == 1


@pytest.mark.parametrize("index", range(len(TITLES)))
def test_choosing_a_sample_opens_it(window, samples, index):
    samples.actions[index].trigger()
    doc = window.document
    sample = SAMPLES[index]
    assert doc.encounter.name == TITLES[index]
    # an untitled copy: Save asks where, never into the bundled samples
    assert doc.path is None
    assert doc.map_path is None and doc.encounter.map is doc.map
    assert doc.map.name == sample.build_map().name
    assert len(window.map_view.map_scene.tokens) == len(doc.encounter.tokens)
    assert not doc.is_dirty()


def test_unsaved_changes_are_offered_for_saving_first(window, samples, monkeypatch):
    samples.actions[0].trigger()
    first = window.document
    first.undo_stack.push(QUndoCommand("an edit"))
    assert first.is_dirty()
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    assert samples.open_sample(samples.entries[2].path) is False
    assert asked == ["Save changes?"]
    assert window.document is first, "Cancel keeps the encounter open"
    _answer(monkeypatch, QMessageBox.StandardButton.Discard)
    samples.actions[2].trigger()
    assert window.document is not first
    assert window.document.encounter.name == TITLES[2]


def test_other_encounters_in_the_folder_follow_by_title(tmp_path):
    for s in SAMPLES[:2]:
        for name in (s.map_file, s.encounter_file):
            shutil.copy(maps_dir() / name, tmp_path / name)
    raw = json.loads((tmp_path / SAMPLES[0].encounter_file).read_text(encoding="utf-8"))
    raw["name"] = "A homebrew showdown"
    (tmp_path / "zz_homebrew.encounter.json").write_text(json.dumps(raw), encoding="utf-8")
    del raw["name"]
    (tmp_path / "aa_nameless.encounter.json").write_text(json.dumps(raw), encoding="utf-8")
    (tmp_path / "broken.encounter.json").write_text("{not json", encoding="utf-8")
    entries = bundled_samples(tmp_path)
    assert [e.title for e in entries] == [
        TITLES[0],
        TITLES[1],
        "A homebrew showdown",
        "aa nameless",
    ]
    assert bundled_samples(tmp_path / "missing") == []


def test_an_empty_folder_shows_a_disabled_entry(window, tmp_path):
    ctl = SamplesMenu(window, folder=tmp_path)
    assert ctl.entries == [] and ctl.actions == []
    (only,) = ctl.menu.actions()
    assert not only.isEnabled() and "no samples" in only.text()
