"""Golden tests of the report's chart specs (JSON, no browser), on the bundled demo data.

The golden files in tests/unit/golden/report/ were checked by eye in the rendered report once;
``RANKLENS_UPDATE_GOLDEN=1 pytest tests/unit/test_report_specs.py`` rewrites them after a
deliberate change (review the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import ranklens
from ranklens._surfaces.report.build import report_data
from ranklens._surfaces.report.specs import SCHEMA, chart_specs
from ranklens.cli._demo import demo_files

GOLDEN = Path(__file__).resolve().parent / "golden" / "report"
CHARTS = ("pr", "at-k", "differences", "distributions", "judged", "grades")


@pytest.fixture(scope="module")
def specs() -> dict[str, dict]:
    qrels, runs = demo_files()
    data = report_data(str(qrels), {name: str(p) for name, p in runs.items()},
                       ["nDCG@10", "AP", "RR@10"], max_k=20, top_k=10, missing="zero")
    return chart_specs(data)


def test_every_chart_is_built_in_page_order(specs: dict[str, dict]) -> None:
    assert tuple(specs) == CHARTS


@pytest.mark.parametrize("chart", CHARTS)
def test_spec_matches_golden(specs: dict[str, dict], chart: str) -> None:
    text = json.dumps(specs[chart], indent=1, sort_keys=True, allow_nan=False) + "\n"
    path = GOLDEN / f"{chart}.json"
    if os.environ.get("RANKLENS_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{chart} spec changed; see {path}"


@pytest.mark.parametrize("chart", CHARTS)
def test_specs_are_offline_svg_ready_data(specs: dict[str, dict], chart: str) -> None:
    spec = specs[chart]
    assert spec["$schema"] == SCHEMA
    assert "url" not in spec["data"]  # inline values only: the report opens offline
    assert spec["data"]["values"]
    assert "url" not in json.dumps(spec).replace("https://vega.github.io/schema", "")


def test_golden_values_agree_with_evaluate(specs: dict[str, dict]) -> None:
    # the curves are the means evaluate reports, not a second implementation
    qrels, runs = demo_files()
    res = ranklens.evaluate(str(qrels), {n: str(p) for n, p in runs.items()},
                            ["P@5", "nDCG@20", "IPrec@0.3", "Judged@7"], missing="zero")
    rows = specs["at-k"]["data"]["values"]
    for label, measure, k in (("P@k", "P@5", 5), ("nDCG@k", "nDCG@20", 20)):
        for run in ("bm25", "dense"):
            (row,) = [r for r in rows if r["curve"] == label and r["run"] == run and r["k"] == k]
            assert row["value"] == pytest.approx(res[run][measure], abs=5e-5)
    pr = specs["pr"]["data"]["values"]
    (row,) = [r for r in pr if r["run"] == "dense" and r["recall"] == 0.3]
    assert row["eleven"] and row["precision"] == pytest.approx(res["dense"]["IPrec@0.3"],
                                                               abs=5e-5)
    judged = specs["judged"]["data"]["values"]
    (row,) = [r for r in judged if r["run"] == "bm25" and r["k"] == 7]
    assert row["judged"] == pytest.approx(res["bm25"]["Judged@7"], abs=5e-5)


def test_differences_are_sorted_and_complete(specs: dict[str, dict]) -> None:
    spec = specs["differences"]
    measures = spec["params"][0]["bind"]["labels"]
    assert measures == ["nDCG@10", "AP", "RR@10"]
    assert spec["params"][1]["bind"]["labels"] == ["dense"]
    rows = [r for r in spec["data"]["values"] if r["m"] == measures.index("AP")]
    assert [r["i"] for r in rows] == list(range(40))
    diffs = [r["d"] for r in rows]
    assert diffs == sorted(diffs, reverse=True)
    assert all(r["r"] == 0 for r in rows)
    assert all(r["d"] == pytest.approx(r["v"] - r["b"], abs=2e-4) for r in rows)


def test_histograms_count_every_query(specs: dict[str, dict]) -> None:
    rows = specs["distributions"]["data"]["values"]
    for m in ("nDCG@10", "AP", "RR@10"):
        for run in ("bm25", "dense"):
            assert sum(r["queries"] for r in rows if r["measure"] == m and r["run"] == run) == 40


def test_grade_panel_fills_the_top_k(specs: dict[str, dict]) -> None:
    rows = specs["grades"]["data"]["values"]
    for run in ("bm25", "dense"):
        assert sum(r["docs"] for r in rows if r["run"] == run) == pytest.approx(10, abs=1e-3)
    assert [r["category"] for r in rows if r["run"] == "bm25"] == [
        "grade 3", "grade 2", "grade 1", "grade 0", "judged < 0", "not in qrels",
        "nothing retrieved"]


def test_long_run_names_are_cut_in_the_middle_in_labels_only() -> None:
    from ranklens._surfaces.report.specs import LABEL_CHARS, cut_label, run_labels

    long = "dl19.SPLADE_P_P_ENSEMBLE_DISTIL"
    assert cut_label("dl19.BM25") == "dl19.BM25"
    assert cut_label(long) == "dl19.SPLADE…EMBLE_DISTIL" and len(cut_label(long)) == LABEL_CHARS
    # two names alike at both ends keep more of themselves, until they read apart
    a, b = "x" * 14 + "A" + "y" * 30, "x" * 14 + "B" + "y" * 30
    labels = run_labels([a, b, "short"])
    assert labels["short"] == "short" and labels[a] != labels[b]
    assert "A" in labels[a] and "…" in labels[a] and len(labels[a]) < len(a)
    # alike but in the very middle: whole
    c, d = "x" * 20 + "C" + "y" * 20, "x" * 20 + "D" + "y" * 20
    assert run_labels([c, d]) == {c: c, d: d}
    qrels = {"q": {"d": 1}}
    data = report_data(qrels, {long: {"q": {"d": 1.0}}, "bm25": {"q": {"d": 0.5}}}, ["AP"],
                       max_k=3, top_k=3)
    specs = chart_specs(data)
    legend = specs["pr"]["layer"][0]["encoding"]["color"]["legend"]
    assert f'"{long}" ? "dl19.SPLADE…EMBLE_DISTIL"' in legend["labelExpr"]
    assert specs["grades"]["encoding"]["y"]["axis"] == legend
    assert specs["distributions"]["encoding"]["row"]["header"] == legend
    # tooltips and the data keep the whole name
    assert {"field": "run"} in specs["pr"]["layer"][0]["encoding"]["tooltip"]
    assert long in {row["run"] for row in specs["pr"]["data"]["values"]}
    assert specs["differences"]["encoding"]["y"]["title"] in (
        "run - bm25", "run - dl19.SPLADE…EMBLE_DISTIL")
