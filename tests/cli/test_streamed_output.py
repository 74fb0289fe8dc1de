"""Per-query output is streamed (issue 39, item 1): ``evaluate --per-query`` writes its rows as
they are made, so a chunked evaluation's output stays under ``--memory-limit``; the bytes are
the in-memory render's in every format."""

from __future__ import annotations

import math
import os
import tracemalloc
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import run, write
from hypothesis import given, settings
from hypothesis import strategies as st

import ranklens
from ranklens._surfaces.render import FORMATS, render_lines, results
from ranklens._surfaces.render import text as text_format
from ranklens.cli._evaluate import write_output

STREAMED = ("table", "csv", "tsv", "jsonl", "trec")
MEASURES = ["AP", "nDCG@10", "num_ret"]


@pytest.fixture(scope="module")
def many() -> list[ranklens.Result]:
    """Two runs of 3,000 queries: their per-query output is up to a megabyte."""
    n = 3000
    qrels = {f"q{i}": {"d1": 1, "d2": i % 3} for i in range(n)}
    return [ranklens.evaluate(qrels, {f"q{i}": {"d1": (i * k % 5) / 3, "d2": 0.5, "d3": 0.1}
                                      for i in range(n)}, MEASURES, run_name=name)
            for k, name in ((7, "a"), (3, "b"))]


@pytest.mark.parametrize("fmt", STREAMED)
def test_per_query_output_is_written_as_it_is_made(fmt: str, many: list[ranklens.Result],
                                                   tmp_path: Path) -> None:
    """What writing holds is bounded by the rows made at a time, not by the queries (the
    previous main built the whole output first: 7-16 MB here)."""
    out = tmp_path / f"out.{fmt}"
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        write_output(many, fmt, True, str(out), ["a", "b"])  # type: ignore[arg-type]
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    assert out.read_text() == ranklens.render(many, fmt, per_query=True)  # type: ignore[arg-type]
    assert os.path.getsize(out) > 150_000 and peak < 2_000_000, peak


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("per_query", [False, True])
def test_pieces_join_into_the_render(fmt: str, per_query: bool,
                                     many: list[ranklens.Result]) -> None:
    pieces = render_lines(many, fmt, per_query=per_query)  # type: ignore[arg-type]
    assert not isinstance(pieces, str)
    assert "".join(pieces) == ranklens.render(many, fmt, per_query=per_query)  # type: ignore[arg-type]


def test_csv_by_a_direct_writer(many: list[ranklens.Result]) -> None:
    """Across the blocks of rows made at a time, every query once, in order."""
    lines = ["run,query," + ",".join(MEASURES)]
    for r in many:
        lines += [f"{r.run_name},{q}," + ",".join(
            str(int(v)) if m == "num_ret" else repr(float(v))
            for m, v in ((m, r.query_values[m][j]) for m in MEASURES))
                  for j, q in enumerate(r.query_ids.tolist())]
        lines.append(f"{r.run_name},all," + ",".join(
            str(int(r.aggregates[m])) if m == "num_ret" else repr(float(r.aggregates[m]))
            for m in MEASURES))
    assert "".join(render_lines(many, "csv", per_query=True)) == "\n".join(lines) + "\n"


@pytest.mark.parametrize("fmt", STREAMED)
def test_block_size_does_not_change_the_bytes(fmt: str, many: list[ranklens.Result],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    whole = ranklens.render(many, fmt, per_query=True)  # type: ignore[arg-type]
    monkeypatch.setattr(results, "ROWS_AT_A_TIME", 7)
    assert "".join(render_lines(many, fmt, per_query=True)) == whole  # type: ignore[arg-type]


values = st.one_of(st.floats(allow_nan=True, allow_infinity=False, width=32),
                   st.integers(-10**6, 10**6).map(float))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.text("qé0123456789", min_size=1, max_size=12), values, values),
                min_size=1, max_size=8, unique_by=lambda t: t[0]))
def test_table_widths_from_values_equal_a_pass_over_rows(rows: list) -> None:
    """Plain text measures a query's values without making its row: the same widths."""
    import numpy as np

    base = ranklens.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["AP", "num_ret"])
    ids = np.array([q for q, _, _ in rows])
    got = replace(base, query_ids=ids, query_values={
        "AP": np.array([a for _, a, _ in rows]),
        "num_ret": np.array([abs(c) if not math.isnan(c) else c for _, _, c in rows])})
    grid = results.results_grid([got], None, True)
    table = results.grid_table(grid, query_column=True)
    assert table.widths is not None
    assert "".join(text_format.lines(table)) == "".join(
        text_format.lines(replace(table, widths=None)))


@pytest.mark.parametrize("fmt", STREAMED)
def test_chunked_command_line_output_equals_in_memory(fmt: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from ranklens._surfaces.chunked import choose

    qrels = write(tmp_path / "qrels.txt", "".join(f"q{i} 0 d{i % 4} {i % 2}\n"
                                                  for i in range(60)))
    runf = write(tmp_path / "run.txt", "".join(f"q{i} Q0 d{j} {j} {1 / (j + 1)} r\n"
                                               for i in range(60) for j in range(4)))
    args = ["evaluate", str(qrels), str(runf), "-m", "AP", "-m", "P@2", "--per-query",
            "-f", fmt]
    memory = run(args, capsys)
    monkeypatch.setattr(choose, "estimated_rows", lambda path: 3_000_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chunked = run([*args, "--memory-limit", "150MB", "-v", "-o",
                       str(tmp_path / "out")], capsys)
    assert memory.code == chunked.code == 0
    assert "chunked" in chunked.err
    assert (tmp_path / "out").read_text() == memory.out
