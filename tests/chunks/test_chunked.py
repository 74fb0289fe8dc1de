"""Chunked evaluation (``memory_limit=``) and parallel chunks (``jobs=``) give the in-memory
engine's results: every per-query value, aggregate, diagnostic, warning and error message,
on random files of every format and on the shared real runs."""

from __future__ import annotations

import gzip
import itertools
import os
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from result_support import assert_same, evaluate_warned
from spark_support import spark_measures

import ranklens
from ranklens import InputError, ParameterError, RanklensError
from ranklens._pipeline.blocks import BlockSpec
from ranklens._pipeline.plan import make_plan
from ranklens._surfaces.chunked import engine as engine_module
from ranklens._surfaces.chunked.choose import chunking
from ranklens._surfaces.chunked.partition import Partitions
from ranklens._surfaces.chunked.size import parse_size

# limits of a few kilobytes force chunking on these small files
pytestmark = pytest.mark.usefixtures("no_floor")

MEASURES = spark_measures()
FORMATS = ["trec", "trec.gz", "csv", "tsv", "jsonl", "parquet", "parquet-dir"]
#: small enough that every evaluation below is cut into many chunks, read in 4 KiB blocks
TINY = "2KB"


def _data(seed: int, queries: int = 40) -> tuple[list[tuple], list[tuple]]:
    """Judgments and a run: graded and negative judgments, tied scores, queries only
    judged and only ranked, each query's rows interleaved with others'."""
    rng = random.Random(seed)
    qrels, run = [], []
    for i in range(queries):
        q = f"q{rng.randrange(10 ** 6)}x{i}" if rng.random() < 0.3 else str(100 + i)
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        if where != "run":
            for d in rng.sample(range(30), rng.randint(1, 12)):
                qrels.append((q, f"d{d}", rng.randint(-1, rng.choice([0, 1, 3]))))
        if where != "qrels":
            for d in rng.sample(range(30), rng.randint(1, 20)):
                run.append((q, f"d{d}", rng.randint(0, 6) / 2))
    rng.shuffle(qrels)
    # runs list a query's rows together, in an order of their own (ties="input" reads it)
    by_query: dict[str, list[tuple]] = {}
    for row in run:
        by_query.setdefault(row[0], []).append(row)
    order = list(by_query)
    rng.shuffle(order)
    return qrels, [row for q in order for row in by_query[q]]


