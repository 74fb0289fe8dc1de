"""Supervised fusion as a registry kernel: the training arrays built from the candidates and
the training judgments, the models learned, every query fused without its own judgments.

**The leakage rule.** A query of the runs that the training judgments do not hold is fused
by a model learned on every training query. A query they do hold is never fused by a model
that saw its judgments: the training queries the runs have (ids in ascending order) are
shuffled with ``numpy.random.default_rng(seed)`` and split into ``folds`` parts by
``numpy.array_split`` (the split :func:`ranklens.optimize_fusion` makes), and each part is
fused by a model learned on the other parts (cross-fitting). ``allow_leakage=True`` fuses
every query with the model learned on all training queries, as ranx does.

A training query is one the judgments hold (even with no relevant document: it then says
that nothing retrieved is relevant); it teaches a run only where that run has a list for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from .._errors import ParameterError
from .._tables import Qrels
from .._validate import Boolean, Integer
from .candidates import Candidates
from .registry import Inputs, Kernel, Param

__all__ = ["LEAKAGE_PARAMS", "cross_fit_folds", "supervised_kernel", "training_arrays"]

#: The parameters every supervised method takes besides its own.
LEAKAGE_PARAMS = (
    Param("folds", Integer(2), 5,
          "number of cross-fitting folds over the training queries the runs have"),
    Param("seed", Integer(0), 0, "seed of the shuffle that assigns training queries to folds"),
    Param("allow_leakage", Boolean(), False,
          "fuse training queries with a model learned on their own judgments (as ranx does)"),
)


def training_arrays(c: Candidates, train: Qrels, rel: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's training grade (NaN: unjudged), each row's query's number of judgments at
    ``rel`` or above (retrieved or not), and whether each query code is a training query."""
    judged = train.frame.unique(["query_id", "doc_id"], keep="first", maintain_order=True)
    rows = pl.DataFrame({"query_id": c.query_ids.gather(c.query),
                         "doc_id": c.doc_ids, "i": np.arange(c.query.size)})
    grade = (rows.join(judged, on=["query_id", "doc_id"], how="left")
             .sort("i")["relevance"].fill_null(np.nan).to_numpy().astype(np.float64))
    counts = (judged.filter(pl.col("relevance") >= rel).group_by("query_id").len()
              .rename({"len": "count"}))
    if train.unretrieved is not None:
        more = train.unretrieved.filter(pl.col("relevance") >= rel).select(
            "query_id", pl.col("count").cast(pl.UInt32))
        counts = pl.concat([counts.cast({"count": pl.UInt32}), more]).group_by(
            "query_id").agg(pl.col("count").sum())
    per_query = (pl.DataFrame({"query_id": c.query_ids}).join(counts, on="query_id",
                                                                how="left",
                                                                maintain_order="left")
                 ["count"].fill_null(0).to_numpy().astype(np.int64))
    is_train = c.query_ids.is_in(judged["query_id"].unique().implode()).to_numpy()
    return grade, per_query[c.query], is_train


def cross_fit_folds(query_ids: pl.Series, folds: int, seed: int) -> list[np.ndarray]:
    """The training queries' ids (sorted) shuffled with ``seed`` and split into ``folds``."""
    ids = np.array(sorted(query_ids.to_list()), dtype=object)
    return np.array_split(np.random.default_rng(seed).permutation(ids), folds)


def supervised_kernel(name: str, learn: Any, fuse: Any, needs_relevant: bool) -> Kernel:
    """A registry kernel for a supervised method: training arrays, leakage rule, fusion."""

    def kernel(inputs: Inputs, *, folds: int, seed: int, allow_leakage: bool,
               **params: Any) -> np.ndarray:
        return _fuse_supervised(name, learn, fuse, needs_relevant, inputs, params,
                                folds=folds, seed=seed, allow_leakage=allow_leakage)

    return kernel


def _fuse_supervised(name: str, learn: Any, fuse: Any, needs_relevant: bool,
                     inputs: Inputs, params: Mapping[str, Any], *, folds: int, seed: int,
                     allow_leakage: bool) -> np.ndarray:
    c = inputs.candidates
    grade, relevant, is_train = training_arrays(c, inputs.train, int(params.get("rel", 1)))
    train_q = np.flatnonzero(is_train)
    if train_q.size == 0:
        raise ParameterError(
            f"the 'train' judgments of {name!r} must judge some of the runs' queries; "
            f"they judge none of the {c.query_ids.len()}")
    arrays = (c.query, c.doc, inputs.rank, inputs.length, inputs.score)

    def learned(rows: np.ndarray) -> Any:
        extra = {"relevant": relevant[rows]} if needs_relevant else {}
        return learn(*(a[rows] for a in arrays), grade[rows], **extra, **params)

    def fused(model: Any, rows: np.ndarray) -> np.ndarray:
        return np.asarray(fuse(model, *(a[rows] for a in arrays)), dtype=np.float64)

    out = np.zeros(c.query.size)
    train_row = is_train[c.query]
    every_training_row = np.flatnonzero(train_row)
    outside = np.flatnonzero(~train_row)
    if allow_leakage or outside.size:
        model = learned(every_training_row)
        rows = np.arange(c.query.size) if allow_leakage else outside
        out[rows] = fused(model, rows)
    if allow_leakage:
        return out
    if train_q.size < folds:
        raise ParameterError(
            f"the 'folds' parameter of {name!r} must be at most the number of training "
            f"queries the runs have ({train_q.size}), so that each is fused by a model "
            f"learned on the others; got {folds} (or give allow_leakage=True)")
    fold_of_query = np.full(c.query_ids.len(), -1, dtype=np.int64)
    code_of = dict(zip(c.query_ids.to_list(), range(c.query_ids.len()), strict=True))
    for f, part in enumerate(cross_fit_folds(c.query_ids.gather(train_q), folds, seed)):
        fold_of_query[[code_of[q] for q in part]] = f
    fold = fold_of_query[c.query]
    for f in range(folds):  # one model per fold: learned on the others, fuses this one
        model = learned(np.flatnonzero(train_row & (fold != f)))
        rows = np.flatnonzero(fold == f)
        out[rows] = fused(model, rows)
    return out
