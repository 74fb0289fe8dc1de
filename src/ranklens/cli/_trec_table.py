"""trec_eval 10.0's measure list: output order, nicknames and printing rules.

Output order is always the order of trec_eval's measure table (``te_trec_measures`` in
``measures.c``), whatever the order on the command line. Which ranklens measure computes
each name comes from the registry (``MeasureDef.trec`` / ``trec_cut``), so measures appear
here as soon as they are registered.
"""

from __future__ import annotations

__all__ = [
    "INTEGER",
    "JG",
    "NICKNAMES",
    "NO_PER_QUERY",
    "NO_SUMMARY",
    "ORDER",
    "PREFS",
    "PREFS_SUMS",
]

PREFS = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
    "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
)
JG = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")

ORDER = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
    "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel",
    "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
    "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", *PREFS, *JG, "yaap", "rbp",
    "rbp_resid", "unj",
)

NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
                 "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
                 "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret"),
    "all_prefs": ("runid", "num_q", *PREFS),
    "prefs": ("runid", "num_q", *PREFS[:6]),
    "qrels_jg": ("runid", "num_q", *JG),
}

# printed with %ld (summary and per query)
INTEGER = frozenset({
    "num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
})
PREFS_SUMS = frozenset(PREFS[:3])
NO_PER_QUERY = frozenset({"runid", "num_q", "gm_map", "gm_bpref"})
NO_SUMMARY = frozenset({"relstring"})
