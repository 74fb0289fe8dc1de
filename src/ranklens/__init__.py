"""ranklens: exact, fast evaluation of ranked results.

>>> import ranklens
>>> r = ranklens.evaluate({"q": {"a": 1, "b": 0}}, {"q": {"a": 2.0, "b": 1.0}}, ["RR", "P@1"])
>>> r["RR"], r["P@1"]
(1.0, 1.0)
"""

from __future__ import annotations

from ._compare import Comparison, PairComparison, compare, compare_results
from ._conventions import CONVENTIONS, Convention
from ._errors import InputError, MeasureError, ParameterError, RanklensError, RanklensWarning
from ._evaluate import evaluate
from ._evaluate_arrays import evaluate_arrays, from_arrays
from ._io._load import load_qrels, load_run
from ._io._pairs import load_pairs
from ._io._pairs import pairs_to_tables as from_pairs
from ._measures import Measure
from ._names import parse_measure, parse_measures
from ._render import FORMATS, render
from ._report import report
from ._result import Result
from ._results import Results
from ._tables import Qrels, Run, SubtopicQrels
from ._trec_eval import TrecEvalError, TrecEvalReport, trec_eval
from ._version import __version__

__all__ = [
    "CONVENTIONS",
    "FORMATS",
    "Comparison",
    "Convention",
    "InputError",
    "Measure",
    "MeasureError",
    "PairComparison",
    "ParameterError",
    "Qrels",
    "RanklensError",
    "RanklensWarning",
    "Result",
    "Results",
    "Run",
    "SubtopicQrels",
    "TrecEvalError",
    "TrecEvalReport",
    "__version__",
    "compare",
    "compare_results",
    "evaluate",
    "evaluate_arrays",
    "from_arrays",
    "from_pairs",
    "load_pairs",
    "load_qrels",
    "load_run",
    "parse_measure",
    "parse_measures",
    "render",
    "report",
    "trec_eval",
]
