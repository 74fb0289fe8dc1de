"""Query subsets in memory: a run whose judgments are deep is computed a subset of queries at
a time (``ranklens._pipeline.subsets``), and must equal the run computed at once bit for bit
(per query, aggregates, diagnostics, warnings, errors): random files under many options,
judgments held as codes and as strings, runs with empty rankings, the shared real data. The
cut itself: every row in exactly one subset, in its order."""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import threading
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from result_support import assert_same, evaluate_warned, random_trec_lines
from spark_support import spark_measures

import ranklens
from ranklens import InputError
from ranklens._ingest.io.trec import files, small
from ranklens._model.subsets import judged_query_ids, split_qrels, split_run, subset_bounds
from ranklens._pipeline import subsets
from ranklens._surfaces import engine

MEASURES = spark_measures()

REAL = Path(os.environ.get("RANKLENS_CONFORMANCE_DIR", "/work/shared/conformance")
            ).parent / "realdata"

OPTIONS: list[dict[str, Any]] = [
    {}, {"ties": "input"}, {"ties": "average", "depth": 7}, {"ties": "worst"},
    {"missing": "skip", "empty": "skip"}, {"missing": "zero", "empty": "zero"},
    {"convention": "ranx", "missing": "zero"}, {"convention": "torchmetrics"},
    {"rel": 2, "judged_only": True}, {"nonpositive": "unjudged"},
]


class Used:
    """How many evaluations were computed by subsets (the real function, counted)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.times = 0
        real = subsets._by_subsets

        def counted(*args: Any) -> Any:
            out = real(*args)
            self.times += out is not None
            return out
        monkeypatch.setattr(subsets, "_by_subsets", counted)


@pytest.fixture(autouse=True)
def in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files read by the block readers in blocks of a few lines: the judgments' doc ids
    held as codes, as a large file's are."""
    monkeypatch.setattr(files, "BLOCK", 400)
    monkeypatch.setattr(small, "SMALL_BYTES", -1)


@pytest.fixture
def forced(monkeypatch: pytest.MonkeyPatch) -> Used:
    """Every run computed by four subsets, whatever its size."""
    monkeypatch.setattr(engine, "SUBSET_ROWS", 1)
    monkeypatch.setattr(engine, "SUBSET_SHARE", 0.0)
    monkeypatch.setattr(engine, "SUBSETS", 4)
    return Used(monkeypatch)


def _never(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "SUBSET_ROWS", 1 << 62)


