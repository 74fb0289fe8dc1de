"""The packages of ``src/ranklens`` stack in layers: each imports only those below it.

docs/architecture.md draws the same order. A top-level module (``_errors.py``) counts as a
package of its own; the root package (``ranklens/__init__.py``, the public surface) may
import anything. Every import statement counts, deferred and ``TYPE_CHECKING`` ones
included (:func:`test_import_graph.import_graph`).
"""

from __future__ import annotations

import pytest
from test_import_graph import find_cycle, import_graph

#: Lowest first. Within a layer, packages may import each other only in list order too:
#: the list is one total order of the packages.
LAYERS: list[tuple[str, list[str]]] = [
    ("base", ["_version", "_errors", "_outputs", "_validate", "_lazy", "_c_numbers",
              "_groups", "_pandas", "_threads", "_hashcodes"]),
    ("tables and ingest", ["_columns", "_tables", "_item_tables", "_io"]),
    ("data model", ["_model"]),
    ("measures", ["_measures"]),
    ("names and conventions", ["_names", "_conventions"]),
    ("results", ["_interval", "_result", "_results"]),
    ("pipeline", ["_pipeline"]),
    ("surfaces", ["_render", "_chunked", "_evaluate", "_judgments", "_evaluate_arrays",
                  "_trec_eval", "_compare", "_correlation", "_residual", "spark", "_report",
                  "_agreement", "_pool", "_accumulator", "_fusion"]),
    ("command line", ["cli", "__main__"]),
]

ORDER = [f"ranklens.{name}" for _, names in LAYERS for name in names]


def package_of(module: str) -> str:
    """``ranklens._model.align`` -> ``ranklens._model``; the root stays the root."""
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for importer, imported in import_graph().items():
        edges = graph.setdefault(package_of(importer), set())
        edges.update(package_of(m) for m in imported if package_of(m) != package_of(importer))
    return graph


def test_every_package_has_a_layer() -> None:
    packages = set(package_graph()) - {"ranklens"}
    assert sorted(packages - set(ORDER)) == [], "add the new package to LAYERS"
    assert sorted(set(ORDER) - packages) == [], "LAYERS names a package that is gone"


def test_no_package_imports_one_above_it() -> None:
    rank = {name: i for i, name in enumerate(ORDER)}
    upward = sorted(
        f"{importer} -> {imported}"
        for importer, edges in package_graph().items() if importer != "ranklens"
        for imported in edges if rank[imported] > rank[importer]
    )
    assert upward == [], "imports against the layer order:\n" + "\n".join(upward)


def test_the_package_graph_has_no_cycle() -> None:
    cycle = find_cycle(package_graph())
    assert cycle is None, "package cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize(("module", "package"), [
    ("ranklens._model.align", "ranklens._model"),
    ("ranklens._errors", "ranklens._errors"),
    ("ranklens", "ranklens"),
])
def test_a_module_belongs_to_its_top_package(module: str, package: str) -> None:
    assert package_of(module) == package