def _write(folder: Path, kind: str, qrels: list[tuple], run: list[tuple]
           ) -> tuple[str, str, str]:
    """The judgments and the run written as ``kind``; the third path is the one file the
    in-memory engine reads for the run (a directory of Parquet files is read by chunks
    only)."""
    folder.mkdir(parents=True, exist_ok=True)
    q = pl.DataFrame(qrels, schema=["query_id", "doc_id", "relevance"], orient="row")
    r = pl.DataFrame(run, schema=["query_id", "doc_id", "score"], orient="row")
    if kind.startswith("trec"):
        gz = kind.endswith(".gz")
        opener: Any = gzip.open if gz else open
        qp, rp = folder / ("q.txt.gz" if gz else "q.txt"), folder / (
            "r.run.gz" if gz else "r.run")
        with opener(qp, "wt") as f:
            f.write("# judgments\n")
            f.writelines(f"{a} 0 {b} {c}\n" for a, b, c in qrels)
        with opener(rp, "wt") as f:
            f.writelines(f"{a} Q0 {b} {i} {c} tag{i % 3}\n" for i, (a, b, c) in enumerate(run))
        return str(qp), str(rp), str(rp)
    if kind in ("csv", "tsv"):
        qp, rp = folder / f"q.{kind}", folder / f"r.{kind}"
        q.write_csv(qp, separator="\t" if kind == "tsv" else ",")
        r.write_csv(rp, separator="\t" if kind == "tsv" else ",")
        return str(qp), str(rp), str(rp)
    if kind == "jsonl":
        qp, rp = folder / "q.jsonl", folder / "r.jsonl"
        q.write_ndjson(qp)
        r.write_ndjson(rp)
        return str(qp), str(rp), str(rp)
    qp, rp = folder / "q.parquet", folder / "r.parquet"
    q.write_parquet(qp)
    r.write_parquet(rp)
    if kind == "parquet":
        return str(qp), str(rp), str(rp)
    parts = folder / "r-parts"
    parts.mkdir()
    third = -(-r.height // 3)
    for i in range(3):
        r.slice(i * third, third).write_parquet(parts / f"part-{i}.parquet")
    return str(qp), str(parts), str(rp)


@pytest.mark.parametrize(("kind", "jobs"), [(kind, 1) for kind in FORMATS]
                         + [("trec", 2), ("tsv", 2), ("jsonl", 2)])
def test_every_format_chunked_equals_in_memory(tmp_path: Path, kind: str, jobs: int) -> None:
    """jobs=2: plain text files are also cut into spans written by the workers."""
    qrels, run = _data(len(kind), queries=120 if jobs > 1 else 40)
    qp, rp, whole = _write(tmp_path, kind, qrels, run)
    options = {"missing": "zero", "empty": "nan"}
    want, said = evaluate_warned(qp, whole, MEASURES, **options)
    got, told = evaluate_warned(qp, rp, MEASURES, memory_limit=TINY, jobs=jobs, **options)
    if kind == "parquet-dir":  # named by its directory
        got = ranklens.Result(**{**got.__dict__, "run_name": want.run_name})
        told = [t.replace(rp, whole) for t in told]
    assert_same(want, got)
    assert said == told


OPTIONS = [
    {"convention": "trec"},
    {"convention": "sklearn"},
    {"convention": "torchmetrics"},
    {"convention": "kaggle"},
    {"convention": "ranx"},
    {"ties": "input", "missing": "skip", "empty": "skip"},
    {"ties": "average", "depth": 5, "rel": 2},
    {"ties": "pessimistic", "judged_only": True, "missing": "zero"},
    {"ties": "optimistic", "duplicates": "first", "nonpositive": "unjudged"},
    {"convention": "ranx", "missing": "zero"},
    {"ties": "worst", "empty": "one", "collection_size": 100},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_conventions_and_options(tmp_path: Path, options: dict[str, Any]) -> None:
    qrels, run = _data(7)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    try:
        want, said = evaluate_warned(qp, rp, MEASURES, **options)
    except RanklensError as error:  # ranx's convention: missing="error"; AUC@1 "pessimistic"
        with pytest.raises(RanklensError) as chunked:
            evaluate_warned(qp, rp, MEASURES, memory_limit=TINY, jobs=1, **options)
        assert (type(chunked.value), str(chunked.value)) == (type(error), str(error))
        return
    got, told = evaluate_warned(qp, rp, MEASURES, memory_limit=TINY, jobs=1, **options)
    assert_same(want, got)
    assert said == told


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 6), limit=st.sampled_from(["1KB", "8KB", "64KB"]),
       duplicates=st.sampled_from(["first", "error"]))
def test_any_data_any_limit(tmp_path_factory: pytest.TempPathFactory, seed: int,
                            limit: str, duplicates: str) -> None:
    qrels, run = _data(seed, queries=25)
    if seed % 3 == 0 and run:  # a document twice in one query
        run.append(run[0])
    qp, rp, _ = _write(tmp_path_factory.mktemp("h"), "trec", qrels, run)
    kwargs = {"duplicates": duplicates, "missing": "zero"}
    try:
        want, said = evaluate_warned(qp, rp, ["AP", "nDCG@5", "P@3", "bpref", "relstring@3"],
                               **kwargs)
    except InputError as error:
        with pytest.raises(InputError) as chunked:
            evaluate_warned(qp, rp, ["AP", "nDCG@5", "P@3", "bpref", "relstring@3"],
                      memory_limit=limit, jobs=1, **kwargs)
        assert type(chunked.value) is type(error)
        return
    got, told = evaluate_warned(qp, rp, ["AP", "nDCG@5", "P@3", "bpref", "relstring@3"],
                          memory_limit=limit, jobs=1, **kwargs)
    assert_same(want, got)
    assert said == told


