"""Issue 26, "Every seed rule right": each rule the table got wrong, replayed as a
shipped ``twtw-desktop play`` script (``tests/play/examples/seed_*.jsonl``) on the Main
Street sample, the page's sentence quoted in the script's header, and the numbers read
back from what the table wrote. ``test_every_example_plays_with_qt_blocked`` plays every
shipped script in a process where PySide6 cannot be imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from twtw_desktop.play.journal import replay_line
from twtw_desktop.play.movement import reach_budget
from twtw_desktop.play.script import main as play_main
from twtw_desktop.play.script import read_script
from twtw_desktop.play.session import open_table
from twtw_desktop.resources import maps_dir
from twtw_desktop.rules.gear import default_gear

from .test_worked_examples import EXAMPLES, SAMPLE, items, play, records, sample_for


def _variant(tmp_path: Path, name: str, change) -> tuple[int, str]:
    """Play script ``name`` with its lines changed by ``change`` (a list → a list);
    the exit status and what went to stderr."""
    lines = (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    script = tmp_path / f"{name}.variant.jsonl"
    script.write_text("\n".join(change(lines)) + "\n", encoding="utf-8")
    out = tmp_path / "variant.encounter.json"
    return play_main([str(SAMPLE), "--script", str(script), "--out", str(out)]), ""


def _table_after(name: str):
    """The table after playing script ``name`` in this process."""
    table = open_table(SAMPLE).table
    for line in read_script(EXAMPLES / f"{name}.jsonl"):
        replay_line(table, line)
    return table


def _own(recs: list[dict]) -> list[dict]:
    """The records of the shots themselves (not the stray hits they caused)."""
    return [r for r in recs if not r.get("stray_of")]


def test_1_cocking_comes_before_any_aiming(tmp_path, capsys):
    """000 Cocking and Readying: "Cocking must be done before any aiming." """
    log = play("seed_000_cock_before_aim", tmp_path, capsys)
    (shot,) = records(log)
    assert any("aim" in label for label in (m["label"] for m in shot["tn"]["result_items"]))
    code, _ = _variant(
        tmp_path, "seed_000_cock_before_aim", lambda ls: [x for x in ls if '"cock"' not in x]
    )
    err = capsys.readouterr().err
    assert code == 1 and "cocking must be done before any aiming" in err


def test_2_a_penetrating_hit_lowers_the_cover(tmp_path, capsys):
    """000 Armor Penetration/Ablation: "In both cases, the protection value is
    decremented." — P through the trough, AV 3 → 2, on the map too."""
    log = play("seed_000_penetration_lowers_the_av", tmp_path, capsys)
    (shot,) = records(log)
    (cover,) = shot["covers"]
    assert (cover["feature_id"], cover["av"], cover["pv"], cover["outcome"]) == (
        "water-trough",
        3,
        5,
        "P",
    )
    assert cover["new_av"] == 2 and shot["effect"]["source"] == "DMG"
    assert shot["ablated_covers"] == [["water-trough", 2]]
    # the trough kept on the map shows the new AV
    table = _table_after("seed_000_penetration_lowers_the_av")
    assert table.map.feature("water-trough").av(table.edition.cover_av) == 2


def test_3_one_figure_one_bystander(tmp_path, capsys):
    """000 Ancillary Effects / 002 stray spend: two figures within the strays, one
    bystander near: he is hit once, no bump having been spent."""
    recs = records(play("seed_000_one_figure_one_bystander", tmp_path, capsys))
    (shot,) = _own(recs)
    strays = shot["strays"]
    assert strays["stray_shots"] == 2 and strays["figures_hit"] == [2, 2]
    assert strays["candidates_hit"] == ["token-jonah_benton"]
    assert any("find no further target" in r for r in strays["reasons"])
    assert [r["target_id"] for r in recs if r.get("stray_of")] == ["jonah_benton"]


def test_4_pushing_the_limit_in_ap_v2(tmp_path, capsys):
    """000 Pushing the Limit: the fanned Peacemaker's Rel 2 is read as 3."""
    first, *_ = records(play("seed_000_pushing_the_limit", tmp_path, capsys))
    rel = default_gear().weapon("colt_peacemaker_gunslinger").rel
    assert first["equipment_failure"]["rel"] == rel + 1


