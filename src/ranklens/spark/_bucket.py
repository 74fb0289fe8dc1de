"""One bucket of whole queries, evaluated inside a Spark Python worker.

Runs on executors: it imports pyarrow and polars (through ranklens) but not pyspark, so it
is tested and pickled by reference like any ranklens module. :func:`evaluate_bucket` turns
the judgments and run rows of some queries into rows of :data:`OUTPUT_FIELDS`: per-query
values (``kind="value"``), the bucket's :class:`~ranklens._pipeline.partials.Partial` as
JSON (``"partial"``: its counts and each measure's exact sums), an error (``"error"``) and
worker warnings (``"warning"``). The driver (:mod:`ranklens.spark._driver`) reads all but
the values in one job, merges the partials and assembles them as the local engine does
(:func:`ranklens._pipeline.assemble.finish`), and re-raises an error with the class and
message ranklens would have raised locally.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.errors import RanklensError, RanklensWarning
from .._base.lazy import polars as pl
from .._ingest.tables import Qrels, Run
from .._model.items import ItemContext
from .._pipeline.blocks import BlockSpec, Outcome, ids_outcome
from .._pipeline.compute import compute
from .._pipeline.partials import partial_of, policy_values

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["OUTPUT_FIELDS", "evaluate_bucket", "shipped_context", "text_ids",
           "worker_context"]

#: The columns every bucket returns (name, Arrow/Spark type).
OUTPUT_FIELDS = (("kind", "string"), ("query_id", "string"), ("measure", "string"),
                 ("value", "double"), ("counted", "boolean"), ("text", "string"))


def shipped_context(context: ItemContext | None) -> dict[str, Any]:
    """The :class:`~ranklens._pipeline.blocks.BlockSpec` fields that ship ``context`` to
    the buckets: the driver's own context, pickled whole, so every bucket numbers the
    items as the driver does (the numbering is the context's ``universe``, built once on
    the driver). The bytes travel inside the pickled bucket function, which Spark
    broadcasts when it is large."""
    if context is None:
        return {}
    data = pickle.dumps(context, protocol=pickle.HIGHEST_PROTOCOL)
    return {"context": data, "context_key": hashlib.sha256(data).hexdigest()}


# the contexts this worker process has unpickled, by digest: the tasks a Python worker runs
# one after another (Spark reuses workers) share one context and its memos
_CONTEXTS: dict[str, ItemContext] = {}


def worker_context(spec: BlockSpec) -> ItemContext | None:
    """The item context the driver shipped in ``spec`` (None when none was given)."""
    if spec.context is None:
        return None
    context = _CONTEXTS.get(spec.context_key)
    if context is None:
        _CONTEXTS.clear()  # one evaluation's context at a time: they are catalogue-sized
        context = _CONTEXTS[spec.context_key] = pickle.loads(spec.context)
    return context


def evaluate_bucket(spec: BlockSpec, qrels: pa.Table, run: pa.Table, *,
                    ordered: bool = False) -> pa.Table:
    """The output rows of one bucket: ``qrels`` (``query_id, doc_id, relevance``) and
    ``run`` (``query_id, doc_id, score`` and ``rank`` when ordered by rank) hold whole
    queries. ``ordered``: the run's rows are already grouped by query (and in rank order
    within a query when ordered by rank), so they need no sorting. A ranklens error
    becomes one ``error`` row; warnings become rows too."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        q = pl.DataFrame(pl.from_arrow(text_ids(qrels)))
        r = pl.DataFrame(pl.from_arrow(text_ids(run)))
        try:
            frame = _rows(spec, q, r, ordered)
        except RanklensError as error:
            # the counts still count: the driver raises the error the local engine would
            # raise first (a missing query before a run's duplicate, ...)
            frame = _outcome_rows(ids_outcome(
                q["query_id"].to_list(), r["query_id"].to_list(), error))
    # ranklens's own warnings (a library's deprecation notice is the worker's business)
    caught = [w for w in caught if issubclass(w.category, RanklensWarning)
              or "ranklens" in str(w.filename)]
    if caught:
        seen = dict.fromkeys((w.category.__name__, str(w.message)) for w in caught)
        frame = pl.concat([frame, _frame([{"kind": "warning", "measure": category,
                                           "text": message} for category, message in seen])])
    import pyarrow as pa

    # Spark's "string" is Arrow's 32-bit-offset string; polars hands back large_string
    types = {"string": pa.string(), "double": pa.float64(), "boolean": pa.bool_()}
    return frame.to_arrow().cast(pa.schema([(n, types[k]) for n, k in OUTPUT_FIELDS]))


