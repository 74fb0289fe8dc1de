"""Nested dicts aligned without tables: ``{query: {doc: value}}`` straight to :class:`Aligned`.

For small inputs the fixed costs of the tables (polars columns, a call per step) are most of
an evaluation's time, close to what pytrec_eval takes for the whole evaluation. Here the
dicts are read in a few C-level passes (``chain``, ``map``, ``np.fromiter``), each doc id
becomes unsigned 64-bit words holding its UTF-8 bytes (big-endian, zero-padded: they compare
as the ids do byte-wise, trec_eval's ``strcmp``, since no id holds a NUL). The rows are
ranked by the one ranker (:func:`~ranklens._model.ranking.rank_rows`, ties broken on the
words) and matched as judgments held as text are: on hashed pair keys
(:class:`~ranklens._model.keys.PairKeys`, the words hashed by
:func:`~ranklens._model.keys.word_hashes`), rows and judgments in one sort of their keys,
each match confirmed on the words. The result is
the :class:`Aligned` the one alignment path (:func:`~ranklens._model.align.align`) makes of
the same dicts loaded as tables, which the same kernels read: the values are the same, bit
for bit (a differential test checks it).

What is read here (anything else gives None, and the caller takes the general path, which
gives the same values, warnings or error; so this module words no error but the coverage
check's, the one :func:`~ranklens._model.policies.check_coverage` words for every path):

- plain ``dict`` of plain ``dict`` (not other mappings); every query id and doc id a
  ``str`` (ids given as integers are the general path's: it reports them back as integers),
  doc ids without a NUL character and encodable as UTF-8;
- judgment grades that are numbers within +-2**63 (the tables' bound), at least one
  judgment;
- scores that are numbers, neither NaN (an error) nor infinite (a warning; both the
  general path's to give), in the evaluated and in the ignored queries alike;
- at most :data:`SMALL_ROWS` rows in the judged queries (larger runs are faster as tables).

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

from .._base.groups import locate
from .._base.lazy import polars as pl
from .._base.tuning import DICT_ROWS as SMALL_ROWS
from .._ingest.columns import MAX_GRADE
from .align import Coded, Judgments, build, evaluated_judgments
from .aligned import Aligned
from .diagnostics import Diagnostics
from .keys import PairKeys, index_dtype, judgment_order, word_hashes
from .policies import Policies
from .ranking import RunIndex, rank_rows, tiebreak_of

__all__ = ["QRELS_SOURCE", "RUN_SOURCE", "SMALL_ROWS", "DictJudgments", "DictRun", "align_dicts",
           "dict_judgments", "dict_run"]

#: what the general path's readers call a mapping's judgments and run
QRELS_SOURCE = "<qrels dict>"
RUN_SOURCE = "<run dict>"

#: a judged query's ranking when the run lacks it (told apart from an empty one by identity)
_ABSENT: dict[str, Any] = {}
#: NULs after the last doc id's own: a word read at any id's start stays inside the bytes
_PAD = b"\0" * 7
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
    sorted_qidx, sorted_grade : the judgments by query then grade descending.
    qidx, docs, keys : each judgment's query number, doc id words and hashed pair key.
    """

    query_ids: list[str]
    grades: np.ndarray
    sorted_qidx: np.ndarray
    sorted_grade: np.ndarray
    qidx: np.ndarray
    docs: tuple[np.ndarray, ...]
    keys: np.ndarray


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
    finite = np.isfinite(out).all() if bound == np.inf else (np.abs(out) < bound).all()
    return out if finite else None


