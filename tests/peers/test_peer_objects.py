"""Other libraries' objects as inputs: ranx ``Qrels`` / ``Run``, ir_measures and ir_datasets
rows (namedtuples with ``query_id, doc_id, relevance`` / ``score``) and ``"irds:<id>"``.

Differential: the same random judgments and run, written as TREC files and built as each
peer's objects, give identical per-query values (ranklens ranks every form itself, so
tied scores too). ir_datasets is given a tiny dataset registered locally (no network).
"""

from __future__ import annotations

import collections
import random
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import polars.testing
import pytest

import ranklens
from ranklens import InputError

ranx = pytest.importorskip("ranx")

MEASURES = ["AP", "nDCG@10", "P@5", "RR", "R@100"]

#: a plain namedtuple with ir_measures' fields, for when ir_measures is not installed
PlainQrel = collections.namedtuple("PlainQrel", "query_id doc_id relevance iteration")
PlainScoredDoc = collections.namedtuple("PlainScoredDoc", "query_id doc_id score")


def _data(seed: int = 20261126) -> tuple[dict[str, dict[str, int]],
                                         dict[str, dict[str, float]]]:
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for i in range(25):
        q = f"q{i}"
        docs = [f"d{j}" for j in range(60)]
        judged = rng.sample(docs, rng.randint(1, 20))
        qrels[q] = {d: rng.choice([0, 0, 1, 2, 3]) for d in judged}
        if i % 7 == 3:
            continue  # a judged query the run lacks
        ranked = rng.sample(docs, rng.randint(1, 40))
        # some tied scores: ranklens breaks them the same way whatever the input form
        run[q] = {d: rng.randint(0, 30) / 4 for d in ranked}
    run["unjudged"] = {"d1": 1.0}
    return qrels, run


def _write(tmp_path: Path, qrels: dict, run: dict) -> tuple[Path, Path]:
    qpath, rpath = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qpath.write_text("".join(f"{q} 0 {d} {r}\n" for q, docs in qrels.items()
                             for d, r in docs.items()))
    rpath.write_text("".join(f"{q} Q0 {d} {i} {s!r} tag\n" for q, docs in run.items()
                             for i, (d, s) in enumerate(docs.items(), 1)))
    return qpath, rpath


def _rows(qrels: dict, run: dict, qrel: Any, scored: Any) -> tuple[list, list]:
    extra = ("0",) if "iteration" in qrel._fields else ()
    return ([qrel(q, d, r, *extra) for q, docs in qrels.items() for d, r in docs.items()],
            [scored(q, d, s) for q, docs in run.items() for d, s in docs.items()])


def _per_query(qrels: Any, run: Any) -> pl.DataFrame:
    with pytest.warns(ranklens.RanklensWarning):  # the unjudged query, the missing one
        return ranklens.evaluate(qrels, run, MEASURES).to_polars()


def _row_classes() -> list[tuple[Any, Any]]:
    classes: list[tuple[Any, Any]] = [(PlainQrel, PlainScoredDoc)]
    try:
        import ir_measures
    except ImportError:
        return classes
    return [(ir_measures.Qrel, ir_measures.ScoredDoc), *classes]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict, pl.DataFrame]:
    qrels, run = _data()
    qpath, rpath = _write(tmp_path_factory.mktemp("peers"), qrels, run)
    expected = _per_query(str(qpath), str(rpath))
    assert expected.height == len(qrels)
    # the files are what the dicts say
    pl.testing.assert_frame_equal(_per_query(qrels, run), expected)
    return qrels, run, expected


def test_ranx_objects_give_the_files_values(data: tuple[dict, dict, pl.DataFrame]) -> None:
    qrels, run, expected = data
    got = _per_query(ranx.Qrels(qrels), ranx.Run(run, name="bm25"))
    pl.testing.assert_frame_equal(got, expected)
    # with plain dicts on the other side too
    pl.testing.assert_frame_equal(_per_query(ranx.Qrels(qrels), run), expected)
    pl.testing.assert_frame_equal(_per_query(qrels, ranx.Run(run)), expected)


