"""Issue #30: a panel is a small class laying out its parts, each part one idea in a
file of its own, so no file is a program of its own. Read with ``ast``, without Qt.

* No file under ``twtw_desktop/ui/`` is over 800 lines.
* No function under ``twtw_desktop/ui/panels/`` is over 80 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "twtw_desktop" / "ui"
PANELS = UI / "panels"

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80
#: where the file-length rule holds: all of ui/
LONG_FILE_ROOTS = (UI,)


def _files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.py"))


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _long_functions(path: Path, limit: int, base: Path = ROOT) -> list[str]:
    """``file:line name (n lines)`` of each function or method of ``path`` longer than
    ``limit`` lines, decorators included (``file`` relative to ``base``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                rel = path.relative_to(base).as_posix()
                out.append(f"{rel}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_the_checks_see_the_panels():
    """The rules read real files (a moved folder would make them pass on nothing)."""
    names = {p.name for p in _files(PANELS)}
    assert {"attack_panel.py", "track_panel.py", "sheet_panel.py"} <= names
    assert len(names) > 20  # the panels and their parts


def test_no_file_under_the_panels_is_over_800_lines():
    long = [
        f"{p.relative_to(ROOT).as_posix()} ({_line_count(p)} lines)"
        for root in LONG_FILE_ROOTS
        for p in _files(root)
        if _line_count(p) > MAX_FILE_LINES
    ]
    assert not long, "split these into parts of one idea each: " + "; ".join(long)


def test_no_function_under_the_panels_is_over_80_lines():
    long = [f for p in _files(PANELS) for f in _long_functions(p, MAX_FUNCTION_LINES)]
    assert not long, "cut these into named steps: " + "; ".join(long)


def test_the_rules_catch_a_long_file_and_a_long_function(tmp_path):
    """The two measures count what they say (a sample over each limit, one at it)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    at_limit = tmp_path / "at.py"
    at_limit.write_text(f"def f():\n{body}\n", encoding="utf-8")
    over = tmp_path / "over.py"
    over.write_text(f"@staticmethod\ndef f():\n{body}\n", encoding="utf-8")
    assert _long_functions(at_limit, MAX_FUNCTION_LINES, tmp_path) == []
    assert _long_functions(over, MAX_FUNCTION_LINES, tmp_path) == ["over.py:2 f (81 lines)"]
    assert _line_count(over) == MAX_FUNCTION_LINES + 1
