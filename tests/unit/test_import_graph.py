"""No import cycle anywhere in ``src/ranklens``.

Every ``import`` and ``from ... import`` statement counts: at module level, inside
functions and under ``TYPE_CHECKING``. Relative imports are resolved to module names
(``from .x import y`` is the submodule ``x.y`` when that is a module, else ``x``); the
implicit import of a parent package is not an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "ranklens"
ROOT = Path(__file__).resolve().parents[2] / "src" / PACKAGE

def _modules(root: Path) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of a (possibly relative) ``from`` import's module."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([module] if module else []))


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Edges importer -> imported between the package's own modules."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize(("source", "edges"), [
    # every kind of import statement is an edge; a cycle through a deferred import counts
    ({"a": "from . import b\n", "b": "def f():\n    from .a import x\n"},
     {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}),
    ({"a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.b\n",
      "b": "import os\n"},
     {"pkg.a": {"pkg.b"}, "pkg.b": set()}),
    ({"sub/__init__.py": "from ..a import y\n", "sub/c": "from . import d\n", "sub/d": "",
      "a": "from .sub.c import z\n"},
     {"pkg": set(), "pkg.a": {"pkg.sub.c"}, "pkg.sub": {"pkg.a"}, "pkg.sub.c": {"pkg.sub.d"},
      "pkg.sub.d": set()}),
])
def test_the_graph_sees_every_import(tmp_path: Path, source: dict[str, str],
                                     edges: dict[str, set[str]]) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    for name, text in source.items():
        path = root / (name if name.endswith(".py") else f"{name}.py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    graph = import_graph(root)
    assert {k: v for k, v in graph.items() if k in edges} == edges


def test_a_cycle_is_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