@pytest.mark.parametrize("classes", _row_classes(), ids=lambda c: c[0].__module__)
def test_rows_give_the_files_values(data: tuple[dict, dict, pl.DataFrame],
                                    classes: tuple[Any, Any]) -> None:
    qrels, run, expected = data
    qrel_rows, run_rows = _rows(qrels, run, *classes)
    pl.testing.assert_frame_equal(_per_query(qrel_rows, run_rows), expected)
    pl.testing.assert_frame_equal(_per_query(tuple(qrel_rows), tuple(run_rows)), expected)
    # generators are read once: their first row is not lost to the look at it
    pl.testing.assert_frame_equal(
        _per_query((x for x in qrel_rows), (x for x in run_rows)), expected)


def test_a_ranx_run_keeps_its_name_and_counts_as_one_run() -> None:
    qrels, run = {"q1": {"a": 1}}, {"q1": {"a": 2.0, "b": 1.0}}
    assert ranklens.load_run(ranx.Run(run, name="bm25")).name == "bm25"
    assert ranklens.load_run(ranx.Run(run, name="bm25"), name="mine").name == "mine"
    assert ranklens.load_run(ranx.Run(run)).name == "run"
    several = ranklens.evaluate(qrels, [ranx.Run(run, name="a"), ranx.Run(run, name="b")],
                                ["RR"])
    assert several.run_names == ("a", "b")
    with pytest.warns(ranklens.RanklensWarning, match="retrieved no judged document"):
        named = ranklens.evaluate(qrels, {"x": ranx.Run(run, name="a"),
                                          "y": [PlainScoredDoc("q1", "b", 1.0)]}, ["RR"])
    assert named.run_names == ("x", "y")
    assert named.aggregates("RR").tolist() == [1.0, 0.0]


def test_compare_and_report_accept_peer_objects(data: tuple[dict, dict, pl.DataFrame]) -> None:
    qrels, run, _ = data
    other = {q: {d: -s for d, s in docs.items()} for q, docs in run.items()}
    _, run_rows = _rows(qrels, other, PlainQrel, PlainScoredDoc)
    with pytest.warns(ranklens.RanklensWarning):
        cmp = ranklens.compare(ranx.Qrels(qrels), {"a": ranx.Run(run), "b": run_rows}, "AP",
                               baseline="a")
    assert [(p.system, p.baseline) for p in cmp.pairs] == [("b", "a")]
    with pytest.warns(ranklens.RanklensWarning):
        html = ranklens.report(ranx.Qrels(qrels), [ranx.Run(run, name="a"),
                                                   ranx.Run(other, name="b")], ["AP"])
    assert html.startswith("<!DOCTYPE html>")


def test_rows_without_a_field_are_refused() -> None:
    Partial = collections.namedtuple("Partial", "query_id doc_id")
    with pytest.raises(InputError, match=r"<Partial rows>: cannot read qrels from rows of "
                       r"Partial: expected the fields query_id, doc_id, relevance, found "
                       r"query_id, doc_id \(missing relevance\)"):
        ranklens.load_qrels([Partial("q1", "d1")])
    with pytest.raises(InputError, match=r"expected the fields query_id, doc_id, score, "
                       r"found query_id, doc_id \(missing score\)"):
        ranklens.evaluate({"q1": {"d1": 1}}, [Partial("q1", "d1")], ["AP"])
    # a later row of another kind is named by its position
    with pytest.raises(InputError, match=r"<PlainScoredDoc rows>: row 1 \(counting from 0\)"):
        ranklens.load_run(iter([PlainScoredDoc("q1", "d1", 1.0), ("q1", "d2", 0.5)]))
    # values are checked as a frame's are
    with pytest.raises(InputError, match=r"<PlainQrel rows>: row 1: .*relevance"):
        ranklens.load_qrels([PlainQrel("q1", "d1", 1, "0"), PlainQrel("q1", "d2", None, "0")])
    # a list of anything else is still no qrels
    with pytest.raises(InputError, match="cannot read qrels from a list"):
        ranklens.load_qrels([1, 2])


