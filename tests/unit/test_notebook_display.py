"""Results that show themselves in a notebook (issue 44, item 5): ``_repr_html_`` parses as
HTML, holds the values and the conventions in force, escapes every string and is bounded;
``__repr__`` is readable and bounded."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest

import ranklens
from ranklens._results.per_query import Frames
from ranklens._surfaces.render.notebook import SHOWN_COLUMNS, SHOWN_ROWS

HOSTILE = "<b>x</b>&"
QRELS = {"q1": {"a": 1, "b": 2}, "q2": {"c": 1}, "q3": {"a": 1}}
RUNS = {"bm25": {"q1": {"a": 2.0, "b": 1.0}, "q2": {"c": 1.0}, "q3": {"z": 1.0}},
        HOSTILE: {"q1": {"b": 2.0, "z": 1.0}, "q2": {"z": 1.0}, "q3": {"a": 1.0}}}


class Cells(HTMLParser):
    """The text of each table row's cells, and of every paragraph."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.paragraphs: list[str] = []
        self._in: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self._in = "cell"
        elif tag == "p":
            self.paragraphs.append("")
            self._in = "p"

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "p"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "cell":
            self.rows[-1][-1] += data
        elif self._in == "p":
            self.paragraphs[-1] += data


def parsed(html: str) -> Cells:
    """Well-formed (an XML parser reads the fragment) and its cells."""
    ET.fromstring(f"<root>{html}</root>")
    assert "<b>x</b>" not in html  # every string from the inputs is escaped
    return Cells(html)


def test_a_result_shows_each_measure_and_the_conventions() -> None:
    r = ranklens.evaluate(QRELS, RUNS[HOSTILE], ["P@1", "nDCG@10", "num_ret"], ties="input",
                          run_name=HOSTILE)
    got = parsed(r._repr_html_())
    assert got.rows == [["measure", "value"], ["P@1", f"{r['P@1']:.4f}"],
                        ["nDCG@10", f"{r['nDCG@10']:.4f}"], ["num_ret", "4"]]
    assert got.paragraphs[0] == f"Result {HOSTILE} over 3 queries"
    assert got.paragraphs[-1].startswith("convention: trec (ties=input, rel=1")
    assert repr(r).startswith(f"<Result {HOSTILE}: P@1={r['P@1']:.4f}, ")


def test_results_show_a_row_per_run() -> None:
    rs = ranklens.evaluate(QRELS, RUNS, ["P@1", "AP"])
    got = parsed(rs._repr_html_())
    assert got.rows == [["run", "P@1", "AP"]] + [
        [name, f"{rs[name]['P@1']:.4f}", f"{rs[name]['AP']:.4f}"] for name in RUNS]
    assert "convention: trec" in got.paragraphs[-1]


def test_rows_columns_and_reprs_are_bounded() -> None:
    measures = [f"P@{k}" for k in range(1, SHOWN_ROWS + 6)]
    r = ranklens.evaluate(QRELS, RUNS["bm25"], measures)
    got = parsed(r._repr_html_())
    assert len(got.rows) == 1 + SHOWN_ROWS and got.rows[-1][0] == f"P@{SHOWN_ROWS}"
    assert "... 5 more rows" in got.paragraphs
    assert repr(r).count("=") == SHOWN_ROWS + 2 and "... 5 more" in repr(r)  # with ties=, ...=
    runs = {f"r{i}": RUNS["bm25"] for i in range(SHOWN_ROWS + 2)}
    rs = ranklens.evaluate(QRELS, runs, measures)
    got = parsed(rs._repr_html_())
    assert len(got.rows) == 1 + SHOWN_ROWS and len(got.rows[0]) == SHOWN_COLUMNS
    assert {"... 2 more rows", f"... {len(measures) + 1 - SHOWN_COLUMNS} more columns"} <= set(
        got.paragraphs)
    assert "r19, ... 2 more)" in repr(rs)


def test_a_comparison_shows_its_means_test_and_conventions() -> None:
    cmp = ranklens.compare(QRELS, RUNS, ["P@1"], baseline="bm25", rel=2)
    got = parsed(cmp._repr_html_())
    means = cmp.means["P@1"]
    assert [row[1] for row in got.rows[1:]] == [f"{means[n]:.4f}" for n in RUNS]
    assert any("paired t-test" in p for p in got.paragraphs)
    assert "rel=2" in got.paragraphs[-1]


