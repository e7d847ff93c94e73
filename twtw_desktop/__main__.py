"""``python -m twtw_desktop`` is the same as the ``twtw-desktop`` command.

The import is absolute: PyInstaller runs this file as a top-level script (no parent
package), where a relative import fails and nothing of ``twtw_desktop`` is collected.
"""

import io
import sys

if getattr(sys, "frozen", False) and sys.argv[1:2] == ["-c"] and len(sys.argv) > 2:
    # In a bundle sys.executable is this program, not a Python: code that starts a fresh
    # interpreter with ``sys.executable -c CODE`` (the benchmark's start-up figure) runs
    # here as ``python -c CODE`` would run it.
    # (line-buffered, so what it prints survives an os._exit)
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    code = sys.argv[2]
    sys.argv = ["-c", *sys.argv[3:]]
    exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
    sys.exit(0)

from twtw_desktop.cli import main

sys.exit(main())
