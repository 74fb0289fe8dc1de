"""One writer per format for results and comparisons (ranklens._surfaces.render): both are
turned into the neutral table of ranklens._surfaces.render.model, which the format modules write.

The bytes of every format are pinned by tests/unit/golden/ (results) and by
tests/unit/test_compare.py and tests/cli/test_compare_cli.py (comparisons); here: the
sharing itself, and each writer on a small hand-made table.
"""

from __future__ import annotations

import doctest
import importlib
import json
import math
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import ranklens
from ranklens._surfaces.render import formats
from ranklens._surfaces.render.model import DOWN, UP, Cell, Column, Row, Table, label

QRELS = {f"q{i}": {"a": 1, "b": int(i % 2 == 0)} for i in range(8)}
RUNS = {"base": {f"q{i}": {"x": 2.0, "a": 1.0} for i in range(8)},
        "new": {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(8)}}


def comparison(**kwargs: Any) -> ranklens.Comparison:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ranklens.compare(QRELS, RUNS, ["P@1", "AP"], test="randomization", **kwargs)


@pytest.mark.parametrize("module", ["model", "text", "markdown", "latex", "delimited",
                                    "jsonl", "trec"])
def test_docstring_examples(module: str) -> None:
    mod = importlib.import_module(f"ranklens._surfaces.render.{module}")
    failed, tried = doctest.testmod(mod)
    assert failed == 0 and (tried > 0 or module == "model")


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex", "csv", "tsv", "jsonl"])
def test_results_and_comparisons_share_each_writer(fmt: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Table] = []
    writer: Callable[[Table], str] = formats.WRITERS[fmt]

    def spy(table: Table) -> str:
        seen.append(table)
        return writer(table)

    monkeypatch.setitem(formats.WRITERS, fmt, spy)
    results = [ranklens.evaluate(QRELS, run, ["P@1", "AP"], run_name=name)
               for name, run in RUNS.items()]
    assert ranklens.render(results, fmt) == writer(seen[0])
    assert comparison(baseline="base").render(fmt) == writer(seen[1])
    assert len(seen) == 2


def test_marks_are_written_by_each_format_its_own_way() -> None:
    table = Table((Column("run", "left"), Column("AP", marked=True)),
                  (Row((label("base"), Cell("0.2000", 0.2))),
                   Row((label("up"), Cell("0.5000", 0.5, marks=UP, strong=True))),
                   Row((label("down"), Cell("0.1000", 0.1, marks=DOWN)))),
                  notes=(f"{UP} / {DOWN}: above / below base (p < 0.05).",))
    text = formats.write(table, "table")
    assert text.splitlines()[3] == "up    0.5000 ▲"  # the number left, the mark hanging
    assert "| up | 0.5000 ▲ |" in formats.write(table, "markdown")
    latex = formats.write(table, "latex")
    assert r"up & \textbf{0.5000}$^{\uparrow}$ \\" in latex
    assert r"down & 0.1000$^{\downarrow}$ \\" in latex
    assert r"{\footnotesize $\uparrow$ / $\downarrow$: above / below base (p $<$ 0.05).}" \
        in latex
    # the machine formats write the values, never the marks
    assert formats.write(table, "csv").splitlines()[2] == "up,0.5"
    assert json.loads(formats.write(table, "jsonl").splitlines()[2]) == {"run": "down",
                                                                         "AP": 0.1}


def test_a_baseline_name_is_escaped_in_the_latex_notes() -> None:
    runs = {"b$x_1": RUNS["base"], "new": RUNS["new"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = ranklens.compare(QRELS, runs, ["P@1"], baseline="b$x_1", test="randomization")
    last = cmp.render("latex").splitlines()[-1]
    assert r"the baseline b\$x\_1 (" in last
    assert last.replace(r"\$", "").count("$") % 2 == 0  # math opened is closed


def test_an_infinite_effect_size_is_written_as_results_write_one() -> None:
    cmp = comparison(baseline="base")  # the same difference on every query: d_z is infinite
    rows = [json.loads(line) for line in cmp.render("jsonl").splitlines()]
    assert any(math.isinf(row["effect_size"]) for row in rows)
    csv_row = cmp.render("csv").splitlines()[1].split(",")
    assert "inf" in csv_row


def test_a_text_column_and_a_count_column() -> None:
    table = Table((Column("run", "left"), Column("query", "left"), Column("num_ret", count=True),
                   Column("relstring")),
                  (Row((label("r"), label("q1"), Cell("3", 3.0), Cell("1-0", "1-0"))),
                   Row((label("r"), label("all"), Cell("3", 3.0), Cell("", "")),
                       aggregate=True)))
    assert formats.write(table, "csv") == "run,query,num_ret,relstring\nr,q1,3,1-0\nr,all,3,\n"
    trec = [line.split("\t") for line in formats.write(table, "trec").splitlines()]
    assert [[f.strip() for f in line] for line in trec] == [
        ["num_ret", "q1", "3"], ["relstring", "q1", "'1-0'"], ["runid", "all", "r"],
        ["num_ret", "all", "3"]]
