"""The manual's promises that issue 37 found false, read from the manual's own text and
checked against the window: the track's keys (F9 ends the round in both editions,
Delay has its own key), the ping's key, names readable at the opening zoom, and Save
As's folder when the home has no Documents. Where the manual changes its words, the
test follows them; where the window changes its keys, the test fails until the manual
says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from twtw_desktop import manual
from twtw_desktop.ui.menus.help_menu import shortcut_rows

from .conftest import fresh_window


def _page(name: str) -> str:
    path = Path(manual.__file__).resolve().parents[1] / "resources" / "manual" / name
    return " ".join(path.read_text(encoding="utf-8").split())


def _track_keys(text: str) -> dict[str, str]:
    """The keys the user guide lists for the Action track panel: ``KEY what`` pairs
    from its one-line list (F5 start round, … Alt+D delay, …)."""
    start = text.index("the **Action track** panel takes over")
    chunk = text[start : text.index("every key of both editions", start)]
    key = r"(?:Shift\+|Alt\+)?F\d|Alt\+[A-Z]"
    # "Alt+K / Alt+W keep / stop waiting": two keys, two meanings
    for m in re.finditer(rf"({key}) / ({key}) ([a-z]+) / ([a-z ]+?)(?=[;,)])", chunk):
        a, b, first, second = m.groups()
        chunk = chunk.replace(m.group(0), f"{a} {first} {second.split()[-1]}, {b} {second}")
    keys = {}
    for m in re.finditer(r"\b((?:Shift\+|Alt\+)?F\d|Alt\+[A-Z])\s+([A-Za-z][A-Za-z ]+)", chunk):
        keys[m.group(1)] = m.group(2).strip()
    return keys


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    return fresh_window(qtbot, tmp_path, monkeypatch, show=False)


def test_every_track_key_the_user_guide_names_does_what_it_says(win):
    promised = _track_keys(_page("user-guide.md"))
    # the list the issue found contradicted: F9 (end round), Delay's own key
    assert promised["F9"].startswith("end the round") and promised["Alt+D"] == "delay"
    assert len(promised) >= 10, promised
    rows: dict[str, list[str]] = {}
    for keys, what, _where in shortcut_rows(win):
        rows.setdefault(keys, []).append(what.lower())
    for key, what in promised.items():
        assert key in rows, f"the user guide promises {key} ({what}); the window has no such key"
        # a word of the guide's (its stem) names the action the key does
        words = [w[:4].lower() for w in what.split() if len(w) >= 3 and w != "the"]
        assert any(w in done for w in words for done in rows[key]), (key, what, rows[key])


def test_the_ping_key_the_manual_names_rings_the_hex(win):
    text = _page("launch-and-recovery.md") + " " + _page("user-guide.md")
    m = re.search(r"(Shift\+[A-Z]) rings the hex under the mouse", text)
    assert m, "the manual names the ping's key"
    assert any(k == m.group(1) and "ring" in w.lower() for k, w, _ in shortcut_rows(win))


def test_names_at_the_opening_zoom_are_as_large_as_the_manual_says():
    from twtw_desktop.ui.scene.token_item import READABLE_NAME_PX

    for page in ("user-guide.md", "launch-and-recovery.md"):
        m = re.search(r"(?:≥|at least) (\d+) (?:px|pixels)", _page(page))
        assert m, f"{page} states how large a name opens"
        assert float(m.group(1)) == READABLE_NAME_PX


def test_save_as_starts_in_the_home_folder_when_there_is_no_documents(tmp_path, monkeypatch):
    from PySide6.QtCore import QStandardPaths

    from twtw_desktop.ui.core.datadir import documents_dir

    assert "the home folder when there is none" in _page("user-guide.md")
    monkeypatch.setattr(Path, "home", staticmethod(lambda: tmp_path))
    monkeypatch.setattr(
        QStandardPaths,
        "writableLocation",
        staticmethod(lambda _loc: str(tmp_path / "Documents")),
    )
    assert documents_dir() == tmp_path  # no ~/Documents here
    (tmp_path / "Documents").mkdir()
    assert documents_dir() == tmp_path / "Documents"