def text_ids(table: pa.Table) -> pa.Table:
    """``table`` with integer ``query_id`` / ``doc_id`` columns as their decimal strings
    (integer ids travel through Spark as longs; the engine's ids are strings)."""
    import pyarrow as pa

    for name in ("query_id", "doc_id"):
        column = table[name] if name in table.column_names else None
        if column is not None and pa.types.is_integer(column.type):
            table = table.set_column(table.schema.get_field_index(name), name,
                                     column.cast(pa.string()))
    return table


def _schema() -> dict[str, Any]:
    types = {"string": pl.String, "double": pl.Float64, "boolean": pl.Boolean}
    return {name: types[kind] for name, kind in OUTPUT_FIELDS}


def _frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=_schema())


def _values(name: str, query_ids: pl.Series, values: np.ndarray | None,
            counted: np.ndarray | None, texts: np.ndarray | None) -> pl.DataFrame:
    """The ``value`` rows of one measure."""
    n = len(query_ids)

    def const(value: Any, dtype: Any) -> pl.Series:  # a column of one value, no Python list
        return pl.Series([], dtype=dtype).extend_constant(value, n)

    return pl.DataFrame({
        "kind": const("value", pl.String), "query_id": query_ids,
        "measure": const(name, pl.String),
        "value": const(None, pl.Float64) if values is None else values,
        "counted": const(False, pl.Boolean) if counted is None else counted,
        "text": const(None, pl.String) if texts is None else texts.tolist(),
    }, schema=_schema())


def _rows(spec: BlockSpec, qrels: pl.DataFrame, run: pl.DataFrame, ordered: bool
          ) -> pl.DataFrame:
    plan = spec.plan
    if qrels.height == 0:  # nothing judged here: every run query is ignored
        return _outcome_rows(ids_outcome((), run["query_id"].to_list()))
    # the engine keeps the rank order only among a query's rows (ties="input"); without a
    # rank the order of rows inside a query does not change any value
    if not ordered:  # sorting strings is most of a bucket's time: done only when needed
        run = run.sort(["query_id", "rank"] if spec.has_rank else ["query_id"],
                       maintain_order=True)
    # one block of the evaluation: the policies that read every query are the driver's
    per_query = compute(plan, Qrels(qrels.select("query_id", "doc_id", "relevance"),
                                    source=spec.qrels_source),
                        Run(run.select("query_id", "doc_id", "score"), source=spec.run_source,
                            name=spec.run_name), block=True,
                        context=worker_context(spec))
    id_series = pl.Series(per_query.query_ids.tolist(), dtype=pl.String)  # shared by all
    out = [_frame([])]
    for at, (name, measure) in enumerate(zip(plan.names, plan.measures, strict=True)):
        if measure.definition.text:
            out.append(_values(name, id_series, None, None,
                               per_query.values[measure].astype(str)))
            continue
        values, keep, _ = policy_values(plan, at, per_query)
        # a NaN value (a policy's or the measure's own) is left out, as Result.mean does
        counted = (np.ones(len(values), dtype=bool) if keep is None else keep) & ~np.isnan(
            values.astype(np.float64))
        if measure.definition.aggregate == "catalogue":  # NaN per user: finished from the
            counted = np.zeros(len(values), dtype=bool)  # item counts, not from values
        out.append(_values(name, id_series, values.astype(np.float64), counted, None))
    out.append(_outcome_rows(Outcome(partial_of(plan, per_query, keep_values=False))))
    return pl.concat(out)


def _outcome_rows(outcome: Outcome) -> pl.DataFrame:
    """A bucket's outcome as rows: its partial and its error, as JSON."""
    rows = [{"kind": "partial", "text": json.dumps(outcome.partial.to_json())}]
    if outcome.error is not None:
        rows.insert(0, {"kind": "error", "text": json.dumps(outcome.error.to_dict())})
    return _frame(rows)
