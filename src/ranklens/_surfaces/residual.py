"""Residuals: how far a score could move if the unjudged documents were judged.

A measure that treats an unjudged document as non-relevant (trec_eval's rule, and
ranklens's) gives the *low* end of a range; the same measure with every unjudged retrieved
document judged relevant, at ``grade``, gives the other end. Both are computed by the one
engine: the unjudged documents are added to the judgments (at grade 0, which changes
nothing for these measures, and at ``grade``) and the run is evaluated again, so a residual
is exactly "evaluate with these judgments added".

Which documents: those of a query the judgments cover, not listed in its judgments, that
the measure looks at: for a measure with a cutoff ``k`` the unjudged documents ranked in the
top ``k`` (under the evaluation's tie order), otherwise every unjudged retrieved one (after
``depth``). So a recall or AP at ``k`` counts the assumed-relevant documents of the top
``k`` in its denominator R as well, and none from below ``k``: the completed judgments are
the top ``k`` judged, which is what a depth-``k`` pool would have given.

The value "if relevant" is not always the larger: adding relevant documents raises R and
the ideal DCG too, so R@k, AP and nDCG may fall where a relevant document is added low in
the ranking. Both ends are reported as computed, named for what they assume.

RBP's residual of Moffat & Zobel (2008; trec_eval's ``rbp_resid``, ranklens's RBPResid) also
counts the documents beyond the ranking (``p^n``): here only retrieved documents are judged,
so RBP's range is ``[RBP, RBP + (1 - p) * sum over unjudged ranks i of p^(i-1)]`` (with a
gain of 1 at ``grade``), RBPResid minus its ``p^n`` tail.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._base.errors import MeasureError, ParameterError
from .._base.lazy import polars as pl
from .._base.validate import Number, check
from .._ingest.columns import MAX_GRADE
from .._ingest.tables import Qrels, Run
from .._measures import Measure
from .._measures._registry import REGISTRY
from .._names import parse_measure
from .._results.per_query import Frames, listed
from .._results.result import Result

if TYPE_CHECKING:
    from .._pipeline.options import EvaluateOptions

__all__ = ["RESIDUAL_MEASURES", "Residual", "residual"]

#: the measures whose registration declares ``residual=True``, by name
RESIDUAL_MEASURES: tuple[str, ...] = tuple(sorted(
    (n for n, d in REGISTRY.items() if d.facts.residual), key=str.lower))

#: the tie orders that rank every document at one position
_STRICT_TIES = ("docid", "input")


@dataclass(frozen=True, eq=False)
class Residual(Frames):
    """Each measure's value with the unjudged retrieved documents non-relevant / relevant.

    :meth:`per_query` and :meth:`to_polars` give both values of each query, as every result
    type gives its per-query values.

    Attributes
    ----------
    if_nonrelevant : the evaluation as given (unjudged documents count as non-relevant).
    if_relevant : the evaluation with every unjudged document the measure looks at judged
        relevant at ``grade``.
    grade : the grade given to the unjudged documents.
    unjudged : the number of unjudged retrieved documents added per query (trec_eval
        order), over the whole ranking (after ``depth``).
    """

    if_nonrelevant: Result
    if_relevant: Result
    grade: float
    unjudged: dict[str, int]

    def range(self, measure: object) -> tuple[float, float]:
        """``(aggregate if non-relevant, aggregate if relevant)`` of one measure."""
        return (self.if_nonrelevant[measure], self.if_relevant[measure])

    def per_query(self, measure: object) -> dict[str, tuple[float, float]]:
        """``{query_id: (value if non-relevant, value if relevant)}`` of one measure, every
        query of the evaluation in trec_eval order (NaN where a policy left one out)."""
        low, high = (self.if_nonrelevant.per_query(measure),
                     self.if_relevant.per_query(measure))
        return {q: (v, high[q]) for q, v in low.items()}

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """One row per query: ``query_id``, then ``<measure> if_nonrelevant`` and
        ``<measure> if_relevant`` for each measure (or long form: ``query_id, measure,
        if_nonrelevant, if_relevant``); query ids as :meth:`Result.to_polars` gives them.

        Examples
        --------
        >>> import ranklens
        >>> res = ranklens.residual({"q": {"a": 1}}, {"q": {"x": 2.0, "a": 1.0}}, ["P@1"])
        >>> res.to_polars(wide=False).rows()
        [('q', 'P@1', 0.0, 1.0)]
        """
        if not wide:
            low = self.if_nonrelevant.to_polars(wide=False)
            high = self.if_relevant.to_polars(wide=False)
            return low.rename({"value": "if_nonrelevant"}).with_columns(
                high["value"].alias("if_relevant"))
        low, high = self.if_nonrelevant.to_polars(), self.if_relevant.to_polars()
        return low.select("query_id", *(column for n in self.if_nonrelevant.names for column in
                                        (pl.col(n).alias(f"{n} if_nonrelevant"),
                                         high[n].alias(f"{n} if_relevant"))))

    def __repr__(self) -> str:
        body = listed([f"{n}=[{self.if_nonrelevant.aggregates[n]:.4f}, "
                       f"{self.if_relevant.aggregates[n]:.4f}]" for n in self.if_nonrelevant.names])
        return (f"<Residual {self.if_nonrelevant.run_name}: {body} over "
                f"{len(self.if_nonrelevant.query_ids)} queries; unjudged at grade "
                f"{self.grade:g}>")


def residual(qrels: Any, run: Any, measures: str | Measure | Iterable[str | Measure], *,
             grade: float | None = None, run_name: str | None = None,
             **options: Any) -> Residual:
    """The range of each measure if the unjudged retrieved documents were judged.

    Parameters
    ----------
    qrels, run : as :func:`ranklens.evaluate` (one run).
    measures : str, Measure or list of them
        Measures of :data:`RESIDUAL_MEASURES` (P, R, F, Success, Hits, AP, RR, Rprec, nDCG,
        DCG, CG, RBP, ERR), with any cutoff and parameters.
    grade : float, optional
        The grade of an unjudged document assumed relevant (default: the largest grade in
        the judgments). It must reach every measure's relevance level.
    run_name : str, optional
        As :func:`ranklens.evaluate`.
    **options
        The evaluation options of :func:`ranklens.evaluate` (a strict tie order:
        ``ties="docid"`` or ``"input"``; not ``judged_only``).

    Returns
    -------
    Residual
        ``if_nonrelevant`` and ``if_relevant`` (two :class:`Result`), ``range(measure)``
        and ``per_query(measure)``.

    Raises
    ------
    MeasureError
        A measure without a residual (the message lists those that have one).
    ParameterError
        A tie order that does not rank each document at one place, ``judged_only``, or a
        ``grade`` below a measure's relevance level (or no positive grade to default to).

    Examples
    --------
    >>> import ranklens
    >>> qrels = {"q": {"a": 1, "b": 0}}
    >>> run = {"q": {"a": 4.0, "x": 3.0, "b": 2.0, "y": 1.0}}
    >>> res = ranklens.residual(qrels, run, ["P@2", "RR"])
    >>> res.range("P@2"), res.range("RR")
    ((0.5, 1.0), (1.0, 1.0))
    >>> res.unjudged
    {'q': 2}
    """
    from .._ingest.io._load import load_qrels, load_run
    from .._pipeline.options import options_of
    from .evaluate import evaluate

    opts = options_of(**options)
    parsed = _measures(measures)
    for name, m in parsed.items():
        _check_measure(name, m, opts)
    q = load_qrels(qrels)
    r = load_run(run, name=run_name)
    level = _grade(q, grade, parsed, opts)
    ranked = _unjudged(q, r, opts)
    low = evaluate(q, r, list(parsed), options=opts, run_name=run_name)
    values: dict[str, np.ndarray] = {}
    aggregates: dict[str, float] = {}
    depths: dict[float, list[str]] = {}
    for name, m in parsed.items():
        depths.setdefault(float("inf" if m.cutoff is None else m.cutoff), []).append(name)
    for depth, names in depths.items():
        added = ranked.filter(pl.col("rank") <= depth).select(
            "query_id", "doc_id", pl.lit(level, dtype=pl.Float64).alias("relevance"))
        completed = _with_judgments(q, added)
        with warnings.catch_warnings():  # the evaluation as given has warned already
            warnings.simplefilter("ignore")
            high = evaluate(completed, r, names, options=opts, run_name=run_name)
        for name in names:
            values[name] = high.query_values[name]
            aggregates[name] = high.aggregates[name]
    if_relevant = replace(low, query_values={n: values[n] for n in low.names},
                          aggregates={n: aggregates[n] for n in low.names})
    per_query = dict(ranked.group_by("query_id").len().iter_rows())
    unjudged = {qid: int(per_query.get(qid, 0)) for qid in low.query_ids.tolist()}
    return Residual(low, if_relevant, float(level), unjudged)


def _measures(measures: str | Measure | Iterable[str | Measure]) -> dict[str, Measure]:
    """``{name as written: Measure}``."""
    if not isinstance(measures, (str, Measure, Iterable)):
        raise ParameterError("the 'measures' argument must be a measure name, a Measure or a "
                             f"list of them, e.g. ['P@10', 'AP']; got {measures!r}")
    chosen = [measures] if isinstance(measures, (str, Measure)) else list(measures)
    if not chosen:
        raise ParameterError("the 'measures' argument is empty; give at least one measure")
    return {str(m): parse_measure(m) if isinstance(m, str) else m for m in chosen}


def _check_measure(name: str, m: Measure, opts: EvaluateOptions) -> None:
    if not m.definition.facts.residual:
        raise MeasureError(f"{name} has no residual here; the measures that have one are "
                           f"{', '.join(RESIDUAL_MEASURES)} (with any cutoff)")
    conv = opts.resolved
    # the measure's own ties= first, then the option, then the convention's
    ties = (dict(m.params).get("ties") or opts.ties
            or dict(conv.measure_ties).get(m.name) or conv.ties)
    if ties not in _STRICT_TIES:
        raise ParameterError(f"a residual needs each document at one rank: ties='docid' or "
                             f"'input'; {name} is evaluated with ties={ties!r}")
    if opts.judged_only:
        raise ParameterError("a residual judges the unjudged documents; judged_only=True "
                             "drops them")


def _grade(q: Qrels, grade: float | None, parsed: dict[str, Measure],
           opts: EvaluateOptions) -> float:
    """The grade of an unjudged document assumed relevant, checked against every measure's
    relevance level."""

    if grade is None:
        top = q.frame["relevance"].max()
        if top is None or float(top) <= 0:  # type: ignore[arg-type]
            raise ParameterError("the judgments have no positive grade to give the unjudged "
                                 "documents; pass grade=")
        level = float(top)  # type: ignore[arg-type]
    else:
        check("grade", grade, Number(0, open_low=True))
        if grade > MAX_GRADE:  # the grade is written into the judgments, which hold no more
            raise ParameterError(f"the 'grade' option must be at most 2**53, the judgments' "
                                 f"bound; got {grade!r}")
        level = float(grade)
    for name, m in parsed.items():
        rel = dict(m.params).get("rel", opts.rel)
        if level < rel:
            raise ParameterError(f"the unjudged documents' grade {level:g} is below {name}'s "
                                 f"relevance level {rel}; pass grade={rel} or more")
    return level


def _unjudged(q: Qrels, r: Run, opts: EvaluateOptions) -> pl.DataFrame:
    """``query_id, doc_id, rank``: the run's retrieved documents (ranked under the
    evaluation's tie order, cut at ``depth``) of the judged queries that the judgments do
    not list."""
    from .._model.ranking import run_index

    conv = opts.resolved
    index = run_index(r, (opts.ties or conv.ties) or "docid")
    code = index.code
    rank = np.arange(code.size) - index.offsets[code] + 1
    ranked = pl.DataFrame({
        "query_id": index.query_ids.gather(code),
        "doc_id": r.doc_ids_at(index.src),
        "rank": rank.astype(np.int64),
    })
    if opts.depth is not None:
        ranked = ranked.filter(pl.col("rank") <= opts.depth)
    judged = q.frame.select("query_id", "doc_id")
    covered = judged.select("query_id").unique()
    return (ranked.join(covered, on="query_id", how="semi")
            .join(judged, on=["query_id", "doc_id"], how="anti"))


def _with_judgments(q: Qrels, added: pl.DataFrame) -> Qrels:
    """``q`` with the rows ``added`` (``query_id, doc_id, relevance``) appended."""
    frame = pl.concat([q.frame.select("query_id", "doc_id", "relevance"), added],
                      how="vertical")
    return Qrels(frame, source=q.source, integer_query_ids=q.integer_query_ids)
