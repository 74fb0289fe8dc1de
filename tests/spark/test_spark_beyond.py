"""ranklens.spark with the beyond-accuracy measures: the item tables shipped to the buckets,
per-user values identical to the local engine's, catalogue-level measures (coverage, Gini,
entropy, PopREO/PopRSP) merged from the buckets' item counts and equal to the local value
whatever the bucket count.

The data are random and small: users judged and ranked, judged only, ranked only; items in
the run that no table names, items without features, cold items, catalogue items never
recommended.
"""

from __future__ import annotations

import math
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from test_spark import jsonl_means, spark  # noqa: F401  (spark: the SparkSession fixture)

import ranklens
from ranklens import MeasureError, RanklensWarning
from ranklens._measures import REGISTRY

#: every beyond-accuracy measure of the registry, at two cutoffs
BEYOND = [f"{name}@{k}" for name, d in REGISTRY.items() if d.family == "beyond"
          for k in (3, 10)]


def _data(seed: int, users: int = 40) -> dict[str, Any]:
    """Judgments, a ranked run (rank column: its order) and the four item tables."""
    rng = random.Random(seed)
    catalogue = [f"i{j}" for j in range(45)]
    qrels, run = [], []
    for u in range(users):
        user = f"u{u}" if u % 9 else str(u)  # ids that sort differently as text and numbers
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        if where != "run":
            for item in rng.sample(catalogue[:40], rng.randint(1, 6)):
                qrels.append((user, item, rng.randint(0, 2)))
        if where != "qrels":
            # z-items: named by no table (counted, warned, popularity 0)
            pool = [*catalogue[:42], "z1", "z2"]
            for pos, item in enumerate(rng.sample(pool, rng.randint(1, 12))):
                run.append((user, item, float(20 - pos), pos))
    train = [(f"u{rng.randint(0, users + 10)}", f"i{min(int(rng.expovariate(0.12)), 35)}")
             for _ in range(300)]  # i36.. are cold: in the catalogue, never interacted with
    embeddings = {f"i{j}": [rng.gauss(0, 1) for _ in range(6)] for j in range(38)}
    groups = {f"i{j}": "head" if j < 8 else "tail" for j in range(45)}
    return {"qrels": qrels, "run": run, "train": train, "items": catalogue,
            "features": embeddings, "groups": groups}


def _tables(data: dict[str, Any]) -> dict[str, Any]:
    """The item tables as ranklens.evaluate reads them (frames and mappings)."""
    return {"train": pl.DataFrame(data["train"], schema=["user_id", "item_id"], orient="row"),
            "items": data["items"],
            "item_features": (list(data["features"]), np.array(list(data["features"].values()))),
            "item_groups": data["groups"]}


