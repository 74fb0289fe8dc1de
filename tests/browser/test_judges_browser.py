"""The judges' HTML page in Debian's Chromium: no console error, the heatmap, grade bars
and scatter drawn, a judge named with markup shown as text."""

from __future__ import annotations

from pathlib import Path

from test_report_browser import _require, chromium_page, open_rendered

import ranklens

DATA = Path(__file__).resolve().parents[2] / "src" / "ranklens" / "data"
HOSTILE = "llm <b>v2</b>"


def test_judges_page_renders_in_chromium(tmp_path: Path) -> None:
    _require()
    report = ranklens.judges({"people": DATA / "demo.qrels", HOSTILE: DATA / "demo-llm.qrels"},
                             {"bm25": DATA / "demo-bm25.run", "dense": DATA / "demo-dense.run"},
                             resamples=50)
    path = tmp_path / "judges.html"
    path.write_text(report.render("html"), encoding="utf-8")
    problems: list[str] = []
    with chromium_page(problems) as page:
        page.on("request", lambda r: problems.append(f"request {r.url}")
                if not r.url.startswith("file://") else None)
        open_rendered(page, path, 30_000)
        assert page.locator("#chart-confusion-0 svg g.mark-rect.role-mark path").count() == 16
        assert page.locator("#chart-grades-0 svg g.mark-rect.role-mark path").count() == 8
        assert page.locator("#chart-scatter-0 svg g.mark-symbol.role-mark path").count() == 2
        assert page.locator("#chart-scatter-0 svg g.mark-line.role-mark path").count() == 1
        assert page.locator("#decisions-0 tbody tr").count() == 3
        assert page.locator("#tests-0 tbody tr").count() == 2  # Stuart-Maxwell, Bowker
        assert HOSTILE in page.inner_text("body") and page.locator("b").count() == 0
        page.screenshot(path=str(tmp_path / "judges.png"), full_page=True)
    assert problems == []


def test_report_judges_section_renders_in_chromium(tmp_path: Path) -> None:
    _require()
    path = tmp_path / "report.html"
    ranklens.report(DATA / "demo.qrels", {"bm25": DATA / "demo-bm25.run",
                                          "dense": DATA / "demo-dense.run"},
                    ["nDCG@10"], judges=DATA / "demo-llm.qrels", max_k=10, output=path)
    problems: list[str] = []
    with chromium_page(problems) as page:
        open_rendered(page, path, 30_000)
        assert page.locator("#chart-pr svg").count() == 1  # the report's own charts still drawn
        assert page.locator("#chart-judges-confusion-0 svg g.mark-rect.role-mark path"
                            ).count() == 16
        assert page.locator("#chart-judges-grades-0 svg g.mark-rect.role-mark path"
                            ).count() == 8
        assert page.locator("#chart-judges-scatter-0 svg g.mark-symbol.role-mark path"
                            ).count() == 2
        assert page.locator("#chart-judges-scatter-0 svg g.mark-line.role-mark path"
                            ).count() == 1
        assert page.locator("#judges-decisions-0 tbody tr").count() == 3
    assert problems == []
