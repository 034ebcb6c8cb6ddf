"""The package's layers, read from its source with `ast`: imports go one way, without side doors.

Every import counts, at any level: inside a function and under `if TYPE_CHECKING:` too (a circle that only
a function-level import keeps open is still a circle; a type-only import is still a dependency). Only
imports of ari_cli's own modules are read. The package itself (`ari_cli/__init__.py`) is the lazy front
door: it imports its public names only for type checkers and on first use (PEP 562), so its edges are left
out; every other module's are kept.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ari_cli"
FRONT_DOOR = "ari_cli"


def _modules() -> dict[str, Path]:
    """Each module's dotted name and file; a package is its `__init__.py`."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules an import statement names (`from a import b` names `a`, and `a.b` if b is one)."""
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            here = here[: len(here) - (node.level - 1)]
            base = ".".join([*here, *([node.module] if node.module else [])])
        named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return {module for module in named if module in MODULES and module != name}


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        edges: set[str] = set()
        if name != FRONT_DOOR:
            for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
                edges |= _targets(name, path, node)
        graph[name] = edges
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def _described(graph: dict[str, set[str]], group: list[str]) -> str:
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & set(group)))}" for m in group)


def test_the_reader_finds_what_it_looks_for() -> None:
    """The walk sees this package (else every assertion below would pass on nothing), and the finder finds
    a circle, a function-level import and a relative import when there is one."""
    assert len(MODULES) > 100 and "ari_cli.journal.store" in MODULES
    assert "ari_cli.journal.schema" in _graph()["ari_cli.journal.store"]
    made = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert _circles(made) == [["a", "b", "c"]]
    code = ast.parse("def f():\n    from .schema import OK\n    from ari_cli.render.changes import diff\n")
    path = MODULES["ari_cli.journal.store"]
    named = set().union(*(_targets("ari_cli.journal.store", path, node) for node in _imports(code)))
    assert named == {"ari_cli.journal.schema", "ari_cli.render.changes", "ari_cli.render.changes.diff"}


def test_no_import_circle() -> None:
    graph = _graph()
    circles = _circles(graph)
    assert not circles, "\n".join(_described(graph, group) for group in circles)


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m.startswith("ari_cli.render")))
def test_render_imports_nothing_of_app(name: str) -> None:
    """Result types live where both can reach them: render shows what app made without knowing app."""
    assert not {m for m in _graph()[name] if m == "ari_cli.app" or m.startswith("ari_cli.app.")}


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m.startswith("ari_cli.app")))
def test_app_names_no_sqlite3(name: str) -> None:
    """The journal is read through its readers, which take and give plain values: app/ does not know it is SQLite."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    imported = {alias.name for node in _imports(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in _imports(tree) if isinstance(node, ast.ImportFrom) and node.module}
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert "sqlite3" not in imported | named


# Imports inside functions are for the lazy front doors only: a command's callback importing its doing module
# (cli/doing/), the root's boundary, and a few optional heavy pieces, each with a comment saying why. Anything
# else goes to module level; where that makes a circle, the shared piece moves down a layer (issue 41).
MOST_FUNCTION_IMPORTS = 39


def _function_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.update((id(inner), inner) for inner in _imports(node))  # a nested function's counted once
    return list(found.values())


def test_the_counter_counts_imports_inside_functions_only() -> None:
    code = ast.parse(
        "import os\n"
        "def f():\n    import sys\n    def g():\n        from ari_cli import exits\n"
        "class C:\n    def m(self):\n        import json\n"
    )
    assert sorted(ast.unparse(node) for node in _function_imports(code)) == [
        "from ari_cli import exits",
        "import json",
        "import sys",
    ]


def test_few_imports_inside_functions() -> None:
    where = {
        str(path.relative_to(PACKAGE.parent)): len(found)
        for path in MODULES.values()
        if (found := _function_imports(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert sum(where.values()) <= MOST_FUNCTION_IMPORTS, sorted(where.items(), key=lambda item: -item[1])
