"""Issue 42: the report's segments in Chromium: a facet per group with each run's mean and
interval, box plots per group and run, the measure menu redrawing both; no console warning
or error, hostile group names shown as text."""

from __future__ import annotations

from pathlib import Path

from test_report_browser import XSS_IMG, _hostile_inputs, _require, chromium_page, open_rendered

import ranklens


def test_segment_facets_and_box_plots_render_in_chromium(tmp_path: Path) -> None:
    _require()
    qrels, runs = _hostile_inputs()
    groups = {q: ["even" if i % 2 == 0 else "odd"] for i, q in enumerate(qrels)}
    for q in list(qrels)[:5]:
        groups[q].append(XSS_IMG)  # a third, overlapping group named like an attack
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["nDCG@10", "AP"], output=path, segments=groups)
    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 30_000)
        means = "#chart-segments-means svg g.role-mark"
        # 3 groups x 2 runs: a point and an interval rule each
        assert page.locator(f"{means}.mark-symbol path").count() == 6
        assert page.locator(f"{means}.mark-rule line").count() == 6
        # a box (rect) and whiskers (rules) per group and run
        box = "#chart-segments-box svg g.role-mark"
        assert page.locator(f"{box}.mark-rect path").count() == 2 * 6
        assert page.locator(f"{box}.mark-rule line").count() == 2 * 6
        headers = page.eval_on_selector("#chart-segments-means svg", "s => s.textContent")
        assert "even" in headers and "odd" in headers and XSS_IMG in headers
        assert page.locator("img").count() == 0

        before = page.eval_on_selector(f"{means}.mark-symbol", "g => g.innerHTML")
        page.locator("#chart-segments-means select").select_option(label="AP")
        page.wait_for_function(
            "b => document.querySelector('#chart-segments-means svg g.role-mark.mark-symbol')"
            ".innerHTML !== b", arg=before, timeout=5_000)
        assert page.locator(f"{means}.mark-symbol path").count() == 6
        page.locator("#segments-means").screenshot(path=str(tmp_path / "means.png"))
        page.locator("#segments-box").screenshot(path=str(tmp_path / "box.png"))
    assert not problems, "\n".join(problems)
    assert (tmp_path / "box.png").stat().st_size > 5_000


def test_the_run_menu_picks_the_runs_of_the_facets(tmp_path: Path) -> None:
    """Beyond ten runs the page's menu picks the runs drawn, in the facets too."""
    _require()
    qrels = {f"q{i}": {f"d{j}": (i + j) % 3 for j in range(6)} for i in range(20)}
    runs = {f"r{k}": {q: {f"d{j}": float((j * k + i) % 7) for j in range(6)}
                      for i, q in enumerate(qrels)} for k in range(12)}
    path = tmp_path / "report.html"
    ranklens.report(qrels, runs, ["AP"], max_k=5, output=path,
                    segments={q: "a" if i < 10 else "b" for i, q in enumerate(qrels)})
    points = "#chart-segments-means svg g.role-mark.mark-symbol path"
    problems: list[str] = []
    with chromium_page(problems, strict=True) as page:
        open_rendered(page, path, 60_000)
        assert page.locator(points).count() == 2 * 10  # two groups, the first ten runs
        page.locator("#run-select").select_option(["0", "1"])
        page.wait_for_function(f"document.querySelectorAll('{points}').length === 4",
                               timeout=5_000)
    assert not problems, "\n".join(problems)
