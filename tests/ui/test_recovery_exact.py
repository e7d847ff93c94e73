"""Recovery restores exactly the last state shown: undo across the save, a kill at
each step of the save → fresh-journal hand-over, another encounter's journal, and
journal lines of the wrong shape (issue 28)."""

from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.ui.fault_worker import steps as fault_steps
from tests.ui.test_recovery import HANK, SAMPLE, _window, files  # noqa: F401 (fixture)
from twtw_desktop.io import files as io_files
from twtw_desktop.io.journal import KEEP_ASIDE, journal_path
from twtw_desktop.play.actions import Place, StartActionTime
from twtw_desktop.play.journal import Journal
from twtw_desktop.resources import maps_dir


class Answers:
    def __init__(self, monkeypatch, button=QMessageBox.StandardButton.Yes):
        self.asked: list[str] = []
        self.told: list[str] = []
        monkeypatch.setattr(QMessageBox, "question", staticmethod(self._question))
        monkeypatch.setattr(QMessageBox, "information", staticmethod(self._information))
        self.button = button

    def _question(self, *a, **k):
        self.asked.append(a[2] if len(a) > 2 else "")
        return self.button

    def _information(self, *a, **k):
        self.told.append(a[2] if len(a) > 2 else "")


def _killed(win):
    """The app dies: nothing more is written, the journal file stays as it is."""
    if win.document.journal is not None:
        win.document.journal.close()
    win.document.undo_stack.setClean()


def test_undo_past_the_save_is_recovered(qtbot, files, monkeypatch):  # noqa: F811
    """Ctrl+T, Ctrl+S, Ctrl+Z, kill: the reopened encounter is in narrative time."""
    ans = Answers(monkeypatch)
    win = _window(qtbot, files)
    doc = win.document
    doc.apply(StartActionTime())
    assert win.save()
    doc.undo_stack.undo()
    assert not doc.table.in_action
    expected = doc.table.state_fingerprint()
    _killed(win)
    win2 = _window(qtbot, files)
    assert ans.asked, "the undo is a step the file lacks"
    assert not win2.document.table.in_action
    assert win2.document.table.state_fingerprint() == expected
    assert any("Recovered 1 of 1" in t for t in ans.told)


def test_undo_and_redo_across_the_save_then_more_steps(qtbot, files, monkeypatch):  # noqa: F811
    Answers(monkeypatch)
    win = _window(qtbot, files)
    doc = win.document
    doc.apply(Place(who=HANK, to=[21, 16]))
    doc.apply(StartActionTime())
    assert win.save()
    doc.apply(Place(who=HANK, to=[20, 16]))
    doc.undo_stack.undo()  # the step after the save
    doc.undo_stack.undo()  # action time, from before the save
    doc.undo_stack.undo()  # Hank's first move
    doc.undo_stack.redo()
    doc.undo_stack.redo()
    doc.undo_stack.redo()  # the step after the save again
    expected = doc.table.state_fingerprint()
    _killed(win)
    win2 = _window(qtbot, files)
    assert win2.document.table.state_fingerprint() == expected
    assert win2.document.table.hex_label(win2.document.token(HANK).at) == "2016"


class _Kill(BaseException):
    """The process dies here (not an Exception: nothing may catch it)."""


@pytest.mark.parametrize("at", ["before-write", "after-write", "after-hand-over"])
def test_a_kill_at_each_step_of_the_save_hand_over(qtbot, files, monkeypatch, at):  # noqa: F811
    """The saved file is never replayed over, and nothing shown is lost."""
    ans = Answers(monkeypatch)
    win = _window(qtbot, files)
    doc = win.document
    doc.apply(Place(who=HANK, to=[21, 16]))
    doc.apply(StartActionTime())
    expected = doc.table.state_fingerprint()
    saved_before = files.read_bytes()
    real_write = io_files.write_atomic
    real_start = Journal.start

    def write(path, data, **k):
        if at == "before-write":
            raise _Kill
        real_write(path, data, **k)

    def start(self, base, fingerprint=None):
        if at == "after-write":
            raise _Kill
        real_start(self, base, fingerprint)

    monkeypatch.setattr(io_files, "write_atomic", write)
    monkeypatch.setattr(Journal, "start", start)
    if at == "after-hand-over":
        assert win.save()
    else:
        with pytest.raises(_Kill):
            doc.save()
    monkeypatch.undo()
    Answers(monkeypatch).asked = ans.asked
    saved_now = files.read_bytes()
    assert (saved_now == saved_before) == (at == "before-write")
    _killed(win)
    win2 = _window(qtbot, files)
    assert win2.document.table.state_fingerprint() == expected
    # answering Yes never changes a correctly saved file
    assert files.read_bytes() == saved_now
    assert not list(files.parent.glob(".*.tmp*"))


