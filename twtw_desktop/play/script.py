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
import sys
from pathlib import Path

from ..errors import LoadError
from ..io.journal import MAX_SCRIPT_BYTES, read_script
from . import actions as _actions
from .actions import Action
from .journal import replay_one
from .session import open_table, save_table


def describe_actions() -> str:
    """Every action with its parameters, what it costs and its seed page."""
    out = []
    # the registry as it is now: an action registered after this module was imported
    # (the autopilot, from the package above play) is listed too
    for cls in _actions.all_actions():
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
        problem, text = replay_one(table, line)
        if problem is not None:
            print(f"{args.script}:{n}: {problem}", file=sys.stderr)
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


__all__ = ["MAX_SCRIPT_BYTES", "Action", "describe_actions", "main", "read_script"]