def _words(rankings: list[dict[Any, Any]], n: int) -> tuple[np.ndarray, ...] | None:
    """The doc ids of ``rankings`` (``n`` of them), each as its UTF-8 bytes in big-endian
    unsigned 64-bit words (bytes 8k to 8k + 7 in word k, zero-padded), as many words as
    the longest id needs (at least one); None unless every id is a str without NUL that
    encodes.

    The ids are joined, a ranking at a time, into one bytes object (NUL between ids, NUL
    padding after the last) and each id's first word is read by one gather of unaligned
    words; temporary arrays are few and reused in place: a fresh array's first touch
    costs page faults that, on small inputs, rival the work itself."""
    if n == 0:
        return (np.zeros(0, dtype=np.uint64),)
    try:
        raw = b"\0".join([*map(str.encode, map("\0".join, filter(None, rankings))), _PAD])
    except (TypeError, UnicodeEncodeError):
        return None
    sep = np.flatnonzero(np.frombuffer(raw, dtype=np.uint8) == 0)
    if sep.size != n + len(_PAD):
        return None  # a NUL inside an id
    width = np.empty(n, dtype=np.int64)  # each id's bytes: the NUL after it is sep[i]
    width[0] = sep[0]
    np.subtract(sep[1:n], sep[:n - 1], out=width[1:])
    width[1:] -= 1
    starts = sep[:n]
    starts -= width
    # a big-endian word at every byte but the padding's own
    every = np.ndarray((len(raw) - len(_PAD),), dtype=">u8", buffer=raw, strides=(1,))
    count = max(1, -(-int(width.max()) // 8))
    out = []
    for k in range(count):
        word = every[starts if k == 0 else np.minimum(starts + 8 * k, len(raw) - 8)]
        if not word.dtype.isnative:  # the values as native integers, in place
            word = word.byteswap(inplace=True).view(word.dtype.newbyteorder())
        # the bytes past the id (its NUL, the next id's) shifted out and back as zeros
        if k < count - 1:
            shift = np.clip(width - 8 * k, 0, 8)
        else:  # the last word: the widths are not read again
            shift = np.clip(width - 8 * k, 0, 8, out=width) if k else \
                np.minimum(width, 8, out=width)
        shift *= -8
        shift += 64
        word >>= shift.view(np.uint64)
        word <<= shift.view(np.uint64)
        out.append(word)
    return tuple(out)


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
    words = _words(per_query, n)
    if n == 0 or grades is None or words is None:
        return None
    qidx = np.repeat(np.arange(len(query_ids), dtype=index_dtype(len(query_ids))), lengths)
    by_grade = judgment_order(qidx, grades)
    keys = PairKeys.hashed(len(query_ids)).of(qidx, word_hashes(words))
    return DictJudgments(query_ids, grades, qidx[by_grade], grades[by_grade], qidx, words,
                         keys)


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
    if n > SMALL_ROWS:
        return None
    scores = _numbers(got, n)
    words = _words(got, n)
    if scores is None or words is None:
        return None
    # the run's queries without judgments: not evaluated, but checked as the general path
    # checks every query
    others = [] if len(run) == nq - int(absent.sum()) else \
        list(set(run).difference(judgments.query_ids))
    extra = list(map(run.__getitem__, others))
    if _numbers(extra, sum(map(len, extra))) is None:
        return None
    return DictRun(lengths, absent, scores, words, sorted(compress(others, extra)))


def align_dicts(judgments: DictJudgments, run: DictRun,
                policies: Policies) -> tuple[Aligned, Diagnostics]:
    """What :func:`~ranklens._model.align.align` gives for the same dicts as tables: the
    dicts as codes (rows ranked by :func:`~ranklens._model.ranking.rank_rows`, matched on
    exact pair keys), built by the one builder (:func:`~ranklens._model.align.build`).

    Raises
    ------
    InputError
        What :func:`~ranklens._model.policies.check_coverage` raises.
    """
    ids, lengths, words = judgments.query_ids, run.lengths, run.words
    # the run's queries are the judged ones it gives rows, in the judgments' order
    run_of = np.flatnonzero(lengths)
    qidx = np.repeat(np.arange(len(ids), dtype=index_dtype(len(ids))), lengths)
    rows, grades = _matched(qidx, words, judgments)
    n = qidx.size
    tiebreak = tiebreak_of(policies.ties)
    needed = np.zeros(n, dtype=bool)
    needed[rows] = True
    offsets, moves = rank_rows(
        np.arange(run_of.size), lengths[run_of], run_of.size, run.scores,
        (lambda rows: pl.Series(rows.astype(np.int64))) if tiebreak == "input" else
        lambda rows: np.stack([w[rows] for w in words]), tiebreak == "docid", needed)
    if isinstance(moves, tuple):  # where each row is ranked: only the moved ones differ
        at = np.arange(n, dtype=moves[0].dtype)
        at[moves[1]] = moves[0]
    else:
        at = np.empty(n, dtype=np.int64)
        at[moves] = np.arange(n)
    position = at[rows].astype(np.int64, copy=False)
    by_position = np.argsort(position)
    judged = (position[by_position], grades[by_position])
    run_ids = pl.Series(list(map(ids.__getitem__, run_of.tolist())), dtype=pl.String)
    index = RunIndex(query_ids=run_ids, moves=moves,
                     keys=np.zeros(0, dtype=np.uint64), offsets=offsets, duplicated=False)

    def match(code: np.ndarray | None, kept: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        if kept is None:
            return judged
        if not kept.size:
            return judged[0][:0], judged[1][:0]
        found, hit = locate(kept, judged[0])
        return found[hit].astype(np.int64), judged[1][hit]

    coded = Coded(
        judged_ids=ids, query_array=np.array(ids, dtype=object), index=index, run_of=run_of,
        empty=(lengths == 0) & ~run.absent, ignored=run.ignored, score=run.scores,
        sources=(RUN_SOURCE, QRELS_SOURCE), drop=None,
        judgments=lambda kept, _: Judgments(evaluated_judgments(
            judgments.sorted_qidx, judgments.sorted_grade, kept), match),
        source_rows=False)
    return build(coded, policies)


def _same(words: tuple[np.ndarray, ...], at: np.ndarray, docs: tuple[np.ndarray, ...],
          code: np.ndarray) -> np.ndarray:
    """Whether the ids ``words[at]`` are the ids ``docs[code]``, word by word."""
    same = np.ones(at.size, dtype=bool)
    for k in range(max(len(words), len(docs))):
        same &= (words[k][at] if k < len(words) else 0) == (docs[k][code] if k < len(docs)
                                                           else 0)
    return same


def _matched(qidx: np.ndarray, words: tuple[np.ndarray, ...],
             judgments: DictJudgments) -> tuple[np.ndarray, np.ndarray]:
    """The rows with a judgment (ascending) and its grade.

    Rows and judgments are sorted together on their hashed pair keys, each key's low bits
    replaced by its own index: a row and a judgment side by side with equal keys are a
    match once their words agree. Within a query neither side lists a doc twice, so three
    equal keys are a collision that could hide a match: then (never seen) both sides are
    sorted on the words themselves."""
    n, m = qidx.size, judgments.keys.size
    low = np.uint64(max(1, (n + m - 1).bit_length()))
    keys = np.empty(n + m, dtype=np.uint64)
    keys[:n] = PairKeys.hashed(len(judgments.query_ids)).of(qidx, word_hashes(words))
    keys[n:] = judgments.keys
    keys >>= low
    keys <<= low
    keys |= np.arange(n + m, dtype=np.uint64)
    keys.sort()
    at = (keys & ((np.uint64(1) << low) - np.uint64(1))).astype(np.int64)
    keys >>= low
    equal = keys[1:] == keys[:-1]
    if (equal[1:] & equal[:-1]).any():
        return _by_words(qidx, words, judgments)
    first = np.flatnonzero(equal)
    row, judged = np.minimum(at[first], at[first + 1]), np.maximum(at[first], at[first + 1]) - n
    pair = (row < n) & (judged >= 0)
    row, judged = row[pair], judged[pair]
    same = _same(words, row, judgments.docs, judged)
    row, judged = row[same], judged[same]
    by_row = np.argsort(row)
    return row[by_row], judgments.grades[judged[by_row]]


def _by_words(qidx: np.ndarray, words: tuple[np.ndarray, ...],
              judgments: DictJudgments) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_matched` by one sort of rows and judgments on (query, doc id words)."""
    n, m = qidx.size, judgments.keys.size

    def column(side: tuple[np.ndarray, ...], size: int, k: int) -> np.ndarray:
        return side[k] if k < len(side) else np.zeros(size, dtype=np.uint64)

    both = [np.concatenate((column(words, n, k), column(judgments.docs, m, k)))
            for k in range(max(len(words), len(judgments.docs)))]
    queries = np.concatenate((qidx, judgments.qidx))
    order = np.lexsort((*reversed(both), queries))
    equal = queries[order][1:] == queries[order][:-1]
    for w in both:
        equal &= w[order][1:] == w[order][:-1]
    first = np.flatnonzero(equal)
    row, judged = order[first], order[first + 1] - n  # a row sorts before its judgment
    by_row = np.argsort(row)
    return row[by_row], judgments.grades[judged[by_row]]
