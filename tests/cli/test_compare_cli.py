"""``ranklens compare``: formats, reproducibility (seed, block size, BLAS threads), errors."""

from __future__ import annotations

import csv
import io
import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from cli_support import run, run_subprocess

import ranklens
from ranklens import RanklensWarning

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25, DENSE = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run", "demo-dense.run"))
# the runs' names: their file names without directory and suffix
BM25_NAME, DENSE_NAME = "demo-bm25", "demo-dense"


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    """Judgments and three runs over 30 queries (the third a shuffled mix of the others)."""
    root = tmp_path_factory.mktemp("compare")
    rng = np.random.default_rng(1)
    qrels = [f"q{q:02d} 0 d{d:02d} {int(rng.random() < 0.3)}" for q in range(30)
             for d in range(20)]
    (root / "qrels").write_text("\n".join(qrels) + "\n")
    paths = []
    for name, shift in (("a", 0.0), ("b", 0.15), ("c", 0.3)):
        lines = []
        for q in range(30):
            scores = rng.random(20) + shift * np.array([float(line.endswith(" 1")) for line in
                                                        qrels[q * 20:(q + 1) * 20]])
            lines += [f"q{q:02d} Q0 d{d:02d} {r + 1} {s:.6f} {name}"
                      for r, (d, s) in enumerate(sorted(enumerate(scores), key=lambda t: -t[1]))]
        (root / f"{name}.run").write_text("\n".join(lines) + "\n")
        paths.append(str(root / f"{name}.run"))
    return str(root / "qrels"), paths


def test_table_with_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["compare", QRELS, BM25, DENSE, "-m", "nDCG@10", "-m", "P@10",
               "--baseline", BM25], capsys)
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    assert lines[0].split() == ["run", "nDCG@10", "P@10"]
    assert lines[2].split() == [BM25_NAME, "0.5471", "0.4950"]
    assert lines[3].split() == [DENSE_NAME, "0.7398", "▲", "0.6825", "▲"]
    assert f"significantly above / below the baseline {BM25_NAME} (paired t-test" in out.out
    assert "Holm correction over 1 comparison of each measure" in out.out
    assert lines[-1] == "n = 40 queries; seed 0."
    cmp = ranklens.compare(QRELS, {BM25: BM25, DENSE: DENSE}, ["nDCG@10"], baseline=BM25)
    pair = cmp.pair("nDCG@10", DENSE, BM25)
    assert pair.significant and pair.direction == 1 and pair.p_adjusted < 1e-6


def test_exported_formats_carry_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", QRELS, BM25, DENSE, "-m", "AP", "--test", "randomization"]
    jsonl = run([*args, "-f", "jsonl"], capsys)
    rows = [json.loads(line) for line in jsonl.out.splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert (row["system"], row["baseline"], row["measure"]) == (DENSE_NAME, BM25_NAME, "AP")
    assert row["ci_low"] < row["difference"] < row["ci_high"]
    assert (row["test"], row["permutations"], row["seed"], row["exact"]) == \
        ("randomization", 9999, 0, False)
    assert row["p_value"] == pytest.approx(1 / 10000)  # no sign pattern as extreme: (0+1)/(m+1)
    assert row["wins"] + row["ties"] + row["losses"] == row["n"] == 40
    table = run([*args, "-f", "csv"], capsys).out
    parsed = list(csv.DictReader(io.StringIO(table)))
    assert float(parsed[0]["ci_low"]) == row["ci_low"]  # full precision
    assert float(parsed[0]["effect_size"]) == row["effect_size"]


def test_latex_is_paper_ready(three: tuple[str, list[str]],
                              capsys: pytest.CaptureFixture[str]) -> None:
    qrels, runs = three
    out = run(["compare", qrels, *runs, "-m", "P@10", "-m", "map_cut_10", "-f", "latex"],
              capsys)
    assert out.code == 0, out.err
    tex = out.out
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "Run & P@10 & map\\_cut\\_10 \\\\" in tex
    cmp = ranklens.compare(qrels, dict(zip("abc", runs, strict=True)), ["P@10", "map_cut_10"])
    best = max(cmp.means["P@10"], key=lambda r: cmp.means["P@10"][r])
    row = next(line for line in tex.splitlines() if line.startswith("(c) c"))
    if best == "c":
        assert f"\\textbf{{{cmp.means['P@10'][best]:.3f}}}" in row
    assert tex.count("\\textbf{") >= 2  # one best value per measure
    significant = [p for p in cmp.pairs if p.significant]
    assert significant, "the fixture's runs differ by construction"
    assert "$^{" in tex
    assert "\\footnotesize letters: the runs this run is significantly above" in tex


def _tex(text: str) -> str:
    return text.replace("_", "\\_")


def test_markdown_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["compare", QRELS, BM25, DENSE, "-m", "RR", "-f", "markdown"], capsys).out
    lines = out.splitlines()
    assert lines[0] == "| run | RR |" and lines[1] == "| :--- | ---: |"
    assert lines[2].startswith(f"| (a) {BM25_NAME} |")
    assert lines[3].startswith(f"| (b) {DENSE_NAME} |")


