"""``ranklens.report`` and ``ranklens report`` without a browser: values on closed-form toy
cases, escaping of hostile ids, the vendored bundles, errors, the CLI and the size at 7,000
queries."""

from __future__ import annotations

import hashlib
import json
import re
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from cli_support import run, write

import ranklens
from ranklens import MeasureError, ParameterError
from ranklens._surfaces.render.html import VENDORED, html_text, script_json
from ranklens._surfaces.report.build import report_data
from ranklens._surfaces.report.collect import PR_LEVELS, grade_levels

# q1: a (grade 2) first, an unpooled z, then b (grade 0); c (grade 1) never retrieved.
# q2: only e, judged -1; d (grade 1) never retrieved.
QRELS = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"d": 1, "e": -1}}
RUN_X = {"q1": {"a": 3.0, "z": 2.0, "b": 1.0}, "q2": {"e": 1.0}}
RUN_Y = {"q1": {"c": 3.0, "a": 2.0}, "q2": {"d": 1.0, "e": 0.5}}
XSS_IMG = "<img src=x onerror=alert(1)>"
XSS_SCRIPT = "</script><script>alert(2)</script>"


def _blocks(html: str) -> dict[str, object]:
    """The JSON blocks of a report, parsed as a browser would (JSON.parse of the text)."""
    found = re.findall(r'<script type="application/json" id="([\w-]+)">(.*?)</script>', html,
                       flags=re.S)
    return {name: json.loads(text) for name, text in found}


