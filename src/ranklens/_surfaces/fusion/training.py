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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from ..._base.errors import ParameterError
from ..._base.validate import Boolean, Integer
from ..._ingest.columns import shared_keys, twice_error
from ..._ingest.tables import Qrels
from ..._model.keys import block_index, numbered
from .candidates import Candidates
from .registry import Inputs, Kernel, Param

if TYPE_CHECKING:
    from .supervised._common import Supervised

__all__ = ["LEAKAGE_PARAMS", "Training", "cross_fit_folds", "fold_mean", "query_folds",
           "supervised_kernel", "training_arrays"]

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
    judged = train.frame
    twice = shared_keys(judged, "query_id", "doc_id")
    if twice.height:  # which grade would it learn? evaluate refuses them too by default
        raise twice_error(twice, "the training judgments judge the document {doc_id} more "
                          "than once for the query {query_id}", "supervised fusion learns "
                          "from one grade per document and query", train.source)
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
    per_query = np.append(counts["count"].to_numpy().astype(np.int64), 0)[
        block_index(c.query_ids, numbered(counts["query_id"]))]  # -1 (none): the 0
    is_train = c.query_ids.is_in(judged["query_id"].unique().implode()).to_numpy()
    return grade, per_query[c.query], is_train


def cross_fit_folds(query_ids: pl.Series, folds: int, seed: int) -> list[np.ndarray]:
    """The training queries' ids (sorted) shuffled with ``seed`` and split into ``folds``."""
    ids = np.array(sorted(query_ids.to_list()), dtype=object)
    return np.array_split(np.random.default_rng(seed).permutation(ids), folds)


@dataclass(frozen=True, eq=False)
class Training:
    """A supervised method on one set of candidates: the arrays its kernels read, each
    row's training grade and relevant count, and which queries the judgments hold."""

    method: Supervised
    arrays: tuple[np.ndarray, ...]
    grade: np.ndarray
    relevant: np.ndarray
    is_train: np.ndarray

    @classmethod
    def of(cls, method: Supervised, inputs: Inputs, rel: int) -> Training:
        c = inputs.candidates
        grade, relevant, is_train = training_arrays(c, inputs.train, rel)
        if not is_train.any():
            raise ParameterError(
                f"the 'train' judgments of {method.name!r} must judge some of the runs' "
                f"queries; they judge none of the {c.query_ids.len()}")
        return cls(method, (c.query, c.doc, inputs.rank, inputs.length, inputs.score), grade,
                   relevant, is_train)

    def take(self, rows: np.ndarray) -> Training:
        """These rows only (to learn or fuse on them many times without slicing again)."""
        return replace(self, arrays=tuple(a[rows] for a in self.arrays),
                       grade=self.grade[rows], relevant=self.relevant[rows])

    def scores(self, params: Mapping[str, Any], learn_rows: np.ndarray | None,
               fuse_rows: np.ndarray | None, *, on: Training | None = None) -> np.ndarray:
        """The fused scores of ``fuse_rows`` (of ``on`` when given: a :meth:`take`) by the
        model learned on ``learn_rows`` (None: every row)."""
        learn = self if learn_rows is None else self.take(learn_rows)
        extra = {"relevant": learn.relevant} if self.method.needs_relevant else {}
        model = self.method.learn(*learn.arrays, learn.grade, **extra, **params)
        target = on if on is not None else self
        arrays = target.arrays if fuse_rows is None else [a[fuse_rows] for a in target.arrays]
        return np.asarray(self.method.fuse(model, *arrays), dtype=np.float64)


def supervised_kernel(method: Supervised) -> Kernel:
    """A registry kernel for a supervised method: training arrays, leakage rule, fusion."""

    def kernel(inputs: Inputs, *, folds: int, seed: int, allow_leakage: bool,
               **params: Any) -> np.ndarray:
        t = Training.of(method, inputs, int(params.get("rel", 1)))
        return _fuse_supervised(t, inputs.candidates, params, folds, seed, allow_leakage)
    return kernel


def _fuse_supervised(t: Training, c: Candidates, params: Mapping[str, Any], folds: int,
                     seed: int, allow_leakage: bool) -> np.ndarray:
    """Every query fused by the leakage rule (see the module's docstring)."""
    out = np.zeros(c.query.size)
    train_row = t.is_train[c.query]
    every_training_row = np.flatnonzero(train_row)
    outside = np.flatnonzero(~train_row)
    if allow_leakage or outside.size:
        rows = np.arange(c.query.size) if allow_leakage else outside
        out[rows] = t.scores(params, every_training_row, rows)
    if allow_leakage:
        return out
    train_q = np.flatnonzero(t.is_train)
    if train_q.size < folds:
        raise ParameterError(
            f"the 'folds' parameter of {t.method.name!r} must be at most the number of "
            f"training queries the runs have ({train_q.size}), so that each is fused by a "
            f"model learned on the others; got {folds} (or give allow_leakage=True)")
    fold = query_folds(c.query_ids, cross_fit_folds(c.query_ids.gather(train_q), folds,
                                                    seed))[c.query]
    for f in range(folds):  # one model per fold: learned on the others, fuses this one
        rows = np.flatnonzero(fold == f)
        out[rows] = t.scores(params, np.flatnonzero(train_row & (fold != f)), rows)
    return out


def query_folds(query_ids: pl.Series, parts: list[np.ndarray]) -> np.ndarray:
    """Each query code's part number in ``parts`` (arrays of ids), -1 when in none."""
    ids = [str(x) for p in parts for x in p.tolist()]
    fold = np.repeat(np.arange(len(parts), dtype=np.int64), [len(p) for p in parts])
    return np.append(fold, -1)[block_index(query_ids, numbered(ids))]  # -1 (none): the -1


def fold_mean(values: Mapping[str, float], queries: Sequence[str]) -> float:
    """The mean of ``values`` over ``queries`` (NaN when none has a value)."""
    chosen = [values[x] for x in queries if x in values]
    return float(np.mean(chosen)) if chosen else float("nan")
