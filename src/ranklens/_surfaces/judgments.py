"""``Judgments``: relevance judgments prepared once and evaluated against many runs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._base.errors import ParameterError
from .._ingest.io._load import load_qrels
from .._ingest.tables import Qrels, SubtopicQrels
from .._measures import Measure
from .._model.dicts import dict_judgments
from .._model.matching import qrels_index
from .._pipeline.options import EvaluateOptions, options_of
from .._pipeline.plan import make_plan
from .._results.result import Result
from .._results.results import Results
from .engine import choose_engine
from .evaluate import evaluate_dicts, evaluate_loaded, runs_of

__all__ = ["Judgments"]

MeasuresArg = str | Measure | Iterable[str | Measure]


class Judgments:
    """Relevance judgments prepared once, to evaluate many runs against.

    ``Judgments(qrels, measures).evaluate(run)`` gives what
    ``ranklens.evaluate(qrels, run, measures)`` gives, but the judgments are read,
    checked and indexed (queries numbered, documents hashed, grades sorted) once, when
    the object is made, and the measures and options are parsed and checked once: each
    :meth:`evaluate` call pays only for its own run. This is pytrec_eval's
    ``RelevanceEvaluator`` reuse, for every validation round of a training loop or every
    candidate of a parameter sweep.

    The object holds nothing that an evaluation changes: evaluating a run twice, or other
    runs in between, gives identical results.

    Parameters
    ----------
    qrels : path, mapping, DataFrame, Qrels or SubtopicQrels
        The judgments, in any form :func:`ranklens.evaluate` takes.
    measures : str, Measure or list of them, optional
        The measures every :meth:`evaluate` call computes unless it names its own.
    options : EvaluateOptions, optional
        The evaluation options (those of :func:`ranklens.evaluate`) as one value;
        keywords (``depth=100``, ``convention="ranx"``, ...) may give them instead or add
        to them.

    Raises
    ------
    InputError
        The judgments cannot be read.
    MeasureError, ParameterError
        A measure name or an option is invalid (checked here, before any run is given).

    Examples
    --------
    >>> import ranklens
    >>> judged = ranklens.Judgments({"q1": {"d1": 1, "d2": 0, "d3": 2}},
    ...                             ["AP", "P@2"])
    >>> r = judged.evaluate({"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}})
    >>> round(r["AP"], 4), r["P@2"]
    (0.8333, 0.5)
    >>> judged.evaluate({"q1": {"d3": 0.9, "d1": 0.8}})["AP"]
    1.0
    >>> round(judged.evaluate({"q1": {"d3": 0.9}}, "nDCG@3")["nDCG@3"], 4)  # other measures
    0.7602
    """

    __slots__ = ("_dicts", "_measures", "_options", "_plan", "qrels")

    #: the judgments as a table (read and checked once)
    qrels: Qrels | SubtopicQrels

    def __init__(self, qrels: Any, measures: MeasuresArg | None = None, *,
                 options: EvaluateOptions | None = None, **kwargs: Any) -> None:
        self._options = options_of(options, **kwargs)
        self._measures = measures
        # the plan of a call that adds nothing to what the judgments were made with;
        # checked here, so a bad measure name or option fails before any run is read
        self._plan = None if measures is None else make_plan(measures, self._options)
        self.qrels = qrels if isinstance(qrels, (Qrels, SubtopicQrels)) else load_qrels(qrels)
        # judgments given as {query: {doc: grade}}, read again as arrays for runs given as
        # dicts (ranklens._model.dicts; None: not for that path)
        self._dicts = dict_judgments(qrels)
        if isinstance(self.qrels, Qrels):
            # the judgment index (queries numbered, doc ids hashed, grades sorted), kept
            # on the table, where every alignment to it reads it
            qrels_index(self.qrels)

    def evaluate(self, run: Any, measures: MeasuresArg | None = None, *,
                 run_name: str | None = None, **kwargs: Any) -> Result | Results:
        """Evaluate a run (or several) against the prepared judgments.

        Parameters
        ----------
        run : path, mapping, DataFrame or Run; or several of them
            As for :func:`ranklens.evaluate`.
        measures : str, Measure or list of them, optional
            The measures to compute; default: those the judgments were made with.
        run_name : str, optional
            Name reported for the run (as for :func:`ranklens.evaluate`).
        **kwargs
            Options added to those the judgments were made with (``depth=100``); an
            option given both ways with different values is a :class:`ParameterError`.

        Returns
        -------
        Result or Results
            What :func:`ranklens.evaluate` returns for the same judgments, run, measures
            and options.

        Raises
        ------
        ParameterError
            No measures were given, here or when the judgments were made.
        """
        plan = self._plan
        if measures is not None or run_name is not None or kwargs or plan is None:
            if measures is None:
                measures = self._measures
            if measures is None:
                raise ParameterError(
                    "Judgments.evaluate: no measures given; name them here or when making "
                    "the judgments (ranklens.Judgments(qrels, ['nDCG@10']))")
            plan = make_plan(measures, options_of(self._options, **kwargs),
                             run_name=run_name)
        several = runs_of(run, run_name)
        runs = [r for _, r in several] if several is not None else [run]
        if choose_engine(plan, self.qrels, runs, several=several is not None,
                         dict_judgments=self._dicts is not None).engine == "dicts":
            done = evaluate_dicts(plan, self._dicts, run)
            if done is not None:
                return done
        return evaluate_loaded(plan, self.qrels, run, several)

    def __repr__(self) -> str:
        measures = "" if self._plan is None else f", {list(self._plan.names)}"
        return f"Judgments({self.qrels!r}{measures})"
