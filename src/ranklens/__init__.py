"""ranklens: exact, fast evaluation of ranked results.

>>> import ranklens
>>> r = ranklens.evaluate({"q": {"a": 1, "b": 0}}, {"q": {"a": 2.0, "b": 1.0}}, ["RR", "P@1"])
>>> r["RR"], r["P@1"]
(1.0, 1.0)
"""

from __future__ import annotations

import typing as _typing

from ._errors import InputError, MeasureError, ParameterError, RanklensError, RanklensWarning
from ._version import __version__

if _typing.TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports these
    from ._accumulator import Accumulator
    from ._agreement.api import Agreement, AgreementMatrix, agreement
    from ._agreement.values import AgreementMeasure, parse_agreement
    from ._compare import Comparison, PairComparison, compare, compare_results
    from ._compare.options import CompareOptions
    from ._conventions import CONVENTIONS, Convention
    from ._correlation import RankCorrelation, rank_correlation
    from ._evaluate import evaluate
    from ._evaluate_arrays import evaluate_arrays, from_arrays
    from ._interval import ScoreInterval
    from ._io._items import load_interactions, load_item_features, load_item_groups, load_items
    from ._io._load import load_qrels, load_run
    from ._io._pairs import load_pairs
    from ._io._pairs import pairs_to_tables as from_pairs
    from ._item_tables import Interactions, ItemCatalogue, ItemFeatures, ItemGroups
    from ._judgments import Judgments
    from ._measures import Measure
    from ._names import parse_measure, parse_measures
    from ._pipeline.options import EvaluateOptions
    from ._pool import merge_judgments, pool
    from ._render import FORMATS, render
    from ._report import report
    from ._residual import Residual, residual
    from ._result import Result
    from ._results import Results
    from ._tables import Qrels, Run, SubtopicQrels
    from ._trec_eval import TrecEvalError, TrecEvalReport, trec_eval

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
    "evaluate",
    "evaluate_arrays",
    "from_arrays",
    "from_pairs",
    "load_interactions",
    "load_item_features",
    "load_item_groups",
    "load_items",
    "load_pairs",
    "load_qrels",
    "load_run",
    "merge_judgments",
    "parse_agreement",
    "parse_measure",
    "parse_measures",
    "pool",
    "rank_correlation",
    "render",
    "report",
    "residual",
    "trec_eval",
]

# Public name -> (module, attribute), imported on first use (PEP 562): ``import ranklens``
# then costs no numpy, no measure registry and no comparison statistics, which a command
# that fails on its arguments, a ``--help`` or a Ctrl-C guard never needs.
_LAZY: dict[str, tuple[str, str]] = {
    "Agreement": ("._agreement.api", "Agreement"),
    "AgreementMatrix": ("._agreement.api", "AgreementMatrix"),
    "AgreementMeasure": ("._agreement.values", "AgreementMeasure"),
    "Accumulator": ("._accumulator", "Accumulator"),
    "CONVENTIONS": ("._conventions", "CONVENTIONS"),
    "CompareOptions": ("._compare.options", "CompareOptions"),
    "Comparison": ("._compare", "Comparison"),
    "Convention": ("._conventions", "Convention"),
    "EvaluateOptions": ("._pipeline.options", "EvaluateOptions"),
    "FORMATS": ("._render", "FORMATS"),
    "Judgments": ("._judgments", "Judgments"),
    "Interactions": ("._item_tables", "Interactions"),
    "ItemCatalogue": ("._item_tables", "ItemCatalogue"),
    "ItemFeatures": ("._item_tables", "ItemFeatures"),
    "ItemGroups": ("._item_tables", "ItemGroups"),
    "Measure": ("._measures", "Measure"),
    "PairComparison": ("._compare", "PairComparison"),
    "Qrels": ("._tables", "Qrels"),
    "RankCorrelation": ("._correlation", "RankCorrelation"),
    "Residual": ("._residual", "Residual"),
    "Result": ("._result", "Result"),
    "Results": ("._results", "Results"),
    "Run": ("._tables", "Run"),
    "ScoreInterval": ("._interval", "ScoreInterval"),
    "SubtopicQrels": ("._tables", "SubtopicQrels"),
    "TrecEvalError": ("._trec_eval", "TrecEvalError"),
    "TrecEvalReport": ("._trec_eval", "TrecEvalReport"),
    "agreement": ("._agreement.api", "agreement"),
    "compare": ("._compare", "compare"),
    "compare_results": ("._compare", "compare_results"),
    "evaluate": ("._evaluate", "evaluate"),
    "evaluate_arrays": ("._evaluate_arrays", "evaluate_arrays"),
    "from_arrays": ("._evaluate_arrays", "from_arrays"),
    "from_pairs": ("._io._pairs", "pairs_to_tables"),
    "load_interactions": ("._io._items", "load_interactions"),
    "load_item_features": ("._io._items", "load_item_features"),
    "load_item_groups": ("._io._items", "load_item_groups"),
    "load_items": ("._io._items", "load_items"),
    "load_pairs": ("._io._pairs", "load_pairs"),
    "load_qrels": ("._io._load", "load_qrels"),
    "load_run": ("._io._load", "load_run"),
    "merge_judgments": ("._pool", "merge_judgments"),
    "parse_agreement": ("._agreement.values", "parse_agreement"),
    "parse_measure": ("._names", "parse_measure"),
    "parse_measures": ("._names", "parse_measures"),
    "pool": ("._pool", "pool"),
    "rank_correlation": ("._correlation", "rank_correlation"),
    "render": ("._render", "render"),
    "report": ("._report", "report"),
    "residual": ("._residual", "residual"),
    "trec_eval": ("._trec_eval", "trec_eval"),
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