def test_5_schofield_aims_cost_3_and_6_in_phases(tmp_path, capsys):
    """001: "for a pistol like a Schofield, 2 aim actions costs 3, while 3 aim actions
    costs 6" — with the shipped gear."""
    (three_aims,) = _own(records(play("seed_001_schofield_aim_costs", tmp_path, capsys)))
    aims = [m["value"] for m in three_aims["ap"]["items"] if m["label"].startswith("aim action")]
    assert aims == [1, 2, 3] and sum(aims) == 6 and sum(aims[:2]) == 3


def test_6_a_half_declaration_holds_two_quick_actions(tmp_path, capsys):
    """004: two Quick actions combine as Half: Jonah's snap shot and a cock."""
    log = play("seed_004_half_holds_two_quick", tmp_path, capsys)
    (shot,) = records(log)
    assert shot["attacker_id"] == "jonah_benton"
    assert "is cocked" in log[-1]["text"] and "Jonah Benton" in log[-1]["text"]
    # a third Quick action would make Full: refused, naming the combination
    code, _ = _variant(
        tmp_path,
        "seed_004_half_holds_two_quick",
        lambda ls: [
            *ls,
            json.dumps({"do": "snap_shot", "who": "jonah_benton", "target": "dave_perkins"}),
        ],
    )
    err = capsys.readouterr().err
    assert code == 1 and "already acted this round" in err


def test_7_a_draw_and_a_shot_combine_to_half(tmp_path, capsys):
    """004: a draw (Half) and a shot (Quick) make a Half action; under a Quick
    declaration the draw-and-shoot is too slow."""
    log = play("seed_004_draw_and_shot_combine", tmp_path, capsys)
    attack = next(e for e in log if e["kind"] == "attack")
    assert (
        "draw + shot: a Quick and a Half action make a Half action" in attack["detail"]["situation"]
    )
    code, _ = _variant(
        tmp_path,
        "seed_004_draw_and_shot_combine",
        lambda ls: [
            x.replace('"speed": "normal"', '"speed": "fast"') if "hank_daggett" in x else x
            for x in ls
        ],
    )
    err = capsys.readouterr().err
    assert code == 1 and "too slow" in err


def test_8_in_melee_means_engaged(tmp_path, capsys):
    """001 Unintended Targets and Melee: a bystander in the next hex does not double
    the strays; the Judge marking the target in a scrum does."""
    log = play("seed_001_melee_means_engaged", tmp_path, capsys)
    (shot,) = _own(records(log))  # the first shot was undone
    assert shot["strays"]["stray_shots"] == 4
    assert any("fired into a melee: doubled" in r for r in shot["strays"]["reasons"])
    code, _ = _variant(
        tmp_path,
        "seed_001_melee_means_engaged",
        lambda ls: ls[: next(i for i, x in enumerate(ls) if '"undo"' in x)],
    )
    capsys.readouterr()
    assert code == 0
    out = json.loads((tmp_path / "variant.encounter.json").read_text(encoding="utf-8"))
    (alone,) = _own(records(out["log"]))
    assert alone["strays"]["stray_shots"] == 2
    assert not any("melee" in r for r in alone["strays"]["reasons"])


def test_9_attacks_beyond_the_skill_level_miss_automatically(tmp_path, capsys):
    """000 Multiple Attacks: the second attack of a Pistol 1 shooter is paid, fired and
    misses automatically; its stray shot still flies."""
    log = play("seed_000_beyond_the_skill_level", tmp_path, capsys)
    first, second = _own(records(log))
    assert second["target_id"] == "felicia_laroq" and not second["hit"]["success"]
    assert any("misses automatically" in r for r in second["hit"]["reasons"])
    assert second["strays"]["stray_shots"] == 1
    attack = next(e for e in log if e["kind"] == "attack")
    assert any("miss automatically" in g for g in attack["detail"]["situation"])
    assert first["ap"]["total"] > 0


def _with(
    *lines: dict, drop: str | None = None, before: str | None = None, after: str | None = None
):
    """A change for :func:`_variant`: ``lines`` added at the end, or just before the
    first line containing ``before`` (after the first containing ``after``); lines
    containing ``drop`` removed first."""

    def change(ls: list[str]) -> list[str]:
        out = [x for x in ls if drop is None or drop not in x]
        extra = [json.dumps(x) for x in lines]
        if before is None and after is None:
            return [*out, *extra]
        i = next(i for i, x in enumerate(out) if (before or after) in x) + (0 if before else 1)
        return [*out[:i], *extra, *out[i:]]

    return change


