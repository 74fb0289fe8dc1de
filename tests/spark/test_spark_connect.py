"""ranklens.spark under Spark Connect (``SparkSession.builder.remote("local[2]")``): the same
per-query values as the local engine, errors re-raised with their class and message.

Run in a child process: a Connect session and the classic one of tests/spark/test_spark.py do not
share a process. Skipped (with the reason) when pyspark's Connect client or Java is missing,
except under CI or RANKLENS_REQUIRE_PEERS, where that fails instead.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

SCRIPT = r'''
import math, random, warnings
import numpy as np
import polars as pl
from pyspark.sql import SparkSession
import ranklens, ranklens.spark
from ranklens import InputError, RanklensWarning
from ranklens._measures import REGISTRY

spark = (SparkSession.builder.remote("local[2]")
         .config("spark.sql.shuffle.partitions", "3").getOrCreate())
# not the diversity measures: subtopic judgments, refused on the driver; the beyond-accuracy
# ones read item tables (below)
names = [n for n, d in REGISTRY.items()
         if not d.cutoff_required and not d.text and not d.subtopics]
names += [f"{n}@5" for n, d in REGISTRY.items()
          if d.cutoff == "int" and not d.subtopics and d.family != "beyond"]
rng = random.Random(3)
qrels, run = [], []
for i in range(25):
    for d in rng.sample(range(20), rng.randint(1, 8)):
        qrels.append((f"q{i}", f"d{d}", rng.randint(0, 3)))
    if i % 5:
        for p, d in enumerate(rng.sample(range(20), rng.randint(1, 12))):
            run.append((f"q{i}", f"d{d}", rng.randint(0, 4) / 2))
q = spark.createDataFrame(qrels, "query_id string, doc_id string, relevance int")
r = spark.createDataFrame(run, "query_id string, doc_id string, score double")
for method in ("compact", "cogroup", "partition"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        got = ranklens.spark.evaluate(q, r, names, buckets=4, method=method,
                                      convention="sklearn").to_result()
        local = ranklens.evaluate(
            pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row"),
            pl.DataFrame(run, schema=["query_id", "doc_id", "score"], orient="row"),
            names, convention="sklearn")
    assert got.query_ids.tolist() == local.query_ids.tolist()
    for n in names:
        np.testing.assert_array_equal(got.query_values[n], local.query_values[n], err_msg=n)
try:
    ranklens.spark.evaluate(q, r, ["AP"], missing="error")
except InputError as e:
    assert str(e).startswith("5 judged queries are absent from the run"), str(e)
else:
    raise AssertionError("no error")
# beyond accuracy: the item tables (one a Connect DataFrame) shipped to the buckets
beyond = [f"{n}@5" for n, d in REGISTRY.items() if d.family == "beyond"]
train = [(f"q{rng.randint(0, 30)}", f"d{min(int(rng.expovariate(0.2)), 17)}")
         for _ in range(120)]
tables = {"items": [f"d{j}" for j in range(22)],
          "item_features": ([f"d{j}" for j in range(18)],
                            np.array([[rng.gauss(0, 1) for _ in range(4)] for _ in range(18)])),
          "item_groups": {f"d{j}": "head" if j < 4 else "tail" for j in range(22)}}
with warnings.catch_warnings():
    warnings.simplefilter("ignore", RanklensWarning)
    got = ranklens.spark.evaluate(
        q, r, beyond, buckets=3,
        train=spark.createDataFrame(train, "user_id string, item_id string"), **tables)
    local = ranklens.evaluate(
        pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row"),
        pl.DataFrame(run, schema=["query_id", "doc_id", "score"], orient="row"), beyond,
        train=pl.DataFrame(train, schema=["user_id", "item_id"], orient="row"), **tables)
values = got.to_result()
for n in beyond:
    np.testing.assert_array_equal(values.query_values[n], local.query_values[n], err_msg=n)
    if local.measures[n].definition.aggregate == "catalogue":
        assert got[n] == local[n] or (math.isnan(got[n]) and math.isnan(local[n])), n
    else:
        assert math.isclose(got[n], local[n], rel_tol=1e-12, abs_tol=1e-15), n
print("CONNECT-OK", len(names))
spark.stop()
'''


def test_connect_equals_local() -> None:
    reason = None
    if importlib.util.find_spec("pyspark") is None or importlib.util.find_spec("grpc") is None:
        reason = "pyspark's Connect client is not installed (pip install 'pyspark[connect]')"
    elif shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        reason = "no Java runtime for Spark (apt-get install openjdk-17-jre-headless)"
    if reason:
        if os.environ.get("CI") or os.environ.get("RANKLENS_REQUIRE_PEERS"):
            pytest.fail(reason)
        pytest.skip(reason)
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable,
           "PYSPARK_DRIVER_PYTHON": sys.executable}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "CONNECT-OK" in done.stdout
