"""The report's beyond-accuracy panel (``train=``, ``--train``): popularity bands, the
catalogue's own popularity and tail share on a closed-form toy case, the panel's measures
as evaluate gives them, its absence without training interactions, the CLI flags, and the
golden spec on the bundled recommender demo (checked by eye in Chromium once;
``RANKLENS_UPDATE_GOLDEN=1`` rewrites it after a deliberate change)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from cli_support import run

import ranklens
from ranklens._surfaces.report.beyond import BANDS, OUTSIDE
from ranklens._surfaces.report.build import report_data
from ranklens._surfaces.report.specs import chart_specs
from ranklens.cli._demo import recs_files

GOLDEN = Path(__file__).resolve().parent / "golden" / "report" / "beyond.json"

# ten catalogue items a..j, item number n held by 9 - n training users: a 9 users ... j 0,
# so each popularity band (BANDS = 10) holds one item, a the most popular, j the least
ITEMS = list("abcdefghij")
TRAIN = {f"t{u}": [item for n, item in enumerate(ITEMS) if u < 9 - n] for u in range(9)}
QRELS = {"u1": {"a": 1}, "u2": {"c": 1}}
# x: best-sellers only; y: the two least popular, one item outside the catalogue (z), and a
RUNS = {"x": {"u1": {"a": 2.0, "b": 1.0}, "u2": {"a": 2.0, "c": 1.0}},
        "y": {"u1": {"j": 2.0, "z": 1.0}, "u2": {"i": 2.0, "a": 1.0}}}


def test_popularity_bands_closed_form() -> None:
    assert BANDS == 10
    data = report_data(QRELS, RUNS, ["nDCG@2"], max_k=2, top_k=2, train=TRAIN, items=ITEMS)
    b = data.beyond
    assert b is not None and b.k == 2
    assert b.bands == ("1 (most popular)", "2", "3", "4", "5", "6", "7", "8", "9",
                       "10 (least popular)", OUTSIDE)
    x = [0.5, 0.25, 0.25, 0, 0, 0, 0, 0, 0, 0, 0]  # a twice, b, c
    y = [0.25, 0, 0, 0, 0, 0, 0, 0, 0.25, 0.25, 0.25]  # a, i, j, z outside
    np.testing.assert_allclose(b.shares, np.array([x, y]).T)
    np.testing.assert_allclose(b.catalogue_shares, [0.1] * 10 + [0.0])
    assert b.catalogue_size == 10
    assert b.catalogue_popularity == 4.5  # (9 + 8 + ... + 0) / 10
    # Elliot's rule: a..f hold 39 of the 45 pairs, the items before f only 35 < 0.8 * 45
    assert b.catalogue_tail == 0.4


def test_catalogue_tail_is_the_given_group() -> None:
    items = {item: "tail" if item in "hij" else "head" for item in ITEMS}
    data = report_data(QRELS, RUNS, ["nDCG@2"], max_k=2, top_k=2, train=TRAIN,
                       items=list(ITEMS), item_groups=items)
    assert data.beyond is not None and data.beyond.catalogue_tail == 0.3


def test_panel_measures_are_evaluates() -> None:
    data = report_data(QRELS, RUNS, ["nDCG@2"], max_k=2, top_k=2, train=TRAIN, items=ITEMS)
    b = data.beyond
    assert b is not None
    assert b.measures == ("Coverage@2", "Gini@2", "ARP@2", "APLT@2", "Novelty@2")
    res = ranklens.evaluate(QRELS, RUNS, list(b.measures), train=TRAIN, items=ITEMS)
    for m in b.measures:
        np.testing.assert_array_equal(b.aggregates[m], res.aggregates(m))
    # by hand: x covers a, b, c of ten; y covers a, i, j (z is outside)
    np.testing.assert_allclose(b.aggregates["Coverage@2"], [0.3, 0.3])
    # ARP: x (9 + 8) / 2 and (9 + 7) / 2; y (0 + 0) / 2 and (1 + 9) / 2
    np.testing.assert_allclose(b.aggregates["ARP@2"], [8.25, 2.5])


def test_no_panel_without_training_interactions() -> None:
    data = report_data(QRELS, RUNS, ["nDCG@2", "Coverage@2"], max_k=2, top_k=2, items=ITEMS)
    assert data.beyond is None and "beyond" not in chart_specs(data)
    html = ranklens.report(QRELS, RUNS, ["nDCG@2"], max_k=2, top_k=2)
    assert "Beyond accuracy" not in html and "beyond-table" not in html


def test_page_holds_the_panel_and_catalogue_measures_have_no_marks() -> None:
    # Coverage@2 requested in the summary: catalogue-level, so no significance test on it
    html = ranklens.report(QRELS, RUNS, ["nDCG@2", "Coverage@2"], max_k=2, top_k=2,
                           train=TRAIN, items=ITEMS)
    table = re.search(r'<table id="beyond-table">.*?</table>', html, flags=re.S)
    assert table is not None
    assert table.group(0).count("<tr>") == 3  # the header and the two runs
    assert "<td>8.2500</td>" in table.group(0)  # x's ARP@2
    assert "The catalogue: 10 items, 4.5000 training users" in html
    specs = json.loads(re.search(r'id="ranklens-specs">(.*?)</script>', html,
                                 flags=re.S).group(1))
    assert list(specs)[-1] == "beyond"
    bars, ticks = specs["beyond"]["layer"]
    assert len(bars["data"]["values"]) == 2 * 11 and len(ticks["data"]["values"]) == 11


def test_cli_flags_add_the_panel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = recs_files()
    out = tmp_path / "r.html"
    outcome = run(["report", str(files["qrels"]), str(files["popular"]),
                   str(files["personal"]), "--train", str(files["train"]), "--items",
                   str(files["items"]), "-m", "nDCG@10", "-o", str(out)], capsys)
    assert outcome.code == 0, outcome.err
    html = out.read_text(encoding="utf-8")
    assert 'id="beyond-table"' in html and 'id="chart-beyond"' in html


def test_cli_refuses_to_write_over_a_table(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    files = recs_files()
    train = tmp_path / "train.txt"
    train.write_bytes(files["train"].read_bytes())
    outcome = run(["report", str(files["qrels"]), str(files["popular"]), "--train",
                   str(train), "-o", str(train)], capsys)
    assert outcome.code != 0 and "Traceback" not in outcome.err
    assert len(outcome.err.strip().splitlines()) == 1
    assert train.read_bytes() == files["train"].read_bytes()


def test_spec_matches_golden_on_the_bundled_demo() -> None:
    files = recs_files()
    data = report_data(str(files["qrels"]), {n: str(files[n]) for n in ("popular", "personal")},
                       ["nDCG@10"], max_k=10, top_k=10, train=str(files["train"]),
                       items=str(files["items"]))
    text = json.dumps(chart_specs(data)["beyond"], indent=1, sort_keys=True,
                      allow_nan=False) + "\n"
    if os.environ.get("RANKLENS_UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8"), f"the beyond spec changed; see {GOLDEN}"


def test_cli_refuses_tables_with_pairs(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    files = recs_files()
    pairs = tmp_path / "p.jsonl"
    pairs.write_text('{"query_id": "q1", "gold": ["a"], "retrieved": ["a"]}\n',
                     encoding="utf-8")
    outcome = run(["report", "--pairs", str(pairs), "--train", str(files["train"]), "-o",
                   str(tmp_path / "r.html")], capsys)
    assert outcome.code != 0 and "--train is for QRELS and RUNS" in outcome.err
    assert not (tmp_path / "r.html").exists()
