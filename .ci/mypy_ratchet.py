"""mypy over twtw_desktop: no error outside ui/, and in ui/ no more than the number
checked in beside this file (mypy_ui_baseline.txt), which may only go down.

    .venv/bin/python .ci/mypy_ratchet.py           # check (what .ci/run does)
    .venv/bin/python .ci/mypy_ratchet.py --lower   # after fixing ui/ errors: lock the
                                                   # new, lower count in
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).resolve().parent / "mypy_ui_baseline.txt"
ERROR = re.compile(r"^(?P<path>[^:\s]+\.py):\d+(?::\d+)?: error:")


def main(argv: list[str]) -> int:
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    if status == 2:  # mypy itself failed (bad config, crash): not a count to compare
        print(stdout + stderr, file=sys.stderr)
        return 2
    outside: list[str] = []
    ui = 0
    for line in stdout.splitlines():
        m = ERROR.match(line)
        if m is None:
            continue
        if Path(m["path"]).as_posix().startswith("twtw_desktop/ui/"):
            ui += 1
        else:
            outside.append(line)
    allowed = int(BASELINE.read_text(encoding="utf-8").split()[0])
    print(f"mypy: {len(outside)} error(s) outside ui/ (allowed 0), {ui} in ui/ (allowed {allowed})")
    failed = False
    if outside:
        print("\n".join(outside))
        failed = True
    if ui > allowed:
        print(
            f"ui/ has {ui - allowed} mypy error(s) more than {BASELINE.name} allows: fix them "
            "(`.venv/bin/mypy | grep ^twtw_desktop/ui/` lists them all)"
        )
        failed = True
    elif ui < allowed:
        if "--lower" in argv:
            BASELINE.write_text(f"{ui}\n", encoding="utf-8")
            print(f"{BASELINE.name} lowered to {ui}")
        else:
            print(f"ui/ is down to {ui}: run `.ci/mypy_ratchet.py --lower` to keep it there")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