def test_phases_moves_by_speed_in_phase_and_order(tmp_path, capsys):
    """004 Maneuver / 001 Movement Actions and Order of Actions / 004 Tactical Move /
    003 Move and Fire: a move is read as Step, Quick, Half or Full by its paces and
    acted in the character's phase; the phase's moves come first, slowest first; a
    Step rides along with a pistol's snap shot; no move after an unpenalised shot."""
    log = play("seed_004_phases_moves", tmp_path, capsys)
    name = "seed_004_phases_moves"
    moves = [e["text"] for e in log if e["kind"] == "move"]
    assert any("Jonah Benton: Quick move (Quick), 3 pace(s)" in t for t in moves)
    assert any("Angus Laroq: Step (Quick), 1 pace(s)" in t for t in moves)
    miranda, angus = _own(records(log))
    assert not any("walking" in m["label"] for m in miranda["tn"]["result_items"])
    assert any("walking" in m["label"] for m in angus["tn"]["result_items"])
    table = _table_after(name)
    row = table.track.row("angus_laroq")
    assert row.step_taken and row.acted_speeds == ("fast",) and row.moved_phase == 3
    # the reach overlay shows about a Full move (Run 16 at Move 8: 2 walking AP)
    assert reach_budget(table, "jonah_benton") == (2, None)
    jonah = {"do": "move", "who": "jonah_benton"}
    first = '"jonah_benton", "to": [12, 21]'
    cases = [
        # a phase-III character cannot move in phase I (the old bug)
        (_with({**jonah, "to": [12, 21]}, before='"miranda_valentine", "target"'), "before phase"),
        # no move after a shot without the movement penalty (003)
        (
            _with(
                {"do": "move", "who": "miranda_valentine", "to": [15, 18]},
                after='"miranda_valentine", "target"',
            ),
            "may not move after",
        ),
        # the phase's moves are over once someone has shot (001)
        (_with({**jonah, "to": [14, 21]}), "moves of phase III are over"),
        # reverse order: Angus (faster) moved first, so Jonah (slower) may no longer
        (
            _with({**jonah, "to": [12, 21]}, drop=first, before='"angus_laroq", "target"'),
            "reverse order",
        ),
        # 12 paces is a Full move: too slow for Jonah's Half declaration
        (_with({**jonah, "to": [19, 20]}, drop=first, before='"angus_laroq", "to"'), "too slow"),
    ]
    for change, words in cases:
        code, _ = _variant(tmp_path, name, change)
        err = capsys.readouterr().err
        assert code == 1 and words in err, (words, err)


def test_one_free_action_a_round_and_simultaneous_actions(tmp_path, capsys):
    """004 Free Actions: one free action a round, further ones are Quick; 004
    Simultaneous Actions: a draw with the other hand at the same time as a snap shot
    counts as one action of the slower speed."""
    log = play("seed_004_free_and_simultaneous", tmp_path, capsys)
    texts = [e["text"] for e in log]
    assert any("shouts to Hank to get down (the round's free action" in t for t in texts)
    assert any("drops her hat, a further free action: a Quick action" in t for t in texts)
    table = _table_after("seed_004_free_and_simultaneous")
    row = table.track.row("miranda_valentine")
    assert row.free_used and row.acted_speeds == ("fast", "normal")
    assert table.character("miranda_valentine").weapons[1].readied
    name = "seed_004_free_and_simultaneous"
    # the same draw after the shot, not at once: a third action, refused
    code, _ = _variant(
        tmp_path,
        name,
        lambda ls: [
            x.replace('"at_once"', '"draw"').split(', "then"')[0] + "}" if "at_once" in x else x
            for x in ls
        ],
    )
    err = capsys.readouterr().err
    assert code == 1 and "Quick + Quick + Half is not allowed" in err
    # with no free action left the shout makes three Quick actions: Full, too slow
    code, _ = _variant(
        tmp_path,
        name,
        _with(
            {"do": "free_action", "who": "miranda_valentine", "what": "whistles"},
            after='"what": "drops her hat"',
        ),
    )
    err = capsys.readouterr().err
    assert code == 1 and "slower than the Half declared" in err


