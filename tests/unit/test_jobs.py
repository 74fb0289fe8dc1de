"""``jobs`` in memory: one job and several give the same values, bit for bit (per query,
aggregates, diagnostics, warnings, errors), on random files read in many blocks and on the
shared real runs; files that fit are never chunked, whatever ``jobs``; the second thread's
order, errors and early end (``ranklens._base.threads.ahead``)."""

from __future__ import annotations

import os
import random
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from result_support import assert_same, evaluate_warned, random_trec_lines
from spark_support import spark_measures

import ranklens
from ranklens import InputError, ParameterError
from ranklens._base.threads import ahead, jobs, using
from ranklens._ingest.io.trec import files, small
from ranklens._ingest.io.trec import run as trec_run
from ranklens._pipeline import compute
from ranklens._pipeline.plan import make_plan
from ranklens._surfaces.chunked.choose import chunking

#: every measure of plain judgments at its defaults, with cutoffs, text measures included
MEASURES = spark_measures()

REAL = Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", "/work/shared/conformance")
            ).parent / "realdata"


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run files read by the block reader in blocks of a few lines."""
    monkeypatch.setattr(files, "BLOCK", 200)
    monkeypatch.setattr(small, "SMALL_BYTES", -1)


def _files(folder: Path, seed: int, *, infinite: bool = False) -> tuple[str, str]:
    """Judgments (graded, some negative) and a run (ties, queries only judged or only
    ranked, a query's rows split in two places of the file)."""
    qrels, run = random_trec_lines(random.Random(seed), queries=60, docs=40, judged=12,
                                   ranked=25, steps=8, odd_every=3)
    if infinite:
        run[len(run) // 2] = run[len(run) // 2].rsplit(" ", 2)[0] + " 1e999 tag"
    qp, rp = folder / f"q{seed}.txt", folder / f"r{seed}.run"
    qp.write_text("\n".join(qrels) + "\n")
    rp.write_text("\n".join(run) + "\n")
    return str(qp), str(rp)


@pytest.mark.parametrize("seed", range(6))
def test_two_jobs_equal_one_on_random_files(tmp_path: Path, small_blocks: None,
                                            seed: int) -> None:
    qp, rp = _files(tmp_path, seed, infinite=seed == 1)
    options: dict[str, Any] = [
        {}, {"ties": "input"}, {"ties": "average", "depth": 7},
        {"missing": "skip", "empty": "skip"}, {"convention": "ranx", "missing": "zero"},
        {"convention": "torchmetrics"}][seed]
    one, said = evaluate_warned(qp, rp, MEASURES, jobs=1, **options)
    two, told = evaluate_warned(qp, rp, MEASURES, jobs=2, **options)
    assert_same(one, two)
    assert said == told
    if seed == 1:
        assert any("infinite" in m for m in told)
    # the same as the whole file read at once
    whole = trec_run.read_trec_run(rp, data=Path(rp).read_bytes())
    direct, _ = evaluate_warned(qp, whole, MEASURES, **options)
    assert_same(one, direct)


def test_several_runs_and_named_runs(tmp_path: Path, small_blocks: None) -> None:
    qp, r1 = _files(tmp_path, 5)
    _, r2 = _files(tmp_path, 6)
    for runs in ([r1, r2], {"a": r1, "b": r2}):
        one, said = evaluate_warned(qp, runs, MEASURES, jobs=1)
        two, told = evaluate_warned(qp, runs, MEASURES, jobs=2)
        assert one.names == two.names and said == told
        for a, b in zip(one, two, strict=True):
            assert_same(a, b)
    named, _ = evaluate_warned(qp, r1, MEASURES, jobs=2, run_name="mine")
    assert named.run_name == "mine"


@pytest.mark.skipif(not REAL.is_dir(), reason="the shared real data is not here")
def test_two_jobs_equal_one_on_real_runs() -> None:
    qrels = REAL / "robust03" / "robust03_qrels.txt.gz"
    runs = [str(REAL / "robust03" / f"input.{n}.gz") for n in ("InexpC2", "humR03dc")]
    measures = ["AP", "nDCG@10", "P@10", "R@1000", "RR", "bpref", "Rprec", "infAP"]
    one, said = evaluate_warned(str(qrels), runs, measures, jobs=1)
    two, told = evaluate_warned(str(qrels), runs, measures, jobs=2)
    for a, b in zip(one, two, strict=True):
        assert_same(a, b)
    assert said == told


def test_errors_are_the_ones_of_one_job(tmp_path: Path, small_blocks: None) -> None:
    """A bad judgments file is reported before a bad run, read at the same time."""
    qp, rp = _files(tmp_path, 7)
    lines = Path(rp).read_text().splitlines()
    lines[len(lines) - 3] = "q1 Q0 d1 1 high tag"
    Path(rp).write_text("\n".join(lines) + "\n")
    messages = []
    for n in (1, 2):
        with pytest.raises(InputError) as caught:
            ranklens.evaluate(qp, rp, ["AP"], jobs=n)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and f"{rp}:{len(lines) - 2}:" in messages[0]
    Path(qp).write_text("q1 0 d1 x\n")
    for n in (1, 2):
        with pytest.raises(InputError, match=f"{qp}:1:"):
            ranklens.evaluate(qp, rp, ["AP"], jobs=n)


def test_errors_of_several_runs_come_in_their_order(tmp_path: Path, small_blocks: None
                                                   ) -> None:
    """The second run, read while the first is evaluated, is bad: the first run's own
    error (a duplicate) is still the one raised; then, the first being good, the second's."""
    qp, r1 = _files(tmp_path, 9)
    _, r2 = _files(tmp_path, 10)
    Path(r2).write_text(Path(r2).read_text() + "q1 Q0 d1 1 high tag\n")
    dup = tmp_path / "dup.run"
    first = Path(r1).read_text().splitlines()[0]
    dup.write_text(Path(r1).read_text() + first + "\n")
    for runs, match in (([str(dup), r2], "twice|duplicate"), ([r1, r2], "high")):
        messages = []
        for n in (1, 2):
            with pytest.raises(InputError, match=match) as caught:
                ranklens.evaluate(qp, runs, ["AP"], jobs=n)
            messages.append(str(caught.value))
        assert messages[0] == messages[1]


def test_files_that_fit_are_never_chunked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    qp, rp = _files(tmp_path, 8)
    plan = make_plan(["AP"])
    # however many lines: a run that fits is evaluated in memory, on threads
    monkeypatch.setattr("ranklens._surfaces.chunked.choose.estimated_rows", lambda path: 10 ** 8)
    for n in (None, 1, 2, 8):
        assert chunking(plan, qp, [rp], None, n) is None
    assert chunking(plan, qp, [rp], "1GB", 2) is not None  # 6.4 GB would not fit


def test_ahead_keeps_the_order_and_the_jobs() -> None:
    assert jobs() == 1
    for n in (1, 2, 3):
        with using(n):
            assert jobs() == n
            assert list(ahead(range(50), lambda x: x * x)) == [(x, x * x) for x in range(50)]
    assert jobs() == 1


def test_ahead_prepares_on_a_second_thread_one_item_ahead() -> None:
    drawn: list[int] = []
    threads: set[str] = set()

    def items() -> Iterator[int]:
        for i in range(10):
            drawn.append(i)
            yield i

    def prepare(x: int) -> int:
        threads.add(threading.current_thread().name)
        return x

    with using(2):
        it = ahead(items(), prepare)
        assert next(it) == (0, 0)
        it.close()  # waits for the item in preparation; draws no other
    assert drawn in ([0], [0, 1])
    assert threads and all(t.startswith("ranklens-ahead") for t in threads)


def test_ahead_raises_an_error_where_its_item_would_be() -> None:
    def prepare(x: int) -> int:
        if x == 3:
            raise InputError("bad block", source="f", line=3)
        return x

    for n in (1, 2):
        got = []
        with using(n), pytest.raises(InputError, match="f:3: bad block"):
            for pair in ahead(range(6), prepare):
                got.append(pair[0])
        assert got == [0, 1, 2]


class _Item:
    """A weakly referenceable item."""

    def __init__(self, i: int) -> None:
        self.i = i


def _freed(ref: weakref.ref[_Item], wait: float) -> bool:
    deadline = time.monotonic() + wait
    while ref() is not None and time.monotonic() < deadline:
        time.sleep(0.001)
    return ref() is None


@pytest.mark.parametrize("n", [1, 2])
def test_ahead_keeps_no_item_the_caller_has_let_go_of(n: int) -> None:
    # a block and its parsed frame are freed once the reader is done with them: ahead must
    # not hold them while the next one is drawn (one job) or prepared (two)
    refs: list[weakref.ref[_Item]] = []
    freed: list[bool] = []

    def items() -> Iterator[_Item]:
        for i in range(6):
            if n == 1 and i:
                freed.append(refs[i - 1]() is None)
            item = _Item(i)
            refs.append(weakref.ref(item))
            yield item
            del item  # (as ranklens._ingest.io's block readers do)

    def prepare(item: _Item) -> list[_Item]:
        if n == 2 and item.i:  # the caller lets go of the one before while this one is
            freed.append(_freed(refs[item.i - 1], 1.0))  # prepared
        return [item]

    with using(n):
        for item, prepared in ahead(items(), prepare):
            assert prepared == [item]
            del item, prepared
    assert freed == [True] * 5

# -- the measures of one alignment on several threads ---------------------------------

DIVERSITY = ["alpha-nDCG@10", "alpha-nDCG@5", "alpha-DCG@5", "ERR-IA@5", "nERR-IA@20", "P-IA@5",
             "AP-IA", "S-recall@5", "NRBP", "nNRBP"]
BEYOND = ["Coverage@5", "Entropy@5", "DistCoverage@5", "Gini@5", "Novelty@5", "ARP@5",
          "APLT@5", "ACLT@5", "PopREO@5", "PopRSP@5", "EPC@5", "EFD@5", "ILD@5", "ILS@5",
          "Serendipity@5", "Unexpectedness@5", "UserCoverage@5", "nDCG@5", "AP"]


@pytest.fixture
def threaded(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Every alignment's measures computed on threads with jobs > 1, however small; the
    names of the threads that computed a measure."""
    names: set[str] = set()
    kernel_values = compute._values

    def spy(*args: Any) -> np.ndarray:
        names.add(threading.current_thread().name)
        return kernel_values(*args)

    monkeypatch.setattr(compute, "THREADED_ROWS", 0)
    monkeypatch.setattr(compute, "_values", spy)
    return names


def _random_tables(seed: int, subtopics: bool = False, scores: int = 10
                   ) -> tuple[dict, dict]:
    """Judgments (graded, some negative; subtopics) and a run (score ties among ``scores``
    values, scores <= 0, queries only judged or only ranked) as dicts."""
    rng = random.Random(seed)
    qrels: dict[str, Any] = {}
    run: dict[str, dict[str, float]] = {}
    for i in range(80):
        q = f"q{i}"
        where = rng.choice(["both"] * 6 + ["qrels", "run"])
        if where != "run":
            docs = rng.sample(range(60), rng.randint(1, 15))
            qrels[q] = ({f"s{s}": {f"d{d}": rng.randint(0, 2) for d in docs[s::3]}
                         for s in range(min(3, len(docs)))} if subtopics
                        else {f"d{d}": rng.randint(-1, 3) for d in docs})
        if where != "qrels":
            run[q] = {f"d{d}": rng.randint(-2, scores - 3) / 4
                      for d in rng.sample(range(60), rng.randint(1, 40))}
    return qrels, run


@pytest.mark.parametrize("seed", range(8))
def test_measures_on_threads_equal_one_thread(threaded: set[str], seed: int) -> None:
    """Every measure of plain judgments, under several conventions and options (average
    ties realign, judged-only views, counted relevant items), bit for bit."""
    # averaging over tied orders: fewer ties (their orders multiply)
    qrels, run = _random_tables(seed, scores=400 if seed == 2 else 10)
    options: dict[str, Any] = [
        {}, {"ties": "input"}, {"ties": "average"}, {"judged_only": True},
        {"convention": "ranx", "missing": "zero"}, {"convention": "torchmetrics"},
        {"convention": "torchmetrics", "nonpositive": "unjudged"},
        {"ties": "worst", "empty": "skip", "missing": "skip"}][seed]
    one, said = evaluate_warned(qrels, run, MEASURES, jobs=1, **options)
    assert threaded == {threading.current_thread().name}  # one job: no other thread
    threaded.clear()
    two, told = evaluate_warned(qrels, run, MEASURES, jobs=2, **options)
    assert threaded and all(t.startswith("ranklens-measures") for t in threaded)
    assert_same(one, two)
    assert said == told
    if seed == 0:  # a measure's error (AUC@1 has no bound under ties): the first's, alike
        messages = []
        for n in (1, 2):
            with pytest.raises(ParameterError) as caught:
                ranklens.evaluate(qrels, run, MEASURES, jobs=n, ties="pessimistic")
            messages.append(str(caught.value))
        assert messages[0] == messages[1] and "AUC@1" in messages[0]


@pytest.mark.parametrize("seed", range(3))
def test_diversity_and_beyond_measures_on_threads(threaded: set[str], seed: int) -> None:
    sq, srun = _random_tables(seed, subtopics=True)
    sub = ranklens.load_qrels(sq, kind="subtopic")
    one, said = evaluate_warned(sub, srun, DIVERSITY, jobs=1)
    two, told = evaluate_warned(sub, srun, DIVERSITY, jobs=2)
    assert_same(one, two)
    assert said == told
    qrels, run = _random_tables(seed + 10)
    rng = random.Random(seed)
    items = [f"d{d}" for d in range(50)]  # some recommended items outside: warned
    context: dict[str, Any] = {
        "train": {f"u{u}": rng.choices(items, k=rng.randint(1, 9)) for u in range(30)},
        "items": items,
        "item_features": {i: [rng.random(), rng.random()] for i in items[:45]}}
    for options in ({}, {"ties": "input"}):
        threaded.clear()
        one, said = evaluate_warned(qrels, run, BEYOND, jobs=1, **options, **context)
        threaded.clear()
        two, told = evaluate_warned(qrels, run, BEYOND, jobs=2, **options, **context)
        assert threaded and all(t.startswith("ranklens-measures") for t in threaded)
        assert_same(one, two)
        assert said == told and said


def test_the_first_error_in_the_plans_order_is_raised() -> None:
    """Measures on threads: the error of the first failing measure in the plan's order,
    whichever thread fails first; values in the plan's order."""
    plan = make_plan(["AP", "P@5", "nDCG", "RR", "bpref"])
    aligned = type("Big", (), {"n_ranked": compute.THREADED_ROWS})()
    slow = threading.Event()
    threads: set[str] = set()

    def plain(m: Any) -> np.ndarray:
        threads.add(threading.current_thread().name)
        if m.name == "P":
            slow.wait(5)  # fails after the later measure failed
            raise InputError("first")
        if m.name == "RR":
            slow.set()
            raise InputError("second")
        return np.array([len(m.name)])

    with using(2), compute._measures_on_threads(plan, aligned, plain) as computed:  # type: ignore[arg-type]
        assert computed(plan.canonical[0]).tolist() == [2]
        with pytest.raises(InputError, match="first"):
            for m in plan.canonical[1:]:
                computed(m)
    assert threads and all(t.startswith("ranklens-measures") for t in threads)
    with using(1), compute._measures_on_threads(plan, aligned, plain) as computed:  # type: ignore[arg-type]
        assert computed is plain  # one job: the calling thread alone


def _asked_at_once(a: Any, threads: int) -> list[tuple[np.ndarray, ...]]:
    """What each of ``threads`` threads, started together, gets of ``a``'s derived arrays."""
    start = threading.Barrier(threads)
    got: list[tuple[np.ndarray, ...]] = []

    def ask() -> None:
        start.wait()
        got.append((a.relevant(1), a.rank, a.grade, a.rank_at(a.judged_at),
                    a.relevant_positions(2), a.num_rel(1)))

    workers = [threading.Thread(target=ask) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return got


def test_derived_arrays_are_built_once_whichever_thread_asks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads asking an alignment for the same derived array at once all get the one
    array, complete (never a half-filled one), built once."""
    from ranklens._model import aligned as aligned_module
    from ranklens._model.align import align

    builds: list[int] = []
    group_ranks = aligned_module.group_ranks

    def counted(*args: Any) -> np.ndarray:
        builds.append(1)
        return group_ranks(*args)

    monkeypatch.setattr(aligned_module, "group_ranks", counted)
    qrels, run = _random_tables(3)
    for attempt in range(5):
        builds.clear()
        a, _ = align(ranklens.load_qrels(qrels), ranklens.load_run(run))
        got = _asked_at_once(a, 4)
        assert len(got) == 4 and len(builds) == 1, attempt
        for arrays in got[1:]:
            assert all(x is y for x, y in zip(arrays, got[0], strict=True))
        mask = np.zeros(a.n_ranked, dtype=bool)
        mask[a.judged_at[a.judged_grade >= 1]] = True
        assert np.array_equal(got[0][0], mask)
