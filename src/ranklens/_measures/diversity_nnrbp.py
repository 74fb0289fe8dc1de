"""nNRBP, NRBP normalised by an ideal ranking (Clarke, Kolla and Vechtomova, ICTIR 2009), as
ndeval computes it (TREC Web track 2009-2014; ir_measures' ``nNRBP``).

NRBP (:mod:`ranklens._measures.diversity_nrbp`) divided by the NRBP of ndeval's greedy
ideal ranking of every judged document. A query without a relevant subtopic scores 0.
"""

from __future__ import annotations

from ._diversity import PATIENT, novelty_measure, over_greedy_ideal, patience_discounted

# no cutoff: the whole ranking over the whole greedy ideal
novelty_measure(
    __name__, "nNRBP",
    "NRBP divided by the NRBP of ndeval's greedy ideal ranking (Clarke et al. 2009, "
    "ndeval); needs subtopic judgments",
    ("nnrbp",), over_greedy_ideal, patience_discounted, PATIENT)