def test_another_encounters_journal_is_refused_by_name(qtbot, tmp_path, monkeypatch, files):  # noqa: F811
    ans = Answers(monkeypatch)
    win = _window(qtbot, files)
    win.document.apply(Place(who=HANK, to=[21, 16]))
    _killed(win)
    for name in ("longhorn_saloon.encounter.json", "longhorn_saloon.map.json"):
        shutil.copy(maps_dir() / name, tmp_path / name)
    saloon = tmp_path / "longhorn_saloon.encounter.json"
    shutil.copy(journal_path(files), journal_path(saloon))
    win2 = _window(qtbot, saloon)
    before = win2.document.table.state_fingerprint()
    assert not ans.asked[1:], "another encounter's journal is not offered"
    told = "\n".join(ans.told)
    assert "belongs to main_street.encounter.json" in told and "Main Street" in told
    assert list(tmp_path.glob("longhorn_saloon.encounter.journal.jsonl.refused-*"))
    assert win2.document.journal is not None  # this session is journaled afresh
    assert win2.document.table.state_fingerprint() == before


@pytest.mark.parametrize(
    "bad",
    [
        "[" * 100_000 + "]" * 100_000,
        json.dumps({"do": ["place"]}),
        json.dumps({"do": "judge", "reason": "x", "patch": {"tokens": [1, 2]}}),
        json.dumps({"do": "judge", "reason": "x", "patch": {"rules": 5}}),
        json.dumps({"undo": 1, "restore": {"log": 3}}),
        '{"do": 1e999}',
    ],
    ids=["deep", "do-list", "tokens-list", "rules-number", "restore-bad", "huge"],
)
def test_a_line_of_the_wrong_shape_gives_one_message_and_journaling_goes_on(
    qtbot,
    files,  # noqa: F811
    monkeypatch,
    bad,
):
    ans = Answers(monkeypatch)
    win = _window(qtbot, files)
    win.document.apply(Place(who=HANK, to=[21, 16]))
    expected = win.document.table.state_fingerprint()
    _killed(win)
    jp = journal_path(files)
    good = json.dumps({"do": "start_action_time"})
    with open(jp, "a", encoding="utf-8") as f:
        f.write(bad + "\n" + good + "\n")
    win2 = _window(qtbot, files)  # nothing escapes
    told = "\n".join(ans.told)
    assert "line 3" in told, told
    assert win2.document.table.state_fingerprint() == expected  # nothing after line 3
    assert not win2.document.table.in_action
    assert win2.document.journal is not None
    win2.document.apply(StartActionTime())
    assert win2.document.journal.lines >= 2  # the recovered step and the new one


def test_set_aside_journals_are_pruned(qtbot, files, monkeypatch):  # noqa: F811
    Answers(monkeypatch, QMessageBox.StandardButton.No)
    for _ in range(KEEP_ASIDE + 3):
        win = _window(qtbot, files)
        win.document.apply(Place(who=HANK, to=[21, 16]))
        _killed(win)
    _window(qtbot, files)
    aside = list(files.parent.glob("*.journal.jsonl.declined-*"))
    assert len(aside) == KEEP_ASIDE


def test_an_unusable_data_folder_opens_files_and_says_so_once(qtbot, tmp_path, monkeypatch):
    """TWTW_DATA_DIR naming a regular file: the sample still opens, once told."""
    from twtw_desktop.ui.window import recovery

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv("TWTW_DATA_DIR", str(blocker))
    monkeypatch.setattr(recovery, "_said", set())
    ans = Answers(monkeypatch)
    win = _window(qtbot, maps_dir() / SAMPLE)
    assert win.document.journal is None
    win.document.apply(Place(who=HANK, to=[21, 16]))
    assert win.autosaver.write_now() is None or True
    win.autosaver.discard()  # no NotADirectoryError
    _window(qtbot, maps_dir() / SAMPLE)
    said = [t for t in ans.told if "cannot be used" in t]
    assert len(said) == 1 and str(blocker) in said[0]
    win.document.undo_stack.setClean()


