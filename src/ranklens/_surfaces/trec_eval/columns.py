"""Printed columns of the registry measures: trec_eval's names, values and ``-c``.

A :class:`Column` is one printed measure (``P_10``): its per-query values, how its summary
is formed and how it is printed. The registry measures' columns are computed by
:func:`~ranklens.evaluate`; ``-c`` (judged topics absent from the run count, on an empty
ranking) is its ``missing="zero"`` policy.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..._base.errors import MeasureError, RanklensWarning
from ..._base.warn import warn_user
from ..._ingest.io._load import load_run
from ..._ingest.tables import Qrels, Run
from ..._measures import REGISTRY, Measure
from ..._measures._registry import Aggregate
from ..._measures.trec_params import command_line_cutoffs, command_line_measure
from ..._names.index import SPELLINGS
from ..._names.trec import cutoff_name
from ..._pipeline.assemble import GEO_FLOOR
from ..._results.result import Result
from ..evaluate import evaluate
from .options import TrecEvalError

__all__ = ["Column", "MeasureColumn", "left_out_warning", "measure_columns", "quiet_evaluate",
           "registry_columns"]


@dataclass(frozen=True)
class Column:
    """One printed measure: its trec_eval name, per-query values and how it is summarised.

    ``agg`` is ``mean``, ``sum``, ``gmean`` (values are stored as log(max(v, 1e-5)), as
    trec_eval stores them), ``count`` (num_q) or ``none`` (text: relstring; runid).
    ``integer``: printed with ``%ld``; ``per_query``: printed on ``-q`` lines.
    """

    name: str
    te: str
    values: tuple[Any, ...]
    agg: Aggregate | Literal["count"]
    integer: bool = False
    per_query: bool = True


@dataclass(frozen=True)
class MeasureColumn:
    """A requested registry measure: printed name, trec_eval name, the measure, and whether
    the name carries raw parameters (``utility_2,-1,0,0``, ``relstring_20``)."""

    name: str
    te: str
    measure: Measure
    raw: bool = False


def measure_columns(selected: Sequence[tuple[str, str | None]]) -> list[MeasureColumn]:
    """The registry measures behind the selected trec_eval names, one per printed column."""
    plain, cut = SPELLINGS.trec, SPELLINGS.trec_cut
    out: list[MeasureColumn] = []
    try:
        for te, raw in selected:
            if (te in cut and plain.get(te) == cut[te]
                    and len(REGISTRY[cut[te]].trec.cutoffs) == 1):
                # one-value measures whose parameter is a length (relstring.20): the name
                # gets the raw parameter only when one is given, as trec_eval prints it
                defn = REGISTRY[cut[te]]
                lengths = command_line_cutoffs(te, defn, raw)
                if len(lengths) != 1:
                    raise TrecEvalError(f"'{te}' takes one parameter, got '{raw}'", 2)
                out.append(MeasureColumn(te if raw is None else f"{te}_{raw}", te,
                                         Measure(defn.name, (), lengths[0]), raw is not None))
            elif te in cut:
                defn = REGISTRY[cut[te]]
                for c in command_line_cutoffs(te, defn, raw):
                    out.append(MeasureColumn(cutoff_name(te, defn.name, c), te,
                                             Measure(defn.name, (), c)))
            elif te in plain:
                defn = REGISTRY[plain[te]]
                if raw is None:
                    out.append(MeasureColumn(te, te, Measure(defn.name)))
                else:
                    out.append(MeasureColumn(f"{te}_{raw}", te,
                                             command_line_measure(te, defn, raw), True))
    except MeasureError as exc:
        raise TrecEvalError(str(exc), getattr(exc, "status", 2)) from None
    return out


def left_out_warning(missing: Sequence[str], source: str) -> None:
    """Without -c, judged topics absent from the run are left out (trec_eval 9's rule; 10.0
    exits with status 4 instead): say so as a warning, keep the output trec_eval's."""
    if missing:
        warn_user(
            f"{len(missing)} judged topics are absent from the run ({source}) and were left "
            f"out of the averages; pass -c to score them 0: {sorted(missing)[:5]}"
            + (" ..." if len(missing) > 5 else ""))


