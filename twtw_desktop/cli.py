"""Command line entry point: ``twtw-desktop``.

    twtw-desktop [FILE]                 open the app (on the bundled sample encounter by default)
    twtw-desktop summary [FILE]         print an encounter's or a map's summary (no window)
    twtw-desktop validate FILE...       check maps and encounters; non-zero exit on any failure
    twtw-desktop export MAP --pdf OUT.pdf [--scale 1in] [--paper letter] [--no-coords] [--judge]
    twtw-desktop export MAP --png OUT.png [--scale 25mm] [--dpi 150]
                                        print a map (or an encounter's map) without a window
    twtw-desktop party export ENCOUNTER -o PARTY.party.json [--who ID,…]
    twtw-desktop party import PARTY ENCOUNTER -o OUT.encounter.json
                                        carry the posse from one fight to the next
    twtw-desktop import IN.dd2vtt OUT.map.json [--hex-size SQUARES] [--material NAME]
    twtw-desktop export MAP --uvtt OUT.uvtt
                                        Universal VTT battle maps (.dd2vtt, .df2vtt, .uvtt)
    twtw-desktop play ENCOUNTER --script ACTIONS.jsonl [--out RESULT.encounter.json]
                                        apply table actions headless; --actions lists them
    twtw-desktop plan ENCOUNTER [--who ID,…] [--seed N] [--json]
                                        each NPC's plan for the round (the autopilot), why
    twtw-desktop serve ENCOUNTER [--host 127.0.0.1] [--port N] [--hide-names] [--no-fog] [--approve all|none]
                                        each posse character's page for phones, until Ctrl+C
    twtw-desktop bench [--quick]        run the speed benchmark (medians and ratios)
    twtw-desktop rules                  print the rules reference: each seed section and its handling
    twtw-desktop help [SUBCOMMAND]      the list of subcommands, or one subcommand's options

Every subcommand is one row of :data:`COMMANDS` (name, arguments, one-line summary,
runner): ``--help`` and ``help`` list that table, so a new subcommand shows up there by
being added to it. ``--version`` prints the version. Quiet by default (warnings and
errors only); ``-v`` shows progress lines, ``-vv`` debugging detail.

Qt is imported only when a window is opened or a map exported, so ``summary``,
``validate``, ``party`` and ``bench`` geometry work without a display; ``export`` starts
Qt offscreen when there is no display. Opening the window without a display (or
without Qt's X libraries) prints what to do and exits with status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import OneLineParser, TwtwError
from .resources import maps_dir, version

SAMPLE_ENCOUNTER = "main_street.encounter.json"


def sample_encounter_path() -> Path:
    return maps_dir() / SAMPLE_ENCOUNTER


def _map_line(m) -> str:
    return (
        f"{m.name}, {m.cols}×{m.rows} hexes ({m.orientation.value}-top), "
        f"{len(m.features)} walls/cover features, {len(m.labels)} labels"
    )


def _summary(path: Path) -> int:
    # lazy: start-up (pydantic, numpy and shapely only for the commands that read files)
    from .io import open_any
    from .rules.editions import load_edition

    opened = open_any(path)  # the window's own open path: every check it makes
    if opened.kind == "map":
        m = opened.map
        print(f"{m.name}  ({path.name})")
        print(f"  map: {_map_line(m)}")
        print(f"  notes: {len(m.notes)}; markers: {len(m.markers)}")
        if m.description:
            print(f"  {m.description[:200]}")
        return 0
    enc = opened.encounter
    m = opened.map
    ed = load_edition(enc.edition)
    print(f"{enc.name}  ({path.name})")
    print(f"  edition: {ed.name}; mode: {enc.mode}")
    print(f"  map: {_map_line(m)}")
    sides: dict[str, list[str]] = {}
    for c in enc.characters:
        sides.setdefault(c.side, []).append(c.name)
    for side, names in sides.items():
        print(f"  {side}: {', '.join(names)}")
    print(f"  tokens on the map: {len(enc.tokens)} ({sum(t.hidden for t in enc.tokens)} hidden)")
    return 0


def _without_path(msg: str, path: str) -> str:
    """A problem message without the file name it starts with (the line names the
    file already): ``" at features.3.material: …"`` or ``": file not found"``."""
    for prefix in (path, str(Path(path))):
        rest = msg[len(prefix) :]
        if msg.startswith(prefix) and (rest.startswith(": ") or rest.startswith(" at ")):
            return rest
    return f": {msg}"


def _validate(argv: list[str]) -> int:
    from .io.validate import KINDS, validate_any  # lazy: start-up

    if any(a in ("-h", "--help") for a in argv):
        _simple_parser("validate", "FILE...").print_help()
        return 0
    paths = argv
    if not paths:
        print(
            "validate: name at least one file (map, encounter, party, journal, script, battle map, deck)",
            file=sys.stderr,
        )
        return 2
    failed = 0
    for p in paths:
        kind, problems = validate_any(Path(p))
        if problems:
            failed += 1
            for msg in problems:
                print(f"FAIL {p}{_without_path(msg, p)}")
        elif kind != "map-or-encounter":
            print(f"OK   {p} ({KINDS[kind]})")
        else:
            print(f"OK   {p}")
    return 1 if failed else 0


def _export_parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="twtw-desktop export",
        description="Export a map, or an encounter's map, to PDF (tiled pages at a print "
        "scale) and/or PNG, without opening a window.",
    )
    p.add_argument("file", help="a .map.json or .encounter.json file")
    p.add_argument("--pdf", metavar="OUT.pdf", help="write a PDF here")
    p.add_argument("--png", metavar="OUT.png", help="write a PNG here")
    p.add_argument("--uvtt", metavar="OUT.uvtt", help="write a Universal VTT battle map here")
    p.add_argument(
        "--scale",
        default=None,
        help="hex width flat to flat: 1in, 25mm or millimetres (default: the map's own)",
    )
    p.add_argument("--paper", default="letter", help="letter (default), a4, legal or a3")
    p.add_argument(
        "--orientation",
        default="auto",
        choices=("auto", "portrait", "landscape"),
        help="page orientation (default: whichever needs fewer pages)",
    )
    p.add_argument("--dpi", type=float, default=150.0, help="PNG resolution (default 150)")
    p.add_argument("--no-coords", action="store_true", help="leave the hex coordinates off")
    p.add_argument(
        "--judge",
        action="store_true",
        help="include the Judge-only layers (notes, hidden markers and labels) — not for players",
    )
    p.add_argument("--tokens", action="store_true", help="draw the encounter's tokens too")
    return p


def _export(argv: list[str]) -> int:
    try:
        args = _export_parser().parse_args(argv)
    except SystemExit as e:  # --help, or a usage mistake already printed in one line
        return e.code if isinstance(e.code, int) else 2
    if args.uvtt:
        if args.pdf or args.png:
            print("twtw-desktop export: --uvtt goes alone, without --pdf/--png", file=sys.stderr)
            return 2
        return _export_uvtt(Path(args.file), Path(args.uvtt))
    if not args.pdf and not args.png:
        print(
            "twtw-desktop export: name an output with --pdf OUT.pdf and/or --png OUT.png",
            file=sys.stderr,
        )
        return 2
    path = Path(args.file)
    try:
        # lazy: start-up (Qt only for the commands that draw)
        from .ui.files.export import ensure_app, export_pdf, export_png

        ensure_app()
        common = {
            "scale": args.scale,
            "coordinates": not args.no_coords,
            "judge_layers": args.judge,
            "tokens": args.tokens,
        }
        # lazy: start-up (Qt only for the commands that draw)
        from .ui.core.document import EncounterDocument

        doc = EncounterDocument.open(path)
        results = []
        if args.pdf:
            results.append(
                export_pdf(doc, args.pdf, paper=args.paper, orientation=args.orientation, **common)
            )
        if args.png:
            results.append(export_png(doc, args.png, dpi=args.dpi, **common))
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # one line, never a traceback
        print(f"error: {path}: could not export ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    for r in results:
        print(r.describe())
    return 0


def _picture_to_png(data: bytes, fmt: str, width: int, height: int) -> bytes:
    """The Qt picture step of a battle-map import or export (Qt loads only here)."""
    # lazy: start-up (Qt only for the commands that draw)
    from .ui.files.export import ensure_app
    from .ui.files.uvtt_dialog import picture_to_png

    ensure_app()
    return picture_to_png(data, fmt, width, height)


def _import_parser() -> argparse.ArgumentParser:
    # lazy: start-up (pydantic models only for the commands that read files)
    from .model.map import Material

    p = OneLineParser(
        prog="twtw-desktop import",
        description="Make a map from a Universal VTT battle map (.dd2vtt, .df2vtt, .uvtt): "
        "its picture as the background (a PNG beside OUT), its walls, doors and windows, "
        "its lights as Judge-only notes.",
    )
    p.add_argument("file", help="a .dd2vtt, .df2vtt or .uvtt file")
    p.add_argument("out", metavar="OUT.map.json", help="the map file to write")
    p.add_argument(
        "--hex-size",
        type=float,
        default=1.0,
        metavar="SQUARES",
        help="how many grid squares one hex spans (default 1)",
    )
    p.add_argument(
        "--material",
        default=Material.HARDWOOD.value,
        choices=[m.value for m in Material],
        help="what the walls and doors are made of (default hardwood)",
    )
    return p


def _import(argv: list[str]) -> int:
    try:
        args = _import_parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    # lazy: start-up (pydantic models only for the commands that read files)
    from .io import uvtt
    from .model.map import Material

    try:
        report = uvtt.import_file(
            Path(args.file),
            Path(args.out),
            _picture_to_png,
            hex_size=args.hex_size,
            material=Material(args.material),
        )
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # one line, never a traceback
        print(f"error: {args.file}: could not import ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    pic = report.picture.name if report.picture is not None else "no picture"
    print(f"wrote {args.out} and {pic}: {report.describe()}")
    return 0


def _export_uvtt(path: Path, out: Path) -> int:
    # lazy: start-up (pydantic models only for the commands that read files)
    from .io import detect_kind, load_encounter, load_map, uvtt

    try:
        if detect_kind(path) == "map":
            game_map, base = load_map(path), path
        else:
            loaded = load_encounter(path)
            game_map, base = loaded.map, loaded.map_path or path
        report = uvtt.export_file(game_map, base, out, _picture_to_png)
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # one line, never a traceback
        print(f"error: {path}: could not export ({type(e).__name__}: {e})", file=sys.stderr)
        return 1
    print(report.describe())
    return 0


def _file_parser(name: str, description: str) -> argparse.ArgumentParser:
    p = OneLineParser(prog=f"twtw-desktop {name}", description=description)
    default = (
        "the last encounter, its recovery offered; the bundled sample on the first run"
        if name == "open"
        else "the bundled sample"
    )
    p.add_argument("file", nargs="?", help=f"encounter file (default: {default})")
    return p


def _simple_parser(name: str, args: str) -> argparse.ArgumentParser:
    cmd = COMMANDS[name]
    return OneLineParser(
        prog=f"twtw-desktop {name}", usage=f"%(prog)s {args}", description=cmd.summary
    )


def _file_arg(name: str, argv: list[str]) -> Path | int | None:
    """The optional FILE of ``open``/``summary`` (None when none), or an exit code."""
    try:
        args = _file_parser(name, COMMANDS[name].summary).parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    return Path(args.file) if args.file else None


def _open(argv: list[str]) -> int:
    path = _file_arg("open", argv)
    if isinstance(path, int):
        return path
    # no file: None, and the window reopens the last encounter (offering its recovery
    # after a crash); the sample only when there is none (ui/app.py open_window)
    from .ui.window.display import display_problem  # lazy: start-up (standard library only)

    problem = display_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    from .ui.window.app import run_app  # lazy: start-up (Qt only for the window)

    return run_app(str(path) if path is not None else None)


def _summary_cmd(argv: list[str]) -> int:
    path = _file_arg("summary", argv)
    if isinstance(path, int):
        return path
    try:
        return _summary(path if path is not None else sample_encounter_path())
    except TwtwError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def _bench(argv: list[str]) -> int:
    from .bench import main as bench_main  # lazy: start-up (the benchmark only when asked for)

    try:
        return bench_main(argv)
    except SystemExit as e:  # its --help, or a usage mistake argparse printed
        return e.code if isinstance(e.code, int) else 2


def _play(argv: list[str]) -> int:
    from .play.script import main as play_main  # lazy: start-up
    from .tactics import autopilot  # noqa: F401 # lazy: start-up (registers "autopilot")

    return play_main(argv)


def _plan(argv: list[str]) -> int:
    from .tactics.autopilot import main as plan_main  # lazy: start-up

    return plan_main(argv)


def _serve(argv: list[str]) -> int:
    from .web.headless import main as serve_main  # lazy: start-up (aiohttp only when serving)

    try:
        from .ui.devices.picture_cut import cut_picture  # lazy: start-up (Qt cuts the picture)
    except ImportError:  # no Qt here: the pages are served without the background picture
        logging.getLogger(__name__).warning(
            "Qt is not available: the pages get no background picture (it is cut with Qt)"
        )
        return serve_main(argv)
    return serve_main(argv, cutter=cut_picture)


def _rules(argv: list[str]) -> int:
    from .play.rules_reference import main as rules_main  # lazy: start-up
    from .tactics import autopilot  # noqa: F401 # lazy: start-up (registers "autopilot")

    return rules_main(argv)


def _party(argv: list[str]) -> int:
    from .party_cli import main as party_main  # lazy: start-up

    return party_main(argv)


def _help(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(main_help())
        return 0
    name = argv[0]
    if name not in COMMANDS:
        print(
            f"twtw-desktop help: no subcommand {name!r} (see twtw-desktop --help)", file=sys.stderr
        )
        return 2
    return COMMANDS[name].run(["--help"])


@dataclass(frozen=True)
class Command:
    """One subcommand: how it is called, what it does in one line, and its runner."""

    name: str
    args: str
    summary: str
    run: Callable[[list[str]], int]


#: Every subcommand, in the order ``--help`` lists them. Add a row to add a subcommand.
COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("open", "[FILE]", "open the window on an encounter or a map (default)", _open),
        Command("summary", "[FILE]", "print an encounter's or a map's summary", _summary_cmd),
        Command(
            "validate",
            "FILE...",
            "check any file the app writes or reads; non-zero exit on failure",
            _validate,
        ),
        Command(
            "export",
            "MAP --pdf|--png|--uvtt OUT",
            "print a map, or write it as a Universal VTT battle map, without a window",
            _export,
        ),
        Command(
            "import",
            "IN.dd2vtt OUT.map.json",
            "make a map from a Universal VTT battle map (Dungeondraft, DungeonFog…)",
            _import,
        ),
        Command(
            "play",
            "ENCOUNTER --script A.jsonl",
            "apply table actions without a window (the journal's format)",
            _play,
        ),
        Command(
            "plan",
            "ENCOUNTER [--who ID,…] [--seed N] [--json]",
            "print each NPC's plan for the round (the autopilot) and its reasons",
            _plan,
        ),
        Command(
            "party", "export|import ...", "carry the posse's sheets from fight to fight", _party
        ),
        Command(
            "serve",
            "ENCOUNTER [--host H] [--port N] [--hide-names] [--no-fog] [--approve all|none]",
            "serve each posse character's page to phones on the local network",
            _serve,
        ),
        Command(
            "rules", "", "print the rules reference: each seed section and its handling", _rules
        ),
        Command("bench", "[--quick]", "run the speed benchmark (medians and ratios)", _bench),
        Command("help", "[SUBCOMMAND]", "this list, or one subcommand's options", _help),
    )
}


def main_help() -> str:
    width = max(len(f"{c.name} {c.args}") for c in COMMANDS.values())
    rows = [f"  {f'{c.name} {c.args}':<{width}}  {c.summary}" for c in COMMANDS.values()]
    return "\n".join(
        [
            "usage: twtw-desktop [-v] [--version] [SUBCOMMAND] [ARGS...]",
            "",
            "TWTW Desktop: a rules-aware hex tactical map for Judges of The West That Wasnt.",
            "Without a subcommand it opens the window (on FILE, or the sample encounter).",
            "",
            "subcommands:",
            *rows,
            "",
            "options:",
            "  -h, --help     this list",
            "  --version      print the version",
            "  -v, --verbose  progress lines on the terminal (-vv: debugging detail)",
            "",
            "twtw-desktop help SUBCOMMAND shows a subcommand's own options.",
        ]
    )


def _quiet_logging(verbosity: int) -> None:
    """Warnings and errors only, unless -v (progress) or -vv (debugging)."""
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(verbosity, 2)]
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger().setLevel(level)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    verbosity = 0
    rest: list[str] = []
    for i, a in enumerate(argv):
        if a == "--":
            rest += argv[i:]
            break
        if a in ("-v", "--verbose"):
            verbosity += 1
        elif a == "-vv":
            verbosity += 2
        else:
            rest.append(a)
    argv = rest
    _quiet_logging(verbosity)
    if argv and argv[0] in ("-h", "--help"):
        print(main_help())
        return 0
    if argv and argv[0] == "--version":
        print(f"twtw-desktop {version()}")
        return 0
    name = "open"
    if argv and argv[0] in COMMANDS:
        name = argv.pop(0)
    try:
        return COMMANDS[name].run(argv)
    except BrokenPipeError:  # the output went to `head` or a closed pager: not an error
        with contextlib.suppress(OSError):
            sys.stdout.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
