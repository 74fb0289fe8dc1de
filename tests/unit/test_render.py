"""Golden tests of every output format (files in tests/unit/golden/, checked by eye once).

Regenerate after a deliberate change with ``RANKLENS_REGOLDEN=1 pytest tests/unit/test_render.py``
and review the diff.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

import ranklens
from ranklens._base.errors import ParameterError
from ranklens._surfaces.render import FORMATS, render, rich_table

GOLDEN = Path(__file__).resolve().parent / "golden"
QRELS = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1, "y": 0}, "q|3": {"m": 1}}
RUNS = {
    "bm25": {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 2.0, "x": 1.0},
             "q|3": {"m": 1.0}},
    "dense_v2": {"q1": {"c": 3.0, "a": 2.0, "b": 1.0}, "q2": {"x": 2.0, "y": 1.0},
                 "q|3": {"z": 1.0}},
}
MEASURES = ["AP", "P@2", "nDCG@3", "NumRet"]


def results() -> list[ranklens.Result]:
    return [ranklens.evaluate(QRELS, run, MEASURES, run_name=name) for name, run in RUNS.items()]


CASES = [(fmt, pq) for fmt in FORMATS for pq in (False, True)]


@pytest.mark.parametrize(("fmt", "per_query"), CASES,
                         ids=[f"{f}{'-per-query' if p else ''}" for f, p in CASES])
def test_golden(fmt: str, per_query: bool) -> None:
    text = render(results(), fmt, per_query=per_query)
    path = GOLDEN / f"render_{fmt}{'_per_query' if per_query else ''}.txt"
    if os.environ.get("RANKLENS_REGOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_values_are_the_results_values() -> None:
    """jsonl and csv carry full precision: every aggregate reads back bit for bit."""
    res = results()
    rows = [json.loads(line) for line in render(res, "jsonl", per_query=True).splitlines()]
    for r in res:
        for m in MEASURES:
            got = [row["value"] for row in rows
                   if row["run"] == r.run_name and row["measure"] == m and row["query"] == "all"]
            assert got == [r[m]]
            per_q = {row["query"]: row["value"] for row in rows
                     if row["run"] == r.run_name and row["measure"] == m and row["query"] != "all"}
            assert per_q == r.per_query(m)
    lines = render(res, "csv").splitlines()
    assert [float(v) for v in lines[1].split(",")[2:]] == [res[0][m] for m in MEASURES]


def test_nan_values() -> None:
    r = ranklens.evaluate({"q1": {"a": 0}, "q2": {"b": 1}}, {"q1": {"a": 1.0}, "q2": {"b": 1.0}},
                          ["AP"], empty="nan", run_name="r")
    assert math.isnan(r.query_values["AP"][0])
    rows = [json.loads(x) for x in render(r, "jsonl", per_query=True).splitlines()]
    assert rows[0] == {"run": "r", "query": "q1", "measure": "AP", "value": None}
    assert "nan" in render(r, "table", per_query=True)


def test_run_names_override_and_validation() -> None:
    res = results()
    text = render(res, "csv", run_names=["A", "B"])
    assert [line.split(",")[0] for line in text.splitlines()] == ["run", "A", "B"]
    with pytest.raises(ParameterError, match="2 run names given for 1 results"):
        render(res[:1], "csv", run_names=["A", "B"])
    with pytest.raises(ParameterError, match="unknown format 'xml'"):
        render(res, "xml")
    other = ranklens.evaluate(QRELS, RUNS["bm25"], ["RR"])
    with pytest.raises(ParameterError, match="same measures"):
        render([res[0], other], "table")


def test_rich_table_at_fixed_width() -> None:
    from rich.console import Console

    console = Console(width=80, record=True, color_system=None, force_terminal=False)
    console.print(rich_table(results()))
    text = console.export_text()
    path = GOLDEN / "render_rich.txt"
    if os.environ.get("RANKLENS_REGOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_rich_table_escapes_markup_in_names() -> None:
    from rich.console import Console

    r = ranklens.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["P@1"], run_name="[bold]x")
    console = Console(width=60, record=True, color_system=None)
    console.print(rich_table(r, per_query=True))
    text = console.export_text()
    assert "[bold]x" in text
    assert "1.0000" in text


def test_human_formats_name_the_convention_and_machine_formats_do_not() -> None:
    kaggle = ranklens.evaluate(QRELS, RUNS["bm25"], MEASURES, convention="kaggle",
                               run_name="bm25")
    text = render([kaggle], "table")
    assert text.splitlines()[-1].startswith("convention: kaggle (ties=input, rel=1,")
    assert "ap_denominator=min" in text
    assert render([kaggle], "latex").startswith("% convention: kaggle (")
    for fmt in ("jsonl", "csv", "tsv", "trec"):
        assert "convention" not in render([kaggle], fmt)


def test_runs_under_different_conventions_each_get_a_clause() -> None:
    a = ranklens.evaluate(QRELS, RUNS["bm25"], MEASURES, run_name="a")
    b = ranklens.evaluate(QRELS, RUNS["bm25"], MEASURES, run_name="b", rel=2)
    line = render([a, b], "markdown").splitlines()[-1]
    assert line.count("trec (") == 2 and "rel=2" in line


def test_rich_table_bolds_the_lowest_unjudged_fraction() -> None:
    import io

    from rich.console import Console

    from ranklens._surfaces.render import rich_table

    q = {"q": {"a": 1, "b": 0}}
    one = ranklens.evaluate(q, {"q": {"a": 2.0, "x": 1.0}}, ["P@2", "Unj@2"], run_name="one")
    two = ranklens.evaluate(q, {"q": {"a": 2.0, "b": 1.0}}, ["P@2", "Unj@2"], run_name="two")
    console = Console(file=io.StringIO(), width=80, force_terminal=True, color_system="standard")
    console.print(rich_table([one, two]))
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    row_one = next(line for line in lines if "one" in line)
    row_two = next(line for line in lines if "two" in line)
    assert "\x1b[1m0.0000" in row_two  # Unj: less is better
    assert "\x1b[1m0.5000\x1b[0m │ 0.5000" in row_one  # P@2 tie bolded, Unj 0.5 not


def test_a_query_named_all_is_a_query() -> None:
    """Regression: per-query ``trec`` output printed a runid line before a query named all."""
    r = ranklens.evaluate({"all": {"a": 1}, "b": {"x": 1}}, {"all": {"a": 1.0}, "b": {"y": 1.0}},
                          ["P@1", "relstring@1"], run_name="r")
    lines = render(r, "trec", per_query=True).splitlines()
    runid = "runid                 \tall\tr"
    assert [line for line in lines if line.startswith("runid")] == [runid]
    assert lines.index(runid) == len(lines) - 2  # just before the aggregate
    assert "P@1                   \tall\t1.0000" in lines  # the query's own row
    assert "relstring@1           \tall\t'1'" in lines  # text measures exist per query
    rows = [json.loads(x) for x in render(r, "jsonl", per_query=True).splitlines()]
    assert {"run": "r", "query": "all", "measure": "relstring@1", "value": "1"} in rows
    assert sum(1 for row in rows if row["query"] == "all" and row["measure"] == "P@1") == 2


def test_render_is_public_and_takes_its_format_by_name() -> None:
    r = ranklens.evaluate(QRELS, RUNS["bm25"], MEASURES, run_name="bm25")
    assert ranklens.render(r, format="csv") == render([r], "csv")
    assert ranklens.FORMATS == FORMATS
