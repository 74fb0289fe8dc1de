"""Run names in the rendered report: three TREC DL 2019 runs given to ``ranklens report`` as
paths are named by their file names (not the paths, whose shared directory made every
legend entry read alike), long names are cut in the middle in legends and axes, and
tooltips show them whole. Read from the SVG that Debian's Chromium draws (Playwright)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_support import run
from conftest import conformance_root
from test_report_browser import _require, chromium_page, open_rendered

DL = conformance_root().parent / "realdata" / "dl"  # ../shared/realdata, as the conformance tests
RUNS = ("dl19.BM25.run.gz", "dl19.SPLADE_P_P_ENSEMBLE_DISTIL.run.gz", "dl19.REP_LLAMA.run.gz")
NAMES = ("dl19.BM25", "dl19.SPLADE_P_P_ENSEMBLE_DISTIL", "dl19.REP_LLAMA")


def _texts(page: Any, selector: str) -> list[str]:
    return [t.strip() for t in page.eval_on_selector_all(
        selector, "ts => ts.map(t => t.textContent)")]


def test_dl19_runs_given_as_paths_have_distinct_readable_legends(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _require()
    if not all((DL / f).exists() for f in (*RUNS, "qrels.dl19-passage.txt.gz")):
        pytest.skip(f"the TREC DL 2019 runs are not in {DL}")
    path = tmp_path / "report.html"
    out = run(["report", str(DL / "qrels.dl19-passage.txt.gz"), *(str(DL / f) for f in RUNS),
               "-m", "nDCG@10", "-m", "AP", "--max-k", "20", "-o", str(path)], capsys)
    assert out.code == 0, out.err

    problems: list[str] = []
    with chromium_page(problems) as page:
        open_rendered(page, path, 60_000)

        for chart in ("pr", "at-k", "judged"):
            legend = _texts(page, f"#chart-{chart} svg g.role-legend-label text")
            # distinct, short, and each the start and end of its run's name
            assert len(legend) == 3 and len(set(legend)) == 3, (chart, legend)
            assert legend[0] == "dl19.BM25" and legend[2] == "dl19.REP_LLAMA", legend
            assert legend[1] == "dl19.SPLADE…EMBLE_DISTIL", legend
            assert not any("/" in t or t.endswith(".gz") for t in legend), legend
            # nothing cut again by Vega's pixel limit: the label ends as the name does
            for label, name in zip(legend, NAMES, strict=True):
                head, _, tail = label.partition("…")
                assert name.startswith(head) and name.endswith(tail), (label, name)
        axis = _texts(page, "#chart-grades svg g.role-axis-label text")
        assert [t for t in axis if t.startswith("dl19")] == legend
        headers = _texts(page, "#chart-distributions svg g.role-row-header text")
        assert [t for t in headers if t.startswith("dl19")] == legend

        # the summary table and the tooltips name the runs whole
        summary = page.inner_text("#summary-table")
        assert all(name in summary for name in NAMES)
        bars = page.locator("#chart-grades svg g.role-mark path")
        described = page.eval_on_selector_all(
            "#chart-grades svg g.role-mark path",
            "ps => ps.map(p => p.getAttribute('aria-label') || '')")
        # a bar of the SPLADE run that has a width (an empty category has none)
        i = next(i for i, text in enumerate(described)
                 if f"run: {NAMES[1]};" in text and "docs: 0.00" not in text)
        bars.nth(i).hover()
        page.wait_for_selector("#vg-tooltip-element.visible", timeout=5_000)
        assert NAMES[1] in page.inner_text("#vg-tooltip-element")
    assert not problems, "\n".join(problems)
