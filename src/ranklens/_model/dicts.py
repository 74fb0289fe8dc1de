"""Nested dicts aligned without tables: ``{query: {doc: value}}`` straight to :class:`Aligned`.

For small inputs the fixed costs of the tables (polars columns, a call per step) are most
of an evaluation's time: TREC DL 2019's 43 x 1,000 run as dicts spent ~9 ms in them against
pytrec_eval's ~12 ms for the whole evaluation. Here the dicts are read in a few C-level
passes (``chain``, ``map``, ``np.fromiter``), each doc id becomes unsigned 64-bit words
holding its UTF-8 bytes (big-endian, zero-padded: they compare as the ids do byte-wise,
trec_eval's ``strcmp``, since no id holds a NUL), and the ranking and the matching are NumPy
sorts of those words. The result is the :class:`Aligned` the one alignment path
(:func:`~ranklens._model.align.align`) makes of the same dicts loaded as tables, which the
same kernels read: the values are the same, bit for bit (a differential test checks it).

What is read here (anything else gives None, and the caller takes the general path, which
gives the same values, warnings or error; so this module words no error but the coverage
check's, the one :func:`~ranklens._model.policies.check_coverage` words for every path):

- plain ``dict`` of plain ``dict`` (not other mappings); every query id and doc id a
  ``str`` (ids given as integers are the general path's: it reports them back as integers),
  doc ids without a NUL character and encodable as UTF-8;
- judgment grades that are numbers within +-2**53 (the tables' bound), at least one
  judgment;
- scores that are numbers, neither NaN (an error) nor infinite (a warning; both the
  general path's to give), in the evaluated and in the ignored queries alike.

Keys of a dict are distinct, so neither table holds a duplicate (the ``duplicates`` option
changes nothing). Which options the alignment applies here is the caller's choice
(:func:`ranklens._pipeline.dicts.fits`).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import is_
from typing import Any

import numpy as np

from .._columns import MAX_GRADE
from .aligned import Aligned
from .policies import Policies, check_coverage

__all__ = ["QRELS_SOURCE", "RUN_SOURCE", "DictJudgments", "DictRun", "align_dicts",
           "dict_judgments", "dict_run"]

#: what the general path's readers call a mapping's judgments and run
QRELS_SOURCE = "<qrels dict>"
RUN_SOURCE = "<run dict>"

#: the top ``w`` bytes of a big-endian word, for w = 0..8
_MASKS = np.array([((1 << 64) - 1) ^ ((1 << (8 * (8 - w))) - 1) for w in range(9)],
                  dtype=np.uint64)
#: a judged query's ranking when the run lacks it (told apart from an empty one by identity)
_ABSENT: dict[str, Any] = {}
_NUMBER_ERRORS = (TypeError, ValueError, OverflowError)


@dataclass(frozen=True, eq=False)
class DictJudgments:
    """Judgments read from ``{query: {doc: grade}}``, judged queries numbered in trec_eval
    order (byte-wise ascending ids). Made once per :class:`ranklens.Judgments`: it holds
    arrays only, so the dict may change afterwards without changing it.

    Attributes
    ----------
    query_ids : the judged queries (with at least one judgment), in trec_eval order.
    grades : every judgment's grade, query by query (what the grade notices read).
    qidx : each judgment's query number (rows query by query).
    words : each judgment's doc id as big-endian words (see the module docstring).
    sorted_qidx, sorted_grade : the judgments by query then grade descending.
    """

    query_ids: list[str]
    grades: np.ndarray
    qidx: np.ndarray
    words: tuple[np.ndarray, ...]
    sorted_qidx: np.ndarray
    sorted_grade: np.ndarray


@dataclass(frozen=True, eq=False)
class DictRun:
    """A run read from ``{query: {doc: score}}`` against :class:`DictJudgments`: the rows
    of the judged queries it ranks, query by query in the judgments' numbering.

    Attributes
    ----------
    lengths : the number of rows of each judged query (0: absent or empty).
    absent : the judged queries the run lacks (an empty ranking is not absent).
    scores, words : each row's score and doc id words.
    ignored : the run's queries with rows but without judgments, sorted.
    """

    lengths: np.ndarray
    absent: np.ndarray
    scores: np.ndarray
    words: tuple[np.ndarray, ...]
    ignored: list[str]


def _str_keys(mapping: dict[Any, Any]) -> bool:
    return set(map(type, mapping)) <= {str}


def _dict_values(mapping: dict[Any, Any]) -> list[Any] | None:
    values = list(mapping.values())
    return values if set(map(type, values)) <= {dict} else None


def _numbers(rankings: list[dict[Any, Any]], n: int, bound: float = np.inf
             ) -> np.ndarray | None:
    """The values of ``rankings`` (``n`` of them) as float64, or None unless every one is
    a number below ``bound`` in magnitude (NaN and infinities never are)."""
    try:
        out = np.fromiter(chain.from_iterable(map(dict.values, rankings)), np.float64, n)
    except _NUMBER_ERRORS:
        return None
    return out if (np.abs(out) < bound).all() else None


def _words(ids: list[Any]) -> tuple[np.ndarray, ...] | None:
    """Each id's UTF-8 bytes as big-endian unsigned 64-bit words (bytes 8k to 8k + 7 in
    word k, zero-padded), as many words as the longest id needs (at least one); None
    unless every id is a str without NUL that encodes."""
    try:
        raw = "\0".join(ids).encode("utf-8")
    except (TypeError, UnicodeEncodeError):
        return None
    n = len(ids)
    if n == 0:
        return (np.zeros(0, dtype=np.uint64),)
    size = len(raw)
    padded = raw + bytes(8)
    sep = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 0)
    if sep.size != n - 1:
        return None  # a NUL inside an id
    starts = np.empty(n, dtype=np.int64)
    starts[0] = 0
    starts[1:] = sep + 1
    width = np.empty(n, dtype=np.int64)
    width[:-1] = sep
    width[-1] = size
    width -= starts
    # an unaligned big-endian word at every byte: one gather reads 8 bytes of each id
    every = np.ndarray((size + 1,), dtype=">u8", buffer=padded, strides=(1,))
    out = []
    for k in range(max(1, -(-int(width.max()) // 8))):
        at = starts + 8 * k if k == 0 else np.minimum(starts + 8 * k, size)
        out.append(every[at].astype(np.uint64) & _MASKS[np.clip(width - 8 * k, 0, 8)])
    return tuple(out)


def _stable(groups: np.ndarray) -> np.ndarray:
    """A stable argsort of small non-negative integers (NumPy's radix sort at 16 bits)."""
    if groups.size and int(groups.max()) < 1 << 16:
        return np.argsort(groups.astype(np.uint16), kind="stable")
    return np.argsort(groups, kind="stable")


def _by_group_then(groups: np.ndarray, words: tuple[np.ndarray, ...]) -> np.ndarray:
    """The order of rows by ``groups`` (small non-negative integers) then ``words``
    ascending (lexicographically)."""
    if len(words) == 1:
        first = np.argsort(words[0])
        return first[_stable(groups[first])]
    return np.lexsort((*reversed(words), groups))


def dict_judgments(qrels: Any) -> DictJudgments | None:
    """The judgments of ``qrels``, or None if it is not read here (module docstring)."""
    if type(qrels) is not dict or not _str_keys(qrels):
        return None
    rankings = _dict_values(qrels)
    if rankings is None:
        return None
    # queries without a judgment are not judged (the general path's table has no row)
    query_ids = sorted(compress(qrels, rankings))
    per_query = list(map(qrels.__getitem__, query_ids))
    lengths = np.fromiter(map(len, per_query), np.int64, len(per_query))
    n = int(lengths.sum())
    grades = _numbers(per_query, n, np.nextafter(MAX_GRADE, np.inf))  # as the tables check
    words = _words(list(chain.from_iterable(per_query)))
    if n == 0 or grades is None or words is None:
        return None
    qidx = np.repeat(np.arange(len(query_ids), dtype=np.int64), lengths)
    by_grade = np.argsort(-grades, kind="stable")
    by_grade = by_grade[_stable(qidx[by_grade])]
    return DictJudgments(query_ids, grades, qidx, words, qidx[by_grade], grades[by_grade])


def dict_run(judgments: DictJudgments, run: Any) -> DictRun | None:
    """The rows of ``run`` for ``judgments``' queries, or None if it is not read here."""
    if type(run) is not dict or not _str_keys(run):
        return None
    values = _dict_values(run)
    if values is None:
        return None
    got = list(map(run.get, judgments.query_ids, repeat(_ABSENT)))
    nq = len(got)
    absent = np.fromiter(map(is_, got, repeat(_ABSENT)), bool, nq)
    lengths = np.fromiter(map(len, got), np.int64, nq)
    n = int(lengths.sum())
    scores = _numbers(got, n)
    words = _words(list(chain.from_iterable(got)))
    if scores is None or words is None:
        return None
    # the run's queries without judgments: not evaluated, but checked as the general path
    # checks every query
    others = [] if len(run) == nq - int(absent.sum()) else \
        list(set(run).difference(judgments.query_ids))
    ranked = list(map(run.__getitem__, others))
    if _numbers(ranked, sum(map(len, ranked))) is None:
        return None
    return DictRun(lengths, absent, scores, words, sorted(compress(others, ranked)))


def align_dicts(judgments: DictJudgments, run: DictRun,
                policies: Policies) -> tuple[Aligned, dict[str, Any]]:
    """What :func:`~ranklens._model.align.align` gives for the same dicts as tables:
    queries numbered in trec_eval order (``to_sorted`` None).

    Raises
    ------
    InputError
        What :func:`~ranklens._model.policies.check_coverage` raises.
    """
    ids = judgments.query_ids
    nq = len(ids)
    lengths = run.lengths
    empty = (lengths == 0) & ~run.absent
    missing = [ids[i] for i in np.flatnonzero(run.absent)]
    check_coverage(policies, judged=nq, retrieved=nq - len(missing),
                   missing=(len(missing), missing), ignored=run.ignored,
                   run_source=RUN_SOURCE, qrels_source=QRELS_SOURCE)
    qidx = np.repeat(np.arange(nq, dtype=np.int64), lengths)
    order = _ranked(qidx, run.scores, None if policies.ties == "input" else run.words)
    row_grade = _matched(qidx, run.words, judgments)
    j_q, j_grade = judgments.sorted_qidx, judgments.sorted_grade
    absent = run.absent
    if missing and policies.missing == "skip":  # absent queries have no rows to drop
        kept = ~absent
        renumber = np.cumsum(kept) - 1
        ids = [ids[i] for i in np.flatnonzero(kept)]
        lengths, empty, absent = lengths[kept], empty[kept], absent[kept]
        inside = kept[j_q]
        j_q, j_grade = renumber[j_q[inside]], j_grade[inside]
    offsets = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if policies.depth is not None:  # the top ``depth`` ranked rows of each query
        rank = np.arange(order.size, dtype=np.int64) - np.repeat(offsets[:-1], lengths)
        order = order[rank < policies.depth]
        np.cumsum(np.minimum(lengths, policies.depth), out=offsets[1:])
    ranked_grade = row_grade[order]
    judged_at = np.flatnonzero(~np.isnan(ranked_grade))
    aligned = Aligned.of(
        query_ids=np.array(ids, dtype=object), offsets=offsets,
        judged=(judged_at, ranked_grade[judged_at]), score=(run.scores, order),
        judgments=(j_q, j_grade), missing=absent, policies=policies)
    diagnostics: dict[str, Any] = {"missing_queries": missing, "ignored_queries": run.ignored}
    if empty.any():
        diagnostics["empty_rankings"] = [ids[i] for i in np.flatnonzero(empty)]
    return aligned, diagnostics


def _ranked(qidx: np.ndarray, scores: np.ndarray,
            words: tuple[np.ndarray, ...] | None) -> np.ndarray:
    """The rows (query by query, ``qidx`` ascending) in ranked order: by query, score
    descending, ties by doc id descending (byte-wise, trec_eval's), or in the rows' order
    (``words`` None: ``ties="input"``)."""
    n = scores.size
    same = qidx[1:] == qidx[:-1]
    if ((scores[1:] > scores[:-1]) & same).any():
        # tied rows come out in any order here, unless they keep the input's
        order = np.argsort(-scores, kind="stable" if words is None else None)
        order = order[_stable(qidx[order])]
        ranked = scores[order]
    else:  # how runs are usually given: each ranking already by score descending
        order = np.arange(n, dtype=np.int64)
        ranked = scores
    if words is None:
        return order
    # NumPy comparisons treat -0.0 and 0.0 as equal: one tie, as in trec_eval
    tie = (ranked[1:] == ranked[:-1]) & same
    if not tie.any():
        return order
    tied = np.zeros(n, dtype=bool)
    tied[1:] = tie
    tied[:-1] |= tie
    at = np.flatnonzero(tied)
    # the tied groups, numbered from 0 (small numbers: a radix sort orders them)
    group = np.cumsum(np.concatenate(([True], ~tie)))[at]
    change = np.zeros(at.size, dtype=np.int64)
    change[1:] = group[1:] != group[:-1]
    groups = np.cumsum(change)
    rows = order[at]
    inverted = tuple(~w[rows] for w in words)  # descending doc ids
    order[at] = rows[_by_group_then(groups, inverted)]
    return order


def _matched(qidx: np.ndarray, words: tuple[np.ndarray, ...],
             judgments: DictJudgments) -> np.ndarray:
    """Each row's grade (NaN: no judgment), matching (query, doc id words) pairs: rows and
    judgments sorted together, a match is two equal neighbours (within a query neither
    side lists a doc twice)."""
    n = qidx.size
    width = max(len(words), len(judgments.words))
    zeros_r, zeros_j = np.zeros(n, np.uint64), np.zeros(judgments.qidx.size, np.uint64)
    both = tuple(np.concatenate((words[k] if k < len(words) else zeros_r,
                                 judgments.words[k] if k < len(judgments.words) else zeros_j))
                 for k in range(width))
    queries = np.concatenate((qidx, judgments.qidx))
    order = _by_group_then(queries, both)
    q = queries[order]
    equal = q[1:] == q[:-1]
    for w in both:
        sorted_w = w[order]
        equal &= sorted_w[1:] == sorted_w[:-1]
    first = np.flatnonzero(equal)
    a, b = order[first], order[first + 1]
    out = np.full(n, np.nan)
    out[np.minimum(a, b)] = judgments.grades[np.maximum(a, b) - n]
    return out