def test_a_creatures_natural_armour_works_like_cover(tmp_path, capsys):
    """000 Armor Penetration/Ablation: natural armour "works like cover": PV 3 against
    the bear's AV 3 ablates — reduced damage — and the hide's AV drops to 2."""
    (shot,) = records(play("seed_000_natural_armour", tmp_path, capsys))
    (hide,) = shot["covers"]
    assert (hide["material"], hide["av"], hide["pv"], hide["outcome"], hide["new_av"]) == (
        "natural armour",
        3,
        3,
        "A",
        2,
    )
    assert shot["effect"]["source"] == "RD" and shot["ablated_covers"] == []
    table = _table_after("seed_000_natural_armour")
    assert table.character("grizzly_bear").natural_armor == 2
    # people have none: the same shot at Dave meets only his water trough
    code, _ = _variant(
        tmp_path,
        "seed_000_natural_armour",
        lambda ls: [x.replace('"target": "grizzly_bear"', '"target": "dave_perkins"') for x in ls],
    )
    capsys.readouterr()
    assert code == 0
    out = json.loads((tmp_path / "variant.encounter.json").read_text(encoding="utf-8"))
    (dave,) = records(out["log"])
    assert [c["material"] for c in dave["covers"]] == ["hardwood"]


def test_a_rush_keeps_the_finished_aim(tmp_path, capsys):
    """000 Rushing Actions 3: 11 counters toward a two-aim Sharps shot (15 AP): the
    first aim is finished and kept, the second lost, no rush tax; the shot is fired
    with one aim, and two are refused."""
    log = play("seed_000_rush_keeps_finished_aim", tmp_path, capsys)
    rush = json.dumps(next(e for e in log if "rushes" in e["text"]))
    assert "1 finished aim(s) kept, 1 unfinished aim(s) lost" in rush
    assert "rushed for no tax" in rush
    (shot,) = records(log)
    assert shot["hit"]["success"] is not None
    assert any(m["label"] == "aim action 1" for m in shot["ap"]["items"])
    table = _table_after("seed_000_rush_keeps_finished_aim")
    (entry,) = [e for e in table.track.stack() if e.character_id == "miranda_valentine"]
    assert entry.rush_kept_aims == 1 and entry.action.ap == 11 and entry.rush_tax is None
    code, _ = _variant(
        tmp_path,
        "seed_000_rush_keeps_finished_aim",
        lambda ls: [x.replace('"aims": 1}', '"aims": 2}') for x in ls],
    )
    err = capsys.readouterr().err
    assert code == 1 and "kept 1 finished aim(s)" in err


def test_moving_forgoing_defence(tmp_path, capsys):
    """001 Movement Actions: ½ AP a pace; shots at the mover halve the range for the
    TN, blows meet Defense 0 (TN 3)."""
    log = play("seed_001_forgoing_defence", tmp_path, capsys)
    move = next(e for e in log if e["kind"] == "move")
    assert "(3 AP)" in move["text"] and move["detail"]["ap"] == 3
    assert any("forgoing defence at ½ AP a pace: 3 AP" in b for b in move["detail"]["breakdown"])
    shot, blow = records(log)
    assert shot["tn"]["tn"] == 5
    assert any("halved" in n for n in shot["tn"]["notes"])
    assert blow["tn"]["tn"] == 3
    # walking instead: the full range (TN 6) and Jonah's own Defense
    code, _ = _variant(
        tmp_path,
        "seed_001_forgoing_defence",
        lambda ls: [x.replace(', "forgo_defence": true', "") for x in ls],
    )
    capsys.readouterr()
    assert code == 0
    out = json.loads((tmp_path / "variant.encounter.json").read_text(encoding="utf-8"))
    shot, blow = records(out["log"])
    assert shot["tn"]["tn"] == 6 and blow["tn"]["tn"] > 3


def test_a_held_aim_is_recentred_each_declaration(tmp_path, capsys):
    """003 Procedure: a held aim's field is re-centred on the target at each
    declaration phase and the firer turned to it: 8 paces sideways over two rounds
    (out of the first field) keep the aim, and its held rounds add Accurate."""
    log = play("seed_003_held_aim_recentres", tmp_path, capsys)
    assert any("held aim follows Miranda Valentine" in e["text"] for e in log)
    (shot,) = records(log)
    labels = [m["label"] for m in shot["tn"]["result_items"]]
    assert any(lb.startswith("aim held 2 round(s)") for lb in labels)
    assert not any("field of fire" in lb for lb in labels)
    # an aim not held is not re-centred: the first field is left, the shot is a snap
    code, _ = _variant(
        tmp_path,
        "seed_003_held_aim_recentres",
        lambda ls: [x.replace(', "hold": true', "") for x in ls],
    )
    capsys.readouterr()
    assert code == 0
    out = json.loads((tmp_path / "variant.encounter.json").read_text(encoding="utf-8"))
    (snap,) = records(out["log"])
    assert not any("follows" in e["text"] for e in out["log"])
    assert any("left the field of fire" in n for n in snap["tn"]["notes"])
    assert any(m["label"] == "snap shot penalty (SP)" for m in snap["tn"]["result_items"])


