"""Every fact a registry entry states about its measure holds, and no side table restates it.

The facts (``order_free``, ``closed_form``, ``needs_unretrieved``, ``lower_is_better``,
``convention_params``, ``variants``) are checked against the measures' own values on
generated runs with ties, so a wrong declaration in a new measure module fails here.
"""

from __future__ import annotations

import ast
import io
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._measures import REGISTRY, Measure
from ranklens._measures import _registry as registry_module

SRC = Path(__file__).resolve().parents[2] / "src" / "ranklens"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DOCS = [f"d{i}" for i in range(6)]
SCORE = st.integers(0, 3).map(float)  # four score levels over up to six docs: many ties


def _variants() -> list[Measure]:
    """Each registered measure without and with a cutoff, and once per value of each of its
    choice parameters (nDCG(ideal=run), AP(denom=hits)...)."""
    out: list[Measure] = []
    for name, defn in REGISTRY.items():
        # diversity measures read subtopic judgments: tests/unit/test_diversity.py checks them;
        # beyond-accuracy ones an item context: tests/unit/test_beyond.py
        if defn.text or defn.subtopics or defn.family == "beyond":
            continue
        cutoffs: list[int | float | None] = [] if defn.cutoff_required else [None]
        if defn.cutoff == "int":
            cutoffs.append(2)
        elif defn.cutoff == "float":
            cutoffs.append(0.5)
        for cutoff in cutoffs:
            out.append(Measure(name, (), cutoff))
            for p in defn.params:
                if p.constraint.kind == "choice" and p.name != "ties":
                    out.extend(Measure(name, ((p.name, c),), cutoff) for c in p.constraint.choices
                               if c != p.default)
    return out


VARIANTS = _variants()
ORDER_FREE = [m for m in VARIANTS if m.ignores_order]
CLOSED = [m for m in VARIANTS if m.definition.ties.closed_form is not None and not m.ignores_order]
RETRIEVED_ONLY = [m for m in VARIANTS if not m.reads_unretrieved]


@st.composite
def tied_cases(draw: st.DrawFn) -> tuple[dict, dict]:
    """Up to three queries, each with a run over up to six docs (few score levels) and
    judgments (grades -1..3) over some of them and some unretrieved ones."""
    qrels: dict = {}
    run: dict = {}
    for q in ("q0", "q1", "q2")[: draw(st.integers(1, 3))]:
        run[q] = draw(st.dictionaries(st.sampled_from(DOCS), SCORE, min_size=1, max_size=6))
        qrels[q] = draw(st.dictionaries(st.sampled_from([*DOCS, "u0", "u1"]),
                                        st.integers(-1, 3), min_size=1, max_size=6))
    return qrels, run


def _values(qrels: dict, run: dict, measures: list[Measure], **options: object) -> dict:
    result = ranklens.evaluate(qrels, run, measures, **options)
    return {str(m): result.per_query(str(m)) for m in measures}


def _close(a: dict, b: dict) -> bool:
    return all(x == pytest.approx(y, rel=1e-12, abs=1e-12, nan_ok=True)
               for m in a for x, y in zip(a[m].values(), b[m].values(), strict=True))


# -- declarations are well formed ---------------------------------------------------------


def test_every_entry_declares_its_facts_consistently() -> None:
    for name, defn in REGISTRY.items():
        declared = {p.name for p in defn.params}
        assert defn.ties.order_free in ("never", "always", "without_cutoff"), name
        assert set(defn.facts.convention_params) <= {"denom", "gain", "ideal"} & declared, name
        assert isinstance(defn.lower_is_better, bool), name
        unretrieved = defn.facts.needs_unretrieved
        assert isinstance(unretrieved, bool) or callable(unretrieved)
        if defn.ties.order_free == "without_cutoff":
            assert defn.cutoff is not None, f"{name}: without_cutoff needs a cutoff"
        if defn.text:
            assert defn.ties.closed_form is None, f"{name}: a text measure has no average"
        for variant, fixed in defn.variants:
            assert variant.lower() not in REGISTRY, variant
            for key, value in fixed:
                assert defn.param(key).check(value, name) == value


