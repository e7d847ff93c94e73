"""``twtw-desktop play``: journal lines as a script, applied headless through the table.

    twtw-desktop play ENCOUNTER --script ACTIONS.jsonl [--out RESULT.encounter.json]
    twtw-desktop play --actions

Each script line is one JSON object, the journal's own format: ``{"do": "move", "who":
"t-hank", "to": [9, 12]}``; ``{"undo": 1}`` and ``{"redo": 1}`` take steps back and
forth; blank lines and lines starting with ``#`` are skipped, and so is a session
journal's header line, so a journal (``NAME.encounter.journal.jsonl``) is a script:
the same gunfight replays from it on the command line. The same one-line log
the window shows is printed per line. An action that is not legal stops the script
with exit status 1, the line number and the ``why_not`` sentence, and nothing is
written. The encounter's seeded deck draws, so a script replayed on the same saved
encounter gives the same result, card for card.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import LoadError, RulesError
from .actions import ACTIONS, Action
from .journal import replay_line
from .session import open_table, save_table

#: a script longer than this is refused (a whole evening's journal is far shorter)
MAX_SCRIPT_BYTES = 64 * 1024 * 1024


def describe_actions() -> str:
    """Every action with its parameters, what it costs and its seed page."""
    out = []
    for cls in ACTIONS:
        name = cls.model_fields["do"].default
        params = []
        for fname, f in cls.model_fields.items():
            if fname == "do":
                continue
            req = f.is_required()
            params.append(f'"{fname}"' + ("" if req else "?"))
        out.append(f"{name:18} {', '.join(params) or '-'}")
        out.append(f"{'':18} {cls.summary}  [{cls.page}]")
    return "\n".join(out)


def read_script(path: Path) -> list[dict[str, Any]]:
    try:
        size = path.stat().st_size
    except OSError as e:
        raise LoadError(path, f"cannot read the script ({e.strerror or e})") from e
    if size > MAX_SCRIPT_BYTES:
        raise LoadError(path, f"the script is {size} bytes; at most {MAX_SCRIPT_BYTES}")
    lines: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, start=1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise LoadError(path, f"line {n} is not JSON ({e.msg})") from None
            if not isinstance(obj, dict):
                raise LoadError(path, f"line {n} is not a JSON object")
            if n == 1 and "journal" in obj and "do" not in obj:
                continue  # a session journal's header: its lines are a script as they are
            obj["_line"] = n
            lines.append(obj)
    return lines


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="twtw-desktop play",
        description="Apply table actions (journal lines) to an encounter, without a window.",
    )
    p.add_argument("encounter", nargs="?", help="the .encounter.json to play")
    p.add_argument("--script", metavar="ACTIONS.jsonl", help="one action per line")
    p.add_argument("--out", metavar="RESULT.encounter.json", help="write the result here")
    p.add_argument("--actions", action="store_true", help="list every action and stop")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if args.actions:
        print(describe_actions())
        return 0
    if not args.encounter or not args.script:
        print("twtw-desktop play: name an ENCOUNTER and --script ACTIONS.jsonl", file=sys.stderr)
        return 2
    try:
        opened = open_table(args.encounter)
        lines = read_script(Path(args.script))
    except LoadError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    table = opened.table
    for line in lines:
        n = line["_line"]
        try:
            text = replay_line(table, line)
        except (RulesError, ValueError, KeyError) as e:
            print(f"{args.script}:{n}: {e}", file=sys.stderr)
            return 1
        rnd, seg = table.now()
        print(f"[{rnd}.{seg}] {text}" if table.in_action else text)
    if args.out:
        try:
            save_table(opened, args.out)
        except LoadError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"wrote {args.out}")
    return 0


__all__ = ["Action", "describe_actions", "main", "read_script"]