def test_continuous_movers_maneuver_in_their_steps_or_as_an_action(tmp_path, capsys):
    """002 maneuvers: free in a continuous step the skill/handling allows, a speed
    change an Easy (3) check in force after the step; outside those a Quick action
    and the mover stands still in that phase's step."""
    log = play("seed_002_maneuvers", tmp_path, capsys)
    text = json.dumps(log, ensure_ascii=False)
    assert "part of the continuous action, no speed spent" in text
    assert "speed 8 → 12 paces a round after this phase's step" in text
    assert "a Quick action of Jonah Benton's, and Jonah Benton does not move" in text
    table = _table_after("seed_002_maneuvers")
    (mover,) = table.track.state.movers
    assert mover.paces == 12
    moves = [m for e in log for m in (e.get("detail") or {}).get("moves", [])]
    assert [m["paces"] for m in moves] == [2, 3, 0, 3]
    assert table.track.row("jonah_benton").acted_speeds == ("fast",)
    # a second free maneuver in phase I's step is not allowed: it is a Quick action,
    # refused before Jonah's phase (III)
    code, _ = _variant(
        tmp_path,
        "seed_002_maneuvers",
        _with(
            {"do": "maneuver", "who": "jonah_benton", "mover": "jonah_benton", "facing": 4},
            after='"facing": 5',
        ),
    )
    err = capsys.readouterr().err
    assert code == 1 and "cannot act before phase III" in err


