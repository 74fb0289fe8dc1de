"""``--columns`` on every command that reads runs (evaluate, compare, report, agree, pool,
fuse, power), one declaration shared by all: a headerless run reads as its TREC twin (issue 39)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cli_support import one_error, run, write

COLUMNS = ["--columns", "qid,docid,score"]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    rows_a = [("q1", "d1", 3.0), ("q1", "d2", 2.0), ("q1", "d3", 1.0), ("q2", "d4", 2.0),
              ("q2", "d5", 1.0)]
    rows_b = [("q1", "d3", 3.0), ("q1", "d1", 2.0), ("q2", "d5", 2.0), ("q2", "d4", 1.0)]
    out = {"qrels": str(write(tmp_path / "qrels.txt",
                              "q1 0 d1 1\nq1 0 d3 2\nq2 0 d4 0\nq2 0 d5 1\n"))}
    for name, rows in (("a", rows_a), ("b", rows_b)):
        out[name] = str(write(tmp_path / f"{name}.tsv",
                              "".join(f"{q}\t{d}\t{s}\n" for q, d, s in rows)))
        out[name + "_trec"] = str(write(tmp_path / f"{name}.run", "".join(
            f"{q} Q0 {d} {i} {s} t\n" for i, (q, d, s) in enumerate(rows, 1))))
    return out


@pytest.mark.parametrize("command", [
    ["evaluate", "{qrels}", "A={a}", "B={b}", "-m", "AP", "-m", "nDCG@2", "-f", "csv"],
    ["evaluate", "{qrels}", "A={a}", "B={b}", "--fuse", "rrf", "-m", "AP", "-f", "csv"],
    ["compare", "{qrels}", "A={a}", "B={b}", "-m", "AP", "-f", "csv"],
    ["power", "{qrels}", "A={a}", "B={b}", "-m", "AP", "-f", "csv"],
    ["agree", "A={a}", "B={b}", "-m", "Overlap@2", "-f", "csv"],
    ["pool", "{a}", "{b}", "--depth", "1"],
    ["fuse", "A={a}", "B={b}", "--method", "rrf"],
])
def test_headerless_runs_read_as_their_trec_twins(files: dict[str, str], command: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    headerless = run([c.format(**files) for c in command] + COLUMNS, capsys)
    assert headerless.code == 0, headerless.err
    twins = {**files, "a": files["a_trec"], "b": files["b_trec"]}
    trec = run([c.format(**twins) for c in command], capsys)
    assert trec.code == 0, trec.err
    assert headerless.out == trec.out


def test_report_reads_headerless_runs(files: dict[str, str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "r.html"
    out = run(["report", files["qrels"], files["a"], files["b"], "-m", "AP", "-o", str(page),
               *COLUMNS], capsys)
    assert out.code == 0, out.err
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("command", ["evaluate", "compare", "report", "agree", "pool", "fuse"])
def test_every_command_names_a_bad_column(command: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    extra = ["-o", "never.html"] if command == "report" else []
    out = run([command, "--columns", "qid,docid,sorce", "x", "y", *extra], capsys)
    assert out.code == 2
    message = one_error(out.err)
    assert "'--columns'" in message and "'sorce'" in message


def test_columns_is_one_declaration() -> None:
    import click

    from ranklens.cli import cli
    from ranklens.cli._options import COLUMNS_HELP

    with click.Context(cli) as ctx:
        for name in ("evaluate", "compare", "report", "agree", "pool", "fuse"):
            command = cli.get_command(ctx, name)
            assert command is not None
            (option,) = [p for p in command.params if p.name == "columns"]
            assert isinstance(option, click.Option) and option.help == COLUMNS_HELP, name
