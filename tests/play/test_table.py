"""The table without Qt: actions with cost and why_not, exact undo/redo, the journal,
crash recovery by replay, and the ``play`` command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from twtw_desktop.errors import RulesError
from twtw_desktop.io.journal import journal_path, read_journal
from twtw_desktop.play.actions import (
    Draw,
    DropProne,
    EndRound,
    EndSegment,
    Face,
    Move,
    Place,
    StandUp,
    StartActionTime,
    StartRound,
    parse_action,
)
from twtw_desktop.play.journal import Journal, pending_journal, replay
from twtw_desktop.play.session import OpenTable, open_table, save_table
from twtw_desktop.resources import maps_dir

SAMPLE = maps_dir() / "main_street.encounter.json"
HANK = "token-hank_daggett"
MIRANDA = "miranda_valentine"


@pytest.fixture
def table():
    return open_table(SAMPLE).table


def test_narrative_moves_are_free_and_undo_exactly(table):
    before = table.state_fingerprint()
    tok = table.token(HANK)
    ev = table.apply(Place(who=HANK, to=[21, 16]))
    assert table.hex_label(tok.at) == "2116"
    assert "2116" in ev.text
    table.undo()
    assert table.state_fingerprint() == before
    table.redo()
    assert table.hex_label(tok.at) == "2116"


def test_refused_action_changes_nothing_and_names_the_rule(table):
    table.apply(StartActionTime())
    table.apply(StartRound())
    before = table.state_fingerprint()
    action = Draw(who=HANK)
    why = table.why_not(action)
    assert why and "segment 1" in why  # segment 0: count segment 1 first
    with pytest.raises(RulesError):
        table.apply(action)
    assert table.state_fingerprint() == before


def test_why_not_changes_nothing_and_draws_no_card(table):
    table.apply(StartActionTime())
    deck = table.deck.snapshot()
    for a in (StartRound(), EndSegment(), Draw(who=HANK), DropProne(who=MIRANDA)):
        table.why_not(a)
        table.cost(a)
        table.preview(a)
    assert table.deck.snapshot() == deck


def _play_until_paid(table, action, limit=25):
    """Count segments until the actor's counters pay ``action``."""
    for _ in range(limit):
        if table.why_not(action) is None:
            return table.apply(action)
        table.apply(EndSegment())
    raise AssertionError(table.why_not(action))


def test_a_paid_action_and_its_undo_give_the_ap_back(table):
    table.apply(StartActionTime())
    table.apply(StartRound())
    ev = _play_until_paid(table, DropProne(who=MIRANDA))
    assert "prone" in ev.text
    assert table.character(MIRANDA).posture.value == "prone"
    spent = table.track.row(MIRANDA).spent
    assert spent >= 1
    table.undo()
    assert table.character(MIRANDA).posture.value == "standing"
    assert table.track.row(MIRANDA).spent == spent - 1


def test_action_lines_parse_and_refuse_unknown_fields():
    assert isinstance(parse_action({"do": "move", "who": "a", "to": [3, 4]}), Move)
    with pytest.raises(ValueError, match="unknown action"):
        parse_action({"do": "fly", "who": "a"})
    with pytest.raises(ValueError, match="move"):
        parse_action({"do": "move", "who": "a", "to": [3, 4], "teleport": True})


def _copy_sample(tmp_path: Path) -> Path:
    for f in maps_dir().glob("main_street*"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / SAMPLE.name


def _some_play(table):
    table.apply(Place(who=HANK, to=[21, 16]))
    table.apply(StartActionTime())
    table.apply(StartRound())
    _play_until_paid(table, DropProne(who=MIRANDA))
    table.apply(Face(who=HANK, facing=3)) if table.why_not(
        Face(who=HANK, facing=3)
    ) is None else None
    table.undo()
    table.redo()
    # a change made by hand (a sheet edited): journaled as the Judge's patch
    c = table.character(MIRANDA)
    table.run("Miranda's notes", lambda: setattr(c, "notes", "winged"), {"characters"})


def test_journal_replays_to_the_same_state(tmp_path):
    path = _copy_sample(tmp_path)
    opened = open_table(path)
    table = opened.table
    journal = Journal(table, journal_path(path), path)
    _some_play(table)
    expected = table.state_fingerprint()
    journal.close()  # the app is killed here: nothing saved
    pending = pending_journal(path)
    assert pending is not None and pending.matches and not pending.problems
    fresh = open_table(path).table
    result = replay(fresh, pending.lines)
    assert result.stopped is None, result.messages
    assert fresh.state_fingerprint() == expected


def test_a_torn_last_line_is_dropped_with_a_message(tmp_path):
    path = _copy_sample(tmp_path)
    table = open_table(path).table
    journal = Journal(table, journal_path(path), path)
    table.apply(Place(who=HANK, to=[21, 16]))
    expected = table.state_fingerprint()
    table.apply(Place(who=HANK, to=[22, 16]))
    journal.close()
    jp = journal_path(path)
    data = jp.read_bytes()
    jp.write_bytes(data[: len(data) - 10])  # the crash cut the last line
    contents = read_journal(jp)
    assert any("cut off" in p for p in contents.problems)
    fresh = open_table(path).table
    assert replay(fresh, contents.lines).stopped is None
    assert fresh.state_fingerprint() == expected


def test_a_line_that_no_longer_applies_stops_the_replay_and_says_where(tmp_path):
    path = _copy_sample(tmp_path)
    table = open_table(path).table
    lines = [
        {"do": "place", "who": HANK, "to": [21, 16], "_line": 2},
        {"do": "place", "who": "nobody", "to": [21, 17], "_line": 3},
        {"do": "place", "who": HANK, "to": [22, 16], "_line": 4},
    ]
    result = replay(table, lines)
    assert result.applied == 1
    assert result.stopped is not None and result.stopped[0] == 3
    assert "nobody" in result.stopped[1]


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "twtw_desktop", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
    )