def test_integer_ids_in_rows_stay_integers() -> None:
    r = ranklens.evaluate([PlainQrel(2, 7, 1, "0"), PlainQrel(10, 7, 1, "0")],
                          [PlainScoredDoc(2, 7, 1.0), PlainScoredDoc(10, 8, 1.0)], ["P@1"])
    assert r.to_polars()["query_id"].to_list() == [2, 10]
    assert r.to_polars()["P@1"].to_list() == [1.0, 0.0]


def _tiny_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Registers ``name``: a local TREC qrels file as an ir_datasets dataset."""
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload

    path = tmp_path / "tiny.qrels"
    path.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq2 0 d1 1\n")
    if name not in ir_datasets.registry:
        ir_datasets.registry.register(
            name, Dataset(TrecQrels(LocalDownload(path), {0: "no", 1: "yes", 2: "very"})))


def test_irds_qrels_read_a_local_dataset(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _tiny_dataset(tmp_path, monkeypatch, "ranklens-test/tiny")
    run = {"q1": {"d1": 1.0, "d2": 2.0}, "q2": {"d3": 0.5, "d1": 0.7}}
    from_irds = ranklens.evaluate("irds:ranklens-test/tiny", run, MEASURES).to_polars()
    from_dict = ranklens.evaluate({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2, "d1": 1}}, run,
                                  MEASURES).to_polars()
    pl.testing.assert_frame_equal(from_irds, from_dict)
    assert ranklens.load_qrels("irds:ranklens-test/tiny").source == "irds:ranklens-test/tiny"
    with pytest.raises(InputError, match="irds:no-such/dataset: ir_datasets has no dataset "
                       "'no-such/dataset'"):
        ranklens.load_qrels("irds:no-such/dataset")


def test_irds_qrels_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from cli_support import run

    _tiny_dataset(tmp_path, monkeypatch, "ranklens-test/tiny")
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d2 1 2.0 x\nq1 Q0 d1 2 1.0 x\nq2 Q0 d1 1 0.7 x\n")
    out = run(["evaluate", "irds:ranklens-test/tiny", str(path), "-m", "P@1", "--format",
               "trec"], capsys)
    assert out.code == 0, out.err
    assert out.out.splitlines()[-1].split() == ["P@1", "all", "0.5000"]


def test_readme_example_runs() -> None:
    """The peer-objects example the README's tour (docs/tour.md) shows."""
    pytest.importorskip("ir_measures")
    text = Path(__file__).parents[2].joinpath("docs", "tour.md").read_text(encoding="utf-8")
    marker = "<!-- README example: tests/peers/test_peer_objects.py runs it -->\n```python\n"
    code = text.split(marker, 1)[1].split("```", 1)[0]
    scope: dict[str, Any] = {"ranklens": ranklens}
    exec(code, scope)
    results = scope["results"]
    assert results.run_names == ("bm25", "rows")
    assert results.aggregates("AP").round(4).tolist() == [0.8333, 1.0]


def test_irds_without_ir_datasets_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # import ir_datasets fails
    with pytest.raises(InputError, match="irds:x/y: reading qrels from 'irds:x/y' needs the "
                       r"ir_datasets package, which is not installed \(pip install "
                       r"ir_datasets\)"):
        ranklens.load_qrels("irds:x/y")


def test_irds_reads_qrels_iter_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in ir_datasets: its qrels come from the dataset's qrels_iter()."""
    read: list[str] = []

    class _Dataset:
        def has_qrels(self) -> bool:
            return True

        def qrels_iter(self) -> Iterator[PlainQrel]:
            read.append("qrels")
            yield PlainQrel("q1", "d1", 1, "0")

    fake = types.ModuleType("ir_datasets")
    fake.load = lambda dataset_id: _Dataset()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ir_datasets", fake)
    qrels = ranklens.load_qrels("irds:fake/one")
    assert read == ["qrels"]
    assert ranklens.evaluate(qrels, {"q1": {"d1": 1.0}}, ["AP"])["AP"] == 1.0


def test_peer_libraries_are_not_imported_by_ranklens() -> None:
    import subprocess

    code = ("import sys, ranklens; ranklens.load_qrels({'q': {'d': 1}}); "
            "print(sorted(m for m in ('ranx', 'ir_measures', 'ir_datasets', 'numba') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