def test_variants_parse_to_their_fixed_parameters() -> None:
    for name, defn in REGISTRY.items():
        for variant, fixed in defn.variants:
            parsed = ranklens.parse_measure(f"{variant}@5")
            assert parsed == Measure(name, fixed, 5), variant


def test_the_variant_names_are_suggested() -> None:
    with pytest.raises(ranklens.MeasureError, match="ndcg_burges"):
        Measure("ndcg_burgess")


# -- order_free: the value ignores the order of the ranked documents ----------------------


@SETTINGS
@given(case=tied_cases(), seed=st.integers(0, 2**32 - 1))
def test_order_free_measures_ignore_every_order(case: tuple[dict, dict], seed: int) -> None:
    qrels, run = case
    rng = random.Random(seed)
    shuffled = {}
    for q, docs in run.items():
        items = list(docs.items())
        rng.shuffle(items)
        # distinct random scores: an arbitrary order, unlike any tie-break of the original
        shuffled[q] = {d: float(i) for i, (d, _) in enumerate(items)}
    base = _values(qrels, run, ORDER_FREE, ties="docid")
    assert _close(base, _values(qrels, shuffled, ORDER_FREE, ties="docid"))
    assert _close(base, _values(qrels, run, ORDER_FREE, ties="input"))


def test_order_matters_where_it_is_not_declared_free() -> None:
    # a wrong "never" costs only speed, but it is a wrong fact: each such measure must
    # change value when some ranking is reversed
    fixed = [m for m in VARIANTS if not m.ignores_order]
    unchanged = {str(m) for m in fixed}
    cases = [
        ({"q": {"a": 2, "b": 0, "c": 1}}, ["a", "b", "c", "d"]),
        ({"q": {"a": 1, "b": 1, "c": 0, "e": 1}}, ["a", "d", "c", "b"]),
        ({"q": {"a": 2, "b": 1, "c": -1, "e": 1}}, ["c", "d", "a", "b"]),
        ({"q": {"a": 1, "b": 0, "c": 0}}, ["a", "b", "c"]),
    ]
    for qrels, order in cases:
        forward = {"q": {d: float(len(order) - i) for i, d in enumerate(order)}}
        backward = {"q": {d: float(i + 1) for i, d in enumerate(order)}}
        one = _values(qrels, forward, fixed)
        two = _values(qrels, backward, fixed)
        unchanged -= {m for m in one if one[m] != two[m]}
    assert not unchanged, f"declared order-sensitive but never changed: {unchanged}"


# -- closed_form: equals the enumeration of tied orders -----------------------------------


@contextmanager
def _without_closed_forms() -> Iterator[None]:
    saved = dict(REGISTRY)
    try:
        for name, defn in saved.items():
            REGISTRY[name] = replace(defn, ties=replace(defn.ties, closed_form=None))
        yield
    finally:
        REGISTRY.update(saved)


@SETTINGS
@given(case=tied_cases())
def test_closed_forms_equal_the_enumeration(case: tuple[dict, dict]) -> None:
    qrels, run = case
    closed = _values(qrels, run, CLOSED, ties="average")
    with _without_closed_forms():
        enumerated = _values(qrels, run, CLOSED, ties="average")
    for m in closed:
        for q in closed[m]:
            assert closed[m][q] == pytest.approx(enumerated[m][q], rel=1e-9, abs=1e-12), (m, q)


# -- needs_unretrieved ---------------------------------------------------------------------