def test_play_script_applies_prints_and_writes(tmp_path):
    script = tmp_path / "s.jsonl"
    out = tmp_path / "out.encounter.json"
    lines = [
        {"do": "place", "who": HANK, "to": [21, 16]},
        {"do": "start_action_time"},
        {"do": "start_round"},
        {"do": "end_segment"},
    ]
    script.write_text("# a comment\n" + "\n".join(json.dumps(x) for x in lines) + "\n")
    r = _run_cli("play", str(SAMPLE), "--script", str(script), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "Action time declared." in r.stdout
    assert "segment 1" in r.stdout
    assert out.exists()
    again = open_table(out).table
    assert again.hex_label(again.token(HANK).at) == "2116"
    assert again.in_action
    # the same script on the same encounter gives the same result
    out2 = tmp_path / "out2.encounter.json"
    r2 = _run_cli("play", str(SAMPLE), "--script", str(script), "--out", str(out2))
    assert r2.returncode == 0
    assert open_table(out2).table.state_fingerprint() == again.state_fingerprint()


def test_play_script_stops_on_an_illegal_action_and_writes_nothing(tmp_path):
    script = tmp_path / "s.jsonl"
    out = tmp_path / "out.encounter.json"
    script.write_text(
        json.dumps({"do": "start_action_time"})
        + "\n"
        + json.dumps({"do": "stand_up", "who": MIRANDA})
        + "\n"
    )
    r = _run_cli("play", str(SAMPLE), "--script", str(script), "--out", str(out))
    assert r.returncode == 1
    assert ":2:" in r.stderr and "already standing" in r.stderr
    assert not out.exists()


def test_play_actions_lists_every_action_with_its_page():
    r = _run_cli("play", "--actions")
    assert r.returncode == 0
    for name in ("move", "run", "face", "draw", "cock", "reload", "judge", "end_round"):
        assert f"\n{name} " in "\n" + r.stdout
    assert "000 Movement AP Cost" in r.stdout


# -- random play: any legal sequence, undone, redone, journaled and replayed --------------


class TablePlay(RuleBasedStateMachine):
    """Random legal actions on the sample; undo/redo; the journal replays to the same
    state at every point."""

    def __init__(self) -> None:
        super().__init__()
        self.base = SAMPLE
        self.table = open_table(SAMPLE).table
        self.lines: list[dict] = []
        self.table.listeners.append(self._record)
        self.tmp = Path(tempfile.mkdtemp(prefix="twtw-play-"))
        self.saves = 0

    def teardown(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _record(self, what, step):
        from twtw_desktop.play.journal import line_for

        if what in ("do", "merge"):
            self.lines.append(line_for(step))
        else:
            self.lines.append({what: step.seq})

    def _try(self, action):
        if self.table.why_not(action) is None:
            self.table.apply(action)

    @rule(
        who=st.sampled_from([HANK, MIRANDA, "token-angus_laroq"]),
        col=st.integers(1, 40),
        row=st.integers(1, 30),
    )
    def place_or_move(self, who, col, row):
        cls = Move if self.table.in_action else Place
        self._try(cls(who=who, to=[col, row]))

    @rule(who=st.sampled_from([HANK, MIRANDA]), facing=st.integers(0, 5))
    def face(self, who, facing):
        self._try(Face(who=who, facing=facing))

    @rule(who=st.sampled_from([MIRANDA, "angus_laroq"]))
    def posture(self, who):
        c = self.table.character(who)
        self._try(StandUp(who=who) if c.posture.value == "prone" else DropProne(who=who))

    @rule(who=st.sampled_from([HANK, MIRANDA]))
    def draw(self, who):
        self._try(Draw(who=who))

    @rule()
    def clock(self):
        for a in (StartActionTime(), StartRound(), EndSegment(), EndRound()):
            if self.table.why_not(a) is None:
                self.table.apply(a)
                return

    @precondition(lambda self: self.table.can_undo())
    @rule()
    def undo(self):
        self.table.undo()

    @precondition(lambda self: self.table.can_redo())
    @rule()
    def redo(self):
        self.table.redo()

    @rule()
    def save_and_reopen(self):
        """Saving and reopening gives the same state; the journal starts afresh."""
        self.saves += 1
        out = self.tmp / f"s{self.saves}.encounter.json"
        opened = OpenTable(self.table, self.base, None)
        save_table(opened, out)
        again = open_table(out).table
        assert again.state_fingerprint() == self.table.state_fingerprint()
        self.table = again
        self.base = out
        self.lines = []
        self.table.listeners.append(self._record)

    @invariant()
    def journal_replays_exactly(self):
        fresh = open_table(self.base).table
        result = replay(fresh, list(self.lines))
        assert result.stopped is None, result.messages
        assert fresh.state_fingerprint() == self.table.state_fingerprint()


TablePlay.TestCase.settings = settings(
    max_examples=8,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.slow
class TestTablePlay(TablePlay.TestCase):
    pass


def test_run_on_is_one_step_a_stop_and_never_passes_a_newly_able_character(table):
    """000 Action Timing: once counters are placed "players may declare actions".
    Run on counts segments in one undo step and stops where someone with nothing
    declared may newly act (the #16 house reading that counted past them is gone)."""
    from twtw_desktop.play.declarations import RunOn

    table.apply(StartActionTime())
    table.apply(StartRound())
    steps = len(table.steps)
    ev = table.apply(RunOn())
    assert len(table.steps) == steps + 1  # one undo step however many segments
    assert "with nothing declared" in ev.text
    pending = table.track.pending_declarers()
    assert pending and all(table.track.row(c).counters > 0 for c in pending)
    assert table.why_not(RunOn()) is not None  # they are named, not passed over
    for _ in range(60):  # a round is 20 segments: never more stops than that and its end
        if table.why_not(RunOn(passing=table.track.pending_declarers())) is not None:
            break
        table.apply(RunOn(passing=table.track.pending_declarers()))
        if table.track.round_over:
            break
    why = table.why_not(RunOn(passing=table.track.pending_declarers())) or ""
    assert table.track.round_over or "F9" in why
    assert table.track.current_segment >= 20
    seg = table.track.current_segment
    table.undo()
    assert table.track.current_segment < seg


@pytest.mark.parametrize("edition", ["ap_v2", "phases"])
def test_a_character_added_in_action_time_gets_a_row(table, edition):
    from twtw_desktop.model.encounter import Token

    table.encounter.edition = edition
    from twtw_desktop.rules.editions import load_edition

    table.edition = load_edition(edition)
    table.apply(StartActionTime())
    table.apply(StartRound())
    if edition == "ap_v2":
        table.apply(EndSegment())
    gunman = table.character("clem_perkins").model_copy(
        update={"id": "gunman_2", "name": "Laroq gunman 2"}, deep=True
    )

    def add() -> None:
        table.encounter.characters.append(gunman)
        table.encounter.tokens.append(Token(id="t-gunman_2", character_id="gunman_2", hex=(5, 5)))

    table.run("Add a gunman", add)
    row = table.track.row("gunman_2")
    assert row.name == "Laroq gunman 2"
    if edition == "ap_v2":
        assert row.status.value == "active"
        assert row.first_segment > table.track.current_segment
    assert "joins the fight" in table.encounter.log[-1].text
    table.undo()
    with pytest.raises(RulesError):
        table.track.row("gunman_2")


def test_the_judge_gives_counters_and_takes_a_token_off_with_a_reason(table):
    from twtw_desktop.play.actions import Judge

    assert table.why_not(Judge(reason="x", counters=2)) == "Say whose counters or token (who)."
    table.apply(StartActionTime())
    table.apply(StartRound())
    table.apply(EndSegment())
    before = table.track.row(MIRANDA).counters
    ev = table.apply(Judge(reason="she was ready", who=MIRANDA, counters=2))
    assert table.track.row(MIRANDA).counters == before + 2
    assert "she was ready" in ev.text and table.encounter.log[-1].kind == "judge"
    table.apply(Judge(reason="fled", who=HANK, remove_token=True))
    assert all(t.id != HANK for t in table.encounter.tokens)
    table.undo()
    assert any(t.id == HANK for t in table.encounter.tokens)


def test_a_journal_is_a_script_the_same_fight_replays_on_the_command_line(tmp_path):
    path = _copy_sample(tmp_path)
    table = open_table(path).table
    journal = Journal(table, journal_path(path), path)
    _some_play(table)
    expected = table.state_fingerprint()
    journal.close()
    out = tmp_path / "replayed.encounter.json"
    r = _run_cli("play", str(path), "--script", str(journal_path(path)), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert open_table(out).table.state_fingerprint() == expected
