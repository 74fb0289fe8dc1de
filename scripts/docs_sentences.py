"""Sentence length of the user docs, per page: sentences, mean words a sentence, share over 35.

The pages are README.md and docs/**/*.md (docs/ko too), but the contributors' pages
(docs/architecture.md, docs/benchmarks.md). Only prose counts: code blocks, tables, headings
and HTML comments are left out; an inline code span is one word, a link its text. A sentence
ends at ``.``, ``!``, ``?`` or ``。`` before a space, at a blank line, or where a list item
starts; a fragment under three words (a label, a lone link) is not a sentence. Words are
separated by spaces, in Korean too.

    python scripts/docs_sentences.py [ROOT]   # a table; exit status 1 when a page misses a target

A page misses a target when its mean is over 20 words or more than 10% of its sentences are
over 35 words (issue 44).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MAX_MEAN = 20.0
LONG = 35
MAX_LONG_SHARE = 0.10
CONTRIBUTOR_PAGES = ("docs/architecture.md", "docs/benchmarks.md")

_FENCED = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.S | re.M)
_CODE_SPAN = re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))+`")
_NOT_PROSE = re.compile(r"<!--(?:.|\n)*?-->|^[ \t]*(?:\|.*|#.*|!\[.*)$", re.M)  # tables, headings
_BREAK = re.compile(r"(?<=[.!?。])[\"')\]]*\s+|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+\.)[ \t]+")


def sentence_lengths(markdown: str) -> list[int]:
    """Words in each sentence of a page's prose, in order.

    >>> sentence_lengths("# Title\\n\\nOne two three. Four `a b c` five six!\\n\\n| x | y |\\n")
    [3, 4]
    """
    text = _FENCED.sub("", markdown)
    text = _CODE_SPAN.sub("CODE", text)  # one word, even when it wraps to the next line
    text = _NOT_PROSE.sub("", text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    words = (part.split() for part in _BREAK.split(text))
    return [len(w) for w in words if len(w) >= 3]


def pages(root: Path) -> list[Path]:
    """The user pages under ROOT: README.md, then docs/**/*.md but the contributors' pages."""
    found = sorted(p for p in (root / "docs").rglob("*.md")
                   if p.relative_to(root).as_posix() not in CONTRIBUTOR_PAGES)
    return [root / "README.md", *found]


def page_stats(path: Path) -> tuple[int, float, float]:
    """(sentences, mean words a sentence, share of sentences over 35 words) of one page."""
    lengths = sentence_lengths(path.read_text(encoding="utf-8"))
    count = max(1, len(lengths))
    return len(lengths), sum(lengths) / count, sum(n > LONG for n in lengths) / count


def misses(mean: float, long_share: float) -> str:
    """Why a page misses the targets, or "" when it meets them."""
    why = [f"mean {mean:.1f} words > {MAX_MEAN:g}"] if mean > MAX_MEAN else []
    if long_share > MAX_LONG_SHARE:
        why.append(f"{long_share:.0%} of sentences over {LONG} words > {MAX_LONG_SHARE:.0%}")
    return "; ".join(why)


def main(argv: list[str]) -> int:
    root = Path(argv[0] if argv else Path(__file__).resolve().parent.parent)
    failed = 0
    print(f"{'page':34s} {'sentences':>9s} {'mean':>6s} {'>35':>5s}")
    for path in pages(root):
        count, mean, long_share = page_stats(path)
        why = misses(mean, long_share)
        failed += bool(why)
        print(f"{path.relative_to(root).as_posix():34s} {count:9d} {mean:6.1f} "
              f"{long_share:5.0%}" + (f"  MISSES: {why}" if why else ""))
    print(f"{failed} page(s) miss the targets (mean <= {MAX_MEAN:g} words, "
          f"<= {MAX_LONG_SHARE:.0%} over {LONG})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
