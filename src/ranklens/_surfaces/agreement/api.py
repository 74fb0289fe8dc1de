"""``ranklens.agreement``: run-vs-run measures per query, their means, and a matrix of pairs."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, Literal

import numpy as np

from ..._base.errors import InputError, ParameterError, RanklensWarning
from ..._base.lazy import polars as pl
from ..._base.validate import Choice, check
from ..._ingest.io._run_names import name_runs, positions
from ..._ingest.io.given_columns import Columns, with_columns
from ..._ingest.tables import Run
from ..._results.per_query import Frames, by_query, listed
from ..evaluate import load_runs, several_runs
from ..render.formats import write
from ..render.model import Cell, Column, Row, Table, label
from .rankings import pair_runs, query_set
from .values import AgreementMeasure, parse_agreement, parse_agreements

__all__ = ["AGREE_FORMATS", "Agreement", "AgreementMatrix", "agreement"]

#: the output formats of an agreement (a matrix has no ``trec`` form)
AGREE_FORMATS = ("table", "markdown", "latex", "csv", "tsv", "jsonl", "trec")
#: how ties are ordered: as evaluate orders them (trec_eval's doc id descending) or as given
AGREE_TIES = ("docid", "input")
#: queries one run holds and the other lacks: an error, or compare the queries both hold
AGREE_MISSING = ("error", "skip")


def _cells(values: Iterable[float]) -> list[Cell]:
    return [Cell("nan" if math.isnan(v) else f"{v:.4f}", v) for v in values]


@dataclass(frozen=True, eq=False)
class Agreement(Frames):
    """Run-vs-run measures between two runs: per-query values and their means.

    ``agreement[name]`` is the mean over the compared queries of a measure (as written,
    or any spelling of it); a query whose value is NaN (both rankings empty, Kendall's tau
    undefined) is left out of that mean. :meth:`per_query` and :meth:`to_polars` give the
    per-query values, as on every result type.

    Attributes
    ----------
    names : the measures as requested, in order.
    measures : the parsed measure of each name.
    run_a, run_b : the runs' names.
    query_ids : the compared queries (the queries both runs hold), in ``run_a``'s order.
    query_values : each name's per-query values, aligned with ``query_ids``.
    means : each name's mean.
    skipped : with ``missing="skip"``, the queries only one run holds (run name -> ids).
    """

    names: tuple[str, ...]
    measures: dict[str, AgreementMeasure]
    run_a: str
    run_b: str
    query_ids: tuple[str, ...]
    query_values: dict[str, np.ndarray]
    means: dict[str, float]
    skipped: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def __getitem__(self, name: str | AgreementMeasure) -> float:
        return self.means[self._key(name)]

    def _key(self, name: str | AgreementMeasure) -> str:
        if isinstance(name, str) and name in self.means:
            return name
        wanted = parse_agreement(name)
        for written, measure in self.measures.items():
            if measure == wanted:
                return written
        raise ParameterError(f"{str(name)!r} was not computed; this agreement has "
                             f"{', '.join(self.names)}")

    def __repr__(self) -> str:
        body = listed([f"{n}={self.means[n]:.4f}" for n in self.names])
        return f"Agreement({self.run_a} vs {self.run_b}, {len(self.query_ids)} queries, {body})"

    def _repr_html_(self) -> str:
        from ..render.notebook import html_table

        return html_table(f"Agreement of {self.run_a} and {self.run_b}", self.table())

    def per_query(self, name: str | AgreementMeasure) -> dict[str, float]:
        """``{query_id: value}`` of one measure over the compared queries (:attr:`query_ids`,
        in ``run_a``'s order); NaN where the measure is undefined on the query.

        Examples
        --------
        >>> import ranklens
        >>> agree = ranklens.agreement({"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}},
        ...                            {"q1": {"b": 2.0, "a": 1.0}, "q2": {"c": 1.0}},
        ...                            "Overlap@1")
        >>> agree.per_query("Overlap@1")
        {'q1': 0.0, 'q2': 1.0}
        """
        return by_query(self.query_ids, self.query_values[self._key(name)])

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """One row per query: ``query_id`` and a column per measure (or long form:
        ``query_id, measure, value``)."""
        frame = pl.DataFrame({"query_id": pl.Series(list(self.query_ids), dtype=pl.String),
                              **{n: np.asarray(self.query_values[n]) for n in self.names}})
        if wide:
            return frame
        return frame.unpivot(index="query_id", variable_name="measure", value_name="value")

    def table(self, *, per_query: bool = False, trec: bool = False) -> Table:
        """The neutral table every format writes: the means (and each query's values)."""
        head = ((Column("run", "left"),) if trec
                else (Column("run_a", "left"), Column("run_b", "left")))
        columns = (*head, Column("query", "left"), *(Column(n) for n in self.names))
        runs = ((label(f"{self.run_a}~{self.run_b}"),) if trec
                else (label(self.run_a), label(self.run_b)))
        rows = [Row((*runs, label(q), *_cells(float(self.query_values[n][i]) for n in self.names)))
                for i, q in enumerate(self.query_ids if per_query else ())]
        rows.append(Row((*runs, label("all"), *_cells(self.means[n] for n in self.names)),
                        aggregate=True))
        notes = [f"{len(self.query_ids)} queries compared",
                 *(f"{len(ids)} queries only in {run} left out (e.g. {ids[0]})"
                   for run, ids in self.skipped.items())]
        return Table(columns, tuple(rows), notes=tuple(notes))

    def render(self, format: str = "table", *, per_query: bool = False) -> str:
        """The agreement as text in one of :data:`AGREE_FORMATS` (as ``ranklens.render``)."""
        check("format", format, Choice(AGREE_FORMATS))
        return write(self.table(per_query=per_query, trec=format == "trec"), format)


@dataclass(frozen=True, eq=False)
class AgreementMatrix(Frames):
    """Run-vs-run measures between every pair of several runs: a matrix of means per
    measure (``matrix[name]`` is a square array, 1 on the diagonal for a similarity of a
    run with itself); :attr:`pairs` holds each pair's :class:`Agreement`, and
    :meth:`per_query` and :meth:`to_polars` every pair's per-query values."""

    names: tuple[str, ...]
    runs: tuple[str, ...]
    matrices: dict[str, np.ndarray]
    pairs: dict[tuple[str, str], Agreement]

    def __getitem__(self, name: str) -> np.ndarray:
        first = next(iter(self.pairs.values()))
        return self.matrices[first._key(name)]

    def __repr__(self) -> str:
        return f"AgreementMatrix({len(self.runs)} runs, {listed(self.names)})"

    @property
    def query_ids(self) -> tuple[str, ...]:
        """Every query a pair compared, in the order the pairs first compared them."""
        return tuple(dict.fromkeys(q for p in self.pairs.values() for q in p.query_ids))

    def per_query(self, name: str | AgreementMeasure
                  ) -> dict[str, dict[tuple[str, str], float]]:
        """``{query_id: {(run_a, run_b): value}}`` of one measure, every query of
        :attr:`query_ids` with every pair; NaN where a pair did not compare the query
        (``missing="skip"``) or the measure is undefined on it."""
        by_pair = {key: p.per_query(name) for key, p in self.pairs.items()}
        return {q: {key: values.get(q, math.nan) for key, values in by_pair.items()}
                for q in self.query_ids}

    def to_polars(self, wide: bool = True) -> pl.DataFrame:
        """One row per pair and query it compared: ``run_a, run_b, query_id`` and a column
        per measure (or long form: ``run_a, run_b, query_id, measure, value``)."""
        return pl.concat([p.to_polars(wide).select(pl.lit(a, pl.String).alias("run_a"),
                                                   pl.lit(b, pl.String).alias("run_b"),
                                                   pl.all())
                          for (a, b), p in self.pairs.items()], how="vertical")

    def table(self) -> Table:
        """One row per (measure, run), one column per run: the means of each pair."""
        columns = (Column("measure", "left"), Column("run", "left"),
                   *(Column(r) for r in self.runs))
        return Table(columns, tuple(Row((label(n), label(r), *_cells(map(float, row))))
                                    for n in self.names
                                    for r, row in zip(self.runs, self.matrices[n], strict=True)))

    def render(self, format: str = "table") -> str:
        """The matrices as text (every format of :data:`AGREE_FORMATS` but ``trec``)."""
        check("format", format, Choice(tuple(f for f in AGREE_FORMATS if f != "trec")))
        return write(self.table(), format)


def _queries(a: Run, b: Run, name_a: str, name_b: str, ties: str, missing: str
             ) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    qa, qb = query_set(a, ties), query_set(b, ties)
    in_a, in_b = set(qa), set(qb)
    common = [q for q in qa if q in in_b]
    only = {k: v for k, v in ((name_a, tuple(q for q in qa if q not in in_b)),
                              (name_b, tuple(q for q in qb if q not in in_a))) if v}
    if not common:
        raise InputError(f"runs {name_a!r} ({a.source}) and {name_b!r} ({b.source}) have no "
                         "query in common: there is nothing to compare")
    if only and missing == "error":
        run, ids = next(iter(only.items()))
        other = name_b if run == name_a else name_a
        raise InputError(
            f"run {run!r} holds {len(ids)} queries that run {other!r} lacks (e.g. "
            f"{ids[0]!r}); pass missing='skip' to compare the {len(common)} queries both "
            "hold")
    return common, only


def _warn_skipped(pairs: list[Agreement]) -> None:
    """One warning per call for the queries the pairs left out, at the caller's line."""
    left = [p for p in pairs if p.skipped]
    texts = ["; ".join(f"{len(v)} only in {k!r} (e.g. {v[0]!r})" for k, v in p.skipped.items())
             for p in left[:3]]  # the first pairs: a message of bounded length
    if len(pairs) == 1 and left:
        warnings.warn(f"comparing the {len(left[0].query_ids)} queries both runs hold; left "
                      f"out: {texts[0]}", RanklensWarning, stacklevel=3)
    elif left:
        more = f" (and {len(left) - 3} more pairs)" if len(left) > 3 else ""
        warnings.warn("comparing the queries each pair of runs holds; left out: " + "; ".join(
            f"{p.run_a} vs {p.run_b}: {t}" for p, t in zip(left, texts, strict=False)) + more,
            RanklensWarning, stacklevel=3)


def _pair(a: Run, b: Run, labels: tuple[str, str], measures: list[AgreementMeasure],
          names: list[str], ties: str, missing: str) -> Agreement:
    queries, only = _queries(a, b, *labels, ties, missing)
    values: dict[str, np.ndarray] = {}
    by_depth: dict[int | None, Any] = {}
    for written, m in zip(names, measures, strict=True):
        # measures read at one depth share one pairing of the rankings
        if m.cutoff not in by_depth:
            by_depth[m.cutoff] = pair_runs(a, b, queries, ties, m.cutoff)
        values[written] = v = np.asarray(m.definition.kernel(by_depth[m.cutoff], m),
                                         dtype=np.float64)
        v.flags.writeable = False
    means = {n: (float(np.mean(v[~np.isnan(v)])) if (~np.isnan(v)).any() else math.nan)
             for n, v in values.items()}
    return Agreement(tuple(names), dict(zip(names, measures, strict=True)), *labels,
                     tuple(queries), values, means, only)


def agreement(
    run_a: Any,
    run_b: Any = None,
    measures: str | AgreementMeasure | Sequence[str | AgreementMeasure] = "RBO",
    *,
    ties: Literal["docid", "input"] = "docid",
    missing: Literal["error", "skip"] = "error",
    columns: Columns = None,
) -> Agreement | AgreementMatrix:
    """How alike two runs' rankings are, query by query, without judgments.

    Parameters
    ----------
    run_a, run_b : run
        Two runs, in any form :func:`ranklens.load_run` reads. Give ``run_a`` alone as a
        list of runs or a mapping ``{name: run}`` (``run_b`` None) to compare every pair:
        an :class:`AgreementMatrix`.
    measures : str, AgreementMeasure or sequence of them, default "RBO"
        Run-vs-run measures: ``RBO`` (``p``, ``form=ext|min|res``, ``ties=ordered|w|a|b``,
        optional depth ``@k``), ``Overlap@k``, ``Jaccard@k``, ``KendallTau@k``
        (docs/agreement.md).
    ties : {"docid", "input"}, default "docid"
        The order of equally scored documents, as ``evaluate`` orders them: doc id
        descending (trec_eval) or the order given. RBO's ``ties=w|a|b`` reads the tied
        groups themselves instead.
    missing : {"error", "skip"}, default "error"
        Queries one run holds and the other lacks: an error naming one, or compare the
        queries both hold (a warning counts the others, and the result lists them in
        ``skipped``). Runs without a query in common are always an error.
    columns : str or sequence of str, optional
        The run files are headerless, with these columns, as in :func:`ranklens.evaluate`.

    Returns
    -------
    Agreement or AgreementMatrix

    Raises
    ------
    MeasureError
        An unknown measure, a missing cutoff, ``p`` outside (0, 1).
    InputError
        The runs' query sets differ (``missing="error"``) or do not meet; a run ranks a
        document twice for one query.
    ParameterError
        A bad option, or fewer than two runs.

    Examples
    --------
    >>> import ranklens
    >>> a = {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}
    >>> b = {"q1": {"d2": 3.0, "d1": 2.0, "d4": 1.0}}
    >>> agree = ranklens.agreement(a, b, ["Overlap@2", "Jaccard@3", "RBO(p=0.5,form=min)@3"])
    >>> agree["Overlap@2"], agree["Jaccard@3"]
    (1.0, 0.5)
    >>> round(agree["RBO(p=0.5,form=min)@3"], 6)  # 2 ln 2 - 1: the lower bound
    0.386294
    """
    check("ties", ties, Choice(AGREE_TIES))
    check("missing", missing, Choice(AGREE_MISSING))
    parsed = parse_agreements(measures)
    listed = [measures] if isinstance(measures, (str, AgreementMeasure)) else measures
    names = [m if isinstance(m, str) else str(m) for m in listed]
    # named as evaluate names several runs: the name given, else the file's, else the tag
    given: list[tuple[str | None, Any]] | None
    run_a, run_b = with_columns([run_a, run_b], columns) if run_b is not None else (
        with_columns(run_a, columns), None)
    if run_b is not None:
        given = list(zip(name_runs([run_a, run_b]), (run_a, run_b), strict=True))
    else:  # an empty list is no runs (several_runs would blame its own argument)
        given = several_runs(run_a) if not isinstance(run_a, (list, tuple)) or run_a else []
    if given is None:
        raise ParameterError(
            "agreement compares two runs or more; run_a alone is one run: give run_b too, or "
            "run_a as a list of runs or a mapping {name: run}")
    if len(given) < 2:
        raise ParameterError(f"give at least two runs to compare; got {len(given)}")
    runs = load_runs(given)
    labels = positions([r.name if n is None else n for (n, _), r in zip(given, runs, strict=True)],
                       [n is None for n, _ in given])
    if run_b is not None:
        pair = _pair(runs[0], runs[1], (labels[0], labels[1]), parsed, names, ties, missing)
        _warn_skipped([pair])
        return pair
    if len(set(labels)) < len(labels):
        dup = next(x for x in labels if labels.count(x) > 1)
        raise ParameterError(f"two runs are named {dup!r}: give them distinct names (a "
                             "mapping {name: run})")
    n = len(runs)
    matrices = {name: np.full((n, n), math.nan) for name in names}
    pairs: dict[tuple[str, str], Agreement] = {}
    # the diagonal too: a run's RBO residual with itself is 0 only for an unbounded run
    for i, j in combinations_with_replacement(range(n), 2):
        got = _pair(runs[i], runs[j], (labels[i], labels[j]), parsed, names, ties, missing)
        if i != j:
            pairs[labels[i], labels[j]] = got
        for name in names:
            matrices[name][i, j] = matrices[name][j, i] = got.means[name]
    _warn_skipped(list(pairs.values()))
    return AgreementMatrix(tuple(names), tuple(labels), matrices, pairs)
