"""``evaluate``: plan -> load -> compute -> assemble, for one run or several."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar, overload

from .._base.errors import InputError, ParameterError
from .._base.threads import jobs as jobs_now
from .._base.threads import using
from .._base.warn import per_problem, warn_user
from .._ingest.io._load import _read_run as read_run
from .._ingest.io._load import _warn_infinite as warn_infinite
from .._ingest.io._load import infinite_notice, load_qrels
from .._ingest.io._peers import is_ranx_run, is_row_run
from .._ingest.io._run_names import name_runs, positions
from .._ingest.io.given_columns import Columns, with_columns
from .._ingest.io.headerless import column_names
from .._ingest.tables import Qrels, Run, SubtopicQrels
from .._measures import Measure
from .._model.dicts import QRELS_SOURCE, RUN_SOURCE, DictJudgments, dict_judgments, dict_run
from .._model.items import ItemContext
from .._model.matching import qrels_index
from .._pipeline.assemble import assemble, grade_notices, notices
from .._pipeline.compute import PerQuery
from .._pipeline.context import check_context, load_context
from .._pipeline.dicts import compute_dicts, fits
from .._pipeline.options import EvaluateOptions, OptionKwargs, with_options_doc
from .._pipeline.plan import Plan, planned
from .._pipeline.subsets import compute_run
from .._results.result import Result
from .._results.results import Results
from .chunked.choose import Chunking
from .chunked.engine import ChunkedEngine
from .chunked.progress import on_terminal
from .chunked.size import cores, estimated_rows, resolve_jobs
from .engine import by_subsets, choose_engine, query_subsets

if TYPE_CHECKING:
    from typing import TypeAlias

    import polars as pl
    from typing_extensions import Unpack

    OneRun: TypeAlias = Run | str | os.PathLike[str] | pl.DataFrame
    SeveralRuns: TypeAlias = list[Any] | tuple[Any, ...] | Mapping[str, OneRun]

__all__ = ["evaluate", "evaluate_dicts", "evaluate_loaded", "load_runs", "runs_of", "several_runs"]

MeasuresArg = str | Measure | Iterable[str | Measure]


# several runs (a list, a tuple or {name: run}) give Results, one run a Result (Any: either)
@overload
def evaluate(qrels: Any, run: SeveralRuns, measures: MeasuresArg, *,
             run_name: str | None = None, train: Any = None, items: Any = None,
             item_features: Any = None, item_groups: Any = None,
             memory_limit: int | str | None = None, jobs: int | None = None,
             columns: Columns = None,
             **options: Unpack[OptionKwargs]) -> Results: ...
@overload
def evaluate(qrels: Any, run: OneRun, measures: MeasuresArg, *,
             run_name: str | None = None, train: Any = None, items: Any = None,
             item_features: Any = None, item_groups: Any = None,
             memory_limit: int | str | None = None, jobs: int | None = None,
             columns: Columns = None,
             **options: Unpack[OptionKwargs]) -> Result: ...


@with_options_doc
def evaluate(qrels: Any, run: Any, measures: MeasuresArg, *, run_name: str | None = None,
             options: EvaluateOptions | None = None, train: Any = None, items: Any = None,
             item_features: Any = None, item_groups: Any = None,
             memory_limit: int | str | None = None, jobs: int | None = None,
             columns: Columns = None, **kwargs: Any) -> Result | Results:
    """Evaluate a run (or several) against relevance judgments.

    Defaults are trec_eval 10.0's semantics: scores sorted descending, ties broken by doc
    id descending (byte-wise), documents without a judgment count as non-relevant, R and
    the ideal DCG come from every judgment, and queries present only in the run are ignored.

    Parameters
    ----------
    qrels : path, mapping, DataFrame or Qrels
        Judgments: a TREC qrels file, ``{query_id: {doc_id: relevance}}``, a frame with
        ``query_id, doc_id, relevance`` columns, a ranx ``Qrels``, ir_measures /
        ir_datasets rows (``qrels_iter()``) or ``"irds:<dataset-id>"``. See
        :func:`load_qrels`. The diversity
        measures (``alpha-nDCG@k``, ``ERR-IA@k``, ``NRBP``, ``P-IA@k``, ``S-recall@k`` and
        their kin, docs/diversity.md) read subtopic judgments instead, a :class:`SubtopicQrels` from
        ``load_qrels(..., kind="subtopic")``; every other measure reads plain ones.
    run : path, mapping, DataFrame or Run; or several of them
        Results: a TREC run file, ``{query_id: {doc_id: score}}``, a frame with
        ``query_id, doc_id, score`` columns, a ranx ``Run`` or ir_measures ``ScoredDoc``
        rows. See :func:`load_run`.

        Several runs, evaluated with the same options against judgments loaded once: a
        list or tuple of runs (a path named by its file name without directory and
        suffixes, ``runs/bm25.run.gz`` -> ``bm25``, or by the shortest trailing part of its
        path that tells it apart when two would share one, ``a/bm25`` and ``b/bm25``; any
        other run by its TREC tag, or ``tag#position`` where the name is taken), or a
        mapping ``{name: run}``. A mapping is several runs when
        every value is a run in itself (a :class:`Run`, a path, a frame, a ranx ``Run``, a
        list of ``ScoredDoc`` rows, or a mapping whose
        values are all mappings, ``{query_id: {doc_id: score}}``); it is one run when no
        value is (``{query_id: {doc_id: score}}``). Empty mappings count as either; a
        mapping mixing the two kinds is an :class:`InputError`.
    measures : str, Measure or list of them
        Names such as ``"nDCG@10"``, ``"AP(denom=min)@3"``, ``"map_cut_10"``,
        ``"ndcg_burges@10"``. Every unknown name is reported at once.
    run_name : str, optional
        Name reported for the run (default: the TREC tag or "run"). Several runs are named
        by their mapping keys, file names or tags instead.
    <the evaluation options: EvaluateOptions' declarations>
    memory_limit : int or str, optional
        Evaluate files in bounded memory: when the judgments and the largest run (paths
        to TREC, CSV/TSV, JSON Lines or Parquet files, a directory or glob of Parquet files)
        would take more than this (``"2GB"``, ``"512MiB"``, or bytes) in memory, they are
        split by a hash of the query id into chunks in a temporary directory and each chunk
        is evaluated in turn (docs/scale.md). The values are the in-memory engine's, bit
        for bit. Inputs given as objects are evaluated in memory.
    jobs : int, optional
        Cores to use (default: one per core); the values do not depend on it. In memory,
        with more than one, each run file is read on a second thread ahead of its turn
        (the first while the judgments are read, each other one while the run before it
        is evaluated: two runs in memory at once), and a TREC run file's next block is
        parsed while one is kept;
        polars' own thread pool is sized when polars is first imported, so ``jobs=1``
        cannot shrink it afterwards (``polars.thread_pool_size()`` says its size; set
        ``POLARS_MAX_THREADS=1`` before importing polars, or use the command line's
        ``--jobs 1``, for one core throughout). Under ``memory_limit``, the worker
        processes evaluating chunks at once. Files that fit are never chunked.
    columns : str or sequence of str, optional
        The run files are headerless, with these columns (``"qid,docid,score"``; see
        :func:`load_run`). Each run given as a path is read so; other runs as given.
    options : EvaluateOptions, optional
        The options above as one value (``ranklens.EvaluateOptions(depth=100)``), to pass
        the same options to several calls; keywords may add to it, and an option given
        both ways with different values is a :class:`ParameterError`.
    train : path, frame, mapping or Interactions, optional
        Training interactions (``user item [weight]``), which the beyond-accuracy measures
        read for item popularity and user history (``Novelty@k``, ``ARP@k``, ...); any form
        :func:`load_interactions` reads. Users are the judgments' queries.
    items : path, frame, ids or ItemCatalogue, optional
        The item catalogue (``Coverage@k``, ``Gini@k``; default: the items of ``train``),
        with an optional group column; see :func:`load_items`.
    item_features : path, frame, mapping, (ids, matrix) or ItemFeatures, optional
        Item features or embeddings (``ILD@k``, ``ILS@k``); see :func:`load_item_features`.
    item_groups : path, frame, mapping or ItemGroups, optional
        A group per item (short head / long tail, or any other); see
        :func:`load_item_groups`. Docs: docs/beyond-accuracy.md.

    Returns
    -------
    Result or Results
        For one run a :class:`Result`: ``result["nDCG@10"]`` is the aggregate;
        ``result.per_query("nDCG@10")`` and ``result.to_polars()`` give per-query values.
        For several runs a :class:`Results`: ``results["bm25"]`` is one run's Result and
        ``results.values("nDCG@10")`` a ``(queries, runs)`` array on one query axis.

    See Also
    --------
    Judgments : the judgments read, checked and indexed once, then evaluated against many
        runs (every validation round of a training loop), each call giving what this
        function gives.

    Examples
    --------
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}}
    >>> run = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}}
    >>> r = evaluate(qrels, run, ["AP", "P@2", "nDCG@3"])
    >>> round(r["AP"], 4), r["P@2"]
    (0.8333, 0.5)
    >>> other = {"q1": {"d3": 0.9, "d1": 0.8}}
    >>> both = evaluate(qrels, {"mine": run, "other": other}, ["AP"])
    >>> both.aggregates("AP").round(4).tolist()
    [0.8333, 1.0]

    Beyond accuracy, with training interactions (popularity) and the catalogue:

    >>> train = {"u0": ["d1", "d2"], "u9": ["d1"]}
    >>> r = evaluate(qrels, run, ["Novelty@2", "Coverage@2"], train=train,
    ...              items=["d1", "d2", "d3", "d4"])
    >>> r["Novelty@2"], r["Coverage@2"]  # -(log2(2/2) + log2(1/2)) / 2; 2 of 4 items
    (0.5, 0.5)
    """
    plan = planned(measures, options, run_name=run_name, **kwargs)
    context = load_context(train, items, item_features, item_groups, plan.canonical)
    check_context(plan.canonical, context)
    # subtopic judgments come loaded (load_qrels(..., kind="subtopic")): their kind is
    # never guessed from a file
    several = runs_of(run, run_name)
    # files bigger than memory (or for several workers): by chunks; the beyond-accuracy
    # measures' item tables are read in memory
    runs = several if several is not None else [(run_name, run)]
    choice = choose_engine(plan, qrels, [r for _, r in runs], several=several is not None,
                           dict_judgments=type(qrels) is dict, context=context,
                           memory_limit=memory_limit, jobs=jobs)
    if isinstance(jobs, int) and not isinstance(jobs, bool) and jobs > cores():
        warn_user(f"jobs={jobs} is more than the {cores()} cores this process may use; "
                  f"using {cores()}")
    if choice.chunks is not None:
        if choice.chunks.note is not None:
            warn_user(choice.chunks.note)
        roles = column_names(columns)
        if roles is not None and not {"score", "rank"} & set(roles):
            # a file's order is lost when its blocks are read by different workers
            raise ParameterError(f"columns={columns!r} ranks rows in file order, which "
                                 "memory_limit= (read by chunks) cannot keep; add a score or "
                                 "rank column, or leave out memory_limit=")
        results, messages = _evaluate_chunked(plan, qrels, runs, choice.chunks, roles)
        warn_user(messages)
        _told(results, choice.chunks.describe())
        return results if several is not None else results[0]
    if columns is not None:  # in memory, the run paths are read here
        run = with_columns(run, columns)
        several = runs_of(run, run_name)
        runs = several if several is not None else [(run_name, run)]
    told = {"engine": "in memory", "jobs": resolve_jobs(jobs)}
    if choice.engine == "dicts":
        with using(resolve_jobs(jobs)):
            done = evaluate_dicts(plan, dict_judgments(qrels), run)
        if done is not None:
            return _told(done, told)
    # in memory, the jobs are threads (docs/scale.md, "Jobs"): each run file is read on a
    # second thread while the judgments are read (the first) or the run before it is
    # evaluated (the others), and a run file's next block is parsed while one is kept
    order = [(name if several is not None else plan.run_name, r) for name, r in runs]
    with using(resolve_jobs(jobs)), _Loader(order) as loader:
        with loader.beside(qrels):
            q = qrels if isinstance(qrels, SubtopicQrels) else load_qrels(qrels)
        loader.meanwhile(q)
        return _told(evaluate_loaded(plan, q, run, several, context=context,
                                     load=loader.load), told)


_R = TypeVar("_R", bound=Result | Results)


def _told(done: _R, engine: dict[str, Any]) -> _R:
    """``done``, each Result told what evaluated it (set in place: the results are new, and
    rebuilding a Results would align its runs' queries again)."""
    for result in [done] if isinstance(done, Result) else done.results:
        object.__setattr__(result, "engine", engine)
    return done


class _Loader:
    """Loads the runs of an in-memory evaluation, given in the order they are evaluated as
    ``(name, run)`` pairs. With more than one job, a run given as a file is read on a
    second thread ahead of its turn: the first from the start (while the judgments are read
    and indexed on this one), each other one while the run before it is evaluated (so two
    runs are in memory at once). Other runs, and every run with one job, are loaded when
    they are asked for.

    Its errors and warnings come where :func:`load_run` would give them: an error is raised
    when its run is asked for (after the judgments' and the runs' before it), and the
    warning of infinite scores is issued then, on the caller's thread.
    """

    def __init__(self, runs: list[tuple[str | None, Any]]) -> None:
        self.runs = runs
        self.next = 0  # the run to read ahead next
        self.pool: ThreadPoolExecutor | None = None
        self.ahead: tuple[Any, str | None, Future[Run]] | None = None
        if jobs_now() > 1:
            self.pool = ThreadPoolExecutor(1, thread_name_prefix="ranklens-run")
            self._read_next()

    def __enter__(self) -> _Loader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            # Ctrl-C ends at once: the run being read ahead may wait on a lock the interrupt
            # left held (an import's), and the command ends the process anyway
            self.pool.shutdown(wait=not isinstance(exc[1], KeyboardInterrupt),
                               cancel_futures=True)

    def _read_next(self) -> None:
        """Start reading the next run, if it is a file."""
        assert self.pool is not None
        if self.next < len(self.runs):
            name, run = self.runs[self.next]
            self.next += 1
            if isinstance(run, (str, os.PathLike)) and os.path.isfile(run):
                # the thread reads with this evaluation's jobs (ranklens._base.threads)
                self.ahead = (run, name, self.pool.submit(contextvars.copy_context().run,
                                                          read_run, run, name))

    def beside(self, qrels: Any) -> contextlib.AbstractContextManager[None]:
        """How the judgments ``qrels`` are read: with one job while the first run is read
        on the second thread when both are files that will likely be evaluated by query
        subsets (each file then parses on its own core, one block at a time: a lower peak
        in no more time), else with this evaluation's jobs (large judgments read with one
        job are slower)."""
        if self.ahead is None or not isinstance(qrels, (str, os.PathLike)):
            return contextlib.nullcontext()
        rows = judged = 0
        with contextlib.suppress(OSError):
            rows, judged = estimated_rows(str(self.ahead[0])), estimated_rows(str(qrels))
        return using(1) if by_subsets(judged, rows) else contextlib.nullcontext()

    def meanwhile(self, qrels: Qrels | SubtopicQrels) -> None:
        """While the first run is still being read, index the judgments (what the
        alignment does first, kept on them; it raises nothing) unless the run will likely
        be evaluated by query subsets, each indexing its own judgments
        (:mod:`ranklens._pipeline.subsets`; its rows estimated from its file's head, as
        chunking estimates them: a wrong guess costs the overlap or some memory, never a
        value)."""
        if self.ahead is not None and not self.ahead[2].done() and isinstance(qrels, Qrels):
            rows = 0
            with contextlib.suppress(OSError):
                rows = estimated_rows(str(self.ahead[0]))
            if not by_subsets(len(qrels), rows):
                qrels_index(qrels)

    def load(self, run: Any, name: str | None, label: str | None = None) -> Run:
        """:func:`_load_run` of ``run``."""
        if self.ahead is None or self.ahead[0] is not run or self.ahead[1] != name:
            loaded = _load_run(run, name, label)
            if self.pool is not None:
                self._read_next()
            return loaded
        future = self.ahead[2]
        self.ahead = None
        got = future.result()
        self._read_next()  # while this run is evaluated
        return warn_infinite(got, label)


def runs_of(run: Any, run_name: str | None) -> list[tuple[str | None, Any]] | None:
    """:func:`several_runs` of ``run``; a ``run_name`` given with several runs is a
    ParameterError."""
    several = several_runs(run)
    if several is not None and run_name is not None:
        raise ParameterError(
            f"the 'run_name' option names one run; got {run_name!r} with "
            f"{len(several)} runs (name them with a mapping {{name: run}})")
    return several


def evaluate_loaded(plan: Plan, q: Qrels | SubtopicQrels, run: Any,
                    several: list[tuple[str | None, Any]] | None, *,
                    context: ItemContext | None = None,
                    load: Callable[[Any, str | None, str | None], Run] | None = None
                    ) -> Result | Results:
    """:func:`evaluate` once the request is planned and the judgments loaded: ``run`` is
    one run, or ``several`` (:func:`several_runs`) are; warnings are issued at
    the public caller's line; ``context`` holds the beyond-accuracy
    measures' item tables; ``load(run, name, label)`` loads a run (default :func:`_load_run`)."""
    load = load or _load_run
    if isinstance(q, Qrels):
        rating = [q.hints.rating_note] if q.hints.rating_note and plan.policies.rel == 1 else []
        warn_user(rating + grade_notices(plan.speaking(q.hints.users), q.grades, q.source))
    if several is None:
        run_name = plan.run_name
        r = load(run, run_name, run_name)
        per_query = compute_run(plan, q, r, bounds=query_subsets(q, r, context), context=context)
        plan = plan.speaking(_users(q, r))
        warn_user(notices(plan, per_query, run_name if run_name is not None else r.source,
                          qrels_source=q.source))
        return _id_type(assemble(plan, per_query, run_name if run_name is not None
                                 else r.name, context=context),
                        isinstance(q, Qrels) and q.integer_query_ids)
    results, messages = _evaluate_several(plan, q, several, context, load)
    warn_user(messages)
    return results


def evaluate_dicts(plan: Plan, judgments: DictJudgments | None, run: Any) -> Result | None:
    """:func:`evaluate_loaded` of one run given as ``{query: {doc: score}}`` against
    ``judgments`` read from ``{query: {doc: grade}}``, aligned without tables: the same
    result and warnings, in the same order. None when the judgments (None), the run or the
    plan are not for this path (:mod:`ranklens._model.dicts`, :func:`fits`): nothing was
    said then, and the general path evaluates them."""
    if judgments is None or not fits(plan):
        return None
    rows = dict_run(judgments, run)
    if rows is None:
        return None
    warn_user(grade_notices(plan, judgments.grades, QRELS_SOURCE))
    per_query = compute_dicts(plan, judgments, rows)
    label = plan.run_name if plan.run_name is not None else RUN_SOURCE
    warn_user(notices(plan, per_query, label, qrels_source=QRELS_SOURCE))
    return assemble(plan, per_query, plan.run_name if plan.run_name is not None else "run")


def _load_run(run: Any, name: str | None, label: str | None = None) -> Run:
    """``load_run(run, name=name)``, its warning of infinite scores naming the run ``label``
    (as the run's other warnings do), else its source."""
    return run if isinstance(run, Run) else warn_infinite(read_run(run, name), label)


def _evaluate_several(plan: Plan, qrels: Qrels | SubtopicQrels,
                      runs: list[tuple[str | None, Any]],
                      context: ItemContext | None = None,
                      load: Callable[[Any, str | None, str | None], Run] = _load_run
                      ) -> tuple[Results, list[str]]:
    """Each run loaded (by ``load``), computed and assembled in turn (one run in memory at a
    time)."""
    computed = []
    notes: list[tuple[str, str]] = []
    labels = _labels(runs)
    for (name, run), given in zip(runs, labels, strict=True):
        r = load(run, name, given)
        per_query = compute_run(plan, qrels, r, bounds=query_subsets(qrels, r, context),
                                context=context)
        label = given if given is not None else r.source
        spoken = plan.speaking(_users(qrels, r))
        notes += [(label, m) for m in notices(spoken, per_query, label,
                                               qrels_source=qrels.source)]
        computed.append((name if name is not None else r.name, per_query, spoken))
        del r
    integer = isinstance(qrels, Qrels) and qrels.integer_query_ids
    return _named(runs, computed, integer, context), per_problem(notes)


def _evaluate_chunked(plan: Plan, qrels: Any, runs: list[tuple[str | None, Any]],
                      chunks: Chunking, columns: tuple[str, ...] | None = None
                      ) -> tuple[Results, list[str]]:
    """Each run evaluated by chunks against the judgments' chunks (written once), its
    values merged and assembled as a whole run's are; what to warn of, in the in-memory
    engine's order."""
    computed = []
    messages: list[str] = []
    notes: list[tuple[str, str]] = []
    with ChunkedEngine(plan, os.fspath(qrels), chunks.chunks, chunks.jobs, chunks.block,
                       on_terminal(), columns) as engine:
        info = engine.partition_qrels()
        messages += grade_notices(plan.speaking(info.users), info.grades, engine.qrels_path)
        for (name, run), given in zip(runs, _labels(runs), strict=True):
            path = os.fspath(run)
            per_query, tag, infinite, users = engine.evaluate_run(path, name)
            label = given if given is not None else path
            if infinite:
                notes.append((label, infinite_notice(label, infinite)))
            spoken = plan.speaking(users)
            notes += [(label, m) for m in notices(spoken, per_query, label,
                                                   qrels_source=engine.qrels_path)]
            computed.append((name if name is not None else tag, per_query, spoken))
    return _named(runs, computed, info.integer), messages + per_problem(notes)


def _named(runs: list[tuple[str | None, Any]], computed: list[tuple[str, PerQuery, Plan]],
           integer: bool, context: ItemContext | None = None) -> Results:
    """The runs' ``(name, values, plan)`` assembled, each named by its tag where none was
    given (a tag shared with another run's name gets the position)."""
    names = positions([n for n, *_ in computed], [n is None for n, _ in runs])
    return Results(tuple(
        _id_type(assemble(spoken, per_query, name, context=context), integer)
        for name, (_, per_query, spoken) in zip(names, computed, strict=True)))


def load_runs(several: list[tuple[str | None, Any]]) -> list[Run]:
    """Each ``(name, run)`` of ``several`` (:func:`several_runs`) loaded, its warnings
    naming it as :func:`evaluate`'s do."""
    return [_load_run(run, name, label)
            for (name, run), label in zip(several, _labels(several), strict=True)]


def _labels(runs: list[tuple[str | None, Any]]) -> list[str | None]:
    """How warnings name each run: as it was given, by the name given to it, or (None) by
    its source, when it has no name or the name is the one its file gives it."""
    defaults = name_runs([run for _, run in runs])
    return [None if name is None or name == default else name
            for (name, _), default in zip(runs, defaults, strict=True)]


def _users(qrels: Qrels | SubtopicQrels, run: Run) -> bool:
    """Whether both tables were read from user and item columns (a recommender's)."""
    return isinstance(qrels, Qrels) and qrels.hints.users and run.hints.users


def _id_type(result: Result, integer: bool) -> Result:
    """``result``, told that its query ids were given as integers when they were (plain
    judgments only: subtopic tables keep their ids as text)."""
    return dataclasses.replace(result, integer_query_ids=True) if integer else result


def _is_run(value: Any) -> bool | None:
    """Whether a mapping's value is a run in itself (True), a ranking of one query
    (False), or could be either (None: an empty mapping)."""
    if isinstance(value, (Run, str, os.PathLike)) or is_ranx_run(value) or is_row_run(value):
        return True
    if isinstance(value, Mapping):
        return all(isinstance(v, Mapping) for v in value.values()) if value else None
    module = type(value).__module__.split(".")[0]
    return module in ("polars", "pandas", "pyarrow") or hasattr(value, "__arrow_c_stream__")


def several_runs(run: Any) -> list[tuple[str | None, Any]] | None:
    """The ``(name, run)`` pairs ``run`` stands for when it is several runs, else None.

    A list or tuple is several runs: its paths named by their file names
    (:func:`ranklens._ingest.io._run_names.name_runs`), the others later by their tags (None
    here), except a list of rows with fields (``ir_measures.ScoredDoc``), which is one
    run. A mapping is several runs when every value is a run in itself (see
    :func:`evaluate`), one run when none is; empty mappings count as either, and an empty
    mapping is one (empty) run.

    Raises
    ------
    ParameterError
        An empty list.
    InputError
        A list holding something that is not a run (rows, a ranking), a mapping mixing
        runs and rankings, or a run name that is not a string: the input is malformed, as
        for any other unreadable run.
    """
    if isinstance(run, (list, tuple)) and not is_row_run(run):
        if not run:
            raise ParameterError("the 'run' argument is an empty list; give at least one run")
        odd = next((r for r in run if _is_run(r) is False), None)
        if odd is not None:
            raise InputError(
                f"cannot read a run from a {type(run).__name__} holding a "
                f"{type(odd).__name__}: a list is several runs, each a file path, a "
                "{query: {doc: score}} mapping, a DataFrame, a Run or a ranx Run")
        return list(zip(name_runs(run), run, strict=True))
    if not isinstance(run, Mapping) or not run:
        return None
    kinds = {k: _is_run(v) for k, v in run.items()}
    if not any(kinds.values()):
        return None
    if any(v is False for v in kinds.values()):
        runs = [repr(k) for k, v in kinds.items() if v][:3]
        rankings = [repr(k) for k, v in kinds.items() if v is False][:3]
        raise InputError(
            "the 'run' mapping mixes runs (values under "
            f"{', '.join(runs)}) and rankings of one query (values under "
            f"{', '.join(rankings)}); give {{name: run}} for several runs or "
            "{query_id: {doc_id: score}} for one")
    bad = [k for k in run if not isinstance(k, str)]
    if bad:
        raise InputError(f"run names must be strings; got {bad[0]!r} "
                         f"({type(bad[0]).__name__})")
    return list(run.items())
