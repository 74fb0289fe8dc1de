"""Nested dicts aligned without tables: ``{query: {doc: value}}`` straight to :class:`Aligned`.

For small inputs the fixed costs of the tables (polars columns, a call per step) are most
of an evaluation's time, close to what pytrec_eval takes for the whole evaluation. Here
the dicts are read in a few C-level
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
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import polars as pl
else:  # imported on first use (see ranklens._base.lazy)
    from .._base.lazy import polars as pl

from .._base.tuning import DICT_ROWS as SMALL_ROWS
from .._ingest.columns import MAX_GRADE
from .align import Coded, Judgments, build, evaluated_judgments
from .aligned import Aligned
from .diagnostics import Diagnostics
from .keys import PairKeys, index_dtype, word_hashes
from .policies import Policies
from .ranking import RunIndex

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
    qidx : each judgment's query number (rows query by query).
    words : each judgment's doc id as big-endian words (see the module docstring).
    sorted_qidx, sorted_grade : the judgments by query then grade descending.
    hashes : each judgment's hashed pair key (:class:`~ranklens._model.keys.PairKeys`).
    """

    query_ids: list[str]
    grades: np.ndarray
    qidx: np.ndarray
    words: tuple[np.ndarray, ...]
    sorted_qidx: np.ndarray
    sorted_grade: np.ndarray
    hashes: np.ndarray


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


