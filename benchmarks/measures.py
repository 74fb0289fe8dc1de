"""The measures every benchmark evaluates, as each tool spells them.

``MEASURES`` is the workload from the speed issue. Each tool's entry maps a ranklens name to
the tool's own name and, where the tool's convention differs, to the ranklens measure that
*does* match it plus a note; the agreement check compares against that measure instead of
hiding the difference.
"""

from __future__ import annotations

MEASURES = ("AP", "RR@10", "nDCG@10", "P@10", "R@1000", "Rprec")

#: tool -> {ranklens name: (tool's name, ranklens measure it equals, note or "")}
NAMES: dict[str, dict[str, tuple[str, str, str]]] = {
    "ranklens": {m: (m, m, "") for m in MEASURES},
    "pytrec_eval": {
        "AP": ("map", "AP", ""),
        "RR@10": ("recip_rank", "RR",
                  "trec_eval's recip_rank has no cutoff: compared with ranklens RR (uncut)"),
        "nDCG@10": ("ndcg_cut_10", "nDCG@10", ""),
        "P@10": ("P_10", "P@10", ""),
        "R@1000": ("recall_1000", "R@1000", ""),
        "Rprec": ("Rprec", "Rprec", ""),
    },
    "ranx": {
        "AP": ("map", "AP", ""),
        "RR@10": ("mrr@10", "RR@10", ""),
        "nDCG@10": ("ndcg@10", "nDCG@10", ""),
        "P@10": ("precision@10", "P@10", ""),
        "R@1000": ("recall@1000", "R@1000", ""),
        "Rprec": ("r-precision", "Rprec", ""),
    },
    "ir_measures": {m: (m, m, "") for m in MEASURES},
}


def tool_names(tool: str) -> list[str]:
    """The tool's own measure names, in ``MEASURES`` order."""
    return [NAMES[tool][m][0] for m in MEASURES]


def reference_measures() -> list[str]:
    """Every ranklens measure some tool's output is compared with."""
    out: list[str] = []
    for table in NAMES.values():
        for _, ref, _ in table.values():
            if ref not in out:
                out.append(ref)
    return out