def _files(folder: Path, seed: int, *, duplicate: bool = False) -> tuple[str, str]:
    """Judgments (graded, some negative; few distinct doc ids, so the reader holds them as
    codes) and a run (ties, queries only judged or only ranked, a query's rows in two
    places of the file)."""
    qrels, run = random_trec_lines(random.Random(seed), queries=50, docs=30, judged=14,
                                   ranked=20, steps=6, odd_every=4)
    cut = len(run) * 2 // 3
    run = run[cut:] + run[:cut]  # one query's rows in two places
    if duplicate:  # the same doc twice for two queries far apart
        run += [run[0], run[len(run) // 2]]
    qp, rp = folder / f"q{seed}.txt", folder / f"r{seed}.run"
    qp.write_text("\n".join(qrels) + "\n")
    rp.write_text("\n".join(run) + "\n")
    return str(qp), str(rp)


@pytest.mark.parametrize("at", range(len(OPTIONS)))
def test_subsets_equal_the_whole_run_on_random_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    qp, rp = _files(tmp_path, at)
    options = OPTIONS[at]
    assert ranklens.load_qrels(qp).coded is not None
    _never(monkeypatch)
    whole, said = evaluate_warned(qp, rp, MEASURES, jobs=1, **options)
    used = Used(monkeypatch)
    monkeypatch.setattr(engine, "SUBSET_ROWS", 1)
    monkeypatch.setattr(engine, "SUBSET_SHARE", 0.0)
    monkeypatch.setattr(engine, "SUBSETS", 3 + at % 4)
    for jobs in (1, 2):
        parts, told = evaluate_warned(qp, rp, MEASURES, jobs=jobs, **options)
        assert_same(whole, parts)
        assert said == told
    assert used.times == 2


def test_judgments_held_as_codes_and_as_strings(tmp_path: Path, forced: Used,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    qp, rp = _files(tmp_path, 11)
    coded = ranklens.load_qrels(qp)
    assert coded.coded is not None  # few distinct doc ids: the reader's codes
    strings = ranklens.Qrels(coded.frame)
    assert strings.coded is None
    run = ranklens.load_run(rp)
    a = ranklens.evaluate(coded, run, MEASURES)
    b = ranklens.evaluate(strings, run, MEASURES)
    assert forced.times == 2
    _never(monkeypatch)
    assert_same(a, ranklens.evaluate(coded, run, MEASURES))
    assert_same(b, ranklens.evaluate(strings, run, MEASURES))
    assert_same(a, b)


def test_empty_rankings_and_frames(forced: Used, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(5)
    qrels = {f"q{i:02d}": {f"d{d}": int(rng.integers(0, 3)) for d in rng.choice(20, 6)}
             for i in range(24)}
    run: dict[str, dict[str, float]] = {
        f"q{i:02d}": {f"d{d}": float(rng.integers(0, 4)) for d in rng.choice(20, 9)}
        for i in range(2, 26)}
    run["q05"] = {}  # an explicitly empty ranking, scored as one
    run["q17"] = {}
    loaded = ranklens.load_run(run)  # (nested dicts would take the dict path)
    assert set(loaded.empty_queries) == {"q05", "q17"}
    frame = pl.DataFrame([(q, d, s) for q, r in run.items() for d, s in r.items()],
                         schema=["query_id", "doc_id", "score"], orient="row")
    for options in ({}, {"empty_ranking": "skip"}, {"missing": "zero"}):
        got, said = evaluate_warned(qrels, loaded, MEASURES, **options)
        in_frame = ranklens.evaluate(qrels, frame, MEASURES, **options)
        _never(monkeypatch)
        want, told = evaluate_warned(qrels, loaded, MEASURES, **options)
        assert_same(got, want)
        assert said == told
        assert_same(in_frame, ranklens.evaluate(qrels, frame, MEASURES, **options))
        monkeypatch.setattr(engine, "SUBSET_ROWS", 1)
    assert forced.times == 6


@pytest.mark.parametrize(("options", "said"), [({"duplicates": "error"}, "more than once"),
                                               ({"missing": "error"}, "absent")])
def test_errors_are_the_whole_runs(tmp_path: Path, forced: Used,
                                   monkeypatch: pytest.MonkeyPatch,
                                   options: dict[str, Any], said: str) -> None:
    # an error in two subsets, or a policy on every query: the first error the whole run
    # gives, with its line, not a subset's
    qp, rp = _files(tmp_path, 3, duplicate="duplicates" in options)
    with pytest.raises(InputError) as parts:
        ranklens.evaluate(qp, rp, MEASURES, **options)
    assert forced.times == 0
    _never(monkeypatch)
    with pytest.raises(InputError) as whole:
        ranklens.evaluate(qp, rp, MEASURES, **options)
    assert said in str(whole.value)
    assert str(parts.value) == str(whole.value)
    assert (parts.value.source, parts.value.line) == (whole.value.source, whole.value.line)


def test_the_cut_holds_every_row_once_in_order(tmp_path: Path) -> None:
    qp, rp = _files(tmp_path, 7)
    qrels, run = ranklens.load_qrels(qp), ranklens.load_run(rp)
    judged = judged_query_ids(qrels)
    assert judged.to_list() == sorted(set(qrels.frame["query_id"].to_list()),
                                      key=lambda q: q.encode())
    for parts in (2, 5, judged.len()):
        bounds = subset_bounds(judged, parts)
        qs = [q for q, _ in split_qrels(qrels, bounds)]
        rs = [r for r, _ in split_run(run, bounds)]
        assert len(qs) == len(rs) == parts
        # about as many judged queries each, ranges in byte order
        sizes = [q.frame["query_id"].n_unique() for q in qs]
        assert max(sizes) - min(sizes) <= 1 and sum(sizes) == judged.len()
        q_frames = [q.frame for q in qs]
        r_frames = [r.frame.drop("order") for r in rs]
        assert pl.concat(q_frames).sort(pl.all()).equals(qrels.frame.sort(pl.all()))
        assert pl.concat(r_frames).sort(pl.all()).equals(
            run.frame.drop("order").sort(pl.all()))
        for a, b in itertools.pairwise(q_frames):
            assert a["query_id"].max().encode() < b["query_id"].min().encode()
        for f in r_frames:  # each subset keeps its rows in the run's order
            keys = list(zip(*(f[c].to_list() for c in f.columns), strict=True))
            whole = list(zip(*(run.frame[c].to_list() for c in f.columns), strict=True))
            at = [whole.index(k) for k in keys]
            assert at == sorted(at)
        for q in qs:  # codes into the one dictionary, sharing its hash table
            assert q.coded is not None and qrels.coded is not None
            assert q.coded.dictionary is qrels.coded.dictionary
            assert q.coded.lookup is qrels.coded.lookup


@pytest.mark.parametrize(("qrels", "run"), [
    ("robust03/robust03_qrels.txt.gz", "robust03/input.humR03dc.gz"),
    ("dl/qrels.dl19-passage.txt.gz", "dl/dl19.BM25.run.gz"),
])
def test_the_shared_real_data(monkeypatch: pytest.MonkeyPatch, qrels: str, run: str) -> None:
    if not REAL.is_dir():
        pytest.skip("the shared real data is not here")
    q, r = ranklens.load_qrels(REAL / qrels), ranklens.load_run(REAL / run)
    _never(monkeypatch)
    want = ranklens.evaluate(q, r, MEASURES)
    used = Used(monkeypatch)
    monkeypatch.setattr(engine, "SUBSET_ROWS", 1)
    monkeypatch.setattr(engine, "SUBSET_SHARE", 0.0)
    assert_same(want, ranklens.evaluate(q, r, MEASURES))
    assert used.times == 1


def test_when_subsets_are_used() -> None:
    # deep judgments (TREC pools) at 2^19 ranked rows and more; shallow ones never
    assert engine.by_subsets(1_670_000, 1_100_000)  # Robust x13 concatenated
    assert not engine.by_subsets(7_000, 7_000_000)  # the msmarco preset
    assert not engine.by_subsets(10_000_000, 100_000_000)  # recsys x10
    assert not engine.by_subsets(400_000, 400_000)  # small enough at once


def test_pipes_are_not_read_ahead_of_their_reader(tmp_path: Path) -> None:
    # whether the judgments are indexed (and read with one job) beside the run is decided
    # from the files' estimated rows: a pipe is never read for it, or its reader would lose
    # what was read (judgments or run given as `<(zcat ...)`)
    from ranklens._surfaces.chunked.size import estimated_rows

    qp, rp = _files(tmp_path, 2)
    want = ranklens.evaluate(qp, rp, MEASURES, jobs=2)
    for which in ("qrels", "run"):
        pipe = tmp_path / f"{which}.pipe"
        os.mkfifo(pipe)
        got: list[Any] = []
        inputs = (str(pipe), rp) if which == "qrels" else (qp, str(pipe))
        reader = threading.Thread(target=lambda i=inputs, out=got: out.append(
            ranklens.evaluate(*i, MEASURES, jobs=2)), daemon=True)
        data = Path(qp if which == "qrels" else rp).read_bytes()
        writer = threading.Thread(target=lambda p=pipe, d=data: p.write_bytes(d),
                                  daemon=True)
        reader.start()
        writer.start()
        reader.join(30)
        if reader.is_alive():  # waiting for a second writer: what was read is lost
            with contextlib.suppress(OSError):  # (its end given, to let it go)
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
            pytest.fail(f"the {which} pipe was read before its reader read it")
        assert got, f"the evaluation of the {which} pipe raised"
        assert_same(got[0], want)
        assert estimated_rows(str(pipe)) == 0  # (no writer left: it must not open it)


def test_deep_judgments_are_read_with_one_job_beside_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each file on its own core (memory); shallow judgments keep every job (time)
    from ranklens._base.threads import jobs, using
    from ranklens._surfaces.evaluate import _Loader

    monkeypatch.setattr(engine, "SUBSET_ROWS", 100)
    run = tmp_path / "r.run"
    run.write_text("".join(f"q{i % 40} Q0 d{i} 1 {i} t\n" for i in range(400)))
    deep, shallow = tmp_path / "deep.txt", tmp_path / "shallow.txt"
    deep.write_text("".join(f"q{i % 40} 0 d{i} 1\n" for i in range(300)))
    shallow.write_text("".join(f"q{i} 0 d{i} 1\n" for i in range(40)))
    with using(2), _Loader([(None, str(run))]) as loader:
        with loader.beside(str(deep)):
            assert jobs() == 1
        with loader.beside(str(shallow)):
            assert jobs() == 2
        with loader.beside({"q1": {"d1": 1}}):  # not a file: nothing to foretell
            assert jobs() == 2
    # no run read ahead: the evaluation's one job
    with using(1), _Loader([(None, str(run))]) as loader, loader.beside(str(deep)):
        assert loader.ahead is None and jobs() == 1
