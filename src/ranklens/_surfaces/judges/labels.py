"""Agreement on labels: each judge against the reference, and every judge together.

Each statistic is given over all joined pairs, per query, and with a percentile bootstrap
interval over queries: a resample draws queries with replacement and pools their matrices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..compare.paired import sign_test, wilcoxon_test
from . import statistics as st
from .pairing import Judged

__all__ = ["GroupAgreement", "PairAgreement", "Statistic", "group_agreement",
           "pair_agreement", "pooled_resamples"]

#: draws (resamples x queries) held at once, 2**22 integers (memory only: the numbers drawn
#: do not depend on it)
BLOCK_DRAWS = 1 << 22


@dataclass(frozen=True)
class Statistic:
    """One statistic over all pairs, with its bootstrap interval over queries."""

    name: str
    value: float
    low: float
    high: float


@dataclass(frozen=True)
class PairAgreement:
    """A judge against the reference over the pairs both judged.

    Attributes
    ----------
    reference, judge : the two judges' names.
    pairs, queries : joined pairs and the queries they fall in.
    only_reference, only_judge : the pairs one judge lacks (``query_id, doc_id, grade``).
    confusion : counts, rows the reference's grade, columns the judge's.
    statistics : kappa (unweighted, linear, quadratic, at each cut), alpha (nominal,
        ordinal, interval) and the shift, mean(judge - reference).
    up, down : pairs the judge grades above / below the reference.
    sign_p, wilcoxon_p : two-sided sign and Wilcoxon signed-rank tests of the shift.
    stuart_maxwell, bowker : chi-square tests (statistic, df, p) that the two judges'
        grade distributions are the same (marginal homogeneity) and that the confusion
        matrix is symmetric.
    per_query : ``query_id, pairs`` and each statistic, per query (no interval: a query is
        one draw of the bootstrap over queries; docs/judges.md says why).
    """

    reference: str
    judge: str
    pairs: int
    queries: int
    only_reference: pl.DataFrame
    only_judge: pl.DataFrame
    confusion: np.ndarray
    statistics: tuple[Statistic, ...]
    up: int
    down: int
    sign_p: float
    wilcoxon_p: float
    stuart_maxwell: st.ChiSquare
    bowker: st.ChiSquare
    per_query: pl.DataFrame


@dataclass(frozen=True)
class GroupAgreement:
    """Three judges or more over the pairs all judged: Fleiss' and Randolph's kappa, alpha."""

    judges: tuple[str, ...]
    pairs: int
    queries: int
    statistics: tuple[Statistic, ...]
    per_query: pl.DataFrame


def pooled_resamples(mats: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """``(resamples, ...)`` sums of ``mats`` (one per query) over queries drawn with
    replacement, from ``numpy.random.default_rng(seed)``."""
    q = mats.shape[0]
    rng = np.random.default_rng(seed)
    flat = mats.reshape(q, -1)
    out = [np.zeros((0, flat.shape[1]))]
    block = max(1, BLOCK_DRAWS // q)
    for start in range(0, resamples, block):
        rows = min(block, resamples - start)
        drawn = rng.integers(0, q, (rows, q)) + np.arange(rows)[:, None] * q
        counts = np.bincount(drawn.ravel(), minlength=rows * q).reshape(rows, q)
        out.append(counts @ flat)
    return np.concatenate(out).reshape(resamples, *mats.shape[1:])


def _pair_statistics(o: np.ndarray, values: np.ndarray) -> dict[str, np.ndarray]:
    got = {("kappa" if w == "unweighted" else f"kappa_{w}"): st.kappa(o, w)
           for w in st.KAPPA_WEIGHTS}
    got.update({f"kappa@>={int(values[t])}": st.cut_kappa(o, t) for t in range(1, values.size)})
    got.update({f"alpha_{level}": st.alpha(o + np.swapaxes(o, -1, -2), level, values)
                for level in st.ALPHA_LEVELS})
    got["shift"] = st.shift(o, values)
    return got


def _group_statistics(o: np.ndarray, values: np.ndarray) -> dict[str, np.ndarray]:
    got = {"fleiss_kappa": st.fleiss(o)}
    got.update({f"alpha_{level}": st.alpha(o, level, values) for level in st.ALPHA_LEVELS})
    got["randolph_kappa"] = st.fleiss(o, "randolph")
    return got


def _summarised(per_query: np.ndarray, statistic: Callable[..., dict[str, np.ndarray]],
                values: np.ndarray,
                query_ids: tuple[str, ...], resamples: int, seed: int, confidence: float
                ) -> tuple[tuple[Statistic, ...], pl.DataFrame]:
    whole = statistic(per_query.sum(axis=0), values)
    drawn = statistic(pooled_resamples(per_query, resamples, seed), values) if resamples else {}
    tail = (1 - confidence) / 2
    rows = []
    for name, value in whole.items():
        low, high = (np.quantile(drawn[name], [tail, 1 - tail]).tolist() if resamples
                     else (np.nan, np.nan))
        rows.append(Statistic(name, float(value), float(low), float(high)))
    frame = pl.DataFrame({"query_id": list(query_ids),
                          "pairs": per_query.sum(axis=(-2, -1)).astype(np.int64),
                          **{k: np.asarray(v, dtype=np.float64)
                             for k, v in statistic(per_query, values).items()}})
    return tuple(rows), frame


def pair_agreement(labels: Judged, reference: str, judge: str, *, resamples: int, seed: int,
                   confidence: float) -> PairAgreement:
    """``judge`` against ``reference``: see :class:`PairAgreement`."""
    joined = labels.join([reference, judge])
    k, values = labels.grades.size, labels.grades.astype(np.float64)
    a, b = joined.positions
    per_query = st.confusion(joined.queries, a, b, len(joined.query_ids), k)
    stats, frame = _summarised(per_query, _pair_statistics, values, joined.query_ids,
                               resamples, seed, confidence)
    d, whole = values[b] - values[a], per_query.sum(axis=0)
    return PairAgreement(reference, judge, a.size, len(joined.query_ids),
                         labels.alone(reference, judge), labels.alone(judge, reference),
                         whole.astype(np.int64), stats,
                         int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0)),
                         sign_test(d), wilcoxon_test(d) if d.size else np.nan,
                         st.stuart_maxwell(whole), st.bowker(whole), frame)


def group_agreement(labels: Judged, judges: list[str], *, resamples: int, seed: int,
                    confidence: float) -> GroupAgreement:
    """Every judge together over the pairs all judged: see :class:`GroupAgreement`."""
    joined = labels.join(judges)
    k, q = labels.grades.size, len(joined.query_ids)
    # a unit's coincidences: every ordered pair of its judges, over (judges - 1)
    per_query = sum(st.confusion(joined.queries, x, y, q, k)
                    for i, x in enumerate(joined.positions)
                    for j, y in enumerate(joined.positions) if i != j) / (len(judges) - 1)
    stats, frame = _summarised(np.asarray(per_query), _group_statistics,
                               labels.grades.astype(np.float64), joined.query_ids,
                               resamples, seed, confidence)
    # a unit's coincidences sum to its number of judges
    frame = frame.with_columns(pl.col("pairs") // len(judges))
    return GroupAgreement(tuple(judges), joined.queries.size, q, stats, frame)
