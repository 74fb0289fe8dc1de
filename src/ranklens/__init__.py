"""ranklens: exact, fast evaluation of ranked results.

>>> import ranklens
>>> r = ranklens.evaluate({"q": {"a": 1, "b": 0}}, {"q": {"a": 2.0, "b": 1.0}}, ["RR", "P@1"])
>>> r["RR"], r["P@1"]
(1.0, 1.0)
"""

from __future__ import annotations

import sys as _sys

# ``python -m ranklens`` finding its ``__main__`` (runpy sets ``sys.argv[0]`` to ``-m``
# meanwhile): a Ctrl-C from here on ends the command with one line (_ranklens_entry)
if _sys.argv[:1] == ["-m"] and any(
        a == "-mranklens" or (a == "-m" and _sys.orig_argv[i + 1:i + 2] == ["ranklens"])
        for i, a in enumerate(_sys.orig_argv)):
    import _ranklens_entry  # noqa: F401

import typing as _typing

from ._base.errors import (
    InputError,
    MeasureError,
    ParameterError,
    RanklensError,
    RanklensWarning,
)
from ._version import __version__

if _typing.TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports these
    from ._ingest.io._items import (
        load_interactions,
        load_item_features,
        load_item_groups,
        load_items,
    )
    from ._ingest.io._load import load_qrels, load_run
    from ._ingest.io._pairs import load_pairs
    from ._ingest.io._pairs import pairs_to_tables as from_pairs
    from ._ingest.io.rag import (
        map_chunks,
        read_answers,
        read_nuggets,
        read_rag_judgments,
        read_requests,
        read_topics,
        read_umbrela,
        rollup,
    )
    from ._ingest.item_tables import Interactions, ItemCatalogue, ItemFeatures, ItemGroups
    from ._ingest.tables import Qrels, Run, SubtopicQrels
    from ._measures import Measure
    from ._names import parse_measure, parse_measures
    from ._names.conventions import CONVENTIONS, Convention
    from ._pipeline.options import EvaluateOptions
    from ._results.interval import ScoreInterval
    from ._results.result import Result
    from ._results.results import Results
    from ._surfaces.accumulator import Accumulator
    from ._surfaces.agreement.api import Agreement, AgreementMatrix, agreement
    from ._surfaces.agreement.values import AgreementMeasure, parse_agreement
    from ._surfaces.compare import Comparison, PairComparison, compare, compare_results
    from ._surfaces.compare.options import CompareOptions
    from ._surfaces.correlation import RankCorrelation, rank_correlation
    from ._surfaces.coverage import coverage
    from ._surfaces.derived_groups import derived_groups
    from ._surfaces.evaluate import evaluate
    from ._surfaces.evaluate_arrays import evaluate_arrays, from_arrays
    from ._surfaces.exposure import awrf, expected_exposure, group_exposure
    from ._surfaces.fusion.fuse import fuse
    from ._surfaces.fusion.tuning import FusionTuning, optimize_fusion
    from ._surfaces.judge_export import JudgeRequests, judge_requests
    from ._surfaces.judge_merge import MergedJudgments, merge_labels
    from ._surfaces.judges import JudgesReport, judges
    from ._surfaces.judgments import Judgments
    from ._surfaces.off_policy import OffPolicy, PolicyComparison, compare_policies, off_policy
    from ._surfaces.pool import merge_judgments, pool
    from ._surfaces.power import power
    from ._surfaces.rag_strings import nonllm_context_precision, nonllm_context_recall
    from ._surfaces.render import FORMATS, render
    from ._surfaces.report import report
    from ._surfaces.residual import Residual, residual
    from ._surfaces.risk import risk
    from ._surfaces.sampled import Sampled, sampled
    from ._surfaces.seeds import seeds
    from ._surfaces.segments import group_means, segments
    from ._surfaces.trec_eval import TrecEvalError, TrecEvalReport, trec_eval

