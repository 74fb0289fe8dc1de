"""ranklens.spark's bucket step without Spark: any split of the queries into buckets gives
the local engine's per-query values bit for bit, and the exact sums merge in any order."""

from __future__ import annotations

import json
import math
import random
import warnings

import numpy as np
import pytest
from polars.testing import assert_frame_equal
from spark_support import spark_measures

import ranklens
from ranklens import RanklensWarning

pa = pytest.importorskip("pyarrow")  # a test dependency; ranklens.spark's bucket step needs it

from ranklens._pipeline.blocks import BlockSpec  # noqa: E402
from ranklens._pipeline.exact import ExactSum, exact_sum  # noqa: E402
from ranklens.spark._bucket import evaluate_bucket  # noqa: E402

CONVENTIONS = ["trec", "sklearn", "torchmetrics", "kaggle", "ranx"]


MEASURES = spark_measures()


def _data(seed: int) -> tuple[list[tuple], list[tuple]]:
    rng = random.Random(seed)
    qrels, run = [], []
    for i in range(30):
        q = f"q{i}"
        where = rng.choice(["both"] * 5 + ["qrels", "run"])
        if where != "run":
            for d in rng.sample(range(25), rng.randint(1, 12)):
                qrels.append((q, f"d{d}", rng.randint(-1, rng.choice([0, 1, 3]))))
        if where != "qrels":
            for pos, d in enumerate(rng.sample(range(25), rng.randint(1, 18))):
                run.append((q, f"d{d}", rng.randint(0, 5) / 2, float(pos)))
    return qrels, run


def _split(qrels: list[tuple], run: list[tuple], buckets: int, seed: int
           ) -> list[tuple[object, object]]:
    """The rows of each of ``buckets`` random groups of whole queries, shuffled."""
    rng = random.Random(seed)
    owner = {q: rng.randrange(buckets) for q in {r[0] for r in qrels + run}}
    parts = []
    for b in range(buckets):
        q = [r for r in qrels if owner[r[0]] == b]
        r = [x for x in run if owner[x[0]] == b]
        rng.shuffle(r)  # a shuffle keeps no order: the rank column gives it back
        parts.append((
            pa.table({"query_id": pa.array([x[0] for x in q], pa.string()),
                      "doc_id": pa.array([x[1] for x in q], pa.string()),
                      "relevance": pa.array([float(x[2]) for x in q], pa.float64())}),
            pa.table({"query_id": pa.array([x[0] for x in r], pa.string()),
                      "doc_id": pa.array([x[1] for x in r], pa.string()),
                      "score": pa.array([x[2] for x in r], pa.float64()),
                      "rank": pa.array([x[3] for x in r], pa.float64())})))
    return parts


@pytest.mark.parametrize(("convention", "buckets"),
                         [("trec", 1), ("trec", 64)] + [(c, 3) for c in CONVENTIONS])
def test_buckets_give_the_local_values(convention: str, buckets: int) -> None:
    import polars as pl

    qrels, run = _data(buckets)
    options = {"convention": convention, "missing": "zero", "empty": "nan"}
    spec = BlockSpec(tuple(MEASURES), tuple(options.items()), "<qrels>", "<run>", "run",
                      has_rank=True)
    rows = pl.concat([pl.from_arrow(evaluate_bucket(spec, q, r))  # type: ignore[misc]
                      for q, r in _split(qrels, run, buckets, seed=buckets)])
    assert rows.filter(pl.col("kind") == "error").height == 0
    frame_q = pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row")
    frame_r = pl.DataFrame(run, schema=["query_id", "doc_id", "score", "rank"], orient="row"
                           ).sort("query_id", "rank").drop("rank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        local = ranklens.evaluate(frame_q, frame_r, MEASURES, **options)  # type: ignore[arg-type]
    values = rows.filter(pl.col("kind") == "value")
    for name in MEASURES:
        got = values.filter(pl.col("measure") == name).sort("query_id")
        assert got["query_id"].to_list() == local.query_ids.tolist(), name
        if local.measures[name].definition.text:
            assert got["text"].to_list() == local.text_values[name], name
        else:
            np.testing.assert_array_equal(got["value"].to_numpy(), local.query_values[name],
                                          err_msg=name)
            counted = got["counted"].to_numpy()
            np.testing.assert_array_equal(counted, ~np.isnan(local.query_values[name]),
                                          err_msg=name)


def test_a_bucket_without_a_common_query_is_scored() -> None:
    """A bucket whose run shares no query with its judgments (here: no run rows at all)
    still scores its judged queries under missing="zero" (the engine alone would refuse)."""
    import polars as pl

    spec = BlockSpec(("P@1", "NumQ"), (("missing", "zero"),), "<qrels>", "<run>", "run",
                      has_rank=False)
    qrels = pa.table({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1.0]})
    run = pa.table({"query_id": pa.array([], pa.string()), "doc_id": pa.array([], pa.string()),
                    "score": pa.array([], pa.float64()), "rank": pa.array([], pa.float64())})
    rows = pl.from_arrow(evaluate_bucket(spec, qrels, run))
    assert isinstance(rows, pl.DataFrame)
    values = rows.filter(pl.col("kind") == "value").select("query_id", "measure", "value")
    assert values.rows() == [("q1", "P@1", 0.0), ("q1", "NumQ", 1.0)]
    partial = json.loads(rows.filter(pl.col("kind") == "partial")["text"][0])
    assert partial["missing"] == [1, ["q1"]] and partial["judged"] == 1