def test_two_workers_equal_one(tmp_path: Path) -> None:
    qrels, run = _data(11, queries=60)
    qp, rp, _ = _write(tmp_path, "trec.gz", qrels, run)
    one, _ = evaluate_warned(qp, rp, MEASURES, memory_limit=TINY, jobs=1)
    two, _ = evaluate_warned(qp, rp, MEASURES, memory_limit=TINY, jobs=2)
    whole, _ = evaluate_warned(qp, rp, MEASURES)
    assert_same(one, two)
    assert_same(whole, two)


REAL = Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", "/work/shared/conformance")
            ).parent / "realdata"


@pytest.mark.skipif(not REAL.is_dir(), reason="the shared real data is not here")
@pytest.mark.parametrize("jobs", [1, 2])
def test_real_runs_chunked_equal_in_memory(jobs: int) -> None:
    cases = [(REAL / "dl" / "qrels.dl19-passage.txt.gz",
              [REAL / "dl" / "dl19.BM25.run.gz", REAL / "dl" / "dl19.REP_LLAMA.run.gz"]),
             (REAL / "robust03" / "robust03_qrels.txt.gz",
              [REAL / "robust03" / f"input.{n}.gz" for n in ("InexpC2", "humR03dc",
                                                              "NLPR03vb10")])]
    measures = ["AP", "nDCG@10", "P@10", "R@1000", "RR", "bpref", "Rprec", "infAP",
                "ERR@20", "num_rel_ret", "relstring@10"]
    for qrels, runs in cases:
        want, said = evaluate_warned(str(qrels), [str(r) for r in runs], measures)
        got, told = evaluate_warned(str(qrels), [str(r) for r in runs], measures,
                              memory_limit="200KB", jobs=jobs)
        assert want.names == got.names
        for a, b in zip(want, got, strict=True):
            assert_same(a, b)
        assert said == told


def _bad_line(path: Path, lines: list[str], at: int, bad: str) -> None:
    lines = list(lines)
    lines[at - 1] = bad
    path.write_text("".join(line + "\n" for line in lines))


def _same_error_in_memory_and_chunked(qrels: str, run: str, jobs: int) -> str:
    """The InputError of evaluating AP in memory, asserted to be the chunked one too."""
    with pytest.raises(InputError) as memory:
        ranklens.evaluate(qrels, run, ["AP"])
    with pytest.raises(InputError) as chunked:
        ranklens.evaluate(qrels, run, ["AP"], memory_limit=TINY, jobs=jobs)
    assert str(chunked.value) == str(memory.value)
    return str(chunked.value)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bad_line_in_a_later_chunk_names_the_file_and_line(tmp_path: Path, jobs: int
                                                              ) -> None:
    """Far beyond the first 4 KiB block; with jobs=2, in the last span of the file, its
    line counted from the file's start."""
    qrels, run = _data(3, queries=80)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    lines = Path(rp).read_text().splitlines()
    at = len(lines) - 5
    for bad in ("q1 Q0 d1 1 notanumber tag", "q1 Q0 d1", "q1 Q0 d1 1 nan tag"):
        _bad_line(Path(rp), lines, at, bad)
        assert f"{rp}:{at}:" in _same_error_in_memory_and_chunked(qp, rp, jobs)


@pytest.mark.parametrize(("kind", "jobs"), [("csv", 1), ("jsonl", 1), ("trec.gz", 1),
                                            ("csv", 2), ("jsonl", 2)])
