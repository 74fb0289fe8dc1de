"""``ranklens evaluate --engine spark``: files read by Spark, aggregates printed as the local
engine prints them, per-query values to Parquet on request (``-o``)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

from .._base.errors import ParameterError
from .._ingest.io._items import load_interactions, load_item_features, load_item_groups, load_items
from .._pipeline.options import EvaluateOptions
from .._results.result import Result
from ._read import check_master, read_qrels, read_run
from ._write import write_parquet

__all__ = ["evaluate_on_spark"]

#: Shows ``message`` while its block runs; the block gets a function to change the message.
Progress = Callable[[str], AbstractContextManager[Callable[[str], None]]]


@contextlib.contextmanager
def _quiet(message: str) -> Iterator[Callable[[str], None]]:
    """No progress shown (the library's default)."""
    yield lambda text: None


def evaluate_on_spark(qrels_path: str, run_paths: Sequence[str], measures: Sequence[str],
                      options: EvaluateOptions, master: str | None, output: str | None,
                      names: Sequence[str] | None = None, progress: Progress | None = None,
                      context: Mapping[str, str] | None = None) -> list[Result]:
    """Evaluate each run on Spark and return the aggregates as Results without per-query
    values, for rendering; with ``output``, also write every run's per-query values (with a
    ``run`` column: ``names``, default the paths) as the Parquet folder ``output`` (replaced
    whole, :mod:`._write`).

    A session ranklens creates shows no console progress bar of Spark's: ``progress``
    (the command line's spinner, ``ranklens.cli._progress.working``; none by default) shows
    what runs instead. It is passed in, so this surface imports nothing of the CLI above it.

    ``context``: the beyond-accuracy tables' files by ``evaluate``'s keyword (``train``,
    ``items``, ``item_features``, ``item_groups``), read once on the driver by ranklens's
    own readers (catalogue-sized: they are not read through Spark) for every run.
    """
    if "-" in (qrels_path, *run_paths):
        raise ParameterError("--engine spark reads files through Spark; standard input "
                             "('-') cannot be one")
    if master is not None:
        check_master(master)
    try:
        from pyspark.sql import SparkSession
        from pyspark.sql import functions as F
    except ImportError:
        raise ParameterError("--engine spark needs pyspark: pip install 'ranklens[spark]'"
                             ) from None
    from ._driver import evaluate

    working = progress if progress is not None else _quiet
    tables = _tables(context or {})

    # local workers must run this interpreter, where ranklens is installed
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # Spark's stage bars would be drawn into ranklens's output (and over its own progress)
    builder = (SparkSession.builder.appName("ranklens")
               .config("spark.ui.showConsoleProgress", "false"))
    if master is not None and master.startswith("sc://"):
        builder = builder.remote(master)
    elif master is not None:
        builder = builder.master(master)
    labels = list(names) if names is not None else list(run_paths)
    with working("Starting Spark") as status:
        spark = builder.getOrCreate()
        qrels = read_qrels(spark, qrels_path)
        out: list[Result] = []
        parts = []
        done = []
        for i, (path, name) in enumerate(zip(run_paths, labels, strict=True)):
            status(f"Evaluating {name} on Spark (run {i + 1} of {len(labels)})")
            run = read_run(spark, path)
            result = evaluate(qrels, run, list(measures), run_name=name,
                              rank="rank" if "rank" in run.columns else None, options=options,
                              **tables)
            done.append(result)
            parts.append(result.per_query.withColumn("run", F.lit(name)))
            out.append(Result(
                names=result.names, measures=result.measures,
                query_ids=np.array([], dtype=object),
                query_values={n: np.array([], dtype=np.float64) for n in result.names},
                aggregates=dict(result.aggregates), conventions=result.conventions,
                run_name=name, diagnostics={}))
        if output is not None:
            status(f"Writing the per-query values to {output}")
            frame = parts[0]
            for part in parts[1:]:
                frame = frame.unionByName(part)
            write_parquet(spark, frame, output)
        for result in done:
            result.unpersist()
    return out


def _tables(paths: Mapping[str, str]) -> dict[str, Any]:
    """The item tables of ``paths`` (by ``evaluate``'s keyword), each read once."""
    readers: dict[str, Callable[[Any], Any]] = {
        "train": load_interactions, "items": load_items,
        "item_features": load_item_features, "item_groups": load_item_groups}
    return {name: readers[name](path) for name, path in paths.items()}