def test_errors_become_rows() -> None:
    import polars as pl

    spec = BlockSpec(("P@1",), (), "<qrels>", "<run>", "run", has_rank=False)
    qrels = pa.table({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1.0]})
    run = pa.table({"query_id": ["q1", "q1"], "doc_id": ["d1", "d1"], "score": [1.0, 2.0],
                    "rank": [0.0, 0.0]})
    rows = pl.from_arrow(evaluate_bucket(spec, qrels, run))
    assert isinstance(rows, pl.DataFrame)
    assert rows["kind"].to_list() == ["error", "partial"]  # the counts still count
    detail = json.loads(rows["text"][0])
    assert detail["class"] == "InputError"
    assert detail["message"].startswith("document 'd1' appears more than once for query 'q1'")


@pytest.mark.parametrize("seed", range(5))
def test_exact_sums_merge_in_any_order(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = np.concatenate([rng.random(300) * 10.0 ** rng.integers(-20, 20, 300),
                             -rng.random(50), [0.0, 5e-324, 1e308, 1e308]])
    rng.shuffle(values)
    cuts = np.sort(rng.integers(0, values.size, 7))
    parts = [exact_sum(p) for p in np.split(values, cuts)]
    rng.shuffle(parts)  # type: ignore[arg-type]
    total = sum(parts, ExactSum())
    assert total.to_float() == math.inf  # 2e308 overflows, as a float sum would
    finite = values[np.abs(values) < 1e300]
    merged = sum((exact_sum(p) for p in np.array_split(finite, 5)), ExactSum())
    assert merged.to_float() == math.fsum(finite.tolist())
    assert ExactSum.from_json(json.loads(json.dumps(merged.to_json()))) == merged


def test_exact_sums_of_nan_and_infinities() -> None:
    assert math.isnan(exact_sum(np.array([1.0, math.nan])).to_float())
    assert math.isnan((exact_sum(np.array([math.inf])) + exact_sum(np.array([-math.inf])))
                      .to_float())
    assert exact_sum(np.array([-math.inf, 2.0])).to_float() == -math.inf
    assert exact_sum(np.array([])).to_float() == 0.0


def _compact_batches(qrels: pa.Table, run: pa.Table, has_rank: bool, seed: int
                     ) -> list[pa.RecordBatch]:
    """What the JVM side of method="compact" hands a worker: one row per query (judged, run
    or both) with its rows as arrays in no particular order, over several Arrow batches."""
    rng = random.Random(seed)
    by_query: dict[str, dict[str, list[dict]]] = {}
    for row in qrels.to_pylist():
        by_query.setdefault(row["query_id"], {"qrels": [], "run": []})["qrels"].append(
            {"doc_id": row["doc_id"], "relevance": row["relevance"]})
    for row in run.to_pylist():
        fields = {"doc_id": row["doc_id"], "score": row["score"]}
        if has_rank:
            fields["rank"] = row["rank"]
        by_query.setdefault(row["query_id"], {"qrels": [], "run": []})["run"].append(fields)
    ids = list(by_query)
    rng.shuffle(ids)
    for parts in by_query.values():
        rng.shuffle(parts["run"])
    run_type = pa.list_(pa.struct([("doc_id", pa.string()), ("score", pa.float64()),
                                   *([("rank", pa.float64())] if has_rank else [])]))
    qrels_type = pa.list_(pa.struct([("doc_id", pa.string()), ("relevance", pa.float64())]))
    table = pa.table({
        "query_id": pa.array(ids, pa.string()),
        # a query on one side only has a null array on the other (a full outer join)
        "qrels": pa.array([by_query[q]["qrels"] or None for q in ids], qrels_type),
        "run": pa.array([by_query[q]["run"] or None for q in ids], run_type)})
    return table.to_batches(max_chunksize=max(1, len(ids) // 3))


@pytest.mark.parametrize("has_rank", [False, True])
def test_compact_rows_give_the_bucket_values(has_rank: bool) -> None:
    """method="compact": the per-query arrays, flattened in the worker without sorting by
    query id, give the values of the same bucket given as rows (and of the local engine)."""
    import polars as pl

    from ranklens.spark._driver import _compacted

    qrels, run = _data(7)
    options = {"missing": "zero", "empty": "nan",
               **({"ties": "input"} if has_rank else {})}
    spec = BlockSpec(tuple(MEASURES), tuple(options.items()), "<qrels>", "<run>", "run",
                      has_rank=has_rank)
    for q, r in _split(qrels, run, 2, seed=7):
        want = pl.from_arrow(evaluate_bucket(spec, q, r))
        got = pl.from_arrow(pa.Table.from_batches(list(_compacted(
            spec, iter(_compact_batches(q, r, has_rank, seed=7))))))
        assert isinstance(want, pl.DataFrame) and isinstance(got, pl.DataFrame)
        values = pl.col("kind") == "value"
        assert want.filter(values).height > 0
        assert_frame_equal(got.filter(values).sort("measure", "query_id"),
                           want.filter(values).sort("measure", "query_id"))
        assert (sorted(got.filter(~values)["text"].to_list())
                == sorted(want.filter(~values)["text"].to_list()))
    assert list(_compacted(spec, iter([]))) == []  # an empty partition sends no batch


def test_a_bucket_is_evaluated_without_an_anchor_query() -> None:
    """A bucket is one block of the evaluation: evaluated as it is, whatever its queries
    are named (no query of ranklens's own is added), its counts sent as a partial."""
    import polars as pl

    spec = BlockSpec(("P@2", "NumRel"), (("missing", "zero"),), "<qrels>", "<run>", "run",
                      has_rank=False)
    # ids an anchor query used to take; the third only in the run (ignored)
    taken = ["\x00ranklens:anchor", "\x00\x00ranklens:anchor", "\x00\x00\x00ranklens:anchor"]
    qrels = pa.table({"query_id": [taken[0], taken[1], "q"], "doc_id": ["a", "b", "c"],
                      "relevance": [1.0, 1.0, 0.0]})
    run = pa.table({"query_id": [taken[0], taken[0], taken[1], "q", taken[2]],
                    "doc_id": ["a", "x", "y", "c", "z"], "score": [2.0, 1.0, 1.0, 1.0, 1.0]})
    rows = pl.from_arrow(evaluate_bucket(spec, qrels, run))
    assert isinstance(rows, pl.DataFrame)
    values = rows.filter(pl.col("kind") == "value").sort("measure", "query_id")
    assert values.select("query_id", "measure", "value").rows() == sorted([
        (taken[0], "NumRel", 1.0), (taken[1], "NumRel", 1.0), ("q", "NumRel", 0.0),
        (taken[0], "P@2", 0.5), (taken[1], "P@2", 0.0), ("q", "P@2", 0.0)],
        key=lambda row: (row[1], row[0]))
    partial = json.loads(rows.filter(pl.col("kind") == "partial")["text"][0])
    assert partial["ignored"] == [1, [taken[2]]] and partial["judged"] == 3


@pytest.mark.parametrize("missing", ["skip", "zero", "error"])
def test_a_bucket_whose_run_has_none_of_its_judged_queries(missing: str) -> None:
    import polars as pl

    spec = BlockSpec(("AP", "NumQ"), (("missing", missing),), "<qrels>", "<run>", "run",
                      has_rank=False)
    qrels = pa.table({"query_id": ["q1", "q2"], "doc_id": ["d1", "d2"],
                      "relevance": [1.0, 1.0]})
    run = pa.table({"query_id": ["q9"], "doc_id": ["d1"], "score": [1.0],
                    "rank": [0.0]})
    rows = pl.from_arrow(evaluate_bucket(spec, qrels, run))
    assert isinstance(rows, pl.DataFrame)
    assert rows.filter(pl.col("kind") == "error").height == 0
    partial = json.loads(rows.filter(pl.col("kind") == "partial")["text"][0])
    assert partial["judged"] == 2 and partial["missing"] == [2, ["q1", "q2"]]
    assert partial["ignored"] == [1, ["q9"]]
    values = rows.filter(pl.col("kind") == "value")
    assert values.height == (0 if missing == "skip" else 4)
