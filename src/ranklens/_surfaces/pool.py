"""Depth-k pools: the (query, document) pairs to judge, and merging the judgments back.

``pool`` takes the union of every run's top k of each query, ranked as ``evaluate`` ranks
(score descending, ties by doc id descending as trec_eval, or input order), and leaves out
the pairs the judgments already hold. ``merge_judgments`` adds new judgments to old ones:
a pair judged in both with the same grade is kept once (so merging again changes
nothing), with different grades is an error unless a policy is chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .._base.errors import InputError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Choice, Integer, check
from .._ingest.io._load import load_qrels, load_run
from .._ingest.io.given_columns import Columns, with_columns
from .._ingest.tables import Qrels, Run
from .._results.per_query import Shown
from .agreement.rankings import MAX_DEPTH, query_set, ranks, top_rows

__all__ = ["PLACEHOLDER", "POOL_FORMATS", "Pool", "merge_judgments", "pool"]

#: how a pool is written: TREC qrels lines with the placeholder grade, or CSV with an empty
#: relevance field
POOL_FORMATS = ("trec", "csv")
#: the grade a pool's TREC lines carry until an assessor replaces it: not a number, so a
#: pool file nobody has judged cannot be read as judgments by mistake
PLACEHOLDER = "?"


@dataclass(frozen=True, eq=False)
class Pool(Shown):
    """The (query, document) pairs to judge.

    Attributes
    ----------
    frame : polars DataFrame with ``query_id``, ``doc_id`` and ``runs`` (how many runs
        put the document in their top ``depth``) and ``best_rank`` (its best 1-based rank
        among them); queries in the order the runs first give them, documents by best
        rank, then doc id.
    depth : the pool depth.
    judged : pairs of the runs' top ``depth`` left out because the judgments hold them.
    """

    frame: pl.DataFrame
    depth: int
    judged: int = 0

    def __len__(self) -> int:
        return self.frame.height

    def __repr__(self) -> str:
        return f"Pool({self.summary()})"

    def summary(self) -> str:
        """How many pairs, documents and queries the pool holds, in one line."""
        docs, nq = (self.frame[c].n_unique() if len(self) else 0 for c in ("doc_id", "query_id"))
        return (f"{len(self)} pairs to judge ({docs} documents) over {nq} queries, depth "
                f"{self.depth}, {self.judged} already judged")

    def pairs(self) -> set[tuple[str, str]]:
        """The pairs as a set of (query id, doc id)."""
        return set(zip(self.frame["query_id"].to_list(), self.frame["doc_id"].to_list(),
                       strict=True))

    def render(self, format: Literal["trec", "csv"] = "trec") -> str:
        """The pool as TREC qrels lines ``query 0 doc ?`` (replace ``?`` with the grade)
        or as CSV ``query_id,doc_id,relevance`` with the relevance left empty."""
        check("format", format, Choice(POOL_FORMATS))
        q, d = self.frame["query_id"].to_list(), self.frame["doc_id"].to_list()
        if format == "trec":
            return "".join(f"{a} 0 {b} {PLACEHOLDER}\n" for a, b in zip(q, d, strict=True))
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["query_id", "doc_id", "relevance"])
        writer.writerows((a, b, "") for a, b in zip(q, d, strict=True))
        return out.getvalue()


def _runs(runs: Any) -> list[Run]:
    if isinstance(runs, Mapping):
        return [load_run(r, name=str(n)) for n, r in runs.items()]
    if isinstance(runs, Sequence) and not isinstance(runs, (str, bytes)):
        return [load_run(r) for r in runs]
    return [load_run(runs)]


def pool(runs: Any, depth: int = 10, qrels: Any = None, *,
         ties: Literal["docid", "input"] = "docid", columns: Columns = None) -> Pool:
    """The (query, document) pairs a depth-``depth`` pool of ``runs`` asks to judge.

    Parameters
    ----------
    runs : run, list of runs or mapping {name: run}
        Any form :func:`ranklens.load_run` reads.
    depth : int, default 10
        Each run's top ``depth`` of each query enters the pool.
    qrels : judgments, optional
        Pairs these already judge (at any grade) are left out.
    ties : {"docid", "input"}, default "docid"
        The order of equally scored documents, as ``evaluate`` orders them: a tied group
        straddling the depth enters as far as that order reaches.
    columns : str or sequence of str, optional
        The run files are headerless, with these columns, as in :func:`ranklens.evaluate`.

    Returns
    -------
    Pool

    Examples
    --------
    >>> import ranklens
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d4": 3.0, "d1": 2.0}}
    >>> p = ranklens.pool([a, b], depth=2, qrels={"q1": {"d4": 1}})
    >>> sorted(p.pairs())
    [('q1', 'd1'), ('q1', 'd2')]
    >>> print(p.render(), end="")
    q1 0 d1 ?
    q1 0 d2 ?
    """
    check("depth", depth, Integer(1))
    if depth > MAX_DEPTH:
        raise ParameterError(f"the 'depth' option must be at most {MAX_DEPTH} (2**31 - 1); "
                             f"got {depth}")
    check("ties", ties, Choice(("docid", "input")))
    loaded = _runs(with_columns(runs, columns))
    if not loaded:
        raise ParameterError("give at least one run to pool")
    frames = []
    for run in loaded:
        queries = query_set(run, ties)
        qidx, rows, _ = top_rows(run, queries, ties, depth)
        frames.append(pl.DataFrame({
            "query_id": pl.Series(queries, dtype=pl.String).gather(qidx),
            "doc_id": run.doc_ids_at(rows), "rank": ranks(qidx, len(queries))[1]}))
    pooled = (pl.concat(frames).with_row_index("order")
              .group_by(["query_id", "doc_id"], maintain_order=True)
              .agg(pl.len().cast(pl.Int64).alias("runs"), pl.col("rank").min().alias("best_rank"),
                   pl.col("order").min().alias("order")))
    # queries in first-seen order, then best rank, then doc id
    query_order = pooled.group_by("query_id").agg(pl.col("order").min().alias("qorder"))
    pooled = (pooled.join(query_order, on="query_id")
              .sort(["qorder", "best_rank", "doc_id"]).drop(["order", "qorder"]))
    judged = 0
    if qrels is not None:
        known = load_qrels(qrels).frame.select("query_id", "doc_id").unique()
        before = pooled.height
        pooled = pooled.join(known, on=["query_id", "doc_id"], how="anti", maintain_order="left")
        judged = before - pooled.height
    return Pool(pooled, depth, judged)


def merge_judgments(qrels: Any, new: Any, *,
                    conflicts: Literal["error", "keep", "replace"] = "error") -> Qrels:
    """``qrels`` with the judgments of ``new`` added.

    A pair judged in both with the same grade is kept once, so merging the same judgments
    again gives the same judgments (the merge is idempotent).

    Parameters
    ----------
    qrels, new : judgments
        Any form :func:`ranklens.load_qrels` reads (a file, ``{query: {doc: grade}}``, a
        frame).
    conflicts : {"error", "keep", "replace"}, default "error"
        A pair both judge with different grades: an error naming it (and how many there
        are), keep the grade of ``qrels``, or take the grade of ``new``.

    Returns
    -------
    Qrels
        The old judgments in their order, then the new pairs in theirs.

    Examples
    --------
    >>> import ranklens
    >>> old = {"q1": {"d1": 1}}
    >>> merged = ranklens.merge_judgments(old, {"q1": {"d1": 1, "d2": 0}})
    >>> merged.frame.rows()
    [('q1', 'd1', 1.0), ('q1', 'd2', 0.0)]
    >>> ranklens.merge_judgments(merged, {"q1": {"d2": 0}}).frame.rows() == merged.frame.rows()
    True
    """
    check("conflicts", conflicts, Choice(("error", "keep", "replace")))
    old_f = load_qrels(qrels).frame.select("query_id", "doc_id", "relevance")
    new_f = load_qrels(new).frame.select("query_id", "doc_id", "relevance")
    both = old_f.join(new_f, on=["query_id", "doc_id"], how="inner", suffix="_new")
    clash = both.filter(pl.col("relevance") != pl.col("relevance_new"))
    if clash.height and conflicts == "error":
        q, d, a, b = clash.row(0)
        raise InputError(
            f"{clash.height} pairs are judged with different grades in the two judgments, "
            f"e.g. query {q!r} doc {d!r}: {a:g} before, {b:g} in the new ones; pass "
            "conflicts='keep' (keep the old grade) or conflicts='replace' (take the new)")
    if conflicts == "replace" and clash.height:
        old_f = (old_f.join(new_f, on=["query_id", "doc_id"], how="left", suffix="_new",
                            maintain_order="left")
                 .with_columns(pl.coalesce("relevance_new", "relevance").alias("relevance"))
                 .drop("relevance_new"))
    added = new_f.join(old_f, on=["query_id", "doc_id"], how="anti", maintain_order="left")
    return Qrels(pl.concat([old_f, added]))
