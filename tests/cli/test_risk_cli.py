"""Issue 42 on the command line: ``compare --risk``, the regression gate
``compare --fail-if-worse RUN --margin M`` (exit 0 pass, 1 fail, 3 too small, 2 usage) and
``ranklens power``."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from cli_support import Outcome, one_error, run

from ranklens._surfaces.power import queries_needed


def _files(tmp_path: Path, hits: dict[str, list[bool]]) -> list[str]:
    """QRELS where each query's doc ``r`` is relevant, and one run per name whose top doc is
    ``r`` where its list says so (P@1 is that list)."""
    nq = len(next(iter(hits.values())))
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"q{i} 0 r 1\n" for i in range(nq)), encoding="utf-8")
    paths = [str(qrels)]
    for name, top in hits.items():
        path = tmp_path / f"{name}.run"
        path.write_text("".join(
            f"q{i} Q0 {first} 1 2.0 {name}\nq{i} Q0 {second} 2 1.0 {name}\n"
            for i, hit in enumerate(top)
            for first, second in [("r", "x") if hit else ("x", "r")]), encoding="utf-8")
        paths.append(str(path))
    return paths


def _gate(tmp_path: Path, capsys: pytest.CaptureFixture[str], main: list[bool],
          new: list[bool], *extra: str) -> Outcome:
    files = _files(tmp_path, {"main": main, "new": new})
    return run(["compare", *files, "-m", "P@1", "-f", "csv", "--fail-if-worse", "main",
                *extra], capsys)


def test_the_gate_passes_a_candidate_not_worse(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    main = [i % 5 != 0 for i in range(200)]
    new = [True] * 200  # better on 40 queries; 200 queries detect 0.08 < the margin
    out = _gate(tmp_path, capsys, main, new, "--margin", "0.1")
    assert out.code == 0, out.err
    assert out.err == ""
    assert out.out.startswith("measure,system,baseline")


def test_the_gate_fails_a_significant_regression(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    main = [True] * 40
    new = [i % 4 == 0 for i in range(40)]
    out = _gate(tmp_path, capsys, main, new, "--margin", "0.01")
    assert out.code == 1
    lines = out.err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ranklens: gate: FAIL P@1: new is 0.7500 worse than main")
    assert "margin 0.01" in lines[0]


def test_the_gate_says_when_the_queries_are_too_few(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    main = [True, False, True, False, True, True]
    new = [False, True, True, False, True, True]
    out = _gate(tmp_path, capsys, main, new)  # the default margin, 0.01
    assert out.code == 3
    assert out.err.startswith("ranklens: gate: TOO SMALL P@1: new against main: 6 queries")
    assert "not the margin 0.01" in out.err


def test_gate_usage_errors_exit_2_in_one_line(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path, {"main": [True, False], "new": [False, True]})
    out = run(["compare", *files, "-m", "P@1", "--margin", "0.1"], capsys)
    assert out.code == 2
    assert "--margin is for --fail-if-worse" in one_error(out.err)
    out = run(["compare", *files, "-m", "P@1", "--fail-if-worse", "main", "--baseline",
               "new"], capsys)
    assert out.code == 2
    assert "name different runs" in one_error(out.err)
    out = run(["compare", *files, "-m", "P@1", "--fail-if-worse", "other"], capsys)
    assert out.code == 2
    assert "--fail-if-worse must name one of the runs" in one_error(out.err)


def test_compare_risk_writes_the_risk_rows(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    main = [True, True, False, True]
    new = [True, False, True, False]
    files = _files(tmp_path, {"main": main, "new": new})
    out = run(["compare", *files, "-m", "P@1", "--baseline", "main", "--risk", "1",
               "-f", "csv"], capsys)
    assert out.code == 0, out.err
    rows = list(csv.DictReader(io.StringIO(out.out)))
    assert [(r["system"], r["baseline"], r["n"]) for r in rows] == [("new", "main", "4")]
    # differences 0, -1, +1, -1: losses doubled
    assert float(rows[0]["urisk"]) == pytest.approx((0 - 2 + 1 - 2) / 4)
    table = run(["compare", *files, "-m", "P@1", "--baseline", "main", "--risk", "1"],
                capsys)
    assert "Losses count 1 + 1 times" in table.out


def test_power_command_gives_the_design(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    main = [i % 3 != 0 for i in range(30)]
    new = [i % 2 == 0 for i in range(30)]
    files = _files(tmp_path, {"main": main, "new": new})
    out = run(["power", *files, "-m", "P@1", "--min-diff", "0.1", "-f", "csv",
               "--simulations", "50", "--permutations", "99"], capsys)
    assert out.code == 0, out.err
    row = next(csv.DictReader(io.StringIO(out.out)))
    assert row["sd_source"] == "differences"
    assert int(row["queries_needed"]) == queries_needed(0.1 / float(row["sd"]))
    assert 0 <= float(row["simulated"]) <= 1
    rag = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "data" / "rag_example.jsonl"
    pairs = run(["power", "--pairs", str(rag), "-m", "RR", "-f", "csv"], capsys)
    assert pairs.code == 0, pairs.err
    source = next(csv.DictReader(io.StringIO(pairs.out)))["sd_source"]
    assert source == "within-system, variance doubled"
    out = run(["power", *files, "-m", "P@1", "--simulations", "5"], capsys)
    assert out.code == 2
    assert "'simulations' option needs 'min_diff' (--min-diff)" in one_error(out.err)


def test_compare_segments_writes_each_pair_per_group(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    main = [True, False] * 10
    new = [True] * 20
    files = _files(tmp_path, {"main": main, "new": new})
    groups = tmp_path / "groups.txt"
    groups.write_text("".join(f"q{i} {'even' if i % 2 == 0 else 'odd'}\n" for i in range(20)),
                      encoding="utf-8")
    out = run(["compare", *files, "-m", "P@1", "--baseline", "main", "--segments",
               str(groups), "-f", "csv"], capsys)
    assert out.code == 0, out.err
    rows = {r["group"]: r for r in csv.DictReader(io.StringIO(out.out))}
    assert (rows["even"]["difference"], rows["odd"]["difference"]) == ("0.0", "1.0")
    assert (rows["odd"]["wins"], rows["odd"]["n"]) == ("10", "10")
    both = run(["compare", *files, "-m", "P@1", "--segments", str(groups), "--risk", "1"],
               capsys)
    assert both.code == 2
    assert "give one" in one_error(both.err)
    details = run(["compare", *files, "-m", "P@1", "--risk", "1", "--details"], capsys)
    assert details.code == 2
    assert "--details" in one_error(details.err)


def test_compare_seeds_tests_systems_of_several_runs(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    hits = {"m0": [True, False] * 10, "m1": [False, True] * 10,
            "n0": [True] * 20, "n1": [i % 4 != 0 for i in range(20)]}
    files = _files(tmp_path, hits)
    systems = tmp_path / "systems.txt"
    systems.write_text("m0 main\nm1 main\nn0 new\nn1 new\n", encoding="utf-8")
    out = run(["compare", *files, "-m", "P@1", "--baseline", "m1", "--seeds", str(systems),
               "-f", "csv"], capsys)
    assert out.code == 0, out.err
    (row,) = csv.DictReader(io.StringIO(out.out))
    assert (row["system"], row["baseline"], row["n"]) == ("new", "main", "20")
    assert float(row["difference"]) == pytest.approx(0.875 - 0.5)
    assert row["test"] == "paired t on per-query means"
    both = run(["compare", *files, "-m", "P@1", "--seeds", str(systems), "--risk", "1"],
               capsys)
    assert both.code == 2
    assert "--seeds" in one_error(both.err)


def test_evaluate_segments_writes_each_runs_mean_per_group(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _files(tmp_path, {"main": [True, False] * 10})
    groups = tmp_path / "groups.txt"
    groups.write_text("".join(f"q{i} {'even' if i % 2 == 0 else 'odd'}\n" for i in range(20)),
                      encoding="utf-8")
    out = run(["evaluate", *files, "-m", "P@1", "--segments", str(groups), "-f", "csv"],
              capsys)
    assert out.code == 0, out.err
    rows = {r["group"]: r for r in csv.DictReader(io.StringIO(out.out))}
    assert (rows["even"]["mean"], rows["odd"]["mean"], rows["odd"]["n"]) == ("1.0", "0.0", "10")
    assert set(rows["even"]) >= {"ci_low", "ci_high", "p10", "p50", "p90"}
    bad = run(["evaluate", *files, "-m", "P@1", "--segments", str(groups), "--per-query"],
              capsys)
    assert bad.code == 2
    assert "--segments" in one_error(bad.err)


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_power_not_simulated_is_an_empty_cell(fmt: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Without --simulations, ``simulated`` is empty like the other values not asked for
    (the previous main printed ``nan``); with them it is a power."""
    files = _files(tmp_path, {"main": [i % 3 != 0 for i in range(30)],
                              "new": [i % 2 == 0 for i in range(30)]})
    out = run(["power", *files, "-m", "P@1", "-m", "RR", "-f", fmt], capsys)
    assert out.code == 0, out.err
    assert "nan" not in out.out
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out.out)))
        assert [(r["min_diff"], r["simulated"]) for r in rows] == [("", ""), ("", "")]
    else:
        header, _, first = out.out.splitlines()[:3]
        assert header.endswith("simulated")
        assert len(first) < len(header)  # the row ends before the empty cell
    simulated = run(["power", *files, "-m", "P@1", "--min-diff", "0.1", "-f", fmt,
                     "--simulations", "20", "--permutations", "19"], capsys)
    assert simulated.code == 0 and "nan" not in simulated.out
