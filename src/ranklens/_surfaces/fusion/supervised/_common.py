"""What every supervised kernel shares: its parameters, the training rows as it learns from
them (:class:`Training`), rank bands, and the run-by-run CombSUM it fuses with.

The kernels read the union of the runs' (query, doc) pairs, one row each, rows grouped by
query (see :mod:`ranklens._surfaces.fusion.supervised`). A run's *position* of a row is its
0-based place in that run's list, ``rank - 1``; ``rank == 0`` marks a run without the doc.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import numpy as np

from ...._base.errors import ParameterError
from ...._base.params import Param
from ...._base.validate import Integer, check

__all__ = ["REL", "REQUIRED", "Model", "Param", "Supervised", "Training", "band",
           "band_counts", "bind", "check_runs", "hits", "learner", "padded", "read_only", "run_sum"]

#: Marks a parameter without a default: the caller must give it (as the registry marks it).
REQUIRED: Any = None


#: The relevance threshold every kernel learns with: ranklens's ``rel`` option (trec_eval
#: ``-l``), ranx's ``rel_lvl`` (1 in ranx's training, which has no option for it).
REL = Param("rel", Integer(0), 1, "Minimum judged grade counted as relevant.")


def bind(method: str, declared: tuple[Param, ...], given: dict[str, object]) -> dict[str, Any]:
    """``given`` checked against ``declared``, defaults filled in.

    Examples
    --------
    >>> bind("posfuse", (REL,), {})
    {'rel': 1}
    >>> bind("posfuse", (REL,), {"w": 3})
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'w' option is not a parameter of posfuse; it takes rel
    """
    names = [p.name for p in declared]
    for name in given:
        if name not in names:
            raise ParameterError(f"the {name!r} option is not a parameter of {method}; "
                                 f"it takes {', '.join(names)}")
    bound: dict[str, Any] = {}
    for p in declared:
        value = given.get(p.name, p.default)
        if value is REQUIRED:
            raise ParameterError(f"the {p.name!r} option must be given to {method} "
                                 f"({p.constraint.describe()}): {p.doc}")
        check(p.name, value, p.constraint)
        bound[p.name] = value
    return bound


def check_runs(method: str, learned: int, rank: np.ndarray) -> np.ndarray:
    """``rank`` as an array, once it has as many runs (columns) as the model learned from.

    Examples
    --------
    >>> check_runs("posfuse", 3, np.zeros((4, 2), dtype=np.int64))
    Traceback (most recent call last):
    ...
    ranklens._base.errors.ParameterError: the 'runs' option must be the 3 runs posfuse learned \
from, in the same order; got 2 runs
    """
    rank = np.asarray(rank)
    if rank.ndim != 2 or rank.shape[1] != learned:
        got = rank.shape[1] if rank.ndim == 2 else f"an array of shape {rank.shape}"
        raise ParameterError(f"the 'runs' option must be the {learned} runs {method} learned "
                             f"from, in the same order; got {got} runs")
    return rank


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` as a float64 array nobody can write to (a model's learned table)."""
    out = np.array(a, dtype=np.float64)
    out.flags.writeable = False
    return out


def _show(value: object) -> str:
    if isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, threshold=24, edgeitems=3,
                               separator=", ", max_line_width=10**6)
        return text.replace("\n", "")  # one line, rows still apart: "[[...], [...]]"
    return repr(value)


