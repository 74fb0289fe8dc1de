"""``ranklens correlate``: two sets of judgments or two measures, one table; errors."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from cli_support import run

import ranklens


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, list[str]]:
    """Two sets of judgments (B flips a fifth of A's grades) and five runs, 20 queries."""
    root = tmp_path_factory.mktemp("correlate")
    rng = np.random.default_rng(5)
    grades = (rng.random((20, 30)) < 0.3).astype(int)
    flipped = np.where(rng.random(grades.shape) < 0.2, 1 - grades, grades)
    for name, g in (("a.qrels", grades), ("b.qrels", flipped)):
        (root / name).write_text("".join(f"q{q:02d} 0 d{d:02d} {g[q, d]}\n"
                                         for q in range(20) for d in range(30)))
    paths = []
    for k, boost in enumerate((0.0, 0.2, 0.4, 0.6, 0.8)):
        lines = []
        for q in range(20):
            scores = rng.random(30) + boost * grades[q]
            order = np.argsort(-scores, kind="stable")
            lines += [f"q{q:02d} Q0 d{d:02d} {r + 1} {scores[d]:.6f} s{k}"
                      for r, d in enumerate(order)]
        path = root / f"s{k}.run"
        path.write_text("\n".join(lines) + "\n")
        paths.append(str(path))
    return str(root / "a.qrels"), str(root / "b.qrels"), paths


def test_two_qrels_match_the_library(data: tuple[str, str, list[str]],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    qa, qb, runs = data
    out = run(["correlate", "--qrels-a", qa, "--qrels-b", qb, *runs, "-m", "AP", "-f", "csv"],
              capsys)
    assert out.code == 0, out.err
    rows = list(csv.DictReader(io.StringIO(out.out)))
    assert [r["method"] for r in rows] == ["kendall", "tau_ap", "spearman"]
    a = ranklens.evaluate(qa, runs, ["AP"])
    b = ranklens.evaluate(qb, runs, ["AP"])
    for row in rows:
        c = ranklens.rank_correlation(a, b, "AP", row["method"])
        assert float(row["coefficient"]) == c.coefficient
        assert int(row["swaps"]) == c.swaps and int(row["pairs"]) == 10


def test_two_measures_table(data: tuple[str, str, list[str]],
                            capsys: pytest.CaptureFixture[str]) -> None:
    qa, _, runs = data
    out = run(["correlate", "--qrels-a", qa, *runs, "-m", "AP", "--measure-b", "P@5",
               "--method", "kendall"], capsys)
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    assert lines[0].split() == ["method", "coefficient", "swaps", "pairs"]
    assert lines[2].split()[0] == "kendall"
    assert any(line.startswith("A (reference): AP on ") for line in lines)
    assert any(line.startswith("B: P@5 on ") for line in lines)


def test_default_leaves_tau_ap_out_on_ties(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    qa = tmp_path / "a.qrels"
    qa.write_text("q 0 x 1\nq 0 y 1\n")
    qb = tmp_path / "b.qrels"
    qb.write_text("q 0 y 1\n")
    runs = []
    for name, docs in (("r1", "xyz"), ("r2", "yxz"), ("r3", "zxy")):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"q Q0 {d} {i + 1} {3 - i} {name}\n" for i, d in enumerate(docs)))
        runs.append(str(path))
    out = run(["correlate", "--qrels-a", str(qa), "--qrels-b", str(qb), *runs, "-m", "P@1",
               "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert [r["method"] for r in csv.DictReader(io.StringIO(out.out))] == ["kendall",
                                                                           "spearman"]
    assert "ranklens: warning: tau_ap left out: tau_AP is defined for orderings without " \
           "ties" in out.err
    explicit = run(["correlate", "--qrels-a", str(qa), "--qrels-b", str(qb), *runs, "-m",
                    "P@1", "--method", "tau_ap"], capsys)
    assert explicit.code != 0 and explicit.out == ""
    assert explicit.err.count("\n") == 1
    assert explicit.err.startswith("ranklens: error: tau_AP is defined for orderings without "
                                   "ties; runs ")


@pytest.mark.parametrize(("extra", "message"), [
    (["ONE", "-m", "AP", "--measure-b", "P@5"],
     "ranklens: error: give at least two RUNS to correlate; got 1"),
    (["TWO", "-m", "AP"], "ranklens: error: nothing to correlate: evaluations A and B are the "
                          "same; give --qrels-b, or --measure-b another measure"),
    (["TWO", "-m", "AP", "--measure-b", "map"], "ranklens: error: nothing to correlate"),
    (["TWO", "-m", "AP P@5", "--measure-b", "P@5"],
     "ranklens: error: -m takes one measure for correlate; got 'AP P@5'"),
    (["TWO", "-m", "AP", "--measure-b", "nDCG@x"], "ranklens: error: "),
    (["TWO", "-m", "AP", "--measure-b", "P@5", "--method", "pearson"],
     "ranklens: error: Invalid value for '--method'"),
])
def test_errors_are_one_line(data: tuple[str, str, list[str]], extra: list[str], message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    qa, _, runs = data
    args = ["correlate", "--qrels-a", qa]
    for item in extra:
        args += runs[:1] if item == "ONE" else runs[:2] if item == "TWO" else [item]
    out = run(args, capsys)
    assert out.code != 0 and out.out == ""
    assert out.err.startswith(message) and out.err.count("\n") == 1, out.err


def test_missing_qrels_a_and_runs(data: tuple[str, str, list[str]],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    _, _, runs = data
    out = run(["correlate", *runs, "-m", "AP", "--measure-b", "P@5"], capsys)
    assert out.code != 0 and "Missing option '--qrels-a'" in out.err
    assert out.err.count("\n") == 1


def test_never_writes_over_an_input(data: tuple[str, str, list[str]],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    qa, qb, runs = data
    before = Path(qb).read_bytes()
    out = run(["correlate", "--qrels-a", qa, "--qrels-b", qb, *runs, "-m", "AP", "-o", qb],
              capsys)
    assert out.code != 0 and out.err.count("\n") == 1
    assert Path(qb).read_bytes() == before


def test_output_file(data: tuple[str, str, list[str]], tmp_path: Path,
                     capsys: pytest.CaptureFixture[str]) -> None:
    qa, qb, runs = data
    target = tmp_path / "c.md"
    out = run(["correlate", "--qrels-a", qa, "--qrels-b", qb, *runs, "-m", "nDCG@10",
               "-f", "markdown", "-o", str(target)], capsys)
    assert out.code == 0 and out.out == ""
    assert target.read_text().startswith("| method")


def test_a_repeated_method_is_one_row(data: tuple[str, str, list[str]],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    qa, qb, runs = data
    out = run(["correlate", "--qrels-a", qa, "--qrels-b", qb, *runs, "-m", "AP", "--method",
               "spearman", "--method", "kendall", "--method", "spearman", "-f", "csv"], capsys)
    assert out.code == 0, out.err
    assert [r["method"] for r in csv.DictReader(io.StringIO(out.out))] == ["spearman",
                                                                           "kendall"]
