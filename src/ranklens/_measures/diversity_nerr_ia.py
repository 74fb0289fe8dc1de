"""nERR-IA@k, intent-aware ERR normalised by an ideal ranking (Chapelle et al., CIKM 2009),
as ndeval computes it (TREC Web track 2009-2014; ir_measures' ``nERR_IA@k``).

ERR-IA@k's sum ``sum over r <= k of G_r / r`` (see :mod:`ranklens._measures.diversity_err_ia`)
divided by the same sum for ndeval's greedy ideal ranking of the judged documents (the
one alpha-nDCG divides by). A query without a relevant subtopic scores 0, and so does a
ranking with nothing relevant in its top k.
"""

from __future__ import annotations

from ._diversity import novelty_measure, over_greedy_ideal, rank_discounted

novelty_measure(
    __name__, "nERR-IA",
    "intent-aware expected reciprocal rank normalised by ndeval's greedy ideal "
    "ranking (Chapelle et al. 2009, ndeval); needs subtopic judgments",
    ("nerr_ia", "nerr-ia"), over_greedy_ideal, rank_discounted)
