"""``ranklens.fuse``: several runs fused into one run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from ..._base.errors import InputError, ParameterError
from ..._base.validate import Choice, Integer, Text, check
from ..._ingest.io._load import load_qrels
from ..._ingest.io._run_names import positions
from ..._ingest.io.given_columns import Columns, with_columns
from ..._ingest.tables import Run
from ..evaluate import load_runs, several_runs
from .candidates import Candidates, align_runs
from .norms import DEFAULT_NORM, NORM_ALIASES, NORMS, normalise
from .order import group_positions, ranked
from .registry import Inputs, Method, lookup

__all__ = ["CONVENTIONS", "DEFAULT_NORM", "at_least_two", "candidates_of", "checked_options",
           "fuse", "fuse_candidates", "prepared_inputs"]

#: The tie orders ``fuse`` knows.
CONVENTIONS = ("ranklens", "ranx")


def fuse(runs: Any, method: str = "rrf", *, norm: str | None = DEFAULT_NORM,
         weights: Any = None, params: Mapping[str, Any] | None = None,
         depth: int | None = None, convention: str | None = None, train: Any = None,
         name: str | None = None, columns: Columns = None, **more_params: Any) -> Run:
    """Fuse several runs into one.

    Parameters
    ----------
    runs : list, tuple or mapping
        Several runs, in any form :func:`ranklens.evaluate` accepts as several runs: a list
        of paths, of ``{query: {doc: score}}`` mappings, frames or :class:`Run` values, or a
        mapping ``{name: run}``. At least two.
    method : str, default "rrf"
        The fusion method (ranx's names and others, any case; see ``docs/fusion.md``):
        ``rrf``, ``isr``, ``log_isr``, ``logn_isr``, ``sum``, ``mnz``, ``max``, ``min``,
        ``med``, ``anz``, ``gmnz``, ``wsum``, ``wmnz``, ``mixed``, ``bordafuse``,
        ``w_bordafuse``, ``rbc``, ``condorcet``, ``w_condorcet``; supervised (need
        ``train``): ``probfuse``, ``segfuse``, ``slidefuse``, ``posfuse``, ``bayesfuse``,
        ``mapfuse``.
    norm : str, optional
        The score normalisation applied to each run's list per query before fusing:
        ``min-max`` (the default, as in ranx), ``min-max-inverted``, ``max``, ``sum``,
        ``zmuv``, ``rank``, ``borda`` or ``none`` (``None`` too, as in ranx: no
        normalisation). Rank-based methods (RRF, ISR, RBC,
        Borda, Condorcet) read the ranks, which only ``min-max-inverted`` and ``borda``
        change.
    weights : sequence of float, optional
        One weight per run, for the weighted methods (``wsum``, ``wmnz``, ``mixed``,
        ``w_bordafuse``, ``w_condorcet``); all 1 when not given. Other methods take none.
        Weights are finite and at least 0, one of them above 0; a run of weight 0 adds
        nothing.
    params : mapping, optional
        The method's parameters (also accepted as keyword arguments, but not both ways at
        once): ``k`` for ``rrf``
        (default 60), ``sigma`` for ``logn_isr`` (0.01), ``gamma`` for ``gmnz`` and ``phi``
        for ``rbc`` (both required); for the supervised methods ``n_segments``
        (``probfuse``, required), ``w`` (``slidefuse``, required), ``rel`` (1), and the
        leakage rule's ``folds`` (5), ``seed`` (0) and ``allow_leakage`` (False).
    depth : int, optional
        Fuse only each run's top ``depth`` documents of each query.
    convention : {"ranklens", "ranx"}, optional
        How ties are ordered. ``ranklens`` (default): each run is read in ``evaluate``'s
        order (score descending, ties by doc id descending), and the fused run's tied
        documents keep equal scores, so ``evaluate``'s tie policy applies to them.
        ``ranx``: runs read and the fused run ordered as ranx orders them (numba's
        quicksort from the order the documents were given in), which reproduces ranx's
        fused order wherever ranx's own is deterministic.
    train : judgments, optional
        Training judgments (any form ``evaluate`` reads), for the supervised methods only
        (and required by them). A query they do not judge is fused by a model learned on
        every training query; a query they judge is fused by a model learned on the other
        cross-fitting folds (``folds`` parts of the training queries, shuffled with
        ``seed``), never on its own judgments, unless ``allow_leakage=True``.
    name : str, optional
        The fused run's name (default: the method's name).

    columns : str or sequence of str, optional
        The run files are headerless, with these columns, as in :func:`ranklens.evaluate`.
    Returns
    -------
    Run
        One row per (query, document) any run retrieves, queries in ascending id order,
        each query's documents by fused score, descending.

    Raises
    ------
    ParameterError
        An unknown method or normalisation, a parameter outside its range, weights of the
        wrong length or for a method without weights, fewer than two runs.
    InputError
        A run that cannot be read, lists a document twice for one query, or has a score
        the normalisation cannot scale (an infinite score under ``min-max``).

    Examples
    --------
    >>> import ranklens
    >>> bm25 = {"q1": {"d1": 12.0, "d2": 9.5, "d3": 7.0}}
    >>> dense = {"q1": {"d3": 0.92, "d1": 0.90}}
    >>> fused = ranklens.fuse({"bm25": bm25, "dense": dense}, method="rrf")
    >>> fused.doc_id.to_list()
    ['d1', 'd3', 'd2']
    >>> fused.score.round(6).tolist()
    [0.032522, 0.032266, 0.016129]

    A supervised method learns from ``train``. Run ``a`` finds the relevant ``d1`` first
    for both judged queries (MAP 1), ``b`` second (MAP 0.5), so MAPFuse scores ``d1``
    1/1 + 0.5/2 and ``d2`` 1/2 + 0.5/1 on the unjudged ``q3``; each judged query is fused by
    the model of the other (``folds=2``), never by its own judgments:

    >>> a = {q: {"d1": 2.0, "d2": 1.0} for q in ("q1", "q2", "q3")}
    >>> b = {q: {"d2": 2.0, "d1": 1.0} for q in ("q1", "q2", "q3")}
    >>> train = {"q1": {"d1": 1}, "q2": {"d1": 1}}
    >>> fused = ranklens.fuse({"a": a, "b": b}, "mapfuse", train=train, folds=2)
    >>> fused.frame.filter(fused.frame["query_id"] == "q3").select("doc_id", "score").rows()
    [('d1', 1.25), ('d2', 1.0)]
    """
    m = lookup(method)
    check("name", name, Text(none=True))
    norm_name = checked_options(norm, depth, convention)
    params = params or {}
    twice = sorted(set(params) & set(more_params))
    if twice:
        raise ParameterError(
            f"the parameter {twice[0]!r} is given twice, in 'params' ({params[twice[0]]!r}) "
            f"and as a keyword ({more_params[twice[0]]!r}); give it once")
    resolved = m.resolve({**params, **more_params})
    several = at_least_two(with_columns(runs, columns))
    w = _weights(m, weights, len(several))
    if train is not None and not m.supervised:
        raise ParameterError(
            f"the 'train' option is for the supervised fusion methods (probfuse, segfuse, "
            f"slidefuse, posfuse, bayesfuse, mapfuse); the method {m.name!r} learns nothing")
    if m.supervised and train is None:
        raise ParameterError(f"the fusion method {m.name!r} is supervised: give its "
                             "training judgments as 'train'")
    train = None if train is None else load_qrels(train)  # supervised kernels read a Qrels
    c = candidates_of(several, convention, depth)
    scores, rank = fuse_candidates(c, m, norm_name, w, resolved, train=train)
    return _to_run(c, scores, rank, name or m.name, m)


def checked_options(norm: object, depth: object, convention: object) -> str:
    """The options ``fuse`` and ``optimize_fusion`` share checked; the normalisation's name."""
    check("convention", convention, Choice(CONVENTIONS, none=True))
    check("depth", depth, Integer(1, none=True))
    return _norm_name(norm)