def test_bad_lines_of_other_formats(tmp_path: Path, kind: str, jobs: int) -> None:
    qrels, run = _data(5, queries=80)
    qp, rp, _ = _write(tmp_path, kind, qrels, run)
    opener: Any = gzip.open if rp.endswith(".gz") else open
    with opener(rp, "rt") as f:
        lines = f.read().splitlines()
    at = len(lines) - 3
    bad = {"csv": "q1,d1,high", "jsonl": '{"query_id": "q1", "doc_id": "d1", "score": ',
           "trec.gz": "q1 Q0 d1 1 high tag"}[kind]
    lines[at - 1] = bad
    with opener(rp, "wt") as f:
        f.write("".join(line + "\n" for line in lines))
    assert f":{at}:" in _same_error_in_memory_and_chunked(qp, rp, jobs)


def test_a_bad_parquet_row_is_counted_over_the_whole_file(tmp_path: Path) -> None:
    qrels, run = _data(9, queries=80)
    qp, rp, _ = _write(tmp_path, "parquet", qrels, run)
    frame = pl.read_parquet(rp)
    at = frame.height - 4
    frame = frame.with_columns(pl.when(pl.int_range(pl.len()) == at).then(None)
                               .otherwise(pl.col("score")).alias("score"))
    frame.write_parquet(rp)
    with pytest.raises(InputError) as memory:
        ranklens.evaluate(qp, rp, ["AP"])
    with pytest.raises(InputError) as chunked:
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=1)
    assert str(chunked.value) == str(memory.value)


@pytest.mark.parametrize("options", [{"missing": "error"}, {"empty": "error"},
                                     {"duplicates": "error"}])