def test_grades_in_the_top_k_closed_form() -> None:
    data = report_data(QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP"], max_k=5, top_k=3)
    x = {label: float(v[0]) for label, v in data.grades.items()}
    # q1: a (2), z (unpooled), b (0); q2: e (judged -1), then two empty ranks
    assert x == pytest.approx({"grade 2": 0.5, "grade 1": 0.0, "grade 0": 0.5,
                               "judged < 0": 0.5, "not in qrels": 0.5,
                               "nothing retrieved": 1.0})
    y = {label: float(v[1]) for label, v in data.grades.items()}
    # q1: c (1), a (2), one empty rank; q2: d (1), e (-1), one empty rank
    assert y == pytest.approx({"grade 2": 0.5, "grade 1": 1.0, "grade 0": 0.0,
                               "judged < 0": 0.5, "not in qrels": 0.0,
                               "nothing retrieved": 1.0})


def test_curves_closed_form() -> None:
    data = report_data(QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP"], max_k=3, top_k=3)
    assert data.ks == (1, 2, 3)
    # x: q1 relevant at rank 1 of R = 2, q2 nothing relevant retrieved
    np.testing.assert_allclose(data.at_k["P@k"][:, 0], [0.5, 0.25, 1 / 6])
    np.testing.assert_allclose(data.at_k["R@k"][:, 0], [0.25, 0.25, 0.25])
    # y: q1 c, a both relevant (R = 2); q2 d relevant at rank 1 (R = 1), then e (-1)
    np.testing.assert_allclose(data.at_k["P@k"][:, 1], [1.0, 0.75, (2 / 3 + 1 / 3) / 2])
    np.testing.assert_allclose(data.at_k["R@k"][:, 1], [0.75, 1.0, 1.0])
    # Judged@k (denominator min(k, retrieved)): x q1 a, z, b -> 1, 1/2, 2/3; q2 e -> 1
    np.testing.assert_allclose(data.at_k["Judged@k"][:, 0], [1.0, 0.75, (2 / 3 + 1) / 2])
    # interpolated precision of x: q1 reads its one hit (precision 1) while lround(x * 2)
    # <= 1, i.e. recall below 0.75; q2 is 0 everywhere
    expected = [0.5 if level < 0.75 else 0.0 for level in PR_LEVELS]
    np.testing.assert_allclose(data.pr[:, 0], expected)
    np.testing.assert_allclose(data.pr[:, 1], np.ones(len(PR_LEVELS)))


def test_summary_and_table_data_match_evaluate() -> None:
    html = ranklens.report(QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP", "nDCG@10"], max_k=5,
                           baseline="y")
    res = ranklens.evaluate(QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP", "nDCG@10"])
    summary = html[html.index('<table id="summary-table">'):html.index("</table>")]
    for name in ("x", "y"):
        for m in ("AP", "nDCG@10"):
            assert f"{res[name][m]:.4f}" in summary
    assert "y (baseline)" in summary
    table = _blocks(html)["ranklens-queries"]
    assert table["queries"] == ["q1", "q2"] and table["runs"] == ["x", "y"]
    assert table["baseline"] == 1
    np.testing.assert_allclose(np.array(table["values"][0], dtype=float),
                               res.values("AP").T, atol=1e-6)
    specs = _blocks(html)["ranklens-specs"]
    assert list(specs) == ["pr", "at-k", "differences", "distributions", "judged", "grades"]
    rows = specs["differences"]["data"]["values"]
    assert {r["r"] for r in rows} == {0}  # every run against the chosen baseline
    assert specs["differences"]["params"][1]["bind"]["labels"] == ["x"]


def test_one_run_has_no_difference_chart() -> None:
    html = ranklens.report(QRELS, RUN_X, "AP", max_k=3)
    specs = _blocks(html)["ranklens-specs"]
    assert "differences" not in specs and 'id="chart-differences"' not in html
    assert "1 run (run)" in html


def test_hostile_ids_are_escaped_everywhere() -> None:
    qrels = {XSS_IMG: {"d&1": 1}, XSS_SCRIPT: {"<b>": 1}}
    runs = {"a <b>run</b>": {XSS_IMG: {"d&1": 1.0}, XSS_SCRIPT: {"x": 1.0}},
            "b": {XSS_IMG: {"x": 1.0}, XSS_SCRIPT: {"<b>": 1.0}}}
    html = ranklens.report(qrels, runs, ["AP"], max_k=3)
    for raw in (XSS_IMG, XSS_SCRIPT, "<b>run</b>", "<script>alert"):
        assert raw not in html
    # exactly the page's own scripts: two JSON blocks, three bundles and the page's code
    assert html.count("<script") == 6 and html.count("</script>") == 6
    assert html_text("a <b>run</b>") in html  # the summary table's row label
    blocks = _blocks(html)
    assert blocks["ranklens-queries"]["queries"] == sorted([XSS_IMG, XSS_SCRIPT])
    assert blocks["ranklens-queries"]["runs"] == ["a <b>run</b>", "b"]
    diff_ids = {r["q"] for r in blocks["ranklens-specs"]["differences"]["data"]["values"]}
    assert diff_ids == {XSS_IMG, XSS_SCRIPT}


def test_script_json_escapes_markup_and_round_trips() -> None:
    value = {"q": XSS_SCRIPT, "k": "a & b <!-- c -->", "n": [1.5, None]}
    text = script_json(value)
    assert not set("<>&") & set(text)
    assert "\\u003c/script\\u003e" in text
    assert json.loads(text) == value
    with pytest.raises(ValueError):
        script_json({"x": float("nan")})


def test_vendored_bundles_match_their_manifest() -> None:
    vendor = resources.files("ranklens._surfaces.report") / "vendor"
    manifest = json.loads((vendor / "versions.json").read_text(encoding="utf-8"))
    assert set(manifest) == {"vega", "vega-lite", "vega-embed"}
    shipped = set()
    for name, entry in manifest.items():
        for filename, digest in entry["files"].items():
            data = (vendor / filename).read_bytes()
            assert hashlib.sha256(data).hexdigest() == digest, filename
            shipped.add(filename)
        license_text = (vendor / f"LICENSE-{name}").read_text(encoding="utf-8")
        assert "Redistribution and use in source and binary forms" in license_text  # BSD-3
    assert {f"{n}" for n in VENDORED} <= shipped
    html = ranklens.report(QRELS, {"x": RUN_X, "y": RUN_Y}, "AP", max_k=3)
    for filename in VENDORED:
        assert (vendor / filename).read_text(encoding="utf-8") in html


def test_grade_levels() -> None:
    assert grade_levels(np.array([0.0, 1.0, 3.0, -1.0, 3.0])) == [3, 1, 0]
    assert grade_levels(np.arange(15, dtype=float)) == [14, 13, 12, 11, 10, 9, 8, 7, 6, 0]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"baseline": "nope"}, ParameterError,
     "the 'baseline' option must name one of the runs (x, y); got 'nope'"),
    ({"max_k": 0}, ParameterError, "the 'max_k' option must be an integer from 1 to 1000; got 0"),
    ({"top_k": 1001}, ParameterError,
     "the 'top_k' option must be an integer from 1 to 1000; got 1001"),
    ({"measures": []}, ParameterError, "the 'measures' option is empty"),
    ({"measures": ["nDCG@10", "Foo@3"]}, MeasureError, "Foo@3"),
])
def test_bad_options(kwargs: dict, error: type[Exception], message: str) -> None:
    args = {"measures": ["AP"], **kwargs}
    with pytest.raises(error) as exc:
        ranklens.report(QRELS, {"x": RUN_X, "y": RUN_Y}, args.pop("measures"), **args)
    assert message in str(exc.value)