@SETTINGS
@given(case=tied_cases(), extra=st.lists(st.integers(0, 3), min_size=1, max_size=3))
def test_retrieved_only_measures_ignore_unretrieved_judgments(
    case: tuple[dict, dict], extra: list[int]
) -> None:
    qrels, run = case
    more = {}
    for q, judged in qrels.items():
        # within the query's grade scale: RBP rescales gains by the top judged level
        scale = max(1, *judged.values())
        added = {f"x{i}": min(g, scale) for i, g in enumerate(extra)}
        more[q] = {**judged, **added}
    assert _close(_values(qrels, run, RETRIEVED_ONLY), _values(more, run, RETRIEVED_ONLY))


def test_measures_that_read_unretrieved_judgments_do() -> None:
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}}
    # the last: a query without a relevant judgment (llama_index's measures raise there)
    cases = [({"q": {"a": 1, "b": 0, "c": 2}}, {"z": 2}), ({"q": {"a": 1}}, {"z": 1}),
             ({"q": {"a": 0}}, {"z": 1})]
    reading = [m for m in VARIANTS if m.reads_unretrieved] + [Measure("Utility")(c=1.0)]
    unchanged = {str(m) for m in reading}
    for qrels, added in cases:
        before = _values(qrels, run, reading)
        after = _values({"q": {**qrels["q"], **added}}, run, reading)
        unchanged -= {m for m in before if before[m] != after[m]}
    assert not unchanged, f"declared needs_unretrieved but never read them: {unchanged}"


def test_evaluate_arrays_warns_exactly_for_measures_reading_unretrieved() -> None:
    import warnings

    for m in VARIANTS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ranklens.evaluate_arrays([[1, 0, 1]], [m])
        warned = any("n_relevant" in str(w.message) for w in caught)
        assert warned == m.reads_unretrieved, str(m)


# -- lower_is_better -----------------------------------------------------------------------


# Counts are summed (no value of a count is better); IdealDCG reads the judgments only, so
# no set of runs separates it.
@pytest.mark.parametrize("name", [n for n, d in REGISTRY.items()
                                  if not d.text and d.aggregate != "sum" and n != "IdealDCG"
                                  and not d.subtopics and d.family != "beyond"])
def test_rendering_bolds_the_better_value(name: str) -> None:
    from rich.console import Console

    from ranklens._surfaces.render import rich_table

    defn = REGISTRY[name]
    # a required cutoff of the declared kind (SDCG@k needs an integer)
    m = Measure(name, (), (1 if defn.cutoff == "int" else 0.5) if defn.cutoff_required
                else None)
    qrels = {"q": {"a": 2, "b": 0}}  # 2: relevant to open-rag-eval's measures too
    runs = [{"q": {"a": 2.0, "x": 1.0}}, {"q": {"x": 2.0, "b": 1.5, "a": 1.0}},
            {"q": {"b": 2.0, "a": 1.0}}, {"q": {"b": 2.0}}]
    results = [ranklens.evaluate(qrels, r, [m], run_name=f"run{i}") for i, r in enumerate(runs)]
    values = [res[str(m)] for res in results]
    assert len(set(values)) >= 2, f"{m} does not separate these runs"
    best = (min if defn.lower_is_better else max)(values)
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system="standard")
    console.print(rich_table(results))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    for i, value in enumerate(values):
        row = next(line for line in lines if f"run{i}" in line)
        assert ("\x1b[1m" in row) == (value == best), (name, values)


# -- conventions read the entries ----------------------------------------------------------


def test_conventions_set_exactly_the_declared_parameters() -> None:
    custom = ranklens.Convention("all", "every parameter off its default",
                                 ap_denominator="min", gain="exp2", ideal="run")
    for name, defn in REGISTRY.items():
        assert set(custom.measure_defaults(name)) == set(defn.facts.convention_params), name


# -- no side tables ------------------------------------------------------------------------

# Where measure names may be listed, and why: trec_eval's own measure lists (its -m groups
# and output order) are facts of trec_eval, not of a measure, and live with its semantics.
_ALLOWED = ("_measures/", "_surfaces/trec_eval/", "cli/_trec_table.py", "cli/_trec_eval.py")


