"""Align a run to its judgments once: integer query index, ranked order, judgments attached.

Everything a measure needs is a flat array over the ranked documents of all evaluated
queries, with per-query offsets, plus the judgments of each query sorted by grade. Measures
never look at ids again.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from ._errors import InputError, ParameterError, RanklensWarning
from ._tables import Qrels, Run

__all__ = ["Aligned", "Policies", "align"]

MISSING = ("zero", "skip", "error")
DUPLICATES = ("error", "first")
TIES = ("docid", "input", "average")


@dataclass(frozen=True)
class Policies:
    """The conventions alignment applies (see :func:`ranklens.evaluate`)."""

    rel: int = 1
    missing: str = "zero"
    duplicates: str = "error"
    depth: int | None = None
    judged_only: bool = False
    ties: str = "docid"
    collection_size: int = 0
    warn_missing: bool = True

    def __post_init__(self) -> None:
        _choice("missing", self.missing, MISSING)
        _choice("duplicates", self.duplicates, DUPLICATES)
        _choice("ties", self.ties, TIES)
        if self.depth is not None and (not isinstance(self.depth, int) or self.depth < 0):
            raise ParameterError(
                f"the 'depth' option must be an integer >= 0 or None, got {self.depth!r}"
            )
        if not isinstance(self.rel, int) or isinstance(self.rel, bool):
            raise ParameterError(f"the 'rel' option must be an integer, got {self.rel!r}")
        if not isinstance(self.judged_only, bool):
            raise ParameterError(
                f"the 'judged_only' option must be True or False, got {self.judged_only!r}"
            )
        if (not isinstance(self.collection_size, int) or isinstance(self.collection_size, bool)
                or self.collection_size < 0):
            raise ParameterError(
                "the 'collection_size' option must be an integer >= 0, "
                f"got {self.collection_size!r}"
            )


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ParameterError(
            f"the {name!r} option must be one of {', '.join(allowed)}; got {value!r}"
        )


@dataclass(frozen=True, eq=False)
class Aligned:
    """Ranked documents of every evaluated query as flat arrays (see module docstring).

    Attributes
    ----------
    query_ids : evaluated query ids, in trec_eval order (byte-wise ascending).
    offsets : ``offsets[i]:offsets[i+1]`` is query i's slice of the ranked arrays.
    qidx, rank : query index and 1-based rank of each ranked document.
    grade, judged : the judgment of each ranked document (``grade`` 0 where unjudged).
    score : the run's score (used by tie-aware measures).
    j_offsets, j_qidx, j_grade : all judgments of each query, grade descending.
    missing : queries absent from the run (scored on an empty ranking).
    """

    query_ids: np.ndarray
    offsets: np.ndarray
    qidx: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    judged: np.ndarray
    score: np.ndarray
    j_offsets: np.ndarray
    j_qidx: np.ndarray
    j_grade: np.ndarray
    missing: np.ndarray
    policies: Policies = field(default_factory=Policies)
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def nq(self) -> int:
        return len(self.query_ids)

    @property
    def n_ret(self) -> np.ndarray:
        return np.diff(self.offsets)

    # -- segment helpers -------------------------------------------------------------
    def seg_sum(self, weights: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Per-query sum of ``weights`` (in rank order, like trec_eval's loops)."""
        if mask is None:
            return np.bincount(self.qidx, weights=weights, minlength=self.nq)
        return np.bincount(self.qidx[mask], weights=weights[mask], minlength=self.nq)

    def seg_count(self, mask: np.ndarray) -> np.ndarray:
        """Per-query number of True entries (int64)."""
        return np.bincount(self.qidx[mask], minlength=self.nq).astype(np.int64)

    def seg_cumcount(self, mask: np.ndarray) -> np.ndarray:
        """For each ranked doc, the number of True entries at or above it in its query."""
        c = np.cumsum(mask, dtype=np.int64)
        before = np.concatenate(([0], c))[self.offsets[:-1]]
        return c - before[self.qidx]

    def first_rank(self, mask: np.ndarray) -> np.ndarray:
        """Per-query rank of the first True entry; 0 where there is none."""
        idx = np.flatnonzero(mask)
        out = np.zeros(self.nq, dtype=np.int64)
        if idx.size:
            q = self.qidx[idx]
            first = np.concatenate(([True], q[1:] != q[:-1]))
            out[q[first]] = self.rank[idx[first]]
        return out

    # -- judgments ----------------------------------------------------------------------
    def relevant(self, rel: int) -> np.ndarray:
        """Mask of ranked docs judged at level >= rel."""
        key = ("relevant", rel)
        if key not in self._cache:
            self._cache[key] = self.judged & (self.grade >= rel)
        return self._cache[key]

    def num_rel(self, rel: int) -> np.ndarray:
        """Per-query number of judgments at level >= rel, retrieved or not (trec_eval R)."""
        key = ("num_rel", rel)
        if key not in self._cache:
            self._cache[key] = np.bincount(
                self.j_qidx[self.j_grade >= rel], minlength=self.nq
            ).astype(np.int64)
        return self._cache[key]

    def num_judged_nonrel(self, rel: int) -> np.ndarray:
        """Per-query number of judgments at a level in [0, rel)."""
        mask = (self.j_grade >= 0) & (self.j_grade < rel)
        return np.bincount(self.j_qidx[mask], minlength=self.nq).astype(np.int64)

    def judged_only(self) -> Aligned:
        """This alignment with every document not judged >= 0 removed (trec_eval -J)."""
        if "judged_only" not in self._cache:
            keep = self.judged & (self.grade >= 0)
            self._cache["judged_only"] = self._subset(keep)
        return self._cache["judged_only"]

    def _subset(self, keep: np.ndarray) -> Aligned:
        qidx = self.qidx[keep]
        counts = np.bincount(qidx, minlength=self.nq)
        offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        rank = np.arange(qidx.size, dtype=np.int64) - offsets[:-1][qidx] + 1
        return replace(
            self,
            offsets=offsets,
            qidx=qidx,
            rank=rank,
            grade=self.grade[keep],
            judged=self.judged[keep],
            score=self.score[keep],
            _cache={},
        )

    def for_measure(self, judged_only: bool | None) -> Aligned:
        if judged_only and not self.policies.judged_only:
            return self.judged_only()
        return self


