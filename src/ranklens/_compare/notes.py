"""The sentences under a comparison table: what the marks mean and the test's settings.

The HTML report's summary (:mod:`ranklens._report.marks`) prints the same sentences.
"""

from __future__ import annotations

from .._render.model import DOWN, UP
from .view import ComparisonView

__all__ = ["LARGE_N", "TEST_NAMES", "footer"]

TEST_NAMES = {
    "t": "paired t-test",
    "randomization": "paired randomization test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "bootstrap": "paired bootstrap test",
    "tukey": "topic-blocked Tukey HSD",
    "randomized-tukey": "randomised Tukey HSD",
}
_CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "fdr_bh": "Benjamini-Hochberg",
                     "none": "no correction"}
#: Above this many queries almost any difference is significant (Ihemelandu and Ekstrand).
LARGE_N = 1000


def footer(cmp: ComparisonView) -> list[str]:
    """The settings under a table, one sentence per line: the marks' meaning (test,
    correction, level), then n, permutations, resamples and seed."""
    k = len(cmp.run_names)
    per = len(cmp.pairs) // max(1, len(cmp.measures)) if cmp.correction_scope == "measure" \
        else len(cmp.pairs)
    test = TEST_NAMES[cmp.test]
    if cmp.correction in _CORRECTION_NAMES:
        scope = "of each measure" if cmp.correction_scope == "measure" else "of all measures"
        family = f"{per} comparison{'s' if per != 1 else ''} {scope}"
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
    detail = [f"n = {n_text} queries"]
    if cmp.permutations is not None:
        sampled = [p for p in cmp.pairs if not p.exact]
        detail.append(f"{cmp.permutations} permutations" + ("" if sampled else
                                                             " (all exact)"))
    if cmp.resamples is not None:
        what = f"{cmp.ci} bootstrap intervals" if cmp.ci != "t" else "bootstrap"
        detail.append(f"{what}, {cmp.resamples} resamples")
    detail.append(f"seed {cmp.seed}")
    lines.append("; ".join(detail) + ".")
    if ns and ns[-1] >= LARGE_N:
        lines.append(f"With {ns[-1]} queries small differences are significant: read the "
                     "differences, intervals and effect sizes, not only the marks.")
    return lines
