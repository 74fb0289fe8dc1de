"""Issue 42: groups on ranklens.spark: each group's count and mean from the buckets' exact
partial sums equal the local engine's (ranklens.group_means), whatever the bucket count."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from polars.testing import assert_frame_equal
from test_spark import _frames, _local, _random_data, spark  # noqa: F401  (the fixture)

from ranklens import ParameterError, RanklensWarning

MEASURES = ["AP", "nDCG@10", "P@5", "RR", "GMAP", "relstring@3"]


def _groups(query_ids: list[str]) -> dict[str, list[str]]:
    """Overlapping groups, queries of no group, and a group of queries nobody evaluated."""
    out = {q: ["even" if i % 2 == 0 else "odd", *(["third"] if i % 3 == 0 else [])]
           for i, q in enumerate(query_ids) if i % 5}
    out["nowhere"] = ["unseen"]
    return out


def _remote(session: Any, qrels: list, run: list, buckets: int) -> Any:
    import ranklens.spark

    q, r = _frames(session, qrels, run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return ranklens.spark.evaluate(q, r, MEASURES, buckets=buckets)


@pytest.mark.parametrize("buckets", [1, 7])
def test_group_means_on_spark_equal_local(spark: Any, buckets: int) -> None:  # noqa: F811
    import ranklens.spark

    qrels, run = _random_data(11 + buckets)
    local = _local(qrels, run, MEASURES)
    groups = _groups(local.query_ids.tolist())
    remote = _remote(spark, qrels, run, buckets)
    got = ranklens.spark.group_means(remote, groups)
    numeric = [m for m in MEASURES if m != "relstring@3"]  # a text measure has no mean
    want = ranklens.group_means(ranklens.Results((local,)), groups, measures=numeric,
                                resamples=99)
    assert got.select("group", "measure", "run", "n").rows() == \
        want.select("group", "measure", "run", "n").rows()
    assert got["group"].unique(maintain_order=True).to_list() == ["odd", "even", "third",
                                                                  "unseen"]
    for row, mean in zip(got.iter_rows(named=True), want["mean"], strict=True):
        values = [local.per_query(row["measure"])[q] for q, gs in groups.items()
                  if row["group"] in gs and q in local.per_query(row["measure"])]
        values = [v for v in values if not math.isnan(v)]
        if not values:
            assert row["n"] == 0 and math.isnan(row["mean"]) and math.isnan(mean)
            continue
        assert row["mean"] == math.fsum(values) / len(values)  # exact sum, rounded once
        assert row["mean"] == pytest.approx(mean, rel=1e-12)  # numpy's pairwise mean
    remote.unpersist()


def test_groups_as_a_spark_frame_and_bad_groups(spark: Any) -> None:  # noqa: F811
    import ranklens.spark

    qrels, run = _random_data(3)
    remote = _remote(spark, qrels, run, 4)
    groups = _groups(remote.to_result().query_ids.tolist())
    frame = spark.createDataFrame([(q, g) for q, gs in groups.items() for g in gs],
                                  "qid string, segment string")
    by_frame = ranklens.spark.group_means(remote, frame)  # groups sorted by name
    by_mapping = ranklens.spark.group_means(remote, groups).sort("group", maintain_order=True)
    assert_frame_equal(by_frame, by_mapping)  # NaN equal to NaN
    assert np.isnan(by_frame.filter(group="unseen")["mean"].to_numpy()).all()
    with pytest.raises(ParameterError, match="'groups' argument must map query ids"):
        ranklens.spark.group_means(remote, 42)
    remote.unpersist()
