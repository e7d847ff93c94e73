"""The architecture rules DESIGN.md asks for, checked rather than remembered."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "twtw_desktop"
#: the one module outside ui/ that drives widgets: the benchmark's UI section (the
#: import contracts keep the rest of bench/ free of Qt)
QT_BENCH = Path("bench") / "ui.py"


def _may_use_qt(path: Path) -> bool:
    rel = path.relative_to(PKG)
    return rel.parts[:1] == ("ui",) or rel == QT_BENCH


def _qt_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for n in names:
            if n.split(".")[0] in ("PySide6", "shiboken6", "PyQt5", "PyQt6"):
                found.append(f"{path.relative_to(PKG.parent)}:{node.lineno} imports {n}")
    return found


def test_no_qt_import_outside_ui():
    offenders = []
    for path in PKG.rglob("*.py"):
        if _may_use_qt(path):
            continue
        offenders += _qt_imports(path)
    assert not offenders, "PySide6 imported outside twtw_desktop/ui/:\n" + "\n".join(offenders)


def test_core_modules_import_with_qt_blocked():
    """Every non-UI module imports in a fresh interpreter where PySide6 cannot load."""
    modules = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        parts = rel.parts
        if _may_use_qt(path):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] in ("__main__",):
            continue
        modules.append(".".join(parts))
    code = (
        "import importlib, importlib.abc, sys\n"
        "class B(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, n, p=None, t=None):\n"
        "        if n.split('.')[0] in ('PySide6','shiboken6'): raise ImportError(n)\n"
        "sys.meta_path.insert(0, B())\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(PKG.parent))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr


def test_every_package_folder_is_listed_for_the_wheel():
    """pyproject.toml lists packages by hand (the remapped resources package is not
    found by discovery); a new sub-package missing from it would be left out of the
    wheel."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(d.relative_to(root).parts)
        for d in (root / "twtw_desktop").rglob("*")
        if d.is_dir() and (d / "__init__.py").exists()
    } | {"twtw_desktop"}
    assert found <= listed, f"add to pyproject.toml packages: {sorted(found - listed)}"
    assert "twtw_desktop._resources" in listed
