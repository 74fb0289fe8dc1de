"""The folders of ``src/ranklens`` are its layers: each imports only those below it.

The order is read from the layout as docs/architecture.md draws it: the first code block
under "The package order" names, from the top, one layer between two rules (``───``), the
folders (``_model/``) and top-level modules (``__main__.py``) of ``src/ranklens`` in it.
Every top-level folder and module stands in exactly one layer; the root package
(``ranklens/__init__.py``, the public surface) may import anything. Every import
statement counts, deferred and ``TYPE_CHECKING`` ones included
(:func:`test_import_graph.import_graph`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_import_graph import ROOT, find_cycle, import_graph

ARCHITECTURE = ROOT.parents[1] / "docs" / "architecture.md"
#: At most this many modules beside the layer folders (the public root, ``__main__``, the version).
MOST_TOP_MODULES = 6


def top_entries(root: Path = ROOT) -> set[str]:
    """The top-level folders and modules of the package, as ``ranklens.<name>``."""
    return {f"ranklens.{p.stem}" for p in root.iterdir()
            if (p.is_dir() and (p / "__init__.py").exists())
            or (p.suffix == ".py" and p.name != "__init__.py")}


def layers(text: str | None = None, root: Path = ROOT) -> list[list[str]]:
    """Lowest first: each layer's top-level entries, read from the architecture page."""
    text = ARCHITECTURE.read_text(encoding="utf-8") if text is None else text
    section = text.split("## The package order", 1)[1]
    block = section.split("```", 2)[1]
    entries = top_entries(root)
    out = []
    for part in re.split(r"^\s*─+\s*$", block, flags=re.M):
        names = [f"ranklens.{m.group(1) or m.group(2)}"
                 for m in re.finditer(r"(?<![\w/.])(?:(\w+)/|(\w+)\.py)", part)]
        names = [n for n in names if n in entries]
        if names:
            out.append(names)
    return out[::-1]


def package_of(module: str) -> str:
    """``ranklens._model.align`` -> ``ranklens._model``; the root stays the root."""
    return ".".join(module.split(".")[:2])


def subpackage_of(module: str) -> str:
    """``ranklens._surfaces.fusion.fuse`` -> ``ranklens._surfaces.fusion``."""
    return ".".join(module.split(".")[:3])


def graph_by(key) -> dict[str, set[str]]:  # type: ignore[no-untyped-def]
    graph: dict[str, set[str]] = {}
    for importer, imported in import_graph().items():
        edges = graph.setdefault(key(importer), set())
        edges.update(key(m) for m in imported if key(m) != key(importer))
    return graph


def package_graph() -> dict[str, set[str]]:
    return graph_by(package_of)


def test_every_top_entry_has_one_layer() -> None:
    listed = [name for layer in layers() for name in layer]
    assert sorted({n for n in listed if listed.count(n) > 1}) == []
    assert sorted(top_entries() - set(listed)) == [], "draw the new folder in architecture.md"


def test_the_top_level_holds_few_modules() -> None:
    modules = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(modules) <= MOST_TOP_MODULES, modules


def test_no_package_imports_a_layer_above_it() -> None:
    rank = {name: i for i, layer in enumerate(layers()) for name in layer}
    upward = sorted(
        f"{importer} -> {imported}"
        for importer, edges in package_graph().items() if importer != "ranklens"
        for imported in edges if rank[imported] > rank[importer]
    )
    assert upward == [], "imports against the layer order:\n" + "\n".join(upward)


def test_the_package_graph_has_no_cycle() -> None:
    cycle = find_cycle(package_graph())
    assert cycle is None, "package cycle: " + " -> ".join(cycle or [])


def test_the_parts_of_each_layer_have_no_cycle() -> None:
    cycle = find_cycle(graph_by(subpackage_of))
    assert cycle is None, "cycle between parts of a layer: " + " -> ".join(cycle or [])


def test_the_layers_are_read_from_the_drawing() -> None:
    drawing = ("## The package order\n\n```\n top   cli/\n       __main__.py\n ───\n"
               " low   _base/  x/\n```\n")
    assert layers(drawing) == [["ranklens._base"], ["ranklens.cli", "ranklens.__main__"]]


@pytest.mark.parametrize(("module", "package"), [
    ("ranklens._model.align", "ranklens._model"),
    ("ranklens._base.errors", "ranklens._base"),
    ("ranklens", "ranklens"),
])
def test_a_module_belongs_to_its_top_package(module: str, package: str) -> None:
    assert package_of(module) == package
