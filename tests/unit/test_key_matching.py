"""Judgments are matched to ranked rows on 64-bit keys, then confirmed on the strings.

Hash collisions are too rare to meet by chance, so these tests hand the matcher colliding
keys directly: whichever way the keys are searched (one hash join, or the lookup table used
when judgments are few), every collision must be resolved on the doc id strings.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import polars as pl
import pytest

from ranklens._base.threads import using
from ranklens._model import matching
from ranklens._model.matching import grades, match_keys


def _run(docs: list[str], keys: list[int], filler: int) -> tuple[np.ndarray, ...]:
    """One query's ranked rows, then ``filler`` rows of a second query with fresh keys."""
    all_docs = docs + [f"f{i}" for i in range(filler)]
    all_keys = np.array(keys + [10_000 + i for i in range(filler)], dtype=np.uint64)
    qidx = np.array([0] * len(docs) + [1] * filler, dtype=np.int64)
    src = np.arange(len(all_docs), dtype=np.int64)
    return all_keys, qidx, src, pl.Series(all_docs)


def _judgments(rows: list[tuple[int, str, float, int]]) -> pl.DataFrame:
    q, doc, rel, key = zip(*rows, strict=True)
    return pl.DataFrame({"qidx": np.array(q, dtype=np.int64), "doc_id": list(doc),
                         "relevance": np.array(rel), "key": np.array(key, dtype=np.uint64)})


@pytest.fixture(params=["join", "lookup", "members", "members on two threads"])
def filler(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The filler rows of :func:`_run` for each path: 0 for the join (and the membership
    test, taken here at any size), 2000 (few judgments next to the rows) for the lookup."""
    if request.param.startswith("members"):
        monkeypatch.setattr(matching, "_MEMBERSHIP", 0)
    with using(2 if request.param.endswith("threads") else 1):
        yield 2000 if request.param == "lookup" else 0


def test_a_run_collision_is_told_apart_by_the_strings(filler: int) -> None:
    # b and c share a key; only c is judged
    keys, qidx, src, docs = _run(["a", "b", "c", "d"], [1, 2, 2, 3], filler)
    j = _judgments([(0, "c", 2.0, 2), (0, "d", 1.0, 3)])
    at, grade = grades(keys, qidx.__getitem__, lambda pos: docs.gather(src[pos]), j)
    assert at.tolist() == [2, 3]
    assert grade.tolist() == [2.0, 1.0]


def test_a_judgment_collision_is_told_apart_by_the_strings(filler: int) -> None:
    # two judgments share a key: both docs are ranked, each keeps its own grade
    keys, qidx, src, docs = _run(["a", "b", "c"], [1, 2, 2], filler)
    j = _judgments([(0, "c", 3.0, 2), (0, "b", 1.0, 2), (0, "z", 4.0, 9)])
    at, grade = grades(keys, qidx.__getitem__, lambda pos: docs.gather(src[pos]), j)
    assert at.tolist() == [1, 2]
    assert grade.tolist() == [1.0, 3.0]


def test_a_key_of_another_doc_is_not_a_match(filler: int) -> None:
    # the judged doc x is not ranked, but its key equals ranked doc a's
    keys, qidx, src, docs = _run(["a", "b"], [5, 6], filler)
    j = _judgments([(0, "x", 1.0, 5), (0, "b", 2.0, 6)])
    at, grade = grades(keys, qidx.__getitem__, lambda pos: docs.gather(src[pos]), j)
    assert at.tolist() == [1]
    assert grade.tolist() == [2.0]


def test_matches_come_in_row_order_with_their_judgment(filler: int) -> None:
    keys = np.array([40, 10, 30, 20] + [10_000 + i for i in range(filler)], dtype=np.uint64)
    pos, rows = match_keys(keys, np.array([20, 40, 10], dtype=np.uint64))
    assert pos.tolist() == [0, 1, 3]
    assert rows is not None and rows.tolist() == [1, 2, 0]


def test_a_repeated_judgment_key_gives_no_judgment_index(filler: int) -> None:
    keys = np.array([7, 8, 9] + [10_000 + i for i in range(filler)], dtype=np.uint64)
    pos, rows = match_keys(keys, np.array([8, 8, 9], dtype=np.uint64))
    assert pos.tolist() == [1, 2]
    assert rows is None


@pytest.mark.parametrize("jobs", [1, 3])
@pytest.mark.parametrize("repeated", [False, True])
def test_the_membership_test_matches_as_the_join(monkeypatch: pytest.MonkeyPatch, jobs: int,
                                                 repeated: bool) -> None:
    rng = np.random.default_rng(7)
    # more rows than the lookup takes, keys repeated in the run too
    keys = rng.integers(0, 5000, 100_000).astype(np.uint64)
    jkeys = rng.choice(8000, 3000, replace=False).astype(np.uint64)
    if repeated:  # a ranked key judged twice
        jkeys[-1] = jkeys[np.flatnonzero(np.isin(jkeys, keys))[0]]
    joined = match_keys(keys, jkeys)
    monkeypatch.setattr(matching, "_MEMBERSHIP", 0)
    with using(jobs):
        tested = match_keys(keys, jkeys)
    assert np.array_equal(tested[0], joined[0])
    assert (tested[1] is None) == (joined[1] is None) == repeated
    if not repeated:
        assert np.array_equal(tested[1], joined[1])  # type: ignore[arg-type]
