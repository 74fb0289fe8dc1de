"""``ranklens evaluate --ci [LEVEL]``: each mean's interval over queries, and its errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from cli_support import run

import ranklens

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25, DENSE = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run", "demo-dense.run"))


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_ci_without_a_level_is_95_t(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", QRELS, BM25, DENSE, "-m", "AP", "-m", "num_ret", "-f", "csv",
               "--ci"], capsys)
    assert out.code == 0, out.err
    rows = _rows(out.out)
    assert list(rows[0]) == ["run", "query", "AP", "AP low", "AP high", "num_ret"]
    res = ranklens.evaluate(QRELS, {"demo-bm25": BM25, "demo-dense": DENSE}, ["AP"])
    for row, r in zip(rows, res, strict=True):
        ci = r.interval("AP", "t", 0.95)
        assert (float(row["AP low"]), float(row["AP high"])) == (ci.low, ci.high)


def test_ci_bootstrap_with_a_level_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["evaluate", QRELS, BM25, "-m", "nDCG@10", "-f", "csv", "--ci", "0.9",
            "--ci-method", "bootstrap", "--seed", "7", "--resamples", "300"]
    first, again = run(args, capsys), run(args, capsys)
    assert first.code == 0 and first.out == again.out
    row = _rows(first.out)[0]
    ci = ranklens.evaluate(QRELS, BM25, ["nDCG@10"]).interval(
        "nDCG@10", "bootstrap", 0.9, seed=7, n_resamples=300)
    assert (float(row["nDCG@10 low"]), float(row["nDCG@10 high"])) == (ci.low, ci.high)


def test_table_names_the_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", QRELS, BM25, "-m", "AP", "--ci", "0.99"], capsys)
    assert out.code == 0
    assert "99% t intervals of each mean over queries" in out.out


@pytest.mark.parametrize(("args", "message"), [
    (["--ci", "1.5"], "ranklens: error: Invalid value for '--ci': 1.5 is not in the range "
                      "0<x<1."),
    (["--ci", "-f", "trec"], "ranklens: error: --ci is not written in --format trec"),
    (["--seed", "3"], "ranklens: error: --ci-method, --seed and --resamples set the "
                      "intervals of --ci; give --ci too"),
    (["--ci", "--ci-method", "bca"], "ranklens: error: Invalid value for '--ci-method'"),
    (["--ci", "--engine", "spark"], "ranklens: error: --ci is for the local engine"),
])
def test_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["evaluate", QRELS, BM25, *args], capsys)
    assert out.code != 0 and out.out == ""
    assert out.err.startswith(message) and out.err.count("\n") == 1, out.err