def at_least_two(runs: Any) -> list[tuple[str | None, Any]]:
    """``runs`` as (name, run) pairs, at least two."""
    several = several_runs(runs)
    if several is None or len(several) < 2:
        got = "one run" if several is None else f"{len(several)} run"
        raise ParameterError(f"the 'runs' argument must hold at least two runs (a list or "
                             f"a mapping {{name: run}}); got {got}")
    return several


def candidates_of(several: list[tuple[str | None, Any]], convention: str | None,
                  depth: int | None) -> Candidates:
    """The runs ``several`` loaded, named and aligned."""
    loaded = load_runs(several)
    names = positions([n if n is not None else r.name for (n, _), r in
                       zip(several, loaded, strict=True)], [n is None for n, _ in several])
    return align_runs(loaded, names, ranx=convention == "ranx", depth=depth)


def _norm_name(norm: object) -> str:
    if norm is None:  # ranx's spelling of no normalisation
        return "none"
    key = norm.lower() if isinstance(norm, str) else None
    key = NORM_ALIASES.get(key, key) if key is not None else None
    if key not in NORMS:
        raise ParameterError(
            f"the 'norm' option must be one of {', '.join(NORMS)} or None; got {norm!r}")
    return key


def _weights(m: Method, weights: Any, n_runs: int) -> np.ndarray:
    if weights is None:
        return np.ones(n_runs)
    if not m.weights:
        raise ParameterError(
            f"the 'weights' option is for the weighted methods; the method {m.name!r} "
            "takes none")
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        w = np.array([np.nan])
    if w.ndim != 1 or not np.isfinite(w).all() or (w < 0).any() or not (w > 0).any():
        raise ParameterError(
            f"the 'weights' option must be one finite number per run, each at least 0 and "
            f"one above 0; got {weights!r}")
    if w.size != n_runs:
        raise ParameterError(
            f"the 'weights' option must hold one weight per run ({n_runs}); got "
            f"{w.size}")
    return w


