"""Small helpers shared by the measure kernels."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._model.aligned import Aligned
from ._registry import Measure

__all__ = ["clib_log", "clib_log2", "data", "divide", "rel_level"]


def rel_level(a: Aligned, m: Measure) -> int:
    """The relevance threshold in force for ``m``: its ``rel`` parameter or the option."""
    return int(m.get("rel", a.policies.rel))


def data(a: Aligned, m: Measure) -> Aligned:
    """The alignment ``m`` reads: judged-only when its ``judged_only`` parameter says so."""
    names = {p.name for p in m.definition.params}
    if "judged_only" in names:
        return a.for_measure(m.get("judged_only", False))
    return a


def divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 where ``den`` is 0 (trec_eval's convention)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


_LOG2_TABLE = np.zeros(0, dtype=np.float64)
#: the largest table of log2 values kept (32 MB); larger arguments go one by one, so ranks
#: in the hundreds of millions (an ideal ranking over n_relevant counts) cost no table
_LOG2_TABLE_LIMIT = 1 << 22


def clib_log2(x: np.ndarray) -> np.ndarray:
    """``log2`` of each element as the C library computes it, which is what trec_eval divides
    by. NumPy's vectorised log2 differs from it in the last bit for a few arguments (1621,
    3242, 6484, ...). Whole arguments (ranks, counts) are looked up in a table of the C
    library's values, built once up to the largest argument seen (at most
    ``_LOG2_TABLE_LIMIT``); others go one by one.
    As in C, 0 gives -inf and a negative argument NaN.
    """
    global _LOG2_TABLE
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return x.copy()
    top = float(x.max())
    if x.min() >= 1.0 and top <= 2.0**31 and (x == np.floor(x)).all():
        if top >= _LOG2_TABLE_LIMIT:
            small = x < _LOG2_TABLE_LIMIT
            out = np.empty_like(x)
            out[small] = clib_log2(x[small])
            out[~small] = _whole_log2(x[~small].tolist())
            return out
        # one read of the table: kernels on other threads (jobs > 1) may publish a larger
        # one meanwhile, each built whole before it is published, and never a smaller one
        table = _LOG2_TABLE
        if top >= table.size:
            size = min(max(int(top) + 1, 2 * table.size, 1024), _LOG2_TABLE_LIMIT)
            table = np.empty(size, dtype=np.float64)
            table[0] = -math.inf
            table[1:] = _whole_log2(range(1, size))
            if table.size > _LOG2_TABLE.size:
                _LOG2_TABLE = table
        return table[x.astype(np.int64)]
    return _each(math.log2, x)


def _whole_log2(values: range | list) -> np.ndarray:
    """C's log2 of positive whole numbers (math.log2 calls it on the number as a double),
    a builtin map with no Python frame per element: the fastest exact way."""
    return np.fromiter(map(math.log2, values), dtype=np.float64, count=len(values))


def clib_log(x: np.ndarray) -> np.ndarray:
    """Natural ``log`` of each element as the C library computes it (see :func:`clib_log2`)."""
    return _each(math.log, np.asarray(x, dtype=np.float64))


def _each(fn: Callable[[float], float], x: np.ndarray) -> np.ndarray:
    """``fn`` (a :mod:`math` logarithm) of each element, with C's results where Python raises
    instead: -inf at 0, NaN below."""
    def c_fn(v: float) -> float:
        return fn(v) if v > 0 or v != v else (-math.inf if v == 0 else math.nan)

    return np.fromiter(map(c_fn, x.ravel().tolist()), dtype=np.float64,
                       count=x.size).reshape(x.shape)