def test_policy_errors_are_the_in_memory_ones(tmp_path: Path, options: dict[str, str]
                                              ) -> None:
    qrels, run = _data(13)
    run.append(run[-1])  # a duplicate in the last query
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    with pytest.raises(InputError) as memory:
        ranklens.evaluate(qp, rp, ["AP"], **options)
    with pytest.raises(InputError) as chunked:
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=1, **options)
    assert str(chunked.value) == str(memory.value)


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary directory chunks are written under, watched by the test."""
    import tempfile

    root = tmp_path / "tmp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    return root


@pytest.mark.filterwarnings("ignore::ranklens.RanklensWarning")
@pytest.mark.parametrize("jobs", [1, 2])
def test_temporary_files_are_removed(tmp_path: Path, temp_root: Path, jobs: int,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, run = _data(17)
    qp, rp, _ = _write(tmp_path / "data", "trec", qrels, run)
    ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=jobs)
    assert list(temp_root.iterdir()) == []
    with pytest.raises(InputError):
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=jobs, missing="error",
                          depth=None, duplicates="error", rel=99, empty="error")
    assert list(temp_root.iterdir()) == []
    if jobs > 1:  # the workers write the chunks: Ctrl-C there is the next test's
        return
    # Ctrl-C while the run is being written: the files go
    started: list[Any] = []
    real_add, real_stop = Partitions.add, engine_module.Worker.stop

    def interrupted(self: Partitions, table: Any) -> None:
        if self.blocks == 2 and "run-" in self.root.name:
            raise KeyboardInterrupt
        real_add(self, table)

    def stop(self: Any) -> None:
        started.append(self)
        real_stop(self)

    monkeypatch.setattr(Partitions, "add", interrupted)
    monkeypatch.setattr(engine_module.Worker, "stop", stop)
    with pytest.raises(KeyboardInterrupt):
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=jobs)
    assert list(temp_root.iterdir()) == []
    assert all(w.process.poll() is not None for w in started)


def test_ctrl_c_while_workers_run_ends_them(tmp_path: Path, temp_root: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, run = _data(19)
    qp, rp, _ = _write(tmp_path / "data", "trec", qrels, run)
    made: list[Any] = []
    calls: list[Any] = []
    real_init = engine_module.Worker.__init__
    real_call = engine_module.Worker.call

    def init(self: Any, threads: int) -> None:
        real_init(self, threads)
        made.append(self)

    def call(self: Any, task: Any) -> Any:
        calls.append(task)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_call(self, task)

    monkeypatch.setattr(engine_module.Worker, "__init__", init)
    monkeypatch.setattr(engine_module.Worker, "call", call)
    with pytest.raises(KeyboardInterrupt):
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=2)
    assert made and all(w.process.poll() is not None for w in made)
    assert list(temp_root.iterdir()) == []


def test_the_rule_chunks_only_what_would_not_fit(tmp_path: Path) -> None:
    qrels, run = _data(23)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    plan = make_plan(["AP"])
    assert chunking(plan, qp, [rp], "1GB", 1) is None  # fits
    assert chunking(plan, qp, [rp], None, 2) is None  # too small to be worth a worker
    assert chunking(plan, qp, [rp], None, None) is None  # the default never chunks
    small = chunking(plan, qp, [rp], TINY, 1)
    assert small is not None and small.chunks > 10 and small.jobs == 1
    two = chunking(plan, qp, [rp], TINY, 2)
    assert two is not None and two.chunks >= 2 * small.chunks - 1 and two.jobs == 2
    assert chunking(plan, {"q": {"d": 1}}, [rp], TINY, 1) is None  # objects: in memory
    assert chunking(plan, qp, [tmp_path / "absent"], TINY, 1) is None  # the reader says


def test_spans_cut_whole_lines(tmp_path: Path) -> None:
    from ranklens._surfaces.chunked.blocks import spans, text_blocks

    path = tmp_path / "r.run"
    path.write_bytes(b"".join(b"q%d Q0 d%d 1 0.5 t\n" % (i, i) for i in range(1000)))
    cut = spans(str(path), 4)
    assert cut is not None and len(cut) == 4 and cut[0][0] == 0
    assert cut[-1][1] == path.stat().st_size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(cut))
    text = b"".join(block for span in cut for _, block in text_blocks(str(path), 100, span))
    assert text == path.read_bytes()
    gz = tmp_path / "r.run.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert spans(str(gz), 4) is None  # a compressed file is read by one process


def test_sizes() -> None:
    assert parse_size("2GB") == 2 * 10 ** 9
    assert parse_size("1.5 MiB") == 3 * 2 ** 19
    assert parse_size(4096) == 4096
    for bad in ("2XB", "", -1, 0, True, 2.5, "GB"):
        with pytest.raises(ParameterError, match="the 'memory_limit' option must be"):
            parse_size(bad)
    with pytest.raises(ParameterError, match="the 'jobs' option must be"):
        ranklens.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["AP"], jobs=0)


def test_command_line_memory_limit_and_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    from ranklens.cli import main

    monkeypatch.setenv("POLARS_MAX_THREADS", os.environ.get("POLARS_MAX_THREADS", "2"))

    qrels, run = _data(29)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ranklens", "evaluate", qp, rp, "-m",
                               "AP", "-m", "nDCG@10", "--per-query", "-f", "csv", *args],
                              capture_output=True, text=True, env={**os.environ})

    whole = cli("--jobs", "1")
    assert whole.returncode == 0, whole.stderr
    # in this process: a limit of a few kilobytes is below a real process's floor, which
    # this folder's conftest takes as zero
    for args in (["--memory-limit", TINY, "--jobs", "1"], ["--memory-limit", TINY]):
        with pytest.raises(SystemExit) as done:
            main(["evaluate", qp, rp, "-m", "AP", "-m", "nDCG@10", "--per-query", "-f", "csv",
                  *args])
        out = capsys.readouterr()
        assert (done.value.code, out.out) == (0, whole.stdout), out.err
    bad = cli("--memory-limit", "2XB")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines()[-1].startswith(
        "ranklens: error: the 'memory_limit' option must be a size")
    spark = cli("--engine", "spark", "--jobs", "2")
    assert spark.returncode != 0 and "for the local engine" in spark.stderr


def test_jobs_1_keeps_polars_on_one_thread(tmp_path: Path) -> None:
    """The command line sizes polars' pool (``--jobs N``: N threads) before polars is
    imported."""
    import subprocess
    import sys

    qrels, run = _data(31)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    code = ("import sys; from ranklens.cli import cli\n"
            "try:\n    cli(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "import polars; print('threads', polars.thread_pool_size(), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k != "POLARS_MAX_THREADS"}
    for jobs in ("1", "2", "3"):
        out = subprocess.run([sys.executable, "-c", code, "evaluate", qp, rp, "-m", "AP",
                              "--jobs", jobs], capture_output=True, text=True, env=env)
        # more jobs than cores are capped at the cores (with a note)
        expected = min(int(jobs), len(os.sched_getaffinity(0)))
        assert out.stderr.strip().splitlines()[-1] == f"threads {expected}", out.stderr


def test_a_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from ranklens._surfaces.chunked import progress

    qrels, run = _data(37)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    import ranklens._surfaces.evaluate as surface

    monkeypatch.setattr(surface, "on_terminal", lambda: progress.on_terminal(force=True))
    want, _ = evaluate_warned(qp, rp, ["AP"])
    got, _ = evaluate_warned(qp, rp, ["AP"], memory_limit=TINY, jobs=1)
    assert_same(want, got)
    assert "Evaluating r.run" in capsys.readouterr().err


def test_item_tables_are_read_in_memory(tmp_path: Path, temp_root: Path) -> None:
    """Beyond-accuracy measures read item tables: such an evaluation is never chunked."""
    qrels, run = _data(41)
    qp, rp, _ = _write(tmp_path / "data", "trec", qrels, run)
    items = [f"d{i}" for i in range(30)]
    want, _ = evaluate_warned(qp, rp, ["Coverage@5", "AP"], items=items)
    got, _ = evaluate_warned(qp, rp, ["Coverage@5", "AP"], items=items, memory_limit=TINY, jobs=1)
    assert_same(want, got)
    assert list(temp_root.iterdir()) == []


def _numeric_data(seed: int, odd: tuple[str, ...]) -> tuple[list[tuple], list[tuple]]:
    """:func:`_data` with doc ids written as numbers (recsys's, MS MARCO's), the ``odd`` ids
    (not written as their number is, or not a UInt32) judged and ranked in the last queries
    only: the run's first blocks are all numbers, its later ones not."""
    qrels, run = _data(seed, queries=120)
    number = {f"d{d}": str(1000 * d + 7 * seed) for d in range(30)}
    qrels = [(q, number[d], g) for q, d, g in qrels]
    run = [(q, number[d], s) for q, d, s in run]
    last = run[-1][0]
    for i, doc in enumerate(odd):
        qrels.append((last, doc, 1 + i % 2))
        run.append((last, doc, -1.0 - i))
    return qrels, run


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("odd", [(), ("007",), ("+5",), ("4294967296",), ("4294967295", "0"),
                                 ("d7", "00", "-3")])