def fuse_candidates(c: Candidates, m: Method, norm: str, weights: np.ndarray,
                    params: Mapping[str, Any], *,
                    train: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The fused score of each candidate row and the runs' ranks it read: ``c``
    normalised, re-ranked when the normalisation re-ranks, then ``m``'s kernel. Under the
    ranx convention, the pairwise methods' scores are ``c - position`` (ranx's form)."""
    inputs = prepared_inputs(c, norm, weights, train)
    rank = inputs.rank
    scores = np.asarray(m.kernel(inputs, **params), dtype=np.float64)
    if m.pairwise and c.ranx:
        order = ranked(c.query, scores, ranx=True, arrival=_arrival(c, rank))
        scores = np.empty_like(scores)
        scores[order] = (c.size[order] - group_positions(c.query[order])).astype(np.float64)
    return scores, rank


def prepared_inputs(c: Candidates, norm: str, weights: np.ndarray, train: Any = None
                    ) -> Inputs:
    """What a kernel reads: ``c`` normalised, re-ranked when the normalisation re-ranks."""
    normed = normalise(c, norm)
    _refuse_unscaled(c, norm, normed.score)
    rank, length = c.rank, c.length
    if normed.rerank:
        rank, length = _rerank(c, normed.score)
    return Inputs(c, normed.score, rank, length, weights, train)


def _refuse_unscaled(c: Candidates, norm: str, score: np.ndarray) -> None:
    """InputError when the normalisation turned a run's score into NaN (an infinite one)."""
    bad = np.argwhere(np.isnan(score) & (c.rank > 0))
    if bad.size:
        infinite = bad[~np.isfinite(c.score[bad[:, 0], bad[:, 1]])]  # name the cause first
        row, r = (int(x) for x in (infinite if infinite.size else bad)[0])
        raise InputError(
            f"the run {c.names[r]!r} scores the document {c.doc_ids[row]!r} of the query "
            f"{c.query_ids[int(c.query[row])]!r} {float(c.score[row, r])!r}, which the {norm!r} "
            f"normalisation cannot scale; give finite scores or a normalisation that reads "
            f"ranks (norm='rank' or 'borda')")


def _rerank(c: Candidates, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks and lengths of the normalised runs (a document each run now scores, NaN
    where it does not), in the convention's order; ranx's starts from the previous ranks."""
    rank = np.zeros_like(c.rank)
    length = np.zeros_like(c.length)
    for r in range(c.runs):
        rows = np.flatnonzero(~np.isnan(score[:, r]))
        before = np.where(c.rank[rows, r] > 0, c.rank[rows, r],
                          c.rank.shape[0] + 1 + rows)  # unranked after ranked, in doc order
        order = ranked(c.query[rows], score[rows, r], ranx=c.ranx, arrival=before,
                       docs=None if c.ranx else c.doc_ids.gather(rows))
        rank[rows[order], r] = group_positions(c.query[rows[order]]) + 1
        length[:, r] = np.bincount(c.query[rows], minlength=c.query_ids.len())[c.query]
    return rank, length


def _arrival(c: Candidates, rank: np.ndarray) -> np.ndarray:
    """ranx's order of first sight: the first run that has the document, then its rank
    there (a fused ranx run lists run 1's documents, then run 2's new ones, ...)."""
    width = int(rank.max()) + 1 if rank.size else 1
    arrival = np.full(rank.shape[0], np.iinfo(np.int64).max)
    for r in range(rank.shape[1] - 1, -1, -1):
        arrival = np.where(rank[:, r] > 0, r * width + rank[:, r], arrival)
    return arrival


def _to_run(c: Candidates, scores: np.ndarray, rank: np.ndarray, name: str,
            m: Method) -> Run:
    # ranx lists the normalised runs' documents in their (re-ranked) order
    order = ranked(c.query, scores, ranx=c.ranx, docs=c.doc_ids,
                   arrival=_arrival(c, rank) if c.ranx else None)
    queries = c.query[c.starts[:-1]]
    block_ids = c.query_ids.gather(queries) if queries.size else pl.Series([], dtype=pl.String)
    return Run.from_blocks(block_ids, np.diff(c.starts), c.doc_ids.gather(order),
                           scores[order], source=f"<fused {m.name} of {', '.join(c.names)}>",
                           name=name, empty_queries=c.empty_queries)