def _stable(groups: np.ndarray) -> np.ndarray:
    """A stable argsort of small non-negative integers (NumPy's radix sort at 16 bits)."""
    if groups.size and int(groups.max()) < 1 << 16:
        return np.argsort(groups.astype(np.uint16, copy=False), kind="stable")
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
    words = _words(per_query, n)
    if n == 0 or grades is None or words is None:
        return None
    qidx = np.repeat(np.arange(len(query_ids), dtype=index_dtype(len(query_ids))), lengths)
    by_grade = np.argsort(-grades, kind="stable")
    by_grade = by_grade[_stable(qidx[by_grade])]
    hashes = np.empty(n, dtype=np.uint64)
    word_hashes(words, hashes)
    PairKeys.hashed(len(query_ids)).into(hashes, qidx)
    return DictJudgments(query_ids, grades, qidx, words, qidx[by_grade], grades[by_grade],
                         hashes)


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
    dicts as codes (rows ranked, matched on their words), built by the one builder
    (:func:`~ranklens._model.align.build`).

    Raises
    ------
    InputError
        What :func:`~ranklens._model.policies.check_coverage` raises.
    """
    ids, lengths = judgments.query_ids, run.lengths
    nq = len(ids)
    qidx = np.repeat(np.arange(nq, dtype=index_dtype(nq)), lengths)
    rows, grades = _matched(qidx, run.words, judgments)
    order = _ranked(qidx, run.scores, None if policies.ties == "input" else run.words, rows)
    n = order.size
    at = np.empty(n, dtype=order.dtype)
    at[order] = np.arange(n, dtype=at.dtype)  # where each row is ranked
    position = at[rows]
    by_position = np.argsort(position)
    judged = (position[by_position].astype(np.int64), grades[by_position])
    # the run's queries are the judged ones it gives rows, in the judgments' order
    run_of = np.flatnonzero(lengths)
    offsets = np.zeros(run_of.size + 1, dtype=np.int64)
    np.cumsum(lengths[run_of], out=offsets[1:])
    run_ids = pl.Series(list(map(ids.__getitem__, run_of.tolist())), dtype=pl.String)
    index = RunIndex(query_ids=run_ids, moves=order,
                     keys=np.zeros(0, dtype=np.uint64), offsets=offsets, duplicated=False)

    def match(code: np.ndarray | None, kept: np.ndarray | None, block_q: np.ndarray,
              nq: int) -> tuple[np.ndarray, np.ndarray]:
        if kept is None:
            return judged
        if not kept.size:
            return judged[0][:0], judged[1][:0]
        found = np.minimum(np.searchsorted(kept, judged[0]), kept.size - 1)
        hit = kept[found] == judged[0]
        return found[hit].astype(np.int64), judged[1][hit]

    coded = Coded(
        judged_ids=ids, query_array=np.array(ids, dtype=object), index=index, run_of=run_of,
        empty=(lengths == 0) & ~run.absent, ignored=run.ignored, score=run.scores,
        sources=(RUN_SOURCE, QRELS_SOURCE), drop=None,
        judgments=lambda kept, _: Judgments(evaluated_judgments(
            judgments.sorted_qidx, judgments.sorted_grade, kept), match),
        source_rows=False)
    return build(coded, policies)


def _ranked(qidx: np.ndarray, scores: np.ndarray, words: tuple[np.ndarray, ...] | None,
            judged: np.ndarray) -> np.ndarray:
    """The rows (query by query, ``qidx`` ascending) in ranked order: by query, score
    descending, ties by doc id descending (byte-wise, trec_eval's), or in the rows' order
    (``words`` None: ``ties="input"``).

    Only the tied groups holding a ``judged`` row are put in doc id order: what a measure
    reads of a ranking is where the judged documents stand and the scores at each rank,
    and a group of unjudged documents, equal in score, reads the same in any order (a
    quarter of DL 2019's tied rows need no sort)."""
    n = scores.size
    same = qidx[1:] == qidx[:-1]
    if ((scores[1:] > scores[:-1]) & same).any():
        # tied rows come out in any order here, unless they keep the input's
        order = np.argsort(-scores, kind="stable" if words is None else None)
        order = order[_stable(qidx[order])]
        ranked = scores[order]
    else:  # how runs are usually given: each ranking already by score descending
        order = np.arange(n, dtype=index_dtype(n))
        ranked = scores
    if words is None:
        return order
    # NumPy comparisons treat -0.0 and 0.0 as equal: one tie, as in trec_eval
    tie = ranked[1:] == ranked[:-1]
    tie &= same
    if not tie.any():
        return order
    # each row's group of equal scores, numbered from 0 (a row starts one unless it ties
    # with the row before it); small numbers, which a radix sort orders
    new = np.empty(n, dtype=bool)
    new[0] = False
    np.invert(tie, out=new[1:])
    group = np.cumsum(new, dtype=np.uint16 if n <= 1 << 16 else np.int64)
    if ranked is scores:  # given by score descending: the rows stand where they rank
        ranked_at = judged
    else:
        where = np.empty(n, dtype=order.dtype)
        where[order] = np.arange(n, dtype=order.dtype)
        ranked_at = where[judged]
    sorted_group = np.zeros(int(group[-1]) + 1, dtype=bool)
    sorted_group[group[ranked_at]] = True
    tied = np.zeros(n, dtype=bool)
    tied[1:] = tie
    tied[:-1] |= tie
    tied &= sorted_group[group]
    at = np.flatnonzero(tied)
    groups = group[at]
    rows = order[at]
    inverted = []  # descending doc ids
    for w in words:
        key = w[rows]
        inverted.append(np.invert(key, out=key))
    if len(words) == 1:  # _by_group_then's two sorts, gathering int32 rows between them
        first = np.argsort(inverted[0])
        rows = rows[first]
        order[at] = rows[_stable(groups[first])]
    else:
        order[at] = rows[_by_group_then(groups, tuple(inverted))]
    return order


def _matched(qidx: np.ndarray, words: tuple[np.ndarray, ...],
             judgments: DictJudgments) -> tuple[np.ndarray, np.ndarray]:
    """The rows with a judgment (ascending) and its grade, matching (query, doc id) pairs.

    Each row and each judgment becomes one unsigned 64-bit value, a hash of its pair in
    the high bits and its own index in the low ones; one value sort puts equal hashes side
    by side, and two neighbours of equal hash, a row and a judgment of the same query and
    the same doc id words, are a match. Within a query neither side lists a doc twice, so a
    hash shared by three values is a collision that could hide a match: then (never seen)
    rows and judgments are sorted on the pairs themselves instead (:func:`_merged`)."""
    n, m = qidx.size, judgments.qidx.size
    low = max(1, (n + m - 1).bit_length())
    packed = np.empty(n + m, dtype=np.uint64)
    word_hashes(words, packed[:n])
    PairKeys.hashed(len(judgments.query_ids)).into(packed[:n], qidx)
    packed[n:] = judgments.hashes
    packed >>= np.uint64(low)
    packed <<= np.uint64(low)
    index = np.arange(n + m, dtype=np.uint64)
    packed |= index
    packed.sort()
    np.bitwise_and(packed, np.uint64((1 << low) - 1), out=index)
    packed >>= np.uint64(low)  # the hashes alone
    equal = packed[1:] == packed[:-1]
    if (equal[1:] & equal[:-1]).any():
        return _merged(qidx, words, judgments)
    first = np.flatnonzero(equal)
    a, b = index[first].astype(np.int64), index[first + 1].astype(np.int64)
    row, judgment = np.minimum(a, b), np.maximum(a, b) - n
    match = (row < n) & (judgment >= 0)
    row, judgment = row[match], judgment[match]
    match = qidx[row] == judgments.qidx[judgment]
    for k in range(max(len(words), len(judgments.words))):
        match &= _word(words, k, row) == _word(judgments.words, k, judgment)
    row, judgment = row[match], judgment[match]
    by_row = np.argsort(row)
    return row[by_row], judgments.grades[judgment[by_row]]


def _word(words: tuple[np.ndarray, ...], k: int, at: np.ndarray) -> np.ndarray:
    """Word ``k`` of the ids at ``at`` (0 past an id's last)."""
    return words[k][at] if k < len(words) else np.zeros(at.size, dtype=np.uint64)


def _merged(qidx: np.ndarray, words: tuple[np.ndarray, ...],
            judgments: DictJudgments) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_matched` by sorting rows and judgments together on (query, doc id words):
    a match is two equal neighbours."""
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
    rows = np.minimum(a, b)
    by_row = np.argsort(rows)
    return rows[by_row], judgments.grades[np.maximum(a, b)[by_row] - n]
