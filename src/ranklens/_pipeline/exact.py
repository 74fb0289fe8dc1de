"""Exact sums of float64 values that merge across buckets in any order.

A bucket's sum is returned exactly, as an integer times a power of two, so the driver adds
the buckets' sums without rounding and rounds once at the end: the aggregate is then the
same whatever the number of buckets or partitions, which a float sum per bucket (or
Spark's ``avg``) is not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ExactSum", "exact_sum"]


@dataclass(frozen=True)
class ExactSum:
    """``mantissa * 2**exponent`` plus the counts of values no finite sum holds."""

    mantissa: int = 0
    exponent: int = 0
    nan: int = 0
    pos_inf: int = 0
    neg_inf: int = 0

    def __add__(self, other: ExactSum) -> ExactSum:
        low = min(self.exponent, other.exponent)
        mantissa = ((self.mantissa << (self.exponent - low))
                    + (other.mantissa << (other.exponent - low)))
        return ExactSum(mantissa, low, self.nan + other.nan, self.pos_inf + other.pos_inf,
                        self.neg_inf + other.neg_inf)

    def to_float(self) -> float:
        """The sum rounded once to the nearest float64 (IEEE rules for NaN and infinities)."""
        if self.nan or (self.pos_inf and self.neg_inf):
            return float("nan")
        if self.pos_inf:
            return float("inf")
        if self.neg_inf:
            return float("-inf")
        try:
            if self.exponent >= 0:
                return float(self.mantissa << self.exponent)
            # int / int is correctly rounded in Python
            return self.mantissa / (1 << -self.exponent)
        except OverflowError:
            return float("inf") if self.mantissa > 0 else float("-inf")

    def to_json(self) -> list[str | int]:
        """A JSON-safe form (the mantissa can exceed any JSON number)."""
        return [str(self.mantissa), self.exponent, self.nan, self.pos_inf, self.neg_inf]

    @classmethod
    def from_json(cls, data: list[str | int]) -> ExactSum:
        """The inverse of :meth:`to_json`."""
        mantissa, exponent, nan, pos_inf, neg_inf = data
        return cls(int(mantissa), int(exponent), int(nan), int(pos_inf), int(neg_inf))


def exact_sum(values: np.ndarray) -> ExactSum:
    """The exact sum of ``values`` (float64).

    Examples
    --------
    >>> s = exact_sum(np.array([0.1, 0.2, 0.3]))
    >>> s.to_float() == 0.6, 0.1 + 0.2 + 0.3 == 0.6
    (True, False)
    """
    v = np.asarray(values, dtype=np.float64)
    finite = v[np.isfinite(v)]
    nan = int(np.isnan(v).sum())
    pos_inf = int(np.isposinf(v).sum())
    neg_inf = int(np.isneginf(v).sum())
    finite = finite[finite != 0]
    if finite.size == 0:
        return ExactSum(0, 0, nan, pos_inf, neg_inf)
    fraction, exp = np.frexp(finite)
    # every finite double is an integer of at most 53 bits times a power of two
    mantissas = np.ldexp(fraction, 53).astype(np.int64)
    exps = exp.astype(np.int64) - 53
    low = int(exps.min())
    order = np.argsort(exps, kind="stable")
    exps, mantissas = exps[order], mantissas[order]
    starts = np.flatnonzero(np.diff(exps, prepend=exps[0] - 1))
    total = 0
    for group in np.split(np.arange(exps.size), starts[1:]):
        # Python ints are unbounded: the sum of a group cannot overflow
        total += sum(mantissas[group].tolist()) << (int(exps[group[0]]) - low)
    return ExactSum(total, low, nan, pos_inf, neg_inf)