def registry_columns(qrels: Qrels, run: Run, specs: Sequence[MeasureColumn], *,
                     complete: bool, rel: int, depth: int | None, judged_only: bool,
                     collection_size: int) -> tuple[list[str], list[Column]]:
    """Topic ids (trec_eval's order) and per-topic values of the registry measures.

    With ``complete`` (``-c``) a judged topic absent from the run is scored on an empty
    ranking; trec_eval scores it on a one-document ranking of an unjudged document and
    then resets the measures that document would change (``TrecSpelling.reset``:
    num_ret, utility, relstring, rbp_resid, unj), which gives the same values. Like
    trec_eval, which compares printed names there, a measure printed with raw parameters
    is not reset: those few are scored on trec_eval's one-document ranking.
    """
    # each measure once, in the order asked (num_q alone still needs a query count)
    measures = list({str(s.measure): s.measure for s in specs}.values()) or [Measure("NumQ")]
    result = quiet_evaluate(qrels, run, measures, rel=rel, missing="zero" if complete else "skip",
                    depth=depth, judged_only=judged_only, collection_size=collection_size)
    qids = [str(q) for q in result.query_ids.tolist()]
    missing = [str(q) for q in result.diagnostics.get("missing_queries", [])]
    if not complete:
        left_out_warning(missing, run.source)
    absent = set(missing) if complete else set()
    is_absent = [q in absent for q in qids]
    unreset = [s.measure for s in specs
               if absent and s.raw and s.measure.definition.trec.reset]
    placeholder = _placeholder_values(qrels, sorted(absent), unreset, rel=rel, depth=depth,
                                      judged_only=judged_only,
                                      collection_size=collection_size)
    columns: list[Column] = []
    for spec in specs:
        key = str(spec.measure)
        defn = spec.measure.definition
        agg: Aggregate | Literal["count"]
        vals = _values(result, key)
        agg = "none" if key in result.text_values else defn.aggregate
        if agg == "gmean":
            # trec_eval stores the floored logarithm per topic (what -Z standardises)
            vals = [math.log(max(v, GEO_FLOOR)) for v in vals]
        if absent and defn.trec.reset:
            if spec.raw:
                got = placeholder[key]
                vals = [got[q] if a else v for q, v, a in zip(qids, vals, is_absent, strict=True)]
            else:
                blank = "" if agg == "none" else 0.0
                vals = [blank if a else v for v, a in zip(vals, is_absent, strict=True)]
        if spec.te == "num_q":
            agg = "count"
        columns.append(Column(spec.name, spec.te, tuple(vals), agg, defn.trec.integer,
                              defn.trec.per_query))
    return qids, columns


PLACEHOLDER_DOC = "ceci_nest_pas_un_docno"  # trec_eval's ranking of a topic absent from the run


def _placeholder_values(qrels: Qrels, topics: list[str], measures: list[Measure], *,
                        rel: int, depth: int | None, judged_only: bool,
                        collection_size: int) -> dict[str, dict[str, Any]]:
    """``{measure: {topic: value}}`` on trec_eval's one-unjudged-document ranking."""
    if not topics or not measures:
        return {}
    run = load_run({q: {PLACEHOLDER_DOC: 0.0} for q in topics})
    result = quiet_evaluate(qrels, run, measures, rel=rel, missing="skip", depth=depth,
                    judged_only=judged_only, collection_size=collection_size)
    qids = [str(q) for q in result.query_ids.tolist()]
    return {str(m): dict(zip(qids, _values(result, str(m)), strict=True)) for m in measures}


def quiet_evaluate(qrels: Any, run: Run, measures: list[Measure], **options: Any) -> Result:
    """:func:`evaluate` without its warnings (trec_eval prints none)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        return evaluate(qrels, run, measures, **options)


def _values(result: Result, key: str) -> list[Any]:
    """Each query's value of ``key``: text for a text measure, else a float."""
    if key in result.text_values:
        return [str(v) for v in result.text_values[key]]
    return [float(v) for v in result.query_values[key]]