def test_numeric_doc_ids_chunked_equal_in_memory(tmp_path: Path, odd: tuple[str, ...],
                                                 jobs: int) -> None:
    """Doc ids kept as numbers in the chunks, in text where a block has another id (the
    chunks of the last queries mix both): the in-memory results, ids written as given."""
    qrels, run = _numeric_data(len(odd), odd)
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    options = {"missing": "zero", "empty": "nan"}
    want, said = evaluate_warned(qp, rp, [*MEASURES, "P@5"], **options)
    got, told = evaluate_warned(qp, rp, [*MEASURES, "P@5"], memory_limit=TINY, jobs=jobs,
                          **options)
    assert_same(want, got)
    assert said == told


def test_chunk_segments_hold_numbers_and_a_mixed_chunk_reads_as_text(tmp_path: Path
                                                                     ) -> None:
    """A block whose doc ids are all written as numbers is written as UInt32 numbers; one
    chunk holding such a block and a block of text ids reads as text, every id as the file
    wrote it, in order."""
    from ranklens._ingest.io.trec.run import read_trec_run
    from ranklens._surfaces.chunked.partition import read_run_chunk

    def block(lines: list[str]) -> ranklens.Run:
        data = "".join(f"{line} 0.5 t\n" for line in lines).encode()
        return read_trec_run("r.run", data=data, numbers=True)

    numeric = block(["q1 Q0 782600 1", "q1 Q0 4294967295 2", "q2 Q0 0 1"])
    text = block(["q2 Q0 007 2", "q3 Q0 +5 1", "q3 Q0 4294967296 2", "q3 Q0 9 3"])
    parts = Partitions(tmp_path / "run", 1)
    parts.add(numeric)
    only = read_run_chunk(parts.files(0), "r.run", "t")
    assert only is not None and only._doc_id.dtype == pl.UInt32
    assert only.doc_id.to_list() == ["782600", "4294967295", "0"]
    parts.add(text)
    mixed = read_run_chunk(parts.files(0), "r.run", "t")
    assert mixed is not None and mixed._doc_id.dtype == pl.String
    assert mixed.doc_id.to_list() == ["782600", "4294967295", "0", "007", "+5",
                                      "4294967296", "9"]
    # q2 continued from the numeric block into the text one: one block of rows
    assert mixed.block_ids.to_list() == ["q1", "q2", "q3"]
    assert mixed.block_lengths.tolist() == [2, 2, 3]


