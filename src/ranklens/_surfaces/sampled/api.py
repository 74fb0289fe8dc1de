"""``ranklens.sampled``: metrics from sampled ranks, naive and corrected, with the
consistency report against full-ranking values and paired comparisons of systems."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._base.errors import InputError, ParameterError
from ..._base.lazy import polars as pl
from ..._base.validate import Choice, Number, check
from ..._ingest.io._items import _read
from ..._results.per_query import Shown, listed
from ..compare.differences import snap
from ..compare.paired import t_interval, t_test
from ..render.frames import rows_frame
from .estimators import SAMPLINGS, correction, metric, naive, rescaled

__all__ = ["ESTIMATORS", "MAX_CELLS", "Sampled", "sampled"]

#: what each case's value may be: the sampled rank's metric, the metric of the rescaled
#: rank, the bias-variance correction (gamma = 1: the posterior mean)
ESTIMATORS = ("naive", "rescaled", "corrected")
#: most (true rank, sampled rank) probabilities the corrections compute: their time
MAX_CELLS = 1 << 28
#: the columns of a table of sampled ranks, in a text file's order
COLUMNS = ("user_id", "sampled_rank", "negatives", "catalogue", "full_rank")


@dataclass(frozen=True)
class Sampled(Shown):
    """What :func:`sampled` gives.

    Attributes
    ----------
    values : one row per system, case, metric and estimator: ``system``, ``user_id``,
        ``case`` (the user's n-th row), ``measure``, ``estimator`` and ``value``; estimator
        ``full``: the metric of the full rank, where given.
    summary : per system, metric and estimator: ``cases``, ``mean``, ``se``; with full ranks,
        the consistency report: ``full`` (their mean), ``difference`` (mean - full) and its
        paired ``difference_se``.
    paired : per metric, estimator and pair of systems, on the cases both hold: ``a``,
        ``b``, ``cases``, ``difference`` (a - b), ``ci_low``, ``ci_high`` (95%) and the
        paired t-test's ``p`` (empty for one system).
    """

    values: pl.DataFrame
    summary: pl.DataFrame
    paired: pl.DataFrame

    def __repr__(self) -> str:
        names = [listed(self.summary[c].unique(maintain_order=True).to_list())
                 for c in ("system", "measure", "estimator")]
        return f"<Sampled {names[0]} on {names[1]} by {names[2]}: {self.values.height} values>"


def _table(given: Any) -> pl.DataFrame:
    def build(frame: pl.DataFrame, source: str) -> pl.DataFrame:
        lowered = {c.lower(): c for c in frame.columns}
        for name in COLUMNS[:4]:
            if name not in lowered:
                raise InputError(f"sampled ranks need a {name!r} column; found columns "
                                 f"{frame.columns}", source=source)
        out = frame.select(pl.col(lowered["user_id"]).cast(pl.String).alias("user_id"), *(
            pl.col(lowered[c]).cast(pl.Int64, strict=False).alias(c)
            for c in COLUMNS[1:] if c in lowered))
        bad = [(c, i) for c in out.columns[1:] for i in out[c].is_null().arg_true().head(1)]
        checks = {"sampled_rank": (1, out["negatives"] + 1), "negatives": (1,
                  out["catalogue"] - 1), "catalogue": (2, None), "full_rank": (1,
                  out["catalogue"])}
        for c, (low, high) in checks.items():
            if c in out.columns and not bad:
                wrong = (out[c] < low) | (out[c] > high) if high is not None else out[c] < low
                bad = [(c, int(i)) for i in wrong.arg_true().head(1)]
        if bad:
            c, i = bad[0]
            raise InputError(f"row {i}: {c} must be a whole number in {_range(c)}; got "
                             f"{frame[lowered[c]][i]!r} (user {out['user_id'][i]!r})",
                             source=source, row=i)
        return out
    return _read(given, "sampled ranks", build, ((4, 5), "user sampled_rank negatives "
                                                  "catalogue [full_rank]", COLUMNS))


def _range(column: str) -> str:
    return {"sampled_rank": "1..negatives + 1", "negatives": "1..catalogue - 1",
            "catalogue": "2 or more", "full_rank": "1..catalogue"}[column]


def _estimate(frame: pl.DataFrame, name: str, estimator: str, sampling: str, gamma: float,
              prior: np.ndarray | None) -> np.ndarray:
    r, m, n = (frame[c].to_numpy() for c in COLUMNS[1:4])
    if estimator == "naive":
        return naive(name, r, m)
    if estimator == "rescaled":
        return rescaled(name, r, m, n)
    if estimator == "full":
        return naive(name, frame["full_rank"].to_numpy(), n - 1)
    out = np.zeros(r.size)
    for mi, ni in {(int(a), int(b)) for a, b in zip(m, n, strict=True)}:
        if prior is not None and prior.size != ni:
            raise ParameterError(f"the 'prior' option gives {prior.size} weights and the "
                                 f"catalogue holds {ni} items: give one weight per true rank")
        at = (m == mi) & (n == ni)
        out[at] = correction(name, mi, ni, sampling, gamma, prior)[r[at] - 1]
    return out


def sampled(cases: Any, measures: str | Sequence[str] = ("Recall@10", "nDCG@10"), *,
            estimators: Sequence[str] = ESTIMATORS, sampling: str = "binomial",
            gamma: float = 1.0, prior: str | Sequence[float] = "uniform") -> Sampled:
    """Metrics from each held-out item's rank among sampled negatives: naive and corrected.

    Parameters
    ----------
    cases : a table, or a dict of system name -> table, with one row per (user, held-out
        item): ``user_id``, ``sampled_rank`` (1 + the sampled negatives scored above it),
        ``negatives`` (m), ``catalogue`` (n, the items it could be ranked among) and
        optionally ``full_rank`` (its rank among all n). A path reads a columnar file, or
        whitespace-separated lines in that column order.
    measures : ``Recall@k`` (HR@k), ``nDCG@k``, ``AP`` (RR) and ``AUC``.
    estimators : ``naive`` (the metric of the sampled rank among m + 1 items), ``rescaled``
        (of ``1 + (r - 1)(n - 1) / m``), ``corrected`` (the bias-variance correction).
    sampling : how the negatives were drawn: ``binomial`` (with replacement) or
        ``hypergeometric`` (without).
    gamma : the correction's variance weight in [0, 1]: 1 the posterior mean, 0 minimal bias.
    prior : the weights of the true ranks 1..n: ``"uniform"``, or n weights.

    Returns
    -------
    Sampled

    Examples
    --------
    >>> import ranklens
    >>> cases = {"user_id": ["u1", "u2"], "sampled_rank": [1, 3], "negatives": [9, 9],
    ...          "catalogue": [100, 100]}
    >>> s = ranklens.sampled(cases, "Recall@10", estimators=["naive", "corrected"])
    >>> [(e, round(v, 4)) for e, v in s.summary.select("estimator", "mean").rows()]
    [('naive', 1.0), ('corrected', 0.3583)]
    """
    check("sampling", sampling, Choice(SAMPLINGS))
    check("gamma", gamma, Number(0.0, 1.0))
    if not estimators:
        raise ParameterError(f"the 'estimators' option must name one or more of {ESTIMATORS}")
    for e in estimators:
        check("estimators", e, Choice(ESTIMATORS))
    names = [measures] if isinstance(measures, str) else list(measures)
    for name in names:
        metric(name)
    weights = None if isinstance(prior, str) and prior == "uniform" else np.asarray(
        prior, dtype=np.float64)
    if weights is not None and (weights.ndim != 1 or not (weights >= 0).all()):
        raise ParameterError("the 'prior' option must be 'uniform' or n weights >= 0; got "
                             f"{prior!r}")
    systems = dict(cases) if isinstance(cases, Mapping) and cases and all(
        isinstance(v, (str, os.PathLike, Mapping)) or hasattr(v, "columns")
        for v in cases.values()) else {"": cases}
    parts = []
    for system, given in systems.items():
        frame = _table(pl.DataFrame(given) if isinstance(given, Mapping) else given)
        cells = sum(int(n) * (int(m) + 1) for m, n in frame.select(
            "negatives", "catalogue").unique().rows())
        if "corrected" in estimators and cells > MAX_CELLS:
            raise ParameterError(f"system {system!r}: the corrections need {cells} rank "
                                 f"probabilities, over MAX_CELLS ({MAX_CELLS}); fewer distinct "
                                 "(negatives, catalogue) pairs, or estimators without "
                                 "'corrected'")
        keys = frame.select("user_id", case=pl.int_range(pl.len()).over("user_id"))
        kinds = [*estimators, *(("full",) if "full_rank" in frame.columns else ())]
        parts += [keys.with_columns(system=pl.lit(system), measure=pl.lit(name),
                                    estimator=pl.lit(e), value=_estimate(
                                        frame, name, e, sampling, gamma, weights))
                  for name in names for e in kinds]
    values = pl.concat(parts).select("system", "user_id", "case", "measure", "estimator",
                                     "value")
    return Sampled(values, _summary(values), _paired(values, list(systems)))


def _summary(values: pl.DataFrame) -> pl.DataFrame:
    by = ["system", "measure", "estimator"]
    summary = values.filter(pl.col("estimator") != "full").group_by(by, maintain_order=True).agg(
        cases=pl.len(), mean=pl.col("value").mean(),
        se=pl.col("value").std() / pl.len().sqrt())
    full = values.filter(pl.col("estimator") == "full")
    if full.is_empty():
        return summary
    d = values.join(full.drop("estimator"), on=["system", "user_id", "case", "measure"],
                    suffix="_full").filter(pl.col("estimator") != "full")
    return summary.join(d.group_by(by).agg(
        full=pl.col("value_full").mean(),
        difference=(pl.col("value") - pl.col("value_full")).mean(),
        difference_se=(pl.col("value") - pl.col("value_full")).std() / pl.len().sqrt()),
        on=by, how="left", maintain_order="left")


def _paired(values: pl.DataFrame, systems: list[str]) -> pl.DataFrame:
    rows = []
    for i, a in enumerate(systems):
        for b in systems[i + 1:]:
            both = values.filter(pl.col("system") == a).join(
                values.filter(pl.col("system") == b),
                on=["user_id", "case", "measure", "estimator"], suffix="_b")
            for (measure, estimator), g in both.group_by(["measure", "estimator"],
                                                         maintain_order=True):
                d = snap(g["value"].to_numpy(), g["value_b"].to_numpy())
                low, high = t_interval(d)
                rows.append({"measure": measure, "estimator": estimator, "a": a, "b": b,
                             "cases": d.size, "difference": float(d.mean()),
                             "ci_low": low, "ci_high": high, "p": t_test(d)})
    return rows_frame(rows, "measure estimator a b", "cases", "difference ci_low ci_high p")
