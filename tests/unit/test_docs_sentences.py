"""Short sentences in the user docs (issue 44): scripts/docs_sentences.py counts them per page,
and every page present meets the targets (mean <= 20 words, at most 10% over 35)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "docs_sentences.py"
_spec = importlib.util.spec_from_file_location("docs_sentences", SCRIPT)
assert _spec is not None and _spec.loader is not None
ds = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ds)

@pytest.mark.parametrize("path", ds.pages(ROOT), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_meets_the_sentence_targets(path: Path) -> None:
    count, mean, long_share = ds.page_stats(path)
    why = ds.misses(mean, long_share)
    assert why == "", f"{path.relative_to(ROOT)}: {why} ({count} sentences)"


def test_every_user_page_is_checked() -> None:
    names = [p.relative_to(ROOT).as_posix() for p in ds.pages(ROOT)]
    assert names[0] == "README.md"
    assert {"docs/conventions.md", "docs/scale.md", "docs/trec_eval.md"} <= set(names)
    assert not {"docs/architecture.md", "docs/benchmarks.md"} & set(names)


@pytest.mark.parametrize(("markdown", "expected"), [
    ("One two three. Four five six seven.", [3, 4]),
    ("Is it so? Yes it is! 一 二 三。 one 1 2 3", [3, 3, 3, 4]),
    ("```python\nx = 1. y = 2. z = 3.\n```\nOne two three.", [3]),
    ("~~~\na b c. d e f.\n~~~\n", []),
    ("| a b c. | d e f. |\n|---|---|\n| x y z. | u v w. |\nOne two three.", [3]),
    ("# A heading of five words\n\nOne two three.", [3]),
    ("<!-- a comment.\nstill one. -->\nOne two three.", [3]),
    ("Run `ranklens evaluate qrels run -m AP` now please.", [4]),
    ("A span `that wraps\nto a line` counts as one.", [6]),
    ("See [the long link text](docs/x.md) here.", [6]),
    ("![a picture of many words](x.png)\nOne two three.", [3]),
    ("Options:\n- one two three\n- four five six seven\n* a b c\n1. d e f", [3, 4, 3, 3]),
    ("First paragraph has four\n\nsecond one has four", [4, 4]),
    ("Too short. Ok then. Three words here.", [3]),
    ("(A sentence in parentheses.) Then three more.", [4, 3]),
    ("순위 평가 지표를 설명합니다. 두 번째 문장입니다 여기.", [4, 4]),
])
def test_sentence_lengths_closed_form(markdown: str, expected: list[int]) -> None:
    assert ds.sentence_lengths(markdown) == expected


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
_NOISE = st.sampled_from(["```\nnot. counted. here.\n```", "| x. y. | z. w. |",
                          "## A heading. Not counted.", "<!-- no. -->"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.lists(_WORD, min_size=3, max_size=50), min_size=1, max_size=5),
                min_size=1, max_size=6), st.lists(_NOISE, max_size=6))
def test_sentence_lengths_equal_the_generated_page(paragraphs: list[list[list[str]]],
                                                   noise: list[str]) -> None:
    """A page written from known sentences, with code, tables and headings between them."""
    blocks = [" ".join(" ".join(s) + "." for s in para) for para in paragraphs]
    for i, extra in enumerate(noise):
        blocks.insert(min(i * 2, len(blocks)), extra)
    expected = [len(s) for para in paragraphs for s in para]
    assert ds.sentence_lengths("\n\n".join(blocks)) == expected


@pytest.mark.parametrize(("mean", "share", "why"), [
    (20.0, 0.10, ""),
    (20.1, 0.0, "mean 20.1 words > 20"),
    (12.0, 0.11, "11% of sentences over 35 words > 10%"),
    (21.0, 0.5, "mean 21.0 words > 20; 50% of sentences over 35 words > 10%"),
])
def test_misses_names_each_target(mean: float, share: float, why: str) -> None:
    assert ds.misses(mean, share) == why


def test_script_reports_each_page_and_fails_on_a_long_one(tmp_path: Path) -> None:
    long = " ".join(["word"] * 40) + "."
    (tmp_path / "docs" / "ko").mkdir(parents=True)
    (tmp_path / "README.md").write_text("Short and clear here.\n", encoding="utf-8")
    (tmp_path / "docs" / "long.md").write_text(f"{long} Short and clear.\n", encoding="utf-8")
    (tmp_path / "docs" / "ko" / "index.md").write_text("한국어 문장 하나 입니다.\n", "utf-8")
    (tmp_path / "docs" / "architecture.md").write_text(long + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                         text=True, check=False)
    assert out.returncode == 1, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:-1]}
    assert list(rows) == ["README.md", "docs/ko/index.md", "docs/long.md"]
    assert rows["README.md"].split()[1:] == ["1", "4.0", "0%"]
    assert rows["docs/ko/index.md"].split()[1:] == ["1", "4.0", "0%"]
    assert rows["docs/long.md"].split()[1:4] == ["2", "21.5", "50%"]
    assert rows["docs/long.md"].endswith(
        "MISSES: mean 21.5 words > 20; 50% of sentences over 35 words > 10%")
    assert out.stdout.splitlines()[-1].startswith("1 page(s) miss the targets")


def test_script_exits_0_when_every_page_meets_the_targets(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("Short and clear here.\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].startswith("0 page(s) miss the targets")
