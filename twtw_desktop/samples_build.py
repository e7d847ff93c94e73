"""Build the bundled sample maps and encounters into ``maps/``.

``python -m twtw_desktop.samples_build`` rewrites every sample listed in
:data:`twtw_desktop.sample_maps.SAMPLES` (each map module builds its map and
encounter); ``--check`` only compares and exits 1 when a file on disk differs. The
output is deterministic (no clock, no randomness, all coordinates rounded to 3
decimals), so rebuilding gives identical bytes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .io.files import save_encounter, save_map
from .resources import maps_dir
from .sample_maps import SAMPLES
from .sample_maps.main_street import (
    ENCOUNTER_FILE,
    MAP_FILE,
    main_street_encounter,
    main_street_map,
)

__all__ = [
    "ENCOUNTER_FILE",
    "MAP_FILE",
    "build",
    "main",
    "main_street_encounter",
    "main_street_map",
]


def build(out_dir: Path | str) -> list[Path]:
    """Write every sample map and encounter into ``out_dir``; returns their paths
    (map then encounter, sample by sample)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for sample in SAMPLES:
        map_path, enc_path = out / sample.map_file, out / sample.encounter_file
        save_map(sample.build_map(), map_path)
        save_encounter(sample.build_encounter(), enc_path)
        paths += [map_path, enc_path]
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m twtw_desktop.samples_build",
        description="Rebuild the bundled sample maps and encounters.",
    )
    parser.add_argument("--out", type=Path, default=None, help="folder (default: maps/)")
    parser.add_argument(
        "--check", action="store_true", help="compare with the files on disk, write nothing"
    )
    args = parser.parse_args(argv)
    out = args.out or maps_dir()
    if not args.check:
        for p in build(out):
            print(f"wrote {p}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        stale = [
            p.name
            for p in build(tmp)
            if not (out / p.name).is_file() or (out / p.name).read_bytes() != p.read_bytes()
        ]
    for name in stale:
        print(f"{out / name} is out of date; run python -m twtw_desktop.samples_build")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
