"""What the engine-equality tests share (chunks, jobs, query subsets): random TREC lines, an
evaluation with its warnings, and a bit-for-bit comparison of two results."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np

import ranklens


def evaluate_warned(*args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """``ranklens.evaluate(*args, **kwargs)`` and the text of every warning it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ranklens.evaluate(*args, **kwargs)
    return result, [str(w.message) for w in caught]


def assert_same(a: ranklens.Result, b: ranklens.Result) -> None:
    """Bit for bit: every per-query value (NaN where NaN), aggregate, text value and
    diagnostic, the query ids and their type, the run's name."""
    assert (a.names, a.run_name, a.integer_query_ids) == (b.names, b.run_name,
                                                          b.integer_query_ids)
    np.testing.assert_array_equal(a.query_ids, b.query_ids)
    for name in a.names:
        assert np.array_equal(a.query_values[name], b.query_values[name], equal_nan=True), \
            name
        x, y = a.aggregates[name], b.aggregates[name]
        assert x == y or (np.isnan(x) and np.isnan(y)), (name, x, y)
    assert a.text_values == b.text_values
    assert a.diagnostics == b.diagnostics


def random_trec_lines(rng: random.Random, *, queries: int, docs: int, judged: int,
                      ranked: int, steps: int, odd_every: int) -> tuple[list[str], list[str]]:
    """Judgments (graded -1..3, in random order) and a run (scores in quarters up to
    ``steps / 4``, so ties) for ``queries`` queries: most both judged and ranked, some only
    one of the two; every ``odd_every``-th query id drawn at random (shared across seeds)."""
    qrels, run = [], []
    for i in range(queries):
        q = f"q{i}" if i % odd_every else f"Q{rng.randrange(1000)}-{i}"
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        if where != "run":
            qrels += [f"{q} 0 d{d} {rng.randint(-1, 3)}"
                      for d in rng.sample(range(docs), rng.randint(1, judged))]
        if where != "qrels":
            run += [f"{q} Q0 d{d} {k} {rng.randint(0, steps) / 4} tag"
                    for k, d in enumerate(rng.sample(range(docs), rng.randint(1, ranked)))]
    rng.shuffle(qrels)
    return qrels, run
