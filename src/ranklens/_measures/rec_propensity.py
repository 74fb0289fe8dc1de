"""PSP@k, PSnDCG@k and PSR@k: propensity-scored precision, nDCG and recall (Jain, Prabhu
and Varma, KDD 2016), the extreme-classification measures that reward rare relevant items.

Each relevant item l of the top k gains ``1 / p_l``, with the propensity
``p_l = 1 / (1 + C exp(-A ln(N_l + B)))``, ``C = (ln N - 1)(B + 1)^A``: N the training users
(instances), N_l the training users of item l (0 for an item absent from them).
``PSP@k = sum gain / k``; ``PSnDCG@k = sum gain / log2(r + 1)`` over the top k, divided by
``sum_{j <= min(k, relevant)} 1 / log2(j + 1)``; ``PSR@k = sum gain / relevant`` (0 relevant:
divided by 1, as pyxclib). ``normalize`` says what is divided by the ideal ranking's value
(the relevant items sorted by ``1 / p``, descending):

* ``none``: the paper's unnormalised value;
* ``instance``: each user's value over its ideal value (a mean of ratios);
* ``ideal``: the ideal ranking's value itself. pyxclib's normalisation (``psprecision``,
  ``psndcg``, ``psrecall``) is the mean over users of ``none`` divided by the mean of
  ``ideal`` (a ratio of means).

The presets name pyxclib's standard (A, B): ``wikipedia`` (0.5, 0.4), ``amazon``
(0.6, 2.6) and ``default`` (0.55, 1.5); ``A`` and ``B`` given override the preset's.
``propensity=given`` reads each item's ``p`` from the catalogue's ``propensity`` column
instead (``items=...``); every relevant item the value reads must have one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._base.errors import MeasureError
from .._model.aligned import Aligned
from .._model.items import ItemContext, RankedItems
from ._beyond import in_top, per_item, register_beyond
from ._common import divide, rel_level
from ._registry import REL, Measure, Param, Spelled

__all__ = ["PRESETS", "inverse_propensity"]

#: pyxclib's standard (A, B) per dataset (``compute_inv_propesity``'s docstring)
PRESETS = {"default": (0.55, 1.5), "wikipedia": (0.5, 0.4), "amazon": (0.6, 2.6)}


def inverse_propensity(counts: np.ndarray, n: int, a: float, b: float) -> np.ndarray:
    """``1 / p_l = 1 + C (N_l + B)^-A`` for the label counts ``N_l`` of ``n`` instances.

    Examples
    --------
    >>> inverse_propensity(np.array([1.0]), 8, 0.55, 1.5).round(6)  # N_l = 1: ln N
    array([2.079442])
    """
    c = (np.log(n) - 1.0) * (b + 1.0) ** a
    out: np.ndarray = 1.0 + c * (np.asarray(counts, dtype=np.float64) + b) ** -a
    return out


def _weights(context: ItemContext, m: Measure) -> np.ndarray:
    """Each item's ``1 / p`` (the last entry: an item no table names, N_l = 0; NaN for
    given propensities)."""
    if m.get("propensity") == "given":
        set_ = [p for p in ("preset", "A", "B") if p in dict(m.params)]
        if set_:
            raise MeasureError(f"{m}: {', '.join(set_)} set the propensity model, which "
                               "propensity=given does not use; drop them or propensity=given")
        return 1.0 / np.append(context.propensity, np.nan)
    if context.n_users < 2:
        raise MeasureError(f"{m} needs training interactions of at least 2 users (ln N of the "
                           f"propensity model); got {context.n_users}")
    a, b = PRESETS[m.get("preset")]
    a = a if m.get("A") is None else float(m.get("A"))
    b = b if m.get("B") is None else float(m.get("B"))
    return inverse_propensity(np.append(context.users, 0), context.n_users, a, b)


def _ranked_value(m: Measure, gains: np.ndarray, qidx: np.ndarray, rank: np.ndarray,
                  nq: int, n_rel: np.ndarray) -> np.ndarray:
    """The unnormalised value from each top-k relevant item's gain, user and rank."""
    k = float(m.cutoff or 0)  # the cutoff is required
    name = m.definition.name
    if name == "PSnDCG":
        total = np.bincount(qidx, gains / np.log2(rank + 1.0), minlength=nq)
        ideal = np.cumsum(np.append(0.0, 1.0 / np.log2(np.arange(2.0, k + 2.0))))
        return divide(total, ideal[np.minimum(n_rel, int(k))])
    total = np.bincount(qidx, gains, minlength=nq)
    return total / k if name == "PSP" else total / np.maximum(n_rel, 1)