def test_same_seed_gives_byte_identical_output(three: tuple[str, list[str]]) -> None:
    qrels, runs = three
    args = ["compare", qrels, *runs, "-m", "P@10", "-m", "AP", "--test", "randomization",
            "--ci", "bca", "--resamples", "2000", "--seed", "42", "-f", "jsonl"]
    first = run_subprocess(args)
    assert first.returncode == 0, first.stderr
    second = run_subprocess(args)
    assert first.stdout == second.stdout
    env_one = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    env_two = {**os.environ, "OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "2"}
    import subprocess
    import sys

    outs = [subprocess.run([sys.executable, "-m", "ranklens", *args], capture_output=True,
                           env=env, timeout=300).stdout for env in (env_one, env_two)]
    assert outs[0] == outs[1] == first.stdout
    other = run_subprocess([*args[:-4], "--seed", "43", "-f", "jsonl"])
    assert other.stdout != first.stdout  # the seed is used


@pytest.mark.parametrize("test", ["randomization", "randomized-tukey"])
def test_block_size_does_not_change_p_values(three: tuple[str, list[str]], test: str) -> None:
    qrels, runs = three
    named = dict(zip("abc", runs, strict=True))
    results = ranklens.evaluate(qrels, named, ["P@10", "AP", "nDCG@10"])
    got = [ranklens.compare(None, results, test=test, ci="bca", resamples=500,  # type: ignore[arg-type]
                            block_size=block, permutations=3000) for block in (1, 7, 512)]
    for cmp in got[1:]:
        assert [(p.p_value, p.ci_low, p.ci_high) for p in cmp] == \
            [(p.p_value, p.ci_low, p.ci_high) for p in got[0]]
    assert not any(p.exact for p in got[0])


def test_large_n_note() -> None:
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {"a": 1} for i in range(1200)}
    runs = {name: {f"q{i}": {("a" if rng.random() < p else "z"): 1.0} for i in range(1200)}
            for name, p in (("x", 0.5), ("y", 0.55))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RanklensWarning)
        text = ranklens.compare(qrels, runs, ["P@1"]).render("table")
    assert "With 1200 queries small differences are significant" in text


# -- errors: one line, no traceback ------------------------------------------------------------


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["compare", QRELS, BM25], capsys)
    assert out.code != 0 and "give at least two RUNS" in out.err
    out = run(["compare", QRELS, BM25, DENSE, "--baseline", "nope.run"], capsys)
    assert out.code == 2
    assert out.err.strip().splitlines() == [
        f"ranklens: error: --baseline must name one of the runs ({BM25_NAME}, {DENSE_NAME}); "
        "got 'nope.run'"]
    out = run(["compare", QRELS, BM25, DENSE, "--test", "tukey"], capsys)
    assert out.code == 2 and "Traceback" not in out.err
    assert "'tukey' test compares three or more runs; got 2" in out.err
    out = run(["compare", QRELS, BM25, DENSE, "--alpha", "2"], capsys)
    assert out.code == 2 and "'alpha' option must be between 0 and 1; got 2.0" in out.err


def test_docs_worked_example_is_current() -> None:
    """docs/compare.md shows the command's output verbatim (run where the demo files are)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "compare.md").read_text("utf-8")
    block = doc.split("<!-- compare-demo-table")[1].split("```\n", 1)[1].split("```")[0]
    proc = run_subprocess(["compare", "demo.qrels", "demo-bm25.run", "demo-dense.run", "-m",
                           "nDCG@10", "-m", "AP", "-m", "P@10", "-m", "RR@10", "--baseline",
                           "demo-bm25"], cwd=DATA)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8") == block


def test_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "cmp.tsv"
    out = run(["compare", QRELS, BM25, DENSE, "-m", "AP", "-f", "tsv", "-o", str(target)],
              capsys)
    assert out.code == 0 and out.out == ""
    rows = list(csv.DictReader(io.StringIO(target.read_text("utf-8")), delimiter="\t"))
    assert len(rows) == 1 and rows[0]["measure"] == "AP" and rows[0]["test"] == "t"
    out = run(["compare", QRELS, BM25, DENSE, "-m", "AP", "-o", str(tmp_path / "no" / "x")],
              capsys)
    assert out.code == 2 and "cannot write" in out.err
