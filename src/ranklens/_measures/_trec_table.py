"""trec_eval 10.0's measure table as data: its output order and its nicknames.

``ranklens trec_eval`` (:mod:`ranklens._surfaces.trec_eval.table`) prints in this order, and
``ranklens.evaluate``/``ranklens evaluate -m`` expand the nicknames (``official``,
``all_trec``, ...) from it (:mod:`ranklens._names.lists`). It lives in the measures
package because both read it and the names package, below the trec_eval package, must not
import that, and because a table listing measure names may live only with the measures
or with trec_eval's semantics (tests/unit/test_registry.py): the names package reads spellings
from the registry instead. The leading underscore keeps it out of the auto-discovered
measure modules.
"""

from __future__ import annotations

from ._prefs import PREF_REGISTRY

__all__ = ["JG", "NICKNAMES", "ORDER", "PREFS"]

# the preference measures, registered in trec_eval's table order
PREFS = tuple(PREF_REGISTRY)
JG = ("map_avgjg", "P_avgjg", "Rprec_mult_avgjg")

# the order of te_trec_measures in trec_eval's measures.c: every output follows it
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