def _literal_strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Dict):
        elements = [k for k in node.keys if k is not None] + list(node.values)
    elif isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        elements = list(node.elts)
    else:
        return []
    return [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def test_no_module_outside_the_measures_holds_a_table_of_measure_names() -> None:
    names = set(REGISTRY)
    problems = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(_ALLOWED):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            listed = [s for s in _literal_strings(node) if s in names]
            if len(listed) >= 2:
                problems.append(f"{rel}:{node.lineno} lists {listed}")
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Constant) and side.value in names:
                        problems.append(f"{rel}:{node.lineno} compares with {side.value!r}")
    assert not problems, "\n".join(problems)


def test_the_guard_sees_a_table() -> None:
    # the scan above must flag the shape of table it exists to forbid
    tree = ast.parse('_LOWER = frozenset({"Unj", "RBPResid"})')
    assert any(len([s for s in _literal_strings(n) if s in REGISTRY]) >= 2
               for n in ast.walk(tree))


# -- imports -------------------------------------------------------------------------------


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (every import statement, even in functions)."""
    modules: dict[str, Path] = {}
    for path in SRC.rglob("*.py"):
        parts = ["ranklens", *path.relative_to(SRC).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                mod = ".".join([*base, *([node.module] if node.module else [])])
                targets.add(mod)
                targets.update(f"{mod}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


REGISTRY_MODULES = ("ranklens._measures", "ranklens._names", "ranklens._names.conventions",
                    "ranklens._surfaces.evaluate_arrays", "ranklens.cli._measures")


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_registry_modules_are_in_no_import_cycle() -> None:
    for cycle in _cycles(_import_graph()):
        mine = {m for m in cycle if m.startswith(REGISTRY_MODULES)}
        assert not mine, f"import cycle through {sorted(cycle)}"


def test_tie_machinery_imports_no_measure_module() -> None:
    graph = _import_graph()
    measure_modules = {m for m in graph if m.startswith("ranklens._measures.")
                       and not m.rsplit(".", 1)[1].startswith("_")}
    assert not graph["ranklens._measures._ties"] & measure_modules
    assert not {m for m in graph["ranklens._measures._registry"]
                if m.startswith("ranklens._measures")}


def test_every_measure_module_is_discovered() -> None:
    # a measure of the item context is defined by its context kernel or its finish
    found = {(defn.items.finish or defn.items.context or defn.kernel).__module__
             for defn in REGISTRY.values()}
    public = {f"ranklens._measures.{p.stem}" for p in (SRC / "_measures").glob("*.py")
              if not p.stem.startswith("_")}
    # trec_params declares no measure; every other public module registers one
    assert found == public - {"ranklens._measures.trec_params"}
    assert registry_module.known_names() == ranklens._names.all_names()


def test_every_named_table_is_one_registry_with_its_suggestions() -> None:
    from ranklens._base.registry import Registry
    from ranklens._measures._prefs import PREF_REGISTRY
    from ranklens._names.conventions import CONVENTIONS, get_convention
    from ranklens._surfaces.agreement.measures import AGREEMENT
    from ranklens._surfaces.fusion.registry import METHODS

    for table in (REGISTRY, PREF_REGISTRY, CONVENTIONS, AGREEMENT, METHODS):
        assert isinstance(table, Registry)
    r: Registry[int] = Registry("number")
    r.add("One", 1, aliases=("one_",))
    r.add("Two", 2, aliases=("two",))
    # a canonical name wins over a spelling that folds alike; extra spellings are read too
    assert r.suggest("ONE", 1, 0.5) == ["One"]
    assert r.suggest("twoo", 1, 0.5) == ["Two"]
    assert r.suggest("three", 2, 0.5, extra=("thre",)) == ["thre"]
    assert get_convention("Scikit-Learn") is CONVENTIONS["sklearn"]
    with pytest.raises(ranklens.MeasureError, match="did you mean 'Jaccard'"):
        ranklens.parse_agreement("JACARD")