def _sorted_unique(series: pl.Series) -> list[str]:
    return series.unique().sort().to_list()


def _duplicates(frame: pl.DataFrame, what: str, source: str, policy: str) -> pl.DataFrame:
    dup = frame.select(pl.struct("query_id", "doc_id").is_duplicated()).to_series()
    if not dup.any():
        return frame
    if policy == "error":
        row = frame.filter(dup).row(0, named=True)
        n = int(dup.sum())
        raise InputError(
            f"document {row['doc_id']!r} appears more than once for query "
            f"{row['query_id']!r} in the {what} ({n} rows are involved); pass "
            "duplicates='first' to keep only the first (highest-ranked) occurrence",
            source=source,
        )
    return frame


def align(qrels: Qrels, run: Run, policies: Policies | None = None) -> tuple[Aligned, dict]:
    """Align ``run`` to ``qrels`` under ``policies``.

    Returns the aligned arrays and a diagnostics dict (``missing_queries``: judged queries
    absent from the run, ``ignored_queries``: run queries without judgments).
    """
    pol = policies or Policies()
    qf = qrels.frame
    rf = run.frame
    qf = _duplicates(qf, "qrels", qrels.source, pol.duplicates)
    if pol.duplicates == "first":
        qf = qf.unique(subset=["query_id", "doc_id"], keep="first", maintain_order=True)

    if qf.height == 0:
        raise InputError("the qrels hold no judgments; nothing to evaluate", source=qrels.source)
    judged_queries = _sorted_unique(qf["query_id"])
    run_queries = set(rf["query_id"].unique().to_list())
    missing = [q for q in judged_queries if q not in run_queries]
    ignored = sorted(run_queries.difference(judged_queries))
    if len(missing) == len(judged_queries):
        raise InputError(
            f"the run ({run.source}) and the qrels ({qrels.source}) share no query "
            f"(run has e.g. {sorted(run_queries)[:3]}, qrels {judged_queries[:3]})"
        )
    if missing:
        if pol.missing == "error":
            raise InputError(
                f"{len(missing)} judged queries are absent from the run ({run.source}), e.g. "
                f"{missing[:5]}; pass missing='zero' to score them 0 or 'skip' to leave "
                "them out",
            )
        if pol.warn_missing:
            verb = "scored 0" if pol.missing == "zero" else "left out of the averages"
            warnings.warn(
                f"{len(missing)} judged queries are absent from the run ({run.source}) and "
                f"were {verb} (missing={pol.missing!r}): {missing[:5]}"
                + (" ..." if len(missing) > 5 else ""),
                RanklensWarning,
                stacklevel=3,
            )
    evaluated = judged_queries
    if missing and pol.missing == "skip":
        gone = set(missing)
        evaluated = [q for q in judged_queries if q not in gone]

    queries = pl.DataFrame(
        {"query_id": evaluated, "qidx": np.arange(len(evaluated), dtype=np.int64)},
        schema={"query_id": pl.String, "qidx": pl.Int64},
    )
    r = rf.join(queries, on="query_id", how="inner")
    r = _duplicates(r, "run", run.source, pol.duplicates)
    if pol.ties == "input":
        r = r.sort(["qidx", "score", "order"], descending=[False, True, False])
    else:
        r = r.sort(["qidx", "score", "doc_id"], descending=[False, True, True])
    if pol.duplicates == "first":
        r = r.unique(subset=["qidx", "doc_id"], keep="first", maintain_order=True)
    r = r.join(qf.select("query_id", "doc_id", "relevance"), on=["query_id", "doc_id"],
               how="left", maintain_order="left")
    # a query is missing when absent from the run, not when -M0 empties its ranking
    in_run = np.zeros(len(evaluated), dtype=bool)
    in_run[r["qidx"].unique().to_numpy()] = True
    if pol.depth is not None:
        rank_col = pl.int_range(pl.len(), dtype=pl.Int64).over("qidx")
        r = r.filter(rank_col < pol.depth)

    j = qf.join(queries, on="query_id", how="inner").sort(
        ["qidx", "relevance"], descending=[False, True]
    )
    qidx = r["qidx"].to_numpy().astype(np.int64, copy=False)
    nq = len(evaluated)
    counts = np.bincount(qidx, minlength=nq)
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rank = np.arange(qidx.size, dtype=np.int64) - offsets[:-1][qidx] + 1
    rel = r["relevance"]
    judged = rel.is_not_null().to_numpy()
    grade = rel.fill_null(0.0).to_numpy().astype(np.float64, copy=False)
    j_qidx = j["qidx"].to_numpy().astype(np.int64, copy=False)
    j_counts = np.bincount(j_qidx, minlength=nq)
    aligned = Aligned(
        query_ids=np.array(evaluated, dtype=object),
        offsets=offsets,
        qidx=qidx,
        rank=rank,
        grade=grade,
        judged=judged,
        score=r["score"].to_numpy().astype(np.float64, copy=False),
        j_offsets=np.concatenate(([0], np.cumsum(j_counts))).astype(np.int64),
        j_qidx=j_qidx,
        j_grade=j["relevance"].to_numpy().astype(np.float64, copy=False),
        missing=~in_run,
        policies=pol,
    )
    if pol.judged_only:
        aligned = aligned.judged_only()
    return aligned, {"missing_queries": missing, "ignored_queries": ignored}
