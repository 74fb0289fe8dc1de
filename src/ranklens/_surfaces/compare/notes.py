"""The sentences under a comparison table: what the marks mean and the test's settings.

The HTML report's summary (:mod:`ranklens._surfaces.report.marks`) prints the same sentences.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..._base.vocabulary import IR
from ..render.model import DOWN, UP

if TYPE_CHECKING:
    from .comparison import ComparisonData as Comparison

__all__ = ["LARGE_N", "TEST_NAMES", "footer"]

TEST_NAMES = {"t": "paired t-test", "randomization": "paired randomization test",
              "wilcoxon": "Wilcoxon signed-rank test", "sign": "sign test",
              "bootstrap": "paired bootstrap test", "tukey": "topic-blocked Tukey HSD",
              "randomized-tukey": "randomised Tukey HSD"}
_CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "Benjamini-Hochberg",
                     "none": "no correction"}
#: Above this many queries almost any difference is significant (Ihemelandu and Ekstrand).
LARGE_N = 1000


def _family_size(cmp: Comparison) -> str:
    """The comparisons in each family of the correction: those with a p-value (a pair with
    no test is left out), as "3", or "2-3" when the measures' families differ."""
    families: dict[str, int] = {}
    for p in cmp.pairs:
        key = p.measure if cmp.correction_scope == "measure" else ""
        families[key] = families.get(key, 0) + (p.p_value == p.p_value)  # NaN: no test
    sizes = sorted(set(families.values())) or [0]
    return f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"


def _pairs_n(cmp: Comparison) -> str:
    """Each pair's n, as "b vs a 19, c vs a 20" (with the measure where it differs)."""
    by_pair: dict[tuple[str, str], dict[str, int]] = {}
    for p in cmp.pairs:
        by_pair.setdefault((p.system, p.baseline), {})[p.measure] = p.n
    parts = []
    for (system, baseline), counts in by_pair.items():
        if len(set(counts.values())) == 1:
            parts.append(f"{system} vs {baseline} {next(iter(counts.values()))}")
        else:
            parts.append(f"{system} vs {baseline} " + ", ".join(
                f"{n} ({m})" for m, n in counts.items()))
    return "; ".join(parts)


def _pair_notes(cmp: Comparison) -> list[str]:
    """Sentences only a comparison with something unusual gets: pairs compared on different
    numbers of queries, pairs with no test, intervals clipped to the measure's range."""
    lines, queries = [], _queries(cmp)
    if len({p.n for p in cmp.pairs}) > 1:
        lines.append(f"{queries.capitalize()} compared per pair: {_pairs_n(cmp)}.")
    untested = [p for p in cmp.pairs if p.n < 2]
    if untested:
        lines.append(f"No test (fewer than 2 shared {queries}): " + "; ".join(
            f"{p.measure} {p.system} vs {p.baseline} (n = {p.n})" for p in untested) + ".")
    clipped = getattr(cmp, "clipped", ())
    if clipped:
        lines.append("Interval clipped to the measure's range [-1, 1]: " + "; ".join(
            f"{m} {s} vs {b}" for m, s, b in clipped) + ".")
    return lines


def _queries(cmp: Comparison) -> str:
    """The word for the queries compared: ``users`` for a recommender's results."""
    results = getattr(cmp, "results", None)  # None for a comparison made by hand
    return (IR if results is None else results.vocabulary).queries


def footer(cmp: Comparison) -> list[str]:
    """The settings under a table, one sentence per line: the marks' meaning (test,
    correction, level), then n, permutations, resamples and seed."""
    k = len(cmp.run_names)
    per = _family_size(cmp)
    test = TEST_NAMES[cmp.test]
    if cmp.correction in _CORRECTION_NAMES:
        scope = "of each measure" if cmp.correction_scope == "measure" else "of all measures"
        family = f"{per} comparison{'s' if per != '1' else ''} {scope}"
        corr = (f"{_CORRECTION_NAMES[cmp.correction]} correction over {family}"
                if cmp.correction != "none" else "no multiple-testing correction")
    else:
        corr = f"family-wise over the {k * (k - 1) // 2} pairs of runs"
    if cmp.baseline is not None:
        marks = f"{UP} / {DOWN}: significantly above / below the baseline {cmp.baseline}"
    else:
        marks = "letters: the runs this run is significantly above"
    level = "p" if cmp.correction == "none" else "adjusted p"
    lines = [f"{marks} ({test}, two-sided; {corr}; {level} < {cmp.alpha:g})."]
    ns = sorted({p.n for p in cmp.pairs})
    n_text = f"{ns[0]}" if len(ns) == 1 else f"{ns[0]}-{ns[-1]}"
    detail = [f"n = {n_text} {_queries(cmp)}"]
    if cmp.permutations is not None:
        sampled = [p for p in cmp.pairs if not p.exact]
        detail.append(f"{cmp.permutations} permutations" + ("" if sampled else
                                                             " (all exact)"))
    if cmp.resamples is not None:
        what = f"{cmp.ci} bootstrap intervals" if cmp.ci != "t" else "bootstrap"
        detail.append(f"{what}, {cmp.resamples} resamples")
    detail.append(f"seed {cmp.seed}")
    lines.append("; ".join(detail) + ".")
    lines += _pair_notes(cmp)
    if ns and ns[-1] >= LARGE_N:
        lines.append(f"With {ns[-1]} {_queries(cmp)} small differences are significant: "
                     "read the differences, intervals and effect sizes, not only the marks.")
    return lines
