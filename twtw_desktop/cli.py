"""Command line entry point: ``twtw-desktop``.

    twtw-desktop [FILE]                 open the app (on the bundled sample encounter by default)
    twtw-desktop summary [FILE]         print an encounter's summary (no window)
    twtw-desktop validate FILE...       check maps and encounters; non-zero exit on any failure
    twtw-desktop bench [--quick]        run the speed benchmark (medians and ratios)

Qt is imported only when a window is opened, so ``summary``, ``validate`` and
``bench`` geometry work without a display.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import TwtwError
from .resources import maps_dir

SAMPLE_ENCOUNTER = "main_street.encounter.json"
COMMANDS = ("open", "summary", "validate", "bench")


def sample_encounter_path() -> Path:
    return maps_dir() / SAMPLE_ENCOUNTER


def _summary(path: Path) -> int:
    from .io import load_encounter
    from .rules.editions import load_edition

    loaded = load_encounter(path)
    enc = loaded.encounter
    m = loaded.map
    ed = load_edition(enc.edition)
    print(f"{enc.name}  ({path.name})")
    print(f"  edition: {ed.name}; mode: {enc.mode}")
    print(
        f"  map: {m.name}, {m.cols}×{m.rows} hexes ({m.orientation.value}-top), "
        f"{len(m.features)} walls/cover features, {len(m.labels)} labels"
    )
    sides: dict[str, list[str]] = {}
    for c in enc.characters:
        sides.setdefault(c.side, []).append(c.name)
    for side, names in sides.items():
        print(f"  {side}: {', '.join(names)}")
    print(f"  tokens on the map: {len(enc.tokens)} ({sum(t.hidden for t in enc.tokens)} hidden)")
    return 0


def _validate(paths: list[str]) -> int:
    from .io import validate_file

    if not paths:
        print("validate: name at least one map or encounter file", file=sys.stderr)
        return 2
    failed = 0
    for p in paths:
        problems = validate_file(Path(p))
        if problems:
            failed += 1
            for msg in problems:
                print(f"FAIL {p}: {msg}")
        else:
            print(f"OK   {p}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = "open"
    if argv and argv[0] in COMMANDS:
        command = argv.pop(0)

    if command == "validate":
        return _validate(argv)

    if command == "bench":
        from .bench import main as bench_main

        return bench_main(argv)

    parser = argparse.ArgumentParser(prog=f"twtw-desktop {command}".strip())
    parser.add_argument("file", nargs="?", help="encounter file (default: the bundled sample)")
    args = parser.parse_args(argv)
    path = Path(args.file) if args.file else sample_encounter_path()

    if command == "summary":
        try:
            return _summary(path)
        except TwtwError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1

    from .ui.app import run_app

    return run_app(str(path))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