def test_an_agreement_and_the_judges_report() -> None:
    agree = ranklens.agreement(RUNS["bm25"], RUNS[HOSTILE], ["Overlap@1", "RBO(p=0.9)"])
    got = parsed(agree._repr_html_())
    assert got.rows[1][-2:] == [f"{agree['Overlap@1']:.4f}", f"{agree['RBO(p=0.9)']:.4f}"]
    people = {"q1": {"a": 0, "b": 1, "c": 2}, "q2": {"a": 1, "b": 2}}
    report = ranklens.judges({"people": people, HOSTILE: {"q1": {"a": 1, "b": 1, "c": 2},
                                                          "q2": {"a": 1, "b": 2}}},
                             resamples=20, seed=3)
    got = parsed(report._repr_html_())
    kappa = report.pairs[0].statistics[0]
    assert got.rows[0] == ["statistic", f"{HOSTILE} against people"]
    assert got.rows[1] == ["kappa", f"{kappa.value:.4f} [{kappa.low:.4f}, {kappa.high:.4f}]"]
    assert "intervals: 95% percentile bootstrap over queries, 20 resamples, seed 3" in (
        got.paragraphs)
    assert repr(report) == (f"<JudgesReport of 2 judges: {HOSTILE} against people: 5 pairs, "
                            f"kappa={kappa.value:.4f}, kappa_linear="
                            f"{report.pairs[0].statistics[1].value:.4f}, kappa_quadratic="
                            f"{report.pairs[0].statistics[2].value:.4f}>")


def test_a_fusion_tuning_shows_its_folds() -> None:
    tuned = ranklens.optimize_fusion(QRELS, list(RUNS.values()), "rrf", "P@1",
                                     grid={"k": [1, 60]}, folds=3)
    got = parsed(tuned._repr_html_())
    assert len(got.rows) == 4 and got.rows[1][1] == "1"
    assert got.rows[1][4] == f"{tuned.folds[0].test_value:.4f}"
    assert repr(tuned) == (f"<FusionTuning: held-out P@1={tuned.value:.4f} over 3 folds, "
                           "2 grid points>")
    assert "convention: trec" in got.paragraphs[-1]


def test_without_the_renderers_only_the_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    r = ranklens.evaluate(QRELS, RUNS["bm25"], ["P@1"])
    monkeypatch.setattr(Frames, "html_writer", None)
    assert r._repr_html_() is None
    monkeypatch.undo()
    assert r._repr_html_() is not None
    assert Frames.html_writer is not None and Frames.html_writer(object()) is None


def test_docstring_examples() -> None:
    import doctest

    from ranklens._surfaces.render import notebook

    failed, tried = doctest.testmod(notebook)
    assert tried and not failed


def fields(got: Cells) -> dict[str, str]:
    """The first table's ``field, value`` rows."""
    return {row[0]: row[1] for row in got.rows[1:] if len(row) == 2}


def test_a_pair_comparison_and_a_rank_correlation() -> None:
    pair = ranklens.compare(QRELS, RUNS, ["P@1"], baseline="bm25", rel=2).pairs[0]
    got = parsed(pair._repr_html_())
    assert got.paragraphs[0] == "PairComparison"
    assert {"system": HOSTILE, "baseline": "bm25", "difference": f"{pair.difference:.4f}",
            "p_value": f"{pair.p_value:.4f}", "significant": str(pair.significant)}.items() <= (
        fields(got).items())
    assert [[q, f"{d:.4f}"] for q, d in pair.per_query().items()] == got.rows[-3:]
    assert "rel=2" in got.paragraphs[-1]
    rs = ranklens.evaluate(QRELS, RUNS, ["P@1", "AP"])
    corr = ranklens.rank_correlation(rs, rs, "AP", measure_b="P@1")
    got = parsed(corr._repr_html_())
    assert {"method": "kendall", "coefficient": f"{corr.coefficient:.4f}",
            "systems": ", ".join(corr.systems)}.items() <= fields(got).items()
    assert got.rows[-2:] == [[r, str(a), str(b), f"{va:.4f}", f"{vb:.4f}"]
                             for r, a, b, va, vb in corr.to_polars().rows()]
    assert repr(corr) == (f"<RankCorrelation kendall={corr.coefficient:.4f} of 2 systems "
                          f"(AP against P@1): {corr.swaps} of 1 pairs swapped>")


def test_a_residual_and_an_agreement_matrix_are_bounded() -> None:
    measures = [f"P@{k}" for k in range(1, SHOWN_ROWS + 4)]
    res = ranklens.residual(QRELS, RUNS[HOSTILE], measures, run_name=HOSTILE)
    got = parsed(res._repr_html_())
    assert fields(got)["grade"] == f"{res.grade:.4f}"
    assert got.rows[-3] == ["q1", *(f"{v:.4f}" for v in res.to_polars().row(0)[1:SHOWN_COLUMNS])]
    assert any("more columns" in p for p in got.paragraphs)
    assert "convention: trec" in got.paragraphs[-1]
    assert repr(res).count("=[") == SHOWN_ROWS and "... 3 more over 3 queries" in repr(res)
    matrix = ranklens.agreement(RUNS, measures=["Overlap@1"])
    got = parsed(matrix._repr_html_())
    overlap = matrix["Overlap@1"]
    assert got.rows[-2:] == [["Overlap@1", run, *(f"{v:.4f}" for v in overlap[i])]
                             for i, run in enumerate(RUNS)]
    assert repr(matrix) == "AgreementMatrix(2 runs, Overlap@1)"