def _long_journal(qtbot, files, n):  # noqa: F811
    win = _window(qtbot, files)
    _killed(win)
    with open(journal_path(files), "a", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({"do": "judge", "reason": f"note {i}"}) + "\n")


def test_a_long_replay_shows_progress_and_can_be_cancelled(qtbot, files, monkeypatch):  # noqa: F811
    from PySide6.QtWidgets import QProgressDialog

    from twtw_desktop.ui.window import recovery

    ans = Answers(monkeypatch)
    _long_journal(qtbot, files, recovery.PROGRESS_FROM + 300)
    seen: list[int] = []
    real = QProgressDialog.setValue

    def set_value(self, v):
        seen.append(v)
        real(self, v)

    monkeypatch.setattr(QProgressDialog, "setValue", set_value)
    monkeypatch.setattr(QProgressDialog, "wasCanceled", lambda self: len(seen) > 3)
    win = _window(qtbot, files)
    told = "\n".join(ans.told)
    assert "cancelled before line" in told, told
    applied = int(told.split("Recovered ")[1].split(" of")[0])
    assert 0 < applied < recovery.PROGRESS_FROM + 300
    assert len(seen) > 3
    # what was applied is journaled afresh; the rest stays in the set-aside journal
    assert win.document.journal.lines == applied
    assert list(files.parent.glob("*.journal.jsonl.recovered-*"))


def test_a_long_replay_not_cancelled_applies_everything(qtbot, files, monkeypatch):  # noqa: F811
    from twtw_desktop.ui.window import recovery

    ans = Answers(monkeypatch)
    n = recovery.PROGRESS_FROM + 100
    _long_journal(qtbot, files, n)
    _window(qtbot, files)
    assert any(f"Recovered {n} of {n}" in t for t in ans.told)


@pytest.mark.parametrize("k", range(len(fault_steps())))
def test_killed_after_each_step_of_the_fault_session(qtbot, files, monkeypatch, k):  # noqa: F811
    """The fault test's session, killed right after each step in turn (in process):
    the reopened encounter is exactly as shown."""
    from tests.ui.fault_worker import state_hash, steps

    Answers(monkeypatch)
    win = _window(qtbot, files)
    for step in steps()[: k + 1]:
        step(win)
    expected = state_hash(win.document)
    _killed(win)
    win2 = _window(qtbot, files)
    assert state_hash(win2.document) == expected


def test_a_save_cut_off_between_the_map_and_the_encounter_is_said(qtbot, files, monkeypatch):  # noqa: F811
    """The map file was written, the encounter not: the Judge is told the map changed
    since the journal began, before answering."""
    ans = Answers(monkeypatch)
    win = _window(qtbot, files)
    win.document.apply(Place(who=HANK, to=[21, 16]))
    _killed(win)
    map_file = files.with_name("main_street.map.json")
    map_file.write_text(map_file.read_text().replace('"name"', '"name"', 1) + "\n")
    _window(qtbot, files)
    assert any("The file was changed" in a for a in ans.asked)
    assert any("map file main_street.map.json was written" in t for t in ans.told)


def test_a_recovered_undo_across_the_save_survives_a_second_kill(qtbot, files, monkeypatch):  # noqa: F811
    """The recovered undo is journaled afresh as a step that cuts the log back: killed
    again before saving, the encounter still comes back as shown."""
    Answers(monkeypatch)
    win = _window(qtbot, files)
    doc = win.document
    doc.apply(Place(who=HANK, to=[21, 16]))
    doc.apply(StartActionTime())
    assert win.save()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    expected = doc.table.state_fingerprint()
    _killed(win)
    win2 = _window(qtbot, files)
    assert win2.document.table.state_fingerprint() == expected
    _killed(win2)
    win3 = _window(qtbot, files)
    assert win3.document.table.state_fingerprint() == expected
