"""The paired randomization (sign-flip) test, exact or Monte Carlo, with one random stream.

Statistic: T = mean(d) (computed as the sum; n is the same under every sign pattern).
A sign pattern counts when ``|T*| >= |T| - tau`` with ``tau = 1e-9 * mean(|d|)``: the
tolerance absorbs the rounding of sums taken in another order, so that a pattern equal to
the observed one in exact arithmetic is always counted.

Exact when ``2 ** nz <= permutations`` (nz = non-zero differences): every sign pattern of
the non-zero d, ``p = count / 2 ** nz``. Otherwise Monte Carlo: ``p = (b + 1) / (m + 1)``
(Phipson and Smyth 2010), never 0.

The random stream (reproducible whatever the block size or BLAS thread count):
``rng = numpy.random.default_rng(seed)``; permutation row r takes the next
``ceil(n / 64)`` 64-bit words of ``rng.bit_generator.random_raw``, read as little-endian
bytes and unpacked least significant bit first (``np.unpackbits(..., bitorder="little")``);
bit i = 1 flips the sign of query i. Rows are drawn in order, in the calling thread, and
one sign matrix is shared by every pair of systems: ``T* = sum(d) - 2 * (bits @ D)``, one
matrix product per block of rows for all pairs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TOLERANCE", "exact_p", "monte_carlo_p", "randomization_p", "sign_rows"]

#: Relative tolerance on the statistic (times mean |d|).
TOLERANCE = 1e-9


def sign_rows(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """The next ``rows`` rows of the stream: a ``(rows, n)`` uint8 matrix, 1 = flip.

    Examples
    --------
    >>> import numpy as np
    >>> a = sign_rows(np.random.default_rng(0), 3, 70)
    >>> rng = np.random.default_rng(0)
    >>> b = np.vstack([sign_rows(rng, 1, 70) for _ in range(3)])
    >>> a.shape, bool((a == b).all())
    ((3, 70), True)
    """
    words = (n + 63) // 64
    raw = np.asarray(rng.bit_generator.random_raw(rows * words), dtype="<u8")
    octets = raw.view(np.uint8).reshape(rows, words * 8)
    return np.unpackbits(octets, axis=1, count=n, bitorder="little")


def exact_p(d: np.ndarray) -> float:
    """Exact two-sided p over all ``2 ** nz`` sign patterns of the non-zero ``d``.

    Examples
    --------
    >>> import numpy as np
    >>> exact_p(np.array([0.1, 0.2, 0.3]))
    0.25
    """
    nonzero = d[d != 0]
    nz = nonzero.size
    if nz == 0:
        return 1.0
    total = float(np.sum(nonzero))
    threshold = abs(total) - TOLERANCE * float(np.sum(np.abs(nonzero)))
    # the patterns of the first (at most 16) differences as one vector, the rest one at a
    # time: memory stays at 2^16 values however many patterns there are
    low = min(nz, 16)
    rows = np.arange(2 ** low, dtype=np.int64)
    flips = ((rows[:, None] >> np.arange(low)) & 1).astype(np.float64)
    low_stats = total - 2.0 * (flips @ nonzero[:low])
    high = nonzero[low:]
    count = 0
    for pattern in range(2 ** high.size):
        shift = 2.0 * sum(float(v) for i, v in enumerate(high) if pattern >> i & 1)
        count += int(np.count_nonzero(np.abs(low_stats - shift) >= threshold))
    return count / 2 ** nz


def monte_carlo_p(diffs: np.ndarray, permutations: int, seed: int,
                  block_size: int = 512) -> np.ndarray:
    """Monte Carlo two-sided p of each column of ``diffs`` (queries x pairs), one stream.

    Every column sees the same sign rows; a column's p depends only on its own values,
    ``permutations``, ``seed`` and the number of rows of ``diffs``.

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[0.1, 0.0], [0.2, 0.1], [0.3, -0.1]] * 10)
    >>> p = monte_carlo_p(d, 999, seed=0)
    >>> bool((p >= 1 / 1000).all()), bool(p[1] == 1.0)
    (True, True)
    """
    n, pairs = diffs.shape
    total = diffs.sum(axis=0)
    threshold = np.abs(total) - TOLERANCE * np.abs(diffs).sum(axis=0)
    counts = np.zeros(pairs, dtype=np.int64)
    rng = np.random.default_rng(seed)
    done = 0
    while done < permutations:
        rows = min(block_size, permutations - done)
        flips = sign_rows(rng, rows, n).astype(np.float64)
        stats = total - 2.0 * (flips @ diffs)
        counts += np.count_nonzero(np.abs(stats) >= threshold, axis=0)
        done += rows
    return (counts + 1) / (permutations + 1)


def randomization_p(diffs: np.ndarray, permutations: int, seed: int,
                    block_size: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """p of each column of ``diffs`` and whether it was exact (else Monte Carlo).

    Examples
    --------
    >>> import numpy as np
    >>> p, exact = randomization_p(np.array([[0.1], [0.2], [0.3]]), 9999, seed=0)
    >>> p.tolist(), exact.tolist()
    ([0.25], [True])
    """
    nonzero = np.count_nonzero(diffs, axis=0)
    exact = nonzero <= int(permutations).bit_length() - 1  # 2 ** nonzero <= permutations
    p = np.empty(diffs.shape[1])
    for j in np.flatnonzero(exact):
        p[j] = exact_p(diffs[:, j])
    if not exact.all():
        sampled = np.flatnonzero(~exact)
        p[sampled] = monte_carlo_p(diffs[:, sampled], permutations, seed, block_size)
    return p, exact