@pytest.mark.parametrize("jobs", [1, 2])
def test_numeric_duplicates_and_bad_lines_name_the_file_and_line(tmp_path: Path, jobs: int
                                                                 ) -> None:
    """Errors over numeric doc ids are the in-memory ones: a duplicate doc id (given as
    written) and a bad line far into the file."""
    qrels, run = _numeric_data(3, ())
    run.append(run[-1])  # a duplicate in the last query
    qp, rp, _ = _write(tmp_path, "trec", qrels, run)
    with pytest.raises(InputError) as memory:
        ranklens.evaluate(qp, rp, ["AP"], duplicates="error")
    with pytest.raises(InputError) as chunked:
        ranklens.evaluate(qp, rp, ["AP"], memory_limit=TINY, jobs=jobs, duplicates="error")
    assert str(chunked.value) == str(memory.value)
    assert f"'{run[-1][1]}'" in str(chunked.value)  # the doc id, as text
    lines = Path(rp).read_text().splitlines()[:-1]
    at = len(lines) - 5
    _bad_line(Path(rp), lines, at, "q1 Q0 12 1 notanumber tag")
    assert f"{rp}:{at}:" in _same_error_in_memory_and_chunked(qp, rp, jobs)


def test_a_chunks_run_files_are_deleted_once_read_and_its_judgments_kept(tmp_path: Path
                                                                         ) -> None:
    """A run's chunk is read once: its files go as soon as it is (their pages leave the
    cache before the next chunks are read); the judgments' serve the next run."""
    from ranklens._ingest.io.trec.qrels import read_trec_qrels
    from ranklens._ingest.io.trec.run import read_trec_run

    qrels = read_trec_qrels("q.txt", data=b"q1 0 a 1\nq2 0 b 1\n")
    run = read_trec_run("r.run", data=b"q1 Q0 a 1 0.5 t\nq2 Q0 c 1 0.5 t\n")
    q, r = Partitions(tmp_path / "qrels", 1), Partitions(tmp_path / "run", 1)
    q.add(qrels)
    r.add(run)
    plan = make_plan(["RR"])
    spec = BlockSpec.of(plan, "q.txt", "r.run", "t")
    run_files, qrels_files = r.files(0), q.files(0)
    outcome = engine_module.evaluate_chunk(spec, qrels_files, run_files)
    values = None if outcome is None else outcome.partial.values
    assert values is not None
    assert values.query_ids.tolist() == ["q1", "q2"]
    assert [v.tolist() for v in values.values.values()] == [[1.0, 0.0]]
    assert run_files and not any(os.path.exists(f) for f in run_files)
    assert qrels_files and all(os.path.exists(f) for f in qrels_files)
