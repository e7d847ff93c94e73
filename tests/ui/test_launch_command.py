"""A bare launch of the installed ``twtw-desktop`` reopens the last fight (issue 37):
the command is run as a process on an X server with real key presses — a saved
fight, steps made (F5 starts action time and the round: two journaled steps),
``kill -9``, then ``twtw-desktop`` with no file: the recovery offer names the fight,
Yes restores exactly the last state shown (saved with Ctrl+S, it equals what
``twtw-desktop play`` gives for the journal the first run wrote), and the last
encounter noted is still that fight. The same for an untitled copy of the sample
(the very first run) and after a clean quit (no offer, the fight reopens)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from twtw_desktop.resources import maps_dir

from .x_session import COMMAND, App, User, wait_for, xserver

pytestmark = pytest.mark.slow(minutes=2)

SAMPLE = "main_street.encounter.json"
TITLE = "Showdown on Main Street"

display = pytest.fixture(scope="module")(xserver)


@pytest.fixture
def runs():
    started: list[App] = []
    yield started
    for app in started:
        app.stop()


def _steps(journal: Path) -> list[dict]:
    try:
        lines = journal.read_text().splitlines()
    except OSError:
        return []
    return [json.loads(s) for s in lines if s.strip() and '"do"' in s]


def _make_steps(app: App, wid: str, journal: Path) -> list[dict]:
    """F5 (start action time, then the round): the steps as the journal holds them."""
    app.keys(wid, "F5")
    return wait_for(
        "two steps in the journal",
        lambda: (s := _steps(journal)) and len(s) >= 2 and s,
    )


def _state(path: Path) -> dict:
    data = json.loads(path.read_text())
    data.pop("map", None)  # embedded or referenced: the same map
    data.pop("map_ref", None)
    return data


def _expected(original: Path, journal: Path, tmp: Path) -> dict:
    """The state the journal's steps give on the file the first run opened."""
    work = tmp / "expected"
    work.mkdir()
    start = work / original.name
    shutil.copy(original, start)
    shutil.copy(maps_dir() / "main_street.map.json", work / "main_street.map.json")
    out = work / "result.encounter.json"
    r = subprocess.run(
        [str(COMMAND), "play", str(start), "--script", str(journal), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    return _state(out)


def _accept_recovery(app: App, name: str) -> None:
    offer = app.wait_log(r"recovery offered: The session journal of (.*?) holds (\d+) step")
    assert TITLE in offer.group(1) and name in offer.group(1), offer.group(0)
    app.keys(app.window("^Recover the last session"), "Return")  # Yes is the default
    note = app.wait_log(r"session journal: Recovered (\d+) of (\d+) steps")
    assert note.group(1) == note.group(2) == offer.group(2), note.group(0)
    app.keys(app.window("^Session journal"), "Return")


def _fight(home: Path) -> Path:
    for name in (SAMPLE, "main_street.map.json"):
        shutil.copy(maps_dir() / name, home / name)
    fight = home / "fight.encounter.json"
    (home / SAMPLE).rename(fight)
    return fight


def test_a_killed_fight_is_offered_by_a_bare_launch(display, runs, tmp_path):
    user = User(display, tmp_path / "home")
    fight = _fight(user.home)
    original = tmp_path / "original.encounter.json"
    shutil.copy(fight, original)
    journal = fight.with_name("fight.encounter.journal.jsonl")

    first = user.launch(str(fight))
    runs.append(first)
    steps = _make_steps(first, first.window("fight"), journal)
    first.kill9()
    assert user.setting("session/last_encounter") == str(fight)

    bare = user.launch()
    runs.append(bare)
    bare.wait_log(r"opening \S*fight\.encounter\.json \(the last encounter\)")
    _accept_recovery(bare, "fight.encounter.json")
    wid = bare.window("fight")
    bare.keys(wid, "ctrl+s")
    wait_for("the fight saved", lambda: "*" not in bare.title(wid))
    bare.keys(wid, "ctrl+q")
    assert bare.wait_exit() == 0

    kept = next(fight.parent.glob("fight.encounter.journal.jsonl.recovered-*"))
    assert _steps(kept) == steps
    assert _state(fight) == _expected(original, kept, tmp_path)
    assert user.setting("session/last_encounter") == str(fight)


def test_an_untitled_copy_of_the_sample_is_offered_then_saved(display, runs, tmp_path):
    user = User(display, tmp_path / "home")
    first = user.launch()  # the very first run: the sample, as an untitled copy
    runs.append(first)
    first.wait_log(rf"opening \S*{SAMPLE} \(the first run\)")
    wid = first.window(TITLE)
    journal = user.data_dir() / "unsaved" / "main_street.encounter.journal.jsonl"
    steps = _make_steps(first, wid, journal)
    first.kill9()

    bare = user.launch()
    runs.append(bare)
    bare.wait_log(rf"opening \S*{SAMPLE} \(the last encounter\)")
    _accept_recovery(bare, SAMPLE)
    wid = bare.window(TITLE)
    bare.keys(wid, "ctrl+s")  # untitled: Save As
    dialog = bare.window("^Save encounter")
    saved = user.home / "ours.encounter.json"
    bare.keys(dialog, "ctrl+a")
    bare.type(dialog, str(saved))
    bare.keys(dialog, "Return")
    wait_for("the copy saved", saved.is_file)
    bare.keys(bare.window(TITLE), "ctrl+q")
    assert bare.wait_exit() == 0

    kept = next((user.data_dir() / "unsaved").glob("*.recovered-*"))
    assert _steps(kept) == steps
    assert _state(saved) == _expected(maps_dir() / SAMPLE, kept, tmp_path)
    assert user.setting("session/last_encounter") == str(saved)


def test_after_a_clean_quit_a_bare_launch_reopens_the_fight(display, runs, tmp_path):
    user = User(display, tmp_path / "home")
    fight = _fight(user.home)
    journal = fight.with_name("fight.encounter.journal.jsonl")
    first = user.launch(str(fight))
    runs.append(first)
    wid = first.window("fight")
    _make_steps(first, wid, journal)
    first.keys(wid, "ctrl+s")
    wait_for("the fight saved", lambda: "*" not in first.title(wid))
    saved = fight.read_bytes()
    first.keys(wid, "ctrl+q")
    assert first.wait_exit() == 0

    bare = user.launch()
    runs.append(bare)
    bare.wait_log(r"opening \S*fight\.encounter\.json \(the last encounter\)")
    wid = bare.window("fight")
    bare.wait_log(r"window shown")
    bare.keys(wid, "ctrl+q")  # nothing changed: no question on the way out
    assert bare.wait_exit() == 0
    assert "recovery offered" not in bare.text()
    assert fight.read_bytes() == saved
    assert user.setting("session/last_encounter") == str(fight)
