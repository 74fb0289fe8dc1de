"""``ranklens compare`` / ``report``: explicit options honoured or refused on one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import run

import ranklens

DATA = Path(ranklens.__file__).parent / "data"
QRELS, BM25, DENSE = (str(DATA / f) for f in ("demo.qrels", "demo-bm25.run", "demo-dense.run"))


@pytest.mark.parametrize(("test", "correction"), [
    ("t", "tukey"), ("wilcoxon", "randomized-tukey"), ("tukey", "bonferroni")])
def test_a_conflicting_test_and_correction(capsys: pytest.CaptureFixture[str], test: str,
                                           correction: str, tmp_path: Path) -> None:
    for command in (["compare"], ["report", "-o", str(tmp_path / "r.html")]):
        out = run([*command, QRELS, BM25, DENSE, "-m", "P@10", "--test", test,
                   "--correction", correction], capsys)
        assert out.code == 2, out.err
        lines = out.err.strip().splitlines()
        assert len(lines) == 1, out.err
        assert (f"the 'test' option '{test}' and the 'correction' option '{correction}' "
                "conflict") in lines[0]


def test_a_correction_tukey_alone_selects_the_test(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    third = tmp_path / "third.run"
    third.write_text(Path(BM25).read_text().replace("bm25", "third"))
    out = run(["compare", QRELS, BM25, DENSE, str(third), "-m", "P@10", "--correction",
               "tukey"], capsys)
    assert out.code == 0, out.err
    assert "topic-blocked Tukey HSD" in out.out


def test_a_help_states_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["compare", "--help"], capsys)
    assert "default: t" in out.out and "default: holm" in " ".join(out.out.split())


def test_b_negative_seed_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for extra in (["--test", "randomization"], ["--ci", "bca"]):
        out = run(["compare", QRELS, BM25, DENSE, "-m", "P@10", "--seed", "-1", *extra],
                  capsys)
        assert out.code == 2, out.err
        lines = out.err.strip().splitlines()
        assert lines == ["ranklens: error: the 'seed' option must be an integer from 0 to "
                         "9223372036854775807; got -1"], out.err


def test_d_runs_with_no_query_in_common(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    lines = Path(BM25).read_text().splitlines()
    queries = sorted({line.split()[0] for line in lines})
    half = set(queries[: len(queries) // 2])
    first, second = tmp_path / "first.run", tmp_path / "second.run"
    first.write_text("\n".join(x for x in lines if x.split()[0] in half) + "\n")
    second.write_text("\n".join(x for x in lines if x.split()[0] not in half) + "\n")
    out = run(["compare", QRELS, str(first), str(second), "-m", "P@10", "--missing", "skip"],
              capsys)
    assert out.code == 0, out.err
    assert "n = 0 queries" in out.out
    # runs are named by their file names
    assert "No test (fewer than 2 shared queries): P@10 second vs first (n = 0)." in out.out
    assert "P@10: no test for second vs first (n = 0): fewer than 2 shared queries" in out.err