__all__ = [
    "CONVENTIONS", "FORMATS", "Accumulator", "Agreement", "AgreementMatrix",
    "AgreementMeasure", "CompareOptions", "Comparison", "Convention", "EvaluateOptions",
    "FusionTuning", "InputError", "Interactions", "ItemCatalogue", "ItemFeatures",
    "ItemGroups", "JudgeRequests", "JudgesReport", "Judgments", "Measure", "MeasureError",
    "MergedJudgments", "OffPolicy", "PairComparison", "ParameterError", "PolicyComparison",
    "Qrels",
    "RankCorrelation", "RanklensError", "RanklensWarning", "Residual", "Result", "Results",
    "Run", "Sampled", "ScoreInterval", "SubtopicQrels", "TrecEvalError", "TrecEvalReport",
    "__version__", "agreement", "awrf", "compare", "compare_policies", "compare_results",
    "coverage",
    "derived_groups", "evaluate", "evaluate_arrays", "expected_exposure", "from_arrays",
    "from_pairs", "fuse", "group_exposure", "group_means", "judge_requests", "judges",
    "load_interactions", "load_item_features", "load_item_groups", "load_items", "load_pairs",
    "load_qrels", "load_run", "map_chunks", "merge_judgments", "merge_labels",
    "nonllm_context_precision", "nonllm_context_recall", "off_policy", "optimize_fusion",
    "parse_agreement", "parse_measure", "parse_measures", "pool", "power", "rank_correlation",
    "read_answers", "read_nuggets", "read_rag_judgments", "read_requests", "read_topics",
    "read_umbrela", "render", "report", "residual", "risk", "rollup", "sampled", "seeds",
    "segments", "trec_eval",
]

# Each module's public names, imported on first use (PEP 562): ``import ranklens``
# then costs no numpy, no measure registry and no comparison statistics, which a command
# that fails on its arguments, a ``--help`` or a Ctrl-C guard never needs.
_MODULES: dict[str, tuple[str, ...]] = {
    "._surfaces.agreement.api": ("Agreement", "AgreementMatrix", "agreement"),
    "._surfaces.agreement.values": ("AgreementMeasure", "parse_agreement"),
    "._surfaces.accumulator": ("Accumulator",),
    "._names.conventions": ("CONVENTIONS", "Convention"),
    "._surfaces.compare.options": ("CompareOptions",),
    "._surfaces.compare": ("Comparison", "PairComparison", "compare", "compare_results"),
    "._pipeline.options": ("EvaluateOptions",),
    "._surfaces.render": ("FORMATS", "render"),
    "._surfaces.judgments": ("Judgments",),
    "._ingest.item_tables": ("Interactions", "ItemCatalogue", "ItemFeatures", "ItemGroups"),
    "._measures": ("Measure",),
    "._ingest.tables": ("Qrels", "Run", "SubtopicQrels"),
    "._surfaces.correlation": ("RankCorrelation", "rank_correlation"),
    "._surfaces.residual": ("Residual", "residual"),
    "._results.result": ("Result",),
    "._results.results": ("Results",),
    "._results.interval": ("ScoreInterval",),
    "._surfaces.trec_eval": ("TrecEvalError", "TrecEvalReport", "trec_eval"),
    "._surfaces.evaluate": ("evaluate",),
    "._surfaces.evaluate_arrays": ("evaluate_arrays", "from_arrays"),
    "._ingest.io._items": (
        "load_interactions", "load_item_features", "load_item_groups", "load_items"),
    "._surfaces.fusion.fuse": ("fuse",),
    "._surfaces.fusion.tuning": ("FusionTuning", "optimize_fusion"),
    "._ingest.io._pairs": ("load_pairs",),
    "._ingest.io._load": ("load_qrels", "load_run"),
    "._surfaces.pool": ("merge_judgments", "pool"),
    "._names": ("parse_measure", "parse_measures"),
    "._surfaces.report": ("report",),
    "._surfaces.judges": ("JudgesReport", "judges"),
    "._surfaces.power": ("power",),
    "._surfaces.risk": ("risk",),
    "._surfaces.segments": ("group_means", "segments"),
    "._surfaces.seeds": ("seeds",),
    "._surfaces.derived_groups": ("derived_groups",),
    "._ingest.io.rag": ("map_chunks", "read_answers", "read_nuggets", "read_rag_judgments",
                        "read_requests", "read_topics", "read_umbrela", "rollup"),
    "._surfaces.judge_export": ("JudgeRequests", "judge_requests"),
    "._surfaces.judge_merge": ("MergedJudgments", "merge_labels"),
    "._surfaces.coverage": ("coverage",),
    "._surfaces.rag_strings": ("nonllm_context_precision", "nonllm_context_recall"),
    "._surfaces.off_policy": ("OffPolicy", "PolicyComparison", "compare_policies",
                              "off_policy"),
    "._surfaces.exposure": ("awrf", "expected_exposure", "group_exposure"),
    "._surfaces.sampled": ("Sampled", "sampled"),
}
_LAZY: dict[str, tuple[str, str]] = {name: (module, name)
                                     for module, names in _MODULES.items() for name in names}
_LAZY["from_pairs"] = ("._ingest.io._pairs", "pairs_to_tables")  # published under another name


def __getattr__(name: str) -> _typing.Any:
    """Import a public name on first use and keep it (later reads are plain lookups)."""
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'ranklens' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(module, __name__), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
