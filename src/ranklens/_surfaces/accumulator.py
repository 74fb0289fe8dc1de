"""``Accumulator``: evaluation inside a training loop, one batch at a time.

A validation epoch hands the accumulator its batches (score matrices, flat arrays with
query indexes, PyTorch tensors on any device, or run and judgment tables);
:meth:`Accumulator.compute` evaluates everything seen once, through the engine every
other surface uses: the rows are grouped by query once for all measures, cut into blocks
of whole queries, and each block goes ``compute(block=True)`` -> ``partial_of``; the
partials are merged and assembled (``_pipeline.assemble``), so the policies are checked
once on the whole evaluation and the aggregates are trec_eval's.

State and memory
----------------
An update keeps its rows, compactly: a query number (int64), the label and the score
(float64) of each row; a table update keeps its frames. Query ids are interned: a
dictionary maps each id seen to its number, so memory grows with the rows and queries
seen, never with the values of the ids (10**18 as a user id costs what 7 does). The rows
are kept, not folded into per-query values, because a query given in several updates is
one query (below): its ranking is only known at :meth:`~Accumulator.compute`.

A query in several updates
--------------------------
``repeated="concatenate"`` (the default, and torchmetrics' behaviour): the rows of one
query id from any updates, and from any accumulator merged in, form one query, in the
order they arrived (update order, then merge order). ``repeated="error"``: an id seen in
an earlier update (or in a merged accumulator) is an error naming it, for loops in which
every batch holds whole queries and a repeat is a bug. Score matrices given without ids
number their rows on from the queries already seen, so they never repeat.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._base.lazy import polars as pl
from .._base.tuning import ACCUMULATOR_ROWS as BLOCK_ROWS

if TYPE_CHECKING:
    from typing_extensions import Unpack

from .._base.errors import InputError, MeasureError, ParameterError, RanklensWarning
from .._base.validate import Choice, Integer, check
from .._ingest.io._load import load_qrels, load_run
from .._ingest.tables import Qrels, ReaderHints, Run
from .._measures import Measure
from .._pipeline.assemble import assemble, grade_notices, notices
from .._pipeline.blocks import compute_block, settle
from .._pipeline.compute import relevance_level
from .._pipeline.options import EvaluateOptions, OptionKwargs, options_of
from .._pipeline.partials import policy_values
from .._pipeline.plan import Plan, make_plan
from .._results.result import Result

__all__ = ["BLOCK_ROWS", "Accumulator"]

Repeated = Literal["concatenate", "error"]
_SOURCE = "<accumulator>"
#: The pickled state: its key -> the attribute it holds (besides "rows", the array chunks).
_STATE = {"measures": "_measures", "options": "_options", "repeated": "_repeated",
          "ignore_index": "_ignore_index", "kind": "_kind", "ids": "_id_list",
          "n_anonymous": "_n_anonymous", "tables": "_tables", "users": "_users"}


def _numpy(value: Any, what: str) -> np.ndarray:
    """``value`` as a NumPy array: a tensor detached and moved to the CPU once (torch is
    never imported here), anything else through ``np.asarray``."""
    if type(value).__module__.split(".")[0] == "torch" and hasattr(value, "detach"):
        tensor = value.detach()
        if tensor.device.type != "cpu":
            tensor = tensor.cpu()
        if not tensor.dtype.is_floating_point and not tensor.dtype.is_complex:
            return np.asarray(tensor.numpy())
        # bfloat16 and half have no NumPy twin that every build reads: float64 is exact
        return np.asarray(tensor.double().numpy())
    try:
        return np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"the {what!r} argument must be an array; got a "
                         f"{type(value).__name__} NumPy cannot read (ragged nested lists?)"
                         ) from None


def _real(arr: np.ndarray, what: str) -> np.ndarray:
    """float64 values of a numeric array: finite, never NaN (a diverged model's NaN scores
    are an error, not a silently unretrieved document)."""
    if arr.dtype.kind not in "biuf":
        raise InputError(f"the {what!r} argument must hold real numbers; got dtype "
                         f"{arr.dtype}")
    values = arr.astype(np.float64, copy=False)
    bad = ~np.isfinite(values)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        found = values[where]
        raise InputError(
            f"the {what!r} argument must hold finite numbers; got {found} at position "
            f"{where[0] if len(where) == 1 else where} (to leave a padded candidate out, "
            "give it the label ignore_index)")
    return values


def _ids(arr: np.ndarray, what: str) -> np.ndarray:
    """Query ids: integers (any size NumPy holds) or strings; one flat array."""
    if arr.dtype.kind in "iuUT":
        return arr.ravel()
    if arr.dtype.kind == "O" and all(isinstance(v, str) for v in arr.ravel().tolist()):
        return arr.ravel().astype(str)
    raise InputError(f"the {what!r} argument must hold integer or string query ids; got "
                     f"dtype {arr.dtype}")


def _is_table(value: Any) -> bool:
    """A run or judgments given as a table (frame, Run, Qrels, mapping), not an array."""
    if isinstance(value, (Run, Qrels, dict)):
        return True
    module = type(value).__module__.split(".")[0]
    return module in ("polars", "pandas") or (
        module == "pyarrow" and type(value).__name__ in ("Table", "RecordBatch"))


class Accumulator:
    """Evaluate batch by batch: ``update`` in the loop, ``compute`` at the end.

    Parameters
    ----------
    measures : str, Measure or list of them
        As in :func:`ranklens.evaluate` (``"nDCG@10"``, ``"MAP"``, ``"HitRate@10"``...).
    repeated : {"concatenate", "error"}, default "concatenate"
        A query id given in several updates (or in merged accumulators): its rows form
        one query, in arrival order (torchmetrics' behaviour), or an error.
    ignore_index : int, optional
        Rows whose label equals it are dropped at update, from the scores as well
        (torchmetrics' ``ignore_index``; the way to pad ragged candidate lists).
    **options
        Any option of :func:`ranklens.evaluate`: ``convention="torchmetrics"`` gives
        torchmetrics' ``Retrieval*`` values (docs/training.md; default ``"trec"``),
        ``empty`` its ``empty_target_action``, and ``ties``, ``nonpositive``...

    Raises
    ------
    ParameterError
        ``measures`` is not a measure name, a Measure or a list of them; an unknown option.
    MeasureError
        An unknown measure, or one that needs item tables (``Coverage@k``, ``Novelty@k``...):
        the accumulator takes none, so it is refused here rather than after an epoch.

    Examples
    --------
    Two batches of a score matrix (one row per query, every candidate labelled):

    >>> import ranklens
    >>> acc = ranklens.Accumulator(["nDCG@2", "RR"], convention="torchmetrics")
    >>> acc.update([[0.9, 0.2, 0.4]], [[0, 0, 1]])
    >>> acc.update([[0.1, 0.8, 0.3]], [[0, 1, 0]])
    >>> r = acc.compute()
    >>> r["RR"], r.per_query("RR")
    (0.75, {'0': 0.5, '1': 1.0})

    Flat arrays with query ids; a worker's accumulator merged in (after a pickle
    round trip, as ``all_gather_object`` or a process pool sends it):

    >>> import pickle
    >>> a = ranklens.Accumulator("P@2")
    >>> a.update([0.9, 0.1, 0.5], [1, 0, 1], indexes=[7, 7, 7])
    >>> b = ranklens.Accumulator("P@2")
    >>> b.update([0.3, 0.6], [0, 1], indexes=[10**15, 10**15])
    >>> a.merge(pickle.loads(pickle.dumps(b))).compute().per_query("P@2")
    {'0000000000000007': 1.0, '1000000000000000': 0.5}
    """

    def __init__(self, measures: str | Measure | Iterable[str | Measure], *,
                 repeated: Repeated = "concatenate", ignore_index: int | None = None,
                 **options: Unpack[OptionKwargs]) -> None:
        check("repeated", repeated, Choice(("concatenate", "error")))
        check("ignore_index", ignore_index, Integer(none=True))
        if not isinstance(measures, (str, Measure, Iterable)):
            raise ParameterError("the 'measures' argument must be a measure name, a Measure "
                                 "or a list of them (Accumulator(['nDCG@10', 'AP'])); got "
                                 f"{type(measures).__name__}")
        self._measures = [measures] if isinstance(measures, (str, Measure)) \
            else list(measures)
        self._options: EvaluateOptions = options_of(options.pop("options", None), **options)
        self._repeated: Repeated = repeated
        self._ignore_index = ignore_index
        self._plan: Plan = make_plan(self._measures, self._options)  # a bad request fails now
        tabled = [str(m) for m in self._plan.canonical if m.definition.items.needs]
        if tabled:  # refused now: found at compute(), it would cost a whole epoch
            raise MeasureError(
                f"{', '.join(tabled)} need item tables (a catalogue, training interactions, "
                "features or groups), which the accumulator does not take: evaluate "
                "them with ranklens.evaluate(..., items=..., train=...) after the epoch")
        self.reset()

    # -- state ---------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget every update (the measures and options stay)."""
        #: "named" (ids given), "anonymous" (score matrix rows numbered) or "tables"
        self._kind: str | None = None
        self._code: dict[Any, int] = {}  # query id -> query number (named)
        self._id_list: list[Any] = []  # query number -> query id (named)
        self._n_anonymous = 0
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._tables: list[tuple[pl.DataFrame, pl.DataFrame]] = []
        self._users = False

    @property
    def n_queries(self) -> int:
        """The number of distinct queries seen so far (table updates: their run's)."""
        if self._kind == "tables":
            return int(pl.concat([r.select("query_id") for _, r in self._tables])
                       ["query_id"].n_unique())
        return self._n_anonymous if self._kind == "anonymous" else len(self._id_list)

    def __getstate__(self) -> dict[str, Any]:
        """Plain data (arrays, lists, frames, the options): what a pickle or
        ``torch.distributed.all_gather_object`` sends; the plan is rebuilt on arrival."""
        return {**{key: getattr(self, name) for key, name in _STATE.items()},
                "rows": self._rows()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._measures, self._options = state["measures"], state["options"]
        self._plan = make_plan(self._measures, self._options)
        self.reset()
        # "users" is absent from the pickles of earlier versions: it keeps reset()'s value
        for key, name in _STATE.items():
            if key in state:
                setattr(self, name, state[key])
        self._id_list, self._tables = list(self._id_list), list(self._tables)
        self._code = {q: i for i, q in enumerate(self._id_list)}
        if state["rows"][0].size:
            self._chunks = [state["rows"]]

    def _rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every array update's rows, as one chunk (kept as one from then on)."""
        if len(self._chunks) > 1:
            codes, labels, scores = zip(*self._chunks, strict=True)
            self._chunks = [(np.concatenate(codes), np.concatenate(labels),
                             np.concatenate(scores))]
        if self._chunks:
            return self._chunks[0]
        return (np.zeros(0, np.int64), np.zeros(0), np.zeros(0))

    def _set_kind(self, kind: str) -> None:
        if self._kind is not None and self._kind != kind:
            said = {"named": "arrays with query ids", "anonymous": "score matrices without "
                    "query ids", "tables": "run and judgment tables"}
            raise InputError(
                f"this accumulator holds {said[self._kind]}; got {said[kind]}: give every "
                "update (and every accumulator merged) in one form; matrices may give their "
                "query ids with indexes=")
        self._kind = kind

    # -- update --------------------------------------------------------------------------
    def update(self, preds: Any, target: Any, indexes: Any = None) -> None:
        """Add a batch.

        Parameters
        ----------
        preds : array-like, tensor, or a run table
            Scores, higher ranking first: a ``(queries, candidates)`` matrix (one row per
            query) or a flat array with ``indexes``. NumPy arrays, lists and PyTorch
            tensors on any device (detached and moved to the CPU once; no graph is kept).
            Or a run as :func:`ranklens.load_run` reads it (frame, mapping, ``Run``).
        target : array-like, tensor, or a judgments table
            The labels (binary or graded) of ``preds``, of its shape; or the judgments
            of a run table, as :func:`ranklens.load_qrels` reads them.
        indexes : array-like, optional
            The query id of each row (64-bit integers, or strings): with flat
            arrays, one per element (torchmetrics' ``indexes``; a matrix of ids of the
            shape of ``preds`` is flattened with it); with a score matrix, one per row.
            Without it a matrix's rows are new queries, numbered on.

        Raises
        ------
        InputError
            Shapes that do not match, NaN or infinite values, labels or scores that are
            not numbers, ids that are neither integers nor strings, a repeated query
            under ``repeated="error"``, or a form other than the earlier updates'.
        """
        if _is_table(preds) or _is_table(target):
            self._update_tables(preds, target, indexes)
            return
        scores = _numpy(preds, "preds")
        labels = _numpy(target, "target")
        if scores.shape != labels.shape:
            raise InputError(f"the 'target' argument must have the shape of 'preds', "
                             f"{scores.shape}; got {labels.shape}")
        if scores.ndim not in (1, 2):
            raise InputError("the 'preds' argument must be a score matrix (queries x "
                             f"candidates) or a flat array; got shape {scores.shape}")
        scores = _real(scores, "preds")
        labels = _real(labels, "target")
        if indexes is None:
            if scores.ndim == 1:
                raise InputError("the 'indexes' argument must give the query of each "
                                 "element of flat 'preds'; got None (a score matrix, one "
                                 "row per query, needs none)")
            self._set_kind("anonymous")
            rows = np.arange(scores.shape[0], dtype=np.int64) + self._n_anonymous
            codes = np.repeat(rows, scores.shape[1])
            self._n_anonymous += scores.shape[0]
        else:
            index_array = _numpy(indexes, "indexes")
            given = _ids(index_array, "indexes")
            if given.size == scores.size:
                flat_ids = given
            elif scores.ndim == 2 and given.size == scores.shape[0]:
                flat_ids = np.repeat(given, scores.shape[1])
            else:
                raise InputError(
                    "the 'indexes' argument must hold one query id per element of 'preds' "
                    f"{scores.shape}, or one per row; got shape {index_array.shape}")
            self._set_kind("named")
            codes = self._intern(flat_ids)
        labels, scores = labels.ravel(), scores.ravel()
        if self._ignore_index is not None:
            keep = labels != self._ignore_index
            codes, labels, scores = codes[keep], labels[keep], scores[keep]
        if codes.size:
            self._chunks.append((codes, labels, scores))

    def _intern(self, flat_ids: np.ndarray) -> np.ndarray:
        """The query number of each id, new ids numbered on (one dictionary look-up per
        distinct id of the batch, not per row)."""
        distinct, inverse = np.unique(flat_ids, return_inverse=True)
        values = distinct.tolist()
        known = self._code
        kinds = {type(v) for v in values} | {type(v) for v in self._id_list[:1]}
        if len(kinds) > 1:
            raise InputError("the 'indexes' argument must hold ids of one kind across "
                             f"updates; got {' and '.join(sorted(k.__name__ for k in kinds))}")
        seen = [v for v in values if v in known] if self._repeated == "error" else []
        if seen:
            raise InputError(
                f"queries {seen[:5]} were given in an earlier update (repeated='error'); "
                "give each query's candidates in one update, or pass repeated='concatenate'")
        numbers = np.empty(len(values), dtype=np.int64)
        for i, value in enumerate(values):
            code = known.get(value)
            if code is None:
                code = known[value] = len(self._id_list)
                self._id_list.append(value)
            numbers[i] = code
        return numbers[inverse.ravel()]

    def _update_tables(self, run: Any, qrels: Any, indexes: Any) -> None:
        if indexes is not None:
            raise InputError("the 'indexes' argument is for arrays; a run table names its "
                             "queries (got indexes with a table)")
        self._set_kind("tables")
        run_table, qrels_table = load_run(run), load_qrels(qrels)
        # read from user and item columns: the notices say users and items
        users = run_table.hints.users and qrels_table.hints.users
        self._users = users and (self._users or not self._tables)
        run_frame = run_table.frame.select("query_id", "doc_id", "score")
        qrels_frame = qrels_table.frame.select("query_id", "doc_id", "relevance")
        if self._ignore_index is not None:  # gone from the judgments and the run
            ignored = qrels_frame.filter(pl.col("relevance") == self._ignore_index)
            qrels_frame = qrels_frame.filter(pl.col("relevance") != self._ignore_index)
            run_frame = run_frame.join(ignored.select("query_id", "doc_id"),
                                       on=["query_id", "doc_id"], how="anti",
                                       maintain_order="left")
        self._add_tables(qrels_frame, run_frame)

    def _add_tables(self, qrels_frame: pl.DataFrame, run_frame: pl.DataFrame) -> None:
        if self._repeated == "error" and self._tables:
            before = pl.concat([f.select("query_id") for f, _ in self._tables]).unique()
            now = pl.concat([qrels_frame.select("query_id"), run_frame.select("query_id")])
            twice = now.unique().join(before, on="query_id")
            if twice.height:
                raise InputError(
                    f"queries {sorted(twice['query_id'].to_list())[:5]} were given in an "
                    "earlier update (repeated='error'); give each query in one update, or "
                    "pass repeated='concatenate'")
        self._tables.append((qrels_frame, run_frame))

    # -- merge ---------------------------------------------------------------------------
    def merge(self, other: Accumulator) -> Accumulator:
        """Add ``other``'s updates after this one's (a worker's, sent by pickle); returns
        this accumulator.

        Raises
        ------
        ParameterError
            ``other`` is not an Accumulator or evaluates other measures or options.
        InputError
            Another form of input, or a query in both under ``repeated="error"``.
        """
        if not isinstance(other, Accumulator):
            raise ParameterError("the 'other' argument must be an Accumulator; got a "
                                 f"{type(other).__name__}")
        if other is self:
            raise ParameterError("the 'other' argument must be another Accumulator; got this "
                                 "one (merging it into itself would count its rows twice)")
        mine = (self._plan.names, self._options, self._repeated, self._ignore_index)
        theirs = (other._plan.names, other._options, other._repeated, other._ignore_index)
        if mine != theirs:
            raise ParameterError(
                "the 'other' argument must evaluate the same measures under the same "
                f"options; got {list(theirs[0])} ({theirs[1].given()}) for "
                f"{list(mine[0])} ({mine[1].given()})")
        if other._kind is None:
            return self
        self._set_kind(other._kind)
        if other._kind == "tables":
            self._users = other._users and (self._users or not self._tables)
            for qrels_frame, run_frame in other._tables:
                self._add_tables(qrels_frame, run_frame)
            return self
        codes, labels, scores = other._rows()
        if other._kind == "anonymous":
            self._chunks.append((codes + self._n_anonymous, labels, scores))
            self._n_anonymous += other._n_anonymous
            return self
        ids = np.asarray(other._id_list)
        self._chunks.append((self._intern(ids)[codes], labels, scores))
        return self

    # -- compute -------------------------------------------------------------------------
    def compute(self) -> Result:
        """The :class:`Result` of every update so far (they are kept: compute again later).

        ``diagnostics["empty_queries"]`` counts, per measure, the queries without a
        relevant label: they score 0 and count (``empty="zero"``), where
        :func:`ranklens.evaluate` on judgments listing only relevant items never sees them;
        ``empty="skip"`` leaves them out (docs/training.md, "Which queries count").

        Raises
        ------
        InputError
            No update yet, no row left (every label ``ignore_index``), or a policy of the
            evaluation (``empty="error"``...) fails.
        """
        if self._kind is None:
            raise InputError("the accumulator holds no data: call update() before "
                             "compute()")
        if self._kind != "tables" and not self._rows()[0].size:
            raise InputError(
                "the updates hold no rows to evaluate" if self._ignore_index is None else
                f"every label given to update() equals ignore_index ({self._ignore_index}):"
                " no row is left to evaluate; pad with ignore_index only the candidates to "
                "leave out")
        plan = self._plan
        merged = settle(plan, [compute_block(plan, qrels, run) for qrels, run in self._blocks()],
                        qrels_source=_SOURCE, run_source=_SOURCE)
        grades = self._rows()[1] if self._kind != "tables" else pl.concat(
            [q["relevance"] for q, _ in self._tables]).to_numpy()
        for message in [*grade_notices(plan.speaking(self._users), grades, _SOURCE),
                        *notices(plan.speaking(self._users), merged, _SOURCE,
                                 qrels_source=_SOURCE)]:
            warnings.warn(message, RanklensWarning, stacklevel=2)
        result = assemble(plan.speaking(self._users), merged, plan.run_name or "run",
                          run_source=_SOURCE, qrels_source=_SOURCE)
        assert merged.values is not None  # compute_block keeps the per-query values
        # the queries evaluate() leaves out when the judgments list only relevant items
        empty = {name: int(policy_values(plan, at, merged.values)[2].sum())
                 for at, name in enumerate(plan.names)}
        return dataclasses.replace(
            result, integer_query_ids=result.integer_query_ids or self._integer_ids(),
            diagnostics={**result.diagnostics,
                         "empty_queries": {name: n for name, n in empty.items() if n}})

    def _integer_ids(self) -> bool:
        """Whether the query ids are integers >= 0 (given back as such by ``to_polars``)."""
        if self._kind == "anonymous":
            return True
        return (self._kind == "named" and bool(self._id_list)
                and isinstance(self._id_list[0], int) and min(self._id_list) >= 0)

    def _blocks(self) -> Iterator[tuple[Qrels, Run]]:
        """The judgments and run of blocks of whole queries, every row grouped by query
        once (one stable sort: each query's rows stay in arrival order)."""
        if self._kind == "tables":
            qrels = Qrels(pl.concat([q for q, _ in self._tables]), _SOURCE)
            yield qrels, Run(pl.concat([r for _, r in self._tables]), _SOURCE)
            return
        codes, labels, scores = self._rows()
        if codes.size > 1 and (codes[1:] < codes[:-1]).any():  # matrices come in order
            order = np.argsort(codes, kind="stable")
            codes, labels, scores = codes[order], labels[order], scores[order]
        n_queries = self.n_queries
        counts = np.bincount(codes, minlength=n_queries)
        starts = np.concatenate(([0], np.cumsum(counts)))
        position = np.arange(codes.size, dtype=np.int64) - np.repeat(starts[:-1], counts)
        longest = int(position.max()) + 1 if position.size else 1
        # each position's id made once, then gathered: rows share a few distinct doc ids
        doc_names = pl.Series("doc_id", [str(i).zfill(len(str(longest - 1)))
                                         for i in range(longest)], dtype=pl.String)
        names = self._query_names(n_queries)
        thin = self._zero_grades_unread()
        # blocks of whole queries of about BLOCK_ROWS rows
        cuts = np.searchsorted(starts, np.arange(0, codes.size, BLOCK_ROWS), side="right") - 1
        bounds = [*sorted(set(cuts.tolist())), n_queries]
        for lo, hi in itertools.pairwise(bounds):
            if hi <= lo:
                continue
            rows = slice(int(starts[lo]), int(starts[hi]))
            present = counts[lo:hi] > 0
            doc_ids = doc_names.gather(position[rows])
            block_names = pl.Series("query_id", names[lo:hi], dtype=pl.String)
            query_ids = block_names.filter(pl.Series(present))
            first = position[rows] == 0
            # labels of 0 are left out when no measure tells them from unjudged documents
            # (each query keeps its first row, so that it stays a judged query): the
            # judgments to index and match are then the relevant ones, 5% of the rows in a
            # typical validation set, not all of them
            judged = (labels[rows] != 0) | first if thin else np.ones(first.size, dtype=bool)
            # the work the indexes would redo: the judgments come in blocks of one query
            # (a query's first row starts one), and the doc ids' hashes are the run's
            qrels = Qrels(pl.DataFrame(
                [block_names.gather(codes[rows][judged] - lo),
                 doc_ids.filter(pl.Series(judged)) if thin else doc_ids,
                 pl.Series("relevance", labels[rows][judged])]),
                # the work the indexes would redo: the judgments come in blocks of one
                # query (a query's first row starts one), and the doc ids' hashes are the run's
                _SOURCE, integer_query_ids=self._integer_ids(),
                hints=ReaderHints(block_starts=pl.Series(first[judged])))
            run = Run.from_blocks(query_ids, counts[lo:hi][present], doc_ids, scores[rows],
                                  _SOURCE, "run",
                                  hints=ReaderHints(doc_hashes=doc_ids.hash(0).to_numpy().copy()))
            yield qrels, run

    def _zero_grades_unread(self) -> bool:
        """Whether no measure of the plan tells a label of 0 from an unjudged document:
        each declares it (``zero_grade_unread``) and counts relevant documents at a level
        >= 1, and no unjudged document is dropped (``judged_only``). Not under
        ``ties="average"``: a value averaged over enumerated tied orders may round differently
        in its last bit without them, and the accumulator equals ``evaluate`` bit for bit."""
        plan = self._plan
        return not plan.policies.judged_only and plan.policies.ties != "average" and all(
            not m.definition.reads_zero_grades(m) and relevance_level(m, plan.policies.rel) >= 1
            for m in plan.canonical)

    def _query_names(self, n_queries: int) -> np.ndarray:
        """Each query number's id as the engine holds it: integers zero-padded to one
        width (so that trec_eval's byte order is their numeric order), text as given."""
        values = list(range(n_queries)) if self._kind == "anonymous" else self._id_list
        if values and self._integer_ids():
            width = len(str(max(values)))
            return np.array([str(v).zfill(width) for v in values], dtype=object)
        return np.array([str(v) for v in values], dtype=object)

    def __repr__(self) -> str:
        return (f"Accumulator({list(self._plan.names)}, {self.n_queries} queries, "
                f"convention={self._plan.conventions['convention']!r})")
