"""The command line explains itself: --help lists every subcommand from the one table,
--version, ``help`` as a word, summary of a map, quiet by default, and a message of
its own (exit 1) instead of Qt's abort when no window can open."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

import pytest

from twtw_desktop import __version__
from twtw_desktop.cli import COMMANDS, main
from twtw_desktop.resources import maps_dir
from twtw_desktop.ui.window.display import display_problem

STREET = maps_dir() / "main_street.encounter.json"


def test_help_lists_every_subcommand_once_with_one_line(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name, cmd in COMMANDS.items():
        lines = [ln for ln in out.splitlines() if ln.strip().startswith(f"{name} ")]
        assert len(lines) == 1, name
        assert cmd.summary in lines[0]
    assert "--version" in out


def test_a_new_row_in_the_table_shows_in_help(capsys, monkeypatch):
    from twtw_desktop import cli

    monkeypatch.setitem(COMMANDS, "dance", cli.Command("dance", "", "do a little jig", lambda a: 0))
    main(["help"])
    assert "do a little jig" in capsys.readouterr().out


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"twtw-desktop {__version__}"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_word_for_each_subcommand(name, capsys):
    assert main(["help", name]) == 0
    out = capsys.readouterr().out
    assert "usage" in out.lower()


def test_help_of_an_unknown_subcommand(capsys):
    assert main(["help", "nonsense"]) == 2
    assert "no subcommand 'nonsense'" in capsys.readouterr().err


def test_summary_of_a_map(capsys):
    assert main(["summary", str(maps_dir() / "main_street.map.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Main Street  (main_street.map.json)")
    assert "40×30 hexes" in out and "markers: 1" in out


def test_summary_of_a_broken_file_is_one_line(tmp_path, capsys):
    p = tmp_path / "bad.map.json"
    p.write_text("{")
    assert main(["summary", str(p)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid JSON" in err


def test_quiet_by_default_and_verbose_on_request(capsys):
    main(["summary", str(STREET)])
    assert logging.getLogger().level == logging.WARNING
    main(["-v", "summary", str(STREET)])
    assert logging.getLogger().level == logging.INFO
    main(["summary", "-vv", str(STREET)])
    assert logging.getLogger().level == logging.DEBUG
    main(["summary", str(STREET)])


def _env(**over: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env.update(over)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 check is Linux only")
def test_no_display_says_what_to_do_and_exits_1():
    r = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", str(STREET)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 1
    assert "DISPLAY" in r.stderr and "QT_QPA_PLATFORM=offscreen" in r.stderr
    assert "qt.qpa" not in r.stderr and "Traceback" not in r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 check is Linux only")
def test_headless_commands_work_without_a_display():
    r = subprocess.run(
        [sys.executable, "-m", "twtw_desktop", "summary", str(STREET)],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and r.stderr == ""
    assert "INFO" not in r.stdout


def test_missing_xcb_libraries_name_the_packages():
    msg = display_problem({"DISPLAY": ":0"}, "linux", lambda name: None)
    assert "sudo apt-get install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in msg
    only_cursor = display_problem(
        {"DISPLAY": ":0"}, "linux", lambda n: None if n == "xcb-cursor" else "lib.so"
    )
    assert "install libxcb-cursor0\n" in only_cursor


@pytest.mark.parametrize(
    "env",
    [
        {"DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "offscreen"},
        {"WAYLAND_DISPLAY": "wayland-0"},
    ],
)
def test_a_usable_display_is_no_problem(env):
    assert display_problem(env, "linux", lambda n: "lib.so") is None


def test_other_systems_are_not_checked():
    assert display_problem({}, "win32", lambda n: None) is None
    assert display_problem({}, "darwin", lambda n: None) is None


def test_party_round_trip_on_the_command_line(tmp_path, capsys):
    party = tmp_path / "posse.party.json"
    assert main(["party", "export", str(STREET), "-o", str(party), "--who", "hank_daggett"]) == 0
    data = json.loads(party.read_text())
    assert [c["id"] for c in data["characters"]] == ["hank_daggett"]
    data["characters"][0]["conc"] = 3
    party.write_text(json.dumps(data))
    out = tmp_path / "next.encounter.json"
    hacienda = maps_dir() / "laroq_hacienda.encounter.json"
    assert main(["party", "import", str(party), str(hacienda), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "replaced hank_daggett: conc:" in text
    assert main(["validate", str(out)]) == 0
    saved = json.loads(out.read_text())
    hank = next(c for c in saved["characters"] if c["id"] == "hank_daggett")
    assert hank["conc"] == 3
    assert saved["map_ref"] == os.path.relpath(maps_dir() / "laroq_hacienda.map.json", tmp_path)


def test_party_errors_are_one_line_and_write_nothing(tmp_path, capsys):
    out = tmp_path / "x.party.json"
    assert main(["party", "export", str(STREET), "-o", str(out), "--who", "nobody"]) == 1
    assert "nobody" in capsys.readouterr().err and not out.exists()
    bad = tmp_path / "bad.party.json"
    bad.write_text('{"format_version": 1, "characters": [], "x": 1}')
    enc_out = tmp_path / "o.encounter.json"
    assert main(["party", "import", str(bad), str(STREET), "-o", str(enc_out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not enc_out.exists()
    assert main(["party"]) == 2
