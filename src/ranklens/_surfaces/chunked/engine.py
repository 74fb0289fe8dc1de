"""The chunked engine: judgments partitioned once, each run partitioned in turn, its chunks
evaluated (in a pool of worker processes when ``jobs`` > 1) by the local engine as blocks
(``compute(block=True)``), their per-query values kept and merged by
:func:`~ranklens._pipeline.partials.merge`; the caller assembles the merged values as it
assembles a whole run's. Temporary files live in one directory, removed on success, error
and Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..._base.errors import InputError, RanklensError, error_from_dict
from ..._ingest.tables import Qrels, Run
from ..._model.diagnostics import Diagnostics
from ..._pipeline.blocks import BlockSpec, Outcome, compute_block, settle
from ..._pipeline.compute import PerQuery, relevance_level
from ..._pipeline.partials import partial_of
from ..._pipeline.plan import Plan
from .blocks import NOTHING, Span, lines_before, qrels_blocks, run_blocks, spans
from .partition import Partitions, read_qrels_chunk, read_run_chunk
from .pool import Worker
from .progress import Progress
from .size import cores

__all__ = ["ChunkedEngine", "evaluate_chunk"]


def evaluate_chunk(spec: BlockSpec, qrels_files: Sequence[str],
                   run_files: Sequence[str]) -> Outcome | None:
    """One chunk evaluated as one block of the evaluation (None: no row in it).

    The run's files of the chunk are deleted once read (each is read once; the judgments'
    serve every run): their pages leave the page cache as the evaluation goes, before they
    are written back to the disk, rather than all at the end in the main process.
    """
    plan = spec.plan
    q, r = read_qrels_chunk(qrels_files), read_run_chunk(run_files, spec.run_source,
                                                          spec.run_name)
    for path in run_files:
        with contextlib.suppress(OSError):  # the folder is removed in any case
            os.unlink(path)
    if not q.height and not len(r):
        return None
    if not q.height:  # nothing judged here: every run query is ignored
        return Outcome(partial_of(plan, _nothing_judged(plan, r)))
    return compute_block(plan, Qrels(q, spec.qrels_source), r)


def _nothing_judged(plan: Plan, run: Run) -> PerQuery:
    """The values of a chunk without judgments: no query, its run's queries ignored."""
    levels = sorted({relevance_level(m, plan.policies.rel) for m in plan.canonical})
    return PerQuery(
        np.array([], dtype=object),
        {m: np.array([], dtype=object if m.definition.text else np.float64)
         for m in plan.canonical},
        {lvl: np.array([], dtype=np.int64) for lvl in levels},
        Diagnostics(ignored_queries=tuple(sorted(run.block_ids.unique().to_list())),
                    queries_ranked=0, queries_judged_ranked=0),
        {m: np.array([], dtype=np.float64) for m in plan.canonical
         if m.definition.weight is not None})


@dataclass
class Written:
    """What writing an input's chunks (or a span of them) found: its rows, the run's last
    tag, its infinite scores, whether every query id was an integer, whether every table
    was read from user and item columns, the grades, and the error that stopped it (class,
    message, source, line within the span) or the notice that the span held no data line."""

    rows: int = 0
    tag: str | None = None
    infinite: int = 0
    integer: bool = True
    users: bool = True
    grades: np.ndarray = field(default_factory=lambda: np.array([]))
    error: dict[str, Any] | None = None
    nothing: dict[str, Any] | None = None


