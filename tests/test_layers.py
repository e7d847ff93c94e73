"""The import rules `lint-imports` cannot see (the contracts themselves live in
pyproject.toml under ``[tool.importlinter]`` and run in .ci/run).

* No module takes part in an import cycle, counting function-local imports and a
  package's ``__init__`` (the ``acyclic_siblings`` contract only compares siblings, so
  a module importing its own package's ``__init__`` that imports it back slips past
  it), also where the import is ``from . import sibling``, which runs the package's
  ``__init__`` first. The cycles ui/ still has are the contract's ``ignore_imports``; they count as
  broken here too.
* Outside ui/, an import inside a function is there only to keep start-up fast, and
  says so with a ``# lazy: start-up`` comment on its line or just above its block.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "twtw_desktop"
LAZY = "# lazy: start-up"


def _known_ui_cycle_imports() -> set[tuple[str, str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (acyclic,) = [c for c in contracts if c["type"] == "acyclic_siblings"]
    pairs = set()
    for line in acyclic.get("ignore_imports", []):
        importer, imported = (part.strip() for part in line.split("->"))
        pairs.add((importer, imported))
    return pairs


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("twtw_desktop", cache_dir=None)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _from_package_edges(modules: set[str]) -> set[tuple[str, str]]:
    """``from PKG import name`` runs PKG's ``__init__`` whatever ``name`` is (grimp
    records only the submodule when ``name`` is one): an edge to the package too."""
    out = set()
    for path in PKG.rglob("*.py"):
        me = _module_name(path)
        here = me.split(".") if path.name == "__init__.py" else me.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target in modules and target != me:
                out.add((me, target))
    return out


def test_no_import_cycles(graph):
    known = _known_ui_cycle_imports()
    edges = {
        m: {d for d in graph.find_modules_directly_imported_by(m) if (m, d) not in known}
        for m in graph.modules
    }
    for importer, package in _from_package_edges(set(graph.modules)):
        if (importer, package) not in known:
            edges[importer].add(package)
    cycles = _cycles(edges)
    assert not cycles, "import cycles (move code down a layer or split a module):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_known_ui_cycle_imports_still_exist(graph):
    """A broken cycle's line must leave the list, so the list only shrinks."""
    gone = [
        f"{a} -> {b}"
        for a, b in sorted(_known_ui_cycle_imports())
        if b not in graph.find_modules_directly_imported_by(a)
    ]
    assert not gone, "remove from [tool.importlinter] ignore_imports: " + ", ".join(gone)


def _function_local_imports(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    tree = ast.parse("\n".join(lines), filename=str(path))
    unexplained = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            if LAZY in lines[node.lineno - 1]:
                continue
            # walk up through the imports of the same block to the comment above them
            above = node.lineno - 2
            while above >= 0 and lines[above].lstrip().startswith(("from ", "import ")):
                above -= 1
            if above >= 0 and lines[above].strip().startswith(LAZY):
                continue
            rel = path.relative_to(ROOT)
            unexplained.append(f"{rel}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return unexplained


def test_function_local_imports_outside_ui_say_why():
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path.relative_to(PKG).parts[0] == "ui":
            continue
        found += _function_local_imports(path)
    assert not found, (
        f"an import inside a function needs a '{LAZY}' comment (or belongs at the top of "
        "the module):\n" + "\n".join(found)
    )