def _uncovered(m: Measure, gains: np.ndarray, items: Callable[[], np.ndarray]) -> None:
    """MeasureError naming the first relevant item without a given propensity."""
    if np.isnan(gains).any():
        item = items()[np.isnan(gains)][0]
        raise MeasureError(f"{m}: relevant item {item!r} has no propensity in the item "
                           "catalogue; give every relevant item a propensity (items=..., "
                           "--items) or use the propensity model (propensity=model)")


def propensity_scored(a: Aligned, m: Measure, ranked: RankedItems) -> np.ndarray:
    weights = _weights(ranked.context, m)
    level = rel_level(a, m)
    if ranked.judged is None:
        raise MeasureError(f"{m} reads the judgments of every item")
    jq, jcode, jgrade = ranked.judged
    rel = jgrade >= level
    n_rel = np.bincount(jq[rel], minlength=a.nq)
    top = in_top(a, m) & a.relevant(level)
    gains = per_item(ranked, weights[:-1], weights[-1])[top]
    _uncovered(m, gains, lambda: ranked.doc_id.to_numpy()[top])
    value = _ranked_value(m, gains, a.qidx[top], a.rank[top].astype(np.float64), a.nq, n_rel)
    if m.get("normalize") == "none":
        return value
    # the ideal ranking: each user's relevant items by 1 / p, descending
    jq, gain = jq[rel], weights[jcode[rel]]
    _uncovered(m, gain, lambda: np.append(ranked.context.universe, "(not in the catalogue)")[
        jcode[rel]])
    order = np.lexsort((-gain, jq))
    jq, gain = jq[order], gain[order]
    starts = np.searchsorted(jq, jq, side="left")
    rank = np.arange(jq.size) - starts + 1.0
    keep = rank <= float(m.cutoff or 0)
    ideal = _ranked_value(m, gain[keep], jq[keep], rank[keep], a.nq, n_rel)
    return ideal if m.get("normalize") == "ideal" else divide(value, ideal)


_PARAMS = (REL,
           Param("preset", Spelled("choice", tuple(PRESETS)), "default",
                 "the propensity model's standard (A, B): default (0.55, 1.5), wikipedia "
                 "(0.5, 0.4), amazon (0.6, 2.6)"),
           Param("A", Spelled("float", minimum=0, maximum=10), None,
                 "the model's A, at most 10 (default: the preset's)"),
           Param("B", Spelled("float", minimum=1e-3, maximum=1e6), None,
                 "the model's B, from 0.001 to a million (default: the preset's)"),
           Param("normalize", Spelled("choice", ("none", "instance", "ideal")), "none",
                 "none (the paper's), instance (over each user's ideal value) or ideal (the "
                 "ideal ranking's value; pyxclib's ratio of means divides by its mean)"),
           Param("propensity", Spelled("choice", ("model", "given")), "model",
                 "model (from the training counts) or given (the item catalogue's "
                 "propensity column)"))

for _name, _doc in (("PSP", "propensity-scored precision: sum of 1/p over the relevant items "
                     "of the top k, divided by k"),
                    ("PSnDCG", "propensity-scored nDCG: rank-discounted sum of 1/p over the "
                     "relevant items of the top k, over the binary ideal DCG"),
                    ("PSR", "propensity-scored recall: sum of 1/p over the relevant items of "
                     "the top k, divided by the relevant items")):
    register_beyond(_name, _doc + " (Jain et al. 2016; docs/recsys-protocols.md)",
                    params=_PARAMS, order_free="never", reads_judgments=True,
                    needs_unretrieved=lambda m: m.definition.name != "PSP"
                    or m.get("normalize") != "none",
                    needs=lambda m: ("propensity",) if m.get("propensity") == "given"
                    else ("train",), context_kernel=propensity_scored)