class Model:
    """Base of the learned models: a repr that shows tables in short."""

    def __repr__(self) -> str:
        inside = ", ".join(f"{f.name}={_show(getattr(self, f.name))}"
                           for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({inside})"


def hits(rank: np.ndarray, grade: np.ndarray, rel: int) -> np.ndarray:
    """(U, R) mask: run r retrieved the row's doc and it is judged at ``rel`` or above.

    An unjudged doc (NaN grade) is not relevant, as in ranx's training and the papers'
    "all" variants.
    """
    with np.errstate(invalid="ignore"):
        relevant = np.asarray(grade, dtype=np.float64) >= rel
    return (np.asarray(rank) > 0) & relevant[:, None]


@dataclass(frozen=True)
class Training:
    """The training rows as a learner reads them: the bound parameters, ``rank`` and
    ``length`` (U, R), each query's first row ``starts`` (Q,), each row's query number
    ``group`` (U,), ``has`` (Q, R): run r has a list for query q, and ``hit`` (U, R): run r
    retrieved the row's doc and it is relevant."""

    params: dict[str, Any]
    rank: np.ndarray
    length: np.ndarray
    starts: np.ndarray
    group: np.ndarray
    has: np.ndarray
    hit: np.ndarray

    @classmethod
    def of(cls, method: str, declared: tuple[Param, ...], given: dict[str, object],
           query: np.ndarray, rank: np.ndarray, length: np.ndarray,
           grade: np.ndarray) -> Training:
        """The training rows of ``method``, its parameters ``given`` bound to ``declared``."""
        params = bind(method, declared, given)
        rank, length = np.asarray(rank), np.asarray(length)
        new = np.diff(query, prepend=np.asarray(query)[:1] - 1) != 0  # a query's first row
        starts, group = np.flatnonzero(new), np.cumsum(new) - 1
        return cls(params, rank, length, starts, group, length[starts] > 0,
                   hits(rank, grade, params["rel"]))

    @property
    def n_queries(self) -> int:
        return len(self.starts)

    @property
    def n_runs(self) -> int:
        return int(self.rank.shape[1])


M = TypeVar("M", bound=Model)


def learner(method: str, declared: tuple[Param, ...],
            fit: Callable[[Training], M]) -> Callable[..., M]:
    """The ``learn`` kernel of ``method``: its parameters checked, the training rows read
    once, then ``fit`` on them (the arguments are the package's, see its docstring)."""
    def learn(query: np.ndarray, doc: np.ndarray, rank: np.ndarray, length: np.ndarray,
              score: np.ndarray, grade: np.ndarray, **params: object) -> M:
        return fit(Training.of(method, declared, params, query, rank, length, grade))
    learn.__doc__ = fit.__doc__
    return learn


def band(bounds: np.ndarray, position: np.ndarray) -> np.ndarray:
    """Each 0-based position's band: band k holds ``bounds[k] <= p < bounds[k + 1]``;
    ``len(bounds) - 1`` from the last bound on."""
    return np.searchsorted(bounds, position, side="right") - 1


def band_counts(t: Training, r: int, bounds: np.ndarray) -> np.ndarray:
    """(Q, K) relevant documents of run r in each query's band k (of ``bounds``)."""
    n_bands = len(bounds) - 1
    rows = np.flatnonzero(t.hit[:, r])
    at = band(bounds, t.rank[rows, r] - 1)
    inside = at < n_bands
    found = np.bincount(t.group[rows[inside]] * n_bands + at[inside],
                        minlength=t.n_queries * n_bands)
    return found.reshape(t.n_queries, n_bands)


def padded(table: np.ndarray, fill: float) -> np.ndarray:
    """``table`` (R, K) with one more column of ``fill``: what an index past K reads."""
    return np.concatenate((table, np.full((table.shape[0], 1), fill)), axis=1)


def run_sum(method: str, learned: int, rank: np.ndarray, fill: float,
            part: Callable[[int, np.ndarray], np.ndarray]) -> np.ndarray:
    """CombSUM of ``part(r, rows)`` at the rows run r retrieved, ``fill`` where it did not,
    once ``rank`` has the ``learned`` runs (:func:`check_runs`)."""
    rank = check_runs(method, learned, rank)
    total = np.zeros(rank.shape[0])
    for r in range(rank.shape[1]):  # run by run in order, as ranx sums: the same rounding
        column = np.full(rank.shape[0], fill)
        rows = np.flatnonzero(rank[:, r] > 0)
        column[rows] = part(r, rows)
        total += column
    return total


@dataclass(frozen=True)
class Supervised:
    """One supervised method: its kernels and its declared parameters."""

    name: str
    learn: Callable[..., Model]
    fuse: Callable[..., np.ndarray]
    params: tuple[Param, ...]
    #: the method's formula, paper and differences with ranx (its module's docstring)
    doc: str
    #: learn takes ``relevant=`` (int64, one per row): the row's query's number of relevant
    #: judgments, including documents no run retrieved.
    needs_relevant: bool = False

    def __repr__(self) -> str:
        return f"Supervised({self.name!r}, params={[p.name for p in self.params]})"
