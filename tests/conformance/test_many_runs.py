"""Many runs against one set of judgments: the judgments are read and indexed once.

On the real TREC 2003 Robust runs (../shared/realdata/robust03): ``evaluate(qrels, {name:
run, ...})``, one loaded ``Qrels`` passed to many ``evaluate`` calls and ``ranklens
evaluate QRELS RUN RUN ...`` each read the qrels file once and build its judgment index
once, and give each run the values it gets evaluated alone.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from cli_support import run as run_cli
from conftest import conformance_root

import ranklens
from ranklens._ingest.io.trec import qrels as trec_qrels
from ranklens._model import matching

ROBUST = conformance_root().parent / "realdata" / "robust03"
MEASURES = ["AP", "RR@10", "nDCG@10", "P@10", "R@1000", "Rprec"]
RUNS = ["InexpC2", "NLPR03vb10", "humR03dc", "uwmtCR0"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    if not ROBUST.is_dir():  # CI fails without it, a plain checkout skips (see conftest)
        if os.environ.get("CI"):
            pytest.fail(f"the real data is not at {ROBUST}")
        pytest.skip(f"the real data is not at {ROBUST}")
    out = tmp_path_factory.mktemp("robust03")
    qrels = out / "qrels.txt"
    qrels.write_bytes(gzip.decompress((ROBUST / "robust03_qrels.txt.gz").read_bytes()))
    runs = []
    for name in RUNS:
        path = out / f"{name}.run"
        path.write_bytes(gzip.decompress((ROBUST / f"input.{name}.gz").read_bytes()))
        runs.append(path)
    return qrels, runs


class Counts:
    """How often the qrels file was read and its judgment index built."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, qrels: Path) -> None:
        self.reads = 0
        self.builds = 0
        read, build = trec_qrels.read_trec_qrels, matching._build

        def counted_read(path: str | Path, **kwargs: object) -> ranklens.Qrels:
            self.reads += Path(path) == qrels
            return read(path, **kwargs)  # type: ignore[arg-type]

        def counted_build(q: ranklens.Qrels) -> matching.QrelsIndex:
            self.builds += 1
            return build(q)

        monkeypatch.setattr("ranklens._ingest.io._load.read_trec_qrels", counted_read)
        monkeypatch.setattr(matching, "_build", counted_build)


def _alone(qrels: Path, run: Path) -> dict[str, float]:
    return dict(ranklens.evaluate(str(qrels), str(run), MEASURES))


def test_a_mapping_of_runs_reads_and_indexes_the_judgments_once(
        files: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, runs = files
    expected = {r.stem: _alone(qrels, r) for r in runs}
    counts = Counts(monkeypatch, qrels)
    results = ranklens.evaluate(str(qrels), {r.stem: str(r) for r in runs}, MEASURES)
    assert (counts.reads, counts.builds) == (1, 1)
    for name, values in expected.items():
        assert {m: results[name][m] for m in MEASURES} == values


def test_one_loaded_qrels_is_indexed_once_over_many_calls(
        files: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch) -> None:
    qrels, runs = files
    expected = [_alone(qrels, r) for r in runs]
    counts = Counts(monkeypatch, qrels)
    loaded = ranklens.load_qrels(qrels)
    got = [dict(ranklens.evaluate(loaded, str(r), MEASURES)) for r in runs * 2]
    assert (counts.reads, counts.builds) == (1, 1)
    assert got == expected * 2


def test_the_cli_reads_the_judgments_once_for_many_runs(
        files: tuple[Path, list[Path]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    qrels, runs = files
    # each run named by its file name without directory and suffixes (the run-names rule)
    from ranklens._ingest.io._run_names import path_name

    expected = {path_name(r): _alone(qrels, r) for r in runs}
    counts = Counts(monkeypatch, qrels)
    args = ["evaluate", str(qrels), *map(str, runs), "--format", "jsonl"]
    outcome = run_cli(args + [a for m in MEASURES for a in ("-m", m)], capsys)
    assert outcome.code == 0, outcome.err
    assert (counts.reads, counts.builds) == (1, 1)
    rows = [json.loads(line) for line in outcome.out.splitlines()]
    got: dict[str, dict[str, float]] = {}
    for row in rows:
        got.setdefault(row["run"], {})[row["measure"]] = row["value"]
    assert got == expected