def test_unwritable_output(tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match=r"cannot write .*missing-dir"):
        ranklens.report(QRELS, RUN_X, "AP", output=tmp_path / "missing-dir" / "r.html")


def _trec(tmp_path: Path) -> tuple[Path, Path, Path]:
    qrels = write(tmp_path / "qrels.txt", "".join(
        f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    paths = []
    for name, run_ in (("x.run", RUN_X), ("y.run", RUN_Y)):
        paths.append(write(tmp_path / name, "".join(
            f"{q} Q0 {d} {i} {s} {name}\n" for q, docs in run_.items()
            for i, (d, s) in enumerate(docs.items(), 1))))
    return qrels, paths[0], paths[1]


def test_cli_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, x, y = _trec(tmp_path)
    out = tmp_path / "r.html"
    outcome = run(["report", str(qrels), str(x), str(y), "-m", "AP", "-m", "P@2",
                   "--baseline", str(y), "--max-k", "4", "-o", str(out)], capsys)
    assert outcome.code == 0, outcome.err
    assert outcome.err.strip() == f"wrote {out}"
    html = out.read_text(encoding="utf-8")
    queries = _blocks(html)["ranklens-queries"]
    assert queries["measures"] == ["AP", "P@2"] and queries["baseline"] == 1
    assert f"{y.stem} (baseline)" in html  # named by the file name


@pytest.mark.parametrize(("extra", "expected"), [
    (["--baseline", "nope"], "--baseline must name one of the runs"),
    (["-m", "Foo@3"], "Foo@3"),
    (["--test", "tukey"], "compares three or more runs"),
])
def test_cli_errors_are_one_line(extra: list[str], expected: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    qrels, x, y = _trec(tmp_path)
    outcome = run(["report", str(qrels), str(x), str(y), "-o", str(tmp_path / "r.html"),
                   *extra], capsys)
    assert outcome.code == 2
    lines = outcome.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ranklens: error: ") and expected in lines[0]
    assert not (tmp_path / "r.html").exists()


def test_cli_requires_an_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qrels, x, _ = _trec(tmp_path)
    outcome = run(["report", str(qrels), str(x)], capsys)
    assert outcome.code == 2 and "-o" in outcome.err


def test_size_for_seven_thousand_queries() -> None:
    # a size bound, not a timing: docs/report.md gives the measured build time
    rng = np.random.default_rng(7)
    n, depth = 7000, 20
    qrels = {f"q{i}": {f"d{j}": int(rng.integers(0, 3)) for j in range(5)} for i in range(n)}
    runs = {name: {f"q{i}": {f"d{j}": float(s) for j, s in enumerate(rng.random(depth))}
                   for i in range(n)} for name in ("a", "b")}
    html = ranklens.report(qrels, runs, ["nDCG@10", "AP", "RR@10"], max_k=20)
    assert len(html.encode()) < 4_000_000
    assert len(_blocks(html)["ranklens-queries"]["queries"]) == n


def test_summary_marks_are_compare_results() -> None:
    from ranklens.cli._demo import demo_files

    qrels, paths = demo_files()
    runs = {name: str(p) for name, p in paths.items()}
    measures = ["nDCG@10", "AP", "RR@10", "P@10"]
    html = ranklens.report(str(qrels), runs, measures, max_k=10, test="randomization")
    cmp = ranklens.compare(str(qrels), runs, measures, baseline="bm25", test="randomization")
    summary = html[html.index('<table id="summary-table">'):html.index("</table>")]
    dense_row = summary[summary.index("<tr><td>dense</td>"):]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", dense_row)[1:]
    directions = [cmp.direction(m, "dense", "bm25") for m in measures]
    assert 1 in directions  # the demo's dense run is better: a test that can fail
    for cell, direction in zip(cells, directions, strict=True):
        assert ("\u25b2" in cell) == (direction == 1)
        assert ("\u25bc" in cell) == (direction == -1)
    assert "\u25b2" not in summary[:summary.index("<tr><td>dense</td>")]  # not the baseline
    assert "randomization" in html[html.index("</table>"):html.index("Conventions in force")]


def test_docstring_examples_run() -> None:
    import doctest

    from ranklens._surfaces.render import html as escape
    from ranklens._surfaces.report import build

    for module in (build, escape):
        outcome = doctest.testmod(module)
        assert outcome.attempted > 0 and outcome.failed == 0, module.__name__


def _chips(html: str) -> list[str]:
    block = re.search(r'<ul class="conventions">(.*?)</ul>', html, flags=re.S)
    assert block is not None
    return re.findall(r"<li>(.*?)</li>", block.group(1))


def test_convention_chips_read_as_words_not_python_reprs() -> None:
    chips = _chips(ranklens.report(QRELS, {"x": RUN_X, "y": RUN_Y}, ["AP"], max_k=5))
    # defaults: no depth limit, no per-measure ties, not judged only
    assert "depth: all" in chips and "judged only: no" in chips, chips
    assert "ties: docid" in chips and "rel: 1" in chips, chips
    assert not any("measure ties" in c for c in chips), chips
    assert not any(re.search(r"None|\{|\}|\[|\]|True|False|=", c) for c in chips), chips

    chips = _chips(ranklens.report(QRELS, {"x": RUN_X}, ["AP"], max_k=5, depth=2,
                                   judged_only=True))
    assert "depth: 2" in chips and "judged only: yes" in chips, chips


def test_many_runs_are_picked_few_are_all_drawn() -> None:
    from ranklens._surfaces.report.specs import MANY_RUNS, chart_specs

    few = report_data(QRELS, {f"r{i}": RUN_X for i in range(MANY_RUNS)}, ["AP"], max_k=5)
    many = report_data(QRELS, {f"r{i}": RUN_X for i in range(MANY_RUNS + 1)}, ["AP"],
                       max_k=5, baseline=f"r{MANY_RUNS}")
    assert not any("shown" in json.dumps(s.get("params", [])) for s in chart_specs(few).values())
    specs = chart_specs(many)
    for chart in ("pr", "at-k", "distributions", "judged", "grades"):
        shown = next(p for p in specs[chart]["params"] if p["name"] == "shown")
        # the baseline and the first others, in run order, MANY_RUNS in all
        assert shown["value"] == [f"r{i}" for i in (*range(MANY_RUNS - 1), MANY_RUNS)], chart
        assert specs[chart]["transform"][0] == {"filter": "indexof(shown, datum.run) >= 0"}
    assert "shown" not in json.dumps(specs["differences"].get("params", []))
    html = ranklens.report(QRELS, {f"r{i}": RUN_X for i in range(MANY_RUNS + 1)}, ["AP"],
                           max_k=5)
    assert html.count("<option value=") == MANY_RUNS + 1
    assert 'id="run-select"' not in ranklens.report(QRELS, {"x": RUN_X}, ["AP"], max_k=5)
