"""Named measure sets of other evaluation suites: ``BEIR``, ``MTEB``, ``TREC-RAG``.

``ranklens.evaluate`` and ``ranklens evaluate -m`` expand a set's name (any case) into its
measures, in the suite's output order, as they expand trec_eval's ``official``.
"""

from __future__ import annotations

__all__ = ["MEASURE_SETS", "describe_set", "expand_set"]


def _cut(families: tuple[str, ...], depths: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(f"{family}@{k}" for family in families for k in depths)


#: each set's measures; BEIR's EvaluateRetrieval.evaluate and MTEB 2's retrieval scores
#: (pytrec_eval's map_cut, ndcg_cut, recall, P, success and the custom MRR@k), and the
#: TREC RAG tracks' official retrieval measures (trec_eval -c)
MEASURE_SETS: dict[str, tuple[str, ...]] = {
    "BEIR": _cut(("nDCG", "AP", "R", "P"), (1, 3, 5, 10, 100, 1000)),
    "MTEB": _cut(("nDCG", "AP", "R", "P", "RR", "Success"), (1, 3, 5, 10, 20, 100, 1000)),
    "TREC-RAG24": ("nDCG@20", "nDCG@100", "R@100"),
    "TREC-RAG25": ("nDCG@30", "nDCG@100", "R@100"),
}
MEASURE_SETS["TREC-RAG"] = MEASURE_SETS["TREC-RAG25"]

_BOTH = "averaged over the queries in both run and judgments (missing=\"skip\", --missing skip)"
_TREC_C = ("trec_eval -c: a judged query absent from the run scores 0 (missing=\"zero\", the "
           "default)")
#: what each set stands for, as ``ranklens measures NAME`` prints it
SET_DOCS: dict[str, str] = {
    "BEIR": f"BEIR's EvaluateRetrieval.evaluate (pytrec_eval ndcg_cut, map_cut, recall, P at its "
            f"default k_values), {_BOTH}",
    "MTEB": f"MTEB 2's retrieval scores (pytrec_eval ndcg_cut, map_cut, recall, P, success and "
            f"MTEB's MRR@k at its default k_values), {_BOTH}",
    "TREC-RAG24": f"TREC RAG 2024's official retrieval measures, {_TREC_C}",
    "TREC-RAG25": f"TREC RAG 2025's official retrieval measures, {_TREC_C}",
    "TREC-RAG": f"the latest TREC RAG track's set (TREC-RAG25's measures), {_TREC_C}",
}
_UPPER = {name.upper(): members for name, members in MEASURE_SETS.items()}


def expand_set(text: str) -> list[str] | None:
    """The measures of the set named ``text`` (any case), None when it names none.

    Examples
    --------
    >>> expand_set("trec-rag24")
    ['nDCG@20', 'nDCG@100', 'R@100']
    >>> expand_set("nDCG@10") is None
    True
    """
    members = _UPPER.get(text.strip().upper())
    return None if members is None else list(members)


def describe_set(text: str) -> str | None:
    """The set named ``text`` (any case) in words: its name, what it stands for, its
    members; None when it names no set.

    Examples
    --------
    >>> print(describe_set("trec-rag24").splitlines()[-1])
        measures: nDCG@20, nDCG@100, R@100
    """
    name = next((n for n in MEASURE_SETS if n.upper() == text.strip().upper()), None)
    if name is None:
        return None
    return (f"{name} (a measure set)\n    {SET_DOCS[name]}\n"
            f"    measures: {', '.join(MEASURE_SETS[name])}\n")
