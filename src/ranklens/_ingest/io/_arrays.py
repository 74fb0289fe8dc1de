"""Array inputs -> Qrels + Run: ranked label matrices, score matrices, flat torchmetrics arrays.

Three shapes, all turned into the same tables so the same engine and measures apply:

- ``labels`` alone, ``(n_queries, k)``: relevance of each query's results *in rank order*
  (a recommender's top-k hit matrix). Each row's ranking is the column order.
- ``labels`` and ``scores`` of one shape ``(n_queries, n_candidates)``: sklearn's
  ``y_true, y_score``. Every candidate is judged; the ranking sorts the scores.
- ``labels``, ``scores`` and ``indexes``, 1-D and of one length: torchmetrics'
  ``target, preds, indexes``; ``indexes`` says which query each row belongs to.

Ids are synthetic. A query is its row number (or its ``indexes`` value), a document its
column number (or its position among its query's rows), both zero-padded to one width so
that trec_eval's byte-wise order is the numeric order. Equal scores therefore fall to the
later column under ``ties="docid"`` (as sklearn's ``ignore_ties=True`` argsort does), to the
earlier one under ``ties="input"``. NaN marks a hole: a NaN label is no judgment, a NaN
score (or a NaN in a ranked label matrix) is a document not retrieved.

Anything NumPy can read (lists, ``__array__`` objects such as CPU tensors) and anything
exposing the Arrow C data interface (``__arrow_c_array__`` / ``__arrow_c_stream__``, e.g.
pyarrow arrays, list arrays for ragged rows) is accepted.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._base.errors import InputError
from ..._base.lazy import polars as pl
from ..tables import Qrels, Run, table_schema

__all__ = ["UNRETRIEVED_PREFIX", "from_arrays", "to_matrix", "to_vector"]

#: Doc id prefix of the one row ``n_relevant`` adds for a query with no label (the rest: a count).
UNRETRIEVED_PREFIX = "unretrieved-"


def _arrow_first(obj: Any) -> bool:
    """Read through Arrow: pyarrow / polars objects and C-interface-only objects."""
    if type(obj).__module__.startswith(("pyarrow", "polars")):
        return True
    arrow = hasattr(obj, "__arrow_c_array__") or hasattr(obj, "__arrow_c_stream__")
    return arrow and not hasattr(obj, "__array__")


def _frame_like(obj: Any) -> bool:
    module = type(obj).__module__
    return (isinstance(obj, pl.DataFrame)
            or (module.startswith("pandas") and type(obj).__name__ == "DataFrame")
            or (module.startswith("pyarrow") and type(obj).__name__ in ("Table", "RecordBatch")))


def _pad(rows: list[Any], what: str) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), np.nan)
    for i, row in enumerate(rows):
        if len(row):
            try:
                out[i, : len(row)] = np.asarray(row, dtype=np.float64)
            except (TypeError, ValueError):
                raise InputError(f"row {i} of {what}: expected numbers, got {list(row)[:5]}",
                                 source=what) from None
    return out


def to_matrix(obj: Any, what: str) -> np.ndarray:
    """A 2-D float64 array from ``obj``; ragged rows (lists, Arrow list arrays) NaN-padded."""
    if isinstance(obj, np.ndarray):
        arr = obj
    elif _frame_like(obj):
        from ._frames import to_polars

        frame = to_polars(obj)
        arr = frame.to_numpy() if frame is not None else np.asarray(obj)
    elif _arrow_first(obj):
        series = pl.Series(obj)
        if isinstance(series.dtype, (pl.List, pl.Array)):
            return _pad(series.to_list(), what)
        arr = series.to_numpy()
    elif isinstance(obj, (list, tuple)) and obj and all(
            isinstance(r, (list, tuple, np.ndarray)) for r in obj) and len(
            {len(r) for r in obj}) > 1:
        return _pad(list(obj), what)
    else:
        try:
            arr = np.asarray(obj)
        except (TypeError, ValueError, OverflowError):  # rows of rows of unequal lengths
            raise InputError("expected a 2-D array (queries x items) of numbers, got nested "
                             "lists of different shapes", source=what) from None
    if arr.ndim != 2:
        raise InputError(f"expected a 2-D array (queries x items), got shape {arr.shape}",
                         source=what)
    return _as_float(arr, what)


def to_vector(obj: Any, what: str) -> np.ndarray:
    """A 1-D array from ``obj`` (numbers or ids; dtype kept)."""
    if isinstance(obj, np.ndarray):
        arr = obj
    elif _arrow_first(obj):
        arr = pl.Series(obj).to_numpy()
    else:
        try:
            arr = np.asarray(obj)
        except (TypeError, ValueError, OverflowError):  # ragged nested lists
            raise InputError("expected a 1-D array of numbers or ids, got nested lists of "
                             "different lengths", source=what) from None
    if arr.ndim != 1:
        raise InputError(f"expected a 1-D array, got shape {arr.shape}", source=what)
    return arr


def _as_float(arr: np.ndarray, what: str) -> np.ndarray:
    try:
        return np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"expected numbers, got values of type {arr.dtype}",
                         source=what) from None


def _padded_ids(values: np.ndarray) -> np.ndarray:
    """Non-negative integers as zero-padded strings of one width (byte order = numeric)."""
    width = len(str(int(values.max()))) if values.size else 1
    return np.char.zfill(values.astype(np.int64).astype(str), width).astype(object)


def _check_finite(arr: np.ndarray, what: str) -> None:
    bad = np.isinf(arr)
    if bad.any():
        where = np.argwhere(bad)[0].tolist()
        raise InputError(f"infinite value at position {where}", source=what)


def from_arrays(
    labels: Any,
    *,
    scores: Any = None,
    indexes: Any = None,
    n_relevant: Any = None,
    relevant_grade: float = 1.0,
) -> tuple[Qrels, Run]:
    """Array inputs as a ``(Qrels, Run)`` pair, to pass to :func:`ranklens.evaluate` or
    elsewhere (see the module docstring; :func:`ranklens.evaluate_arrays` evaluates them).

    Query ids are the row numbers (or the ``indexes`` values) and document ids the column
    numbers (or positions within a query), zero-padded to one width so that their byte
    order is their numeric order. Row numbers and integer ``indexes`` come back as integers
    from ``to_polars()`` / ``to_pandas()``.

    Parameters
    ----------
    labels : array-like
        Relevance labels: ``(n_queries, k)`` in rank order when ``scores`` is None;
        ``(n_queries, n_candidates)`` with ``scores``; 1-D with ``indexes``.
    scores : array-like, optional
        Scores of the same shape as ``labels`` (higher ranks first).
    indexes : array-like, optional
        1-D query of each row (integers or ids); needs ``scores``.
    n_relevant : array-like, optional
        Number of relevant items of each query, retrieved or not (one per query, in query
        order). Relevant items beyond those present in ``labels`` are judged at level
        ``relevant_grade``, unretrieved, as a per-query count (``Qrels.unretrieved``; a
        query with no label gets one row of them), so recall and the ideal DCG count them.
    relevant_grade : float, default 1.0
        Level of the relevant items ``n_relevant`` adds.

    Examples
    --------
    >>> qrels, run = from_arrays([[1, 0, 1], [0, 0, 1]])
    >>> run
    Run('<label matrix>', 2 queries, 6 rows)
    """
    if indexes is not None:
        if scores is None:
            raise InputError("indexes= needs scores= too (the flat target, preds, indexes "
                             "form)", source="<arrays>")
        return _flat(labels, scores, indexes, n_relevant, relevant_grade)
    lab = to_matrix(labels, "<labels>")
    _check_finite(lab, "<labels>")
    nq, width = lab.shape
    rows, cols = np.indices((nq, width))
    if scores is None:
        # rank order given: strictly decreasing scores make every tie policy agree
        score = np.broadcast_to(np.arange(width, 0, -1, dtype=np.float64), lab.shape)
        in_run = ~np.isnan(lab)
        judged = in_run
        source = "<label matrix>"
    else:
        score = to_matrix(scores, "<scores>")
        if score.shape != lab.shape:
            raise InputError(f"scores have shape {score.shape} but labels {lab.shape}; "
                             "expected one score per label", source="<scores>")
        _check_finite(score, "<scores>")
        in_run = ~np.isnan(score)
        judged = ~np.isnan(lab)
        source = "<score matrix>"
    qids = _padded_ids(np.arange(max(nq, 1)))[:nq]
    dids = _padded_ids(np.arange(max(width, 1)))[:width]
    # the query ids are the row numbers: integers, given back as such (Result.to_polars)
    qrels = _qrels(qids[rows[judged]], dids[cols[judged]], lab[judged], source, integer=True)
    run = _run(qids[rows[in_run]], dids[cols[in_run]], score[in_run], source)
    if n_relevant is not None:
        qrels = _add_unretrieved(qrels, qids, n_relevant, relevant_grade)
    return qrels, run


def _flat(labels: Any, scores: Any, indexes: Any, n_relevant: Any,
          relevant_grade: float) -> tuple[Qrels, Run]:
    target = _as_float(to_vector(labels, "<target>"), "<target>")
    preds = _as_float(to_vector(scores, "<preds>"), "<preds>")
    index = to_vector(indexes, "<indexes>")
    if not (target.size == preds.size == index.size):
        raise InputError(f"target, preds and indexes must have one length; got {target.size}, "
                         f"{preds.size} and {index.size}", source="<arrays>")
    _check_finite(target, "<target>")
    _check_finite(preds, "<preds>")
    if index.dtype.kind in "iu" and (index.size == 0 or index.min() >= 0):
        qids = _padded_ids(index)
    elif index.dtype.kind in "iuf" and np.isnan(index.astype(np.float64)).any():
        raise InputError("indexes contain NaN", source="<indexes>")
    else:
        qids = index.astype(str).astype(object)
    frame = pl.DataFrame({"query_id": pl.Series(qids.tolist(), dtype=pl.String)})
    position = frame.select(pl.int_range(pl.len(), dtype=pl.Int64).over("query_id"))
    pos = position.to_series().to_numpy()
    dids = _padded_ids(pos) if pos.size else np.array([], dtype=object)
    judged = ~np.isnan(target)
    in_run = ~np.isnan(preds)
    # integer indexes (torchmetrics' user ids) are given back as integers (Result.to_polars)
    qrels = _qrels(qids[judged], dids[judged], target[judged], "<flat arrays>",
                   integer=index.dtype.kind in "iu")
    run = _run(qids[in_run], dids[in_run], preds[in_run], "<flat arrays>")
    if n_relevant is not None:
        order = np.array(sorted(set(qids.tolist())), dtype=object)
        qrels = _add_unretrieved(qrels, order, n_relevant, relevant_grade)
    return qrels, run


def _qrels(qids: np.ndarray, dids: np.ndarray, rel: np.ndarray, source: str,
           integer: bool = False) -> Qrels:
    frame = pl.DataFrame({"query_id": qids.tolist(), "doc_id": dids.tolist(), "relevance": rel},
                         schema=table_schema("relevance"))
    return Qrels(frame, source, integer_query_ids=integer and bool(qids.size))


def _run(qids: np.ndarray, dids: np.ndarray, score: np.ndarray, source: str) -> Run:
    return Run(pl.DataFrame({"query_id": qids.tolist(), "doc_id": dids.tolist(),
                             "score": score}, schema=table_schema("score")), source)


def _add_unretrieved(qrels: Qrels, qids: np.ndarray, n_relevant: Any,
                     grade: float) -> Qrels:
    counts = to_vector(n_relevant, "<n_relevant>")
    if counts.size != qids.size:
        raise InputError(f"n_relevant has {counts.size} entries for {qids.size} queries; "
                         "expected one count per query", source="<n_relevant>")
    try:
        wanted = counts.astype(np.float64)
    except (TypeError, ValueError):
        raise InputError("n_relevant must hold numbers", source="<n_relevant>") from None
    if np.isnan(wanted).any() or (wanted < 0).any() or (wanted != np.floor(wanted)).any():
        raise InputError("n_relevant must hold whole numbers >= 0", source="<n_relevant>")
    present = (
        qrels.frame.filter(pl.col("relevance") >= grade)
        .group_by("query_id").len()
    )
    have = dict(zip(present["query_id"].to_list(), present["len"].to_list(), strict=True))
    queries = qids.tolist()
    got = np.array([have.get(q, 0) for q in queries], dtype=np.int64)
    want = wanted.astype(np.int64)
    short = np.flatnonzero(want < got)
    if short.size:
        i = int(short[0])
        raise InputError(
            f"query {queries[i]!r}: n_relevant says {want[i]} relevant items but the labels "
            f"already hold {got[i]} at level >= {grade:g}", source="<n_relevant>")
    extra = want - got
    if int(extra.sum()) == 0:
        return qrels
    # a count stays a count (10**8 relevant items must not become 10**8 rows): the engine
    # reads them as per-query counts. A query with no judgment row at all gets one row, so
    # that it is a judged query as it would be with rows
    no_row = np.zeros(len(queries), dtype=bool)
    judged = set(qrels.frame["query_id"].unique().to_list())
    no_row[[i for i, q in enumerate(queries) if q not in judged]] = True
    first = np.flatnonzero(no_row & (extra > 0))
    frame = qrels.frame
    if first.size:
        frame = pl.concat([frame, pl.DataFrame(
            {"query_id": [queries[i] for i in first.tolist()],
             "doc_id": [UNRETRIEVED_PREFIX + "0"] * first.size,
             "relevance": np.full(first.size, float(grade))},
            schema=table_schema("relevance"))])
        extra[first] -= 1
    some = np.flatnonzero(extra > 0)
    counts_frame = pl.DataFrame(
        {"query_id": [queries[i] for i in some.tolist()],
         "relevance": np.full(some.size, float(grade)), "count": extra[some]},
        schema={"query_id": pl.String, "relevance": pl.Float64, "count": pl.Int64})
    return Qrels(frame, qrels.source, unretrieved=counts_frame if some.size else None,
                 integer_query_ids=qrels.integer_query_ids)