def write_chunks(kind: str, path: str, block: int, n: int, folder: Path, name: str | None,
                 span: Span | None = None, index: int = 0,
                 columns: tuple[str, ...] | None = None,
                 step: Callable[[], None] | None = None) -> Written:
    """Read ``path`` (or its ``span``) block by block and write its chunks under
    ``folder``; an error is returned, not raised (a worker sends it back). ``columns``: a
    headerless run's."""
    parts = Partitions(folder, n, index)
    written, grades = Written(), []
    blocks: Iterator[Qrels | Run] = (qrels_blocks(path, block, span) if kind == "qrels"
                                     else run_blocks(path, block, name, span, columns))
    try:
        for table in blocks:
            written.users &= table.hints.users
            if isinstance(table, Run):
                written.tag = table.name
                written.infinite += int(np.isinf(table.score).sum())
            else:
                written.integer &= table.integer_query_ids
                grades.append(np.unique(table.frame["relevance"].to_numpy()))
            parts.add(table)
            if step is not None:
                step()
    except RanklensError as error:
        found = error.to_dict()
        if span is not None and isinstance(error, InputError) and error.line is None \
                and error.detail.startswith(NOTHING):
            written.nothing = found  # an error only if no span holds a line
        else:
            written.error = found
    written.rows = parts.rows
    written.integer &= parts.rows > 0
    written.users &= parts.rows > 0
    if grades:
        written.grades = np.unique(np.concatenate(grades))
    return written


def _joined(path: str, parts: list[Written], cut: list[Span] | None) -> Written:
    """The spans' findings as one; their first error raised, its line counted from the
    file's start."""
    for at, part in enumerate(parts):
        if part.error is not None:
            error = part.error
            if error.get("line") is not None and cut is not None and cut[at][0] > 0:
                error = {**error, "line": error["line"] + lines_before(path, cut[at][0])}
            raise error_from_dict(error)
    rows = sum(p.rows for p in parts)
    if not rows:
        nothing = next((p.nothing for p in parts if p.nothing is not None), None)
        if nothing is not None:
            raise error_from_dict(nothing)
        raise InputError("file is empty, expected at least one line", source=path)
    full = [p for p in parts if p.rows]
    grades = [p.grades for p in full if p.grades.size]
    return Written(rows=rows, tag=full[-1].tag, infinite=sum(p.infinite for p in parts),
                   integer=all(p.integer for p in full), users=all(p.users for p in full),
                   grades=np.unique(np.concatenate(grades)) if grades else np.array([]))


#: What a worker can be asked to run, by name.
TASKS: dict[str, Callable[..., Any]] = {"chunk": evaluate_chunk, "write": write_chunks}


def run_task(task: tuple[str, tuple[Any, ...]]) -> Any:
    """Run one task: a name in :data:`TASKS` and its arguments."""
    return TASKS[task[0]](*task[1])


