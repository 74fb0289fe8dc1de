"""Comparing systems: paired significance tests, corrections, intervals and effect sizes.

The modules, in the order a comparison uses them: :mod:`.differences` (paired differences
with float noise snapped to exact ties), :mod:`.paired` (t, Wilcoxon, sign),
:mod:`.randomization` (the sign-flip test and its documented random stream),
:mod:`.bootstrap` (intervals), :mod:`.tukey` (k-system tests), :mod:`.corrections`,
:mod:`.result` (the :class:`Comparison` container), :mod:`.api` (``compare``),
:mod:`.render` (the comparison as a table for :mod:`ranklens._surfaces.render`'s formats) with
:mod:`.notes` (the sentences under it) and :mod:`.view` (what both read of a comparison).
"""

from __future__ import annotations

from .api import compare, compare_results
from .pair import PairComparison
from .result import Comparison

__all__ = ["Comparison", "PairComparison", "compare", "compare_results"]
