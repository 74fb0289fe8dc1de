"""ranklens: exact, fast evaluation of ranked results.

>>> import ranklens
>>> r = ranklens.evaluate({"q": {"a": 1, "b": 0}}, {"q": {"a": 2.0, "b": 1.0}}, ["RR", "P@1"])
>>> r["RR"], r["P@1"]
(1.0, 1.0)
"""

from __future__ import annotations

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
    from ._surfaces.derived_groups import derived_groups
    from ._surfaces.evaluate import evaluate
    from ._surfaces.evaluate_arrays import evaluate_arrays, from_arrays
    from ._surfaces.fusion.fuse import fuse
    from ._surfaces.fusion.tuning import FusionTuning, optimize_fusion
    from ._surfaces.judgments import Judgments
    from ._surfaces.pool import merge_judgments, pool
    from ._surfaces.power import power
    from ._surfaces.render import FORMATS, render
    from ._surfaces.report import report
    from ._surfaces.residual import Residual, residual
    from ._surfaces.risk import risk
    from ._surfaces.seeds import seeds
    from ._surfaces.segments import group_means, segments
    from ._surfaces.trec_eval import TrecEvalError, TrecEvalReport, trec_eval

__all__ = [
    "CONVENTIONS",
    "FORMATS",
    "Accumulator",
    "Agreement",
    "AgreementMatrix",
    "AgreementMeasure",
    "CompareOptions",
    "Comparison",
    "Convention",
    "EvaluateOptions",
    "FusionTuning",
    "InputError",
    "Interactions",
    "ItemCatalogue",
    "ItemFeatures",
    "ItemGroups",
    "Judgments",
    "Measure",
    "MeasureError",
    "PairComparison",
    "ParameterError",
    "Qrels",
    "RankCorrelation",
    "RanklensError",
    "RanklensWarning",
    "Residual",
    "Result",
    "Results",
    "Run",
    "ScoreInterval",
    "SubtopicQrels",
    "TrecEvalError",
    "TrecEvalReport",
    "__version__",
    "agreement",
    "compare",
    "compare_results",
    "derived_groups",
    "evaluate",
    "evaluate_arrays",
    "from_arrays",
    "from_pairs",
    "fuse",
    "group_means",
    "load_interactions",
    "load_item_features",
    "load_item_groups",
    "load_items",
    "load_pairs",
    "load_qrels",
    "load_run",
    "merge_judgments",
    "optimize_fusion",
    "parse_agreement",
    "parse_measure",
    "parse_measures",
    "pool",
    "power",
    "rank_correlation",
    "render",
    "report",
    "residual",
    "risk",
    "seeds",
    "segments",
    "trec_eval",
]

# Public name -> (module, attribute), imported on first use (PEP 562): ``import ranklens``
# then costs no numpy, no measure registry and no comparison statistics, which a command
# that fails on its arguments, a ``--help`` or a Ctrl-C guard never needs.
_LAZY: dict[str, tuple[str, str]] = {
    "Agreement": ("._surfaces.agreement.api", "Agreement"),
    "AgreementMatrix": ("._surfaces.agreement.api", "AgreementMatrix"),
    "AgreementMeasure": ("._surfaces.agreement.values", "AgreementMeasure"),
    "Accumulator": ("._surfaces.accumulator", "Accumulator"),
    "CONVENTIONS": ("._names.conventions", "CONVENTIONS"),
    "CompareOptions": ("._surfaces.compare.options", "CompareOptions"),
    "Comparison": ("._surfaces.compare", "Comparison"),
    "Convention": ("._names.conventions", "Convention"),
    "EvaluateOptions": ("._pipeline.options", "EvaluateOptions"),
    "FORMATS": ("._surfaces.render", "FORMATS"),
    "Judgments": ("._surfaces.judgments", "Judgments"),
    "Interactions": ("._ingest.item_tables", "Interactions"),
    "ItemCatalogue": ("._ingest.item_tables", "ItemCatalogue"),
    "ItemFeatures": ("._ingest.item_tables", "ItemFeatures"),
    "ItemGroups": ("._ingest.item_tables", "ItemGroups"),
    "Measure": ("._measures", "Measure"),
    "PairComparison": ("._surfaces.compare", "PairComparison"),
    "Qrels": ("._ingest.tables", "Qrels"),
    "RankCorrelation": ("._surfaces.correlation", "RankCorrelation"),
    "Residual": ("._surfaces.residual", "Residual"),
    "Result": ("._results.result", "Result"),
    "Results": ("._results.results", "Results"),
    "Run": ("._ingest.tables", "Run"),
    "ScoreInterval": ("._results.interval", "ScoreInterval"),
    "SubtopicQrels": ("._ingest.tables", "SubtopicQrels"),
    "TrecEvalError": ("._surfaces.trec_eval", "TrecEvalError"),
    "TrecEvalReport": ("._surfaces.trec_eval", "TrecEvalReport"),
    "agreement": ("._surfaces.agreement.api", "agreement"),
    "compare": ("._surfaces.compare", "compare"),
    "compare_results": ("._surfaces.compare", "compare_results"),
    "evaluate": ("._surfaces.evaluate", "evaluate"),
    "evaluate_arrays": ("._surfaces.evaluate_arrays", "evaluate_arrays"),
    "from_arrays": ("._surfaces.evaluate_arrays", "from_arrays"),
    "from_pairs": ("._ingest.io._pairs", "pairs_to_tables"),
    "load_interactions": ("._ingest.io._items", "load_interactions"),
    "load_item_features": ("._ingest.io._items", "load_item_features"),
    "load_item_groups": ("._ingest.io._items", "load_item_groups"),
    "load_items": ("._ingest.io._items", "load_items"),
    "fuse": ("._surfaces.fusion.fuse", "fuse"),
    "FusionTuning": ("._surfaces.fusion.tuning", "FusionTuning"),
    "optimize_fusion": ("._surfaces.fusion.tuning", "optimize_fusion"),
    "load_pairs": ("._ingest.io._pairs", "load_pairs"),
    "load_qrels": ("._ingest.io._load", "load_qrels"),
    "load_run": ("._ingest.io._load", "load_run"),
    "merge_judgments": ("._surfaces.pool", "merge_judgments"),
    "parse_agreement": ("._surfaces.agreement.values", "parse_agreement"),
    "parse_measure": ("._names", "parse_measure"),
    "parse_measures": ("._names", "parse_measures"),
    "pool": ("._surfaces.pool", "pool"),
    "power": ("._surfaces.power", "power"),
    "rank_correlation": ("._surfaces.correlation", "rank_correlation"),
    "render": ("._surfaces.render", "render"),
    "report": ("._surfaces.report", "report"),
    "residual": ("._surfaces.residual", "residual"),
    "risk": ("._surfaces.risk", "risk"),
    "derived_groups": ("._surfaces.derived_groups", "derived_groups"),
    "seeds": ("._surfaces.seeds", "seeds"),
    "segments": ("._surfaces.segments", "segments"),
    "group_means": ("._surfaces.segments", "group_means"),
    "trec_eval": ("._surfaces.trec_eval", "trec_eval"),
}


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