class ChunkedEngine:
    """One chunked evaluation: a temporary directory, the judgments' chunks, a worker pool.

    Use it as a context manager: leaving it (normally, on an error or on Ctrl-C) ends the
    workers and removes every temporary file.
    """

    def __init__(self, plan: Plan, qrels: str, chunks: int, jobs: int, block: int,
                 progress: Progress | None = None,
                 columns: tuple[str, ...] | None = None) -> None:
        self.plan, self.qrels_path, self.n, self.jobs, self.block = \
            plan, qrels, chunks, jobs, block
        self.columns = columns  # the runs' columns, when they are headerless
        self.progress = progress or Progress(None)
        self.root: Path | None = None
        self.pool: Any = None
        self.workers: list[Worker] = []
        self.qrels: Partitions | None = None
        self.info: Written | None = None
        self.runs = 0

    def __enter__(self) -> ChunkedEngine:
        self.root = Path(tempfile.mkdtemp(prefix="ranklens-chunks-"))
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            for worker in self.workers:
                worker.stop()
        finally:
            if self.root is not None:
                shutil.rmtree(self.root, ignore_errors=True)
            self.progress.close()

    def partition_qrels(self) -> Written:
        """Write the judgments' chunks (once per evaluation): their rows, whether every
        query id was an integer, their grades."""
        assert self.root is not None
        self.info = self._write("qrels", self.qrels_path, None, self.root / "qrels")
        self.qrels = Partitions(self.root / "qrels", self.n)
        return self.info

    def evaluate_run(self, path: str, name: str | None) -> tuple[PerQuery, str, int, bool]:
        """One run's merged per-query values, its name, its count of infinite scores and
        whether it and the judgments were read from user and item columns.

        Raises
        ------
        InputError
            What the in-memory engine raises for the same files: a bad line (naming the
            file and line), the policies on every query (no query in common, a missing
            query under ``missing="error"``), a duplicate.
        """
        assert self.root is not None and self.qrels is not None and self.info is not None
        self.runs += 1
        folder = self.root / f"run-{self.runs}"
        try:
            written = self._write("run", path, name, folder)
            run_name = written.tag if written.tag is not None else "run"
            spec = BlockSpec.of(self.plan, self.qrels_path, path, run_name)
            outcomes = list(self._evaluate(spec, Partitions(folder, self.n),
                                           os.path.basename(path)))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        merged = settle(self.plan, outcomes, qrels_source=spec.qrels_source,
                        run_source=spec.run_source)
        if merged.values is None:  # nothing judged in any chunk: checked above
            raise InputError("the qrels hold no judgments; nothing to evaluate",
                             source=spec.qrels_source)
        return merged.values, run_name, written.infinite, written.users and self.info.users

    def _write(self, kind: str, path: str, name: str | None, folder: Path) -> Written:
        """Write ``path``'s chunks under ``folder``: by the workers, a span of the file each,
        when there are several and the file can be cut (plain text); else here."""
        label = f"Partitioning {os.path.basename(path)}"
        cut = spans(path, 2 * self.jobs) if self.jobs > 1 else None
        if cut is None:
            with self.progress.task(label) as step:
                parts = [write_chunks(kind, path, self.block, self.n, folder, name,
                                      columns=self._columns(kind), step=step)]
        else:
            tasks = [("write", (kind, path, self.block, self.n, folder, name, span, i,
                                self._columns(kind))) for i, span in enumerate(cut)]
            with self.progress.task(label, total=len(tasks)) as step:
                parts = cast("list[Written]", self._run(tasks, step, ordered=True))
        return _joined(path, parts, cut)

    def _columns(self, kind: str) -> tuple[str, ...] | None:
        return self.columns if kind == "run" else None

    def _evaluate(self, spec: BlockSpec, parts: Partitions, label: str
                  ) -> Iterator[Outcome]:
        assert self.qrels is not None
        work = [(spec, self.qrels.files(k), parts.files(k)) for k in range(self.n)]
        tasks = [("chunk", args) for args in work]
        with self.progress.task(f"Evaluating {label}", total=len(work)) as step:
            for outcome in self._run(tasks, step):
                if outcome is not None:
                    yield outcome

    def _run(self, tasks: list[tuple[str, tuple[Any, ...]]], step: Callable[[], None],
             ordered: bool = False) -> list[Any]:
        """The results of ``tasks`` (a function's name in :data:`TASKS` and its arguments):
        here when there is one job, else on the workers (in ``tasks``' order if
        ``ordered``, else as they finish)."""
        if self.jobs == 1:
            out = []
            for task in tasks:
                out.append(run_task(task))
                step()
            return out
        idle = self._workers()

        def call(task: tuple[str, tuple[Any, ...]]) -> Any:
            worker = idle.get()
            try:
                return worker.call(task)
            finally:
                idle.put(worker)

        threads = ThreadPoolExecutor(self.jobs)
        try:
            futures = [threads.submit(call, task) for task in tasks]
            done = []
            for future in as_completed(futures):
                step()
                done.append(future.result())
            return [f.result() for f in futures] if ordered else done
        finally:
            threads.shutdown(wait=False, cancel_futures=True)

    def _workers(self) -> queue.SimpleQueue[Worker]:
        """The worker processes (started on first use, kept for the next runs), idle."""
        if self.pool is None:
            self.pool = queue.SimpleQueue()
            self.workers = [Worker(max(1, cores() // self.jobs)) for _ in range(self.jobs)]
            for worker in self.workers:
                self.pool.put(worker)
        return cast("queue.SimpleQueue[Worker]", self.pool)
