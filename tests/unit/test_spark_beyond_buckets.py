"""ranklens.spark's bucket step with the beyond-accuracy measures, without Spark: the driver's
item context shipped in the bucket spec, any split of the users into buckets gives the local
per-user values bit for bit, and the buckets' item counts (sent as JSON) merge on the driver
into the local catalogue-level values exactly."""

from __future__ import annotations

import math
import pickle
import random
import warnings

import numpy as np
import pytest

import ranklens
from ranklens import RanklensWarning
from ranklens._measures import REGISTRY

pa = pytest.importorskip("pyarrow")  # a test dependency; ranklens.spark's bucket step needs it

from ranklens._pipeline.blocks import BlockSpec  # noqa: E402
from ranklens._pipeline.context import load_context  # noqa: E402
from ranklens._pipeline.plan import make_plan  # noqa: E402
from ranklens.spark._bucket import (  # noqa: E402
    evaluate_bucket,
    shipped_context,
    worker_context,
)
from ranklens.spark._driver import _assemble  # noqa: E402

BEYOND = [f"{name}@{k}" for name, d in REGISTRY.items() if d.family == "beyond"
          for k in (2, 8)]


def _data(seed: int) -> dict:
    rng = random.Random(seed)
    qrels, run = [], []
    for u in range(30):
        where = rng.choice(["both"] * 5 + ["qrels", "run"])
        if where != "run":
            for i in rng.sample(range(30), rng.randint(1, 5)):
                qrels.append((f"u{u}", f"i{i}", float(rng.randint(0, 2))))
        if where != "qrels":
            for pos, i in enumerate(rng.sample(range(33), rng.randint(1, 10))):
                run.append((f"u{u}", f"i{i}", float(20 - pos), float(pos)))
    train = {"user_id": [f"u{rng.randint(0, 40)}" for _ in range(200)],
             "item_id": [f"i{min(int(rng.expovariate(0.15)), 27)}" for _ in range(200)]}
    tables = {"train": train, "items": [f"i{j}" for j in range(45)],
              "item_features": ([f"i{j}" for j in range(29)],
                                np.array([[rng.gauss(0, 1) for _ in range(5)]
                                          for _ in range(29)])),
              "item_groups": {f"i{j}": "head" if j < 6 else "tail" for j in range(32)}}
    return {"qrels": qrels, "run": run, "tables": tables}


def _buckets(data: dict, buckets: int, seed: int) -> list[tuple[object, object]]:
    rng = random.Random(seed)
    users = sorted({r[0] for r in data["qrels"] + data["run"]})
    owner = {u: rng.randrange(buckets) for u in users}
    out = []
    for b in range(buckets):
        q = [r for r in data["qrels"] if owner[r[0]] == b]
        r = [x for x in data["run"] if owner[x[0]] == b]
        rng.shuffle(r)  # the rank column gives the order back
        out.append((pa.table({"query_id": [x[0] for x in q], "doc_id": [x[1] for x in q],
                              "relevance": [x[2] for x in q]},
                             schema=pa.schema([("query_id", pa.string()),
                                               ("doc_id", pa.string()),
                                               ("relevance", pa.float64())])),
                    pa.table({"query_id": [x[0] for x in r], "doc_id": [x[1] for x in r],
                              "score": [x[2] for x in r], "rank": [x[3] for x in r]},
                             schema=pa.schema([("query_id", pa.string()),
                                               ("doc_id", pa.string()),
                                               ("score", pa.float64()),
                                               ("rank", pa.float64())]))))
    return out


def _local(data: dict, measures: list[str]) -> ranklens.Result:
    import polars as pl

    q = pl.DataFrame(data["qrels"], schema=["query_id", "doc_id", "relevance"], orient="row")
    r = pl.DataFrame(data["run"], schema=["query_id", "doc_id", "score", "rank"],
                     orient="row").sort("query_id", "rank").drop("rank")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.evaluate(q, r, measures, **data["tables"])


@pytest.mark.parametrize("buckets", [1, 3, 64])
def test_buckets_give_the_local_values(buckets: int) -> None:
    import polars as pl

    data = _data(buckets)
    context = load_context(**data["tables"])
    spec = BlockSpec(tuple(BEYOND), (), "<qrels>", "<run>", "run", has_rank=True,
                      **shipped_context(context))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        rows = pl.concat([pl.from_arrow(evaluate_bucket(spec, q, r))  # type: ignore[misc]
                          for q, r in _buckets(data, buckets, seed=buckets)])
        assert rows.filter(pl.col("kind") == "error").height == 0
        plan = make_plan(BEYOND)
        aggregates, _ = _assemble(plan, spec, rows.filter(pl.col("kind") != "value")
                                  .to_dicts(), context)
    local = _local(data, BEYOND)
    values = rows.filter(pl.col("kind") == "value")
    for name in BEYOND:
        got = values.filter(pl.col("measure") == name).sort("query_id")
        assert got["query_id"].to_list() == local.query_ids.tolist(), name
        np.testing.assert_array_equal(got["value"].to_numpy(), local.query_values[name],
                                      err_msg=name)
        # counted: the value is in the aggregate (not a catalogue-level measure's NaN)
        np.testing.assert_array_equal(got["counted"].to_numpy(),
                                      ~np.isnan(local.query_values[name]), err_msg=name)
        if local.measures[name].definition.aggregate == "catalogue":  # the same counts
            assert aggregates[name] == local[name] or (
                math.isnan(aggregates[name]) and math.isnan(local[name])), name
        else:  # an exact sum rounded once against a left-to-right sum
            assert aggregates[name] == pytest.approx(local[name], rel=1e-12, abs=1e-15), name
    assert 0 < aggregates["Coverage@8"] < 1 and aggregates["Gini@8"] > 0


def test_the_driver_numbering_reaches_every_bucket() -> None:
    """A worker unpickles the shipped context once per evaluation: the same numbering as
    the driver's, reused by its later tasks."""
    context = load_context(**_data(0)["tables"])
    spec = BlockSpec(("Coverage@2",), (), "<qrels>", "<run>", "run", has_rank=False,
                      **shipped_context(context))
    shipped = worker_context(pickle.loads(pickle.dumps(spec)))
    assert shipped is not None and shipped is not context
    assert shipped.universe.tolist() == context.universe.tolist()
    np.testing.assert_array_equal(shipped.users, context.users)
    assert worker_context(spec) is shipped  # cached by the digest
    assert worker_context(BlockSpec(("P@1",), (), "<q>", "<r>", "run", False)) is None
    assert shipped_context(None) == {}