def test_every_example_plays_with_qt_blocked(tmp_path):
    """Every shipped example script (the worked examples and these) plays to the end
    with PySide6 unimportable, in one process."""
    names = sorted(p.stem for p in EXAMPLES.glob("*.jsonl"))
    code = (
        "import sys\n"
        "from twtw_desktop.play.script import main\n"
        f"names = {names!r}\n"
        "bad = []\n"
        f"samples = { ({n: str(sample_for(n)) for n in names})!r}\n"
        "for n in names:\n"
        f"    rc = main([samples[n], '--script', {str(EXAMPLES)!r} + '/' + n + '.jsonl'])\n"
        "    if rc: bad.append(n)\n"
        "import PySide6  # must fail: Qt is blocked\n"
    )
    runner = tmp_path / "run_all.py"
    runner.write_text(
        "import importlib.abc, sys\n"
        "class B(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('PySide6', 'shiboken6'):\n"
        "            raise ModuleNotFoundError(name + ' is blocked', name=name)\n"
        "sys.meta_path.insert(0, B())\n"
        + code.replace(
            "import PySide6  # must fail: Qt is blocked\n",
            "print('BAD', bad)\n"
            "try:\n    import PySide6\nexcept ModuleNotFoundError:\n    print('QT BLOCKED')\n",
        ),
        encoding="utf-8",
    )
    r = subprocess.run(
        [sys.executable, str(runner)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"TWTW_BLOCK_QT": "1", "PATH": "/usr/bin:/bin"},
        cwd=str(maps_dir().parent),
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "BAD []" in r.stdout and "QT BLOCKED" in r.stdout, r.stdout[-2000:]


def test_two_handed_gun_in_one_hand(tmp_path, capsys):
    """000 Two handed ranged weapons: 2 downgrades, set from what the character holds
    (a Peacemaker in the other hand); none once it is holstered."""
    log = play("seed_000_two_handed_in_one_hand", tmp_path, capsys)
    (shot,) = records(log)  # the one-handed shot was undone
    assert "two-handed weapon in one hand" not in items(shot)
    code, _ = _variant(
        tmp_path,
        "seed_000_two_handed_in_one_hand",
        lambda ls: ls[: next(i for i, x in enumerate(ls) if '"undo"' in x)],
    )
    capsys.readouterr()
    assert code == 0
    out = json.loads((tmp_path / "variant.encounter.json").read_text(encoding="utf-8"))
    (one_handed,) = records(out["log"])
    assert items(one_handed)["two-handed weapon in one hand"] == -2
    attack = next(e for e in out["log"] if e["kind"] == "attack")
    assert any("the other holds Colt Peacemaker" in g for g in attack["detail"]["situation"])


def test_000_gatling(tmp_path, capsys):
    """000 Angus cranks his Gatling: 2d8, one success, burst 10 → 8 hits, 7 damage
    bumps, 2 stray shots against a 3: no unintended target."""
    (burst,) = records(play("seed_000_gatling", tmp_path, capsys))
    assert sorted(burst["hit"]["cells"], reverse=True)[:2] == [7, 2]
    assert burst["hit"]["success"] and (burst["burst"], burst["hits"]) == (10, 8)
    assert burst["effect"]["row_bumps"] == 7
    strays = burst["strays"]
    assert strays["stray_shots"] == 2 and min(strays["figures"]) == 3
    assert strays["candidates_hit"] == []


def test_004_miranda_waits_for_the_cowboy(tmp_path, capsys):
    """004 Delaying an Action: Miranda's 8 on Fast goes in phase I; she waits for the
    cowboy; in phase III he dashes and she fires at once, in phase with his action."""
    log = play("seed_004_miranda_waits", tmp_path, capsys)
    resolved = next(e["detail"]["details"] for e in log if "initiative resolved" in e["text"])
    assert any(
        d.startswith("Miranda Valentine: 8 on the fast bar") and "phase I " in d for d in resolved
    )
    texts = [e["text"] for e in log]
    delay = next(i for i, x in enumerate(texts) if "Miranda Valentine delays, waiting for" in x)
    dash = next(i for i, x in enumerate(texts) if "Angus Laroq acts in phase III" in x)
    shot = next(i for i, e in enumerate(log) if e["kind"] == "attack")
    assert delay < dash < shot
    assert "Miranda Valentine acts in phase III" in log[shot]["detail"]["track"]


def test_003_jonah_fans_both_brothers(tmp_path, capsys):
    """003 Fan Firing: 3d10, TN 5 + 2 shots = 7, two successes, one bump buys the
    second brother as a secondary target: each is hit once."""
    dave, clem = records(play("seed_003_jonah_fan", tmp_path, capsys))
    assert dave["tn"]["tn"] == 7 and sorted(dave["hit"]["cells"]) == [1, 11, 11]
    assert dave["hit"]["success"] and dave["hit"]["bumps"] == 1
    assert (dave["target_id"], clem["target_id"]) == ("dave_perkins", "clem_perkins")
    assert "1 secondary target(s) (003)" in dave["spends"]["reasons"]
    assert dave["effect"]["effect"] == clem["effect"]["effect"] == "(3)6"  # one hit each
    assert dave["damage"]["wounds_added"] >= 1 and clem["damage"]["wounds_added"] >= 1


def test_002_felicia_reduced_damage_stays_below_full(tmp_path, capsys):
    """002 rule 2: the corner covers Felicia's left half; the left-arm hit ablates and
    deals RD: 11 with increased effect, read on, stops at 17 — below the DMG's 18."""
    (shot,) = records(play("seed_002_felicia_reduced_damage", tmp_path, capsys))
    (cover,) = shot["covers"]
    assert (cover["feature_id"], cover["outcome"]) == ("saloon-west-2", "A")
    assert shot["location"]["location"] == "left_arm"
    eff = shot["effect"]
    assert (eff["source"], eff["effect"], eff["value"]) == ("RD", "(3)4", 17)
    assert "unshifted (3)6 shows 18" in eff["reasons"]
    assert any("counts as 2, to stay below the unshifted value" in r for r in eff["reasons"])


def test_002_octavio_positive_column_shift(tmp_path, capsys):
    """002 rule 3: a right shift keeps the increased effect and must beat the unshifted
    value: 12 + a 2 counted as 4 = 16 > 15."""
    log = play("seed_002_octavio_column_shift", tmp_path, capsys)
    check = next(e["detail"] for e in log if e["kind"] == "check")
    assert check["effect"] == 16
    assert "the unshifted cell had increased effect, so the shift keeps it" in check["reasons"]
    assert any("counts as 4, to beat the unshifted value" in r for r in check["reasons"])


def test_002_a_continuous_mover_forgoes_its_defence(tmp_path, capsys):
    """002 Continuous Actions: the TN against a continuous mover is reduced by 1."""
    (shot,) = records(play("seed_002_continuous_mover_forgoes_defence", tmp_path, capsys))
    tn_items = {m["label"]: m["value"] for m in shot["tn"]["tn_items"]}
    assert tn_items["target moves continuously: forgoes its defence"] == -1
    assert shot["tn"]["tn"] == 4
