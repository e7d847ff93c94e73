"""``twtw-desktop party``: carry the posse from one encounter to the next.

    twtw-desktop party export ENCOUNTER -o PARTY.party.json [--who ID,…]
    twtw-desktop party import PARTY ENCOUNTER -o OUT.encounter.json

``export`` writes the chosen characters (default: the posse side) with everything
that lasts; ``import`` brings a party into an encounter — same-id characters are
replaced (the differences are printed), new ones placed on the map's entry marker or
the nearest free hexes — and writes the result to a new file (the input encounter is
never changed). Errors are one line on stderr and exit status 1; nothing is written.
"""

from __future__ import annotations

import argparse
import sys

from .errors import OneLineParser, TwtwError
from .io import load_encounter, save_encounter
from .io.party import load_party, save_party
from .model.party import merge_party, party_differences, party_from


def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="twtw-desktop party",
        description="Carry the posse's sheets (wounds, Conc, bleeding, stun, ammunition, "
        "gear, notes) from one encounter to the next.",
    )
    sub = p.add_subparsers(dest="action", metavar="export|import")
    ex = sub.add_parser("export", help="write characters of an encounter to a party file")
    ex.add_argument("encounter", help="the .encounter.json the characters are in")
    ex.add_argument("-o", "--output", required=True, metavar="PARTY.party.json")
    ex.add_argument(
        "--who", default="", metavar="ID,…", help="character ids (default: the posse side)"
    )
    ex.add_argument("--name", default="", help="the party's name")
    im = sub.add_parser("import", help="bring a party into an encounter, writing a new file")
    im.add_argument("party", help="the .party.json file")
    im.add_argument("encounter", help="the .encounter.json to bring them into")
    im.add_argument("-o", "--output", required=True, metavar="OUT.encounter.json")
    return p


def _export(args: argparse.Namespace) -> int:
    loaded = load_encounter(args.encounter)
    who = [w.strip() for w in args.who.split(",") if w.strip()] or None
    try:
        party = party_from(loaded.encounter, who, args.name)
    except KeyError as e:
        print(f"error: {args.encounter}: {e.args[0]}", file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"error: {args.encounter}: {e}", file=sys.stderr)
        return 1
    save_party(party, args.output)
    names = ", ".join(c.name for c in party.characters)
    print(f"wrote {args.output}: {len(party.characters)} characters ({names})")
    return 0


def _import(args: argparse.Namespace) -> int:
    party = load_party(args.party)
    loaded = load_encounter(args.encounter)
    enc = loaded.encounter.model_copy(deep=True)
    diffs = party_differences(enc, party.characters)
    try:
        report = merge_party(enc, loaded.map, party.characters)
    except ValueError as e:
        print(f"error: {args.encounter}: {e}", file=sys.stderr)
        return 1
    loaded.encounter = enc
    save_encounter(loaded, args.output)
    for cid, lines in diffs.items():
        print(f"replaced {cid}: " + ("; ".join(lines) if lines else "no differences"))
    for cid in report.added:
        h = report.placed[cid]
        print(f"added {cid} at hex ({h.q}, {h.r})")
    print(f"wrote {args.output}: {report.describe()}")
    return 0


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if args.action is None:
        _parser().print_help()
        return 2
    try:
        return _export(args) if args.action == "export" else _import(args)
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