def test_frames_of_sampled_segments_and_a_pool_show_their_first_rows() -> None:
    n = SHOWN_ROWS + 5
    cases = {"user_id": [f"u{i}" for i in range(n)], "sampled_rank": [1 + i % 9 for i in
                                                                     range(n)],
             "negatives": [9] * n, "catalogue": [100] * n}
    s = ranklens.sampled({HOSTILE: cases}, "Recall@10", estimators=["naive"])
    got = parsed(s._repr_html_())
    assert got.paragraphs[:3] == ["values", "... 5 more rows", "summary"]
    assert sum(1 for row in got.rows if row[0] == HOSTILE) == SHOWN_ROWS + 1
    assert [HOSTILE, "Recall@10", "naive", str(n), f"{s.summary['mean'][0]:.4f}"] == (
        got.rows[-2][:5])
    assert repr(s) == f"<Sampled {HOSTILE} on Recall@10 by naive: {n} values>"
    queries = {f"q{i}": {"a": 1} for i in range(6)}
    runs = {"x": {f"q{i}": {"a": 1.0} for i in range(6)},
            "y": {f"q{i}": {"a": 1.0} if i % 2 else {"b": 1.0} for i in range(6)}}
    cmp = ranklens.compare(queries, runs, ["P@1"], baseline="x")
    seg = ranklens.segments(cmp, {f"q{i}": HOSTILE if i % 2 else "even" for i in range(6)})
    got = parsed(seg._repr_html_())
    assert fields(got)["correction"] == seg.correction
    assert sum(1 for row in got.rows if row and row[0] == HOSTILE) == (
        seg.means.filter(group=HOSTILE).height + seg.pairs.filter(group=HOSTILE).height)
    assert repr(seg) == f"<Segments: 2 groups, 2 pair rows, {seg.correction} correction>"
    p = ranklens.pool([RUNS["bm25"], {"q1": {HOSTILE: 1.0}}], depth=1)
    got = parsed(p._repr_html_())
    assert fields(got)["depth"] == "1" and [HOSTILE, "1", "1"] in [r[1:] for r in got.rows]


def test_off_policy_estimates_and_power_show_their_numbers_and_settings() -> None:
    log = {"slate": [1, 1, 2, 2], "position": [1, 2, 1, 2], "reward": [1, 0, 0, 1],
           "pscore": [.5, .4, .5, .6], "target_pscore": [.7, .3, .4, .5]}
    est = ranklens.off_policy(log, resamples=20, seed=1)
    got = fields(parsed(est._repr_html_()))
    assert got == {f: _text(getattr(est, f)) for f in est.__dataclass_fields__}
    two = ranklens.compare_policies({**log, "old": log["pscore"]},
                                    {"new": "target_pscore", "old": "old"})
    got = fields(parsed(two._repr_html_()))
    assert got["names"] == "new, old" and got["difference"] == f"{two.difference:.4f}"
    pilot = [[0.4 + 0.01 * i, 0.5 - 0.02 * (i % 3)] for i in range(20)]
    pw = ranklens.power(pilot, min_diff=0.05)
    got = fields(parsed(pw._repr_html_()))
    assert got["queries_needed"] == str(pw.queries_needed) and got["alpha"] == "0.0500"
    assert got["sd_source"] == pw.sd_source


def _text(value: object) -> str:
    """A field's value as the table shows it, written here apart from the renderer."""
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def test_a_trec_eval_report_shows_its_all_lines() -> None:
    report = ranklens.trec_eval(QRELS, RUNS["bm25"], ["map", "P.5", "num_ret"])
    got = parsed(report._repr_html_())
    lines = [line.split("\t") for line in report.text().splitlines()]
    assert got.rows[-3:] == [[name.strip(), value] for name, _, value in lines]
    assert fields(got)["query_ids"] == "q1, q2, q3"
    assert repr(report) == ("<TrecEvalReport run: " + ", ".join(
        f"{name.strip()}={value}" for name, _, value in lines) + " over 3 topics>")


def test_many_systems_are_bounded() -> None:
    runs = {f"{HOSTILE}{i}": RUNS["bm25"] for i in range(SHOWN_ROWS + 3)}
    rs = ranklens.evaluate(QRELS, runs, ["P@1"])
    corr = ranklens.rank_correlation(rs, rs, "P@1")
    got = parsed(corr._repr_html_())
    assert fields(got)["systems"].endswith(", ... 3 more")
    assert "... 3 more rows" in got.paragraphs and len(got.rows[-1]) == 5
    assert len(repr(corr)) < 120
