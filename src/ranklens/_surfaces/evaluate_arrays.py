"""``evaluate_arrays``: label matrices, score matrices and flat arrays through the same engine."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._base.errors import RanklensWarning
from .._ingest.io._arrays import from_arrays
from .._measures import Measure
from .._names import expand_trec_lists, parse_measures
from .._pipeline.options import OptionKwargs, options_of
from .._results.result import Result
from .evaluate import evaluate

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["evaluate_arrays", "from_arrays"]

def evaluate_arrays(labels: Any, measures: str | Measure | Iterable[str | Measure], *,
                    scores: Any = None, indexes: Any = None, n_relevant: Any = None,
                    run_name: str | None = None, **options: Unpack[OptionKwargs]) -> Result:
    """Evaluate rankings given as arrays: ranked labels, score matrices or flat arrays.

    Parameters
    ----------
    labels : array-like
        Relevance labels (binary or graded; NaN = no judgment / no item), in one of three
        shapes:

        - alone, ``(n_queries, k)``: the labels of each query's results **in rank order**
          (a recommender's top-k hit matrix; ragged rows may be NaN-padded or given as lists
          or an Arrow list array);
        - with ``scores`` of the same shape ``(n_queries, n_candidates)``: sklearn's
          ``y_true`` (every candidate judged, ranked by ``scores``);
        - 1-D with 1-D ``scores`` and ``indexes``: torchmetrics' ``target``.
    measures : str, Measure or list of them
        As in :func:`evaluate`.
    scores : array-like, optional
        sklearn's ``y_score`` or torchmetrics' ``preds``; NaN = not retrieved.
    indexes : array-like, optional
        torchmetrics' ``indexes``: the query of each row of the flat arrays.
    n_relevant : array-like, optional
        The number of relevant items of each query, retrieved or not, so that recall, R and
        the ideal DCG count relevant items the arrays do not show (they are judged at level
        ``rel``, unretrieved, and held as a count per query, ``Qrels.unretrieved``: memory
        does not grow with the counts; the measures that rank every relevant item (uncut
        nDCG and IdealDCG, nDCGRel, RnDCG) add one discounted term per counted item, a chunk
        at a time, in time proportional to the counts). Without it a
        ranked label matrix is taken as holding every relevant item, and a
        :class:`RanklensWarning` says so when a measure depends on it.
    convention : str or Convention, default "trec"
        A named bundle of defaults, e.g. ``"sklearn"`` (ties averaged, ideal from the
        candidates) or ``"kaggle"`` (AP@k divided by min(k, R)); see :func:`evaluate`.
    **options
        Any other option of :func:`evaluate` (``ties``, ``empty``, ``rel``, ``depth``...).

    Returns
    -------
    Result
        Query ids are the zero-padded row numbers (``"0"``... or ``"00"``...) or the
        ``indexes`` values.

    Examples
    --------
    Ranked hit lists of two users, with their number of relevant items:

    >>> r = evaluate_arrays([[1, 0, 1], [0, 1, 0]], ["P@3", "R@3", "AP@3"],
    ...                     n_relevant=[2, 4])
    >>> r["P@3"], r["R@3"]
    (0.5, 0.625)

    sklearn's ``ndcg_score(y_true, y_score)``, ties averaged:

    >>> y_true = [[3, 2, 0, 1]]
    >>> y_score = [[0.9, 0.9, 0.1, 0.4]]
    >>> round(evaluate_arrays(y_true, "nDCG", scores=y_score, convention="sklearn")["nDCG"], 6)
    0.961247

    torchmetrics' flat ``preds, target, indexes``:

    >>> r = evaluate_arrays([0, 1, 1, 0], ["RR"], scores=[0.2, 0.8, 0.5, 0.9],
    ...                     indexes=[0, 0, 1, 1])
    >>> r.per_query("RR")
    {'0': 1.0, '1': 0.5}
    """
    opts = options_of(options.pop("options", None), **options)  # checked before any use
    rel = opts.rel
    qrels, run = from_arrays(labels, scores=scores, indexes=indexes, n_relevant=n_relevant,
                             relevant_grade=float(max(int(rel), 1)))
    if scores is None and n_relevant is None:
        given = [measures] if isinstance(measures, (str, Measure)) else list(measures)
        names = [one for m in given for one in expand_trec_lists(m)]  # P_5,10: P_5, P_10
        conv = opts.resolved
        parsed = [conv.apply(m, w) for m, w in zip(parse_measures(names), names, strict=True)]
        needing = [str(m) for m in parsed if m.reads_unretrieved]
        if needing:
            warnings.warn(
                f"{', '.join(needing)} count relevant items that were not retrieved, and a "
                "ranked label matrix shows only the retrieved ones: without n_relevant= they "
                "are taken to be all the relevant items", RanklensWarning, stacklevel=2)
        measures = names
    result: Result = evaluate(qrels, run, measures, run_name=run_name, options=opts)
    return result