def _local(data: dict[str, Any], measures: list[str], **options: Any) -> ranklens.Result:
    q = pl.DataFrame(data["qrels"], schema=["query_id", "doc_id", "relevance"], orient="row")
    r = pl.DataFrame(data["run"], schema=["query_id", "doc_id", "score", "rank"],
                     orient="row").sort(["query_id", "rank"]).drop("rank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(q, r, measures, **_tables(data), **options)


def _frames(session: Any, data: dict[str, Any]) -> tuple[Any, Any]:
    q = session.createDataFrame(data["qrels"], "query_id string, doc_id string, relevance int")
    r = session.createDataFrame(data["run"],
                              "query_id string, doc_id string, score double, rank int")
    return q, r


def _same(local: ranklens.Result, remote: Any) -> None:
    """Per-user values bit for bit; catalogue-level aggregates exactly (both finish the same
    added item counts); means of per-user values to 1e-12 (Spark's are the exact sum of the
    users' values rounded once, the local engine's a left-to-right sum: docs/spark.md)."""
    got = remote.to_result()
    assert got.query_ids.tolist() == local.query_ids.tolist()
    for name in local:
        np.testing.assert_array_equal(got.query_values[name], local.query_values[name],
                                      err_msg=name)
        a, b = local[name], remote[name]
        if local.measures[name].definition.aggregate == "catalogue":
            assert (math.isnan(a) and math.isnan(b)) or a == b, name
        else:
            assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(
                b, rel=1e-12, abs=1e-15), name


@pytest.mark.parametrize("buckets", [1, 3, 64])
def test_every_beyond_measure_equals_local(spark: Any, buckets: int) -> None:  # noqa: F811
    import ranklens.spark

    data = _data(buckets)
    q, r = _frames(spark, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(q, r, BEYOND, buckets=buckets, rank="rank",
                                         **_tables(data))
    local = _local(data, BEYOND)
    _same(local, remote)
    # the data reach every family: the catalogue-level values are not degenerate
    assert 0 < remote["Coverage@10"] < 1 and 0 < remote["Gini@10"] < 1
    assert remote["Entropy@10"] > 0 and not math.isnan(remote["PopREO@10"])
    assert not math.isnan(remote["ILD@10"]) and remote["Novelty@10"] > 0


@pytest.mark.parametrize("convention", ["rectools", "recbole", "elliot", "recommenders"])
def test_conventions_equal_local(spark: Any, convention: str) -> None:  # noqa: F811
    import ranklens.spark

    data = _data(7)
    q, r = _frames(spark, data)
    measures = [m for m in BEYOND if m.endswith("@10")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(q, r, measures, buckets=3, rank="rank",
                                         convention=convention, **_tables(data))
    _same(_local(data, measures, convention=convention), remote)


def test_catalogue_measures_do_not_depend_on_buckets(spark: Any) -> None:  # noqa: F811
    """The item counts of 1, 3 and 64 buckets add up to one catalogue-level value."""
    import ranklens.spark

    data = _data(11)
    q, r = _frames(spark, data)
    measures = [f"{m}@10" for m in ("Coverage", "DistCoverage", "Gini", "Entropy", "PopREO",
                                    "PopRSP")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        values = [ranklens.spark.evaluate(q, r, measures, buckets=n, rank="rank",
                                          **_tables(data)).aggregates for n in (1, 3, 64)]
    assert values[0] == values[1] == values[2]


def test_jaccard_on_binary_features(spark: Any) -> None:  # noqa: F811
    import ranklens.spark

    data = _data(5)
    rng = random.Random(5)
    tags = {item: set(rng.sample(["a", "b", "c", "d", "e"], rng.randint(1, 3)))
            for item in data["items"][:40]}
    measures = ["ILD(metric=jaccard)@5", "ILS(metric=jaccard)@10"]
    q, r = _frames(spark, data)
    tables = {**_tables(data), "item_features": tags}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(q, r, measures, buckets=3, rank="rank", **tables)
        qf = pl.DataFrame(data["qrels"], schema=["query_id", "doc_id", "relevance"],
                          orient="row")
        rf = pl.DataFrame(data["run"], schema=["query_id", "doc_id", "score", "rank"],
                          orient="row").sort(["query_id", "rank"]).drop("rank")
        local = ranklens.evaluate(qf, rf, measures, **tables)
    _same(local, remote)


def test_tables_as_spark_dataframes(spark: Any) -> None:  # noqa: F811
    """The item tables as Spark DataFrames (an embedding as an array column), integer
    user and item ids: the values of the same tables given locally."""
    import ranklens.spark

    rng = random.Random(2)
    qrels = [(u, i, rng.randint(0, 2)) for u in range(12) for i in rng.sample(range(30), 4)]
    run = [(u, i, float(10 - p)) for u in range(12) for p, i in enumerate(rng.sample(
        range(32), 8))]
    train = [(rng.randint(0, 20), rng.randint(0, 25)) for _ in range(120)]
    emb = [(i, [rng.gauss(0, 1) for _ in range(4)]) for i in range(30)]
    measures = ["Novelty@5", "ARP@5", "Coverage@5", "Gini@8", "ILD@8", "Serendipity@5",
                "APLT@5"]
    q = spark.createDataFrame(qrels, "query_id long, doc_id long, relevance int")
    r = spark.createDataFrame(run, "query_id long, doc_id long, score double")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        remote = ranklens.spark.evaluate(
            q, r, measures, buckets=3,
            train=spark.createDataFrame(train, "user_id long, item_id long"),
            items=spark.createDataFrame([(i,) for i in range(30)], "item_id long"),
            item_features=spark.createDataFrame(emb, "item_id long, embedding array<double>"))
        local = ranklens.evaluate(
            pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row"),
            pl.DataFrame(run, schema=["query_id", "doc_id", "score"], orient="row"),
            measures, train=pl.DataFrame(train, schema=["user_id", "item_id"], orient="row"),
            items=[str(i) for i in range(30)],
            item_features=pl.DataFrame({"item_id": [i for i, _ in emb],
                                        "embedding": [v for _, v in emb]}))
    _same(local, remote)


def test_unknown_items_are_warned_as_locally(spark: Any) -> None:  # noqa: F811
    import ranklens.spark

    data = _data(4)
    q, r = _frames(spark, data)
    with pytest.warns(RanklensWarning) as caught:
        ranklens.spark.evaluate(q, r, ["Coverage@10", "ILD@10"], buckets=3, rank="rank",
                                **_tables(data))
    told = [str(w.message) for w in caught if "name items absent from" in str(w.message)]
    with pytest.warns(RanklensWarning) as here:
        ranklens.evaluate(
            pl.DataFrame(data["qrels"], schema=["query_id", "doc_id", "relevance"],
                         orient="row"),
            pl.DataFrame(data["run"], schema=["query_id", "doc_id", "score", "rank"],
                         orient="row").sort(["query_id", "rank"]).drop("rank"),
            ["Coverage@10", "ILD@10"], **_tables(data))
    expected = [str(w.message) for w in here if "name items absent from" in str(w.message)]
    assert len(told) == 2 and len(expected) == 2
    # the counts and examples are the local engine's; only the run's source differs
    assert [m.replace("<run DataFrame>", "") for m in told] == [
        m.replace("<run frame>", "") for m in expected]


def test_missing_tables_fail_before_any_job(spark: Any) -> None:  # noqa: F811
    import ranklens.spark

    data = _data(1)
    q, r = _frames(spark, data)
    with pytest.raises(MeasureError, match=r"Novelty@3 needs the training interactions"):
        ranklens.spark.evaluate(q, r, ["Novelty@3", "P@3"], items=data["items"])


def test_cli_engine_spark_reads_the_tables(spark: Any, tmp_path: Path,  # noqa: F811
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``ranklens evaluate --engine spark --train --items --item-features --item-groups``
    prints the local engine's values and writes its per-user values."""

    from cli_support import run as run_cli
    from cli_support import write

    data = _data(3)
    qrels = write(tmp_path / "t.qrels", "".join(f"{u} 0 {i} {g}\n"
                                                for u, i, g in data["qrels"]))
    run = write(tmp_path / "r.run", "".join(f"{u} Q0 {i} {p + 1} {s} r\n"
                                            for u, i, s, p in data["run"]))
    train = write(tmp_path / "train.tsv", "user_id\titem_id\n" + "".join(
        f"{u}\t{i}\n" for u, i in data["train"]))
    items = write(tmp_path / "items.txt", "".join(f"{i}\n" for i in data["items"]))
    emb = write(tmp_path / "emb.txt", "".join(f"{i} {' '.join(map(str, v))}\n"
                                              for i, v in data["features"].items()))
    groups = write(tmp_path / "groups.txt", "".join(f"{i} {g}\n"
                                                    for i, g in data["groups"].items()))
    measures = ["Novelty@10", "Coverage@10", "Gini@10", "ILD@10", "PopREO@10", "APLT@10"]
    args = ["evaluate", str(qrels), str(run), "--train", str(train), "--items", str(items),
            "--item-features", str(emb), "--item-groups", str(groups),
            *[x for m in measures for x in ("-m", m)], "--format", "jsonl"]
    local = run_cli(args, capsys)
    remote = run_cli([*args, "--engine", "spark", "--master", "local[2]", "-o",
                      str(tmp_path / "pq")], capsys)
    assert (local.code, remote.code) == (0, 0), remote.err

    assert set(jsonl_means(remote.out)) == set(measures)
    assert jsonl_means(remote.out) == pytest.approx(jsonl_means(local.out), rel=1e-12)
    written = pl.read_parquet(tmp_path / "pq" / "*.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        expected = ranklens.evaluate(str(qrels), str(run), measures, train=str(train),
                                     items=str(items), item_features=str(emb),
                                     item_groups=str(groups))
    for name in measures:
        got = written.filter(pl.col("measure") == name).sort("query_id")
        assert got["query_id"].to_list() == expected.query_ids.tolist()
        np.testing.assert_array_equal(got["value"].to_numpy(), expected.query_values[name])


def test_cli_engine_spark_names_a_bad_table(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A table file that cannot be read is one error line naming it, before Spark starts."""
    from cli_support import run as run_cli
    from cli_support import write

    qrels = write(tmp_path / "t.qrels", "u1 0 a 1\n")
    run = write(tmp_path / "r.run", "u1 Q0 a 1 3 r\n")
    bad = run_cli(["evaluate", str(qrels), str(run), "--engine", "spark", "--master",
                   "local[1]", "--train", str(tmp_path / "absent.tsv"), "-m", "Novelty@2"],
                  capsys)
    assert bad.code != 0 and "Traceback" not in bad.err
    assert "absent.tsv: no such file (expected training interactions)" in bad.err
    assert len(bad.err.strip().splitlines()) == 1
