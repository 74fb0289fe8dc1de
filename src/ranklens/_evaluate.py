"""``evaluate``: load -> align -> compute each requested measure -> Result."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, cast

import numpy as np

from ._conventions import Convention, get_convention
from ._engine.align import align
from ._engine.aligned import Aligned
from ._engine.policies import EMPTY, Duplicates, Empty, Missing, Policies, Ties
from ._errors import InputError, ParameterError, RanklensWarning
from ._io._load import load_qrels, load_run
from ._measures import Measure, _ties
from ._names import parse_measures
from ._result import Result, aggregate

__all__ = ["evaluate"]

_MISSING_UNSET = object()


def evaluate(
    qrels: Any,
    run: Any,
    measures: str | Measure | Iterable[str | Measure],
    *,
    rel: int = 1,
    missing: Missing | None = None,
    duplicates: Duplicates = "error",
    depth: int | None = None,
    judged_only: bool = False,
    ties: Ties | None = None,
    empty: Empty | None = None,
    collection_size: int = 0,
    run_name: str | None = None,
    convention: str | Convention = "trec",
) -> Result:
    """Evaluate a run against relevance judgments.

    Defaults are trec_eval 10.0's semantics: scores sorted descending, ties broken by doc
    id descending (byte-wise), documents without a judgment count as non-relevant, R and
    the ideal DCG come from every judgment, and queries present only in the run are ignored.

    Parameters
    ----------
    qrels : path, mapping, DataFrame or Qrels
        Judgments: a TREC qrels file, ``{query_id: {doc_id: relevance}}``, or a frame with
        ``query_id, doc_id, relevance`` columns. See :func:`load_qrels`.
    run : path, mapping, DataFrame or Run
        Results: a TREC run file, ``{query_id: {doc_id: score}}``, or a frame with
        ``query_id, doc_id, score`` columns. See :func:`load_run`.
    measures : str, Measure or list of them
        Names such as ``"nDCG@10"``, ``"AP(denom=min)@3"``, ``"map_cut_10"``,
        ``"ndcg_burges@10"``. Every unknown name is reported at once.
    rel : int, default 1
        Minimum judged level counted as relevant (trec_eval ``-l``); a measure's own
        ``rel=`` parameter overrides it. Graded measures use the grades themselves.
    missing : {"zero", "skip", "error"}, optional
        Judged queries absent from the run: scored 0 on an empty ranking (trec_eval
        ``-c``), left out of the averages, or an error. Default ``"zero"``, with a
        :class:`RanklensWarning` naming them; pass it explicitly to silence the warning.
    duplicates : {"error", "first"}, default "error"
        A document twice in one query's ranking (or judgments): an error naming both, or
        keep the first (highest-ranked) occurrence.
    depth : int, optional
        Keep only the top ``depth`` documents of each query after sorting (trec_eval ``-M``).
    judged_only : bool, default False
        Drop documents without a judgment >= 0 before evaluating (trec_eval ``-J``).
    ties : {"docid", "input", "average"}, default "docid"
        Order of documents with equal scores: doc id descending (trec_eval), the order
        they were given in (or a run file's rank column), or the expected value over every
        order of each tied group (McSherry and Najork 2008; sklearn's nDCG). A measure's own
        ``ties=`` parameter (``nDCG(ties=average)``) overrides it.
    empty : {"zero", "skip", "one", "nan", "error"}, default "zero"
        Queries without any relevant judgment (at the measure's ``rel`` level): their value
        as computed (0 for nearly all measures; trec_eval), left out of the averages, 1, NaN
        (and left out), or an error (torchmetrics' ``empty_target_action`` neg / skip / pos /
        error). Count measures (NumQ, NumRel, ...) are never changed.
    collection_size : int, default 0
        Number of documents in the collection (trec_eval ``-N``; used by Utility only).
    run_name : str, optional
        Name reported for the run (default: the TREC tag or "run").
    convention : {"trec", "sklearn", "torchmetrics", "kaggle", "ranx"} or Convention
        A named bundle of defaults for ``ties``, ``empty``, ``missing`` and the measures'
        ``denom``, ``gain`` and ``ideal`` parameters (see :data:`ranklens.CONVENTIONS` and
        docs/conventions.md). Options passed explicitly and parameters written in a measure
        name win over the preset. ``result.conventions`` records what was in force.

    Returns
    -------
    Result
        ``result["nDCG@10"]`` is the aggregate; ``result.per_query("nDCG@10")`` and
        ``result.to_polars()`` give per-query values.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}}
    >>> r = evaluate(qrels, run, ["AP", "P@2", "nDCG@3"])
    >>> round(r["AP"], 4), r["P@2"]
    (0.8333, 0.5)
    """
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    try:
        measures = list(measures)  # a generator would be exhausted by the first pass
    except TypeError:
        raise ParameterError(
            "the 'measures' argument must be a name, a Measure or a list of them, "
            f"got {type(measures).__name__}"
        ) from None
    # one entry per written name: Result is a Mapping, its keys must be unique
    by_name: dict[str, Any] = {}
    for m in measures:
        by_name.setdefault(m if isinstance(m, str) else str(m), m)
    measures = list(by_name.values())
    names = [m if isinstance(m, str) else str(m) for m in measures]
    if not names:
        raise ParameterError("the 'measures' argument is empty; name at least one measure")
    conv = get_convention(convention)
    parsed = [conv.apply(m, w) for m, w in zip(parse_measures(measures), measures, strict=True)]
    ties = cast(Ties, conv.ties) if ties is None else ties
    empty = cast(Empty, conv.empty) if empty is None else empty
    missing = cast(Missing, conv.missing) if missing is None else missing
    if empty not in EMPTY:
        raise ParameterError(f"the 'empty' option must be one of {', '.join(EMPTY)}; "
                             f"got {empty!r}")
    if run_name is not None and not isinstance(run_name, str):
        raise ParameterError(f"the 'run_name' option must be a string or None, got {run_name!r}")
    policies = Policies(
        rel=rel,
        missing=missing if missing is not None else "zero",
        duplicates=duplicates,
        depth=depth,
        judged_only=judged_only,
        ties=ties,
        collection_size=collection_size,
        warn_missing=missing is None,
    )
    q = load_qrels(qrels)
    r = load_run(run, name=run_name)
    aligned, diagnostics = align(q, r, policies)
    if diagnostics["ignored_queries"]:
        ignored = diagnostics["ignored_queries"]
        warnings.warn(
            f"{len(ignored)} run queries have no judgments and were ignored: {ignored[:5]}"
            + (" ..." if len(ignored) > 5 else ""),
            RanklensWarning,
            stacklevel=2,
        )

    realigned: dict[str, Aligned] = {}
    query_ids = aligned.in_trec_order(aligned.query_ids)

    def compute(measure: Measure) -> np.ndarray:
        """Per-query values of ``measure``, in trec_eval order."""
        order = _ties.effective_ties(measure, policies.ties)
        if order == "average":
            return aligned.in_trec_order(_ties.compute(aligned, measure))
        if order == policies.ties or (order == "docid" and policies.ties == "average"):
            return aligned.in_trec_order(measure.definition.kernel(aligned, measure))
        if order not in realigned:  # a measure asks for another tie-break than the option
            realigned[order] = align(q, r, replace(policies, ties=cast(Ties, order),
                                                     warn_missing=False))[0]
        other = realigned[order]
        return other.in_trec_order(measure.definition.kernel(other, measure))

    def empty_mask(measure: Measure) -> np.ndarray:
        level = rel
        if any(p.name == "rel" for p in measure.definition.params):
            level = int(measure.get("rel", rel))
        mask = aligned.in_trec_order(aligned.num_rel(level)) == 0
        if empty == "error" and mask.any() and measure.definition.aggregate in ("mean", "gmean"):
            bad = query_ids[mask][:5].tolist()
            raise InputError(
                f"{int(mask.sum())} queries have no relevant judgment (rel >= {level}) for "
                f"{measure}, e.g. {bad}; pass empty='zero', 'skip', 'one' or 'nan' to handle "
                "them"
            )
        return mask

    values: dict[str, np.ndarray] = {}
    aggregates: dict[str, float] = {}
    text_values: dict[str, list[str]] = {}
    by_canonical: dict[Measure, np.ndarray] = {}
    for name, measure in zip(names, parsed, strict=True):
        defn = measure.definition
        if measure not in by_canonical:
            by_canonical[measure] = compute(measure)
        v = by_canonical[measure]
        mask = empty_mask(measure)
        keep = None
        if defn.text:
            text_values[name] = list(v)
            v = np.full(aligned.nq, np.nan)
        elif defn.aggregate in ("mean", "gmean") and empty != "zero" and mask.any():
            v = v.copy()
            v[mask] = {"skip": np.nan, "nan": np.nan, "one": 1.0}[empty]
            if empty in ("skip", "nan"):
                keep = ~mask
        values[name] = v
        aggregates[name] = aggregate(v, "none" if defn.text else defn.aggregate, keep)

    conventions = {
        "ties": ties, "rel": rel, "missing": policies.missing, "duplicates": duplicates,
        "depth": depth, "judged_only": judged_only, "empty": empty,
        **conv.describe(),
    }
    return Result(
        names=tuple(names),
        measures=dict(zip(names, parsed, strict=True)),
        query_ids=query_ids,
        query_values=values,
        aggregates=aggregates,
        conventions=conventions,
        run_name=r.name,
        diagnostics=diagnostics,
        text_values=text_values,
    )
